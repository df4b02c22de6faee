//! The [`ConvexCollider`] shorthands for rounded shapes and segments: [`ConvexCollider::capsule`],
//! [`ConvexCollider::round_rectangle`] and [`ConvexCollider::segment`]. Like
//! [`ConvexCollider::rectangle`], they never fail: bad numbers are replaced as each documents.

use bevy::prelude::*;
use sat_core::{Capsule, ConvexPolygon, MAX_COORDINATE, MIN_SIZE, RoundedPolygon, Shape};

use crate::components::ConvexCollider;

/// The largest radius or length a shorthand keeps: a quarter of [`MAX_COORDINATE`], so that a
/// capsule's length plus both radii stays in range.
const LARGEST: f32 = MAX_COORDINATE * 0.25;

/// A size as the shorthands take it: a positive finite number up to [`LARGEST`]; anything else
/// (zero, negative, NaN, infinite) is [`MIN_SIZE`].
fn positive_or_min(size: f32) -> f32 {
    if size.is_finite() && size > 0.0 {
        size.clamp(MIN_SIZE, LARGEST)
    } else {
        MIN_SIZE
    }
}

impl ConvexCollider {
    /// A capsule centred on the entity: a segment of `length` along local y swept by a circle
    /// of `radius`, so `length + 2 * radius` tall and `2 * radius` wide (as avian's
    /// `Collider::capsule`). A radius or length that is not a positive finite number is
    /// replaced by [`MIN_SIZE`], and each is kept within `MIN_SIZE..=MAX_COORDINATE / 4` (use
    /// [`Capsule::vertical`] and `ConvexCollider::from` to have such input refused).
    ///
    /// ```
    /// # use bevy_sat::prelude::*; use bevy::prelude::*;
    /// let player = ConvexCollider::capsule(8.0, 16.0);
    /// let aabb = player.shape().aabb();
    /// assert_eq!((aabb.min, aabb.max), (Vec2::new(-8.0, -16.0), Vec2::new(8.0, 16.0)));
    /// ```
    pub fn capsule(radius: f32, length: f32) -> Self {
        let capsule = Capsule::vertical(positive_or_min(radius), positive_or_min(length));
        match capsule {
            Ok(capsule) => Self::from(Shape::from(capsule)),
            Err(_) => Self::circle(radius),
        }
    }

    /// A `width × height` rectangle centred on the entity (its outer size) with its corners
    /// rounded by `radius`. Sizes are sanitized as by [`ConvexPolygon::rectangle`]; a radius
    /// that is not a positive finite number gives the plain rectangle, and one too large for
    /// the size is reduced to leave a core of at least [`MIN_SIZE`] and a thousandth of the
    /// smaller side (use
    /// [`RoundedPolygon::round_rectangle`] and `ConvexCollider::from` to have it refused).
    ///
    /// ```
    /// # use bevy_sat::prelude::*; use bevy::prelude::*;
    /// let crate_box = ConvexCollider::round_rectangle(16.0, 12.0, 2.0);
    /// let aabb = crate_box.shape().aabb();
    /// assert_eq!((aabb.min, aabb.max), (Vec2::new(-8.0, -6.0), Vec2::new(8.0, 6.0)));
    /// ```
    pub fn round_rectangle(width: f32, height: f32, radius: f32) -> Self {
        let plain = ConvexPolygon::rectangle(width, height);
        let outer = plain.vertices()[2] * 2.0; // the sanitized size
        if !(radius.is_finite() && radius > 0.0) {
            return Self::from(plain);
        }
        // The largest radius that leaves a core of MIN_SIZE and of a thousandth of the smaller
        // side, which f32 resolves whatever the size.
        let side = outer.min_element();
        let radius = radius.min(side * 0.5 - (side * 1.0e-3).max(MIN_SIZE));
        match RoundedPolygon::round_rectangle(outer.x, outer.y, radius) {
            Ok(rounded) => Self::from(Shape::from(rounded)),
            Err(_) => Self::from(plain),
        }
    }

    /// The bare segment from `a` to `b` in local space (no thickness): for scenery such as a
    /// thin floor. A non-finite coordinate is replaced by 0 and one beyond [`MAX_COORDINATE`]
    /// clamped to it; ends that coincide are pulled apart along x by [`MIN_SIZE`] (use
    /// [`Capsule::segment`] and `ConvexCollider::from` to have such input refused).
    ///
    /// ```
    /// # use bevy_sat::prelude::*; use bevy::prelude::*;
    /// let ledge = ConvexCollider::segment(Vec2::new(-32.0, 0.0), Vec2::new(32.0, 0.0));
    /// assert_eq!(ledge.shape().aabb().max, Vec2::new(32.0, 0.0));
    /// ```
    pub fn segment(a: Vec2, b: Vec2) -> Self {
        let clean = |p: Vec2| {
            Vec2::select(p.is_finite_mask(), p, Vec2::ZERO)
                .clamp(Vec2::splat(-MAX_COORDINATE), Vec2::splat(MAX_COORDINATE))
        };
        let (a, b) = (clean(a), clean(b));
        let segment = Capsule::segment(a, b)
            .or_else(|_| Capsule::segment(a, a + Vec2::new(MIN_SIZE, 0.0)))
            .or_else(|_| Capsule::segment(a, a - Vec2::new(MIN_SIZE, 0.0)))
            .or_else(|_| Capsule::segment(Vec2::ZERO, Vec2::new(MIN_SIZE, 0.0)));
        match segment {
            Ok(segment) => Self::from(Shape::from(segment)),
            Err(_) => Self::rectangle(MIN_SIZE, MIN_SIZE),
        }
    }
}

impl From<Capsule> for ConvexCollider {
    fn from(capsule: Capsule) -> Self {
        Self::from(Shape::from(capsule))
    }
}

impl From<RoundedPolygon> for ConvexCollider {
    fn from(rounded: RoundedPolygon) -> Self {
        Self::from(Shape::from(rounded))
    }
}
