//! [`ConvexPolygon`]: a validated convex polygon with cached normals, unique axes, centroid and
//! bounding radius.

use core::fmt;

use glam::{DVec2, Vec2, Vec4};

use super::lanes::{SlotLanes, aabb_of};
use super::outline::{sanitize_size, validate_outline};
use super::{LargePolygon, PolygonError};
use crate::Aabb;

/// The most corners a [`ConvexPolygon`] holds inline, in its fixed slots (no heap allocation).
///
/// This bounds the size of every shape and keeps a physics step's per-body data small: the
/// queries between polygons are tuned for these fixed slots. A polygon of more corners, up to
/// [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES), keeps its outline on the heap as a
/// [`LargePolygon`](crate::LargePolygon) (shared when cloned), which the queries answer through
/// their large-polygon path; [`ConvexPolygon::new`] and [`Shape::polygon`](crate::Shape::polygon)
/// pick the representation that fits.
pub const MAX_VERTICES: usize = 8;

/// The largest absolute coordinate a polygon vertex may have.
///
/// Beyond this, products of coordinates (areas, projections) could overflow `f32`.
pub const MAX_COORDINATE: f32 = 1.0e18;

/// The smallest area a polygon may have, in square units.
///
/// Smaller polygons (and polygons whose area is below a millionth of the square of their size)
/// are rejected with [`PolygonError::ZeroArea`]: their normals would be noise in `f32`.
pub const MIN_AREA: f32 = 1.0e-10;

/// The smallest size [`ConvexPolygon::rectangle`] and [`ConvexPolygon::regular`] produce.
pub const MIN_SIZE: f32 = 1.0e-4;

/// A convex polygon, validated at construction.
///
/// - Vertices are stored counter-clockwise (y up); clockwise input is reordered.
/// - Collinear points (a vertex lying on the straight line between its neighbours) are
///   **removed**, so every stored vertex is a real corner.
/// - The outward normal of edge `v[i] → v[i+1]` is `normals()[i]`, of unit length.
/// - The unique separating axes are cached: parallel edges share one axis, so a rectangle has 2
///   and a regular hexagon 3.
///
/// A `ConvexPolygon` cannot be invalid, so the queries that take it never fail or panic.
///
/// Up to [`MAX_VERTICES`] corners are held inline, in fixed slots that the queries between
/// small polygons are tuned for. A polygon of more corners (up to
/// [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES)) holds its outline on the heap as a
/// [`LargePolygon`] ([`ConvexPolygon::as_large`]): every method answers from it, and every query
/// takes it through the large-polygon path. Cloning a polygon copies the inline slots and
/// shares a large outline.
///
/// # Example
/// ```
/// use sat_core::{ConvexPolygon, PolygonError};
/// use glam::Vec2;
///
/// // Clockwise input is accepted and stored counter-clockwise.
/// let square = ConvexPolygon::new([
///     Vec2::new(0.0, 0.0), Vec2::new(0.0, 2.0), Vec2::new(2.0, 2.0), Vec2::new(2.0, 0.0),
/// ])?;
/// assert_eq!(square.vertices()[1], Vec2::new(2.0, 0.0));
/// assert_eq!(square.axes().count(), 2);
/// assert_eq!(square.centroid(), Vec2::new(1.0, 1.0));
///
/// // A concave outline is refused, naming the vertex.
/// let arrow = ConvexPolygon::new([
///     Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0), Vec2::new(0.0, 2.0), Vec2::new(1.0, 1.0),
/// ]);
/// assert_eq!(arrow, Err(PolygonError::NotConvex { index: 3 }));
/// # Ok::<(), PolygonError>(())
/// ```
#[derive(Clone)]
// Fields in this order, not the compiler's: first what every query reads before the corners
// (whether the polygon is large, its length), then the corners, 24 bytes in. A point test
// reads no further; a projection or a sweep reads on into the normals.
#[repr(C)]
pub struct ConvexPolygon {
    /// The outline of a polygon of more than [`MAX_VERTICES`] corners, which then answers every
    /// public method; the inline fields hold its bounding box. `None` for an inline
    /// polygon. The queries never read the inline fields of a large one:
    /// [`AsShape::as_shape`](crate::AsShape::as_shape) hands it to them as a
    /// [`ShapeRef::Large`](crate::ShapeRef::Large).
    pub(crate) large: Option<LargePolygon>,
    pub(crate) len: u8,
    /// Bit `i` is set when `normals[i]` is one of the unique axes.
    pub(crate) axis_mask: u16,
    /// Placement bounds, so that moving a polygon can be checked without looking at every
    /// vertex (see [`ConvexPolygon::bounds_prove_placed`]): no vertex coordinate is larger than
    /// `bound` in absolute value, and consecutive vertices differ by at least `min_step` in one
    /// coordinate. Exact when built, then widened by each move for its round-off.
    pub(crate) bound: f32,
    pub(crate) min_step: f32,
    pub(crate) radius: f32,
    /// The first `len` are the polygon's; the rest repeat `vertices[0]`, so that a loop may
    /// run over all [`MAX_VERTICES`] (fixed length, no branch on `len`) when a repeated vertex
    /// changes nothing, as in a projection.
    pub(crate) vertices: [Vec2; MAX_VERTICES],
    /// The first `len` are the edge normals; the rest are zero.
    pub(crate) normals: [Vec2; MAX_VERTICES],
    pub(crate) centroid: Vec2,
}

impl PartialEq for ConvexPolygon {
    fn eq(&self, other: &Self) -> bool {
        self.vertices() == other.vertices()
    }
}

impl fmt::Debug for ConvexPolygon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConvexPolygon")
            .field("vertices", &self.vertices())
            .field("centroid", &self.centroid())
            .finish_non_exhaustive()
    }
}

impl ConvexPolygon {
    /// Builds a convex polygon from its outline, in either winding order, of 3 to
    /// [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES) points.
    ///
    /// Collinear points are removed; clockwise outlines are reversed (indices in errors still
    /// refer to the input order). A polygon whose corners fit in [`MAX_VERTICES`] is held
    /// inline; one of more corners keeps its outline on the heap (see [`ConvexPolygon`]).
    ///
    /// ```
    /// # use sat_core::{ConvexPolygon, PolygonError, MAX_POLYGON_VERTICES}; use glam::Vec2;
    /// let round = (0..32).map(|i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / 32.0));
    /// let platform = ConvexPolygon::new(round)?;
    /// assert_eq!(platform.vertices().len(), 32);
    /// assert!(platform.as_large().is_some());
    /// let too_many = (0..257).map(|i| Vec2::from_angle(i as f32 * 0.02));
    /// assert_eq!(
    ///     ConvexPolygon::new(too_many),
    ///     Err(PolygonError::TooManyVertices { count: 257, max: MAX_POLYGON_VERTICES })
    /// );
    /// # Ok::<(), PolygonError>(())
    /// ```
    ///
    /// # Errors
    /// A [`PolygonError`] naming the first problem found, checked in this order: a non-finite or
    /// out-of-range coordinate (at the first such point), too many points, too few points, a
    /// repeated consecutive point, (near-)zero area, a concave or crossing outline.
    pub fn new(points: impl IntoIterator<Item = Vec2>) -> Result<Self, PolygonError> {
        let mut points = points.into_iter();
        let mut input = [DVec2::ZERO; MAX_VERTICES];
        let mut count = 0;
        while count < MAX_VERTICES {
            let Some(point) = points.next() else {
                break;
            };
            if !point.is_finite() {
                return Err(PolygonError::NonFinite { index: count });
            }
            if point.abs().max_element() > MAX_COORDINATE {
                return Err(PolygonError::OutOfRange { index: count });
            }
            input[count] = point.as_dvec2();
            count += 1;
        }
        if count == MAX_VERTICES
            && let Some(next) = points.next()
        {
            // More points than the inline slots: the rest of the outline goes to the heap.
            // (Narrowing the first points back to f32 is exact: they were f32.)
            let read = input.iter().map(|p| p.as_vec2());
            return Self::new_large(read.chain(core::iter::once(next)).chain(points));
        }
        if count < 3 {
            return Err(PolygonError::TooFewPoints { count });
        }
        validate_outline(&input[..count])
    }

    /// An axis-aligned rectangle centred at the origin.
    ///
    /// Negative sizes are taken by magnitude. Sizes are clamped to [`MIN_SIZE`]`..=`
    /// [`MAX_COORDINATE`], and a NaN size counts as [`MIN_SIZE`], so that this constructor stays
    /// infallible; use [`ConvexPolygon::new`] to have such input refused.
    ///
    /// ```
    /// # use sat_core::ConvexPolygon; use glam::Vec2;
    /// let r = ConvexPolygon::rectangle(4.0, 2.0);
    /// assert_eq!(r.vertices(), &[
    ///     Vec2::new(-2.0, -1.0), Vec2::new(2.0, -1.0), Vec2::new(2.0, 1.0), Vec2::new(-2.0, 1.0),
    /// ]);
    /// ```
    pub fn rectangle(width: f32, height: f32) -> Self {
        let half = Vec2::new(sanitize_size(width), sanitize_size(height)) * 0.5;
        let vertices = [
            Vec2::new(-half.x, -half.y),
            Vec2::new(half.x, -half.y),
            Vec2::new(half.x, half.y),
            Vec2::new(-half.x, half.y),
        ];
        let normals = [Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X];
        Self::from_parts(&vertices, &normals, 0b0011, Vec2::ZERO, half.length())
    }

    /// A regular polygon centred at the origin with its first vertex at angle 0 (on the +x axis).
    ///
    /// `sides` is clamped to `3..=MAX_VERTICES` (a rounder outline is built with
    /// [`ConvexPolygon::new`]); `radius` (centre to vertex) is sanitized like
    /// the sizes of [`ConvexPolygon::rectangle`].
    ///
    /// ```
    /// # use sat_core::ConvexPolygon;
    /// let hexagon = ConvexPolygon::regular(6, 1.0);
    /// assert_eq!(hexagon.vertices().len(), 6);
    /// assert_eq!(hexagon.axes().count(), 3);
    /// ```
    pub fn regular(sides: usize, radius: f32) -> Self {
        let sides = sides.clamp(3, MAX_VERTICES);
        let radius = f64::from(sanitize_size(radius));
        let mut points = [DVec2::ZERO; MAX_VERTICES];
        for (i, p) in points.iter_mut().take(sides).enumerate() {
            let angle = core::f64::consts::TAU * i as f64 / sides as f64;
            *p = DVec2::new(angle.cos(), angle.sin()) * radius;
        }
        // A regular outline of a sanitized radius always validates; the fallback only keeps this
        // constructor infallible without an unwrap.
        validate_outline(&points[..sides]).unwrap_or_else(|_| {
            let side = radius as f32 * core::f32::consts::SQRT_2;
            Self::rectangle(side, side)
        })
    }

    /// The vertices, counter-clockwise.
    #[inline]
    pub fn vertices(&self) -> &[Vec2] {
        match &self.large {
            Some(large) => large.vertices(),
            None => &self.vertices[..self.len as usize],
        }
    }

    /// The vertices in the inline slots: all of them for a polygon held inline, which is all
    /// the queries that read the slots ever see (a large one reaches them as a
    /// [`LargePolygon`]); without [`vertices`](Self::vertices)' test for a large outline.
    #[inline]
    pub(crate) fn inline_vertices(&self) -> &[Vec2] {
        &self.vertices[..self.len as usize]
    }

    /// The normals in the inline slots (see [`inline_vertices`](Self::inline_vertices)).
    #[inline]
    pub(crate) fn inline_normals(&self) -> &[Vec2] {
        &self.normals[..self.len as usize]
    }

    /// The vertex that ends edge `i` (`i + 1`, or the first for the last edge). The slots past
    /// `len` repeat the first vertex, so it is one slot on modulo [`MAX_VERTICES`], a constant:
    /// no division by `len`, which a hot loop would wait on.
    #[inline]
    pub(crate) fn edge_end(&self, i: usize) -> Vec2 {
        self.vertices[(i + 1) % MAX_VERTICES]
    }

    /// The outward unit normals; `normals()[i]` belongs to the edge `vertices()[i] →
    /// vertices()[i + 1]` (wrapping around).
    #[inline]
    pub fn normals(&self) -> &[Vec2] {
        match &self.large {
            Some(large) => large.normals(),
            None => &self.normals[..self.len as usize],
        }
    }

    /// The unique separating axes: one outward normal per direction, parallel edges sharing one.
    pub fn axes(&self) -> impl Iterator<Item = Vec2> + '_ {
        let inline = self
            .large
            .is_none()
            .then(|| self.axis_indices().map(|i| self.normals[i]));
        let large = self.large.as_ref().map(LargePolygon::axes);
        inline
            .into_iter()
            .flatten()
            .chain(large.into_iter().flatten())
    }

    /// Whether `axis` or its opposite is one of the unique axes (compared exactly).
    ///
    /// Over the first `SLOTS` slots (which must hold every edge: `len <= SLOTS`), without
    /// stopping at the first match: a loop of fixed length has no exit to mispredict.
    #[inline]
    pub(crate) fn has_axis<const SLOTS: usize>(&self, axis: Vec2) -> bool {
        debug_assert!(usize::from(self.len) <= SLOTS);
        self.normals[..SLOTS]
            .iter()
            .enumerate()
            .fold(false, |found, (i, n)| {
                let unique = self.axis_mask >> i & 1 != 0;
                found | (unique & ((*n == axis) | (*n == -axis)))
            })
    }

    /// Indices into [`normals`](Self::normals) of the unique axes.
    pub(crate) fn axis_indices(&self) -> impl Iterator<Item = usize> + use<> {
        let mut mask = self.axis_mask;
        core::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        })
    }

    /// The area centroid.
    pub fn centroid(&self) -> Vec2 {
        self.centroid
    }

    /// Moves the polygon by `offset` in place.
    #[inline]
    pub fn translate(&mut self, offset: Vec2) {
        if let Some(mut large) = self.large.take() {
            large.translate(offset);
            *self = Self::from_large(large);
            return;
        }
        for v in &mut self.vertices {
            *v += offset;
        }
        self.centroid += offset;
        (self.bound, self.min_step) = self.bounds_after(offset);
    }

    /// `(bound, min_step)` once the vertices are moved by `offset`: every coordinate's
    /// round-off is at most `2^-24` of its size, so the bound grows by the offset and that
    /// much, and the step shrinks by the round-off of two vertices (both with slack). Many moves
    /// of the same polygon in place wear the step down until the bounds prove nothing and the
    /// vertices are checked again; a shape placed anew from its local one starts afresh.
    #[inline]
    pub(crate) fn bounds_after(&self, offset: Vec2) -> (f32, f32) {
        const SLACK: f32 = 1.0 + 1.0 / (1u32 << 22) as f32;
        const ROUND_OFF: f32 = 1.0 / (1u32 << 22) as f32;
        let bound = (self.bound + offset.abs().max_element()) * SLACK;
        (bound, (self.min_step - bound * ROUND_OFF).max(0.0))
    }

    /// Whether bounds `(bound, min_step)` prove a polygon placeable without reading its
    /// vertices: every coordinate in range and no two consecutive vertices merged. `false`
    /// means "check them" (also for NaN bounds).
    #[inline]
    pub(crate) fn bounds_prove_placed((bound, min_step): (f32, f32)) -> bool {
        bound <= MAX_COORDINATE && min_step > 0.0
    }

    /// The distance from the centroid to the farthest vertex (an upper bound once the polygon
    /// has been placed with a non-uniform scale).
    pub fn bounding_radius(&self) -> f32 {
        self.radius
    }

    /// The lowest and highest projection of the vertices on `axis`.
    #[inline]
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        if let Some(large) = &self.large {
            return large.project(axis);
        }
        self.lanes::<MAX_VERTICES>(Vec2::ZERO).project(axis)
    }

    /// The lowest and highest projection on `axis` of the vertices moved by `offset`, without
    /// moving them: bit for bit what [`translate`](Self::translate) then
    /// [`project`](Self::project) give on a copy.
    #[inline]
    pub fn project_moved(&self, axis: Vec2, offset: Vec2) -> (f32, f32) {
        if let Some(large) = &self.large {
            return large.project_moved(axis, offset);
        }
        // `v - (-offset)` is `v + offset` exactly, as `translate` computes it.
        self.lanes::<MAX_VERTICES>(-offset).project(axis)
    }

    /// The first `SLOTS` vertex slots (4 or 8, holding every vertex) relative to `origin`,
    /// laid out for [`SlotLanes::project`]: once per pair, for all the axes it is projected
    /// on. Quadrilaterals and triangles (4 slots) skip the half of the work the padding would
    /// be.
    #[inline]
    pub(crate) fn lanes<const SLOTS: usize>(&self, origin: Vec2) -> SlotLanes<SLOTS> {
        const { assert!(SLOTS == 4 || SLOTS == 8, "4 or 8 slots") };
        debug_assert!(usize::from(self.len) <= SLOTS);
        let v = &self.vertices;
        let (x, y) = (Vec4::splat(origin.x), Vec4::splat(origin.y));
        let half = |k: usize| {
            (
                Vec4::new(v[k].x, v[k + 1].x, v[k + 2].x, v[k + 3].x) - x,
                Vec4::new(v[k].y, v[k + 1].y, v[k + 2].y, v[k + 3].y) - y,
            )
        };
        let low = half(0);
        let high = if SLOTS == 8 { half(4) } else { low };
        SlotLanes {
            xs: [low.0, high.0],
            ys: [low.1, high.1],
        }
    }

    /// The tight AABB: the lowest and highest vertex coordinates, each axis on its own. Over
    /// all `MAX_VERTICES` slots, reduced as a tree, like [`SlotLanes::project`]. Of the inline
    /// slots only (a large polygon's is [`ConvexPolygon::bounds`]).
    #[inline]
    pub(crate) fn aabb(&self) -> Aabb {
        aabb_of(self.vertices)
    }

    /// The vertex farthest along `direction`, and its index.
    #[inline]
    pub(crate) fn support(&self, direction: Vec2) -> (usize, Vec2) {
        let mut best = 0;
        let mut best_dot = self.vertices[0].dot(direction);
        for (i, v) in self.inline_vertices().iter().enumerate().skip(1) {
            let d = v.dot(direction);
            if d > best_dot {
                best = i;
                best_dot = d;
            }
        }
        (best, self.vertices[best])
    }

    /// Fills the vertex slots past `len` with vertex 0 (see [`ConvexPolygon::vertices`]'s
    /// field).
    #[inline]
    pub(crate) fn pad(&mut self) {
        let first = self.vertices[0];
        for v in &mut self.vertices[self.len as usize..] {
            *v = first;
        }
    }

    /// Builds a polygon from already valid parts (counter-clockwise, unit outward normals).
    pub(crate) fn from_parts(
        vertices: &[Vec2],
        normals: &[Vec2],
        axis_mask: u16,
        centroid: Vec2,
        radius: f32,
    ) -> Self {
        let mut polygon = Self {
            vertices: [Vec2::ZERO; MAX_VERTICES],
            normals: [Vec2::ZERO; MAX_VERTICES],
            len: vertices.len() as u8,
            axis_mask,
            centroid,
            radius,
            bound: vertices
                .iter()
                .fold(0.0, |b, v| b.max(v.abs().max_element())),
            min_step: f32::INFINITY,
            large: None,
        };
        for (k, v) in vertices.iter().enumerate() {
            let next = vertices[(k + 1) % vertices.len()];
            polygon.min_step = polygon.min_step.min((next - *v).abs().max_element());
        }
        polygon.vertices[..vertices.len()].copy_from_slice(vertices);
        polygon.pad();
        polygon.normals[..normals.len()].copy_from_slice(normals);
        polygon
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A query reads `large` and `len` first and then the corners: they come first, in that
    /// order, and the corners 24 bytes in.
    #[test]
    fn the_corners_follow_what_every_query_reads_first() {
        use core::mem::offset_of;
        assert_eq!(offset_of!(ConvexPolygon, large), 0);
        assert!(offset_of!(ConvexPolygon, len) < offset_of!(ConvexPolygon, vertices));
        assert_eq!(offset_of!(ConvexPolygon, vertices), 24);
        assert_eq!(
            offset_of!(ConvexPolygon, normals),
            24 + size_of::<[Vec2; MAX_VERTICES]>()
        );
    }

    /// The bounds prove the placements a game makes, so the vertex check is skipped: the
    /// local shape placed anew each step anywhere in a large level, then moved in place by a
    /// few pushes. They do not for a placement whose corners f32 merges.
    #[test]
    fn bounds_prove_placements_a_game_makes() {
        let local = ConvexPolygon::rectangle(12.0, 8.0);
        let mut placed = local.clone();
        for step in 0..10_000u16 {
            let position = Vec2::new(1.5, -0.75) * f32::from(step); // up to 15,000 units out
            let bounds = local.bounds_after(position);
            assert!(ConvexPolygon::bounds_prove_placed(bounds), "{bounds:?}");
            (placed.bound, placed.min_step) = bounds;
            for _ in 0..8 {
                placed.translate(Vec2::new(0.3, -0.2));
                assert!(ConvexPolygon::bounds_prove_placed((
                    placed.bound,
                    placed.min_step
                )));
            }
        }
        let far = ConvexPolygon::rectangle(12.0, 8.0).bounds_after(Vec2::splat(1e9));
        assert!(!ConvexPolygon::bounds_prove_placed(far), "{far:?}");
    }
}
