//! Warnings about entities set up in a way the step cannot use, logged once per entity from a
//! system of their own, outside the step.

use bevy::ecs::entity::EntityHashSet;
use bevy::ecs::name::NameOrEntity;
use bevy::prelude::*;

use crate::components::{ConvexCollider, Mighty, Sensor, Weak};

/// The bodies (Mighty, Weak or Sensor) without a [`ConvexCollider`]: the step leaves them out.
type ColliderlessBodies<'w, 's> = Query<
    'w,
    's,
    (NameOrEntity, Has<Mighty>, Has<Weak>),
    (
        Or<(With<Mighty>, With<Weak>, With<Sensor>)>,
        Without<ConvexCollider>,
    ),
>;

/// The bodies already warned about for having no collider.
#[derive(Resource, Default, Debug)]
pub(crate) struct MissingColliders {
    warned: EntityHashSet,
}

impl MissingColliders {
    /// Of the bodies without a collider now, those not warned about yet, which are remembered;
    /// the others are forgotten (despawned, given a collider, or no longer a body), so that a
    /// body that loses its collider again is warned about again.
    pub(crate) fn newly_missing(
        &mut self,
        missing: impl IntoIterator<Item = Entity>,
    ) -> Vec<Entity> {
        let mut still = EntityHashSet::default();
        let mut new = Vec::new();
        for entity in missing {
            if !self.warned.contains(&entity) {
                new.push(entity);
            }
            still.insert(entity);
        }
        self.warned = still;
        new
    }
}

/// Warns once about each body that has no [`ConvexCollider`]: it takes no part in collision
/// until it gets one. Without bodies missing a collider, the query matches no entity at all,
/// so this costs next to nothing per step.
pub(crate) fn warn_missing_colliders(
    bodies: ColliderlessBodies,
    mut missing: ResMut<MissingColliders>,
) {
    if bodies.is_empty() && missing.warned.is_empty() {
        return;
    }
    let new = missing.newly_missing(bodies.iter().map(|(name, ..)| name.entity));
    for entity in new {
        let Ok((name, mighty, weak)) = bodies.get(entity) else {
            continue;
        };
        let kind = match (mighty, weak) {
            (true, _) => "Mighty",
            (false, true) => "Weak",
            (false, false) => "Sensor",
        };
        warn!(
            "{name} is {kind} but has no ConvexCollider: it takes no part in collision until it \
             gets one"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entity(index: u32) -> Entity {
        Entity::from_raw_u32(index).expect("a valid index")
    }

    #[test]
    fn each_missing_collider_is_reported_once_while_it_lasts() {
        let mut missing = MissingColliders::default();
        let (a, b) = (entity(1), entity(2));
        assert_eq!(missing.newly_missing([a]), vec![a]);
        assert_eq!(missing.newly_missing([a]), Vec::<Entity>::new());
        assert_eq!(missing.newly_missing([a, b]), vec![b]);
        // `a` got its collider (or was despawned): forgotten, and reported again if it loses
        // it again.
        assert_eq!(missing.newly_missing([b]), Vec::<Entity>::new());
        assert_eq!(missing.newly_missing([a, b]), vec![a]);
        assert_eq!(missing.newly_missing([]), Vec::<Entity>::new());
        assert!(missing.warned.is_empty());
    }

    /// Through the system: a body without a collider is remembered, and forgotten once
    /// despawned or given a collider.
    #[test]
    fn the_system_forgets_despawned_bodies_and_bodies_given_a_collider() {
        let mut world = World::new();
        world.init_resource::<MissingColliders>();
        let mut schedule = Schedule::default();
        schedule.add_systems(warn_missing_colliders);
        let weak = world.spawn(Weak).id();
        let mighty = world.spawn(Mighty).id();
        let sensor = world.spawn(Sensor).id();
        let whole = world
            .spawn((Weak, ConvexCollider::rectangle(1.0, 1.0)))
            .id();
        schedule.run(&mut world);
        let warned = |world: &World| {
            let mut w: Vec<Entity> = world
                .resource::<MissingColliders>()
                .warned
                .iter()
                .copied()
                .collect();
            w.sort();
            w
        };
        let mut expected = vec![weak, mighty, sensor];
        expected.sort();
        assert_eq!(warned(&world), expected);
        assert!(!warned(&world).contains(&whole));
        world.despawn(mighty);
        world
            .entity_mut(weak)
            .insert(ConvexCollider::rectangle(1.0, 1.0));
        schedule.run(&mut world);
        assert_eq!(warned(&world), vec![sensor]);
    }
}
