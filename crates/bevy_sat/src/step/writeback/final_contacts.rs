//! The final contacts: the touching pairs after resolution, in entity-pair order, and what
//! depends on them (contact flags and platform velocities, bodies touching a one-way
//! platform).

use super::WritebackState;
use super::flags::{contact_flags, platform_velocities};
use crate::step::StepState;
use crate::step::pair::{PREFETCH_DISTANCE, Seen};
use crate::step::pair_sort::{PairKey, sort_pairs};

/// The touching pairs after resolution (within the contact margin), flags, and the bodies
/// touching a one-way platform. A pair whose bodies did not move since its contact was last
/// computed keeps it: the shapes are the same, so the answer would be too. A pair whose bodies
/// moved gets its contact after resolution in its record, in place of the narrow phase's
/// (nothing reads that one after this).
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(super) fn final_contacts(state: &mut StepState) {
    let StepState {
        settings,
        bodies,
        motion,
        found,
        moves,
        writeback,
        resolution,
        children,
        ..
    } = state;
    // Weak bodies with folded child colliders: their pairs are reported under the part's name.
    let names = &mut children.names;
    let any_folded = !names.is_empty();
    let margin = settings.margin;
    // Weak pairs resolution did not take (its system set is off).
    if !found.weak.is_empty() {
        found.pairs.extend_from_slice(&found.weak.records);
        found.weak.clear();
    }
    let pairs = &mut found.pairs;
    // Only a pair with a pushable body can have moved since the narrow phase, and only if
    // resolution ran.
    let resolved = moves.resolved;
    let WritebackState {
        pair_keys: keys,
        on_one_way,
        ..
    } = writeback;
    keys.clear();
    on_one_way.clear();
    on_one_way.resize(bodies.len(), false);
    let mut any_resolved = false;
    for k in 0..pairs.len() {
        if resolved {
            moves.prefetch_moved(bodies, pairs, k + PREFETCH_DISTANCE);
        }
        let p = &pairs[k];
        let touching = if resolved && p.may_move && !moves.keeps_narrow_contact(p, margin) {
            let contact = moves.contact(k, bodies, p, margin);
            if let Some(contact) = contact {
                pairs[k].seen = Seen::Touching(contact);
            }
            contact.is_some()
        } else {
            p.contact().is_some_and(|c| c.depth >= -margin)
        };
        if !touching {
            continue;
        }
        let p = &pairs[k];
        any_resolved |= !p.unpushed();
        // Sorted by entity pair below: the order of `Contacts`, of the events, and of ties in
        // the flags. Only these small keys are sorted: the records stay where they are.
        let (a, b) = if any_folded {
            names.names(k, p, bodies, margin)
        } else {
            p.entities
        };
        keys.push(PairKey {
            a,
            b,
            index: k as u32,
        });
        if p.one_way {
            let (a, b) = p.bodies();
            on_one_way[a] = true;
            on_one_way[b] = true;
        }
    }
    sort_pairs(
        keys,
        &mut writeback.final_order,
        &mut writeback.touching_now,
        &mut writeback.sort_scratch,
    );
    // Only resolved contacts set flags: without one, no record need be read again.
    let flagged: &[PairKey] = if any_resolved { keys } else { &[] };
    contact_flags(
        settings,
        bodies,
        flagged.iter().map(|key| &pairs[key.index as usize]),
        &mut writeback.flags,
        &mut writeback.support_index,
    );
    // A floating body has no floor, wall nor ceiling, and stands on nothing.
    if resolved && !writeback.flags.is_empty() {
        for &i in &resolution.character.floating {
            writeback.flags[i as usize] = Default::default();
            writeback.support_index[i as usize] = u32::MAX;
        }
    }
    if motion.any_mighty_moving {
        platform_velocities(bodies, &mut writeback.flags, &writeback.support_index);
    }
    // Only now: the flags above name the bodies.
    if any_folded {
        names.rename(pairs);
    }
}
