//! The README's quick start, as an example: `cargo run --example quick_start`. The README shows
//! this file below these lines, and `crates/bevy_sat/tests/quick_start.rs` checks that it still
//! does, then runs `game` headlessly.

use bevy::prelude::*;
use bevy_sat::prelude::*;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, SatPlugin::default(), SatDebugPlugin))
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn(Camera2d);
        })
        .add_plugins(game)
        .run();
}

/// Everything but the window, so a test can run it headlessly.
pub fn game(app: &mut App) {
    app.insert_resource(SatConfig {
        gravity: Vec2::new(0.0, -1500.0),
        ..default()
    });
    app.add_systems(Startup, level);
    app.add_systems(FixedUpdate, controls);
}

/// The ground (top at y = 0), a one-way platform (top at y = 85), the player falling onto it.
pub fn level(mut commands: Commands) {
    commands.spawn((
        ConvexCollider::rectangle(800.0, 32.0),
        Mighty,
        Transform::from_xyz(0.0, -16.0, 0.0),
    ));
    commands.spawn((
        ConvexCollider::rectangle(128.0, 10.0),
        OneWayPlatform::default(),
        Transform::from_xyz(0.0, 80.0, 0.0),
    ));
    commands.spawn((
        ConvexCollider::rectangle(24.0, 32.0),
        Weak,
        Transform::from_xyz(0.0, 140.0, 0.0),
    ));
}

/// Left/Right run, Space jumps, Down + Space drops through the one-way platform.
fn controls(
    keys: Res<ButtonInput<KeyCode>>,
    player: Single<(Entity, &mut Velocity, &ContactFlags)>,
    mut commands: Commands,
) {
    let (entity, mut velocity, flags) = player.into_inner();
    let run = keys.pressed(KeyCode::ArrowRight) as i32 - keys.pressed(KeyCode::ArrowLeft) as i32;
    velocity.x = 200.0 * run as f32;
    if flags.on_floor() && keys.pressed(KeyCode::Space) {
        if keys.pressed(KeyCode::ArrowDown) {
            commands.entity(entity).insert(DropThrough);
        } else {
            velocity.y = 560.0;
        }
    }
}
