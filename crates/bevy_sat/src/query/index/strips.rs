//! [`Strips`]: the cells of a [`Level`] that a box moving along a straight path sweeps, in the
//! order it first touches them, each once.
//!
//! A body held in a loose cell lies within the level's margin of that cell, so a moving box can
//! meet the body only once the box grown by the margin touches the cell. The walk follows that
//! grown box: first the cells it covers where the path enters the level; then, each time its
//! leading side along an axis crosses a line between cells, the column (or row) of cells just
//! beyond the line, as far as the box reaches across at that distance. Each cell is so taken
//! once, at the distance at which the grown box first touches it, and a cell not taken yet is
//! not touched before the next crossing: a caller that has what it wants within some distance
//! can stop at the first crossing beyond it.
//!
//! A strip is a rectangle of cells: the first, a block; then a column or a row of cells.

use bevy::prelude::*;
use sat_core::Aabb;

use super::Range;
use super::level::{Level, coordinate};

/// The walk over one level (see the module's documentation).
pub(super) struct Strips<'a> {
    level: &'a Level,
    /// The moving box at distance 0, grown by the level's margin and by the round-off slack.
    low: Vec2,
    high: Vec2,
    /// The unit direction of the path, and its inverse per axis.
    direction: Vec2,
    inv: Vec2,
    /// Where the path leaves the level's region, or its reach if that is sooner.
    end: f32,
    /// The distance of the next strip, `f32::INFINITY` once none is left.
    pub next: f32,
    /// Per axis, the distance at which the box's leading side crosses the next line between
    /// cells (`f32::INFINITY` if it never does).
    crossing: [f32; 2],
    /// Per axis, the cell the box's leading side is in.
    lead: [u32; 2],
    /// Per axis, the cells the box covered where the path entered (what it covers throughout
    /// along an axis it does not move along).
    first: [(u32, u32); 2],
    started: bool,
}

impl<'a> Strips<'a> {
    /// The walk of `level` for the box `start` moving along `direction` (unit) from 0 to
    /// `reach`: one with no strip if the path never comes near enough the level for a body of
    /// it to be met.
    #[inline]
    pub fn new(level: &'a Level, start: &Aabb, direction: Vec2, reach: f32) -> Self {
        let mut walk = Self {
            level,
            low: Vec2::ZERO,
            high: Vec2::ZERO,
            direction,
            inv: direction.recip(),
            end: reach,
            next: f32::INFINITY,
            crossing: [f32::INFINITY; 2],
            lead: [0; 2],
            first: [(0, 0); 2],
            started: false,
        };
        walk.enter(start);
        walk
    }

    /// Sets where the walk starts and ends, and the moving box; leaves it with no strip if
    /// the path never comes near enough the level.
    fn enter(&mut self, start: &Aabb) {
        let (level, direction, reach) = (self.level, self.direction, self.end);
        if level.is_empty() {
            return;
        }
        // Where the moving box is near enough the grid for a body of it to meet it: the slab
        // test of its centre against the grid grown by its half size and the margin.
        let half = start.size() * 0.5;
        let centre = (start.min + start.max) * 0.5;
        let (low, high) = (level.near_low - half, level.near_high + half);
        let inv = self.inv;
        let (mut t0, mut t1) = (0.0f32, reach);
        for axis in 0..2 {
            let (o, d, lo, hi) = (centre[axis], direction[axis], low[axis], high[axis]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return;
                }
            } else {
                // By the inverse: the round-off of a product against a quotient is far within
                // the slack below.
                let inv = inv[axis];
                let (a, b) = ((lo - o) * inv, (hi - o) * inv);
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
        }
        if t0.is_nan() || t1.is_nan() || t0 > t1 {
            return;
        }
        // The box is grown by a little more than the round-off of a point computed on the
        // path, so that a body touched at a crossing is in the cells taken by then.
        let scale = centre.abs().max_element() + half.max_element() + t1.abs();
        let slack = scale * 4.0 * f32::EPSILON + level.cell * 1.0e-4;
        let grow = level.margin + Vec2::splat(slack);
        self.low = start.min - grow;
        self.high = start.max + grow;
        self.end = t1;
        self.next = t0;
    }

    /// The level walked.
    pub fn level(&self) -> &'a Level {
        self.level
    }

    /// The strip at distance [`Strips::next`]; moves on to the next.
    pub fn advance(&mut self) -> Range {
        let t = self.next;
        let strip = if !self.started {
            self.started = true;
            let (x0, y0) = self.level.cell_of(self.low + self.direction * t);
            let (x1, y1) = self.level.cell_of(self.high + self.direction * t);
            self.first = [(x0, x1), (y0, y1)];
            for axis in 0..2 {
                let (c0, c1) = self.first[axis];
                self.lead[axis] = if self.direction[axis] < 0.0 { c0 } else { c1 };
                self.crossing[axis] = self.crossing_after(axis);
            }
            Range { x0, y0, x1, y1 }
        } else if self.crossing[0] <= self.crossing[1] {
            // A new column.
            let x = self.stepped(0);
            let (y0, y1) = self.across(1, t);
            self.crossing[0] = self.crossing_after(0);
            Range {
                x0: x,
                y0,
                x1: x,
                y1,
            }
        } else {
            // A new row.
            let y = self.stepped(1);
            let (x0, x1) = self.across(0, t);
            self.crossing[1] = self.crossing_after(1);
            Range {
                x0,
                y0: y,
                x1,
                y1: y,
            }
        };
        let next = self.crossing[0].min(self.crossing[1]);
        self.next = if next <= self.end {
            next
        } else {
            f32::INFINITY
        };
        strip
    }

    /// Moves the leading cell along `axis` one cell on, and returns it.
    fn stepped(&mut self, axis: usize) -> u32 {
        let lead = &mut self.lead[axis];
        // A crossing exists only where a cell is left beyond the leading one.
        *lead = if self.direction[axis] < 0.0 {
            lead.saturating_sub(1)
        } else {
            lead.saturating_add(1)
        };
        *lead
    }

    /// The number of cells along `axis`.
    fn count(&self, axis: usize) -> u32 {
        if axis == 0 {
            self.level.cols
        } else {
            self.level.rows
        }
    }

    /// The distance at which the box's leading side along `axis` crosses the line beyond its
    /// cell, `f32::INFINITY` if it does not move along the axis or that cell is the last.
    fn crossing_after(&self, axis: usize) -> f32 {
        let (d, lead, level) = (self.direction[axis], self.lead[axis], self.level);
        // `max(0.0)`: a line the box already reaches is crossed at once (and a direction so
        // small that its inverse is infinite gives no NaN).
        if d > 0.0 && lead + 1 < self.count(axis) {
            let line = level.origin[axis] + (lead + 1) as f32 * level.cell;
            ((line - self.high[axis]) * self.inv[axis]).max(0.0)
        } else if d < 0.0 && lead > 0 {
            let line = level.origin[axis] + lead as f32 * level.cell;
            ((line - self.low[axis]) * self.inv[axis]).max(0.0)
        } else {
            f32::INFINITY
        }
    }

    /// The cells the box covers along `axis` at distance `t`: from its trailing side's to its
    /// leading side's.
    fn across(&self, axis: usize, t: f32) -> (u32, u32) {
        let (d, lead, level) = (self.direction[axis], self.lead[axis], self.level);
        let cell = |v: f32| coordinate(v, level.origin[axis], level.inv_cell, self.count(axis));
        if d > 0.0 {
            (cell(self.low[axis] + d * t).min(lead), lead)
        } else if d < 0.0 {
            (lead, cell(self.high[axis] + d * t).max(lead))
        } else {
            self.first[axis]
        }
    }
}
