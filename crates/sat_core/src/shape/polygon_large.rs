//! A [`ConvexPolygon`] of more corners than its inline slots hold: its outline is a
//! [`LargePolygon`] on the heap, and its inline fields hold the outline's bounding box.

use glam::{DVec2, Vec2};

use super::outline::{polygon_from_corners, valid_corners};
use super::{AsShape, ShapeRef, read_points};
use super::{ConvexPolygon, LargePolygon, MAX_POLYGON_VERTICES, MAX_VERTICES, PolygonError};
use crate::Aabb;

/// How close to -1 the dot product of two edge normals must be for them to share an axis, as
/// for an inline polygon's axes (only edges parallel up to `f32` round-off).
const ANTIPARALLEL_TOLERANCE: f64 = 1.0e-10;

impl ConvexPolygon {
    /// [`ConvexPolygon::new`] for more points than [`MAX_VERTICES`]: validated as a large
    /// outline, and held inline after all when its corners (collinear points removed) fit.
    pub(super) fn new_large(points: impl Iterator<Item = Vec2>) -> Result<Self, PolygonError> {
        let input = read_points(points, MAX_POLYGON_VERTICES)?;
        let (corners, len) = valid_corners::<MAX_POLYGON_VERTICES>(&input)?;
        let corners = &corners[..len];
        Ok(if len <= MAX_VERTICES {
            polygon_from_corners(corners)
        } else {
            Self::from_large(LargePolygon::from_corners(corners))
        })
    }

    /// The polygon that holds `large` as its outline, with its bounding box in the inline
    /// slots and its centroid and bounding radius in the inline fields, which answer
    /// [`centroid`](Self::centroid) and [`bounding_radius`](Self::bounding_radius) as they do
    /// for an inline polygon.
    pub(crate) fn from_large(large: LargePolygon) -> Self {
        let Aabb { min, max } = large.aabb();
        let corners = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
        let normals = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
        let mut polygon = Self::from_parts(
            &corners,
            &normals,
            0b0011,
            large.centroid(),
            large.bounding_radius(),
        );
        polygon.large = Some(large);
        polygon
    }

    /// The heap-held outline of a polygon of more than [`MAX_VERTICES`] corners; `None` for a
    /// polygon held inline.
    ///
    /// ```
    /// # use sat_core::ConvexPolygon; use glam::Vec2;
    /// assert!(ConvexPolygon::rectangle(2.0, 1.0).as_large().is_none());
    /// let round = (0..12).map(|i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / 12.0));
    /// let dodecagon = ConvexPolygon::new(round).unwrap();
    /// assert_eq!(dodecagon.as_large().unwrap().vertices(), dodecagon.vertices());
    /// ```
    #[inline]
    pub fn as_large(&self) -> Option<&LargePolygon> {
        self.large.as_ref()
    }

    /// The tight axis-aligned bounding box, of either representation.
    #[inline]
    pub fn bounds(&self) -> Aabb {
        match &self.large {
            Some(large) => large.aabb(),
            None => self.aabb(),
        }
    }
}

impl LargePolygon {
    /// The unique separating axes: one outward normal per direction, parallel edges sharing
    /// one (the earlier edge's), as [`ConvexPolygon::axes`] gives them.
    pub fn axes(&self) -> impl Iterator<Item = Vec2> + '_ {
        unique_axis_indices(self.vertices())
            .into_iter()
            .map(|i| self.normals()[i])
    }
}

/// The indices of the edges of a counter-clockwise outline whose normals are its unique axes:
/// an edge parallel to an earlier one (exactly opposite up to round-off, judged on normals
/// computed in `f64` from the corners, as an inline polygon's are) shares its axis.
pub(crate) fn unique_axis_indices(vertices: &[Vec2]) -> Vec<usize> {
    let n = vertices.len();
    let normal = |i: usize| {
        let edge = vertices[(i + 1) % n].as_dvec2() - vertices[i].as_dvec2();
        (-edge.perp()).normalize_or_zero()
    };
    let normals: Vec<DVec2> = (0..n).map(normal).collect();
    (0..n)
        .filter(|&i| {
            !normals[..i]
                .iter()
                .any(|m| m.dot(normals[i]) < -1.0 + ANTIPARALLEL_TOLERANCE)
        })
        .collect()
}

impl AsShape for ConvexPolygon {
    /// A polygon held inline as [`ShapeRef::Polygon`], a large one as [`ShapeRef::Large`].
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        match &self.large {
            Some(large) => ShapeRef::Large(large),
            None => ShapeRef::Polygon(self),
        }
    }
}

impl From<LargePolygon> for ConvexPolygon {
    /// The same polygon, as a `ConvexPolygon` holding it (whatever its number of corners: the
    /// queries take it through the large-polygon path).
    fn from(polygon: LargePolygon) -> Self {
        Self::from_large(polygon)
    }
}
