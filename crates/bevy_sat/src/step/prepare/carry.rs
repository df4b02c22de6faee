//! Carrying: riders travel with the moving platforms they stood on at the end of the last
//! step, and riders of riders with them.

use bevy::prelude::*;

use super::PrepareState;
use crate::step::body::{Body, Kind};
use crate::step::broad::BroadInput;

/// Moves every Weak body that stood on something at the end of the last step by its support's
/// displacement, so riders travel with moving platforms, and riders of riders with them. Only
/// the floor contact carries, and only Mighty bodies' motion: a Mighty support's displacement
/// is its motion, a Weak support's is its own carry. A Weak body's own motion is not its
/// displacement (resolution may stop it or push it back: a crate resting on the floor moves
/// down by gravity every step, and is pushed back up), so it is not passed on to what stands
/// on it: every crate of a stack would go down by the gravity of all those below it, and a
/// body touching another from above would go along with whatever way that one moved. A
/// carried body's swept box (grown by `margin`) and the step's reach are brought up to date.
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(super) fn carry_riders(
    bodies: &mut [Body],
    prepare: &mut PrepareState,
    support_index: &[u32],
    inputs: &mut [BroadInput],
    reach: &mut f32,
    margin: f32,
) {
    prepare.support.clear();
    prepare.support.resize(bodies.len(), None);
    for &i in &prepare.riders {
        let Some(support) = bodies[i].support else {
            continue;
        };
        // Last step's index of the support, if the bodies came in the same order; else (only
        // then) the entity → body lookup, built once.
        let hint = support_index.get(i).map(|&s| s as usize);
        prepare.support[i] =
            match hint.filter(|&s| bodies.get(s).is_some_and(|b| b.name == support)) {
                Some(s) => Some(s),
                None => {
                    if prepare.index.is_empty() {
                        prepare
                            .index
                            .extend(bodies.iter().enumerate().map(|(k, b)| (b.name, k)));
                    }
                    prepare.index.get(&support).copied()
                }
            };
    }
    prepare.carry.clear();
    prepare.carry.resize(bodies.len(), None);
    for &i in &prepare.riders {
        carry_of(i, bodies, &prepare.support, &mut prepare.carry, 0);
    }
    for &i in &prepare.riders {
        let body = &mut bodies[i];
        if let Some(offset) = prepare.carry[i].filter(|c| *c != Vec2::ZERO) {
            body.shift(offset);
            let motion = body.motion();
            *reach = reach.max(motion.length());
            inputs[i].swept = BroadInput::swept(body.shape.aabb(), motion, margin);
        }
    }
}

/// The carry of body `i`: its support's motion if the support is Mighty, else the support's
/// own carry (bounded depth, so a cycle of supports ends instead of looping). Bodies are not
/// carried yet: their motion is their own.
fn carry_of(
    i: usize,
    bodies: &[Body],
    support: &[Option<usize>],
    carry: &mut [Option<Vec2>],
    depth: usize,
) -> Vec2 {
    const MAX_DEPTH: usize = 16;
    if let Some(known) = carry[i] {
        return known;
    }
    let value = match support[i] {
        Some(s) if s != i && depth < MAX_DEPTH => match bodies[s].kind {
            Kind::Mighty => bodies[s].motion(),
            Kind::Weak => carry_of(s, bodies, support, carry, depth + 1),
        },
        _ => Vec2::ZERO,
    };
    carry[i] = Some(value);
    value
}
