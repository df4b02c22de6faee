//! The questions about one compound (rays, points) and the distance between shapes when either
//! is a compound, answered over the parts.

use glam::{DVec2, Vec2};

use super::compound::parts_of;
use super::distance::{ShapeDistance, distance};
use super::point::{PointProjection, contains_point, project_point};
use super::ray::{RayHit, cast_ray};
use crate::shape::{Compound, ShapeRef};

/// [`cast_ray`] on a compound: the nearest hit over its parts. A hollow ray starting inside a
/// part leaves where it leaves that part.
pub(crate) fn ray(
    c: &Compound,
    origin: Vec2,
    direction: Vec2,
    max_distance: f32,
    solid: bool,
) -> Option<RayHit> {
    c.parts()
        .iter()
        .filter_map(|p| cast_ray(&p.shape, origin, direction, max_distance, solid))
        .fold(None, |best: Option<RayHit>, hit| match best {
            Some(b) if b.distance <= hit.distance => Some(b),
            _ => Some(hit),
        })
}

/// [`contains_point`] on a compound: whether any part holds the point.
pub(crate) fn contains(c: &Compound, point: Vec2) -> bool {
    c.parts().iter().any(|p| contains_point(&p.shape, point))
}

/// [`project_point`] on a compound, in `f64`: outside, the nearest point of any part; inside,
/// the nearest way out of a part holding it.
pub(crate) fn project(c: &Compound, point: DVec2) -> (DVec2, bool) {
    let at = point.as_vec2();
    let projections = c.parts().iter().filter_map(|p| project_point(&p.shape, at));
    let inside = contains(c, at);
    let best = projections
        .filter(|p: &PointProjection| p.is_inside == inside)
        .map(|p| p.point.as_dvec2())
        .fold(None, |best: Option<DVec2>, p| match best {
            Some(b) if b.distance_squared(point) <= p.distance_squared(point) => Some(b),
            _ => Some(p),
        });
    (best.unwrap_or(point), inside)
}

/// [`distance`] when either shape is a compound: the nearest pair of parts, `None` if any
/// overlap.
pub(crate) fn distance_compound(a: ShapeRef<'_>, b: ShapeRef<'_>) -> Option<ShapeDistance> {
    let mut best: Option<ShapeDistance> = None;
    for (_, pa, _) in parts_of(a) {
        for (_, pb, _) in parts_of(b) {
            let found = distance(&pa, &pb)?;
            if best.is_none_or(|b| found.distance < b.distance) {
                best = Some(found);
            }
        }
    }
    best
}
