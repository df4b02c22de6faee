//! Weak pairs: split 50/50 unless one body is held, taken ground first so that support climbs
//! a stack in one pass.

use bevy::prelude::*;
use prefetch_index::prefetch_index;

use super::holds::Holds;
use super::{PREFETCH_DISTANCE, Resolution};
use crate::config::StepSettings;
use crate::step::body::Body;
use crate::step::moves::{Moves, Overlap};
use crate::step::pair::{PairContact, WeakPairs};
use crate::step::pair_sort::{ordered_bits, sort_high_bits};

/// Reused storage for ordering the Weak pairs.
#[derive(Default, Debug)]
pub(crate) struct WeakOrder {
    /// For sorting the pairs' keys.
    sort_scratch: Vec<u64>,
    /// The keys of the Weak pairs no pass visits.
    idle_keys: Vec<u64>,
    /// The Weak pairs the pass under way visits, in order.
    pub visited: Vec<u32>,
}

/// Appends the Weak pairs (`weak`, emptied) to `pairs` in the order the passes take them,
/// ground first: the pair whose lower body is lowest comes first, so support climbs a stack in
/// one pass; ties keep the narrow phase's order. The passes then read the pairs and their cache
/// entries in order. Only the pairs of live islands ([`Islands::is_live`](super::islands::Islands::is_live)) are ordered: the
/// others, which no pass visits, follow them in the narrow phase's order. Returns where the
/// Weak pairs the passes visit are (the live ones).
pub(super) fn order_pairs(
    bodies: &[Body],
    pairs: &mut Vec<PairContact>,
    weak: &mut WeakPairs,
    moves: &Moves,
    res: &mut Resolution,
) -> core::ops::Range<usize> {
    let first = pairs.len();
    if weak.is_empty() {
        return first..first;
    }
    // The keys of pairs no pass visits are set aside, in their order (by index).
    let (islands, idle) = (&res.islands, &mut res.weak.idle_keys);
    idle.clear();
    weak.keys.retain(|&key| {
        let live = islands.is_live(&weak.records[key as u32 as usize]);
        if !live {
            idle.push(key);
        }
        live
    });
    if !res.rewinds.is_empty() {
        // Bodies placed at a time of impact: their bottoms are no longer the narrow phase's.
        let rewound = |i: usize| moves.has_moved(i);
        for key in &mut weak.keys {
            let (a, b) = weak.records[*key as u32 as usize].bodies();
            if rewound(a) || rewound(b) {
                let bottom = moves.bottom(bodies, a).min(moves.bottom(bodies, b));
                *key = u64::from(ordered_bits(bottom)) << 32 | u64::from(*key as u32);
            }
        }
    }
    // The indices (low half) come in order: the bottoms alone need sorting.
    sort_high_bits(&mut weak.keys, &mut res.weak.sort_scratch, 32);
    // The records are gathered from anywhere in `weak`: each is asked for a dozen ahead.
    let (keys, records) = (&weak.keys, &weak.records);
    pairs.extend(keys.iter().enumerate().map(|(j, &key)| {
        if let Some(&ahead) = keys.get(j + 2 * PREFETCH_DISTANCE) {
            prefetch_index(records, ahead as u32 as usize);
        }
        records[key as u32 as usize]
    }));
    let live = first..pairs.len();
    pairs.extend(
        res.weak
            .idle_keys
            .iter()
            .map(|&key| records[key as u32 as usize]),
    );
    weak.clear();
    live
}

/// Pushes the bodies of Weak pair `pair` apart by `contact` (where they overlap now): half
/// each, or all of it the one not held against its push; neither when both are held. A body
/// held against the other passes its hold on to it.
pub(super) fn split_weak_pair(
    pair: &PairContact,
    contact: Option<Overlap>,
    moves: &mut Moves,
    holds: &mut Holds,
    settings: &StepSettings,
) {
    let Some(contact) = contact else {
        return;
    };
    let n = contact.normal; // from a to b: a is pushed along -n, b along +n
    let (a, b) = pair.bodies();
    let a_held = holds.blocks(a, -n);
    let b_held = holds.blocks(b, n);
    if contact.depth > settings.slop {
        if a_held && b_held {
            // Each would be pushed into what holds it, then pushed back by it: a body squeezed
            // between two held ones would swing from one to the other in every pass. Neither
            // moves; they only stop moving into each other.
            moves.stop_along(a, n);
            moves.stop_along(b, -n);
            return;
        }
        let share_a = match (a_held, b_held) {
            (true, _) => 0.0,
            (false, true) => 1.0,
            (false, false) => 0.5,
        };
        moves.shift(a, -n * contact.depth * share_a);
        moves.shift(b, n * contact.depth * (1.0 - share_a));
        moves.stop_along(a, n);
        moves.stop_along(b, -n);
    }
    if a_held && !b_held {
        holds.add(b, -n, None);
    } else if b_held && !a_held {
        holds.add(a, n, None);
    }
}
