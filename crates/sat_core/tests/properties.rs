//! Property tests: `overlap`, `collide` and `sweep` against the independent Minkowski-difference
//! reference in `common::reference`, never against SAT itself. 10,000 cases each.

mod common;

use common::reference::{Difference, size};
use common::strategies::placed_shape;
use glam::{DVec2, Vec2};
use proptest::prelude::*;
use sat_core::{Pose, Shape, collide, overlap, sweep};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 10_000,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    }
}

/// Absolute tolerance for a pair: f32 round-off on coordinates of this size.
fn tolerance(a: &Shape, b: &Shape) -> f64 {
    2.0e-5 * (size(a) + size(b)).max(1.0)
}

fn translated(shape: &Shape, by: Vec2) -> Shape {
    shape
        .transformed(&Pose::from_translation(by))
        .expect("in range")
}

proptest! {
    #![proptest_config(config())]

    /// `overlap` and `collide` say "touching or overlapping" exactly when the reference does
    /// (pairs within round-off of touching are skipped: either answer is right there).
    #[test]
    fn overlap_and_collide_agree_with_reference(a in placed_shape(), b in placed_shape()) {
        let reference = Difference::new(&a, &b).signed_distance();
        prop_assume!(reference.abs() > tolerance(&a, &b));
        let expected = reference < 0.0;
        prop_assert_eq!(overlap(&a, &b), expected, "overlap, reference distance {}", reference);
        prop_assert_eq!(collide(&a, &b).is_some(), expected, "collide, reference distance {}", reference);
    }

    /// The depth is the true penetration depth, and the normal the reference's exit direction.
    #[test]
    fn depth_and_normal_match_reference(a in placed_shape(), b in placed_shape()) {
        let diff = Difference::new(&a, &b);
        let reference = diff.signed_distance();
        let tol = tolerance(&a, &b);
        prop_assume!(reference < -tol);
        let contact = collide(&a, &b).expect("reference says they overlap");
        prop_assert!((f64::from(contact.depth) + reference).abs() <= 4.0 * tol,
            "depth {} vs reference {}", contact.depth, -reference);
        prop_assert!((contact.normal.length() - 1.0).abs() < 1e-5);
        // Where the reference's exit is unique, the normal is it; otherwise moving along our
        // normal must separate just as well (checked below through exit distances).
        let exit_along_normal = diff.exit_distance(-contact.normal.as_dvec2());
        prop_assert!((exit_along_normal + reference).abs() <= 4.0 * tol,
            "moving A along -normal needs {} to separate, depth is {}", exit_along_normal, -reference);
        prop_assert!(contact.point_count >= 1 && contact.point_count <= 2);
        prop_assert!(contact.points().iter().all(|p| p.is_finite()));
    }

    /// Moving A by the MTV leaves the pair touching, and no shorter translation along 360
    /// sampled directions separates them.
    #[test]
    fn mtv_is_minimal_and_separates(a in placed_shape(), b in placed_shape()) {
        let Some(contact) = collide(&a, &b) else { return Ok(()) };
        let tol = tolerance(&a, &b);
        let moved = translated(&a, contact.mtv());
        if let Some(after) = collide(&moved, &b) {
            prop_assert!(f64::from(after.depth) < 1e-4_f64.max(4.0 * tol),
                "still {} deep after the MTV", after.depth);
        }
        let diff = Difference::new(&a, &b);
        for k in 0..360 {
            let u = DVec2::from_angle(f64::from(k) * core::f64::consts::TAU / 360.0);
            let exit = diff.exit_distance(u);
            prop_assert!(exit >= f64::from(contact.depth) - 4.0 * tol,
                "direction {}° separates after {} < depth {}", k, exit, contact.depth);
        }
    }

    /// `collide(b, a)` mirrors `collide(a, b)`.
    #[test]
    fn collide_is_symmetric(a in placed_shape(), b in placed_shape()) {
        let tol = tolerance(&a, &b) as f32;
        match (collide(&a, &b), collide(&b, &a)) {
            (None, None) => {}
            (Some(ab), Some(ba)) => {
                prop_assert!((ab.depth - ba.depth).abs() <= 4.0 * tol, "{} vs {}", ab.depth, ba.depth);
                // With two equally good axes the choice may differ; then both must be minimal.
                if (ab.normal + ba.normal).length() > 1e-4 {
                    let diff = Difference::new(&a, &b);
                    let exit = diff.exit_distance(ba.normal.as_dvec2());
                    prop_assert!((exit - f64::from(ab.depth)).abs() <= 8.0 * f64::from(tol));
                }
            }
            (ab, ba) => {
                prop_assert!(ab.or(ba).is_some_and(|c| c.depth <= 4.0 * tol),
                    "one way {:?}, other way {:?}", ab, ba);
            }
        }
    }

    /// Translating both shapes by the same offset changes nothing (up to f32 round-off).
    #[test]
    fn translation_invariance(a in placed_shape(), b in placed_shape(),
                              dx in -1000.0f32..1000.0, dy in -1000.0f32..1000.0) {
        let offset = Vec2::new(dx, dy);
        // Far out, f32 can merge close corners of a valid polygon: the placement keeps the
        // corners that remain, or is refused (an error, as documented) when they make no
        // polygon, and then there is nothing to compare.
        let placed = |s: &Shape| s.transformed(&Pose::from_translation(offset)).ok();
        let (Some(a2), Some(b2)) = (placed(&a), placed(&b)) else {
            return Ok(());
        };
        let tol = (tolerance(&a2, &b2) * 4.0) as f32;
        match (collide(&a, &b), collide(&a2, &b2)) {
            (None, None) => {}
            (Some(c1), Some(c2)) => {
                prop_assert!((c1.depth - c2.depth).abs() <= tol, "{} vs {}", c1.depth, c2.depth);
                if (c1.normal - c2.normal).length() > 1e-3 {
                    // Two axes tied: both must give the same exit.
                    let diff = Difference::new(&a, &b);
                    let exit = diff.exit_distance(-c2.normal.as_dvec2());
                    prop_assert!((exit - f64::from(c1.depth)).abs() <= 2.0 * f64::from(tol));
                }
            }
            (c1, c2) => prop_assert!(c1.or(c2).is_some_and(|c| c.depth <= tol)),
        }
        prop_assert_eq!(overlap(&a, &b) || overlap(&a2, &b2), collide(&a, &b).is_some() || collide(&a2, &b2).is_some());
    }

    /// The sweep agrees with fine sub-stepping of the reference: no missed hit, no hit before
    /// the shapes really touch, touching at the time of impact.
    #[test]
    fn sweep_agrees_with_substepping(a in placed_shape(), b in placed_shape(),
                                     mx in -300.0f32..300.0, my in -300.0f32..300.0) {
        let motion = Vec2::new(mx, my);
        let diff = Difference::new(&a, &b);
        let tol = tolerance(&a, &b) + 2.0e-5 * f64::from(motion.length());
        let m = motion.as_dvec2();
        const STEPS: usize = 1024;
        let first_overlap = (0..=STEPS)
            .map(|k| k as f64 / STEPS as f64)
            .find(|&t| diff.signed_distance_at(m * t) < -tol);
        match sweep(&a, &b, motion) {
            None => prop_assert!(first_overlap.is_none(), "missed a hit at t = {:?}", first_overlap),
            Some(hit) => {
                prop_assert!((0.0..=1.0).contains(&hit.toi));
                prop_assert!((hit.normal.length() - 1.0).abs() < 1e-4);
                let at = diff.signed_distance_at(m * f64::from(hit.toi));
                if hit.toi == 0.0 {
                    prop_assert!(at <= tol, "toi 0 but apart by {}", at);
                } else {
                    prop_assert!(at.abs() <= 4.0 * tol, "not touching at toi {}: {}", hit.toi, at);
                    prop_assert!(hit.normal.dot(motion) > 0.0, "hit normal against the motion");
                }
                if let Some(t) = first_overlap {
                    prop_assert!(f64::from(hit.toi) <= t + 1e-6, "toi {} after overlap at {}", hit.toi, t);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// `collide_within` reports every pair closer than the margin, never claims a gap larger
    /// than the true distance, and agrees with `collide` on overlapping pairs.
    #[test]
    fn speculative_contacts_within_margin(a in placed_shape(), b in placed_shape(), margin in 0.0f32..5.0) {
        let distance = Difference::new(&a, &b).signed_distance();
        let tol = tolerance(&a, &b);
        let within = sat_core::collide_within(&a, &b, margin);
        if distance < f64::from(margin) - tol {
            prop_assert!(within.is_some(), "distance {} under margin {}", distance, margin);
        }
        if let Some(c) = within {
            prop_assert!(c.depth >= -margin && f64::from(-c.depth) <= distance.max(0.0) + 4.0 * tol,
                "gap {} vs distance {}", -c.depth, distance);
            if let Some(exact) = collide(&a, &b).filter(|c| c.depth > 0.0) {
                prop_assert_eq!(c.depth, exact.depth);
                prop_assert_eq!(c.normal, exact.normal);
            }
        } else {
            prop_assert!(distance > f64::from(margin) - tol);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// `exit_distance` matches the reference's exit along the same direction.
    #[test]
    fn exit_distance_matches_reference(a in placed_shape(), b in placed_shape(), angle in 0.0f32..core::f32::consts::TAU) {
        let diff = Difference::new(&a, &b);
        let distance = diff.signed_distance();
        let tol = tolerance(&a, &b);
        let u = Vec2::from_angle(angle);
        match sat_core::exit_distance(&a, &b, u) {
            None => prop_assert!(distance > -4.0 * tol, "overlapping by {} but no exit", -distance),
            Some(exit) => {
                prop_assert!(distance < 4.0 * tol);
                let expected = diff.exit_distance(u.as_dvec2());
                prop_assert!((f64::from(exit) - expected).abs() <= 8.0 * tol + 1e-5 * expected,
                    "exit {} vs reference {}", exit, expected);
            }
        }
    }
}

/// A shape as a polygon, when it is one.
fn polygon(shape: &Shape) -> Option<&sat_core::ConvexPolygon> {
    match shape {
        Shape::Polygon(p) => Some(p),
        Shape::Circle(_) => None,
    }
}

proptest! {
    #![proptest_config(config())]

    /// Axes measured once answer for the pair after B translates: the depth is the reference's
    /// penetration of A and the moved B, the normal separates them by that much, and the
    /// contact on the axis has its points where the moved shapes meet.
    #[test]
    fn measured_axes_follow_translation(a in placed_shape(), b in placed_shape(),
                                        dx in -20.0f32..20.0, dy in -20.0f32..20.0) {
        let (Some(pa), Some(pb)) = (polygon(&a), polygon(&b)) else { return Ok(()) };
        let mut axes = Vec::new();
        sat_core::measure_axes(pa, pb, &mut axes);
        let offset = Vec2::new(dx, dy);
        let moved = translated(&b, offset);
        let diff = Difference::new(&a, &moved);
        let reference = diff.signed_distance();
        let tol = tolerance(&a, &moved) + 2.0e-5 * f64::from(offset.length());
        prop_assume!(reference.abs() > tol);
        let found = sat_core::least_overlap_after(&axes, offset, 0.0);
        prop_assert_eq!(found.is_some(), reference < 0.0, "reference distance {}", reference);
        let Some(found) = found else { return Ok(()) };
        prop_assert!((f64::from(found.depth) + reference).abs() <= 4.0 * tol,
            "depth {} vs reference {}", found.depth, -reference);
        let exit = diff.exit_distance(-found.normal.as_dvec2());
        prop_assert!((exit + reference).abs() <= 4.0 * tol,
            "moving A along -normal needs {} to separate, depth is {}", exit, -reference);
        // On the same axis as `collide` finds for the moved pair, the same contact points.
        let contact = found.contact(pa, polygon(&moved).expect("a polygon stays one"));
        prop_assert_eq!((contact.normal, contact.depth), (found.normal, found.depth));
        let direct = collide(&a, &moved).expect("the reference says they overlap");
        if (direct.normal - found.normal).length() < 1e-4 {
            prop_assert_eq!(contact.point_count, direct.point_count);
            for (p, q) in contact.points().iter().zip(direct.points()) {
                prop_assert!(f64::from(p.distance(*q)) <= 4.0 * tol, "point {} vs {}", p, q);
            }
        }
    }

    /// The axis `least_overlap` finds for a pair apart says "still apart" after an offset only
    /// when the pair's measured axes say so too: a solver may trust it instead of measuring.
    /// (Unmoved, it always says so; gaps up to 6 and offsets up to 8 leave many pairs apart.)
    #[test]
    fn a_gap_still_apart_is_apart_on_the_measured_axes(a in placed_shape(), b in placed_shape(),
                                                       dx in -8.0f32..8.0, dy in -8.0f32..8.0,
                                                       margin in 0.0f32..0.5) {
        let (Some(pa), Some(pb)) = (polygon(&a), polygon(&b)) else { return Ok(()) };
        let Some(gap) = sat_core::least_overlap(pa, pb, margin + 6.0) else { return Ok(()) };
        prop_assume!(gap.depth < -margin);
        let offset = Vec2::new(dx, dy);
        prop_assert!(gap.separates_after(Vec2::ZERO, margin));
        if gap.separates_after(offset, margin) {
            let mut axes = Vec::new();
            sat_core::measure_axes(pa, pb, &mut axes);
            prop_assert_eq!(sat_core::least_overlap_after(&axes, offset, margin), None);
        }
    }

    /// With nothing moved, measured axes give exactly what `collide_within` gives.
    #[test]
    fn measured_axes_at_rest_are_collide(a in placed_shape(), b in placed_shape(), margin in 0.0f32..5.0) {
        let (Some(pa), Some(pb)) = (polygon(&a), polygon(&b)) else { return Ok(()) };
        let mut axes = Vec::new();
        sat_core::measure_axes(pa, pb, &mut axes);
        let found = sat_core::least_overlap_after(&axes, Vec2::ZERO, margin)
            .map(|o| o.contact(pa, pb));
        prop_assert_eq!(found, sat_core::collide_within(&a, &b, margin));
    }
}
