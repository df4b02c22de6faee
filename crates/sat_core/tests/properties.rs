//! Property tests: `overlap`, `collide` and `sweep` against the independent Minkowski-difference
//! reference in `common::reference`, never against SAT itself. 10,000 cases each.

mod common;

use common::reference::{Difference, size};
use common::strategies::{local_shape, placed_shape, pose};
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
        prop_assert!((1..=2).contains(&contact.point_count()));
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
        check_sweep(&a, &b, Vec2::new(mx, my))?;
    }

    /// The same from starts at the edge of the question: touching (placed touching in f64,
    /// then rounded to f32) and driven into B or grazing it, and one shape inside the other.
    #[test]
    fn sweep_agrees_with_substepping_from_touching_and_contained_starts(
        (start, a, b, motion) in touching_or_contained_start(),
    ) {
        // The start is what it says.
        let distance = Difference::new(&a, &b).signed_distance();
        let tol = tolerance(&a, &b);
        match start {
            Start::Into | Start::Grazing => prop_assert!(distance.abs() <= tol, "{:?} {}", start, distance),
            Start::Inside | Start::Around => prop_assert!(distance < 0.0, "{:?} {}", start, distance),
        }
        check_sweep(&a, &b, motion)?;
    }
}

/// The sweep of A by `motion` against B agrees with fine sub-stepping of the reference.
fn check_sweep(a: &Shape, b: &Shape, motion: Vec2) -> Result<(), TestCaseError> {
    let diff = Difference::new(a, b);
    let tol = tolerance(a, b) + 2.0e-5 * f64::from(motion.length());
    let m = motion.as_dvec2();
    const STEPS: usize = 1024;
    let first_overlap = (0..=STEPS)
        .map(|k| k as f64 / STEPS as f64)
        .find(|&t| diff.signed_distance_at(m * t) < -tol);
    match sweep(a, b, motion) {
        None => prop_assert!(
            first_overlap.is_none(),
            "missed a hit at t = {:?}",
            first_overlap
        ),
        Some(hit) => {
            prop_assert!((0.0..=1.0).contains(&hit.toi));
            prop_assert!((hit.normal.length() - 1.0).abs() < 1e-4);
            let at = diff.signed_distance_at(m * f64::from(hit.toi));
            if hit.toi == 0.0 {
                prop_assert!(at <= tol, "toi 0 but apart by {}", at);
            } else {
                prop_assert!(
                    at.abs() <= 4.0 * tol,
                    "not touching at toi {}: {}",
                    hit.toi,
                    at
                );
                prop_assert!(
                    hit.normal.dot(motion) > 0.0,
                    "hit normal against the motion"
                );
            }
            if let Some(t) = first_overlap {
                prop_assert!(
                    f64::from(hit.toi) <= t + 1e-6,
                    "toi {} after overlap at {}",
                    hit.toi,
                    t
                );
            }
        }
    }
    Ok(())
}

/// How A starts against B in [`touching_or_contained_start`].
#[derive(Clone, Copy, Debug)]
enum Start {
    /// Touching, moving into B at up to 80° from straight in.
    Into,
    /// Touching, moving along the boundary of B ⊖ A where they touch.
    Grazing,
    /// A inside B.
    Inside,
    /// B inside A.
    Around,
}

/// A pair and a motion for A starting touching or contained (see [`Start`]), the placement
/// computed in f64 on the reference and rounded to f32 by placing the shapes.
fn touching_or_contained_start() -> impl Strategy<Value = (Start, Shape, Shape, Vec2)> {
    let start = prop_oneof![
        3 => Just(Start::Into),
        2 => Just(Start::Grazing),
        1 => Just(Start::Inside),
        1 => Just(Start::Around),
    ];
    (
        local_shape(),
        local_shape(),
        pose(25.0),
        0.0f64..core::f64::consts::TAU,
        start,
        -1.4f64..1.4,
        0.05f32..60.0,
    )
        .prop_filter_map(
            "placement refused",
            |(la, lb, pose_b, direction, start, turn, length)| {
                let b = lb.transformed(&pose_b).ok()?;
                let u = DVec2::from_angle(direction);
                match start {
                    Start::Into | Start::Grazing => {
                        // A centred on B's centroid overlaps it; moved out along `u` until the
                        // reference says they touch.
                        let centred = la
                            .transformed(&Pose::new(Vec2::ZERO, direction as f32, Vec2::ONE))
                            .ok()?;
                        let to_b = (b.centroid() - centred.centroid()).as_dvec2();
                        let inside = translated_by(&centred, to_b)?;
                        let out = Difference::new(&inside, &b).exit_distance(u);
                        let a = translated_by(&centred, to_b + u * out)?;
                        let motion = match start {
                            Start::Into => -DVec2::from_angle(turn).rotate(u),
                            _ => Difference::new(&a, &b).outward_normal()?.perp() * turn.signum(),
                        };
                        Some((start, a, b, (motion * f64::from(length)).as_vec2()))
                    }
                    Start::Inside | Start::Around => {
                        let (inner, outer) = contained(&la, &b, direction as f32)?;
                        let motion = (u * f64::from(length)).as_vec2();
                        Some(match start {
                            Start::Inside => (start, inner, outer, motion),
                            _ => (start, outer, inner, motion),
                        })
                    }
                }
            },
        )
}

/// `shape` moved by `by`, rounded to f32.
fn translated_by(shape: &Shape, by: DVec2) -> Option<Shape> {
    shape
        .transformed(&Pose::from_translation(by.as_vec2()))
        .ok()
}

/// `local`, turned by `angle` and scaled to fit in the disc around B's centroid that B holds,
/// centred there: `(A inside B, B)`.
fn contained(local: &Shape, b: &Shape, angle: f32) -> Option<(Shape, Shape)> {
    let centre = b.centroid();
    // The distance from B's centroid to its boundary.
    let room = match b {
        Shape::Circle(c) => c.radius(),
        Shape::Polygon(p) => p
            .vertices()
            .iter()
            .zip(p.normals())
            .map(|(v, n)| n.dot(*v - centre))
            .fold(f32::INFINITY, f32::min),
        _ => unreachable!("these tests make only polygons and circles"),
    };
    let reach = match local {
        Shape::Circle(c) => c.center().length() + c.radius(),
        Shape::Polygon(p) => p.vertices().iter().map(|v| v.length()).fold(0.0, f32::max),
        _ => unreachable!("these tests make only polygons and circles"),
    };
    let scale = 0.5 * room / reach;
    let turned = local
        .transformed(&Pose::new(Vec2::ZERO, angle, Vec2::splat(scale)))
        .ok()?;
    let inner = turned.transformed(&Pose::from_translation(centre)).ok()?;
    Some((inner, b.clone()))
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
        _ => None,
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
            prop_assert_eq!(contact.point_count(), direct.point_count());
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
