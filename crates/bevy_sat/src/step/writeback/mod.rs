//! Write-back, the last stage: the final contacts and contact flags, the new positions,
//! velocities (a platform's kept by a body leaving it), real velocities and flags written to
//! the entities, then the [`Contacts`](crate::Contacts) resource and the collision events.

mod events;
mod final_contacts;
mod flags;

use bevy::prelude::*;

pub(crate) use events::report_contacts;

use super::StepState;
use super::body::{Body, Kind};
use super::pair_sort::{PairKey, SortScratch, SortedPairs};
use crate::components::{ConvexCollider, DropThrough, RealVelocity, Velocity};
use crate::config::PlatformOnLeave;
use crate::contact_flags::ContactFlags;

/// Write-back's storage, kept from step to step: what it computes for the entities, and the
/// touching pairs to compare the next step's with.
#[derive(Default, Debug)]
pub(crate) struct WritebackState {
    /// Contact flags per body, computed after resolution (empty: default flags for all).
    pub flags: Vec<ContactFlags>,
    /// Per body, the index of the body it stands on (`u32::MAX`: none), for the next step's
    /// carrying.
    pub support_index: Vec<u32>,
    /// Per body: touching a one-way platform after this step (within the margin).
    pub on_one_way: Vec<bool>,
    /// The pairs touching after resolution, sorted by entity pair: their indices in the step's
    /// pairs (the order of [`Contacts`](crate::Contacts), of the events, and of ties in the
    /// contact flags). Their records hold their final contacts.
    pub final_order: Vec<u32>,
    /// The touching pairs of the previous step, sorted.
    pub touching: SortedPairs,
    /// This step's touching pairs, sorted: they become `touching` once compared with it, whose
    /// storage comes back here.
    pub touching_now: SortedPairs,
    /// The pairs (indices) that start touching this step, in entity-pair order.
    pub starts: Vec<u32>,
    /// The entity pairs of the pairs touching after resolution, in pair order, to be sorted.
    pub pair_keys: Vec<PairKey>,
    pub sort_scratch: SortScratch,
}

/// How many bodies ahead [`write_back`] asks for a body's first cache line: the records are
/// several cache lines apart, a stride the hardware does not fetch ahead by itself.
const HEADER_PREFETCH_DISTANCE: usize = 16;

/// What [`write_back`] writes to.
type Targets = (
    Entity,
    &'static mut Transform,
    Option<&'static mut Velocity>,
    Option<&'static mut ContactFlags>,
    Option<&'static mut RealVelocity>,
);

/// One body's components that [`write_body`] writes to.
type BodyTargets<'a, 'w> = (
    &'a mut Mut<'w, Transform>,
    Option<Mut<'w, Velocity>>,
    Option<Mut<'w, ContactFlags>>,
    Option<Mut<'w, RealVelocity>>,
);

/// What [`write_body`] needs of the step as a whole.
#[derive(Clone, Copy)]
struct StepFacts {
    /// The step's duration (zero: no real velocity can be measured).
    dt: f32,
    /// What a body leaving a moving platform keeps of its velocity.
    on_leave: PlatformOnLeave,
}

/// Computes the final contacts and flags, writes the new positions, velocities, real
/// velocities and contact flags to the entities, and takes [`DropThrough`] off bodies clear of
/// every one-way platform.
///
/// The bodies were gathered in query order and nothing has changed the world's structure since,
/// so the query is walked in step with them; any entity out of step is looked up instead.
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn write_back(
    mut state: ResMut<StepState>,
    mut targets: Query<Targets, With<ConvexCollider>>,
    mut commands: Commands,
) {
    let state = &mut *state;
    final_contacts::final_contacts(state);
    state.moves.resolved = false;
    let computed = &state.writeback.flags;
    let on_one_way = &state.writeback.on_one_way;
    let facts = StepFacts {
        dt: state.motion.dt,
        on_leave: state.settings.on_leave,
    };
    let mut next = 0;
    // `for_each`, not a `for` loop: Bevy's query iterator walks its tables in one fold then,
    // instead of keeping its position on the stack between the calls of `next`.
    targets
        .iter_mut()
        .for_each(|(entity, mut transform, velocity, flags, real)| {
            if let Some(ahead) = state.bodies.get(next + HEADER_PREFETCH_DISTANCE) {
                ahead.prefetch_header();
            }
            let mut found = state.bodies.get(next).filter(|b| b.entity == entity);
            if found.is_none() {
                // The further parts of a Mighty compound (bodies of the entity before) have
                // nothing more to write: the walk goes past them to stay in step with the query.
                let parts_of = |k: usize| {
                    let previous = k.checked_sub(1).and_then(|p| state.bodies.get(p));
                    previous
                        .is_some_and(|p| state.bodies.get(k).is_some_and(|b| b.entity == p.entity))
                };
                while parts_of(next) {
                    next += 1;
                }
                found = state.bodies.get(next).filter(|b| b.entity == entity);
            }
            let Some(body) = found else {
                return;
            };
            let target = (&mut transform, velocity, flags, real);
            write_body(body, computed.get(next), facts, target);
            if body.drop_through && !on_one_way[next] {
                commands.entity(body.entity).remove::<DropThrough>();
            }
            next += 1;
        });
    // The entities' bodies: those after them are tile-grid pieces, which have nothing to write.
    let entities = state.broad.inputs.len().min(state.bodies.len());
    for (k, body) in state.bodies[..entities].iter().enumerate().skip(next) {
        if let Ok((_, mut transform, velocity, flags, real)) = targets.get_mut(body.entity) {
            let target = (&mut transform, velocity, flags, real);
            write_body(body, computed.get(k), facts, target);
        }
        if body.drop_through && !on_one_way[k] {
            commands.entity(body.entity).remove::<DropThrough>();
        }
    }
}

/// Writes what changed. What the body knows is unchanged since it was read (position, velocity,
/// default flags) is not even read: at tens of thousands of bodies, each component touched
/// costs a cache miss per entity. `flags`: `None` for default flags (no flags were computed
/// this step).
///
/// A Weak body that stood on a moving platform at the end of the last step (its flags as read
/// have a platform velocity) and touches no floor now has just left it: what
/// [`PlatformOnLeave`] keeps of that velocity is added to its own, once.
fn write_body(
    body: &Body,
    flags: Option<&ContactFlags>,
    facts: StepFacts,
    (transform, velocity, contact_flags, real): BodyTargets<'_, '_>,
) {
    if body.moved {
        transform.translation.x = body.position.x;
        transform.translation.y = body.position.y;
    }
    if let Some(mut real) = real {
        let measured = if facts.dt > 0.0 {
            (body.position - body.start) / facts.dt
        } else {
            Vec2::ZERO
        };
        if real.0 != measured {
            real.0 = measured;
        }
    }
    let mut new_velocity = body.velocity;
    let mut velocity_changed = body.velocity_changed;
    let unchanged = body.flags_were_default && flags.is_none_or(ContactFlags::is_default);
    if let Some(mut contact_flags) = contact_flags.filter(|_| !unchanged) {
        let new = flags.copied().unwrap_or_default();
        let left = !new.floor & (body.kind == Kind::Weak);
        if left && contact_flags.platform_velocity != Vec2::ZERO {
            let kept = facts.on_leave.kept(contact_flags.platform_velocity);
            new_velocity += kept;
            velocity_changed |= kept != Vec2::ZERO;
        }
        // As `set_if_neq`, without a branch per field.
        if !contact_flags.same_as(&new) {
            *contact_flags = new;
        }
    }
    if let Some(mut velocity) = velocity.filter(|_| velocity_changed) {
        velocity.set_if_neq(Velocity(new_velocity));
    }
}
