//! The top-down example's game logic, played headless from a scripted input sequence: the
//! character slides along the bottom wall, round a pillar, pushes a crate to the right wall and
//! reaches the goal pad.

#[path = "../../../examples/topdown/autopilot.rs"]
mod autopilot;
#[path = "../../../examples/topdown/game.rs"]
#[allow(dead_code)]
mod game;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

use autopilot::{Autopilot, CRATE_END_X, PLAY_THE_ROOM};
use game::{GamePlugin, Landmarks, Score};

/// One fixed step of the scripted run: the script step whose keys it played, and where the
/// character and the crate were after it.
#[derive(Debug, Clone, Copy)]
struct Frame {
    script_step: usize,
    player: Vec2,
    crate_box: Vec2,
}

/// Every fixed step's [`Frame`].
#[derive(Resource, Default)]
struct Frames(Vec<Frame>);

/// Records where the step left the character and the crate. It runs in the fixed schedule
/// after the step: the character and the crate are interpolated, so between fixed steps their
/// `Transform` is where they are drawn, not where they are.
fn record(
    landmarks: Res<Landmarks>,
    autopilot: Res<Autopilot>,
    transforms: Query<&Transform>,
    mut frames: ResMut<Frames>,
) {
    let at = |entity: Entity| transforms.get(entity).map(|t| t.translation.truncate());
    if let (Ok(player), Ok(crate_box)) = (at(landmarks.player), at(landmarks.crate_box)) {
        frames.0.push(Frame {
            script_step: autopilot.index,
            player,
            crate_box,
        });
    }
}

/// The game headless, one 60 Hz fixed step per `update()`, with the script playing; returns
/// the app after the script finished (or failed) and every step's [`Frame`], the start first.
fn play() -> (App, Vec<Frame>) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default(), GamePlugin))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(Autopilot::new(PLAY_THE_ROOM))
        .init_resource::<Frames>()
        .add_systems(FixedUpdate, autopilot::drive.before(game::control_player))
        .add_systems(FixedPostUpdate, record.after(SatSystems::Writeback));
    // Startup builds the room; the next update starts the clock. From then on, each update
    // is one fixed step.
    app.update();
    app.update();
    let start = Frame {
        script_step: 0,
        player: game::START,
        crate_box: game::CRATE_START,
    };
    for _ in 0..2000 {
        app.update();
        let autopilot = app.world().resource::<Autopilot>();
        assert_eq!(autopilot.failed, None);
        if autopilot.finished() {
            break;
        }
    }
    let mut frames = vec![start];
    frames.append(&mut app.world_mut().resource_mut::<Frames>().0);
    (app, frames)
}

/// Distance walked in one 60 Hz step.
const STEP: f32 = game::WALK_SPEED / 60.0;

/// The steps (pairs of consecutive frames) the script spent on step `index`.
fn steps_of(frames: &[Frame], index: usize) -> Vec<(Frame, Frame)> {
    frames
        .windows(2)
        .filter(|w| w[1].script_step == index)
        .map(|w| (w[0], w[1]))
        .collect()
}

#[test]
fn scripted_player_completes_the_room() {
    let (app, frames) = play();
    let autopilot = app.world().resource::<Autopilot>();
    assert!(autopilot.finished(), "script did not finish");
    assert!(app.world().resource::<Score>().complete, "goal reached");
    let landmarks = *app.world().resource::<Landmarks>();
    // A floating body never has floor, wall or ceiling flags.
    assert_eq!(
        *app.world()
            .get::<ContactFlags>(landmarks.player)
            .expect("Weak"),
        ContactFlags::default()
    );
    // It looks where it last walked: up, to the goal.
    let player = app
        .world()
        .get::<game::Player>(landmarks.player)
        .expect("player");
    assert_eq!(player.facing, Vec2::Y);

    // 1. Along the bottom wall, pressed into it diagonally: 3 units right every step (the
    //    whole walking speed, not its horizontal part), never off the wall nor into it.
    let along_wall = steps_of(&frames, 0);
    assert_eq!(
        along_wall.len(),
        81,
        "from x = -440 to past -198.5, 3 a step"
    );
    for (n, (before, after)) in along_wall.iter().enumerate() {
        let moved = after.player - before.player;
        assert!(
            (moved - Vec2::new(STEP, 0.0)).length() < 1e-3,
            "step {n}: moved {moved}"
        );
        assert!(
            (after.player.y - game::START.y).abs() < 1e-3,
            "step {n}: drifted to {}",
            after.player
        );
    }
    let off_the_wall = along_wall.last().expect("steps").1.player;
    assert!((off_the_wall.x - (-440.0 + 81.0 * STEP)).abs() < 1e-2);

    // 2. Round the pillar: constant speed, never inside it, touching it on the way (it slid
    //    round its underside), and out on the far side.
    let round_pillar = steps_of(&frames, 2);
    let clearance = game::PILLAR_RADIUS + game::PLAYER_RADIUS;
    let mut closest = f32::MAX;
    for (n, (before, after)) in round_pillar.iter().enumerate() {
        let moved = (after.player - before.player).length();
        assert!((moved - STEP).abs() < 1e-3, "step {n}: moved {moved}");
        let distance = after.player.distance(game::PILLAR);
        assert!(distance >= clearance - 1e-3, "step {n}: inside the pillar");
        closest = closest.min(distance);
    }
    assert!(
        (closest - clearance).abs() < 1e-2,
        "never touched the pillar"
    );
    let past = round_pillar.last().expect("steps").1.player;
    assert!(
        past.x > 80.0 && past.y < game::PILLAR.y,
        "went under: {past}"
    );

    // 3. The crate, pushed head-on: two Weak bodies split each push 50/50, so the character
    //    and the crate advance together by half a walking step, 1.5 units, every step.
    let pushing: Vec<_> = steps_of(&frames, 3)
        .into_iter()
        .filter(|(before, after)| {
            before.crate_box.x > game::CRATE_START.x && after.crate_box.x < CRATE_END_X - 1.0
        })
        .collect();
    assert!(pushing.len() > 150, "pushed for {} steps", pushing.len());
    for (n, (before, after)) in pushing.iter().enumerate() {
        let (player, crate_box) = (
            after.player - before.player,
            after.crate_box - before.crate_box,
        );
        assert!(
            (player - Vec2::new(STEP / 2.0, 0.0)).length() < 1e-3,
            "step {n}: the character moved {player}"
        );
        assert!(
            (crate_box - Vec2::new(STEP / 2.0, 0.0)).length() < 1e-3,
            "step {n}: the crate moved {crate_box}"
        );
    }
    // It is moved straight to the right wall and stops flush is moved straight to the right wall and stops flush
    // against it: 258 units, not a hair into the wall, not off its line.
    let crate_end = frames.last().expect("frames").crate_box;
    assert!(
        (crate_end - Vec2::new(CRATE_END_X, game::CRATE_START.y)).length() < 1e-3,
        "crate at {crate_end}"
    );
    assert_eq!(CRATE_END_X - game::CRATE_START.x, 258.0);
    for frame in &frames {
        assert!(frame.crate_box.x <= CRATE_END_X + 1e-3, "into the wall");
    }
}
