//! Stage 1: gravity, integration, and placing every collider in the world once.

use bevy::prelude::*;
use sat_core::Pose;

use super::{Body, Kind, StepState};
use crate::components::{CollisionLayers, ConvexCollider, Mighty, Sensor, Velocity, Weak};
use crate::config::SatConfig;

/// The colliders the step reads.
pub(crate) type ColliderQuery<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static ConvexCollider,
        &'static Transform,
        Option<&'static Velocity>,
        Has<Mighty>,
        Has<Weak>,
        Has<Sensor>,
        Option<&'static CollisionLayers>,
    ),
>;

/// The pose of a collider's entity: translation, rotation about z, scale in x and y. `None`
/// when the rotation is not finite or turns the x axis out of the plane.
pub(crate) fn pose_of(transform: &Transform) -> Option<Pose> {
    let x_axis = transform.rotation * Vec3::X;
    Some(Pose {
        translation: transform.translation.truncate(),
        rotation: x_axis.truncate().try_normalize()?,
        scale: transform.scale.truncate(),
    })
}

pub(crate) fn prepare_bodies(
    time: Res<Time>,
    config: Res<SatConfig>,
    colliders: ColliderQuery,
    mut state: ResMut<StepState>,
) {
    let dt = time.delta_secs();
    let state = &mut *state;
    state.bodies.clear();
    state.index.clear();
    state.reach = 0.0;
    let warnings = &mut state.warnings;
    for (entity, collider, transform, velocity, mighty, weak, sensor, layers) in &colliders {
        let kind = match (mighty, weak) {
            (_, false) | (true, true) => {
                if mighty && weak && warnings.both_kinds.insert(entity) {
                    warn!("{entity} has both Mighty and Weak: it is treated as Mighty");
                }
                if !mighty && !sensor && warnings.no_kind.insert(entity) {
                    warn!(
                        "{entity} has a ConvexCollider but neither Mighty nor Weak: it is treated \
                         as Mighty (static scenery, never pushed)"
                    );
                }
                Kind::Mighty
            }
            (false, true) => Kind::Weak,
        };
        let mut v = velocity.map_or(Vec2::ZERO, |v| v.0);
        if kind == Kind::Weak && velocity.is_some() {
            v += config.gravity * dt;
        }
        let start = transform.translation.truncate();
        if !start.is_finite() || !v.is_finite() {
            if warnings.non_finite.insert(entity) {
                warn!(
                    "{entity} has a non-finite translation or velocity ({start}, {v}): it is \
                     left out of collision until both are finite again"
                );
            }
            continue;
        }
        let motion = v * dt;
        let Some(mut pose) = pose_of(transform) else {
            if warnings.unplaceable.insert(entity) {
                warn!("{entity} has a non-finite or out-of-plane rotation: it is left out");
            }
            continue;
        };
        pose.translation = start + motion;
        let shape = match collider.shape().transformed(&pose) {
            Ok(shape) => shape,
            Err(error) => {
                if warnings.unplaceable.insert(entity) {
                    warn!("{entity}'s collider cannot be placed ({error}): it is left out");
                }
                continue;
            }
        };
        state.reach = state.reach.max(motion.length());
        let aabb = shape.aabb();
        let size = aabb.size().min_element();
        state.index.insert(entity, state.bodies.len());
        state.bodies.push(Body {
            entity,
            kind,
            sensor,
            layers: layers.copied().unwrap_or_default(),
            shape,
            position: pose.translation,
            start,
            velocity: v,
            swept: aabb.swept(-motion).grown(config.contact_margin.max(0.0)),
            size,
        });
    }
}
