//! Bad input never panics and never spreads NaN; odd setups have a defined meaning; the
//! plugin's systems have no ambiguous order.

mod common;

use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};
use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

#[test]
fn non_finite_transform_or_velocity_is_skipped() {
    let mut app = app_with_gravity(-600.0);
    let floor = floor(&mut app);
    let good = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 5.0);
    let nan_velocity = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        3.0,
        5.0,
        Vec2::new(f32::NAN, 0.0),
    );
    let inf_position = weak(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        f32::INFINITY,
        5.0,
    );
    let zero_scale = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Transform::from_xyz(-3.0, 5.0, 0.0).with_scale(Vec3::ZERO),
        ),
    );
    let nan_rotation = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Mighty,
            Transform::from_xyz(-3.0, 5.0, 0.0).with_rotation(Quat::from_xyzw(
                f32::NAN,
                0.0,
                0.0,
                1.0,
            )),
        ),
    );
    run(&mut app, 60);
    // The good box rests on the floor, untouched by the broken ones.
    assert!(
        (position(&app, good) - Vec2::new(0.0, 5.0)).length() < 1e-3,
        "{}",
        position(&app, good)
    );
    assert!(flags(&app, good).on_floor());
    assert_eq!(position(&app, floor), Vec2::new(0.0, -10.0));
    // The broken ones were left where they were, nothing turned NaN.
    assert_eq!(position(&app, nan_velocity), Vec2::new(3.0, 5.0));
    assert_eq!(position(&app, zero_scale), Vec2::new(-3.0, 5.0));
    assert_eq!(position(&app, nan_rotation), Vec2::new(-3.0, 5.0));
    assert!(position(&app, inf_position).x.is_infinite());
    for e in [good, nan_velocity, zero_scale, inf_position] {
        assert!(app.world().get_entity(e).is_ok(), "entity lost");
    }
    for pair in app.world().resource::<Contacts>().iter() {
        assert!(pair.contact.normal.is_finite() && pair.contact.depth.is_finite());
    }
    // Fixing the velocity brings the body back.
    app.world_mut()
        .entity_mut(nan_velocity)
        .insert(Velocity(Vec2::ZERO));
    run(&mut app, 5);
    assert!(position(&app, nan_velocity).is_finite());
}

#[test]
fn both_kinds_means_mighty_and_neither_means_static() {
    let mut app = app_with_gravity(-600.0);
    let both = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(40.0, 10.0),
            Mighty,
            Weak,
            Transform::from_xyz(0.0, -5.0, 0.0),
        ),
    );
    let scenery = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(40.0, 10.0),
            Transform::from_xyz(100.0, -5.0, 0.0),
        ),
    );
    let a = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 20.0);
    let b = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 100.0, 20.0);
    run(&mut app, 60);
    assert_eq!(
        position(&app, both),
        Vec2::new(0.0, -5.0),
        "treated as Mighty: not pushed, no gravity"
    );
    assert_eq!(position(&app, scenery), Vec2::new(100.0, -5.0));
    assert!((position(&app, a).y - 5.0).abs() < 1e-3 && (position(&app, b).y - 5.0).abs() < 1e-3);
}

#[test]
fn schedule_has_no_ambiguous_order() {
    let mut app = app();
    app.edit_schedule(FixedPostUpdate, |schedule| {
        schedule.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..default()
        });
    });
    spawn(&mut app, (ConvexCollider::rectangle(1.0, 1.0), Weak));
    // Building the schedule with ambiguity detection as an error panics on any ambiguity.
    app.update();
}

#[test]
fn runs_in_another_schedule() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::new(Update)))
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(
            core::time::Duration::from_millis(100),
        ));
    let body = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(1.0, 1.0),
            Weak,
            Velocity(Vec2::new(10.0, 0.0)),
        ),
    );
    app.update(); // starts the clock
    app.update();
    assert!((position(&app, body).x - 1.0).abs() < 1e-5);
}
