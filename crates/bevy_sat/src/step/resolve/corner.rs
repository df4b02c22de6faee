//! Corner correction: a body moving up that clips the corner of a ceiling by at most
//! [`SatConfig::corner_correction`](crate::SatConfig::corner_correction) sideways is moved
//! aside, just clear of it, and keeps rising, instead of being pushed down and losing its jump.

use bevy::prelude::*;
use sat_core::exit_distance;

use super::character::{Character, Nearby};
use crate::step::body::{Body, MovedShape};
use crate::step::moves::Moves;

/// Weak body `i`, which moved up by `own` this step (its velocity, as prepare integrated it,
/// `velocity`) and was pushed down, is put where its own motion took it, moved left or right
/// by the least that clears every Mighty body there, if that is no more than the corner
/// correction and its way up there is clear. It keeps its upward velocity.
pub(super) fn correct(
    bodies: &mut [Body],
    i: usize,
    own: Vec2,
    velocity: Vec2,
    moves: &mut Moves,
    character: &mut Character,
    nearby: &Nearby,
) {
    let settings = nearby.settings;
    let limit = settings.corner_correction;
    let body = &bodies[i];
    let pushed = moves.offset(i);
    // Where its own motion took it, and where it started from.
    let reached = MovedShape::new(body, -pushed);
    let start = reached.moved(-own);
    let area = start
        .whole()
        .aabb()
        .union(&reached.whole().aabb())
        .grown(limit + settings.margin);
    character.gather(bodies, nearby, i, area);
    // Per side, how far it must move that way to clear every Mighty body it is in there.
    let clear_by = |side: Vec2| {
        let exits = character.near.iter().filter_map(|&m| {
            let m = &bodies[m as usize];
            Some(exit_distance(&*reached.against(m)?, &m.shape, side).unwrap_or(0.0))
        });
        exits.fold(0.0f32, f32::max)
    };
    let (left, right) = (clear_by(Vec2::NEG_X), clear_by(Vec2::X));
    let (side, distance) = if left <= right {
        (Vec2::NEG_X, left)
    } else {
        (Vec2::X, right)
    };
    if distance > limit || distance <= settings.slop {
        return;
    }
    // Half the slop further: a body moving up right beside a corner it just touches would
    // graze it.
    let nudge = side * (distance + 0.5 * settings.slop);
    let nudged = reached.moved(nudge);
    let start = start.moved(nudge);
    let blocked = character
        .cast(bodies, &start, own, settings.margin)
        .is_some_and(|h| h.toi < 1.0);
    if blocked || character.deepest(bodies, &nudged, settings.margin) > settings.slop {
        return;
    }
    moves.shift(i, nudge - pushed);
    let now = moves.velocity(i);
    moves.set_velocity(i, Vec2::new(now.x, velocity.y));
    moves.apply(i, &mut bodies[i]);
}
