//! [`measure_axes`] and [`least_overlap_after`]: the separating-axis test of a polygon pair,
//! measured once and answered again, without the vertices, after the two have translated.
//!
//! Translation changes neither polygon's edge normals, and moves each projection on an axis by
//! the dot product of the translation with it. A solver that pushes the same pairs apart
//! several times per step can measure each pair once and then find its least-overlap axis in a
//! dot product per axis.

use glam::{BVec4A, Vec2, Vec4};

use super::axes_large::{each_axis_large, either_large};
use super::collide::{AxisOverlap, Least, each_axis};
use crate::shape::ConvexPolygon;

/// Up to four separating axes of a polygon pair side by side, each with how far A had to move
/// to leave B along it when it was measured ([`measure_axes`]). Laid out four to a vector, so
/// that [`least_overlap_after`] weighs four axes in a few vector operations, with no branch per
/// axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredAxes {
    x: Vec4,
    y: Vec4,
    /// How far A had to move along `-axis` to leave B (infinite in an unused lane).
    out_negative: Vec4,
    /// How far A had to move along `+axis` to leave B (infinite in an unused lane).
    out_positive: Vec4,
    /// Per lane, the index of the edge normal in its polygon, and whether it is A's.
    edge: [u8; 4],
    on_a: [bool; 4],
}

impl MeasuredAxes {
    /// No axis: every lane unused (its exits infinite, so it neither separates nor wins).
    const EMPTY: Self = Self {
        x: Vec4::ZERO,
        y: Vec4::ZERO,
        out_negative: Vec4::INFINITY,
        out_positive: Vec4::INFINITY,
        edge: [0; 4],
        on_a: [false; 4],
    };

    fn set(
        &mut self,
        lane: usize,
        axis: Vec2,
        (out_negative, out_positive): (f32, f32),
        edge: u8,
        on_a: bool,
    ) {
        self.x[lane] = axis.x;
        self.y[lane] = axis.y;
        self.out_negative[lane] = out_negative;
        self.out_positive[lane] = out_positive;
        self.edge[lane] = edge;
        self.on_a[lane] = on_a;
    }
}

/// Appends to `out` the separating axes of `a` and `b` where they are now (the unique edge
/// normals of both, in the order [`collide`](crate::collide) weighs them), each with the
/// overlap of the two on it, four to a [`MeasuredAxes`]. Returns how many groups it appended
/// (at most `2 * MAX_VERTICES / 4` for polygons held inline; a large polygon adds a group per
/// four of its unique axes).
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
/// assert_eq!(measure_axes(&floor, &crate_, &mut axes), 1); // two boxes: x and y, one group
///
/// let now = least_overlap_after(&axes, Vec2::ZERO, 0.0).unwrap();
/// assert_eq!((now.normal, now.depth), (Vec2::Y, 0.5));
/// // The crate lifted by 0.25: half as deep.
/// let lifted = least_overlap_after(&axes, Vec2::new(0.0, 0.25), 0.0).unwrap();
/// assert_eq!(lifted.depth, 0.25);
/// // Lifted by 1: apart.
/// assert!(least_overlap_after(&axes, Vec2::new(0.0, 1.0), 0.0).is_none());
/// ```
pub fn measure_axes(a: &ConvexPolygon, b: &ConvexPolygon, out: &mut Vec<MeasuredAxes>) -> usize {
    let before = out.len();
    let mut lane = 4;
    let mut keep = |(axis, edge), exits, on_a| {
        if lane == 4 {
            out.push(MeasuredAxes::EMPTY);
            lane = 0;
        }
        if let Some(group) = out.last_mut() {
            group.set(lane, axis, exits, edge, on_a);
        }
        lane += 1;
        true
    };
    if either_large(a, b) {
        each_axis_large(a, b, &mut keep);
    } else {
        each_axis(a, b, &mut keep);
    }
    out.len() - before
}

/// The axis of least overlap between the polygons `axes` were measured for, once B has moved
/// by `offset` relative to A since then (B's translation minus A's), or `None` when an axis
/// separates them by more than `margin`.
///
/// With a zero offset it is exactly what [`collide_within`](crate::collide_within) finds for
/// the measured pair; after a translation it agrees with it up to round-off (it is computed
/// from the offset, not from moved vertices). [`AxisOverlap::contact`] adds the contact points.
///
/// Every axis is weighed, four at a time, and the answer is picked at the end: the least
/// overlap, and of equal ones the axis measured first, as [`least_overlap`](crate::least_overlap)
/// keeps it.
pub fn least_overlap_after(
    axes: &[MeasuredAxes],
    offset: Vec2,
    margin: f32,
) -> Option<AxisOverlap> {
    let margin = if margin > 0.0 { margin } else { 0.0 };
    let (dx, dy) = (Vec4::splat(offset.x), Vec4::splat(offset.y));
    let limit = Vec4::splat(-margin);
    let mut separated = BVec4A::splat(false);
    // Per lane, the least overlap so far and its order: twice the axis's index, plus one when
    // the way out is along the axis (exact in an f32 for any index there can be).
    let (mut depth, mut order) = (Vec4::INFINITY, Vec4::ZERO);
    let mut index = Vec4::new(0.0, 2.0, 4.0, 6.0);
    for group in axes {
        // `dx * x + dy * y`: what `offset.dot(axis)` computes, operation for operation.
        let along = dx * group.x + dy * group.y;
        let (out_negative, out_positive) = (group.out_negative - along, group.out_positive + along);
        separated |= out_negative.cmplt(limit) | out_positive.cmplt(limit);
        let along_edge = out_negative.cmple(out_positive);
        let here = Vec4::select(along_edge, out_negative, out_positive);
        let better = here.cmplt(depth);
        depth = Vec4::select(better, here, depth);
        order = Vec4::select(
            better,
            index + Vec4::select(along_edge, Vec4::ONE, Vec4::ZERO),
            order,
        );
        index += Vec4::splat(8.0);
    }
    if separated.any() {
        return None;
    }
    // The least of the lanes; of equal ones, the first measured.
    let lane = (1..4).fold(0, |best, lane| {
        let (d, o) = (depth[lane], order[lane]);
        if d < depth[best] || (d == depth[best] && o < order[best]) {
            lane
        } else {
            best
        }
    });
    if !depth[lane].is_finite() {
        return None; // no axes (nothing measured): no contact rather than an infinite overlap
    }
    let order = order[lane] as usize;
    let (group, slot) = (&axes[order / 8], order / 2 % 4);
    let axis = Vec2::new(group.x[slot], group.y[slot]);
    Some(
        Least::of(
            depth[lane],
            group.edge[slot],
            group.on_a[slot],
            order % 2 == 1,
        )
        .overlap(axis),
    )
}

impl AxisOverlap {
    /// Whether this axis alone still separates the polygons by more than `margin` once B has
    /// moved by `offset` relative to A (B's translation minus A's). Meant for an axis
    /// [`least_overlap`](crate::least_overlap) found with a negative depth (a gap): the
    /// overlap on it is computed operation for operation as [`least_overlap_after`] computes
    /// it on the same axis, so when this says apart, `least_overlap_after` on the pair's
    /// [`measure_axes`] says `None`, and the pair need not be measured at all. (`false` does not
    /// mean they touch: another axis may still separate them.)
    ///
    /// ```
    /// # use sat_core::{least_overlap, ConvexPolygon, Pose}; use glam::Vec2;
    /// let a = ConvexPolygon::rectangle(2.0, 2.0);
    /// let b = a.transformed(&Pose::from_translation(Vec2::new(2.5, 0.0))).unwrap();
    /// let gap = least_overlap(&a, &b, 1.0).unwrap(); // 0.5 apart along x
    /// assert_eq!(gap.depth, -0.5);
    /// assert!(gap.separates_after(Vec2::new(-0.25, 3.0), 0.0)); // still 0.25 apart
    /// assert!(!gap.separates_after(Vec2::new(-0.5, 0.0), 0.0)); // touching
    /// ```
    pub fn separates_after(&self, offset: Vec2, margin: f32) -> bool {
        let margin = if margin > 0.0 { margin } else { 0.0 };
        // The edge normal itself, as measured, and the exit the depth is: along it or against.
        let axis = if self.along_edge {
            self.normal
        } else {
            -self.normal
        };
        let along = offset.dot(axis);
        let out = if self.along_edge {
            self.depth - along
        } else {
            self.depth + along
        };
        out < -margin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups of axes from `(out_negative, out_positive)` per axis, all A's, edge = index.
    fn groups(exits: &[(f32, f32)]) -> Vec<MeasuredAxes> {
        let mut out = Vec::new();
        for (i, &exit) in exits.iter().enumerate() {
            if i % 4 == 0 {
                out.push(MeasuredAxes::EMPTY);
            }
            let axis = Vec2::from_angle(i as f32);
            out[i / 4].set(i % 4, axis, exit, i as u8, true);
        }
        out
    }

    /// The rule one axis at a time, as `least_overlap` applies it.
    fn one_by_one(exits: &[(f32, f32)], margin: f32) -> Option<(u8, f32, bool)> {
        let mut least = Least::NONE;
        for (i, &exit) in exits.iter().enumerate() {
            least.weigh(exit, i as u8, true, margin)?;
        }
        let o = least.overlap(Vec2::X);
        Some((o.edge, o.depth, o.along_edge))
    }

    fn grouped(exits: &[(f32, f32)], margin: f32) -> Option<(u8, f32, bool)> {
        let axes = groups(exits);
        least_overlap_after(&axes, Vec2::ZERO, margin).map(|o| {
            let axis = Vec2::from_angle(f32::from(o.edge));
            assert_eq!(o.normal, if o.along_edge { axis } else { -axis });
            (o.edge, o.depth, o.along_edge)
        })
    }

    /// Of equal overlaps the first axis wins, in whichever lane and group the ties are: a later
    /// group's lane 1 does not beat an earlier group's lane 2.
    #[test]
    fn ties_keep_the_first_axis_across_lanes_and_groups() {
        let cases: [&[(f32, f32)]; 5] = [
            &[
                (9.0, 9.0),
                (9.0, 9.0),
                (1.0, 3.0),
                (9.0, 9.0),
                (9.0, 9.0),
                (3.0, 1.0),
            ],
            &[(3.0, 5.0), (2.0, 9.0), (4.0, 4.0), (7.0, 2.0), (2.0, 2.0)],
            &[
                (5.0, 5.0),
                (5.0, 5.0),
                (5.0, 5.0),
                (5.0, 5.0),
                (5.0, 5.0),
                (5.0, 5.0),
                (5.0, 5.0),
            ],
            &[(0.0, -0.0), (-0.0, 0.0), (4.0, 4.0)],
            &[(6.0, 2.0); 16],
        ];
        for exits in cases {
            assert_eq!(grouped(exits, 0.0), one_by_one(exits, 0.0), "{exits:?}");
            assert!(grouped(exits, 0.0).is_some());
        }
    }

    /// One separating axis anywhere, in any lane, gives no contact; within the margin, it does.
    #[test]
    fn any_separating_axis_separates() {
        for at in 0..9 {
            let mut exits = vec![(3.0, 4.0); 9];
            exits[at] = if at % 2 == 0 {
                (-0.5, 7.0)
            } else {
                (7.0, -0.5)
            };
            assert_eq!(grouped(&exits, 0.0), None, "separated at {at}");
            assert_eq!(
                grouped(&exits, 0.5),
                one_by_one(&exits, 0.5),
                "within the margin at {at}"
            );
            assert_eq!(grouped(&exits, 0.5).map(|f| f.0), Some(at as u8));
        }
        assert_eq!(grouped(&[], 0.0), None, "no axes, no contact");
    }
}
