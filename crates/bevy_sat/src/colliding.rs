//! [`CollidingEntities`]: per body, the entities it touched in the last step.

use bevy::prelude::*;

use crate::contacts::Contacts;

/// The entities a body touched after the last step (sensors included), sorted. A game adds it
/// to the bodies it wants to ask ("is the player touching this spike?"); the step fills it in
/// [`SatSystems::Writeback`](crate::SatSystems::Writeback) from [`Contacts`], and bodies
/// without it cost nothing.
///
/// ```
/// # use bevy::prelude::*; use bevy_sat::prelude::*;
/// # use bevy::time::TimeUpdateStrategy;
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SatPlugin::default()))
///     .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
///     .insert_resource(Time::<Fixed>::from_hz(60.0));
/// let floor = app
///     .world_mut()
///     .spawn((ConvexCollider::rectangle(100.0, 10.0), Mighty, Transform::default()))
///     .id();
/// let crate_ = app
///     .world_mut()
///     .spawn((
///         ConvexCollider::rectangle(10.0, 10.0),
///         Weak,
///         Transform::from_xyz(0.0, 10.0, 0.0), // resting on the floor's top
///         CollidingEntities::default(),
///     ))
///     .id();
/// app.update();
/// app.update();
/// let touching = app.world().get::<CollidingEntities>(crate_).unwrap();
/// assert!(touching.contains(floor));
/// assert_eq!(touching.iter().collect::<Vec<_>>(), vec![floor]);
/// ```
#[derive(Component, Clone, Debug, Default, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct CollidingEntities(Vec<Entity>);

impl CollidingEntities {
    /// Whether the body touched `entity`.
    pub fn contains(&self, entity: Entity) -> bool {
        self.0.binary_search(&entity).is_ok()
    }

    /// The entities the body touched, in entity order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Entity> + '_ {
        self.0.iter().copied()
    }

    /// How many entities the body touched.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the body touched nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Fills every [`CollidingEntities`] from this step's [`Contacts`]: one pass over the touching
/// pairs, each looked up on both sides. The pairs come sorted by `(a, b)` with `a < b`, so a
/// body's list comes out in entity order: first those it touched as `b` (all smaller than it),
/// then those it touched as `a`.
pub(crate) fn fill_colliding_entities(
    contacts: Res<Contacts>,
    mut bodies: Query<&mut CollidingEntities>,
) {
    if bodies.is_empty() {
        return;
    }
    for mut touched in &mut bodies {
        touched.0.clear();
    }
    // A pair listed more than once (a body on several pieces of one tile grid) is listed once.
    let mut last = None;
    for pair in contacts.iter() {
        if last.replace((pair.a, pair.b)) == Some((pair.a, pair.b)) {
            continue;
        }
        if let Ok(mut touched) = bodies.get_mut(pair.a) {
            touched.0.push(pair.b);
        }
        if let Ok(mut touched) = bodies.get_mut(pair.b) {
            touched.0.push(pair.a);
        }
    }
}
