//! The measuring harness every stress binary shares (bevy_sat's `examples/stress` and the
//! peers in `compare/`), so that all engines are timed the same way: headless `MinimalPlugins`
//! with the compute task pool set to `--threads` threads, a 60 Hz fixed step, exactly one fixed
//! step per `App::update()`, and only `update()` timed.
#![allow(dead_code)] // each binary uses part of it

use std::time::Instant;

use bevy::app::{
    PluginGroupBuilder, TaskPoolOptions, TaskPoolPlugin, TaskPoolThreadAssignmentPolicy,
};
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;

/// The half extent of the stress world, for the reflection rule.
#[derive(Resource)]
pub struct WorldHalfExtent(pub f32);

/// Collision-started messages (each engine's own) seen so far.
#[derive(Resource, Default)]
pub struct Started(pub u64);

/// Fixed steps run so far (a check that each `App::update()` ran exactly one).
#[derive(Resource, Default)]
pub struct Steps(pub u64);

/// `MinimalPlugins` (no window, no rendering) with a compute task pool of exactly `threads`.
pub fn minimal_plugins(threads: usize) -> PluginGroupBuilder {
    MinimalPlugins.set(TaskPoolPlugin {
        task_pool_options: TaskPoolOptions {
            compute: TaskPoolThreadAssignmentPolicy {
                min_threads: threads,
                max_threads: threads,
                percent: 1.0,
                on_thread_spawn: None,
                on_thread_destroy: None,
            },
            ..default()
        },
    })
}

/// One fixed step of 1/60 s per `App::update()`.
pub fn one_fixed_step_per_update(app: &mut App) {
    app.insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0));
}

/// Finishes the plugins (as `App::run` would), runs the first update (it only starts the
/// clock), then `warmup` untimed updates.
pub fn warm_up(app: &mut App, warmup: usize) {
    app.finish();
    app.cleanup();
    app.update(); // starts the clock: no step yet
    for _ in 0..warmup {
        app.update();
    }
}

/// Runs `steps` updates, timing each; returns the times in milliseconds.
pub fn time_steps(app: &mut App, steps: usize) -> Vec<f64> {
    let mut times = Vec::with_capacity(steps);
    for _ in 0..steps {
        let start = Instant::now();
        app.update();
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times
}

/// [`warm_up`], then [`time_steps`].
pub fn run(app: &mut App, warmup: usize, steps: usize) -> Vec<f64> {
    warm_up(app, warmup);
    time_steps(app, steps)
}

/// Prints the usage and exits when the options do not parse.
pub fn usage_exit(binary: &str, error: &str) -> ! {
    eprintln!("{binary}: {error}");
    eprintln!(
        "usage: {binary} --bodies N --steps S --warmup K --threads T --mode resolve|detect --seed X"
    );
    std::process::exit(2);
}

/// The outline of a regular polygon as bevy_sat builds it: first vertex at angle 0 (on +x),
/// counter-clockwise, circumradius `radius` (computed in f64 like `sat_core`).
pub fn regular_polygon_points(sides: u32, radius: f32) -> Vec<Vec2> {
    (0..sides)
        .map(|i| {
            let angle = std::f64::consts::TAU * f64::from(i) / f64::from(sides);
            (DVec2::new(angle.cos(), angle.sin()) * f64::from(radius)).as_vec2()
        })
        .collect()
}
