//! Property tests of `cast_ray` against an independent `f64` reference written here: a polygon
//! by clipping the ray against its half-planes (Cyrus–Beck), a circle by the quadratic. Plus
//! the edge distributions (boundary starts, inside starts, rays through a corner, along an
//! edge, grazing). 10,000 cases each. The exact cases are in `ray_cast_exact.rs`.

mod common;

use common::strategies::placed_shape;
use core::f64::consts::TAU;
use glam::{DVec2, Vec2};
use proptest::prelude::*;
use sat_core::{AsShape, ConvexPolygon, RayHit, Shape, ShapeRef, cast_ray};

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(10_000)
}

/// What the reference expects of one ray.
#[derive(Debug)]
struct Expected {
    /// `(distance, point, the normals any of which is right)`, or `None` for a miss.
    hit: Option<(f64, DVec2, Vec<DVec2>)>,
    /// Whether round-off may decide otherwise: the origin, a graze or the reach lie within
    /// `tol` of a boundary. Then any self-consistent answer is accepted.
    ambiguous: bool,
}

/// One end of the reference span: `(t, normals)`, several at a corner.
type RefEnd = (f64, Vec<DVec2>);

/// The ray's span in a polygon by Cyrus–Beck on unit normals, with the ambiguity flags.
fn reference_polygon(
    vs: &[DVec2],
    o: DVec2,
    d: DVec2,
    tol: f64,
) -> (Option<(RefEnd, RefEnd)>, bool) {
    let n = vs.len();
    let normal = |i: usize| {
        let e = vs[(i + 1) % n] - vs[i];
        DVec2::new(e.y, -e.x).normalize()
    };
    let (mut t_in, mut t_out) = (f64::NEG_INFINITY, f64::INFINITY);
    let (mut ambiguous, mut max_outside) = (false, f64::NEG_INFINITY);
    for (i, v) in vs.iter().enumerate() {
        let (outside, rate) = (normal(i).dot(o - *v), normal(i).dot(d));
        max_outside = max_outside.max(outside);
        if rate.abs() < 1e-9 {
            ambiguous |= outside.abs() < tol;
            if outside > 0.0 {
                return (None, ambiguous || max_outside.abs() < tol);
            }
        } else if rate < 0.0 {
            t_in = t_in.max(-outside / rate);
        } else {
            t_out = t_out.min(-outside / rate);
        }
    }
    ambiguous |= max_outside.abs() < tol || (t_out - t_in).abs() < tol;
    if t_in > t_out {
        return (None, ambiguous);
    }
    // At each end, every edge whose line passes within `tol` of the point: a corner has two.
    // (Lines, not segments: next to a very short edge, whose direction is mostly round-off,
    // the clipping may stop on that edge's line a little beyond its ends.)
    let end = |t: f64| {
        let at = o + d * t;
        let normals = (0..n)
            .filter(|&i| normal(i).dot(at - vs[i]).abs() < tol)
            .map(normal)
            .collect();
        (t, normals)
    };
    (Some((end(t_in), end(t_out))), ambiguous)
}

/// The ray's span in a circle by the plain quadratic, with the ambiguity flags.
fn reference_circle(
    c: DVec2,
    r: f64,
    o: DVec2,
    d: DVec2,
    tol: f64,
) -> (Option<(RefEnd, RefEnd)>, bool) {
    let b = (o - c).dot(d);
    let line_distance = ((o - c).length_squared() - b * b).max(0.0).sqrt();
    let ambiguous = ((o - c).length() - r).abs() < tol || (line_distance - r).abs() < tol;
    let disc = b * b - ((o - c).length_squared() - r * r);
    if disc < 0.0 {
        return (None, ambiguous);
    }
    let end = |t: f64| (t, vec![((o + d * t) - c).normalize_or(DVec2::Y)]);
    (
        Some((end(-b - disc.sqrt()), end(-b + disc.sqrt()))),
        ambiguous,
    )
}

fn vertices(p: &ConvexPolygon) -> Vec<DVec2> {
    p.vertices().iter().map(|v| v.as_dvec2()).collect()
}

fn segment_distance(a: DVec2, b: DVec2, p: DVec2) -> f64 {
    let e = b - a;
    let s = ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
    (a + e * s).distance(p)
}

/// The distance from `p` to the shape's boundary, by brute force.
fn boundary_distance(shape: &Shape, p: DVec2) -> f64 {
    match shape.as_shape() {
        ShapeRef::Polygon(poly) => {
            let vs = vertices(poly);
            let n = vs.len();
            (0..n)
                .map(|i| segment_distance(vs[i], vs[(i + 1) % n], p))
                .fold(f64::INFINITY, f64::min)
        }
        ShapeRef::Circle(c) => (p.distance(c.center().as_dvec2()) - f64::from(c.radius())).abs(),
        _ => unreachable!("these tests make only polygons and circles"),
    }
}

fn size(shape: &Shape) -> f64 {
    let aabb = shape.aabb();
    f64::from(aabb.min.abs().max(aabb.max.abs()).max_element())
}

/// The reference answer for a ray, applying `cast_ray`'s documented rules to the span.
fn expected(shape: &Shape, o: Vec2, dir: Vec2, max: f32, solid: bool, tol: f64) -> Expected {
    let (o64, d) = (o.as_dvec2(), dir.as_dvec2().normalize());
    let (span, mut ambiguous) = match shape.as_shape() {
        ShapeRef::Polygon(p) => reference_polygon(&vertices(p), o64, d, tol),
        ShapeRef::Circle(c) => {
            reference_circle(c.center().as_dvec2(), f64::from(c.radius()), o64, d, tol)
        }
        _ => unreachable!("these tests make only polygons and circles"),
    };
    let hit = span.and_then(|((t_in, n_in), (t_out, n_out))| {
        let (t, normals) = if t_in > 0.0 {
            (t_in, n_in)
        } else if t_out < 0.0 {
            return None;
        } else if solid {
            return Some((0.0, o64, vec![-d]));
        } else {
            (t_out, n_out)
        };
        ambiguous |= (t - f64::from(max)).abs() < tol;
        (t <= f64::from(max)).then(|| (t, o64 + d * t, normals))
    });
    Expected { hit, ambiguous }
}

/// Checks an answer against the reference: exactly when unambiguous, else for consistency.
fn check(
    shape: &Shape,
    o: Vec2,
    dir: Vec2,
    max: f32,
    solid: bool,
    tol: f64,
) -> Result<(), TestCaseError> {
    let got = cast_ray(shape, o, dir, max, solid);
    let want = expected(shape, o, dir, max, solid, tol);
    if let Some(hit) = got {
        consistent(shape, &hit, o, dir, max, tol)?;
    }
    if want.ambiguous {
        return Ok(());
    }
    match (got, want.hit) {
        (None, None) => Ok(()),
        (Some(hit), Some((distance, point, normals))) => {
            prop_assert!(
                (f64::from(hit.distance) - distance).abs() < tol,
                "{hit:?} vs {distance}"
            );
            prop_assert!(
                hit.point.as_dvec2().distance(point) < tol,
                "{hit:?} vs {point}"
            );
            // A polygon's normal is its stored one, which on a very short edge may differ from
            // the direction of the placed vertices by more than round-off: compare the edge it
            // belongs to, by its normal from the vertices in f64. (A solid start's normal is
            // the reversed direction, no edge's.)
            let edge = match shape.as_shape() {
                ShapeRef::Polygon(p) => {
                    p.normals().iter().position(|n| *n == hit.normal).map(|i| {
                        let vs = vertices(p);
                        let e = vs[(i + 1) % vs.len()] - vs[i];
                        DVec2::new(e.y, -e.x).normalize()
                    })
                }
                ShapeRef::Circle(_) => None,
                _ => unreachable!("these tests make only polygons and circles"),
            };
            let normal = edge.unwrap_or(hit.normal.as_dvec2());
            prop_assert!(
                normals.iter().any(|n| n.distance(normal) < 1e-5)
                    || edge.is_none() && normals.iter().any(|n| n.distance(normal) < 1e-3),
                "{hit:?} vs {normals:?}"
            );
            Ok(())
        }
        (got, want) => Err(TestCaseError::fail(format!("got {got:?}, want {want:?}"))),
    }
}

/// Whatever the reference, a hit is finite, within reach, on the ray, on the boundary (or the
/// origin, for a solid start) with a unit normal that is one of a polygon's own.
fn consistent(
    shape: &Shape,
    hit: &RayHit,
    o: Vec2,
    dir: Vec2,
    max: f32,
    tol: f64,
) -> Result<(), TestCaseError> {
    prop_assert!(hit.distance.is_finite() && hit.point.is_finite() && hit.normal.is_finite());
    prop_assert!(hit.distance >= 0.0 && hit.distance <= max, "{hit:?}");
    prop_assert!((hit.normal.length() - 1.0).abs() < 1e-5, "{hit:?}");
    let d = dir.as_dvec2().normalize();
    let on_ray = o.as_dvec2() + d * f64::from(hit.distance);
    prop_assert!(
        hit.point.as_dvec2().distance(on_ray) < tol,
        "{hit:?} off the ray"
    );
    if hit.distance == 0.0 && hit.point == o && hit.normal.as_dvec2().distance(-d) < 1e-6 {
        return Ok(()); // a solid start
    }
    prop_assert!(
        boundary_distance(shape, hit.point.as_dvec2()) < tol,
        "{hit:?} off the boundary"
    );
    if let ShapeRef::Polygon(p) = shape.as_shape() {
        prop_assert!(
            p.normals().contains(&hit.normal),
            "{hit:?} not an edge normal"
        );
    }
    Ok(())
}

fn tolerance(shape: &Shape, o: Vec2) -> f64 {
    1e-4 * (1.0 + size(shape).max(f64::from(o.abs().max_element())))
}

fn unit(angle: f64) -> Vec2 {
    DVec2::from_angle(angle).as_vec2()
}

fn point_in(range: f32) -> impl Strategy<Value = Vec2> {
    (-range..range, -range..range).prop_map(|(x, y)| Vec2::new(x, y))
}

/// A point on the shape's boundary (up to `f32` round-off), and the shape.
fn boundary_point() -> impl Strategy<Value = (Shape, Vec2)> {
    (placed_shape(), 0usize..8, 0.0f32..=1.0, 0.0..TAU).prop_map(|(shape, k, s, angle)| {
        let point = match shape.as_shape() {
            ShapeRef::Polygon(p) => {
                let vs = p.vertices();
                vs[k % vs.len()].lerp(vs[(k + 1) % vs.len()], s)
            }
            ShapeRef::Circle(c) => c.center() + unit(angle) * c.radius(),
            _ => unreachable!("these tests make only polygons and circles"),
        };
        (shape, point)
    })
}

proptest! {
    #![proptest_config(config())]

    /// Any ray, any shape, any reach.
    #[test]
    fn random_rays_match_reference(shape in placed_shape(), o in point_in(60.0), angle in 0.0..TAU,
                                    max in 0.0f32..200.0, solid: bool) {
        check(&shape, o, unit(angle), max, solid, tolerance(&shape, o))?;
    }

    /// Rays starting on the boundary, heading anywhere, solid or hollow.
    #[test]
    fn rays_from_the_boundary((shape, o) in boundary_point(), angle in 0.0..TAU, solid: bool) {
        let tol = tolerance(&shape, o);
        check(&shape, o, unit(angle), 500.0, solid, tol)?;
        if solid {
            // On the boundary up to round-off: a hit at once, a miss heading out, or (a hair
            // outside, heading in at a grazing angle) a hit farther along the same boundary,
            // never farther out of it than round-off.
            if let Some(hit) = cast_ray(&shape, o, unit(angle), 500.0, true) {
                let across = (hit.point - o).dot(hit.normal);
                prop_assert!(f64::from(across.abs()) < tol, "{hit:?}");
            }
        }
    }

    /// Rays starting well inside: solid hits at 0 at the origin, hollow leaves the shape.
    #[test]
    fn rays_from_inside(shape in placed_shape(), weights in prop::collection::vec(0.05f64..1.0, 8),
                        angle in 0.0..TAU, solid: bool) {
        let o = match shape.as_shape() {
            ShapeRef::Polygon(p) => {
                let vs = vertices(p);
                let total: f64 = weights[..vs.len()].iter().sum();
                vs.iter().zip(&weights).map(|(v, w)| *v * *w).sum::<DVec2>() / total
            }
            ShapeRef::Circle(c) => {
                c.center().as_dvec2() + DVec2::from_angle(weights[0] * TAU) * weights[1] * 0.9 * f64::from(c.radius())
            }
            _ => unreachable!("these tests make only polygons and circles"),
        }.as_vec2();
        let dir = unit(angle);
        check(&shape, o, dir, 500.0, solid, tolerance(&shape, o))?;
        let hit = cast_ray(&shape, o, dir, 500.0, solid).expect("inside always hits");
        if solid {
            prop_assert_eq!((hit.distance, hit.point), (0.0, o));
            prop_assert!(hit.normal.distance(-dir) < 1e-6, "{hit:?}");
        } else {
            prop_assert!(hit.distance > 0.0);
        }
    }

    /// Rays aimed exactly at a corner (`origin + direction` is the corner): through it into
    /// the shape, or only touching it. The direction is not unit.
    #[test]
    fn rays_through_a_corner(shape in placed_shape(), k in 0usize..8, o in point_in(60.0), solid: bool) {
        let ShapeRef::Polygon(p) = shape.as_shape() else { return Ok(()) };
        let corner = p.vertices()[k % p.vertices().len()];
        let dir = corner - o;
        prop_assume!(dir.length() > 1e-3);
        let tol = tolerance(&shape, o);
        check(&shape, o, dir, 500.0, solid, tol)?;
        if !sat_core::contains_point(&shape, o) {
            // The corner is on the ray and in the shape: the entry is no farther than it, but
            // for a ray within round-off of an edge's line through the corner, which round-off
            // may let in farther along that edge.
            if let Some(hit) = cast_ray(&shape, o, dir, 500.0, solid)
                && f64::from(hit.distance) > f64::from(dir.length()) + tol
            {
                let across = (corner - hit.point).dot(hit.normal);
                prop_assert!(f64::from(across.abs()) < tol, "{hit:?}");
            }
        }
    }

    /// Rays along an edge's line (the origin a little before its start, rounded to f32), and
    /// grazing a circle (tangent, up to round-off).
    #[test]
    fn rays_along_an_edge_or_grazing(shape in placed_shape(), k in 0usize..8, s in 0.01f32..3.0,
                                     angle in 0.0..TAU, solid: bool) {
        let (o, dir) = match shape.as_shape() {
            ShapeRef::Polygon(p) => {
                let vs = p.vertices();
                let (a, b) = (vs[k % vs.len()], vs[(k + 1) % vs.len()]);
                (a - (b - a) * s, b - a)
            }
            ShapeRef::Circle(c) => {
                let n = unit(angle);
                (c.center() + n * c.radius() - n.perp() * c.radius() * s, n.perp())
            }
            _ => unreachable!("these tests make only polygons and circles"),
        };
        check(&shape, o, dir, 500.0, solid, tolerance(&shape, o))?;
    }

    /// The direction's length does not matter: it is normalised (from a thousandth to a
    /// thousand times unit length).
    #[test]
    fn direction_length_does_not_matter(shape in placed_shape(), o in point_in(60.0), angle in 0.0..TAU,
                                        scale in -3.0f32..3.0, solid: bool) {
        let dir = unit(angle) * 10f32.powf(scale);
        check(&shape, o, dir, 300.0, solid, tolerance(&shape, o))?;
    }
}

proptest! {
    #![proptest_config(config())]

    /// Rays aimed near the shape's centre, so that most of them hit.
    #[test]
    fn aimed_rays_match_reference(shape in placed_shape(), o in point_in(60.0), spread in -0.6f64..0.6,
                                  max in 0.0f32..200.0, solid: bool) {
        let toward = (shape.centroid() - o).as_dvec2();
        prop_assume!(toward.length() > 1e-3);
        let angle = toward.y.atan2(toward.x) + spread;
        check(&shape, o, unit(angle), max, solid, tolerance(&shape, o))?;
    }
}
