//! The way back: a Weak body that a push was refused to, since it would have driven the body
//! into another Mighty body, is crushed between them, unless its own way this step got it
//! there. A walker that goes into a low ledge under a low ceiling is lifted onto the ledge
//! (its shortest way out) and into the ceiling, whose push down is then refused: nothing
//! squeezes it, so instead of being left inside, it goes back the way it came until it is
//! clear. A body that Mighty bodies do squeeze (a lift pressing it into a ceiling) came there
//! carried or pushed by one of them: its way back leads into that one, and it stays crushed.

use bevy::prelude::*;
use sat_core::exit_distance;
use smallvec::SmallVec;

use super::Resolution;
use super::mighty::weak_side;
use crate::config::StepSettings;
use crate::step::body::Body;
use crate::step::moves::Moves;
use crate::step::pair::{PairContact, Pushes};

/// How many moves back a body takes at most: each takes it out of the Mighty bodies it is in,
/// and may take it into one it passed on its way.
const ROUNDS: usize = 4;

/// The way back's storage, kept from step to step so that a step with crushed bodies
/// allocates nothing.
#[derive(Default, Debug)]
pub(super) struct WayBack {
    /// Per body, whether it is one of this step's candidates (all false between steps).
    marked: Vec<bool>,
    /// The candidates: crushed bodies whose way back may be long enough to get them out.
    candidates: Vec<usize>,
    /// The candidates' Mighty pairs, as `(body, pair)` sorted.
    paired: Vec<(usize, usize)>,
    /// The candidates that got out.
    freed: Vec<Entity>,
}

/// Frees each body reported crushed (`res.crushed`) that its way back this step takes out of
/// every Mighty body it is paired with, within that way's length: it is moved there, loses its
/// velocity into what it then touches, and is no longer reported crushed. A body its way back
/// does not free stays crushed, but takes back the part of its own motion (its velocity's, not
/// what carried it) that drove it into a Mighty body ([`hold_in_place`]). Looks at nothing in
/// a step where no body is crushed.
///
/// A way back never leaves an overlap deeper than it is long (no way out of a convex shape is
/// shorter than the overlap's depth): a body whose refused push alone is deeper, such as one
/// squeezed in a resting pile, which hardly moves in a step, is left crushed without a look
/// at its other pairs.
pub(super) fn free_the_self_crushed(
    bodies: &[Body],
    pairs: &[PairContact],
    velocities: &[Vec2],
    moves: &mut Moves,
    res: &mut Resolution,
    settings: &StepSettings,
) {
    if res.crushed.is_empty() {
        return;
    }
    let way = &mut res.way_back;
    if way.marked.len() != bodies.len() {
        way.marked.clear();
        way.marked.resize(bodies.len(), false);
    }
    way.candidates.clear();
    for b in &res.mighty.blocked {
        if res.crushed.binary_search(&(b.body, b.mighty)).is_err() {
            continue;
        }
        let (w, _, contact) = weak_side(bodies, pairs, b.pair as usize, moves, settings);
        let length = (bodies[w].motion() + moves.offset(w)).length();
        let too_deep = contact.is_some_and(|c| c.depth > out_of_reach(length, settings));
        if !too_deep && !way.marked[w] {
            way.marked[w] = true;
            way.candidates.push(w);
        }
    }
    if way.candidates.is_empty() {
        return;
    }
    way.paired.clear();
    for &k in &res.mighty.all {
        let pair = &pairs[k as usize];
        let (a, b) = pair.bodies();
        let w = if pair.pushes == Pushes::AOutOfB { a } else { b };
        if way.marked[w] {
            way.paired.push((w, k as usize));
        }
    }
    way.paired.sort_unstable();
    way.candidates.sort_unstable();
    way.freed.clear();
    for &w in &way.candidates {
        way.marked[w] = false;
        let start = way.paired.partition_point(|&(b, _)| b < w);
        let end = way.paired.partition_point(|&(b, _)| b <= w);
        let own = &way.paired[start..end];
        if go_back(bodies, pairs, w, own, moves, settings) {
            way.freed.push(bodies[w].entity);
        } else {
            let own_motion = velocities[w] * settings.dt;
            hold_in_place(
                bodies,
                pairs,
                w,
                own,
                own_motion,
                &res.crushed,
                moves,
                settings,
            );
        }
    }
    if !way.freed.is_empty() {
        let freed = &way.freed;
        res.crushed.retain(|(body, _)| !freed.contains(body));
    }
}

/// The depth beyond which a way back `length` long cannot lead out of an overlap: the length
/// with the margin [`go_back`] allows, and room for the round-off of the exit distances.
fn out_of_reach(length: f32, settings: &StepSettings) -> f32 {
    (length + settings.margin) * (1.0 + 1e-4) + settings.slop
}

/// Moves body `w` back along its way this step (its motion and the pushes it took, reversed),
/// out of each of its Mighty pairs (`own`, as `(w, pair)`) it is in, round after round, while
/// the way back is no longer than the way it came. On success it stops its velocity into what
/// it touches and returns true; else it is put back where it was and returns false.
fn go_back(
    bodies: &[Body],
    pairs: &[PairContact],
    w: usize,
    own: &[(usize, usize)],
    moves: &mut Moves,
    settings: &StepSettings,
) -> bool {
    let before = moves.offset(w);
    let way = bodies[w].motion() + before;
    let length = way.length();
    let Some(back) = (-way).try_normalize() else {
        return false;
    };
    let mut taken = 0.0;
    let mut clear = false;
    for _ in 0..ROUNDS {
        let shape = moves.moved_shape(bodies, w);
        let mut step = 0.0f32;
        for &(_, k) in own {
            let (_, m, contact) = weak_side(bodies, pairs, k, moves, settings);
            if contact.is_some_and(|c| c.depth > settings.slop) {
                // Out of a one-way platform only through its solid side: a way back through
                // it is no way out, and the body stays crushed.
                let out = if pairs[k].one_way {
                    f32::INFINITY
                } else {
                    let shape = shape.against(&bodies[m]);
                    let out = shape.and_then(|s| exit_distance(&*s, &bodies[m].shape, back));
                    out.unwrap_or(f32::INFINITY)
                };
                step = step.max(out);
            }
        }
        if step == 0.0 {
            clear = true;
            break;
        }
        taken += step;
        if !step.is_finite() || taken > length + settings.margin {
            break;
        }
        moves.shift(w, back * step);
    }
    if !clear {
        moves.shift(w, before - moves.offset(w));
        return false;
    }
    stop_into_touched(bodies, pairs, w, own, moves, settings);
    true
}

/// Takes back the part of crushed body `w`'s own motion this step (`own_motion`: its
/// velocity's, not what carried it) that drove it into the Mighty bodies of its pairs (`own`),
/// as far as needed to leave them and no further than that motion, and stops its velocity into
/// what it touches. Whatever crushes it (`crushed`, sorted) may move on into it; the body
/// itself does not travel: squeezed between a press and the floor, it would otherwise fall
/// into the floor by gravity, deeper every step. The move is not made if it would take the
/// body deeper into a Mighty body that does not crush it.
#[allow(clippy::too_many_arguments)] // the way back's inputs, and the crushed pairs
fn hold_in_place(
    bodies: &[Body],
    pairs: &[PairContact],
    w: usize,
    own: &[(usize, usize)],
    own_motion: Vec2,
    crushed: &[(Entity, Entity)],
    moves: &mut Moves,
    settings: &StepSettings,
) {
    let length = own_motion.length();
    let Some(back) = (-own_motion).try_normalize() else {
        return;
    };
    let shape = moves.moved_shape(bodies, w);
    let mut step = 0.0f32;
    let mut depths: SmallVec<[f32; 8]> = SmallVec::new();
    for &(_, k) in own {
        let (_, m, contact) = weak_side(bodies, pairs, k, moves, settings);
        depths.push(contact.map_or(f32::NEG_INFINITY, |c| c.depth));
        // The pairs its own motion went into (the normal runs from the Weak body into the
        // Mighty one); a one-way platform is left to its own rules.
        let into = contact.is_some_and(|c| c.depth > settings.slop && c.normal.dot(back) < 0.0);
        if into && !pairs[k].one_way {
            let shape = shape.against(&bodies[m]);
            let out = shape.and_then(|s| exit_distance(&*s, &bodies[m].shape, back));
            let out = out.unwrap_or(f32::INFINITY);
            step = step.max(out.min(length));
        }
    }
    if step > 0.0 {
        moves.shift(w, back * step);
        let entity = bodies[w].entity;
        let deeper = own.iter().zip(&depths).any(|(&(_, k), &before)| {
            let (_, _, contact) = weak_side(bodies, pairs, k, moves, settings);
            let (a, b) = pairs[k].entities;
            let mighty = if a == entity { b } else { a };
            contact.is_some_and(|c| c.depth > settings.slop && c.depth > before + settings.slop)
                && crushed.binary_search(&(entity, mighty)).is_err()
        });
        if deeper {
            moves.shift(w, -back * step);
        }
    }
    stop_into_touched(bodies, pairs, w, own, moves, settings);
}

/// Stops body `w`'s velocity into each Mighty body of its pairs (`own`) it touches where it
/// is now (one-way platforms aside).
fn stop_into_touched(
    bodies: &[Body],
    pairs: &[PairContact],
    w: usize,
    own: &[(usize, usize)],
    moves: &mut Moves,
    settings: &StepSettings,
) {
    for &(_, k) in own {
        let (_, _, contact) = weak_side(bodies, pairs, k, moves, settings);
        if let Some(c) = contact.filter(|c| c.depth >= -settings.slop && !pairs[k].one_way) {
            moves.stop_along(w, c.normal);
        }
    }
}
