//! The top-down game's logic: the room, the character controller, the crates and the goal.
//! Plain systems with no rendering, so the whole game runs headless (the test in
//! `crates/bevy_sat/tests/topdown_game.rs` plays it).
//!
//! The character is a `Weak` body with `Floating`: with gravity at zero, it slides along walls
//! and round pillars at constant speed, and pushes the crates (`Weak` too) it walks into.
//! Every collider carries a [`Paint`]: the renderer draws each shape from the same
//! `ConvexCollider` that collides.

use bevy::prelude::*;
use bevy_sat::prelude::*;

/// Walking speed, units (pixels) per second, in every direction (diagonals included).
pub const WALK_SPEED: f32 = 180.0;
/// The character's radius.
pub const PLAYER_RADIUS: f32 = 14.0;
/// Where the character starts: in the bottom-left corner, touching the bottom wall.
pub const START: Vec2 = Vec2::new(-440.0, -ROOM.y + PLAYER_RADIUS);
/// Half the size of the room's floor (inside the walls).
pub const ROOM: Vec2 = Vec2::new(480.0, 320.0);
/// How thick the outer walls are.
pub const WALL: f32 = 32.0;
/// The pillar on the way, and its radius.
pub const PILLAR: Vec2 = Vec2::new(-60.0, -220.0);
pub const PILLAR_RADIUS: f32 = 36.0;
/// Where the crate to push starts, and its size.
pub const CRATE_START: Vec2 = Vec2::new(200.0, -270.0);
pub const CRATE_SIZE: f32 = 44.0;
/// The goal pad's centre and size.
pub const GOAL: Vec2 = Vec2::new(420.0, 240.0);
pub const GOAL_SIZE: f32 = 56.0;

/// What the player asks for this frame, from the keyboard (or a script).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerInput {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
}

impl PlayerInput {
    /// No key held.
    pub const EMPTY: PlayerInput = PlayerInput {
        left: false,
        right: false,
        up: false,
        down: false,
    };

    /// The direction asked for: a unit vector (diagonals too), or zero.
    pub fn direction(&self) -> Vec2 {
        let axis = |plus: bool, minus: bool| f32::from(u8::from(plus)) - f32::from(u8::from(minus));
        Vec2::new(axis(self.right, self.left), axis(self.up, self.down)).normalize_or_zero()
    }
}

/// The colour a shape is drawn with, and whether it casts a shadow on the floor.
#[derive(Component, Debug, Clone, Copy)]
pub struct Paint {
    pub color: Color,
    pub shadow: bool,
}

/// The character, and where it looks (a unit vector; the last direction it walked).
#[derive(Component, Debug, Clone, Copy)]
pub struct Player {
    pub facing: Vec2,
}

/// A pushable crate.
#[derive(Component, Debug, Clone, Copy)]
pub struct Crate;

/// A round pillar.
#[derive(Component, Debug, Clone, Copy)]
pub struct Pillar;

/// A wall.
#[derive(Component, Debug, Clone, Copy)]
pub struct Wall;

/// The pad to reach.
#[derive(Component, Debug, Clone, Copy)]
pub struct Goal;

/// Names for the room's notable entities, for the camera, the script and the test.
#[derive(Resource, Debug, Clone, Copy)]
pub struct Landmarks {
    pub player: Entity,
    pub crate_box: Entity,
    #[allow(dead_code)]
    pub pillar: Entity,
}

/// How the game is going.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct Score {
    /// The goal was reached.
    pub complete: bool,
    /// Seconds of play until the goal.
    pub time: f32,
}

/// Everything the game needs on top of [`SatPlugin`]: top-down settings (no gravity), the
/// room, and the systems (input to velocity before the step, the goal after it).
pub struct GamePlugin;

impl Plugin for GamePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(SatConfig {
            gravity: Vec2::ZERO,
            ..default()
        })
        .init_resource::<PlayerInput>()
        .init_resource::<Score>()
        .add_systems(Startup, spawn_room)
        .add_systems(FixedUpdate, control_player)
        .add_systems(FixedPostUpdate, reach_goal.after(SatSystems::Writeback));
    }
}

const WALL_COLOR: Color = Color::srgb(0.42, 0.40, 0.52);
const PILLAR_COLOR: Color = Color::srgb(0.62, 0.60, 0.70);
const CRATE_COLOR: Color = Color::srgb(0.78, 0.55, 0.30);
const GOAL_COLOR: Color = Color::srgba(0.35, 0.95, 0.55, 0.55);
const PLAYER_COLOR: Color = Color::srgb(0.98, 0.82, 0.35);

/// A wall given by its left, bottom, right and top.
fn wall(commands: &mut Commands, left: f32, bottom: f32, right: f32, top: f32) {
    let size = Vec2::new(right - left, top - bottom);
    let at = Vec2::new(left, bottom) + size * 0.5;
    commands.spawn((
        ConvexCollider::rectangle(size.x, size.y),
        Mighty,
        Wall,
        Transform::from_translation(at.extend(0.0)),
        Paint {
            color: WALL_COLOR,
            shadow: true,
        },
    ));
}

fn pillar(commands: &mut Commands, at: Vec2, radius: f32) -> Entity {
    commands
        .spawn((
            ConvexCollider::circle(radius),
            Mighty,
            Pillar,
            Transform::from_translation(at.extend(0.0)),
            Paint {
                color: PILLAR_COLOR,
                shadow: true,
            },
        ))
        .id()
}

fn crate_at(commands: &mut Commands, at: Vec2, size: f32) -> Entity {
    commands
        .spawn((
            ConvexCollider::rectangle(size, size),
            Weak,
            Crate,
            TransformInterpolation,
            Transform::from_translation(at.extend(1.0)),
            Paint {
                color: CRATE_COLOR,
                shadow: true,
            },
        ))
        .id()
}

/// Builds the room: four outer walls, an inner wall with a doorway, pillars, crates, the goal
/// pad in the top-right corner and the character in the bottom-left one.
pub fn spawn_room(mut commands: Commands) {
    let c = &mut commands;
    let (w, h) = (ROOM.x, ROOM.y);
    wall(c, -w - WALL, -h - WALL, w + WALL, -h);
    wall(c, -w - WALL, h, w + WALL, h + WALL);
    wall(c, -w - WALL, -h, -w, h);
    wall(c, w, -h, w + WALL, h);
    // An inner wall across the top-left, leaving a doorway by the left wall, and a short one
    // standing out of the top wall.
    wall(c, -400.0, 40.0, -120.0, 72.0);
    wall(c, 40.0, 160.0, 72.0, h);
    let pillar_entity = pillar(c, PILLAR, PILLAR_RADIUS);
    pillar(c, Vec2::new(-300.0, 180.0), 30.0);
    pillar(c, Vec2::new(180.0, 40.0), 40.0);
    pillar(c, Vec2::new(300.0, -100.0), 24.0);
    let crate_box = crate_at(c, CRATE_START, CRATE_SIZE);
    crate_at(c, Vec2::new(-200.0, 200.0), 40.0);
    crate_at(c, Vec2::new(-156.0, 200.0), 40.0);
    crate_at(c, Vec2::new(-178.0, 244.0), 40.0);
    crate_at(c, Vec2::new(-40.0, -20.0), 36.0);
    c.spawn((
        ConvexCollider::rectangle(GOAL_SIZE, GOAL_SIZE),
        Sensor,
        Goal,
        Transform::from_translation(GOAL.extend(-0.5)),
        Paint {
            color: GOAL_COLOR,
            shadow: false,
        },
    ));
    let player = c
        .spawn((
            ConvexCollider::circle(PLAYER_RADIUS),
            Weak,
            Floating,
            Player { facing: Vec2::X },
            TransformInterpolation,
            Transform::from_translation(START.extend(2.0)),
            Paint {
                color: PLAYER_COLOR,
                shadow: true,
            },
        ))
        .id();
    commands.insert_resource(Landmarks {
        player,
        crate_box,
        pillar: pillar_entity,
    });
}

/// Input to velocity: the character walks at [`WALK_SPEED`] in the direction asked for, and
/// looks where it walks.
pub fn control_player(input: Res<PlayerInput>, mut players: Query<(&mut Player, &mut Velocity)>) {
    let direction = input.direction();
    for (mut player, mut velocity) in &mut players {
        velocity.0 = direction * WALK_SPEED;
        if direction != Vec2::ZERO {
            player.facing = direction;
        }
    }
}

/// The goal is reached when the character starts touching its pad.
pub fn reach_goal(
    mut started: MessageReader<CollisionStarted>,
    players: Query<(), With<Player>>,
    goals: Query<(), With<Goal>>,
    mut score: ResMut<Score>,
    time: Res<Time>,
) {
    if !score.complete {
        score.time += time.delta_secs();
    }
    for hit in started.read() {
        let pair = [(hit.a, hit.b), (hit.b, hit.a)];
        if pair
            .iter()
            .any(|&(me, other)| players.contains(me) && goals.contains(other))
        {
            score.complete = true;
        }
    }
}
