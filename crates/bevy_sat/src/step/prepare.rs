//! Stage 1: gravity, integration, and placing every collider in the world once.

use bevy::prelude::*;
use sat_core::Pose;

use super::broad::BroadInput;
use super::{Body, Kind, StepState};
use crate::components::{
    CollisionLayers, ContactFlags, ConvexCollider, DropThrough, Mighty, OneWayPlatform, Sensor,
    Velocity, Weak,
};
use crate::config::SatConfig;

/// The colliders the step reads.
pub(crate) type ColliderQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Ref<'static, ConvexCollider>,
        Ref<'static, Transform>,
        Option<&'static Velocity>,
        Has<Mighty>,
        Has<Weak>,
        Has<Sensor>,
        Option<&'static CollisionLayers>,
        (
            Option<&'static OneWayPlatform>,
            Has<DropThrough>,
            Option<&'static ContactFlags>,
        ),
    ),
>;

/// The pose of a collider's entity: translation, rotation about z, scale in x and y. `None`
/// when the rotation is not finite or turns the x axis out of the plane.
pub(crate) fn pose_of(transform: &Transform) -> Option<Pose> {
    let rotation = if transform.rotation == Quat::IDENTITY {
        Vec2::X // the usual case, without a rotation and a square root per body
    } else {
        (transform.rotation * Vec3::X).truncate().try_normalize()?
    };
    Some(Pose {
        translation: transform.translation.truncate(),
        rotation,
        scale: transform.scale.truncate(),
    })
}

// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn prepare_bodies(
    time: Res<Time>,
    config: Res<SatConfig>,
    colliders: ColliderQuery,
    mut state: ResMut<StepState>,
) {
    let dt = time.delta_secs();
    let state = &mut *state;
    state.index.clear();
    // The longest motion, squared until the end: one square root per step, not per body.
    let mut reach_squared = 0.0f32;
    let mut count = 0;
    let mut any_pushable = false;
    // Only a moving Mighty body carries anything (see `carry_riders`).
    let mut any_mighty_moving = false;
    state.scratch.riders.clear();
    let margin = config.contact_margin.max(0.0);
    let warnings = &mut state.warnings;
    state.broad.inputs.clear();
    // Resolution's compact copy of the velocities, when it is likely to run (it ran last step;
    // else it reads them from the records).
    let keep_velocities = state.any_pushable;
    state.velocities.clear();
    for (entity, collider, transform, velocity, mighty, weak, sensor, layers, extra) in &colliders {
        let (one_way, drop_through, flags) = extra;
        let kind = match (mighty, weak) {
            (_, false) | (true, true) => {
                if mighty && weak && warnings.both_kinds.insert(entity) {
                    warn!("{entity} has both Mighty and Weak: it is treated as Mighty");
                }
                if !mighty && !sensor && warnings.no_kind.insert(entity) {
                    warn!(
                        "{entity} has a ConvexCollider but neither Mighty nor Weak: it is treated \
                         as Mighty (static scenery, never pushed)"
                    );
                }
                Kind::Mighty
            }
            (false, true) => Kind::Weak,
        };
        let velocity_read = velocity.map_or(Vec2::ZERO, |v| v.0);
        let mut v = velocity_read;
        if kind == Kind::Weak && velocity.is_some() {
            v += config.gravity * dt;
        }
        let start = transform.translation.truncate();
        if !start.is_finite() || !v.is_finite() {
            if warnings.non_finite.insert(entity) {
                warn!(
                    "{entity} has a non-finite translation or velocity ({start}, {v}): it is \
                     left out of collision until both are finite again"
                );
            }
            continue;
        }
        let motion = v * dt;
        let Some(mut pose) = pose_of(&transform) else {
            if warnings.unplaceable.insert(entity) {
                warn!("{entity} has a non-finite or out-of-plane rotation: it is left out");
            }
            continue;
        };
        pose.translation = start + motion;
        // Place the shape straight into a body slot kept from the last step when there is one:
        // no copy of the whole shape per body.
        let slot = count;
        // Static scenery (no velocity: most of a level) unchanged since the last step: if its
        // slot holds it as placed then, where it still is, the world shape is already in place.
        // (Resolution never moves a body without writing its transform.) Not a body with a
        // velocity that happens to be zero, a Weak body at rest say: placing it again costs
        // less than finding out, when bodies at rest and in motion come mixed (a crowd half at
        // rest, in the stress scene's `resolve` mode: prepare 2.48-2.50 -> 1.91 ms at 64k),
        // while the scenery's entities come grouped (no `Velocity`: a table of their own).
        let unchanged = velocity.is_none() && !transform.is_changed() && !collider.is_changed();
        // (With the placed shape's AABB, found on the way.)
        let placed = match state.bodies.get_mut(slot) {
            Some(body) if unchanged && body.entity == entity && body.position == start => {
                Ok(body.shape.aabb())
            }
            Some(body) => collider.shape().transform_into(&pose, &mut body.shape),
            None => collider.shape().transformed(&pose).map(|shape| {
                state.bodies.push(Body::new(entity, shape));
                shape.aabb()
            }),
        };
        let aabb = match placed {
            Ok(aabb) => aabb,
            Err(error) => {
                if warnings.unplaceable.insert(entity) {
                    warn!("{entity}'s collider cannot be placed ({error}): it is left out");
                }
                continue;
            }
        };
        count += 1;
        let body = &mut state.bodies[slot];
        let support = flags
            .and_then(|f| f.standing_on())
            .filter(|_| kind == Kind::Weak);
        if support.is_some() {
            state.scratch.riders.push(slot);
        }
        let moved = pose.translation - start; // as `Body::motion` gives it
        reach_squared = reach_squared.max(moved.length_squared());
        any_mighty_moving |= kind == Kind::Mighty && moved != Vec2::ZERO;
        // Field by field: the shape is already in place.
        body.entity = entity;
        body.position = pose.translation;
        body.velocity = v;
        if keep_velocities {
            state.velocities.push(v);
        }
        body.layers = layers.copied().unwrap_or_default();
        body.size = aabb.size().min_element();
        body.bottom = aabb.min.y;
        body.kind = kind;
        body.sensor = sensor;
        body.drop_through = drop_through && kind == Kind::Weak;
        body.flags_were_default = flags.is_none_or(ContactFlags::is_default);
        body.one_way = one_way.copied().filter(|_| kind == Kind::Mighty);
        body.start = start;
        body.moved = pose.translation != start;
        body.velocity_changed = v != velocity_read;
        body.rotation = pose.rotation;
        body.support = support;
        body.internal = 0;
        any_pushable |= body.pushable();
        state
            .broad
            .inputs
            .push(BroadInput::of(body, aabb, moved, margin));
    }
    state.bodies.truncate(count);
    state.any_pushable = any_pushable;
    state.reach = reach_squared.sqrt();
    // Only riders need the entity → body lookup; most steps of most scenes have few. Without
    // a moving Mighty body, every carry is zero.
    if !state.scratch.riders.is_empty() && any_mighty_moving {
        carry_riders(state, margin);
    }
}

/// Moves every Weak body that stood on something at the end of the last step by its support's
/// displacement, so riders travel with moving platforms, and riders of riders with them. Only
/// the floor contact carries, and only Mighty bodies' motion: a Mighty support's displacement
/// is its motion, a Weak support's is its own carry. A Weak body's own motion is not its
/// displacement (resolution may stop it or push it back: a crate resting on the floor moves
/// down by gravity every step, and is pushed back up), so it is not passed on to what stands
/// on it. (It was, once: every crate of a stack then went down by the gravity of all those
/// below it, for resolution to push back up; and in a game without gravity, a body touching
/// another from above went along with whatever way that one moved.) A carried body's swept
/// box (grown by `margin`) and the step's reach are brought up to date.
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
fn carry_riders(state: &mut StepState, margin: f32) {
    let scratch = &mut state.scratch;
    let bodies = &mut state.bodies;
    scratch.support.clear();
    scratch.support.resize(bodies.len(), None);
    for &i in &scratch.riders {
        let Some(support) = bodies[i].support else {
            continue;
        };
        // Last step's index of the support, if the bodies came in the same order; else (only
        // then) the entity → body lookup, built once.
        let hint = state.support_index.get(i).map(|&s| s as usize);
        scratch.support[i] =
            match hint.filter(|&s| bodies.get(s).is_some_and(|b| b.entity == support)) {
                Some(s) => Some(s),
                None => {
                    if state.index.is_empty() {
                        state
                            .index
                            .extend(bodies.iter().enumerate().map(|(k, b)| (b.entity, k)));
                    }
                    state.index.get(&support).copied()
                }
            };
    }
    scratch.carry.clear();
    scratch.carry.resize(bodies.len(), None);
    for &i in &scratch.riders {
        carry_of(i, bodies, &scratch.support, &mut scratch.carry, 0);
    }
    for &i in &scratch.riders {
        let body = &mut bodies[i];
        if let Some(offset) = scratch.carry[i].filter(|c| *c != Vec2::ZERO) {
            body.shift(offset);
            let motion = body.motion();
            state.reach = state.reach.max(motion.length());
            state.broad.inputs[i].swept = BroadInput::swept(body.shape.aabb(), motion, margin);
        }
    }
}

/// The carry of body `i`: its support's motion if the support is Mighty, else the support's
/// own carry (bounded depth, so a cycle of supports ends instead of looping). Bodies are not
/// carried yet: their motion is their own.
fn carry_of(
    i: usize,
    bodies: &[Body],
    support: &[Option<usize>],
    carry: &mut [Option<Vec2>],
    depth: usize,
) -> Vec2 {
    const MAX_DEPTH: usize = 16;
    if let Some(known) = carry[i] {
        return known;
    }
    let value = match support[i] {
        Some(s) if s != i && depth < MAX_DEPTH => match bodies[s].kind {
            Kind::Mighty => bodies[s].motion(),
            Kind::Weak => carry_of(s, bodies, support, carry, depth + 1),
        },
        _ => Vec2::ZERO,
    };
    carry[i] = Some(value);
    value
}
