//! [`SatDebugPlugin`] (feature `debug`): gizmo outlines, AABBs, contact points, normals and MTV
//! arrows, and the rays and shapes of the casters with their hits. Needs Bevy's gizmo rendering
//! in the app (`bevy_gizmos_render`).

use bevy::color::palettes::css;
use bevy::prelude::*;
use sat_core::{Pose, Shape};

use crate::child_colliders::ColliderOf;
use crate::components::{ConvexCollider, Mighty, Sensor, Weak};
use crate::contacts::Contacts;
use crate::query::{RayCaster, RayHits, ShapeCaster, ShapeHits};
use crate::step::body::pose_of;
use crate::tiles::TilePieces;

/// Draws what the collision system sees, every frame, with gizmos.
///
/// Toggle it at run time through [`SatDebugConfig::enabled`] (the platformer binds it to F1).
#[derive(Default, Debug, Clone, Copy)]
pub struct SatDebugPlugin;

/// What [`SatDebugPlugin`] draws.
#[derive(Resource, Reflect, Clone, Debug, PartialEq)]
#[reflect(Resource, Clone, Debug, PartialEq, Default)]
pub struct SatDebugConfig {
    /// Draw anything at all (default true).
    pub enabled: bool,
    /// Collider outlines, every part of a compound and every child collider where its body
    /// puts it: Mighty grey, Weak green, Sensor yellow, others white (a solid child collider in
    /// its body's colour).
    pub outlines: bool,
    /// Axis-aligned bounding boxes.
    pub aabbs: bool,
    /// Contact points (crosses), normals (from the first entity to the second) and MTV arrows.
    pub contacts: bool,
    /// Length in world units of a drawn normal.
    pub normal_length: f32,
    /// [`RayCaster`] rays (up to their first hit) and [`ShapeCaster`] shapes (where they start
    /// and where they first touch), with their hit points and normals.
    pub casters: bool,
}

impl Default for SatDebugConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            outlines: true,
            aabbs: false,
            contacts: true,
            normal_length: 12.0,
            casters: true,
        }
    }
}

impl Plugin for SatDebugPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<SatDebugConfig>()
            .init_resource::<SatDebugConfig>()
            .add_systems(
                PostUpdate,
                (draw_colliders, draw_casters).after(TransformSystems::Propagate),
            );
    }
}

use bevy::transform::TransformSystems;

type DebugQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static ConvexCollider,
        &'static Transform,
        Has<Mighty>,
        Has<Weak>,
        Has<Sensor>,
        Option<(&'static ColliderOf, &'static GlobalTransform)>,
    ),
>;

/// The body kinds of the bodies child colliders belong to, for their colour.
type KindQuery<'w, 's> = Query<'w, 's, (Has<Mighty>, Has<Weak>)>;

fn draw_colliders(
    config: Res<SatDebugConfig>,
    colliders: DebugQuery,
    kinds: KindQuery,
    grids: Query<&TilePieces>,
    contacts: Res<Contacts>,
    mut gizmos: Gizmos,
) {
    if !config.enabled {
        return;
    }
    // A tile grid's pieces, which are no entities, drawn as the Mighty colliders they are.
    if config.outlines {
        for shape in grids.iter().flat_map(TilePieces::shapes) {
            outline(&mut gizmos, &shape, css::LIGHT_GRAY);
        }
    }
    for (collider, transform, mut mighty, mut weak, sensor, part) in &colliders {
        // A child collider is where its global transform puts it (its own is an offset), in
        // its body's colour.
        let placed = match part {
            Some((of, global)) => {
                (mighty, weak) = kinds.get(of.body).unwrap_or((mighty, weak));
                pose_of(&global.compute_transform())
            }
            None => pose_of(transform),
        };
        let Some(Ok(shape)) = placed.map(|pose| collider.shape().transformed(&pose)) else {
            continue;
        };
        let color = match (sensor, mighty, weak) {
            (true, _, _) => css::YELLOW,
            (_, true, _) => css::LIGHT_GRAY,
            (_, _, true) => css::LIME,
            _ => css::WHITE,
        };
        if config.outlines {
            outline(&mut gizmos, &shape, color);
        }
        if config.aabbs {
            let aabb = shape.aabb();
            gizmos.rect_2d(
                Isometry2d::from_translation((aabb.min + aabb.max) * 0.5),
                aabb.size(),
                css::DODGER_BLUE,
            );
        }
    }
    if config.contacts {
        for pair in contacts.iter() {
            let c = pair.contact;
            for &point in c.points() {
                gizmos.cross_2d(Isometry2d::from_translation(point), 3.0, css::RED);
                gizmos.arrow_2d(point, point + c.normal * config.normal_length, css::ORANGE);
                if c.depth > 0.0 {
                    gizmos.arrow_2d(point, point + c.mtv(), css::FUCHSIA);
                }
            }
        }
    }
}

/// Draws a placed shape's outline.
fn outline(gizmos: &mut Gizmos, shape: &Shape, color: impl Into<Color>) {
    match shape {
        Shape::Polygon(p) => closed_strip(gizmos, p.vertices(), color),
        Shape::Large(p) => closed_strip(gizmos, p.vertices(), color),
        Shape::Circle(c) => {
            gizmos.circle_2d(Isometry2d::from_translation(c.center()), c.radius(), color);
        }
        Shape::Capsule(c) => closed_strip(gizmos, &c.outline(ROUNDED_OUTLINE_STEPS), color),
        Shape::Rounded(r) => closed_strip(gizmos, &r.outline(ROUNDED_OUTLINE_STEPS), color),
        Shape::Compound(c) => {
            let color = color.into();
            for part in c.parts() {
                outline(gizmos, &part.shape, color);
            }
        }
    }
}

/// How many straight pieces a rounded corner is drawn with.
const ROUNDED_OUTLINE_STEPS: usize = 8;

/// Draws a closed outline through `points`.
fn closed_strip(gizmos: &mut Gizmos, points: &[Vec2], color: impl Into<Color>) {
    gizmos.linestrip_2d(points.iter().copied().chain(points.first().copied()), color);
}

/// How far an unbounded cast is drawn when it hits nothing.
const UNBOUNDED_DRAW_LENGTH: f32 = 10_000.0;

/// Draws the casters as of the last step: each ray up to its first hit (or its reach), each
/// cast shape where it starts and where it first touches, and every hit point with its normal.
fn draw_casters(
    config: Res<SatDebugConfig>,
    rays: Query<(&RayCaster, &RayHits, &Transform)>,
    shapes: Query<(&ShapeCaster, &ShapeHits, &Transform)>,
    mut gizmos: Gizmos,
) {
    if !config.enabled || !config.casters {
        return;
    }
    let hit_mark = |gizmos: &mut Gizmos, point: Vec2, normal: Vec2| {
        gizmos.cross_2d(Isometry2d::from_translation(point), 3.0, css::RED);
        gizmos.arrow_2d(point, point + normal * config.normal_length, css::ORANGE);
    };
    for (caster, hits, transform) in &rays {
        let Some((origin, direction)) = caster.world_ray(transform) else {
            continue;
        };
        let length = hits
            .iter()
            .next()
            .map_or(caster.max_distance.min(UNBOUNDED_DRAW_LENGTH), |first| {
                first.distance
            });
        gizmos.line_2d(origin, origin + direction * length, css::AQUA);
        for hit in hits.iter() {
            hit_mark(&mut gizmos, hit.point, hit.normal);
        }
    }
    for (caster, hits, transform) in &shapes {
        let Some((origin, rotation, direction)) = caster.world_cast(transform) else {
            continue;
        };
        let length = hits
            .iter()
            .next()
            .map_or(caster.max_distance.min(UNBOUNDED_DRAW_LENGTH), |first| {
                first.distance
            });
        let end = origin + direction * length;
        for at in [origin, end] {
            if let Ok(shape) = caster
                .shape
                .shape()
                .transformed(&Pose::new(at, rotation, Vec2::ONE))
            {
                outline(&mut gizmos, &shape, css::AQUA);
            }
        }
        gizmos.line_2d(origin, end, css::AQUA);
        for hit in hits.iter() {
            hit_mark(&mut gizmos, hit.point, hit.normal);
        }
    }
}
