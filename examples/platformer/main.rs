//! bevy_sat's platformer: a small level that shows every feature, drawn with
//! bevy_prototype_lyon from the same `ConvexCollider`s that collide.
//!
//! ```text
//! cargo run --release --example platformer
//! cargo run --release --example platformer -- --screenshot shot.png [--frames 240] [--demo] [--debug]
//! cargo run --release --example platformer -- --level my_level.tmj
//! ```
//!
//! Keys: ←/→ or A/D run, Space jump (hold for higher), ↓ + Space drop through a one-way
//! platform, F1 debug overlay, R back to the checkpoint.
//!
//! `--screenshot PATH` (or `PLATFORMER_SCREENSHOT=PATH`) plays `--frames` game frames (fixed
//! 60 Hz steps, default 240), saves a PNG of the window and exits; `--demo` lets the scripted player from the tests play;
//! `--debug` starts with the overlay on. The level is `assets/platformer/level.tmj`, a Tiled map
//! (see `level.rs` for what its layers and objects mean); `--level PATH` plays another one.

mod autopilot;
mod game;
mod level;
mod level_objects;
#[path = "../shared/screenshot.rs"]
mod screenshot;
mod tmj;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_prototype_lyon::prelude::*;
use bevy_sat::geometry::Shape as SatShape;
use bevy_sat::prelude::*;
use screenshot::ScreenshotPlugin;

use autopilot::{Autopilot, PLAY_THE_LEVEL};
use game::{GamePlugin, Landmarks, Paint, Player, PlayerInput, Score, Sentry, TileRect};
use level::Level;

/// Command-line options.
#[derive(Resource, Debug, Clone, Default)]
struct Options {
    screenshot: Option<PathBuf>,
    level: Option<PathBuf>,
    frames: u32,
    demo: bool,
    debug: bool,
}

impl Options {
    fn parse() -> Result<Self, String> {
        let mut options = Options {
            screenshot: std::env::var_os("PLATFORMER_SCREENSHOT").map(PathBuf::from),
            frames: 240,
            ..default()
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--screenshot" => {
                    options.screenshot =
                        Some(args.next().ok_or("--screenshot needs a path")?.into())
                }
                "--level" => {
                    options.level = Some(args.next().ok_or("--level needs a path")?.into())
                }
                "--frames" => {
                    let n = args.next().ok_or("--frames needs a number")?;
                    options.frames = n.parse().map_err(|e| format!("--frames {n}: {e}"))?;
                }
                "--demo" => options.demo = true,
                "--debug" => options.debug = true,
                other => return Err(format!("unknown argument {other}")),
            }
        }
        Ok(options)
    }
}

fn main() -> AppExit {
    let options = match Options::parse() {
        Ok(options) => options,
        Err(error) => {
            eprintln!("platformer: {error}");
            eprintln!(
                "usage: platformer [--level PATH] [--screenshot PATH] [--frames N] [--demo] [--debug]"
            );
            return AppExit::error();
        }
    };
    let path = options.level.clone().unwrap_or_else(level::default_path);
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
                ..default()
            }),
            ..default()
        }),
        ShapePlugin,
        SatPlugin::default(),
        SatDebugPlugin,
        GamePlugin { level },
    ))
    .insert_resource(ClearColor(Color::srgb(0.10, 0.12, 0.18)))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .insert_resource(SatDebugConfig {
        enabled: options.debug,
        ..default()
    })
    .add_systems(Startup, (spawn_camera, spawn_hud))
    .add_systems(
        Update,
        (
            read_keyboard,
            toggle_debug,
            draw_new_colliders,
            draw_tiles,
            draw_lasers,
            follow_player,
            update_hud,
        ),
    );
    if options.demo {
        app.insert_resource(Autopilot::new(PLAY_THE_LEVEL))
            .add_systems(FixedUpdate, autopilot::drive.before(game::control_player));
    }
    if let Some(path) = options.screenshot.clone() {
        app.add_plugins(ScreenshotPlugin {
            path,
            frames: options.frames,
            program: "platformer",
        });
    }
    app.insert_resource(options);
    app.run()
}

fn spawn_camera(mut commands: Commands, level: Res<Level>) {
    commands.spawn((
        Camera2d,
        Projection::from(OrthographicProjection {
            scale: 1.15,
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_translation(level.start().extend(100.0)),
    ));
}

/// Draws every collider with a lyon shape built from its own local geometry, so the picture is
/// exactly what collides.
fn draw_new_colliders(
    mut commands: Commands,
    new: Query<(Entity, &ConvexCollider, &Paint), Added<ConvexCollider>>,
) {
    for (entity, collider, paint) in &new {
        let outline = paint.0.darker(0.25);
        let shape = match collider.shape() {
            SatShape::Polygon(polygon) => ShapeBuilder::with(&shapes::Polygon {
                points: polygon.vertices().to_vec(),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Large(polygon) => ShapeBuilder::with(&shapes::Polygon {
                points: polygon.vertices().to_vec(),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Circle(circle) => ShapeBuilder::with(&shapes::Circle {
                radius: circle.radius(),
                center: circle.center(),
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Capsule(capsule) => ShapeBuilder::with(&shapes::Polygon {
                points: capsule.outline(12),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Rounded(rounded) => ShapeBuilder::with(&shapes::Polygon {
                points: rounded.outline(6),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
        };
        commands.entity(entity).insert(shape);
    }
}

/// Draws the tile layers' art: each rectangle of equal tiles as one shape, outlined like the
/// other scenery.
fn draw_tiles(mut commands: Commands, new: Query<(Entity, &TileRect, &Paint), Added<TileRect>>) {
    for (entity, rect, paint) in &new {
        let shape = ShapeBuilder::with(&shapes::Rectangle {
            extents: rect.0,
            ..default()
        })
        .fill(paint.0)
        .stroke((paint.0.darker(0.25), 2.0))
        .build();
        commands.entity(entity).insert(shape);
    }
}

/// A sentry's laser beam, drawn from its ray's hits.
#[derive(Component)]
struct LaserBeam;

/// What [`draw_lasers`] reads of a sentry: its ray, its hits, where it is, and its beam.
type SentryView = (
    Entity,
    &'static RayCaster,
    &'static RayHits,
    &'static Transform,
    Option<&'static Children>,
);

/// Draws each sentry's laser from its origin to its first hit (or its full reach), as of the
/// last physics step.
fn draw_lasers(
    mut commands: Commands,
    sentries: Query<SentryView, With<Sentry>>,
    beams: Query<(), With<LaserBeam>>,
) {
    for (sentry, caster, hits, transform, children) in &sentries {
        let Some((origin, direction)) = caster.world_ray(transform) else {
            continue;
        };
        let end = hits.iter().next().map_or(
            origin + direction * caster.max_distance.min(game::LASER_REACH),
            |hit| hit.point,
        );
        // In the sentry's frame: the beam is its child.
        let to_local = transform.compute_affine().inverse();
        let local = |p: Vec2| to_local.transform_point3(p.extend(0.0)).truncate();
        let (from, to) = (local(origin), local(end));
        let beam = ShapeBuilder::with(&shapes::Line(from, to))
            .stroke((Color::srgb(1.0, 0.15, 0.2), 3.0))
            .build();
        let existing = children
            .into_iter()
            .flatten()
            .copied()
            .find(|child| beams.contains(*child));
        match existing {
            Some(child) => {
                commands.entity(child).insert(beam);
            }
            None => {
                commands.spawn((
                    LaserBeam,
                    beam,
                    Transform::from_xyz(0.0, 0.0, 0.5),
                    ChildOf(sentry),
                ));
            }
        }
    }
}

fn read_keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut input: ResMut<PlayerInput>,
    autopilot: Option<Res<Autopilot>>,
    mut players: Query<(&Player, &mut Transform, &mut Velocity)>,
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
        for (player, mut transform, mut velocity) in &mut players {
            transform.translation = player.respawn.extend(transform.translation.z);
            velocity.0 = Vec2::ZERO;
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
