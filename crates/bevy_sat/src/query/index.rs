//! [`Grid`]: the acceleration structure behind [`SpatialQuery`](super::SpatialQuery).
//!
//! A uniform grid over the bodies as the last step placed them, filled by a counting sort in
//! two passes over the bodies (O(N), no per-cell allocation). Bodies much larger than the
//! typical one (level walls thousands of units wide) would each fill thousands of cells, so they
//! are kept in a short list of their own that every query tests directly.
//!
//! Every walk below visits each body at most once without any per-query storage: a body is
//! registered in every cell its box overlaps, and a walk over a growing region of cells takes
//! it only in the first cell (in the walk's order) where the two meet. See [`Range::first_of`].

use bevy::prelude::*;
use sat_core::Aabb;

use crate::components::CollisionLayers;

use crate::step::body::Body;
use crate::step::broad::BroadInput;

/// The grid's cell side is this many times the median size of a body's box: most bodies then
/// overlap one to four cells, and a cell holds about one body in a crowd as dense as the stress
/// scene's.
const CELL_PER_BODY: f32 = 2.0;

/// A body whose box is wider or taller than this many cells goes to the list of large bodies.
const LARGE_CELLS: f32 = 8.0;

/// At most this many cells per body (plus a few): a scene spread over a vast area gets larger
/// cells instead of a grid that would not fit in memory.
const CELLS_PER_BODY_MAX: usize = 4;

/// The relative round-off allowed around each body's box ([`Entry::aabb`]).
const ROUND_OFF: f32 = 1.0e-5;

/// The cell size is taken from the median size of at most this many bodies, spread evenly
/// over the list: as good a typical size as the median of all, at a fixed cost.
const SIZE_SAMPLE: usize = 1024;

/// What a query needs of one body without reading its record: a box around it, its layers,
/// whether it is a sensor, and its entity. Indexed like the step's bodies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// A box that holds the body's shape: its own box for a body resolution may have pushed,
    /// else the broad phase's (swept over the step's motion and grown by the contact margin),
    /// which the step has already computed and needs no read of the body's record. Grown by a
    /// little more than the round-off of a box test in `f32`, so that such a test never rejects
    /// what the exact tests (in `f64`) accept.
    pub aabb: Aabb,
    /// The cells the body is registered in (empty for a large body).
    pub cells: Range,
    pub entity: Entity,
    pub memberships: u32,
    pub sensor: bool,
}

/// A rectangle of cells, both ends included; empty when `x0 > x1` or `y0 > y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Range {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl Range {
    /// The range with no cell.
    pub const EMPTY: Range = Range {
        x0: 1,
        y0: 1,
        x1: 0,
        y1: 0,
    };

    pub fn is_empty(&self) -> bool {
        self.x0 > self.x1 || self.y0 > self.y1
    }

    fn intersection(&self, other: &Range) -> Range {
        Range {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        }
    }

    fn contains(&self, x: u32, y: u32) -> bool {
        self.x0 <= x && x <= self.x1 && self.y0 <= y && y <= self.y1
    }

    /// Whether a body registered in the cells `body` is taken in cell `(x, y)` of this range,
    /// when the walk has already visited every cell of `before` and now visits the cells of
    /// this range outside `before`, row by row: only if it overlaps no cell of `before` (else
    /// it was taken there) and `(x, y)` is the first cell, in row order, where it meets this
    /// range. For walks whose ranges grow monotonically (each range's ends move one way only),
    /// a body met in any earlier range also meets `before`, the previous one, so each body is
    /// taken exactly once.
    fn first_of(&self, body: &Range, before: &Range, x: u32, y: u32) -> bool {
        let meet = self.intersection(body);
        (meet.x0, meet.y0) == (x, y) && before.intersection(body).is_empty()
    }
}

/// The uniform grid and the list of large bodies, rebuilt from the step's bodies.
#[derive(Default, Debug)]
pub(crate) struct Grid {
    /// Per body (same index as the step's bodies).
    pub entries: Vec<Entry>,
    /// The bodies too large for the grid.
    pub large: Vec<u32>,
    /// The grid's lower corner.
    origin: Vec2,
    /// The side of a cell, and its inverse.
    cell: f32,
    inv_cell: f32,
    cols: u32,
    rows: u32,
    /// Per cell (row by row), where its bodies start in `items`; one more at the end.
    starts: Vec<u32>,
    /// Body indices, cell by cell.
    items: Vec<u32>,
    /// Scratch for the median body size.
    sizes: Vec<f32>,
}

impl Grid {
    /// Fills the grid from the bodies as they are now, and the broad phase's inputs of this
    /// step (`inputs[i]` for `bodies[i]`).
    // Kept out of line so that profiles show the index's upkeep apart from the queries.
    #[inline(never)]
    pub fn build(&mut self, bodies: &[Body], inputs: &[BroadInput]) {
        self.entries.clear();
        self.large.clear();
        self.sizes.clear();
        self.cols = 0;
        self.rows = 0;
        self.starts.clear();
        self.items.clear();
        let count = bodies.len().min(inputs.len());
        if count == 0 {
            return;
        }
        // The cell size, from the median size of a sample of the broad phase's boxes.
        let stride = count.div_ceil(SIZE_SAMPLE);
        self.sizes.extend(
            inputs[..count]
                .iter()
                .step_by(stride)
                .map(|input| input.swept.size().max_element()),
        );
        let middle = self.sizes.len() / 2;
        let (_, &mut median, _) = self.sizes.select_nth_unstable_by(middle, f32::total_cmp);
        let mut cell = (median * CELL_PER_BODY).max(f32::MIN_POSITIVE.sqrt());
        // Bodies larger than this stay out of the cells (their `cells` stay empty).
        let large = LARGE_CELLS * cell;
        // One pass: the entries, the large list, and the bounds of the others. Only bodies
        // resolution may have pushed (and those with layers of their own, rare) have their
        // records read: the others' places are known from the broad phase's inputs.
        let (mut low, mut high) = (Vec2::INFINITY, Vec2::NEG_INFINITY);
        for (i, (body, input)) in bodies.iter().zip(inputs).enumerate() {
            let aabb = if input.pushable {
                body.shape.aabb()
            } else {
                input.swept
            };
            let reach = aabb.min.abs().max(aabb.max.abs()).max_element();
            let aabb = aabb.grown((reach + 1.0) * ROUND_OFF);
            if aabb.size().max_element() > large {
                self.large.push(i as u32);
            } else {
                low = low.min(aabb.min);
                high = high.max(aabb.max);
            }
            self.entries.push(Entry {
                aabb,
                cells: Range::EMPTY,
                entity: input.entity,
                memberships: if input.custom_layers {
                    body.layers.memberships
                } else {
                    CollisionLayers::ALL
                },
                sensor: !input.pushable && !input.solid_mighty,
            });
        }
        if low.x > high.x {
            return; // every body is large
        }
        // The cell count, capped: computed in f64, where the extent over a tiny cell cannot
        // overflow.
        let small = self.entries.len() - self.large.len();
        let max_cells = (CELLS_PER_BODY_MAX * small + 64) as f64;
        let extent = (high - low).as_dvec2();
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
        self.origin = low;
        self.cell = cell;
        self.inv_cell = 1.0 / cell;
        self.cols = ((extent.x / f64::from(cell)).floor() as u32).saturating_add(1);
        self.rows = ((extent.y / f64::from(cell)).floor() as u32).saturating_add(1);
        let cells = self.cols as usize * self.rows as usize;
        // Counting sort: count per cell, sum the counts up to each cell's end, then place each
        // body just before its cells' ends, which leaves every end at its cell's start.
        self.starts.resize(cells + 1, 0);
        let cols = self.cols as usize;
        let mut total = 0u32;
        for i in 0..self.entries.len() {
            let aabb = self.entries[i].aabb;
            if aabb.size().max_element() > large {
                continue;
            }
            let r = self.range(&aabb);
            self.entries[i].cells = r;
            let starts = &mut self.starts;
            for y in r.y0..=r.y1 {
                let row = y as usize * cols;
                for x in r.x0..=r.x1 {
                    starts[row + x as usize] += 1;
                }
            }
            total += (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
        }
        let mut sum = 0;
        for start in &mut self.starts[..cells] {
            sum += *start;
            *start = sum;
        }
        self.starts[cells] = total;
        self.items.resize(total as usize, 0);
        let (starts, items) = (&mut self.starts, &mut self.items);
        for (i, entry) in self.entries.iter().enumerate() {
            let r = entry.cells;
            if r.is_empty() {
                continue;
            }
            for y in r.y0..=r.y1 {
                let row = y as usize * cols;
                for x in r.x0..=r.x1 {
                    let end = &mut starts[row + x as usize];
                    *end -= 1;
                    items[*end as usize] = i as u32;
                }
            }
        }
    }

    fn cell_index(&self, x: u32, y: u32) -> usize {
        y as usize * self.cols as usize + x as usize
    }

    /// The bodies registered in cell `(x, y)`.
    fn cell_items(&self, x: u32, y: u32) -> &[u32] {
        let c = self.cell_index(x, y);
        &self.items[self.starts[c] as usize..self.starts[c + 1] as usize]
    }

    /// The column (or row) of coordinate `v` along an axis starting at `origin`, clamped to
    /// `0..count`. (Clamped at 0 first, so that the conversion, which rounds towards zero,
    /// rounds down; a far-off or infinite coordinate clamps, and the grid's coordinates are
    /// finite.)
    #[inline]
    fn coordinate(&self, v: f32, origin: f32, count: u32) -> u32 {
        let c = ((v - origin) * self.inv_cell).max(0.0);
        (c as u32).min(count.saturating_sub(1))
    }

    /// The cells a box overlaps, clamped to the grid (empty if the grid is, or if the box
    /// misses the grid entirely).
    pub fn range(&self, aabb: &Aabb) -> Range {
        if self.cols == 0 || self.rows == 0 {
            return Range::EMPTY;
        }
        let far = self.origin + Vec2::new(self.cols as f32, self.rows as f32) * self.cell;
        if aabb.max.x < self.origin.x
            || aabb.max.y < self.origin.y
            || aabb.min.x > far.x
            || aabb.min.y > far.y
        {
            return Range::EMPTY;
        }
        Range {
            x0: self.coordinate(aabb.min.x, self.origin.x, self.cols),
            y0: self.coordinate(aabb.min.y, self.origin.y, self.rows),
            x1: self.coordinate(aabb.max.x, self.origin.x, self.cols),
            y1: self.coordinate(aabb.max.y, self.origin.y, self.rows),
        }
    }

    /// Calls `visit` once for every body in the large list, then once for every body in the
    /// grid whose cells meet `aabb`; stops when `visit` returns false.
    pub fn each_in_box(&self, aabb: &Aabb, mut visit: impl FnMut(u32) -> bool) {
        for &i in &self.large {
            if !visit(i) {
                return;
            }
        }
        let range = self.range(aabb);
        self.each_new_in(&range, &Range::EMPTY, &mut visit);
    }

    /// Visits, once each, the bodies registered in the cells of `range` outside `before` that
    /// meet no cell of `before`. Returns false if `visit` asked to stop.
    fn each_new_in(
        &self,
        range: &Range,
        before: &Range,
        visit: &mut impl FnMut(u32) -> bool,
    ) -> bool {
        if range.is_empty() {
            return true;
        }
        for y in range.y0..=range.y1 {
            for x in range.x0..=range.x1 {
                if before.contains(x, y) {
                    continue;
                }
                for &i in self.cell_items(x, y) {
                    let cells = &self.entries[i as usize].cells;
                    if range.first_of(cells, before, x, y) && !visit(i) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Walks the bodies a box `start` may meet as it moves along `direction` (unit) from 0 to
    /// `reach`, nearest segments first: the large list, then the grid in segments half a cell
    /// long (each meets fewer new cells than a whole cell's length would). `visit` is called
    /// once per body and returns the distance within which the caller has found all it wants
    /// (`f32::INFINITY` for none yet); the walk stops once it has visited every body that
    /// could be hit within that distance.
    pub fn each_along(
        &self,
        start: Aabb,
        direction: Vec2,
        reach: f32,
        mut visit: impl FnMut(u32) -> f32,
    ) {
        let mut done = f32::INFINITY;
        for &i in &self.large {
            done = visit(i);
        }
        if self.cols == 0 || self.rows == 0 {
            return;
        }
        // Where the moving box is over the grid: the slab test of its centre against the grid
        // grown by its half size.
        let half = start.size() * 0.5;
        let centre = (start.min + start.max) * 0.5;
        let far = self.origin + Vec2::new(self.cols as f32, self.rows as f32) * self.cell;
        let (low, high) = (self.origin - half, far + half);
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
        if t0.is_nan() || t1.is_nan() || t0 > t1 || done < t0 {
            return;
        }
        // Each segment's box is grown by a little more than the round-off of a point computed
        // on the path, so that a body touched at a segment's end is in that segment's cells.
        let scale = centre.abs().max_element() + half.max_element() + t1.abs();
        let slack = scale * 4.0 * f32::EPSILON + self.cell * 1.0e-4;
        let step = self.cell * 0.5;
        let mut before = Range::EMPTY;
        let mut from = t0;
        loop {
            let to = (from + step).min(t1);
            let a = Aabb {
                min: start.min + direction * from,
                max: start.max + direction * from,
            };
            let b = Aabb {
                min: start.min + direction * to,
                max: start.max + direction * to,
            };
            let range = self.range(&a.union(&b).grown(slack));
            self.each_new_in(&range, &before, &mut |i| {
                done = visit(i);
                true
            });
            if !range.is_empty() {
                before = range;
            }
            // Done when all that was wanted lies within this segment; or at the path's end (or
            // where the step no longer advances, at coordinates too large for it).
            if done <= to || to >= t1 || to <= from {
                return;
            }
            from = to;
        }
    }

    /// Visits the bodies in rings of cells around `point`, nearest first: the large list, then
    /// the point's cell, then each ring around it. `visit` returns the distance within which the
    /// caller has its answer; the walk stops once no body outside the rings visited can be
    /// nearer than that.
    pub fn each_around(&self, point: Vec2, mut visit: impl FnMut(u32) -> f32) {
        let mut done = f32::INFINITY;
        for &i in &self.large {
            done = visit(i);
        }
        if self.cols == 0 || self.rows == 0 {
            return;
        }
        let cx = self.coordinate(point.x, self.origin.x, self.cols);
        let cy = self.coordinate(point.y, self.origin.y, self.rows);
        let mut before = Range::EMPTY;
        for r in 0u32.. {
            let range = Range {
                x0: cx.saturating_sub(r),
                y0: cy.saturating_sub(r),
                x1: cx.saturating_add(r).min(self.cols - 1),
                y1: cy.saturating_add(r).min(self.rows - 1),
            };
            self.each_new_in(&range, &before, &mut |i| {
                done = visit(i);
                true
            });
            before = range;
            let whole = range.x0 == 0
                && range.y0 == 0
                && range.x1 == self.cols - 1
                && range.y1 == self.rows - 1;
            if whole || done < self.clearance(point, &range) {
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
