//! `TransformInterpolation`: a body is drawn between its last two fixed steps in every frame,
//! game code in the fixed schedules sees its true position, and a `Transform` the game writes
//! itself is a teleport, never smeared across the screen.

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

/// Where the body was at the end of each step, where fixed game code saw it, and where each
/// frame drew it (with the frame's fraction into the next step and the steps run so far).
#[derive(Resource, Default)]
struct Log {
    ends: Vec<f32>,
    seen_in_fixed: Vec<f32>,
    drawn: Vec<(f32, f32, usize)>,
}

#[derive(Resource)]
struct Body(Entity);

/// Teleports the body to x = 1000 in the fixed schedule before this step (counted from 0).
#[derive(Resource)]
struct TeleportAtStep(usize);

/// Teleports the body to x = 1000 in the fixed schedule after this step (counted from 0).
#[derive(Resource)]
struct TeleportAfterStep(usize);

fn record_end(body: Res<Body>, transforms: Query<&Transform>, mut log: ResMut<Log>) {
    let x = transforms.get(body.0).expect("alive").translation.x;
    log.ends.push(x);
}

fn game_code(
    body: Res<Body>,
    teleport: Res<TeleportAtStep>,
    mut transforms: Query<&mut Transform>,
    mut log: ResMut<Log>,
) {
    let mut transform = transforms.get_mut(body.0).expect("alive");
    log.seen_in_fixed.push(transform.translation.x);
    if log.ends.len() == teleport.0 {
        transform.translation.x = 1000.0;
    }
}

fn game_code_after_the_step(
    body: Res<Body>,
    teleport: Res<TeleportAfterStep>,
    mut transforms: Query<&mut Transform>,
    log: Res<Log>,
) {
    if log.ends.len() == teleport.0 {
        transforms.get_mut(body.0).expect("alive").translation.x = 1000.0;
    }
}

fn record_drawn(
    body: Res<Body>,
    transforms: Query<&Transform>,
    time: Res<Time<Fixed>>,
    mut log: ResMut<Log>,
) {
    let x = transforms.get(body.0).expect("alive").translation.x;
    let steps = log.ends.len();
    log.drawn.push((x, time.overstep_fraction(), steps));
}

/// A 10 × 10 Weak box moving right at 60 units/s (1 unit per 60 Hz step), no gravity, drawn
/// at 120 frames per second (two frames a step).
fn app(teleport_at: usize) -> (App, Entity) {
    app_at(teleport_at, 120.0)
}

/// [`app`] drawn at `fps` frames per second.
fn app_at(teleport_at: usize, fps: f64) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / fps,
        )))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(TeleportAtStep(teleport_at))
        .insert_resource(TeleportAfterStep(usize::MAX))
        .init_resource::<Log>()
        .add_systems(FixedUpdate, game_code)
        .add_systems(
            FixedPostUpdate,
            (game_code_after_the_step, record_end)
                .chain()
                .after(SatSystems::Writeback),
        )
        .add_systems(Update, record_drawn);
    let body = app
        .world_mut()
        .spawn((
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Velocity(Vec2::new(60.0, 0.0)),
            Transform::default(),
            TransformInterpolation,
        ))
        .id();
    app.insert_resource(Body(body));
    (app, body)
}

#[test]
fn frames_draw_the_body_between_its_last_two_steps_and_fixed_code_sees_true_positions() {
    let (mut app, _) = app(usize::MAX);
    for _ in 0..40 {
        app.update();
    }
    let log = app.world().resource::<Log>();
    assert!(log.ends.len() >= 15, "{} steps", log.ends.len());
    // True positions: one unit per step.
    for pair in log.ends.windows(2) {
        assert!((pair[1] - pair[0] - 1.0).abs() < 1e-4, "{pair:?}");
    }
    // The fixed schedule sees where the last step left the body, not a drawn position.
    for (k, seen) in log.seen_in_fixed.iter().enumerate().skip(1) {
        assert_eq!(*seen, log.ends[k - 1], "step {k}");
    }
    let mut halfway = 0;
    for &(x, fraction, steps) in &log.drawn {
        if steps < 2 {
            continue;
        }
        let (before, last) = (log.ends[steps - 2], log.ends[steps - 1]);
        let expected = before + (last - before) * fraction;
        assert!((x - expected).abs() < 1e-4, "drew {x}, expected {expected}");
        halfway += usize::from((fraction - 0.5).abs() < 1e-3);
    }
    assert!(halfway >= 10, "frames half a step in: {halfway}");
}

#[test]
fn a_body_teleported_in_the_fixed_schedule_is_drawn_at_its_new_place() {
    let (mut app, _) = app(10);
    for _ in 0..40 {
        app.update();
    }
    assert_drawn_at_new_place_after(app.world().resource::<Log>(), 11);
}

/// Frames drawn after the `step`-th step (counted from 1): none between the old place and the
/// new (x = 1000), and at least one.
fn assert_drawn_at_new_place_after(log: &Log, step: usize) {
    let after: Vec<f32> = log
        .drawn
        .iter()
        .filter(|(_, _, steps)| *steps >= step)
        .map(|(x, _, _)| *x)
        .collect();
    assert!(!after.is_empty());
    for x in after {
        assert!(
            x >= 1000.0 - 1e-3,
            "drawn at {x}, between the old place and the new"
        );
    }
}

/// Game code that moves the body after the step in the same fixed schedule (a respawn after a
/// hazard's collision event): the frames after that step draw it at its new place, not
/// sweeping there from where the step left it.
#[test]
fn a_body_teleported_after_the_step_is_drawn_at_its_new_place() {
    let (mut app, _) = app(usize::MAX);
    app.insert_resource(TeleportAfterStep(10));
    for _ in 0..40 {
        app.update();
    }
    let log = app.world().resource::<Log>();
    // The step that ends with the teleport is the 11th, and it still moved the body.
    assert!((log.ends[10] - 1000.0).abs() < 1e-3, "{}", log.ends[10]);
    assert!((log.ends[11] - 1001.0).abs() < 1e-3, "{}", log.ends[11]);
    assert_drawn_at_new_place_after(log, 11);
}

#[test]
fn a_body_teleported_in_update_is_drawn_at_its_new_place() {
    let (mut app, body) = app(usize::MAX);
    for _ in 0..20 {
        app.update();
    }
    app.world_mut()
        .get_mut::<Transform>(body)
        .expect("alive")
        .translation
        .x = 2000.0;
    let drawn_before = app.world().resource::<Log>().drawn.len();
    for _ in 0..10 {
        app.update();
    }
    let log = app.world().resource::<Log>();
    for &(x, _, _) in &log.drawn[drawn_before..] {
        assert!(x >= 2000.0 - 1e-3, "drawn at {x}");
    }
}

/// What a frame at 144 Hz advances a body moving at 60 units/s: 60 / 144 units.
const PER_FRAME_AT_144: f32 = 60.0 / 144.0;

/// At 144 frames per second over 60 Hz steps (2.4 frames a step, so frames fall at every
/// fraction of a step), a body at constant velocity is drawn advancing by 60 / 144 units in
/// every frame: never 0 (a frame with no step in it still moves it), never a whole step's
/// 1 unit (a frame with a step in it does not jump).
#[test]
fn at_144_frames_a_second_a_body_advances_evenly_every_frame() {
    let (mut app, _) = app_at(usize::MAX, 144.0);
    for _ in 0..150 {
        app.update();
    }
    let log = app.world().resource::<Log>();
    assert!(log.ends.len() >= 55, "{} steps", log.ends.len());
    let drawn: Vec<(f32, usize)> = log
        .drawn
        .iter()
        .filter(|(_, _, steps)| *steps >= 2)
        .map(|&(x, _, steps)| (x, steps))
        .collect();
    assert!(drawn.len() >= 130, "{} frames", drawn.len());
    let mut with_a_step = 0;
    for pair in drawn.windows(2) {
        let advance = pair[1].0 - pair[0].0;
        assert!(
            (advance - PER_FRAME_AT_144).abs() < 1e-3,
            "a frame advanced {advance}, not {PER_FRAME_AT_144}: {pair:?}"
        );
        with_a_step += usize::from(pair[1].1 > pair[0].1);
    }
    // Both kinds of frame were checked: with a step run in them and without.
    assert!(
        with_a_step >= 50 && with_a_step < drawn.len() - 50,
        "{with_a_step}"
    );
}

/// At 144 frames per second, a body teleported in the fixed schedule is drawn at its new place
/// in the first frame after the step: never between the old place and the new, and from there
/// on it advances evenly again.
#[test]
fn at_144_frames_a_second_a_teleport_lands_at_once() {
    let (mut app, _) = app_at(30, 144.0);
    for _ in 0..150 {
        app.update();
    }
    let log = app.world().resource::<Log>();
    let before: Vec<f32> = log
        .drawn
        .iter()
        .filter(|(_, _, steps)| *steps <= 30)
        .map(|(x, _, _)| *x)
        .collect();
    let after: Vec<f32> = log
        .drawn
        .iter()
        .filter(|(_, _, steps)| *steps > 30)
        .map(|(x, _, _)| *x)
        .collect();
    assert!(before.iter().all(|x| *x < 40.0), "{before:?}");
    assert!(after.len() >= 60, "{} frames after", after.len());
    // The first frame after the teleport's step: at most one step past the new place.
    assert!(
        (1000.0..=1001.0).contains(&after[0]),
        "first drawn at {} after the teleport",
        after[0]
    );
    for pair in after.windows(2) {
        let advance = pair[1] - pair[0];
        assert!(
            (advance - PER_FRAME_AT_144).abs() < 1e-3,
            "advanced {advance} after the teleport: {pair:?}"
        );
    }
}

/// An app stepped one fixed step per update (as headless tests and servers run): a body
/// teleported between two updates is at its new place after the next update, for the step
/// and for the frame.
#[test]
fn a_body_teleported_between_updates_of_one_step_each_stays_teleported() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0));
    let body = app
        .world_mut()
        .spawn((
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Velocity(Vec2::new(60.0, 0.0)),
            Transform::default(),
            TransformInterpolation,
        ))
        .id();
    for _ in 0..5 {
        app.update();
    }
    app.world_mut()
        .get_mut::<Transform>(body)
        .expect("alive")
        .translation
        .x = 500.0;
    app.update();
    let x = app
        .world()
        .get::<Transform>(body)
        .expect("alive")
        .translation
        .x;
    assert!((500.0..=501.0 + 1e-3).contains(&x), "at {x}");
}
