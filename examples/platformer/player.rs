//! The player: what the keys ask for, the controller that turns it into a velocity before the
//! physics step (running, jumping with coyote time and buffering, dropping through one-way
//! platforms, keeping a moving platform's speed in the air), and the respawn.

use bevy::ecs::query::QueryItem;
use bevy::prelude::*;
use bevy_sat::prelude::*;

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
/// The radius of the player's rounded corners: a rounded box slides off a ledge's corner that
/// meets it steeper than a floor, where a plain box would stand on its very edge.
pub const PLAYER_CORNER: f32 = 6.0;

/// The player's collider: a box of [`PLAYER_SIZE`] with corners of radius [`PLAYER_CORNER`].
pub fn player_collider() -> ConvexCollider {
    ConvexCollider::round_rectangle(PLAYER_SIZE.x, PLAYER_SIZE.y, PLAYER_CORNER)
}
/// How far below the player's feet the ground probe looks (a short shape cast).
pub const GROUND_PROBE: f32 = 4.0;
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

/// The player's ground check: a thin box across its feet, 1 unit above their bottom, cast
/// down [`GROUND_PROBE`] units, past sensors (coins, checkpoints, spikes).
pub fn ground_probe() -> ShapeCaster {
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

/// What [`send_home`] changes of the player: its state, where it is and its velocity.
pub type Homing = (
    &'static mut Player,
    &'static mut Transform,
    &'static mut Velocity,
);

/// Puts the player back at its respawn point, standing still. This runs after the physics
/// step; the plugin's interpolation draws the player at its new place in the next frame (a
/// `Transform` written after the step is a teleport), not sweeping across the level.
pub fn send_home((player, transform, velocity): &mut QueryItem<Homing>) {
    transform.translation = player.respawn.extend(transform.translation.z);
    velocity.0 = Vec2::ZERO;
    player.carried = 0.0;
    player.platform_x = 0.0;
}
