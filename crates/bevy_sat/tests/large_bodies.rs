//! Polygons of more than 8 corners (up to 256) as bodies: a round hill as Mighty scenery that
//! bodies land on, slide across and cannot tunnel through, a large polygon as a Weak body, and
//! the collider constructor's limit.

mod common;

use bevy::prelude::*;
use bevy_sat::geometry::{PolygonError, Shape};
use bevy_sat::prelude::*;
use common::*;

/// A convex 16-gon with integer corners, 8 times the size of a 24 × 20 one: flat top at y = 80
/// from x = -48 to 48, flat sides at x = ±96, flat bottom at y = -80.
fn hill_points() -> Vec<Vec2> {
    let right = [
        (6.0, -10.0),
        (9.0, -9.0),
        (11.0, -6.0),
        (12.0, -2.0),
        (12.0, 2.0),
        (11.0, 6.0),
        (9.0, 9.0),
        (6.0, 10.0),
    ]
    .map(|(x, y)| Vec2::new(x, y) * 8.0);
    let left = right.map(|p| -p);
    right.into_iter().chain(left).collect()
}

fn hill(app: &mut App) -> Entity {
    let collider = ConvexCollider::convex_polygon(hill_points()).expect("a valid 16-gon");
    assert!(matches!(collider.shape(), Shape::Large(_)));
    mighty(app, collider, 0.0, 0.0)
}

/// A box dropped on the hill's flat top lands on it, stands on it and stays.
#[test]
fn box_lands_on_a_large_polygon_and_stands_on_it() {
    let mut app = app_with_gravity(-600.0);
    let hill = hill(&mut app);
    let crate_box = weak(&mut app, ConvexCollider::rectangle(16.0, 16.0), 10.0, 150.0);
    run(&mut app, 120);
    let p = position(&app, crate_box);
    assert!((p.y - 88.0).abs() < 1e-3, "bottom {} vs top 80", p.y - 8.0);
    assert_eq!(p.x, 10.0);
    let f = flags(&app, crate_box);
    assert!(f.on_floor() && !f.on_wall_left() && !f.on_wall_right());
    assert_eq!(f.standing_on(), Some(hill));
    assert_eq!(f.floor_normal(), Vec2::Y);
    assert_eq!(velocity(&app, crate_box).y, 0.0);
}

/// A body pushed along the flat top keeps its height and its speed: no bump at any corner.
#[test]
fn box_slides_along_the_flat_top_at_its_height() {
    let mut app = app_with_gravity(-600.0);
    hill(&mut app);
    let crate_box = moving(
        &mut app,
        ConvexCollider::rectangle(16.0, 16.0),
        -36.0,
        88.0,
        Vec2::new(120.0, 0.0),
    );
    for _ in 0..30 {
        run(&mut app, 1);
        let p = position(&app, crate_box);
        assert!((p.y - 88.0).abs() < 1e-3, "height {}", p.y);
        assert!((velocity(&app, crate_box).x - 120.0).abs() < 1e-3);
    }
}

/// A body shot down at 5,000 units/s stops on the top, however far it travels per step.
#[test]
fn fast_body_does_not_tunnel_through_a_large_polygon() {
    let mut app = app();
    hill(&mut app);
    let bullet = moving(
        &mut app,
        ConvexCollider::rectangle(4.0, 4.0),
        0.0,
        200.0,
        Vec2::new(0.0, -5000.0),
    );
    run(&mut app, 3);
    let p = position(&app, bullet);
    assert!((p.y - 82.0).abs() < 1e-3, "stopped at {}", p.y);
}

/// A large polygon is a Weak body too: dropped on a floor, its flat bottom rests on it.
#[test]
fn large_polygon_rests_on_a_floor_as_a_weak_body() {
    let mut app = app_with_gravity(-600.0);
    let floor = floor(&mut app);
    let points = hill_points().into_iter().map(|p| p / 8.0);
    let wheel = weak(
        &mut app,
        ConvexCollider::convex_polygon(points).expect("a valid 16-gon"),
        3.0,
        40.0,
    );
    run(&mut app, 120);
    let p = position(&app, wheel);
    assert!(
        (p.y - 10.0).abs() < 1e-3,
        "bottom {} vs floor 0",
        p.y - 10.0
    );
    assert_eq!(p.x, 3.0);
    assert_eq!(flags(&app, wheel).standing_on(), Some(floor));
}

/// `convex_polygon` takes up to 256 points and says why it refuses more.
#[test]
fn convex_polygon_takes_up_to_256_points() {
    let ring = |n: usize| {
        (0..n).map(move |i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / n as f32) * 50.0)
    };
    let most = ConvexCollider::convex_polygon(ring(256)).expect("256 points");
    let Shape::Large(polygon) = most.shape() else {
        panic!("a large polygon");
    };
    assert_eq!(polygon.vertices().len(), 256);
    assert_eq!(
        ConvexCollider::convex_polygon(ring(257)).unwrap_err(),
        PolygonError::TooManyVertices {
            count: 257,
            max: 256
        }
    );
    // A few corners stay inline.
    let square = ConvexCollider::convex_polygon(ring(4)).expect("a square");
    assert!(matches!(square.shape(), Shape::Polygon(_)));
}
