//! What the spatial queries answer: [`RayHitData`], [`ShapeHitData`], [`PointProjection`], and
//! the ordered collection of the nearest hits they are gathered in.

use bevy::prelude::*;

/// Where a ray hit a collider: the answer of
/// [`SpatialQuery::cast_ray`](super::SpatialQuery::cast_ray) and
/// [`SpatialQuery::ray_hits`](super::SpatialQuery::ray_hits).
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Clone, Debug, PartialEq)]
pub struct RayHitData {
    /// The collider hit.
    pub entity: Entity,
    /// How far along the ray, in world units. For a solid ray starting inside a collider, 0.
    pub distance: f32,
    /// The collider's outward unit normal where the ray meets it. For a solid ray starting
    /// inside, the reversed ray direction (there is no surface at an inner point).
    pub normal: Vec2,
    /// The hit point (for a solid ray starting inside: the ray's origin).
    pub point: Vec2,
}

/// Where a cast shape first touched a collider: the answer of
/// [`SpatialQuery::cast_shape`](super::SpatialQuery::cast_shape) and
/// [`SpatialQuery::shape_hits`](super::SpatialQuery::shape_hits).
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Clone, Debug, PartialEq)]
pub struct ShapeHitData {
    /// The collider hit.
    pub entity: Entity,
    /// How far the shape travelled before touching it, in world units; 0 if it started
    /// overlapping or touching it.
    pub distance: f32,
    /// Where they touch (for a shape that starts overlapping: the middle of the contact points).
    pub point: Vec2,
    /// The unit normal on the hit collider, pointing towards the cast shape.
    pub normal: Vec2,
}

/// The point of a collider's boundary nearest to a point: the answer of
/// [`SpatialQuery::project_point`](super::SpatialQuery::project_point).
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
#[reflect(Clone, Debug, PartialEq)]
pub struct PointProjection {
    /// The nearest collider.
    pub entity: Entity,
    /// The nearest point on its boundary; the queried point itself when it is inside and the
    /// query was solid.
    pub point: Vec2,
    /// Whether the queried point is inside the collider (or on its boundary).
    pub is_inside: bool,
}

/// A hit with what orders it: its distance, then its entity.
pub(crate) trait Ranked: Copy {
    fn key(&self) -> (f32, Entity);
}

impl Ranked for RayHitData {
    fn key(&self) -> (f32, Entity) {
        (self.distance, self.entity)
    }
}

impl Ranked for ShapeHitData {
    fn key(&self) -> (f32, Entity) {
        (self.distance, self.entity)
    }
}

/// Whether `a` comes before `b`: nearer first, the smaller entity first at equal distance, so
/// that the answer never depends on the order in which the colliders were visited.
pub(crate) fn before(a: (f32, Entity), b: (f32, Entity)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// The `max` nearest hits offered so far, nearest first, in a vector the caller owns.
pub(crate) struct Nearest<'a, T> {
    pub hits: &'a mut Vec<T>,
    /// Where this query's hits start in `hits` (it may hold earlier ones).
    pub from: usize,
    pub max: usize,
}

impl<T: Ranked> Nearest<'_, T> {
    /// Adds `hit` if it is among the `max` nearest so far, and returns the distance within
    /// which the nearest `max` now lie (infinite until there are `max`).
    pub fn offer(&mut self, hit: T) -> f32 {
        let key = hit.key();
        let mine = &self.hits[self.from..];
        let at = mine.partition_point(|h| before(h.key(), key));
        if at < self.max {
            self.hits.insert(self.from + at, hit);
            self.hits
                .truncate(self.from + self.max.min(self.hits.len() - self.from));
        }
        self.bound()
    }

    /// The key of the farthest of the nearest `max`, once there are `max`.
    fn farthest(&self) -> Option<(f32, Entity)> {
        let mine = &self.hits[self.from..];
        (self.max > 0 && mine.len() >= self.max).then(|| mine[self.max - 1].key())
    }

    /// The entity of the farthest of the nearest `max`, once there are `max`: a hit at its
    /// distance is kept only before it.
    pub fn last(&self) -> Option<Entity> {
        self.farthest().map(|(_, entity)| entity)
    }

    /// The distance of the farthest of the nearest `max`, once there are `max`.
    pub fn bound(&self) -> f32 {
        match self.farthest() {
            Some((distance, _)) => distance,
            None if self.max == 0 => f32::NEG_INFINITY,
            None => f32::INFINITY,
        }
    }
}

/// The nearest hit offered so far.
pub(crate) struct Best<T>(pub Option<T>);

impl<T: Ranked> Best<T> {
    /// Keeps `hit` if it is nearer than the best so far; returns the best distance.
    pub fn offer(&mut self, hit: T) -> f32 {
        if self.0.is_none_or(|best| before(hit.key(), best.key())) {
            self.0 = Some(hit);
        }
        self.bound()
    }

    /// The entity of the best hit so far: another at its distance is kept only before it.
    pub fn last(&self) -> Option<Entity> {
        self.0.map(|best| best.key().1)
    }

    /// The best distance so far (infinite before the first hit).
    pub fn bound(&self) -> f32 {
        self.0.map_or(f32::INFINITY, |best| best.key().0)
    }
}
