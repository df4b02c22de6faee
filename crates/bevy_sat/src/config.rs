//! [`SatConfig`]: the settings a game tunes.

use bevy::prelude::*;

/// The plugin's settings, a resource. Change it at any time; it is read every step.
///
/// ```
/// # use bevy_sat::prelude::*; use bevy::prelude::*;
/// let mut app = App::new();
/// app.add_plugins((MinimalPlugins, SatPlugin::default()))
///     .insert_resource(SatConfig { gravity: Vec2::new(0.0, -980.0), ..default() });
/// ```
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Clone, Debug, PartialEq, Default)]
pub struct SatConfig {
    /// Resolution passes per step at most (default 4). More passes settle deeper stacks and
    /// longer chains of pushed bodies within one step; a step stops early after a pass that
    /// moves nothing, since every further pass would do the same.
    pub passes: u32,
    /// Acceleration added to the [`Velocity`](crate::Velocity) of every
    /// [`Weak`](crate::Weak) body each step, in units per second squared (default zero).
    pub gravity: Vec2,
    /// The steepest surface, in radians from level, that still counts as floor (default 45°).
    pub max_floor_angle: f32,
    /// Bodies closer than this are still in contact (default 0.01 units). It keeps resting
    /// contacts, contact flags and events steady when round-off opens a tiny gap. Likewise,
    /// resolution leaves overlaps up to a tenth of it (round-off after a push) unpushed.
    pub contact_margin: f32,
    /// A Weak body that stood on a floor in the last step and is not moving up is pulled down
    /// onto a floor up to this far below it (default 0: off). Keeps a body walking down a slope
    /// or over a small step on the ground instead of hopping off it.
    pub floor_snap_distance: f32,
    /// A pair whose relative motion in a step exceeds this fraction of the smaller body's size
    /// is swept (continuous collision) instead of tested at the end of the step (default 0.5).
    pub sweep_fraction: f32,
}

impl Default for SatConfig {
    fn default() -> Self {
        Self {
            passes: 4,
            gravity: Vec2::ZERO,
            max_floor_angle: core::f32::consts::FRAC_PI_4,
            contact_margin: 0.01,
            floor_snap_distance: 0.0,
            sweep_fraction: 0.5,
        }
    }
}
