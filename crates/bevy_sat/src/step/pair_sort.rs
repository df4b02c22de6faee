//! Sorting the step's pairs (touching pairs by entity pair, Weak pairs ground first): a radix
//! sort, which orders tens of thousands of pairs in a few passes over them.

use bevy::prelude::*;

/// Bits per radix digit at most: 4,096 counters (16 KiB) stay in the L1 cache.
const MAX_DIGIT_BITS: u32 = 12;

/// A pair of entities and the index of the record it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PairKey {
    pub a: Entity,
    pub b: Entity,
    pub index: u32,
}

/// Reused storage for the sorts.
#[derive(Default, Debug)]
pub(crate) struct SortScratch {
    more_words: Vec<u64>,
    keys: Vec<PairKey>,
    more_keys: Vec<PairKey>,
}

/// Entity pairs in sorted order, kept as packed words when they can be (see [`sort_pairs`]):
/// then two lists packed alike compare word by word, with no entity read.
#[derive(Default, Debug)]
pub(crate) struct SortedPairs {
    /// How `words` hold the pairs; `None`: `pairs` hold them.
    packing: Option<Packing>,
    /// Packed: `(a_low << entity_bits | b_low) << index_bits | index`, in order.
    words: Vec<u64>,
    /// Not packed: the pairs, in order.
    pairs: Vec<(Entity, Entity)>,
}

/// How [`sort_pairs`] packed entity pairs into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packing {
    /// The entities' bits above these are the same in every pair...
    entity_bits: u32,
    /// ...and these are they.
    high: u64,
    /// Below the pair, the index of its key.
    index_bits: u32,
}

impl SortedPairs {
    /// How many pairs.
    pub fn len(&self) -> usize {
        match self.packing {
            Some(_) => self.words.len(),
            None => self.pairs.len(),
        }
    }

    /// The pair at position `i` (in order), if there is one. (A packed pair is rebuilt from
    /// the bits of two real entities, so it always is one.)
    pub fn get(&self, i: usize) -> Option<(Entity, Entity)> {
        let Some(packing) = self.packing else {
            return self.pairs.get(i).copied();
        };
        let pair = self.words.get(i)? >> packing.index_bits;
        let low = (1u64 << packing.entity_bits) - 1;
        let entity = |bits: u64| Entity::try_from_bits(packing.high | bits);
        Some((entity(pair >> packing.entity_bits)?, entity(pair & low)?))
    }

    /// The pair at position `i` as a word that orders like the pair, among lists packed alike.
    fn word(&self, i: usize) -> u64 {
        self.words[i] >> self.packing.map_or(0, |p| p.index_bits)
    }
}

/// A difference between two sorted lists of pairs (see [`diff_pairs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The pair at this position of the new list is not in the old one.
    Started(usize),
    /// This pair of the old list is not in the new one.
    Ended((Entity, Entity)),
}

/// Compares two sorted lists of pairs, calling `on` with each [`Change`] in pair order.
pub(crate) fn diff_pairs(previous: &SortedPairs, now: &SortedPairs, mut on: impl FnMut(Change)) {
    let packed_alike = previous
        .packing
        .zip(now.packing)
        .is_some_and(|(p, q)| (p.entity_bits, p.high) == (q.entity_bits, q.high));
    let mut report = |step: Step| match step {
        Step::New(i) => on(Change::Started(i)),
        Step::Old(j) => {
            if let Some(pair) = previous.get(j) {
                on(Change::Ended(pair));
            }
        }
    };
    if packed_alike {
        // Word against word: no entity is rebuilt but for the pairs that ended.
        merge(
            (previous.len(), |j| previous.word(j)),
            (now.len(), |i| now.word(i)),
            &mut report,
        );
    } else {
        merge(
            (previous.len(), |j| previous.get(j)),
            (now.len(), |i| now.get(i)),
            &mut report,
        );
    }
}

/// A position found only in the new list, or only in the old one.
enum Step {
    New(usize),
    Old(usize),
}

/// The merge of [`diff_pairs`] over any keys that order like the pairs. A pair listed more
/// than once (a body touching several pieces of one [`TileGrid`](crate::TileGrid), all named
/// by the grid) is one pair: it starts or ends once.
fn merge<K: Ord>(
    (old_len, old_key): (usize, impl Fn(usize) -> K),
    (new_len, new_key): (usize, impl Fn(usize) -> K),
    report: &mut impl FnMut(Step),
) {
    // Past every copy of the old list's pair at `j`, reporting it as ended if `ended`.
    let skip_old = |j: &mut usize, ended: bool, report: &mut dyn FnMut(Step)| {
        let key = old_key(*j);
        if ended {
            report(Step::Old(*j));
        }
        *j += 1;
        while *j < old_len && old_key(*j) == key {
            *j += 1;
        }
    };
    let mut j = 0;
    let mut last = None;
    for i in 0..new_len {
        let key = new_key(i);
        if last.as_ref() == Some(&key) {
            continue;
        }
        while j < old_len && old_key(j) < key {
            skip_old(&mut j, true, report);
        }
        if j < old_len && old_key(j) == key {
            skip_old(&mut j, false, report);
        } else {
            report(Step::New(i));
        }
        last = Some(key);
    }
    while j < old_len {
        skip_old(&mut j, true, report);
    }
}

/// Writes to `order` the indices of `keys` (which come with ascending `index`) sorted by
/// `(a, b)` (the order of [`Entity`]), then `index`: the order of `sort_unstable`, in linear
/// time; and to `sorted` the pairs in that order.
///
/// When the entities' bits vary in few enough places (one generation and indices below about a
/// million: the usual world), each key is packed into one word with its index, and a few passes
/// over 8-byte words sort them (the words are what `sorted` keeps); otherwise the 24-byte keys
/// themselves are sorted.
pub(crate) fn sort_pairs(
    keys: &[PairKey],
    order: &mut Vec<u32>,
    sorted: &mut SortedPairs,
    scratch: &mut SortScratch,
) {
    // The index breaks ties between equal pairs: a stable sort keeps them in input order,
    // which is ascending index.
    debug_assert!(keys.is_sorted_by_key(|k| k.index));
    order.clear();
    sorted.words.clear();
    sorted.pairs.clear();
    let (mut all, mut any) = (u64::MAX, 0u64);
    for key in keys {
        let (a, b) = (key.a.to_bits(), key.b.to_bits());
        all &= a & b;
        any |= a | b;
    }
    // Above `entity_bits`, every entity has the same bits (those of `all`): the bits below
    // order them.
    let entity_bits = 64 - (all ^ any).leading_zeros();
    // The indices ascend: the last is the largest (and may exceed the number of keys).
    let index_bits = 64
        - keys
            .last()
            .map_or(0, |k| u64::from(k.index))
            .leading_zeros();
    if 2 * entity_bits + index_bits <= 64 {
        let low = (1u64 << entity_bits) - 1;
        sorted.packing = Some(Packing {
            entity_bits,
            high: all & !low,
            index_bits,
        });
        let words = &mut sorted.words;
        words.extend(keys.iter().map(|key| {
            let pair = (key.a.to_bits() & low) << entity_bits | key.b.to_bits() & low;
            pair << index_bits | u64::from(key.index)
        }));
        sort_high_bits(words, &mut scratch.more_words, index_bits);
        let index = |word: u64| (word & ((1u64 << index_bits) - 1)) as u32;
        order.extend(words.iter().map(|&word| index(word)));
    } else {
        sorted.packing = None;
        let keys_sorted = &mut scratch.keys;
        keys_sorted.clear();
        keys_sorted.extend_from_slice(keys);
        radix_sort(
            keys_sorted,
            &mut scratch.more_keys,
            &[(|k| k.b.to_bits(), 0), (|k| k.a.to_bits(), 0)],
        );
        order.extend(keys_sorted.iter().map(|key| key.index));
        sorted
            .pairs
            .extend(keys_sorted.iter().map(|key| (key.a, key.b)));
    }
}

/// Sorts `words` by their bits from `from_bit` up, equal ones keeping their order (stable),
/// in linear time. With the bits below `from_bit` ascending on input (an index, say), that is
/// the order of `sort_unstable`. `scratch` is reused storage.
pub(crate) fn sort_high_bits(words: &mut Vec<u64>, scratch: &mut Vec<u64>, from_bit: u32) {
    radix_sort(words, scratch, &[(|w| *w, from_bit)]);
}

/// The bits of `x` as a word that orders like [`f32::total_cmp`].
pub(crate) fn ordered_bits(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

/// A sort key of [`radix_sort`]: a word of an item, and the bit the key starts at in it.
type SortKey<T> = (fn(&T) -> u64, u32);

/// Sorts `items` stably by `keys`, each a word of an item and the bit its key starts at,
/// compared from the last to the first (the most significant key last), in linear time.
///
/// Least significant digit first, stable from pass to pass, over the bits of each key that
/// differ somewhere (the generation of entities never reused, the high bits of small indices
/// are skipped), in as few digits of at most [`MAX_DIGIT_BITS`] as cover them.
fn radix_sort<T: Copy>(items: &mut Vec<T>, scratch: &mut Vec<T>, keys: &[SortKey<T>]) {
    let key =
        |item: &T, &(word, from_bit): &SortKey<T>| word(item).checked_shr(from_bit).unwrap_or(0);
    if items.len() < 64 {
        // Stable, as the passes below are.
        items.sort_by(|x, y| {
            let mut orders = keys.iter().rev().map(|k| key(x, k).cmp(&key(y, k)));
            orders
                .find(|o| o.is_ne())
                .unwrap_or(core::cmp::Ordering::Equal)
        });
        return;
    }
    let mut counts = [0u32; 1 << MAX_DIGIT_BITS];
    // Only the length changes from step to step: the contents are all overwritten.
    scratch.truncate(items.len());
    scratch.resize(items.len(), items[0]);
    for k in keys {
        let (mut all, mut any) = (u64::MAX, 0u64);
        for item in items.iter() {
            all &= key(item, k);
            any |= key(item, k);
        }
        // Only the bits that differ somewhere need sorting on.
        let varying = all ^ any;
        if varying == 0 {
            continue;
        }
        let (low, high) = (varying.trailing_zeros(), 64 - varying.leading_zeros());
        let passes = (high - low).div_ceil(MAX_DIGIT_BITS);
        let digit_bits = (high - low).div_ceil(passes);
        let counts = &mut counts[..1 << digit_bits];
        let digit_mask = (1u64 << digit_bits) - 1;
        for pass in 0..passes {
            let shift = low + pass * digit_bits;
            if (varying >> shift) & digit_mask == 0 {
                continue; // every item has this digit
            }
            let bucket = |item: &T| ((key(item, k) >> shift) & digit_mask) as usize;
            counts.fill(0);
            for item in items.iter() {
                counts[bucket(item)] += 1;
            }
            let mut start = 0;
            for count in counts.iter_mut() {
                (*count, start) = (start, start + *count);
            }
            for item in items.iter() {
                let slot = &mut counts[bucket(item)];
                scratch[*slot as usize] = *item;
                *slot += 1;
            }
            std::mem::swap(items, scratch);
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy::ecs::entity::{EntityGeneration, EntityIndex};

    use super::*;
    use crate::step::testing::xorshift::XorShift;

    /// An entity with an index below `max_index` and a generation below `generations`.
    fn entity(rng: &mut XorShift, max_index: u32, generations: u32) -> Entity {
        let index = (rng.next_u64() % u64::from(max_index)) as u32;
        let generation = (rng.next_u64() % u64::from(generations)) as u32;
        let index = EntityIndex::from_raw_u32(index).expect("below u32::MAX");
        Entity::from_index_and_generation(index, EntityGeneration::from_bits(generation))
    }

    #[test]
    fn agrees_with_a_comparison_sort() {
        let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
        // One scratch for every case, as from step to step: lengths and paths change.
        let mut scratch = SortScratch::default();
        let mut order = Vec::new();
        let mut pairs = SortedPairs::default();
        for (len, max_index, generations) in [
            (0, 10, 1),
            (10, 100, 1),
            (100, 1, 1),    // one entity: no bit varies
            (1_000, 50, 1), // many repeated pairs
            (5_000, 100_000, 1),
            (20_000, 1 << 20, 1), // packed, just
            (5_000, 100_000, 3),  // generations vary: the keys themselves
            (3_000, 100, 2),
            (20_000, 1 << 30, 1 << 20),
            (5_000, 100_000, 1),
        ] {
            // Ascending indices with gaps, as the touching pairs' among all the step's pairs:
            // the largest can need more bits than the number of keys.
            let mut index = 0;
            let keys: Vec<PairKey> = (0..len)
                .map(|_| {
                    index += 1 + (rng.next_u64() % 3) as u32;
                    PairKey {
                        a: entity(&mut rng, max_index, generations),
                        b: entity(&mut rng, max_index, generations),
                        index,
                    }
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_pairs(&keys, &mut order, &mut pairs, &mut scratch);
            let record = |i: u32| keys[keys.binary_search_by_key(&i, |k| k.index).expect("listed")];
            let sorted: Vec<PairKey> = order.iter().map(|&i| record(i)).collect();
            assert_eq!(sorted, expected, "{len} keys, indices < {max_index}");
            let listed: Vec<_> = (0..pairs.len()).filter_map(|i| pairs.get(i)).collect();
            let expected: Vec<_> = expected.iter().map(|k| (k.a, k.b)).collect();
            assert_eq!(listed, expected, "{len} keys, indices < {max_index}");
        }
    }

    /// `len` distinct pairs of entities below `max_index`, `generations`, as sorted keys.
    fn distinct_pairs(
        rng: &mut XorShift,
        len: usize,
        max_index: u32,
        generations: u32,
    ) -> Vec<PairKey> {
        let mut pairs = std::collections::BTreeSet::new();
        while pairs.len() < len {
            let (a, b) = (
                entity(rng, max_index, generations),
                entity(rng, max_index, generations),
            );
            if a != b {
                pairs.insert((a.min(b), a.max(b)));
            }
        }
        // In a random order, as the final contacts come.
        let mut pairs: Vec<_> = pairs.into_iter().collect();
        for i in (1..pairs.len()).rev() {
            pairs.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let index = 0..;
        pairs
            .into_iter()
            .zip(index)
            .map(|((a, b), index)| PairKey { a, b, index })
            .collect()
    }

    #[test]
    fn the_difference_of_two_steps_is_what_started_and_what_ended() {
        let mut rng = XorShift::new(0x0DDB_1A5E_5BAD_5EED);
        let mut scratch = SortScratch::default();
        // Both lists packed alike, packed differently (more entities), and one not packed.
        for ((old_index, old_generations), (new_index, new_generations)) in [
            ((300, 1), (300, 1)),
            ((300, 1), (70_000, 1)),
            ((300, 1), (300, 2)),
            ((300, 2), (300, 1)),
            ((0, 1), (300, 1)), // from nothing
            ((300, 1), (0, 1)), // to nothing
        ] {
            let mut lists = [(); 2].map(|_| (Vec::new(), SortedPairs::default(), Vec::new()));
            for ((order, sorted, keys), (max_index, generations)) in lists
                .iter_mut()
                .zip([(old_index, old_generations), (new_index, new_generations)])
            {
                // 2,000 of the 45k pairs below 300: about 90 are in both lists.
                let len = if max_index == 0 { 0 } else { 2_000 };
                *keys = distinct_pairs(&mut rng, len, max_index.max(1), generations);
                sort_pairs(keys, order, sorted, &mut scratch);
            }
            let [(_, old, old_keys), (_, new, _)] = &lists;
            let set = |sorted: &SortedPairs| -> std::collections::BTreeSet<_> {
                (0..sorted.len()).filter_map(|i| sorted.get(i)).collect()
            };
            let (old_set, new_set) = (set(old), set(new));
            let (mut started, mut ended) = (Vec::new(), Vec::new());
            diff_pairs(old, new, |change| match change {
                Change::Started(i) => started.extend(new.get(i)),
                Change::Ended(pair) => ended.push(pair),
            });
            let expected_started: Vec<_> = new_set.difference(&old_set).copied().collect();
            let expected_ended: Vec<_> = old_set.difference(&new_set).copied().collect();
            assert_eq!(started, expected_started);
            assert_eq!(ended, expected_ended);
            assert_eq!(old_keys.len(), old.len());
            assert_eq!(old.get(old.len()), None, "past the end: no pair");
        }
    }

    #[test]
    fn a_pair_listed_several_times_starts_and_ends_once() {
        // A body touching several pieces of one tile grid: the pair (grid, body) comes once per
        // piece, in either list, as many times as it likes.
        let mut rng = XorShift::new(0x005E_ED0F_7115);
        let mut scratch = SortScratch::default();
        let pool: Vec<Entity> = (0..6).map(|_| entity(&mut rng, 1_000, 1)).collect();
        let pair = |i: usize, j: usize| (pool[i].min(pool[j]), pool[i].max(pool[j]));
        let sorted = |pairs: &[(Entity, Entity)], scratch: &mut SortScratch| {
            let keys: Vec<PairKey> = pairs
                .iter()
                .zip(0..)
                .map(|(&(a, b), index)| PairKey { a, b, index })
                .collect();
            let (mut order, mut out) = (Vec::new(), SortedPairs::default());
            sort_pairs(&keys, &mut order, &mut out, scratch);
            out
        };
        let old = sorted(
            &[pair(0, 1), pair(0, 1), pair(2, 3), pair(4, 5)],
            &mut scratch,
        );
        let new = sorted(
            &[
                pair(0, 1),
                pair(2, 3),
                pair(2, 3),
                pair(2, 3),
                pair(1, 2),
                pair(1, 2),
            ],
            &mut scratch,
        );
        let (mut started, mut ended) = (Vec::new(), Vec::new());
        diff_pairs(&old, &new, |change| match change {
            Change::Started(i) => started.extend(new.get(i)),
            Change::Ended(pair) => ended.push(pair),
        });
        assert_eq!(started, vec![pair(1, 2)]);
        assert_eq!(ended, vec![pair(4, 5)]);
    }

    #[test]
    fn high_bits_sort_like_a_stable_sort() {
        let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut scratch = Vec::new();
        for (len, mask, from_bit) in [
            (0, u64::MAX, 0),
            (50, 0xFF, 4),
            (3_000, 0xFFF, 0),
            (3_000, 0xFFF_FFFF, 8),
            (20_000, u64::MAX, 0),
            (20_000, u64::MAX, 32),
            (20_000, u64::MAX, 63),
            (1_000, u64::MAX, 64), // nothing to sort on
        ] {
            let mut words: Vec<u64> = (0..len).map(|_| rng.next_u64() & mask).collect();
            let mut expected = words.clone();
            expected.sort_by_key(|w| w.checked_shr(from_bit).unwrap_or(0));
            sort_high_bits(&mut words, &mut scratch, from_bit);
            assert_eq!(words, expected, "{len} words from bit {from_bit}");
        }
    }

    #[test]
    fn ordered_bits_order_like_total_cmp() {
        let values = [
            f32::NEG_INFINITY,
            -1e30,
            -2.5,
            -f32::MIN_POSITIVE,
            -0.0,
            0.0,
            f32::MIN_POSITIVE,
            1.0,
            3e20,
            f32::INFINITY,
        ];
        for x in values {
            for y in values {
                assert_eq!(
                    ordered_bits(x).cmp(&ordered_bits(y)),
                    x.total_cmp(&y),
                    "{x} vs {y}"
                );
            }
        }
    }
}
