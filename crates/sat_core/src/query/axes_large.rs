//! The polygon-pair questions that take two [`ConvexPolygon`]s directly
//! ([`least_overlap`](crate::least_overlap), [`measure_axes`](crate::measure_axes),
//! [`AxisOverlap::contact`]) when one of them holds a large outline: the inline paths read the
//! fixed slots, which a large polygon does not fill with its outline.

use glam::Vec2;

use super::collide::{AxisOverlap, collide_within, exits};
use super::contact::Contact;
use crate::shape::{ConvexPolygon, unique_axis_indices};

/// Whether either polygon holds a large outline.
#[inline]
pub(crate) fn either_large(a: &ConvexPolygon, b: &ConvexPolygon) -> bool {
    a.large.is_some() | b.large.is_some()
}

/// A polygon's unique axes with the index of the edge each is the normal of: the first of
/// parallel edges keeps the axis.
fn indexed_axes(p: &ConvexPolygon) -> Vec<(usize, Vec2)> {
    unique_axis_indices(p.vertices())
        .into_iter()
        .map(|i| (i, p.normals()[i]))
        .collect()
}

/// [`each_axis`](super::collide::each_axis) for a pair in which a polygon is large: A's unique
/// axes, then B's that are not A's (or their opposites), each with the exits of A out of B
/// along it, both polygons projected relative to A's first corner by reading every corner.
/// Stops, returning `false`, when `weigh` does.
///
/// Edge indices fit a `u8`: a polygon has at most
/// [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES) edges.
pub(crate) fn each_axis_large(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
    mut weigh: impl FnMut((Vec2, u8), (f32, f32), bool) -> bool,
) -> bool {
    let origin = a.vertices()[0];
    let project = |p: &ConvexPolygon, axis: Vec2| {
        p.vertices()
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                let d = (*v - origin).dot(axis);
                (lo.min(d), hi.max(d))
            })
    };
    let a_axes = indexed_axes(a);
    for &(i, axis) in &a_axes {
        let out = exits(project(a, axis), project(b, axis));
        if !weigh((axis, edge_index(i)), out, true) {
            return false;
        }
    }
    for (i, axis) in indexed_axes(b) {
        if a_axes.iter().any(|&(_, n)| n == axis || n == -axis) {
            continue;
        }
        let out = exits(project(a, axis), project(b, axis));
        if !weigh((axis, edge_index(i)), out, false) {
            return false;
        }
    }
    true
}

/// An edge index as stored in an [`AxisOverlap`] (every index of a valid polygon fits).
fn edge_index(i: usize) -> u8 {
    u8::try_from(i).unwrap_or(u8::MAX)
}

/// [`AxisOverlap::contact`] for a pair in which a polygon is large: the contact points of the
/// large-polygon path on this axis's normal and depth (or, should that path find the pair
/// apart by round-off, the point halfway between the polygons' closest extents along it).
pub(crate) fn large_pair_contact(
    overlap: &AxisOverlap,
    a: &ConvexPolygon,
    b: &ConvexPolygon,
) -> Contact {
    let margin = (-overlap.depth).max(0.0);
    let (normal, depth) = (overlap.normal, overlap.depth);
    match collide_within(a, b, margin) {
        Some(found) => match found.points() {
            [p, q] => Contact::two_points(normal, depth, [*p, *q]),
            points => Contact::one_point(
                normal,
                depth,
                points.first().copied().unwrap_or(a.centroid()),
            ),
        },
        None => {
            // A's deepest corner along the normal, moved halfway through the overlap.
            let deepest = a.vertices().iter().copied().fold(a.centroid(), |best, v| {
                if v.dot(normal) > best.dot(normal) {
                    v
                } else {
                    best
                }
            });
            Contact::one_point(normal, depth, deepest - normal * (depth * 0.5))
        }
    }
}
