//! Child colliders: an entity with a [`ConvexCollider`] and no body kind of its own, below a
//! [`Mighty`] or [`Weak`] entity in the hierarchy, is a part of that body. This module keeps
//! track of which entities those are ([`ColliderOf`] on each part, [`BodyColliders`] on each
//! body); the step places them (see `step::children`).
//!
//! The hierarchy is walked again only after something that can change the answer: a collider,
//! a body kind or a parent link added or removed. Observers note those, so a scene without
//! child colliders pays nothing per step.

use bevy::ecs::entity::EntityHashMap;
use bevy::prelude::*;

use crate::components::{ConvexCollider, Mighty, Weak};

/// How many parent links a child collider may be below its body: deeper ones are not parts.
/// (A bound on the walk up, which Bevy's hierarchy never needs, as it has no cycles.)
pub(crate) const MAX_DEPTH: usize = 64;

/// On a child collider (an entity with a [`ConvexCollider`] and neither [`Mighty`] nor
/// [`Weak`], below a body that has one of them and a collider of its own): the body it is a
/// part of, its nearest ancestor with a body kind.
///
/// The part moves with its body, placed by its own `Transform` composed through the entities
/// between them; resolution moves the body as one. With [`Sensor`](crate::Sensor), it is a
/// sensor riding on the body (a foot sensor, a hurtbox): reported, never resolved, never
/// holding the body up. It may have [`CollisionLayers`](crate::CollisionLayers) of its own.
///
/// [`Contacts`](crate::Contacts), [`CollisionStarted`](crate::CollisionStarted),
/// [`CollisionEnded`](crate::CollisionEnded) and [`CollidingEntities`](crate::CollidingEntities)
/// name a part by its own entity: this component says which body it belongs to. A solid part
/// of a `Weak` body is folded into the body's shape, so that it is pushed as one, by its
/// deepest contact: a contact of such a body names the part deepest in the other collider (the
/// body itself when that is its own collider), while its
/// [`ContactFlags`](crate::ContactFlags) and what stands on it name the body. A face where
/// two such parts (or a part and the body's own collider) meet flush, an edge of one covered
/// from end to end by an edge of the other facing it, is internal: never a push axis.
///
/// A part with [`CollisionLayers`](crate::CollisionLayers) of its own meets what they allow,
/// and nothing else: a Weak body whose solid foot meets only platforms stands on a platform on
/// its foot and on the ground on its own collider, still pushed as one body (each other collider
/// meets the compound of the parts it interacts with, their shared faces hidden among
/// themselves). A solid part of a Weak body without layers of its own has its body's; the
/// solid parts of one Weak body may have at most 4 different layers, the body's own included
/// (a further part takes its body's, and a warning says so once). Between two Weak bodies that
/// both have such parts, a part of one that interacts with any part of the other meets every
/// part of the other that interacts with some part of the first. Spatial queries see the parts
/// on the layers they consider, and name the body.
///
/// The plugin keeps it up to date at the start of every step (removing the parent link,
/// despawning the part or giving it a body kind of its own takes effect at the next step);
/// it is read-only for the game.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq)]
pub struct ColliderOf {
    /// The body entity (with [`Mighty`] or [`Weak`]) this collider is a part of.
    pub body: Entity,
}

/// On a body with child colliders: those colliders ([`ColliderOf`]), in entity order. Kept up
/// to date by the plugin with [`ColliderOf`]; read-only for the game.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Debug, PartialEq, Default)]
pub struct BodyColliders(Vec<Entity>);

impl BodyColliders {
    /// The child colliders, in entity order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Entity> + '_ {
        self.0.iter().copied()
    }

    /// How many child colliders the body has.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it has none (never, while the component is on a body).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `entity` is one of the body's child colliders.
    pub fn contains(&self, entity: Entity) -> bool {
        self.0.binary_search(&entity).is_ok()
    }
}

/// Whether the hierarchy must be walked again before the next step.
#[derive(Resource, Debug)]
pub(crate) struct ChildCollidersChanged(pub bool);

impl Default for ChildCollidersChanged {
    /// Changed: the first step looks once.
    fn default() -> Self {
        Self(true)
    }
}

/// The entities with a parent or children: a body kind added to or removed from one of them
/// may make or unmake child colliders.
type InHierarchy<'w, 's> = Query<'w, 's, (), Or<(With<ChildOf>, With<Children>)>>;

/// The child colliders and their bodies, as last found.
type Tracked<'w, 's> = Query<'w, 's, (), Or<(With<ColliderOf>, With<BodyColliders>)>>;

/// Adds the observers that note changes to the hierarchy, colliders or body kinds.
pub(crate) fn observe_changes(app: &mut App) {
    app.init_resource::<ChildCollidersChanged>();
    app.add_observer(
        |event: On<Add, (Mighty, Weak)>,
         linked: InHierarchy,
         mut changed: ResMut<ChildCollidersChanged>| {
            changed.0 |= linked.contains(event.entity);
        },
    );
    app.add_observer(
        |event: On<Remove, (Mighty, Weak)>,
         linked: InHierarchy,
         mut changed: ResMut<ChildCollidersChanged>| {
            changed.0 |= linked.contains(event.entity);
        },
    );
    app.add_observer(
        |event: On<Add, ConvexCollider>,
         linked: Query<(), With<ChildOf>>,
         mut changed: ResMut<ChildCollidersChanged>| {
            changed.0 |= linked.contains(event.entity);
        },
    );
    app.add_observer(
        |event: On<Remove, ConvexCollider>,
         linked: Tracked,
         mut changed: ResMut<ChildCollidersChanged>| {
            changed.0 |= linked.contains(event.entity);
        },
    );
    app.add_observer(
        |_: On<Insert, ChildOf>, mut changed: ResMut<ChildCollidersChanged>| {
            changed.0 = true;
        },
    );
    app.add_observer(
        |_: On<Remove, ChildOf>, mut changed: ResMut<ChildCollidersChanged>| {
            changed.0 = true;
        },
    );
}

/// The colliders that may be parts: below something, with no body kind of their own.
type Candidates<'w, 's> = Query<
    'w,
    's,
    (Entity, &'static ChildOf),
    (With<ConvexCollider>, Without<Mighty>, Without<Weak>),
>;

/// What the walk up reads of an ancestor: its body kind, whether it has a collider, its parent.
type Ancestors<'w, 's> = Query<
    'w,
    's,
    (
        Has<Mighty>,
        Has<Weak>,
        Has<ConvexCollider>,
        Option<&'static ChildOf>,
    ),
>;

/// After a change (see [`observe_changes`]), finds every child collider's body again and
/// brings [`ColliderOf`] and [`BodyColliders`] up to date. Runs at the start of the step.
pub(crate) fn track_child_colliders(
    mut changed: ResMut<ChildCollidersChanged>,
    candidates: Candidates,
    ancestors: Ancestors,
    tagged: Query<(Entity, &ColliderOf)>,
    listed: Query<(Entity, &BodyColliders)>,
    mut commands: Commands,
) {
    if !changed.0 {
        return;
    }
    changed.0 = false;
    let mut found: Vec<(Entity, Entity)> = candidates
        .iter()
        .filter_map(|(child, link)| Some((body_above(link.parent(), &ancestors)?, child)))
        .collect();
    found.sort_unstable();
    let body_of: EntityHashMap<Entity> = found.iter().map(|&(body, child)| (child, body)).collect();
    for (child, of) in &tagged {
        if body_of.get(&child) != Some(&of.body) {
            commands.entity(child).try_remove::<ColliderOf>();
        }
    }
    for (&child, &body) in &body_of {
        if tagged.get(child).map(|(_, of)| of.body) != Ok(body) {
            commands.entity(child).try_insert(ColliderOf { body });
        }
    }
    let mut lists: EntityHashMap<Vec<Entity>> = EntityHashMap::default();
    for &(body, child) in &found {
        lists.entry(body).or_default().push(child);
    }
    for (body, list) in &listed {
        if !lists.contains_key(&body) {
            commands.entity(body).try_remove::<BodyColliders>();
        } else if lists.get(&body) == Some(&list.0) {
            lists.remove(&body);
        }
    }
    for (body, list) in lists {
        commands.entity(body).try_insert(BodyColliders(list));
    }
}

/// The body a collider whose parent is `parent` is a part of: the nearest ancestor with a body
/// kind, if it has a collider of its own.
fn body_above(parent: Entity, ancestors: &Ancestors) -> Option<Entity> {
    let mut at = parent;
    for _ in 0..MAX_DEPTH {
        let (mighty, weak, collider, link) = ancestors.get(at).ok()?;
        if mighty || weak {
            return collider.then_some(at);
        }
        at = link?.parent();
    }
    None
}
