//! The platformer's game logic: spawning the level read from its file, coins, hazards,
//! checkpoints, moving platforms and the goal (the player's controller is in `player.rs`). Plain systems with no rendering,
//! so the whole game runs headless (the test in `crates/bevy_sat/tests/platformer_game.rs`
//! plays it).
//!
//! Every collider carries a [`Paint`]: the renderer draws each shape from the same
//! `ConvexCollider` that collides, so what you see is what collides.

use bevy::prelude::*;
use bevy_sat::prelude::*;

use crate::level::Level;
use crate::level_objects::ThingKind;
use crate::player::{
    Homing, PLAYER_SIZE, Player, PlayerInput, control_player, ground_probe, player_collider,
    send_home,
};

/// Gravity, units (pixels) per second squared.
pub const GRAVITY: f32 = -1500.0;
/// The tallest ledge the player walks up without a jump.
pub const STEP_HEIGHT: f32 = 10.0;
/// How far a jump that clips a ceiling's corner is nudged aside to keep rising.
pub const CORNER_CORRECTION: f32 = 6.0;
/// How far a sentry's laser reaches.
pub const LASER_REACH: f32 = 2000.0;
/// The colour a shape is drawn with.
#[derive(Component, Debug, Clone, Copy)]
pub struct Paint(pub Color);

/// A coin: a sensor worth one point.
#[derive(Component, Debug, Clone, Copy)]
pub struct Coin;

/// Touching it sends the player back to the last checkpoint.
#[derive(Component, Debug, Clone, Copy)]
pub struct Hazard;

/// Touching it moves the player's respawn point to its `respawn`.
#[derive(Component, Debug, Clone, Copy)]
pub struct Checkpoint {
    /// Where the player comes back: standing at the checkpoint's foot.
    pub respawn: Vec2,
}

/// A sentry on a wall: its laser (a [`RayCaster`]) stops at the first thing in its way, and
/// sends the player home when that is the player.
#[derive(Component)]
pub struct Sentry;

/// The end of the level.
#[derive(Component, Debug, Clone, Copy)]
pub struct Goal;

/// A pushable crate.
#[derive(Component, Debug, Clone, Copy)]
pub struct Crate;

/// The player's pickup sensor: a child collider of the player, the player's own shape, that
/// collects coins and meets hazards, checkpoints and the goal (see [`touch_things`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct Pickup;

/// A handle crate's handle: its size, relative to the crate's box.
const HANDLE_WIDTH: f32 = 0.4;
const HANDLE_HEIGHT: f32 = 6.0;

/// A Mighty body shuttling between two points, pausing at each end.
#[derive(Component, Debug, Clone, Copy)]
pub struct Patrol {
    pub from: Vec2,
    pub to: Vec2,
    pub speed: f32,
    pub pause: f32,
    /// Time left to wait at the current end.
    pub waiting: f32,
    /// Heading to `to` (else to `from`).
    pub outbound: bool,
}

/// Names for the level's notable entities, for the HUD and the test.
#[derive(Resource, Debug, Clone, Copy)]
pub struct Landmarks {
    pub player: Entity,
    /// The crate to push (the test checks it moved): the one named `push_crate`.
    #[allow(dead_code)]
    pub crate_box: Option<Entity>,
    /// The platforms named `ferry` and `elevator`, which the scripted player rides.
    pub ferry: Option<Entity>,
    pub elevator: Option<Entity>,
}

/// The score.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct Score {
    pub coins: u32,
    pub total_coins: u32,
    pub deaths: u32,
    pub complete: bool,
    /// Seconds of play until the goal.
    pub time: f32,
}

/// Everything the game needs on top of [`SatPlugin`]: physics settings, the level (read by
/// [`crate::level::load`]), and the systems (input to velocity before the physics step,
/// pickups and hazards after it).
pub struct GamePlugin {
    pub level: Level,
}

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.level.clone())
            .insert_resource(SatConfig {
                gravity: Vec2::new(0.0, GRAVITY),
                floor_snap_distance: 6.0,
                step_height: STEP_HEIGHT,
                corner_correction: CORNER_CORRECTION,
                platform_on_leave: PlatformOnLeave::AddVelocity,
                ..default()
            })
            .init_resource::<PlayerInput>()
            .init_resource::<Score>()
            .add_systems(Startup, spawn_level)
            .add_systems(FixedUpdate, (control_player, patrol))
            .add_systems(
                FixedPostUpdate,
                (touch_things, respawn_crushed).after(SatSystems::Writeback),
            )
            .add_systems(FixedPostUpdate, sentry_lasers.after(SatSystems::Casters));
    }
}

const PLATFORM: Color = Color::srgb(0.85, 0.62, 0.28);
const CRATE: Color = Color::srgb(0.72, 0.50, 0.26);
const COIN: Color = Color::srgb(1.0, 0.84, 0.2);
const HAZARD: Color = Color::srgb(0.9, 0.2, 0.25);
const GOAL: Color = Color::srgb(0.35, 0.95, 0.55);
const PLAYER: Color = Color::srgb(1.0, 0.62, 0.25);
const CHECKPOINT: Color = Color::srgba(0.6, 0.9, 1.0, 0.35);

/// A rectangle of the tile layers' art, drawn by the renderer (the grid collides, not this).
#[derive(Component, Debug, Clone, Copy)]
pub struct TileRect(pub Vec2);

/// Spawns the level read from its file: the tile grid and its art, then every object. The
/// crates, coins and sensors are spawned with the colours the game gives them; blocks and
/// tiles with the colours in the file.
pub fn spawn_level(mut commands: Commands, level: Res<Level>, mut score: ResMut<Score>) {
    let c = &mut commands;
    c.spawn((
        level.grid.clone(),
        Transform::from_translation(level.origin.extend(0.0)),
    ));
    for art in &level.art {
        c.spawn((
            TileRect(art.size),
            Transform::from_translation((art.min + art.size * 0.5).extend(-0.5)),
            Paint(art.color),
        ));
    }
    let mut landmarks = Landmarks {
        player: Entity::PLACEHOLDER,
        crate_box: None,
        ferry: None,
        elevator: None,
    };
    let mut coins = 0;
    for thing in &level.things {
        let at = |z: f32| Transform::from_translation(thing.at.extend(z));
        let entity = match &thing.kind {
            ThingKind::Player => {
                let player = Player::new(thing.at);
                let bundle = (
                    player_collider(),
                    Weak,
                    player,
                    ground_probe(),
                    Paint(PLAYER),
                );
                landmarks.player = c.spawn((bundle, at(2.0))).id();
                // What the player touches is read from this sensor riding on it, not from the
                // player's own collider.
                c.spawn((
                    player_collider(),
                    Sensor,
                    Pickup,
                    Transform::default(),
                    ChildOf(landmarks.player),
                ));
                landmarks.player
            }
            ThingKind::Crate(size) => c
                .spawn((rectangle(*size), Weak, Crate, at(0.0), Paint(CRATE)))
                .id(),
            ThingKind::HandleCrate(size) => {
                let body = c
                    .spawn((rectangle(*size), Weak, Crate, at(0.0), Paint(CRATE)))
                    .id();
                // The handle is a child collider: it moves with the crate, which is pushed,
                // carried and stood on as one body, handle included.
                let handle = Vec2::new(size.x * HANDLE_WIDTH, HANDLE_HEIGHT);
                let on_top = Vec3::new(0.0, (size.y + handle.y) * 0.5, 0.0);
                c.spawn((
                    rectangle(handle),
                    Transform::from_translation(on_top),
                    ChildOf(body),
                    Paint(CRATE.darker(0.15)),
                ));
                body
            }
            ThingKind::Block(collider, color) => c
                .spawn((collider.clone(), Mighty, at(0.0), Paint(*color)))
                .id(),
            ThingKind::Coin => {
                coins += 1;
                let collider = ConvexCollider::circle(8.0);
                c.spawn((collider, Sensor, Coin, at(1.0), Paint(COIN))).id()
            }
            ThingKind::Hazard(size) => c
                .spawn((rectangle(*size), Sensor, Hazard, at(0.0), Paint(HAZARD)))
                .id(),
            ThingKind::Checkpoint(size) => {
                // Where the player comes back: standing on the checkpoint's bottom.
                let respawn = thing.at - Vec2::Y * (size.y - PLAYER_SIZE.y) * 0.5;
                let checkpoint = Checkpoint { respawn };
                let bundle = (rectangle(*size), Sensor, checkpoint, Paint(CHECKPOINT));
                c.spawn((bundle, at(-1.0))).id()
            }
            ThingKind::Goal(size) => c
                .spawn((rectangle(*size), Sensor, Goal, at(0.0), Paint(GOAL)))
                .id(),
            ThingKind::Sentry(size) => {
                let laser = RayCaster::new(Vec2::new(size.x * 0.5, 0.0), Dir2::X)
                    .with_max_distance(LASER_REACH)
                    .with_filter(SpatialQueryFilter::default().without_sensors());
                let bundle = (rectangle(*size), Mighty, Sentry, laser, Paint(HAZARD));
                c.spawn((bundle, at(0.5))).id()
            }
            ThingKind::Platform {
                size,
                to,
                speed,
                pause,
            } => {
                let patrol = Patrol {
                    from: thing.at,
                    to: *to,
                    speed: *speed,
                    pause: *pause,
                    waiting: *pause,
                    outbound: true,
                };
                let bundle = (rectangle(*size), Mighty, Velocity::default(), patrol);
                c.spawn((bundle, at(0.0), Paint(PLATFORM))).id()
            }
        };
        match thing.name.as_str() {
            "push_crate" => landmarks.crate_box = Some(entity),
            "ferry" => landmarks.ferry = Some(entity),
            "elevator" => landmarks.elevator = Some(entity),
            _ => {}
        }
    }
    *score = Score {
        total_coins: coins,
        ..default()
    };
    commands.insert_resource(landmarks);
}

fn rectangle(size: Vec2) -> ConvexCollider {
    ConvexCollider::rectangle(size.x, size.y)
}

/// Moves patrolling platforms between their ends, exactly reaching each end, then pausing.
pub fn patrol(time: Res<Time>, mut platforms: Query<(&mut Patrol, &Transform, &mut Velocity)>) {
    let dt = time.delta_secs();
    for (mut patrol, transform, mut velocity) in &mut platforms {
        if patrol.waiting > 0.0 {
            patrol.waiting -= dt;
            velocity.0 = Vec2::ZERO;
            continue;
        }
        let target = if patrol.outbound {
            patrol.to
        } else {
            patrol.from
        };
        let offset = target - transform.translation.truncate();
        let step = patrol.speed * dt;
        if offset.length() <= step {
            velocity.0 = offset / dt;
            patrol.outbound = !patrol.outbound;
            patrol.waiting = patrol.pause;
        } else {
            velocity.0 = offset.normalize() * patrol.speed;
        }
    }
}

/// What the player can touch: coin, hazard, checkpoint, goal.
type Touchable = (
    Has<Coin>,
    Has<Hazard>,
    Option<&'static Checkpoint>,
    Has<Goal>,
);

/// Coins, hazards, checkpoints and the goal, from the collision events of the step that name
/// the player's [`Pickup`] sensor (its [`ColliderOf`] says which player it rides on).
pub fn touch_things(
    mut started: MessageReader<CollisionStarted>,
    pickups: Query<&ColliderOf, With<Pickup>>,
    mut players: Query<Homing>,
    things: Query<Touchable, Without<Player>>,
    mut score: ResMut<Score>,
    time: Res<Time>,
    mut commands: Commands,
) {
    if !score.complete {
        score.time += time.delta_secs();
    }
    for hit in started.read() {
        for (me, other) in [(hit.a, hit.b), (hit.b, hit.a)] {
            let Ok(pickup) = pickups.get(me) else {
                continue;
            };
            let Ok(mut homing) = players.get_mut(pickup.body) else {
                continue;
            };
            let Ok((coin, hazard, checkpoint, goal)) = things.get(other) else {
                continue;
            };
            if coin {
                commands.entity(other).despawn();
                score.coins += 1;
            }
            if hazard {
                score.deaths += 1;
                send_home(&mut homing);
            }
            if let Some(checkpoint) = checkpoint {
                homing.0.respawn = checkpoint.respawn;
            }
            if goal {
                score.complete = true;
            }
        }
    }
}

/// A sentry whose laser's first hit is the player sends them home.
pub fn sentry_lasers(
    sentries: Query<&RayHits, With<Sentry>>,
    mut players: Query<Homing>,
    mut score: ResMut<Score>,
) {
    for hits in &sentries {
        let Some(first) = hits.iter().next() else {
            continue;
        };
        if let Ok(mut homing) = players.get_mut(first.entity) {
            score.deaths += 1;
            send_home(&mut homing);
        }
    }
}

/// A player squeezed by the elevator is sent back to the checkpoint.
pub fn respawn_crushed(
    mut crushed: MessageReader<Crushed>,
    mut players: Query<Homing>,
    mut score: ResMut<Score>,
) {
    for event in crushed.read() {
        if let Ok(mut homing) = players.get_mut(event.body) {
            score.deaths += 1;
            send_home(&mut homing);
        }
    }
}
