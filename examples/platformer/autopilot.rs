//! A scripted player: a list of inputs, each held until a condition on the game holds. The test
//! plays the level with it, and `--demo` shows it in the window. Each step has a time limit, so
//! a script that stops making progress fails instead of hanging.

use bevy::prelude::*;
use bevy_sat::prelude::*;

use crate::game::{Landmarks, Patrol, Score};
use crate::player::PlayerInput;

/// Which keys a step holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keys {
    pub left: bool,
    pub right: bool,
    pub down: bool,
}

/// No key.
pub const NONE: Keys = Keys {
    left: false,
    right: false,
    down: false,
};
/// Right only.
pub const RIGHT: Keys = Keys {
    left: false,
    right: true,
    down: false,
};
/// Down only.
pub const DOWN: Keys = Keys {
    left: false,
    right: false,
    down: true,
};

/// What a step waits for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Until {
    /// This many fixed steps.
    Frames(u32),
    /// The player's centre is right of x.
    PlayerRightOf(f32),
    /// The player stands on something and its centre is above y.
    LandedAbove(f32),
    /// The player stands on something and its centre is below y.
    LandedBelow(f32),
    /// The platform (ferry or elevator) waits at its start with at least half its pause left.
    AtStart(Platform),
    /// The platform waits at its far end.
    AtEnd(Platform),
    /// The player stands on the platform.
    LandedOn(Platform),
    /// The level is complete.
    Complete,
}

/// The two moving platforms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    Ferry,
    Elevator,
}

/// One step of a script.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    pub keys: Keys,
    /// Press jump at the start of the step and hold it for this many fixed steps.
    pub jump_frames: u32,
    pub until: Until,
    /// Fail if the condition does not hold after this many fixed steps.
    pub limit: u32,
}

const fn hold(keys: Keys, until: Until, limit: u32) -> Step {
    Step {
        keys,
        jump_frames: 0,
        until,
        limit,
    }
}

const fn jump(keys: Keys, frames: u32, until: Until, limit: u32) -> Step {
    Step {
        keys,
        jump_frames: frames,
        until,
        limit,
    }
}

/// The script that plays the whole level: walk up the step, push the crate, jump it, cross the
/// slope, ride the ferry over the spikes (jumping straight up on it on the way: the jump keeps
/// the ferry's speed, so the player lands back on it), climb the one-way platforms and drop back through them, ride the
/// elevator, reach the goal.
pub const PLAY_THE_LEVEL: &[Step] = &[
    hold(RIGHT, Until::PlayerRightOf(360.0), 300),
    hold(RIGHT, Until::Frames(80), 80),
    jump(RIGHT, 25, Until::PlayerRightOf(620.0), 200),
    hold(RIGHT, Until::PlayerRightOf(1400.0), 600),
    hold(NONE, Until::AtStart(Platform::Ferry), 900),
    hold(RIGHT, Until::PlayerRightOf(1480.0), 60),
    hold(NONE, Until::PlayerRightOf(1660.0), 300),
    jump(NONE, 30, Until::LandedOn(Platform::Ferry), 120),
    hold(NONE, Until::AtEnd(Platform::Ferry), 600),
    hold(RIGHT, Until::PlayerRightOf(2070.0), 300),
    hold(NONE, Until::Frames(5), 5),
    jump(NONE, 30, Until::LandedAbove(100.0), 120),
    jump(NONE, 30, Until::LandedAbove(190.0), 120),
    jump(DOWN, 4, Until::LandedBelow(150.0), 120),
    jump(DOWN, 4, Until::LandedBelow(50.0), 120),
    hold(RIGHT, Until::PlayerRightOf(2330.0), 300),
    hold(NONE, Until::AtStart(Platform::Elevator), 900),
    hold(RIGHT, Until::PlayerRightOf(2400.0), 60),
    hold(NONE, Until::AtEnd(Platform::Elevator), 600),
    hold(RIGHT, Until::Complete, 400),
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
/// `FixedUpdate` before the player controller.
pub fn drive(
    mut autopilot: ResMut<Autopilot>,
    mut input: ResMut<PlayerInput>,
    landmarks: Res<Landmarks>,
    bodies: Query<(&Transform, Option<&ContactFlags>)>,
    patrols: Query<&Patrol>,
    score: Res<Score>,
) {
    if autopilot.failed.is_some() || autopilot.finished() {
        *input = PlayerInput::default();
        return;
    }
    let step = autopilot.steps[autopilot.index];
    let Ok((player, flags)) = bodies.get(landmarks.player) else {
        return;
    };
    let position = player.translation.truncate();
    let on_floor = flags.is_some_and(ContactFlags::on_floor);
    let entity = |which: Platform| match which {
        Platform::Ferry => landmarks.ferry,
        Platform::Elevator => landmarks.elevator,
    };
    let platform = |which: Platform| entity(which).and_then(|e| patrols.get(e).ok());
    let done = match step.until {
        Until::Frames(n) => autopilot.frames >= n,
        Until::PlayerRightOf(x) => position.x > x,
        Until::LandedAbove(y) => on_floor && position.y > y,
        Until::LandedBelow(y) => on_floor && position.y < y,
        Until::AtStart(which) => platform(which).is_some_and(|p| p.outbound && p.waiting > 0.5),
        Until::AtEnd(which) => platform(which).is_some_and(|p| !p.outbound && p.waiting > 0.5),
        Until::LandedOn(which) => {
            on_floor && flags.and_then(ContactFlags::standing_on) == entity(which)
        }
        Until::Complete => score.complete,
    };
    if done && autopilot.frames > 0 {
        autopilot.index += 1;
        autopilot.frames = 0;
        *input = PlayerInput::default();
        return;
    }
    if autopilot.frames >= step.limit {
        let failed = format!(
            "step {} ({step:?}) timed out with the player at {position}",
            autopilot.index
        );
        autopilot.failed = Some(failed);
        return;
    }
    *input = PlayerInput {
        left: step.keys.left,
        right: step.keys.right,
        down: step.keys.down,
        jump_held: autopilot.frames < step.jump_frames,
        jump_pressed: autopilot.frames == 0 && step.jump_frames > 0,
    };
    autopilot.frames += 1;
}
