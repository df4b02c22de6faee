//! Capsules, rounded boxes, segments and polygons of more than 8 corners as Weak, Mighty and
//! Sensor bodies: resting, bearing a load, reported without being pushed, touching walls and
//! ceilings, and standing on or sliding down slopes, with the figures a box gives.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::shapes::{Case, upright};
use common::*;

/// Each shape dropped on a floor rests with its lowest point on it, standing on the floor with
/// its normal straight up and its fall stopped, where it was dropped across.
#[test]
fn each_shape_rests_on_a_floor_as_a_weak_body() {
    for case in upright() {
        let mut app = app_with_gravity(-600.0);
        let floor = floor(&mut app);
        let body = weak(&mut app, case.collider.clone(), 5.0, 40.0);
        run(&mut app, 120);
        let p = position(&app, body);
        let name = case.name;
        assert!((p.y - case.below()).abs() < 1e-3, "{name}: y {}", p.y);
        assert_eq!(p.x, 5.0, "{name}");
        let f = flags(&app, body);
        assert!(
            f.on_floor() && !f.on_wall_left() && !f.on_wall_right(),
            "{name}"
        );
        assert_eq!(f.standing_on(), Some(floor), "{name}");
        assert_eq!(f.floor_normal(), Vec2::Y, "{name}");
        assert_eq!(velocity(&app, body), Vec2::ZERO, "{name}");
    }
}

/// Each shape as Mighty scenery bears a box dropped on its top, never moving itself.
#[test]
fn a_box_rests_on_each_shape_as_mighty_scenery() {
    for case in upright() {
        let mut app = app_with_gravity(-600.0);
        let scenery = mighty(&mut app, case.collider.clone(), 0.0, 0.0);
        let crate_box = weak(&mut app, ConvexCollider::rectangle(8.0, 8.0), 0.0, 60.0);
        run(&mut app, 120);
        let name = case.name;
        let p = position(&app, crate_box);
        assert!((p.y - case.above() - 4.0).abs() < 1e-3, "{name}: y {}", p.y);
        assert_eq!(p.x, 0.0, "{name}");
        let f = flags(&app, crate_box);
        assert_eq!(f.standing_on(), Some(scenery), "{name}");
        assert_eq!(f.floor_normal(), Vec2::Y, "{name}");
        assert_eq!(position(&app, scenery), Vec2::ZERO, "{name}");
    }
}

/// Each shape as a sensor reports a box crossing it once when it starts and once when it ends,
/// and never stops it; as a Weak sensor it crosses a Mighty wall unpushed.
#[test]
fn each_shape_as_a_sensor_reports_and_never_pushes() {
    for case in upright() {
        let name = case.name;
        let mut app = app();
        log_messages(&mut app);
        let sensor = spawn(
            &mut app,
            (case.collider.clone(), Sensor, Transform::default()),
        );
        let crossing = moving(
            &mut app,
            ConvexCollider::rectangle(10.0, 10.0),
            -60.0,
            0.0,
            Vec2::new(300.0, 0.0),
        );
        let ghost = spawn(
            &mut app,
            (
                case.collider.clone(),
                Weak,
                Sensor,
                Velocity(Vec2::new(300.0, 0.0)),
                Transform::from_xyz(0.0, 200.0, 0.0),
            ),
        );
        let wall = mighty(
            &mut app,
            ConvexCollider::rectangle(10.0, 100.0),
            40.0,
            200.0,
        );
        run(&mut app, 30);
        // 5 units a step, whatever they crossed.
        let crossed = position(&app, crossing);
        assert!(
            (crossed - Vec2::new(90.0, 0.0)).length() < 1e-3,
            "{name}: {crossed}"
        );
        let ghost_at = position(&app, ghost);
        assert!(
            (ghost_at - Vec2::new(150.0, 200.0)).length() < 1e-3,
            "{name}: {ghost_at}"
        );
        assert!(!flags(&app, ghost).on_wall_right(), "{name}");
        let log = app.world().resource::<Log>();
        let pair = (sensor.min(crossing), sensor.max(crossing));
        let ghost_pair = (ghost.min(wall), ghost.max(wall));
        for (what, list) in [("started", &log.started), ("ended", &log.ended)] {
            assert_eq!(
                list.iter().filter(|&&p| p == pair).count(),
                1,
                "{name}: {what} with the crossing box"
            );
            assert_eq!(
                list.iter().filter(|&&p| p == ghost_pair).count(),
                1,
                "{name}: {what} with the wall"
            );
        }
    }
}

/// Each shape moving into a wall on its right, a wall on its left and a ceiling stops against
/// it with the matching flag and normal, and loses the velocity into it.
#[test]
fn each_shape_gets_wall_and_ceiling_flags() {
    for case in upright() {
        let name = case.name;
        for (velocity, wall_at) in [
            (Vec2::new(120.0, 0.0), Vec2::new(50.0, 0.0)),
            (Vec2::new(-120.0, 0.0), Vec2::new(-50.0, 0.0)),
            (Vec2::new(0.0, 120.0), Vec2::new(0.0, 50.0)),
        ] {
            let mut app = app();
            let size = if wall_at.y == 0.0 {
                Vec2::new(20.0, 200.0)
            } else {
                Vec2::new(200.0, 20.0)
            };
            let wall = mighty(
                &mut app,
                ConvexCollider::rectangle(size.x, size.y),
                wall_at.x,
                wall_at.y,
            );
            let body = moving(&mut app, case.collider.clone(), 0.0, 0.0, velocity);
            run(&mut app, 60);
            let direction = velocity.normalize();
            // The face the body meets is 40 from the origin; the body stops with its outline
            // on it.
            let expected = direction * (40.0 - case.reach(direction));
            let p = position(&app, body);
            assert!((p - expected).length() < 1e-3, "{name} {velocity}: {p}");
            let f = flags(&app, body);
            assert_eq!(f.standing_on(), None, "{name}");
            assert!(!f.on_floor(), "{name}");
            assert_eq!(f.on_wall_right(), velocity.x > 0.0, "{name} {velocity}");
            assert_eq!(f.on_wall_left(), velocity.x < 0.0, "{name} {velocity}");
            assert_eq!(f.on_ceiling(), velocity.y > 0.0, "{name} {velocity}");
            if velocity.y > 0.0 {
                assert_eq!(f.ceiling_normal(), Vec2::NEG_Y, "{name}");
            } else {
                assert_eq!(f.wall_normal(), -direction, "{name} {velocity}");
            }
            assert_eq!(self::velocity(&app, body), Vec2::ZERO, "{name} {velocity}");
            assert!(position(&app, wall) == wall_at);
        }
    }
}

/// A long ramp at `degrees` whose top face passes through the origin, rising to the right;
/// returns the face's outward normal.
fn slope(app: &mut App, degrees: f32) -> Vec2 {
    let angle = degrees.to_radians();
    spawn(
        app,
        (
            ConvexCollider::rectangle(400.0, 20.0),
            Mighty,
            Transform::from_rotation(Quat::from_rotation_z(angle)).with_translation(Vec3::new(
                10.0 * angle.sin(),
                -10.0 * angle.cos(),
                0.0,
            )),
        ),
    );
    Vec2::new(-angle.sin(), angle.cos())
}

/// How far above the slope through the origin with normal `normal` the outline of `case`,
/// centred at `p`, reaches down to (0 when it rests on it).
fn gap_above(case: &Case, p: Vec2, normal: Vec2) -> f32 {
    p.dot(normal) - case.reach(-normal)
}

/// Each shape settles on a 30° slope (below the 45° floor angle) with its outline on the
/// face, then stays put: on the floor, the slope's normal as floor normal, no velocity.
#[test]
fn each_shape_stands_on_a_gentle_slope() {
    let config = SatConfig {
        gravity: Vec2::new(0.0, -600.0),
        ..default()
    };
    for case in upright() {
        let name = case.name;
        let mut app = app_with(config.clone());
        let normal = slope(&mut app, 30.0);
        let body = weak(&mut app, case.collider.clone(), 0.0, 40.0);
        run(&mut app, 60);
        let rest = position(&app, body);
        let gap = gap_above(&case, rest, normal);
        assert!(gap.abs() < 1e-3, "{name}: {gap} above the face");
        run(&mut app, 120);
        let p = position(&app, body);
        assert!(
            (p - rest).length() < 1e-3,
            "{name}: slid from {rest} to {p}"
        );
        let f = flags(&app, body);
        assert!(f.on_floor(), "{name}");
        assert!((f.floor_normal() - normal).length() < 1e-5, "{name}");
        assert_eq!(velocity(&app, body), Vec2::ZERO, "{name}");
    }
}

/// Each shape on a 60° slope (steeper than the floor angle) slides down it, along the face,
/// and is not on the floor but against a wall on its right.
#[test]
fn each_shape_slides_down_a_steep_slope() {
    for case in upright() {
        let name = case.name;
        let mut app = app_with_gravity(-600.0);
        let normal = slope(&mut app, 60.0);
        let body = weak(&mut app, case.collider.clone(), 40.0, 90.0);
        run(&mut app, 30);
        let before = position(&app, body);
        run(&mut app, 30);
        let after = position(&app, body);
        assert!(
            after.x < before.x - 5.0 && after.y < before.y - 5.0,
            "{name}: did not slide: {before} → {after}"
        );
        let gap = gap_above(&case, after, normal);
        assert!(gap.abs() < 1e-2, "{name}: {gap} off the face");
        assert!(!flags(&app, body).on_floor(), "{name}");
        // The face is on its right, its normal as the wall's.
        let f = flags(&app, body);
        assert!(f.on_wall_right(), "{name}");
        assert!((f.wall_normal() - normal).length() < 1e-5, "{name}");
    }
}
