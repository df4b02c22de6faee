//! The one-way platform rule, in one place: which side of a [`OneWayPlatform`] a Weak body
//! came from decides whether the pair is resolved at all, which hits count, and which way the
//! body is pushed out.
//!
//! A pair is *passing* (never resolved) unless the Weak body started the step on a solid side
//! of the platform and does not have [`DropThrough`](crate::DropThrough). Judging from where
//! both were at the start of the step (the platform's own motion included) makes the rule hold
//! at any speed.
//!
//! [`OneWayPlatform`]: crate::OneWayPlatform

use bevy::prelude::*;
use sat_core::{AsShape, Shape};

use super::body::{Body, Kind};
use crate::config::StepSettings;

/// A hit counts through a solid side when it goes into the platform within 45° of the side's
/// inward normal.
const THROUGH_SIDE_COS: f32 = core::f32::consts::FRAC_1_SQRT_2;

/// The outward direction (world) of a solid side of one-way platform `m` on which `w` was at
/// the start of the step, if any.
pub(crate) fn solid_side_at_start(w: &Body, m: &Body, margin: f32) -> Option<Vec2> {
    let one_way = m.one_way?;
    // The parts of `w` that meet `m` (see `Body::shape_against`).
    let w_shape = w.shape_against(m)?;
    one_way.solid_directions().find_map(|local| {
        let side = m.rotation.rotate(local);
        started_outside(w, &w_shape, m, side, margin).then_some(side)
    })
}

/// Whether `w_shape` (the parts of `w` that meet `m`) started the step outside `m` beyond its
/// side facing `side`, within `margin`. Both shapes are projected where they started, without
/// copying them there.
fn started_outside(w: &Body, w_shape: &Shape, m: &Body, side: Vec2, margin: f32) -> bool {
    let (w_min, _) = w_shape.as_shape().project_moved(side, -w.motion());
    let (_, m_max) = m.shape.as_shape().project_moved(side, -m.motion());
    w_min >= m_max - margin
}

/// Whether a pair is a Weak body passing through a one-way platform, judged from the start of
/// the step (the narrow phase asks, once per pair).
pub(crate) fn is_passing(a: &Body, b: &Body, margin: f32) -> bool {
    let (w, m) = match (a.kind, b.kind) {
        (Kind::Weak, Kind::Mighty) => (a, b),
        (Kind::Mighty, Kind::Weak) => (b, a),
        _ => return false,
    };
    m.one_way.is_some() && (w.drop_through || solid_side_at_start(w, m, margin).is_none())
}

/// The direction a hit of Weak `w` into Mighty `m` along `into` stops `w` in, if the hit
/// counts. It always does, along `into`, unless `m` is a one-way platform: then only a hit
/// into a solid side `w` started on, within 45° of the side's inward normal, counts, and
/// stops `w` along that normal, whichever point of the side (a corner too) it met: a body
/// landing on the platform's end lands on its top.
pub(crate) fn hit_direction(
    w: &Body,
    m: &Body,
    into: Vec2,
    settings: &StepSettings,
) -> Option<Vec2> {
    if m.one_way.is_none() {
        return Some(into);
    }
    solid_side_at_start(w, m, settings.margin)
        .filter(|side| -side.dot(into) > THROUGH_SIDE_COS)
        .map(|side| -side)
}

/// Whether `w` started the step above a one-way platform `m` that is solid from above: what
/// floor snapping may pull it down onto. Judged from the start of the step, as the rest of the
/// rule is: a body that stood on the top and walked off its end has sagged below the top by
/// this step's fall, and is still snapped onto its corner.
pub(crate) fn started_above_top(w: &Body, m: &Body, settings: &StepSettings) -> bool {
    let Some(w_shape) = w.shape_against(m) else {
        return false;
    };
    m.one_way.is_some_and(|one_way| {
        one_way.solid_directions().any(|local| {
            let side = m.rotation.rotate(local);
            settings.is_floor(side) && started_outside(w, &w_shape, m, side, settings.margin)
        })
    })
}
