//! The way back: a Weak body that a push was refused to, since it would have driven the body
//! into another Mighty body, is crushed between them, unless its own way this step got it
//! there. A walker that goes into a low ledge under a low ceiling is lifted onto the ledge
//! (its shortest way out) and into the ceiling, whose push down is then refused: nothing
//! squeezes it, so instead of being left inside, it goes back the way it came until it is
//! clear. A body that Mighty bodies do squeeze (a lift pressing it into a ceiling) came there
//! carried or pushed by one of them: its way back leads into that one, and it stays crushed.

use bevy::prelude::*;
use sat_core::exit_distance;

use super::Resolution;
use super::mighty::weak_side;
use crate::config::StepSettings;
use crate::step::body::Body;
use crate::step::moves::Moves;
use crate::step::pair::{PairContact, Pushes};

/// How many moves back a body takes at most: each takes it out of the Mighty bodies it is in,
/// and may take it into one it passed on its way.
const ROUNDS: usize = 4;

/// Frees each body reported crushed (`res.crushed`) that its way back this step takes out of
/// every Mighty body it is paired with, within that way's length: it is moved there, loses its
/// velocity into what it then touches, and is no longer reported crushed. Looks at nothing in
/// a step where no body is crushed.
pub(super) fn free_the_self_crushed(
    bodies: &[Body],
    pairs: &[PairContact],
    moves: &mut Moves,
    res: &mut Resolution,
    settings: &StepSettings,
) {
    if res.crushed.is_empty() {
        return;
    }
    // The crushed bodies' indices, from the refused pushes of their last visits.
    let mut crushed: Vec<usize> = Vec::new();
    for b in &res.mighty.blocked {
        let pair = &pairs[b.pair as usize];
        if res.crushed.binary_search(&(b.body, b.mighty)).is_ok() {
            let (a, other) = pair.bodies();
            crushed.push(if pair.pushes == Pushes::AOutOfB {
                a
            } else {
                other
            });
        }
    }
    crushed.sort_unstable();
    crushed.dedup();
    // Their Mighty pairs, `(body, pair)` sorted.
    let mut paired: Vec<(usize, usize)> = Vec::new();
    for &k in &res.mighty.all {
        let pair = &pairs[k as usize];
        let (a, b) = pair.bodies();
        let w = if pair.pushes == Pushes::AOutOfB { a } else { b };
        if crushed.binary_search(&w).is_ok() {
            paired.push((w, k as usize));
        }
    }
    paired.sort_unstable();
    let mut freed: Vec<Entity> = Vec::new();
    for &w in &crushed {
        let start = paired.partition_point(|&(b, _)| b < w);
        let end = paired.partition_point(|&(b, _)| b <= w);
        let own = &paired[start..end];
        if go_back(bodies, pairs, w, own, moves, settings) {
            freed.push(bodies[w].entity);
        }
    }
    if !freed.is_empty() {
        res.crushed.retain(|(body, _)| !freed.contains(body));
    }
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
        let shape = moves.shape_now(bodies, w);
        let mut step = 0.0f32;
        for &(_, k) in own {
            let (_, m, contact) = weak_side(bodies, pairs, k, moves, settings);
            if contact.is_some_and(|c| c.depth > settings.slop) {
                // Out of a one-way platform only through its solid side: a way back through
                // it is no way out, and the body stays crushed.
                let out = if pairs[k].one_way {
                    f32::INFINITY
                } else {
                    exit_distance(&shape, &bodies[m].shape, back).unwrap_or(f32::INFINITY)
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
    for &(_, k) in own {
        let (_, _, contact) = weak_side(bodies, pairs, k, moves, settings);
        if let Some(c) = contact.filter(|c| c.depth >= -settings.slop && !pairs[k].one_way) {
            moves.stop_along(w, c.normal);
        }
    }
    true
}
