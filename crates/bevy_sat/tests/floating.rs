//! `Floating` bodies (top-down): no floor, wall or ceiling, no slope rule, and every surface
//! slid along at constant speed, step after step.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const SPEED: f32 = 120.0;

/// A floating body with `collider` at `at`.
fn floater(app: &mut App, collider: ConvexCollider, at: Vec2) -> Entity {
    let transform = Transform::from_translation(at.extend(0.0));
    spawn(app, (collider, Weak, Floating, transform))
}

/// Steps `app` `steps` times with `body`'s velocity set to `velocity` before each (a game's
/// input); returns the body's positions after each step, its start first.
fn drive(app: &mut App, body: Entity, velocity: Vec2, steps: usize) -> Vec<Vec2> {
    let mut path = vec![position(app, body)];
    for _ in 0..steps {
        app.world_mut().entity_mut(body).insert(Velocity(velocity));
        app.update();
        path.push(position(app, body));
    }
    path
}

/// Every step of `path` covers `distance`, to within round-off.
fn assert_constant_speed(path: &[Vec2], distance: f32, what: &str) {
    for (n, w) in path.windows(2).enumerate() {
        let moved = (w[1] - w[0]).length();
        assert!(
            (moved - distance).abs() < 1e-3,
            "{what}: step {n} moved {moved}, not {distance} ({} to {})",
            w[0],
            w[1]
        );
    }
}

/// A vertical wall (right face at x = 0), a 20 × 20 box against it pressed diagonally into it:
/// it slides along at the full speed of its input, never drifting off nor into the wall, and
/// its flags stay the default ones.
#[test]
fn slides_along_a_wall_at_full_speed() {
    for (input, name) in [
        (Vec2::new(-SPEED, SPEED), "up-left"),
        (Vec2::new(-SPEED, -SPEED * 0.5), "down-left"),
    ] {
        let mut app = app();
        mighty(
            &mut app,
            ConvexCollider::rectangle(20.0, 4000.0),
            -10.0,
            0.0,
        );
        let b = floater(
            &mut app,
            ConvexCollider::rectangle(20.0, 20.0),
            Vec2::new(10.0, 0.0),
        );
        let path = drive(&mut app, b, input, 120);
        assert_constant_speed(&path, input.length() * DT, name);
        for p in &path {
            assert!((p.x - 10.0).abs() < 1e-3, "{name}: drifted to {p}");
        }
        let along = input.y.signum() * input.length();
        assert!((velocity(&app, b) - Vec2::new(0.0, along)).length() < 1e-3);
        assert_eq!(flags(&app, b), ContactFlags::default(), "{name}");
    }
}

/// A velocity given once (not set again each step) is turned along the wall at its speed, and
/// stays so.
#[test]
fn a_velocity_given_once_keeps_its_speed_along_the_wall() {
    let mut app = app();
    mighty(
        &mut app,
        ConvexCollider::rectangle(20.0, 4000.0),
        -10.0,
        0.0,
    );
    let b = floater(
        &mut app,
        ConvexCollider::rectangle(20.0, 20.0),
        Vec2::new(10.0, 0.0),
    );
    app.world_mut()
        .entity_mut(b)
        .insert(Velocity(Vec2::new(-30.0, 40.0)));
    let mut path = vec![position(&app, b)];
    for _ in 0..60 {
        app.update();
        path.push(position(&app, b));
        assert!((velocity(&app, b) - Vec2::new(0.0, 50.0)).length() < 1e-3);
    }
    assert_constant_speed(&path, 50.0 * DT, "given once");
}

/// Within 15° of straight into the wall, it does not race along it: it keeps only the part of
/// its velocity along the wall.
#[test]
fn nearly_head_on_it_stops_against_the_wall() {
    let mut app = app();
    mighty(
        &mut app,
        ConvexCollider::rectangle(20.0, 4000.0),
        -10.0,
        0.0,
    );
    let b = floater(
        &mut app,
        ConvexCollider::rectangle(20.0, 20.0),
        Vec2::new(10.0, 0.0),
    );
    let input = Vec2::new(-SPEED, 12.0); // 5.7° off head-on
    let path = drive(&mut app, b, input, 30);
    assert_constant_speed(&path, 12.0 * DT, "head-on");
    assert!((velocity(&app, b) - Vec2::new(0.0, 12.0)).length() < 1e-3);
}

/// A 30° slope (a ramp rising to the right), met moving right: the body is pushed out along the
/// slope's normal (not straight up, as a standing body is) and slides up along it at the
/// speed of its input, step after step, with default flags.
#[test]
fn slides_along_a_slope_at_full_speed() {
    let mut app = app();
    let run = 600.0;
    let rise = run * 30f32.to_radians().tan();
    let ramp = [Vec2::ZERO, Vec2::new(run, 0.0), Vec2::new(run, rise)];
    let collider = ConvexCollider::convex_polygon(ramp).expect("a triangle");
    mighty(&mut app, collider, 0.0, 0.0);
    // A circle resting on the slope's surface at x = 100.
    let normal = Vec2::new(-0.5, 3f32.sqrt() / 2.0);
    let on = Vec2::new(100.0, 100.0 * 30f32.to_radians().tan());
    let b = floater(&mut app, ConvexCollider::circle(10.0), on + normal * 10.0);
    let path = drive(&mut app, b, Vec2::new(SPEED, 0.0), 120);
    assert_constant_speed(&path, SPEED * DT, "slope");
    let slope = Vec2::new(3f32.sqrt() / 2.0, 0.5);
    for p in &path {
        // Its distance from the slope's line stays its radius.
        let off = (*p - Vec2::ZERO).dot(normal);
        assert!((off - 10.0).abs() < 1e-3, "off the slope by {off} at {p}");
    }
    let v = velocity(&app, b);
    assert!((v - slope * SPEED).length() < 1e-2, "{v}");
    assert_eq!(flags(&app, b), ContactFlags::default());
}

/// A round pillar met off-centre (more than 15° off head-on) by a circle driven right: it
/// slides around the pillar at the speed of its input every step, never into it, and comes out
/// on the far side.
#[test]
fn slides_around_a_circle_at_full_speed() {
    for offset in [20.0, -35.0] {
        let mut app = app();
        mighty(&mut app, ConvexCollider::circle(50.0), 0.0, 0.0);
        let b = floater(
            &mut app,
            ConvexCollider::circle(10.0),
            Vec2::new(-100.0, offset),
        );
        let path = drive(&mut app, b, Vec2::new(SPEED, 0.0), 150);
        assert_constant_speed(&path, SPEED * DT, "pillar");
        for p in &path {
            assert!(
                p.length() >= 60.0 - 1e-3,
                "{offset}: inside the pillar at {p}"
            );
        }
        let end = *path.last().expect("a path");
        assert!(end.x > 60.0, "{offset}: still held at {end}");
        assert_eq!(offset.signum(), end.y.signum(), "went round the near side");
    }
}

/// A floating body standing on a floor under gravity-free top-down settings touches it but has
/// no floor flag, stands on nothing, and is never snapped.
#[test]
fn a_floating_body_has_no_floor() {
    let mut app = app_with(SatConfig {
        floor_snap_distance: 5.0,
        ..default()
    });
    let f = floor(&mut app);
    let b = floater(
        &mut app,
        ConvexCollider::rectangle(20.0, 20.0),
        Vec2::new(0.0, 9.0),
    );
    run(&mut app, 3);
    assert_eq!(flags(&app, b), ContactFlags::default());
    let contacts = app.world().resource::<Contacts>();
    assert!(contacts.get(b, f).is_some(), "it touches the floor");
}
