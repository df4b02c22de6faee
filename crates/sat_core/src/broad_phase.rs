//! [`SweepAndPrune`]: the broad phase. Finds the pairs of boxes that overlap, re-sorting
//! incrementally so that coherent motion costs about O(N).

use glam::Vec2;
use prefetch_index::prefetch_index;

use crate::Aabb;

/// How many proxies ahead a band refresh asks for the box it will read.
const PREFETCH_DISTANCE: usize = 8;

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
/// The world is cut into horizontal bands about twice the mean box height; every box is listed
/// in each band it overlaps, and each band's list stays sorted along x from one call to the
/// next. Within a band, neighbours along x are far apart compared with a step's motion, so with
/// coherent motion the re-sort is an insertion sort that moves few elements (a full sort takes
/// over when the order changed a lot, as on the first call), and the work per box stays
/// constant as the world fills up: the cost grows about linearly with the number of boxes. The
/// bands are laid out again only when the boxes' extent or size changes a lot.
///
/// Pairs come out as `(smaller id, larger id)`, each once (a pair overlapping several bands is
/// reported by the band holding the bottom of the overlap), in an order that depends only on
/// the boxes and the calls made, so the same input always gives the same output. Ids index an
/// internal table: keep them dense (for example entity indices or slots).
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
    /// Per id, the bands it is listed in (`first..=last`), if any.
    listed: Vec<Option<(u32, u32)>>,
    len: usize,
    /// The current band layout, if laid out.
    layout: Option<Bands>,
    /// Per band, the proxies overlapping it, sorted by `(min.x, id)` after an update.
    bands: Vec<Vec<Proxy>>,
}

/// The horizontal bands of the layout.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bands {
    bottom: f32,
    top: f32,
    inverse_height: f32,
    count: usize,
}

impl Bands {
    /// The band holding `y` (clamped: everything below the first band is in it, everything
    /// above the last in that).
    #[inline]
    fn of(&self, y: f32) -> usize {
        let band = ((y - self.bottom) * self.inverse_height) as usize; // saturating cast
        band.min(self.count - 1)
    }

    /// The bands a box overlaps.
    #[inline]
    fn span(&self, aabb: &Aabb) -> (u32, u32) {
        (self.of(aabb.min.y) as u32, self.of(aabb.max.y) as u32)
    }

    /// Bands about twice the mean box height over the occupied range of y, at most one per two
    /// boxes and 65,536 in all.
    fn fit(boxes: &[Option<Aabb>], len: usize) -> Option<Bands> {
        let mut present = boxes.iter().flatten();
        let first = present.next()?;
        let (mut bottom, mut top, mut heights) =
            (first.min.y, first.max.y, f64::from(first.size().y));
        for aabb in present {
            bottom = bottom.min(aabb.min.y);
            top = top.max(aabb.max.y);
            heights += f64::from(aabb.size().y);
        }
        let mean_height = (heights / len.max(1) as f64) as f32;
        let range = top - bottom;
        let wanted = (range / (2.0 * mean_height)).ceil();
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
            self.listed.resize(index + 1, None);
        }
        if self.boxes[index].replace(aabb).is_none() {
            self.len += 1;
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
        }
        removed
    }

    /// Removes every box.
    pub fn clear(&mut self) {
        self.boxes.clear();
        self.listed.clear();
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
        let Some(fresh) = Bands::fit(&self.boxes, self.len) else {
            self.clear();
            return;
        };
        match self.layout {
            Some(layout) if layout.still_fits(&fresh) => self.update_bands(layout),
            _ => self.lay_out(fresh),
        }
        let Some(layout) = self.layout else { return };
        for (k, band) in self.bands[..layout.count].iter().enumerate() {
            sweep_band(band, k, &layout, out);
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
        for (id, (aabb, listed)) in self.boxes.iter().zip(&mut self.listed).enumerate() {
            *listed = aabb.map(|aabb| {
                let (first, last) = layout.span(&aabb);
                for band in &mut self.bands[first as usize..=last as usize] {
                    band.push(Proxy::new(&aabb, id as u32));
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
        let boxes = &self.boxes;
        for (k, band) in self.bands[..layout.count].iter_mut().enumerate() {
            // Kept in place, in order. A band lists its boxes in space order, not id order, so
            // the box of the proxy a few ahead is asked for before it is needed.
            let mut kept = 0;
            for j in 0..band.len() {
                if let Some(ahead) = band.get(j + PREFETCH_DISTANCE) {
                    prefetch_index(boxes, ahead.id as usize);
                }
                let id = band[j].id;
                let Some(aabb) = boxes[id as usize] else {
                    continue;
                };
                let (first, last) = layout.span(&aabb);
                if (first as usize..=last as usize).contains(&k) {
                    band[kept] = Proxy::new(&aabb, id);
                    kept += 1;
                }
            }
            band.truncate(kept);
        }
        for (id, (aabb, listed)) in self.boxes.iter().zip(&mut self.listed).enumerate() {
            let Some(aabb) = aabb else {
                *listed = None;
                continue;
            };
            let (first, last) = layout.span(aabb);
            let before = listed.unwrap_or((u32::MAX, 0));
            for k in first..=last {
                if !(before.0..=before.1).contains(&k) {
                    self.bands[k as usize].push(Proxy::new(aabb, id as u32));
                }
            }
            *listed = Some((first, last));
        }
        for band in &mut self.bands[..layout.count] {
            insertion_sort(band);
        }
    }
}

impl Proxy {
    #[inline]
    fn new(aabb: &Aabb, id: u32) -> Self {
        Self {
            min: aabb.min,
            max: aabb.max,
            id,
        }
    }

    #[inline]
    fn order(a: &Proxy, b: &Proxy) -> core::cmp::Ordering {
        a.min.x.total_cmp(&b.min.x).then(a.id.cmp(&b.id))
    }
}

/// Sorts a nearly sorted band by `(min.x, id)`; falls back to a full sort when the order
/// changed too much for an insertion sort to pay.
fn insertion_sort(band: &mut [Proxy]) {
    let less = |a: &Proxy, b: &Proxy| a.min.x < b.min.x || (a.min.x == b.min.x && a.id < b.id);
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
