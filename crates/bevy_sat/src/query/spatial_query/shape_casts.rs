//! Shape casts: [`SpatialQuery::cast_shape`] and the queries that list every hit.

use bevy::prelude::*;
use sat_core::{Hit, Shape, sweep};

use super::{SpatialQuery, box_path, place, usable_reach};
use crate::components::ConvexCollider;
use crate::query::filter::SpatialQueryFilter;
use crate::query::hits::{Best, Nearest, Ranked, ShapeHitData};
use crate::step::body::Body;

impl SpatialQuery<'_, '_> {
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
            (best.offer(hit), best.last())
        });
        // Where they touch, for the nearest hit only.
        best.0
            .map(|c| c.finish(&placed, &self.state.bodies, filter.mask))
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
            let bound = nearest.offer(hit.finish(&placed, bodies, filter.mask));
            (bound, nearest.last())
        });
    }

    /// Offers every hit of `placed` cast along `direction` to `offer`, which returns the
    /// distance within which it has all it wants, and once it has, the entity that a hit at
    /// that distance must come before.
    fn shape_walk(
        &self,
        placed: &Shape,
        direction: Dir2,
        max_distance: f32,
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
        mut offer: impl FnMut(Candidate) -> (f32, Option<Entity>),
    ) {
        let direction = *direction;
        if !usable_reach(direction, max_distance) {
            return;
        }
        let start = placed.aabb();
        let ready = self.ready();
        let grid = &ready.cached.grid;
        let (mut done, mut last) = (f32::INFINITY, None);
        grid.each_along(
            start,
            direction,
            max_distance,
            |item| ready.prefetch(item),
            |item| {
                let i = item.body();
                // Where along the cast the boxes overlap: nothing to sweep outside it, and the
                // sweep's motion ends where the shape has passed the collider.
                let Some((enter, exit)) = box_path(&start, direction, &item.aabb) else {
                    return done;
                };
                if enter > max_distance
                    || enter > done
                    || !filter.accepts(item, also, || ready.names(i))
                {
                    return done;
                }
                let entity = ready.entity(i);
                // No hit is nearer than 0: once those wanted are at 0, a body after the last of
                // them could only tie, and lose.
                if done == 0.0 && last.is_some_and(|last| entity > last) {
                    return done;
                }
                let reach = exit.min(max_distance).max(0.0);
                let motion = direction * reach;
                if let Some(hit) =
                    ready.with_shape(item, filter.mask, |shape| sweep(placed, shape, motion))
                {
                    let distance = (hit.toi * reach).min(max_distance);
                    if distance <= done && self.alive(&ready, entity) {
                        (done, last) = offer(Candidate {
                            entity,
                            distance,
                            body: i as u32,
                            hit,
                            motion,
                            point: None,
                        });
                    }
                }
                done
            },
        );
        let cast = (placed, direction, max_distance.min(done));
        self.grid_casts(cast, filter, also, |c| {
            let (done, _) = offer(Candidate {
                entity: c.entity,
                distance: c.distance,
                body: u32::MAX,
                hit: c.hit,
                motion: c.motion,
                point: Some(c.point),
            });
            done
        });
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
    /// Where they touch, when known already (a tile grid's piece is no step body).
    point: Option<Vec2>,
}

impl Ranked for Candidate {
    fn key(&self) -> (f32, Entity) {
        (self.distance, self.entity)
    }
}

impl Candidate {
    /// The hit, with where `placed` touches the body (as a query on the layers in `mask` sees
    /// it).
    fn finish(&self, placed: &Shape, bodies: &[Body], mask: u32) -> ShapeHitData {
        let point = self.point.unwrap_or_else(|| {
            let shape = bodies
                .get(self.body as usize)
                .and_then(|b| b.shape_on(mask));
            shape.map_or(Vec2::NAN, |shape| {
                self.hit.point(placed, &*shape, self.motion)
            })
        });
        ShapeHitData {
            entity: self.entity,
            distance: self.distance,
            point,
            normal: -self.hit.normal,
        }
    }
}
