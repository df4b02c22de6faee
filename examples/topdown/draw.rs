//! Drawing: every collider with a lyon shape built from its own local geometry (so the picture
//! is exactly what collides), a tiled floor, shadows cast down-right, walls with a front face,
//! crates with planks, pillars with a highlight, and the character's face turned where it
//! walks.

use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;
use bevy_sat::geometry::Shape as SatShape;
use bevy_sat::prelude::*;

use crate::game::{self, Crate, Goal, Paint, Pillar, Player, Wall};

/// Where shadows fall, from the thing that casts them (the light is up-left).
const SHADOW_OFFSET: Vec2 = Vec2::new(6.0, -8.0);
const SHADOW: Color = Color::srgba(0.0, 0.0, 0.05, 0.35);
/// How tall a wall's front face is drawn below its top.
const WALL_FACE: f32 = 14.0;
/// The floor's tile size.
const TILE: f32 = 64.0;

/// `color` in shade: mixed with black by `amount` (0 unchanged, 1 black).
fn shade(color: Color, amount: f32) -> Color {
    color.mix(&Color::BLACK, amount)
}

/// The outline of a collider in its own frame, as points (circles as a fine polygon; a compound,
/// which this level has none of, as its first part).
fn outline(collider: &ConvexCollider) -> Vec<Vec2> {
    shape_outline(collider.shape())
}

/// The outline of a shape, as [`outline`] gives it.
fn shape_outline(shape: &SatShape) -> Vec<Vec2> {
    match shape {
        SatShape::Polygon(polygon) => polygon.vertices().to_vec(),
        SatShape::Large(polygon) => polygon.vertices().to_vec(),
        SatShape::Circle(circle) => (0..48)
            .map(|i| {
                let angle = i as f32 * core::f32::consts::TAU / 48.0;
                circle.center() + Vec2::from_angle(angle) * circle.radius()
            })
            .collect(),
        SatShape::Capsule(capsule) => capsule.outline(12),
        SatShape::Rounded(rounded) => rounded.outline(6),
        SatShape::Compound(compound) => compound
            .parts()
            .first()
            .map_or_else(Vec::new, |part| shape_outline(&part.shape)),
    }
}

/// A filled polygon, with an outline if `stroke` is given.
fn polygon(points: Vec<Vec2>, fill: Color, stroke: Option<(Color, f32)>) -> Shape {
    let builder = ShapeBuilder::with(&shapes::Polygon {
        points,
        closed: true,
    })
    .fill(fill);
    match stroke {
        Some(stroke) => builder.stroke(stroke).build(),
        None => builder.build(),
    }
}

/// A filled circle.
fn disc(center: Vec2, radius: f32, fill: Color) -> Shape {
    ShapeBuilder::with(&shapes::Circle { radius, center })
        .fill(fill)
        .build()
}

/// A line.
fn line(from: Vec2, to: Vec2, color: Color, width: f32) -> Shape {
    ShapeBuilder::with(&shapes::Line(from, to))
        .stroke((color, width))
        .build()
}

/// Spawns `shape` as a child of `parent`, `z` in front of it (behind when negative).
fn child(commands: &mut Commands, parent: Entity, shape: Shape, z: f32) -> Entity {
    commands
        .spawn((shape, Transform::from_xyz(0.0, 0.0, z), ChildOf(parent)))
        .id()
}

/// The floor: a checkerboard of slightly different stone tiles with dark grout, under
/// everything.
pub fn floor(mut commands: Commands) {
    let (columns, rows) = (
        (2.0 * game::ROOM.x / TILE) as i32,
        (2.0 * game::ROOM.y / TILE) as i32,
    );
    let light = Color::srgb(0.30, 0.33, 0.38);
    let dark = Color::srgb(0.27, 0.30, 0.35);
    let grout = Color::srgb(0.20, 0.22, 0.26);
    for column in 0..columns {
        for row in 0..rows {
            let corner = -game::ROOM + Vec2::new(column as f32, row as f32) * TILE;
            let center = corner + Vec2::splat(TILE / 2.0);
            let fill = if (column + row) % 2 == 0 { light } else { dark };
            let half = TILE / 2.0;
            let square = vec![
                Vec2::new(-half, -half),
                Vec2::new(half, -half),
                Vec2::new(half, half),
                Vec2::new(-half, half),
            ];
            commands.spawn((
                polygon(square, fill, Some((grout, 2.0))),
                Transform::from_translation(center.extend(-20.0)),
            ));
        }
    }
}

/// What [`new_colliders`] reads of a new collider.
type NewCollider = (
    Entity,
    &'static ConvexCollider,
    &'static Paint,
    Has<Wall>,
    Has<Crate>,
    Has<Pillar>,
    Has<Player>,
    Has<Goal>,
);

/// Draws each new collider from its own outline, with its shadow and its details.
pub fn new_colliders(mut commands: Commands, new: Query<NewCollider, Added<ConvexCollider>>) {
    for (entity, collider, paint, is_wall, is_crate, is_pillar, is_player, is_goal) in &new {
        let points = outline(collider);
        let edge = shade(paint.color, 0.3);
        commands
            .entity(entity)
            .insert(polygon(points.clone(), paint.color, Some((edge, 2.0))));
        if paint.shadow {
            let shadow: Vec<Vec2> = points.iter().map(|p| *p + SHADOW_OFFSET).collect();
            child(&mut commands, entity, polygon(shadow, SHADOW, None), -6.0);
        }
        let (min, max) = points.iter().fold(
            (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        if is_wall {
            // The wall's front face, below its top: darker, so the wall stands up.
            let face = vec![
                Vec2::new(min.x, min.y - WALL_FACE),
                Vec2::new(max.x, min.y - WALL_FACE),
                Vec2::new(max.x, min.y),
                Vec2::new(min.x, min.y),
            ];
            child(
                &mut commands,
                entity,
                polygon(face, shade(paint.color, 0.35), None),
                -0.5,
            );
        }
        if is_crate {
            // Planks: an inner frame and a diagonal brace.
            let plank = shade(paint.color, 0.3);
            let inset = (max - min) * 0.18;
            let (lo, hi) = (min + inset, max - inset);
            let frame = ShapeBuilder::with(&shapes::Polygon {
                points: vec![lo, Vec2::new(hi.x, lo.y), hi, Vec2::new(lo.x, hi.y)],
                closed: true,
            })
            .stroke((plank, 3.0))
            .build();
            child(&mut commands, entity, frame, 0.1);
            child(&mut commands, entity, line(lo, hi, plank, 4.0), 0.2);
        }
        if is_pillar {
            // A highlight up-left, where the light comes from.
            let radius = (max.x - min.x) / 2.0;
            let highlight = paint.color.mix(&Color::WHITE, 0.15);
            let spot = disc(Vec2::new(-0.25, 0.25) * radius, radius * 0.55, highlight);
            child(&mut commands, entity, spot, 0.1);
        }
        if is_goal {
            // Two rings, so the pad reads as a target.
            let radius = (max.x - min.x) / 2.0;
            let glow = Color::srgba(0.75, 1.0, 0.8, 0.8);
            for ring in [0.75, 0.4] {
                let circle = ShapeBuilder::with(&shapes::Circle {
                    radius: radius * ring,
                    center: Vec2::ZERO,
                })
                .stroke((glow, 3.0))
                .build();
                child(&mut commands, entity, circle, 0.1);
            }
        }
        if is_player {
            spawn_face(&mut commands, entity);
        }
    }
}

/// The character's face: a node turned towards where it looks, holding two eyes and two cheeks.
#[derive(Component)]
pub struct Face;

fn spawn_face(commands: &mut Commands, player: Entity) {
    let face = commands
        .spawn((
            Face,
            Transform::from_xyz(0.0, 0.0, 0.2),
            Visibility::default(),
            ChildOf(player),
        ))
        .id();
    let white = Color::srgb(0.98, 0.98, 1.0);
    let pupil = Color::srgb(0.10, 0.10, 0.16);
    for side in [-1.0, 1.0] {
        let eye = Vec2::new(5.0, 5.5 * side);
        child(commands, face, disc(eye, 4.2, white), 0.1);
        child(
            commands,
            face,
            disc(eye + Vec2::new(1.6, 0.0), 2.2, pupil),
            0.2,
        );
    }
    let cheek = Color::srgba(0.95, 0.45, 0.40, 0.6);
    for side in [-1.0, 1.0] {
        child(
            commands,
            face,
            disc(Vec2::new(1.0, 9.5 * side), 2.5, cheek),
            0.05,
        );
    }
}

/// Turns each face towards where its character looks, easing round the shorter way.
pub fn turn_faces(
    time: Res<Time>,
    players: Query<(&Player, &Children)>,
    mut faces: Query<&mut Transform, With<Face>>,
) {
    for (player, children) in &players {
        for child in children.iter() {
            let Ok(mut transform) = faces.get_mut(child) else {
                continue;
            };
            let now = transform.rotation.to_euler(EulerRot::ZYX).0;
            let target = player.facing.to_angle();
            let turn = (target - now + core::f32::consts::PI).rem_euclid(core::f32::consts::TAU)
                - core::f32::consts::PI;
            let eased = now + turn * (1.0 - (-14.0 * time.delta_secs()).exp());
            transform.rotation = Quat::from_rotation_z(eased);
        }
    }
}
