//! Settings that cannot be used as they are: invalid `SatConfig` values take their defaults,
//! and a time step of zero or of many seconds is handled.

mod common;

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;
use common::*;

#[test]
fn a_box_rests_on_the_floor_whatever_the_config_says() {
    let mut app = app_with(SatConfig {
        gravity: Vec2::new(0.0, -900.0),
        max_floor_angle: f32::NAN,
        contact_margin: -1.0,
        floor_snap_distance: f32::INFINITY,
        sweep_fraction: f32::NAN,
        passes: 0,
        step_height: -1.0,
        corner_correction: f32::NAN,
        platform_on_leave: PlatformOnLeave::DoNothing,
    });
    let floor = floor(&mut app);
    let crate_box = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 40.0);
    run(&mut app, 90);
    let at = position(&app, crate_box);
    assert!(
        (at.y - 5.0).abs() < 1e-3,
        "rests on the floor's top at y = 0: {at}"
    );
    assert_eq!(at.x, 0.0);
    let flags = flags(&app, crate_box);
    assert!(flags.on_floor(), "counts as on the floor: {flags:?}");
    assert_eq!(flags.standing_on(), Some(floor));
}

#[test]
fn a_fast_box_does_not_tunnel_with_invalid_sweep_settings() {
    let mut app = app_with(SatConfig {
        sweep_fraction: -3.0,
        contact_margin: f32::NAN,
        ..default()
    });
    mighty(&mut app, ConvexCollider::rectangle(400.0, 2.0), 0.0, 0.0);
    let bullet = moving(
        &mut app,
        ConvexCollider::rectangle(4.0, 4.0),
        0.0,
        50.0,
        Vec2::new(0.0, -5000.0),
    );
    run(&mut app, 10);
    let at = position(&app, bullet);
    assert!(at.y >= 3.0 - 1e-3, "stopped on the platform's top: {at}");
}

/// An app whose step runs in `Update` with frames of `frame` seconds.
fn app_with_frames(frame: Duration, config: SatConfig) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::new(Update)))
        .insert_resource(TimeUpdateStrategy::ManualDuration(frame))
        .insert_resource(config);
    app.update();
    app
}

#[test]
fn a_step_of_no_time_moves_nothing_and_keeps_contacts() {
    let gravity = SatConfig {
        gravity: Vec2::new(0.0, -900.0),
        ..default()
    };
    let mut app = app_with_frames(Duration::ZERO, gravity);
    let floor = floor(&mut app);
    let resting = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 5.0);
    let drifting = moving(
        &mut app,
        ConvexCollider::circle(3.0),
        100.0,
        50.0,
        Vec2::new(30.0, 0.0),
    );
    run(&mut app, 10);
    assert_eq!(position(&app, resting), Vec2::new(0.0, 5.0));
    assert_eq!(position(&app, drifting), Vec2::new(100.0, 50.0));
    assert_eq!(velocity(&app, drifting), Vec2::new(30.0, 0.0));
    assert_eq!(flags(&app, resting).standing_on(), Some(floor));
}

#[test]
fn a_step_of_many_seconds_is_cut_to_a_quarter_second() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_seconds(10.0))
        // Bevy's virtual clock would cut the frame to a quarter second on its own.
        .insert_resource(Time::<Virtual>::from_max_delta(Duration::from_secs(20)))
        .insert_resource(SatConfig {
            gravity: Vec2::new(0.0, -100.0),
            ..default()
        });
    app.update();
    floor(&mut app);
    let walker = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        5.0,
        Vec2::new(100.0, 0.0),
    );
    let faller = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        -100.0,
        300.0,
        Vec2::ZERO,
    );
    app.update();
    let walked = position(&app, walker);
    assert!(
        (walked.x - 25.0).abs() < 1e-3,
        "moved 100 units/s for 0.25 s: {walked}"
    );
    run(&mut app, 40);
    let landed = position(&app, faller);
    assert!(
        (landed.y - 5.0).abs() < 1e-3 && landed.is_finite(),
        "fell onto the floor without passing through it: {landed}"
    );
}
