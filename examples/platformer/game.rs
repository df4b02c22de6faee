//! The platformer's game logic: spawning the level read from its file, the player controller,
//! coins, hazards, checkpoints, moving platforms and the goal. Plain systems with no rendering,
//! so the whole game runs headless (the test in `crates/bevy_sat/tests/platformer_game.rs`
//! plays it).
//!
//! Every collider carries a [`Paint`]: the renderer draws each shape from the same
//! `ConvexCollider` that collides, so what you see is what collides.

use bevy::ecs::query::QueryItem;
use bevy::prelude::*;
use bevy_sat::prelude::*;
use bevy_transform_interpolation::TranslationEasingState;

use crate::level::Level;
use crate::level_objects::ThingKind;

/// Gravity, units (pixels) per second squared.
pub const GRAVITY: f32 = -1500.0;
/// Running speed.
pub const RUN_SPEED: f32 = 220.0;
/// Take-off speed of a jump: about 104 units high.
pub const JUMP_SPEED: f32 = 560.0;
/// Upward speed kept when jump is released early (short hops).
pub const JUMP_RELEASE_SPEED: f32 = 200.0;
/// How long after leaving a ledge a jump still works.
pub const COYOTE_TIME: f32 = 0.1;
/// How long a jump pressed just before landing is remembered.
pub const JUMP_BUFFER: f32 = 0.12;
/// The player's size.
pub const PLAYER_SIZE: Vec2 = Vec2::new(24.0, 32.0);
/// How far below the player's feet the ground probe looks (a short shape cast).
pub const GROUND_PROBE: f32 = 4.0;
/// How far a sentry's laser reaches.
pub const LASER_REACH: f32 = 2000.0;
/// The tallest ledge the player walks up without a jump.
pub const STEP_HEIGHT: f32 = 10.0;
/// How far a jump that clips a ceiling's corner is nudged aside to keep rising.
pub const CORNER_CORRECTION: f32 = 6.0;

/// What the player asks for this frame, from the keyboard (or a script).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PlayerInput {
    /// Run left (← or A).
    pub left: bool,
    /// Run right (→ or D).
    pub right: bool,
    /// Down is held (↓ or S): with jump, drops through one-way platforms.
    pub down: bool,
    /// Jump is held (Space).
    pub jump_held: bool,
    /// Jump was pressed since the last fixed step.
    pub jump_pressed: bool,
}

/// The colour a shape is drawn with.
#[derive(Component, Debug, Clone, Copy)]
pub struct Paint(pub Color);

/// The player.
#[derive(Component, Debug, Clone, Copy)]
pub struct Player {
    /// Where the player comes back after a hazard.
    pub respawn: Vec2,
    /// Time left to jump after leaving the floor.
    pub coyote: f32,
    /// Time left for a buffered jump.
    pub jump_buffer: f32,
    /// The horizontal velocity kept in the air from the platform the player left (the physics
    /// adds it when the player leaves a moving platform, `PlatformOnLeave::AddVelocity`),
    /// added to the running speed until the player lands or hits a wall.
    pub carried: f32,
    /// The horizontal velocity of what the player stood on after the step before the last.
    pub platform_x: f32,
    /// Whether the player was on the floor after the step before the last.
    pub was_on_floor: bool,
}

impl Player {
    /// A player who comes back to `respawn`, standing still.
    pub fn new(respawn: Vec2) -> Self {
        Self {
            respawn,
            coyote: 0.0,
            jump_buffer: 0.0,
            carried: 0.0,
            platform_x: 0.0,
            was_on_floor: false,
        }
    }
}

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
                let collider = ConvexCollider::rectangle(PLAYER_SIZE.x, PLAYER_SIZE.y);
                let bundle = (collider, Weak, player, ground_probe(), Paint(PLAYER));
                landmarks.player = c.spawn((bundle, at(2.0))).id();
                landmarks.player
            }
            ThingKind::Crate(size) => c
                .spawn((rectangle(*size), Weak, Crate, at(0.0), Paint(CRATE)))
                .id(),
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

/// The player's ground check: a thin box across its feet, 1 unit above their bottom, cast
/// down [`GROUND_PROBE`] units, past sensors (coins, checkpoints, spikes).
fn ground_probe() -> ShapeCaster {
    let origin = Vec2::new(0.0, -PLAYER_SIZE.y / 2.0 + 2.0);
    ShapeCaster::new(
        ConvexCollider::rectangle(PLAYER_SIZE.x - 4.0, 2.0),
        origin,
        Dir2::NEG_Y,
    )
    .with_max_distance(GROUND_PROBE)
    .with_filter(SpatialQueryFilter::default().without_sensors())
}

/// Whether the ground probe found a floor below the feet: a surface facing up (within 50° of
/// vertical) that the feet are not already inside, while not moving up.
fn on_ground(hits: &ShapeHits, velocity: Vec2) -> bool {
    velocity.y <= 0.0
        && hits
            .iter()
            .any(|hit| hit.distance > 0.0 && hit.normal.y >= 50f32.to_radians().cos())
}

/// Input to velocity: run, jump from the ground (with coyote time from the ground probe,
/// buffering and a short hop when released early), drop through one-way platforms and one-way
/// tiles with down + jump. In the air, the running speed comes on top of what the player kept
/// from a moving platform it left ([`Player::carried`]).
pub fn control_player(
    time: Res<Time>,
    mut input: ResMut<PlayerInput>,
    mut players: Query<(
        Entity,
        &mut Player,
        &mut Velocity,
        &ContactFlags,
        &ShapeHits,
        &Transform,
    )>,
    one_way: Query<(), With<OneWayPlatform>>,
    grids: Query<(&TileGrid, &Transform)>,
    mut commands: Commands,
) {
    let dt = time.delta_secs();
    for (entity, mut player, mut velocity, flags, ground, transform) in &mut players {
        player.coyote = if on_ground(ground, velocity.0) {
            COYOTE_TIME
        } else {
            (player.coyote - dt).max(0.0)
        };
        player.jump_buffer = if input.jump_pressed {
            JUMP_BUFFER
        } else {
            (player.jump_buffer - dt).max(0.0)
        };
        player.carried = carried(&player, flags);
        player.was_on_floor = flags.on_floor();
        player.platform_x = flags.platform_velocity().x;
        let run = RUN_SPEED * (f32::from(u8::from(input.right)) - f32::from(u8::from(input.left)));
        velocity.x = run + player.carried;
        if player.jump_buffer > 0.0 && player.coyote > 0.0 {
            let feet = transform.translation.truncate() - Vec2::Y * PLAYER_SIZE.y * 0.5;
            let on_one_way = flags.standing_on().is_some_and(|e| {
                one_way.contains(e) || grids.get(e).is_ok_and(|grid| on_one_way_cells(grid, feet))
            });
            if input.down && on_one_way {
                commands.entity(entity).insert(DropThrough);
            } else {
                velocity.y = JUMP_SPEED;
            }
            player.jump_buffer = 0.0;
            player.coyote = 0.0;
        }
        if !input.jump_held && velocity.y > JUMP_RELEASE_SPEED {
            velocity.y = JUMP_RELEASE_SPEED;
        }
    }
    input.jump_pressed = false;
}

/// What the player keeps in the air of a moving platform's horizontal velocity: on the floor,
/// nothing (a platform carries what stands on it); after leaving the floor, the horizontal
/// velocity of what it stood on (the physics added it to the player's velocity in the step it
/// left); in the air, the same, until a wall on that side stops it.
fn carried(player: &Player, flags: &ContactFlags) -> f32 {
    let stopped = (player.carried > 0.0 && flags.on_wall_right())
        || (player.carried < 0.0 && flags.on_wall_left());
    if flags.on_floor() || stopped {
        0.0
    } else if player.was_on_floor {
        player.platform_x
    } else {
        player.carried
    }
}

/// Whether feet at `feet` (the middle of the player's bottom edge, in the world) stand on one-way
/// cells of a grid only: the cells just below the feet's ends and middle hold a one-way cell
/// and no solid one, so dropping lets the player fall.
fn on_one_way_cells((grid, transform): (&TileGrid, &Transform), feet: Vec2) -> bool {
    let to_local = transform.compute_affine().inverse();
    let below = [-0.5, 0.0, 0.5].map(|side| {
        let point = feet + Vec2::new(side * (PLAYER_SIZE.x - 2.0), -1.0);
        let local = to_local.transform_point3(point.extend(0.0)).truncate();
        grid.cell_at(local)
            .map_or(Tile::Empty, |cell| grid.get(cell))
    });
    below.contains(&Tile::OneWay) && !below.contains(&Tile::Solid)
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

/// What [`send_home`] changes of the player: its state, where it is, its velocity, and where
/// its drawing eases from.
type Homing = (
    &'static mut Player,
    &'static mut Transform,
    &'static mut Velocity,
    Option<&'static mut TranslationEasingState>,
);

/// Puts the player back at its respawn point, standing still. This runs after the physics
/// step, so when the player is drawn between steps (the window adds `TransformInterpolation`)
/// the drawing's easing is started from there too: the player appears there in the next frame
/// instead of being drawn sweeping across the level from where it was.
fn send_home((player, transform, velocity, easing): &mut QueryItem<Homing>) {
    transform.translation = player.respawn.extend(transform.translation.z);
    velocity.0 = Vec2::ZERO;
    player.carried = 0.0;
    player.platform_x = 0.0;
    if let Some(easing) = easing {
        easing.start = Some(transform.translation);
    }
}

/// What the player can touch: coin, hazard, checkpoint, goal.
type Touchable = (
    Has<Coin>,
    Has<Hazard>,
    Option<&'static Checkpoint>,
    Has<Goal>,
);

/// Coins, hazards, checkpoints and the goal, from the collision events of the step.
pub fn touch_things(
    mut started: MessageReader<CollisionStarted>,
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
            let Ok(mut homing) = players.get_mut(me) else {
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
