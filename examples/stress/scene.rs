//! The stress scene, engine-agnostic: a deterministic list of bodies that each
//! engine (bevy_sat here, avian2d and bevy_rapier2d in `compare/`) spawns its own way.
//!
//! - a world `W = H = sqrt(N) * 24` centred on the origin, enclosed by 4 static walls;
//! - N moving bodies, no rotation: 50% axis-aligned boxes (sides 8..16), 25% regular polygons
//!   of 3..8 sides (radius 5..9), 25% random convex polygons of 5..8 vertices (sorted random
//!   angles on an ellipse with semi-axes 5..9, counter-clockwise); random positions inside the
//!   world; speed 20..80 in a random direction;
//! - N/10 static boxes 20..80 wide and 6..20 tall at random positions.
#![allow(dead_code)]

use std::f32::consts::TAU;

/// Thickness of the enclosing walls.
pub const WALL_THICKNESS: f32 = 20.0;

/// The fixed step: 60 Hz.
pub const DT: f32 = 1.0 / 60.0;

// The generator lives in its own file, which sat_core's benchmarks include too; the path is
// relative to this file, however this file is included.
#[path = "xorshift.rs"]
mod xorshift;
pub use xorshift::XorShift;

/// The shape of a body, centred on its position.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneShape {
    /// An axis-aligned box.
    Box { width: f32, height: f32 },
    /// A regular polygon, first vertex on +x.
    Regular { sides: u32, radius: f32 },
    /// A convex polygon, counter-clockwise.
    Convex { points: Vec<[f32; 2]> },
}

/// One body of the scene.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneBody {
    pub shape: SceneShape,
    pub position: [f32; 2],
    /// Zero for static bodies.
    pub velocity: [f32; 2],
    /// Static (walls and static boxes) or moving.
    pub moving: bool,
}

/// The whole scene.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Half the world's width (and height).
    pub half_extent: f32,
    pub bodies: Vec<SceneBody>,
}

/// The stress scene with `n` moving bodies, from `seed`.
pub fn stress_scene(n: usize, seed: u64) -> Scene {
    let mut rng = XorShift::new(seed);
    let size = (n as f32).sqrt() * 24.0;
    let half = size * 0.5;
    let mut bodies = Vec::with_capacity(n + n / 10 + 4);
    // Walls, just outside the world.
    let t = WALL_THICKNESS;
    for (x, y, w, h) in [
        (0.0, -half - t * 0.5, size + 2.0 * t, t),
        (0.0, half + t * 0.5, size + 2.0 * t, t),
        (-half - t * 0.5, 0.0, t, size),
        (half + t * 0.5, 0.0, t, size),
    ] {
        bodies.push(SceneBody {
            shape: SceneShape::Box {
                width: w,
                height: h,
            },
            position: [x, y],
            velocity: [0.0, 0.0],
            moving: false,
        });
    }
    for i in 0..n {
        let shape = match i % 4 {
            0 | 1 => SceneShape::Box {
                width: rng.range(8.0, 16.0),
                height: rng.range(8.0, 16.0),
            },
            2 => SceneShape::Regular {
                sides: rng.int(3, 8),
                radius: rng.range(5.0, 9.0),
            },
            _ => {
                let count = rng.int(5, 8) as usize;
                let (rx, ry) = (rng.range(5.0, 9.0), rng.range(5.0, 9.0));
                let mut angles: Vec<f32> = (0..count).map(|_| rng.range(0.0, TAU)).collect();
                angles.sort_by(f32::total_cmp);
                SceneShape::Convex {
                    points: angles
                        .iter()
                        .map(|a| [a.cos() * rx, a.sin() * ry])
                        .collect(),
                }
            }
        };
        let position = [rng.range(-half, half), rng.range(-half, half)];
        let (speed, angle) = (rng.range(20.0, 80.0), rng.range(0.0, TAU));
        bodies.push(SceneBody {
            shape,
            position,
            velocity: [angle.cos() * speed, angle.sin() * speed],
            moving: true,
        });
    }
    for _ in 0..n / 10 {
        bodies.push(SceneBody {
            shape: SceneShape::Box {
                width: rng.range(20.0, 80.0),
                height: rng.range(6.0, 20.0),
            },
            position: [rng.range(-half, half), rng.range(-half, half)],
            velocity: [0.0, 0.0],
            moving: false,
        });
    }
    Scene {
        half_extent: half,
        bodies,
    }
}

/// The reflection rule, run every step before physics: a body whose centre is outside the world
/// and still moving outwards has that velocity component reflected.
pub fn reflect(position: [f32; 2], velocity: &mut [f32; 2], half_extent: f32) {
    for axis in 0..2 {
        let (p, v) = (position[axis], velocity[axis]);
        // Without short cuts, and a select rather than a branch: in `detect` mode bodies cross
        // the walls, and which way a body outside moves is a coin toss for a branch predictor.
        let outwards = (p > half_extent) & (v > 0.0) | (p < -half_extent) & (v < 0.0);
        velocity[axis] = if outwards { -v } else { v };
    }
}

/// The command-line options every stress binary takes.
#[derive(Clone, Debug)]
pub struct Options {
    pub bodies: usize,
    pub steps: usize,
    pub warmup: usize,
    pub threads: usize,
    /// `resolve` or `detect`.
    pub mode: String,
    pub seed: u64,
}

impl Options {
    /// Parses `--bodies N --steps S --warmup K --threads T --mode M --seed X`.
    pub fn from_args(args: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut options = Options {
            bodies: 4000,
            steps: 300,
            warmup: 60,
            threads: 1,
            mode: "detect".into(),
            seed: 1,
        };
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
            let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
            match flag.as_str() {
                "--bodies" => options.bodies = number(value()?)? as usize,
                "--steps" => options.steps = number(value()?)? as usize,
                "--warmup" => options.warmup = number(value()?)? as usize,
                "--threads" => options.threads = (number(value()?)? as usize).max(1),
                "--seed" => options.seed = number(value()?)?,
                "--mode" => {
                    options.mode = value()?;
                    if options.mode != "resolve" && options.mode != "detect" {
                        return Err(format!(
                            "--mode must be resolve or detect, not {}",
                            options.mode
                        ));
                    }
                }
                other => return Err(format!("unknown flag {other}")),
            }
        }
        if options.steps == 0 {
            return Err("--steps must be at least 1".into());
        }
        Ok(options)
    }
}

/// Median and mean of per-step times in milliseconds.
pub fn median_and_mean(times_ms: &mut [f64]) -> (f64, f64) {
    times_ms.sort_by(f64::total_cmp);
    let n = times_ms.len();
    let median = if n % 2 == 1 {
        times_ms[n / 2]
    } else {
        0.5 * (times_ms[n / 2 - 1] + times_ms[n / 2])
    };
    (median, times_ms.iter().sum::<f64>() / n as f64)
}

/// The JSON line every engine prints.
#[allow(clippy::too_many_arguments)]
pub fn json_line(
    engine: &str,
    options: &Options,
    median: f64,
    mean: f64,
    overlap_pairs_last: usize,
    started_events_total: u64,
) -> String {
    format!(
        "{{\"engine\":\"{engine}\",\"mode\":\"{}\",\"bodies\":{},\"steps\":{},\"threads\":{},\"ms_per_step_median\":{median:.4},\"ms_per_step_mean\":{mean:.4},\"overlap_pairs_last\":{overlap_pairs_last},\"started_events_total\":{started_events_total}}}",
        options.mode, options.bodies, options.steps, options.threads
    )
}
