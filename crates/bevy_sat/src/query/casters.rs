//! [`RayCaster`] and [`ShapeCaster`]: components that cast every step from their entity's
//! pose and keep the hits in [`RayHits`] and [`ShapeHits`].

use bevy::prelude::*;
use sat_core::Pose;

use super::filter::SpatialQueryFilter;
use super::hits::{RayHitData, ShapeHitData};
use super::spatial_query::SpatialQuery;
use crate::child_colliders::{ColliderOf, MAX_DEPTH};
use crate::components::ConvexCollider;
use crate::step::body::pose_of;

/// Casts a ray every step from its entity's pose and writes what it hits to [`RayHits`]
/// (added with it). `origin` and `direction` are in the entity's frame: they turn and move
/// with its `Transform` (composed with its ancestors' when it is a child). Unless
/// `ignore_self` is false, the ray ignores the entity's own body: its collider and its child
/// colliders ([`BodyColliders`](crate::BodyColliders)), or, on a child collider, the body it
/// is a part of ([`ColliderOf`]) and all that body's parts.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sat::prelude::*;
///
/// let laser = RayCaster::new(Vec2::ZERO, Dir2::NEG_X).with_max_distance(400.0);
/// assert_eq!((laser.max_hits, laser.solid, laser.ignore_self), (1, true, true));
/// # let mut world = World::new();
/// let entity = world.spawn((laser, Transform::from_xyz(10.0, 0.0, 0.0))).id();
/// assert!(world.get::<RayHits>(entity).unwrap().is_empty()); // filled by each step
/// ```
#[derive(Component, Clone, Debug, PartialEq)]
#[require(RayHits, Transform)]
pub struct RayCaster {
    /// Where the ray starts, in the entity's frame.
    pub origin: Vec2,
    /// Where it points, in the entity's frame.
    pub direction: Dir2,
    /// How far it reaches (default `f32::MAX`: unbounded).
    pub max_distance: f32,
    /// How many hits to keep, nearest first (default 1).
    pub max_hits: usize,
    /// Whether a ray starting inside a collider hits it at once (default true).
    pub solid: bool,
    /// Whether the entity's own body (its collider, the body it is a part of, and every part
    /// of that body) is left out (default true).
    pub ignore_self: bool,
    /// Which colliders it considers.
    pub filter: SpatialQueryFilter,
}

impl Default for RayCaster {
    /// From the entity's origin along its +x axis, unbounded.
    fn default() -> Self {
        Self::new(Vec2::ZERO, Dir2::X)
    }
}

impl RayCaster {
    /// A caster from `origin` along `direction` (both in the entity's frame), with the
    /// defaults of every other field.
    pub fn new(origin: Vec2, direction: Dir2) -> Self {
        Self {
            origin,
            direction,
            max_distance: f32::MAX,
            max_hits: 1,
            solid: true,
            ignore_self: true,
            filter: SpatialQueryFilter::default(),
        }
    }

    /// With a reach of `max_distance`.
    pub fn with_max_distance(mut self, max_distance: f32) -> Self {
        self.max_distance = max_distance;
        self
    }

    /// Keeping up to `max_hits` hits.
    pub fn with_max_hits(mut self, max_hits: usize) -> Self {
        self.max_hits = max_hits;
        self
    }

    /// Solid (`true`) or hollow: see [`SpatialQuery::cast_ray`].
    pub fn with_solidness(mut self, solid: bool) -> Self {
        self.solid = solid;
        self
    }

    /// Considering only the colliders `filter` accepts.
    pub fn with_filter(mut self, filter: SpatialQueryFilter) -> Self {
        self.filter = filter;
        self
    }

    /// The world origin and direction of the ray for an entity at `transform`; `None` if the
    /// transform cannot place it (not finite, or turned out of the plane).
    pub fn world_ray(&self, transform: &Transform) -> Option<(Vec2, Dir2)> {
        let (_, origin, direction) = placed(transform, self.origin, self.direction)?;
        Some((origin, direction))
    }
}

/// Casts a shape every step from its entity's pose and writes what it touches to
/// [`ShapeHits`] (added with it). `origin`, `rotation` and `direction` are in the entity's
/// frame (composed with its ancestors' when it is a child). Unless `ignore_self` is false, the
/// cast ignores the entity's own body and all its parts, as [`RayCaster`]'s does.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sat::prelude::*;
///
/// // A ground probe: the feet's width, 2 units down.
/// let probe = ShapeCaster::new(ConvexCollider::rectangle(14.0, 2.0), Vec2::new(0.0, -12.0), Dir2::NEG_Y)
///     .with_max_distance(2.0);
/// assert_eq!(probe.max_hits, 1);
/// ```
#[derive(Component, Clone, Debug, PartialEq)]
#[require(ShapeHits, Transform)]
pub struct ShapeCaster {
    /// The cast shape, in the caster's frame (turned by `rotation` about `origin`).
    pub shape: ConvexCollider,
    /// Where the shape starts, in the entity's frame.
    pub origin: Vec2,
    /// The shape's rotation in radians, on top of the entity's.
    pub rotation: f32,
    /// Where it moves, in the entity's frame.
    pub direction: Dir2,
    /// How far it moves (default `f32::MAX`).
    pub max_distance: f32,
    /// How many hits to keep, nearest first (default 1).
    pub max_hits: usize,
    /// Whether the entity's own body (its collider, the body it is a part of, and every part
    /// of that body) is left out (default true).
    pub ignore_self: bool,
    /// Which colliders it considers.
    pub filter: SpatialQueryFilter,
}

impl Default for ShapeCaster {
    /// A 1 × 1 square from the entity's origin along its +x axis.
    fn default() -> Self {
        Self::new(ConvexCollider::default(), Vec2::ZERO, Dir2::X)
    }
}

impl ShapeCaster {
    /// A caster of `shape` from `origin` along `direction` (in the entity's frame), with the
    /// defaults of every other field.
    pub fn new(shape: ConvexCollider, origin: Vec2, direction: Dir2) -> Self {
        Self {
            shape,
            origin,
            rotation: 0.0,
            direction,
            max_distance: f32::MAX,
            max_hits: 1,
            ignore_self: true,
            filter: SpatialQueryFilter::default(),
        }
    }

    /// Moving by up to `max_distance`.
    pub fn with_max_distance(mut self, max_distance: f32) -> Self {
        self.max_distance = max_distance;
        self
    }

    /// Keeping up to `max_hits` hits.
    pub fn with_max_hits(mut self, max_hits: usize) -> Self {
        self.max_hits = max_hits;
        self
    }

    /// Considering only the colliders `filter` accepts.
    pub fn with_filter(mut self, filter: SpatialQueryFilter) -> Self {
        self.filter = filter;
        self
    }

    /// The world origin, rotation (radians) and direction of the cast for an entity at
    /// `transform`; `None` if the transform cannot place it.
    pub fn world_cast(&self, transform: &Transform) -> Option<(Vec2, f32, Dir2)> {
        let (pose, origin, direction) = placed(transform, self.origin, self.direction)?;
        let rotation = pose.rotation.to_angle() + self.rotation;
        rotation
            .is_finite()
            .then_some((origin, rotation, direction))
    }
}

/// A caster's `origin` and `direction`, given in the frame of an entity at `transform`, in
/// the world, with the entity's pose; `None` if the transform cannot place them.
fn placed(transform: &Transform, origin: Vec2, direction: Dir2) -> Option<(Pose, Vec2, Dir2)> {
    let pose = pose_of(transform)?;
    let origin = pose.translation + pose.rotation.rotate(origin);
    let direction = Dir2::new(pose.rotation.rotate(*direction)).ok()?;
    origin.is_finite().then_some((pose, origin, direction))
}

/// The hits of a [`RayCaster`] after the last step, nearest first.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct RayHits(Vec<RayHitData>);

impl RayHits {
    /// The hits, nearest first.
    pub fn as_slice(&self) -> &[RayHitData] {
        &self.0
    }

    /// The hits, nearest first.
    pub fn iter(&self) -> std::slice::Iter<'_, RayHitData> {
        self.0.iter()
    }

    /// How many hits there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the ray hit nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The hits of a [`ShapeCaster`] after the last step, nearest first.
#[derive(Component, Clone, Debug, Default, PartialEq)]
pub struct ShapeHits(Vec<ShapeHitData>);

impl ShapeHits {
    /// The hits, nearest first.
    pub fn as_slice(&self) -> &[ShapeHitData] {
        &self.0
    }

    /// The hits, nearest first.
    pub fn iter(&self) -> std::slice::Iter<'_, ShapeHitData> {
        self.0.iter()
    }

    /// How many hits there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the shape touched nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The parent links above a caster and the transforms along them.
type Links<'w, 's> = Query<'w, 's, (&'static Transform, Option<&'static ChildOf>)>;

/// What a caster reads of its entity besides the caster: its transform (in its parent's
/// frame), its parent, and the body it is a part of if it is a child collider.
type Placing<'a> = (&'a Transform, Option<&'a ChildOf>, Option<&'a ColliderOf>);

/// The world transform of an entity whose own is `transform` below `link`: composed with its
/// ancestors' up to the root (as Bevy's transform propagation would, but as the step left
/// them). `None` past [`MAX_DEPTH`] links or an ancestor that cannot be read.
fn world_transform(
    transform: &Transform,
    link: Option<&ChildOf>,
    links: &Links,
) -> Option<Transform> {
    let mut world = *transform;
    let Some(mut at) = link.map(ChildOf::parent) else {
        return Some(world);
    };
    for _ in 0..MAX_DEPTH {
        let (above, link) = links.get(at).ok()?;
        world = above.mul_transform(world);
        match link {
            Some(link) => at = link.parent(),
            None => return Some(world),
        }
    }
    None
}

/// The body whose colliders a caster on `entity` leaves out when it ignores itself: the body
/// `entity` is a part of, or `entity` itself (with the parts of its own, if it is a body).
fn own_body(entity: Entity, part_of: Option<&ColliderOf>) -> Entity {
    part_of.map_or(entity, |of| of.body)
}

/// Casts every [`RayCaster`] and [`ShapeCaster`] and writes their hits, reusing their
/// storage. A caster below another entity casts from its place in the world.
pub(crate) fn run_casters(
    query: SpatialQuery,
    mut rays: Query<(Entity, &RayCaster, Placing, &mut RayHits)>,
    mut shapes: Query<(Entity, &ShapeCaster, Placing, &mut ShapeHits)>,
    links: Links,
) {
    for (entity, caster, (transform, link, part_of), mut hits) in &mut rays {
        let hits = &mut hits.0;
        hits.clear();
        let Some(transform) = world_transform(transform, link, &links) else {
            continue;
        };
        let Some((origin, direction)) = caster.world_ray(&transform) else {
            continue;
        };
        query.ray_hits_excluding(
            origin,
            direction,
            caster.max_distance,
            caster.max_hits,
            caster.solid,
            &caster.filter,
            caster.ignore_self.then(|| own_body(entity, part_of)),
            hits,
        );
    }
    for (entity, caster, (transform, link, part_of), mut hits) in &mut shapes {
        let hits = &mut hits.0;
        hits.clear();
        let Some(transform) = world_transform(transform, link, &links) else {
            continue;
        };
        let Some((origin, rotation, direction)) = caster.world_cast(&transform) else {
            continue;
        };
        query.shape_hits_excluding(
            &caster.shape,
            origin,
            rotation,
            direction,
            caster.max_distance,
            caster.max_hits,
            &caster.filter,
            caster.ignore_self.then(|| own_body(entity, part_of)),
            hits,
        );
    }
}
