//! [`measure_axes`] and [`least_overlap_after`]: the separating-axis test of a polygon pair,
//! measured once and answered again, without the vertices, after the two have translated.
//!
//! Translation changes neither polygon's edge normals, and moves each projection on an axis by
//! the dot product of the translation with it. A solver that pushes the same pairs apart
//! several times per step can measure each pair once and then find its least-overlap axis in a
//! dot product per axis.

use glam::Vec2;

use super::collide::{AxisOverlap, Least, each_axis};
use crate::shape::ConvexPolygon;

/// One separating axis of a polygon pair, and how far A had to move to leave B along it when
/// it was measured ([`measure_axes`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredAxis {
    axis: Vec2,
    /// How far A had to move along `-axis` to leave B.
    out_negative: f32,
    /// How far A had to move along `+axis` to leave B.
    out_positive: f32,
    /// The index of the edge normal in its polygon.
    edge: u8,
    /// Whether the axis is an edge normal of A (else of B).
    on_a: bool,
}

/// Appends to `out` the separating axes of `a` and `b` where they are now (the unique edge
/// normals of both, in the order [`collide`](crate::collide) weighs them), each with the
/// overlap of the two on it. Returns how many it appended (at most `2 * MAX_VERTICES`).
///
/// [`least_overlap_after`] then answers for the two polygons moved by any translations.
///
/// ```
/// # use sat_core::{least_overlap_after, measure_axes, ConvexPolygon, Pose}; use glam::Vec2;
/// let floor = ConvexPolygon::rectangle(10.0, 2.0); // top at y = 1
/// let crate_ = ConvexPolygon::rectangle(2.0, 2.0)
///     .transformed(&Pose::from_translation(Vec2::new(0.0, 1.5)))
///     .unwrap(); // 0.5 into the floor
/// let mut axes = Vec::new();
/// assert_eq!(measure_axes(&floor, &crate_, &mut axes), 2); // two boxes: x and y
///
/// let now = least_overlap_after(&axes, Vec2::ZERO, 0.0).unwrap();
/// assert_eq!((now.normal, now.depth), (Vec2::Y, 0.5));
/// // The crate lifted by 0.25: half as deep.
/// let lifted = least_overlap_after(&axes, Vec2::new(0.0, 0.25), 0.0).unwrap();
/// assert_eq!(lifted.depth, 0.25);
/// // Lifted by 1: apart.
/// assert!(least_overlap_after(&axes, Vec2::new(0.0, 1.0), 0.0).is_none());
/// ```
pub fn measure_axes(a: &ConvexPolygon, b: &ConvexPolygon, out: &mut Vec<MeasuredAxis>) -> usize {
    let before = out.len();
    each_axis(a, b, |(axis, edge), (out_negative, out_positive), on_a| {
        out.push(MeasuredAxis {
            axis,
            out_negative,
            out_positive,
            edge,
            on_a,
        });
        true
    });
    out.len() - before
}

/// The axis of least overlap between the polygons `axes` were measured for, once B has moved
/// by `offset` relative to A since then (B's translation minus A's), or `None` when an axis
/// separates them by more than `margin`.
///
/// With a zero offset it is exactly what [`collide_within`](crate::collide_within) finds for
/// the measured pair; after a translation it agrees with it up to round-off (it is computed
/// from the offset, not from moved vertices). [`AxisOverlap::contact`] adds the contact points.
pub fn least_overlap_after(
    axes: &[MeasuredAxis],
    offset: Vec2,
    margin: f32,
) -> Option<AxisOverlap> {
    let margin = if margin > 0.0 { margin } else { 0.0 };
    let (mut least, mut axis) = (Least::NONE, Vec2::ZERO);
    for m in axes {
        let along = offset.dot(m.axis);
        let out = (m.out_negative - along, m.out_positive + along);
        let better = least.weigh(out, m.edge, m.on_a, margin)?;
        axis = if better { m.axis } else { axis };
    }
    // No axes (nothing measured) gives no contact rather than an infinite overlap.
    least.found().then(|| least.overlap(axis))
}
