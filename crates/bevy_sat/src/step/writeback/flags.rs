//! Contact flags: which sides of each Weak body touch something, and what it stands on.

use bevy::prelude::*;

use crate::components::ContactFlags;
use crate::config::StepSettings;
use crate::step::pair::PairContact;

/// The contact flags of every body from the final contacts, and the index of the body each
/// stands on. Only what the contacts carry is read, no body record: with tens of thousands of
/// bodies, a record read per contact would be a wait for memory.
///
/// The contacts may come in any order: of equally level floors, a body stands on the one whose
/// pair comes first in entity order (as [`Contacts`] lists them), whichever comes first here.
///
/// Only resolved contacts set flags, and both vectors are filled at the first one. Without one
/// (sensors only, say), they stay empty, which means default flags and no support for every
/// body: at tens of thousands of bodies, filling them costs more than the rest of the step's
/// bookkeeping.
pub(crate) fn contact_flags<'a>(
    settings: &StepSettings,
    bodies: usize,
    contacts: impl IntoIterator<Item = &'a PairContact>,
    flags: &mut Vec<ContactFlags>,
    support_index: &mut Vec<u32>,
) {
    flags.clear();
    support_index.clear();
    let level = settings.floor_cos;
    for pair in contacts {
        let Some(contact) = pair.contact().filter(|_| !pair.unpushed()) else {
            continue;
        };
        if flags.is_empty() {
            flags.resize(bodies, ContactFlags::default());
            support_index.resize(bodies, u32::MAX);
        }
        let (a_weak, b_weak) = pair.pushes.weak();
        let (a, b) = pair.bodies();
        let (entity_a, entity_b) = pair.entities;
        // Each Weak body of the pair, with the direction it is pushed out (away from the other).
        for (weak, (body, me), other, out) in [
            (a_weak, (a, entity_a), (b, entity_b), -contact.normal),
            (b_weak, (b, entity_b), (a, entity_a), contact.normal),
        ] {
            if !weak {
                continue;
            }
            let f = &mut flags[body];
            if out.y >= level {
                f.floor = true;
                let first = |on: Entity| pair.entities < (me.min(on), me.max(on));
                let level_with = out.y == f.floor_normal.y;
                if f.standing_on
                    .is_none_or(|on| out.y > f.floor_normal.y || level_with && first(on))
                {
                    f.standing_on = Some(other.1);
                    f.floor_normal = out;
                    support_index[body] = other.0 as u32;
                }
            } else if -out.y >= level {
                f.ceiling = true;
            } else if out.x > 0.0 {
                f.wall_left = true;
            } else if out.x < 0.0 {
                f.wall_right = true;
            }
        }
    }
}
