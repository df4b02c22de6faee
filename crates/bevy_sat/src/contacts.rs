//! [`Contacts`]: every touching pair of the last step, with its contact data.

use bevy::prelude::*;
use sat_core::Contact;

/// A touching pair: `a < b`, and the contact with its normal from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPair {
    /// The smaller entity.
    pub a: Entity,
    /// The larger entity.
    pub b: Entity,
    /// Normal from `a` to `b`, depth (negative: a gap within the contact margin), points, and
    /// the minimum translation vector for `a` (`contact.mtv()`).
    pub contact: Contact,
    /// Whether the pair is resolved (false when a sensor is involved).
    pub resolved: bool,
}

/// Every pair of colliders touching after the last step, sorted by entity pair. A resource,
/// updated every step.
///
/// ```
/// # use bevy::prelude::*; use bevy_sat::prelude::*;
/// fn damage_on_touch(contacts: Res<Contacts>, player: Single<Entity, With<Weak>>) {
///     for (other, contact) in contacts.touching(*player) {
///         info!("touching {other}, pushed along {}", -contact.normal);
///     }
/// }
/// ```
#[derive(Resource, Default, Debug, Clone)]
pub struct Contacts {
    /// The pairs in the order the step found them (where it wrote them, never moved).
    pub(crate) pairs: Vec<ContactPair>,
    /// The indices of `pairs` sorted by entity pair.
    pub(crate) order: Vec<u32>,
}

impl Contacts {
    /// All touching pairs, sorted by `(a, b)`.
    pub fn iter(&self) -> impl Iterator<Item = &ContactPair> {
        self.order.iter().map(|&i| &self.pairs[i as usize])
    }

    /// How many pairs touch.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no pair touches.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The contact between `first` and `second`, with its normal from `first` to `second`.
    pub fn get(&self, first: Entity, second: Entity) -> Option<Contact> {
        let key = (first.min(second), first.max(second));
        let at = |i: &u32| {
            let p = &self.pairs[*i as usize];
            (p.a, p.b)
        };
        let index = self.order.binary_search_by(|i| at(i).cmp(&key)).ok()?;
        let contact = self.pairs[self.order[index] as usize].contact;
        Some(if first == key.0 {
            contact
        } else {
            contact.flipped()
        })
    }

    /// Everything `entity` touches, with each contact's normal from `entity` to the other.
    pub fn touching(&self, entity: Entity) -> impl Iterator<Item = (Entity, Contact)> + '_ {
        self.iter().filter_map(move |p| {
            if p.a == entity {
                Some((p.b, p.contact))
            } else if p.b == entity {
                Some((p.a, p.contact.flipped()))
            } else {
                None
            }
        })
    }
}
