//! Drawing the level: every collider with a lyon shape built from its own local geometry (so
//! the picture is exactly what collides), the tile layers' art with earth below the ground, and
//! the sentries' laser beams.

use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;
use bevy_sat::geometry::Shape as SatShape;
use bevy_sat::prelude::*;

use crate::game::{self, Paint, Sentry, TileRect};
use crate::level::Level;
use crate::player::Player;

/// How far below the ground the earth is drawn.
const EARTH_BOTTOM: f32 = -900.0;

/// Earth under every rectangle of solid tiles, down out of sight, so the ground looks like
/// ground rather than a strip over the sky. Drawn behind the tiles, in two darkening bands.
pub fn earth(mut commands: Commands, level: Res<Level>) {
    let near_color = Color::srgb(0.24, 0.18, 0.15);
    let deep_color = Color::srgb(0.15, 0.11, 0.10);
    for art in &level.art {
        let local = art.min + Vec2::splat(1.0) - level.origin;
        let solid = level
            .grid
            .cell_at(local)
            .is_some_and(|cell| level.grid.get(cell) == Tile::Solid);
        if !solid {
            continue;
        }
        // From the rectangle's bottom down.
        let (left, right, bottom) = (art.min.x, art.min.x + art.size.x, art.min.y);
        for (from, to, color, z) in [
            (bottom, bottom - 48.0, near_color, -1.2),
            (bottom - 40.0, EARTH_BOTTOM, deep_color, -1.1),
        ] {
            let band = ShapeBuilder::with(&shapes::Polygon {
                points: vec![
                    Vec2::new(left, to),
                    Vec2::new(right, to),
                    Vec2::new(right, from),
                    Vec2::new(left, from),
                ],
                closed: true,
            })
            .fill(color)
            .build();
            commands.spawn((band, Transform::from_xyz(0.0, 0.0, z)));
        }
    }
}

/// The outline of one part of a compound collider, as points (round shapes as fine polygons).
fn part_outline(shape: &SatShape) -> Vec<Vec2> {
    match shape {
        SatShape::Polygon(polygon) => polygon.vertices().to_vec(),
        SatShape::Large(polygon) => polygon.vertices().to_vec(),
        SatShape::Circle(circle) => (0..32)
            .map(|i| {
                let angle = i as f32 * core::f32::consts::TAU / 32.0;
                circle.center() + Vec2::from_angle(angle) * circle.radius()
            })
            .collect(),
        SatShape::Capsule(capsule) => capsule.outline(12),
        SatShape::Rounded(rounded) => rounded.outline(6),
        SatShape::Compound(compound) => compound
            .parts()
            .iter()
            .flat_map(|part| part_outline(&part.shape))
            .collect(),
    }
}

/// The colliders [`new_colliders`] draws: new ones, but the player's.
type NewScenery = (Added<ConvexCollider>, Without<Player>);

/// Draws every collider with a lyon shape built from its own local geometry, so the picture is
/// exactly what collides. (The player is drawn by [`crate::hero::spawn`].)
pub fn new_colliders(
    mut commands: Commands,
    new: Query<(Entity, &ConvexCollider, &Paint), NewScenery>,
) {
    for (entity, collider, paint) in &new {
        let outline = paint.0.darker(0.25);
        let shape = match collider.shape() {
            SatShape::Polygon(polygon) => ShapeBuilder::with(&shapes::Polygon {
                points: polygon.vertices().to_vec(),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Large(polygon) => ShapeBuilder::with(&shapes::Polygon {
                points: polygon.vertices().to_vec(),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Circle(circle) => ShapeBuilder::with(&shapes::Circle {
                radius: circle.radius(),
                center: circle.center(),
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Capsule(capsule) => ShapeBuilder::with(&shapes::Polygon {
                points: capsule.outline(12),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            SatShape::Rounded(rounded) => ShapeBuilder::with(&shapes::Polygon {
                points: rounded.outline(6),
                closed: true,
            })
            .fill(paint.0)
            .stroke((outline, 2.0))
            .build(),
            // Every part, filled: the faces where parts meet are inside the body, not drawn.
            SatShape::Compound(compound) => compound
                .parts()
                .iter()
                .fold(ShapeBuilder::new(), |builder, part| {
                    builder.add(&shapes::Polygon {
                        points: part_outline(&part.shape),
                        closed: true,
                    })
                })
                .fill(paint.0)
                .build(),
        };
        commands.entity(entity).insert(shape);
    }
}

/// Draws the tile layers' art: each rectangle of equal tiles as one shape, outlined like the
/// other scenery.
pub fn tiles(mut commands: Commands, new: Query<(Entity, &TileRect, &Paint), Added<TileRect>>) {
    for (entity, rect, paint) in &new {
        let shape = ShapeBuilder::with(&shapes::Rectangle {
            extents: rect.0,
            ..default()
        })
        .fill(paint.0)
        .stroke((paint.0.darker(0.25), 2.0))
        .build();
        commands.entity(entity).insert(shape);
    }
}

/// A sentry's laser beam, drawn from its ray's hits.
#[derive(Component)]
pub struct LaserBeam;

/// What [`draw_lasers`] reads of a sentry: its ray, its hits, where it is, and its beam.
pub type SentryView = (
    Entity,
    &'static RayCaster,
    &'static RayHits,
    &'static Transform,
    Option<&'static Children>,
);

/// Draws each sentry's laser from its origin to its first hit (or its full reach), as of the
/// last physics step.
pub fn lasers(
    mut commands: Commands,
    sentries: Query<SentryView, With<Sentry>>,
    beams: Query<(), With<LaserBeam>>,
) {
    for (sentry, caster, hits, transform, children) in &sentries {
        let Some((origin, direction)) = caster.world_ray(transform) else {
            continue;
        };
        let end = hits.iter().next().map_or(
            origin + direction * caster.max_distance.min(game::LASER_REACH),
            |hit| hit.point,
        );
        // In the sentry's frame: the beam is its child.
        let to_local = transform.compute_affine().inverse();
        let local = |p: Vec2| to_local.transform_point3(p.extend(0.0)).truncate();
        let (from, to) = (local(origin), local(end));
        let beam = ShapeBuilder::with(&shapes::Line(from, to))
            .stroke((Color::srgb(1.0, 0.15, 0.2), 3.0))
            .build();
        let existing = children
            .into_iter()
            .flatten()
            .copied()
            .find(|child| beams.contains(*child));
        match existing {
            Some(child) => {
                commands.entity(child).insert(beam);
            }
            None => {
                commands.spawn((
                    LaserBeam,
                    beam,
                    Transform::from_xyz(0.0, 0.0, 0.5),
                    ChildOf(sentry),
                ));
            }
        }
    }
}
