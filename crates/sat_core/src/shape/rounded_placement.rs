//! Placing the rounded shapes in the world with a [`Pose`].

use crate::pose::{Pose, TransformError, in_range};

use super::polygon::MAX_COORDINATE;
use super::rounded::{Capsule, RoundedPolygon};

/// A rounded shape's radius once placed by `pose`: multiplied by the larger absolute scale
/// component, as a circle's is.
pub(crate) fn rounded_radius(radius: f32, pose: &Pose) -> Result<f32, TransformError> {
    pose.check()?;
    let placed = radius * pose.scale.abs().max_element();
    if !placed.is_finite() || placed > MAX_COORDINATE {
        return Err(TransformError::OutOfRange);
    }
    Ok(placed)
}

impl Capsule {
    /// This (local) capsule placed in the world by `pose`.
    ///
    /// Its ends are placed as points; its radius is multiplied by the larger absolute scale
    /// component, as a circle's is.
    ///
    /// # Errors
    /// [`TransformError`] for a non-finite pose, a zero scale, or a result out of range (or
    /// ends merged by round-off).
    pub fn transformed(&self, pose: &Pose) -> Result<Capsule, TransformError> {
        let radius = rounded_radius(self.radius, pose)?;
        let (start, end) = (
            pose.transform_point(self.start),
            pose.transform_point(self.end),
        );
        if !in_range(start)
            || !in_range(end)
            || start == end
            || (self.radius > 0.0 && radius <= 0.0)
        {
            return Err(TransformError::OutOfRange);
        }
        Ok(Capsule { start, end, radius })
    }
}

impl RoundedPolygon {
    /// This (local) rounded polygon placed in the world by `pose`: its core placed as a
    /// polygon is, its radius multiplied by the larger absolute scale component.
    ///
    /// # Errors
    /// As [`ConvexPolygon::transformed`](crate::ConvexPolygon::transformed).
    pub fn transformed(&self, pose: &Pose) -> Result<RoundedPolygon, TransformError> {
        let core = self.core.transformed(pose)?;
        let radius = rounded_radius(self.radius, pose)?;
        if radius <= 0.0 {
            return Err(TransformError::OutOfRange);
        }
        Ok(RoundedPolygon { core, radius })
    }
}
