//! Broad phase: one steady-state step of [`SweepAndPrune`] at N = 1 000 … 64 000 boxes.
//!
//! The scene is laid out like the stress scene: a world √N·24 units square centred on the
//! origin, boxes 8..16 units wide and tall at random positions (a fixed xorshift seed), each
//! moving at 20..80 units/s in a random direction and bouncing off the world's edges. One
//! iteration is one 1/60 s step: move every box, `set` its new AABB, then `pairs_into` a reused
//! vector. The scene is warmed up first so that the re-sort is the incremental one.
//! Throughput is in boxes per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use sat_core::{Aabb, SweepAndPrune};

mod common;
use common::xorshift::XorShift;

const DT: f32 = 1.0 / 60.0;
/// Steps run before timing (the first one sorts from scratch).
const WARM_UP_STEPS: usize = 10;
/// Scenes up to this size are checked against a brute-force pair search before timing.
const CHECKED_UP_TO: usize = 16_000;

struct Body {
    center: Vec2,
    half: Vec2,
    velocity: Vec2,
}

impl Body {
    fn aabb(&self) -> Aabb {
        Aabb {
            min: self.center - self.half,
            max: self.center + self.half,
        }
    }
}

struct Scene {
    bodies: Vec<Body>,
    half_world: f32,
}

impl Scene {
    fn new(n: usize) -> Self {
        let half_world = (n as f32).sqrt() * 24.0 / 2.0;
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15 ^ n as u64);
        let bodies = (0..n)
            .map(|_| {
                let half = Vec2::new(rng.range(8.0, 16.0), rng.range(8.0, 16.0)) / 2.0;
                let room = Vec2::splat(half_world) - half;
                let center = Vec2::new(rng.range(-room.x, room.x), rng.range(-room.y, room.y));
                let speed = rng.range(20.0, 80.0);
                let direction = Vec2::from_angle(rng.range(0.0, core::f32::consts::TAU));
                Body {
                    center,
                    half,
                    velocity: direction * speed,
                }
            })
            .collect();
        Self { bodies, half_world }
    }

    /// One step: move and bounce every box, update the broad phase, collect the pairs.
    fn step(&mut self, sap: &mut SweepAndPrune, pairs: &mut Vec<(u32, u32)>) {
        for (id, body) in self.bodies.iter_mut().enumerate() {
            body.center += body.velocity * DT;
            let room = Vec2::splat(self.half_world) - body.half;
            if body.center.x.abs() > room.x {
                body.center.x = body.center.x.clamp(-room.x, room.x);
                body.velocity.x = -body.velocity.x;
            }
            if body.center.y.abs() > room.y {
                body.center.y = body.center.y.clamp(-room.y, room.y);
                body.velocity.y = -body.velocity.y;
            }
            sap.set(id as u32, body.aabb()).expect("a valid box");
        }
        sap.pairs_into(pairs);
    }

    /// Every overlapping pair, by brute force, sorted.
    fn brute_force_pairs(&self) -> Vec<(u32, u32)> {
        let aabbs: Vec<Aabb> = self.bodies.iter().map(Body::aabb).collect();
        let mut pairs = Vec::new();
        for (i, a) in aabbs.iter().enumerate() {
            for (j, b) in aabbs.iter().enumerate().skip(i + 1) {
                if a.overlaps(b) {
                    pairs.push((i as u32, j as u32));
                }
            }
        }
        pairs
    }
}

fn broad_phase(c: &mut Criterion) {
    let mut group = c.benchmark_group("sweep_and_prune");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for n in [1_000, 4_000, 16_000, 64_000] {
        let mut scene = Scene::new(n);
        let mut sap = SweepAndPrune::new();
        let mut pairs = Vec::new();
        for _ in 0..WARM_UP_STEPS {
            scene.step(&mut sap, &mut pairs);
        }
        if n <= CHECKED_UP_TO {
            let mut found = pairs.clone();
            found.sort_unstable();
            assert_eq!(found, scene.brute_force_pairs(), "N = {n}: wrong pairs");
        }
        eprintln!("N = {n}: {} pairs", pairs.len());
        group
            .sample_size(if n <= 4_000 { 50 } else { 30 })
            .throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |bencher| {
            bencher.iter(|| {
                scene.step(black_box(&mut sap), &mut pairs);
                black_box(pairs.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, broad_phase);
criterion_main!(benches);
