//! The platformer's player as drawn, played headless: it lands from a fall squashed (wider and
//! lower, about its feet) with puffs of dust at its feet, and both settle within a second.

#[path = "../../../examples/platformer/game.rs"]
#[allow(dead_code)]
mod game;
#[path = "../../../examples/platformer/hero.rs"]
mod hero;
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

use game::{GamePlugin, Landmarks};
use hero::{Pivot, Puff};

fn puffs(app: &mut App) -> usize {
    let mut puffs = app.world_mut().query::<&Puff>();
    puffs.iter(app.world()).count()
}

fn pivot_scale(app: &mut App) -> Vec3 {
    let mut pivots = app.world_mut().query_filtered::<&Transform, With<Pivot>>();
    pivots.single(app.world()).unwrap().scale
}

#[test]
fn a_hard_landing_squashes_the_player_and_raises_dust() {
    let mut app = App::new();
    let level = level::load(&level::default_path()).unwrap();
    app.add_plugins((MinimalPlugins, SatPlugin::default(), GamePlugin { level }))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .add_systems(
            Update,
            (
                hero::spawn,
                hero::animate.after(hero::spawn),
                hero::drift_puffs,
            ),
        );
    app.update();
    app.update();
    let player = app.world().resource::<Landmarks>().player;
    // Standing at the start: no squash, no dust.
    for _ in 0..10 {
        app.update();
    }
    assert_eq!(puffs(&mut app), 0);
    assert!((pivot_scale(&mut app) - Vec3::ONE).length() < 1e-3);
    // Dropped from 180 units above the floor.
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation
        .y = 196.0;
    let mut steps = 0;
    loop {
        app.update();
        steps += 1;
        let flags = *app.world().get::<ContactFlags>(player).unwrap();
        if flags.on_floor() {
            break;
        }
        assert!(steps < 60, "never landed");
        // In the air, falling: stretched taller, narrower.
        if steps > 5 {
            let scale = pivot_scale(&mut app);
            assert!(scale.y > 1.0 && scale.x < 1.0, "falling: {scale}");
        }
    }
    // The frame it lands: dust at its feet, and next frame squashed.
    let dust = puffs(&mut app);
    assert!(dust >= 4, "{dust} puffs");
    app.update();
    let scale = pivot_scale(&mut app);
    assert!(scale.x > 1.1 && scale.y < 0.9, "landed: {scale}");
    // A second later: the dust is gone and the player is back to its shape.
    for _ in 0..60 {
        app.update();
    }
    assert_eq!(puffs(&mut app), 0);
    let scale = pivot_scale(&mut app);
    assert!((scale - Vec3::ONE).length() < 0.02, "settled: {scale}");
}
