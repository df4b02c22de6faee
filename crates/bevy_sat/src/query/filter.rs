//! [`SpatialQueryFilter`]: which colliders a spatial query considers.

use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;

use super::index::Item;
use crate::components::CollisionLayers;

/// Which colliders a [`SpatialQuery`](super::SpatialQuery) considers. The default considers
/// every collider.
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sat::prelude::*;
///
/// let player = Entity::from_raw_u32(7).unwrap();
/// let filter = SpatialQueryFilter::default()
///     .with_mask(0b10) // only colliders on layer 1
///     .with_excluded_entities([player])
///     .without_sensors();
/// assert_eq!(filter.mask, 0b10);
/// assert!(filter.excluded_entities.contains(&player));
/// assert!(!filter.include_sensors);
/// assert_eq!(SpatialQueryFilter::default().mask, u32::MAX);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpatialQueryFilter {
    /// The collision layers to consider: a collider is considered if its
    /// [`CollisionLayers::memberships`] share a bit with this mask. Default: every layer.
    pub mask: u32,
    /// Colliders never considered.
    pub excluded_entities: EntityHashSet,
    /// Whether [`Sensor`](crate::Sensor) colliders are considered (default true).
    pub include_sensors: bool,
}

impl Default for SpatialQueryFilter {
    /// Every collider: all layers, no entity excluded, sensors included.
    fn default() -> Self {
        Self {
            mask: CollisionLayers::ALL,
            excluded_entities: EntityHashSet::default(),
            include_sensors: true,
        }
    }
}

impl SpatialQueryFilter {
    /// Considers only colliders on one of the layers in `mask` (bit `i`: layer `i`, as in
    /// [`CollisionLayers::memberships`]).
    pub fn with_mask(mut self, mask: u32) -> Self {
        self.mask = mask;
        self
    }

    /// Never considers these entities (added to those already excluded).
    pub fn with_excluded_entities(mut self, entities: impl IntoIterator<Item = Entity>) -> Self {
        self.excluded_entities.extend(entities);
        self
    }

    /// Leaves [`Sensor`](crate::Sensor) colliders out.
    pub fn without_sensors(mut self) -> Self {
        self.include_sensors = false;
        self
    }

    /// Whether it accepts the tile grid `entity`, whose pieces have `layers` (a grid is never a
    /// sensor), unless `also_excluded` is that grid.
    pub(crate) fn accepts_grid(
        &self,
        layers: CollisionLayers,
        also_excluded: Option<Entity>,
        entity: Entity,
    ) -> bool {
        layers.memberships & self.mask != 0
            && also_excluded != Some(entity)
            && !self.excluded_entities.contains(&entity)
    }

    /// Whether the body of `item` is considered, `also_excluded` being one more body left out
    /// with all its parts (a caster's own). `names` gives the entity of the item's collider
    /// and that of the body it is a part of (its own, but for a child collider), asked for
    /// only when some entity is excluded.
    #[inline]
    pub(crate) fn accepts(
        &self,
        item: &Item,
        also_excluded: Option<Entity>,
        names: impl FnOnce() -> (Entity, Entity),
    ) -> bool {
        if item.memberships & self.mask == 0 || (!self.include_sensors && item.sensor()) {
            return false;
        }
        if also_excluded.is_none() && self.excluded_entities.is_empty() {
            return true;
        }
        let (entity, body) = names();
        also_excluded != Some(body) && !self.excluded_entities.contains(&entity)
    }
}
