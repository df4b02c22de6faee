//! [`Hit::point`]: where a sweep's shapes touch at the time of impact.
//!
//! Computed on demand rather than by every [`sweep`](crate::sweep): the physics step sweeps
//! many pairs and needs only the time and the normal, and finding the touching features is a
//! second pass over both shapes that it would pay for nothing.

use glam::Vec2;

use super::collide::{collide_within, overlap_on_normal};
use super::contact::{Contact, Hit};
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
        if super::compound::is_compound(a, b) {
            return super::compound::hit_point(self, a, b, motion);
        }
        if self.toi <= 0.0
            && let Some(contact) = start_contact(self, a, b)
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

/// The static contact of shapes that overlap or touch at the start, as
/// [`collide_within`] finds it with any gap counted as touching. Two polygons overlapping
/// by `hit.depth > 0` are clipped on the axis the sweep's normal names, which
/// [`sweep`](crate::sweep) took from that same test: the axes need not be weighed again.
fn start_contact(hit: &Hit, a: ShapeRef<'_>, b: ShapeRef<'_>) -> Option<Contact> {
    if let (ShapeRef::Polygon(pa), ShapeRef::Polygon(pb)) = (a, b)
        && hit.depth > 0.0
        && let Some(found) = overlap_on_normal(pa, pb, hit.normal, hit.depth)
    {
        return Some(found.contact(pa, pb));
    }
    collide_within(&a, &b, f32::INFINITY)
}

/// How close to parallel a face must be to the hit's normal (the sine of the angle between
/// their normals) to touch as a face rather than at a corner: 1e-5 rad, so that a face counts
/// up to the round-off of a rotated normal, while a point placed on the other shape's face is
/// off by at most 1e-5 of the face's length.
const PARALLEL: f32 = 1.0e-5;

/// The point where A, moved by `shift`, touches B, given the hit's `normal` (from A to B, the
/// axis entered last), from the touching feature of each (a corner, a face, a circle's point):
/// a single point of either is the point; for two faces, the middle of their common part,
/// placed on B's face.
fn impact_point(a: ShapeRef<'_>, b: ShapeRef<'_>, shift: Vec2, normal: Vec2) -> Vec2 {
    let (b_start, b_end) = touching_feature(b, -normal);
    if b_start == b_end {
        return b_start; // B's corner (or a circle's point) touches A
    }
    let (a_start, a_end) = touching_feature(a, normal);
    if a_start == a_end {
        return a_start + shift; // A's corner touches B's face
    }
    let tangent = normal.perp();
    let (a_low, a_high) = ordered((a_start + shift).dot(tangent), (a_end + shift).dot(tangent));
    let (b_from, b_to) = (b_start.dot(tangent), b_end.dot(tangent));
    let (b_low, b_high) = ordered(b_from, b_to);
    // The middle of the common part; when round-off leaves a corner a hair beyond a face's
    // end, the middle of that gap.
    let along = 0.5 * (a_low.max(b_low) + a_high.min(b_high));
    let fraction = ((along - b_from) / (b_to - b_from)).clamp(0.0, 1.0);
    // A face whose ends project within round-off of each other counts as its start.
    b_start.lerp(b_end, if fraction.is_finite() { fraction } else { 0.0 })
}

/// `(x, y)` in increasing order.
fn ordered(x: f32, y: f32) -> (f32, f32) {
    if x <= y { (x, y) } else { (y, x) }
}

/// The part of a shape farthest along the unit `direction`: a face (its two ends) when one
/// faces that way, else a single point (returned twice).
fn touching_feature(shape: ShapeRef<'_>, direction: Vec2) -> (Vec2, Vec2) {
    match shape {
        ShapeRef::Polygon(p) => {
            let (k, corner) = p.support(direction);
            let n = p.inline_vertices().len();
            let before = (k + n - 1) % n;
            let faces = |normal: Vec2| {
                normal.dot(direction) > 0.0 && normal.perp_dot(direction).abs() <= PARALLEL
            };
            if faces(p.normals[k]) {
                (corner, p.vertices[(k + 1) % n])
            } else if faces(p.normals[before]) {
                (p.vertices[before], corner)
            } else {
                (corner, corner)
            }
        }
        ShapeRef::Circle(c) => {
            let point = c.center + direction * c.radius;
            (point, point)
        }
        rounded => {
            // The core's feature, pushed out by the radius.
            let (core, radius) = super::distance::core_of(rounded);
            let direction = direction.as_dvec2();
            let (start, end) = super::rounded::farthest_feature(&core, direction);
            let push = direction * radius;
            ((start + push).as_vec2(), (end + push).as_vec2())
        }
    }
}
