//! The walks over the [`Grid`] in a box and around a point, each body visited once (the walk
//! along a path is in `along`).
//!
//! Each walk takes the large bodies, then the fine level, then the coarse one: the fine level
//! usually finds the nearest body, which then cuts the coarse level's walk around a point
//! short.

use bevy::prelude::*;
use sat_core::Aabb;

use super::level::Level;
use super::{BLOCK, Grid, Item, Range, keep, meet};

impl Grid {
    /// The levels, in the order the walks take them.
    pub(super) fn levels(&self) -> [&Level; 2] {
        [&self.fine, &self.coarse]
    }

    /// Calls `visit` once for every body whose item's box overlaps (or touches) `aabb`: those of
    /// the large list, then those of the levels; stops when `visit` returns false. `ahead` is
    /// told of each body as it is found, for the caller to fetch what it will read of it: the
    /// bodies found are visited a batch at a time, so that those loads overlap one another and
    /// the walk's own reads instead of each waiting in turn.
    #[inline]
    pub fn each_in_box(
        &self,
        aabb: &Aabb,
        ahead: impl Fn(&Item),
        mut visit: impl FnMut(&Item) -> bool,
    ) {
        let mut batch = Batch::default();
        let mut found = |item| {
            ahead(item);
            batch.add(item, &mut visit)
        };
        if !each_meeting(&self.large, aabb, &mut found) {
            return;
        }
        for level in self.levels() {
            let range = level.range(aabb);
            if range.is_empty() {
                continue;
            }
            for y in range.y0..=range.y1 {
                if !each_meeting(level.row_items(y, range.x0, range.x1).1, aabb, &mut found) {
                    return;
                }
            }
        }
        batch.visit(&mut visit);
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
        let mut each =
            |y: u32, x0: u32, x1: u32| self.row_items(y, x0, x1).1.iter().all(&mut *visit);
        for y in range.y0..=range.y1 {
            // A row's cells outside `before`: all of them, or those on either side of it.
            let going = if before.is_empty()
                || y < before.y0
                || y > before.y1
                || before.x1 < range.x0
                || before.x0 > range.x1
            {
                each(y, range.x0, range.x1)
            } else {
                (before.x0 <= range.x0 || each(y, range.x0, before.x0 - 1))
                    && (before.x1 >= range.x1 || each(y, before.x1 + 1, range.x1))
            };
            if !going {
                return false;
            }
        }
        true
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

/// Bodies found by [`Grid::each_in_box`] and not visited yet: at most [`BLOCK`].
#[derive(Default)]
struct Batch<'a> {
    items: [Option<&'a Item>; BLOCK],
    len: usize,
}

impl<'a> Batch<'a> {
    /// Adds `item`, first visiting the batch if it is full; returns false if `visit` asked to
    /// stop.
    #[inline]
    fn add(&mut self, item: &'a Item, visit: &mut impl FnMut(&Item) -> bool) -> bool {
        if self.len == BLOCK && !self.visit(visit) {
            return false;
        }
        self.items[self.len % BLOCK] = Some(item);
        self.len += 1;
        true
    }

    /// Visits the bodies waiting, in the order they were found, and empties the batch; returns
    /// false if `visit` asked to stop.
    #[inline]
    fn visit(&mut self, visit: &mut impl FnMut(&Item) -> bool) -> bool {
        let waiting = self.len.min(BLOCK);
        self.len = 0;
        self.items[..waiting]
            .iter()
            .flatten()
            .all(|item| visit(item))
    }
}

/// Calls `visit` for each of `items` whose box meets (overlaps or touches) `aabb`, until it
/// returns false; returns whether it never did. The boxes are tested a block at a time
/// ([`keep`]); only those that meet are visited.
#[inline]
fn each_meeting<'a>(
    items: &'a [Item],
    aabb: &Aabb,
    visit: &mut impl FnMut(&'a Item) -> bool,
) -> bool {
    let mut meeting = [((), 0u8); BLOCK];
    for block in items.chunks(BLOCK) {
        let count = keep(block, &mut meeting, |item| ((), meet(&item.aabb, aabb)));
        for &(_, k) in &meeting[..count] {
            if !visit(&block[usize::from(k)]) {
                return false;
            }
        }
    }
    true
}
