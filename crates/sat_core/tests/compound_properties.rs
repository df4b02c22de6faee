//! Property tests of every query on compound shapes against an independent `f64` reference:
//! a compound is the union of its parts, so it overlaps what any part overlaps (the reference
//! Minkowski difference of each part with the other shape, `common::reference`), its
//! penetration depth is the deepest part's, its time of impact the earliest part's, and a
//! point's distance the nearest part's. 10,000 cases each.

mod common;

use common::checks::{alone, scale};
use common::reference::Difference;
use common::strategies::{local_shape, placed_shape, pose};
use glam::{DVec2, Vec2};
use proptest::prelude::*;
use sat_core::{
    Compound, ConvexPolygon, Shape, cast_ray, collide, collide_parts, contains_point,
    convex_decomposition, distance, overlap, point_distance, sweep, sweep_parts,
};

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(10_000)
}

/// A compound of two or three random shapes, each at an offset within 15 units and a rotation,
/// with no internal edges, placed somewhere near the origin.
fn compound() -> impl Strategy<Value = Shape> {
    (
        prop::collection::vec((local_shape(), pose(15.0)), 2..=3),
        pose(20.0),
    )
        .prop_filter_map("out of range", |(parts, placement)| {
            let parts = parts.into_iter().map(|(shape, pose)| {
                let angle = pose.rotation.to_angle();
                (pose.translation, angle, shape, 0u16)
            });
            let local = Compound::new(parts).ok()?;
            Shape::from(local).transformed(&placement).ok()
        })
}

/// The parts of a compound (a shape that is not one is its only part).
fn parts(shape: &Shape) -> Vec<Shape> {
    match shape {
        Shape::Compound(c) => c.parts().iter().map(|p| p.shape.clone()).collect(),
        other => vec![other.clone()],
    }
}

/// The reference signed distance between A moved by `t` and B: the least over pairs of parts.
fn signed_distance_at(pairs: &[Difference], t: DVec2) -> f64 {
    pairs
        .iter()
        .map(|d| d.signed_distance_at(t))
        .fold(f64::INFINITY, f64::min)
}

/// Every pair of parts' reference difference.
fn differences(a: &Shape, b: &Shape) -> Vec<Difference> {
    let mut out = Vec::new();
    for pa in parts(a) {
        for pb in parts(b) {
            out.push(Difference::new(&pa, &pb));
        }
    }
    out
}

/// The first time in `[0, 1]` a convex signed distance along the motion reaches 0, if it
/// goes below `-tol`; `Err(())` when it only grazes (within `tol`), where either answer is
/// right.
fn first_touch(at: impl Fn(f64) -> f64, tol: f64) -> Result<Option<f64>, ()> {
    if at(0.0) <= 0.0 {
        return if at(0.0) < -tol {
            Ok(Some(0.0))
        } else {
            Err(())
        };
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..100 {
        let (l, h) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if at(l) <= at(h) { hi = h } else { lo = l }
    }
    let lowest = 0.5 * (lo + hi);
    if at(lowest) > tol {
        return Ok(None);
    }
    if at(lowest) >= -tol {
        return Err(());
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
    Ok(Some(after))
}

/// Every pair query on `a` and `b` (either or both compounds, no internal edges) against the
/// part-by-part reference.
fn check_pair(a: &Shape, b: &Shape, motion: Vec2) -> Result<(), TestCaseError> {
    let tol = 2e-4 * scale(a, b);
    let pairs = differences(a, b);
    let sd = signed_distance_at(&pairs, DVec2::ZERO);
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
        // The deepest pair of parts: its penetration depth, and the push leaves it touching.
        let deepest = pairs
            .iter()
            .map(|d| -d.signed_distance())
            .fold(0.0f64, f64::max);
        prop_assert!(
            (f64::from(c.depth) - deepest).abs() <= tol,
            "depth {} against {deepest}",
            c.depth
        );
        let found = collide_parts(a, b, 0.0).unwrap();
        prop_assert_eq!(found.contact, c);
        let (pa, pb) = (
            &parts(a)[found.part_a.unwrap_or(0)],
            &parts(b)[found.part_b.unwrap_or(0)],
        );
        let pushed = Difference::new(pa, pb).signed_distance_at(c.mtv().as_dvec2());
        prop_assert!(pushed.abs() <= tol, "the pair after the push: {pushed}");
    }
    match distance(a, b) {
        Some(d) => prop_assert!(
            (f64::from(d.distance) - sd).abs() <= tol,
            "{} vs {sd}",
            d.distance
        ),
        None => prop_assert!(sd <= tol),
    }
    // The sweep: the earliest first touch over the pairs of parts.
    let m = motion.as_dvec2();
    let mut expected: Option<f64> = None;
    let mut grazing = false;
    for d in &pairs {
        match first_touch(|t| d.signed_distance_at(m * t), tol) {
            Ok(Some(t)) => expected = Some(expected.map_or(t, |e: f64| e.min(t))),
            Ok(None) => {}
            Err(()) => grazing = true,
        }
    }
    let hit = sweep(a, b, motion);
    prop_assert_eq!(hit, sweep_parts(a, b, motion).map(|found| found.hit));
    let length = m.length().max(1e-9);
    match (expected, hit) {
        (None, Some(_)) if !grazing => prop_assert!(false, "no contact on the way but {hit:?}"),
        (Some(t), None) => prop_assert!(false, "a hit at {t} was missed"),
        (Some(t), Some(hit)) => {
            let there = signed_distance_at(&pairs, m * f64::from(hit.toi));
            let touched_at_start = hit.toi == 0.0 && signed_distance_at(&pairs, DVec2::ZERO) <= tol;
            prop_assert!(
                touched_at_start || there.abs() <= tol,
                "at the hit: {there}"
            );
            let early = grazing && f64::from(hit.toi) <= t;
            prop_assert!(
                touched_at_start || early || ((f64::from(hit.toi) - t) * length).abs() <= tol,
                "toi {} vs {t}",
                hit.toi
            );
        }
        _ => {}
    }
    Ok(())
}

/// Point and ray queries on compound `a`: the nearest part's answers.
fn check_point_and_ray(a: &Shape, p: Vec2, direction: Vec2) -> Result<(), TestCaseError> {
    let tol = 1e-4 * scale(a, a);
    let singles: Vec<Difference> = parts(a).iter().map(alone).collect();
    let sd_at = |q: DVec2| signed_distance_at(&singles, q);
    let sd = sd_at(p.as_dvec2());
    let inside = contains_point(a, p);
    if sd < -tol {
        prop_assert!(inside);
    }
    if sd > tol {
        prop_assert!(!inside);
    }
    let d = point_distance(a, p).unwrap();
    prop_assert!((f64::from(d) - sd.max(0.0)).abs() <= tol, "{d} vs {sd}");
    let unit = direction.as_dvec2().normalize();
    let hit = cast_ray(a, p, direction, 200.0, true);
    let mut expected: Option<f64> = None;
    let mut grazing = false;
    for single in &singles {
        let along = |t: f64| single.signed_distance_at(p.as_dvec2() + unit * t * 200.0);
        match first_touch(along, tol) {
            Ok(Some(t)) => expected = Some(expected.map_or(t * 200.0, |e: f64| e.min(t * 200.0))),
            Ok(None) => {}
            Err(()) => grazing = true,
        }
    }
    match (expected, hit) {
        (None, Some(_)) if !grazing => prop_assert!(false, "the ray hit nothing but {hit:?}"),
        (Some(t), None) if t < 199.0 => prop_assert!(false, "the ray missed a hit at {t}"),
        (Some(t), Some(hit)) => {
            let early = grazing && f64::from(hit.distance) <= t;
            prop_assert!(
                early || (f64::from(hit.distance) - t).abs() <= tol,
                "{} vs {t}",
                hit.distance
            );
        }
        _ => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn compound_against_a_shape(
        a in compound(),
        b in placed_shape(),
        motion in (-60.0f32..60.0, -60.0f32..60.0),
    ) {
        check_pair(&a, &b, Vec2::new(motion.0, motion.1))?;
        check_pair(&b, &a, Vec2::new(motion.0, motion.1))?;
    }

    #[test]
    fn compound_against_a_compound(
        a in compound(),
        b in compound(),
        motion in (-60.0f32..60.0, -60.0f32..60.0),
    ) {
        check_pair(&a, &b, Vec2::new(motion.0, motion.1))?;
    }

    #[test]
    fn points_and_rays_on_a_compound(
        a in compound(),
        point in (-50.0f32..50.0, -50.0f32..50.0),
        direction in 0.0f32..core::f32::consts::TAU,
    ) {
        check_point_and_ray(&a, Vec2::new(point.0, point.1), Vec2::from_angle(direction))?;
    }

    /// A concave outline split into parts, internal edges kept, and a box dropped onto it: the
    /// contact never pushes along a part's internal edge, and is never shallower than the
    /// deepest part's own penetration (an internal face is no shorter way out).
    #[test]
    fn a_concave_compound_never_pushes_through_an_internal_edge(
        outline in common::outline_reference::star(12),
        size in (0.05f32..0.5, 0.05f32..0.5),
        at in (0.0f32..1.0, 0.0f32..1.0),
    ) {
        let Ok(split) = convex_decomposition(outline) else { return Ok(()); };
        let Ok(shape) = Compound::from_parts(split) else { return Ok(()); };
        let aabb = shape.aabb();
        let extent = aabb.max - aabb.min;
        let center = aabb.min + extent * Vec2::new(at.0, at.1);
        let Ok(bx) = ConvexPolygon::rectangle(extent.x * size.0, extent.y * size.1)
            .transformed(&sat_core::Pose::from_translation(center)) else { return Ok(()); };
        let Some(found) = collide_parts(&bx, &shape, 0.0) else { return Ok(()); };
        let part = &shape.parts()[found.part_b.unwrap()];
        let Shape::Polygon(p) = &part.shape else { return Ok(()); };
        for (i, n) in p.normals().iter().enumerate() {
            if part.internal >> i & 1 != 0 {
                prop_assert!(n.dot(-found.contact.normal) <= 0.9999, "pushed through edge {i}");
            }
        }
        let tol = 2e-4 * f64::from(extent.max_element());
        let deepest = shape
            .parts()
            .iter()
            .map(|p| -Difference::new(&Shape::from(bx.clone()), &p.shape).signed_distance())
            .fold(0.0f64, f64::max);
        prop_assert!(f64::from(found.contact.depth) >= deepest - tol);
    }
}
