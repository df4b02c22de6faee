//! [`exit_distance`]: how far a shape must move along a given direction to leave another.

use glam::Vec2;

use super::sweep::sweep;
use crate::shape::AsShape;

/// How far A must move along the unit vector `direction` for A and B (in the same frame) to stop
/// overlapping: afterwards they touch. `None` when they do not overlap (touching counts as
/// not overlapping here: the distance would be 0) or `direction` is not a finite non-zero
/// vector.
///
/// Unlike the minimum translation vector of [`collide`](crate::collide), the direction is
/// chosen by the caller: a platformer pushes a body standing on a slope straight up (so that it
/// does not slide down), and out of a one-way platform only through its open side. Exact for
/// every pair of shapes: it sweeps A back in from beyond B.
///
/// ```
/// # use sat_core::{exit_distance, ConvexPolygon, Pose}; use glam::Vec2;
/// // A 45° ramp, and a unit box sunk 0.5 into it (its bottom corners at y = 0.5 and on x = 1).
/// let ramp = ConvexPolygon::new([Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0)]).unwrap();
/// let bx = ConvexPolygon::rectangle(1.0, 1.0)
///     .transformed(&Pose::from_translation(Vec2::new(1.5, 1.0)))
///     .unwrap();
/// // Straight up it must rise until its bottom-right corner (2, 0.5) is on the ramp (y = x).
/// let up = exit_distance(&bx, &ramp, Vec2::Y).unwrap();
/// assert!((up - 1.5).abs() < 1e-5);
/// ```
pub fn exit_distance<A: AsShape + ?Sized, B: AsShape + ?Sized>(
    a: &A,
    b: &B,
    direction: Vec2,
) -> Option<f32> {
    let direction = direction.try_normalize()?;
    let (a, b) = (a.as_shape(), b.as_shape());
    let (box_a, box_b) = (a.aabb(), b.aabb());
    // Far enough along `direction` to clear B entirely, whatever the overlap.
    let reach = (box_a.size() + box_b.size()).length() + 1.0;
    if !reach.is_finite() {
        return None;
    }
    let touching = sweep(&a, &b, Vec2::ZERO)?;
    if touching.depth <= 0.0 {
        return None;
    }
    let mut outside = a.to_shape();
    outside.translate(direction * reach);
    let back = sweep(&outside, &b, -direction * reach)?;
    Some(reach * (1.0 - back.toi))
}
