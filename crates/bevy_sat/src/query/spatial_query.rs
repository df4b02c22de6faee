//! [`SpatialQuery`]: rays, shape casts and point and area queries against the colliders as the
//! last step placed them.

use std::sync::{PoisonError, RwLock, RwLockReadGuard};

use bevy::ecs::change_detection::Tick;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use sat_core::{Aabb, Hit, Pose, Shape, cast_ray, contains_point, overlap, project_point, sweep};

use super::filter::SpatialQueryFilter;
use super::hits::{Best, Nearest, PointProjection, Ranked, RayHitData, ShapeHitData, before};
use super::index::Grid;
use crate::components::ConvexCollider;
use crate::step::StepState;
use crate::step::body::Body;

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
/// walk a uniform grid built on the first query after each step, never every collider. (Run
/// between the step's own sets, they see the step half done.)
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
    live: Query<'w, 's, (), With<ConvexCollider>>,
}

/// The grid, built for the step state it was read with.
struct Ready<'a> {
    cached: RwLockReadGuard<'a, Cached>,
    bodies: &'a [Body],
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

    /// Whether the entity still has a collider (it may have been despawned since the step).
    fn alive(&self, entity: Entity) -> bool {
        self.live.contains(entity)
    }

    /// The closest collider the ray `origin + direction * t` hits for `t` in
    /// `[0, max_distance]`. `solid`: a ray starting inside a collider hits it at once
    /// (distance 0); hollow, it hits where it leaves it.
    ///
    /// ```
    /// # use bevy::prelude::*; use bevy_sat::prelude::*;
    /// # fn system(query: SpatialQuery) {
    /// let hit = query.cast_ray(Vec2::ZERO, Dir2::X, 500.0, true, &SpatialQueryFilter::default());
    /// # }
    /// ```
    pub fn cast_ray(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        solid: bool,
        filter: &SpatialQueryFilter,
    ) -> Option<RayHitData> {
        self.cast_ray_excluding(origin, direction, max_distance, solid, filter, None)
    }

    pub(crate) fn cast_ray_excluding(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        solid: bool,
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
    ) -> Option<RayHitData> {
        let mut best = Best(None);
        self.ray_walk(
            origin,
            direction,
            max_distance,
            solid,
            filter,
            also,
            |hit| best.offer(hit),
        );
        best.0
    }

    /// Every collider the ray hits within `max_distance`, up to `max_hits` of them, closest
    /// first (see [`SpatialQuery::cast_ray`]). Each collider is hit once, where the ray first
    /// meets it.
    pub fn ray_hits(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        max_hits: usize,
        solid: bool,
        filter: &SpatialQueryFilter,
    ) -> Vec<RayHitData> {
        let mut hits = Vec::new();
        self.ray_hits_into(
            origin,
            direction,
            max_distance,
            max_hits,
            solid,
            filter,
            &mut hits,
        );
        hits
    }

    /// [`SpatialQuery::ray_hits`] appended to `hits`, allocating only if `hits` must grow.
    #[allow(clippy::too_many_arguments)] // the arguments of `ray_hits`, and the output
    pub fn ray_hits_into(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        max_hits: usize,
        solid: bool,
        filter: &SpatialQueryFilter,
        hits: &mut Vec<RayHitData>,
    ) {
        self.ray_hits_excluding(
            origin,
            direction,
            max_distance,
            max_hits,
            solid,
            filter,
            None,
            hits,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn ray_hits_excluding(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        max_hits: usize,
        solid: bool,
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
        hits: &mut Vec<RayHitData>,
    ) {
        let from = hits.len();
        let mut nearest = Nearest {
            hits,
            from,
            max: max_hits,
        };
        if max_hits == 0 {
            return;
        }
        self.ray_walk(
            origin,
            direction,
            max_distance,
            solid,
            filter,
            also,
            |hit| nearest.offer(hit),
        );
    }

    /// Calls `callback` once for every collider the ray hits within `max_distance`, in no
    /// particular order, until it returns false. Allocates nothing.
    pub fn ray_hits_callback(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        solid: bool,
        filter: &SpatialQueryFilter,
        mut callback: impl FnMut(RayHitData) -> bool,
    ) {
        let mut going = true;
        self.ray_walk(
            origin,
            direction,
            max_distance,
            solid,
            filter,
            None,
            |hit| {
                going = going && callback(hit);
                if going {
                    f32::INFINITY
                } else {
                    f32::NEG_INFINITY
                }
            },
        );
    }

    /// Offers every hit of the ray to `offer`, which returns the distance within which it has
    /// all it wants.
    #[allow(clippy::too_many_arguments)]
    fn ray_walk(
        &self,
        origin: Vec2,
        direction: Dir2,
        max_distance: f32,
        solid: bool,
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
        mut offer: impl FnMut(RayHitData) -> f32,
    ) {
        let direction = *direction;
        if !origin.is_finite() || !usable_reach(direction, max_distance) {
            return;
        }
        let ready = self.ready();
        let grid = &ready.cached.grid;
        let start = Aabb {
            min: origin,
            max: origin,
        };
        let mut done = f32::INFINITY;
        grid.each_along(start, direction, max_distance, |i| {
            let entry = &grid.entries[i as usize];
            if filter.accepts(entry, also)
                && ray_meets_box(origin, direction, max_distance.min(done), &entry.aabb)
                && let Some(hit) = cast_ray(
                    &ready.bodies[i as usize].shape,
                    origin,
                    direction,
                    max_distance,
                    solid,
                )
                && hit.distance <= done
                && self.alive(entry.entity)
            {
                done = offer(RayHitData {
                    entity: entry.entity,
                    distance: hit.distance,
                    normal: hit.normal,
                    point: hit.point,
                });
            }
            done
        });
    }

    /// The first collider that `shape`, placed at `origin` turned by `rotation` (radians,
    /// counter-clockwise), touches as it moves along `direction` by up to `max_distance`. A
    /// collider it starts overlapping or touching is hit at distance 0.
    pub fn cast_shape(
        &self,
        shape: &ConvexCollider,
        origin: Vec2,
        rotation: f32,
        direction: Dir2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
    ) -> Option<ShapeHitData> {
        self.cast_shape_excluding(
            shape,
            origin,
            rotation,
            direction,
            max_distance,
            filter,
            None,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn cast_shape_excluding(
        &self,
        shape: &ConvexCollider,
        origin: Vec2,
        rotation: f32,
        direction: Dir2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
    ) -> Option<ShapeHitData> {
        let mut best: Best<Candidate> = Best(None);
        let placed = place(shape, origin, rotation)?;
        self.shape_walk(&placed, direction, max_distance, filter, also, |hit| {
            best.offer(hit)
        });
        // Where they touch, for the nearest hit only.
        best.0.map(|c| c.finish(&placed, &self.state.bodies))
    }

    /// Every collider `shape` touches along the cast of [`SpatialQuery::cast_shape`], up to
    /// `max_hits`, nearest first.
    #[allow(clippy::too_many_arguments)] // the arguments of `cast_shape`, and the count
    pub fn shape_hits(
        &self,
        shape: &ConvexCollider,
        origin: Vec2,
        rotation: f32,
        direction: Dir2,
        max_distance: f32,
        max_hits: usize,
        filter: &SpatialQueryFilter,
    ) -> Vec<ShapeHitData> {
        let mut hits = Vec::new();
        self.shape_hits_excluding(
            shape,
            origin,
            rotation,
            direction,
            max_distance,
            max_hits,
            filter,
            None,
            &mut hits,
        );
        hits
    }

    /// [`SpatialQuery::shape_hits`] appended to `hits`, allocating only if `hits` must grow.
    #[allow(clippy::too_many_arguments)] // the arguments of `shape_hits`, and the output
    pub fn shape_hits_into(
        &self,
        shape: &ConvexCollider,
        origin: Vec2,
        rotation: f32,
        direction: Dir2,
        max_distance: f32,
        max_hits: usize,
        filter: &SpatialQueryFilter,
        hits: &mut Vec<ShapeHitData>,
    ) {
        self.shape_hits_excluding(
            shape,
            origin,
            rotation,
            direction,
            max_distance,
            max_hits,
            filter,
            None,
            hits,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn shape_hits_excluding(
        &self,
        shape: &ConvexCollider,
        origin: Vec2,
        rotation: f32,
        direction: Dir2,
        max_distance: f32,
        max_hits: usize,
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
        hits: &mut Vec<ShapeHitData>,
    ) {
        let from = hits.len();
        let mut nearest = Nearest {
            hits,
            from,
            max: max_hits,
        };
        let Some(placed) = place(shape, origin, rotation).filter(|_| max_hits > 0) else {
            return;
        };
        let bodies = &self.state.bodies;
        self.shape_walk(&placed, direction, max_distance, filter, also, |hit| {
            nearest.offer(hit.finish(&placed, bodies))
        });
    }

    /// Offers every hit of `placed` cast along `direction` to `offer`, which returns the
    /// distance within which it has all it wants.
    fn shape_walk(
        &self,
        placed: &Shape,
        direction: Dir2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
        mut offer: impl FnMut(Candidate) -> f32,
    ) {
        let direction = *direction;
        if !usable_reach(direction, max_distance) {
            return;
        }
        let start = placed.aabb();
        let ready = self.ready();
        let grid = &ready.cached.grid;
        let mut done = f32::INFINITY;
        grid.each_along(start, direction, max_distance, |i| {
            let entry = &grid.entries[i as usize];
            if !filter.accepts(entry, also) {
                return done;
            }
            // Where along the cast the boxes overlap: nothing to sweep outside it, and the
            // sweep's motion ends where the shape has passed the collider.
            let Some((enter, exit)) = box_path(&start, direction, &entry.aabb) else {
                return done;
            };
            if enter > max_distance || enter > done {
                return done;
            }
            let reach = exit.min(max_distance).max(0.0);
            let motion = direction * reach;
            if let Some(hit) = sweep(placed, &ready.bodies[i as usize].shape, motion) {
                let distance = (hit.toi * reach).min(max_distance);
                if distance <= done && self.alive(entry.entity) {
                    done = offer(Candidate {
                        entity: entry.entity,
                        distance,
                        body: i,
                        hit,
                        motion,
                    });
                }
            }
            done
        });
    }

    /// The colliders containing `point` (their boundary counts), sorted.
    pub fn point_intersections(&self, point: Vec2, filter: &SpatialQueryFilter) -> Vec<Entity> {
        let mut found = Vec::new();
        self.point_intersections_callback(point, filter, |e| {
            found.push(e);
            true
        });
        found.sort_unstable();
        found
    }

    /// Calls `callback` for every collider containing `point`, in no particular order, until
    /// it returns false. Allocates nothing.
    pub fn point_intersections_callback(
        &self,
        point: Vec2,
        filter: &SpatialQueryFilter,
        mut callback: impl FnMut(Entity) -> bool,
    ) {
        if !point.is_finite() {
            return;
        }
        let ready = self.ready();
        let grid = &ready.cached.grid;
        let at = Aabb {
            min: point,
            max: point,
        };
        grid.each_in_box(&at, |i| {
            let entry = &grid.entries[i as usize];
            let hit = filter.accepts(entry, None)
                && entry.aabb.overlaps(&at)
                && contains_point(&ready.bodies[i as usize].shape, point)
                && self.alive(entry.entity);
            !hit || callback(entry.entity)
        });
    }

    /// The colliders that overlap or touch `shape` placed at `origin` turned by `rotation`
    /// (radians), sorted.
    pub fn shape_intersections(
        &self,
        shape: &ConvexCollider,
        origin: Vec2,
        rotation: f32,
        filter: &SpatialQueryFilter,
    ) -> Vec<Entity> {
        let mut found = Vec::new();
        self.shape_intersections_callback(shape, origin, rotation, filter, |e| {
            found.push(e);
            true
        });
        found.sort_unstable();
        found
    }

    /// Calls `callback` for every collider overlapping `shape` placed at `origin` turned by
    /// `rotation`, in no particular order, until it returns false. Allocates nothing.
    pub fn shape_intersections_callback(
        &self,
        shape: &ConvexCollider,
        origin: Vec2,
        rotation: f32,
        filter: &SpatialQueryFilter,
        mut callback: impl FnMut(Entity) -> bool,
    ) {
        let Some(placed) = place(shape, origin, rotation) else {
            return;
        };
        let area = placed.aabb();
        let ready = self.ready();
        let grid = &ready.cached.grid;
        grid.each_in_box(&area, |i| {
            let entry = &grid.entries[i as usize];
            let hit = filter.accepts(entry, None)
                && entry.aabb.overlaps(&area)
                && overlap(&placed, &ready.bodies[i as usize].shape)
                && self.alive(entry.entity);
            !hit || callback(entry.entity)
        });
    }

    /// The colliders whose bounding boxes overlap or touch the box from `min` to `max`,
    /// sorted. Empty for a box that is not finite or has `min` above `max` on an axis.
    pub fn aabb_intersections(
        &self,
        min: Vec2,
        max: Vec2,
        filter: &SpatialQueryFilter,
    ) -> Vec<Entity> {
        let mut found = Vec::new();
        self.aabb_intersections_callback(min, max, filter, |e| {
            found.push(e);
            true
        });
        found.sort_unstable();
        found
    }

    /// Calls `callback` for every collider whose bounding box overlaps the box from `min` to
    /// `max`, in no particular order, until it returns false. Allocates nothing.
    pub fn aabb_intersections_callback(
        &self,
        min: Vec2,
        max: Vec2,
        filter: &SpatialQueryFilter,
        mut callback: impl FnMut(Entity) -> bool,
    ) {
        let area = Aabb { min, max };
        if !area.is_valid() {
            return;
        }
        let ready = self.ready();
        let grid = &ready.cached.grid;
        grid.each_in_box(&area, |i| {
            let entry = &grid.entries[i as usize];
            // The entry's box may be larger than the collider's: the collider's own decides.
            let hit = filter.accepts(entry, None)
                && entry.aabb.overlaps(&area)
                && ready.bodies[i as usize].shape.aabb().overlaps(&area)
                && self.alive(entry.entity);
            !hit || callback(entry.entity)
        });
    }

    /// The collider nearest to `point`, and the nearest point of its boundary. A point inside
    /// a collider is at distance 0 from it when `solid` (the projection is then the point
    /// itself), and at the distance to its boundary when not. At equal distance, the smaller
    /// entity.
    pub fn project_point(
        &self,
        point: Vec2,
        solid: bool,
        filter: &SpatialQueryFilter,
    ) -> Option<PointProjection> {
        if !point.is_finite() {
            return None;
        }
        let ready = self.ready();
        let grid = &ready.cached.grid;
        let mut best: Option<(f32, PointProjection)> = None;
        let bound = |best: &Option<(f32, PointProjection)>| best.map_or(f32::INFINITY, |b| b.0);
        grid.each_around(point, |i| {
            let entry = &grid.entries[i as usize];
            if !filter.accepts(entry, None) || box_distance(&entry.aabb, point) > bound(&best) {
                return bound(&best);
            }
            let Some(found) = project_point(&ready.bodies[i as usize].shape, point) else {
                return bound(&best);
            };
            let (distance, at) = if found.is_inside && solid {
                (0.0, point)
            } else {
                (found.point.distance(point), found.point)
            };
            let better = best.is_none_or(|(d, b)| before((distance, entry.entity), (d, b.entity)));
            if better && self.alive(entry.entity) {
                best = Some((
                    distance,
                    PointProjection {
                        entity: entry.entity,
                        point: at,
                        is_inside: found.is_inside,
                    },
                ));
            }
            bound(&best)
        });
        best.map(|(_, projection)| projection)
    }
}

/// A hit of a shape cast, before the point where they touch is worked out (only for the hits
/// kept).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    entity: Entity,
    distance: f32,
    /// The index of the body hit.
    body: u32,
    hit: Hit,
    /// The motion swept.
    motion: Vec2,
}

impl Ranked for Candidate {
    fn key(&self) -> (f32, Entity) {
        (self.distance, self.entity)
    }
}

impl Candidate {
    /// The hit, with where `placed` touches the body.
    fn finish(&self, placed: &Shape, bodies: &[Body]) -> ShapeHitData {
        let point = bodies.get(self.body as usize).map_or(Vec2::NAN, |body| {
            self.hit.point(placed, &body.shape, self.motion)
        });
        ShapeHitData {
            entity: self.entity,
            distance: self.distance,
            point,
            normal: -self.hit.normal,
        }
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
        let mut placed = *shape.shape();
        placed.translate(origin);
        return placed.aabb().is_valid().then_some(placed);
    }
    shape
        .shape()
        .transformed(&Pose::new(origin, rotation, Vec2::ONE))
        .ok()
}

/// Whether the ray may meet the box (an entry's box, grown beyond round-off): the slab test.
fn ray_meets_box(origin: Vec2, direction: Vec2, reach: f32, aabb: &Aabb) -> bool {
    let start = Aabb {
        min: origin,
        max: origin,
    };
    box_path(&start, direction, aabb).is_some_and(|(enter, _)| enter <= reach)
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
