//! For the examples: a screenshot of the window after a number of fixed steps, then exit.

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
