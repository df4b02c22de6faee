//! Stage 4: resolution.
//!
//! 1. One-way platforms: a pair is *passing* (never resolved) unless the Weak body started the
//!    step on a solid side of the platform, and does not have `DropThrough`.
//! 2. Fast pairs are placed at their time of impact: the approaching part of the motion after
//!    the impact is taken back, the sliding part kept.
//! 3. For a few passes, Weak bodies are pushed out of Mighty ones and Weak pairs are split,
//!    ground first, with support propagated up through stacks ("holds"). A Weak pair whose
//!    bodies are both held against their push is left as it is, as are overlaps within a slop
//!    ([`Rules::new`]). After a pass that moved nothing, the next ones would change nothing
//!    either and are skipped, and each pass after the first visits only the islands the one
//!    before it moved something in (see [`super::islands`]).
//! 4. A last Mighty pass, so that no Weak body ends inside a Mighty one; a push that would
//!    squeeze a body into another Mighty body is not made, and the body is reported crushed.
//! 5. Bodies that stood on a floor and lost it are snapped down onto a floor close below.
//!
//! Pushes out of a Mighty body go along the minimum translation vector, except: a floor-like
//! contact pushes straight up (so bodies stand still on slopes instead of sliding), a one-way
//! platform pushes out through its solid side, and an internal face (shared by flush Mighty
//! neighbours) is never a push axis.

use bevy::prelude::*;
use prefetch_index::prefetch_index;
use sat_core::{
    AsShape, AxisOverlap, Contact, Hit, MeasuredAxes, Shape, collide_within, exit_distance,
    least_overlap_after, measure_axes, sweep,
};

use super::islands::Islands;
use super::narrow::FoundPairsMut;
use super::pair_sort::{ordered_bits, sort_high_bits};
use super::seams::{is_internal_face, open_faces};
use super::{Body, Kind, PairContact, Pushes, Seen, WeakPairs};
use crate::config::SatConfig;

/// How many pairs ahead the passes and the final contacts ask for what a pair will read
/// ([`Work::prefetch`], [`Work::prefetch_moved`]). Measured at 64k bodies: 6 took less time
/// than 4 in each of three profiled pairs of runs (resolution's functions 0.1-0.45 ms less per
/// step); 8 no less than 6.
pub(crate) const PREFETCH_DISTANCE: usize = 6;

/// How many directions a body remembers being held in, per pass.
const MAX_HOLDS: usize = 4;

/// A push along `direction` is blocked by a hold `h` when `h · direction` exceeds this (within
/// 45°).
const HOLD_COS: f32 = core::f32::consts::FRAC_1_SQRT_2;

/// A direction a Weak body cannot be pushed in: into a Mighty body it touches (`by`), or into a
/// body that is itself held that way (support propagated through a stack, `by == None`).
#[derive(Clone, Copy, Debug, Default)]
struct Hold {
    direction: Vec2,
    by: Option<Entity>,
}

/// The holds of every body in one pass. The counts are a small array of their own, so that
/// starting a pass clears a byte per body and a body without holds costs one byte to check.
#[derive(Clone, Debug, Default)]
pub(crate) struct Holds {
    len: Vec<u8>,
    items: Vec<[Hold; MAX_HOLDS]>,
}

impl Work {
    /// Starts a step: every cache entry is out of date, no body has moved yet (they are where
    /// the narrow phase saw them), and pairs whose bodies have not moved use their narrow-phase
    /// contact.
    /// `velocities`: every body's, as prepare integrated it.
    fn start_step(&mut self, velocities: &[Vec2], pairs: usize, rules: &Rules) {
        self.step = self.step.wrapping_add(1);
        self.margin = rules.margin;
        self.slop = rules.slop;
        if self.cache.len() < pairs {
            self.cache.resize(pairs, Measured::default());
        }
        self.versions.clear();
        self.versions.resize(velocities.len(), 0);
        self.moved.clear();
        self.moved.extend(velocities.iter().map(|&velocity| Moved {
            velocity,
            ..Moved::default()
        }));
        self.axes.clear();
    }

    /// Moves body `i` by `offset`, and counts the move. The body record itself is moved by
    /// [`Work::apply_moves`]: until then, its shape is where it was plus its `pending` move.
    /// No offset is no move: the body's contacts stay as they were found.
    fn shift(&mut self, i: usize, offset: Vec2) {
        if offset == Vec2::ZERO {
            return;
        }
        self.versions[i] = self.versions[i].wrapping_add(1);
        let moved = &mut self.moved[i];
        moved.offset += offset;
        moved.pending += offset;
        self.moves = self.moves.wrapping_add(1);
    }

    /// Removes the part of body `i`'s velocity that points along `into` (a unit vector);
    /// [`Work::apply_moves`] writes it to the record.
    fn stop_along(&mut self, i: usize, into: Vec2) {
        let moved = &mut self.moved[i];
        let along = moved.velocity.dot(into);
        if along > 0.0 {
            moved.velocity -= into * along;
            moved.velocity_changed = true;
        }
    }

    /// Moves the body records (their positions and shapes) by the moves made since the last
    /// call, once per body however many pushes it took, and writes the velocities changed.
    fn apply_moves(&mut self, bodies: &mut [Body]) {
        for (body, moved) in bodies.iter_mut().zip(&mut self.moved) {
            moved.apply(body);
        }
    }

    /// The shape of body `i` where resolution has moved it (a copy, when it has moved since the
    /// last [`Work::apply_moves`]).
    fn shape_now(&self, bodies: &[Body], i: usize) -> Shape {
        let mut shape = bodies[i].shape;
        let pending = self.moved[i].pending;
        if pending != Vec2::ZERO {
            shape.translate(pending);
        }
        shape
    }

    /// The bottom of body `i`'s bounding box where resolution has moved it.
    fn bottom(&self, bodies: &[Body], i: usize) -> f32 {
        bodies[i].bottom + self.moved[i].pending.y
    }

    /// Asks for what a pass's visit of pair `k` of `pairs` (if there is one) will read, before
    /// the loop gets to it: the per-body state of both bodies, and the records it will read.
    /// A pair whose bodies have not moved answers from its narrow-phase contact, and needs no
    /// record but the Mighty body's, which a push reads. A pair whose bodies have moved needs
    /// both records to be measured (once per step), else only the Mighty body's. A hint (see
    /// [`Body::prefetch`]): the passes walk the pairs in an order unrelated to the bodies', so
    /// each of these would otherwise be a wait for memory.
    #[inline(always)]
    pub(crate) fn prefetch(&self, bodies: &[Body], pairs: &[PairContact], k: usize) {
        let Some(pair) = pairs.get(k) else {
            return;
        };
        let (a, b) = pair.bodies();
        for i in [a, b] {
            prefetch_index(&self.moved, i);
            prefetch_index(&self.holds.len, i);
            prefetch_index(&self.holds.items, i);
        }
        let measured = self.cache.get(k).is_some_and(|c| c.step == self.step);
        let unmoved = self.unmoved(pair);
        // Unmoved, touching within the slop and not a one-way platform: the push reads no
        // record (see `mighty_push`).
        let reads_mighty =
            !unmoved || pair.one_way || pair.contact().is_some_and(|c| c.depth > self.slop);
        let records: &[usize] = match pair.pushes {
            _ if !unmoved && !measured => &[a, b],
            Pushes::AOutOfB if reads_mighty => &[b],
            Pushes::BOutOfA if reads_mighty => &[a],
            _ => &[],
        };
        for &i in records {
            bodies[i].prefetch();
        }
    }

    /// Asks for the move counts of the bodies of pair `k` (if any), which [`Work::prefetch`]
    /// reads a [`PREFETCH_DISTANCE`] of pairs later to choose what else to ask for.
    #[inline(always)]
    pub(crate) fn prefetch_versions(&self, pairs: &[PairContact], k: Option<&u32>) {
        if let Some(pair) = k.and_then(|&k| pairs.get(k as usize)) {
            let (a, b) = pair.bodies();
            prefetch_index(&self.versions, a);
            prefetch_index(&self.versions, b);
        }
    }

    /// Asks for what finding the final contact of pair `k` of `pairs` (if there is one) will
    /// read when its bodies have moved: their state, its cache entry and both records (its
    /// contact points are clipped again). Most pairs' bodies have not moved, and answer from
    /// the pair's own record with nothing else to read (the move counts, a small array, are
    /// read to tell).
    #[inline(always)]
    pub(crate) fn prefetch_moved(&self, bodies: &[Body], pairs: &[PairContact], k: usize) {
        let Some(pair) = pairs.get(k).filter(|p| p.may_move && !self.unmoved(p)) else {
            return;
        };
        prefetch_index(&self.cache, k);
        let (a, b) = pair.bodies();
        for i in [a, b] {
            prefetch_index(&self.moved, i);
            bodies[i].prefetch();
        }
    }

    /// Whether pair `pair`'s narrow-phase contact is still its contact (within `margin`):
    /// neither body has moved since, as [`Work::contact`] would find.
    pub(crate) fn keeps_narrow_contact(&self, pair: &PairContact, margin: f32) -> bool {
        self.unmoved(pair) && margin == self.margin
    }

    /// Whether resolution has moved neither body of `pair` this step.
    fn unmoved(&self, pair: &PairContact) -> bool {
        let (a, b) = pair.bodies();
        self.versions[a] == 0 && self.versions[b] == 0
    }

    /// The overlap of pair `k` (from `a` to `b`, within `margin`) where its bodies are now (see
    /// [`Work::find`]): its normal and depth, all the passes need.
    fn overlap(
        &mut self,
        k: usize,
        bodies: &[Body],
        pair: &PairContact,
        margin: f32,
    ) -> Option<Overlap> {
        Some(match self.find(k, bodies, pair, margin)? {
            Found::Contact(c) => Overlap::of(c),
            Found::Axis(o) => Overlap {
                normal: o.normal,
                depth: o.depth,
            },
        })
    }

    /// The full contact of pair `k` (from `a` to `b`, within `margin`) where its bodies are
    /// now, contact points included (see [`Work::find`]).
    pub(crate) fn contact(
        &mut self,
        k: usize,
        bodies: &[Body],
        pair: &PairContact,
        margin: f32,
    ) -> Option<Contact> {
        let (a, b) = pair.bodies();
        match self.find(k, bodies, pair, margin)? {
            Found::Contact(c) => Some(c),
            Found::Axis(o) => match (&bodies[a].shape, &bodies[b].shape) {
                (Shape::Polygon(a), Shape::Polygon(b)) => Some(o.contact(a, b)),
                _ => None, // only polygon pairs are measured
            },
        }
    }

    /// Where pair `k` (from `a` to `b`, within `margin`) overlaps now: the narrow-phase contact
    /// while neither body moved; nothing while the axis the narrow phase found between them
    /// ([`Seen::Apart`]) still separates them; else from the pair's measured axes (see
    /// [`Work::axes`]), else (a circle involved) computed again.
    fn find(
        &mut self,
        k: usize,
        bodies: &[Body],
        pair: &PairContact,
        margin: f32,
    ) -> Option<Found> {
        // The versions first: a small array, where the bodies are large records read only when
        // the pair must be measured.
        if self.keeps_narrow_contact(pair, margin) {
            return pair
                .contact()
                .filter(|c| c.depth >= -margin)
                .map(Found::Contact);
        }
        let (a, b) = pair.bodies();
        if let Seen::Apart(gap) = pair.seen {
            // Most pairs only near at the start stay apart: no need to measure them.
            let relative = self.moved[b].offset - self.moved[a].offset;
            if gap.separates_after(relative, margin) {
                return None;
            }
        }
        match self.measured(k, bodies, pair) {
            Some((axes, offset)) => least_overlap_after(axes, offset, margin).map(Found::Axis),
            None => {
                let versions = (self.versions[a], self.versions[b]);
                self.recomputed(k, bodies, pair, versions, margin)
                    .map(Found::Contact)
            }
        }
    }

    /// For a pair of polygons: its axes, measured the first time this step it is asked for,
    /// and how far `b` has moved relative to `a` since. `None` for other shapes.
    fn measured(
        &mut self,
        k: usize,
        bodies: &[Body],
        pair: &PairContact,
    ) -> Option<(&[MeasuredAxes], Vec2)> {
        let cached = &mut self.cache[k];
        let (i, j) = pair.bodies();
        let (a, b) = (&self.moved[i], &self.moved[j]);
        let relative = b.offset - a.offset;
        let unapplied = b.pending - a.pending;
        if cached.step != self.step {
            // Reset for this step: measured now, if polygons.
            *cached = Measured {
                step: self.step,
                ..Measured::default()
            };
            if let (Shape::Polygon(a), Shape::Polygon(b)) = (&bodies[i].shape, &bodies[j].shape) {
                cached.first_group = self.axes.len() as u32;
                cached.group_count = measure_axes(a, b, &mut self.axes) as u8;
                // The records are where they were plus their pending moves.
                cached.measured_at = relative - unapplied;
            }
        }
        if cached.group_count == 0 {
            return None;
        }
        let first = cached.first_group as usize;
        let axes = &self.axes[first..first + usize::from(cached.group_count)];
        Some((axes, relative - cached.measured_at))
    }

    /// The contact of a pair with a circle, computed again unless neither body moved since it
    /// last was this step.
    fn recomputed(
        &mut self,
        k: usize,
        bodies: &[Body],
        pair: &PairContact,
        versions: (u32, u32),
        margin: f32,
    ) -> Option<Contact> {
        if self.recomputed.len() <= k {
            self.recomputed.resize(k + 1, Recomputed::default());
        }
        let entry = &self.recomputed[k];
        if entry.step != self.step || entry.versions != versions || margin != self.margin {
            let (i, j) = pair.bodies();
            let (a, b) = (self.shape_now(bodies, i), self.shape_now(bodies, j));
            self.recomputed[k] = Recomputed {
                step: self.step,
                versions,
                contact: collide_within(&a, &b, margin),
            };
        }
        self.recomputed[k].contact
    }
}

/// What [`Work::find`] knows of a pair: a full contact, or the axis of least overlap (the
/// contact points still to be clipped).
#[derive(Clone, Copy, Debug)]
enum Found {
    Contact(Contact),
    Axis(AxisOverlap),
}

/// Where two bodies overlap: the normal (from `a` to `b`) and the depth of a contact, which is
/// all the passes need.
#[derive(Clone, Copy, Debug)]
struct Overlap {
    normal: Vec2,
    depth: f32,
}

impl Overlap {
    fn of(contact: Contact) -> Self {
        Self {
            normal: contact.normal,
            depth: contact.depth,
        }
    }

    fn flipped(self) -> Self {
        Self {
            normal: -self.normal,
            ..self
        }
    }
}

impl Holds {
    /// No body holds anything (for `bodies` bodies).
    fn clear(&mut self, bodies: usize) {
        self.len.clear();
        self.len.resize(bodies, 0);
        if self.items.len() < bodies {
            self.items.resize(bodies, [Hold::default(); MAX_HOLDS]);
        }
    }

    fn add(&mut self, body: usize, direction: Vec2, by: Option<Entity>) {
        let len = &mut self.len[body];
        if usize::from(*len) < MAX_HOLDS {
            self.items[body][usize::from(*len)] = Hold { direction, by };
            *len += 1;
        }
    }

    fn holding(&self, body: usize) -> &[Hold] {
        &self.items[body][..usize::from(self.len[body])]
    }

    fn blocks(&self, body: usize, push: Vec2) -> bool {
        self.len[body] > 0
            && self
                .holding(body)
                .iter()
                .any(|h| h.direction.dot(push) > HOLD_COS)
    }

    /// A Mighty body other than `except` that holds `body` against `push`.
    fn blocker(&self, body: usize, push: Vec2, except: Entity) -> Option<Entity> {
        self.holding(body)
            .iter()
            .filter(|h| h.direction.dot(push) > HOLD_COS)
            .find_map(|h| h.by.filter(|by| *by != except))
    }
}

/// Where a polygon pair's measured axes are, in step `step`. Small, because every pass reads
/// one per pair.
#[derive(Clone, Copy, Debug, Default)]
struct Measured {
    step: u32,
    /// Where the pair's axes are in [`Work::axes`], and in how many groups of four (0: not two
    /// polygons).
    first_group: u32,
    group_count: u8,
    /// How far `b` had moved relative to `a` when they were measured.
    measured_at: Vec2,
}

/// The last contact computed for a pair with a circle, in step `step`, and the versions of its
/// bodies then (from `a` to `b`). Apart from [`Measured`]: most scenes have no circles, and
/// the passes need not stream these.
#[derive(Clone, Copy, Debug, Default)]
struct Recomputed {
    step: u32,
    versions: (u32, u32),
    contact: Option<Contact>,
}

/// What resolution has done to one body this step. The passes read and write these instead of
/// the large body records, and [`Work::apply_moves`] updates the records at the end.
#[derive(Clone, Copy, Debug, Default)]
struct Moved {
    /// How far resolution has moved the body.
    offset: Vec2,
    /// The part of `offset` not yet applied to the body's record.
    pending: Vec2,
    /// Its velocity: the record's at the start of the step, then stopped along what it was
    /// pushed out of.
    velocity: Vec2,
    /// `velocity` is not yet written to the body's record.
    velocity_changed: bool,
}

impl Moved {
    /// Writes the pending move and the changed velocity to the body's record.
    fn apply(&mut self, body: &mut Body) {
        if self.pending != Vec2::ZERO {
            body.shift(self.pending);
            self.pending = Vec2::ZERO;
        }
        if self.velocity_changed {
            body.velocity = self.velocity;
            body.velocity_changed = true;
            self.velocity_changed = false;
        }
    }
}

/// Reused storage for resolution.
#[derive(Default, Debug)]
pub(crate) struct Work {
    /// Per pair (same index as the step's pairs, in the order [`order_pairs`] gives them), where
    /// its measured axes are this step.
    cache: Vec<Measured>,
    /// Per pair with a circle (same index), its contact as last computed this step.
    recomputed: Vec<Recomputed>,
    /// The axes of the polygon pairs whose bodies moved, measured once per step: while bodies
    /// only translate, a pair's least overlap follows from them and the bodies' offsets, in a
    /// dot product per axis instead of projecting every vertex again.
    axes: Vec<MeasuredAxes>,
    /// Counts steps, so that cache entries of earlier steps are never taken for current ones.
    step: u32,
    margin: f32,
    /// [`Rules::slop`]: the prefetch tells by it which pushes will read the Mighty body.
    slop: f32,
    /// Per body, how many times resolution has moved it this step: a contact computed at the
    /// same versions of both bodies is still exact, and at versions 0 it is the narrow phase's.
    /// (Apart from [`Moved`]: the passes check it for every pair, and it is small.)
    versions: Vec<u32>,
    /// Per body, what resolution has done to it this step.
    moved: Vec<Moved>,
    /// Counts every move resolution makes (never reset): a pass that leaves it unchanged moved
    /// nothing.
    moves: u64,
    /// For sorting the Weak pairs' keys ([`order_pairs`]).
    sort_scratch: Vec<u64>,
    /// The keys of the Weak pairs no pass visits ([`order_pairs`]).
    idle_keys: Vec<u64>,
    /// The Mighty–Weak pairs (their indices, in order): the pairs the Mighty passes visit.
    mighty_weak: Vec<u32>,
    holds: Holds,
    /// Per Mighty–Weak pair, its push as the Mighty pass's first loop found it.
    pushes: Vec<Pushed>,
    rewinds: Vec<(usize, f32, Vec2, Vec2)>,
    snaps: Vec<Option<f32>>,
    /// Which pairs each pass visits.
    pub(super) islands: Islands,
    /// The pushes out of Mighty bodies refused this step, in every pass.
    blocked: Vec<Blocked>,
    /// The Mighty–Weak pairs and the Weak pairs the pass under way visits, in order.
    visited_mighty: Vec<u32>,
    visited_weak: Vec<u32>,
}

/// The settings resolution needs, derived once per step.
#[derive(Clone, Copy, Debug)]
struct Rules {
    /// Cosine of the steepest floor.
    floor_cos: f32,
    margin: f32,
    /// Overlaps up to this deep are left as they are (see [`Rules::new`]).
    slop: f32,
    snap: f32,
    passes: u32,
}

impl Rules {
    /// The slop is a tenth of the contact margin. A pair pushed apart ends up touching, but
    /// measured again its depth is round-off, a little above or below zero: pushing that would
    /// move bodies by nothing visible, pass after pass, and keep the whole crowd around them
    /// in play (see [`super::islands`]). Such a pair still touches (and holds) as one within
    /// the margin does.
    fn new(config: &SatConfig) -> Self {
        let margin = config.contact_margin.max(0.0);
        Self {
            floor_cos: config
                .max_floor_angle
                .clamp(0.0, core::f32::consts::FRAC_PI_2)
                .cos(),
            margin,
            slop: margin * 0.1,
            snap: config.floor_snap_distance.max(0.0),
            passes: config.passes.max(1),
        }
    }

    fn is_floor(&self, out: Vec2) -> bool {
        out.y >= self.floor_cos
    }
}

/// The push of Mighty body `mighty` on Weak body `weak`, found when `weak` was at `version`.
#[derive(Clone, Copy, Debug)]
struct Pushed {
    weak: usize,
    version: u32,
    mighty: Entity,
    push: Option<Push>,
}

/// A push of Mighty body `mighty` on Weak body `body` (Mighty–Weak pair `pair`) that pass
/// `pass` refused, since it would have driven the body into Mighty body `other`: the body is
/// crushed between them, if the pass is the last visit of its island.
#[derive(Clone, Copy, Debug)]
struct Blocked {
    pass: u32,
    pair: u32,
    body: Entity,
    mighty: Entity,
    other: Entity,
}

/// What a Mighty body does to a Weak one it touches.
#[derive(Clone, Copy, Debug)]
struct Push {
    /// Move the Weak body by this.
    offset: Vec2,
    /// The direction into the Mighty body: the Weak body cannot be pushed that way any more,
    /// and loses its velocity along it.
    into: Vec2,
}

// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn resolve_contacts(config: Res<SatConfig>, mut state: ResMut<super::StepState>) {
    let state = &mut *state;
    if !state.any_pushable {
        // Nothing can be pushed (no Weak body, or only sensors): no pair is resolved, and
        // nothing reads resolution's state this step (the final contacts ask it only for pairs
        // with a pushable body). Its storage, as large as the scene, is left as it is.
        state.crushed.clear();
        return;
    }
    if state.velocities.len() != state.bodies.len() {
        // Prepare kept no copy (nothing was pushable last step).
        state.velocities.clear();
        state
            .velocities
            .extend(state.bodies.iter().map(|b| b.velocity));
    }
    resolve(
        &config,
        &mut state.bodies,
        &state.velocities,
        (&mut state.pairs, &mut state.weak_pairs, &mut state.hits),
        &mut state.work,
        &mut state.crushed,
    );
    state.resolved = true;
}

/// Runs the whole resolution on plain data: the bodies as the narrow phase saw them (and their
/// velocities, the same as in their records, in one array), and what it found (see
/// [`FoundPairs`](super::narrow::FoundPairs)): its pairs, whose one-way pairs it has marked
/// passing or not, its Weak pairs, which resolution appends to the others, and its hits.
pub(crate) fn resolve(
    config: &SatConfig,
    bodies: &mut [Body],
    velocities: &[Vec2],
    (pairs, weak, hits): FoundPairsMut,
    work: &mut Work,
    crushed: &mut Vec<(Entity, Entity)>,
) {
    let rules = Rules::new(config);
    crushed.clear();
    debug_assert_eq!(bodies.len(), velocities.len());
    work.start_step(velocities, pairs.len() + weak.len(), &rules);
    let moves_at_start = work.moves;
    work.rewinds.clear();
    if !hits.is_empty() {
        place_at_time_of_impact(bodies, hits, work, &rules);
    }

    // The first pass can move something only through a pair overlapping deeper than the slop
    // as the narrow phase saw it, or one with a body placed at a time of impact.
    let versions = &work.versions;
    let may_push = |pair: &PairContact| {
        let (a, b) = pair.bodies();
        let moved = !work.rewinds.is_empty() && (versions[a] != 0 || versions[b] != 0);
        moved || pair.contact().is_some_and(|c| c.depth > rules.slop)
    };
    work.islands
        .join(bodies.len(), &weak.records, pairs, may_push);
    // (The Weak pairs of live islands: no pass visits the others.)
    let weak_weak = order_pairs(bodies, pairs, weak, work);
    work.islands.index_pairs(pairs, &mut work.mighty_weak);
    if work.mighty_weak.is_empty() && weak_weak.is_empty() {
        if work.moves != moves_at_start {
            work.apply_moves(bodies); // placed at a time of impact
        }
        return; // nothing to push (sensors only, or nothing touching)
    }
    work.blocked.clear();
    let mut last_pass = 0;
    for pass in 1..=rules.passes {
        last_pass = pass;
        let moves = work.moves;
        work.holds.clear(bodies.len());
        work.islands.start_pass(pass);
        mighty_pass(bodies, pairs, work, &rules);
        let mut visited = std::mem::take(&mut work.visited_weak);
        let every = weak_weak.clone().map(|k| k as u32);
        work.islands.visited(every, &mut visited);
        for (i, &k) in visited.iter().enumerate() {
            let k = k as usize;
            work.prefetch_versions(pairs, visited.get(i + 2 * PREFETCH_DISTANCE));
            if let Some(&ahead) = visited.get(i + PREFETCH_DISTANCE) {
                work.prefetch(bodies, pairs, ahead as usize);
            }
            let before = work.moves;
            let overlap = work.overlap(k, bodies, &pairs[k], rules.margin);
            split_weak_pair(&pairs[k], overlap, work, &rules);
            if work.moves != before {
                work.islands.moved(k);
            }
        }
        work.visited_weak = visited;
        if work.moves == moves {
            // Settled: with nothing moved, every contact and hold of the next pass would be
            // the same, and so would its (lack of) pushes.
            break;
        }
    }
    // Last word to the Mighty bodies: whatever Weak bodies did to each other, none ends inside
    // a Mighty one (unless it is crushed between two). The islands where the last pass moved
    // something; in the others, the Mighty pass of their last visit moved nothing, and this one
    // would do the same. Snapping asks every body's holds: then every pair.
    work.islands
        .start_pass(if rules.snap > 0.0 { 0 } else { last_pass + 1 });
    work.holds.clear(bodies.len());
    mighty_pass(bodies, pairs, work, &rules);
    // The crushed bodies: those the last visit of their island found held against a push.
    let islands = &work.islands;
    crushed.extend(
        work.blocked
            .iter()
            .filter(|b| b.pass == islands.last_visit(b.pair as usize))
            .flat_map(|b| [(b.body, b.mighty), (b.body, b.other)]),
    );
    crushed.sort_unstable();
    crushed.dedup();
    // Snapping sweeps the shapes where the passes left them.
    work.apply_moves(bodies);
    snap_to_floor(bodies, pairs, work, &rules);
}

/// Appends the Weak pairs (`weak`, emptied) to `pairs` in the order the passes take them,
/// ground first: the pair whose lower body is lowest comes first, so support climbs a stack in
/// one pass; ties keep the narrow phase's order. The passes then read the pairs and their cache
/// entries in order. Only the pairs of live islands ([`Islands::is_live`]) are ordered: the
/// others, which no pass visits, follow them in the narrow phase's order. Returns where the
/// Weak pairs the passes visit are (the live ones).
fn order_pairs(
    bodies: &[Body],
    pairs: &mut Vec<PairContact>,
    weak: &mut WeakPairs,
    work: &mut Work,
) -> core::ops::Range<usize> {
    let first = pairs.len();
    if weak.is_empty() {
        return first..first;
    }
    // The keys of pairs no pass visits are set aside, in their order (by index).
    let (islands, idle) = (&work.islands, &mut work.idle_keys);
    idle.clear();
    weak.keys.retain(|&key| {
        let live = islands.is_live(&weak.records[key as u32 as usize]);
        if !live {
            idle.push(key);
        }
        live
    });
    if !work.rewinds.is_empty() {
        // Bodies placed at a time of impact: their bottoms are no longer the narrow phase's.
        let rewound = |i: usize| work.versions[i] != 0;
        for key in &mut weak.keys {
            let (a, b) = weak.records[*key as u32 as usize].bodies();
            if rewound(a) || rewound(b) {
                let bottom = work.bottom(bodies, a).min(work.bottom(bodies, b));
                *key = u64::from(ordered_bits(bottom)) << 32 | u64::from(*key as u32);
            }
        }
    }
    // The indices (low half) come in order: the bottoms alone need sorting.
    sort_high_bits(&mut weak.keys, &mut work.sort_scratch, 32);
    // The records are gathered from anywhere in `weak`: each is asked for a dozen ahead.
    let (keys, records) = (&weak.keys, &weak.records);
    pairs.extend(keys.iter().enumerate().map(|(j, &key)| {
        if let Some(&ahead) = keys.get(j + 2 * PREFETCH_DISTANCE) {
            prefetch_index(records, ahead as u32 as usize);
        }
        records[key as u32 as usize]
    }));
    let live = first..pairs.len();
    pairs.extend(
        work.idle_keys
            .iter()
            .map(|&key| records[key as u32 as usize]),
    );
    weak.clear();
    live
}

/// The outward direction (world) of a solid side of one-way platform `m` on which `w` was at
/// the start of the step, if any.
fn solid_side_at_start(w: &Body, m: &Body, margin: f32) -> Option<Vec2> {
    let one_way = m.one_way?;
    let (w_start, m_start) = (w.start_shape(), m.start_shape());
    one_way.solid_directions().find_map(|local| {
        let side = m.rotation.rotate(local);
        let (w_min, _) = w_start.as_shape().project(side);
        let (_, m_max) = m_start.as_shape().project(side);
        (w_min >= m_max - margin).then_some(side)
    })
}

/// Whether a pair is a Weak body passing through a one-way platform (at the start of the step:
/// the narrow phase asks).
pub(crate) fn is_passing(a: &Body, b: &Body, margin: f32) -> bool {
    let (w, m) = match (a.kind, b.kind) {
        (Kind::Weak, Kind::Mighty) => (a, b),
        (Kind::Mighty, Kind::Weak) => (b, a),
        _ => return false,
    };
    m.one_way.is_some() && (w.drop_through || solid_side_at_start(w, m, margin).is_none())
}

/// Fast pairs: each Weak body takes back the part of its motion after the impact that went
/// into the other body (the earliest impact if it has several), and keeps sliding. The
/// rewinds start cleared ([`resolve`] clears them, whether or not a pair has a hit).
fn place_at_time_of_impact(
    bodies: &mut [Body],
    hits: &[(PairContact, Hit)],
    work: &mut Work,
    rules: &Rules,
) {
    let rewinds = &mut work.rewinds;
    for &(p, hit) in hits {
        if p.unpushed() {
            continue;
        }
        let (i, j) = p.bodies();
        let (a, b) = (&bodies[i], &bodies[j]);
        let late = 1.0 - hit.toi;
        let n = hit.normal; // from a to b
        let relative = a.motion() - b.motion();
        match (a.kind, b.kind) {
            (Kind::Weak, Kind::Mighty) => {
                if one_way_allows(a, b, n, rules) {
                    rewinds.push((i, hit.toi, n * (relative.dot(n) * late), n));
                }
            }
            (Kind::Mighty, Kind::Weak) => {
                if one_way_allows(b, a, -n, rules) {
                    rewinds.push((j, hit.toi, -n * (relative.dot(n) * late), -n));
                }
            }
            _ => {
                let approach_a = a.motion().dot(n).max(0.0);
                let approach_b = (-b.motion().dot(n)).max(0.0);
                rewinds.push((i, hit.toi, n * (approach_a * late), n));
                rewinds.push((j, hit.toi, -n * (approach_b * late), -n));
            }
        }
    }
    // Earliest hit per body; equal times keep the pair order.
    rewinds.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
    let mut last = usize::MAX;
    for k in 0..work.rewinds.len() {
        let (body, _, rewind, into) = work.rewinds[k];
        if body == last {
            continue;
        }
        last = body;
        work.shift(body, -rewind);
        work.stop_along(body, into);
    }
}

/// Whether a hit of `w` into Mighty `m` along `into` counts: always, unless `m` is a one-way
/// platform and the hit is not through a solid side `w` started on.
fn one_way_allows(w: &Body, m: &Body, into: Vec2, rules: &Rules) -> bool {
    m.one_way.is_none()
        || solid_side_at_start(w, m, rules.margin).is_some_and(|side| -side.dot(into) > HOLD_COS)
}

/// The push of Mighty `m` on Weak `w` where they touch (`contact`, from `w` to `m`);
/// `w_shape` gives `w`'s shape where resolution has moved it (needed only for some pushes).
/// `one_way`: whether `m` is a one-way platform (as the pair knows). A push of a body touching
/// within the slop reads neither body record.
fn mighty_push(
    w: &Body,
    w_shape: impl Fn() -> Shape,
    m: &Body,
    one_way: bool,
    contact: Overlap,
    rules: &Rules,
) -> Option<Push> {
    if one_way {
        let side = solid_side_at_start(w, m, rules.margin)?;
        let lift = if contact.depth > rules.slop {
            exit_distance(&w_shape(), &m.shape, side).unwrap_or(0.0)
        } else {
            0.0
        };
        return Some(Push {
            offset: side * lift,
            into: -side,
        });
    }
    let n = contact.normal; // from w into m
    if contact.depth <= rules.slop {
        return Some(Push {
            offset: Vec2::ZERO,
            into: n,
        });
    }
    let (mut out, mut distance) = (-n, contact.depth);
    if is_internal_face(m, -n) {
        // The shortest way out is through a face a flush neighbour covers: take the shortest
        // way through an open face instead.
        let w_shape = w_shape();
        if let Some((face, d)) = open_faces(m)
            .filter_map(|f| exit_distance(&w_shape, &m.shape, f).map(|d| (f, d)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
        {
            (out, distance) = (face, d);
        }
    }
    if rules.is_floor(out) && out != Vec2::Y {
        // Stand on slopes: out of a floor straight up, so gravity does not slide the body down.
        if let Some(up) = exit_distance(&w_shape(), &m.shape, Vec2::Y)
            .filter(|up| *up <= 2.0 * distance / rules.floor_cos.max(0.1) + rules.margin)
        {
            (out, distance) = (Vec2::Y, up);
        }
    }
    Some(Push {
        offset: out * distance,
        into: -out,
    })
}

/// The Weak body of pair `k` (its index), the Mighty one (its entity), and the push of the
/// one on the other.
fn mighty_weak_push(
    bodies: &[Body],
    pairs: &[PairContact],
    k: usize,
    work: &mut Work,
    rules: &Rules,
) -> (usize, Entity, Option<Push>) {
    let pair = &pairs[k];
    let weak_is_a = pair.pushes == Pushes::AOutOfB;
    let (a, b) = pair.bodies();
    let (w, m) = if weak_is_a { (a, b) } else { (b, a) };
    let contact = work
        .overlap(k, bodies, pair, rules.margin)
        .map(|c| if weak_is_a { c } else { c.flipped() });
    let w_shape = || work.shape_now(bodies, w);
    let (one_way, entities) = (pair.one_way, pair.entities);
    let push =
        contact.and_then(|c| mighty_push(&bodies[w], w_shape, &bodies[m], one_way, c, rules));
    let mighty = if weak_is_a { entities.1 } else { entities.0 };
    (w, mighty, push)
}

/// Pushes Weak bodies out of Mighty ones. All holds are taken first, so that a push that would
/// drive a body into another Mighty body it touches is refused whatever the pair order; such
/// pushes are recorded in [`Work::blocked`]. Visits the Mighty–Weak pairs of `pairs` (listed
/// in [`Work::mighty_weak`]) that the pass under way visits.
fn mighty_pass(bodies: &mut [Body], pairs: &[PairContact], work: &mut Work, rules: &Rules) {
    work.pushes.clear();
    let mut visited = std::mem::take(&mut work.visited_mighty);
    let every = work.mighty_weak.iter().copied();
    work.islands.visited(every, &mut visited);
    for (i, &k) in visited.iter().enumerate() {
        let k = k as usize;
        work.prefetch_versions(pairs, visited.get(i + 2 * PREFETCH_DISTANCE));
        if let Some(&ahead) = visited.get(i + PREFETCH_DISTANCE) {
            work.prefetch(bodies, pairs, ahead as usize);
        }
        let (w, mighty, push) = mighty_weak_push(bodies, pairs, k, work, rules);
        if let Some(push) = push {
            work.holds.add(w, push.into, Some(mighty));
        }
        work.pushes.push(Pushed {
            weak: w,
            version: work.versions[w],
            mighty,
            push,
        });
    }
    for (i, &k) in visited.iter().enumerate() {
        let k = k as usize;
        // The push found above, unless an earlier push of this loop moved the Weak body.
        let Pushed {
            weak: w,
            version,
            mighty,
            push,
        } = work.pushes[i];
        let push = if version == work.versions[w] {
            push
        } else {
            mighty_weak_push(bodies, pairs, k, work, rules).2
        };
        let Some(push) = push else {
            continue;
        };
        let Some(direction) = push.offset.try_normalize() else {
            continue;
        };
        if let Some(other) = work.holds.blocker(w, direction, mighty) {
            work.blocked.push(Blocked {
                pass: work.islands.pass(),
                pair: k as u32,
                body: bodies[w].entity,
                mighty,
                other,
            });
            continue;
        }
        work.shift(w, push.offset);
        work.stop_along(w, push.into);
        work.islands.moved(k);
    }
    work.visited_mighty = visited;
}

fn split_weak_pair(pair: &PairContact, contact: Option<Overlap>, work: &mut Work, rules: &Rules) {
    let Some(contact) = contact else {
        return;
    };
    let n = contact.normal; // from a to b: a is pushed along -n, b along +n
    let (a, b) = pair.bodies();
    let holds = &mut work.holds;
    let a_held = holds.blocks(a, -n);
    let b_held = holds.blocks(b, n);
    if contact.depth > rules.slop {
        if a_held && b_held {
            // Each would be pushed into what holds it, then pushed back by it: a body squeezed
            // between two held ones would swing from one to the other in every pass. Neither
            // moves; they only stop moving into each other.
            work.stop_along(a, n);
            work.stop_along(b, -n);
            return;
        }
        let share_a = match (a_held, b_held) {
            (true, _) => 0.0,
            (false, true) => 1.0,
            (false, false) => 0.5,
        };
        work.shift(a, -n * contact.depth * share_a);
        work.shift(b, n * contact.depth * (1.0 - share_a));
        work.stop_along(a, n);
        work.stop_along(b, -n);
    }
    let holds = &mut work.holds;
    if a_held && !b_held {
        holds.add(b, -n, None);
    } else if b_held && !a_held {
        holds.add(a, n, None);
    }
}

/// Bodies that stood on a floor last step, are not moving up, and touch no floor now are moved
/// down onto the nearest floor within the snap distance.
fn snap_to_floor(bodies: &mut [Body], pairs: &[PairContact], work: &mut Work, rules: &Rules) {
    if rules.snap <= 0.0 {
        return;
    }
    let holds = &work.holds;
    let eligible = |i: usize, b: &Body| {
        b.kind == Kind::Weak
            && !b.sensor
            && !b.drop_through
            && b.support.is_some()
            && b.velocity.y <= 0.0
            && !holds
                .holding(i)
                .iter()
                .any(|h| rules.is_floor(-h.direction))
    };
    work.snaps.clear();
    work.snaps.resize(bodies.len(), None);
    let drop = Vec2::NEG_Y * rules.snap;
    for p in pairs {
        // The pair says it (`Pushes::Never` is a pair the bodies do not resolve), without
        // reading both records.
        if p.unpushed() {
            continue;
        }
        let (a, b) = p.bodies();
        for (w, o) in [(a, b), (b, a)] {
            let (body, other) = (&bodies[w], &bodies[o]);
            if !eligible(w, body) || (other.one_way.is_some() && !above_top(body, other, rules)) {
                continue;
            }
            let Some(hit) = sweep(&body.shape, &other.shape, drop) else {
                continue;
            };
            if hit.toi > 0.0 && rules.is_floor(-hit.normal) {
                let best = &mut work.snaps[w];
                *best = Some(best.map_or(hit.toi, |t| t.min(hit.toi)));
            }
        }
    }
    for (i, body) in bodies.iter_mut().enumerate() {
        if let Some(toi) = work.snaps[i] {
            work.shift(i, drop * toi);
            work.stop_along(i, Vec2::NEG_Y);
            work.moved[i].apply(body); // the passes are over: no need to wait
        }
    }
}

/// Whether `w` is above a one-way platform `m` that is solid from above.
fn above_top(w: &Body, m: &Body, rules: &Rules) -> bool {
    m.one_way.is_some_and(|one_way| {
        one_way.solid_directions().any(|local| {
            let side = m.rotation.rotate(local);
            rules.is_floor(side)
                && w.shape.as_shape().project(side).0
                    >= m.shape.as_shape().project(side).1 - rules.margin
        })
    })
}
