//! [`TransformInterpolation`]: a body drawn between its last two fixed steps.
//!
//! The easing itself is bevy_transform_interpolation's (its plugin is added by
//! [`SatPlugin`](crate::SatPlugin)): at the start of each fixed step the `Transform` is put back
//! where the last step left it, so the fixed schedules see true positions; after the fixed steps
//! of a frame it is set between the last two by how far the frame is into the next step.
//!
//! A `Transform` the game writes itself is a teleport, and the body never sweeps across the
//! screen from where it was:
//! - written outside the fixed schedules, the easing starts over from there, whether or not the
//!   next frame runs a fixed step (the easing crate's check for such writes runs before the
//!   fixed steps too, not only after them);
//! - written in a fixed schedule before the step, the step starts the easing from the new place
//!   ([`start_easing_at_teleports`]);
//! - written in a fixed schedule after the step, that step's easing starts where it ends
//!   ([`draw_teleports_at_once`]): the step remembers where it left each interpolated body
//!   ([`remember_stepped_poses`]), and a body found elsewhere at the end of the fixed step was
//!   moved by the game.

use bevy::prelude::*;
use bevy_transform_interpolation::{RotationEasingState, TranslationEasingState};

/// Where the step left an interpolated body: a `Transform` found elsewhere at the end of the
/// fixed step was written by the game after the step.
#[derive(Component, Default, Debug, Clone, Copy)]
pub(crate) struct SteppedPose {
    translation: Vec3,
    rotation: Quat,
}

pub use bevy_transform_interpolation::prelude::TransformInterpolation;

/// For interpolated bodies whose `Transform` the game moved in a fixed schedule since the
/// easing began this step (it begins where the last step left the body): the easing starts
/// from where the game put it.
pub(crate) fn start_easing_at_teleports(
    mut bodies: Query<
        (
            &Transform,
            &mut TranslationEasingState,
            &mut RotationEasingState,
        ),
        With<TransformInterpolation>,
    >,
) {
    for (transform, mut translation, mut rotation) in &mut bodies {
        if translation
            .start
            .is_some_and(|s| s != transform.translation)
        {
            translation.start = Some(transform.translation);
        }
        if rotation.start.is_some_and(|s| s != transform.rotation) {
            rotation.start = Some(transform.rotation);
        }
    }
}

/// Records where the step left every interpolated body (the last system of the write-back).
pub(crate) fn remember_stepped_poses(mut bodies: Query<(&Transform, &mut SteppedPose)>) {
    for (transform, mut pose) in &mut bodies {
        *pose = SteppedPose {
            translation: transform.translation,
            rotation: transform.rotation,
        };
    }
}

/// At the end of the fixed step (after the easing's end is taken from the `Transform`), for
/// interpolated bodies the game moved after the step: the easing starts where it ends, so the
/// next frames draw the body at its new place.
pub(crate) fn draw_teleports_at_once(
    mut bodies: Query<(
        &Transform,
        &SteppedPose,
        &mut TranslationEasingState,
        &mut RotationEasingState,
    )>,
) {
    for (transform, pose, mut translation, mut rotation) in &mut bodies {
        if transform.translation != pose.translation {
            translation.start = Some(transform.translation);
        }
        if transform.rotation != pose.rotation {
            rotation.start = Some(transform.rotation);
        }
    }
}
