//! Faces hidden between flush static tiles are kept from step to step, and found again as
//! soon as a tile moves, changes, comes or goes.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

fn gravity_app() -> App {
    app_with(SatConfig {
        gravity: Vec2::new(0.0, -900.0),
        ..default()
    })
}

/// Two flush 100 × 20 tiles whose tops are at y = 0, meeting at x = 0.
fn two_tiles(app: &mut App) -> (Entity, Entity) {
    (
        mighty(app, ConvexCollider::rectangle(100.0, 20.0), -50.0, -10.0),
        mighty(app, ConvexCollider::rectangle(100.0, 20.0), 50.0, -10.0),
    )
}

/// Walks a 10 × 10 box from x = -40 to the right at 120 units/s for `steps` steps.
fn walk_right(app: &mut App, walker: Entity, steps: usize) {
    for _ in 0..steps {
        app.world_mut().get_mut::<Velocity>(walker).unwrap().x = 120.0;
        app.update();
    }
}

#[test]
fn a_tile_raised_into_a_ledge_stops_a_walker_at_its_face() {
    let mut app = gravity_app();
    let (_, right) = two_tiles(&mut app);
    let walker = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -40.0, 5.0);
    run(&mut app, 10); // the tiles' shared faces are hidden and kept
    app.world_mut()
        .get_mut::<Transform>(right)
        .unwrap()
        .translation
        .y = 0.0; // its top now at y = 10: a ledge 10 tall
    walk_right(&mut app, walker, 40);
    let at = position(&app, walker);
    assert!(
        (at.x - -5.0).abs() < 1e-3 && (at.y - 5.0).abs() < 1e-3,
        "stopped by the ledge's face, not lifted onto it: {at}"
    );
    assert!(flags(&app, walker).on_wall_right());
}

#[test]
fn a_tile_removed_leaves_a_hole_with_walls() {
    let mut app = gravity_app();
    // Three flush 100 × 50 tiles, tops at y = 0, and below the middle one a pit floor whose
    // top is at y = -40.
    let tile =
        |app: &mut App, x: f32| mighty(app, ConvexCollider::rectangle(100.0, 50.0), x, -25.0);
    tile(&mut app, -50.0);
    let middle = tile(&mut app, 50.0);
    tile(&mut app, 150.0);
    mighty(
        &mut app,
        ConvexCollider::rectangle(100.0, 20.0),
        50.0,
        -50.0,
    );
    let walker = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 60.0, 5.0);
    run(&mut app, 10);
    app.world_mut().despawn(middle);
    run(&mut app, 30);
    let at = position(&app, walker);
    assert!((at.y - -35.0).abs() < 1e-3, "fell into the hole: {at}");
    // The third tile's left face, hidden while the middle tile stood there, is a wall now.
    walk_right(&mut app, walker, 60);
    let at = position(&app, walker);
    assert!(
        (at.x - 95.0).abs() < 1e-3 && (at.y - -35.0).abs() < 1e-3,
        "stopped by the third tile's face at x = 100, not lifted out of the hole: {at}"
    );
}

#[test]
fn tiles_moved_flush_hide_their_shared_faces() {
    let mut app = gravity_app();
    mighty(
        &mut app,
        ConvexCollider::rectangle(100.0, 20.0),
        -50.0,
        -10.0,
    );
    let apart = mighty(
        &mut app,
        ConvexCollider::rectangle(100.0, 20.0),
        50.0,
        -40.0,
    );
    let walker = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -40.0, 5.0);
    run(&mut app, 10);
    app.world_mut()
        .get_mut::<Transform>(apart)
        .unwrap()
        .translation
        .y = -10.0; // flush with the first: one floor
    run(&mut app, 2);
    for step in 0..60 {
        walk_right(&mut app, walker, 1);
        let at = position(&app, walker);
        assert!((at.y - 5.0).abs() < 1e-3, "step {step}: bump to {at}");
        assert_eq!(
            velocity(&app, walker).x,
            120.0,
            "step {step}: snagged at {at}"
        );
    }
}
