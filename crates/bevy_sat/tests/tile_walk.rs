//! Walking and sliding across a whole `TileGrid`: merged pieces are never bumps. Boxes,
//! circles and capsules keep their height within 1e-3 and their speed exactly, at 60 to 3,000 units/s, in
//! both directions (speeds within round-off: 1e-3), on a solid floor with an irregular cave below it (so that the floor is
//! cut into many pieces and chunks), on a row of one-way cells with solid cells among them,
//! and down and up a wall whose rows are of different widths behind its face.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const CELL: f32 = 16.0;
const SPEEDS: [f32; 4] = [60.0, 600.0, 1500.0, 3000.0];

/// The shapes that walk, each 6 from centre to floor, with the distance from centre to side:
/// a 12 × 12 box, a circle of radius 6 and an upright capsule 12 tall and 8 wide.
fn walkers() -> [(&'static str, ConvexCollider, f32); 3] {
    [
        ("box", ConvexCollider::rectangle(12.0, 12.0), 6.0),
        ("circle", ConvexCollider::circle(6.0), 6.0),
        ("capsule", ConvexCollider::capsule(4.0, 4.0), 4.0),
    ]
}

/// An 80 × 12 grid of 16-unit cells placed at (-640, -48): rows 0 and 1 an irregular cave,
/// row 2 solid all along (its top, the floor, at world y = 0), and row 6 one-way from x = 5 to
/// 74 but for a solid cell every 9 (its top at world y = 64).
fn level(app: &mut App) -> Entity {
    let mut grid = TileGrid::new(UVec2::new(80, 12), Vec2::splat(CELL));
    for x in 0..80 {
        for y in 0..2 {
            if (x * 7 + y * 3) % 5 != 0 {
                grid.set(UVec2::new(x, y), Tile::Solid);
            }
        }
        grid.set(UVec2::new(x, 2), Tile::Solid);
        if (5..75).contains(&x) {
            let tile = if x % 9 == 0 {
                Tile::Solid
            } else {
                Tile::OneWay
            };
            grid.set(UVec2::new(x, 6), tile);
        }
    }
    spawn(app, (grid, Transform::from_xyz(-640.0, -48.0, 0.0)))
}

/// Walks `shape` from `from` (its centre 6 above a surface at `top`) at `speed` (negative:
/// left) for up to `distance`, asserting every step that it stays at its height, keeps its
/// speed and stands on the grid.
fn walk(shape: (&str, ConvexCollider, f32), from: Vec2, top: f32, speed: f32, distance: f32) {
    let mut app = app_with_gravity(-900.0);
    let grid = level(&mut app);
    let (name, collider, _) = shape;
    let body = moving(&mut app, collider, from.x, from.y, Vec2::new(speed, 0.0));
    let steps = (distance / (speed.abs() * DT)).min(400.0) as usize;
    for step in 0..steps {
        app.update();
        let at = position(&app, body);
        let v = velocity(&app, body);
        let context = format!("{name} at {speed} units/s, step {step}: at {at}, velocity {v}");
        assert!((at.y - (top + 6.0)).abs() < 1e-3, "height lost: {context}");
        assert!((v.x - speed).abs() < 1e-3, "speed lost: {context}");
        assert!(flags(&app, body).on_floor(), "not on the floor: {context}");
        assert_eq!(flags(&app, body).standing_on(), Some(grid), "{context}");
    }
    let travelled = position(&app, body).x - from.x;
    let expected = speed * DT * steps as f32;
    assert!(
        (travelled - expected).abs() < 1e-2 * steps as f32,
        "{name} at {speed}: travelled {travelled}, expected {expected}"
    );
}

#[test]
fn boxes_circles_and_capsules_walk_the_solid_floor_both_ways_without_a_bump() {
    for shape in walkers() {
        for speed in SPEEDS {
            walk(shape.clone(), Vec2::new(-620.0, 6.0), 0.0, speed, 1240.0);
            walk(shape.clone(), Vec2::new(620.0, 6.0), 0.0, -speed, 1240.0);
        }
    }
}

#[test]
fn boxes_circles_and_capsules_walk_a_one_way_row_with_solid_cells_in_it_both_ways() {
    // The row runs from world x = -560 to 560; its top is at y = 64.
    for shape in walkers() {
        for speed in SPEEDS {
            walk(shape.clone(), Vec2::new(-550.0, 70.0), 64.0, speed, 1100.0);
            walk(shape.clone(), Vec2::new(550.0, 70.0), 64.0, -speed, 1100.0);
        }
    }
}

/// A 6 × 48 grid of 16-unit cells at the origin: a wall whose face is at x = 48 all the way up
/// (cells 0 to 2 of each row solid but some of the first ones, so that the rows differ in
/// width behind the face).
fn wall(app: &mut App) -> Entity {
    let mut grid = TileGrid::new(UVec2::new(6, 48), Vec2::splat(CELL));
    for y in 0..48 {
        for x in (y % 3)..3 {
            grid.set(UVec2::new(x, y), Tile::Solid);
        }
    }
    spawn(app, (grid, Transform::default()))
}

#[test]
fn boxes_circles_and_capsules_slide_up_and_down_a_ragged_wall_without_a_bump() {
    for (name, collider, half_width) in walkers() {
        let x = 48.0 + half_width;
        for speed in SPEEDS {
            for (start, vy) in [(20.0, speed), (740.0, -speed)] {
                let mut app = app();
                let grid = wall(&mut app);
                let body = moving(&mut app, collider.clone(), x, start, Vec2::ZERO);
                let steps = (700.0 / (speed * DT)).min(300.0) as usize;
                let mut expected_y = start;
                for step in 0..steps {
                    // Pressed into the wall, moving along it.
                    app.world_mut().get_mut::<Velocity>(body).unwrap().0 = Vec2::new(-300.0, vy);
                    app.update();
                    expected_y += vy * DT;
                    let at = position(&app, body);
                    let context = format!("{name} at {vy} units/s, step {step}: at {at}");
                    assert!((at.x - x).abs() < 1e-3, "pushed off the face: {context}");
                    assert!((at.y - expected_y).abs() < 1e-3, "caught: {context}");
                    assert_eq!(velocity(&app, body).y, vy, "slowed: {context}");
                    assert!(flags(&app, body).on_wall_left(), "{context}");
                }
                let touching: Vec<Entity> = app
                    .world()
                    .resource::<Contacts>()
                    .touching(body)
                    .map(|(other, _)| other)
                    .collect();
                assert!(touching.iter().all(|&e| e == grid), "{touching:?}");
            }
        }
    }
}

/// A grid and a plain Mighty box lying flush beside it make one floor: a body walking from
/// the grid onto the box, or back, crosses the seam without a snag or a bump (the grid's
/// pieces and the box hide the faces they share, as two flush colliders do).
#[test]
fn walking_from_a_grid_onto_a_flush_collider_beside_it_has_no_seam() {
    for speed in SPEEDS.into_iter().flat_map(|s| [s, -s]) {
        for (name, collider, _) in walkers() {
            let mut app = app_with_gravity(-900.0);
            let mut grid = TileGrid::new(UVec2::new(10, 1), Vec2::splat(CELL));
            for x in 0..10 {
                grid.set(UVec2::new(x, 0), Tile::Solid);
            }
            // The grid covers x from 0 to 160, the box from 160 to 320; both tops at y = 16.
            spawn(&mut app, (grid, Transform::default()));
            mighty(&mut app, ConvexCollider::rectangle(160.0, 16.0), 240.0, 8.0);
            let from = if speed > 0.0 { 130.0 } else { 190.0 };
            let body = moving(&mut app, collider, from, 22.0, Vec2::new(speed, 0.0));
            let steps = ((60.0 / (speed.abs() * DT)) as usize).max(3);
            for step in 0..steps {
                app.update();
                let (at, v) = (position(&app, body), velocity(&app, body));
                let context = format!("{name} at {speed} units/s, step {step}: at {at}, v {v}");
                assert!((at.y - 22.0).abs() < 1e-3, "height lost: {context}");
                assert!((v.x - speed).abs() < 1e-3, "speed lost: {context}");
            }
            let crossed = position(&app, body).x - 160.0;
            assert!(
                crossed * speed.signum() > 0.0,
                "{name} at {speed}: did not cross"
            );
        }
    }
}

/// A round body walking along a one-way row can meet a solid cell's corner with its centre a
/// round-off beyond the end of the cell's top: the corner's normal, tilted from the top's by
/// that round-off, must not take any of its speed.
#[test]
fn round_body_meeting_a_solid_cells_corner_in_a_one_way_row_keeps_its_speed() {
    for (name, collider, _) in walkers() {
        let mut app = app_with_gravity(-900.0);
        level(&mut app);
        let body = moving(&mut app, collider, 550.0, 70.0, Vec2::new(-600.0, 0.0));
        for step in 0..60 {
            app.update();
            let (at, v) = (position(&app, body), velocity(&app, body));
            let context = format!("{name}, step {step}: at {at}, velocity {v}");
            assert!((v.x + 600.0).abs() < 1e-4, "speed lost: {context}");
            assert!((at.y - 70.0).abs() < 1e-3, "height lost: {context}");
        }
    }
}
