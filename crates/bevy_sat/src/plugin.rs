//! [`SatPlugin`] and its public system sets, [`SatSystems`].

use bevy::ecs::intern::Interned;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy_transform_interpolation::TransformEasingSystems;
use bevy_transform_interpolation::prelude::{TransformEasingPlugin, TransformInterpolationPlugin};
use bevy_transform_interpolation::reset_easing_states_on_transform_change;

use crate::child_colliders::{self, BodyColliders, ColliderOf};
use crate::collider_removals;
use crate::colliding::{self, CollidingEntities};
use crate::components::{
    CollisionLayers, ConvexCollider, DropThrough, Floating, Mighty, OneWayPlatform, RealVelocity,
    Sensor, Velocity, Weak,
};
use crate::config::{PlatformOnLeave, SatConfig};
use crate::contact_flags::ContactFlags;
use crate::contacts::Contacts;
use crate::diagnostics::{self, MissingColliders};
use crate::events::{CollisionEnded, CollisionStarted, Crushed};
use crate::interpolation;
use crate::query::{self, QueryIndex};
use crate::step::{self, StepState};
use crate::tiles::{self, Tile, TileGridCount};

/// The stages of one physics step, in order. Each is a public set, so a game can order its own
/// systems around them (for example: set velocities `.before(SatSystems::Prepare)`, read
/// [`ContactFlags`] `.after(SatSystems::Writeback)`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SatSystems {
    /// Builds the colliders of edited [`TileGrid`](crate::TileGrid)s, applies gravity, moves
    /// bodies by their velocity, places every collider in the world once (world vertices,
    /// swept AABB). Also warns, once per entity, about bodies that have
    /// no [`ConvexCollider`] (they are left out).
    Prepare,
    /// Sweep-and-prune over the swept AABBs: the candidate pairs.
    BroadPhase,
    /// SAT on the candidate pairs, in parallel; sweeps for fast pairs.
    NarrowPhase,
    /// Pushes Weak bodies out (several passes), removes velocity into surfaces.
    Resolve,
    /// Contact flags, [`Contacts`], collision events, and the new positions and velocities
    /// written to the entities.
    Writeback,
    /// [`RayCaster`](crate::RayCaster)s and [`ShapeCaster`](crate::ShapeCaster)s cast against
    /// the colliders as the step left them, and write their hits.
    Casters,
}

/// Adds 2D SAT collision: the components, [`SatConfig`], [`Contacts`], the collision events and
/// the step systems, in [`SatSystems`] sets chained in that order.
///
/// Runs in `FixedPostUpdate` by default (one step per fixed timestep, so physics is independent
/// of the frame rate); [`SatPlugin::new`] picks another schedule.
///
/// ```no_run
/// use bevy::prelude::*;
/// use bevy_sat::prelude::*;
///
/// App::new()
///     .add_plugins((DefaultPlugins, SatPlugin::default()))
///     .insert_resource(SatConfig { gravity: Vec2::new(0.0, -900.0), ..default() })
///     .add_systems(Startup, |mut commands: Commands| {
///         commands.spawn((ConvexCollider::rectangle(800.0, 20.0), Mighty));
///         commands.spawn((
///             ConvexCollider::rectangle(16.0, 24.0),
///             Weak,
///             Transform::from_xyz(0.0, 100.0, 0.0),
///         ));
///     })
///     .run();
/// ```
#[derive(Debug, Clone)]
pub struct SatPlugin {
    schedule: Interned<dyn ScheduleLabel>,
}

impl Default for SatPlugin {
    fn default() -> Self {
        Self::new(FixedPostUpdate)
    }
}

impl SatPlugin {
    /// Runs the step in `schedule` instead of `FixedPostUpdate`. The step uses that schedule's
    /// `Time` delta.
    pub fn new(schedule: impl ScheduleLabel) -> Self {
        Self {
            schedule: schedule.intern(),
        }
    }
}

impl Plugin for SatPlugin {
    fn build(&self, app: &mut App) {
        // `TransformInterpolation` works with this plugin alone. (The easing plugin is added
        // here, not left to the interpolation plugin's `finish`, which an app stepped by
        // `update()` alone never reaches.)
        if !app.is_plugin_added::<TransformInterpolationPlugin>() {
            app.add_plugins(TransformInterpolationPlugin::default());
        }
        if !app.is_plugin_added::<TransformEasingPlugin>() {
            app.add_plugins(TransformEasingPlugin);
        }
        // A `Transform` the game wrote between frames is a teleport even when the next frame
        // runs a fixed step: its easing is dropped before the step would put the body back
        // where the last step left it.
        app.add_systems(
            RunFixedMainLoop,
            reset_easing_states_on_transform_change
                .in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
        );
        // A `Transform` the game wrote in a fixed schedule after the step is a teleport too.
        // (`try_`: a second `SatPlugin` finds it registered.)
        let _ = app.try_register_required_components::<
            interpolation::TransformInterpolation,
            interpolation::SteppedPose,
        >();
        app.add_systems(
            FixedLast,
            interpolation::draw_teleports_at_once.after(TransformEasingSystems::UpdateEnd),
        );
        child_colliders::observe_changes(app);
        collider_removals::count_removals(app);
        app.register_type::<ConvexCollider>()
            .register_type::<Velocity>()
            .register_type::<RealVelocity>()
            .register_type::<Mighty>()
            .register_type::<Weak>()
            .register_type::<Sensor>()
            .register_type::<CollisionLayers>()
            .register_type::<ContactFlags>()
            .register_type::<OneWayPlatform>()
            .register_type::<DropThrough>()
            .register_type::<SatConfig>()
            .register_type::<PlatformOnLeave>()
            .register_type::<CollidingEntities>()
            .register_type::<Tile>()
            .register_type::<Floating>()
            .register_type::<ColliderOf>()
            .register_type::<BodyColliders>()
            .init_resource::<SatConfig>()
            .init_resource::<Contacts>()
            .init_resource::<StepState>()
            .init_resource::<MissingColliders>()
            .init_resource::<QueryIndex>()
            .init_resource::<TileGridCount>()
            .add_message::<CollisionStarted>()
            .add_message::<CollisionEnded>()
            .add_message::<Crushed>()
            .configure_sets(
                self.schedule,
                (
                    SatSystems::Prepare,
                    SatSystems::BroadPhase,
                    SatSystems::NarrowPhase,
                    SatSystems::Resolve,
                    SatSystems::Writeback,
                    SatSystems::Casters,
                )
                    .chain()
                    .before(TransformSystems::Propagate),
            )
            .add_systems(
                self.schedule,
                (
                    (
                        // Tile-grid edits become pieces before the step places colliders.
                        tiles::sync_tile_grids,
                        interpolation::start_easing_at_teleports,
                        child_colliders::track_child_colliders,
                        step::prepare::prepare_bodies,
                        step::children::place_child_colliders,
                    )
                        .chain()
                        .in_set(SatSystems::Prepare),
                    diagnostics::warn_missing_colliders.in_set(SatSystems::Prepare),
                    // The tile grids' pieces near the bodies join the candidates.
                    (step::broad::find_candidate_pairs, tiles::add_nearby_pieces)
                        .chain()
                        .in_set(SatSystems::BroadPhase),
                    step::narrow::narrow_phase.in_set(SatSystems::NarrowPhase),
                    (
                        step::resolve::resolve_contacts,
                        step::children::follow_bodies,
                    )
                        .chain()
                        .in_set(SatSystems::Resolve),
                    (
                        step::writeback::write_back,
                        step::writeback::report_contacts,
                        colliding::fill_colliding_entities,
                        interpolation::remember_stepped_poses,
                    )
                        .chain()
                        .in_set(SatSystems::Writeback),
                    query::run_casters.in_set(SatSystems::Casters),
                ),
            );
        // bevy_ecs_tilemap layers become grids (their edits cells) before the grids' pieces are
        // built.
        #[cfg(feature = "bevy_ecs_tilemap")]
        app.add_systems(
            self.schedule,
            tiles::sync_tilemap_layers
                .in_set(SatSystems::Prepare)
                .before(tiles::sync_tile_grids),
        );
    }
}
