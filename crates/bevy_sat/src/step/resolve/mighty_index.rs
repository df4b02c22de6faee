//! Which solid Mighty bodies a body moved beyond the step's reach may meet, for the last check
//! ([`settle`](super::settle)): the moving ones are few and each is tested; the static scenery
//! may be thousands of bodies, so once a step has tested it all a few times, it is sorted by
//! the left of the boxes, and the sorted list is kept while the scenery does not change.

use sat_core::Aabb;

use crate::step::broad::{MightyBox, MightyBoxes};

/// How many far bodies a step looks for the Mighty bodies they meet by testing every box (a far
/// body is rare: usually none, or a few in a crowd), before it sorts the static scenery to find
/// them faster (in this step and the next ones, until the scenery changes).
const LINEAR_SCANS: usize = 8;

/// How many times wider than the average a scenery box must be to be tested apart from the
/// sorted ones.
const WIDE: f32 = 4.0;

/// The static scenery ([`MightyBoxes::still`]) sorted, once a step asks for it.
#[derive(Default, Debug)]
pub(super) struct MightyIndex {
    /// How many far bodies this step looked for the Mighty bodies they meet.
    scans: usize,
    /// Indices into [`MightyBoxes::still`] as `(left of the box, index)`, sorted, with the
    /// widest of their boxes; apart from them, the few boxes much wider than the rest (level
    /// walls, long floors), which would otherwise make every search start at the far left.
    sorted: Vec<(f32, u32)>,
    widest: f32,
    wide: Vec<u32>,
    /// The [`MightyBoxes::version`] `sorted` and `wide` index.
    version: Option<u64>,
}

impl MightyIndex {
    /// Starts a step: no far body looked for yet.
    pub fn start_step(&mut self) {
        self.scans = 0;
    }

    /// Counts one more far body about to look in `boxes`, and sorts the scenery once enough
    /// have, unless it is sorted already.
    pub fn prepare_scan(&mut self, boxes: &MightyBoxes) {
        self.scans += 1;
        if self.version != Some(boxes.version) && self.scans > LINEAR_SCANS {
            self.index(&boxes.still);
            self.version = Some(boxes.version);
        }
    }

    /// Lists `still` by the left of the boxes, the very wide ones apart.
    fn index(&mut self, still: &[MightyBox]) {
        self.sorted.clear();
        self.wide.clear();
        self.widest = 0.0;
        let width = |b: &MightyBox| b.aabb.max.x - b.aabb.min.x;
        let average = still.iter().map(width).sum::<f32>() / still.len().max(1) as f32;
        for (k, b) in still.iter().enumerate() {
            if width(b) > WIDE * average {
                self.wide.push(k as u32);
            } else {
                self.widest = self.widest.max(width(b));
                self.sorted.push((b.aabb.min.x, k as u32));
            }
        }
        self.sorted
            .sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    }

    /// Calls `each` with every moving box of `boxes`, and with every still one whose box may
    /// overlap `aabb`: all of them until the scenery is sorted, then those whose left is near
    /// and the wide ones. (`each` tests the box itself.)
    pub fn near(&self, boxes: &MightyBoxes, aabb: Aabb, mut each: impl FnMut(&MightyBox)) {
        boxes.moving.iter().for_each(&mut each);
        if self.version != Some(boxes.version) {
            boxes.still.iter().for_each(each);
            return;
        }
        let first = self
            .sorted
            .partition_point(|&(left, _)| left < aabb.min.x - self.widest);
        let band = self.sorted[first..]
            .iter()
            .take_while(|&&(left, _)| left <= aabb.max.x);
        band.map(|&(_, k)| k)
            .chain(self.wide.iter().copied())
            .for_each(|k| each(&boxes.still[k as usize]));
    }
}

#[cfg(test)]
mod tests {
    use bevy::prelude::*;

    use super::*;
    use crate::step::testing::xorshift::XorShift;

    /// Once sorted, the scenery boxes near a query box are every box that overlaps it, very
    /// wide ones included, as a look at every box finds; moving boxes are always visited.
    #[test]
    fn sorted_scenery_near_a_box_is_all_that_overlaps_it() {
        let mut rng = XorShift::new(7);
        let mut boxes = MightyBoxes::default();
        for k in 0..400 {
            let min = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
            let size = Vec2::new(rng.range(1.0, 60.0), rng.range(1.0, 60.0));
            let aabb = Aabb {
                min,
                max: min + size,
            };
            boxes.still.push(MightyBox { aabb, body: k });
        }
        // A floor and a ledge much wider than the rest.
        for (k, (min, max)) in [
            ((-600.0, -600.0), (600.0, -580.0)),
            ((-20.0, 0.0), (900.0, 5.0)),
        ]
        .into_iter()
        .enumerate()
        {
            let (min, max) = (Vec2::from(min), Vec2::from(max));
            let body = 400 + k as u32;
            boxes.still.push(MightyBox {
                aabb: Aabb { min, max },
                body,
            });
        }
        let platform = Aabb {
            min: Vec2::splat(-5.0),
            max: Vec2::splat(5.0),
        };
        boxes.moving.push(MightyBox {
            aabb: platform,
            body: 999,
        });
        boxes.version = 3;
        let mut index = MightyIndex::default();
        index.start_step();
        for _ in 0..=LINEAR_SCANS {
            assert_eq!(index.version, None, "tests every box first");
            index.prepare_scan(&boxes);
        }
        assert_eq!((index.version, index.wide.len()), (Some(3), 2));
        for _ in 0..500 {
            let min = Vec2::new(rng.range(-650.0, 650.0), rng.range(-650.0, 650.0));
            let size = Vec2::new(rng.range(0.0, 80.0), rng.range(0.0, 80.0));
            let query = Aabb {
                min,
                max: min + size,
            };
            let mut found = Vec::new();
            index.near(&boxes, query, |b| {
                if b.body == 999 || b.aabb.overlaps(&query) {
                    found.push(b.body);
                }
            });
            found.sort_unstable();
            let all = boxes.still.iter().chain(&boxes.moving);
            let overlapping = all.filter(|b| b.body == 999 || b.aabb.overlaps(&query));
            let mut every: Vec<_> = overlapping.map(|b| b.body).collect();
            every.sort_unstable();
            assert_eq!(found, every, "{query:?}");
        }
        // Scenery that changed is tested box by box again until sorted anew.
        boxes.version = 4;
        let mut visited = 0;
        index.near(&boxes, platform, |_| visited += 1);
        assert_eq!(visited, boxes.still.len() + 1);
    }
}
