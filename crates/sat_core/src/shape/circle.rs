//! [`Circle`]: a validated circle.

use core::fmt;

use glam::Vec2;

use super::polygon::MAX_COORDINATE;

/// Why a centre and radius are not a valid [`Circle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CircleError {
    /// The centre or the radius is NaN or infinite.
    NonFinite,
    /// The centre or the radius exceeds [`MAX_COORDINATE`] in magnitude.
    OutOfRange,
    /// The radius is zero or negative.
    NonPositiveRadius,
}

impl fmt::Display for CircleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NonFinite => "the circle's centre or radius is NaN or infinite",
            Self::OutOfRange => "the circle's centre or radius is too large",
            Self::NonPositiveRadius => "the circle's radius is not positive",
        })
    }
}

impl std::error::Error for CircleError {}

/// A circle, validated at construction: finite centre, positive finite radius.
///
/// ```
/// # use sat_core::{Circle, CircleError}; use glam::Vec2;
/// let c = Circle::new(Vec2::new(1.0, 2.0), 0.5)?;
/// assert_eq!(c.radius(), 0.5);
/// assert_eq!(Circle::new(Vec2::ZERO, 0.0), Err(CircleError::NonPositiveRadius));
/// # Ok::<(), CircleError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Circle {
    pub(crate) center: Vec2,
    pub(crate) radius: f32,
}

impl Circle {
    /// A circle around `center`.
    ///
    /// # Errors
    /// [`CircleError`] for a non-finite or out-of-range value or a radius that is not positive.
    pub fn new(center: Vec2, radius: f32) -> Result<Self, CircleError> {
        if !center.is_finite() || !radius.is_finite() {
            return Err(CircleError::NonFinite);
        }
        if center.abs().max_element() > MAX_COORDINATE || radius > MAX_COORDINATE {
            return Err(CircleError::OutOfRange);
        }
        if radius <= 0.0 {
            return Err(CircleError::NonPositiveRadius);
        }
        Ok(Self { center, radius })
    }

    /// The centre.
    pub fn center(&self) -> Vec2 {
        self.center
    }

    /// The radius (always positive).
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The lowest and highest projection of the disc on a unit `axis`.
    #[inline]
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        let c = self.center.dot(axis);
        (c - self.radius, c + self.radius)
    }
}
