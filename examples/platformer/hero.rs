//! How the player looks: its collider's outline with a face, squashed when it lands and
//! stretched while it rises or falls, eyes turned where it runs, and puffs of dust where it
//! lands. Only the drawing is squashed (a child of the player, scaled about its feet): the
//! collider keeps its size.

use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;
use bevy_sat::geometry::Shape as SatShape;
use bevy_sat::prelude::*;

use crate::game::Paint;
use crate::player::{PLAYER_SIZE, Player};

/// The player's drawing state, on the player.
#[derive(Component, Debug, Default, Clone, Copy)]
pub struct Look {
    /// How squashed the drawing is: widened by this fraction and lowered by as much (negative:
    /// stretched tall).
    squash: f32,
    /// How fast `squash` changes, per second.
    squash_rate: f32,
    /// Which way the eyes look, -1 (left) to 1 (right).
    facing: f32,
    /// Whether the player stood on something in the last frame.
    was_on_floor: bool,
    /// How fast the player was falling in the last frame it was in the air.
    fall_speed: f32,
}

/// The node the drawing hangs from, at the player's feet, scaled to squash it.
#[derive(Component)]
pub struct Pivot;

/// The eyes, moved towards where the player runs.
#[derive(Component)]
pub struct Eyes;

/// A puff of dust: it drifts, slows, swells a little and fades out by shrinking.
#[derive(Component, Debug, Clone, Copy)]
pub struct Puff {
    velocity: Vec2,
    age: f32,
    life: f32,
    size: f32,
}

/// The slowest landing that squashes the player and raises dust.
const SOFT_LANDING: f32 = 200.0;
/// The squash spring: how stiff, and how damped (a little under critical: one small rebound).
const STIFFNESS: f32 = 320.0;
const DAMPING: f32 = 20.0;
/// The longest step the spring is moved by at once.
const SPRING_STEP: f32 = 1.0 / 240.0;

fn disc(center: Vec2, radius: f32, color: Color) -> Shape {
    ShapeBuilder::with(&shapes::Circle { radius, center })
        .fill(color)
        .build()
}

/// The points around a player's collider, for its drawing: its corners, or its rounded ends
/// and corners in short straight pieces. `None` for a shape a player is not made of.
fn outline(shape: &SatShape) -> Option<Vec<Vec2>> {
    match shape {
        SatShape::Polygon(polygon) => Some(polygon.vertices().to_vec()),
        SatShape::Rounded(rounded) => Some(rounded.outline(6)),
        SatShape::Capsule(capsule) => Some(capsule.outline(12)),
        _ => None,
    }
}

fn child(commands: &mut Commands, parent: Entity, shape: Shape, at: Vec3) -> Entity {
    commands
        .spawn((shape, Transform::from_translation(at), ChildOf(parent)))
        .id()
}

/// Draws each new player: its collider's outline on a pivot at its feet, with eyes, cheeks and
/// a mouth.
pub fn spawn(
    mut commands: Commands,
    players: Query<(Entity, &ConvexCollider, &Paint), Added<Player>>,
) {
    for (player, collider, paint) in &players {
        let feet = -PLAYER_SIZE.y / 2.0;
        let Some(outline) = outline(collider.shape()) else {
            continue;
        };
        // Relative to the feet: the pivot is there.
        let points = outline.into_iter().map(|p| p - Vec2::Y * feet);
        let body = ShapeBuilder::with(&shapes::Polygon {
            points: points.collect(),
            closed: true,
        })
        .fill(paint.0)
        .stroke((paint.0.mix(&Color::BLACK, 0.45), 2.0))
        .build();
        commands
            .entity(player)
            .insert((Look::default(), Visibility::default()));
        let pivot = commands
            .spawn((
                Pivot,
                Transform::from_xyz(0.0, feet, 0.0),
                Visibility::default(),
                ChildOf(player),
            ))
            .id();
        child(&mut commands, pivot, body, Vec3::ZERO);
        let eyes = commands
            .spawn((
                Eyes,
                Transform::from_xyz(0.0, 21.0, 0.2),
                Visibility::default(),
                ChildOf(pivot),
            ))
            .id();
        let white = Color::srgb(1.0, 1.0, 1.0);
        let pupil = Color::srgb(0.08, 0.08, 0.14);
        for side in [-1.0, 1.0] {
            child(
                &mut commands,
                eyes,
                disc(Vec2::new(4.5 * side, 0.0), 3.6, white),
                Vec3::ZERO,
            );
            let dot = disc(Vec2::new(4.5 * side + 1.2, -0.3), 1.9, pupil);
            child(&mut commands, eyes, dot, Vec3::Z * 0.1);
        }
        let cheek = Color::srgba(0.95, 0.45, 0.45, 0.55);
        for side in [-1.0, 1.0] {
            let at = Vec2::new(8.0 * side, 14.5);
            child(&mut commands, pivot, disc(at, 2.4, cheek), Vec3::Z * 0.1);
        }
        let mouth = ShapeBuilder::with(&shapes::Line(Vec2::new(-2.5, 14.0), Vec2::new(2.5, 14.0)))
            .stroke((pupil, 1.6))
            .build();
        child(&mut commands, eyes, mouth, Vec3::new(0.0, -21.0, 0.1));
    }
}

/// What [`animate`] reads and changes of the player.
type PlayerView = (
    &'static mut Look,
    &'static ContactFlags,
    &'static Velocity,
    &'static Transform,
    &'static Children,
);
/// The pivots, apart from the players.
type PivotOnly = (With<Pivot>, Without<Player>);
/// The eyes, apart from the pivots and the players.
type EyesOnly = (With<Eyes>, Without<Pivot>, Without<Player>);

/// Squashes the player when it lands (harder landings more, with dust), stretches it in the
/// air with its vertical speed, and turns its eyes where it runs.
pub fn animate(
    time: Res<Time>,
    mut commands: Commands,
    mut players: Query<PlayerView, With<Player>>,
    mut pivots: Query<(&mut Transform, &Children), PivotOnly>,
    mut eyes: Query<&mut Transform, EyesOnly>,
) {
    let dt = time.delta_secs();
    for (mut look, flags, velocity, transform, children) in &mut players {
        let on_floor = flags.on_floor();
        if on_floor && !look.was_on_floor && look.fall_speed > SOFT_LANDING {
            let hardness = ((look.fall_speed - SOFT_LANDING) / 900.0).clamp(0.0, 1.0);
            look.squash = 0.12 + 0.22 * hardness;
            look.squash_rate = 0.0;
            let feet = transform.translation.truncate() - Vec2::Y * PLAYER_SIZE.y / 2.0;
            dust(&mut commands, feet, 4 + (hardness * 6.0) as u32);
        }
        if !on_floor {
            look.fall_speed = -velocity.y;
        }
        look.was_on_floor = on_floor;
        // In the air the spring pulls towards a stretch that follows the vertical speed.
        let rest = if on_floor {
            0.0
        } else {
            -(velocity.y.abs() / 3000.0).min(0.12)
        };
        // In small steps, so that the spring stays stable however long the frame was.
        let substeps = (dt / SPRING_STEP).ceil().min(120.0);
        let h = dt / substeps.max(1.0);
        for _ in 0..substeps as u32 {
            let pull = -STIFFNESS * (look.squash - rest) - DAMPING * look.squash_rate;
            look.squash_rate += pull * h;
            look.squash += look.squash_rate * h;
        }
        look.squash = look.squash.clamp(-0.3, 0.4);
        if velocity.x.abs() > 1.0 {
            look.facing = velocity.x.signum();
        }
        for child in children.iter() {
            let Ok((mut pivot, parts)) = pivots.get_mut(child) else {
                continue;
            };
            pivot.scale = Vec3::new(1.0 + look.squash, 1.0 - look.squash, 1.0);
            for part in parts.iter() {
                if let Ok(mut eyes) = eyes.get_mut(part) {
                    let x = eyes.translation.x;
                    let eased = x + (look.facing * 3.5 - x) * (1.0 - (-12.0 * dt).exp());
                    eyes.translation.x = eased;
                }
            }
        }
    }
}

/// A few puffs of dust at `feet`, thrown sideways and a little up.
fn dust(commands: &mut Commands, feet: Vec2, count: u32) {
    let color = Color::srgba(0.86, 0.84, 0.80, 0.75);
    for i in 0..count {
        let side = if i % 2 == 0 { 1.0 } else { -1.0 };
        let spread = (i / 2) as f32 / (count / 2).max(1) as f32;
        let velocity = Vec2::new(side * (50.0 + 90.0 * spread), 18.0 + 30.0 * (1.0 - spread));
        let at = feet + Vec2::new(side * (4.0 + 6.0 * spread), 2.0);
        commands.spawn((
            Puff {
                velocity,
                age: 0.0,
                life: 0.35 + 0.2 * spread,
                size: 4.0 + 2.5 * (1.0 - spread),
            },
            disc(Vec2::ZERO, 1.0, color),
            Transform::from_translation(at.extend(2.5)).with_scale(Vec3::ZERO),
        ));
    }
}

/// Moves, swells and shrinks the puffs of dust, and removes them at the end of their life.
pub fn drift_puffs(
    time: Res<Time>,
    mut commands: Commands,
    mut puffs: Query<(Entity, &mut Puff, &mut Transform)>,
) {
    let dt = time.delta_secs();
    for (entity, mut puff, mut transform) in &mut puffs {
        puff.age += dt;
        if puff.age >= puff.life {
            commands.entity(entity).despawn();
            continue;
        }
        let t = puff.age / puff.life;
        transform.translation += (puff.velocity * dt).extend(0.0);
        puff.velocity *= (-5.0 * dt).exp();
        let size = puff.size * (0.6 + 0.8 * t) * (1.0 - t * t);
        transform.scale = Vec3::new(size, size, 1.0);
    }
}
