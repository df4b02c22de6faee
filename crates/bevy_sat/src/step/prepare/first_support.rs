//! Support known from the first step: a Weak body new this step has no contact flags yet, so
//! what it stands on is found from where it and the moving Mighty bodies start the step.

use bevy::prelude::*;
use sat_core::collide_within;

use super::PrepareState;
use crate::config::StepSettings;
use crate::step::body::{Body, Kind};
use crate::step::one_way;

/// Gives each Weak body inserted since the last step ([`PrepareState::new_weak`]) that stands
/// on a moving Mighty body at the start of this step that body as its support, and lists it
/// among the riders, so that it is carried from its first step instead of being left behind
/// until its contact flags say where it stands. Standing on: touching (within the contact
/// margin) with a push out of it that counts as floor, through a solid side of a one-way
/// platform; of several, the most level one, ties to the lower entity.
///
/// Called only in a step where some Mighty body moves and some Weak body is new: then every
/// new body is tested against every moving Mighty body, once. A body standing on still ground
/// needs nothing (there is nothing to carry it by).
pub(super) fn find_first_supports(
    bodies: &mut [Body],
    prepare: &mut PrepareState,
    settings: &StepSettings,
) {
    let margin = settings.margin;
    prepare.moving.clear();
    prepare.moving.extend(
        bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.kind == Kind::Mighty && !b.sensor && b.motion() != Vec2::ZERO)
            .map(|(k, _)| k),
    );
    if prepare.index.is_empty() {
        prepare
            .index
            .extend(bodies.iter().enumerate().map(|(k, b)| (b.entity, k)));
    }
    for entity in &prepare.fresh {
        let Some(&i) = prepare.index.get(entity) else {
            continue; // despawned, or left out of collision
        };
        let body = &bodies[i];
        if !body.pushable() || body.support.is_some() {
            continue;
        }
        let start = body.start_shape();
        let mut best: Option<(f32, Entity)> = None;
        for &m in &prepare.moving {
            let platform = &bodies[m];
            if !body.layers.interacts_with(&platform.layers)
                || one_way::is_passing(body, platform, margin)
            {
                continue;
            }
            let Some(contact) = collide_within(&start, &platform.start_shape(), margin) else {
                continue;
            };
            // The normal points from the body into the platform: the body is pushed out the
            // other way.
            let out = -contact.normal;
            let better = best.is_none_or(|(level, on)| {
                out.y > level || (out.y == level && platform.entity < on)
            });
            if settings.is_floor(out) && better {
                best = Some((out.y, platform.entity));
            }
        }
        if let Some((_, support)) = best {
            bodies[i].support = Some(support);
            prepare.riders.push(i);
        }
    }
    // Carrying walks the riders in body order.
    prepare.riders.sort_unstable();
}
