//! The walks over the [`Grid`] in a box and around a point, each body visited once (the walk
//! along a path is in `along`).
//!
//! Each walk takes the large bodies, then the fine level, then the coarse one: the fine level
//! usually finds the nearest body, which then cuts the coarse level's walk around a point
//! short.

use bevy::prelude::*;
use sat_core::Aabb;

use super::level::Level;
use super::{BLOCK, Grid, Item, Range, WINDOW, meet};

impl Grid {
    /// The levels, in the order the walks take them.
    pub(super) fn levels(&self) -> [&Level; 2] {
        [&self.fine, &self.coarse]
    }

    /// Calls `visit` once for every body whose item's box overlaps (or touches) `aabb`: those of
    /// the large list, then those of the levels; stops when `visit` returns false. `ahead` is
    /// told of the bodies found before they are visited, for the caller to fetch what it will
    /// read of them: the bodies found are visited a batch at a time, so that those loads
    /// overlap one another instead of each waiting in turn.
    #[inline]
    pub fn each_in_box(
        &self,
        aabb: &Aabb,
        ahead: impl Fn(&Item),
        visit: impl FnMut(&Item) -> bool,
    ) {
        let mut batch = Batch {
            items: [None; BLOCK],
            len: 0,
            ahead,
            visit,
        };
        if !batch.each_meeting(&self.large, aabb) {
            return;
        }
        for level in self.levels() {
            let range = level.range(aabb);
            if range.is_empty() {
                continue;
            }
            for y in range.y0..=range.y1 {
                let (from, items) = level.row_items(y, range.x0, range.x1);
                let going = match level.window(from) {
                    Some(window) if items.len() <= WINDOW => {
                        batch.window_meeting(window, items.len(), aabb)
                    }
                    _ => batch.each_meeting(items, aabb),
                };
                if !going {
                    return;
                }
            }
        }
        batch.visit();
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

/// Bodies found by [`Grid::each_in_box`] and not visited yet (at most [`BLOCK`]), and what
/// the walk tells of them.
struct Batch<'a, A, V> {
    items: [Option<&'a Item>; BLOCK],
    len: usize,
    ahead: A,
    visit: V,
}

impl<'a, A: Fn(&Item), V: FnMut(&Item) -> bool> Batch<'a, A, V> {
    /// Adds each of `items` whose box meets (overlaps or touches) `aabb`, visiting the batch
    /// first whenever a block of them might not fit; returns false if `visit` asked to stop.
    #[inline]
    fn each_meeting(&mut self, items: &'a [Item], aabb: &Aabb) -> bool {
        for block in items.chunks(BLOCK) {
            if self.len + block.len() > BLOCK && !self.visit() {
                return false;
            }
            for item in block {
                self.push_if(item, meet(&item.aabb, aabb));
            }
        }
        true
    }

    /// [`Batch::each_meeting`] for a row of `len` items (at most [`WINDOW`]), given as the
    /// [`Level::window`] that starts with them.
    #[inline]
    fn window_meeting(&mut self, window: &'a [Item; WINDOW], len: usize, aabb: &Aabb) -> bool {
        if self.len > BLOCK - WINDOW && !self.visit() {
            return false;
        }
        for (k, item) in window.iter().enumerate() {
            self.push_if(item, (k < len) & meet(&item.aabb, aabb));
        }
        true
    }

    /// Adds `item` if `keep`, without a branch: it is written to the next free place in any
    /// case, which only a kept item takes. (The batch has room: its callers see to it.)
    #[inline(always)]
    fn push_if(&mut self, item: &'a Item, keep: bool) {
        self.items[self.len & (BLOCK - 1)] = Some(item);
        self.len += usize::from(keep);
    }

    /// Visits the bodies waiting, in the order they were found, once `ahead` has been told of
    /// them all (when there are several: one alone is read at once), and empties the batch;
    /// returns false if `visit` asked to stop.
    #[inline]
    fn visit(&mut self) -> bool {
        let waiting = &self.items[..self.len.min(BLOCK)];
        self.len = 0;
        if waiting.len() > 1 {
            waiting.iter().flatten().for_each(|item| (self.ahead)(item));
        }
        waiting.iter().flatten().all(|item| (self.visit)(item))
    }
}
