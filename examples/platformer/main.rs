//! bevy_sat's platformer: a small level that shows every feature, drawn with
//! bevy_prototype_lyon from the same `ConvexCollider`s that collide.
//!
//! ```text
//! cargo run --release --example platformer
//! cargo run --release --example platformer -- --screenshot shot.png [--frames 240] [--demo] [--debug]
//! cargo run --release --example platformer -- --level my_level.tmx
//! ```
//!
//! Keys: ←/→ or A/D run, Space jump (hold for higher), ↓ + Space drop through a one-way
//! platform, F1 debug overlay, R back to the checkpoint.
//!
//! `--screenshot PATH` (or `PLATFORMER_SCREENSHOT=PATH`) plays `--frames` game frames (fixed
//! 60 Hz steps, default 240), saves a PNG of the window and exits; `--demo` lets the scripted player from the tests play;
//! `--debug` starts with the overlay on. The level is `assets/platformer/level.tmx`, a Tiled map
//! (see `level.rs` for what its layers and objects mean); `--level PATH` plays another one.

mod autopilot;
mod backdrop;
mod draw;
mod game;
mod hero;
mod level;
mod level_objects;
#[path = "../shared/parallax.rs"]
mod parallax;
mod player;
#[path = "../shared/screenshot.rs"]
mod screenshot;
mod tmx;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_prototype_lyon::prelude::*;
use bevy_sat::prelude::*;
use parallax::ParallaxPlugin;
use screenshot::{Options, ScreenshotPlugin};

use autopilot::{Autopilot, PLAY_THE_LEVEL};
use game::{GamePlugin, Landmarks, Score};
use level::Level;
use player::{Player, PlayerInput};

fn main() -> AppExit {
    let mut level_path = None;
    let parsed = Options::parse("PLATFORMER_SCREENSHOT", |arg, args| {
        if arg != "--level" {
            return Ok(false);
        }
        level_path = Some(PathBuf::from(args.next().ok_or("--level needs a path")?));
        Ok(true)
    });
    let options = match parsed {
        Ok(options) => options,
        Err(error) => {
            eprintln!("platformer: {error}");
            eprintln!(
                "usage: platformer [--level PATH] [--screenshot PATH] [--frames N] [--demo] [--debug]"
            );
            return AppExit::error();
        }
    };
    let path = level_path.unwrap_or_else(level::default_path);
    let level = match level::load(&path) {
        Ok(level) => level,
        Err(error) => {
            eprintln!("platformer: {error}");
            return AppExit::error();
        }
    };
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_sat platformer".into(),
                resolution: WindowResolution::new(1280, 720),
                // Frames at the display's rate (the physics keeps its fixed 60 Hz): the player
                // and the moving platforms are drawn between their last two steps.
                present_mode: PresentMode::AutoVsync,
                ..default()
            }),
            ..default()
        }),
        ShapePlugin,
        SatPlugin::default(),
        SatDebugPlugin,
        ParallaxPlugin,
        GamePlugin { level },
    ))
    .insert_resource(ClearColor(Color::srgb(0.05, 0.06, 0.14)))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(SatDebugConfig {
        enabled: options.debug,
        ..default()
    })
    .add_systems(
        Startup,
        (spawn_camera, spawn_hud, backdrop::spawn, draw::earth),
    )
    .add_systems(
        Update,
        (
            read_keyboard,
            toggle_debug,
            draw::new_colliders,
            draw::tiles,
            draw::lasers,
            smooth_moving_bodies,
            hero::spawn,
            hero::animate.after(hero::spawn),
            hero::drift_puffs,
            follow_player,
            update_hud,
        ),
    );
    if options.demo {
        app.insert_resource(Autopilot::new(PLAY_THE_LEVEL))
            .add_systems(FixedUpdate, autopilot::drive.before(player::control_player));
    }
    if let Some(path) = options.screenshot.clone() {
        app.add_plugins(ScreenshotPlugin {
            path,
            frames: options.frames,
            program: "platformer",
        });
    }
    app.run()
}

/// The bodies that move on their own, new this frame.
type NewMovers = Or<(Added<Player>, Added<game::Patrol>)>;

/// The player and the moving platforms are drawn between their last two fixed steps in every
/// frame, so they glide at the display's rate. (Only in the window: the headless game, played
/// by the tests, has no frames between steps to draw.)
fn smooth_moving_bodies(mut commands: Commands, new: Query<Entity, NewMovers>) {
    for entity in &new {
        commands.entity(entity).insert(TransformInterpolation);
    }
}

fn spawn_camera(mut commands: Commands, level: Res<Level>) {
    commands.spawn((
        Camera2d,
        Projection::from(OrthographicProjection {
            scale: 0.85,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_translation(level.start().extend(100.0)),
    ));
}

fn read_keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut input: ResMut<PlayerInput>,
    autopilot: Option<Res<Autopilot>>,
    mut players: Query<(&mut Player, &mut Transform, &mut Velocity)>,
) {
    if autopilot.is_some() {
        return; // the script drives
    }
    let any = |codes: &[KeyCode]| codes.iter().any(|k| keys.pressed(*k));
    input.left = any(&[KeyCode::ArrowLeft, KeyCode::KeyA]);
    input.right = any(&[KeyCode::ArrowRight, KeyCode::KeyD]);
    input.down = any(&[KeyCode::ArrowDown, KeyCode::KeyS]);
    input.jump_held = keys.pressed(KeyCode::Space);
    // Kept until a fixed step consumes it, so a short press between steps is never lost.
    input.jump_pressed |= keys.just_pressed(KeyCode::Space);
    if keys.just_pressed(KeyCode::KeyR) {
        for (mut player, mut transform, mut velocity) in &mut players {
            transform.translation = player.respawn.extend(transform.translation.z);
            velocity.0 = Vec2::ZERO;
            player.carried = 0.0;
            player.platform_x = 0.0;
        }
    }
}

fn toggle_debug(keys: Res<ButtonInput<KeyCode>>, mut debug: ResMut<SatDebugConfig>) {
    if keys.just_pressed(KeyCode::F1) {
        debug.enabled = !debug.enabled;
    }
}

fn follow_player(
    time: Res<Time>,
    landmarks: Option<Res<Landmarks>>,
    bodies: Query<&Transform, Without<Camera2d>>,
    mut camera: Single<&mut Transform, With<Camera2d>>,
) {
    let Some(target) = landmarks.and_then(|l| bodies.get(l.player).ok()) else {
        return;
    };
    let goal = target.translation.truncate() + Vec2::new(120.0, 80.0);
    let eased = camera
        .translation
        .truncate()
        .lerp(goal, 1.0 - (-6.0 * time.delta_secs()).exp());
    camera.translation = eased.extend(camera.translation.z);
}

#[derive(Component)]
struct ScoreText;

fn spawn_hud(mut commands: Commands) {
    let style = TextFont {
        font_size: FontSize::Px(18.0),
        ..default()
    };
    commands.spawn((
        Text::new("Left/Right or A/D: run   Space: jump (hold for higher)   Down+Space: drop through   F1: debug   R: respawn"),
        style.clone(),
        TextColor(Color::srgb(0.85, 0.88, 0.95)),
        Node { position_type: PositionType::Absolute, left: px(12), bottom: px(10), ..default() },
    ));
    commands.spawn((
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(24.0),
            ..default()
        },
        TextColor(Color::srgb(1.0, 0.86, 0.3)),
        Node {
            position_type: PositionType::Absolute,
            right: px(14),
            top: px(8),
            ..default()
        },
        ScoreText,
    ));
}

fn update_hud(score: Res<Score>, mut text: Single<&mut Text, With<ScoreText>>) {
    let line = if score.complete {
        format!(
            "Level complete!  Coins {}/{}  Time {:.1}s  Falls {}",
            score.coins, score.total_coins, score.time, score.deaths
        )
    } else {
        format!(
            "Coins {}/{}   Falls {}",
            score.coins, score.total_coins, score.deaths
        )
    };
    if text.0 != line {
        text.0 = line;
    }
}
