//! For the examples: their command-line options, and a screenshot of the window after a
//! number of fixed steps, then exit.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

/// Saves a screenshot of the primary window to `path` once the game has run `frames` fixed
/// steps, then exits; gives up with an error (naming `program`) if it was not saved 600
/// rendered frames later.
pub struct ScreenshotPlugin {
    pub path: PathBuf,
    pub frames: u32,
    pub program: &'static str,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Plan {
            path: self.path.clone(),
            frames: self.frames,
            program: self.program,
        })
        .init_resource::<GameFrames>()
        .add_systems(FixedUpdate, count_game_frames)
        .add_systems(Update, take_screenshot);
    }
}

/// The plugin's settings, for its systems.
#[derive(Resource)]
struct Plan {
    path: PathBuf,
    frames: u32,
    program: &'static str,
}

/// Fixed steps played so far.
#[derive(Resource, Default)]
struct GameFrames(u32);

fn count_game_frames(mut frames: ResMut<GameFrames>) {
    frames.0 += 1;
}

fn take_screenshot(
    mut commands: Commands,
    plan: Res<Plan>,
    played: Res<GameFrames>,
    mut requested_at: Local<Option<u32>>,
    mut frame: Local<u32>,
) {
    *frame += 1;
    if requested_at.is_none() && played.0 >= plan.frames {
        *requested_at = Some(*frame);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(plan.path.clone()))
            .observe(
                |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                    exit.write(AppExit::Success);
                },
            );
    }
    if requested_at.is_some_and(|at| *frame > at + 600) {
        eprintln!("{}: the screenshot was not saved", plan.program);
        commands.write_message(AppExit::error());
    }
}

/// The command-line options both examples take.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--screenshot PATH` (or the environment variable the example names): save a screenshot
    /// there and exit.
    pub screenshot: Option<PathBuf>,
    /// `--frames N`: how many fixed steps to run before the screenshot.
    pub frames: u32,
    /// `--demo`: let the autopilot play.
    pub demo: bool,
    /// `--debug`: draw the colliders.
    pub debug: bool,
}

impl Options {
    /// Reads the program's arguments. An argument these options do not know goes to `extra`
    /// with the remaining arguments (for its value), which answers whether it took it.
    pub fn parse(
        screenshot_env: &str,
        mut extra: impl FnMut(&str, &mut dyn Iterator<Item = String>) -> Result<bool, String>,
    ) -> Result<Self, String> {
        let mut options = Options {
            screenshot: std::env::var_os(screenshot_env).map(PathBuf::from),
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
                "--frames" => {
                    let n = args.next().ok_or("--frames needs a number")?;
                    options.frames = n.parse().map_err(|e| format!("--frames {n}: {e}"))?;
                }
                "--demo" => options.demo = true,
                "--debug" => options.debug = true,
                other => {
                    if !extra(other, &mut args)? {
                        return Err(format!("unknown argument {other}"));
                    }
                }
            }
        }
        Ok(options)
    }
}
