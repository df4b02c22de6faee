//! [`SweepAndPrune`]: the broad phase. Finds the pairs of boxes that overlap, re-sorting
//! incrementally so that coherent motion costs about O(N).

use glam::Vec2;

use crate::Aabb;

/// A box in the sweep: its bounds and the caller's id.
#[derive(Clone, Copy, Debug)]
struct Proxy {
    min: Vec2,
    max: Vec2,
    id: u32,
}

/// Why a box was refused by [`SweepAndPrune::set`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseError {
    /// A coordinate is NaN or infinite, or `min > max` on an axis.
    InvalidAabb,
}

impl core::fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the box has a non-finite coordinate or min > max")
    }
}

impl std::error::Error for BroadPhaseError {}

/// Sweep-and-prune over axis-aligned boxes, each known by a caller-chosen `u32` id.
///
/// All boxes are kept sorted along x from one call to the next; with coherent motion the
/// re-sort is an insertion sort touching few elements (a full sort takes over when the order
/// changed a lot, as on the first call). The sweep runs in horizontal bands sized from the mean
/// box height, so the work per box stays constant as the world fills up: the cost grows about
/// linearly with the number of boxes instead of with `N·√N` for a single sweep.
///
/// Pairs come out as `(smaller id, larger id)`, each once, in an order that depends only on the
/// boxes, so the same input always gives the same output. Ids index an internal table: keep
/// them dense (for example entity indices or slots).
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
    /// The box of each id; `None` for ids not in the broad phase.
    boxes: Vec<Option<Aabb>>,
    /// Every present id with its box's `min.x`, sorted by `(min.x, id)` after an update. May
    /// still hold ids removed since the last update.
    sorted: Vec<(f32, u32)>,
    /// Per id, whether it has an entry in `sorted`.
    listed: Vec<bool>,
    /// Ids removed since the last update (still in `sorted`).
    removed: usize,
    len: usize,
    /// Per band, the proxies overlapping it in x order; reused from call to call.
    bands: Vec<Vec<Proxy>>,
}

/// The horizontal bands of one update.
#[derive(Clone, Copy)]
struct Bands {
    bottom: f32,
    inverse_height: f32,
    count: usize,
}

impl Bands {
    #[inline]
    fn of(&self, y: f32) -> usize {
        let band = ((y - self.bottom) * self.inverse_height) as usize; // saturating cast
        band.min(self.count - 1)
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

    /// Inserts the box of `id`, or moves it if `id` is present.
    ///
    /// # Errors
    /// [`BroadPhaseError::InvalidAabb`] for a non-finite or inverted box; nothing changes then.
    pub fn set(&mut self, id: u32, aabb: Aabb) -> Result<(), BroadPhaseError> {
        if !aabb.is_valid() {
            return Err(BroadPhaseError::InvalidAabb);
        }
        let index = id as usize;
        if index >= self.boxes.len() {
            self.boxes.resize(index + 1, None);
            self.listed.resize(index + 1, false);
        }
        if self.boxes[index].replace(aabb).is_none() {
            self.len += 1;
            if !self.listed[index] {
                self.listed[index] = true;
                self.sorted.push((aabb.min.x, id));
            }
        }
        Ok(())
    }

    /// The box of `id`, if present.
    pub fn get(&self, id: u32) -> Option<Aabb> {
        self.boxes.get(id as usize).copied().flatten()
    }

    /// Removes `id`; returns its box if it was present.
    pub fn remove(&mut self, id: u32) -> Option<Aabb> {
        let removed = self.boxes.get_mut(id as usize)?.take();
        if removed.is_some() {
            self.len -= 1;
            self.removed += 1;
        }
        removed
    }

    /// Removes every box.
    pub fn clear(&mut self) {
        self.boxes.clear();
        self.listed.clear();
        self.sorted.clear();
        self.removed = 0;
        self.len = 0;
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
        self.update_order();
        let Some(bands) = self.layout_bands() else {
            return;
        };
        for band in &mut self.bands {
            band.clear();
        }
        for &(_, id) in &self.sorted {
            let Some(aabb) = self.boxes[id as usize] else {
                continue;
            };
            let proxy = Proxy {
                min: aabb.min,
                max: aabb.max,
                id,
            };
            for band in bands.of(aabb.min.y)..=bands.of(aabb.max.y) {
                self.bands[band].push(proxy);
            }
        }
        for (k, band) in self.bands[..bands.count].iter().enumerate() {
            sweep_band(band, k, &bands, out);
        }
    }

    /// Drops removed ids, refreshes the keys and re-sorts, incrementally when little changed.
    fn update_order(&mut self) {
        if self.removed > 0 {
            let (boxes, listed) = (&self.boxes, &mut self.listed);
            self.sorted.retain(|&(_, id)| {
                let present = boxes[id as usize].is_some();
                listed[id as usize] = present;
                present
            });
            self.removed = 0;
        }
        for entry in &mut self.sorted {
            if let Some(aabb) = self.boxes[entry.1 as usize] {
                entry.0 = aabb.min.x;
            }
        }
        let less = |a: &(f32, u32), b: &(f32, u32)| a.0 < b.0 || (a.0 == b.0 && a.1 < b.1);
        let budget = 4 * self.sorted.len() + 64;
        let mut moves = 0;
        for i in 1..self.sorted.len() {
            let item = self.sorted[i];
            let mut j = i;
            while j > 0 && less(&item, &self.sorted[j - 1]) {
                self.sorted[j] = self.sorted[j - 1];
                j -= 1;
            }
            self.sorted[j] = item;
            moves += i - j;
            if moves > budget {
                // Too much changed for an insertion sort: sort from scratch.
                self.sorted
                    .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                break;
            }
        }
    }

    /// Chooses bands about twice the mean box height over the occupied range of y.
    fn layout_bands(&mut self) -> Option<Bands> {
        let mut present = self
            .sorted
            .iter()
            .filter_map(|&(_, id)| self.boxes[id as usize]);
        let first = present.next()?;
        let (mut bottom, mut top, mut heights) = (first.min.y, first.max.y, first.size().y as f64);
        for aabb in present {
            bottom = bottom.min(aabb.min.y);
            top = top.max(aabb.max.y);
            heights += aabb.size().y as f64;
        }
        let mean_height = (heights / self.len as f64) as f32;
        let range = top - bottom;
        let wanted = (range / (2.0 * mean_height)).ceil();
        let limit = (self.len / 2).clamp(1, 1 << 16) as f32;
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
        if self.bands.len() < count {
            self.bands.resize_with(count, Vec::new);
        }
        Some(Bands {
            bottom,
            inverse_height,
            count,
        })
    }
}

/// Reports the overlapping pairs of one band whose overlap starts (its lowest y) in this band.
fn sweep_band(band: &[Proxy], k: usize, bands: &Bands, out: &mut Vec<(u32, u32)>) {
    for (i, a) in band.iter().enumerate() {
        for b in &band[i + 1..] {
            if b.min.x > a.max.x {
                break;
            }
            if a.min.y <= b.max.y && b.min.y <= a.max.y && bands.of(a.min.y.max(b.min.y)) == k {
                out.push(if a.id < b.id {
                    (a.id, b.id)
                } else {
                    (b.id, a.id)
                });
            }
        }
    }
}
