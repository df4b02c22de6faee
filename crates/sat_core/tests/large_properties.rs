//! Property tests of every query on pairs with a large polygon (9 to 256 corners, held on the
//! heap as a `LargePolygon`) against the independent `f64` reference of `common::reference`
//! (the Minkowski difference of the two shapes' cores grown by their radii, built as a convex
//! hull without SAT). 10,000 cases per pair kind, in three placements: random (apart or
//! overlapping), moved to touch within round-off, and moved onto each other (deep overlap, one
//! often inside the other); sweeps that graze are checked by the same rule. Each case also
//! casts a ray and projects a point on the large polygon.

mod common;

use common::checks::{check_pair, check_point_and_ray, placed_pair};
use common::strategies::{
    capsule, circle, large_polygon, large_polygon_of, polygon, pose, rounded_polygon, segment,
};
use glam::Vec2;
use proptest::prelude::*;
use sat_core::{LargePolygon, Shape, collide, sweep};

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(10_000)
}

/// One property test per pair kind: A from `$a`, B from `$b`; the point and ray queries on
/// whichever of the two is large (`$large`: 0 for A, 1 for B).
macro_rules! pair_kind {
    ($name:ident, $a:expr, $b:expr, $large:literal) => {
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
                let large = [&a, &b][$large];
                check_point_and_ray(large, Vec2::new(point.0, point.1), Vec2::from_angle(direction))?;
            }
        }
    };
}

pair_kind!(large_vs_polygon, large_polygon(), polygon(), 0);
pair_kind!(polygon_vs_large, polygon(), large_polygon(), 1);
pair_kind!(large_vs_circle, large_polygon(), circle(), 0);
pair_kind!(circle_vs_large, circle(), large_polygon(), 1);
pair_kind!(large_vs_capsule, large_polygon(), capsule(), 0);
pair_kind!(large_vs_segment, large_polygon(), segment(), 0);
pair_kind!(segment_vs_large, segment(), large_polygon(), 1);
pair_kind!(large_vs_rounded, large_polygon(), rounded_polygon(), 0);
// Two large ones: the reference's hull has n·m points, so sizes up to 48 and 32-gons.
pair_kind!(
    large_vs_large,
    large_polygon_of(prop_oneof![Just(32usize), 9usize..=48]),
    large_polygon_of(prop_oneof![Just(32usize), 9usize..=48]),
    0
);

proptest! {
    #![proptest_config(config())]
    /// A polygon of up to 8 corners held either way (inline, or as a `LargePolygon`) gives the
    /// same contact and sweep up to round-off: the two representations agree.
    #[test]
    fn representations_agree(
        a in polygon(),
        b in prop_oneof![polygon(), circle(), capsule()],
        poses in (pose(25.0), pose(25.0)),
        motion in (-60.0f32..60.0, -60.0f32..60.0),
    ) {
        let (Ok(a), Ok(b)) = (a.transformed(&poses.0), b.transformed(&poses.1)) else {
            return Ok(());
        };
        let Shape::Polygon(inline) = &a else { unreachable!("polygon() gives inline ones") };
        let large = Shape::from(LargePolygon::from(inline.clone()));
        let tol = 2e-4 * f64::from((a.aabb().max - a.aabb().min).max_element().max(1.0));
        let tol = tol as f32;
        match (collide(&a, &b), collide(&large, &b)) {
            (Some(x), Some(y)) => {
                prop_assert!((x.depth - y.depth).abs() <= tol, "{x:?} {y:?}");
                prop_assert!(x.normal.dot(y.normal) > 0.999 || x.depth <= tol, "{x:?} {y:?}");
            }
            (None, None) => {}
            (x, y) => prop_assert!(
                x.or(y).is_some_and(|c| c.depth <= tol),
                "only one touches: {x:?} {y:?}"
            ),
        }
        let motion = Vec2::new(motion.0, motion.1);
        match (sweep(&a, &b, motion), sweep(&large, &b, motion)) {
            (Some(x), Some(y)) => {
                prop_assert!(((x.toi - y.toi) * motion.length()).abs() <= tol, "{x:?} {y:?}");
            }
            (None, None) => {}
            // A graze: one finds a touch the other misses by round-off.
            (x, y) => {
                let hit = x.or(y).map(|h| h.toi).unwrap_or(0.0);
                let mut moved = a.clone();
                moved.translate(motion * hit);
                let c = collide(&moved, &b).or_else(|| sat_core::collide_within(&moved, &b, tol));
                prop_assert!(c.is_some_and(|c| c.depth <= tol), "only one hits: {x:?} {y:?}");
            }
        }
    }
}
