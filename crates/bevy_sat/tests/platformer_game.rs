//! The platformer example's game logic, played headless from a scripted input sequence: the
//! player walks up a step, collects the coins, pushes a crate, rides both moving platforms
//! (jumping on the ferry and landing back on it, its speed kept in the air) and reaches the
//! goal, in the level loaded from its file, `assets/platformer/level.tmx`.

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
#[path = "../../../examples/platformer/player.rs"]
#[allow(dead_code)]
mod player;
#[path = "../../../examples/platformer/tmx.rs"]
mod tmx;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

use autopilot::{Autopilot, PLAY_THE_LEVEL, Platform, Until};
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
        .add_systems(FixedUpdate, autopilot::drive.before(player::control_player));
    app.update();
    let landmarks = *app.world().resource::<Landmarks>();
    let crate_box = landmarks.crate_box.unwrap();
    let crate_start = app.world().get::<Transform>(crate_box).unwrap().translation;
    let (mut rode_ferry, mut rode_elevator) = (false, false);
    let ferry = landmarks.ferry.unwrap();
    let ferry_jump = PLAY_THE_LEVEL
        .iter()
        .position(|step| step.until == Until::LandedOn(Platform::Ferry))
        .unwrap();
    let mut ferry_jump_steps = 0;
    let mut stepped_up = 0;
    let mut last = player_state(&app, landmarks.player);
    for _ in 0..6000 {
        let index = app.world().resource::<Autopilot>().index;
        let before = position(&app, ferry);
        app.update();
        let now = player_state(&app, landmarks.player);
        let flags = now.flags;
        rode_ferry |= flags.standing_on() == landmarks.ferry;
        rode_elevator |= flags.standing_on() == landmarks.elevator;
        // Walking up the step (8 units) at full speed, without a jump: in one step the player
        // goes from the floor onto the step's corner (60, 8), `RUN_SPEED / 60` further right,
        // its rounded corner resting on it (the corner's centre `PLAYER_CORNER` from it), and
        // then on along the step's top.
        if last.flags.on_floor() && flags.on_floor() && now.at.y > last.at.y + 4.0 {
            assert!((now.at.x - last.at.x - player::RUN_SPEED / 60.0).abs() < 1e-3);
            assert_eq!(last.at.y, 16.0);
            let (half, r) = (player::PLAYER_SIZE / 2.0, player::PLAYER_CORNER);
            let arc = now.at + Vec2::new(half.x - r, r - half.y);
            let off = arc.distance(Vec2::new(60.0, 8.0)) - r;
            assert!(off.abs() < 1e-3, "{now:?}: {off} off the step's corner");
            stepped_up += 1;
        }
        if stepped_up == 1 && flags.on_floor() && now.at.x > 70.0 && now.at.x < 140.0 {
            assert!((now.at.y - 24.0).abs() < 1e-3, "on the step's top: {now:?}");
        }
        // The jump on the ferry: every step in the air, the player moves with the ferry's
        // velocity (120 units/s to the right: 2 units a step) as well as its own.
        if index == ferry_jump && !flags.on_floor() {
            let ferry_moved = position(&app, ferry) - before;
            assert!(
                (ferry_moved - Vec2::X * 2.0).length() < 1e-3,
                "{ferry_moved}"
            );
            assert_eq!(now.velocity.x, 120.0, "the ferry's speed kept in the air");
            assert!(
                (now.at.x - last.at.x - 2.0).abs() < 1e-3,
                "{last:?} → {now:?}"
            );
            ferry_jump_steps += 1;
        }
        last = now;
        let autopilot = app.world().resource::<Autopilot>();
        assert_eq!(autopilot.failed, None);
        if autopilot.finished() {
            break;
        }
    }
    assert_eq!(stepped_up, 1, "walked up the step once");
    // A full jump lasts about 2 · 560 / 1500 s: 45 steps.
    assert!(
        (40..=50).contains(&ferry_jump_steps),
        "{ferry_jump_steps} steps in the air over the ferry"
    );
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

/// Where the player is, its velocity and flags, after a step.
#[derive(Debug, Clone, Copy)]
struct PlayerState {
    at: Vec2,
    velocity: Vec2,
    flags: ContactFlags,
}

fn player_state(app: &App, player: Entity) -> PlayerState {
    let world = app.world();
    PlayerState {
        at: position(app, player),
        velocity: world.get::<Velocity>(player).unwrap().0,
        flags: *world.get::<ContactFlags>(player).unwrap(),
    }
}

fn position(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .unwrap()
        .translation
        .truncate()
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

/// The player is a rounded box of the player's size: it slides off a ledge's corner rather
/// than standing on its very edge.
#[test]
fn the_player_is_a_rounded_box() {
    let mut app = game();
    let player = app.world().resource::<Landmarks>().player;
    let collider = app.world_mut().get::<ConvexCollider>(player).unwrap();
    let bevy_sat::geometry::Shape::Rounded(rounded) = collider.shape() else {
        panic!("a rounded box: {collider:?}");
    };
    assert_eq!(rounded.radius(), player::PLAYER_CORNER);
    let size = collider.shape().aabb().size();
    assert_eq!(size, player::PLAYER_SIZE);
}

/// The crate with a handle (a child collider) rests on the cup's inner floor as one body, its
/// box's bottom on the floor (centre 8 + 14 above the ground), the handle riding on it.
#[test]
fn the_handle_crate_rests_in_the_cup_with_its_handle() {
    let mut app = game();
    for _ in 0..60 {
        app.update();
    }
    let mut crates = app
        .world_mut()
        .query_filtered::<(Entity, &BodyColliders), With<game::Crate>>();
    let (body, parts) = crates.single(app.world()).unwrap();
    let handle = parts.iter().next().unwrap();
    assert_eq!(parts.len(), 1);
    let at = position(&app, body);
    assert!((at - Vec2::new(-70.0, 22.0)).length() < 1e-3, "{at}");
    assert_eq!(app.world().get::<ColliderOf>(handle).unwrap().body, body);
    assert_eq!(
        position(&app, handle),
        Vec2::new(0.0, 17.0),
        "its offset on top"
    );
}

/// The player's pickup sensor, a child collider of the player, is what meets the coins: moved
/// onto a coin, the player collects it.
#[test]
fn the_players_pickup_sensor_collects_a_coin() {
    let mut app = game();
    let player = app.world().resource::<Landmarks>().player;
    let mut pickups = app
        .world_mut()
        .query_filtered::<&ColliderOf, With<game::Pickup>>();
    assert_eq!(pickups.single(app.world()).unwrap().body, player);
    let before = app.world().resource::<Score>().coins;
    // The first coin, at Tiled (560, 584): 160 right of the start, 8 above the ground.
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation = Vec3::new(160.0, 16.0, 2.0);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Score>().coins, before + 1);
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
