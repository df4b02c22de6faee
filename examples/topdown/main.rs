//! bevy_sat's top-down example: a character walking among walls, pillars and pushable crates,
//! drawn with bevy_prototype_lyon from the same `ConvexCollider`s that collide.
//!
//! ```text
//! cargo run --release --example topdown
//! cargo run --release --example topdown -- --screenshot shot.png [--frames 240] [--demo] [--debug]
//! ```
//!
//! Keys: arrows or WASD walk (diagonals too), F1 debug overlay, R back to the start.
//!
//! The character is a `Weak` body with `Floating`: it slides along walls and round pillars at
//! constant speed, and pushes crates. The physics runs at a fixed 60 Hz; the window draws at
//! the display's rate, with the moving bodies drawn between their last two steps
//! (`TransformInterpolation`).
//!
//! `--screenshot PATH` (or `TOPDOWN_SCREENSHOT=PATH`) plays `--frames` game frames (fixed
//! 60 Hz steps, default 240), saves a PNG of the window and exits; `--demo` lets the scripted
//! player from the test play; `--debug` starts with the overlay on.

mod autopilot;
mod depth;
mod draw;
mod game;
#[path = "../shared/parallax.rs"]
mod parallax;
#[path = "../shared/screenshot.rs"]
mod screenshot;

use bevy::prelude::*;
use bevy::window::{PresentMode, WindowResolution};
use bevy_prototype_lyon::prelude::*;
use bevy_sat::prelude::*;
use parallax::ParallaxPlugin;
use screenshot::{Options, ScreenshotPlugin};

use autopilot::{Autopilot, PLAY_THE_ROOM};
use game::{GamePlugin, Landmarks, Player, PlayerInput, Score};

fn main() -> AppExit {
    let options = match Options::parse("TOPDOWN_SCREENSHOT", |_, _| Ok(false)) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("topdown: {error}");
            eprintln!("usage: topdown [--screenshot PATH] [--frames N] [--demo] [--debug]");
            return AppExit::error();
        }
    };
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_sat top-down".into(),
                resolution: WindowResolution::new(1280, 720),
                // Frames at the display's rate (the physics keeps its fixed 60 Hz).
                present_mode: PresentMode::AutoVsync,
                ..default()
            }),
            ..default()
        }),
        ShapePlugin,
        SatPlugin::default(),
        SatDebugPlugin,
        ParallaxPlugin,
        GamePlugin,
    ))
    .insert_resource(ClearColor(Color::srgb(0.07, 0.07, 0.10)))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(SatDebugConfig {
        enabled: options.debug,
        ..default()
    })
    .add_systems(
        Startup,
        (spawn_camera, spawn_hud, draw::floor, depth::spawn),
    )
    .add_systems(
        Update,
        (
            read_keyboard,
            toggle_debug,
            draw::new_colliders,
            draw::turn_faces,
            follow_player,
            update_hud,
        ),
    );
    if options.demo {
        app.insert_resource(Autopilot::new(PLAY_THE_ROOM))
            .add_systems(FixedUpdate, autopilot::drive.before(game::control_player));
    }
    if let Some(path) = options.screenshot.clone() {
        app.add_plugins(ScreenshotPlugin {
            path,
            frames: options.frames,
            program: "topdown",
        });
    }
    app.run()
}

/// How far the camera is zoomed out (world units per pixel).
const CAMERA_SCALE: f32 = 0.55;
/// Half the window's size, in pixels.
const HALF_WINDOW: Vec2 = Vec2::new(640.0, 360.0);

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::from(OrthographicProjection {
            scale: CAMERA_SCALE,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_translation(game::START.extend(100.0)),
    ));
}

fn read_keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut input: ResMut<PlayerInput>,
    autopilot: Option<Res<Autopilot>>,
    mut players: Query<&mut Transform, With<Player>>,
) {
    if autopilot.is_some() {
        return; // the script drives
    }
    let any = |codes: &[KeyCode]| codes.iter().any(|k| keys.pressed(*k));
    *input = PlayerInput {
        left: any(&[KeyCode::ArrowLeft, KeyCode::KeyA]),
        right: any(&[KeyCode::ArrowRight, KeyCode::KeyD]),
        up: any(&[KeyCode::ArrowUp, KeyCode::KeyW]),
        down: any(&[KeyCode::ArrowDown, KeyCode::KeyS]),
    };
    if keys.just_pressed(KeyCode::KeyR) {
        for mut transform in &mut players {
            transform.translation = game::START.extend(transform.translation.z);
        }
    }
}

fn toggle_debug(keys: Res<ButtonInput<KeyCode>>, mut debug: ResMut<SatDebugConfig>) {
    if keys.just_pressed(KeyCode::F1) {
        debug.enabled = !debug.enabled;
    }
}

/// The camera eases after the character (drawn where interpolation put it this frame), a
/// little ahead of where it looks, and stays over the room.
fn follow_player(
    time: Res<Time>,
    landmarks: Option<Res<Landmarks>>,
    players: Query<(&Transform, &Player), Without<Camera2d>>,
    mut camera: Single<&mut Transform, With<Camera2d>>,
) {
    let Some((target, player)) = landmarks.and_then(|l| players.get(l.player).ok()) else {
        return;
    };
    // How far the camera may move: it shows the walls and some of the void beyond (its depth
    // shows there, as it moves slower than the room), never more.
    let slack = (game::ROOM + game::WALL + 80.0 - HALF_WINDOW * CAMERA_SCALE).max(Vec2::ZERO);
    let goal = (target.translation.truncate() + player.facing * 40.0).clamp(-slack, slack);
    let eased = camera
        .translation
        .truncate()
        .lerp(goal, 1.0 - (-4.0 * time.delta_secs()).exp());
    camera.translation = eased.extend(camera.translation.z);
}

#[derive(Component)]
struct ScoreText;

fn spawn_hud(mut commands: Commands) {
    commands.spawn((
        Text::new("Arrows or WASD: walk   F1: debug   R: back to the start"),
        TextFont {
            font_size: FontSize::Px(18.0),
            ..default()
        },
        TextColor(Color::srgb(0.85, 0.88, 0.95)),
        Node {
            position_type: PositionType::Absolute,
            left: px(12),
            bottom: px(10),
            ..default()
        },
    ));
    commands.spawn((
        Text::new(""),
        TextFont {
            font_size: FontSize::Px(24.0),
            ..default()
        },
        TextColor(Color::srgb(0.55, 1.0, 0.65)),
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
        format!("Goal reached in {:.1}s", score.time)
    } else {
        "Push the crate aside and reach the green pad".to_owned()
    };
    if text.0 != line {
        text.0 = line;
    }
}
