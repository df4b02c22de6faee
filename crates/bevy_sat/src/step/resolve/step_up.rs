//! Step-up: a Weak body on a floor that walks into a ledge no taller than
//! [`SatConfig::step_height`](crate::SatConfig::step_height) ends on top of it in the same step,
//! with its horizontal speed, as rapier's autostep does: its shape is swept up by the step
//! height (less if something is above), across by the distance the ledge took from it, and down
//! again; it steps when that lands it on a floor higher than where it stands, with nothing
//! Mighty in the way.

use bevy::prelude::*;

use super::character::{Character, Nearby};
use crate::step::body::{Body, MovedShape};
use crate::step::moves::Moves;

/// Weak body `i`, which stood on a floor and was pushed back against its own horizontal
/// motion `own` this step, steps up onto what stopped it if it can. `velocity`: its velocity as
/// prepare integrated it, whose horizontal part it keeps when it steps.
pub(super) fn step_up(
    bodies: &mut [Body],
    i: usize,
    own: Vec2,
    velocity: Vec2,
    moves: &mut Moves,
    character: &mut Character,
    nearby: &Nearby,
) {
    let settings = nearby.settings;
    let body = &bodies[i];
    // What the ledge took of the motion: the horizontal push back, up to the motion itself.
    let lost = moves.offset(i).x.abs().min(own.x.abs());
    let across = Vec2::new(own.x.signum() * lost, 0.0);
    // (The margin over the step height: a body resting a round-off into its floor still
    // clears a ledge exactly as tall as the step height.)
    let height = settings.step_height + settings.margin;
    let shape = MovedShape::new(body, Vec2::ZERO);
    let mut area = shape.whole().aabb();
    area.max.y += height;
    area.min.x = area.min.x.min(area.min.x + across.x);
    area.max.x = area.max.x.max(area.max.x + across.x);
    character.gather(bodies, nearby, i, area.grown(settings.margin));
    // Up, as far as the step height or what is above allows.
    let up = Vec2::Y * height;
    let rise = height
        * character
            .cast(bodies, &shape, up, settings.margin)
            .map_or(1.0, |h| h.toi);
    let raised = shape.moved(Vec2::Y * rise);
    // Across, all the way.
    if character
        .cast(bodies, &raised, across, settings.margin)
        .is_some_and(|h| h.toi < 1.0)
    {
        return;
    }
    let raised = raised.moved(across);
    // Down onto a floor higher than where it stood.
    let down = Vec2::NEG_Y * rise;
    let Some(landing) = character.cast(bodies, &raised, down, settings.margin) else {
        return;
    };
    let lift = rise * (1.0 - landing.toi);
    if lift <= settings.slop || !settings.is_floor(-landing.normal) {
        return;
    }
    let offset = across + Vec2::Y * lift;
    let landed = shape.moved(offset);
    if character.deepest(bodies, &landed, settings.margin) > settings.slop {
        return;
    }
    moves.shift(i, offset);
    let now = moves.velocity(i);
    moves.set_velocity(i, Vec2::new(velocity.x, now.y));
    moves.apply(i, &mut bodies[i]);
}
