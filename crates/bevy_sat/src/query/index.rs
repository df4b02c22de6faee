//! [`Grid`]: the acceleration structure behind [`SpatialQuery`](super::SpatialQuery).
//!
//! Uniform grids ([`Level`]) over the bodies as the last step placed them, rebuilt on the first
//! query after a step by a counting sort (O(N), no per-cell allocation). Each body is held
//! once, in the cell of its box's centre, as an [`Item`]: the body's box, layers and flags, so
//! that a walk's box tests and filters read a cell's contiguous items and a body's record only
//! for the bodies whose boxes it meets. Bodies up to a cell wide (most) go to the fine level,
//! with cells twice the median body size (three times for a grid too large for a core's cache:
//! [`cell_per_body`]); larger ones to a coarse level whose cells are as wide as its largest
//! body; bodies wider than [`LARGE_CELLS`] fine cells (level walls thousands of units wide) to a
//! short list that every query tests directly.
//!
//! Since a body's box reaches from its centre along each axis at most half the largest extent
//! of a box of its level along that axis, a walk ([`walk`], [`along`]) visits the cells within
//! that margin of what it covers, each cell once, and so each body once. A walk along a path
//! ([`strips`]) takes the cells in the order the path reaches them, and hands the bodies over
//! nearest first.

use bevy::prelude::*;
use sat_core::Aabb;

use crate::components::CollisionLayers;

use crate::step::body::Body;
use crate::step::broad::BroadInput;

mod along;
mod level;
mod strips;
#[cfg(test)]
mod tests;
mod walk;

use level::Level;

/// The fine level's cell side is this many times the median size of a body's box while the
/// grid's items fit in [`CACHED_ITEMS`]: most bodies are then at most a cell wide, and a cell
/// holds about one body in a crowd as dense as the stress scene's.
const CELL_PER_BODY: f32 = 2.0;

/// The same for a grid whose items do not fit in [`CACHED_ITEMS`]: a walk then spends its time
/// waiting on memory more than testing boxes, and fewer, fuller cells (about three bodies each
/// in such a crowd) make it faster, though it tests more boxes; while the items fit, they make
/// it slower.
const CELL_PER_BODY_UNCACHED: f32 = 3.0;

/// The items' bytes up to which a grid counts as held in a core's cache: the second-level cache
/// of a current AMD core (recent Intel cores have 2 MiB, older ones less).
const CACHED_ITEMS: usize = 1 << 20;

/// The fine level's cell side over the median body size, for a grid of `count` bodies.
fn cell_per_body(count: usize) -> f32 {
    if count.saturating_mul(size_of::<Item>()) <= CACHED_ITEMS {
        CELL_PER_BODY
    } else {
        CELL_PER_BODY_UNCACHED
    }
}

/// A body whose box is wider or taller than this many fine cells goes to the list of large
/// bodies.
const LARGE_CELLS: f32 = 8.0;

/// The relative round-off allowed around each body's box ([`Item::aabb`]).
const ROUND_OFF: f32 = 1.0e-5;

/// The cell size is taken from the median size of at most this many bodies, spread evenly
/// over the list: as good a typical size as the median of all, at a fixed cost.
const SIZE_SAMPLE: usize = 1024;

/// [`Item::key`]: the body is a sensor.
const SENSOR: u32 = 1 << 31;
/// [`Item::key`]: the body's parts have layers of their own (its record's `views`).
const LAYERED: u32 = 1 << 30;
/// [`Item::key`]: the bits of the body's index. (A body at a higher index, more than a
/// billion bodies in, goes to the list of large bodies.)
const INDEX: u32 = LAYERED - 1;

/// What a query needs of one body before reading its record: a box around it, its layers,
/// whether it is a sensor, and its index among the step's bodies: 24 bytes, so that a walk
/// reads a cell's bodies in one stream.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Item {
    /// A box that holds the body's shape: its own box for a body resolution may have pushed,
    /// else the broad phase's (swept over the step's motion and grown by the contact margin),
    /// which the step has already computed and needs no read of the body's record. Grown by a
    /// little more than the round-off of a box test in `f32`, so that such a test never rejects
    /// what the exact tests (in `f64`) accept.
    pub aabb: Aabb,
    /// The body's index, with the [`SENSOR`] and [`LAYERED`] flags.
    key: u32,
    /// Its [`CollisionLayers::memberships`].
    pub memberships: u32,
}

impl Item {
    /// The body's index among the step's bodies.
    #[inline]
    pub fn body(&self) -> usize {
        (self.key & INDEX) as usize
    }

    /// Whether the body is a sensor (neither pushable nor solid Mighty).
    #[inline]
    pub fn sensor(&self) -> bool {
        self.key & SENSOR != 0
    }

    /// Whether the body's parts have layers of their own: a query sees only those on the
    /// layers it considers (see [`Body::shape_on`]).
    #[inline]
    pub fn layered(&self) -> bool {
        self.key & LAYERED != 0
    }
}

/// Items whose boxes a walk tests together, without a branch per item, before taking those
/// that pass.
const BLOCK: usize = 16;

/// A row of at most this many items is tested as exactly this many, those past its end masked
/// out ([`Level::window`]): a loop of fixed length has no exit to mispredict, and most rows a
/// small area covers hold a few items.
const WINDOW: usize = 4;

/// Whether boxes `a` and `b` overlap or touch: `Aabb::overlaps` as one comparison of four
/// lanes (mins against maxes), without the branch per side that its `&&`s make.
#[inline(always)]
fn meet(a: &Aabb, b: &Aabb) -> bool {
    Vec4::new(a.min.x, a.min.y, b.min.x, b.min.y)
        .cmple(Vec4::new(b.max.x, b.max.y, a.max.x, a.max.y))
        .all()
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

    /// Whether it holds no cell.
    pub fn is_empty(&self) -> bool {
        self.x0 > self.x1 || self.y0 > self.y1
    }
}

/// The levels and the list of large bodies, rebuilt from the step's bodies.
#[derive(Default, Debug)]
pub(crate) struct Grid {
    /// The bodies too large for the levels.
    pub large: Vec<Item>,
    /// The bodies at most a fine cell wide and tall.
    fine: Level,
    /// The others, up to [`LARGE_CELLS`] fine cells.
    coarse: Level,
    /// Scratch for the median body size.
    sizes: Vec<f32>,
}

impl Grid {
    /// Fills the grid from the bodies as they are now, and the broad phase's inputs of this
    /// step (`inputs[i]` for `bodies[i]`).
    // Kept out of line so that profiles show the index's upkeep apart from the queries.
    #[inline(never)]
    pub fn build(&mut self, bodies: &[Body], inputs: &[BroadInput]) {
        self.large.clear();
        self.sizes.clear();
        self.fine.clear();
        self.coarse.clear();
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
        let cell = (median * cell_per_body(count)).max(f32::MIN_POSITIVE.sqrt());
        // One pass over the bodies: each one's item, to the level or list its size calls for.
        // Only bodies resolution may have pushed (and those with layers of their own, rare)
        // have their records read: the others' places are known from the broad phase's inputs.
        let mut coarse_cell = 0.0f32;
        self.fine.placed.reserve(count);
        for (i, (body, input)) in bodies.iter().zip(inputs).enumerate() {
            let aabb = if input.pushable {
                body.shape.aabb()
            } else {
                input.swept
            };
            let reach = aabb.min.abs().max(aabb.max.abs()).max_element();
            let aabb = aabb.grown((reach + 1.0) * ROUND_OFF);
            let sensor = !input.pushable && !input.solid_mighty;
            let layered = input.custom_layers && body.layered;
            let item = Item {
                aabb,
                key: i as u32 | if sensor { SENSOR } else { 0 } | if layered { LAYERED } else { 0 },
                memberships: if input.custom_layers {
                    body.layers.memberships
                } else {
                    CollisionLayers::ALL
                },
            };
            self.file(item, i, cell, &mut coarse_cell);
        }
        self.fine.fill(cell);
        self.coarse.fill(coarse_cell);
    }

    /// Puts `item`, body `i`'s, in the level or list its box's size calls for with fine cells
    /// of `cell`; `coarse_cell` grows to the largest box in the coarse level.
    #[inline]
    fn file(&mut self, item: Item, i: usize, cell: f32, coarse_cell: &mut f32) {
        let size = item.aabb.size().max_element();
        let indexed = i as u32 <= INDEX;
        if size <= cell && indexed {
            self.fine.push(item);
        } else if size <= LARGE_CELLS * cell && indexed {
            *coarse_cell = coarse_cell.max(size);
            self.coarse.push(item);
        } else {
            self.large.push(item);
        }
    }
}
