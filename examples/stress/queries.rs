//! `--queries`: the spatial-query benchmark on the stress scene, engine-agnostic, shared by
//! bevy_sat's `stress` and the peers' binaries in `compare/`.
//!
//! From the scene's seed, a list of 10,000 rays (random origin in the world, random direction,
//! length up to a tenth of the world's width, solid), 10,000 shape casts (the shape of a random
//! body of the scene, not a wall, from a random origin along a random direction, as far) and
//! 10,000 points. Each engine answers them after its warm-up steps, timed in batches of 100;
//! it prints one JSON line per query kind with the median time per query, and writes its
//! answers (the scene index of the body hit and the distance; the sorted scene indices for a
//! point) to `--answers DIR` if given, for `compare/queries.sh` to compare.
#![allow(dead_code)]

use std::io::Write;
use std::time::Instant;

use super::scene::{Options, Scene, SceneShape, XorShift};

/// Queries of each kind.
pub const COUNT: usize = 10_000;

/// Queries timed together: the median is taken over the batches' time per query.
pub const BATCH: usize = 100;

/// A ray: origin, unit direction, reach.
#[derive(Clone, Copy, Debug)]
pub struct RayQuery {
    pub origin: [f32; 2],
    pub direction: [f32; 2],
    pub max_distance: f32,
}

/// A shape cast: the shape of scene body `body`, unturned, from `origin` along `direction`.
#[derive(Clone, Copy, Debug)]
pub struct ShapeQuery {
    pub body: usize,
    pub origin: [f32; 2],
    pub direction: [f32; 2],
    pub max_distance: f32,
}

/// Every query of a run.
pub struct QuerySet {
    pub rays: Vec<RayQuery>,
    pub shapes: Vec<ShapeQuery>,
    pub points: Vec<[f32; 2]>,
}

/// The queries for `scene`, from `seed` (a generator of their own: the scene's is untouched).
pub fn query_set(scene: &Scene, seed: u64) -> QuerySet {
    let mut rng = XorShift::new(seed ^ 0x005e_ed0f_9e75);
    let half = scene.half_extent;
    let reach = half * 2.0 / 10.0;
    let point = |rng: &mut XorShift| [rng.range(-half, half), rng.range(-half, half)];
    let direction = |rng: &mut XorShift| {
        let angle = rng.range(0.0, std::f32::consts::TAU);
        [angle.cos(), angle.sin()]
    };
    // Every body but the walls (the first four).
    let castable: Vec<usize> = (4..scene.bodies.len()).collect();
    let rays = (0..COUNT)
        .map(|_| RayQuery {
            origin: point(&mut rng),
            direction: direction(&mut rng),
            max_distance: rng.range(0.0, reach),
        })
        .collect();
    let shapes = (0..COUNT)
        .map(|_| ShapeQuery {
            body: castable[rng.int(0, castable.len() as u32 - 1) as usize],
            origin: point(&mut rng),
            direction: direction(&mut rng),
            max_distance: rng.range(0.0, reach),
        })
        .collect();
    let points = (0..COUNT).map(|_| point(&mut rng)).collect();
    QuerySet {
        rays,
        shapes,
        points,
    }
}

/// The shape a shape query casts.
pub fn shape_of<'a>(scene: &'a Scene, query: &ShapeQuery) -> &'a SceneShape {
    &scene.bodies[query.body].shape
}

/// Runs `answer` on every query index in `0..count`, timed in batches of [`BATCH`]: the median
/// time per query, in microseconds.
pub fn time_per_query(count: usize, mut answer: impl FnMut(usize)) -> f64 {
    let mut per_query = Vec::new();
    let mut start = 0;
    while start < count {
        let end = (start + BATCH).min(count);
        let clock = Instant::now();
        for i in start..end {
            answer(i);
        }
        per_query.push(clock.elapsed().as_secs_f64() * 1e6 / (end - start) as f64);
        start = end;
    }
    per_query.sort_by(f64::total_cmp);
    per_query[per_query.len() / 2]
}

/// The answer to a ray or a shape cast: the scene index of the body hit, and the distance.
pub type Answer = Option<(usize, f32)>;

/// A ray's or shape cast's answer as timed: the entity hit (an engine's own handle) and the
/// distance. Looking up the entity's scene index waits until after the timing, so that only
/// the query is timed.
pub type Timed<E> = Option<(E, f32)>;

/// The [`Answer`]s of timed answers, `index` giving an entity's scene index.
pub fn answers<E: Copy>(timed: &[Timed<E>], index: impl Fn(E) -> usize) -> Vec<Answer> {
    timed
        .iter()
        .map(|answer| answer.map(|(entity, distance)| (index(entity), distance)))
        .collect()
}

/// The entities the point queries found, all in one list reserved ahead, so that timing the
/// queries allocates nothing: query `i`'s are `found[ends[i - 1]..ends[i]]`.
pub struct PointFinds<E> {
    found: Vec<E>,
    ends: Vec<usize>,
}

impl<E: Copy> PointFinds<E> {
    /// Room for `queries` queries finding up to 8 bodies each on average.
    pub fn new(queries: usize) -> Self {
        Self {
            found: Vec::with_capacity(queries * 8),
            ends: Vec::with_capacity(queries),
        }
    }

    /// Adds an entity to the current query's.
    pub fn push(&mut self, entity: E) {
        self.found.push(entity);
    }

    /// Closes the current query's list.
    pub fn end_query(&mut self) {
        self.ends.push(self.found.len());
    }

    /// The scene indices found by each query, `index` giving an entity's.
    pub fn indices(&self, index: impl Fn(E) -> usize) -> Vec<Vec<usize>> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let indices = self.found[start..end].iter().map(|&e| index(e)).collect();
                start = end;
                indices
            })
            .collect()
    }
}

/// The JSON line of one query kind.
pub fn json_line(
    engine: &str,
    options: &Options,
    kind: &str,
    us_per_query: f64,
    hits: usize,
) -> String {
    format!(
        "{{\"engine\":\"{engine}\",\"queries\":\"{kind}\",\"bodies\":{},\"count\":{COUNT},\"us_per_query_median\":{us_per_query:.4},\"hits\":{hits}}}",
        options.bodies
    )
}

/// Takes `--queries` and `--answers DIR` out of the arguments: whether to run the queries, and
/// where to write the answers.
pub fn take_flags(args: Vec<String>) -> (Vec<String>, bool, Option<String>) {
    let mut rest = Vec::new();
    let (mut queries, mut answers) = (false, None);
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--queries" => queries = true,
            "--answers" => answers = args.next(),
            _ => rest.push(arg),
        }
    }
    (rest, queries, answers)
}

/// Writes the answers of the casts (`kind`: rays or shapes) to `DIR/ENGINE_KIND_N.txt`, one line
/// per query: `index distance`, or `-` for no hit.
pub fn write_casts(dir: &str, engine: &str, kind: &str, bodies: usize, answers: &[Answer]) {
    let lines = answers.iter().map(|answer| match answer {
        Some((index, distance)) => format!("{index} {distance}"),
        None => "-".to_string(),
    });
    write_lines(dir, engine, kind, bodies, lines);
}

/// Writes the answers of the point queries to `DIR/ENGINE_points_N.txt`, one line per query:
/// the sorted scene indices of the bodies containing the point.
pub fn write_points(dir: &str, engine: &str, bodies: usize, answers: &[Vec<usize>]) {
    let lines = answers.iter().map(|indices| {
        let mut indices = indices.clone();
        indices.sort_unstable();
        indices
            .iter()
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    });
    write_lines(dir, engine, "points", bodies, lines);
}

fn write_lines(
    dir: &str,
    engine: &str,
    kind: &str,
    bodies: usize,
    lines: impl Iterator<Item = String>,
) {
    let path = format!("{dir}/{engine}_{kind}_{bodies}.txt");
    let written = std::fs::File::create(&path).and_then(|mut file| {
        for line in lines {
            writeln!(file, "{line}")?;
        }
        Ok(())
    });
    if let Err(error) = written {
        eprintln!("cannot write {path}: {error}");
    }
}
