//! The platformer's game logic: the level, the player controller, coins, hazards, checkpoints,
//! moving platforms and the goal. Plain systems with no rendering, so the whole game runs
//! headless (the test in `crates/bevy_sat/tests/platformer_game.rs` plays it).
//!
//! Every collider carries a [`Paint`]: the renderer draws each shape from the same
//! `ConvexCollider` that collides, so what you see is what collides.

use bevy::prelude::*;
use bevy_sat::prelude::*;

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
/// Where the player starts.
pub const START: Vec2 = Vec2::new(0.0, 16.0);
/// How far below the player's feet the ground probe looks (a short shape cast).
pub const GROUND_PROBE: f32 = 4.0;
/// Where the sentry's laser starts, on the left wall, and how far it reaches.
pub const SENTRY: Vec2 = Vec2::new(-344.0, 120.0);
pub const LASER_REACH: f32 = 2000.0;

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
}

/// A coin: a sensor worth one point.
#[derive(Component, Debug, Clone, Copy)]
pub struct Coin;

/// Touching it sends the player back to the last checkpoint.
#[derive(Component, Debug, Clone, Copy)]
pub struct Hazard;

/// Touching it moves the player's respawn point here.
#[derive(Component, Debug, Clone, Copy)]
pub struct Checkpoint;

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
    /// The crate to push (the test checks it moved).
    #[allow(dead_code)]
    pub crate_box: Entity,
    pub ferry: Entity,
    pub elevator: Entity,
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

/// Everything the game needs on top of [`SatPlugin`]: physics settings, the level, and the
/// systems (input to velocity before the physics step, pickups and hazards after it).
pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(SatConfig {
            gravity: Vec2::new(0.0, GRAVITY),
            floor_snap_distance: 6.0,
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

const GROUND: Color = Color::srgb(0.36, 0.30, 0.25);
const GRASS: Color = Color::srgb(0.38, 0.62, 0.32);
const STONE: Color = Color::srgb(0.45, 0.47, 0.52);
const PLATFORM: Color = Color::srgb(0.85, 0.62, 0.28);
const ONE_WAY: Color = Color::srgb(0.55, 0.78, 0.95);
const CRATE: Color = Color::srgb(0.72, 0.50, 0.26);
const COIN: Color = Color::srgb(1.0, 0.84, 0.2);
const HAZARD: Color = Color::srgb(0.9, 0.2, 0.25);
const GOAL: Color = Color::srgb(0.35, 0.95, 0.55);
const PLAYER: Color = Color::srgb(0.95, 0.95, 0.98);
const CHECKPOINT: Color = Color::srgba(0.6, 0.9, 1.0, 0.35);

fn solid(commands: &mut Commands, collider: ConvexCollider, at: Vec2, paint: Color) -> Entity {
    commands
        .spawn((
            collider,
            Mighty,
            Transform::from_translation(at.extend(0.0)),
            Paint(paint),
        ))
        .id()
}

/// A box given by its left, bottom, right and top.
fn block(
    commands: &mut Commands,
    left: f32,
    bottom: f32,
    right: f32,
    top: f32,
    paint: Color,
) -> Entity {
    let size = Vec2::new(right - left, top - bottom);
    let at = Vec2::new(left, bottom) + size * 0.5;
    solid(
        commands,
        ConvexCollider::rectangle(size.x, size.y),
        at,
        paint,
    )
}

/// A row of flush 64 × 32 tiles whose tops are at `top` (a floor with seams to walk over).
fn tiles(commands: &mut Commands, left: f32, right: f32, top: f32) {
    let mut x = left;
    while x < right - 1.0 {
        let width = (right - x).min(64.0);
        let paint = if ((x - left) / 64.0) as i32 % 2 == 0 {
            GRASS
        } else {
            GRASS.mix(&GROUND, 0.25)
        };
        block(commands, x, top - 32.0, x + width, top, paint);
        x += width;
    }
}

/// A ramp: a right triangle from (`x0`, `y`) to (`x1`, `y`) rising to `height` at the high end.
fn ramp(
    commands: &mut Commands,
    x0: f32,
    x1: f32,
    y: f32,
    height: f32,
    rising: bool,
) -> Option<Entity> {
    let top_x = if rising { x1 } else { x0 };
    let points = [
        Vec2::new(x0, y),
        Vec2::new(x1, y),
        Vec2::new(top_x, y + height),
    ];
    let center = (points[0] + points[1] + points[2]) / 3.0;
    let collider = ConvexCollider::convex_polygon(points.map(|p| p - center)).ok()?;
    Some(solid(commands, collider, center, STONE))
}

fn coin(commands: &mut Commands, at: Vec2) {
    commands.spawn((
        ConvexCollider::circle(8.0),
        Sensor,
        Coin,
        Transform::from_translation(at.extend(1.0)),
        Paint(COIN),
    ));
}

/// Builds the level: start area with a crate stack and a pushable crate, a slope up and down,
/// a pit with spikes crossed on a ferry platform, one-way platforms, an elevator to the goal.
pub fn spawn_level(mut commands: Commands, mut score: ResMut<Score>) {
    let c = &mut commands;
    // A: start. Walls, a tiled floor, a stack of crates behind the start, a crate to push.
    block(c, -400.0, -40.0, -352.0, 600.0, STONE);
    tiles(c, -352.0, 1440.0, 0.0);
    for i in 0..3 {
        let y = 18.0 + 36.0 * i as f32;
        c.spawn((
            ConvexCollider::rectangle(36.0, 36.0),
            Weak,
            Crate,
            Transform::from_xyz(-250.0, y, 0.0),
            Paint(CRATE),
        ));
    }
    let crate_box = c
        .spawn((
            ConvexCollider::rectangle(40.0, 40.0),
            Weak,
            Crate,
            Transform::from_xyz(420.0, 20.0, 0.0),
            Paint(CRATE),
        ))
        .id();
    coin(c, Vec2::new(160.0, 24.0));
    coin(c, Vec2::new(260.0, 24.0));
    // Behind the start, a sentry on the wall whose laser passes over the crates and stops at a
    // floating block: jump under it and you are sent home.
    block(c, -150.0, 60.0, -120.0, 200.0, STONE);
    c.spawn((
        ConvexCollider::rectangle(16.0, 16.0),
        Mighty,
        Sentry,
        RayCaster::new(Vec2::new(8.0, 0.0), Dir2::X)
            .with_max_distance(LASER_REACH)
            .with_filter(SpatialQueryFilter::default().without_sensors()),
        Transform::from_translation(SENTRY.extend(0.5)),
        Paint(HAZARD),
    ));
    // B: a 30° slope up, a plateau, and down again.
    let rise = 200.0 * 30f32.to_radians().tan();
    ramp(c, 840.0, 1040.0, 0.0, rise, true);
    block(c, 1040.0, 0.0, 1240.0, rise, STONE);
    ramp(c, 1240.0, 1440.0, 0.0, rise, false);
    coin(c, Vec2::new(1140.0, rise + 24.0));
    // C: the pit, spikes at its bottom, a ferry across.
    block(c, 1408.0, -240.0, 1440.0, -32.0, GROUND);
    block(c, 1860.0, -240.0, 1892.0, -32.0, GROUND);
    block(c, 1440.0, -240.0, 1860.0, -200.0, GROUND);
    c.spawn((
        ConvexCollider::rectangle(400.0, 16.0),
        Sensor,
        Hazard,
        Transform::from_xyz(1650.0, -192.0, 0.0),
        Paint(HAZARD),
    ));
    let ferry_from = Vec2::new(1488.0, -8.0);
    let ferry_to = Vec2::new(1812.0, -8.0);
    let ferry = c
        .spawn((
            ConvexCollider::rectangle(96.0, 16.0),
            Mighty,
            Velocity::default(),
            Patrol {
                from: ferry_from,
                to: ferry_to,
                speed: 120.0,
                pause: 1.0,
                waiting: 1.0,
                outbound: true,
            },
            Transform::from_translation(ferry_from.extend(0.0)),
            Paint(PLATFORM),
        ))
        .id();
    coin(c, Vec2::new(1650.0, 24.0));
    // D: ground again, a checkpoint, two one-way platforms with a coin on top.
    tiles(c, 1860.0, 2360.0, 0.0);
    c.spawn((
        ConvexCollider::rectangle(24.0, 64.0),
        Sensor,
        Checkpoint,
        Transform::from_xyz(1900.0, 32.0, -1.0),
        Paint(CHECKPOINT),
    ));
    for top in [90.0, 180.0] {
        c.spawn((
            ConvexCollider::rectangle(128.0, 10.0),
            OneWayPlatform::default(),
            Transform::from_xyz(2080.0, top - 5.0, 0.0),
            Paint(ONE_WAY),
        ));
    }
    coin(c, Vec2::new(2080.0, 204.0));
    // E: the elevator shaft and the high ledge with the goal.
    block(c, 2360.0, -80.0, 2456.0, -48.0, GROUND);
    let elevator_from = Vec2::new(2408.0, -8.0);
    let elevator_to = Vec2::new(2408.0, 232.0);
    let elevator = c
        .spawn((
            ConvexCollider::rectangle(96.0, 16.0),
            Mighty,
            Velocity::default(),
            Patrol {
                from: elevator_from,
                to: elevator_to,
                speed: 100.0,
                pause: 1.0,
                waiting: 1.0,
                outbound: true,
            },
            Transform::from_translation(elevator_from.extend(0.0)),
            Paint(PLATFORM),
        ))
        .id();
    block(c, 2456.0, -80.0, 2860.0, 240.0, STONE);
    block(c, 2860.0, -80.0, 2908.0, 600.0, STONE);
    c.spawn((
        ConvexCollider::rectangle(20.0, 56.0),
        Sensor,
        Goal,
        Transform::from_xyz(2780.0, 268.0, 0.0),
        Paint(GOAL),
    ));
    // The player.
    let player = c
        .spawn((
            ConvexCollider::rectangle(PLAYER_SIZE.x, PLAYER_SIZE.y),
            Weak,
            Player {
                respawn: START,
                coyote: 0.0,
                jump_buffer: 0.0,
            },
            ground_probe(),
            Transform::from_translation(START.extend(2.0)),
            Paint(PLAYER),
        ))
        .id();
    *score = Score {
        total_coins: 5,
        ..default()
    };
    commands.insert_resource(Landmarks {
        player,
        crate_box,
        ferry,
        elevator,
    });
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
/// buffering and a short hop when released early), drop through one-way platforms with
/// down + jump.
pub fn control_player(
    time: Res<Time>,
    mut input: ResMut<PlayerInput>,
    mut players: Query<(
        Entity,
        &mut Player,
        &mut Velocity,
        &ContactFlags,
        &ShapeHits,
    )>,
    one_way: Query<(), With<OneWayPlatform>>,
    mut commands: Commands,
) {
    let dt = time.delta_secs();
    for (entity, mut player, mut velocity, flags, ground) in &mut players {
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
        velocity.x =
            RUN_SPEED * (f32::from(u8::from(input.right)) - f32::from(u8::from(input.left)));
        if player.jump_buffer > 0.0 && player.coyote > 0.0 {
            let on_one_way = flags.standing_on().is_some_and(|e| one_way.contains(e));
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

fn send_home(transform: &mut Transform, velocity: &mut Velocity, player: &Player) {
    transform.translation = player.respawn.extend(transform.translation.z);
    velocity.0 = Vec2::ZERO;
}

/// What the player can touch: coin, hazard, checkpoint, goal, and where it is.
type Touchable = (
    Has<Coin>,
    Has<Hazard>,
    Has<Checkpoint>,
    Has<Goal>,
    &'static Transform,
);

/// Coins, hazards, checkpoints and the goal, from the collision events of the step.
pub fn touch_things(
    mut started: MessageReader<CollisionStarted>,
    mut players: Query<(&mut Player, &mut Transform, &mut Velocity)>,
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
            let Ok((mut player, mut transform, mut velocity)) = players.get_mut(me) else {
                continue;
            };
            let Ok((coin, hazard, checkpoint, goal, at)) = things.get(other) else {
                continue;
            };
            if coin {
                commands.entity(other).despawn();
                score.coins += 1;
            }
            if hazard {
                score.deaths += 1;
                send_home(&mut transform, &mut velocity, &player);
            }
            if checkpoint {
                player.respawn = at.translation.truncate().with_y(START.y);
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
    mut players: Query<(&Player, &mut Transform, &mut Velocity)>,
    mut score: ResMut<Score>,
) {
    for hits in &sentries {
        let Some(first) = hits.iter().next() else {
            continue;
        };
        if let Ok((player, mut transform, mut velocity)) = players.get_mut(first.entity) {
            score.deaths += 1;
            send_home(&mut transform, &mut velocity, player);
        }
    }
}

/// A player squeezed by the elevator is sent back to the checkpoint.
pub fn respawn_crushed(
    mut crushed: MessageReader<Crushed>,
    mut players: Query<(&Player, &mut Transform, &mut Velocity)>,
    mut score: ResMut<Score>,
) {
    for event in crushed.read() {
        if let Ok((player, mut transform, mut velocity)) = players.get_mut(event.body) {
            score.deaths += 1;
            send_home(&mut transform, &mut velocity, player);
        }
    }
}
