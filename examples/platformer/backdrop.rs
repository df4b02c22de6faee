//! The platformer's background: a night sky with stars and a moon, far mountains, rolling
//! hills and a row of pines, each a [`Parallax`](crate::parallax::Parallax) layer that crosses the screen slower the
//! farther away it is, and lighter and bluer with distance, as air makes far things look.

use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;

use crate::parallax::{add, layer, noise, polygon};

/// Half the visible area (the window at the camera's zoom), with room to spare.
const HALF_VIEW: Vec2 = Vec2::new(800.0, 480.0);
/// How far left and right of the level's middle the layers reach.
const SPAN: (f32, f32) = (-1400.0, 3600.0);

/// Spawns every background layer, farthest first.
pub fn spawn(mut commands: Commands) {
    sky(&mut commands);
    mountains(&mut commands);
    hills(&mut commands);
    pines(&mut commands);
}

/// A filled circle.
fn disc(center: Vec2, radius: f32, color: Color) -> Shape {
    ShapeBuilder::with(&shapes::Circle { radius, center })
        .fill(color)
        .build()
}

/// A filled axis-aligned rectangle from `min` to `max`.
fn rectangle(min: Vec2, max: Vec2, color: Color) -> Shape {
    polygon(
        vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)],
        color,
    )
}

/// The sky, fixed on the screen: bands from deep blue at the top to a dusky violet at the
/// horizon; stars and a moon that drift a little.
fn sky(commands: &mut Commands) {
    let sky = layer(commands, 0.0, Vec2::ZERO, -40.0);
    let (top, horizon) = (Color::srgb(0.05, 0.06, 0.14), Color::srgb(0.30, 0.22, 0.38));
    const BANDS: usize = 32;
    let height = 2.0 * HALF_VIEW.y / BANDS as f32;
    for band in 0..BANDS {
        let y = HALF_VIEW.y - height * band as f32;
        let color = top.mix(&horizon, band as f32 / (BANDS - 1) as f32);
        let rect = rectangle(
            Vec2::new(-HALF_VIEW.x, y - height - 1.0),
            Vec2::new(HALF_VIEW.x, y),
            color,
        );
        add(commands, sky, rect, 0.0);
    }
    let stars = layer(commands, 0.02, Vec2::ZERO, -39.0);
    for i in 0..90 {
        let at = Vec2::new(
            -HALF_VIEW.x + noise(i * 3) * 2.0 * HALF_VIEW.x + 40.0,
            -40.0 + noise(i * 3 + 1) * (HALF_VIEW.y + 40.0),
        );
        let radius = 0.8 + noise(i * 3 + 2) * 1.6;
        let star = Color::srgba(0.95, 0.93, 1.0, 0.35 + noise(i * 7) * 0.6);
        add(commands, stars, disc(at, radius, star), 0.0);
    }
    let moon = layer(commands, 0.04, Vec2::ZERO, -38.0);
    let center = Vec2::new(-380.0, 170.0);
    for (radius, alpha) in [(64.0, 0.03), (56.0, 0.05), (50.0, 0.07)] {
        let glow = Color::srgba(1.0, 0.95, 0.8, alpha);
        add(commands, moon, disc(center, radius, glow), 0.0);
    }
    add(
        commands,
        moon,
        disc(center, 44.0, Color::srgb(0.98, 0.94, 0.82)),
        0.1,
    );
    let crater = Color::srgb(0.90, 0.86, 0.74);
    for (offset, radius) in [
        (Vec2::new(-12.0, 8.0), 9.0),
        (Vec2::new(14.0, -10.0), 6.0),
        (Vec2::new(6.0, 18.0), 4.0),
    ] {
        add(commands, moon, disc(center + offset, radius, crater), 0.2);
    }
}

/// Far mountains: jagged peaks with snowy tips, barely moving.
fn mountains(commands: &mut Commands) {
    let rate = 0.15;
    let far = layer(commands, rate, Vec2::ZERO, -30.0);
    let rock = Color::srgb(0.25, 0.24, 0.40);
    let snow = Color::srgb(0.62, 0.62, 0.78);
    let base = -100.0;
    let (from, to) = (SPAN.0 * rate - HALF_VIEW.x, SPAN.1 * rate + HALF_VIEW.x);
    let ground = rectangle(
        Vec2::new(from, base - 2000.0),
        Vec2::new(to, base + 1.0),
        rock,
    );
    add(commands, far, ground, 0.0);
    let mut x = from;
    let mut i = 0;
    while x < to {
        let width = 260.0 + noise(100 + i) * 220.0;
        let height = 150.0 + noise(200 + i) * 190.0;
        let peak = Vec2::new(x + width * (0.4 + noise(300 + i) * 0.2), base + height);
        let triangle = vec![Vec2::new(x, base), Vec2::new(x + width, base), peak];
        add(
            commands,
            far,
            polygon(triangle, rock),
            0.1 + i as f32 * 0.001,
        );
        // The snow cap: the top quarter of the same triangle.
        let cap = 0.25;
        let left = peak.lerp(Vec2::new(x, base), cap);
        let right = peak.lerp(Vec2::new(x + width, base), cap);
        let notch = Vec2::new(peak.x, left.y.max(right.y) + 6.0);
        let dip = Vec2::new(left.lerp(notch, 0.5).x, notch.y - 10.0);
        let cap = vec![left, dip, notch, right, peak];
        add(
            commands,
            far,
            polygon(cap, snow),
            0.1 + i as f32 * 0.001 + 0.0005,
        );
        x += width * 0.6;
        i += 1;
    }
}

/// Rolling hills: large round tops, closer and darker.
fn hills(commands: &mut Commands) {
    let rate = 0.35;
    let hills = layer(commands, rate, Vec2::ZERO, -25.0);
    let green = Color::srgb(0.15, 0.22, 0.30);
    let base = -80.0;
    let (from, to) = (SPAN.0 * rate - HALF_VIEW.x, SPAN.1 * rate + HALF_VIEW.x);
    let ground = rectangle(
        Vec2::new(from, base - 2000.0),
        Vec2::new(to, base + 1.0),
        green,
    );
    add(commands, hills, ground, 0.0);
    let mut x = from;
    let mut i = 0;
    while x < to {
        let radius = 160.0 + noise(400 + i) * 160.0;
        let top = base + 60.0 + noise(500 + i) * 90.0;
        let center = Vec2::new(x, top - radius);
        add(commands, hills, disc(center, radius, green), 0.1);
        x += radius * 1.2;
        i += 1;
    }
}

/// A row of pines, the nearest layer: dark silhouettes of stacked triangles on a trunk.
fn pines(commands: &mut Commands) {
    let rate = 0.6;
    let pines = layer(commands, rate, Vec2::ZERO, -20.0);
    let needles = Color::srgb(0.08, 0.13, 0.18);
    let base = -50.0;
    let (from, to) = (SPAN.0 * rate - HALF_VIEW.x, SPAN.1 * rate + HALF_VIEW.x);
    let ground = rectangle(
        Vec2::new(from, base - 2000.0),
        Vec2::new(to, base + 1.0),
        needles,
    );
    add(commands, pines, ground, 0.0);
    let mut x = from;
    let mut i = 0;
    while x < to {
        let height = 90.0 + noise(600 + i) * 110.0;
        let width = height * 0.45;
        let trunk = rectangle(
            Vec2::new(x - 4.0, base - 10.0),
            Vec2::new(x + 4.0, base + 14.0),
            needles,
        );
        add(commands, pines, trunk, 0.1);
        for tier in 0..3 {
            let t = tier as f32;
            let bottom = base + 10.0 + t * height * 0.25;
            let half = width * (1.0 - t * 0.22) * 0.5;
            let triangle = vec![
                Vec2::new(x - half, bottom),
                Vec2::new(x + half, bottom),
                Vec2::new(x, bottom + height * 0.45),
            ];
            add(commands, pines, polygon(triangle, needles), 0.2);
        }
        x += 40.0 + noise(700 + i) * 90.0;
        i += 1;
    }
}
