//! [`SpatialQuery`]: rays, shape casts and point and area queries against the colliders as the
//! last step placed them.

use std::borrow::Cow;
use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use bevy::ecs::change_detection::Tick;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use sat_core::{Aabb, Pose, Shape};

use super::index::{Grid, Item};
use crate::collider_removals::ColliderRemovals;
use crate::components::ConvexCollider;
use crate::step::StepState;
use crate::step::body::Body;
use crate::step::children::ChildState;
use crate::tiles::{TileGridCount, TilePieces};

mod areas;
mod grids;
mod rays;
mod shape_casts;

/// The grid of the last step's bodies, built on the first query after each step (a step with
/// no query builds nothing).
#[derive(Resource, Default, Debug)]
pub(crate) struct QueryIndex(RwLock<Cached>);

#[derive(Default, Debug)]
struct Cached {
    /// The change tick of the step state the grid was built from.
    built_for: Option<Tick>,
    grid: Grid,
}

/// Spatial queries — rays, shape casts, point and area tests — against the colliders as the
/// last physics step placed them (after resolution, where it wrote their `Transform`s).
///
/// A system parameter usable from any schedule. The answers are refreshed by each step: a
/// collider moved or added since the last step is found where the step left it, or not yet; a
/// despawned entity, or one whose [`ConvexCollider`] was removed, is never returned. Queries
/// walk uniform grids built on the first query after each step, never every collider. (Run
/// between the step's own sets, they see the step half done.)
///
/// A [`TileGrid`](crate::TileGrid) answers as one collider, its entity: a ray or shape cast
/// hits it once, where it first meets one of its pieces, and a point or area query lists it
/// once. Which cell was hit is [`TileGrid::touched_cell`](crate::TileGrid::touched_cell) of
/// the hit point (a ray's normal points out of the grid: pass the reversed normal).
///
/// Answers are deterministic: hits at equal distance are ordered by entity, lists of
/// entities are sorted. Non-finite input, a negative or infinite `max_distance`, and an empty
/// or inverted box are no hit (for an unbounded ray, pass `f32::MAX`).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sat::prelude::*;
///
/// fn look_down(query: SpatialQuery, players: Query<&Transform, With<Weak>>) {
///     for transform in &players {
///         let from = transform.translation.truncate();
///         let filter = SpatialQueryFilter::default().without_sensors();
///         if let Some(hit) = query.cast_ray(from, Dir2::NEG_Y, 100.0, true, &filter) {
///             info!("{} units above {}", hit.distance, hit.entity);
///         }
///     }
/// }
/// # bevy::ecs::system::assert_is_system(look_down);
/// ```
#[derive(SystemParam)]
pub struct SpatialQuery<'w, 's> {
    state: Res<'w, StepState>,
    index: Res<'w, QueryIndex>,
    removals: Res<'w, ColliderRemovals>,
    live: Query<'w, 's, (), With<ConvexCollider>>,
    /// The tile grids, whose pieces are not step bodies: each query asks them apart.
    grids: Query<'w, 's, (Entity, &'static TilePieces)>,
    /// How many there are (none: no query asks `grids`).
    grid_count: Res<'w, TileGridCount>,
}

/// The grid, built for the step state it was read with.
struct Ready<'a> {
    cached: RwLockReadGuard<'a, Cached>,
    bodies: &'a [Body],
    /// Which body each child collider is a part of.
    children: &'a ChildState,
    /// No collider has been removed since the step gathered its bodies: every body's entity
    /// still has one.
    all_alive: bool,
}

impl Ready<'_> {
    /// The entity of body `i` (a placeholder for an index out of the step's bodies, which the
    /// grid never holds).
    fn entity(&self, i: usize) -> Entity {
        // From the body's record, whose shape a hit has just read, rather than from the broad
        // phase's input, another record.
        self.bodies
            .get(i)
            .map_or(Entity::PLACEHOLDER, |body| body.entity)
    }

    /// `answer` asked about the shape of `item`'s body that a query considering the layers in
    /// `mask` sees: the whole shape but for a body whose parts have layers of their own (none
    /// when no part is on those layers).
    #[inline(always)]
    fn with_shape<R>(
        &self,
        item: &Item,
        mask: u32,
        answer: impl FnOnce(&Shape) -> Option<R>,
    ) -> Option<R> {
        if item.layered() {
            return answer(&self.layered_shape(item, mask)?);
        }
        answer(&self.bodies[item.body()].shape)
    }

    /// The parts on the layers in `mask` of `item`'s body, whose parts have layers of their own.
    #[cold]
    #[inline(never)]
    fn layered_shape(&self, item: &Item, mask: u32) -> Option<Shape> {
        let body = self.bodies.get(item.body())?;
        body.shape_on(mask).map(Cow::into_owned)
    }

    /// Asks the CPU to start loading the record of `item`'s body, which an exact test will
    /// soon read: a hint that returns at once.
    #[inline(always)]
    fn prefetch(&self, item: &Item) {
        if let Some(body) = self.bodies.get(item.body()) {
            body.prefetch();
        }
    }

    /// The entity of body `i` and that of the body it is a part of (the same but for a child
    /// collider).
    fn names(&self, i: usize) -> (Entity, Entity) {
        let entity = self.entity(i);
        (entity, self.children.owner(i, entity))
    }
}

impl SpatialQuery<'_, '_> {
    /// The grid of the current bodies, built first if the step has run since it was.
    fn ready(&self) -> Ready<'_> {
        let tick = self.state.last_changed();
        let lock = &self.index.0;
        loop {
            let cached = lock.read().unwrap_or_else(PoisonError::into_inner);
            if cached.built_for == Some(tick) {
                return Ready {
                    cached,
                    bodies: &self.state.bodies,
                    children: &self.state.children,
                    all_alive: self.removals.count() == self.state.prepare.removals,
                };
            }
            drop(cached);
            let mut cached = lock.write().unwrap_or_else(PoisonError::into_inner);
            if cached.built_for != Some(tick) {
                cached.built_for = None; // until the build is complete
                cached
                    .grid
                    .build(&self.state.bodies, &self.state.broad.inputs);
                cached.built_for = Some(tick);
            }
        }
    }

    /// Whether the entity of one of `ready`'s bodies still has a collider (it may have been
    /// despawned since the step).
    fn alive(&self, ready: &Ready, entity: Entity) -> bool {
        ready.all_alive || self.live.contains(entity)
    }
}

/// Whether a cast along `direction` by `max_distance` can be made: both finite, the distance
/// not negative.
fn usable_reach(direction: Vec2, max_distance: f32) -> bool {
    direction.is_finite() && max_distance.is_finite() && max_distance >= 0.0
}

/// `shape` placed at `origin` turned by `rotation` radians; `None` if that is not finite.
fn place(shape: &ConvexCollider, origin: Vec2, rotation: f32) -> Option<Shape> {
    if !origin.is_finite() || !rotation.is_finite() {
        return None;
    }
    if rotation == 0.0 {
        // A translation keeps a valid shape valid: no need to check it again.
        let mut placed = shape.shape().clone();
        placed.translate(origin);
        return placed.aabb().is_valid().then_some(placed);
    }
    shape
        .shape()
        .transformed(&Pose::new(origin, rotation, Vec2::ONE))
        .ok()
}

/// The interval of distances along `direction` (unit) at which box `moving`, moved that far,
/// overlaps box `still`; `None` if never at a distance of 0 or more.
fn box_path(moving: &Aabb, direction: Vec2, still: &Aabb) -> Option<(f32, f32)> {
    let (mut enter, mut exit) = (0.0f32, f32::INFINITY);
    for axis in 0..2 {
        let d = direction[axis];
        let (lo, hi) = (
            still.min[axis] - moving.max[axis],
            still.max[axis] - moving.min[axis],
        );
        if d == 0.0 {
            if lo > 0.0 || hi < 0.0 {
                return None;
            }
        } else {
            let (a, b) = (lo / d, hi / d);
            enter = enter.max(a.min(b));
            exit = exit.min(a.max(b));
        }
    }
    (enter <= exit).then_some((enter, exit))
}

/// The distance from `point` to the box (0 inside).
fn box_distance(aabb: &Aabb, point: Vec2) -> f32 {
    (aabb.min - point)
        .max(point - aabb.max)
        .max(Vec2::ZERO)
        .length()
}
