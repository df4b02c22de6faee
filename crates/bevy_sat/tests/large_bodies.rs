//! Polygons of more than 8 corners (up to 256) as bodies: a round hill as Mighty scenery that
//! bodies land on, slide across and cannot tunnel through, a large polygon as a Weak body, and
//! the collider constructor's limit.

mod common;

use bevy::prelude::*;
use bevy_sat::geometry::{ConvexPolygon, PolygonError, Shape};
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

/// A 32-gon of radius 100 with a flat top edge (its two top corners mirror each other), and
/// the height of that top.
fn flat_topped_32_gon() -> (Vec<Vec2>, f32) {
    let mut points: Vec<Vec2> = (0..32)
        .map(|i| Vec2::from_angle((i as f32 + 0.5) * std::f32::consts::TAU / 32.0) * 100.0)
        .collect();
    // Corners 7 and 8 straddle +y: make them exact mirror images.
    points[8] = Vec2::new(-points[7].x, points[7].y);
    let top = points[7].y;
    (points, top)
}

/// A Mighty 32-gon built with `ConvexPolygon::new` (which holds more than 8 corners on the
/// heap) and converted to a collider stops a falling box on its flat top, where it stands.
#[test]
fn a_32_gon_from_convex_polygon_new_stops_a_falling_box() {
    let (points, top) = flat_topped_32_gon();
    let polygon = ConvexPolygon::new(points).expect("a valid 32-gon");
    assert_eq!(polygon.vertices().len(), 32);
    let collider = ConvexCollider::from(polygon);
    let Shape::Large(large) = collider.shape() else {
        panic!("a polygon of 32 corners is held as a large one");
    };
    assert_eq!(large.vertices().len(), 32);
    let mut app = app_with_gravity(-600.0);
    let round = mighty(&mut app, collider, 0.0, 0.0);
    let crate_box = weak(
        &mut app,
        ConvexCollider::rectangle(16.0, 16.0),
        2.0,
        top + 60.0,
    );
    run(&mut app, 120);
    let p = position(&app, crate_box);
    assert!(
        (p.y - (top + 8.0)).abs() < 1e-3,
        "bottom {} vs top {top}",
        p.y - 8.0
    );
    assert_eq!(p.x, 2.0);
    let f = flags(&app, crate_box);
    assert!(f.on_floor() && !f.on_wall_left() && !f.on_wall_right());
    assert_eq!(f.standing_on(), Some(round));
    assert_eq!(velocity(&app, crate_box).y, 0.0);
}
