//! Capsules, rounded boxes and segments as bodies: resting on a floor, standing on or sliding
//! off a ledge's corner, a fast body stopped by a bare segment, and the shorthands' fallbacks.

mod common;

use bevy::prelude::*;
use bevy_sat::geometry::{Capsule, MIN_SIZE, Shape};
use bevy_sat::prelude::*;
use common::*;

/// A capsule dropped on a floor comes to rest with its lowest point exactly on it: standing on
/// the floor, the floor's normal straight up, its fall stopped.
#[test]
fn capsule_dropped_on_floor_rests_on_it() {
    let mut app = app_with_gravity(-600.0);
    let floor = floor(&mut app);
    let capsule = weak(&mut app, ConvexCollider::capsule(8.0, 16.0), 0.0, 60.0);
    run(&mut app, 120);
    let p = position(&app, capsule);
    assert!(
        (p.y - 16.0).abs() < 1e-3,
        "lowest point {} vs floor top 0",
        p.y - 16.0
    );
    assert_eq!(p.x, 0.0);
    let f = flags(&app, capsule);
    assert!(f.on_floor() && !f.on_wall_left() && !f.on_wall_right());
    assert_eq!(f.standing_on(), Some(floor));
    assert_eq!(f.floor_normal(), Vec2::Y);
    assert_eq!(velocity(&app, capsule).y, 0.0);
    run(&mut app, 60);
    assert!((position(&app, capsule).y - 16.0).abs() < 1e-3, "and stays");
}

/// A rounded box rests flat on the floor, as a box does.
#[test]
fn rounded_box_rests_on_floor() {
    let mut app = app_with_gravity(-600.0);
    floor(&mut app);
    let crate_box = weak(
        &mut app,
        ConvexCollider::round_rectangle(16.0, 12.0, 3.0),
        5.0,
        40.0,
    );
    run(&mut app, 120);
    let p = position(&app, crate_box);
    assert!(
        (p.y - 6.0).abs() < 1e-3,
        "bottom {} vs floor top 0",
        p.y - 6.0
    );
    assert_eq!(p.x, 5.0);
    assert!(flags(&app, crate_box).on_floor());
}

/// A ledge whose top-right corner is the origin: a Mighty block 200 wide, top at y = 0.
fn ledge(app: &mut App) -> Entity {
    mighty(app, ConvexCollider::rectangle(200.0, 20.0), -100.0, -10.0)
}

/// A capsule (radius 8) landing on a ledge's corner with its centre 3 beyond the edge, less
/// than `sin(max_floor_angle) * radius` (5.66 at the default 45°), stands there: the corner
/// holds it up at the height where its rounded end touches the corner.
#[test]
fn capsule_stands_on_a_ledge_corner_within_the_floor_angle() {
    let mut app = app_with_gravity(-600.0);
    let ledge = ledge(&mut app);
    let capsule = weak(&mut app, ConvexCollider::capsule(8.0, 16.0), 3.0, 40.0);
    run(&mut app, 120);
    let p = position(&app, capsule);
    // The lower end's centre is 8 from the corner (0, 0): 3 across, sqrt(55) up.
    let expected = 8.0 + 55.0f32.sqrt();
    assert!((p.x - 3.0).abs() < 1e-3, "x {}", p.x);
    assert!((p.y - expected).abs() < 1e-3, "y {} vs {expected}", p.y);
    let f = flags(&app, capsule);
    assert!(f.on_floor());
    assert_eq!(f.standing_on(), Some(ledge));
}

/// The same capsule 7 beyond the edge (the corner meets it 61° from straight down, steeper
/// than a floor) slides off the corner and falls, where a box of its width would stand.
#[test]
fn capsule_slides_off_a_ledge_corner_beyond_the_floor_angle() {
    let mut app = app_with_gravity(-600.0);
    ledge(&mut app);
    let capsule = weak(&mut app, ConvexCollider::capsule(8.0, 16.0), 7.0, 40.0);
    let bx = weak(
        &mut app,
        ConvexCollider::rectangle(16.0, 32.0),
        -50.0 + 7.0,
        40.0,
    );
    run(&mut app, 120);
    let p = position(&app, capsule);
    assert!(p.x > 8.0, "pushed away from the ledge: x {}", p.x);
    assert!(p.y < -40.0, "fell past the ledge: y {}", p.y);
    // The box, well on the ledge, stands.
    assert!((position(&app, bx).y - 16.0).abs() < 1e-3);
}

/// A box falling at 5,000 units/s onto a bare segment (no thickness) stops on top of it.
#[test]
fn fast_box_lands_on_a_segment() {
    let mut app = app();
    let segment = mighty(
        &mut app,
        ConvexCollider::segment(Vec2::new(-20.0, 0.0), Vec2::new(20.0, 0.0)),
        0.0,
        0.0,
    );
    let bx = moving(
        &mut app,
        ConvexCollider::rectangle(4.0, 4.0),
        1.0,
        300.0,
        Vec2::new(0.0, -5_000.0),
    );
    run(&mut app, 10);
    let p = position(&app, bx);
    assert!((p.y - 2.0).abs() < 1e-3, "stopped on top: y {}", p.y);
    assert_eq!(flags(&app, bx).standing_on(), Some(segment));
}

/// Bad numbers give a usable shape, never a panic or NaN.
#[test]
fn shorthand_fallbacks() {
    let tiny = ConvexCollider::capsule(f32::NAN, -3.0);
    let Shape::Capsule(c) = tiny.shape() else {
        panic!("a capsule: {tiny:?}")
    };
    assert_eq!((c.radius(), c.end().y - c.start().y), (MIN_SIZE, MIN_SIZE));
    // A radius too large for the box is reduced to leave a core; none gives the plain box.
    let squashed = ConvexCollider::round_rectangle(10.0, 4.0, 100.0);
    let Shape::Rounded(r) = squashed.shape() else {
        panic!("rounded: {squashed:?}")
    };
    assert!(r.radius() < 2.0 && r.radius() > 1.99);
    assert_eq!(squashed.shape().aabb().max, Vec2::new(5.0, 2.0));
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let plain = ConvexCollider::round_rectangle(10.0, 4.0, bad);
        assert_eq!(plain, ConvexCollider::rectangle(10.0, 4.0), "{bad}");
    }
    let point = ConvexCollider::segment(Vec2::ONE, Vec2::ONE);
    assert_eq!(
        point.shape(),
        &Shape::from(Capsule::segment(Vec2::ONE, Vec2::new(1.0 + MIN_SIZE, 1.0)).unwrap())
    );
    let wild = ConvexCollider::segment(Vec2::NAN, Vec2::new(f32::INFINITY, 3.0));
    let aabb = wild.shape().aabb();
    assert!(aabb.min.is_finite() && aabb.max.is_finite());
}
