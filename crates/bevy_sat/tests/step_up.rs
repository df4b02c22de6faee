//! Step-up (`SatConfig::step_height`): a body walking on a floor into a ledge no taller than
//! the step height ends on top of it in the same step with its horizontal speed; a taller
//! ledge, or one without room above it, stops it as a wall does.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const GRAVITY: f32 = -1500.0;
/// The walker: 20 wide, 30 tall.
const HALF: Vec2 = Vec2::new(10.0, 15.0);
/// The ledge's left face.
const FACE: f32 = 100.0;

fn stepping_app(step_height: f32) -> App {
    app_with(SatConfig {
        gravity: Vec2::new(0.0, GRAVITY),
        step_height,
        ..default()
    })
}

/// A floor (top at y = 0) and a ledge `height` tall from x = `FACE` to 400.
fn ledge(app: &mut App, height: f32) {
    mighty(app, ConvexCollider::rectangle(1000.0, 20.0), 0.0, -10.0);
    let width = 400.0 - FACE;
    let collider = ConvexCollider::rectangle(width, height);
    mighty(app, collider, FACE + width / 2.0, height / 2.0);
}

/// A walker standing on the floor with its right side `gap` short of the ledge, settled for
/// one step (so that it knows it stands).
fn walker(app: &mut App, gap: f32) -> Entity {
    let w = weak(
        app,
        ConvexCollider::rectangle(2.0 * HALF.x, 2.0 * HALF.y),
        FACE - gap - HALF.x,
        HALF.y,
    );
    app.update();
    assert!(flags(app, w).on_floor());
    w
}

/// Walks `w` right at `speed` (its horizontal velocity set every step, as a game does) for
/// `steps` steps; returns its positions after each.
fn walk(app: &mut App, w: Entity, speed: f32, steps: usize) -> Vec<Vec2> {
    (0..steps)
        .map(|_| {
            let vy = velocity(app, w).y;
            app.world_mut()
                .entity_mut(w)
                .insert(Velocity(Vec2::new(speed, vy)));
            app.update();
            position(app, w)
        })
        .collect()
}

/// Onto every ledge from 1 to 10 units (and 9.5) at 60 to 600 units/s, with a step height of
/// 10: the walker covers `speed * dt` every step, before, during and after the step up, and
/// ends standing exactly on the ledge with its speed.
#[test]
fn steps_up_ledges_up_to_the_step_height_at_full_speed() {
    let heights = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 9.5, 10.0];
    for height in heights {
        for speed in [60.0, 150.0, 300.0, 450.0, 600.0] {
            let mut app = stepping_app(10.0);
            ledge(&mut app, height);
            let w = walker(&mut app, 7.3);
            let start = position(&app, w);
            let steps = (30.0 / (speed * DT)).ceil() as usize + 2;
            let path = walk(&mut app, w, speed, steps);
            for (n, p) in path.iter().enumerate() {
                let x = start.x + speed * DT * (n + 1) as f32;
                assert!(
                    (p.x - x).abs() < 1e-3,
                    "h {height} at {speed}: step {n} at x {} not {x}",
                    p.x
                );
                let bottom = p.y - HALF.y;
                let on_ledge = p.x + HALF.x > FACE;
                let expected = if on_ledge { height } else { 0.0 };
                assert!(
                    (bottom - expected).abs() < 1e-3,
                    "h {height} at {speed}: step {n} bottom {bottom}, not {expected}"
                );
            }
            assert_eq!(velocity(&app, w).x, speed, "h {height} at {speed}");
            let f = flags(&app, w);
            assert!(
                f.on_floor() && !f.on_wall_right(),
                "h {height} at {speed}: {f:?}"
            );
        }
    }
}

/// Ledges taller than the step height (10.5, 11, 12) stop the walker against their face, on
/// the floor, its horizontal velocity stopped, at every speed.
#[test]
fn ledges_taller_than_the_step_height_stop_the_walker() {
    for height in [10.5, 11.0, 12.0] {
        for speed in [60.0, 150.0, 300.0, 450.0, 600.0] {
            let mut app = stepping_app(10.0);
            ledge(&mut app, height);
            let w = walker(&mut app, 7.3);
            walk(&mut app, w, speed, 30);
            let p = position(&app, w);
            assert!(
                (p - Vec2::new(FACE - HALF.x, HALF.y)).length() < 1e-3,
                "h {height} at {speed}: at {p}"
            );
            assert_eq!(velocity(&app, w).x, 0.0);
            assert!(flags(&app, w).on_wall_right());
        }
    }
}

/// With the default step height of 0, even a 2-unit ledge stops a walker at 60 units/s.
#[test]
fn step_up_is_off_by_default() {
    let mut app = app_with_gravity(GRAVITY);
    ledge(&mut app, 2.0);
    let w = walker(&mut app, 7.3);
    walk(&mut app, w, 60.0, 30);
    assert!((position(&app, w) - Vec2::new(FACE - HALF.x, HALF.y)).length() < 1e-3);
}

/// A ledge of 5 with a ceiling above it that leaves less room than the walker's height: it
/// stays on the floor against the ledge, never inside the ledge or the ceiling. With room for
/// it (a ceiling 1 unit higher than the walker is tall), it steps up. (Speeds that take the
/// walker 5 or more into the ledge in a step, whose shortest way out of the ledge is up whether
/// or not step-up is on, are the next test's.)
#[test]
fn no_step_up_under_a_ceiling_too_low() {
    for (room, steps_up) in [(29.0, false), (31.0, true)] {
        for speed in [60.0, 150.0, 240.0] {
            let mut app = stepping_app(10.0);
            ledge(&mut app, 5.0);
            // The ceiling's bottom is `room` above the ledge, from just past the face on.
            let ceiling = ConvexCollider::rectangle(200.0, 20.0);
            mighty(&mut app, ceiling, FACE + 100.0, 5.0 + room + 10.0);
            let w = walker(&mut app, 7.3);
            let path = walk(&mut app, w, speed, 30);
            for p in &path {
                let (left, right) = (p.x - HALF.x, p.x + HALF.x);
                let (bottom, top) = (p.y - HALF.y, p.y + HALF.y);
                let in_ledge = right > FACE + 1e-3 && bottom < 5.0 - 1e-3;
                let in_ceiling = right > FACE + 1e-3 && left < FACE + 200.0 && top > 5.0 + room;
                assert!(!in_ledge && !in_ceiling, "room {room} at {speed}: at {p}");
            }
            let end = position(&app, w);
            if steps_up {
                assert!((end.y - HALF.y - 5.0).abs() < 1e-3, "room {room}: {end}");
                assert!(end.x + HALF.x > FACE + 10.0, "room {room}: {end}");
            } else {
                assert!(
                    (end - Vec2::new(FACE - HALF.x, HALF.y)).length() < 1e-3,
                    "{end}"
                );
            }
        }
    }
}

/// Walking left works alike: onto an 8-unit ledge whose right face is at x = -100, at
/// 300 units/s, without losing a step's distance.
#[test]
fn steps_up_walking_left() {
    let mut app = stepping_app(10.0);
    mighty(
        &mut app,
        ConvexCollider::rectangle(1000.0, 20.0),
        0.0,
        -10.0,
    );
    mighty(&mut app, ConvexCollider::rectangle(300.0, 8.0), -250.0, 4.0);
    let collider = ConvexCollider::rectangle(2.0 * HALF.x, 2.0 * HALF.y);
    let w = weak(&mut app, collider, -100.0 + 7.3 + HALF.x, HALF.y);
    app.update();
    let start = position(&app, w);
    let path = walk(&mut app, w, -300.0, 12);
    for (n, p) in path.iter().enumerate() {
        let x = start.x - 300.0 * DT * (n + 1) as f32;
        assert!((p.x - x).abs() < 1e-3, "step {n} at x {} not {x}", p.x);
    }
    let end = position(&app, w);
    assert!((end.y - HALF.y - 8.0).abs() < 1e-3, "{end}");
    assert_eq!(velocity(&app, w).x, -300.0);
    assert!(flags(&app, w).on_floor());
}

/// A walker fast enough to go the ledge's height (5) or more into it in one step, under a
/// ceiling that leaves less room above the ledge than the walker is tall, with step-up on or
/// off: it never ends a step inside the ledge or the ceiling, and stops against the ledge's
/// face on the floor.
#[test]
fn a_fast_walker_into_a_ledge_under_a_low_ceiling_never_ends_inside_either() {
    for step_height in [0.0, 10.0] {
        for speed in [300.0, 360.0, 450.0, 600.0, 900.0] {
            let what = format!("step height {step_height} at {speed}");
            let mut app = stepping_app(step_height);
            ledge(&mut app, 5.0);
            let room = 29.0;
            let ceiling = ConvexCollider::rectangle(200.0, 20.0);
            mighty(&mut app, ceiling, FACE + 100.0, 5.0 + room + 10.0);
            let w = walker(&mut app, 7.3);
            let path = walk(&mut app, w, speed, 20);
            for (n, p) in path.iter().enumerate() {
                let (left, right) = (p.x - HALF.x, p.x + HALF.x);
                let (bottom, top) = (p.y - HALF.y, p.y + HALF.y);
                let in_ledge = right > FACE + 1e-3 && bottom < 5.0 - 1e-3;
                let in_ceiling = right > FACE + 1e-3 && left < FACE + 200.0 && top > 5.0 + room;
                assert!(!in_ledge && !in_ceiling, "{what}: step {n} at {p}");
            }
            let end = position(&app, w);
            assert!(
                (end - Vec2::new(FACE - HALF.x, HALF.y)).length() < 1e-3,
                "{what}: ends at {end}"
            );
            assert!(flags(&app, w).on_floor(), "{what}");
        }
    }
}
