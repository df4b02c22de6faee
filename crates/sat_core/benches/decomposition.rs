//! Convex decomposition: the time to split one outline into convex parts, from the points to
//! the validated parts with their internal-edge masks.
//!
//! - `star_64`: a 64-point star (radii alternating 1 and 0.5): 32 reflex corners;
//! - `tiles_200`: a 200-point tile outline, a comb of 33 one-tile teeth two tiles apart on a
//!   base row, every tile corner a point (so straight runs hold collinear points);
//! - `star_256`: a 256-point star, the largest outline the compound-body issue names.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use sat_core::convex_decomposition;

fn star(n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|i| {
            let radius = if i % 2 == 0 { 1.0 } else { 0.5 };
            Vec2::from_angle(i as f32 / n as f32 * core::f32::consts::TAU) * radius
        })
        .collect()
}

/// A comb: a base row of tiles with one-tile teeth on every other column, walked with a point
/// at every tile corner.
fn comb(teeth: usize) -> Vec<Vec2> {
    let width = 2 * teeth;
    let mut pts: Vec<Vec2> = (0..=width).map(|x| Vec2::new(x as f32, 0.0)).collect();
    for t in (0..teeth).rev() {
        let x = (2 * t + 1) as f32;
        let right = x + 1.0;
        if t == teeth - 1 {
            pts.push(Vec2::new(right, 1.0));
        }
        pts.push(Vec2::new(right, 2.0));
        pts.push(Vec2::new(x, 2.0));
        pts.push(Vec2::new(x, 1.0));
        pts.push(Vec2::new(x - 1.0, 1.0));
    }
    pts
}

fn decomposition(c: &mut Criterion) {
    let outlines = [
        ("star_64", star(64)),
        ("tiles_200", comb(33)),
        ("star_256", star(256)),
    ];
    let mut group = c.benchmark_group("convex_decomposition");
    for (name, outline) in &outlines {
        let parts = convex_decomposition(outline.iter().copied());
        assert!(parts.is_ok(), "{name}: {parts:?}");
        group.bench_function(*name, |b| {
            b.iter(|| convex_decomposition(black_box(outline).iter().copied()))
        });
    }
    group.finish();
}

criterion_group!(benches, decomposition);
criterion_main!(benches);
