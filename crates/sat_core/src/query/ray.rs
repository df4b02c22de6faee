//! [`cast_ray`]: where a ray first meets one shape.
//!
//! Every shape answers the same question, the interval of the ray's line that lies in it
//! ([`Span`]), and [`cast_ray`] turns that interval into a hit the same way for all of them:
//! a new kind of shape is one more arm that computes its span.

use glam::{DVec2, Vec2};

use super::point::{edge_of, outside_edge};
use crate::shape::{AsShape, Circle, PolygonView, ShapeRef};

/// Where a ray meets a shape: the answer of [`cast_ray`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit {
    /// How far along the ray the hit is, in world units (the direction is normalised first):
    /// `point == origin + direction.normalize() * distance` up to round-off. Never negative.
    pub distance: f32,
    /// The outward unit normal of the surface at the hit (for a polygon, always one of its
    /// edge normals). For a solid ray starting inside, see [`cast_ray`].
    pub normal: Vec2,
    /// The hit point, on the shape's boundary up to round-off (for a solid ray starting inside:
    /// the origin).
    pub point: Vec2,
}

/// Where the ray `origin + direction * t` first meets `shape`, within `max_distance`.
///
/// - `direction` need not be unit: it is normalised (in `f64`), and `distance` is measured in
///   world units along it.
/// - The shape is closed: a ray that only touches it (grazing a circle, passing exactly
///   through a corner, or running exactly along an edge) hits it where it first touches.
///   Along an edge, that is the edge's near corner, with the normal of the edge the ray enters
///   by there. At a corner, the normal is that of the edge met more head-on (its normal most
///   opposed to the direction; of two equally so, the first in the polygon's order).
/// - A ray starting inside (or on the boundary): when `solid`, it hits at once: `distance` 0,
///   `point` the origin and `normal` the reversed direction (a unit vector, not a surface
///   normal: there is no surface at an interior point). When hollow, it hits where it leaves
///   the shape, with the outward normal there; starting on the boundary and heading out, that
///   is `distance` 0.
/// - `None` for a miss, a hit beyond `max_distance`, and for bad input: a non-finite
///   `origin`, `direction` or `max_distance`, a zero `direction` or a negative
///   `max_distance`. (For an unbounded ray, pass `f32::MAX`.) Never NaN.
///
/// The crossing is computed in `f64` on the input as given, so that a ray on an edge's line or
/// through a corner decides as exactly as `f32` coordinates allow.
///
/// ```
/// # use sat_core::{cast_ray, ConvexPolygon}; use glam::Vec2;
/// let floor = ConvexPolygon::rectangle(10.0, 2.0); // top at y = 1
/// // Straight down from (3, 5): the top face, 4 units away.
/// let hit = cast_ray(&floor, Vec2::new(3.0, 5.0), Vec2::NEG_Y, 100.0, true).unwrap();
/// assert_eq!((hit.distance, hit.normal, hit.point), (4.0, Vec2::Y, Vec2::new(3.0, 1.0)));
/// // Too short, and pointing away: no hit.
/// assert_eq!(cast_ray(&floor, Vec2::new(3.0, 5.0), Vec2::NEG_Y, 3.9, true), None);
/// assert_eq!(cast_ray(&floor, Vec2::new(3.0, 5.0), Vec2::Y, 100.0, true), None);
/// // From inside: solid hits at once, hollow where it leaves (the right face).
/// let solid = cast_ray(&floor, Vec2::ZERO, Vec2::X, 100.0, true).unwrap();
/// assert_eq!((solid.distance, solid.normal, solid.point), (0.0, Vec2::NEG_X, Vec2::ZERO));
/// let hollow = cast_ray(&floor, Vec2::ZERO, Vec2::X, 100.0, false).unwrap();
/// assert_eq!((hollow.distance, hollow.normal, hollow.point), (5.0, Vec2::X, Vec2::new(5.0, 0.0)));
/// // Bad input is no hit, not a panic.
/// assert_eq!(cast_ray(&floor, Vec2::new(3.0, 5.0), Vec2::ZERO, 100.0, true), None);
/// ```
pub fn cast_ray<S: AsShape + ?Sized>(
    shape: &S,
    origin: Vec2,
    direction: Vec2,
    max_distance: f32,
    solid: bool,
) -> Option<RayHit> {
    let ray = Ray::new(origin, direction, max_distance)?;
    let span = match shape.as_shape() {
        ShapeRef::Polygon(p) => polygon_span(p.view(), &ray),
        ShapeRef::Large(p) => polygon_span(p.view(), &ray),
        ShapeRef::Circle(c) => circle_span(c, &ray),
        ShapeRef::Compound(c) => {
            return super::compound_point::ray(c, origin, direction, max_distance, solid);
        }
        rounded => super::rounded_point::rounded_span(rounded, &ray),
    }?;
    span.hit(&ray, solid)
}

/// A checked ray in `f64`: the raw direction (the crossings are computed on it, as given, so
/// that a direction along an edge stays exactly along it), its length, and how far along it
/// the ray reaches (in units of the raw direction, and in world units).
pub(crate) struct Ray {
    pub(crate) origin: DVec2,
    pub(crate) direction: DVec2,
    length: f64,
    max_t: f64,
    max_distance: f32,
}

impl Ray {
    /// `None` for a non-finite input, a zero direction or a negative reach.
    fn new(origin: Vec2, direction: Vec2, max_distance: f32) -> Option<Ray> {
        if !origin.is_finite() || !direction.is_finite() || !max_distance.is_finite() {
            return None;
        }
        let length = direction.as_dvec2().length();
        if length == 0.0 || max_distance < 0.0 {
            return None;
        }
        Some(Ray {
            origin: origin.as_dvec2(),
            direction: direction.as_dvec2(),
            length,
            max_t: f64::from(max_distance) / length,
            max_distance,
        })
    }

    /// The unit direction, in `f32`.
    fn unit(&self) -> Vec2 {
        (self.direction / self.length).as_vec2()
    }
}

/// One end of the part of a ray's line inside a shape: the parameter `t` along the raw
/// direction, and the outward normal and boundary point there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    pub(crate) t: f64,
    pub(crate) normal: Vec2,
    pub(crate) point: Vec2,
}

/// The part of a ray's line inside a shape, `enter.t <= exit.t`: the ray's origin is inside
/// (or on the boundary) exactly when `enter.t <= 0 <= exit.t`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub(crate) enter: End,
    pub(crate) exit: End,
}

impl Span {
    /// The hit this span makes for `ray`: see [`cast_ray`].
    fn hit(&self, ray: &Ray, solid: bool) -> Option<RayHit> {
        if self.exit.t < 0.0 {
            return None; // the shape lies behind the origin
        }
        let end = if self.enter.t > 0.0 {
            self.enter
        } else if solid {
            return Some(RayHit {
                distance: 0.0,
                normal: -ray.unit(),
                point: ray.origin.as_vec2(),
            });
        } else {
            self.exit
        };
        if end.t > ray.max_t {
            return None;
        }
        // Within the reach in f64, the distance may still round above it in f32; a start on
        // the boundary may give -0.
        let distance = if end.t > 0.0 {
            ((end.t * ray.length) as f32).min(ray.max_distance)
        } else {
            0.0
        };
        Some(RayHit {
            distance,
            normal: end.normal,
            point: end.point,
        })
    }
}

/// The span of a ray in a polygon, by clipping its line against each edge's half-plane
/// (Cyrus–Beck) in `f64`, far finer than the `f32` input: exact for an axis-aligned edge, so an
/// origin on such an edge's line and a direction along it give exactly 0.
pub(crate) fn polygon_span(p: PolygonView<'_>, ray: &Ray) -> Option<Span> {
    let vertices = p.vertices;
    let n = vertices.len();
    // The cosine between edge `i`'s outward normal and the direction: how head-on the ray
    // meets it. Needed only to break a tie between two edges met at the same `t`.
    let cosine = |i: usize| {
        let (_, edge) = edge_of(p, i);
        outside_edge(DVec2::ZERO, edge, ray.direction) / (edge.length() * ray.length)
    };
    // The entry is the latest entering edge (of two met at the same `t`, the one met more
    // head-on), the exit the earliest leaving one (of two, the one met less head-on). Which
    // edges enter and which is latest depend on the ray: the loop picks them without a branch.
    let (mut t_in, mut edge_in) = (f64::NEG_INFINITY, usize::MAX);
    let (mut t_out, mut edge_out) = (f64::INFINITY, usize::MAX);
    let mut start = vertices.first()?.as_dvec2();
    for i in 0..n {
        let end = vertices[if i + 1 == n { 0 } else { i + 1 }].as_dvec2();
        let edge = end - start;
        // How far the origin lies outside the edge's line, and how fast the ray moves out of
        // it, both times the edge's length: the same arithmetic as `contains_point`.
        let outside = outside_edge(start, edge, ray.origin);
        let approach = outside_edge(DVec2::ZERO, edge, ray.direction);
        start = end;
        if approach == 0.0 {
            if outside > 0.0 {
                return None; // parallel to the edge and outside it
            }
            continue;
        }
        let t = -outside / approach;
        let entering = approach < 0.0;
        // An entering edge competes for the entry only, a leaving one for the exit only: on
        // the other side it stands at an infinity that never wins. (`t` is never NaN.)
        let as_in = select(entering, t, f64::NEG_INFINITY);
        let as_out = select(entering, f64::INFINITY, t);
        let (later, earlier) = (as_in > t_in, as_out < t_out);
        if t == select(entering, t_in, t_out) {
            // A tie with the edge held (rare): the more head-on enters, the less leaves.
            let held = if entering { edge_in } else { edge_out };
            let wins = held == usize::MAX
                || if entering {
                    cosine(i) < cosine(held)
                } else {
                    cosine(i) > cosine(held)
                };
            if wins && entering {
                edge_in = i;
            } else if wins {
                edge_out = i;
            }
            continue;
        }
        t_in = select(later, as_in, t_in);
        edge_in = if later { i } else { edge_in };
        t_out = select(earlier, as_out, t_out);
        edge_out = if earlier { i } else { edge_out };
    }
    if edge_in == usize::MAX || edge_out == usize::MAX || t_in > t_out {
        return None;
    }
    let end = |t: f64, i: usize| End {
        t,
        normal: p.normals[i],
        point: on_edge(
            ray,
            t,
            vertices[i],
            vertices[if i + 1 == n { 0 } else { i + 1 }],
            p.bound,
        ),
    };
    Some(Span {
        enter: end(t_in, edge_in),
        exit: end(t_out, edge_out),
    })
}

/// `if choose { a } else { b }`, by masks on the bits: the compiler cannot make a branch of
/// it, which the CPU would mispredict where `choose` is unpredictable.
#[inline(always)]
fn select(choose: bool, a: f64, b: f64) -> f64 {
    let mask = u64::from(choose).wrapping_neg();
    f64::from_bits((a.to_bits() & mask) | (b.to_bits() & !mask))
}

/// The point of the ray at `t`, where it crosses the line of the edge `start → end`.
///
/// That point is as precise as the polygon's own `f32` corners while the ray's reach is within
/// 2^26 times the polygon's size (the `f64` round-off of the ray is then below the corners'
/// `f32` round-off), and it is taken as is: near a very short edge, whose direction is mostly
/// the round-off of its corners, the line may cross a little beyond the edge's ends. A ray
/// from farther away has more round-off than the shape's size, so its point is moved onto the
/// edge, to stay on the boundary.
fn on_edge(ray: &Ray, t: f64, start: Vec2, end: Vec2, bound: f32) -> Vec2 {
    let at = ray.origin + ray.direction * t;
    let reach = ray.origin.abs().max_element() + (ray.direction * t).abs().max_element();
    if reach <= f64::from(bound.max(1.0)) * f64::from(1u32 << 26) {
        return at.as_vec2();
    }
    let (start, edge) = (start.as_dvec2(), (end - start).as_dvec2());
    let along = ((at - start).dot(edge) / edge.length_squared()).clamp(0.0, 1.0);
    (start + edge * along).as_vec2()
}

/// The span of a ray in a circle: the roots of `|origin + direction * t - center|² = r²`, in
/// `f64`, each in the form that does not cancel.
pub(crate) fn circle_span(c: &Circle, ray: &Ray) -> Option<Span> {
    let center = c.center.as_dvec2();
    let radius = f64::from(c.radius);
    let offset = ray.origin - center;
    let a = ray.direction.length_squared();
    let half_b = offset.dot(ray.direction);
    // Negative inside, zero on the circle: as `contains_point` decides.
    let cc = offset.length_squared() - radius * radius;
    if cc > 0.0 && half_b >= 0.0 {
        return None; // outside and not heading in
    }
    let discriminant = half_b * half_b - a * cc;
    if discriminant < 0.0 {
        return None;
    }
    // q has the sign of -half_b, so no root is a difference of near-equal numbers.
    let q = -(half_b + discriminant.sqrt().copysign(half_b));
    let (t1, t2) = if q == 0.0 {
        (0.0, 0.0) // the origin is the centre's tangent point: cc == 0 and half_b == 0
    } else {
        let (r1, r2) = (q / a, cc / q);
        (r1.min(r2), r1.max(r2))
    };
    let end = |t: f64| {
        let at = ray.origin + ray.direction * t;
        let normal = (at - center)
            .try_normalize()
            .unwrap_or(-ray.direction / ray.length);
        End {
            t,
            normal: normal.as_vec2(),
            point: (center + normal * radius).as_vec2(),
        }
    };
    Some(Span {
        enter: end(t1),
        exit: end(t2),
    })
}
