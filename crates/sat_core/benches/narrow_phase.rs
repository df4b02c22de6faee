//! Narrow phase: the cost of one query on one pair of shapes, sat_core against parry2d.
//!
//! Nine pair types, each 1 unit across: box–box, hexagon–hexagon, octagon–octagon, box–circle,
//! and the shapes beyond polygons and circles: 32-gon–32-gon (a `LargePolygon`), capsule–box,
//! capsule–capsule, rounded box–box (corner radius 0.1) and segment–box. Each pair is in a
//! resting contact: A turned by 0.3 rad at the origin, B unrotated to its right and a
//! little above, placed so that the penetration depth is 0.1 (10 % of the size). Per pair:
//!
//! - `sat_core/overlap`, `sat_core/collide` (normal, depth and clipped manifold) and
//!   `sat_core/sweep` (A starting apart and translating into B, first touching at toi 0.5), on
//!   world-space shapes placed once outside the timed loop, as the plugin does once per body per
//!   step; `sat_core/sweep_and_point` adds the contact point at the time of impact
//!   ([`Hit::point`](sat_core::Hit::point)), which the sweep leaves to callers that ask;
//! - `parry2d/intersection_test`, `parry2d/contact` (one deepest contact, prediction 0),
//!   `parry2d/contact_manifolds` (the manifold rapier uses, computed from scratch: the
//!   manifold's coherence cache is cleared every iteration) and `parry2d/cast_shapes` (the same
//!   sweep), with local shapes and poses, as parry is normally used.
//!
//! The placements are checked before timing: both libraries must find the same depth and toi.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use parry2d::math::{Pose as PPose, Vector as PVector};
use parry2d::query::{
    self, ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher, ShapeCastOptions,
};
use parry2d::shape::{Ball, ConvexPolygon as PConvexPolygon, Cuboid, SharedShape};
use sat_core::{
    Capsule, Circle, ConvexPolygon, Pose, RoundedPolygon, Shape, collide, overlap, sweep,
};

mod common;

/// The size of every shape: box side, polygon and circle diameter.
const SIZE: f32 = 1.0;
/// The rotation of A.
const ANGLE: f32 = 0.3;
/// The penetration depth of the resting contact.
const DEPTH: f32 = 0.1 * SIZE;
/// How far above A's centre B's centre is.
const OFFSET_Y: f32 = 0.15 * SIZE;
/// How far A travels in the sweep (it touches B halfway).
const SWEEP_DISTANCE: f32 = SIZE;

/// One pair type, placed for both libraries.
struct Pair {
    name: &'static str,
    // sat_core: world-space shapes.
    a: Shape,
    b: Shape,
    a_start: Shape,
    motion: Vec2,
    // parry2d: local shapes and poses.
    pa: SharedShape,
    pb: SharedShape,
    pose_a: PPose,
    pose_b: PPose,
    pose_a_start: PPose,
    velocity_a: PVector,
}

fn pv(v: Vec2) -> PVector {
    PVector::new(v.x, v.y)
}

fn box_shape() -> (Shape, SharedShape) {
    (
        ConvexPolygon::rectangle(SIZE, SIZE).into(),
        SharedShape::new(Cuboid::new(PVector::splat(SIZE / 2.0))),
    )
}

fn regular_shape(sides: usize) -> (Shape, SharedShape) {
    let polygon = ConvexPolygon::regular(sides, SIZE / 2.0);
    let points = polygon.vertices().iter().copied().map(pv).collect();
    let parry = PConvexPolygon::from_convex_polyline(points).expect("a valid parry polygon");
    assert_eq!(parry.points().len(), sides);
    (polygon.into(), SharedShape::new(parry))
}

/// A regular polygon of more than 8 corners: a `LargePolygon` for sat_core.
fn large_regular_shape(sides: usize) -> (Shape, SharedShape) {
    let points: Vec<Vec2> = (0..sides)
        .map(|i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / sides as f32) * SIZE / 2.0)
        .collect();
    let shape = Shape::polygon(points.iter().copied()).expect("a valid polygon");
    assert!(matches!(shape, Shape::Large(_)));
    let parry = PConvexPolygon::from_convex_polyline(points.into_iter().map(pv).collect())
        .expect("a valid parry polygon");
    assert_eq!(parry.points().len(), sides);
    (shape, SharedShape::new(parry))
}

/// A capsule 1 unit tall: a segment of 0.5 along y, radius 0.25.
fn capsule_shape() -> (Shape, SharedShape) {
    (
        Capsule::vertical(SIZE / 4.0, SIZE / 2.0)
            .expect("a valid capsule")
            .into(),
        SharedShape::capsule_y(SIZE / 4.0, SIZE / 4.0),
    )
}

/// A 1 × 1 box with its corners rounded by 0.1.
fn round_box_shape() -> (Shape, SharedShape) {
    let radius = 0.1 * SIZE;
    let half = SIZE / 2.0 - radius;
    (
        RoundedPolygon::round_rectangle(SIZE, SIZE, radius)
            .expect("a valid rounded box")
            .into(),
        SharedShape::round_cuboid(half, half, radius),
    )
}

/// A bare segment 1 unit long along x.
fn segment_shape() -> (Shape, SharedShape) {
    let (a, b) = (Vec2::new(-SIZE / 2.0, 0.0), Vec2::new(SIZE / 2.0, 0.0));
    (
        Capsule::segment(a, b).expect("a valid segment").into(),
        SharedShape::segment(pv(a), pv(b)),
    )
}

fn circle_shape() -> (Shape, SharedShape) {
    (
        Circle::new(Vec2::ZERO, SIZE / 2.0)
            .expect("a valid circle")
            .into(),
        SharedShape::new(Ball::new(SIZE / 2.0)),
    )
}

fn place(local: &Shape, translation: Vec2, angle: f32) -> Shape {
    local
        .transformed(&Pose::new(translation, angle, Vec2::ONE))
        .expect("in range")
}

/// The `x` in `lo..hi` where `f` turns from true to false (`f(lo)` true, `f(hi)` false).
fn bisect(mut lo: f32, mut hi: f32, f: impl Fn(f32) -> bool) -> f32 {
    assert!(f(lo) && !f(hi));
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(mid) { lo = mid } else { hi = mid }
    }
    lo
}

impl Pair {
    fn new(
        name: &'static str,
        (la, pa): (Shape, SharedShape),
        (lb, pb): (Shape, SharedShape),
    ) -> Self {
        let a = place(&la, Vec2::ZERO, ANGLE);
        // B moves right until the depth drops to DEPTH.
        let deeper = |x: f32| {
            let b = place(&lb, Vec2::new(x, OFFSET_Y), 0.0);
            collide(&a, &b).is_some_and(|c| c.depth > DEPTH)
        };
        let b_x = bisect(0.0, 4.0 * SIZE, deeper);
        let b_at = Vec2::new(b_x, OFFSET_Y);
        let b = place(&lb, b_at, 0.0);
        // A moves left until it just touches B; the sweep starts SWEEP_DISTANCE / 2 further.
        let touching = |s: f32| overlap(&place(&la, Vec2::new(-s, 0.0), ANGLE), &b);
        let touch = bisect(0.0, 4.0 * SIZE, touching);
        let a_start_at = Vec2::new(-touch - SWEEP_DISTANCE / 2.0, 0.0);
        let a_start = place(&la, a_start_at, ANGLE);
        let motion = Vec2::new(SWEEP_DISTANCE, 0.0);

        let pair = Pair {
            name,
            a,
            b,
            a_start,
            motion,
            pa,
            pb,
            pose_a: PPose::new(PVector::ZERO, ANGLE),
            pose_b: PPose::from_translation(pv(b_at)),
            pose_a_start: PPose::new(pv(a_start_at), ANGLE),
            velocity_a: pv(motion),
        };
        pair.check();
        pair
    }

    /// Both libraries see the same contact and the same time of impact.
    fn check(&self) {
        assert!(overlap(&self.a, &self.b));
        let contact = collide(&self.a, &self.b).expect("in contact");
        let hit = sweep(&self.a_start, &self.b, self.motion).expect("a hit");
        let p_contact = query::contact(&self.pose_a, &*self.pa, &self.pose_b, &*self.pb, 0.0)
            .expect("supported")
            .expect("in contact");
        let p_hit = self.cast().expect("supported").expect("a hit");
        let p_manifold = self.manifolds(&mut Vec::new(), &mut None);
        let intersecting =
            query::intersection_test(&self.pose_a, &*self.pa, &self.pose_b, &*self.pb)
                .expect("supported")
                .intersecting;
        eprintln!(
            "{}: sat_core depth {:.5} normal {:.4} points {} toi {:.5} | parry2d depth {:.5} \
             normal {:.4} manifold points {} toi {:.5}",
            self.name,
            contact.depth,
            contact.normal,
            contact.point_count(),
            hit.toi,
            -p_contact.dist,
            p_contact.normal1,
            p_manifold,
            p_hit.time_of_impact,
        );
        assert!(intersecting);
        assert!((contact.depth - DEPTH).abs() < 1.0e-4);
        assert!((contact.depth + p_contact.dist).abs() < 1.0e-3);
        let (n, pn) = (contact.normal, p_contact.normal1);
        assert!(n.x * pn.x + n.y * pn.y > 0.999, "the normals differ");
        assert!((hit.toi - 0.5).abs() < 1.0e-4);
        assert!((p_hit.time_of_impact - 0.5).abs() < 1.0e-2);
        assert!(p_manifold > 0);
    }

    fn cast(&self) -> Result<Option<query::ShapeCastHit>, query::Unsupported> {
        query::cast_shapes(
            black_box(&self.pose_a_start),
            black_box(self.velocity_a),
            black_box(&*self.pa),
            black_box(&self.pose_b),
            black_box(PVector::ZERO),
            black_box(&*self.pb),
            ShapeCastOptions::with_max_time_of_impact(1.0),
        )
    }

    /// The contact manifolds from scratch (without the coherence shortcut); returns the number
    /// of contact points.
    fn manifolds(
        &self,
        manifolds: &mut Vec<ContactManifold<(), ()>>,
        workspace: &mut Option<query::ContactManifoldsWorkspace>,
    ) -> usize {
        for manifold in manifolds.iter_mut() {
            manifold.clear();
        }
        let pos12 = black_box(&self.pose_a).inv_mul(black_box(&self.pose_b));
        DefaultQueryDispatcher
            .contact_manifolds(
                &pos12,
                black_box(&*self.pa),
                black_box(&*self.pb),
                0.0,
                manifolds,
                workspace,
            )
            .expect("supported");
        manifolds.iter().map(|m| m.points.len()).sum()
    }
}

fn bench_pair(c: &mut Criterion, pair: &Pair) {
    let mut group = c.benchmark_group(pair.name);
    group.bench_function("sat_core/overlap", |bencher| {
        bencher.iter(|| overlap(black_box(&pair.a), black_box(&pair.b)))
    });
    group.bench_function("sat_core/collide", |bencher| {
        bencher.iter(|| collide(black_box(&pair.a), black_box(&pair.b)))
    });
    group.bench_function("sat_core/sweep", |bencher| {
        bencher.iter(|| {
            sweep(
                black_box(&pair.a_start),
                black_box(&pair.b),
                black_box(pair.motion),
            )
        })
    });
    // The sweep and then its contact point: what a shape cast that reports where it hit pays,
    // next to the sweep alone above.
    group.bench_function("sat_core/sweep_and_point", |bencher| {
        bencher.iter(|| {
            let (a, b, motion) = (
                black_box(&pair.a_start),
                black_box(&pair.b),
                black_box(pair.motion),
            );
            sweep(a, b, motion).map(|hit| hit.point(a, b, motion))
        })
    });
    group.bench_function("parry2d/intersection_test", |bencher| {
        bencher.iter(|| {
            query::intersection_test(
                black_box(&pair.pose_a),
                black_box(&*pair.pa),
                black_box(&pair.pose_b),
                black_box(&*pair.pb),
            )
        })
    });
    group.bench_function("parry2d/contact", |bencher| {
        bencher.iter(|| {
            query::contact(
                black_box(&pair.pose_a),
                black_box(&*pair.pa),
                black_box(&pair.pose_b),
                black_box(&*pair.pb),
                0.0,
            )
        })
    });
    group.bench_function("parry2d/contact_manifolds", |bencher| {
        let mut manifolds = Vec::new();
        let mut workspace = None;
        bencher.iter(|| pair.manifolds(&mut manifolds, &mut workspace))
    });
    group.bench_function("parry2d/cast_shapes", |bencher| {
        bencher.iter(|| pair.cast())
    });
    group.finish();
}

fn narrow_phase(c: &mut Criterion) {
    let pairs = [
        Pair::new("box-box", box_shape(), box_shape()),
        Pair::new("hexagon-hexagon", regular_shape(6), regular_shape(6)),
        Pair::new("octagon-octagon", regular_shape(8), regular_shape(8)),
        Pair::new("box-circle", box_shape(), circle_shape()),
        Pair::new(
            "32gon-32gon",
            large_regular_shape(32),
            large_regular_shape(32),
        ),
        Pair::new("capsule-box", capsule_shape(), box_shape()),
        Pair::new("capsule-capsule", capsule_shape(), capsule_shape()),
        Pair::new("roundbox-box", round_box_shape(), box_shape()),
        Pair::new("segment-box", segment_shape(), box_shape()),
    ];
    for pair in &pairs {
        bench_pair(c, pair);
    }
}

criterion_group! {
    name = benches;
    config = common::quick_criterion();
    targets = narrow_phase
}
criterion_main!(benches);
