//! Depth around the room: it stands over a dark void, two layers of faint marks far below it
//! that cross the screen slower than the room does ([`Parallax`](crate::parallax::Parallax)), the farther the slower.

use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;

use crate::parallax::{add, layer, noise, polygon};

/// How far out from the room's centre the void reaches.
const REACH: Vec2 = Vec2::new(1400.0, 1000.0);

/// Spawns the void: a near-black ground far below with scattered specks (the slowest layer),
/// and nearer, a grid of faint diamonds, as if the room's floor were a raft above a deep pit.
pub fn spawn(mut commands: Commands) {
    let far = layer(&mut commands, 0.35, Vec2::ZERO, -45.0);
    let ground = vec![
        -REACH,
        Vec2::new(REACH.x, -REACH.y),
        REACH,
        Vec2::new(-REACH.x, REACH.y),
    ];
    add(
        &mut commands,
        far,
        polygon(ground, Color::srgb(0.06, 0.06, 0.11)),
        0.0,
    );
    for i in 0..260 {
        let at = Vec2::new(
            (noise(i * 2) * 2.0 - 1.0) * REACH.x,
            (noise(i * 2 + 1) * 2.0 - 1.0) * REACH.y,
        );
        let size = 1.0 + noise(i + 900) * 2.0;
        let speck = Color::srgba(0.55, 0.60, 0.85, 0.3 + noise(i + 1900) * 0.4);
        add(&mut commands, far, diamond(at, size, speck), 0.1);
    }
    let near = layer(&mut commands, 0.65, Vec2::ZERO, -42.0);
    let mark = Color::srgb(0.17, 0.17, 0.28);
    let spacing = 56.0;
    let (columns, rows) = ((REACH.x / spacing) as i32, (REACH.y / spacing) as i32);
    for column in -columns..=columns {
        for row in -rows..=rows {
            let offset = if row % 2 == 0 { 0.0 } else { spacing / 2.0 };
            let at = Vec2::new(column as f32 * spacing + offset, row as f32 * spacing);
            add(&mut commands, near, diamond(at, 7.0, mark), 0.0);
        }
    }
}

/// A square standing on a corner, `size` from its centre to each corner.
fn diamond(center: Vec2, size: f32, color: Color) -> Shape {
    let points = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y]
        .map(|d| center + d * size)
        .to_vec();
    polygon(points, color)
}
