//! Property tests of `contains_point`, `project_point` and `point_distance` against an
//! independent `f64` reference written here: containment by the signs of the distances to each
//! edge's line, the nearest boundary point by brute force over every edge. Points anywhere,
//! exactly on corners, on edges up to `f32` round-off, and within 1e-6 of edges. 10,000 cases
//! each.

mod common;

use common::strategies::placed_shape;
use core::f64::consts::TAU;
use glam::{DVec2, Vec2};
use proptest::prelude::*;
use sat_core::{
    AsShape, Circle, ConvexPolygon, Shape, ShapeRef, contains_point, point_distance, project_point,
};

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(10_000)
}

fn vertices(p: &ConvexPolygon) -> Vec<DVec2> {
    p.vertices().iter().map(|v| v.as_dvec2()).collect()
}

fn nearest_on_segment(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let e = b - a;
    a + e * ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0)
}

/// The reference: the signed distance from `p` to the shape (negative inside) and the nearest
/// boundary point, by brute force.
fn reference(shape: &Shape, p: DVec2) -> (f64, DVec2) {
    match shape.as_shape() {
        ShapeRef::Polygon(poly) => {
            let vs = vertices(poly);
            let n = vs.len();
            // Inside exactly when on the inner side of every edge's line (unit normals).
            let inside = (0..n).all(|i| {
                let e = vs[(i + 1) % n] - vs[i];
                DVec2::new(e.y, -e.x).normalize().dot(p - vs[i]) <= 0.0
            });
            let nearest = (0..n)
                .map(|i| nearest_on_segment(vs[i], vs[(i + 1) % n], p))
                .min_by(|a, b| a.distance(p).total_cmp(&b.distance(p)))
                .unwrap();
            let d = nearest.distance(p);
            (if inside { -d } else { d }, nearest)
        }
        ShapeRef::Circle(c) => {
            let (center, r) = (c.center().as_dvec2(), f64::from(c.radius()));
            let dir = (p - center).normalize_or(DVec2::Y);
            ((p - center).length() - r, center + dir * r)
        }
        _ => unreachable!("these tests make only polygons and circles"),
    }
}

fn size(shape: &Shape) -> f64 {
    let aabb = shape.aabb();
    f64::from(aabb.min.abs().max(aabb.max.abs()).max_element())
}

/// Checks all three queries at `p`: exactly where the reference is clear, for consistency
/// where `p` lies within `tol` of the boundary.
fn check(shape: &Shape, p: Vec2) -> Result<(), TestCaseError> {
    let tol = 1e-4 * (1.0 + size(shape).max(f64::from(p.abs().max_element())));
    let (signed, nearest) = reference(shape, p.as_dvec2());
    let inside = contains_point(shape, p);
    let projection = project_point(shape, p).expect("finite point");
    let distance = point_distance(shape, p).expect("finite point");
    // Consistency, always.
    prop_assert_eq!(projection.is_inside, inside);
    prop_assert!(projection.point.is_finite() && distance.is_finite() && distance >= 0.0);
    prop_assert_eq!(distance == 0.0, inside, "{} {}", distance, inside);
    let (on_boundary, _) = reference(shape, projection.point.as_dvec2());
    prop_assert!(
        on_boundary.abs() < tol,
        "{projection:?} is {on_boundary} off the boundary"
    );
    // The projection is as near as the nearest boundary point (ties may pick another one).
    let reach = projection.point.as_dvec2().distance(p.as_dvec2());
    prop_assert!(
        (reach - nearest.distance(p.as_dvec2())).abs() < tol,
        "{projection:?} vs {nearest}"
    );
    if signed.abs() < tol {
        return Ok(()); // on the boundary up to round-off: inside or out
    }
    prop_assert_eq!(inside, signed < 0.0, "signed distance {}", signed);
    if !inside {
        prop_assert!(
            (f64::from(distance) - signed).abs() < tol,
            "{} vs {}",
            distance,
            signed
        );
        // Outside, the nearest point is unique.
        prop_assert!(
            projection.point.as_dvec2().distance(nearest) < tol,
            "{projection:?} vs {nearest}"
        );
    }
    Ok(())
}

fn point_in(range: f32) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A point on the shape's boundary (rounded to `f32`), moved `offset` along the outward normal.
fn near_boundary(shape: &Shape, k: usize, s: f32, angle: f64, offset: f32) -> Vec2 {
    match shape.as_shape() {
        ShapeRef::Polygon(p) => {
            let vs = p.vertices();
            let i = k % vs.len();
            vs[i].lerp(vs[(i + 1) % vs.len()], s) + p.normals()[i] * offset
        }
        ShapeRef::Circle(c) => {
            let n = DVec2::from_angle(angle).as_vec2();
            c.center() + n * (c.radius() + offset)
        }
        _ => unreachable!("these tests make only polygons and circles"),
    }
}

proptest! {
    #![proptest_config(config())]

    /// Points anywhere around the shape.
    #[test]
    fn random_points_match_reference(shape in placed_shape(), p in point_in(60.0)) {
        check(&shape, p)?;
    }

    /// Points on an edge (or the circle) up to round-off.
    #[test]
    fn points_on_the_boundary(shape in placed_shape(), k in 0usize..8, s in 0.0f32..=1.0, angle in 0.0..TAU) {
        check(&shape, near_boundary(&shape, k, s, angle, 0.0))?;
    }

    /// Points within 1e-6 of an edge, on either side.
    #[test]
    fn points_a_hair_off_the_boundary(shape in placed_shape(), k in 0usize..8, s in 0.0f32..=1.0,
                                      angle in 0.0..TAU, offset in -1e-6f32..1e-6) {
        check(&shape, near_boundary(&shape, k, s, angle, offset))?;
    }

    /// A polygon's corners are exactly on its boundary: inside, at distance 0, their own
    /// projection.
    #[test]
    fn corners_are_inside(shape in placed_shape(), k in 0usize..8) {
        let ShapeRef::Polygon(p) = shape.as_shape() else { return Ok(()) };
        let corner = p.vertices()[k % p.vertices().len()];
        check(&shape, corner)?;
        prop_assert!(contains_point(&shape, corner));
        prop_assert_eq!(point_distance(&shape, corner), Some(0.0));
        prop_assert_eq!(project_point(&shape, corner).unwrap().point, corner);
    }
}

/// Points exactly on the edges of a box with exact coordinates are inside; the nearest `f32`
/// beyond is outside.
#[test]
fn exact_edges_are_inside() {
    let b = ConvexPolygon::rectangle(4.0, 2.0);
    for p in [
        Vec2::new(2.0, 0.3),
        Vec2::new(-1.5, -1.0),
        Vec2::new(-2.0, 1.0),
    ] {
        assert!(contains_point(&b, p), "{p}");
        let beyond = p + p.signum() * Vec2::new(f32::EPSILON, f32::EPSILON) * 4.0;
        assert!(!contains_point(&b, beyond), "{beyond}");
    }
    // Inside, the nearest face wins: (1.5, 0.25) is 0.5 from the right, 0.75 from the top.
    let inside = project_point(&b, Vec2::new(1.5, 0.25)).unwrap();
    assert_eq!(
        (inside.point, inside.is_inside),
        (Vec2::new(2.0, 0.25), true)
    );
}

/// The centre of a circle projects to its topmost point.
#[test]
fn circle_centre_projects_up() {
    let c = Circle::new(Vec2::new(1.0, 2.0), 3.0).unwrap();
    let projection = project_point(&c, Vec2::new(1.0, 2.0)).unwrap();
    assert_eq!(
        (projection.point, projection.is_inside),
        (Vec2::new(1.0, 5.0), true)
    );
}

/// NaN and infinite points are refused (`false` / `None`); huge ones get finite answers.
#[test]
fn point_nasty_inputs_never_panic() {
    let shapes: [Shape; 2] = [
        ConvexPolygon::regular(5, 2.0).into(),
        Circle::new(Vec2::ONE, 2.0).unwrap().into(),
    ];
    let nasty = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e30,
        -1e30,
        f32::MAX,
        f32::MIN,
        1e-30,
        0.0,
    ];
    for shape in &shapes {
        for &x in &nasty {
            for &y in &nasty {
                let p = Vec2::new(x, y);
                let (inside, projection, distance) = (
                    contains_point(shape, p),
                    project_point(shape, p),
                    point_distance(shape, p),
                );
                if p.is_finite() {
                    let projection = projection.unwrap();
                    assert!(
                        projection.point.is_finite() && distance.unwrap().is_finite(),
                        "{p}"
                    );
                    assert_eq!(projection.is_inside, inside);
                } else {
                    assert_eq!((inside, projection, distance), (false, None, None), "{p}");
                }
            }
        }
    }
    // From 1e30 away the distance is finite and about 1e30.
    let far = point_distance(&shapes[0], Vec2::new(1e30, 0.0)).unwrap();
    assert!((far - 1e30).abs() < 1e24, "{far}");
}
