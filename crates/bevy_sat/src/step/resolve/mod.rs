//! Stage 4: resolution.
//!
//! 1. One-way platforms: a pair is *passing* (never resolved) unless the Weak body started the
//!    step on a solid side of the platform, and does not have `DropThrough`.
//! 2. Fast pairs are placed at their time of impact: the approaching part of the motion after
//!    the impact is taken back, the sliding part kept.
//! 3. For a few passes, Weak bodies are pushed out of Mighty ones and Weak pairs are split,
//!    ground first, with support propagated up through stacks ("holds"). A Weak pair whose
//!    bodies are both held against their push is left as it is, as are overlaps within a slop
//!    ([`StepSettings::slop`]). After a pass that moved nothing, the next ones would change nothing
//!    either and are skipped, and each pass after the first visits only the islands the one
//!    before it moved something in (see [`islands`]).
//! 4. A last Mighty pass, so that no Weak body ends inside a Mighty one; a push that would
//!    squeeze a body into another Mighty body is not made, and the body is reported crushed.
//!    A body crushed only by its own way this step (walked into a ledge under a low ceiling,
//!    lifted onto the ledge into the ceiling) goes back along that way instead ([`way_back`]);
//!    one still crushed does not travel by its own velocity into what crushes it.
//!    Then a last check ([`settle`]) of the bodies that pass pushed and of those moved beyond
//!    the step's reach: one still inside a Mighty body (pushed into another at an angle the
//!    holds let through, or into one no pair knew of) takes the shortest way out of all the
//!    Mighty bodies it touches, or is reported crushed between them.
//! 5. Character control ([`character`]): [`Floating`](crate::Floating) bodies slide on at
//!    constant speed, bodies walking into a low ledge step up onto it, bodies rising into a
//!    ceiling's corner are nudged past it.
//! 6. Bodies that stood on a floor and lost it are snapped down onto a floor close below.
//!
//! Pushes out of a Mighty body go along the minimum translation vector, except: a floor-like
//! contact pushes straight up (so bodies stand still on slopes instead of sliding), a one-way
//! platform pushes out through its solid side, and an internal face (shared by flush Mighty
//! neighbours) is never a push axis.

use bevy::prelude::*;
use prefetch_index::prefetch_index;

mod character;
mod corner;
pub(crate) mod floating;
mod holds;
mod impact;
pub(crate) mod islands;
mod landing;
mod mighty;
mod mighty_index;
mod settle;
mod snap;
mod step_up;
mod way_back;
mod weak;

pub(crate) use character::Character;

use holds::Holds;
use impact::Rewind;
use islands::Islands;
use mighty::MightyPairs;
use settle::Settle;
pub(crate) use settle::Surroundings;
use weak::WeakOrder;

use super::StepState;
use super::body::Body;
use super::moves::Moves;
use super::pair::{FoundPairs, PREFETCH_DISTANCE, PairContact, Pushes};
use crate::config::StepSettings;

/// Resolution's own state, kept from step to step so that its storage is reused.
#[derive(Default, Debug)]
pub(crate) struct Resolution {
    /// Weak bodies squeezed between Mighty bodies this step, as `(body, crusher)` sorted, each
    /// pair once.
    pub crushed: Vec<(Entity, Entity)>,
    holds: Holds,
    /// Which pairs each pass visits.
    pub(crate) islands: Islands,
    mighty: MightyPairs,
    weak: WeakOrder,
    rewinds: Vec<Rewind>,
    /// Per body, the earliest time of impact of its snap, and whether what it meets there is
    /// a floor (else something is in the way, and it is not snapped).
    snaps: Vec<Option<(f32, bool)>>,
    settle: Settle,
    way_back: way_back::WayBack,
    /// Character control, and the step's floating bodies.
    pub character: Character,
}

// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn resolve_contacts(
    mut state: ResMut<StepState>,
    floating: Query<(), With<crate::Floating>>,
) {
    let state = &mut *state;
    let listed = &mut state.resolution.character.floating;
    listed.clear();
    if !floating.is_empty() {
        let pushable = |(_, b): &(usize, &Body)| b.pushable() && floating.contains(b.entity);
        let found = state.bodies.iter().enumerate().filter(pushable);
        listed.extend(found.map(|(i, _)| i as u32));
    }
    if !state.motion.any_pushable {
        // Nothing can be pushed (no Weak body, or only sensors): no pair is resolved, and
        // nothing reads resolution's state this step (the final contacts ask it only for pairs
        // with a pushable body). Its storage, as large as the scene, is left as it is.
        state.resolution.crushed.clear();
        return;
    }
    let velocities = &mut state.motion.velocities;
    if velocities.len() != state.bodies.len() {
        // Prepare kept no copy (nothing was pushable last step).
        velocities.clear();
        velocities.extend(state.bodies.iter().map(|b| b.velocity));
    }
    let surroundings = Surroundings {
        reach: state.motion.reach,
        mighty: &state.broad.mighty,
    };
    resolve(
        &state.settings,
        surroundings,
        &mut state.bodies,
        velocities,
        &mut state.found,
        &mut state.moves,
        &mut state.resolution,
    );
    state.moves.resolved = true;
}

/// Runs the whole resolution on plain data: the bodies as the narrow phase saw them (and their
/// velocities, the same as in their records, in one array), and what it found: its pairs,
/// whose one-way pairs it has marked passing or not, its Weak pairs, which resolution appends
/// to the others, and its hits. `surroundings`: the step's reach
/// ([`Motion::reach`](super::Motion)), how far a body may move and still meet only bodies the
/// narrow phase paired it with, and the solid Mighty bodies one moved further may meet.
pub(crate) fn resolve(
    settings: &StepSettings,
    surroundings: Surroundings,
    bodies: &mut [Body],
    velocities: &[Vec2],
    found: &mut FoundPairs,
    moves: &mut Moves,
    res: &mut Resolution,
) {
    let FoundPairs { pairs, weak, hits } = found;
    res.crushed.clear();
    res.settle.start(bodies.len());
    debug_assert_eq!(bodies.len(), velocities.len());
    moves.start_step(velocities, pairs.len() + weak.len(), settings);
    for &i in &res.character.floating {
        moves.set_floating(i as usize);
    }
    // Bodies moved beyond the reach may meet Mighty bodies no pair knows of: listed for the
    // last check.
    let surroundings = Surroundings {
        reach: surroundings.reach + settings.snap,
        ..surroundings
    };
    moves.watch_reach(surroundings.reach);
    let moves_at_start = moves.count();
    res.rewinds.clear();
    if !hits.is_empty() {
        impact::place_at_time_of_impact(bodies, hits, moves, res, settings);
    }

    // The first pass can move something only through a pair overlapping deeper than the slop
    // as the narrow phase saw it, or one with a body placed at a time of impact.
    let any_rewound = !res.rewinds.is_empty();
    let may_push = |pair: &PairContact| {
        let (a, b) = pair.bodies();
        let moved = any_rewound && (moves.has_moved(a) || moves.has_moved(b));
        moved || pair.contact().is_some_and(|c| c.depth > settings.slop)
    };
    res.islands
        .join(bodies.len(), &weak.records, pairs, may_push);
    // (The Weak pairs of live islands: no pass visits the others.)
    let weak_weak = weak::order_pairs(bodies, pairs, weak, moves, res);
    res.islands.index_pairs(pairs, &mut res.mighty.all);
    if res.mighty.all.is_empty() && weak_weak.is_empty() {
        if moves.count() != moves_at_start {
            moves.apply_moves(bodies); // placed at a time of impact
        }
        return; // nothing to push (sensors only, or nothing touching)
    }
    res.mighty.blocked.clear();
    let mut last_pass = 0;
    for pass in 1..=settings.passes {
        last_pass = pass;
        let moves_before = moves.count();
        res.holds.clear(bodies.len());
        res.islands.start_pass(pass);
        mighty::mighty_pass(bodies, pairs, moves, res, settings);
        let mut visited = std::mem::take(&mut res.weak.visited);
        let every = weak_weak.clone().map(|k| k as u32);
        res.islands.visited(every, &mut visited);
        for (i, &k) in visited.iter().enumerate() {
            let k = k as usize;
            moves.prefetch_versions(pairs, visited.get(i + 2 * PREFETCH_DISTANCE));
            if let Some(&ahead) = visited.get(i + PREFETCH_DISTANCE) {
                prefetch_visit(moves, &res.holds, bodies, pairs, ahead as usize);
            }
            let before = moves.count();
            let overlap = moves.overlap(k, bodies, &pairs[k], settings.margin);
            weak::split_weak_pair(&pairs[k], overlap, moves, &mut res.holds, settings);
            if moves.count() != before {
                res.islands.moved(k);
            }
        }
        res.weak.visited = visited;
        if moves.count() == moves_before {
            // Settled: with nothing moved, every contact and hold of the next pass would be
            // the same, and so would its (lack of) pushes.
            break;
        }
    }
    // Last word to the Mighty bodies: whatever Weak bodies did to each other, none ends inside
    // a Mighty one (unless it is crushed between two). The islands where the last pass moved
    // something; in the others, the Mighty pass of their last visit moved nothing, and this one
    // would do the same. Snapping asks every body's holds: then every pair.
    res.islands.start_pass(if settings.snap > 0.0 {
        0
    } else {
        last_pass + 1
    });
    res.holds.clear(bodies.len());
    res.settle.recording = true;
    mighty::mighty_pass(bodies, pairs, moves, res, settings);
    // The crushed bodies: those the last visit of their island found held against a push.
    let islands = &res.islands;
    res.crushed.extend(
        res.mighty
            .blocked
            .iter()
            .filter(|b| b.pass == islands.last_visit(b.pair as usize))
            .flat_map(|b| [(b.body, b.mighty), (b.body, b.other)]),
    );
    res.crushed.sort_unstable();
    // A body crushed only by its own way this step goes back along it instead.
    way_back::free_the_self_crushed(bodies, pairs, velocities, moves, res, settings);
    // What it pushed must not end in another Mighty body, nor a body moved beyond the reach
    // in one the narrow phase did not pair it with.
    let visited = std::mem::take(&mut res.mighty.visited);
    settle::settle(bodies, pairs, &visited, surroundings, moves, res, settings);
    res.mighty.visited = visited;
    res.crushed.sort_unstable();
    res.crushed.dedup();
    // Character control and snapping sweep the shapes where the passes left them.
    moves.apply_moves(bodies);
    let boxes = surroundings.mighty;
    character::after_passes(bodies, velocities, boxes, moves, res, settings);
    snap::snap_to_floor(bodies, pairs, moves, res, settings);
}

/// Asks for what a pass's visit of pair `k` of `pairs` (if there is one) will read, before
/// the loop gets to it: the per-body state of both bodies, and the records it will read.
/// A pair whose bodies have not moved answers from its narrow-phase contact, and needs no
/// record but the Mighty body's, which a push reads. A pair whose bodies have moved needs
/// both records to be measured (once per step), else only the Mighty body's. A hint (see
/// [`Body::prefetch`]): the passes walk the pairs in an order unrelated to the bodies', so
/// each of these would otherwise be a wait for memory.
#[inline(always)]
pub(super) fn prefetch_visit(
    moves: &Moves,
    holds: &Holds,
    bodies: &[Body],
    pairs: &[PairContact],
    k: usize,
) {
    let Some(pair) = pairs.get(k) else {
        return;
    };
    let (a, b) = pair.bodies();
    for i in [a, b] {
        moves.prefetch_body(i);
        prefetch_index(&holds.len, i);
        prefetch_index(&holds.items, i);
    }
    let measured = moves.is_measured(k);
    let unmoved = moves.unmoved(pair);
    // Unmoved, touching within the slop and not a one-way platform: the push reads no
    // record (see `mighty_push`).
    let reads_mighty =
        !unmoved || pair.one_way || pair.contact().is_some_and(|c| c.depth > moves.slop());
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
