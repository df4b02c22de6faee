//! The rounded shapes: [`Capsule`] (a segment swept by a disc; a bare segment when the radius
//! is 0) and [`RoundedPolygon`] (a convex polygon swept by a disc).
//!
//! Both are a core and a radius: every point within the radius of the core belongs to the
//! shape. The queries reduce a pair of rounded shapes to their cores and the sum of the radii.

use core::fmt;

use glam::Vec2;

use super::outline::sanitize_size;
use super::polygon::{ConvexPolygon, MAX_COORDINATE, MIN_SIZE};

/// Why the numbers given are not a valid [`Capsule`] or [`RoundedPolygon`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundedError {
    /// A point, a size or the radius is NaN or infinite.
    NonFinite,
    /// A point, a size or the radius exceeds [`MAX_COORDINATE`] in magnitude.
    OutOfRange,
    /// The radius is zero or negative (only a bare segment, [`Capsule::segment`], has none).
    NonPositiveRadius,
    /// The segment's ends are the same point, or a length or size is zero or negative.
    DegenerateSegment,
    /// The radius leaves no core: twice the radius is not less than the width or height by at
    /// least [`MIN_SIZE`].
    RadiusTooLarge,
}

impl fmt::Display for RoundedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NonFinite => "a point, size or radius is NaN or infinite",
            Self::OutOfRange => "a point, size or radius is too large",
            Self::NonPositiveRadius => "the radius is not positive",
            Self::DegenerateSegment => "the segment has no length (its ends coincide)",
            Self::RadiusTooLarge => "the radius is too large for the width or height",
        })
    }
}

impl std::error::Error for RoundedError {}

/// A segment swept by a disc: every point within `radius` of the segment `start → end`.
///
/// A radius of 0 is a bare segment (zero thickness), built with [`Capsule::segment`]; every
/// query handles it. The ends never coincide.
///
/// ```
/// # use sat_core::{Capsule, RoundedError}; use glam::Vec2;
/// // A capsule 3 units tall standing on the origin's level: a 1-unit segment, radius 1.
/// let c = Capsule::vertical(1.0, 1.0)?;
/// assert_eq!((c.start(), c.end(), c.radius()), (Vec2::new(0.0, -0.5), Vec2::new(0.0, 0.5), 1.0));
/// assert_eq!(Capsule::new(Vec2::ZERO, Vec2::ZERO, 1.0), Err(RoundedError::DegenerateSegment));
/// assert_eq!(Capsule::new(Vec2::ZERO, Vec2::X, 0.0), Err(RoundedError::NonPositiveRadius));
/// let floor = Capsule::segment(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0))?;
/// assert_eq!(floor.radius(), 0.0);
/// # Ok::<(), RoundedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    pub(crate) start: Vec2,
    pub(crate) end: Vec2,
    pub(crate) radius: f32,
}

/// Checks that every value is finite and within [`MAX_COORDINATE`].
fn check_range(values: &[f32]) -> Result<(), RoundedError> {
    if !values.iter().all(|v| v.is_finite()) {
        return Err(RoundedError::NonFinite);
    }
    if values.iter().any(|v| v.abs() > MAX_COORDINATE) {
        return Err(RoundedError::OutOfRange);
    }
    Ok(())
}

impl Capsule {
    /// The capsule around the segment `start → end` with a positive `radius`.
    ///
    /// # Errors
    /// [`RoundedError`]: a non-finite or out-of-range value, a radius that is not positive,
    /// or ends that coincide.
    pub fn new(start: Vec2, end: Vec2, radius: f32) -> Result<Self, RoundedError> {
        check_range(&[start.x, start.y, end.x, end.y, radius])?;
        if radius <= 0.0 {
            return Err(RoundedError::NonPositiveRadius);
        }
        Self::with_radius(start, end, radius)
    }

    /// The bare segment `start → end` (radius 0).
    ///
    /// # Errors
    /// [`RoundedError`]: a non-finite or out-of-range point, or ends that coincide.
    pub fn segment(start: Vec2, end: Vec2) -> Result<Self, RoundedError> {
        check_range(&[start.x, start.y, end.x, end.y])?;
        Self::with_radius(start, end, 0.0)
    }

    /// A capsule centred on the origin whose segment of `length` runs along y: its total
    /// height is `length + 2 * radius`, its width `2 * radius`.
    ///
    /// # Errors
    /// [`RoundedError`]: a non-finite or out-of-range value, a radius that is not positive, or
    /// a length that is not positive ([`RoundedError::DegenerateSegment`]).
    pub fn vertical(radius: f32, length: f32) -> Result<Self, RoundedError> {
        check_range(&[radius, length])?;
        if length <= 0.0 {
            return Err(RoundedError::DegenerateSegment);
        }
        let half = Vec2::new(0.0, length * 0.5);
        Self::new(-half, half, radius)
    }

    /// Refuses coinciding ends (checked in `f64`, where the difference of two `f32` is exact).
    fn with_radius(start: Vec2, end: Vec2, radius: f32) -> Result<Self, RoundedError> {
        if start.as_dvec2() == end.as_dvec2() || (end - start).length_squared() == 0.0 {
            return Err(RoundedError::DegenerateSegment);
        }
        Ok(Self { start, end, radius })
    }

    /// One end of the segment.
    pub fn start(&self) -> Vec2 {
        self.start
    }

    /// The other end of the segment.
    pub fn end(&self) -> Vec2 {
        self.end
    }

    /// The radius: 0 for a bare segment, else positive.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The lowest and highest projection on a unit `axis`.
    #[inline]
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        let (s, e) = (self.start.dot(axis), self.end.dot(axis));
        (s.min(e) - self.radius, s.max(e) + self.radius)
    }

    /// Points around the outline, counter-clockwise, for drawing: each end's half-circle in
    /// `arc_steps` straight pieces (at least 1). A bare segment gives its two ends.
    ///
    /// ```
    /// # use sat_core::Capsule; use glam::Vec2;
    /// let c = Capsule::vertical(1.0, 2.0).unwrap();
    /// let outline = c.outline(4);
    /// assert_eq!(outline.len(), 10); // 5 points around each end
    /// assert!(outline.iter().all(|p| p.y.abs() <= 2.0 + 1e-6 && p.x.abs() <= 1.0 + 1e-6));
    /// ```
    pub fn outline(&self, arc_steps: usize) -> Vec<Vec2> {
        let Some(side) = (self.end - self.start).perp().try_normalize() else {
            return vec![self.start];
        };
        let side = -side; // outward on the right of start → end
        rounded_outline(
            &[self.start, self.end],
            &[side, -side],
            self.radius,
            arc_steps,
        )
    }
}

/// The outline of a core (counter-clockwise corners and the outward normals of the edges that
/// leave them) swept by `radius`: at each corner, an arc from the normal of the edge into it to
/// the normal of the edge out of it, in `arc_steps` pieces. A radius of 0 gives the corners.
fn rounded_outline(points: &[Vec2], normals: &[Vec2], radius: f32, arc_steps: usize) -> Vec<Vec2> {
    if radius <= 0.0 {
        return points.to_vec();
    }
    let steps = arc_steps.max(1);
    let n = points.len();
    let mut outline = Vec::with_capacity(n * (steps + 1));
    for i in 0..n {
        let (from, to) = (normals[(i + n - 1) % n], normals[i]);
        let mut turn = from.perp_dot(to).atan2(from.dot(to));
        if turn < 0.0 {
            turn += core::f32::consts::TAU;
        }
        for k in 0..=steps {
            let direction = Vec2::from_angle(turn * k as f32 / steps as f32).rotate(from);
            outline.push(points[i] + direction * radius);
        }
    }
    outline
}

/// A convex polygon swept by a disc: every point within `radius` of the polygon (its edges
/// pushed out by the radius, its corners rounded).
///
/// ```
/// # use sat_core::{RoundedPolygon, ConvexPolygon, RoundedError}; use glam::Vec2;
/// // A 4 × 2 box with corners rounded by 0.5: a 3 × 1 core.
/// let r = RoundedPolygon::round_rectangle(4.0, 2.0, 0.5)?;
/// assert_eq!(r.core().vertices()[2], Vec2::new(1.5, 0.5));
/// assert_eq!(r.radius(), 0.5);
/// assert_eq!(RoundedPolygon::round_rectangle(4.0, 2.0, 1.0), Err(RoundedError::RadiusTooLarge));
/// assert_eq!(
///     RoundedPolygon::new(ConvexPolygon::rectangle(1.0, 1.0), f32::NAN),
///     Err(RoundedError::NonFinite)
/// );
/// # Ok::<(), RoundedError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RoundedPolygon {
    pub(crate) core: ConvexPolygon,
    pub(crate) radius: f32,
}

impl RoundedPolygon {
    /// `core` rounded by a positive `radius`.
    ///
    /// # Errors
    /// [`RoundedError`]: a non-finite, out-of-range or non-positive radius.
    pub fn new(core: ConvexPolygon, radius: f32) -> Result<Self, RoundedError> {
        check_range(&[radius])?;
        if radius <= 0.0 {
            return Err(RoundedError::NonPositiveRadius);
        }
        Ok(Self { core, radius })
    }

    /// A `width × height` rectangle (outer size, centred on the origin) with its corners
    /// rounded by `radius`: the core is `(width - 2r) × (height - 2r)`.
    ///
    /// # Errors
    /// [`RoundedError`]: a non-finite or out-of-range value, a size that is not positive
    /// ([`RoundedError::DegenerateSegment`]), a radius that is not positive, or one that leaves
    /// a core thinner than [`MIN_SIZE`] ([`RoundedError::RadiusTooLarge`]; a capsule is the
    /// shape for that).
    pub fn round_rectangle(width: f32, height: f32, radius: f32) -> Result<Self, RoundedError> {
        check_range(&[width, height, radius])?;
        if width <= 0.0 || height <= 0.0 {
            return Err(RoundedError::DegenerateSegment);
        }
        if radius <= 0.0 {
            return Err(RoundedError::NonPositiveRadius);
        }
        let core = Vec2::new(width, height) - 2.0 * radius;
        if core.min_element() < MIN_SIZE {
            return Err(RoundedError::RadiusTooLarge);
        }
        Self::new(
            ConvexPolygon::rectangle(sanitize_size(core.x), sanitize_size(core.y)),
            radius,
        )
    }

    /// The polygon that is rounded.
    pub fn core(&self) -> &ConvexPolygon {
        &self.core
    }

    /// The radius (always positive).
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The lowest and highest projection on a unit `axis`.
    #[inline]
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        let (lo, hi) = self.core.project(axis);
        (lo - self.radius, hi + self.radius)
    }

    /// Points around the outline, counter-clockwise, for drawing: each rounded corner in
    /// `arc_steps` straight pieces (at least 1), joined by the flat faces.
    pub fn outline(&self, arc_steps: usize) -> Vec<Vec2> {
        rounded_outline(
            self.core.vertices(),
            self.core.normals(),
            self.radius,
            arc_steps,
        )
    }
}
