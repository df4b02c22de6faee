//! The separating-axis search of the rounded pairs for two small cores (neither a large
//! polygon's): [`least_overlap`](super::rounded::least_overlap) in its common case, read in
//! line.

use glam::DVec2;

use super::distance::Core;
use super::rounded::search_axes;

/// [`least_overlap`](super::rounded::least_overlap) of two small cores (neither a large polygon's): the same axes in the same
/// order, each core's every corner read, with the same arithmetic, so the same answer.
///
/// An edge normal exactly opposite an earlier one of the same core (a segment's second side,
/// a box's second pair of faces) is skipped: its projections are the earlier axis's negated
/// exactly, so it gives the same separation along the same signed axis, which never replaces
/// the best (only a strictly larger separation does).
pub(super) fn least_overlap_small(a: &Core, b: &Core) -> (DVec2, f64) {
    let (a_points, b_points) = (a.points(), b.points());
    search_axes(a, b, true, |axis| {
        (extent_small(a_points, axis), extent_small(b_points, axis))
    })
}

/// The lowest and highest projection of a small core's corners on `axis`, every corner read
/// in order (the values `extent` finds: the corners are finite, so a plain comparison picks
/// what `min` and `max` pick, without their handling of NaN).
#[inline(always)]
fn extent_small(points: &[DVec2], axis: DVec2) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for p in points {
        let d = p.dot(axis);
        lo = if d < lo { d } else { lo };
        hi = if d > hi { d } else { hi };
    }
    (lo, hi)
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;
    use crate::query::distance::core_of;
    use crate::query::rounded::least_overlap;
    use crate::{AsShape, Capsule, ConvexPolygon, Pose, RoundedPolygon, Shape};

    /// Every axis weighed, none skipped, extents with `min` and `max`: the general search,
    /// which the small-core one must match bit for bit.
    fn every_axis(a: &Core, b: &Core) -> (DVec2, f64) {
        let mut best = (DVec2::Y, f64::NEG_INFINITY);
        let extent = |core: &Core, axis: DVec2| {
            core.points()
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.dot(axis)), hi.max(p.dot(axis)))
                })
        };
        let mut weigh = |axis: DVec2| {
            let ((a_min, a_max), (b_min, b_max)) = (extent(a, axis), extent(b, axis));
            let (ahead, behind) = (b_min - a_max, a_min - b_max);
            let found = if ahead >= behind {
                (axis, ahead)
            } else {
                (-axis, behind)
            };
            if found.1 > best.1 {
                best = found;
            }
        };
        for core in [a, b] {
            for normal in &core.normals()[..core.edges()] {
                weigh(normal.as_dvec2());
            }
            if core.len == 2
                && let Some(along) = (core.points()[1] - core.points()[0]).try_normalize()
            {
                weigh(along);
            }
        }
        best
    }

    /// The small-core search skips exactly opposite normals and compares without `min`/`max`,
    /// and finds what weighing every axis finds, for segments, capsules, boxes, hexagons and
    /// rounded boxes turned and placed all around each other.
    #[test]
    fn small_core_search_matches_every_axis() {
        let shapes: Vec<Shape> = vec![
            Capsule::segment(Vec2::new(-0.5, 0.0), Vec2::new(0.5, 0.0))
                .unwrap()
                .into(),
            Capsule::vertical(0.25, 0.5).unwrap().into(),
            ConvexPolygon::rectangle(1.0, 1.0).into(),
            ConvexPolygon::regular(6, 0.5).into(),
            RoundedPolygon::round_rectangle(1.0, 0.6, 0.1)
                .unwrap()
                .into(),
        ];
        let mut checked = 0;
        for a in &shapes {
            for b in &shapes {
                for k in 0..200 {
                    let t = k as f32 * 0.173;
                    let pose = Pose {
                        translation: Vec2::new(t.cos(), (t * 1.7).sin()) * (0.2 + t % 1.3),
                        rotation: Vec2::from_angle(t * 2.3),
                        scale: Vec2::ONE,
                    };
                    let placed = b.transformed(&pose).unwrap();
                    let (core_a, _) = core_of(a.as_shape());
                    let (core_b, _) = core_of(placed.as_shape());
                    let (fast, slow) = (
                        least_overlap(&core_a, &core_b),
                        every_axis(&core_a, &core_b),
                    );
                    assert_eq!(fast.1.to_bits(), slow.1.to_bits(), "{a:?} {placed:?}");
                    assert_eq!(fast.0, slow.0, "{a:?} {placed:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 5 * 5 * 200);
    }
}
