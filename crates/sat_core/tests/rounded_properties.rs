//! Property tests of every query on pairs with a rounded shape (capsule, bare segment, rounded
//! polygon) against an independent `f64` reference written without SAT: each shape as a core
//! and a radius, the pair as the Minkowski difference of the cores grown by both radii
//! (`common::reference`), the distance of a point by brute force over the core's edges.
//! 10,000 cases per pair kind, in three placements: random (apart or overlapping), moved to
//! touch within round-off, and moved onto each other (deep overlap, one often inside the other).

mod common;

use common::checks::{check_pair, check_point_and_ray, placed_pair};
use common::strategies::{capsule, circle, polygon, pose, rounded_polygon, segment};
use glam::Vec2;
use proptest::prelude::*;
use sat_core::{
    Capsule, ConvexPolygon, RoundedPolygon, Shape, cast_ray, collide, contains_point, distance,
    exit_distance, point_distance, project_point, sweep,
};

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(10_000)
}

/// One property test per pair kind: A from `$a`, B from `$b`.
macro_rules! pair_kind {
    ($name:ident, $a:expr, $b:expr) => {
        proptest! {
            #![proptest_config(config())]
            #[test]
            fn $name(
                a in $a,
                b in $b,
                poses in (pose(25.0), pose(25.0)),
                mode in 0u8..3,
                nudge in -1e-6f64..1e-6,
                motion in (-60.0f32..60.0, -60.0f32..60.0),
                point in (-40.0f32..40.0, -40.0f32..40.0),
                direction in 0.0f32..core::f32::consts::TAU,
            ) {
                let Some((a, b)) = placed_pair(a, b, poses, mode, nudge) else {
                    return Ok(());
                };
                check_pair(&a, &b, Vec2::new(motion.0, motion.1))?;
                check_point_and_ray(&a, Vec2::new(point.0, point.1), Vec2::from_angle(direction))?;
            }
        }
    };
}

pair_kind!(capsule_polygon, capsule(), polygon());
pair_kind!(capsule_circle, capsule(), circle());
pair_kind!(capsule_capsule, capsule(), capsule());
pair_kind!(segment_polygon, segment(), polygon());
pair_kind!(segment_circle, segment(), circle());
pair_kind!(segment_capsule, segment(), capsule());
pair_kind!(segment_segment, segment(), segment());
pair_kind!(rounded_polygon_polygon, rounded_polygon(), polygon());
pair_kind!(rounded_polygon_circle, rounded_polygon(), circle());
pair_kind!(rounded_polygon_capsule, rounded_polygon(), capsule());
pair_kind!(rounded_polygon_segment, rounded_polygon(), segment());
pair_kind!(
    rounded_polygon_rounded,
    rounded_polygon(),
    rounded_polygon()
);
pair_kind!(polygon_rounded_polygon, polygon(), rounded_polygon());
pair_kind!(circle_capsule, circle(), capsule());

/// Any `f32` bits (NaN, infinities, huge and tiny values) in the constructors and in the
/// queries: an `Err` or an answer, never a panic, and never NaN in an answer.
fn wild() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>(),
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(-1.0e18f32),
        Just(1.0e18f32),
        Just(0.0f32),
        -50.0f32..50.0,
    ]
}

proptest! {
    #![proptest_config(config())]
    #[test]
    fn wild_numbers_never_panic(
        v in prop::collection::vec(wild(), 12),
        other in prop_oneof![polygon(), circle(), capsule(), segment(), rounded_polygon()],
    ) {
        let (p, q) = (Vec2::new(v[0], v[1]), Vec2::new(v[2], v[3]));
        let shapes: Vec<Shape> = [
            Capsule::new(p, q, v[4]).map(Shape::from).ok(),
            Capsule::segment(p, q).map(Shape::from).ok(),
            Capsule::vertical(v[4], v[5]).map(Shape::from).ok(),
            RoundedPolygon::round_rectangle(v[5], v[6], v[4]).map(Shape::from).ok(),
            RoundedPolygon::new(ConvexPolygon::rectangle(v[5], v[6]), v[4]).map(Shape::from).ok(),
        ]
        .into_iter()
        .flatten()
        .collect();
        let (point, motion) = (Vec2::new(v[7], v[8]), Vec2::new(v[9], v[10]));
        for shape in &shapes {
            let aabb = shape.aabb();
            prop_assert!(!aabb.min.is_nan() && !aabb.max.is_nan());
            let _ = contains_point(shape, point);
            if let Some(d) = point_distance(shape, point) {
                prop_assert!(!d.is_nan());
            }
            if let Some(p) = project_point(shape, point) {
                prop_assert!(!p.point.is_nan());
            }
            if let Some(hit) = cast_ray(shape, point, motion, v[11], true) {
                prop_assert!(!hit.distance.is_nan() && !hit.normal.is_nan() && !hit.point.is_nan());
            }
            for (a, b) in [(shape, &other), (&other, shape)] {
                if let Some(c) = collide(a, b) {
                    prop_assert!(c.normal.is_finite() && c.depth.is_finite(), "{c:?}");
                    prop_assert!(c.points().iter().all(|p| !p.is_nan()), "{c:?}");
                }
                if let Some(hit) = sweep(a, b, motion) {
                    prop_assert!(hit.toi.is_finite() && hit.normal.is_finite(), "{hit:?}");
                    prop_assert!(!hit.point(a, b, motion).is_nan());
                }
                if let Some(d) = distance(a, b) {
                    prop_assert!(!d.distance.is_nan() && !d.normal.is_nan(), "{d:?}");
                }
                if let Some(e) = exit_distance(a, b, motion) {
                    prop_assert!(!e.is_nan());
                }
            }
        }
    }
}
