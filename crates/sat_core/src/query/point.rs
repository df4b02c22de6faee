//! Point queries on one shape: [`contains_point`], [`project_point`], [`point_distance`].

use glam::{DVec2, Vec2};

use super::rounded_point::project_on_rounded;
use crate::shape::{AsShape, Circle, PolygonView, ShapeRef};

/// The point of a shape's boundary nearest to a point: the answer of [`project_point`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PointProjection {
    /// The nearest point on the boundary (also for a point inside: the nearest way out).
    pub point: Vec2,
    /// Whether the queried point is inside the shape or on its boundary.
    pub is_inside: bool,
}

/// Whether `point` lies in `shape`; the boundary counts as inside. `false` for a non-finite
/// point.
///
/// Decided in `f64`, far finer than the `f32` input: a corner, or a point exactly on an
/// axis-aligned edge, is inside, and the next `f32` point beyond it outside. A ray cast from a
/// point that this calls inside starts inside ([`cast_ray`](crate::cast_ray)): the two share
/// their side test.
///
/// ```
/// # use sat_core::{contains_point, Circle, ConvexPolygon}; use glam::Vec2;
/// let square = ConvexPolygon::rectangle(2.0, 2.0);
/// assert!(contains_point(&square, Vec2::new(0.5, -0.5)));
/// assert!(contains_point(&square, Vec2::new(1.0, 1.0))); // a corner
/// assert!(!contains_point(&square, Vec2::new(1.0 + 1e-6, 0.0)));
/// let ball = Circle::new(Vec2::ZERO, 5.0).unwrap();
/// assert!(contains_point(&ball, Vec2::new(3.0, 4.0))); // on the circle
/// assert!(!contains_point(&ball, Vec2::NAN));
/// ```
pub fn contains_point<S: AsShape + ?Sized>(shape: &S, point: Vec2) -> bool {
    if !point.is_finite() {
        return false;
    }
    let point = point.as_dvec2();
    match shape.as_shape() {
        ShapeRef::Polygon(p) => contains_in(p.view(), point),
        ShapeRef::Large(p) => contains_in(p.view(), point),
        ShapeRef::Compound(c) => super::compound_point::contains(c, point.as_vec2()),
        ShapeRef::Circle(c) => {
            (point - c.center.as_dvec2()).length_squared()
                <= f64::from(c.radius) * f64::from(c.radius)
        }
        rounded => project_on_rounded(rounded, point).is_some_and(|(_, inside)| inside),
    }
}

/// The point of `shape`'s boundary nearest to `point`, and whether `point` is inside (see
/// [`contains_point`], which this agrees with). `None` for a non-finite point.
///
/// For a point inside a polygon, the nearest boundary point is its foot on the nearest edge;
/// for the centre of a circle, where every boundary point is nearest, the topmost one
/// (`center + (0, radius)`).
///
/// ```
/// # use sat_core::{project_point, ConvexPolygon}; use glam::Vec2;
/// let floor = ConvexPolygon::rectangle(10.0, 2.0); // top at y = 1
/// let above = project_point(&floor, Vec2::new(3.0, 4.0)).unwrap();
/// assert_eq!((above.point, above.is_inside), (Vec2::new(3.0, 1.0), false));
/// let beyond_corner = project_point(&floor, Vec2::new(7.0, 3.0)).unwrap();
/// assert_eq!(beyond_corner.point, Vec2::new(5.0, 1.0));
/// let inside = project_point(&floor, Vec2::new(4.5, 0.0)).unwrap(); // nearest: the right face
/// assert_eq!((inside.point, inside.is_inside), (Vec2::new(5.0, 0.0), true));
/// ```
pub fn project_point<S: AsShape + ?Sized>(shape: &S, point: Vec2) -> Option<PointProjection> {
    if !point.is_finite() {
        return None;
    }
    let (nearest, is_inside) = project_on(shape.as_shape(), point.as_dvec2());
    Some(PointProjection {
        point: nearest.as_vec2(),
        is_inside,
    })
}

/// The distance from `point` to `shape`: 0 inside or on the boundary, else to the nearest
/// boundary point (computed in `f64`). `None` for a non-finite point.
///
/// ```
/// # use sat_core::{point_distance, Circle}; use glam::Vec2;
/// let ball = Circle::new(Vec2::ZERO, 1.0).unwrap();
/// assert_eq!(point_distance(&ball, Vec2::new(0.0, 3.0)), Some(2.0));
/// assert_eq!(point_distance(&ball, Vec2::new(0.5, 0.0)), Some(0.0));
/// assert_eq!(point_distance(&ball, Vec2::INFINITY), None);
/// ```
pub fn point_distance<S: AsShape + ?Sized>(shape: &S, point: Vec2) -> Option<f32> {
    if !point.is_finite() {
        return None;
    }
    let at = point.as_dvec2();
    let (nearest, is_inside) = project_on(shape.as_shape(), at);
    Some(if is_inside {
        0.0
    } else {
        (nearest.distance(at) as f32).min(f32::MAX)
    })
}

/// The nearest boundary point of any shape to `point`, and whether `point` is inside.
fn project_on(shape: ShapeRef<'_>, point: DVec2) -> (DVec2, bool) {
    match shape {
        ShapeRef::Polygon(p) => project_on_polygon(p.view(), point),
        ShapeRef::Large(p) => project_on_polygon(p.view(), point),
        ShapeRef::Circle(c) => project_on_circle(c, point),
        ShapeRef::Compound(c) => super::compound_point::project(c, point),
        rounded => project_on_rounded(rounded, point).unwrap_or((point, false)),
    }
}

/// Edge `i` of a polygon in `f64`: its start and its vector (exact for `f32` vertices of
/// similar size).
#[inline]
pub(crate) fn edge_of(p: PolygonView<'_>, i: usize) -> (DVec2, DVec2) {
    let start = p.vertices[i].as_dvec2();
    (
        start,
        p.vertices[(i + 1) % p.vertices.len()].as_dvec2() - start,
    )
}

/// Whether a polygon holds `point` (its boundary included).
fn contains_in(p: PolygonView<'_>, point: DVec2) -> bool {
    is_corner(p, point)
        || (0..p.vertices.len()).all(|i| {
            let (start, edge) = edge_of(p, i);
            outside_edge(start, edge, point) <= 0.0
        })
}

/// How far `point` lies outside the line of the edge `start + edge`, times the edge's length:
/// positive outside (on its right, a counter-clockwise polygon's outside), zero on the line.
#[inline]
pub(crate) fn outside_edge(start: DVec2, edge: DVec2, point: DVec2) -> f64 {
    edge.perp_dot(start - point)
}

/// Whether `point` is one of the polygon's corners, which are on its boundary by definition:
/// a placed polygon's corners are rounded to `f32`, so a corner next to a nearly straight one
/// can lie a round-off outside a neighbouring edge's line.
fn is_corner(p: PolygonView<'_>, point: DVec2) -> bool {
    p.vertices.iter().any(|v| v.as_dvec2() == point)
}

/// The point of segment `start + edge` nearest to `point`.
#[inline]
pub(crate) fn nearest_on_segment(start: DVec2, edge: DVec2, point: DVec2) -> DVec2 {
    let along = ((point - start).dot(edge) / edge.length_squared()).clamp(0.0, 1.0);
    start + edge * along
}

/// The nearest boundary point of a polygon to `point`, and whether `point` is inside: the
/// nearest point over all edges, inside or out.
///
/// (Inside, the foot on the edge whose line is nearest is the same point in exact arithmetic,
/// but where nearly collinear edges tie, a very short edge's line, whose direction is mostly
/// the round-off of its `f32` corners, can win by a hair with its foot far beyond its ends.)
pub(crate) fn project_on_polygon(p: PolygonView<'_>, point: DVec2) -> (DVec2, bool) {
    if is_corner(p, point) {
        return (point, true);
    }
    let mut nearest = (f64::INFINITY, point);
    let mut inside = true;
    for i in 0..p.vertices.len() {
        let (start, edge) = edge_of(p, i);
        inside &= outside_edge(start, edge, point) <= 0.0;
        let on = nearest_on_segment(start, edge, point);
        let squared = on.distance_squared(point);
        if squared < nearest.0 {
            nearest = (squared, on);
        }
    }
    (nearest.1, inside)
}

/// The nearest point of a circle to `point`, and whether `point` is inside. From the centre,
/// the topmost point.
fn project_on_circle(c: &Circle, point: DVec2) -> (DVec2, bool) {
    let center = c.center.as_dvec2();
    let radius = f64::from(c.radius);
    let offset = point - center;
    let inside = offset.length_squared() <= radius * radius;
    let direction = offset.try_normalize().unwrap_or(DVec2::Y);
    (center + direction * radius, inside)
}
