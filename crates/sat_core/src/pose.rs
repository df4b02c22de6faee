//! [`Pose`]: placing a local shape in the world (translation, rotation, non-uniform scale).

use core::fmt;

use glam::Vec2;

use crate::Aabb;
use crate::shape::{
    Circle, ConvexPolygon, MAX_COORDINATE, MAX_VERTICES, Shape, aabb_of, rounded_radius,
};

/// Where a shape is in the world: its local vertices are scaled, then rotated, then translated.
///
/// ```
/// # use sat_core::{Pose, ConvexPolygon}; use glam::Vec2;
/// let local = ConvexPolygon::rectangle(2.0, 2.0);
/// let pose = Pose::new(Vec2::new(10.0, 0.0), core::f32::consts::FRAC_PI_2, Vec2::new(2.0, 1.0));
/// let world = local.transformed(&pose).unwrap();
/// // Scaled to 4 × 2, turned a quarter, so 2 wide and 4 tall, around x = 10.
/// let aabb = sat_core::Shape::from(world).aabb();
/// assert!((aabb.min - Vec2::new(9.0, -2.0)).length() < 1e-5);
/// assert!((aabb.max - Vec2::new(11.0, 2.0)).length() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pose {
    /// The world position of the local origin.
    pub translation: Vec2,
    /// The rotation as a unit vector `(cos θ, sin θ)`.
    pub rotation: Vec2,
    /// The scale along the local axes, applied before the rotation. A negative component
    /// mirrors the shape.
    pub scale: Vec2,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// Why a shape could not be placed with a [`Pose`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransformError {
    /// The translation, rotation or scale is NaN or infinite, or the rotation is not a unit
    /// vector.
    NonFinitePose,
    /// A scale component is zero: the shape would collapse to a segment or a point.
    ZeroScale,
    /// The placed shape has a coordinate beyond [`MAX_COORDINATE`], or `f32` round-off
    /// collapsed it: its corners merged until no valid polygon is left.
    OutOfRange,
}

impl fmt::Display for TransformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NonFinitePose => "the pose has a NaN or infinite value or a non-unit rotation",
            Self::ZeroScale => "the pose has a zero scale component",
            Self::OutOfRange => "the placed shape is too large, too far away or too small",
        })
    }
}

impl std::error::Error for TransformError {}

impl Pose {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Pose = Pose {
        translation: Vec2::ZERO,
        rotation: Vec2::X,
        scale: Vec2::ONE,
    };

    /// A pose from a translation, a counter-clockwise angle in radians and a scale.
    pub fn new(translation: Vec2, angle: f32, scale: Vec2) -> Self {
        Self {
            translation,
            rotation: Vec2::from_angle(angle),
            scale,
        }
    }

    /// A translation only.
    pub fn from_translation(translation: Vec2) -> Self {
        Self {
            translation,
            ..Self::IDENTITY
        }
    }

    /// Maps a local point into the world.
    #[inline]
    pub fn transform_point(&self, local: Vec2) -> Vec2 {
        self.rotation.rotate(local * self.scale) + self.translation
    }

    pub(crate) fn check(&self) -> Result<(), TransformError> {
        let finite = self.translation.is_finite()
            && self.rotation.is_finite()
            && self.scale.is_finite()
            && (self.rotation.length_squared() - 1.0).abs() < 1.0e-3;
        if !finite {
            return Err(TransformError::NonFinitePose);
        }
        if self.scale.x == 0.0 || self.scale.y == 0.0 {
            return Err(TransformError::ZeroScale);
        }
        Ok(())
    }
}

/// `v` normalised, also when its length squared would underflow or overflow `f32`.
fn unit(v: Vec2) -> Option<Vec2> {
    let largest = v.abs().max_element();
    if !(largest > 0.0 && largest.is_finite()) {
        return None;
    }
    (v / largest).try_normalize()
}

pub(crate) fn in_range(p: Vec2) -> bool {
    p.is_finite() && p.abs().max_element() <= MAX_COORDINATE
}

impl ConvexPolygon {
    /// This (local) polygon placed in the world by `pose`.
    ///
    /// Far from the origin, `f32` round-off can merge the two ends of a very short edge. The
    /// placed polygon then has the corners that remain, validated again as by
    /// [`ConvexPolygon::new`]; it is refused only when they no longer make a polygon.
    ///
    /// ```
    /// # use sat_core::{ConvexPolygon, Pose}; use glam::Vec2;
    /// // A pentagon with one edge 2.5e-5 long: around 1000, f32 steps by 6.1e-5.
    /// let local = ConvexPolygon::new([
    ///     Vec2::new(0.0, -5.0), Vec2::new(5.0, 0.0), Vec2::new(5.0, 2.5e-5),
    ///     Vec2::new(0.0, 5.0), Vec2::new(-5.0, 0.0),
    /// ]).unwrap();
    /// let placed = local.transformed(&Pose::from_translation(Vec2::splat(1000.0))).unwrap();
    /// assert_eq!(placed.vertices().len(), 4); // the short edge's corners merged
    /// assert!(ConvexPolygon::rectangle(1e-3, 1e-3) // every corner merges: nothing is left
    ///     .transformed(&Pose::from_translation(Vec2::splat(1e5)))
    ///     .is_err());
    /// ```
    ///
    /// # Errors
    /// [`TransformError`] for a non-finite pose, a zero scale, or a result out of range.
    pub fn transformed(&self, pose: &Pose) -> Result<ConvexPolygon, TransformError> {
        let mut out = self.clone();
        self.transform_into(pose, &mut out)?;
        Ok(out)
    }

    /// Writes this (local) polygon placed by `pose` into `out`, reusing its storage: the way to
    /// compute world shapes once per body per step without allocating. Returns the placed
    /// polygon's AABB (what [`Shape::aabb`] gives for it), found on the way: a broad phase
    /// needs it next, and the vertices are at hand. On error `out` is left unchanged.
    ///
    /// ```
    /// # use sat_core::{ConvexPolygon, Pose, Shape}; use glam::Vec2;
    /// let local = ConvexPolygon::rectangle(2.0, 1.0);
    /// let mut world = local.clone();
    /// let aabb = local.transform_into(&Pose::from_translation(Vec2::new(5.0, 0.0)), &mut world)?;
    /// assert_eq!((aabb.min, aabb.max), (Vec2::new(4.0, -0.5), Vec2::new(6.0, 0.5)));
    /// assert_eq!(aabb, Shape::from(world).aabb());
    /// # Ok::<(), sat_core::TransformError>(())
    /// ```
    ///
    /// # Errors
    /// As [`ConvexPolygon::transformed`].
    pub fn transform_into(
        &self,
        pose: &Pose,
        out: &mut ConvexPolygon,
    ) -> Result<Aabb, TransformError> {
        if let Some(large) = &self.large {
            return large.transform_into_polygon(pose, out);
        }
        pose.check()?;
        if pose.rotation == Vec2::X && pose.scale == Vec2::ONE {
            return self.translate_into(pose.translation, out);
        }
        let n = self.len as usize;
        let mirrored = pose.scale.x * pose.scale.y < 0.0;
        let mut vertices = [Vec2::ZERO; MAX_VERTICES];
        let mut normals = [Vec2::ZERO; MAX_VERTICES];
        // Local index of the vertex that lands at world index k (mirroring reverses the order).
        let source = |k: usize| if mirrored { n - 1 - k } else { k };
        for (k, v) in vertices.iter_mut().take(n).enumerate() {
            *v = pose.transform_point(self.vertices[source(k)]);
        }
        if let Outline::Merged(rebuilt) = check_placed(&vertices[..n])? {
            *out = rebuilt;
            return Ok(out.aabb());
        }
        let mut axis_mask = 0u16;
        if pose.scale == Vec2::ONE {
            for (world, local) in normals.iter_mut().zip(self.normals()) {
                *world = pose.rotation.rotate(*local);
            }
            axis_mask = self.axis_mask;
        } else {
            for (k, world_normal) in normals.iter_mut().enumerate().take(n) {
                // World edge k runs between the images of local vertices source(k) and
                // source(k + 1): in local terms, edge `local` (reversed when mirrored).
                let local = if mirrored { (2 * n - 2 - k) % n } else { k };
                let from = self.vertices[local];
                let to = self.vertices[(local + 1) % n];
                let mut edge = (to - from) * pose.scale;
                if mirrored {
                    edge = -edge;
                }
                let Some(normal) = unit(-edge.perp()) else {
                    return Err(TransformError::OutOfRange);
                };
                *world_normal = pose.rotation.rotate(normal);
                if self.axis_mask & (1 << local) != 0 {
                    axis_mask |= 1 << k;
                }
            }
        }
        let centroid = pose.transform_point(self.centroid);
        let radius = self.radius * pose.scale.abs().max_element();
        *out =
            ConvexPolygon::from_parts(&vertices[..n], &normals[..n], axis_mask, centroid, radius);
        Ok(out.aabb())
    }
}

impl ConvexPolygon {
    /// `transform_into` for a translation only: the common case of an unrotated, unscaled body.
    fn translate_into(&self, by: Vec2, out: &mut ConvexPolygon) -> Result<Aabb, TransformError> {
        let n = self.len as usize;
        // All of them, padding included: it stays a copy of vertex 0.
        let mut vertices = self.vertices;
        for v in &mut vertices {
            *v += by;
        }
        let bounds = self.bounds_after(by);
        if !ConvexPolygon::bounds_prove_placed(bounds)
            && let Outline::Merged(rebuilt) = check_placed(&vertices[..n])?
        {
            *out = rebuilt;
            return Ok(out.aabb());
        }
        out.vertices = vertices;
        (out.bound, out.min_step) = bounds;
        out.normals = self.normals; // the unused slots (zero) too
        out.len = self.len;
        out.axis_mask = self.axis_mask;
        out.centroid = self.centroid + by;
        out.radius = self.radius;
        out.large = None;
        Ok(aabb_of(vertices))
    }
}

/// What [`check_placed`] found in a placed outline.
enum Outline {
    /// Every corner is distinct: the outline is the polygon's, as placed.
    Distinct,
    /// Round-off merged some consecutive corners (far from the origin, `f32` can merge the ends
    /// of a short edge): the polygon the remaining corners make.
    Merged(ConvexPolygon),
}

/// Checks a placed outline. Refused: a vertex out of range, or corners merged until what
/// remains is no polygon (fewer than 3 corners, no area, or not convex once rounded). Merged
/// corners that leave a valid polygon give that polygon, validated again from scratch.
fn check_placed(vertices: &[Vec2]) -> Result<Outline, TransformError> {
    let n = vertices.len();
    if !vertices.iter().all(|v| in_range(*v)) {
        return Err(TransformError::OutOfRange);
    }
    let distinct = |k: usize| vertices[k] != vertices[(k + 1) % n];
    if (0..n).all(distinct) {
        return Ok(Outline::Distinct);
    }
    let remaining = (0..n).filter(|&k| distinct(k)).map(|k| vertices[k]);
    ConvexPolygon::new(remaining)
        .map(Outline::Merged)
        .map_err(|_| TransformError::OutOfRange)
}

impl Circle {
    /// This (local) circle placed in the world by `pose`.
    ///
    /// A circle stays a circle: under a non-uniform scale its radius is multiplied by the larger
    /// absolute scale component (use a polygon for an ellipse-like shape).
    ///
    /// # Errors
    /// [`TransformError`] for a non-finite pose, a zero scale, or a result out of range.
    pub fn transformed(&self, pose: &Pose) -> Result<Circle, TransformError> {
        pose.check()?;
        let center = pose.transform_point(self.center);
        let radius = self.radius * pose.scale.abs().max_element();
        if !in_range(center) || !radius.is_finite() || radius > MAX_COORDINATE || radius <= 0.0 {
            return Err(TransformError::OutOfRange);
        }
        Ok(Circle { center, radius })
    }
}

impl Shape {
    /// This (local) shape placed in the world by `pose`.
    ///
    /// # Errors
    /// [`TransformError`] for a non-finite pose, a zero scale, or a result out of range.
    pub fn transformed(&self, pose: &Pose) -> Result<Shape, TransformError> {
        if let Shape::Large(local) = self {
            return local.transformed(pose);
        }
        let mut out = self.clone();
        self.transform_into(pose, &mut out)?;
        Ok(out)
    }

    /// Writes this (local) shape placed by `pose` into `out`, reusing its storage when it holds
    /// the same kind of shape, and returns its AABB (as [`ConvexPolygon::transform_into`]
    /// does). On error `out` is left unchanged.
    ///
    /// # Errors
    /// As [`Shape::transformed`].
    #[inline]
    pub fn transform_into(&self, pose: &Pose, out: &mut Shape) -> Result<Aabb, TransformError> {
        // A large polygon, whichever variant holds it, is placed as a `Shape::Large`: the
        // queries that read a `Shape::Polygon`'s inline slots then never see one.
        if let Shape::Polygon(local) = self
            && let Some(large) = &local.large
        {
            return large.transform_into(pose, out);
        }
        match (self, out) {
            (Shape::Polygon(local), Shape::Polygon(world)) => local.transform_into(pose, world),
            (Shape::Polygon(local), out) => {
                *out = Shape::Polygon(local.transformed(pose)?);
                Ok(out.aabb())
            }
            (Shape::Circle(local), out) => {
                *out = Shape::Circle(local.transformed(pose)?);
                Ok(out.aabb())
            }
            (Shape::Capsule(local), out) => {
                *out = Shape::Capsule(local.transformed(pose)?);
                Ok(out.aabb())
            }
            (Shape::Rounded(local), Shape::Rounded(world)) => {
                let radius = rounded_radius(local.radius, pose)?;
                if radius <= 0.0 {
                    return Err(TransformError::OutOfRange);
                }
                let aabb = local.core.transform_into(pose, &mut world.core)?;
                world.radius = radius;
                Ok(Aabb {
                    min: aabb.min - Vec2::splat(world.radius),
                    max: aabb.max + Vec2::splat(world.radius),
                })
            }
            (Shape::Rounded(local), out) => {
                *out = Shape::Rounded(local.transformed(pose)?);
                Ok(out.aabb())
            }
            (Shape::Large(local), out) => local.transform_into(pose, out),
            (Shape::Compound(local), out) => local.transform_into(pose, out),
        }
    }
}
