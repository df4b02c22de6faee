//! [`Aabb`]: axis-aligned bounding boxes.

use glam::Vec2;

/// An axis-aligned bounding box. Boxes that touch count as overlapping.
///
/// ```
/// # use sat_core::Aabb; use glam::Vec2;
/// let a = Aabb { min: Vec2::ZERO, max: Vec2::ONE };
/// let b = Aabb { min: Vec2::new(1.0, 0.5), max: Vec2::new(2.0, 2.0) };
/// assert!(a.overlaps(&b));
/// assert_eq!(a.swept(Vec2::new(-1.0, 0.0)).min, Vec2::new(-1.0, 0.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Aabb {
    /// The lower-left corner.
    pub min: Vec2,
    /// The upper-right corner.
    pub max: Vec2,
}

impl Aabb {
    /// Whether the boxes overlap or touch.
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// The smallest box holding both.
    #[inline]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The box covering this one moved along `motion`, from start to end.
    #[inline]
    pub fn swept(&self, motion: Vec2) -> Aabb {
        Aabb {
            min: self.min + motion.min(Vec2::ZERO),
            max: self.max + motion.max(Vec2::ZERO),
        }
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn grown(&self, margin: f32) -> Aabb {
        Aabb {
            min: self.min - Vec2::splat(margin),
            max: self.max + Vec2::splat(margin),
        }
    }

    /// Whether every coordinate is finite and `min <= max`.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.min.is_finite() && self.max.is_finite() && self.min.cmple(self.max).all()
    }

    /// The width and height.
    #[inline]
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }
}
