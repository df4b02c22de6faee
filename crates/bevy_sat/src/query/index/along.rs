//! [`Grid::each_along`]: the bodies that a box moving along a straight path may meet, handed
//! to the caller nearest first.
//!
//! The walks of both levels ([`Strips`]) advance together, the one whose next strip is nearer
//! first. A body of a strip whose box the moving box meets within the distance wanted waits in
//! a [`Queue`], by a lower bound of the distance at which their boxes meet ([`Path::enter`]).
//! Before a walk takes a strip at distance `t`, the bodies waiting within `t` are handed over,
//! nearest first: no body not handed over yet can be met sooner than they are, so the caller's
//! exact tests find the nearest hit early and the bodies beyond it are never tested.

use bevy::math::Vec4Swizzles;
use bevy::prelude::*;
use sat_core::Aabb;

use super::strips::Strips;
use super::{BLOCK, Grid, Item, WINDOW, meet};

/// Bodies waiting at most; a body beyond is handed over early, the nearest waiting first.
const QUEUE: usize = 16;

/// [`Grid::each_along`]'s `Queue` ids: the level is in this bit, the item's index in the
/// others.
const COARSE: u32 = 1 << 31;

impl Grid {
    /// Walks the bodies a box `start` may meet as it moves along `direction` (unit) from 0 to
    /// `reach`: the large list, then the levels, nearest first. `visit` is called at most once
    /// per body and returns the distance within which the caller has found all it wants
    /// (`f32::INFINITY` for none yet, and never more than it returned before); a body whose
    /// box the moving box cannot meet within that distance is not visited. `ahead` is told of
    /// each body of the levels as it starts waiting to be visited, for the caller to fetch what
    /// it will read of it while the walk goes on.
    pub fn each_along(
        &self,
        start: Aabb,
        direction: Vec2,
        reach: f32,
        ahead: impl Fn(&Item),
        mut visit: impl FnMut(&Item) -> f32,
    ) {
        let path = Path::new(start, direction);
        let mut done = f32::INFINITY;
        // The large bodies (level walls, most far from the path) are first tested against the
        // box the moving box sweeps over the whole reach.
        let swept = start.union(&Aabb {
            min: start.min + direction * reach,
            max: start.max + direction * reach,
        });
        for item in &self.large {
            if meet(&item.aabb, &swept) && path.enter(&item.aabb) <= reach.min(done) {
                done = visit(item);
            }
        }
        let levels = self.levels();
        let item = |id: u32| &levels[usize::from(id & COARSE != 0)].items[(id & !COARSE) as usize];
        let mut walks = [
            Strips::new(levels[0], &start, direction, reach),
            Strips::new(levels[1], &start, direction, reach),
        ];
        let mut queue = Queue::default();
        // The boxes of a block that the path meets in time, and where: filled anew per block.
        let mut met = [(0.0f32, 0u8); BLOCK];
        loop {
            let k = usize::from(walks[1].next < walks[0].next);
            let t = walks[k].next;
            done = queue.flush(t, done, |id| visit(item(id)));
            // Done once nothing is left, or the caller has what it wants nearer than any body
            // not waiting yet.
            if !(t < f32::INFINITY && t <= done) {
                break;
            }
            let walk = &mut walks[k];
            let (level, tag) = (walk.level(), if k == 0 { 0 } else { COARSE });
            let strip = walk.advance();
            let mut within = reach.min(done);
            for y in strip.y0..=strip.y1 {
                let (from, items) = level.row_items(y, strip.x0, strip.x1);
                // A short row's boxes as one window, all four in vector lanes, with no loop to
                // mispredict; a longer row (or a path along an axis) a block of boxes at a time
                // ([`keep`]). Only those the path meets in time are queued. (A box queued after
                // `done` shrank within its window or block is dropped by the queue.)
                if let Some(window) = level.window(from)
                    && items.len() <= WINDOW
                    && !path.exact
                {
                    let (enters, mut found) = path.enter_window(window, items.len(), within);
                    while found != 0 {
                        let k = found.trailing_zeros() as usize;
                        found &= found - 1;
                        ahead(&window[k]);
                        let id = tag | (from + k) as u32;
                        done = queue.offer(enters[k], id, done, |id| visit(item(id)));
                        within = reach.min(done);
                    }
                    continue;
                }
                for (b, block) in items.chunks(BLOCK).enumerate() {
                    let count = keep(block, &mut met, |candidate| {
                        let enter = path.enter(&candidate.aabb);
                        (enter, enter <= within)
                    });
                    let first = from + b * BLOCK;
                    for &(enter, k) in &met[..count] {
                        ahead(&block[usize::from(k)]);
                        let id = tag | (first + usize::from(k)) as u32;
                        done = queue.offer(enter, id, done, |id| visit(item(id)));
                        within = reach.min(done);
                    }
                }
            }
        }
        queue.flush(f32::INFINITY, done, |id| visit(item(id)));
    }
}

/// Writes to `kept`, in order, `(value, k)` for each item `k` of `block` (at most [`BLOCK`]
/// items) whose `test` passes, and returns how many. No branch per item: which items pass is
/// unpredictable, and most do not.
#[inline(always)]
fn keep<T: Copy>(
    block: &[Item],
    kept: &mut [(T, u8); BLOCK],
    test: impl Fn(&Item) -> (T, bool),
) -> usize {
    let mut count = 0;
    for (k, item) in block.iter().enumerate() {
        let (value, passes) = test(item);
        // `count <= k`: always within the block.
        kept[count & (BLOCK - 1)] = (value, k as u8);
        count += usize::from(passes);
    }
    count
}

/// The moving box of a walk along a path, for a quick test of a body's box.
struct Path {
    /// The sides of the moving box that a still box's `(min.x, min.y, max.x, max.y)` are
    /// measured from: its far sides, then its near sides.
    from: Vec4,
    /// `1 / direction`, twice.
    inv: Vec4,
    direction: Vec2,
    /// The direction is along an axis, or so nearly that its inverse may overflow: the boxes
    /// are then tested by divisions, as the queries test them.
    exact: bool,
}

/// The relative round-off allowed for by [`Path::enter`]: far more than that of a product by
/// an inverse against a quotient (three units in the last place).
const PATH_ROUND_OFF: f32 = 1.0e-6;

impl Path {
    fn new(start: Aabb, direction: Vec2) -> Self {
        let exact = !(direction.abs().cmpge(Vec2::splat(1.0e-20)).all());
        let inv = direction.recip();
        Self {
            from: Vec4::new(start.max.x, start.max.y, start.min.x, start.min.y),
            inv: Vec4::new(inv.x, inv.y, inv.x, inv.y),
            direction,
            exact,
        }
    }

    /// A lower bound of the distance at which the moving box first meets `aabb` (0 if they
    /// overlap at the start), `f32::INFINITY` if they never meet. Never above what the
    /// queries' own test of the boxes (by divisions) finds, nor infinite where that test finds
    /// a meeting.
    #[inline]
    fn enter(&self, aabb: &Aabb) -> f32 {
        // `(lo.x, lo.y, hi.x, hi.y)`: the still box's sides from the moving box's far and near
        // sides, the same differences as the queries' test.
        let offsets = Vec4::new(aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y) - self.from;
        if self.exact {
            return exact_enter(offsets.xy(), offsets.zw(), self.direction);
        }
        // The distances at which each side is reached, then along each axis the nearer (where
        // the boxes start to overlap along it) and the farther (where they stop), and of those
        // the farthest start and the nearest stop, all in vector lanes. No NaN: the inverse is
        // finite here, and so is every product.
        let at = offsets * self.inv;
        let swapped = at.zwxy();
        let (near, far) = (at.min(swapped), at.max(swapped));
        let start = near.max(near.yxwz()).x;
        let stop = far.min(far.yxwz()).x;
        let start = if start > 0.0 { start } else { 0.0 };
        let enter = start * (1.0 - PATH_ROUND_OFF);
        // `stop` has the sign of the quotient's: negative, it stays below `enter`.
        if enter <= stop * (1.0 + PATH_ROUND_OFF) {
            enter
        } else {
            f32::INFINITY
        }
    }

    /// [`Path::enter`] for the first `len` boxes of `window` (not for a path along an axis:
    /// [`Path::exact`]), the four in vector lanes by the same operations in the same order, so
    /// the same distances to the last bit; and the boxes met within `within`, as bits.
    #[inline]
    fn enter_window(
        &self,
        window: &[Item; WINDOW],
        len: usize,
        within: f32,
    ) -> ([f32; WINDOW], u32) {
        let [a, b, c, d] = window.each_ref().map(|item| {
            let aabb = &item.aabb;
            Vec4::new(aabb.min.x, aabb.min.y, aabb.max.x, aabb.max.y)
        });
        // Lanes by box: the low and high sides along each axis of the four.
        let sides = Mat4::from_cols(a, b, c, d).transpose();
        let (from, inv) = (self.from, self.inv);
        let low_x = (sides.x_axis - Vec4::splat(from.x)) * inv.x;
        let low_y = (sides.y_axis - Vec4::splat(from.y)) * inv.y;
        let high_x = (sides.z_axis - Vec4::splat(from.z)) * inv.z;
        let high_y = (sides.w_axis - Vec4::splat(from.w)) * inv.w;
        let start = low_x.min(high_x).max(low_y.min(high_y));
        let stop = low_x.max(high_x).min(low_y.max(high_y));
        let start = Vec4::select(start.cmpgt(Vec4::ZERO), start, Vec4::ZERO);
        let enter = start * (1.0 - PATH_ROUND_OFF);
        let met = enter.cmple(stop * (1.0 + PATH_ROUND_OFF));
        let enter = Vec4::select(met, enter, Vec4::INFINITY);
        let within = enter.cmple(Vec4::splat(within)).bitmask();
        // An array, not a vector: the caller reads a lane by a number.
        (enter.to_array(), within & ((1 << len) - 1))
    }
}

/// [`Path::enter`] by divisions, as the queries compute it: the interval of distances at which
/// the boxes overlap along each axis (`lo` and `hi`: the offsets of the still box's sides from
/// the moving box's far and near sides).
#[cold]
fn exact_enter(lo: Vec2, hi: Vec2, direction: Vec2) -> f32 {
    let (mut enter, mut exit) = (0.0f32, f32::INFINITY);
    for axis in 0..2 {
        let d = direction[axis];
        if d == 0.0 {
            if lo[axis] > 0.0 || hi[axis] < 0.0 {
                return f32::INFINITY;
            }
        } else {
            let (a, b) = (lo[axis] / d, hi[axis] / d);
            enter = enter.max(a.min(b));
            exit = exit.min(a.max(b));
        }
    }
    if enter <= exit { enter } else { f32::INFINITY }
}

/// Bodies waiting to be handed over, by the distance at which they may first be met: at most
/// [`QUEUE`], in a fixed array (a query allocates nothing).
struct Queue {
    /// `keys[head..len]`, ascending, and the ids of their bodies.
    keys: [f32; QUEUE],
    ids: [u32; QUEUE],
    head: usize,
    len: usize,
}

impl Default for Queue {
    fn default() -> Self {
        Self {
            keys: [0.0; QUEUE],
            ids: [0; QUEUE],
            head: 0,
            len: 0,
        }
    }
}

impl Queue {
    /// Adds body `id` at distance `key`. When the queue is full, the nearest body waiting
    /// leaves it to make room, and is returned to be handed over at once.
    #[inline]
    fn push(&mut self, key: f32, id: u32) -> Option<(f32, u32)> {
        let mut out = None;
        if self.len == QUEUE {
            if self.head == 0 {
                out = Some((self.keys[0], self.ids[0]));
                self.head = 1;
            }
            self.keys.copy_within(self.head..self.len, 0);
            self.ids.copy_within(self.head..self.len, 0);
            self.len -= self.head;
            self.head = 0;
        }
        // Bodies mostly come in order along the path: the place is found from the end.
        let mut at = self.len;
        while at > self.head && self.keys[at - 1] > key {
            self.keys[at] = self.keys[at - 1];
            self.ids[at] = self.ids[at - 1];
            at -= 1;
        }
        self.keys[at] = key;
        self.ids[at] = id;
        self.len += 1;
        out
    }

    /// Adds body `id` at distance `key` ([`Queue::push`]); a body that leaves the full queue to
    /// make room is handed to `visit` at once if it is within the distance `done`. Returns the
    /// distance within which the caller has what it wants: `visit`'s answer, else `done`.
    #[inline]
    fn offer(&mut self, key: f32, id: u32, done: f32, visit: impl FnOnce(u32) -> f32) -> f32 {
        match self.push(key, id) {
            Some((key, id)) if key <= done => visit(id),
            _ => done,
        }
    }

    /// Hands the bodies waiting within `t` to `visit`, nearest first, as long as they are
    /// within the distance `done` it returns (starting from the one given); returns the last.
    /// The bodies beyond `done` are dropped: `done` never grows.
    #[inline]
    fn flush(&mut self, t: f32, mut done: f32, mut visit: impl FnMut(u32) -> f32) -> f32 {
        while self.head < self.len && self.keys[self.head] <= t {
            let (key, id) = (self.keys[self.head], self.ids[self.head]);
            self.head += 1;
            if key > done {
                self.head = self.len;
                break;
            }
            done = visit(id);
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::testing::xorshift::XorShift;

    /// A box of sides up to 40 around a point within 100 of the origin, or one that meets no box
    /// (a level's padding).
    fn item(rng: &mut XorShift) -> Item {
        let aabb = if rng.next_u64().is_multiple_of(8) {
            Aabb {
                min: Vec2::INFINITY,
                max: Vec2::NEG_INFINITY,
            }
        } else {
            let centre = Vec2::new(rng.range(-100.0, 100.0), rng.range(-100.0, 100.0));
            let half = Vec2::new(rng.range(0.0, 20.0), rng.range(0.0, 20.0));
            Aabb {
                min: centre - half,
                max: centre + half,
            }
        };
        Item {
            aabb,
            key: 0,
            memberships: 0,
        }
    }

    #[test]
    fn a_window_of_boxes_gets_the_distances_of_the_boxes_one_by_one_to_the_last_bit() {
        let mut rng = XorShift::new(7);
        for _ in 0..20_000 {
            let at = Vec2::new(rng.range(-120.0, 120.0), rng.range(-120.0, 120.0));
            let half = Vec2::new(rng.range(0.0, 10.0), rng.range(0.0, 10.0));
            let start = Aabb {
                min: at - half,
                max: at + half,
            };
            let path = Path::new(
                start,
                Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)),
            );
            if path.exact {
                continue;
            }
            let window = [(); WINDOW].map(|_| item(&mut rng));
            let len = (rng.next_u64() % (WINDOW as u64 + 1)) as usize;
            let within = rng.range(0.0, 200.0);
            let (enters, met) = path.enter_window(&window, len, within);
            for (k, candidate) in window.iter().enumerate() {
                let enter = path.enter(&candidate.aabb);
                assert_eq!(enters[k].to_bits(), enter.to_bits());
                assert_eq!(met & (1 << k) != 0, k < len && enter <= within);
            }
        }
    }
}
