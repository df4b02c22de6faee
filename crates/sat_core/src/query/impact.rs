//! [`Hit::point`]: where a sweep's shapes touch at the time of impact.
//!
//! Computed on demand rather than by every [`sweep`](crate::sweep): the physics step sweeps
//! many pairs and needs only the time and the normal, and finding the touching features
//! costs about as much again as the sweep itself for a pair of boxes.

use glam::Vec2;

use super::collide::collide_within;
use super::contact::Hit;
use crate::shape::{AsShape, ShapeRef};

impl Hit {
    /// Where A first touches B, for the hit that [`sweep`](crate::sweep) returned for these
    /// shapes and `motion`: on B's boundary at the time of impact, where A (moved by
    /// `motion * toi`) meets it; for a face meeting a face, the middle of the part they share.
    /// At `toi == 0` (the shapes overlap or touch at the start), the middle of the static
    /// contact's points ([`collide`](crate::collide)). A non-finite `motion` counts as none.
    ///
    /// ```
    /// # use sat_core::{sweep, ConvexPolygon, Pose}; use glam::Vec2;
    /// let floor = ConvexPolygon::rectangle(10.0, 2.0); // top at y = 1
    /// let place = |x: f32, y: f32| Pose::from_translation(Vec2::new(x, y));
    /// // A box (bottom at y = 4, from x = 2 to 3) falling 6 units lands flat on the floor.
    /// let bx = ConvexPolygon::rectangle(1.0, 1.0).transformed(&place(2.5, 4.5)).unwrap();
    /// let motion = Vec2::new(0.0, -6.0);
    /// let hit = sweep(&bx, &floor, motion).unwrap();
    /// assert_eq!(hit.toi, 0.5);
    /// assert_eq!(hit.point(&bx, &floor, motion), Vec2::new(2.5, 1.0)); // the middle of its bottom
    /// // A diamond lands on its lowest corner.
    /// let diamond = ConvexPolygon::regular(4, 1.0).transformed(&place(-3.0, 5.0)).unwrap();
    /// let hit = sweep(&diamond, &floor, motion).unwrap();
    /// assert_eq!(hit.point(&diamond, &floor, motion), Vec2::new(-3.0, 1.0));
    /// ```
    pub fn point<A: AsShape + ?Sized, B: AsShape + ?Sized>(
        &self,
        a: &A,
        b: &B,
        motion: Vec2,
    ) -> Vec2 {
        let (a, b) = (a.as_shape(), b.as_shape());
        if self.toi <= 0.0
            && let Some(contact) = collide_within(&a, &b, f32::INFINITY)
        {
            let points = contact.points();
            return points.iter().copied().sum::<Vec2>() / points.len() as f32;
        }
        let motion = if motion.is_finite() {
            motion
        } else {
            Vec2::ZERO
        };
        impact_point(a, b, motion * self.toi, self.normal)
    }
}

/// How close to parallel (the cosine between their normals) a face of each shape must be for
/// the two to touch face to face rather than corner to face: about 0.08°.
const PARALLEL: f32 = 1.0 - 1.0e-6;

/// The point where A, moved by `motion * toi`, touches B, given the hit's `normal` (from A to
/// B, the axis entered last): on B's boundary facing A, in the middle of the interval where
/// the touching features (a corner, a face, a circle's point) of both shapes meet along the
/// face.
fn impact_point(a: ShapeRef<'_>, b: ShapeRef<'_>, shift: Vec2, normal: Vec2) -> Vec2 {
    let tangent = normal.perp();
    let (a_start, a_end) = touching_feature(a, normal);
    let (b_start, b_end) = touching_feature(b, -normal);
    let span = |p: Vec2, q: Vec2| {
        let (s, e) = (p.dot(tangent), q.dot(tangent));
        if s <= e { (s, e) } else { (e, s) }
    };
    let (a_low, a_high) = span(a_start + shift, a_end + shift);
    let (b_low, b_high) = span(b_start, b_end);
    // The middle of the common part; when round-off leaves a corner a hair beyond a face's
    // end, the middle of that gap.
    let along = 0.5 * (a_low.max(b_low) + a_high.min(b_high));
    // B's surface where it faces A.
    let level = b_start.dot(normal).min(b_end.dot(normal));
    tangent * along + normal * level
}

/// The part of a shape farthest along the unit `direction`: a face (its two ends) when one
/// faces that way, else a single point (returned twice).
fn touching_feature(shape: ShapeRef<'_>, direction: Vec2) -> (Vec2, Vec2) {
    match shape {
        ShapeRef::Polygon(p) => {
            let (k, corner) = p.support(direction);
            let n = p.vertices().len();
            let before = (k + n - 1) % n;
            if p.normals[k].dot(direction) >= PARALLEL {
                (corner, p.vertices[(k + 1) % n])
            } else if p.normals[before].dot(direction) >= PARALLEL {
                (p.vertices[before], corner)
            } else {
                (corner, corner)
            }
        }
        ShapeRef::Circle(c) => {
            let point = c.center + direction * c.radius;
            (point, point)
        }
    }
}
