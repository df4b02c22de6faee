//! The platformer example's game logic, played headless from a scripted input sequence: the
//! player collects the coins, pushes a crate, rides both moving platforms and reaches the goal,
//! in the level loaded from its file, `assets/platformer/level.tmj`.

#[path = "../../../examples/platformer/autopilot.rs"]
mod autopilot;
#[path = "../../../examples/platformer/game.rs"]
#[allow(dead_code)]
mod game;
#[path = "../../../examples/platformer/level.rs"]
#[allow(dead_code)]
mod level;
#[path = "../../../examples/platformer/level_objects.rs"]
mod level_objects;
#[path = "../../../examples/platformer/tmj.rs"]
mod tmj;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

use autopilot::{Autopilot, PLAY_THE_LEVEL};
use game::{GamePlugin, Landmarks, Score};

/// The game with the level the example ships.
fn shipped_level() -> GamePlugin {
    GamePlugin {
        level: level::load(&level::default_path()).unwrap(),
    }
}

#[test]
fn scripted_player_completes_the_level() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default(), shipped_level()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(Autopilot::new(PLAY_THE_LEVEL))
        .add_systems(FixedUpdate, autopilot::drive.before(game::control_player));
    app.update();
    let landmarks = *app.world().resource::<Landmarks>();
    let crate_box = landmarks.crate_box.unwrap();
    let crate_start = app.world().get::<Transform>(crate_box).unwrap().translation;
    let (mut rode_ferry, mut rode_elevator) = (false, false);
    for _ in 0..6000 {
        app.update();
        let flags = *app.world().get::<ContactFlags>(landmarks.player).unwrap();
        rode_ferry |= flags.standing_on() == landmarks.ferry;
        rode_elevator |= flags.standing_on() == landmarks.elevator;
        let autopilot = app.world().resource::<Autopilot>();
        assert_eq!(autopilot.failed, None);
        if autopilot.finished() {
            break;
        }
    }
    let score = *app.world().resource::<Score>();
    let crate_end = app.world().get::<Transform>(crate_box).unwrap().translation;
    assert!(
        app.world().resource::<Autopilot>().finished(),
        "script did not finish"
    );
    assert!(
        crate_end.x > crate_start.x + 30.0,
        "the crate was pushed: {crate_start} → {crate_end}"
    );
    assert!(
        (crate_end.y - crate_start.y).abs() < 1e-3,
        "and stayed on the floor"
    );
    assert!(rode_ferry, "rode the ferry");
    assert!(rode_elevator, "rode the elevator");
    assert_eq!(
        score.coins, score.total_coins,
        "collected every coin: {score:?}"
    );
    assert_eq!(score.deaths, 0);
    assert!(score.complete);
}

/// The game headless, without a script, after its first step.
fn game() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default(), shipped_level()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0));
    app.update();
    app.update();
    app
}

#[test]
fn sentry_laser_stops_at_the_first_wall_and_sends_the_player_home() {
    let mut app = game();
    let mut sentries = app
        .world_mut()
        .query_filtered::<(&RayHits, &Transform), With<game::Sentry>>();
    let (hits, sentry) = sentries.single(app.world()).unwrap();
    let (first, sentry) = (hits.as_slice()[0], sentry.translation);
    // The sentry, 16 × 16, stands against the left wall's face at x = -352.
    assert_eq!(sentry.truncate(), Vec2::new(-344.0, 120.0));
    // From the sentry's front (8 units right of its centre) to the floating block's left face
    // at x = -150, over the crates.
    assert_eq!(first.distance, -150.0 - (sentry.x + 8.0));
    assert_eq!(first.point, Vec2::new(-150.0, sentry.y));
    assert_eq!(first.normal, Vec2::NEG_X);
    // The player put into the beam is sent home.
    let player = app.world().resource::<Landmarks>().player;
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation = Vec3::new(-200.0, sentry.y, 2.0);
    app.update();
    app.update();
    let at = app.world().get::<Transform>(player).unwrap().translation;
    assert_eq!(
        at.truncate(),
        Vec2::new(0.0, 16.0),
        "sent home, to the start"
    );
    assert_eq!(app.world().resource::<Score>().deaths, 1);
}

#[test]
fn ground_probe_finds_the_floor_below_the_feet_and_not_in_the_air() {
    let mut app = game();
    let player = app.world().resource::<Landmarks>().player;
    app.update();
    // Standing at the start: the floor, 1 unit below the probe, facing up.
    let hits = app.world().get::<ShapeHits>(player).unwrap().clone();
    let floor = hits.as_slice()[0];
    assert!((floor.distance - 1.0).abs() < 1e-3, "{floor:?}");
    assert_eq!(floor.normal, Vec2::Y);
    // High above the floor: nothing within the probe's reach.
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation
        .y = 100.0;
    app.update();
    assert!(app.world().get::<ShapeHits>(player).unwrap().is_empty());
}
