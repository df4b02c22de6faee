//! [`LargePolygon`]: a convex polygon of more corners than a [`ConvexPolygon`] holds inline,
//! up to [`MAX_POLYGON_VERTICES`], kept on the heap and shared when cloned (a
//! [`ConvexPolygon`] of that many corners holds one).
//!
//! The inline polygon's fixed slots are what the hot queries between small polygons are tuned
//! for; a large polygon has its own representation so that they stay as they are. Its queries
//! go through the exact `f64` path the rounded shapes use (a core of corners and edges, with a
//! radius of 0), which finds a polygon's extent on a run of axes by walking its corners from
//! the last answer rather than reading all of them.

use core::fmt;
use std::sync::Arc;

use glam::{DVec2, Vec2};

use super::outline::{centroid_and_radius, polygon_from_corners, valid_corners};
use super::{ConvexPolygon, MAX_COORDINATE, MAX_VERTICES, PolygonError, Shape};
use crate::pose::in_range;
use crate::{Aabb, Pose, TransformError};

/// The most vertices any polygon can have (counted on the input, before collinear points are
/// removed): the limit of [`ConvexPolygon::new`], [`LargePolygon::new`] and [`Shape::polygon`].
pub const MAX_POLYGON_VERTICES: usize = 256;

/// A convex polygon of up to [`MAX_POLYGON_VERTICES`] corners (a round platform, a hill),
/// validated at construction like [`ConvexPolygon`] and with the same conventions:
/// counter-clockwise, collinear points removed, `normals()[i]` the outward unit normal of edge
/// `vertices()[i] → vertices()[i + 1]`.
///
/// Its data lives on the heap behind an [`Arc`]: a clone shares it, and moving or placing a
/// polygon that is not shared writes in place. Every query takes it, against every other shape.
/// [`Shape::polygon`] builds the inline [`ConvexPolygon`] instead when the corners fit in
/// [`MAX_VERTICES`], which is faster for small outlines.
///
/// ```
/// # use sat_core::{LargePolygon, PolygonError, MAX_POLYGON_VERTICES}; use glam::Vec2;
/// let round = (0..32).map(|i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / 32.0) * 10.0);
/// let platform = LargePolygon::new(round)?;
/// assert_eq!(platform.vertices().len(), 32);
/// let too_many = (0..300).map(|i| Vec2::from_angle(i as f32 * 0.02));
/// assert_eq!(
///     LargePolygon::new(too_many).unwrap_err(),
///     PolygonError::TooManyVertices { count: 300, max: MAX_POLYGON_VERTICES }
/// );
/// # Ok::<(), PolygonError>(())
/// ```
#[derive(Clone)]
pub struct LargePolygon {
    data: Arc<LargeOutline>,
}

/// What a [`LargePolygon`] holds.
#[derive(Clone)]
struct LargeOutline {
    vertices: Vec<Vec2>,
    /// The vertices widened to `f64` (exactly): what the `f64` queries read.
    wide: Vec<DVec2>,
    normals: Vec<Vec2>,
    centroid: Vec2,
    radius: f32,
    aabb: Aabb,
}

impl LargeOutline {
    /// The outline through `vertices` (counter-clockwise), keeping only the corners where it
    /// turns strictly left as rounded to `f32` ([`keep_convex`]), with the normals of its `f32`
    /// edges; `None` when fewer than 3 corners remain.
    fn new(mut vertices: Vec<Vec2>, centroid: Vec2, radius: f32) -> Option<Self> {
        keep_convex(&mut vertices);
        (vertices.len() >= 3).then(|| Self::unchecked(vertices, centroid, radius))
    }

    /// The outline through `vertices` as they are, with the normals of their edges.
    fn unchecked(vertices: Vec<Vec2>, centroid: Vec2, radius: f32) -> Self {
        let wide: Vec<DVec2> = vertices.iter().map(|v| v.as_dvec2()).collect();
        let n = wide.len();
        let normals = (0..n)
            .map(|i| {
                let edge = wide[(i + 1) % n] - wide[i];
                (-edge.perp()).normalize_or_zero().as_vec2()
            })
            .collect();
        Self {
            aabb: aabb_of_points(&vertices),
            vertices,
            wide,
            normals,
            centroid,
            radius,
        }
    }
}

/// Leaves out the corners at which the outline does not turn strictly left (a repeated,
/// collinear or reflex corner), until every corner does.
///
/// A valid outline is convex in `f64`; rounded to `f32` (when built, turned or moved far from
/// the origin), the ends of a very short edge can move by more than the edge's own turn, which
/// leaves a dent of a round-off. Every query relies on the outline it stores being convex as
/// stored: the half-planes of the edges hold exactly the polygon, and a walk uphill over the
/// corners ends at the farthest one. Leaving the dented corner out changes the outline by a
/// round-off.
fn keep_convex(vertices: &mut Vec<Vec2>) {
    loop {
        let n = vertices.len();
        if n < 3 {
            return;
        }
        let wide = |k: usize| vertices[k % n].as_dvec2();
        let left = |k: usize| {
            let (before, here, after) = (wide(k + n - 1), wide(k), wide(k + 1));
            (here - before).perp_dot(after - here) > 0.0
        };
        let kept: Vec<Vec2> = (0..n).filter(|&k| left(k)).map(|k| vertices[k]).collect();
        if kept.len() == n {
            return;
        }
        *vertices = kept;
    }
}

impl PartialEq for LargePolygon {
    fn eq(&self, other: &Self) -> bool {
        self.vertices() == other.vertices()
    }
}

impl fmt::Debug for LargePolygon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LargePolygon")
            .field("vertices", &self.vertices())
            .field("centroid", &self.data.centroid)
            .finish_non_exhaustive()
    }
}

/// Reads up to `max` points, each finite and in range, into `f64`; counts them all.
pub(crate) fn read_points(
    points: impl IntoIterator<Item = Vec2>,
    max: usize,
) -> Result<Vec<DVec2>, PolygonError> {
    let mut input = Vec::new();
    let mut count = 0;
    for point in points {
        if count < max {
            if !point.is_finite() {
                return Err(PolygonError::NonFinite { index: count });
            }
            if point.abs().max_element() > MAX_COORDINATE {
                return Err(PolygonError::OutOfRange { index: count });
            }
            input.push(point.as_dvec2());
        }
        count += 1;
    }
    if count > max {
        return Err(PolygonError::TooManyVertices { count, max });
    }
    if count < 3 {
        return Err(PolygonError::TooFewPoints { count });
    }
    Ok(input)
}

impl LargePolygon {
    /// Builds a convex polygon of 3 to [`MAX_POLYGON_VERTICES`] points, in either winding, kept
    /// on the heap whatever its size (see [`Shape::polygon`] to get the inline polygon when it
    /// fits).
    ///
    /// # Errors
    /// A [`PolygonError`] naming the first problem found, in the order and with the indices of
    /// [`ConvexPolygon::new`]; [`PolygonError::TooManyVertices`] above
    /// [`MAX_POLYGON_VERTICES`].
    pub fn new(points: impl IntoIterator<Item = Vec2>) -> Result<Self, PolygonError> {
        let input = read_points(points, MAX_POLYGON_VERTICES)?;
        let (corners, len) = valid_corners::<MAX_POLYGON_VERTICES>(&input)?;
        Ok(Self::from_corners(&corners[..len]))
    }

    /// The polygon of a valid counter-clockwise outline.
    pub(super) fn from_corners(corners: &[DVec2]) -> Self {
        let (centroid, radius) = centroid_and_radius(corners);
        let vertices: Vec<Vec2> = corners.iter().map(|c| c.as_vec2()).collect();
        let data = LargeOutline::new(vertices.clone(), centroid.as_vec2(), radius as f32)
            .unwrap_or_else(|| {
                LargeOutline::unchecked(vertices, centroid.as_vec2(), radius as f32)
            });
        Self {
            data: Arc::new(data),
        }
    }

    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        &self.data.vertices
    }

    /// The outward unit normals; `normals()[i]` belongs to the edge `vertices()[i] →
    /// vertices()[i + 1]` (wrapping around).
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        &self.data.normals
    }

    /// The vertices in `f64` (exactly the `f32` ones).
    #[inline]
    pub(crate) fn wide(&self) -> &[DVec2] {
        &self.data.wide
    }

    /// The area centroid.
    pub fn centroid(&self) -> Vec2 {
        self.data.centroid
    }

    /// The distance from the centroid to the farthest vertex (an upper bound once the polygon
    /// has been placed with a non-uniform scale).
    pub fn bounding_radius(&self) -> f32 {
        self.data.radius
    }

    /// The tight axis-aligned bounding box (kept with the polygon).
    #[inline]
    pub fn aabb(&self) -> Aabb {
        self.data.aabb
    }

    /// The lowest and highest projection of the vertices on `axis`.
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        self.project_moved(axis, Vec2::ZERO)
    }

    /// The lowest and highest projection on `axis` of the vertices moved by `offset`, without
    /// moving them.
    pub(crate) fn project_moved(&self, axis: Vec2, offset: Vec2) -> (f32, f32) {
        self.vertices()
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                let d = (*v + offset).dot(axis);
                (lo.min(d), hi.max(d))
            })
    }

    /// Moves the polygon by `offset` in place (in its own copy of the data when it is shared).
    pub fn translate(&mut self, offset: Vec2) {
        let data = Arc::make_mut(&mut self.data);
        let moved: Vec<Vec2> = data.vertices.iter().map(|v| *v + offset).collect();
        let (centroid, radius) = (data.centroid + offset, data.radius);
        *data = LargeOutline::new(moved.clone(), centroid, radius)
            .unwrap_or_else(|| LargeOutline::unchecked(moved, centroid, radius));
    }

    /// This (local) polygon placed in the world by `pose`, as [`ConvexPolygon::transformed`]
    /// places an inline one: corners that `f32` round-off merges or dents (far from the origin)
    /// are left out, and it is refused only when fewer than 3 remain.
    ///
    /// # Errors
    /// [`TransformError`] for a non-finite pose, a zero scale, or a result out of range.
    pub fn transformed(&self, pose: &Pose) -> Result<Shape, TransformError> {
        // Any shape to write over: the placed polygon gets storage of its own.
        let mut out = Shape::Polygon(ConvexPolygon::rectangle(1.0, 1.0));
        self.transform_into(pose, &mut out)?;
        Ok(out)
    }

    /// Writes this (local) polygon placed by `pose` into `out` (in place when it holds a large
    /// polygon not shared with another; the corners are computed anew, O(n)), and returns the placed shape's AABB. On
    /// error `out` is left unchanged.
    ///
    /// # Errors
    /// As [`LargePolygon::transformed`].
    pub fn transform_into(&self, pose: &Pose, out: &mut Shape) -> Result<Aabb, TransformError> {
        let placed = self.placed(pose)?;
        let aabb = placed.aabb;
        if let Shape::Large(world) = out {
            world.store(placed);
        } else {
            *out = Shape::Large(Self {
                data: Arc::new(placed),
            });
        }
        Ok(aabb)
    }

    /// Writes this (local) polygon placed by `pose` into `out`, a [`ConvexPolygon`] (reusing its
    /// large outline when it holds one not shared with another), and returns the placed
    /// polygon's AABB. On error `out` is left unchanged.
    pub(crate) fn transform_into_polygon(
        &self,
        pose: &Pose,
        out: &mut ConvexPolygon,
    ) -> Result<Aabb, TransformError> {
        let placed = self.placed(pose)?;
        let aabb = placed.aabb;
        let world = match out.large.take() {
            Some(mut world) => {
                world.store(placed);
                world
            }
            None => Self {
                data: Arc::new(placed),
            },
        };
        *out = ConvexPolygon::from_large(world);
        Ok(aabb)
    }

    /// Replaces the outline with `placed`: in place when it is not shared.
    fn store(&mut self, placed: LargeOutline) {
        match Arc::get_mut(&mut self.data) {
            Some(data) => *data = placed,
            None => self.data = Arc::new(placed),
        }
    }

    /// This (local) outline placed by `pose`.
    fn placed(&self, pose: &Pose) -> Result<LargeOutline, TransformError> {
        pose.check()?;
        let local = &*self.data;
        let n = local.vertices.len();
        let mirrored = pose.scale.x * pose.scale.y < 0.0;
        // Local index of the vertex that lands at world index k (mirroring reverses the order).
        let source = |k: usize| if mirrored { n - 1 - k } else { k };
        let mut vertices = Vec::with_capacity(n);
        vertices.extend((0..n).map(|k| pose.transform_point(local.vertices[source(k)])));
        if !vertices.iter().all(|v| in_range(*v)) {
            return Err(TransformError::OutOfRange);
        }
        let centroid = pose.transform_point(local.centroid);
        let radius = local.radius * pose.scale.abs().max_element();
        LargeOutline::new(vertices, centroid, radius).ok_or(TransformError::OutOfRange)
    }
}

/// The tight box of a list of points (not empty).
fn aabb_of_points(points: &[Vec2]) -> Aabb {
    let first = points.first().copied().unwrap_or(Vec2::ZERO);
    let (min, max) = points
        .iter()
        .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    Aabb { min, max }
}

impl Shape {
    /// A convex polygon of 3 to [`MAX_POLYGON_VERTICES`] points, in either winding: the inline
    /// [`ConvexPolygon`] when its corners (collinear points removed) fit in [`MAX_VERTICES`],
    /// else a [`LargePolygon`].
    ///
    /// ```
    /// # use sat_core::{Shape, PolygonError}; use glam::Vec2;
    /// let square = Shape::polygon([Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y])?;
    /// assert!(matches!(square, Shape::Polygon(_)));
    /// let circle_ish = (0..24).map(|i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / 24.0));
    /// assert!(matches!(Shape::polygon(circle_ish)?, Shape::Large(_)));
    /// # Ok::<(), PolygonError>(())
    /// ```
    ///
    /// # Errors
    /// As [`LargePolygon::new`].
    pub fn polygon(points: impl IntoIterator<Item = Vec2>) -> Result<Shape, PolygonError> {
        let input = read_points(points, MAX_POLYGON_VERTICES)?;
        let (corners, len) = valid_corners::<MAX_POLYGON_VERTICES>(&input)?;
        let corners = &corners[..len];
        Ok(if len <= MAX_VERTICES {
            Shape::Polygon(polygon_from_corners(corners))
        } else {
            Shape::Large(LargePolygon::from_corners(corners))
        })
    }
}

impl From<LargePolygon> for Shape {
    fn from(polygon: LargePolygon) -> Self {
        Self::Large(polygon)
    }
}

impl From<ConvexPolygon> for LargePolygon {
    /// The same polygon, on the heap (for comparing the two representations); a large
    /// [`ConvexPolygon`]'s own outline, shared.
    fn from(polygon: ConvexPolygon) -> Self {
        if let Some(large) = polygon.large {
            return large;
        }
        let corners: Vec<DVec2> = polygon.vertices().iter().map(|v| v.as_dvec2()).collect();
        Self::from_corners(&corners)
    }
}
