//! Bodies made of several shapes: Weak compounds resting and stacking, concave Mighty scenery a
//! box slides along and rests in, with exact positions.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// A crate 20 wide and 16 tall with a handle 8 wide and 4 tall on top: its centre 8 above its
/// bottom, 12 below its top.
fn crate_with_handle() -> ConvexCollider {
    ConvexCollider::compound([
        (Vec2::ZERO, 0.0, ConvexCollider::rectangle(20.0, 16.0)),
        (
            Vec2::new(0.0, 10.0),
            0.0,
            ConvexCollider::rectangle(8.0, 4.0),
        ),
    ])
    .expect("two valid parts")
}

/// A Weak compound dropped on a floor rests on it with its lower part exactly on the floor's
/// top, standing on the floor, and stays there.
#[test]
fn a_weak_compound_rests_exactly_on_a_floor() {
    let mut app = app_with_gravity(-600.0);
    let floor = floor(&mut app);
    let crate_ = weak(&mut app, crate_with_handle(), 3.0, 40.0);
    run(&mut app, 120);
    assert_eq!(
        position(&app, crate_),
        Vec2::new(3.0, 8.0),
        "bottom on the floor's top"
    );
    let f = flags(&app, crate_);
    assert!(f.on_floor() && !f.on_wall_left() && !f.on_wall_right());
    assert_eq!(f.standing_on(), Some(floor));
    assert_eq!(velocity(&app, crate_).y, 0.0);
    run(&mut app, 60);
    assert_eq!(position(&app, crate_), Vec2::new(3.0, 8.0), "and stays");
}

/// Compounds resting on their handles' tops: each stands on the one below (by its handle),
/// exactly 20 above it, without drifting sideways.
#[test]
fn a_stack_of_compounds_settles_like_a_stack_of_boxes() {
    let mut app = app_with_gravity(-600.0);
    floor(&mut app);
    let crates: Vec<Entity> = (0..4)
        .map(|i| weak(&mut app, crate_with_handle(), 0.0, 8.5 + 21.0 * i as f32))
        .collect();
    run(&mut app, 300);
    let settled: Vec<Vec2> = crates.iter().map(|c| position(&app, *c)).collect();
    for (i, p) in settled.iter().enumerate() {
        assert!(
            (p.y - (8.0 + 20.0 * i as f32)).abs() < 1e-2,
            "crate {i} at {p}"
        );
        assert!(p.x.abs() < 1e-4, "crate {i} drifted sideways: {p}");
        let f = flags(&app, crates[i]);
        assert!(f.on_floor(), "crate {i} not on the floor");
        if i > 0 {
            assert_eq!(f.standing_on(), Some(crates[i - 1]));
        }
    }
    let mut largest = 0.0f32;
    for _ in 0..300 {
        app.update();
        for (c, p) in crates.iter().zip(&settled) {
            largest = largest.max((position(&app, *c) - *p).length());
        }
    }
    assert!(largest < 1e-3, "the stack moved {largest} over 300 steps");
}

/// A Weak compound pushed by a Weak box is pushed once per overlap: the box overlaps both
/// parts of a flat compound of two halves by 2, and each is moved half of that, not twice.
#[test]
fn a_weak_compound_is_pushed_once_for_an_overlap_two_parts_share() {
    let mut app = app();
    let halves = ConvexCollider::compound([
        (
            Vec2::new(-5.0, 0.0),
            0.0,
            ConvexCollider::rectangle(10.0, 10.0),
        ),
        (
            Vec2::new(5.0, 0.0),
            0.0,
            ConvexCollider::rectangle(10.0, 10.0),
        ),
    ])
    .unwrap();
    let compound = weak(&mut app, halves, 0.0, 0.0);
    let bx = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 8.0);
    run(&mut app, 1);
    assert_eq!(position(&app, compound), Vec2::new(0.0, -1.0));
    assert_eq!(position(&app, bx), Vec2::new(0.0, 9.0));
}

/// A U-shaped concave wall: a floor from x = -100 to 100 with its top at y = 0, and walls 20
/// thick rising to y = 100 at both ends (their inner faces at x = -80 and x = 80).
fn u_wall(app: &mut App) -> Entity {
    let outline = [
        Vec2::new(-100.0, -20.0),
        Vec2::new(100.0, -20.0),
        Vec2::new(100.0, 100.0),
        Vec2::new(80.0, 100.0),
        Vec2::new(80.0, 0.0),
        Vec2::new(-80.0, 0.0),
        Vec2::new(-80.0, 100.0),
        Vec2::new(-100.0, 100.0),
    ];
    let collider = ConvexCollider::concave(outline).expect("a simple outline");
    mighty(app, collider, 0.0, 0.0)
}

/// A box sliding along the inside of a U-shaped concave wall keeps exactly to the floor's
/// height and its speed all the way (no bump where the floor's parts meet), stops at the inner
/// wall, and rests in the inner corner exactly: on the floor and against the wall, standing on
/// the wall's entity.
#[test]
fn a_box_slides_along_a_concave_floor_and_rests_in_its_inner_corner() {
    let mut app = app_with_gravity(-600.0);
    let wall = u_wall(&mut app);
    let bx = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        -60.0,
        5.0,
        Vec2::new(300.0, 0.0),
    );
    let mut lowest = f32::INFINITY;
    let mut highest = f32::NEG_INFINITY;
    for _ in 0..60 {
        app.update();
        let p = position(&app, bx);
        lowest = lowest.min(p.y);
        highest = highest.max(p.y);
        if p.x < 70.0 {
            assert!((velocity(&app, bx).x - 300.0).abs() < 1e-3, "slowed at {p}");
        }
    }
    assert!(
        (lowest - 5.0).abs() < 1e-3 && (highest - 5.0).abs() < 1e-3,
        "its height went from {lowest} to {highest}"
    );
    let p = position(&app, bx);
    assert!((p.x - 75.0).abs() < 1e-3, "against the inner wall: {p}");
    assert!((p.y - 5.0).abs() < 1e-3, "on the floor: {p}");
    let f = flags(&app, bx);
    assert!(
        f.on_floor() && f.on_wall_right() && !f.on_wall_left(),
        "{f:?}"
    );
    assert_eq!(f.standing_on(), Some(wall));
    assert_eq!(velocity(&app, bx), Vec2::ZERO);
}

/// A box dropped into the U's inner corner rests at exactly the floor's height, without a
/// sideways shove, and a circle rolled after it stops against it.
#[test]
fn bodies_dropped_into_a_concave_corner_rest_exactly() {
    let mut app = app_with_gravity(-600.0);
    u_wall(&mut app);
    let bx = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -75.0, 60.0);
    let ball = moving(
        &mut app,
        ConvexCollider::circle(5.0),
        0.0,
        5.0,
        Vec2::new(-100.0, 0.0),
    );
    run(&mut app, 120);
    let p = position(&app, bx);
    assert!((p - Vec2::new(-75.0, 5.0)).length() < 1e-3, "{p}");
    let b = position(&app, ball);
    assert!((b.y - 5.0).abs() < 1e-3, "{b}");
    assert!(
        b.x <= -65.0 + 1e-3 && b.x > -66.0,
        "stopped by the box: {b}"
    );
}

/// A Mighty compound moving sideways carries the box standing on it, and all its parts move
/// with it.
#[test]
fn a_moving_mighty_compound_carries_its_rider() {
    let mut app = app_with_gravity(-600.0);
    let platform = ConvexCollider::compound([
        (
            Vec2::new(-20.0, 0.0),
            0.0,
            ConvexCollider::rectangle(40.0, 10.0),
        ),
        (
            Vec2::new(20.0, 0.0),
            0.0,
            ConvexCollider::rectangle(40.0, 10.0),
        ),
    ])
    .unwrap();
    let lift = spawn(
        &mut app,
        (
            platform,
            Mighty,
            Transform::from_xyz(0.0, 0.0, 0.0),
            Velocity(Vec2::new(60.0, 0.0)),
        ),
    );
    let rider = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -5.0, 10.0);
    run(&mut app, 60);
    let lift_at = position(&app, lift);
    assert!((lift_at.x - 60.0).abs() < 1e-3, "{lift_at}");
    let p = position(&app, rider);
    assert!((p - Vec2::new(55.0, 10.0)).length() < 1e-2, "{p}");
    assert_eq!(flags(&app, rider).standing_on(), Some(lift));
}

/// A box landing across the seam of a concave floor's two parts starts one collision with the
/// floor's entity, not one per part, and `Contacts` names the entity.
#[test]
fn a_compound_is_one_entity_in_events_and_contacts() {
    let mut app = app_with_gravity(-600.0);
    log_messages(&mut app);
    let wall = u_wall(&mut app);
    // Straddling x = 0, where the U's floor may be cut: whatever the cut, one collision.
    let bx = weak(&mut app, ConvexCollider::rectangle(30.0, 10.0), 0.0, 20.0);
    run(&mut app, 60);
    let started = app.world().resource::<Log>().started.clone();
    let with_wall = started
        .iter()
        .filter(|(a, b)| (*a, *b) == (wall, bx) || (*a, *b) == (bx, wall))
        .count();
    assert_eq!(with_wall, 1, "{started:?}");
    let contacts = app.world().resource::<Contacts>();
    assert!(contacts.iter().any(|pair| {
        let names = (pair.a, pair.b);
        names == (wall, bx) || names == (bx, wall)
    }));
    assert!((position(&app, bx).y - 5.0).abs() < 1e-3);
}

/// Static concave scenery stays whole when the bodies before it in the step's order come and
/// go, which moves its parts to other slots: a box resting in it after a body spawned before
/// it was despawned still rests exactly on its floor.
#[test]
fn static_compound_scenery_keeps_its_parts_when_the_order_shifts() {
    let mut app = app_with_gravity(-600.0);
    let early = mighty(&mut app, ConvexCollider::rectangle(4.0, 4.0), 500.0, 500.0);
    u_wall(&mut app);
    let bx = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 40.0, 5.0);
    run(&mut app, 5);
    app.world_mut().despawn(early);
    run(&mut app, 30);
    let p = position(&app, bx);
    assert!((p - Vec2::new(40.0, 5.0)).length() < 1e-3, "{p}");
    let far = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -40.0, 5.0);
    run(&mut app, 30);
    assert!((position(&app, far) - Vec2::new(-40.0, 5.0)).length() < 1e-3);
    assert!((position(&app, bx) - Vec2::new(40.0, 5.0)).length() < 1e-3);
}
