//! Support known from the first step: a Weak body new this step has no contact flags yet, so
//! what it stands on is found from where it and the bodies that may carry it start the step.

use bevy::prelude::*;
use sat_core::collide_within;

use super::PrepareState;
use crate::config::StepSettings;
use crate::step::body::{Body, Kind, MovedShape};
use crate::step::one_way;

/// Gives each Weak body inserted since the last step ([`PrepareState::new_weak`]) that stands
/// at the start of this step on something that may carry it a support, and lists it among the
/// riders, so that it is carried from its first step instead of being left behind until its
/// contact flags say where it stands. What may carry it: a moving Mighty body, a Weak body that
/// stood on something at the end of the last step, or another new body that has a support by
/// then. The new bodies are looked at level by level: first against the moving Mighty bodies
/// and last step's riders, then each time against the new bodies given a support in the pass
/// before, so a stack spawned together on a moving platform is carried whole (its carry is
/// worked out later, from support to support). Standing on: touching (within the contact
/// margin) with a push out of it that counts as floor, through a solid side of a one-way
/// platform; of several in one pass, the most level one, ties to the lower entity.
///
/// Called only in a step where some Mighty body moves and some Weak body is new: then every
/// new body is tested once against each candidate of each pass it is still without support
/// in. A body standing on still ground needs nothing (there is nothing to carry it by).
pub(super) fn find_first_supports(
    bodies: &mut [Body],
    prepare: &mut PrepareState,
    settings: &StepSettings,
) {
    let margin = settings.margin;
    // The first pass's candidates: the moving Mighty bodies, and last step's riders.
    prepare.moving.clear();
    prepare.moving.extend(
        bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| b.kind == Kind::Mighty && b.motion() != Vec2::ZERO)
            .map(|(k, _)| k),
    );
    prepare.moving.extend(prepare.riders.iter().copied());
    if prepare.index.is_empty() {
        prepare
            .index
            .extend(bodies.iter().enumerate().map(|(k, b)| (b.entity, k)));
    }
    // Each pass tests the new bodies still without support against `moving[from..to]`, and
    // appends the ones it gives a support to: the next pass's candidates.
    let mut from = 0;
    while from < prepare.moving.len() {
        let to = prepare.moving.len();
        for entity in &prepare.fresh {
            let Some(&i) = prepare.index.get(entity) else {
                continue; // despawned, or left out of collision
            };
            let body = &bodies[i];
            if !body.pushable() || body.support.is_some() {
                continue;
            }
            // Where it started, as each support meets it (moved once for most bodies).
            let start = MovedShape::new(body, -body.motion());
            let mut best: Option<(f32, Entity)> = None;
            for &c in &prepare.moving[from..to] {
                let support = &bodies[c];
                if c == i
                    || support.sensor
                    || !body.layers.interacts_with(&support.layers)
                    || one_way::is_passing(body, support, margin)
                {
                    continue;
                }
                let (Some(start), Some(support_start)) =
                    (start.against(support), support.start_shape_against(body))
                else {
                    continue;
                };
                let Some(contact) = collide_within(&*start, &support_start, margin) else {
                    continue;
                };
                // The normal points from the body into its support: the body is pushed out
                // the other way.
                let out = -contact.normal;
                let better = best.is_none_or(|(level, on)| {
                    out.y > level || (out.y == level && support.entity < on)
                });
                if settings.is_floor(out) && better {
                    best = Some((out.y, support.entity));
                }
            }
            if let Some((_, support)) = best {
                bodies[i].support = Some(support);
                prepare.riders.push(i);
                prepare.moving.push(i);
            }
        }
        from = to;
    }
    // Carrying walks the riders in body order.
    prepare.riders.sort_unstable();
}
