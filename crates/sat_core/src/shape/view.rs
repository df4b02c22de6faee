//! [`PolygonView`]: a polygon's corners and edge normals, whichever representation holds them
//! (the inline [`ConvexPolygon`] or the heap-backed [`LargePolygon`]), for the queries that
//! walk every edge once (rays, points).

use glam::Vec2;

use super::{ConvexPolygon, LargePolygon};

/// A polygon's corners (counter-clockwise) and the outward unit normals of its edges.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PolygonView<'a> {
    /// The corners.
    pub(crate) vertices: &'a [Vec2],
    /// `normals[i]` belongs to the edge `vertices[i] → vertices[i + 1]`.
    pub(crate) normals: &'a [Vec2],
    /// No corner coordinate is larger than this in absolute value.
    pub(crate) bound: f32,
}

impl ConvexPolygon {
    /// The corners and normals, for the queries that take any polygon (of a large one, its
    /// outline's).
    #[inline]
    pub(crate) fn view(&self) -> PolygonView<'_> {
        if let Some(large) = &self.large {
            return large.view();
        }
        PolygonView {
            vertices: self.vertices(),
            normals: self.normals(),
            bound: self.bound,
        }
    }
}

impl LargePolygon {
    /// The corners and normals, for the queries that take any polygon.
    #[inline]
    pub(crate) fn view(&self) -> PolygonView<'_> {
        let aabb = self.aabb();
        PolygonView {
            vertices: self.vertices(),
            normals: self.normals(),
            bound: aabb.min.abs().max(aabb.max.abs()).max_element(),
        }
    }
}
