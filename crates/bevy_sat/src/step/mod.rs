//! The physics step, one module per stage of the data flow. Everything between the stages is
//! plain data in [`StepState`].

pub(crate) mod broad;
pub(crate) mod islands;
pub(crate) mod narrow;
pub(crate) mod pair_sort;
pub(crate) mod prepare;
pub(crate) mod report;
pub(crate) mod resolve;
pub(crate) mod seams;
#[cfg(test)]
mod test_crowd;
#[cfg(test)]
mod test_rng;

use bevy::ecs::entity::{EntityHashMap, EntityHashSet};
use bevy::prelude::*;
use prefetch_index::prefetch_index;
use sat_core::{AxisOverlap, Contact, Hit, Shape};

use crate::components::{CollisionLayers, ContactFlags, OneWayPlatform};
use crate::contacts::ContactPair;

/// How a body takes part in resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Never pushed (also colliders with neither marker, or both).
    Mighty,
    /// Pushed out of what it overlaps.
    Weak,
}

/// One collider for the duration of a step: everything the stages need, in one place.
///
/// The passes that walk every body (write-back) read only the fields before `shape`: they are
/// laid out first (`repr(C)`) and the record starts on a cache line, so such a pass touches one
/// line per body instead of the whole record. (The broad phase reads none of it: see
/// [`broad::BroadInput`].)
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct Body {
    /// No data (zero-sized): where the record starts, counted in cache lines, so that
    /// [`Body::prefetch`] can name each line of the record.
    lines: [CacheLine; 0],
    pub entity: Entity,
    /// The entity's translation (x, y): after integration, then as resolution moves it.
    pub position: Vec2,
    pub velocity: Vec2,
    pub layers: CollisionLayers,
    /// The smaller side of the body's AABB: how far it may move before it must be swept.
    pub size: f32,
    pub kind: Kind,
    pub sensor: bool,
    /// A Weak body with [`DropThrough`](crate::DropThrough).
    pub drop_through: bool,
    /// Its [`ContactFlags`] were the default ones at the start of the step (nothing to write
    /// back if they still are).
    pub flags_were_default: bool,
    /// Its one-way sides, if it is a one-way platform.
    pub one_way: Option<OneWayPlatform>,
    /// `position` differs from the entity's translation as read (`start`): write-back writes
    /// it. Kept with the fields above, so that write-back reads one cache line per body.
    pub moved: bool,
    /// `velocity` differs from the entity's [`Velocity`](crate::Velocity) as read.
    pub velocity_changed: bool,
    /// The translation at the start of the step.
    pub start: Vec2,
    /// The rotation `(cos, sin)` of the body.
    pub rotation: Vec2,
    /// What it stood on at the end of the last step (from its [`ContactFlags`]).
    pub support: Option<Entity>,
    /// Bit `i` set: edge `i` of the world polygon is covered by a flush neighbour's edge (an
    /// internal face, never a push axis).
    pub internal: u16,
    /// The bottom of the shape's AABB, kept as the body moves: Weak pairs are ordered by it,
    /// and the narrow phase would otherwise go over every vertex of both shapes of such a pair.
    pub bottom: f32,
    /// The shape placed in the world at `position`.
    pub shape: Shape,
}

/// The unit [`Body::lines`] counts in. Never built: only its size and alignment matter. (Not
/// `Copy`, so that `lines` is always borrowed where it is, never copied somewhere else.)
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct CacheLine([u8; 64]);

impl Body {
    /// A body holding `shape`, every other field to be filled in.
    pub fn new(entity: Entity, shape: Shape) -> Self {
        Self {
            lines: [],
            entity,
            position: Vec2::ZERO,
            velocity: Vec2::ZERO,
            layers: CollisionLayers::default(),
            size: 0.0,
            kind: Kind::Mighty,
            sensor: false,
            drop_through: false,
            flags_were_default: true,
            one_way: None,
            moved: false,
            velocity_changed: false,
            start: Vec2::ZERO,
            rotation: Vec2::X,
            support: None,
            internal: 0,
            bottom: shape.aabb().min.y,
            shape,
        }
    }

    /// Asks the CPU to start loading every cache line of the record, and returns at once: a
    /// hint that changes nothing else. A loop over pairs calls it for the bodies of a pair a
    /// few pairs ahead, so that their records (rarely in cache when there are tens of
    /// thousands) arrive while it works on the current pair, instead of being waited for.
    #[inline(always)]
    pub fn prefetch(&self) {
        for line in 0..size_of::<Body>().div_ceil(size_of::<CacheLine>()) {
            prefetch_index(&self.lines, line);
        }
    }

    /// Asks the CPU to start loading the record's first cache line (the fields before `shape`,
    /// all that write-back reads), and returns at once: a hint, like [`Body::prefetch`].
    #[inline(always)]
    pub fn prefetch_header(&self) {
        prefetch_index(&self.lines, 0);
    }

    /// The displacement integrated from the velocity this step.
    pub fn motion(&self) -> Vec2 {
        self.position - self.start
    }

    /// The body's shape where it was at the start of the step.
    pub fn start_shape(&self) -> Shape {
        let mut shape = self.shape;
        shape.translate(-self.motion());
        shape
    }

    /// Whether the pair is pushed apart at all.
    pub fn resolves_with(&self, other: &Body) -> bool {
        // Without short cuts: one branch, not three that the pairs' mix makes unpredictable.
        !(self.sensor | other.sensor) & ((self.kind == Kind::Weak) | (other.kind == Kind::Weak))
    }

    /// Moves the body (and its world shape) by `offset`. (Resolution also counts the move:
    /// see `resolve::Work::versions`.)
    pub fn shift(&mut self, offset: Vec2) {
        self.position += offset;
        self.shape.translate(offset);
        self.bottom += offset.y;
        self.moved = true;
    }

    /// Whether resolution may push this body: Weak and not a sensor.
    pub fn pushable(&self) -> bool {
        self.kind == Kind::Weak && !self.sensor
    }
}

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
/// pairs need more stays elsewhere: a fast pair's hit in [`StepState::hits`], a Weak pair's
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

    /// The pair as [`Contacts`](crate::Contacts) lists it, if it touches. (After the final
    /// contacts, its contact is the one after resolution.)
    pub fn final_contact(&self) -> Option<ContactPair> {
        Some(ContactPair {
            a: self.entities.0,
            b: self.entities.1,
            contact: self.contact()?,
            resolved: !self.unpushed(),
        })
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

/// Buffers the stages reuse so that a step allocates nothing once warmed up.
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    /// The bodies that stood on something at the end of the last step, in order.
    pub riders: Vec<usize>,
    pub support: Vec<Option<usize>>,
    pub carry: Vec<Option<Vec2>>,
    /// Per narrow-phase task: what it found.
    pub narrow_parts: Vec<narrow::FoundPairs>,
    /// This step's touching pairs, sorted: they become [`StepState::touching`] once compared
    /// with it, whose storage comes back here.
    pub touching: pair_sort::SortedPairs,
    /// The pairs (indices) that start touching this step, in entity-pair order.
    pub starts: Vec<u32>,
    /// The entity pairs of the pairs touching after resolution, in pair order, to be sorted.
    pub pair_keys: Vec<pair_sort::PairKey>,
    pub sort_scratch: pair_sort::SortScratch,
}

/// Entities already warned about, per problem, so each warning is logged once.
#[derive(Default, Debug)]
pub(crate) struct Warnings {
    pub both_kinds: EntityHashSet,
    pub no_kind: EntityHashSet,
    pub non_finite: EntityHashSet,
    pub unplaceable: EntityHashSet,
}

/// The state the step's stages hand to each other, kept from step to step so that its storage
/// is reused.
#[derive(Resource, Default, Debug)]
pub(crate) struct StepState {
    pub bodies: Vec<Body>,
    /// Candidate pairs from the broad phase (indices into `bodies`, in either order).
    pub candidates: Vec<(usize, usize)>,
    /// Narrow-phase results with a contact or a hit, in broad-phase order, but for the Weak
    /// pairs (in `weak_pairs`), which resolution appends in the order it takes them.
    pub pairs: Vec<PairContact>,
    /// The narrow phase's Weak pairs (both bodies pushed), until resolution appends them to
    /// `pairs`.
    pub weak_pairs: WeakPairs,
    /// The pairs that met during the step (fast pairs), with their first touch if after its
    /// start, in narrow-phase order. (Copies: each is also in `pairs` or `weak_pairs`.)
    pub hits: Vec<(PairContact, Hit)>,
    /// Every body's velocity as prepare integrated it (as in its record), for resolution to
    /// read in one small array. Prepare fills it when the last step had a pushable body, else
    /// resolution does, from the records.
    pub velocities: Vec<Vec2>,
    /// Contact flags per body, computed after resolution.
    pub flags: Vec<ContactFlags>,
    /// The touching pairs of the previous step, sorted.
    pub touching: pair_sort::SortedPairs,
    /// Some body may be pushed by resolution this step (Weak and not a sensor). Without one,
    /// resolution has nothing to do.
    pub any_pushable: bool,
    /// Resolution ran on this step's pairs: its state (`work`) tells which bodies moved. (Not
    /// when nothing was pushable, nor when a game turned its system set off.)
    pub resolved: bool,
    /// The longest distance any body moves by its velocity this step. Resolution can push a
    /// Weak body no further than this, so pairs closer than it (plus the contact margin) are the
    /// ones resolution may bring into contact.
    pub reach: f32,
    pub broad: broad::BroadState,
    /// The pairs touching after resolution, sorted by entity pair: their indices in `pairs`
    /// (the order of [`Contacts`](crate::Contacts), of the events, and of ties in the contact
    /// flags). Their records hold their final contacts; [`Contacts`](crate::Contacts) takes
    /// both (swapping its old storage back).
    pub final_order: Vec<u32>,
    /// Per body: touching a one-way platform after this step (within the margin).
    pub on_one_way: Vec<bool>,
    /// Weak bodies squeezed between Mighty bodies this step, as `(body, crusher)` sorted, each
    /// pair once.
    pub crushed: Vec<(Entity, Entity)>,
    /// Scratch storage reused from step to step.
    pub scratch: Scratch,
    /// Resolution's storage, with the per-pair contact cache the final report reuses.
    pub work: resolve::Work,
    pub warnings: Warnings,
    /// Entity → body index, built only when a rider's support is not where last step's
    /// `support_index` says.
    pub index: EntityHashMap<usize>,
    /// Per body, the index of the body it stands on (`u32::MAX`: none), for the next step.
    pub support_index: Vec<u32>,
}
