//! [`TransformInterpolation`]: a body drawn between its last two fixed steps.
//!
//! The easing itself is bevy_transform_interpolation's (its plugin is added by
//! [`SatPlugin`](crate::SatPlugin)): at the start of each fixed step the `Transform` is put back
//! where the last step left it, so the fixed schedules see true positions; after the fixed steps
//! of a frame it is set between the last two by how far the frame is into the next step.
//!
//! A `Transform` the game writes itself is a teleport: written outside the fixed schedules, the
//! easing starts over from there, whether or not the next frame runs a fixed step (the easing
//! crate's check for such writes runs before the fixed steps too, not only after them); written in a fixed schedule before the step, the step
//! starts the easing from the new place ([`start_easing_at_teleports`]), so the body never
//! sweeps across the screen from where it was.

use bevy::prelude::*;
use bevy_transform_interpolation::{RotationEasingState, TranslationEasingState};

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
