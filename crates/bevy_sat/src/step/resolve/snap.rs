//! Floor snapping: a body that stood on a floor and walked off it (down a slope, over a small
//! step) is pulled down onto a floor close below instead of hopping off.

use bevy::prelude::*;
use sat_core::{Shape, collide_within, sweep};

use super::Resolution;
use crate::config::StepSettings;
use crate::step::body::{Body, Kind};
use crate::step::moves::Moves;
use crate::step::one_way;
use crate::step::pair::PairContact;

/// Bodies that stood on a floor last step, are not moving up, and touch no floor now are moved
/// down onto the nearest floor within the snap distance.
pub(super) fn snap_to_floor(
    bodies: &mut [Body],
    pairs: &[PairContact],
    moves: &mut Moves,
    res: &mut Resolution,
    settings: &StepSettings,
) {
    if settings.snap <= 0.0 {
        return;
    }
    let holds = &res.holds;
    let eligible = |i: usize, b: &Body| {
        b.kind == Kind::Weak
            && !b.sensor
            && !b.drop_through
            && b.support.is_some()
            && b.velocity.y <= 0.0
            && !holds
                .holding(i)
                .iter()
                .any(|h| settings.is_floor(-h.direction))
    };
    res.snaps.clear();
    res.snaps.resize(bodies.len(), None);
    let drop = Vec2::NEG_Y * settings.snap;
    for p in pairs {
        // The pair says it (`Pushes::Never` is a pair the bodies do not resolve), without
        // reading both records.
        if p.unpushed() {
            continue;
        }
        let (a, b) = p.bodies();
        for (w, o) in [(a, b), (b, a)] {
            let (body, other) = (&bodies[w], &bodies[o]);
            if !eligible(w, body)
                || (other.one_way.is_some() && !one_way::started_above_top(body, other, settings))
            {
                continue;
            }
            let (Some(shape), Some(other_shape)) =
                (body.shape_against(other), other.shape_against(body))
            else {
                continue;
            };
            let Some(hit) = sweep(&*shape, &*other_shape, drop) else {
                continue;
            };
            // Whatever the way down meets first decides: a floor is snapped onto, anything
            // else (a wall's side, a steep face) is in the way, and the body is left where it
            // is rather than pulled into it.
            let floor = settings.is_floor(-hit.normal);
            let best = &mut res.snaps[w];
            // (Of two met at once, the one in the way wins.)
            // A face it already touches is in the way only if the way down goes into it.
            let meets = hit.toi > 0.0 || (!floor && drop.dot(hit.normal) > 0.0);
            if meets && best.is_none_or(|(t, f)| (hit.toi, floor) < (t, f)) {
                *best = Some((hit.toi, floor));
            }
        }
    }
    if res.snaps.iter().any(|s| matches!(s, Some((_, true)))) {
        cancel_sinking_snaps(bodies, pairs, res, drop, settings);
    }
    for (i, body) in bodies.iter_mut().enumerate() {
        if let Some((toi, true)) = res.snaps[i] {
            moves.shift(i, drop * toi);
            moves.stop_along(i, Vec2::NEG_Y);
            moves.apply(i, body); // the passes are over: no need to wait
        }
    }
}

/// Cancels each snap that would sink its body deeper than the slop into a Mighty body it is
/// paired with: a solid one, or a one-way platform it was clear of (a body passing through a
/// platform may be snapped within it, but none is snapped into one from outside: from its
/// corner onto a body below, say). The way down is swept against each body apart, and one the
/// body already touches is not in the way when it counts as a floor: a snap onto another floor
/// below could then sink the body into it (a corner it rests on).
fn cancel_sinking_snaps(
    bodies: &[Body],
    pairs: &[PairContact],
    res: &mut Resolution,
    drop: Vec2,
    settings: &StepSettings,
) {
    for p in pairs {
        let (a, b) = p.bodies();
        for (w, o) in [(a, b), (b, a)] {
            let Some((toi, true)) = res.snaps[w] else {
                continue;
            };
            let (body, other) = (&bodies[w], &bodies[o]);
            let one_way = other.one_way.is_some();
            // (A one-way pair is not pushed while the body passes through it.)
            if other.kind != Kind::Mighty || other.sensor || (p.unpushed() && !one_way) {
                continue;
            }
            let (Some(snapped), Some(other_shape)) = (
                body.shape_against_moved(other, drop * toi),
                other.shape_against(body),
            ) else {
                continue;
            };
            let sinks = |shape: &Shape| {
                collide_within(shape, &*other_shape, 0.0).is_some_and(|c| c.depth > settings.slop)
            };
            let was_in = || body.shape_against(other).is_some_and(|shape| sinks(&shape));
            if sinks(&snapped) && !(one_way && was_in()) {
                res.snaps[w] = None;
            }
        }
    }
}
