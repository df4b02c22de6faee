//! Point and area queries: which colliders contain a point, overlap a shape or a box, and
//! which is nearest to a point.

use bevy::prelude::*;
use sat_core::{Aabb, contains_point, overlap, project_point};

use super::{SpatialQuery, box_distance, place};
use crate::components::ConvexCollider;
use crate::query::filter::SpatialQueryFilter;
use crate::query::hits::{PointProjection, before};

impl SpatialQuery<'_, '_> {
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
