//! A scripted player: a list of inputs, each held until a condition on the game holds. The test
//! plays the room with it, and `--demo` shows it in the window. Each step has a time limit, so
//! a script that stops making progress fails instead of hanging.

use bevy::prelude::*;

use crate::game::{Landmarks, PlayerInput, Score};

/// Keys held by a step.
const fn keys(left: bool, right: bool, up: bool, down: bool) -> PlayerInput {
    PlayerInput {
        left,
        right,
        up,
        down,
    }
}

/// Right only.
pub const RIGHT: PlayerInput = keys(false, true, false, false);
/// Up only.
pub const UP: PlayerInput = keys(false, false, true, false);
/// Right and down: along the bottom wall, pressed into it.
pub const DOWN_RIGHT: PlayerInput = keys(false, true, false, true);

/// What a step waits for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Until {
    /// The character's centre is right of x.
    PlayerRightOf(f32),
    /// The character's centre is above y.
    PlayerAbove(f32),
    /// The crate's centre is right of x.
    CrateRightOf(f32),
    /// This many fixed steps.
    Frames(u32),
    /// The goal is reached.
    Complete,
}

/// One step of a script.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    pub keys: PlayerInput,
    pub until: Until,
    /// Fail if the condition does not hold after this many fixed steps.
    pub limit: u32,
}

const fn hold(keys: PlayerInput, until: Until, limit: u32) -> Step {
    Step { keys, until, limit }
}

/// Where the crate stops: flush against the right wall.
pub const CRATE_END_X: f32 = crate::game::ROOM.x - crate::game::CRATE_SIZE / 2.0;

/// The script that plays the room: along the bottom wall pressed into it, up a little, right
/// past the pillar (sliding round its underside), on into the crate and push it to the right
/// wall, a moment's rest, then up to the goal and onto it. The character walks 3 units a step from
/// whole-number places, so the thresholds sit between its steps, never on one (where
/// round-off would decide).
pub const PLAY_THE_ROOM: &[Step] = &[
    hold(DOWN_RIGHT, Until::PlayerRightOf(-198.5), 120),
    hold(UP, Until::PlayerAbove(-238.5), 60),
    hold(RIGHT, Until::PlayerRightOf(80.0), 120),
    hold(RIGHT, Until::CrateRightOf(CRATE_END_X - 0.01), 400),
    hold(PlayerInput::EMPTY, Until::Frames(20), 20),
    hold(UP, Until::Complete, 300),
    hold(UP, Until::Frames(14), 14),
];

/// The script being played.
#[derive(Resource, Debug, Clone)]
pub struct Autopilot {
    pub steps: &'static [Step],
    pub index: usize,
    pub frames: u32,
    /// Why the script stopped early, if it did.
    pub failed: Option<String>,
}

impl Autopilot {
    /// Plays `steps` from the first.
    pub fn new(steps: &'static [Step]) -> Self {
        Self {
            steps,
            index: 0,
            frames: 0,
            failed: None,
        }
    }

    /// Whether the script ran to its end.
    pub fn finished(&self) -> bool {
        self.index >= self.steps.len()
    }
}

/// Turns the current step into input, and moves on when its condition holds. Runs in
/// `FixedUpdate` before the character controller.
pub fn drive(
    mut autopilot: ResMut<Autopilot>,
    mut input: ResMut<PlayerInput>,
    landmarks: Res<Landmarks>,
    bodies: Query<&Transform>,
    score: Res<Score>,
) {
    if autopilot.failed.is_some() || autopilot.finished() {
        *input = PlayerInput::EMPTY;
        return;
    }
    let step = autopilot.steps[autopilot.index];
    let (Ok(player), Ok(crate_box)) = (
        bodies.get(landmarks.player),
        bodies.get(landmarks.crate_box),
    ) else {
        return;
    };
    let position = player.translation.truncate();
    let done = match step.until {
        Until::PlayerRightOf(x) => position.x > x,
        Until::PlayerAbove(y) => position.y > y,
        Until::CrateRightOf(x) => crate_box.translation.x > x,
        Until::Frames(n) => autopilot.frames >= n,
        Until::Complete => score.complete,
    };
    if done && autopilot.frames > 0 {
        autopilot.index += 1;
        autopilot.frames = 0;
        *input = PlayerInput::EMPTY;
        // The next step's keys start at once, so no fixed step is spent without input.
        if let Some(next) = autopilot.steps.get(autopilot.index) {
            *input = next.keys;
            autopilot.frames = 1;
        }
        return;
    }
    if autopilot.frames >= step.limit {
        let failed = format!(
            "step {} ({step:?}) timed out with the character at {position}",
            autopilot.index
        );
        autopilot.failed = Some(failed);
        return;
    }
    *input = step.keys;
    autopilot.frames += 1;
}
