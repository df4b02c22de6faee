//! Vertex slots laid out for vector arithmetic: a polygon's projection on an axis and its AABB,
//! both reduced as the same tree so that they agree comparison for comparison.

use glam::{Vec2, Vec4, Vec4Swizzles};

use super::MAX_VERTICES;
use crate::Aabb;

/// [`ConvexPolygon::aabb`] of a polygon whose vertex slots are `v`: for a caller that holds
/// them in hand (placing a polygon), without reading them back.
#[inline]
pub(crate) fn aabb_of(v: [Vec2; MAX_VERTICES]) -> Aabb {
    Aabb {
        // glam's `b.min(a)` is `if b < a { b } else { a }`: a plain comparison, a single min
        // instruction (placed vertices are finite, no NaN to handle), and of two equal values
        // the earlier one, `a`, is kept.
        min: tree_reduce(v, |a, b| b.min(a)),
        max: tree_reduce(v, |a, b| b.max(a)),
    }
}

/// A polygon's first `SLOTS` (4 or 8) vertex slots relative to an origin, x and y apart, four
/// to a vector: a projection is then a few vector multiplies instead of a dot product and a
/// shuffle per vertex. From [`ConvexPolygon::lanes`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct SlotLanes<const SLOTS: usize> {
    /// Slots 0–3, then 4–7 (a copy of 0–3 for 4 slots).
    pub(super) xs: [Vec4; 2],
    pub(super) ys: [Vec4; 2],
}

impl<const SLOTS: usize> SlotLanes<SLOTS> {
    /// The lowest and highest projection of the slots on `axis`.
    ///
    /// A loop of fixed length has no exit to mispredict (pairs of shapes of every size come in
    /// no order a branch predictor could learn), and the padding past `len` repeats vertex 0,
    /// which changes neither end. The ends are reduced as a tree, halves against halves (slots
    /// `k` and `k + 4`, then `k` and `k + 2`, then 0 and 1), each step keeping the first of two
    /// equal values: the same tree, comparison for comparison, as [`aabb_of`] reduces the
    /// coordinates.
    #[inline]
    pub(crate) fn project(&self, axis: Vec2) -> (f32, f32) {
        let (lowest, highest) = self.halves(axis);
        let lowest = lowest.zwzw().min(lowest);
        let highest = highest.zwzw().max(highest);
        (lowest.yyyy().min(lowest).x, highest.yyyy().max(highest).x)
    }

    /// Both polygons projected on `axis`, `(a_min, a_max)` and `(b_min, b_max)`: the same
    /// numbers as two [`SlotLanes::project`] calls, reduced side by side, each vector step
    /// doing the work of two.
    #[inline]
    pub(crate) fn project_with<const B_SLOTS: usize>(
        &self,
        b: &SlotLanes<B_SLOTS>,
        axis: Vec2,
    ) -> ((f32, f32), (f32, f32)) {
        let ((a_low, a_high), (b_low, b_high)) = (self.halves(axis), b.halves(axis));
        // Slots `k` against `k + 2` of both, as `zwzw().min(..)` does for one.
        let lowest = Vec4::new(a_low.z, a_low.w, b_low.z, b_low.w)
            .min(Vec4::new(a_low.x, a_low.y, b_low.x, b_low.y));
        let highest = Vec4::new(a_high.z, a_high.w, b_high.z, b_high.w)
            .max(Vec4::new(a_high.x, a_high.y, b_high.x, b_high.y));
        // Then 1 against 0: A's ends in lanes 0 and 2, B's in 1 and 3.
        let later = Vec4::new(lowest.y, lowest.w, highest.y, highest.w);
        let earlier = Vec4::new(lowest.x, lowest.z, highest.x, highest.z);
        let (low, high) = (later.min(earlier), later.max(earlier));
        ((low.x, high.z), (low.y, high.w))
    }

    /// Per lane `k`, the lower and the higher projection of slots `k` and `k + 4` on `axis`.
    ///
    /// `a.min(b)` is `if a < b { a } else { b }` (`minps`): the later slot is kept only when
    /// strictly lower, as `later.min(earlier)` in [`aabb_of`].
    #[inline]
    fn halves(&self, axis: Vec2) -> (Vec4, Vec4) {
        let (ax, ay) = (Vec4::splat(axis.x), Vec4::splat(axis.y));
        let low = self.xs[0] * ax + self.ys[0] * ay;
        if SLOTS == 8 {
            let high = self.xs[1] * ax + self.ys[1] * ay;
            (high.min(low), high.max(low))
        } else {
            (low, low)
        }
    }
}

/// Folds `values` with `keep` as a tree, halves against halves (`N` a power of two): the
/// halves are independent, so the work vectorises instead of waiting on one chain of
/// comparisons.
#[inline]
fn tree_reduce<T: Copy, const N: usize>(mut values: [T; N], keep: impl Fn(T, T) -> T) -> T {
    const { assert!(N.is_power_of_two(), "a tree halves a power of two") };
    let mut width = N;
    while width > 1 {
        width /= 2;
        for k in 0..width {
            values[k] = keep(values[k], values[k + width]);
        }
    }
    values[0]
}
