//! Depth by parallax: background layers that follow the camera part of the way, so that they
//! cross the screen slower than the level does and look farther away. Shared by both examples.

use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy_prototype_lyon::prelude::*;

/// A background layer. Every frame its translation is set from the camera's: a layer with
/// `rate` 1 stays put in the world (it scrolls with the level), one with `rate` 0 stays put on
/// the screen; in between, the smaller the rate, the farther away the layer seems.
#[derive(Component, Debug, Clone, Copy)]
pub struct Parallax {
    /// How much of the camera's motion the layer shows on screen, from 0 to 1.
    pub rate: f32,
    /// Where the layer is when the camera is at the world's origin.
    pub anchor: Vec2,
}

impl Parallax {
    /// Where the layer goes when the camera looks at `eye`: it follows the camera by
    /// `1 - rate` of the camera's motion, so it moves across the screen by `rate` of it.
    pub fn place(&self, eye: Vec2) -> Vec2 {
        self.anchor + eye * (1.0 - self.rate)
    }
}

/// Moves the parallax layers after the camera has moved this frame, before transforms are
/// propagated to what is drawn.
pub struct ParallaxPlugin;

impl Plugin for ParallaxPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(PostUpdate, scroll.before(TransformSystems::Propagate));
    }
}

fn scroll(
    camera: Single<&Transform, (With<Camera2d>, Without<Parallax>)>,
    mut layers: Query<(&Parallax, &mut Transform)>,
) {
    let eye = camera.translation.truncate();
    for (layer, mut transform) in &mut layers {
        let at = layer.place(eye);
        transform.translation = at.extend(transform.translation.z);
    }
}

/// A pseudo-random number in [0, 1) from `seed`: the same scenery on every run, without a
/// random-number crate.
pub fn noise(seed: u32) -> f32 {
    let mut x = seed.wrapping_mul(0x9E37_79B9) ^ 0x85EB_CA6B;
    x ^= x >> 15;
    x = x.wrapping_mul(0x2C1B_3C6D);
    x ^= x >> 12;
    x = x.wrapping_mul(0x297A_2D39);
    x ^= x >> 15;
    (x >> 8) as f32 / (1u32 << 24) as f32
}

/// An empty layer at depth `z`, moving at `rate` and placed at `anchor` when the camera is
/// there, for shapes to be added to with [`add`].
pub fn layer(commands: &mut Commands, rate: f32, anchor: Vec2, z: f32) -> Entity {
    commands
        .spawn((
            Parallax { rate, anchor },
            Transform::from_translation(anchor.extend(z)),
            Visibility::default(),
        ))
        .id()
}

/// Adds `shape` to `layer`, `z` in front of the layer's other shapes.
pub fn add(commands: &mut Commands, layer: Entity, shape: Shape, z: f32) {
    commands.spawn((shape, Transform::from_xyz(0.0, 0.0, z), ChildOf(layer)));
}

/// A filled polygon.
pub fn polygon(points: Vec<Vec2>, color: Color) -> Shape {
    ShapeBuilder::with(&shapes::Polygon {
        points,
        closed: true,
    })
    .fill(color)
    .build()
}
