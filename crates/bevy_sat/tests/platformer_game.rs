//! The platformer example's game logic, played headless from a scripted input sequence: the
//! player collects the coins, pushes a crate, rides both moving platforms and reaches the goal.

#[path = "../../../examples/platformer/autopilot.rs"]
mod autopilot;
#[path = "../../../examples/platformer/game.rs"]
#[allow(dead_code)]
mod game;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

use autopilot::{Autopilot, PLAY_THE_LEVEL};
use game::{GamePlugin, Landmarks, Score};

#[test]
fn scripted_player_completes_the_level() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default(), GamePlugin))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(Autopilot::new(PLAY_THE_LEVEL))
        .add_systems(FixedUpdate, autopilot::drive.before(game::control_player));
    app.update();
    let landmarks = *app.world().resource::<Landmarks>();
    let crate_start = app
        .world()
        .get::<Transform>(landmarks.crate_box)
        .unwrap()
        .translation;
    let (mut rode_ferry, mut rode_elevator) = (false, false);
    for _ in 0..6000 {
        app.update();
        let flags = *app.world().get::<ContactFlags>(landmarks.player).unwrap();
        rode_ferry |= flags.standing_on() == Some(landmarks.ferry);
        rode_elevator |= flags.standing_on() == Some(landmarks.elevator);
        let autopilot = app.world().resource::<Autopilot>();
        assert_eq!(autopilot.failed, None);
        if autopilot.finished() {
            break;
        }
    }
    let score = *app.world().resource::<Score>();
    let crate_end = app
        .world()
        .get::<Transform>(landmarks.crate_box)
        .unwrap()
        .translation;
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
