//! Child colliders ([`ColliderOf`](crate::ColliderOf)) in the step. After prepare has placed
//! every entity's own body, each body with child colliders gets them:
//!
//! - the solid parts of a Weak body are folded into its shape, a compound of its own collider
//!   and theirs, so that resolution moves it as one and pushes it by its deepest part (parts
//!   with layers of their own each meet only what those allow: see `layer_views`);
//! - every other part (a sensor, or a part of a Mighty body) is a step body of its own, named
//!   by its entity, placed where its body puts it and moving with it, appended after the
//!   entities' own bodies. A sensor riding on a Weak body is moved along with it after
//!   resolution, and its contacts found again there.
//!
//! Only bodies with child colliders are visited: without any, both systems return at once.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use sat_core::{Compound, Pose, Shape, collide_within};
use smallvec::SmallVec;

use super::StepState;
use super::body::{Body, Kind, pose_of};
use super::broad::BroadInput;
use super::fold_seams::{FoldPart, mark_shared_faces};
use super::huge_pages;
use super::layer_views::{LayerViews, MAX_GROUPS};
use super::pair::Seen;
use super::part_names::FoldedParts;
use crate::child_colliders::{BodyColliders, MAX_DEPTH};
use crate::components::{CollisionLayers, ConvexCollider, Sensor};

/// A sensor part riding on a Weak body: its body index, its body's, and where its body was
/// when the part was placed.
#[derive(Clone, Copy, Debug)]
struct Rider {
    part: u32,
    body: u32,
    body_at: Vec2,
}

/// The child colliders' storage in the step, kept from step to step.
#[derive(Default, Debug)]
pub(crate) struct ChildState {
    /// The bodies with child colliders this step, and the index of each one's (first) body.
    bodies: Vec<(Entity, u32)>,
    /// The sensor parts of Weak bodies, to move along after resolution.
    riders: Vec<Rider>,
    /// Per body, whether a rider was moved after resolution (filled only when one was).
    moved: Vec<bool>,
    /// Per body, the entity of the body it is a part of (its own entity but for child
    /// colliders): filled only in a step with child colliders, and then only as far as the
    /// entities' bodies go (see [`ChildState::owner`]).
    owners: Vec<Entity>,
    /// The parts of the Weak body being folded, placed, with their entities and their own
    /// layers (scratch).
    folded: Vec<(Entity, Shape, Option<CollisionLayers>)>,
    /// The same parts flattened into convex pieces while their shared faces are found
    /// (scratch).
    fold_parts: Vec<FoldPart>,
    /// The entity naming each of those parts (scratch).
    fold_names: Vec<Entity>,
    /// The group of layers of each of those parts (scratch; see `layer_views`).
    fold_groups: Vec<u8>,
    /// The entities of the folded bodies' parts, for the contacts to name.
    pub names: FoldedParts,
    /// Parts already warned about (each one once).
    warned: EntityHashSet,
    /// Some body's parts have layers of their own this step ([`Body::layered`]).
    layered: bool,
}

impl ChildState {
    /// Forgets the last step's bodies.
    pub fn start_step(&mut self) {
        self.layered = false;
        self.bodies.clear();
        self.riders.clear();
        self.owners.clear();
        self.names.clear();
    }

    /// The entity of the body that body `i` (whose own entity is `entity`) is a part of:
    /// `entity` itself, but for a child collider. The broad phase never pairs two colliders of
    /// one body.
    #[inline]
    pub fn owner(&self, i: usize, entity: Entity) -> Entity {
        self.owners.get(i).copied().unwrap_or(entity)
    }

    /// Whether some body's parts have layers of their own this step ([`Body::layered`]).
    pub fn any_layered(&self) -> bool {
        self.layered
    }

    /// Whether no body has child colliders this step.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// Notes that `entity`, placed at body index `index` (its first part's, for a Mighty
    /// compound), has child colliders.
    pub fn note_body(&mut self, entity: Entity, index: usize) {
        self.bodies.push((entity, index as u32));
    }

    /// Warns once that the solid part `part` of a Weak body has layers of its own that it
    /// does not use: its body's parts have too many different ones.
    #[cold]
    fn warn_layers(&mut self, part: Entity) {
        if self.warned.insert(part) {
            warn!(
                "the child collider {part} collides with its body's CollisionLayers, not its \
                 own: the solid parts of a Weak body may have at most {MAX_GROUPS} different \
                 CollisionLayers, its body's own included"
            );
        }
    }

    /// Warns once that `part` is left out, and why.
    #[cold]
    fn warn(&mut self, part: Entity, why: &str) {
        if self.warned.insert(part) {
            warn!("the child collider {part} is left out: {why}");
        }
    }
}

/// What placing the parts reads of a body: its collider, its children, its transform.
type BodyQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static ConvexCollider,
        &'static BodyColliders,
        &'static Transform,
    ),
>;

/// What placing reads of a part.
type PartQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static ConvexCollider,
        Has<Sensor>,
        Option<&'static CollisionLayers>,
    ),
>;

/// The transforms and parent links between a part and its body.
type Links<'w, 's> = Query<'w, 's, (&'static Transform, Option<&'static ChildOf>)>;

/// Places the child colliders of the bodies prepare noted (see the module's documentation).
// Kept out of line so that profiles show it apart from the stages.
#[inline(never)]
pub(crate) fn place_child_colliders(
    mut state: ResMut<StepState>,
    owners: BodyQuery,
    parts: PartQuery,
    links: Links,
) {
    if state.children.bodies.is_empty() {
        return;
    }
    let state = &mut *state;
    let margin = state.settings.margin;
    let mut children = std::mem::take(&mut state.children);
    children.owners.clear();
    children
        .owners
        .extend(state.bodies.iter().map(|body| body.entity));
    // The Mighty bodies' parts first, then the carrying of riders (which may stand on such a
    // part), then the Weak bodies' parts, placed where their carried bodies are.
    let queries = (owners, parts, links);
    place_parts_of(state, &mut children, Kind::Mighty, &queries, margin);
    state.children = children;
    super::prepare::find_supports(state);
    let mut children = std::mem::take(&mut state.children);
    place_parts_of(state, &mut children, Kind::Weak, &queries, margin);
    state.children = children;
}

/// Places the child colliders of the bodies of `kind` with child colliders.
fn place_parts_of(
    state: &mut StepState,
    children: &mut ChildState,
    kind: Kind,
    (owners, parts, links): &(BodyQuery, PartQuery, Links),
    margin: f32,
) {
    for k in 0..children.bodies.len() {
        let (entity, index) = children.bodies[k];
        let index = index as usize;
        if state.bodies[index].kind != kind {
            continue;
        }
        let Ok((collider, list, transform)) = owners.get(entity) else {
            continue;
        };
        let owner = &state.bodies[index];
        let (motion, velocity) = (owner.motion(), owner.velocity);
        // The body where prepare placed it (after carrying), as a transform.
        let mut placed = *transform;
        placed.translation = owner.position.extend(transform.translation.z);
        let body_pose = Pose {
            translation: owner.position,
            rotation: owner.rotation,
            scale: transform.scale.truncate(),
        };
        children.folded.clear();
        for part in list.iter() {
            let Ok((part_collider, sensor, layers)) = parts.get(part) else {
                continue;
            };
            let Some(offset) = offset_in_body(part, entity, links) else {
                children.warn(part, "its transform or parent links cannot be read");
                continue;
            };
            let world = placed.mul_transform(offset);
            let Some(pose) = pose_of(&world).filter(|p| p.translation.is_finite()) else {
                children.warn(part, "its rotation or translation is not finite");
                continue;
            };
            let shape = match part_collider.shape().transformed(&pose) {
                Ok(shape) => shape,
                Err(error) => {
                    children.warn(part, &format!("it cannot be placed ({error})"));
                    continue;
                }
            };
            if kind == Kind::Weak && !sensor {
                children.folded.push((part, shape, layers.copied()));
                continue;
            }
            let aabb = shape.aabb();
            let mut body = Body::new(part, shape);
            body.position = pose.translation;
            body.start = pose.translation - motion;
            body.velocity = velocity;
            body.rotation = pose.rotation;
            body.layers = layers.copied().unwrap_or_default();
            body.size = aabb.size().min_element();
            body.kind = kind;
            body.sensor = sensor;
            let mut input = BroadInput::of(&body, aabb, motion, margin, false, false);
            // Through the broad phase's check of layers, which also keeps a body's parts
            // from being paired.
            input.custom_layers = true;
            let at = state.bodies.len();
            if kind == Kind::Weak {
                children.riders.push(Rider {
                    part: at as u32,
                    body: index as u32,
                    body_at: body_pose.translation,
                });
            }
            if state.motion.velocities.len() == at {
                state.motion.velocities.push(velocity);
            }
            huge_pages::push(&mut state.bodies, body);
            state.broad.inputs.push(input);
            children.owners.push(entity);
        }
        if !children.folded.is_empty() {
            fold(state, index, collider, &body_pose, children, margin);
        }
    }
}

/// Makes the Weak body at `index` a compound of its own collider (`collider`, placed by
/// `pose`) and the parts in `children.folded`, already placed.
fn fold(
    state: &mut StepState,
    index: usize,
    collider: &ConvexCollider,
    pose: &Pose,
    children: &mut ChildState,
    margin: f32,
) {
    let (entity, owner_layers) = (state.bodies[index].entity, state.bodies[index].layers);
    let own = match collider.shape().transformed(pose) {
        Ok(shape) => shape,
        Err(_) => return, // prepare placed it by the same pose: it can be placed
    };
    // Every part the compound will have, flattened as the compound would, each with the
    // entity that names it: the body's own collider first (source 0), then each child's.
    let mut parts = std::mem::take(&mut children.fold_parts);
    let mut names = std::mem::take(&mut children.fold_names);
    names.clear();
    // Each part's group of layers (see `layer_views`): the body's own collider and the parts
    // without layers of their own are in group 0.
    let mut groups: SmallVec<[CollisionLayers; MAX_GROUPS]> = SmallVec::new();
    groups.push(owner_layers);
    let mut part_groups = std::mem::take(&mut children.fold_groups);
    part_groups.clear();
    flatten_into(&mut parts, &mut names, own, entity, 0);
    part_groups.resize(parts.len(), 0u8);
    let mut folded = std::mem::take(&mut children.folded);
    for (k, (part, shape, layers)) in folded.drain(..).enumerate() {
        let group = match layers {
            None => 0,
            Some(layers) => match groups.iter().position(|g| *g == layers) {
                Some(g) => g,
                None if groups.len() < MAX_GROUPS => {
                    groups.push(layers);
                    groups.len() - 1
                }
                None => {
                    children.warn_layers(part);
                    0
                }
            },
        };
        flatten_into(&mut parts, &mut names, shape, part, k as u32 + 1);
        part_groups.resize(parts.len(), group as u8);
    }
    children.folded = folded;
    let views = (groups.len() > 1)
        .then(|| LayerViews::new(&groups, &parts, &part_groups, pose.translation))
        .flatten();
    children.fold_groups = part_groups;
    mark_shared_faces(&mut parts);
    let compound = Compound::new(
        parts
            .drain(..)
            .map(|part| (Vec2::ZERO, 0.0, part.shape, part.internal)),
    );
    children.fold_parts = parts;
    let compound = match compound {
        Ok(compound) => compound,
        Err(error) => {
            children.warn(entity, &format!("its parts cannot be joined ({error})"));
            return;
        }
    };
    children.names.add(index, names.drain(..));
    children.fold_names = names;
    let body = &mut state.bodies[index];
    body.shape = Shape::Compound(compound);
    if let Some(views) = views {
        body.layers = views.union();
        body.views = Some(Box::new(views));
        body.layered = true;
        children.layered = true;
    }
    let aabb = body.shape.aabb();
    body.size = aabb.size().min_element();
    body.bottom = aabb.min.y;
    let mut input = BroadInput::of(body, aabb, body.motion(), margin, false, false);
    input.custom_layers = true;
    if let Some(slot) = state.broad.inputs.get_mut(index) {
        *slot = input;
    }
}

/// Appends `shape`'s convex parts (itself, if it is no compound) to `parts`, from `source`
/// and with their internal edges, and `name` to `names` for each.
fn flatten_into(
    parts: &mut Vec<FoldPart>,
    names: &mut Vec<Entity>,
    shape: Shape,
    name: Entity,
    source: u32,
) {
    let before = parts.len();
    match shape {
        Shape::Compound(compound) => parts.extend(compound.parts().iter().map(|p| FoldPart {
            shape: p.shape.clone(),
            internal: p.internal,
            source,
        })),
        shape => parts.push(FoldPart {
            shape,
            internal: 0,
            source,
        }),
    }
    names.extend(std::iter::repeat_n(name, parts.len() - before));
}

/// The transform of `part` in the frame of `body`, its ancestor: its own composed with those
/// of the entities between them.
fn offset_in_body(part: Entity, body: Entity, links: &Links) -> Option<Transform> {
    let (transform, link) = links.get(part).ok()?;
    let mut offset = *transform;
    let mut at = link?.parent();
    for _ in 0..MAX_DEPTH {
        if at == body {
            return Some(offset);
        }
        let (transform, link) = links.get(at).ok()?;
        offset = transform.mul_transform(offset);
        at = link?.parent();
    }
    None
}

/// After resolution: moves every sensor part of a Weak body by as much as resolution moved
/// its body, and finds the contacts of the pairs it is in again, where they are now.
// Kept out of line so that profiles show it apart from the stages.
#[inline(never)]
pub(crate) fn follow_bodies(mut state: ResMut<StepState>) {
    let state = &mut *state;
    if state.children.riders.is_empty() {
        return;
    }
    let children = &mut state.children;
    let bodies = &mut state.bodies;
    let mut any = false;
    children.moved.clear();
    children.moved.resize(bodies.len(), false);
    for rider in &children.riders {
        let offset = bodies[rider.body as usize].position - rider.body_at;
        if offset == Vec2::ZERO {
            continue;
        }
        // Not `Body::shift`: write-back must not write a part's transform, which is its
        // offset from the body.
        let part = &mut bodies[rider.part as usize];
        part.position += offset;
        part.shape.translate(offset);
        part.bottom += offset.y;
        children.moved[rider.part as usize] = true;
        any = true;
    }
    if !any {
        return;
    }
    let margin = state.settings.margin;
    let found = &mut state.found;
    for pair in found.pairs.iter_mut().chain(found.weak.records.iter_mut()) {
        let (a, b) = pair.bodies();
        if !(children.moved[a] || children.moved[b]) {
            continue;
        }
        let (a, b) = (&bodies[a], &bodies[b]);
        let contact = match (a.shape_against(b), b.shape_against(a)) {
            (Some(shape_a), Some(shape_b)) => collide_within(&*shape_a, &*shape_b, margin),
            _ => None,
        };
        pair.seen = match contact {
            Some(contact) if contact.depth >= -margin => Seen::Touching(contact),
            _ => Seen::Near,
        };
        // The contact is final: write-back keeps it (a sensor pair is never pushed).
        pair.may_move = false;
    }
}
