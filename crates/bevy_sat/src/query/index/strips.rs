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
    /// The unit direction of the path, and its inverse per axis.
    direction: Vec2,
    inv: Vec2,
    /// Where the path leaves the level's region, or its reach if that is sooner.
    end: f32,
    /// The distance of the next strip, `f32::INFINITY` once none is left.
    pub next: f32,
    /// The first strip: the cells the moving box covers where the path enters the level.
    first: Range,
    started: bool,
    /// Per axis, the distance at which the box's leading side crosses the next line between
    /// cells (`f32::INFINITY` if it never does).
    crossing: [f32; 2],
    /// Per axis, the cell the box's leading side is in.
    lead: [u32; 2],
    /// Per axis, how the leading cell moves at a crossing: +1, -1, or 0 along an axis the path
    /// does not move along. Kept as numbers, not as branches on the direction's signs, which
    /// are unpredictable from one path to the next.
    step: [i32; 2],
    /// Per axis, whether the path does not move backwards along it (the leading side is then
    /// the box's high side, and the line it crosses next is the leading cell's far one).
    forward: [bool; 2],
    /// Per axis, the box's leading and trailing sides at distance 0, grown by the level's
    /// margin and by the round-off slack.
    leading: [f32; 2],
    trailing: [f32; 2],
    /// The number of cells along each axis.
    counts: [u32; 2],
}

impl<'a> Strips<'a> {
    /// The walk of `level` for the box `start` moving along `direction` (unit) from 0 to
    /// `reach`: one with no strip if the path never comes near enough the level for a body of
    /// it to be met. (Built in one go, not filled in field by field: the walk's first reads of
    /// its fields then wait on no store.)
    #[inline]
    pub fn new(level: &'a Level, start: &Aabb, direction: Vec2, reach: f32) -> Self {
        let inv = direction.recip();
        let idle = Self {
            level,
            direction,
            inv,
            end: reach,
            next: f32::INFINITY,
            first: Range::EMPTY,
            started: false,
            crossing: [f32::INFINITY; 2],
            lead: [0; 2],
            step: [0; 2],
            forward: [true; 2],
            leading: [0.0; 2],
            trailing: [0.0; 2],
            counts: [level.cols, level.rows],
        };
        if level.is_empty() {
            return idle;
        }
        // Where the moving box is near enough the grid for a body of it to meet it: the slab
        // test of its centre against the grid grown by its half size and the margin.
        let half = start.size() * 0.5;
        let centre = (start.min + start.max) * 0.5;
        let (low, high) = (level.near_low - half, level.near_high + half);
        let (mut t0, mut t1) = (0.0f32, reach);
        for axis in 0..2 {
            let (o, d, lo, hi) = (centre[axis], direction[axis], low[axis], high[axis]);
            if d == 0.0 {
                if o < lo || o > hi {
                    return idle;
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
            return idle;
        }
        // The box is grown by a little more than the round-off of a point computed on the
        // path, so that a body touched at a crossing is in the cells taken by then.
        let scale = centre.abs().max_element() + half.max_element() + t1.abs();
        let slack = scale * 4.0 * f32::EPSILON + level.cell * 1.0e-4;
        let grow = level.margin + Vec2::splat(slack);
        let (low, high) = (start.min - grow, start.max + grow);
        let (x0, y0) = level.cell_of(low + direction * t0);
        let (x1, y1) = level.cell_of(high + direction * t0);
        // Per axis, by selects: the direction's signs are unpredictable.
        let forward = [direction.x >= 0.0, direction.y >= 0.0];
        let pick = |axis: usize, ahead: f32, behind: f32| {
            let mask = u32::from(forward[axis]).wrapping_neg();
            f32::from_bits((ahead.to_bits() & mask) | (behind.to_bits() & !mask))
        };
        let sign = |d: f32| i32::from(d > 0.0) - i32::from(d < 0.0);
        Self {
            end: t1,
            next: t0,
            first: Range { x0, y0, x1, y1 },
            lead: [
                if forward[0] { x1 } else { x0 },
                if forward[1] { y1 } else { y0 },
            ],
            step: [sign(direction.x), sign(direction.y)],
            forward,
            leading: [pick(0, high.x, low.x), pick(1, high.y, low.y)],
            trailing: [pick(0, low.x, high.x), pick(1, low.y, high.y)],
            ..idle
        }
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
            self.crossing = [self.crossing_after(0), self.crossing_after(1)];
            self.first
        } else {
            // A new column (`axis` 0) or row (1): the cells just beyond the line crossed along
            // `axis`, as far as the box reaches across it.
            let axis = usize::from(self.crossing[1] < self.crossing[0]);
            let other = 1 - axis;
            let lead = self.lead[axis].wrapping_add_signed(self.step[axis]);
            self.lead[axis] = lead;
            let (from, to) = self.across(other, t);
            self.crossing[axis] = self.crossing_after(axis);
            let (mut low, mut high) = ([lead; 2], [lead; 2]);
            (low[other], high[other]) = (from, to);
            Range {
                x0: low[0],
                y0: low[1],
                x1: high[0],
                y1: high[1],
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

    /// The distance at which the box's leading side along `axis` crosses the line beyond its
    /// cell, `f32::INFINITY` if it does not move along the axis or that cell is the last.
    #[inline]
    fn crossing_after(&self, axis: usize) -> f32 {
        let (lead, level) = (self.lead[axis], self.level);
        // A crossing exists only where a cell is left beyond the leading one.
        let beyond = i64::from(lead) + i64::from(self.step[axis]);
        let exists = self.step[axis] != 0 && beyond >= 0 && beyond < i64::from(self.counts[axis]);
        let line = lead + u32::from(self.forward[axis]);
        let line = level.origin[axis] + line as f32 * level.cell;
        // `max(0.0)`: a line the box already reaches is crossed at once (and a direction so
        // small that its inverse is infinite gives no NaN).
        let at = ((line - self.leading[axis]) * self.inv[axis]).max(0.0);
        if exists { at } else { f32::INFINITY }
    }

    /// The cells the box covers along `axis` at distance `t`: from its trailing side's to its
    /// leading side's.
    #[inline]
    fn across(&self, axis: usize, t: f32) -> (u32, u32) {
        let (lead, level) = (self.lead[axis], self.level);
        let v = self.trailing[axis] + self.direction[axis] * t;
        let trail = coordinate(v, level.origin[axis], level.inv_cell, self.counts[axis]);
        // Forward: from the trailing cell (never beyond the leading one) to the leading one;
        // backwards, the other way round. Chosen by masks: the direction is unpredictable.
        let forward = u32::from(self.forward[axis]).wrapping_neg();
        let (low, high) = (trail.min(lead), trail.max(lead));
        (
            (low & forward) | (lead & !forward),
            (lead & forward) | (high & !forward),
        )
    }
}
