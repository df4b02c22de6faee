//! Collision events and the [`Contacts`] resource: started and ended from a merge of this
//! step's sorted touching pairs with the last step's, and crushed bodies.

use bevy::ecs::entity_disabling::Disabled;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use prefetch_index::prefetch_index;

use crate::contacts::{ContactPair, Contacts};
use crate::events::{CollisionEnded, CollisionStarted, Crushed};
use crate::step::StepState;
use crate::step::pair::PREFETCH_DISTANCE;
use crate::step::pair_sort::{Change, diff_pairs};

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
    std::mem::swap(&mut contacts.pairs, &mut state.found.pairs);
    std::mem::swap(&mut contacts.order, &mut state.writeback.final_order);
    // This step's touching pairs against the last step's, both sorted (packed alike in the
    // usual world). A contact record is read only for a pair that starts touching: those are
    // gathered first, then read, each asked for a few ahead, since they lie anywhere.
    let mut starts = std::mem::take(&mut state.writeback.starts);
    starts.clear();
    diff_pairs(
        &state.writeback.touching,
        &state.writeback.touching_now,
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
    state.writeback.starts = starts;
    for group in state.resolution.crushed.chunk_by(|x, y| x.0 == y.0) {
        events.crush(group);
    }
    let writeback = &mut state.writeback;
    std::mem::swap(&mut writeback.touching, &mut writeback.touching_now);
}
