//! The records of pairs the narrow phase hands on: [`PairContact`], how it is pushed
//! ([`Pushes`]), what the narrow phase saw ([`Seen`]), and the lists they come in
//! ([`FoundPairs`], [`WeakPairs`]).

use bevy::prelude::*;
use sat_core::{AxisOverlap, Contact, Hit};

use super::pair_sort;

/// How many pairs ahead a loop over pairs asks for the records the pair a few places on will
/// read: the time of a few pair visits covers the wait for memory.
pub(crate) const PREFETCH_DISTANCE: usize = 6;

/// How resolution treats a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pushes {
    /// Never pushed apart: a sensor is involved, or neither body is Weak.
    Never,
    /// Weak `a` is pushed out of Mighty `b`.
    AOutOfB,
    /// Weak `b` is pushed out of Mighty `a`.
    BOutOfA,
    /// Both are Weak: they split the push.
    Split,
}

impl Pushes {
    /// Which of `a` and `b` resolution may push: the Weak ones.
    pub fn weak(self) -> (bool, bool) {
        match self {
            Self::Never => (false, false),
            Self::AOutOfB => (true, false),
            Self::BOutOfA => (false, true),
            Self::Split => (true, true),
        }
    }
}

/// A candidate pair that touches at the end of the step (within the contact margin) or meets
/// during it: `a`'s entity is smaller than `b`'s.
///
/// One cache line: every stage from the narrow phase on streams these records, several times
/// over, and the ones that pick records here and there (ordering the Weak pairs, contact
/// flags in entity order, started events) wait for one line per record, not two. What few
/// pairs need more stays elsewhere: a fast pair's hit in [`FoundPairs::hits`], a Weak pair's
/// bottom in its key ([`WeakPairs::keys`]).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct PairContact {
    /// Body indices (a step has far fewer than 2^32 bodies: see [`PairContact::bodies`]).
    pub a: u32,
    pub b: u32,
    /// The entities of `a` and `b` (kept here so later stages need not read the bodies).
    pub entities: (Entity, Entity),
    /// How resolution pushes this pair apart, if at all.
    pub pushes: Pushes,
    /// Whether resolution may move either body (one of them is Weak and not a sensor).
    pub may_move: bool,
    /// Whether one of the bodies is a one-way platform.
    pub one_way: bool,
    /// A Weak body passing through a one-way platform (not resolved, no contact flags), as
    /// the narrow phase judged from where they were at the start of the step.
    pub passing: bool,
    /// The Mighty body of a pair that pushes a Weak body out of it has internal faces (see
    /// [`Body::internal`](super::body::Body::internal)): only then may the contact be through
    /// one, which contact flags must test against that body's record.
    pub covered: bool,
    /// What the narrow phase saw at the end of the step.
    pub seen: Seen,
}

const _: () = assert!(
    size_of::<PairContact>() == 64,
    "a pair record is one cache line"
);

/// What the narrow phase saw of a pair at the end of the step. One field for the three cases,
/// so that the pair records stay small: every stage after the narrow phase streams them.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Seen {
    /// They touch (within the contact margin): their contact.
    Touching(Contact),
    /// Two polygons apart, but near enough for resolution to bring together (within the
    /// step's reach): the axis that separates them most (negative depth), which tells
    /// resolution cheaply that they are still apart
    /// ([`AxisOverlap::separates_after`](sat_core::AxisOverlap::separates_after)).
    Apart(AxisOverlap),
    /// Apart (a circle involved), or they meet only during the step (`hit`).
    Near,
}

impl PairContact {
    /// The indices of bodies `a` and `b`.
    pub fn bodies(&self) -> (usize, usize) {
        (self.a as usize, self.b as usize)
    }

    /// The contact at the end of the narrow phase, if they touch (within the contact margin).
    pub fn contact(&self) -> Option<Contact> {
        match self.seen {
            Seen::Touching(contact) => Some(contact),
            _ => None,
        }
    }

    /// Whether resolution leaves this pair alone: never pushed apart, or passing through a
    /// one-way platform.
    pub fn unpushed(&self) -> bool {
        self.passing || self.pushes == Pushes::Never
    }
}

/// Pairs of two Weak bodies (that resolution splits), kept apart from the others by the narrow
/// phase: resolution takes them ground first (see [`WeakPairs::keys`]), after all the others.
/// Put in its order by sorting only a small key per pair, then gathered once: the records, a
/// cache line each, are never sorted, nor first copied in with the others.
#[derive(Clone, Default, Debug)]
pub(crate) struct WeakPairs {
    pub records: Vec<PairContact>,
    /// Per record, in the same order: the bits of its lower body's bottom
    /// ([`pair_sort::ordered_bits`]) over its index in `records`, in one word.
    pub keys: Vec<u64>,
}

impl WeakPairs {
    /// Adds `pair` ([`Pushes::Split`]) and its key: `bottom` is the lower of its bodies'
    /// bottoms ([`Body::bottom`]).
    pub fn push(&mut self, pair: PairContact, bottom: f32) {
        // (Pair indices fit 32 bits: 2^32 pairs would take hundreds of GiB.)
        let index = self.records.len() as u64;
        self.keys
            .push(u64::from(pair_sort::ordered_bits(bottom)) << 32 | index);
        self.records.push(pair);
    }

    /// Appends `other`'s pairs, their keys renumbered.
    pub fn append(&mut self, other: &Self) {
        let offset = self.records.len() as u64;
        self.records.extend_from_slice(&other.records);
        self.keys.extend(other.keys.iter().map(|key| key + offset));
    }

    /// How many pairs there are.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Removes every pair (keeping the storage).
    pub fn clear(&mut self) {
        self.records.clear();
        self.keys.clear();
    }
}

/// What the narrow phase found, in candidate order: the pairs near enough, but for the Weak
/// pairs, apart; and the fast pairs' hits. Resolution appends the Weak pairs to `pairs` in the
/// order it takes them.
#[derive(Clone, Default, Debug)]
pub(crate) struct FoundPairs {
    /// Pairs with a contact or a hit, in broad-phase order, but for the Weak pairs.
    pub pairs: Vec<PairContact>,
    /// The Weak pairs (both bodies pushed), until resolution appends them to `pairs`.
    pub weak: WeakPairs,
    /// The pairs that met during the step (fast pairs), with their first touch if after its
    /// start, in narrow-phase order. (Copies: each is also in `pairs` or `weak`.)
    pub hits: Vec<FastHit>,
}

impl FoundPairs {
    /// Removes every pair (keeping the storage).
    pub fn clear(&mut self) {
        self.pairs.clear();
        self.weak.clear();
        self.hits.clear();
    }

    /// Appends `other`'s lists to these (the Weak pairs' keys renumbered).
    pub fn append(&mut self, other: &Self) {
        self.pairs.extend_from_slice(&other.pairs);
        self.weak.append(&other.weak);
        self.hits.extend_from_slice(&other.hits);
    }
}

/// A fast pair that met during the step, and its first touch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastHit {
    pub pair: PairContact,
    pub hit: Hit,
}
