//! The [`TileGrid`](crate::TileGrid)s in spatial queries: their pieces are not step bodies
//! (the step makes bodies only of those near the bodies that can collide with them), so each
//! query asks every grid for the pieces along its way, from the grid's
//! [`TilePieces`](crate::TilePieces). A hit names the grid, once: its nearest piece's.

use bevy::prelude::*;
use sat_core::{Aabb, Hit, Shape, cast_ray, project_point, sweep};

use super::{SpatialQuery, box_path};
use crate::query::filter::SpatialQueryFilter;
use crate::query::hits::{PointProjection, RayHitData, before};
use crate::tiles::TilePieces;

/// A grid's nearest hit of a shape cast: its distance, the hit, the motion swept and where they
/// touch.
pub(super) struct GridCast {
    pub entity: Entity,
    pub distance: f32,
    pub hit: Hit,
    pub motion: Vec2,
    pub point: Vec2,
}

impl SpatialQuery<'_, '_> {
    /// The grids `filter` (and `also`, an entity left out besides) accepts, with their pieces.
    fn accepted_grids<'a>(
        &'a self,
        filter: &'a SpatialQueryFilter,
        also: Option<Entity>,
    ) -> impl Iterator<Item = (Entity, &'a TilePieces)> + 'a {
        // Without tile grids, not even an empty walk over the ECS's tables.
        let any = self.grid_count.0 > 0;
        any.then(|| self.grids.iter())
            .into_iter()
            .flatten()
            .filter(move |(grid, pieces)| filter.accepts_grid(pieces.layers, also, *grid))
    }

    /// Each accepted grid's nearest hit by the ray within `reach`.
    pub(super) fn grid_rays(
        &self,
        (origin, direction, reach, solid): (Vec2, Vec2, f32, bool),
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
        mut offer: impl FnMut(RayHitData) -> f32,
    ) {
        let start = Aabb {
            min: origin,
            max: origin,
        };
        for (grid, pieces) in self.accepted_grids(filter, also) {
            let Some((enter, exit)) = pieces.bounds.and_then(|b| box_path(&start, direction, &b))
            else {
                continue;
            };
            if enter > reach {
                continue;
            }
            let to = exit.min(reach);
            let mut best: Option<RayHitData> = None;
            let (from, to) = (origin + direction * enter, origin + direction * to);
            pieces.along(from, to, |_, _, piece| {
                let shape = pieces.placed(piece).map(|p| p.shape);
                if let Some(hit) = shape.and_then(|s| cast_ray(&s, origin, direction, reach, solid))
                    && best.is_none_or(|b| hit.distance < b.distance)
                {
                    best = Some(RayHitData {
                        entity: grid,
                        distance: hit.distance,
                        normal: hit.normal,
                        point: hit.point,
                    });
                }
                true
            });
            if let Some(hit) = best {
                offer(hit);
            }
        }
    }

    /// Each accepted grid's nearest hit by `placed` moved along `direction` within `reach`.
    pub(super) fn grid_casts(
        &self,
        (placed, direction, reach): (&Shape, Vec2, f32),
        filter: &SpatialQueryFilter,
        also: Option<Entity>,
        mut offer: impl FnMut(GridCast) -> f32,
    ) {
        let start = placed.aabb();
        for (grid, pieces) in self.accepted_grids(filter, also) {
            let Some((enter, exit)) = pieces.bounds.and_then(|b| box_path(&start, direction, &b))
            else {
                continue;
            };
            if enter > reach {
                continue;
            }
            // The start's box from where it enters the grid's box to where it leaves it.
            let moved = |by: f32| Aabb {
                min: start.min + direction * by,
                max: start.max + direction * by,
            };
            let area = moved(enter).union(&moved(exit.min(reach)));
            let mut best: Option<GridCast> = None;
            pieces.near(&area, |_, _, piece| {
                let Some(shape) = pieces.placed(piece).map(|p| p.shape) else {
                    return true;
                };
                let Some((enter, exit)) = box_path(&start, direction, &shape.aabb()) else {
                    return true;
                };
                if enter > reach {
                    return true;
                }
                let length = exit.min(reach).max(0.0);
                let motion = direction * length;
                if let Some(hit) = sweep(placed, &shape, motion) {
                    let distance = (hit.toi * length).min(reach);
                    if best.as_ref().is_none_or(|b| distance < b.distance) {
                        best = Some(GridCast {
                            entity: grid,
                            distance,
                            hit,
                            motion,
                            point: hit.point(placed, &shape, motion),
                        });
                    }
                }
                true
            });
            if let Some(cast) = best {
                offer(cast);
            }
        }
    }

    /// Calls `found` with every accepted grid one of whose pieces `test` accepts among those
    /// whose boxes may meet `area`, until it returns false; returns whether it never did.
    pub(super) fn grids_in(
        &self,
        area: &Aabb,
        filter: &SpatialQueryFilter,
        test: impl Fn(&Shape) -> bool,
        mut found: impl FnMut(Entity) -> bool,
    ) -> bool {
        for (grid, pieces) in self.accepted_grids(filter, None) {
            let mut hit = false;
            pieces.near(area, |_, _, piece| {
                hit = pieces.placed(piece).is_some_and(|p| test(&p.shape));
                !hit
            });
            if hit && !found(grid) {
                return false;
            }
        }
        true
    }

    /// The nearest grid piece to `point` within `bound`, as `(distance, projection)`, if it is
    /// nearer than `bound` (or as near, and its grid comes first).
    pub(super) fn grid_projection(
        &self,
        point: Vec2,
        solid: bool,
        filter: &SpatialQueryFilter,
        bound: Option<(f32, Entity)>,
    ) -> Option<(f32, PointProjection)> {
        let mut best: Option<(f32, PointProjection)> = None;
        for (grid, pieces) in self.accepted_grids(filter, None) {
            let Some(bounds) = pieces.bounds else {
                continue;
            };
            // Boxes around the point twice as wide each time, until a piece is found within
            // one (any piece nearer than the box's half width has its box meet it) or the box
            // holds the whole grid.
            let limit = bound.map_or(f32::INFINITY, |b| b.0);
            let mut half = limit.min(bounds.size().max_element() / 64.0).max(1.0e-3);
            loop {
                let area = Aabb {
                    min: point - half,
                    max: point + half,
                };
                pieces.near(&area, |_, _, piece| {
                    let Some(shape) = pieces.placed(piece).map(|p| p.shape) else {
                        return true;
                    };
                    if let Some(found) = project_point(&shape, point) {
                        let (distance, at) = if found.is_inside && solid {
                            (0.0, point)
                        } else {
                            (found.point.distance(point), found.point)
                        };
                        let better =
                            best.is_none_or(|(d, b)| before((distance, grid), (d, b.entity)));
                        if better {
                            best = Some((
                                distance,
                                PointProjection {
                                    entity: grid,
                                    point: at,
                                    is_inside: found.is_inside,
                                },
                            ));
                        }
                    }
                    true
                });
                let holds_all =
                    area.min.cmple(bounds.min).all() && area.max.cmpge(bounds.max).all();
                if best.is_some_and(|(d, _)| d <= half) || half >= limit || holds_all {
                    break;
                }
                half = (half * 2.0).min(limit);
            }
        }
        best.filter(|(d, p)| bound.is_none_or(|b| before((*d, p.entity), b)))
    }
}
