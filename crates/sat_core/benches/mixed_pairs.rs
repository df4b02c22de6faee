//! Narrow phase over a batch of mixed pairs, as the stress scene hands them over: the cost per
//! pair when the shapes change from one pair to the next, which a benchmark of one pair repeated
//! (`narrow_phase`) cannot show, since there every branch is learnt.
//!
//! 4,096 pairs of the stress scene's shapes (half axis-aligned boxes with sides 8..16, a quarter
//! regular polygons of 3..8 sides with radius 5..9, a quarter random convex polygons of 5..8
//! corners on an ellipse with semi-axes 5..9), unrotated, placed at random so that their AABBs
//! overlap (the broad phase's candidates). Timed: `sat_core/collide` (normal, depth and clipped
//! manifold, within a 0.01 margin) and `parry2d/contact` (one deepest contact, prediction
//! 0.01) over the whole batch, in batch order.
//!
//! `measured_pairs`: the same batch measured once (`measure_axes`, not timed), then
//! `least_overlap_after` for each pair with B moved by a random offset of up to 1 in x and y,
//! as resolution asks it after a push.

use std::f32::consts::TAU;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use parry2d::math::{Pose as PPose, Vector as PVector};
use parry2d::query;
use parry2d::shape::{ConvexPolygon as PConvexPolygon, Cuboid, SharedShape};
use sat_core::{ConvexPolygon, Pose, Shape, collide_within, least_overlap_after, measure_axes};

mod common;
use common::xorshift::XorShift;

const PAIRS: usize = 4096;
const MARGIN: f32 = 0.01;

/// A local shape of the stress scene's mix, and the same for parry2d.
fn stress_shape(rng: &mut XorShift) -> (ConvexPolygon, SharedShape) {
    let kind = rng.next_u64() % 4;
    let polygon = if kind < 2 {
        let (w, h) = (rng.range(8.0, 16.0), rng.range(8.0, 16.0));
        let polygon = ConvexPolygon::rectangle(w, h);
        return (
            polygon,
            SharedShape::new(Cuboid::new(PVector::new(w / 2.0, h / 2.0))),
        );
    } else if kind == 2 {
        ConvexPolygon::regular(3 + (rng.next_u64() % 6) as usize, rng.range(5.0, 9.0))
    } else {
        let corners = 5 + (rng.next_u64() % 4) as usize;
        let (rx, ry) = (rng.range(5.0, 9.0), rng.range(5.0, 9.0));
        let mut angles: Vec<f32> = (0..corners).map(|_| rng.range(0.0, TAU)).collect();
        angles.sort_by(f32::total_cmp);
        let points = angles.iter().map(|a| Vec2::new(rx * a.cos(), ry * a.sin()));
        match ConvexPolygon::new(points) {
            Ok(polygon) => polygon,
            Err(_) => return stress_shape(rng), // a degenerate draw: draw again
        }
    };
    let points = polygon
        .vertices()
        .iter()
        .map(|v| PVector::new(v.x, v.y))
        .collect();
    let parry = PConvexPolygon::from_convex_polyline(points).expect("a valid parry polygon");
    (polygon, SharedShape::new(parry))
}

/// One candidate pair: world shapes for sat_core, local shapes and poses for parry2d.
struct Candidate {
    a: Shape,
    b: Shape,
    pa: SharedShape,
    pb: SharedShape,
    pose_a: PPose,
    pose_b: PPose,
}

fn candidates() -> Vec<Candidate> {
    let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let (la, pa) = stress_shape(&mut rng);
        let (lb, pb) = stress_shape(&mut rng);
        let centre_a = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
        let reach = la.bounding_radius() + lb.bounding_radius();
        let centre_b = centre_a + Vec2::new(rng.range(-reach, reach), rng.range(-reach, reach));
        let place = |p: &ConvexPolygon, at: Vec2| -> Shape {
            p.transformed(&Pose::from_translation(at))
                .expect("in range")
                .into()
        };
        let (a, b) = (place(&la, centre_a), place(&lb, centre_b));
        if !a.aabb().overlaps(&b.aabb()) {
            continue; // not a candidate: the broad phase would not pass it on
        }
        let pose = |at: Vec2| PPose::from_translation(PVector::new(at.x, at.y));
        out.push(Candidate {
            a,
            b,
            pa,
            pb,
            pose_a: pose(centre_a),
            pose_b: pose(centre_b),
        });
    }
    out
}

fn mixed_pairs(c: &mut Criterion) {
    let batch = candidates();
    let touching = batch
        .iter()
        .filter(|p| collide_within(&p.a, &p.b, MARGIN).is_some())
        .count();
    eprintln!("mixed_pairs: {touching} of {PAIRS} candidate pairs touch");
    let mut group = c.benchmark_group("mixed_pairs");
    group.throughput(Throughput::Elements(PAIRS as u64));
    group.bench_function("sat_core/collide", |bencher| {
        bencher.iter(|| {
            batch
                .iter()
                .filter(|p| collide_within(black_box(&p.a), black_box(&p.b), MARGIN).is_some())
                .count()
        });
    });
    group.bench_function("parry2d/contact", |bencher| {
        bencher.iter(|| {
            batch
                .iter()
                .filter(|p| {
                    let found = query::contact(
                        black_box(&p.pose_a),
                        p.pa.as_ref(),
                        black_box(&p.pose_b),
                        p.pb.as_ref(),
                        MARGIN,
                    );
                    matches!(found, Ok(Some(_)))
                })
                .count()
        });
    });
    group.finish();
}

fn measured_pairs(c: &mut Criterion) {
    let batch = candidates();
    let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
    let mut axes = Vec::new();
    let mut measured = Vec::with_capacity(PAIRS);
    for p in &batch {
        if let (Shape::Polygon(a), Shape::Polygon(b)) = (&p.a, &p.b) {
            let start = axes.len();
            measure_axes(a, b, &mut axes);
            let offset = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
            measured.push((start..axes.len(), offset));
        }
    }
    let mut group = c.benchmark_group("measured_pairs");
    group.throughput(Throughput::Elements(measured.len() as u64));
    group.bench_function("sat_core/least_overlap_after", |bencher| {
        bencher.iter(|| {
            measured
                .iter()
                .filter(|(range, offset)| {
                    least_overlap_after(black_box(&axes[range.clone()]), *offset, MARGIN).is_some()
                })
                .count()
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::quick_criterion();
    targets = mixed_pairs, measured_pairs
}
criterion_main!(benches);
