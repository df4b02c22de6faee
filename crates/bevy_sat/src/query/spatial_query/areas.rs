//! Point and area queries: which colliders contain a point, overlap a shape or a box, and
//! which is nearest to a point.

use bevy::prelude::*;
use sat_core::{Aabb, Shape, contains_point, overlap, project_point};

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
        callback: impl FnMut(Entity) -> bool,
    ) {
        if !point.is_finite() {
            return;
        }
        let at = Aabb {
            min: point,
            max: point,
        };
        self.each_in_area(&at, filter, |shape| contains_point(shape, point), callback);
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
        callback: impl FnMut(Entity) -> bool,
    ) {
        let Some(placed) = place(shape, origin, rotation) else {
            return;
        };
        let area = placed.aabb();
        self.each_in_area(&area, filter, |shape| overlap(&placed, shape), callback);
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
        callback: impl FnMut(Entity) -> bool,
    ) {
        let area = Aabb { min, max };
        if !area.is_valid() {
            return;
        }
        // An item's box may be larger than its collider's: the collider's own decides.
        self.each_in_area(
            &area,
            filter,
            |shape| shape.aabb().overlaps(&area),
            callback,
        );
    }

    /// Calls `callback` for every collider (tile grids included) whose shape, among those whose
    /// boxes overlap or touch `area`, passes `test`, in no particular order, until it returns
    /// false.
    fn each_in_area(
        &self,
        area: &Aabb,
        filter: &SpatialQueryFilter,
        test: impl Fn(&Shape) -> bool,
        mut callback: impl FnMut(Entity) -> bool,
    ) {
        let ready = self.ready();
        let grid = &ready.cached.grid;
        let mut going = true;
        grid.each_in_box(
            area,
            |item| ready.prefetch(item),
            |item| {
                let i = item.body();
                if !(filter.accepts(item, None, || ready.names(i))
                    && ready
                        .with_shape(item, filter.mask, |shape| test(shape).then_some(()))
                        .is_some())
                {
                    return true;
                }
                let entity = ready.entity(i);
                going = !self.alive(&ready, entity) || callback(entity);
                going
            },
        );
        if going {
            self.grids_in(area, filter, test, callback);
        }
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
        grid.each_around(point, |item| {
            let i = item.body();
            if box_distance(&item.aabb, point) > bound(&best)
                || !filter.accepts(item, None, || ready.names(i))
            {
                return bound(&best);
            }
            let Some(found) =
                ready.with_shape(item, filter.mask, |shape| project_point(shape, point))
            else {
                return bound(&best);
            };
            let (distance, at) = if found.is_inside && solid {
                (0.0, point)
            } else {
                (found.point.distance(point), found.point)
            };
            let entity = ready.entity(i);
            let better = best.is_none_or(|(d, b)| before((distance, entity), (d, b.entity)));
            if better && self.alive(&ready, entity) {
                best = Some((
                    distance,
                    PointProjection {
                        entity,
                        point: at,
                        is_inside: found.is_inside,
                    },
                ));
            }
            bound(&best)
        });
        let bound = best.map(|(d, b)| (d, b.entity));
        if let Some(nearer) = self.grid_projection(point, solid, filter, bound) {
            best = Some(nearer);
        }
        best.map(|(_, projection)| projection)
    }
}
