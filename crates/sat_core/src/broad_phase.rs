//! [`SweepAndPrune`]: the broad phase. Finds the pairs of boxes that overlap, re-sorting
//! incrementally so that coherent motion costs about O(N).

use glam::{BVec4A, Vec2, Vec4};
use prefetch_index::prefetch_index;

use crate::Aabb;

/// How many proxies ahead a band refresh asks for the box it will read.
const PREFETCH_DISTANCE: usize = 8;

/// A box in the sweep: its bounds and the caller's id, as listed in one band.
#[derive(Clone, Copy, Debug)]
struct Proxy {
    min: Vec2,
    max: Vec2,
    /// The id, with [`FIRST_BAND`] set when this band is the lowest the box is listed in.
    key: u32,
}

/// The bit of [`Proxy::key`] that marks a box's lowest band. Ids stay below it
/// ([`SweepAndPrune::MAX_ID`]).
const FIRST_BAND: u32 = 1 << 31;

/// Why a box was refused by [`SweepAndPrune::set`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseError {
    /// A coordinate is NaN or infinite, or `min > max` on an axis.
    InvalidAabb,
    /// The id is not below [`SweepAndPrune::id_limit`] (`limit`) at the time of the call: it is
    /// too far past the ids in use, or [`SweepAndPrune::MAX_ID`] or more.
    IdOutOfRange {
        /// The id refused.
        id: u32,
        /// The limit it had to be below.
        limit: u32,
    },
}

impl core::fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Self::InvalidAabb => f.write_str("the box has a non-finite coordinate or min > max"),
            Self::IdOutOfRange { id, limit } => write!(
                f,
                "id {id} is out of range: ids must stay below {limit}, at most {} past the \
                 ids in use (keep ids dense)",
                SweepAndPrune::ID_STEP
            ),
        }
    }
}

impl std::error::Error for BroadPhaseError {}

/// Sweep-and-prune over axis-aligned boxes, each known by a caller-chosen `u32` id.
///
/// The world is cut into horizontal bands about three times the mean box height; every box is
/// listed in each band it overlaps, and each band's list stays sorted along x from one call to
/// the next. Within a band, neighbours along x are far apart compared with a step's motion, so with
/// coherent motion the re-sort is an insertion sort that moves few elements (a full sort takes
/// over when the order changed a lot, as on the first call), and the work per box stays
/// constant as the world fills up: the cost grows about linearly with the number of boxes. The
/// bands are laid out again only when the boxes' extent or size changes a lot.
///
/// Pairs come out as `(smaller id, larger id)`, each once (a pair overlapping several bands is
/// reported by the band holding the bottom of the overlap), in an order that depends only on
/// the boxes and the calls made, so the same input always gives the same output. Ids index an
/// internal table, one entry per id up to the highest: keep them dense (slots handed out from
/// 0, reusing freed ones, or entity indices). A new id may be at most
/// [`ID_STEP`](Self::ID_STEP) past the ids the table spans (see [`set`](Self::set)), so that a
/// stray id cannot make it allocate gigabytes.
///
/// ```
/// # use sat_core::{Aabb, SweepAndPrune}; use glam::Vec2;
/// let mut sap = SweepAndPrune::new();
/// let unit = |x: f32, y: f32| Aabb { min: Vec2::new(x, y), max: Vec2::new(x + 1.0, y + 1.0) };
/// sap.set(0, unit(0.0, 0.0)).unwrap();
/// sap.set(1, unit(0.5, 0.5)).unwrap();
/// sap.set(2, unit(5.0, 0.0)).unwrap();
/// assert_eq!(sap.pairs(), vec![(0, 1)]);
/// sap.set(2, unit(1.0, -0.5)).unwrap(); // moved next to 0 and 1
/// let mut pairs = sap.pairs();
/// pairs.sort();
/// assert_eq!(pairs, vec![(0, 1), (0, 2), (1, 2)]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct SweepAndPrune {
    /// Per id, its box and bands: one record, since refreshing a band reads both for each of
    /// its boxes, in an order unrelated to the ids.
    entries: Vec<Entry>,
    len: usize,
    /// The current band layout, if laid out.
    layout: Option<Bands>,
    /// Per band, the proxies overlapping it, sorted by `(min.x, id)` after an update.
    bands: Vec<Vec<Proxy>>,
    /// Scratch for the sweep of one band.
    lanes: SweepLanes,
}

/// What the broad phase knows of one id: its box, and the bands it is listed in
/// (`first..=last`), each `None` while it has none.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    aabb: Option<Aabb>,
    listed: Option<(u32, u32)>,
}

/// The horizontal bands of the layout.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bands {
    bottom: f32,
    top: f32,
    inverse_height: f32,
    count: usize,
    /// The index of the last band, `count - 1` (at most 65,535).
    last: i32,
}

impl Bands {
    /// The band holding `y` (clamped: everything below the first band is in it, everything
    /// above the last in that).
    #[inline]
    fn of(&self, y: f32) -> usize {
        // A cast to `i32` (saturating, like every `as` from a float) and a clamp between
        // integers: about half the instructions of a saturating cast to `usize`.
        let band = ((y - self.bottom) * self.inverse_height) as i32;
        band.clamp(0, self.last) as usize
    }

    /// The bands a box overlaps.
    #[inline]
    fn span(&self, aabb: &Aabb) -> (u32, u32) {
        (self.of(aabb.min.y) as u32, self.of(aabb.max.y) as u32)
    }

    /// Bands about three times the mean box height over the occupied range of y, at most one per
    /// two boxes and 65,536 in all. (Taller bands list fewer boxes twice, shorter ones test
    /// fewer neighbours per box; three heights balances the two, and the cost changes little
    /// around it.)
    fn fit(entries: &[Entry], len: usize) -> Option<Bands> {
        let first = entries.iter().find_map(|entry| entry.aabb)?;
        let (mut bottom, mut top) = (first.min.y, first.max.y);
        // Two sums, over even and odd ids, so that each addition need not wait for the one
        // before (this runs over every box on every call). Boxes are finite (see `set`): plain
        // comparisons, without `f32::min`'s handling of NaN.
        let mut heights = [0.0f64; 2];
        for two in entries.chunks(2) {
            for (entry, sum) in two.iter().zip(&mut heights) {
                if let Some(aabb) = &entry.aabb {
                    bottom = if aabb.min.y < bottom {
                        aabb.min.y
                    } else {
                        bottom
                    };
                    top = if aabb.max.y > top { aabb.max.y } else { top };
                    *sum += f64::from(aabb.size().y);
                }
            }
        }
        let mean_height = ((heights[0] + heights[1]) / len.max(1) as f64) as f32;
        let range = top - bottom;
        let wanted = (range / (3.0 * mean_height)).ceil();
        let limit = (len / 2).clamp(1, 1 << 16) as f32;
        // NaN (zero-size boxes) and infinity both end up in the clamp's bounds.
        let count = if wanted.is_nan() {
            1.0
        } else {
            wanted.clamp(1.0, limit)
        } as usize;
        let inverse_height = if range > 0.0 && range.is_finite() {
            count as f32 / range
        } else {
            0.0
        };
        Some(Bands {
            bottom,
            top,
            inverse_height,
            count,
            last: (count - 1) as i32,
        })
    }

    /// Whether `self`, the layout in use, still suits boxes best laid out as `fresh`: about the
    /// same number of bands, and the occupied range not grown or shrunk by more than a band.
    fn still_fits(&self, fresh: &Bands) -> bool {
        let band = if self.inverse_height > 0.0 {
            1.0 / self.inverse_height
        } else {
            0.0
        };
        let (a, b) = (self.count as f32, fresh.count as f32);
        (a - b).abs() <= 0.25 * a.max(b)
            && (self.bottom - fresh.bottom).abs() <= band
            && (self.top - fresh.top).abs() <= band
    }
}

impl SweepAndPrune {
    /// An empty broad phase.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many boxes it holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no box.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Ids are always below this (2^31).
    pub const MAX_ID: u32 = FIRST_BAND;

    /// How far past the ids the table spans a new id may be (2^20, 1,048,576): the most entries
    /// one [`set`](Self::set) adds. Ids below it are accepted in any order from the start.
    pub const ID_STEP: u32 = 1 << 20;

    /// The lowest id [`set`](Self::set) refuses now: [`ID_STEP`](Self::ID_STEP) past the ids the
    /// table spans (one more than the highest id set since it was created or
    /// [`clear`](Self::clear)ed, removed ones included), and at most [`MAX_ID`](Self::MAX_ID).
    ///
    /// Ids handed out densely (the next new id is never more than the number of ids handed out
    /// so far) are always below it.
    ///
    /// ```
    /// # use sat_core::{Aabb, BroadPhaseError, SweepAndPrune}; use glam::Vec2;
    /// let mut sap = SweepAndPrune::new();
    /// let unit = Aabb { min: Vec2::ZERO, max: Vec2::ONE };
    /// assert_eq!(sap.id_limit(), SweepAndPrune::ID_STEP);
    /// sap.set(1000, unit).unwrap();
    /// assert_eq!(sap.id_limit(), 1001 + SweepAndPrune::ID_STEP);
    /// let far = 1001 + SweepAndPrune::ID_STEP;
    /// assert_eq!(
    ///     sap.set(far, unit),
    ///     Err(BroadPhaseError::IdOutOfRange { id: far, limit: far })
    /// );
    /// ```
    pub fn id_limit(&self) -> u32 {
        // `entries` never holds more than MAX_ID entries, so the cast is exact.
        (self.entries.len() as u32)
            .saturating_add(Self::ID_STEP)
            .min(Self::MAX_ID)
    }

    /// Inserts the box of `id`, or moves it if `id` is present.
    ///
    /// # Errors
    /// [`BroadPhaseError::InvalidAabb`] for a non-finite or inverted box,
    /// [`BroadPhaseError::IdOutOfRange`] for an id not below [`id_limit`](Self::id_limit);
    /// nothing changes then.
    pub fn set(&mut self, id: u32, aabb: Aabb) -> Result<(), BroadPhaseError> {
        if !aabb.is_valid() {
            return Err(BroadPhaseError::InvalidAabb);
        }
        let limit = self.id_limit();
        if id >= limit {
            return Err(BroadPhaseError::IdOutOfRange { id, limit });
        }
        let index = id as usize;
        if index >= self.entries.len() {
            self.entries.resize(index + 1, Entry::default());
        }
        if self.entries[index].aabb.replace(aabb).is_none() {
            self.len += 1;
        }
        Ok(())
    }

    /// The box of `id`, if present.
    pub fn get(&self, id: u32) -> Option<Aabb> {
        self.entries.get(id as usize).and_then(|entry| entry.aabb)
    }

    /// Removes `id`; returns its box if it was present.
    pub fn remove(&mut self, id: u32) -> Option<Aabb> {
        let removed = self.entries.get_mut(id as usize)?.aabb.take();
        if removed.is_some() {
            self.len -= 1;
        }
        removed
    }

    /// Removes every box, and forgets the ids: [`id_limit`](Self::id_limit) starts again from
    /// [`ID_STEP`](Self::ID_STEP).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.forget_layout();
    }

    /// Drops the band layout, when no box is left: the ids stay spanned, so that ids in use
    /// before stay accepted.
    fn forget_layout(&mut self) {
        self.len = 0;
        self.layout = None;
        for band in &mut self.bands {
            band.clear();
        }
    }

    /// The overlapping pairs, as a new vector. See [`pairs_into`](Self::pairs_into).
    pub fn pairs(&mut self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        self.pairs_into(&mut out);
        out
    }

    /// Replaces the contents of `out` with every pair of boxes that overlap or touch, as
    /// `(smaller id, larger id)`, each pair once. Reuses all its storage from call to call.
    pub fn pairs_into(&mut self, out: &mut Vec<(u32, u32)>) {
        out.clear();
        let Some(fresh) = Bands::fit(&self.entries, self.len) else {
            // No box: the entries are all empty already, and keep spanning their ids.
            self.forget_layout();
            return;
        };
        match self.layout {
            Some(layout) if layout.still_fits(&fresh) => self.update_bands(layout),
            _ => self.lay_out(fresh),
        }
        let Some(layout) = self.layout else { return };
        for band in &self.bands[..layout.count] {
            sweep_band(band, &mut self.lanes, out);
        }
    }

    /// Lists every box again in a new layout.
    fn lay_out(&mut self, layout: Bands) {
        self.layout = Some(layout);
        if self.bands.len() < layout.count {
            self.bands.resize_with(layout.count, Vec::new);
        }
        for band in &mut self.bands {
            band.clear();
        }
        for (id, Entry { aabb, listed }) in self.entries.iter_mut().enumerate() {
            *listed = aabb.map(|aabb| {
                let (first, last) = layout.span(&aabb);
                for k in first..=last {
                    self.bands[k as usize].push(Proxy::new(&aabb, id as u32, k == first));
                }
                (first, last)
            });
        }
        for band in &mut self.bands[..layout.count] {
            band.sort_unstable_by(Proxy::order);
        }
    }

    /// Keeps the layout: refreshes every listed box, drops it from bands it left (or when it was
    /// removed), adds it to bands it entered, and re-sorts each band incrementally.
    fn update_bands(&mut self, layout: Bands) {
        // Each box's bands now, in id order (its span is computed once here): the bands it
        // entered list it at their end.
        for (id, Entry { aabb, listed }) in self.entries.iter_mut().enumerate() {
            let now = aabb.map(|aabb| layout.span(&aabb));
            if now == *listed {
                continue; // the usual case: the same bands as last step
            }
            if let (Some(aabb), Some((first, last))) = (aabb, now) {
                let before = listed.unwrap_or((u32::MAX, 0));
                for k in first..=last {
                    if !(before.0..=before.1).contains(&k) {
                        self.bands[k as usize].push(Proxy::new(aabb, id as u32, k == first));
                    }
                }
            }
            *listed = now;
        }
        let entries = &self.entries;
        for (k, band) in self.bands[..layout.count].iter_mut().enumerate() {
            // Kept in place, in order, refreshed. A band lists its boxes in space order, not id
            // order, so what the proxy a few ahead will read is asked for before it is needed.
            let mut kept = 0;
            for j in 0..band.len() {
                if let Some(ahead) = band.get(j + PREFETCH_DISTANCE) {
                    prefetch_index(entries, ahead.id() as usize);
                }
                let id = band[j].id();
                let Entry {
                    aabb: Some(aabb),
                    listed: Some((first, last)),
                } = entries[id as usize]
                else {
                    continue;
                };
                if (first as usize..=last as usize).contains(&k) {
                    band[kept] = Proxy::new(&aabb, id, k == first as usize);
                    kept += 1;
                }
            }
            band.truncate(kept);
        }
        for band in &mut self.bands[..layout.count] {
            insertion_sort(band);
        }
    }
}

impl Proxy {
    /// The proxy of box `id` in a band, `first` if it is the lowest band the box is in.
    #[inline]
    fn new(aabb: &Aabb, id: u32, first: bool) -> Self {
        Self {
            min: aabb.min,
            max: aabb.max,
            key: id | if first { FIRST_BAND } else { 0 },
        }
    }

    #[inline]
    fn id(&self) -> u32 {
        self.key & !FIRST_BAND
    }

    #[inline]
    fn order(a: &Proxy, b: &Proxy) -> core::cmp::Ordering {
        a.min.x.total_cmp(&b.min.x).then(a.id().cmp(&b.id()))
    }
}

/// Sorts a nearly sorted band by `(min.x, id)`; falls back to a full sort when the order
/// changed too much for an insertion sort to pay.
fn insertion_sort(band: &mut [Proxy]) {
    let less = |a: &Proxy, b: &Proxy| a.min.x < b.min.x || (a.min.x == b.min.x && a.id() < b.id());
    let budget = 8 * band.len() + 64;
    let mut moves = 0;
    for i in 1..band.len() {
        let item = band[i];
        let mut j = i;
        while j > 0 && less(&item, &band[j - 1]) {
            band[j] = band[j - 1];
            j -= 1;
        }
        band[j] = item;
        moves += i - j;
        if moves > budget {
            band.sort_unstable_by(Proxy::order);
            return;
        }
    }
}

/// One band laid out for the sweep: the fields the neighbours are tested on, each in an array
/// of its own, so that a box is compared with the next four in a few vector instructions. Four
/// sentinels follow the proxies (at `+inf` along x, so never near), so that a group of four
/// never reads past the end.
#[derive(Clone, Debug, Default)]
struct SweepLanes {
    min_x: Vec<f32>,
    min_y: Vec<f32>,
    max_y: Vec<f32>,
    /// 1 where the box starts in this band, else 0.
    first: Vec<f32>,
}

impl SweepLanes {
    /// How many boxes one comparison covers.
    const WIDTH: usize = 4;

    fn fill(&mut self, band: &[Proxy]) {
        fn lane(lane: &mut Vec<f32>, values: impl Iterator<Item = f32>, sentinel: f32) {
            lane.clear();
            lane.extend(values.chain(core::iter::repeat_n(sentinel, SweepLanes::WIDTH)));
        }
        let first = |p: &Proxy| if p.key & FIRST_BAND != 0 { 1.0 } else { 0.0 };
        lane(&mut self.min_x, band.iter().map(|p| p.min.x), f32::INFINITY);
        lane(&mut self.min_y, band.iter().map(|p| p.min.y), f32::INFINITY);
        lane(
            &mut self.max_y,
            band.iter().map(|p| p.max.y),
            f32::NEG_INFINITY,
        );
        lane(&mut self.first, band.iter().map(first), 0.0);
    }

    /// The four lanes of `lane` from `at`.
    #[inline(always)]
    fn four(lane: &[f32], at: usize) -> Vec4 {
        Vec4::from_slice(&lane[at..at + Self::WIDTH])
    }
}

/// Reports the overlapping pairs of one band whose overlap starts (its lowest y) in this band.
///
/// Each box is compared with the boxes after it four at a time, as long as all four start
/// before its right side along x: one outcome per group of four (and usually one group) for the
/// branch predictor to guess, where a box-by-box loop had two per neighbour, as unpredictable
/// as the scene.
fn sweep_band(band: &[Proxy], lanes: &mut SweepLanes, out: &mut Vec<(u32, u32)>) {
    lanes.fill(band);
    let lanes = &*lanes;
    for (i, a) in band.iter().enumerate() {
        let right = Vec4::splat(a.max.x);
        let (bottom, top) = (Vec4::splat(a.min.y), Vec4::splat(a.max.y));
        // Both are listed here, so the overlap's lowest y, the higher of their bottoms, is in
        // this band exactly when one of them starts in it.
        let first = a.key & FIRST_BAND != 0;
        let mut j = i + 1;
        loop {
            let near = SweepLanes::four(&lanes.min_x, j).cmple(right);
            let overlaps = near
                & SweepLanes::four(&lanes.min_y, j).cmple(top)
                & SweepLanes::four(&lanes.max_y, j).cmpge(bottom)
                & (SweepLanes::four(&lanes.first, j).cmpgt(Vec4::ZERO) | BVec4A::splat(first));
            let mut hits = overlaps.bitmask();
            while hits != 0 {
                let (a, b) = (a.id(), band[j + hits.trailing_zeros() as usize].id());
                out.push((a.min(b), a.max(b)));
                hits &= hits - 1;
            }
            // Sorted along x: once one of the four starts past the right side, so does the rest.
            if near.bitmask() != 0b1111 {
                break;
            }
            j += SweepLanes::WIDTH;
        }
    }
}
