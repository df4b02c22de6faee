//! [`overlap`]: the boolean SAT test, with an early exit at the first separating axis.

use crate::shape::{AsShape, Circle, ConvexPolygon, ShapeRef};

/// Whether two shapes (in the same frame) overlap or touch.
///
/// Stops at the first separating axis and normalises nothing: the cheapest test, for triggers
/// and culling. Agrees with [`collide`](crate::collide) returning `Some`.
///
/// ```
/// # use sat_core::{overlap, ConvexPolygon, Pose}; use glam::Vec2;
/// let a = ConvexPolygon::rectangle(2.0, 2.0);
/// let b = a.transformed(&Pose::from_translation(Vec2::new(2.0, 0.0))).unwrap();
/// let c = a.transformed(&Pose::from_translation(Vec2::new(2.5, 0.0))).unwrap();
/// assert!(overlap(&a, &b)); // touching counts
/// assert!(!overlap(&a, &c));
/// ```
pub fn overlap<A: AsShape + ?Sized, B: AsShape + ?Sized>(a: &A, b: &B) -> bool {
    match (a.as_shape(), b.as_shape()) {
        (ShapeRef::Polygon(a), ShapeRef::Polygon(b)) => overlap_polygon_polygon(a, b),
        (ShapeRef::Polygon(p), ShapeRef::Circle(c))
        | (ShapeRef::Circle(c), ShapeRef::Polygon(p)) => overlap_polygon_circle(p, c),
        (ShapeRef::Circle(a), ShapeRef::Circle(b)) => crate::query::collide::within(
            b.center - a.center,
            f64::from(a.radius) + f64::from(b.radius),
        ),
        (a @ ShapeRef::Compound(_), b) | (a, b @ ShapeRef::Compound(_)) => {
            super::compound::overlap(a, b)
        }
        (a, b) => super::large_contact::polygons_contact(a, b, 0.0)
            .unwrap_or_else(|| super::rounded::rounded_contact(a, b, 0.0))
            .is_some(),
    }
}

/// Whether two polygons overlap or touch: the same axes and arithmetic as
/// [`collide`](crate::collide), so that the two always agree.
fn overlap_polygon_polygon(a: &ConvexPolygon, b: &ConvexPolygon) -> bool {
    crate::query::collide::least_overlap_inline(a, b, 0.0).is_some()
}

/// Whether a polygon and a circle overlap or touch.
fn overlap_polygon_circle(p: &ConvexPolygon, c: &Circle) -> bool {
    crate::query::collide::polygon_circle_feature(p, c, 0.0).is_some()
}
