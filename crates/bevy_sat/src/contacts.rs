//! [`Contacts`]: every touching pair of the last step, with its contact data.

use bevy::prelude::*;
use sat_core::Contact;

use crate::step::pair::PairContact;

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
    /// The step's pairs, where it wrote them (never moved): only those `order` lists touch,
    /// and each of those holds its contact after resolution.
    pub(crate) pairs: Vec<PairContact>,
    /// The indices in `pairs` of the touching pairs, sorted by entity pair.
    pub(crate) order: Vec<u32>,
}

impl Contacts {
    /// All touching pairs, sorted by `(a, b)`.
    pub fn iter(&self) -> impl Iterator<Item = ContactPair> + '_ {
        self.order.iter().filter_map(|&k| self.pair(k))
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
        let at = |k: &u32| self.pairs[*k as usize].entities;
        let index = self.order.binary_search_by(|k| at(k).cmp(&key)).ok()?;
        let contact = self.pair(self.order[index])?.contact;
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

    /// Pair `k` as listed (always `Some` for a pair in `order`, whose record holds its contact
    /// after resolution).
    pub(crate) fn pair(&self, k: u32) -> Option<ContactPair> {
        let record = self.pairs.get(k as usize)?;
        Some(ContactPair {
            a: record.entities.0,
            b: record.entities.1,
            contact: record.contact()?,
            resolved: !record.unpushed(),
        })
    }
}
