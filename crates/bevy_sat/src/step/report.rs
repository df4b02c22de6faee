//! Stage 5: contact flags, the [`Contacts`] resource, collision events, and writing positions,
//! velocities and flags back to the entities.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use sat_core::collide_within;

use super::{Body, Kind, StepState};
use crate::components::{ContactFlags, DropThrough, Velocity};
use crate::config::SatConfig;
use crate::contacts::{ContactPair, Contacts};
use crate::events::{CollisionEnded, CollisionStarted, Crushed};

/// The contact flags of every body from the final contacts.
pub(crate) fn contact_flags(
    config: &SatConfig,
    bodies: &[Body],
    contacts: &[(usize, usize, ContactPair)],
    flags: &mut Vec<ContactFlags>,
) {
    flags.clear();
    flags.resize(bodies.len(), ContactFlags::default());
    let level = config
        .max_floor_angle
        .clamp(0.0, core::f32::consts::FRAC_PI_2)
        .cos();
    for (a, b, pair) in contacts {
        if !pair.resolved {
            continue;
        }
        // Each Weak body of the pair, with the direction it is pushed out (away from the other).
        for (body, other, out) in [
            (*a, *b, -pair.contact.normal),
            (*b, *a, pair.contact.normal),
        ] {
            if bodies[body].kind != Kind::Weak {
                continue;
            }
            let f = &mut flags[body];
            if out.y >= level {
                f.floor = true;
                if f.standing_on.is_none() || out.y > f.floor_normal.y {
                    f.standing_on = Some(bodies[other].entity);
                    f.floor_normal = out;
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
    alive: Query<'w, 's, ()>,
    commands: Commands<'w, 's>,
}

impl EventOutput<'_, '_> {
    fn start(&mut self, pair: &ContactPair) {
        let event = CollisionStarted {
            a: pair.a,
            b: pair.b,
            contact: pair.contact,
        };
        self.started.write(event);
        self.commands.trigger(event);
        self.commands.trigger(CollisionStarted {
            a: pair.b,
            b: pair.a,
            contact: pair.contact.flipped(),
        });
    }

    fn crush(&mut self, body: Entity, crushers: &[Entity]) {
        let event = Crushed {
            body,
            crushers: crushers.to_vec(),
        };
        self.crushed.write(event.clone());
        self.commands.trigger(event);
    }

    fn end(&mut self, (a, b): (Entity, Entity)) {
        self.ended.write(CollisionEnded { a, b });
        // Observers only on entities that still exist (one may have been despawned).
        if self.alive.contains(a) {
            self.commands.trigger(CollisionEnded { a, b });
        }
        if self.alive.contains(b) {
            self.commands.trigger(CollisionEnded { a: b, b: a });
        }
    }
}

/// Final contacts, flags, [`Contacts`] and events.
pub(crate) fn report_contacts(
    config: Res<SatConfig>,
    mut state: ResMut<StepState>,
    mut contacts: ResMut<Contacts>,
    mut events: EventOutput,
    mut current: Local<Vec<(usize, usize, ContactPair)>>,
) {
    let state = &mut *state;
    let margin = config.contact_margin.max(0.0);
    current.clear();
    state.on_one_way.clear();
    state.on_one_way.resize(state.bodies.len(), false);
    for p in &state.pairs {
        let (a, b) = (&state.bodies[p.a], &state.bodies[p.b]);
        if let Some(contact) = collide_within(&a.shape, &b.shape, margin) {
            let pair = ContactPair {
                a: a.entity,
                b: b.entity,
                contact,
                resolved: !p.passing && a.resolves_with(b),
            };
            current.push((p.a, p.b, pair));
            if a.one_way.is_some() || b.one_way.is_some() {
                state.on_one_way[p.a] = true;
                state.on_one_way[p.b] = true;
            }
        }
    }
    contact_flags(&config, &state.bodies, &current, &mut state.flags);
    contacts.pairs.clear();
    contacts
        .pairs
        .extend(current.iter().map(|(_, _, pair)| *pair));

    // Started and ended: a merge of two sorted lists of entity pairs.
    let previous = std::mem::take(&mut state.touching);
    let mut old = previous.iter().peekable();
    for pair in &contacts.pairs {
        let key = (pair.a, pair.b);
        while let Some(&gone) = old.next_if(|p| **p < key) {
            events.end(gone);
        }
        if old.next_if(|p| **p == key).is_none() {
            events.start(pair);
        }
    }
    for &gone in old {
        events.end(gone);
    }
    for (body, crushers) in &state.crushed {
        events.crush(*body, crushers);
    }
    state.touching = previous;
    state.touching.clear();
    state
        .touching
        .extend(contacts.pairs.iter().map(|p| (p.a, p.b)));
}

/// Writes the new positions, velocities and contact flags to the entities, and takes
/// [`DropThrough`] off bodies that are clear of every one-way platform.
pub(crate) fn write_back(
    state: Res<StepState>,
    mut targets: Query<(
        &mut Transform,
        Option<&mut Velocity>,
        Option<&mut ContactFlags>,
    )>,
    mut commands: Commands,
) {
    for (i, (body, flags)) in state.bodies.iter().zip(&state.flags).enumerate() {
        if body.drop_through && !state.on_one_way[i] {
            commands.entity(body.entity).remove::<DropThrough>();
        }
        let Ok((mut transform, velocity, contact_flags)) = targets.get_mut(body.entity) else {
            continue;
        };
        if transform.translation.truncate() != body.position {
            transform.translation.x = body.position.x;
            transform.translation.y = body.position.y;
        }
        if let Some(mut velocity) = velocity {
            velocity.set_if_neq(Velocity(body.velocity));
        }
        if let Some(mut contact_flags) = contact_flags {
            contact_flags.set_if_neq(*flags);
        }
    }
}
