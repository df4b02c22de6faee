//! [`ColliderRemovals`]: how many colliders have been removed or despawned, so that the spatial
//! queries know whether every body of the last step still has its collider.

use std::sync::atomic::{AtomicU64, Ordering};

use bevy::prelude::*;

use crate::components::ConvexCollider;

/// The number of [`ConvexCollider`]s removed (or despawned with their entity) since the app
/// started. The step notes it when it gathers its bodies; a query answering from those bodies
/// asks, for each hit, whether its entity still has a collider only if the count has moved
/// since.
#[derive(Resource, Default, Debug)]
pub(crate) struct ColliderRemovals(AtomicU64);

impl ColliderRemovals {
    /// The count so far.
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Adds the resource and the observer that counts removals.
pub(crate) fn count_removals(app: &mut App) {
    app.init_resource::<ColliderRemovals>();
    app.add_observer(
        |_: On<Remove, ConvexCollider>, removals: Res<ColliderRemovals>| {
            removals.0.fetch_add(1, Ordering::Relaxed);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_removed_and_despawned_colliders_but_not_replaced_ones() {
        let mut app = App::new();
        count_removals(&mut app);
        let world = app.world_mut();
        let a = world.spawn(ConvexCollider::default()).id();
        let b = world.spawn(ConvexCollider::default()).id();
        assert_eq!(world.resource::<ColliderRemovals>().count(), 0);
        world.entity_mut(a).insert(ConvexCollider::default());
        assert_eq!(world.resource::<ColliderRemovals>().count(), 0);
        world.entity_mut(a).remove::<ConvexCollider>();
        assert_eq!(world.resource::<ColliderRemovals>().count(), 1);
        world.despawn(b);
        assert_eq!(world.resource::<ColliderRemovals>().count(), 2);
    }
}
