//! Sorting the step's pairs (touching pairs by entity pair, Weak pairs ground first): a radix
//! sort, since a comparison sort of tens of thousands of pairs was a visible part of the step.

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
    words: Vec<u64>,
    more_words: Vec<u64>,
    keys: Vec<PairKey>,
    more_keys: Vec<PairKey>,
}

/// Writes to `order` the indices of `keys` (which come with ascending `index`) sorted by
/// `(a, b)` (the order of [`Entity`]), then `index`: the order of `sort_unstable`, in linear
/// time.
///
/// When the entities' bits vary in few enough places (one generation and indices below about a
/// million: the usual world), each key is packed into one word with its index, and a few passes
/// over 8-byte words sort them; otherwise the 24-byte keys themselves are sorted.
pub(crate) fn sort_pairs(keys: &[PairKey], order: &mut Vec<u32>, scratch: &mut SortScratch) {
    // The index breaks ties between equal pairs: a stable sort keeps them in input order,
    // which is ascending index.
    debug_assert!(keys.is_sorted_by_key(|k| k.index));
    order.clear();
    let (mut all, mut any) = (u64::MAX, 0u64);
    for key in keys {
        let (a, b) = (key.a.to_bits(), key.b.to_bits());
        all &= a & b;
        any |= a | b;
    }
    // Above `entity_bits`, every entity has the same bits: the bits below order them.
    let entity_bits = 64 - (all ^ any).leading_zeros();
    let index_bits = 64 - (keys.len() as u64).leading_zeros();
    if 2 * entity_bits + index_bits <= 64 {
        let low = |bits: u64| bits & ((1u64 << entity_bits) - 1);
        let words = &mut scratch.words;
        words.clear();
        words.extend(keys.iter().map(|key| {
            let pair = low(key.a.to_bits()) << entity_bits | low(key.b.to_bits());
            pair << index_bits | u64::from(key.index)
        }));
        sort_high_bits(words, &mut scratch.more_words, index_bits);
        let index = |word: u64| (word & ((1u64 << index_bits) - 1)) as u32;
        order.extend(words.iter().map(|&word| index(word)));
    } else {
        let sorted = &mut scratch.keys;
        sorted.clear();
        sorted.extend_from_slice(keys);
        radix_sort(
            sorted,
            &mut scratch.more_keys,
            &[|k| k.b.to_bits(), |k| k.a.to_bits()],
        );
        order.extend(sorted.iter().map(|key| key.index));
    }
}

/// Sorts `words` by their bits from `from_bit` up, equal ones keeping their order (stable),
/// in linear time. With the bits below `from_bit` ascending on input (an index, say), that is
/// the order of `sort_unstable`. `scratch` is reused storage.
pub(crate) fn sort_high_bits(words: &mut Vec<u64>, scratch: &mut Vec<u64>, from_bit: u32) {
    if words.len() < 64 {
        let high = |w: &u64| w.checked_shr(from_bit).unwrap_or(0);
        words.sort_by_key(high); // stable
        return;
    }
    let (mut all, mut any) = (u64::MAX, 0u64);
    for &word in words.iter() {
        all &= word;
        any |= word;
    }
    // Only the bits that differ somewhere need sorting on.
    let varying = (all ^ any) & u64::MAX.checked_shl(from_bit).unwrap_or(0);
    if varying == 0 {
        return;
    }
    let (low, high) = (varying.trailing_zeros(), 64 - varying.leading_zeros());
    let passes = (high - low).div_ceil(MAX_DIGIT_BITS);
    let digit_bits = (high - low).div_ceil(passes);
    let mut counts = [0u32; 1 << MAX_DIGIT_BITS];
    let counts = &mut counts[..1 << digit_bits];
    // Only the length changes from step to step: the contents are all overwritten.
    scratch.truncate(words.len());
    scratch.resize(words.len(), 0);
    for pass in 0..passes {
        let shift = low + pass * digit_bits;
        let digit_mask = (1u64 << digit_bits) - 1;
        if (varying >> shift) & digit_mask == 0 {
            continue; // every word has this digit
        }
        let bucket = |word: u64| ((word >> shift) & digit_mask) as usize;
        counts.fill(0);
        for &word in words.iter() {
            counts[bucket(word)] += 1;
        }
        let mut start = 0;
        for count in counts.iter_mut() {
            (*count, start) = (start, start + *count);
        }
        for &word in words.iter() {
            let slot = &mut counts[bucket(word)];
            scratch[*slot as usize] = word;
            *slot += 1;
        }
        std::mem::swap(words, scratch);
    }
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

/// Bits per digit of [`radix_sort`]: 2,048 counters.
const DIGIT_BITS: u32 = 11;
const BUCKETS: usize = 1 << DIGIT_BITS;
/// Digits in a 64-bit word (the last one partial).
const DIGITS: u32 = 64u32.div_ceil(DIGIT_BITS);

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
    scratch.truncate(items.len());
    scratch.resize(items.len(), items[0]);
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
        // One scratch for every case, as from step to step: lengths and paths change.
        let mut scratch = SortScratch::default();
        let mut order = Vec::new();
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
            let keys: Vec<PairKey> = (0..len)
                .map(|index| PairKey {
                    a: entity(&mut rng, max_index, generations),
                    b: entity(&mut rng, max_index, generations),
                    index,
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            sort_pairs(&keys, &mut order, &mut scratch);
            let sorted: Vec<PairKey> = order.iter().map(|&i| keys[i as usize]).collect();
            assert_eq!(sorted, expected, "{len} keys, indices < {max_index}");
        }
    }

    #[test]
    fn high_bits_sort_like_a_stable_sort() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
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
            let mut words: Vec<u64> = (0..len).map(|_| rng.next() & mask).collect();
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
