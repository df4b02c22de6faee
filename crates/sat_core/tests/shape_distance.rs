//! Property tests of `distance` and `Hit::point` against an independent `f64` reference
//! written here: each shape as a core (a polygon's outline, a circle's centre) plus a radius,
//! the cores' distance by brute force over every corner and edge, and containment by
//! half-plane signs (and, for cores that meet, the depth from the Minkowski-difference
//! reference in `common`). Random pairs, pairs moved to touch within round-off, and one shape inside
//! the other. 10,000 cases each.

mod common;

use common::reference::Difference;
use common::strategies::placed_shape;
use glam::{DVec2, Vec2};
use proptest::prelude::*;
use sat_core::{
    AsShape, Circle, ConvexPolygon, Pose, Shape, ShapeRef, collide_within, distance, overlap, sweep,
};

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(10_000)
}

/// A shape as the reference sees it: core points (a closed outline when more than one) and a
/// radius.
fn core(shape: &Shape) -> (Vec<DVec2>, f64) {
    match shape.as_shape() {
        ShapeRef::Polygon(p) => (p.vertices().iter().map(|v| v.as_dvec2()).collect(), 0.0),
        ShapeRef::Circle(c) => (vec![c.center().as_dvec2()], f64::from(c.radius())),
        _ => unreachable!("these tests make only polygons and circles"),
    }
}

fn nearest_on_segment(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let e = b - a;
    a + e * ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
}

/// Whether `p` is inside the closed outline `vs` (a single point holds nothing).
fn inside(vs: &[DVec2], p: DVec2) -> bool {
    let n = vs.len();
    n > 1
        && (0..n).all(|i| {
            let e = vs[(i + 1) % n] - vs[i];
            DVec2::new(e.y, -e.x).normalize().dot(p - vs[i]) <= 0.0
        })
}

/// The segments of an outline (none for a single point).
fn segments(vs: &[DVec2]) -> Vec<(DVec2, DVec2)> {
    let n = vs.len();
    if n < 2 {
        vec![]
    } else {
        (0..n).map(|i| (vs[i], vs[(i + 1) % n])).collect()
    }
}

/// Whether two segments cross or touch.
fn crossing((a, b): (DVec2, DVec2), (c, d): (DVec2, DVec2)) -> bool {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    d1 * d2 <= 0.0 && d3 * d4 <= 0.0
}

/// The gap between two shapes (negative or 0: they meet), by brute force.
fn reference_gap(a: &Shape, b: &Shape) -> f64 {
    let ((ca, ra), (cb, rb)) = (core(a), core(b));
    let meet = ca.iter().any(|p| inside(&cb, *p))
        || cb.iter().any(|p| inside(&ca, *p))
        || segments(&ca)
            .iter()
            .any(|s| segments(&cb).iter().any(|t| crossing(*s, *t)));
    if meet {
        // The cores meet: minus the penetration depth, from the Minkowski-difference
        // reference, so that a pair within round-off of touching reads as near 0.
        return Difference::new(a, b).signed_distance().min(0.0);
    }
    let mut best = f64::INFINITY;
    for &p in &ca {
        for &q in &cb {
            best = best.min(p.distance(q));
        }
        for (s, e) in segments(&cb) {
            best = best.min(nearest_on_segment(s, e, p).distance(p));
        }
    }
    for &q in &cb {
        for (s, e) in segments(&ca) {
            best = best.min(nearest_on_segment(s, e, q).distance(q));
        }
    }
    best - ra - rb
}

/// How far `p` lies from the shape's boundary, by brute force.
fn boundary_distance(shape: &Shape, p: DVec2) -> f64 {
    let (cs, r) = core(shape);
    let to_core = if cs.len() == 1 {
        cs[0].distance(p)
    } else {
        segments(&cs)
            .iter()
            .map(|&(s, e)| nearest_on_segment(s, e, p).distance(p))
            .fold(f64::INFINITY, f64::min)
    };
    (to_core - r).abs()
}

fn tolerance(a: &Shape, b: &Shape) -> f64 {
    let size = |s: &Shape| {
        let aabb = s.aabb();
        f64::from(aabb.min.abs().max(aabb.max.abs()).max_element())
    };
    1e-4 * (1.0 + size(a).max(size(b)))
}

/// Checks `distance(a, b)`: always self-consistent, and against the reference when the pair
/// is not within `tol` of touching.
fn check(a: &Shape, b: &Shape) -> Result<(), TestCaseError> {
    let tol = tolerance(a, b);
    let gap = reference_gap(a, b);
    let got = distance(a, b);
    prop_assert_eq!(
        got.is_none(),
        overlap(a, b),
        "distance and overlap disagree"
    );
    if let Some(d) = got {
        prop_assert!(d.distance.is_finite() && d.distance >= 0.0, "{d:?}");
        prop_assert!((d.normal.length() - 1.0).abs() < 1e-5, "{d:?}");
        prop_assert!(
            boundary_distance(a, d.point_a.as_dvec2()) < tol,
            "{d:?}: point_a off A"
        );
        prop_assert!(
            boundary_distance(b, d.point_b.as_dvec2()) < tol,
            "{d:?}: point_b off B"
        );
        let between = d.point_b - d.point_a;
        prop_assert!((between.length() - d.distance).abs() < tol as f32, "{d:?}");
        prop_assert!(
            (between - d.normal * d.distance).length() < tol as f32,
            "{d:?}: normal"
        );
        if gap.abs() >= tol {
            prop_assert!((f64::from(d.distance) - gap).abs() < tol, "{d:?} vs {gap}");
        }
    }
    if gap.abs() >= tol {
        prop_assert_eq!(got.is_some(), gap > 0.0, "gap {}", gap);
    }
    Ok(())
}

fn translated(shape: &Shape, by: Vec2) -> Shape {
    shape.transformed(&Pose::from_translation(by)).unwrap()
}

/// The brute-force closest points of two separated shapes (for moving them into touch).
fn closest_points(a: &Shape, b: &Shape) -> Option<(DVec2, DVec2)> {
    let ((ca, ra), (cb, rb)) = (core(a), core(b));
    let mut best: Option<(f64, DVec2, DVec2)> = None;
    let mut consider = |p: DVec2, q: DVec2| {
        if best.is_none_or(|(d, ..)| p.distance(q) < d) {
            best = Some((p.distance(q), p, q));
        }
    };
    for &p in &ca {
        cb.iter().for_each(|&q| consider(p, q));
        segments(&cb)
            .iter()
            .for_each(|&(s, e)| consider(p, nearest_on_segment(s, e, p)));
    }
    for &q in &cb {
        segments(&ca)
            .iter()
            .for_each(|&(s, e)| consider(nearest_on_segment(s, e, q), q));
    }
    let (d, p, q) = best?;
    let n = (q - p) / d;
    (d > 0.0).then(|| (p + n * ra, q - n * rb))
}

proptest! {
    #![proptest_config(config())]

    /// Any two shapes, overlapping about half the time.
    #[test]
    fn random_pairs_match_reference(a in placed_shape(), b in placed_shape()) {
        check(&a, &b)?;
    }

    /// B moved so that it touches A (up to `f32` round-off), or a hair apart.
    #[test]
    fn touching_pairs(a in placed_shape(), b in placed_shape(), angle in 0.0f32..core::f32::consts::TAU,
                      apart in prop_oneof![Just(0.0f64), 1e-6f64..1e-3]) {
        // B first moved well clear of A, in any direction, then back until they touch.
        let b = translated(&b, Vec2::from_angle(angle) * 150.0);
        let (pa, pb) = closest_points(&a, &b).unwrap();
        let b = translated(&b, (pa - pb + (pb - pa).normalize() * apart).as_vec2());
        check(&a, &b)?;
    }

    /// One shape inside the other: they overlap, no distance.
    #[test]
    fn contained_pairs(a in placed_shape(), scale in 0.05f32..0.9, radius in 0.01f32..0.5) {
        let inner: Shape = match a.as_shape() {
            ShapeRef::Polygon(p) => {
                let c = p.centroid();
                p.transformed(&Pose::new(c * (1.0 - scale), 0.0, Vec2::splat(scale))).unwrap().into()
            }
            ShapeRef::Circle(c) => Circle::new(c.center(), c.radius() * radius).unwrap().into(),
            _ => unreachable!("these tests make only polygons and circles"),
        };
        prop_assert_eq!(distance(&a, &inner), None);
        prop_assert_eq!(distance(&inner, &a), None);
        check(&a, &inner)?;
    }

    /// A sweep's contact point lies on B's boundary and on A's, moved to the time of impact.
    #[test]
    fn sweep_point_is_where_they_touch(a in placed_shape(), b in placed_shape(),
                                       (mx, my) in (-80.0f32..80.0, -80.0f32..80.0)) {
        let motion = Vec2::new(mx, my);
        let Some(hit) = sweep(&a, &b, motion) else { return Ok(()) };
        let point = hit.point(&a, &b, motion);
        prop_assert!(point.is_finite());
        if hit.toi > 0.0 {
            let tol = tolerance(&a, &b) + 1e-4 * f64::from(motion.length());
            let moved = translated(&a, motion * hit.toi);
            prop_assert!(boundary_distance(&b, point.as_dvec2()) < tol, "{hit:?} {point}: off B");
            prop_assert!(boundary_distance(&moved, point.as_dvec2()) < tol, "{hit:?} {point}: off A");
        }
    }

    /// Shapes that overlap at the start touch, for `Hit::point`, in the middle of the static
    /// contact's points: the one that `collide_within` clips with any gap counted as touching,
    /// to the bit (two polygons are clipped on the axis the sweep's normal names, without
    /// weighing the axes again). B is placed on A's centre, a little off it.
    #[test]
    fn sweep_point_at_start_is_the_static_contacts_middle(
        a in placed_shape(), b in placed_shape(),
        (ox, oy) in (-2.0f32..2.0, -2.0f32..2.0),
        (mx, my) in (-80.0f32..80.0, -80.0f32..80.0),
    ) {
        let centre = |s: &Shape| (s.aabb().min + s.aabb().max) * 0.5;
        let b = translated(&b, centre(&a) - centre(&b) + Vec2::new(ox, oy));
        let motion = Vec2::new(mx, my);
        let Some(hit) = sweep(&a, &b, motion).filter(|hit| hit.toi == 0.0) else {
            return Ok(());
        };
        let contact = collide_within(&a, &b, f32::INFINITY).unwrap();
        let points = contact.points();
        let middle = points.iter().copied().sum::<Vec2>() / points.len() as f32;
        prop_assert_eq!(hit.point(&a, &b, motion), middle);
        prop_assert_eq!(hit.normal, contact.normal);
    }

    /// A box falling flat onto a floor touches it in the middle of the part they share.
    #[test]
    fn sweep_point_face_to_face(x in -12.0f32..12.0, width in 0.5f32..6.0, fall in 0.1f32..5.0) {
        let floor = ConvexPolygon::rectangle(16.0, 2.0); // top at y = 1, x in [-8, 8]
        let bx = translated(&ConvexPolygon::rectangle(width, 1.0).into(), Vec2::new(x, 1.5 + fall));
        let motion = Vec2::new(0.0, -2.0 * fall);
        let hit = sweep(&bx, &floor, motion).filter(|_| (x.abs() - width / 2.0) < 8.0);
        let Some(hit) = hit else { return Ok(()) };
        let shared = ((x - width / 2.0).max(-8.0), (x + width / 2.0).min(8.0));
        let point = hit.point(&bx, &floor, motion);
        prop_assert!((point - Vec2::new(0.5 * (shared.0 + shared.1), 1.0)).length() < 1e-4, "{point}");
    }
}

/// NaN, infinite and huge placements never panic and give finite answers.
#[test]
fn distance_huge_inputs_stay_finite() {
    let far = 1e17;
    let a: Shape = ConvexPolygon::rectangle(2.0, 2.0).into();
    let b = translated(
        &Circle::new(Vec2::ZERO, 1.0).unwrap().into(),
        Vec2::splat(far),
    );
    let d = distance(&a, &b).unwrap();
    assert!(d.distance.is_finite() && d.point_a.is_finite() && d.point_b.is_finite());
    assert!((f64::from(d.distance) - (2f64.sqrt() * 1e17 - 2f64.sqrt() - 1.0)).abs() < 1e11);
    // The corner facing the circle, up to the round-off of coordinates of 1e17.
    assert!(
        d.point_a.max_element() == 1.0 && d.point_a.abs() == Vec2::ONE,
        "{d:?}"
    );
    // A hit from a NaN motion is not a hit; a fabricated NaN motion still gives a finite point.
    assert_eq!(sweep(&a, &b, Vec2::NAN), None);
    let hit = sweep(
        &a,
        &translated(&a, Vec2::new(3.0, 0.0)),
        Vec2::new(2.0, 0.0),
    )
    .unwrap();
    assert_eq!(
        hit.point(
            &a,
            &translated(&a, Vec2::new(3.0, 0.0)),
            Vec2::new(2.0, 0.0)
        ),
        Vec2::new(2.0, 0.0)
    );
    assert!(hit.point(&a, &a, Vec2::INFINITY).is_finite());
}

/// A thin box sweeping into a triangle whose face is 5e-4 rad from parallel to its own: the
/// touch is at a corner, not a face, and the point lies on both shapes.
#[test]
fn sweep_point_on_nearly_parallel_faces_lies_on_both() {
    let v = |x, y| Vec2::new(x, y);
    let a: Shape = ConvexPolygon::new([
        v(-7.1924047, -8.44907),
        v(-6.402505, -9.062305),
        v(7.1924047, 8.44907),
        v(6.402505, 9.062305),
    ])
    .unwrap()
    .into();
    let b: Shape = ConvexPolygon::new([
        v(-17.966953, 13.245305),
        v(-19.43101, 14.301911),
        v(-32.309155, -5.1875486),
    ])
    .unwrap()
    .into();
    let motion = v(-32.583874, 0.0);
    let hit = sweep(&a, &b, motion).unwrap();
    let point = hit.point(&a, &b, motion).as_dvec2();
    let moved = translated(&a, motion * hit.toi);
    assert!(boundary_distance(&b, point) < 1e-5, "{point}");
    assert!(boundary_distance(&moved, point) < 1e-4, "{point}");
}
