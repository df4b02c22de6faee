//! Polylines as terrain: bodies sliding over many joints without a bump, fast bodies stopped by
//! a segment, and a one-sided chain a body jumps up through.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// A flat chain along y = 0 from x = -1000 to 1000 with a joint every 20 units.
fn flat_chain(app: &mut App) -> Entity {
    let points = (0..=100).map(|i| Vec2::new(-1000.0 + 20.0 * i as f32, 0.0));
    mighty(
        app,
        ConvexCollider::polyline(points).expect("a valid chain"),
        0.0,
        0.0,
    )
}

/// Boxes and circles sliding along a chain of a hundred joints, from 60 to 3,000 units/s, keep
/// their height and their speed exactly: no joint bumps them.
#[test]
fn bodies_slide_over_a_chains_joints_without_a_bump() {
    for speed in [60.0, 600.0, 3000.0] {
        for collider in [
            ConvexCollider::rectangle(10.0, 10.0),
            ConvexCollider::circle(5.0),
        ] {
            let mut app = app_with_gravity(-600.0);
            let chain = flat_chain(&mut app);
            let body = moving(&mut app, collider, -900.0, 5.0, Vec2::new(speed, 0.0));
            for step in 0..30 {
                app.update();
                let p = position(&app, body);
                assert!((p.y - 5.0).abs() < 1e-3, "at {speed} u/s, step {step}: {p}");
                let v = velocity(&app, body);
                assert!(
                    (v.x - speed).abs() < 1e-3,
                    "at {speed} u/s, step {step}: {v}"
                );
                assert_eq!(flags(&app, body).standing_on(), Some(chain));
            }
        }
    }
}

/// A box falling at 5,000 units/s onto a chain lands on it instead of passing through.
#[test]
fn a_fast_body_does_not_tunnel_through_a_chain() {
    let mut app = app();
    flat_chain(&mut app);
    let bx = moving(
        &mut app,
        ConvexCollider::rectangle(4.0, 4.0),
        13.0,
        60.0,
        Vec2::new(0.0, -5000.0),
    );
    run(&mut app, 3);
    let p = position(&app, bx);
    assert_eq!(p, Vec2::new(13.0, 2.0));
    assert!(flags(&app, bx).on_floor());
}

/// A one-sided chain: a box jumping up from below passes through it and lands on top of it.
#[test]
fn a_one_sided_chain_lets_a_body_jump_up_through_it() {
    let mut app = app_with_gravity(-600.0);
    let points = (0..=10).map(|i| Vec2::new(-100.0 + 20.0 * i as f32, 0.0));
    let chain = spawn(
        &mut app,
        (
            ConvexCollider::polyline(points).unwrap(),
            Mighty,
            OneWayPlatform::default(),
            Transform::default(),
        ),
    );
    let bx = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        -30.0,
        Vec2::new(0.0, 400.0),
    );
    run(&mut app, 120);
    let p = position(&app, bx);
    assert!((p - Vec2::new(0.0, 5.0)).length() < 1e-3, "{p}");
    assert_eq!(flags(&app, bx).standing_on(), Some(chain));
}

/// Chains that cannot be built are refused with the reason.
#[test]
fn bad_chains_are_refused() {
    use bevy_sat::geometry::PolygonError;
    assert_eq!(
        ConvexCollider::polyline([Vec2::ZERO]).unwrap_err(),
        PolygonError::TooFewPoints { count: 1 }
    );
    assert_eq!(
        ConvexCollider::polyline([Vec2::ZERO, Vec2::X, Vec2::X]).unwrap_err(),
        PolygonError::DuplicatePoint { index: 2 }
    );
    assert_eq!(
        ConvexCollider::polyline([Vec2::ZERO, Vec2::new(f32::NAN, 0.0)]).unwrap_err(),
        PolygonError::NonFinite { index: 1 }
    );
    // Turning straight back on itself.
    assert_eq!(
        ConvexCollider::polyline([Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(0.0, 0.1)])
            .unwrap_err(),
        PolygonError::NotConvex { index: 1 }
    );
}
