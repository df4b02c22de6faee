//! Stage 1: gravity, integration, and placing every collider in the world once.

use bevy::prelude::*;

mod carry;
mod first_support;
mod parts;

use bevy::ecs::entity::{EntityHashMap, EntityHashSet};

use super::StepState;
use super::body::{Body, Kind, pose_of};
use super::broad::BroadInput;
use super::huge_pages;
use crate::child_colliders::{BodyColliders, ColliderOf};
use crate::collider_removals::ColliderRemovals;
use crate::components::{
    CollisionLayers, ConvexCollider, DropThrough, Mighty, OneWayPlatform, Sensor, Velocity, Weak,
};
use crate::config::{MAX_DT, SatConfig};
use crate::contact_flags::ContactFlags;
use sat_core::Shape;

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
            Has<ColliderOf>,
            Has<BodyColliders>,
        ),
    ),
>;

/// Prepare's own storage, kept from step to step so that it allocates nothing once warmed up.
#[derive(Default, Debug)]
pub(crate) struct PrepareState {
    /// The bodies that stood on something at the end of the last step, in order.
    riders: Vec<usize>,
    /// Per body, the index of the body it stood on.
    support: Vec<Option<usize>>,
    /// Per body, how far its support carries it.
    carry: Vec<Option<Vec2>>,
    /// Entity → body index, built only when a rider's support is not where last step's
    /// support index says, or a new body's support is looked for.
    index: EntityHashMap<usize>,
    /// The Weak bodies inserted since the last step: with no contact flags yet, they have no
    /// support to be carried by unless the step finds it.
    fresh: Vec<Entity>,
    /// The moving Mighty bodies, while new bodies' supports are looked for among them.
    moving: Vec<usize>,
    /// [`ColliderRemovals::count`] when this step's bodies were gathered: the queries answer
    /// from them without asking whether each one's entity still has a collider while the
    /// count is unchanged.
    pub removals: u64,
    warnings: Warnings,
}

impl PrepareState {
    /// Notes a body that `Weak` was just inserted on (its insert hook calls this), for the
    /// next step to find what it stands on.
    pub(crate) fn new_weak(&mut self, entity: Entity) {
        self.fresh.push(entity);
    }
}

/// Entities already warned about, per problem, so each warning is logged once.
#[derive(Default, Debug)]
struct Warnings {
    no_kind: EntityHashSet,
    non_finite: EntityHashSet,
    unplaceable: EntityHashSet,
    /// The fields of the last [`SatConfig`] warned about, so that a bad one is reported once,
    /// not every step.
    config: Vec<&'static str>,
    /// A time step that could not be used was reported.
    dt: bool,
}

/// The warnings for bad bodies, each logged once per entity. Out of line and cold: the
/// per-body loop keeps its registers for the bodies that are fine.
impl Warnings {
    #[cold]
    #[inline(never)]
    fn no_kind(&mut self, entity: Entity) {
        if self.no_kind.insert(entity) {
            warn!(
                "{entity} has a ConvexCollider but neither Mighty nor Weak: it is treated as \
                 Mighty (static scenery, never pushed)"
            );
        }
    }

    #[cold]
    #[inline(never)]
    fn non_finite(&mut self, entity: Entity, start: Vec2, velocity: Vec2) {
        if self.non_finite.insert(entity) {
            warn!(
                "{entity} has a non-finite translation or velocity ({start}, {velocity}): it is \
                 left out of collision until both are finite again"
            );
        }
    }

    #[cold]
    #[inline(never)]
    fn unrotatable(&mut self, entity: Entity) {
        if self.unplaceable.insert(entity) {
            warn!("{entity} has a non-finite or out-of-plane rotation: it is left out");
        }
    }

    #[cold]
    #[inline(never)]
    fn unplaceable(&mut self, entity: Entity, error: impl std::fmt::Display) {
        if self.unplaceable.insert(entity) {
            warn!("{entity}'s collider cannot be placed ({error}): it is left out");
        }
    }
}

// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn prepare_bodies(
    time: Res<Time>,
    config: Res<SatConfig>,
    colliders: ColliderQuery,
    removals: Res<ColliderRemovals>,
    mut state: ResMut<StepState>,
) {
    let state = &mut *state;
    let prepare = &mut state.prepare;
    prepare.removals = removals.count();
    if config.is_changed() {
        let (settings, replaced) = config.settings();
        if !replaced.is_empty() && replaced != prepare.warnings.config {
            warn!(
                "SatConfig has invalid values in {}: the defaults are used for those",
                replaced.join(", ")
            );
        }
        prepare.warnings.config = replaced;
        state.settings = settings;
    }
    let dt = step_duration(time.delta_secs(), &mut prepare.warnings.dt);
    state.settings.dt = dt;
    let settings = state.settings;
    prepare.index.clear();
    // The longest motion, squared until the end: one square root per step, not per body.
    let mut reach_squared = 0.0f32;
    let mut count = 0;
    let mut any_pushable = false;
    // Only a moving Mighty body carries anything (see `carry_riders`).
    let mut any_mighty_moving = false;
    prepare.riders.clear();
    let margin = settings.margin;
    let warnings = &mut prepare.warnings;
    state.broad.inputs.clear();
    state.children.start_step();
    // Resolution's compact copy of the velocities, when it is likely to run (it ran last step;
    // else it reads them from the records).
    let motion = &mut state.motion;
    let keep_velocities = motion.any_pushable;
    motion.velocities.clear();
    for (entity, collider, transform, velocity, mighty, weak, sensor, layers, extra) in &colliders {
        let (one_way, drop_through, flags, child, with_children) = extra;
        if child {
            // A part of another body: placed with it, after every entity's own body (see
            // `children::place_child_colliders`).
            continue;
        }
        // `Mighty` and `Weak` remove each other when inserted: an entity has one at most.
        let kind = match (mighty, weak) {
            (_, false) | (true, true) => {
                if !mighty && !sensor {
                    warnings.no_kind(entity);
                }
                Kind::Mighty
            }
            (false, true) => Kind::Weak,
        };
        let velocity_read = velocity.map_or(Vec2::ZERO, |v| v.0);
        let mut v = velocity_read;
        if kind == Kind::Weak && velocity.is_some() {
            v += settings.gravity * dt;
        }
        let start = transform.translation.truncate();
        if !start.is_finite() || !v.is_finite() {
            warnings.non_finite(entity, start, v);
            continue;
        }
        let displacement = v * dt;
        let Some(mut pose) = pose_of(&transform) else {
            warnings.unrotatable(entity);
            continue;
        };
        pose.translation = start + displacement;
        if kind == Kind::Mighty
            && let Shape::Compound(compound) = collider.shape()
        {
            // Each part a body of its own (see `parts`).
            let owner = parts::Owner {
                entity,
                compound,
                pose,
                start,
                velocity: v,
                still: velocity.is_none(),
                unchanged: velocity.is_none() && !transform.is_changed() && !collider.is_changed(),
                layers: layers.copied().unwrap_or_default(),
                sensor,
                one_way: one_way.copied(),
            };
            let first = count;
            let mut slots = parts::Slots {
                bodies: &mut state.bodies,
                broad: &mut state.broad,
                velocities: keep_velocities.then_some(&mut motion.velocities),
                count: &mut count,
                margin,
            };
            let placed = parts::place_parts(&owner, &mut slots);
            if with_children && placed > 0 {
                state.children.note_body(entity, first);
            }
            reach_squared = reach_squared.max(displacement.length_squared());
            any_mighty_moving |= displacement != Vec2::ZERO;
            continue;
        }
        // Place the shape straight into a body slot kept from the last step when there is one:
        // no copy of the whole shape per body.
        let slot = count;
        // Static scenery (no velocity: most of a level) unchanged since the last step: if its
        // slot holds it as placed then, where it still is, the world shape is already in place.
        // (Resolution never moves a body without writing its transform.) Not a body with a
        // velocity that happens to be zero, a Weak body at rest say: placing it again costs
        // less than finding out when bodies at rest and in motion come mixed, while the
        // scenery's entities come grouped (no `Velocity`: a table of their own).
        let unchanged = velocity.is_none() && !transform.is_changed() && !collider.is_changed();
        // (With the placed shape's AABB, found on the way.)
        let mut kept = false;
        let placed = match state.bodies.get_mut(slot) {
            Some(body) if unchanged && body.entity == entity && body.position == start => {
                kept = true;
                Ok(body.shape.aabb())
            }
            Some(body) => collider.shape().transform_into(&pose, &mut body.shape),
            None => collider.shape().transformed(&pose).map(|shape| {
                let aabb = shape.aabb();
                huge_pages::push(&mut state.bodies, Body::new(entity, shape));
                aabb
            }),
        };
        let aabb = match placed {
            Ok(aabb) => aabb,
            Err(error) => {
                warnings.unplaceable(entity, error);
                continue;
            }
        };
        count += 1;
        if with_children {
            state.children.note_body(entity, slot);
        }
        let body = &mut state.bodies[slot];
        let support = flags
            .and_then(|f| f.standing_on())
            .filter(|_| kind == Kind::Weak);
        if support.is_some() {
            prepare.riders.push(slot);
        }
        let moved = pose.translation - start; // as `Body::motion` gives it
        reach_squared = reach_squared.max(moved.length_squared());
        any_mighty_moving |= kind == Kind::Mighty && moved != Vec2::ZERO;
        // Field by field: the shape is already in place.
        body.entity = entity;
        body.name = entity;
        body.hidden = 0;
        body.position = pose.translation;
        body.velocity = v;
        if keep_velocities {
            motion.velocities.push(v);
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
        body.layered = false;
        // Scenery kept in place keeps the faces its flush neighbours hid (if the scenery
        // changed anywhere, the broad phase finds them all again); everything else starts
        // with none.
        body.internal = if kept {
            state.broad.scenery_internal(slot)
        } else {
            0
        };
        any_pushable |= body.pushable();
        state.broad.inputs.push(BroadInput::of(
            body,
            aabb,
            moved,
            margin,
            velocity.is_none(),
            kept,
        ));
    }
    state.bodies.truncate(count);
    motion.any_pushable = any_pushable;
    motion.reach = reach_squared.sqrt();
    motion.dt = dt;
    motion.any_mighty_moving = any_mighty_moving;
    // With child colliders, their bodies are placed first: a rider may stand on one.
    if state.children.is_empty() {
        find_supports(state);
    }
}

/// New bodies' supports found, and riders carried by what they stood on: the end of prepare,
/// once every body is placed.
pub(crate) fn find_supports(state: &mut StepState) {
    let prepare = &mut state.prepare;
    let motion = &mut state.motion;
    let settings = state.settings;
    let margin = settings.margin;
    let any_mighty_moving = motion.any_mighty_moving;
    // New bodies have no contact flags yet: their support is found from where they start,
    // when there is a moving body to be carried by.
    if !prepare.fresh.is_empty() {
        if any_mighty_moving {
            first_support::find_first_supports(&mut state.bodies, prepare, &settings);
        }
        prepare.fresh.clear();
    }
    // Only riders need the entity → body lookup; most steps of most scenes have few. Without
    // a moving Mighty body, every carry is zero.
    if !prepare.riders.is_empty() && any_mighty_moving {
        carry::carry_riders(
            &mut state.bodies,
            prepare,
            &state.writeback.support_index,
            &mut state.broad.inputs,
            &mut motion.reach,
            margin,
        );
    }
}

/// The step's duration: `dt` if it is usable. One that is not finite or negative is no time at
/// all (nothing moves), and a longer one than [`MAX_DT`] is cut to it; either is reported once.
fn step_duration(dt: f32, warned: &mut bool) -> f32 {
    let usable = if dt.is_finite() {
        dt.clamp(0.0, MAX_DT)
    } else {
        0.0
    };
    if usable != dt && !*warned {
        warn!("the step's time delta {dt} s is not usable: {usable} s is used instead");
        *warned = true;
    }
    usable
}
