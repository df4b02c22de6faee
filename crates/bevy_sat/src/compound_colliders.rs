//! The [`ConvexCollider`]s made of several convex parts: [`ConvexCollider::compound`] (parts at
//! offsets and rotations) and [`ConvexCollider::concave`] (any simple outline, split into
//! convex parts whose shared faces are internal: never a push axis).

use bevy::prelude::*;
use sat_core::{Compound, PolygonError, Shape, convex_decomposition};

use crate::components::ConvexCollider;

impl ConvexCollider {
    /// A body made of several shapes, each at an offset and a rotation (radians,
    /// counter-clockwise) in the entity's frame: a crate with a handle, a hammer. It moves as
    /// one and is pushed by the deepest contact over its parts. A part that is itself a
    /// compound is flattened into its parts. Where parts overlap or meet, nothing is hidden:
    /// for an outline whose inner faces must never push, use [`ConvexCollider::concave`].
    ///
    /// ```
    /// # use bevy_sat::prelude::*; use bevy::prelude::*;
    /// let crate_with_handle = ConvexCollider::compound([
    ///     (Vec2::ZERO, 0.0, ConvexCollider::rectangle(32.0, 32.0)),
    ///     (Vec2::new(0.0, 20.0), 0.0, ConvexCollider::rectangle(12.0, 8.0)),
    /// ]).expect("two valid parts");
    /// assert_eq!(crate_with_handle.shape().aabb().max, Vec2::new(16.0, 24.0));
    /// assert!(ConvexCollider::compound([]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`PolygonError::NoParts`] for no parts, [`PolygonError::PartOutOfRange`] for a part
    /// with a non-finite offset or rotation, or out of range once placed.
    pub fn compound(
        parts: impl IntoIterator<Item = (Vec2, f32, ConvexCollider)>,
    ) -> Result<Self, PolygonError> {
        let parts = parts
            .into_iter()
            .map(|(offset, rotation, collider)| (offset, rotation, collider.shape().clone(), 0));
        Compound::new(parts).map(|c| Self::from(Shape::from(c)))
    }

    /// Any simple polygon (no crossing edges), in either winding, split into few convex parts
    /// (see [`convex_decomposition`]): an L-shaped wall, a hand-drawn rock. The faces where two
    /// parts meet are internal: never a push axis, so a body slides along the inside of the
    /// outline and rests in its inner corners without a bump.
    ///
    /// ```
    /// # use bevy_sat::prelude::*; use bevy::prelude::*;
    /// let l_wall = ConvexCollider::concave([
    ///     Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0), Vec2::new(100.0, 10.0),
    ///     Vec2::new(10.0, 10.0), Vec2::new(10.0, 50.0), Vec2::new(0.0, 50.0),
    /// ]).expect("a simple outline");
    /// assert_eq!(l_wall.shape().aabb().max, Vec2::new(100.0, 50.0));
    /// let crossed = ConvexCollider::concave([
    ///     Vec2::ZERO, Vec2::new(10.0, 10.0), Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0),
    /// ]);
    /// assert!(crossed.is_err()); // a figure eight: its edges cross
    /// ```
    ///
    /// # Errors
    /// The [`PolygonError`] of [`convex_decomposition`]: self-crossing, degenerate or
    /// non-finite outlines each get their own.
    pub fn concave(points: impl IntoIterator<Item = Vec2>) -> Result<Self, PolygonError> {
        let parts = convex_decomposition(points)?;
        Compound::from_parts(parts).map(|c| Self::from(Shape::from(c)))
    }
}

/// How deep below its segments [`ConvexCollider::polyline`] is solid.
pub const POLYLINE_THICKNESS: f32 = 8.0;

impl ConvexCollider {
    /// Terrain drawn as a chain of segments through `points` (a hill, a cave floor), for
    /// static or moving Mighty scenery: solid to a depth of [`POLYLINE_THICKNESS`] on the
    /// right-hand side of each segment (below, for points from left to right). The joints
    /// between segments are internal faces, so a body sliding along the chain passes them
    /// without a bump. Give it a [`OneWayPlatform`](crate::OneWayPlatform) for terrain a body
    /// can jump up through. See [`Compound::polyline`] for another depth.
    ///
    /// ```
    /// # use bevy_sat::prelude::*; use bevy::prelude::*;
    /// let hill = ConvexCollider::polyline([
    ///     Vec2::new(-100.0, 0.0), Vec2::new(-40.0, 30.0), Vec2::new(40.0, 30.0),
    ///     Vec2::new(100.0, 0.0),
    /// ]).expect("a valid chain");
    /// assert_eq!(hill.shape().aabb().max.y, 30.0);
    /// assert!(ConvexCollider::polyline([Vec2::ZERO]).is_err());
    /// ```
    ///
    /// # Errors
    /// The [`PolygonError`] of [`Compound::polyline`]: fewer than 2 points, a non-finite or
    /// repeated point, a joint turning back too sharply.
    pub fn polyline(points: impl IntoIterator<Item = Vec2>) -> Result<Self, PolygonError> {
        Compound::polyline(points, POLYLINE_THICKNESS).map(|c| Self::from(Shape::from(c)))
    }
}
