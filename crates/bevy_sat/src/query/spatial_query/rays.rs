//! Rays: [`SpatialQuery::cast_ray`] and the queries that list every hit.

use bevy::prelude::*;
use sat_core::{Aabb, cast_ray};

use super::{SpatialQuery, usable_reach};
use crate::query::filter::SpatialQueryFilter;
use crate::query::hits::{Best, Nearest, RayHitData};

impl SpatialQuery<'_, '_> {
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
        grid.each_along(
            start,
            direction,
            max_distance,
            |item| ready.prefetch(item),
            |item| {
                let i = item.body();
                // The walk hands over only bodies whose boxes the ray meets within `done`.
                if filter.accepts(item, also, || ready.names(i))
                    && let Some(hit) = ready.with_shape(item, filter.mask, |shape| {
                        cast_ray(shape, origin, direction, max_distance, solid)
                    })
                    && hit.distance <= done
                    && let entity = ready.entity(i)
                    && self.alive(&ready, entity)
                {
                    done = offer(RayHitData {
                        entity,
                        distance: hit.distance,
                        normal: hit.normal,
                        point: hit.point,
                    });
                }
                done
            },
        );
        let ray = (origin, direction, max_distance.min(done), solid);
        self.grid_rays(ray, filter, also, offer);
    }
}
