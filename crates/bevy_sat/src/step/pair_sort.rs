//! Sorting the step's pairs (touching pairs by entity pair, Weak pairs ground first): a radix
//! sort, since a comparison sort of tens of thousands of pairs was a visible part of the step.

use bevy::prelude::*;

/// Bits per radix digit: 2,048 counters (8 KiB) stay in the L1 cache.
const DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << DIGIT_BITS;
/// Digits in a 64-bit word (the last one partial).
const DIGITS: u32 = 64u32.div_ceil(DIGIT_BITS);

/// A pair of entities and the index of the record it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PairKey {
    pub a: Entity,
    pub b: Entity,
    pub index: u32,
}

/// Sorts `keys`, which come with ascending `index`, by `(a, b)` (the order of [`Entity`]), then
/// `index`: the order of `sort_unstable`, in linear time. `scratch` is reused storage.
pub(crate) fn sort_pairs(keys: &mut Vec<PairKey>, scratch: &mut Vec<PairKey>) {
    // The index breaks ties between equal pairs: a stable sort keeps them in input order,
    // which is ascending index.
    debug_assert!(keys.is_sorted_by_key(|k| k.index));
    radix_sort(keys, scratch, &[|k| k.b.to_bits(), |k| k.a.to_bits()]);
}

/// Sorts `keys` in ascending order in linear time. `scratch` is reused storage.
pub(crate) fn sort_words(keys: &mut Vec<u64>, scratch: &mut Vec<u64>) {
    radix_sort(keys, scratch, &[|k| *k]);
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

/// Sorts `items` into the order of `sort_unstable`, which `words` must give: comparing their
/// results from the last to the first (the most significant word last), and equal items
/// staying in input order, orders the items as [`Ord`] does.
///
/// Least significant digit first, stable from pass to pass; a digit that is the same in every
/// item (the generation of entities never reused, the high bits of small indices) is skipped, so
/// a typical world takes two passes per entity.
fn radix_sort<T: Copy + Ord>(items: &mut Vec<T>, scratch: &mut Vec<T>, words: &[fn(&T) -> u64]) {
    if items.len() < 64 {
        items.sort_unstable();
        return;
    }
    let mut counts = [0usize; BUCKETS];
    for word in words {
        let (mut all, mut any) = (u64::MAX, 0u64);
        for item in items.iter() {
            let bits = word(item);
            all &= bits;
            any |= bits;
        }
        for digit in 0..DIGITS {
            let shift = digit * DIGIT_BITS;
            let bucket = |item: &T| ((word(item) >> shift) as usize) & (BUCKETS - 1);
            if ((all ^ any) >> shift) as usize & (BUCKETS - 1) == 0 {
                continue; // every item has this digit
            }
            counts.fill(0);
            for item in items.iter() {
                counts[bucket(item)] += 1;
            }
            let mut start = 0;
            for count in counts.iter_mut() {
                (*count, start) = (start, start + *count);
            }
            scratch.clear();
            scratch.resize(items.len(), items[0]);
            for item in items.iter() {
                let slot = &mut counts[bucket(item)];
                scratch[*slot] = *item;
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
    use crate::step::test_rng::Rng;

    /// An entity with an index below `max_index` and a generation below `generations`.
    fn entity(rng: &mut Rng, max_index: u32, generations: u32) -> Entity {
        let index = (rng.next() % u64::from(max_index)) as u32;
        let generation = (rng.next() % u64::from(generations)) as u32;
        let index = EntityIndex::from_raw_u32(index).expect("below u32::MAX");
        Entity::from_index_and_generation(index, EntityGeneration::from_bits(generation))
    }

    #[test]
    fn agrees_with_a_comparison_sort() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut scratch = Vec::new();
        for (len, max_index, generations) in [
            (0, 10, 1),
            (10, 100, 1),
            (1_000, 50, 1), // many repeated pairs
            (5_000, 100_000, 1),
            (5_000, 100_000, 3),
            (20_000, 1 << 30, 1 << 20),
        ] {
            let mut keys: Vec<PairKey> = (0..len)
                .map(|index| PairKey {
                    a: entity(&mut rng, max_index, generations),
                    b: entity(&mut rng, max_index, generations),
                    index,
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_pairs(&mut keys, &mut scratch);
            assert_eq!(keys, expected, "{len} keys, indices < {max_index}");
        }
    }

    #[test]
    fn words_sort_like_a_comparison_sort() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut scratch = Vec::new();
        for (len, mask) in [
            (0, u64::MAX),
            (50, 0xFF),
            (3_000, 0xFFF),
            (20_000, u64::MAX),
        ] {
            let mut words: Vec<u64> = (0..len).map(|_| rng.next() & mask).collect();
            let mut expected = words.clone();
            expected.sort_unstable();
            sort_words(&mut words, &mut scratch);
            assert_eq!(words, expected, "{len} words");
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
