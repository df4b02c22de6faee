//! Contact flags: which sides of each Weak body touch something, the surfaces' normals, what
//! it stands on and how fast that moves.

use bevy::prelude::*;

use crate::config::StepSettings;
use crate::contact_flags::ContactFlags;
use crate::step::body::{Body, Kind};
use crate::step::pair::{PairContact, Pushes};
use crate::step::seams::is_internal_face;

/// The contact flags of every body from the final contacts, and the index of the body each
/// stands on. Mostly only what the contacts carry is read: with tens of thousands of bodies, a
/// record read per contact would be a wait for memory. The exception is a Mighty body with
/// internal faces (the pair record says which), whose record is read: a contact through a face
/// a flush neighbour covers (a body touching a tile exactly at a seam, where the side of one
/// tile and the top of the next are equally near) is not a surface the body touches, and sets
/// no flag: the neighbour's own contact does. Without this, a body walking over a tiled floor
/// would touch a "wall" at each seam it crosses exactly, and one sliding down a wall of stacked
/// tiles a "floor" or "ceiling".
///
/// The contacts may come in any order: of equally level floors, a body stands on the one whose
/// pair comes first in entity order (as [`Contacts`] lists them), whichever comes first here.
///
/// Only resolved contacts set flags, and both vectors are filled at the first one. Without one
/// (sensors only, say), they stay empty, which means default flags and no support for every
/// body: at tens of thousands of bodies, filling them costs more than the rest of the step's
/// bookkeeping.
#[inline]
pub(crate) fn contact_flags<'a>(
    settings: &StepSettings,
    bodies: &[Body],
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
            flags.resize(bodies.len(), ContactFlags::default());
            support_index.resize(bodies.len(), u32::MAX);
        }
        let (a_weak, b_weak) = pair.pushes.weak();
        let (a, b) = pair.bodies();
        // Only Mighty bodies have internal faces; `out` points out of the Mighty one. The pair
        // says whether it has any, so most contacts read no body record here.
        let through_internal_face = pair.covered
            && match pair.pushes {
                Pushes::AOutOfB => is_internal_face(&bodies[b], -contact.normal),
                Pushes::BOutOfA => is_internal_face(&bodies[a], contact.normal),
                Pushes::Never | Pushes::Split => false,
            };
        if through_internal_face {
            continue;
        }
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
                // The most level ceiling: the normal pointing furthest down.
                if !f.ceiling || prefer(-out.y, out, -f.ceiling_normal.y, f.ceiling_normal) {
                    f.ceiling_normal = out;
                }
                f.ceiling = true;
            } else if out.x != 0.0 {
                let wall = f.wall_left | f.wall_right;
                // The most upright wall: the normal pointing least up or down.
                if !wall || prefer(-out.y.abs(), out, -f.wall_normal.y.abs(), f.wall_normal) {
                    f.wall_normal = out;
                }
                f.wall_left |= out.x > 0.0;
                f.wall_right |= out.x < 0.0;
            }
        }
    }
}

/// Whether normal `new`, scoring `new_score`, is preferred to `old`, scoring `old_score`: a
/// higher score, else (a mirror image: as steep, the other side) the one leaning further
/// right, else further up. An order that does not depend on the order of the contacts, so a
/// body touching two surfaces reads the same normal step after step.
fn prefer(new_score: f32, new: Vec2, old_score: f32, old: Vec2) -> bool {
    (new_score, new.x, new.y) > (old_score, old.x, old.y)
}

/// Fills in the platform velocity of every body that stands on something: the velocity of a
/// Mighty support, or the platform velocity of a Weak one (only Mighty bodies' motion carries
/// anything), followed down a stack of bounded depth. Called only in a step where some Mighty
/// body moved: in the others, every platform velocity is zero.
pub(crate) fn platform_velocities(
    bodies: &[Body],
    flags: &mut [ContactFlags],
    support_index: &[u32],
) {
    const MAX_DEPTH: usize = 16;
    for (i, f) in flags.iter_mut().enumerate() {
        let mut s = support_index[i] as usize;
        for _ in 0..MAX_DEPTH {
            let Some(support) = bodies.get(s) else {
                break; // none (`u32::MAX`)
            };
            if support.kind == Kind::Mighty {
                f.platform_velocity = support.velocity;
                break;
            }
            s = support_index[s] as usize;
        }
    }
}
