//! Corner correction (`SatConfig::corner_correction`): a body moving up that clips a ceiling's
//! corner by at most the correction sideways is nudged just clear of it and keeps rising;
//! clipping it by more stops it as any ceiling does.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// The ceiling block spans x 100..200, y 50..70.
const LEFT: f32 = 100.0;
const RIGHT: f32 = 200.0;
const BOTTOM: f32 = 50.0;
/// The jumper is a 20 × 20 box rising at this speed: 5 units a step.
const RISE: f32 = 300.0;

fn corner_app(correction: f32) -> App {
    let mut app = app_with(SatConfig {
        corner_correction: correction,
        ..default()
    });
    mighty(
        &mut app,
        ConvexCollider::rectangle(100.0, 20.0),
        150.0,
        60.0,
    );
    app
}

/// A jumper centred at `x` whose top reaches 1 unit into the ceiling's height in its 9th step
/// (it starts with its top at 6, rising 5 a step).
fn jumper(app: &mut App, x: f32) -> Entity {
    let collider = ConvexCollider::rectangle(20.0, 20.0);
    moving(app, collider, x, -4.0, Vec2::new(0.0, RISE))
}

/// Clipping the left corner by 3 or the right one by 2.5 with a correction of 4: in the step it
/// meets the corner, the jumper ends just clear of it (within the contact margin), as high as
/// its own motion took it, still rising at full speed; and it rises past the block.
#[test]
fn a_clipped_corner_is_passed_on_either_side() {
    // (start x, where the nudge puts it)
    for (x, clear) in [
        (LEFT - 10.0 + 3.0, LEFT - 10.0),
        (RIGHT + 10.0 - 2.5, RIGHT + 10.0),
    ] {
        let mut app = corner_app(4.0);
        let j = jumper(&mut app, x);
        run(&mut app, 8);
        assert_eq!(position(&app, j).x, x, "no contact yet");
        app.update();
        let p = position(&app, j);
        assert!((p.x - clear).abs() < 1e-3, "nudged to {} not {clear}", p.x);
        assert!((p.y - (-4.0 + 9.0 * RISE * DT)).abs() < 1e-3, "at {p}");
        assert_eq!(velocity(&app, j), Vec2::new(0.0, RISE));
        run(&mut app, 10);
        let p = position(&app, j);
        assert!((p.y - (-4.0 + 19.0 * RISE * DT)).abs() < 1e-3, "at {p}");
        assert!((p.x - clear).abs() < 1e-3, "at {p}");
        assert_eq!(velocity(&app, j), Vec2::new(0.0, RISE));
    }
}

/// Clipping the corner by 6 with a correction of 4, or by 3 with none: the jumper is stopped
/// under the ceiling, its rise lost, where it was.
#[test]
fn a_wider_clip_stops_the_jumper() {
    for (correction, clip) in [(4.0, 6.0), (0.0, 3.0), (4.0, 4.5)] {
        for (x, name) in [(LEFT - 10.0 + clip, "left"), (RIGHT + 10.0 - clip, "right")] {
            let mut app = corner_app(correction);
            let j = jumper(&mut app, x);
            run(&mut app, 9);
            let p = position(&app, j);
            assert_eq!(p.x, x, "{name} {clip} with {correction}");
            assert!(
                (p.y + 10.0 - BOTTOM).abs() < 1e-3,
                "{name}: top at {}",
                p.y + 10.0
            );
            assert_eq!(
                velocity(&app, j),
                Vec2::ZERO,
                "{name} {clip} with {correction}"
            );
            assert!(flags(&app, j).on_ceiling());
        }
    }
}

/// A wall right beside the jumper on the side it would be nudged to: no room, so it is stopped
/// as without correction, and never ends inside the wall.
#[test]
fn no_nudge_into_a_wall_beside() {
    let mut app = corner_app(4.0);
    // A wall whose right face is at x = 87: the jumper's left side starts there.
    mighty(&mut app, ConvexCollider::rectangle(20.0, 200.0), 77.0, 0.0);
    let j = jumper(&mut app, 97.0);
    run(&mut app, 9);
    let p = position(&app, j);
    assert_eq!(p.x, 97.0);
    assert!((p.y + 10.0 - BOTTOM).abs() < 1e-3, "top at {}", p.y + 10.0);
    assert_eq!(velocity(&app, j).y, 0.0);
}
