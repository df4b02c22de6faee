//! [`Moves`]: what resolution has done this step — how far each body moved, its velocity
//! stopped along the surfaces it was pushed out of — and the contact of any pair where its
//! bodies are now, measured once per step and answered again from the measurement as they
//! move. Resolution writes it; write-back reads the final contacts from it.

use bevy::prelude::*;
use prefetch_index::prefetch_index;
use sat_core::{
    AxisOverlap, Contact, MeasuredAxes, Shape, collide_within, least_overlap_after, measure_axes,
};

use super::body::{Body, MovedShape};
use super::pair::{PairContact, Seen};
use super::resolve::floating::slide_at_speed;
use crate::config::StepSettings;

/// What resolution has done to the bodies and pairs of a step, kept from step to step so that
/// its storage is reused.
#[derive(Default, Debug)]
pub(crate) struct Moves {
    /// Per pair (same index as the step's pairs, in the order resolution takes them), where its
    /// measured axes are this step.
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
    /// [`StepSettings::slop`]: the prefetch tells by it which pushes will read the Mighty body.
    slop: f32,
    /// Per body, how many times resolution has moved it this step: a contact computed at the
    /// same versions of both bodies is still exact, and at versions 0 it is the narrow phase's.
    /// (Apart from [`Moved`]: the passes check it for every pair, and it is small.)
    versions: Vec<u32>,
    /// Per body, what resolution has done to it this step.
    moved: Vec<Moved>,
    /// Counts every move resolution makes (never reset): a pass that leaves it unchanged moved
    /// nothing.
    count: u64,
    /// The square of the reach (see [`Moves::watch_reach`]), and the bodies moved beyond it.
    far_limit: f32,
    far: Vec<u32>,
    /// Resolution ran on this step's pairs, so this tells which bodies moved. (Not when
    /// nothing was pushable, nor when a game turned its system set off.) Write-back clears it.
    pub resolved: bool,
}

impl Moves {
    /// Starts a step: every cache entry is out of date, no body has moved yet (they are where
    /// the narrow phase saw them), and pairs whose bodies have not moved use their narrow-phase
    /// contact.
    /// `velocities`: every body's, as prepare integrated it.
    pub fn start_step(&mut self, velocities: &[Vec2], pairs: usize, settings: &StepSettings) {
        self.step = self.step.wrapping_add(1);
        self.margin = settings.margin;
        self.slop = settings.slop;
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
        self.far_limit = f32::INFINITY;
        self.far.clear();
    }

    /// Moves body `i` by `offset`, and counts the move. The body record itself is moved by
    /// [`Moves::apply_moves`]: until then, its shape is where it was plus its `pending` move.
    /// No offset is no move: the body's contacts stay as they were found.
    pub fn shift(&mut self, i: usize, offset: Vec2) {
        if offset == Vec2::ZERO {
            return;
        }
        self.versions[i] = self.versions[i].wrapping_add(1);
        let moved = &mut self.moved[i];
        moved.offset += offset;
        moved.pending += offset;
        self.count = self.count.wrapping_add(1);
        if moved.offset.length_squared() > self.far_limit {
            self.far.push(i as u32);
        }
    }

    /// Removes the part of body `i`'s velocity that points along `into` (a unit vector);
    /// [`Moves::apply_moves`] writes it to the record.
    /// A [`Floating`](crate::Floating) body keeps its speed instead (see
    /// [`slide_at_speed`]).
    pub fn stop_along(&mut self, i: usize, into: Vec2) {
        let moved = &mut self.moved[i];
        let along = moved.velocity.dot(into);
        if along > 0.0 {
            if moved.floating {
                let (velocity, slid) = slide_at_speed(moved.velocity, into, along);
                moved.velocity = velocity;
                moved.slid |= slid;
            } else {
                moved.velocity -= into * along;
            }
            moved.velocity_changed = true;
        }
    }

    /// Marks body `i` as a [`Floating`](crate::Floating) one for the rest of the step.
    pub fn set_floating(&mut self, i: usize) {
        self.moved[i].floating = true;
    }

    /// Whether body `i` is a [`Floating`](crate::Floating) one.
    pub fn is_floating(&self, i: usize) -> bool {
        self.moved[i].floating
    }

    /// Whether the velocity of body `i` (a [`Floating`](crate::Floating) one) was turned along
    /// a surface this step, keeping its speed.
    pub fn slid(&self, i: usize) -> bool {
        self.moved[i].slid
    }

    /// Body `i`'s velocity as resolution has left it so far.
    pub fn velocity(&self, i: usize) -> Vec2 {
        self.moved[i].velocity
    }

    /// Sets body `i`'s velocity; [`Moves::apply_moves`] writes it to the record.
    pub fn set_velocity(&mut self, i: usize, velocity: Vec2) {
        let moved = &mut self.moved[i];
        moved.velocity = velocity;
        moved.velocity_changed = true;
    }

    /// Moves the body records (their positions and shapes) by the moves made since the last
    /// call, once per body however many pushes it took, and writes the velocities changed.
    pub fn apply_moves(&mut self, bodies: &mut [Body]) {
        for (body, moved) in bodies.iter_mut().zip(&mut self.moved) {
            moved.apply(body);
        }
    }

    /// The shape of body `i` where resolution has moved it (a copy, when it has moved since the
    /// last [`Moves::apply_moves`]).
    pub fn shape_now(&self, bodies: &[Body], i: usize) -> Shape {
        let mut shape = bodies[i].shape.clone();
        let pending = self.moved[i].pending;
        if pending != Vec2::ZERO {
            shape.translate(pending);
        }
        shape
    }

    /// [`Moves::shape_now`] as body `other` meets it (see
    /// [`Body::shape_against`]): `None` when no part of `i` meets `other`.
    pub fn shape_now_against(&self, bodies: &[Body], i: usize, other: usize) -> Option<Shape> {
        bodies[i].shape_against_moved(&bodies[other], self.moved[i].pending)
    }

    /// Body `i`'s shape where resolution has moved it, as each other body meets it (moved
    /// once, unless its parts have layers of their own).
    pub fn moved_shape<'a>(&self, bodies: &'a [Body], i: usize) -> MovedShape<'a> {
        MovedShape::new(&bodies[i], self.moved[i].pending)
    }

    /// The bottom of body `i`'s bounding box where resolution has moved it.
    pub fn bottom(&self, bodies: &[Body], i: usize) -> f32 {
        bodies[i].bottom + self.moved[i].pending.y
    }

    /// Asks for what finding the final contact of pair `k` of `pairs` (if there is one) will
    /// read when its bodies have moved: their state, its cache entry and both records (its
    /// contact points are clipped again). Most pairs' bodies have not moved, and answer from
    /// the pair's own record with nothing else to read (the move counts, a small array, are
    /// read to tell).
    #[inline(always)]
    pub fn prefetch_moved(&self, bodies: &[Body], pairs: &[PairContact], k: usize) {
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
    /// neither body has moved since, as [`Moves::contact`] would find.
    pub fn keeps_narrow_contact(&self, pair: &PairContact, margin: f32) -> bool {
        self.unmoved(pair) && margin == self.margin
    }

    /// Whether resolution has moved neither body of `pair` this step.
    pub fn unmoved(&self, pair: &PairContact) -> bool {
        let (a, b) = pair.bodies();
        self.versions[a] == 0 && self.versions[b] == 0
    }

    /// The overlap of pair `k` (from `a` to `b`, within `margin`) where its bodies are now (see
    /// [`Moves::find`]): its normal and depth, all the passes need.
    pub fn overlap(
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
    /// now, contact points included (see [`Moves::find`]).
    pub fn contact(
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
    /// [`Moves::axes`]), else (a circle involved) computed again.
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
            let contact = match (
                self.shape_now_against(bodies, i, j),
                self.shape_now_against(bodies, j, i),
            ) {
                (Some(a), Some(b)) => collide_within(&a, &b, margin),
                _ => None,
            };
            self.recomputed[k] = Recomputed {
                step: self.step,
                versions,
                contact,
            };
        }
        self.recomputed[k].contact
    }

    /// How many moves resolution has made so far (it only grows): a pass after which it is
    /// unchanged moved nothing.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// [`StepSettings::slop`] of this step.
    pub fn slop(&self) -> f32 {
        self.slop
    }

    /// How far resolution has moved body `i` this step.
    pub fn offset(&self, i: usize) -> Vec2 {
        self.moved[i].offset
    }

    /// Starts listing the bodies moved further than `reach` this step ([`Moves::far`]).
    pub fn watch_reach(&mut self, reach: f32) {
        self.far_limit = reach * reach;
        self.far.clear();
    }

    /// The bodies moved further than the reach given to [`Moves::watch_reach`] at some point
    /// of the step (some perhaps more than once, and some since moved back within it).
    pub fn far(&self) -> &[u32] {
        &self.far
    }

    /// Whether body `i` has been moved this step.
    pub fn has_moved(&self, i: usize) -> bool {
        self.versions[i] != 0
    }

    /// How many times body `i` has been moved this step.
    pub fn version(&self, i: usize) -> u32 {
        self.versions[i]
    }

    /// Whether pair `k`'s axes have been measured this step.
    pub fn is_measured(&self, k: usize) -> bool {
        self.cache.get(k).is_some_and(|c| c.step == self.step)
    }

    /// Asks for the per-body state of body `i` and its move count (a hint, see
    /// [`Body::prefetch`]).
    #[inline(always)]
    pub fn prefetch_body(&self, i: usize) {
        prefetch_index(&self.moved, i);
    }

    /// Asks for the move counts of the bodies of pair `k` (if any), which the passes read a
    /// few pairs later to choose what else to ask for.
    #[inline(always)]
    pub fn prefetch_versions(&self, pairs: &[PairContact], k: Option<&u32>) {
        if let Some(pair) = k.and_then(|&k| pairs.get(k as usize)) {
            let (a, b) = pair.bodies();
            prefetch_index(&self.versions, a);
            prefetch_index(&self.versions, b);
        }
    }

    /// Writes the pending move and changed velocity of body `i` to its record at once.
    pub fn apply(&mut self, i: usize, body: &mut Body) {
        self.moved[i].apply(body);
    }
}

/// What [`Moves::find`] knows of a pair: a full contact, or the axis of least overlap (the
/// contact points still to be clipped).
#[derive(Clone, Copy, Debug)]
enum Found {
    Contact(Contact),
    Axis(AxisOverlap),
}

/// Where two bodies overlap: the normal (from `a` to `b`) and the depth of a contact, which is
/// all the passes need.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Overlap {
    pub normal: Vec2,
    pub depth: f32,
}

impl Overlap {
    fn of(contact: Contact) -> Self {
        Self {
            normal: contact.normal,
            depth: contact.depth,
        }
    }

    pub fn flipped(self) -> Self {
        Self {
            normal: -self.normal,
            ..self
        }
    }
}

/// Where a polygon pair's measured axes are, in step `step`. Small, because every pass reads
/// one per pair.
#[derive(Clone, Copy, Debug, Default)]
struct Measured {
    step: u32,
    /// Where the pair's axes are in [`Moves::axes`], and in how many groups of four (0: not two
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
/// the large body records, and [`Moves::apply_moves`] updates the records at the end.
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
    /// A [`Floating`](crate::Floating) body: it slides along surfaces at constant speed.
    floating: bool,
    /// Its velocity was turned along a surface this step (a floating body only).
    slid: bool,
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
