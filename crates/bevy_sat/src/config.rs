//! [`SatConfig`]: the settings a game tunes, and [`PlatformOnLeave`], one of them.

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
    /// onto a floor up to this far below it (default 4 units; 0 turns it off). Keeps a body
    /// walking down a slope or over a small step on the ground instead of hopping off it, as
    /// game engines' character controllers do out of the box; a body moving up (jumping) is
    /// never pulled down. The default suits games measured in pixels; scale it with the
    /// game's units.
    ///
    /// Snapping pulls straight down (-y), and is off while [`gravity`](Self::gravity) has no
    /// downward part: in a top-down game, nothing is a floor to walk down.
    pub floor_snap_distance: f32,
    /// A pair whose relative motion in a step exceeds this fraction of the smaller body's size
    /// is swept (continuous collision) instead of tested at the end of the step (default 0.5).
    pub sweep_fraction: f32,
    /// A Weak body on a floor that walks into a ledge no taller than this steps up onto it in
    /// the same step, keeping its horizontal speed (default 0: off). A taller ledge, or one
    /// without room above it for the body, stops it as a wall does. Only Mighty bodies are
    /// stepped onto.
    pub step_height: f32,
    /// A body moving up that clips the corner of a ceiling by at most this much sideways is
    /// nudged aside, just clear of it, and keeps rising at its speed instead of losing its jump
    /// (default 0: off). A wider overlap stops it as any ceiling does.
    pub corner_correction: f32,
    /// What a Weak body keeps of the velocity of the platform it stood on when it leaves it
    /// (jumps or walks off, and touches no floor in that step): see [`PlatformOnLeave`]
    /// (default [`PlatformOnLeave::AddVelocity`]).
    pub platform_on_leave: PlatformOnLeave,
}

/// What a [`Weak`](crate::Weak) body keeps of a moving platform's velocity when it leaves it:
/// in the step where it stood on the platform at the end of the last step and touches no
/// floor at the end of this one, the platform's velocity (its
/// [`ContactFlags::platform_velocity`](crate::ContactFlags::platform_velocity) of the last
/// step) is added once to the body's own [`Velocity`](crate::Velocity). The body was carried
/// along by the platform without that velocity being its own: without it, a player jumping
/// off a ferry would stop dead in the air. The variants are those of Godot's
/// `CharacterBody2D.platform_on_leave`.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Clone, Debug, PartialEq, Default)]
pub enum PlatformOnLeave {
    /// The whole platform velocity is added: a player jumping off a ferry moving at 120
    /// units/s keeps moving at 120 in the air, and one jumping off a rising elevator jumps
    /// higher.
    #[default]
    AddVelocity,
    /// The platform velocity is added without its downward part: off a platform moving down,
    /// only its sideways motion is kept, so that a jump keeps its full height; off one moving
    /// up or sideways, all of it.
    AddUpwardVelocity,
    /// Nothing is added: the body leaves with its own velocity only.
    DoNothing,
}

impl PlatformOnLeave {
    /// What is added to a leaving body's velocity for a platform moving at `platform`.
    pub(crate) fn kept(self, platform: Vec2) -> Vec2 {
        match self {
            Self::AddVelocity => platform,
            Self::AddUpwardVelocity => Vec2::new(platform.x, platform.y.max(0.0)),
            Self::DoNothing => Vec2::ZERO,
        }
    }
}

impl Default for SatConfig {
    fn default() -> Self {
        Self {
            passes: 4,
            gravity: Vec2::ZERO,
            max_floor_angle: core::f32::consts::FRAC_PI_4,
            contact_margin: 0.01,
            floor_snap_distance: 4.0,
            sweep_fraction: 0.5,
            step_height: 0.0,
            corner_correction: 0.0,
            platform_on_leave: PlatformOnLeave::AddVelocity,
        }
    }
}

/// The longest step the plugin integrates, in seconds (as long as the longest frame Bevy's
/// virtual clock lets through): a longer `dt` is cut to this, since moving every body by
/// seconds of motion at once grows every swept box, and the broad phase's pair count, without
/// bound.
pub(crate) const MAX_DT: f32 = 0.25;

/// [`SatConfig`]'s values made valid, once per step: what every stage reads instead of the
/// resource itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StepSettings {
    /// Resolution passes, at least one.
    pub passes: u32,
    /// Finite.
    pub gravity: Vec2,
    /// Cosine of the steepest floor: an outward normal with `y` at least this is a floor.
    pub floor_cos: f32,
    /// The contact margin, zero or more.
    pub margin: f32,
    /// Overlaps up to this deep are left as they are: a tenth of the margin. A pair pushed
    /// apart ends up touching, but measured again its depth is round-off, a little above or
    /// below zero: pushing that would move bodies by nothing visible, pass after pass, and keep
    /// the whole crowd around them in play. Such a pair still touches (and holds) as one within
    /// the margin does.
    pub slop: f32,
    /// The floor snap distance, zero (off) or more: zero while gravity has no downward part.
    pub snap: f32,
    /// The sweep fraction, zero or more.
    pub sweep_fraction: f32,
    /// How far apart two faces may be and still count as flush (an internal face).
    pub seam_tolerance: f32,
    /// The step height, zero (off) or more.
    pub step_height: f32,
    /// The corner correction, zero (off) or more.
    pub corner_correction: f32,
    /// What a body keeps of a platform's velocity when it leaves it.
    pub on_leave: PlatformOnLeave,
    /// The step's duration in seconds, as prepare integrated it (zero until the first step).
    pub dt: f32,
}

impl Default for StepSettings {
    fn default() -> Self {
        SatConfig::default().settings().0
    }
}

impl StepSettings {
    /// Whether a body pushed out along `out` (a unit vector) is pushed out of a floor.
    pub fn is_floor(&self, out: Vec2) -> bool {
        out.y >= self.floor_cos
    }
}

impl SatConfig {
    /// The settings a step uses, and the names of the fields that were not valid and were
    /// replaced: a field that is not finite (or a negative distance) takes its default value,
    /// an angle beyond a right angle is clamped to it, zero passes become one.
    pub(crate) fn settings(&self) -> (StepSettings, Vec<&'static str>) {
        let default = Self::default();
        let mut replaced = Vec::new();
        let mut distance = |value: f32, default: f32, name: &'static str| {
            if value.is_finite() && value >= 0.0 {
                value
            } else {
                replaced.push(name);
                default
            }
        };
        let margin = distance(
            self.contact_margin,
            default.contact_margin,
            "contact_margin",
        );
        let snap = distance(
            self.floor_snap_distance,
            default.floor_snap_distance,
            "floor_snap_distance",
        );
        let sweep_fraction = distance(
            self.sweep_fraction,
            default.sweep_fraction,
            "sweep_fraction",
        );
        let step_height = distance(self.step_height, default.step_height, "step_height");
        let corner_correction = distance(
            self.corner_correction,
            default.corner_correction,
            "corner_correction",
        );
        let angle = if self.max_floor_angle.is_nan() {
            replaced.push("max_floor_angle");
            default.max_floor_angle
        } else {
            self.max_floor_angle
                .clamp(0.0, core::f32::consts::FRAC_PI_2)
        };
        let gravity = if self.gravity.is_finite() {
            self.gravity
        } else {
            replaced.push("gravity");
            Vec2::ZERO
        };
        if self.passes == 0 {
            replaced.push("passes");
        }
        let settings = StepSettings {
            passes: self.passes.max(1),
            gravity,
            floor_cos: angle.cos(),
            margin,
            slop: margin * 0.1,
            // Down is the way gravity pulls: without gravity, nothing walks down anything.
            snap: if gravity.y < 0.0 { snap } else { 0.0 },
            sweep_fraction,
            seam_tolerance: margin.max(1.0e-4),
            step_height,
            corner_correction,
            on_leave: self.platform_on_leave,
            dt: 0.0,
        };
        (settings, replaced)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_settings_are_taken_as_they_are() {
        let config = SatConfig {
            passes: 7,
            gravity: Vec2::new(0.0, -900.0),
            max_floor_angle: 0.5,
            contact_margin: 0.02,
            floor_snap_distance: 3.0,
            sweep_fraction: 0.25,
            step_height: 6.0,
            corner_correction: 4.0,
            platform_on_leave: PlatformOnLeave::AddUpwardVelocity,
        };
        let (settings, replaced) = config.settings();
        assert!(replaced.is_empty(), "{replaced:?}");
        assert_eq!(settings.step_height, 6.0);
        assert_eq!(settings.corner_correction, 4.0);
        assert_eq!(settings.passes, 7);
        assert_eq!(settings.gravity, Vec2::new(0.0, -900.0));
        assert_eq!(settings.floor_cos, 0.5f32.cos());
        assert_eq!(settings.margin, 0.02);
        assert_eq!(settings.slop, 0.02 * 0.1);
        assert_eq!(settings.snap, 3.0);
        assert_eq!(settings.sweep_fraction, 0.25);
        assert_eq!(settings.on_leave, PlatformOnLeave::AddUpwardVelocity);
    }

    #[test]
    fn invalid_settings_take_their_defaults_and_are_named() {
        let config = SatConfig {
            passes: 0,
            gravity: Vec2::new(f32::NAN, 0.0),
            max_floor_angle: f32::NAN,
            contact_margin: -1.0,
            floor_snap_distance: f32::INFINITY,
            sweep_fraction: f32::NAN,
            step_height: -2.0,
            corner_correction: f32::NAN,
            platform_on_leave: PlatformOnLeave::DoNothing,
        };
        let (settings, replaced) = config.settings();
        assert_eq!(
            replaced,
            [
                "contact_margin",
                "floor_snap_distance",
                "sweep_fraction",
                "step_height",
                "corner_correction",
                "max_floor_angle",
                "gravity",
                "passes"
            ]
        );
        let (default, _) = SatConfig::default().settings();
        assert_eq!(
            settings,
            StepSettings {
                passes: 1,
                // No gravity (the invalid one is replaced by none): no snapping.
                snap: 0.0,
                on_leave: PlatformOnLeave::DoNothing,
                ..default
            }
        );
    }

    #[test]
    fn floor_snapping_follows_gravity_down() {
        let snap = |gravity: Vec2| {
            SatConfig {
                gravity,
                ..default()
            }
            .settings()
            .0
            .snap
        };
        assert_eq!(SatConfig::default().floor_snap_distance, 4.0);
        assert_eq!(snap(Vec2::new(0.0, -900.0)), 4.0);
        assert_eq!(snap(Vec2::new(30.0, -0.5)), 4.0);
        assert_eq!(snap(Vec2::ZERO), 0.0);
        assert_eq!(snap(Vec2::new(-900.0, 0.0)), 0.0);
        assert_eq!(snap(Vec2::new(0.0, 900.0)), 0.0);
    }

    #[test]
    fn platform_on_leave_keeps_what_godot_keeps() {
        let cases = [
            (Vec2::new(120.0, 0.0), Vec2::new(120.0, 0.0)),
            (Vec2::new(-50.0, 80.0), Vec2::new(-50.0, 80.0)),
            (Vec2::new(60.0, -80.0), Vec2::new(60.0, 0.0)),
            (Vec2::new(0.0, -100.0), Vec2::ZERO),
        ];
        for (platform, upward) in cases {
            assert_eq!(PlatformOnLeave::AddVelocity.kept(platform), platform);
            assert_eq!(PlatformOnLeave::AddUpwardVelocity.kept(platform), upward);
            assert_eq!(PlatformOnLeave::DoNothing.kept(platform), Vec2::ZERO);
        }
        assert_eq!(
            SatConfig::default().platform_on_leave,
            PlatformOnLeave::AddVelocity
        );
    }

    #[test]
    fn a_floor_angle_past_a_right_angle_is_clamped() {
        let steep = SatConfig {
            max_floor_angle: 3.0,
            ..default()
        };
        let (settings, replaced) = steep.settings();
        assert!(replaced.is_empty());
        assert_eq!(settings.floor_cos, core::f32::consts::FRAC_PI_2.cos());
    }
}
