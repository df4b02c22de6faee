//! Collision events: [`CollisionStarted`] and [`CollisionEnded`], each both a buffered
//! [`Message`] and an [`EntityEvent`] for observers.
//!
//! Read them as messages, once per pair per change, with `a < b`:
//!
//! ```
//! # use bevy::prelude::*; use bevy_sat::prelude::*;
//! fn log_hits(mut started: MessageReader<CollisionStarted>) {
//!     for hit in started.read() {
//!         info!("{} hit {} (normal {})", hit.a, hit.b, hit.contact.normal);
//!     }
//! }
//! ```
//!
//! or observe them on one entity; the plugin triggers each event on both entities of the pair,
//! with `a` the observed entity and `b` the other one:
//!
//! ```
//! # use bevy::prelude::*; use bevy_sat::prelude::*;
//! fn spawn_coin(mut commands: Commands) {
//!     commands
//!         .spawn((ConvexCollider::circle(6.0), Sensor))
//!         .observe(|hit: On<CollisionStarted>, mut commands: Commands| {
//!             commands.entity(hit.a).despawn(); // the coin collects itself
//!         });
//! }
//! ```

use std::ops::Deref;

use bevy::prelude::*;
use sat_core::Contact;
use smallvec::SmallVec;

/// Two colliders started touching (overlapping, or closer than
/// [`SatConfig::contact_margin`](crate::SatConfig::contact_margin)).
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq)]
pub struct CollisionStarted {
    /// The first entity (as a message: the smaller; for an observer: the observed one).
    #[event_target]
    pub a: Entity,
    /// The other entity.
    pub b: Entity,
    /// The contact when it started: normal from `a` to `b`, depth, points.
    pub contact: Contact,
}

/// Two colliders stopped touching — also when one was despawned or lost its collider, or a
/// change of layers or sensors made them stop interacting. As a message, always; for
/// observers, on each of the two entities that still exists (and is not disabled) when the
/// event is delivered, at the end of the step.
#[derive(Message, EntityEvent, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollisionEnded {
    /// The first entity (as a message: the smaller; for an observer: the observed one).
    #[event_target]
    pub a: Entity,
    /// The other entity.
    pub b: Entity,
}

/// A [`Weak`](crate::Weak) body is squeezed between Mighty bodies with no room left: pushing it
/// out of one would push it into another, so it is pushed into neither (it stays overlapping
/// the one that moved into it). Sent every step while it lasts; also triggered on the body.
#[derive(Message, EntityEvent, Clone, Debug, PartialEq, Eq)]
pub struct Crushed {
    /// The squeezed body.
    #[event_target]
    pub body: Entity,
    /// The Mighty bodies squeezing it, sorted.
    pub crushers: Crushers,
}

/// The Mighty bodies squeezing a [`Crushed`] body, sorted: read it as a slice of entities
/// (`Deref<Target = [Entity]>`). Up to four are held inline, so that a step with crushed
/// bodies allocates nothing for them.
///
/// ```
/// # use bevy::prelude::*; use bevy_sat::prelude::*;
/// let (a, b) = (Entity::from_raw_u32(1).unwrap(), Entity::from_raw_u32(2).unwrap());
/// let crushers = Crushers::from(vec![a, b]);
/// assert_eq!(crushers.len(), 2);
/// assert!(crushers.contains(&b));
/// assert_eq!(crushers, [a, b]);
/// assert_eq!(crushers, vec![a, b]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Crushers(SmallVec<[Entity; 4]>);

impl Crushers {
    /// The entities, as a slice.
    pub fn as_slice(&self) -> &[Entity] {
        &self.0
    }
}

impl Deref for Crushers {
    type Target = [Entity];

    fn deref(&self) -> &[Entity] {
        &self.0
    }
}

impl PartialEq<Vec<Entity>> for Crushers {
    fn eq(&self, other: &Vec<Entity>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl PartialEq<[Entity]> for Crushers {
    fn eq(&self, other: &[Entity]) -> bool {
        self.as_slice() == other
    }
}

impl<const N: usize> PartialEq<[Entity; N]> for Crushers {
    fn eq(&self, other: &[Entity; N]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl From<Vec<Entity>> for Crushers {
    fn from(entities: Vec<Entity>) -> Self {
        Self(SmallVec::from_vec(entities))
    }
}

impl FromIterator<Entity> for Crushers {
    fn from_iter<I: IntoIterator<Item = Entity>>(entities: I) -> Self {
        Self(entities.into_iter().collect())
    }
}

impl<'a> IntoIterator for &'a Crushers {
    type Item = &'a Entity;
    type IntoIter = std::slice::Iter<'a, Entity>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
