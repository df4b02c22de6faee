//! `--stages`: the median time of each of bevy_sat's system sets, to see where a step goes.
//! Marker systems record the time between the sets; they cost next to nothing, but they are
//! only added when asked for, so the headline figure is always measured without them.
//!
//! With `STRESS_STAGE_SAMPLES=FILE` in the environment, every timed step's stage times are also
//! written to `FILE`, a line per step (`compare/stage_floor.sh` reads them).

use std::time::Instant;

use bevy::prelude::*;
use bevy_sat::prelude::*;

/// The stages timed, in step order.
const STAGES: [&str; 5] = ["prepare", "broad", "narrow", "resolve", "writeback"];

/// The time of the last mark, and every stage's times so far (milliseconds).
#[derive(Resource, Default)]
struct StageTimes {
    last: Option<Instant>,
    samples: [Vec<f64>; STAGES.len()],
}

/// Marks the end of stage `END - 1` (and the start of stage `END`).
fn mark<const END: usize>(mut times: ResMut<StageTimes>) {
    let now = Instant::now();
    if let (Some(last), Some(samples)) = (times.last, END.checked_sub(1)) {
        times.samples[samples].push((now - last).as_secs_f64() * 1000.0);
    }
    times.last = Some(now);
}

/// The first mark: the scene's own systems before the step go before it.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Start;

/// Adds the marker systems around bevy_sat's sets in `FixedPostUpdate`.
pub fn add_timers(app: &mut App) {
    app.init_resource::<StageTimes>().add_systems(
        FixedPostUpdate,
        (
            mark::<0>.in_set(Start).before(SatSystems::Prepare),
            mark::<1>
                .after(SatSystems::Prepare)
                .before(SatSystems::BroadPhase),
            mark::<2>
                .after(SatSystems::BroadPhase)
                .before(SatSystems::NarrowPhase),
            mark::<3>
                .after(SatSystems::NarrowPhase)
                .before(SatSystems::Resolve),
            mark::<4>
                .after(SatSystems::Resolve)
                .before(SatSystems::Writeback),
            mark::<5>.after(SatSystems::Writeback),
        ),
    );
}

/// Clears what warm-up recorded.
pub fn reset(app: &mut App) {
    let mut times = app.world_mut().resource_mut::<StageTimes>();
    times.samples.iter_mut().for_each(Vec::clear);
}

/// Prints each stage's median to stderr, and writes the samples if asked (see the module).
pub fn print(app: &mut App) {
    let mut times = app.world_mut().resource_mut::<StageTimes>();
    // Before the medians, which sort the samples.
    if let Some(path) = std::env::var_os("STRESS_STAGE_SAMPLES") {
        write_samples(&path, &times.samples);
    }
    let medians: Vec<String> = STAGES
        .iter()
        .zip(times.samples.iter_mut())
        .filter(|(_, samples)| !samples.is_empty())
        .map(|(name, samples)| {
            let (median, _) = crate::scene::median_and_mean(samples);
            format!("{name} {median:.3}")
        })
        .collect();
    eprintln!("stress: stage medians (ms): {}", medians.join(", "));
}

/// Writes each step's stage times (milliseconds, in [`STAGES`] order), a line per step, to
/// `path`, or reports on stderr why it cannot.
fn write_samples(path: &std::ffi::OsStr, samples: &[Vec<f64>; STAGES.len()]) {
    let steps = samples.iter().map(Vec::len).min().unwrap_or(0);
    let mut text = format!("# {}\n", STAGES.join(" "));
    for step in 0..steps {
        let row: Vec<String> = samples.iter().map(|s| format!("{:.6}", s[step])).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    if let Err(error) = std::fs::write(path, text) {
        eprintln!("stress: cannot write the stage samples: {error}");
    }
}
