//! The names of a Weak body's solid child colliders in [`Contacts`](crate::Contacts) and the
//! collision events. Such parts are folded into their body's shape (see `children`), so the
//! step's pairs name the body; once a pair's final contact is known, the part of the body
//! deepest in the other collider names that side instead. Contact flags keep the body's name:
//! a body stands on a body.

use bevy::prelude::*;
use sat_core::{Shape, collide_within};

use super::body::Body;
use super::pair::{PairContact, Pushes, Seen};

/// The Weak bodies with folded parts this step, the entity of each of their parts, and the
/// touching pairs renamed.
#[derive(Default, Debug)]
pub(crate) struct FoldedParts {
    /// Per folded body, sorted by index: its index, and where the names of its parts start
    /// and end in `names`. Sorted so that a pair's side is found by a binary search: a step
    /// asks for every touching pair, and may have thousands of folded bodies.
    bodies: Vec<(u32, u32, u32)>,
    /// The entity each part of each folded body's compound belongs to, in the compound's
    /// order: the body's own for the parts of its own collider, a child collider's for its.
    names: Vec<Entity>,
    /// The touching pairs renamed this step: their index and their new names, in the pair's
    /// order (`a` first).
    renamed: Vec<(u32, Entity, Entity)>,
}

impl FoldedParts {
    /// Forgets the last step's bodies.
    pub fn clear(&mut self) {
        self.bodies.clear();
        self.names.clear();
        self.renamed.clear();
    }

    /// Whether no Weak body has folded parts this step.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// Notes that body `index` is now a compound whose parts belong to `names`, in order.
    /// Bodies are noted in the order of their indices; one noted out of order is put in its
    /// place, and a body noted again replaces its names.
    pub fn add(&mut self, index: usize, names: impl IntoIterator<Item = Entity>) {
        let start = self.names.len() as u32;
        self.names.extend(names);
        let entry = (index as u32, start, self.names.len() as u32);
        match self.bodies.last() {
            Some(&(last, ..)) if last as usize >= index => {
                match self.bodies.binary_search_by_key(&entry.0, |&(i, ..)| i) {
                    Ok(k) => self.bodies[k] = entry,
                    Err(k) => self.bodies.insert(k, entry),
                }
            }
            _ => self.bodies.push(entry),
        }
    }

    /// The names of body `index`'s parts, if it has folded parts.
    fn names_of(&self, index: usize) -> Option<&[Entity]> {
        let k = self
            .bodies
            .binary_search_by_key(&(index as u32), |&(i, ..)| i)
            .ok()?;
        let (_, start, end) = self.bodies[k];
        self.names.get(start as usize..end as usize)
    }

    /// The entity that names body `index` against body `other`: the entity of its part
    /// deepest in `other` (within `margin`) of those that meet it, if it has folded parts and
    /// one touches.
    fn deepest(&self, index: usize, other: usize, bodies: &[Body], margin: f32) -> Option<Entity> {
        let names = self.names_of(index)?;
        let (body, other) = (&bodies[index], &bodies[other]);
        let Shape::Compound(compound) = &body.shape else {
            return None;
        };
        if compound.parts().len() != names.len() {
            return None;
        }
        let other_shape = other.shape_against(body)?;
        let mut deepest: Option<(f32, Entity)> = None;
        for (k, (part, &name)) in compound.parts().iter().zip(names).enumerate() {
            if body
                .views()
                .is_some_and(|views| !views.part_meets(k, &other.layers))
            {
                continue;
            }
            let Some(contact) = collide_within(&part.shape, &*other_shape, margin) else {
                continue;
            };
            if contact.depth >= -margin && deepest.is_none_or(|(depth, _)| contact.depth > depth) {
                deepest = Some((contact.depth, name));
            }
        }
        deepest.map(|(_, name)| name)
    }

    /// The entities touching pair `k` (`pair`) is reported under, smaller first: its own, but
    /// for the side of a body with folded parts, which its deepest part names. A pair whose
    /// names change is noted, for [`FoldedParts::rename`].
    pub fn names(
        &mut self,
        k: usize,
        pair: &PairContact,
        bodies: &[Body],
        margin: f32,
    ) -> (Entity, Entity) {
        let (a, b) = pair.bodies();
        let name_a = self.deepest(a, b, bodies, margin);
        let name_b = self.deepest(b, a, bodies, margin);
        let names = (
            name_a.unwrap_or(pair.entities.0),
            name_b.unwrap_or(pair.entities.1),
        );
        if names == pair.entities {
            return names;
        }
        self.renamed.push((k as u32, names.0, names.1));
        (names.0.min(names.1), names.0.max(names.1))
    }

    /// Gives the pairs noted by [`FoldedParts::names`] their new names, smaller first: a pair
    /// whose order changes has its bodies, contact and pushing turned around.
    pub fn rename(&self, pairs: &mut [PairContact]) {
        for &(k, name_a, name_b) in &self.renamed {
            let Some(pair) = pairs.get_mut(k as usize) else {
                continue;
            };
            if name_a < name_b {
                pair.entities = (name_a, name_b);
                continue;
            }
            pair.entities = (name_b, name_a);
            (pair.a, pair.b) = (pair.b, pair.a);
            if let Seen::Touching(contact) = pair.seen {
                pair.seen = Seen::Touching(contact.flipped());
            }
            pair.pushes = match pair.pushes {
                Pushes::AOutOfB => Pushes::BOutOfA,
                Pushes::BOutOfA => Pushes::AOutOfB,
                other => other,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entity(n: u32) -> Entity {
        Entity::from_raw_u32(n).unwrap()
    }

    /// Bodies noted in order, out of order and again are each found with their own names.
    #[test]
    fn folded_bodies_are_found_by_index_in_any_order() {
        let mut parts = FoldedParts::default();
        for i in (0..2000).step_by(2) {
            parts.add(i, [entity(i as u32), entity(i as u32 + 1)]);
        }
        parts.add(7, [entity(70)]);
        parts.add(4, [entity(40), entity(41), entity(42)]);
        assert_eq!(parts.names_of(0), Some(&[entity(0), entity(1)][..]));
        assert_eq!(
            parts.names_of(1998),
            Some(&[entity(1998), entity(1999)][..])
        );
        assert_eq!(parts.names_of(7), Some(&[entity(70)][..]));
        assert_eq!(
            parts.names_of(4),
            Some(&[entity(40), entity(41), entity(42)][..])
        );
        assert_eq!(parts.names_of(6), Some(&[entity(6), entity(7)][..]));
        assert_eq!(parts.names_of(1), None);
        assert_eq!(parts.names_of(2001), None);
    }
}
