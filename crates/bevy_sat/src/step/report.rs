//! Stage 5: contact flags, the [`Contacts`] resource, collision events, and writing positions,
//! velocities and flags back to the entities.

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use prefetch_index::prefetch_index;

use super::pair_sort::{Change, PairKey, diff_pairs, sort_pairs};
use super::resolve::PREFETCH_DISTANCE;
use super::{Body, PairContact, Seen, StepState};
use crate::components::{ContactFlags, ConvexCollider, DropThrough, Velocity};
use crate::config::SatConfig;
use crate::contacts::{ContactPair, Contacts};
use crate::events::{CollisionEnded, CollisionStarted, Crushed};

/// The contact flags of every body from the final contacts, and the index of the body each
/// stands on. Only what the contacts carry is read, no body record: with tens of thousands of
/// bodies, a record read per contact was a visible wait.
///
/// The contacts may come in any order: of equally level floors, a body stands on the one whose
/// pair comes first in entity order (as [`Contacts`] lists them), whichever comes first here.
/// (Walking them in that order instead was a random read per contact.)
///
/// Only resolved contacts set flags, and both vectors are filled at the first one. Without one
/// (sensors only, say), they stay empty, which means default flags and no support for every
/// body: at tens of thousands of bodies, filling them costs more than the rest of the step's
/// bookkeeping.
pub(crate) fn contact_flags<'a>(
    config: &SatConfig,
    bodies: usize,
    contacts: impl IntoIterator<Item = &'a PairContact>,
    flags: &mut Vec<ContactFlags>,
    support_index: &mut Vec<u32>,
) {
    flags.clear();
    support_index.clear();
    let level = config
        .max_floor_angle
        .clamp(0.0, core::f32::consts::FRAC_PI_2)
        .cos();
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

/// Where collision events go: messages, and observers through commands.
#[derive(SystemParam)]
pub(crate) struct EventOutput<'w, 's> {
    started: MessageWriter<'w, CollisionStarted>,
    ended: MessageWriter<'w, CollisionEnded>,
    crushed: MessageWriter<'w, Crushed>,
    commands: Commands<'w, 's>,
}

/// Whether any observer watches `E` (for every target, an entity or a component). When none
/// does, a trigger would find nobody: the pair's command then ends at once, without looking
/// anything up (thousands of pairs start and end per step in a large scene).
fn observed<E: Event>(world: &World) -> bool {
    world
        .event_key::<E>()
        .and_then(|key| world.observers().try_get_observers(key))
        .is_some_and(|o| {
            !o.global_observers().is_empty()
                || !o.entity_observers().is_empty()
                || !o.component_observers().is_empty()
        })
}

/// Whether `entity` exists and is not disabled: observers hear only of those.
fn present(world: &World, entity: Entity) -> bool {
    world
        .get_entity(entity)
        .is_ok_and(|e| !e.contains::<Disabled>())
}

impl EventOutput<'_, '_> {
    fn start(&mut self, pair: &ContactPair) {
        let event = CollisionStarted {
            a: pair.a,
            b: pair.b,
            contact: pair.contact,
        };
        self.started.write(event);
        self.commands.queue(move |world: &mut World| {
            if observed::<CollisionStarted>(world) {
                world.trigger(event);
                world.trigger(CollisionStarted {
                    a: event.b,
                    b: event.a,
                    contact: event.contact.flipped(),
                });
            }
        });
    }

    /// `group`: the sorted `(body, crusher)` pairs of one body.
    fn crush(&mut self, group: &[(Entity, Entity)]) {
        let Some(&(body, _)) = group.first() else {
            return;
        };
        let event = Crushed {
            body,
            crushers: group.iter().map(|&(_, crusher)| crusher).collect(),
        };
        self.crushed.write(event.clone());
        self.commands.trigger(event);
    }

    fn end(&mut self, (a, b): (Entity, Entity)) {
        self.ended.write(CollisionEnded { a, b });
        self.commands.queue(move |world: &mut World| {
            if !observed::<CollisionEnded>(world) {
                return;
            }
            // Only on entities that still exist (one may have been despawned).
            for (target, other) in [(a, b), (b, a)] {
                if present(world, target) {
                    world.trigger(CollisionEnded {
                        a: target,
                        b: other,
                    });
                }
            }
        });
    }
}

/// The touching pairs after resolution (within the contact margin), flags, and the bodies
/// touching a one-way platform. A pair whose bodies did not move since its contact was last
/// computed keeps it: the shapes are the same, so the answer would be too. A pair whose bodies
/// moved gets its contact after resolution in its record, in place of the narrow phase's
/// (nothing reads that one after this).
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
fn final_contacts(config: &SatConfig, state: &mut StepState) {
    let margin = config.contact_margin.max(0.0);
    // Weak pairs resolution did not take (its system set is off).
    let weak = &mut state.weak_pairs;
    if !weak.is_empty() {
        state.pairs.extend_from_slice(&weak.records);
        weak.clear();
    }
    // Only a pair with a pushable body can have moved since the narrow phase, and only if
    // resolution ran.
    let resolved = state.resolved;
    let keys = &mut state.scratch.pair_keys;
    keys.clear();
    state.on_one_way.clear();
    state.on_one_way.resize(state.bodies.len(), false);
    let mut any_resolved = false;
    for k in 0..state.pairs.len() {
        let pairs = &state.pairs;
        if resolved {
            let work = &state.work;
            work.prefetch_moved(&state.bodies, pairs, k + PREFETCH_DISTANCE);
        }
        let p = &pairs[k];
        let touching = if resolved && p.may_move && !state.work.keeps_narrow_contact(p, margin) {
            let contact = state.work.contact(k, &state.bodies, p, margin);
            if let Some(contact) = contact {
                state.pairs[k].seen = Seen::Touching(contact);
            }
            contact.is_some()
        } else {
            p.contact().is_some_and(|c| c.depth >= -margin)
        };
        if !touching {
            continue;
        }
        let p = &state.pairs[k];
        any_resolved |= !p.unpushed();
        // Sorted by entity pair below: the order of `Contacts`, of the events, and of ties in
        // the flags. Only these small keys are sorted: the records stay where they are.
        keys.push(PairKey {
            a: p.entities.0,
            b: p.entities.1,
            index: k as u32,
        });
        if p.one_way {
            let (a, b) = p.bodies();
            state.on_one_way[a] = true;
            state.on_one_way[b] = true;
        }
    }
    sort_pairs(
        keys,
        &mut state.final_order,
        &mut state.scratch.touching,
        &mut state.scratch.sort_scratch,
    );
    // Only resolved contacts set flags: without one, no record need be read again.
    let flagged: &[PairKey] = if any_resolved { keys } else { &[] };
    let pairs = &state.pairs;
    contact_flags(
        config,
        state.bodies.len(),
        flagged.iter().map(|key| &pairs[key.index as usize]),
        &mut state.flags,
        &mut state.support_index,
    );
}

/// Fills [`Contacts`] and sends the events: started and ended from a merge of this step's
/// sorted pairs with the last step's, and crushed.
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn report_contacts(
    mut state: ResMut<StepState>,
    mut contacts: ResMut<Contacts>,
    mut events: EventOutput,
) {
    let state = &mut *state;
    // The pair records, with their final contacts, become `Contacts` as they are: only the
    // order of the touching ones is sorted. (`Contacts`' old storage comes back to the step.)
    std::mem::swap(&mut contacts.pairs, &mut state.pairs);
    std::mem::swap(&mut contacts.order, &mut state.final_order);
    // This step's touching pairs against the last step's, both sorted (packed alike in the
    // usual world). A contact record is read only for a pair that starts touching: those are
    // gathered first, then read, each asked for a few ahead, since they lie anywhere.
    let mut starts = std::mem::take(&mut state.scratch.starts);
    starts.clear();
    diff_pairs(
        &state.touching,
        &state.scratch.touching,
        |change| match change {
            Change::Started(i) => starts.push(contacts.order[i]),
            Change::Ended(pair) => events.end(pair),
        },
    );
    for (j, &k) in starts.iter().enumerate() {
        if let Some(&ahead) = starts.get(j + PREFETCH_DISTANCE) {
            prefetch_index(&contacts.pairs, ahead as usize);
        }
        if let Some(pair) = contacts.pair(k) {
            events.start(&pair);
        }
    }
    state.scratch.starts = starts;
    for group in state.crushed.chunk_by(|x, y| x.0 == y.0) {
        events.crush(group);
    }
    std::mem::swap(&mut state.touching, &mut state.scratch.touching);
}

/// How many bodies ahead [`write_back`] asks for a body's first cache line: the records are
/// 256 bytes apart, a stride the hardware does not fetch ahead by itself.
const HEADER_PREFETCH_DISTANCE: usize = 16;

/// What [`write_back`] writes to.
type Targets = (
    Entity,
    &'static mut Transform,
    Option<&'static mut Velocity>,
    Option<&'static mut ContactFlags>,
);

/// Computes the final contacts and flags, writes the new positions, velocities and contact
/// flags to the entities, and takes [`DropThrough`] off bodies clear of every one-way platform.
///
/// The bodies were gathered in query order and nothing has changed the world's structure since,
/// so the query is walked in step with them; any entity out of step is looked up instead.
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn write_back(
    config: Res<SatConfig>,
    mut state: ResMut<StepState>,
    mut targets: Query<Targets, With<ConvexCollider>>,
    mut commands: Commands,
) {
    let state = &mut *state;
    final_contacts(&config, state);
    let mut next = 0;
    // `for_each`, not a `for` loop: Bevy's query iterator walks its tables in one fold then,
    // instead of keeping its position on the stack between the calls of `next`.
    targets
        .iter_mut()
        .for_each(|(entity, mut transform, velocity, flags)| {
            if let Some(ahead) = state.bodies.get(next + HEADER_PREFETCH_DISTANCE) {
                ahead.prefetch_header();
            }
            let Some(body) = state.bodies.get(next).filter(|b| b.entity == entity) else {
                return;
            };
            write_body(body, state.flags.get(next), &mut transform, velocity, flags);
            if body.drop_through && !state.on_one_way[next] {
                commands.entity(body.entity).remove::<DropThrough>();
            }
            next += 1;
        });
    for (k, body) in state.bodies.iter().enumerate().skip(next) {
        if let Ok((_, mut transform, velocity, contact_flags)) = targets.get_mut(body.entity) {
            write_body(
                body,
                state.flags.get(k),
                &mut transform,
                velocity,
                contact_flags,
            );
        }
        if body.drop_through && !state.on_one_way[k] {
            commands.entity(body.entity).remove::<DropThrough>();
        }
    }
}

/// Writes what changed. What the body knows is unchanged since it was read (position, velocity,
/// default flags) is not even read: at tens of thousands of bodies, each component touched
/// costs a cache miss per entity. `flags`: `None` for default flags (no flags were computed
/// this step).
fn write_body(
    body: &Body,
    flags: Option<&ContactFlags>,
    transform: &mut Mut<Transform>,
    velocity: Option<Mut<Velocity>>,
    contact_flags: Option<Mut<ContactFlags>>,
) {
    if body.moved {
        transform.translation.x = body.position.x;
        transform.translation.y = body.position.y;
    }
    if let Some(mut velocity) = velocity.filter(|_| body.velocity_changed) {
        velocity.set_if_neq(Velocity(body.velocity));
    }
    let unchanged = body.flags_were_default && flags.is_none_or(ContactFlags::is_default);
    if let Some(mut contact_flags) = contact_flags.filter(|_| !unchanged) {
        // As `set_if_neq`, without a branch per field.
        let new = flags.copied().unwrap_or_default();
        if !contact_flags.same_as(&new) {
            *contact_flags = new;
        }
    }
}
