//! Round bodies (circles, capsules, rounded polygons) coming down onto a corner. Where a round
//! end overlaps a corner, the shortest way out points from the corner to the end's centre, and
//! it tilts further from straight up the deeper the body sank in during the step. Whether the
//! corner is a floor is judged where the body first touched it instead: a body whose centre is
//! past a ledge's edge by less than `sin(max_floor_angle) · radius` stands on the corner, and
//! one past it by more slides off, whatever its speed or the step's length.

use bevy::prelude::*;
use sat_core::{Shape, exit_distance, sweep};

use crate::config::StepSettings;
use crate::step::body::Body;

/// Whether a shape has round ends whose contact normal turns with the depth of an overlap.
#[inline]
pub(super) fn is_round(shape: &Shape) -> bool {
    matches!(
        shape,
        Shape::Circle(_) | Shape::Capsule(_) | Shape::Rounded(_)
    )
}

/// How far straight up round Weak body `w`, whose shape where resolution has it now is
/// `w_shape`, must move to leave Mighty body `m`, if it met `m` on a floor-like normal
/// (within the floor angle of straight up) in this step's relative motion, or touched it so
/// at the step's start. `distance` is the overlap along its shortest way out: the lift is
/// refused when it is far longer than that way and the step's motion together, as when the
/// body is deep inside `m` rather than resting on its corner.
pub(super) fn floor_landing_lift(
    w: &Body,
    w_shape: &Shape,
    m: &Body,
    distance: f32,
    settings: &StepSettings,
) -> Option<f32> {
    let relative = w.motion() - m.motion();
    let mut start = w_shape.clone();
    start.translate(-relative);
    let hit = sweep(&start, &m.shape, relative)?;
    if !settings.is_floor(-hit.normal) {
        return None;
    }
    let reach = distance + relative.length();
    exit_distance(w_shape, &m.shape, Vec2::Y)
        .filter(|up| *up <= 2.0 * reach / settings.floor_cos.max(0.1) + settings.margin)
}
