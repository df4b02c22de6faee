//! The pair, point and ray checks the property tests share: every query against the
//! independent `f64` reference of `reference` (the Minkowski difference of the cores grown by
//! both radii; the distance of a point by brute force over the core's edges).

use glam::{DVec2, Vec2};
use proptest::prelude::*;
use sat_core::{
    Shape, cast_ray, collide, contains_point, distance, exit_distance, overlap, point_distance,
    project_point, sweep,
};

use super::reference::{Difference, convex_hull, rounded};

/// The reference's view of one shape: the convex hull of its core and its radius, as the
/// Minkowski difference of the shape with a point at the origin.
pub fn alone(shape: &Shape) -> Difference {
    let r = rounded(shape);
    Difference {
        hull: convex_hull(r.points),
        radius: r.radius,
    }
}

/// The reference signed distance from `p` to `shape`: negative inside.
pub fn signed_distance_to(shape: &Shape, p: DVec2) -> f64 {
    alone(shape).signed_distance_at(p)
}

/// A scale for tolerances: the larger shape's size, at least 1.
pub fn scale(a: &Shape, b: &Shape) -> f64 {
    let size = |s: &Shape| {
        let aabb = s.aabb();
        f64::from((aabb.max - aabb.min).max_element())
    };
    size(a).max(size(b)).max(1.0)
}

/// `(A, B)` placed: 0 at random, 1 moved to touch within `nudge` of the size, 2 with A's
/// centre on B's.
pub fn placed_pair(
    a: Shape,
    b: Shape,
    (pose_a, pose_b): (sat_core::Pose, sat_core::Pose),
    mode: u8,
    nudge: f64,
) -> Option<(Shape, Shape)> {
    let mut a = a.transformed(&pose_a).ok()?;
    let b = b.transformed(&pose_b).ok()?;
    match mode {
        0 => {}
        1 => {
            let d = Difference::new(&a, &b);
            let normal = d.normal();
            if !normal.is_finite() {
                return None;
            }
            let sd = d.signed_distance();
            let step = normal * (sd + nudge * scale(&a, &b));
            a.translate(step.as_vec2());
        }
        _ => a.translate(b.centroid() - a.centroid()),
    }
    Some((a, b))
}

/// Every pair query against the reference, for one placed pair and a motion.
pub fn check_pair(a: &Shape, b: &Shape, motion: Vec2) -> Result<(), TestCaseError> {
    let tol = 2e-4 * scale(a, b);
    let reference = Difference::new(a, b);
    let sd = reference.signed_distance();
    let contact = collide(a, b);
    prop_assert_eq!(overlap(a, b), contact.is_some());
    if sd < -tol {
        prop_assert!(contact.is_some(), "overlapping by {} but no contact", -sd);
    }
    if sd > tol {
        prop_assert!(contact.is_none(), "apart by {sd} but {contact:?}");
    }
    if let Some(c) = contact {
        prop_assert!((c.normal.length() - 1.0).abs() < 1e-5);
        prop_assert!(c.depth >= 0.0);
        // The depth is the penetration depth, and moving A out by it leaves them touching.
        prop_assert!(
            (f64::from(c.depth) + sd.min(0.0)).abs() <= tol,
            "depth {} against {}",
            c.depth,
            -sd
        );
        let after = reference.signed_distance_at(c.mtv().as_dvec2());
        prop_assert!(after.abs() <= tol, "after the mtv: {after}");
        // Each contact point is halfway through the overlap: within half the depth of both
        // shapes (a bare segment has no inside to hold it).
        let half = 0.5 * f64::from(c.depth) + tol;
        for p in c.points() {
            let p = p.as_dvec2();
            prop_assert!(signed_distance_to(a, p) <= half, "{p} outside A");
            prop_assert!(signed_distance_to(b, p) <= half, "{p} outside B");
        }
        let reverse = collide(b, a).unwrap();
        prop_assert!((reverse.depth - c.depth).abs() <= tol as f32);
    }
    if let Some(d) = distance(a, b) {
        prop_assert!(
            (f64::from(d.distance) - sd).abs() <= tol,
            "{} vs {sd}",
            d.distance
        );
        let touching = reference.signed_distance_at((d.normal * d.distance).as_dvec2());
        prop_assert!(touching.abs() <= tol, "{touching}");
    } else {
        prop_assert!(sd <= tol);
    }
    check_sweep(a, b, &reference, motion, tol)?;
    if sd < -tol {
        let up = exit_distance(a, b, Vec2::Y).unwrap();
        let expected = reference.exit_distance(DVec2::Y);
        prop_assert!(
            (f64::from(up) - expected).abs() <= tol,
            "exit {up} vs {expected}"
        );
    }
    Ok(())
}

/// The sweep against the reference: the signed distance along the motion is convex in time,
/// so its first zero is found by bisection below its minimum.
pub fn check_sweep(
    a: &Shape,
    b: &Shape,
    reference: &Difference,
    motion: Vec2,
    tol: f64,
) -> Result<(), TestCaseError> {
    let m = motion.as_dvec2();
    let at = |t: f64| reference.signed_distance_at(m * t);
    let hit = sweep(a, b, motion);
    if at(0.0) <= 0.0 {
        if at(0.0) < -tol {
            prop_assert!(hit.is_some_and(|h| h.toi == 0.0), "overlapping: {hit:?}");
        }
        return Ok(());
    }
    // The minimum along the motion (ternary search on the convex function).
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..100 {
        let (l, h) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if at(l) <= at(h) { hi = h } else { lo = l }
    }
    let lowest = 0.5 * (lo + hi);
    let length = m.length().max(1e-9);
    if at(lowest) > tol {
        prop_assert!(hit.is_none(), "no contact on the way but {hit:?}");
        return Ok(());
    }
    if at(lowest) >= -tol {
        return Ok(()); // grazing: either answer is right
    }
    let (mut before, mut after) = (0.0, lowest);
    for _ in 0..80 {
        let mid = 0.5 * (before + after);
        if at(mid) > 0.0 {
            before = mid
        } else {
            after = mid
        }
    }
    let hit = hit.ok_or_else(|| TestCaseError::fail("a hit on the way was missed"))?;
    // Apart at the start by no more than the round-off of `f32` coordinates (a few units in
    // the last place of the scene's size): touching already, which a hit at 0 may say.
    if hit.toi == 0.0 && at(0.0) <= 1e-6 * tol / 2e-4 {
        return Ok(());
    }
    let there = at(f64::from(hit.toi));
    prop_assert!(there.abs() <= tol, "at the hit: {there}");
    // A motion that grazes B comes within the tolerance long before it touches (the distance
    // barely changes along it): a hit within the tolerance of B before the first touch is as
    // right as the touch itself.
    let grazing_early = f64::from(hit.toi) <= after;
    prop_assert!(
        grazing_early || ((f64::from(hit.toi) - after) * length).abs() <= tol,
        "toi {} vs {after}",
        hit.toi
    );
    Ok(())
}

/// Point and ray queries on the rounded shape A against the reference.
pub fn check_point_and_ray(a: &Shape, p: Vec2, direction: Vec2) -> Result<(), TestCaseError> {
    let tol = 1e-4 * scale(a, a);
    let sd = signed_distance_to(a, p.as_dvec2());
    let inside = contains_point(a, p);
    if sd < -tol {
        prop_assert!(inside);
    }
    if sd > tol {
        prop_assert!(!inside);
    }
    let d = point_distance(a, p).unwrap();
    prop_assert!((f64::from(d) - sd.max(0.0)).abs() <= tol, "{d} vs {sd}");
    let projection = project_point(a, p).unwrap();
    prop_assert_eq!(projection.is_inside, inside);
    let on = projection.point.as_dvec2();
    prop_assert!(signed_distance_to(a, on).abs() <= tol);
    prop_assert!((on.distance(p.as_dvec2()) - sd.abs()).abs() <= tol);
    // The ray: its first point in the shape, by bisection along it (convex again).
    let unit = direction.as_dvec2().normalize();
    let along = |t: f64| signed_distance_to(a, p.as_dvec2() + unit * t);
    let hit = cast_ray(a, p, direction, 200.0, true);
    if along(0.0) <= 0.0 {
        if along(0.0) < -tol {
            prop_assert_eq!(hit.map(|h| h.distance), Some(0.0));
        }
        return Ok(());
    }
    let (mut lo, mut hi) = (0.0, 200.0);
    for _ in 0..100 {
        let (l, h) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if along(l) <= along(h) { hi = h } else { lo = l }
    }
    let lowest = 0.5 * (lo + hi);
    if along(lowest) > tol {
        prop_assert!(hit.is_none(), "{hit:?}");
        return Ok(());
    }
    if along(lowest) >= -tol || lowest > 199.0 {
        return Ok(());
    }
    let (mut before, mut after) = (0.0, lowest);
    for _ in 0..80 {
        let mid = 0.5 * (before + after);
        if along(mid) > 0.0 {
            before = mid
        } else {
            after = mid
        }
    }
    let hit = hit.ok_or_else(|| TestCaseError::fail("the ray missed"))?;
    prop_assert!(
        (f64::from(hit.distance) - after).abs() <= tol,
        "{} vs {after}",
        hit.distance
    );
    prop_assert!((hit.normal.length() - 1.0).abs() < 1e-5);
    // The normal points out: a step along it from the hit leaves the shape.
    let out = hit.point.as_dvec2() + hit.normal.as_dvec2() * (10.0 * tol);
    prop_assert!(signed_distance_to(a, out) > 0.0);
    Ok(())
}
