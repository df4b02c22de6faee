//! The walks over the [`Grid`]: the bodies in a box, along a moving box's path, and around a
//! point, each visited once, nearest cells first where the walk has a direction.
//!
//! Each walk takes the large bodies, then the fine level, then the coarse one: the fine level
//! usually finds the nearest hit, which then cuts the coarse level's walk short.

use bevy::prelude::*;
use sat_core::Aabb;

use super::level::Level;
use super::{Grid, Item, Range};

impl Grid {
    /// The levels, in the order the walks take them.
    fn levels(&self) -> [&Level; 2] {
        [&self.fine, &self.coarse]
    }

    /// Calls `visit` once for every body in the large list, then once for every body in the
    /// levels whose box may meet `aabb`; stops when `visit` returns false.
    pub fn each_in_box(&self, aabb: &Aabb, mut visit: impl FnMut(&Item) -> bool) {
        for item in &self.large {
            if !visit(item) {
                return;
            }
        }
        for level in self.levels() {
            let range = level.range(aabb);
            if !level.each_new_in(&range, &Range::EMPTY, &mut visit) {
                return;
            }
        }
    }

    /// Walks the bodies a box `start` may meet as it moves along `direction` (unit) from 0 to
    /// `reach`, nearest first in each level: the large list, then each level in segments half
    /// a cell long. `visit` is called once per body and returns the distance within which the
    /// caller has found all it wants (`f32::INFINITY` for none yet); the walk stops once it has
    /// visited every body that could be hit within that distance.
    pub fn each_along(
        &self,
        start: Aabb,
        direction: Vec2,
        reach: f32,
        mut visit: impl FnMut(&Item) -> f32,
    ) {
        let mut done = f32::INFINITY;
        for item in &self.large {
            done = visit(item);
        }
        for level in self.levels() {
            level.each_along(start, direction, reach, &mut done, &mut visit);
        }
    }

    /// Visits the bodies around `point`, nearest cells first: the large list, then in each
    /// level the point's cell and the rings of cells around it. `visit` returns the distance
    /// within which the caller has its answer; each level's walk stops once no body outside the
    /// rings visited can be nearer than that.
    pub fn each_around(&self, point: Vec2, mut visit: impl FnMut(&Item) -> f32) {
        let mut done = f32::INFINITY;
        for item in &self.large {
            done = visit(item);
        }
        for level in self.levels() {
            level.each_around(point, &mut done, &mut visit);
        }
    }
}

impl Level {
    /// Visits the items of the cells of `range` outside `before`. Returns false if `visit`
    /// asked to stop.
    fn each_new_in(
        &self,
        range: &Range,
        before: &Range,
        visit: &mut impl FnMut(&Item) -> bool,
    ) -> bool {
        if range.is_empty() {
            return true;
        }
        for y in range.y0..=range.y1 {
            for x in range.x0..=range.x1 {
                if before.contains(x, y) {
                    continue;
                }
                for item in self.cell_items(x, y) {
                    if !visit(item) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// [`Grid::each_along`] in this level, from the distance `done` within which the caller
    /// has all it wants so far, kept up to date.
    fn each_along(
        &self,
        start: Aabb,
        direction: Vec2,
        reach: f32,
        done: &mut f32,
        visit: &mut impl FnMut(&Item) -> f32,
    ) {
        if self.is_empty() {
            return;
        }
        // Where the moving box is near enough the grid for a body of it to meet it: the slab
        // test of its centre against the grid grown by its half size and the margin.
        let half = start.size() * 0.5;
        let centre = (start.min + start.max) * 0.5;
        let far = self.origin + Vec2::new(self.cols as f32, self.rows as f32) * self.cell;
        let (low, high) = (self.origin - half - self.margin, far + half + self.margin);
        let (mut t0, mut t1) = (0.0f32, reach);
        for axis in 0..2 {
            let (o, d, lo, hi) = (centre[axis], direction[axis], low[axis], high[axis]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return;
                }
            } else {
                let (a, b) = ((lo - o) / d, (hi - o) / d);
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
        }
        if t0.is_nan() || t1.is_nan() || t0 > t1 || *done < t0 {
            return;
        }
        // Each segment's box is grown by a little more than the round-off of a point computed
        // on the path, so that a body touched at a segment's end is in that segment's cells.
        // The cells of successive segments only ever move one way along each axis, so a cell
        // met again was in the previous segment's cells (`before`): each is visited once.
        let scale = centre.abs().max_element() + half.max_element() + t1.abs();
        let slack = scale * 4.0 * f32::EPSILON + self.cell * 1.0e-4;
        let step = self.cell * 0.5;
        let mut before = Range::EMPTY;
        let mut from = t0;
        loop {
            // No further than where the caller has all it wants: a body met beyond it is not
            // needed (`done` is above `from` here, else the walk would have stopped).
            let to = (from + step).min(t1).min(*done);
            let a = Aabb {
                min: start.min + direction * from,
                max: start.max + direction * from,
            };
            let b = Aabb {
                min: start.min + direction * to,
                max: start.max + direction * to,
            };
            let range = self.range(&a.union(&b).grown(slack));
            self.each_new_in(&range, &before, &mut |item| {
                *done = visit(item);
                true
            });
            if !range.is_empty() {
                before = range;
            }
            // Done when all that was wanted lies within this segment; or at the path's end (or
            // where the step no longer advances, at coordinates too large for it).
            if *done <= to || to >= t1 || to <= from {
                return;
            }
            from = to;
        }
    }

    /// [`Grid::each_around`] in this level, from the distance `done` within which the caller
    /// has its answer so far, kept up to date.
    fn each_around(&self, point: Vec2, done: &mut f32, visit: &mut impl FnMut(&Item) -> f32) {
        if self.is_empty() {
            return;
        }
        let (cx, cy) = self.cell_of(point);
        let mut before = Range::EMPTY;
        for r in 0u32.. {
            let range = Range {
                x0: cx.saturating_sub(r),
                y0: cy.saturating_sub(r),
                x1: cx.saturating_add(r).min(self.cols - 1),
                y1: cy.saturating_add(r).min(self.rows - 1),
            };
            self.each_new_in(&range, &before, &mut |item| {
                *done = visit(item);
                true
            });
            before = range;
            let whole = range.x0 == 0
                && range.y0 == 0
                && range.x1 == self.cols - 1
                && range.y1 == self.rows - 1;
            // A body outside the range has its centre there, and its box within the margin
            // of its centre.
            if whole || *done < self.clearance(point, &range) - self.margin.max_element() {
                return;
            }
        }
    }

    /// How far `point` is from every cell outside `range` (that is in the grid): the distance
    /// to the nearest side of the range that is not the grid's border.
    fn clearance(&self, point: Vec2, range: &Range) -> f32 {
        let low = self.origin + Vec2::new(range.x0 as f32, range.y0 as f32) * self.cell;
        let high =
            self.origin + Vec2::new(range.x1 as f32 + 1.0, range.y1 as f32 + 1.0) * self.cell;
        let mut nearest = f32::INFINITY;
        if range.x0 > 0 {
            nearest = nearest.min((point.x - low.x).max(0.0));
        }
        if range.y0 > 0 {
            nearest = nearest.min((point.y - low.y).max(0.0));
        }
        if range.x1 + 1 < self.cols {
            nearest = nearest.min((high.x - point.x).max(0.0));
        }
        if range.y1 + 1 < self.rows {
            nearest = nearest.min((high.y - point.y).max(0.0));
        }
        nearest
    }
}
