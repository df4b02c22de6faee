//! [`Level`]: one uniform grid of the index, holding each body once, in the cell of its box's
//! centre ("loose" cells: a body's box may reach into the neighbouring cells, along each axis
//! by at most half the level's largest extent along it).

use bevy::prelude::*;
use sat_core::Aabb;

use super::{Item, Range, WINDOW};

/// At most this many cells per body (plus a few): a scene spread over a vast area gets larger
/// cells instead of a grid that would not fit in memory.
const CELLS_PER_BODY_MAX: usize = 4;

/// A uniform grid of loose cells, filled by a counting sort (O(N), no per-cell allocation).
#[derive(Default, Debug)]
pub(crate) struct Level {
    /// The grid's lower corner.
    pub origin: Vec2,
    /// The side of a cell, and its inverse.
    pub cell: f32,
    pub inv_cell: f32,
    pub cols: u32,
    pub rows: u32,
    /// How far a box may reach from its centre along each axis: half the largest extent of a
    /// box along it, and the round-off of its centre.
    pub margin: Vec2,
    /// Where a box must reach for an item's box to meet it: the grid grown by the margin.
    pub near_low: Vec2,
    pub near_high: Vec2,
    /// Per cell (row by row), where its items start in `items`; one more at the end.
    starts: Vec<u32>,
    /// The items, cell by cell, followed by [`WINDOW`] items that meet no box (see
    /// [`Level::window`]).
    pub items: Vec<Item>,
    /// Scratch: the items to place, in the bodies' order, and the cell of each.
    pub placed: Vec<Item>,
    at: Vec<u32>,
    /// The bounds of the placed boxes' centres.
    low: Vec2,
    high: Vec2,
    /// The largest width and the largest height of a placed box.
    largest: Vec2,
}

impl Level {
    /// Empties the level.
    pub fn clear(&mut self) {
        self.placed.clear();
        self.at.clear();
        self.starts.clear();
        self.items.clear();
        self.cols = 0;
        self.rows = 0;
        self.low = Vec2::INFINITY;
        self.high = Vec2::NEG_INFINITY;
        self.largest = Vec2::ZERO;
    }

    /// Adds a body's item.
    #[inline]
    pub fn push(&mut self, item: Item) {
        self.largest = self.largest.max(item.aabb.size());
        let centre = (item.aabb.min + item.aabb.max) * 0.5;
        self.low = self.low.min(centre);
        self.high = self.high.max(centre);
        self.placed.push(item);
    }

    /// Lays the grid out with cells of side `cell` (or larger, for a scene spread over a vast
    /// area) over the items pushed, and sorts them into their cells: count per cell, sum the
    /// counts up to each cell's end, then place each item just before its cell's end, which
    /// leaves every end at its cell's start.
    pub fn fill(&mut self, mut cell: f32) {
        if self.placed.is_empty() {
            return;
        }
        // The cell count, capped: computed in f64, where the extent over a tiny cell cannot
        // overflow.
        let max_cells = (CELLS_PER_BODY_MAX * self.placed.len() + 64) as f64;
        let extent = (self.high - self.low).as_dvec2();
        let cells_for = |cell: f32| {
            let c = f64::from(cell);
            ((extent.x / c).floor() + 1.0) * ((extent.y / c).floor() + 1.0)
        };
        if cells_for(cell) > max_cells {
            let area = (extent.x + f64::from(cell)) * (extent.y + f64::from(cell));
            cell = (area / max_cells).sqrt() as f32;
            while cells_for(cell) > max_cells {
                cell *= 1.25;
            }
        }
        self.origin = self.low;
        self.cell = cell;
        self.inv_cell = 1.0 / cell;
        self.cols = ((extent.x / f64::from(cell)).floor() as u32).saturating_add(1);
        self.rows = ((extent.y / f64::from(cell)).floor() as u32).saturating_add(1);
        // Half the largest extent, a hundredth of it more, and more than the round-off of a
        // centre computed in `f32` at these coordinates.
        let reach = self.low.abs().max(self.high.abs()).max_element();
        self.margin = self.largest * 0.51 + Vec2::splat(reach * 4.0 * f32::EPSILON);
        let far = self.origin + Vec2::new(self.cols as f32, self.rows as f32) * self.cell;
        self.near_low = self.origin - self.margin;
        self.near_high = far + self.margin;
        let cells = self.cols as usize * self.rows as usize;
        self.starts.resize(cells + 1, 0);
        let cols = self.cols as usize;
        self.at.reserve(self.placed.len());
        for item in &self.placed {
            let centre = (item.aabb.min + item.aabb.max) * 0.5;
            let x = coordinate(centre.x, self.origin.x, self.inv_cell, self.cols);
            let y = coordinate(centre.y, self.origin.y, self.inv_cell, self.rows);
            let c = y as usize * cols + x as usize;
            self.starts[c] += 1;
            self.at.push(c as u32);
        }
        let mut sum = 0;
        for start in &mut self.starts[..cells] {
            sum += *start;
            *start = sum;
        }
        self.starts[cells] = sum;
        // Inverted: no box meets it.
        let blank = Item {
            aabb: Aabb {
                min: Vec2::INFINITY,
                max: Vec2::NEG_INFINITY,
            },
            key: 0,
            memberships: 0,
        };
        self.items.resize(self.placed.len() + WINDOW, blank);
        for (item, &c) in self.placed.iter().zip(&self.at) {
            let end = &mut self.starts[c as usize];
            *end -= 1;
            self.items[*end as usize] = *item;
        }
    }

    /// Whether the level holds no cell.
    pub fn is_empty(&self) -> bool {
        self.cols == 0 || self.rows == 0
    }

    /// The items of the cells `x0..=x1` of row `y`, one slice since a row's cells are stored
    /// one after the other, and the index in [`Level::items`] of the first.
    #[inline]
    pub fn row_items(&self, y: u32, x0: u32, x1: u32) -> (usize, &[Item]) {
        let row = y as usize * self.cols as usize;
        let from = self.starts[row + x0 as usize] as usize;
        let to = self.starts[row + x1 as usize + 1] as usize;
        (from, &self.items[from..to])
    }

    /// The [`WINDOW`] items from index `from` in [`Level::items`] (`from` at most the number
    /// of bodies held): those of a short row, then items of the next cells or items that meet
    /// no box, for the caller to mask out.
    #[inline]
    pub fn window(&self, from: usize) -> Option<&[Item; WINDOW]> {
        self.items.get(from..from + WINDOW)?.try_into().ok()
    }

    /// The cell of a point, clamped to the grid.
    #[inline]
    pub fn cell_of(&self, point: Vec2) -> (u32, u32) {
        (
            coordinate(point.x, self.origin.x, self.inv_cell, self.cols),
            coordinate(point.y, self.origin.y, self.inv_cell, self.rows),
        )
    }

    /// The cells whose items' boxes may overlap `aabb`: those whose centres lie within the
    /// margin of it, clamped to the grid (empty if the level is, or if the box misses the grid
    /// by more than a margin).
    #[inline]
    pub fn range(&self, aabb: &Aabb) -> Range {
        if self.is_empty() {
            return Range::EMPTY;
        }
        let (low, high) = (self.near_low, self.near_high);
        if aabb.max.x < low.x || aabb.max.y < low.y || aabb.min.x > high.x || aabb.min.y > high.y {
            return Range::EMPTY;
        }
        let (x0, y0) = self.cell_of(aabb.min - self.margin);
        let (x1, y1) = self.cell_of(aabb.max + self.margin);
        Range { x0, y0, x1, y1 }
    }
}

/// The column (or row) of coordinate `v` along an axis starting at `origin`, with cells of
/// side `1 / inv_cell`, clamped to `0..count`. (Clamped at 0 first, so that the conversion,
/// which rounds towards zero, rounds down; a far-off or infinite coordinate clamps.)
#[inline]
pub(super) fn coordinate(v: f32, origin: f32, inv_cell: f32, count: u32) -> u32 {
    let c = ((v - origin) * inv_cell).max(0.0);
    (c as u32).min(count.saturating_sub(1))
}
