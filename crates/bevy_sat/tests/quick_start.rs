//! The README's quick start, run headlessly: the README's code block is exactly
//! `examples/quick_start.rs`, and its `game` lands the player on the one-way platform.
// The quick start draws with `SatDebugPlugin`, which the `debug` feature (on by default) adds.
#![cfg(feature = "debug")]

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

// The example's `main` opens a window; the tests use only `game`.
#[allow(dead_code)]
#[path = "../../../examples/quick_start.rs"]
mod quick_start;

const README: &str = include_str!("../../../README.md");
const EXAMPLE: &str = include_str!("../../../examples/quick_start.rs");

/// The first `rust` code block after the `## Quick start` heading.
fn readme_quick_start() -> &'static str {
    let section = README
        .split_once("\n## Quick start\n")
        .expect("the README has a Quick start section")
        .1;
    let block = section
        .split_once("```rust")
        .expect("the Quick start section has a rust block")
        .1;
    let code = block.split_once('\n').expect("the fence line ends").1;
    code.split_once("```").expect("the block is closed").0
}

#[test]
fn the_readme_shows_the_quick_start_example() {
    // The example without its own `//!` header, which says where it comes from.
    let example = EXAMPLE
        .split_once("\n\n")
        .expect("a header, then the code")
        .1;
    assert_eq!(readme_quick_start(), example);
}

#[test]
fn the_quick_start_player_lands_on_the_one_way_platform() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        // No key is pressed: the player only falls.
        .init_resource::<ButtonInput<KeyCode>>()
        .add_plugins(quick_start::game);
    // The first update runs `Startup` and starts the clock; each one after is one fixed step.
    app.update();
    let platform = app
        .world_mut()
        .query_filtered::<Entity, With<OneWayPlatform>>()
        .single(app.world())
        .expect("one one-way platform");
    let player = app
        .world_mut()
        .query_filtered::<Entity, With<Weak>>()
        .single(app.world())
        .expect("one player");
    assert_eq!(
        position_y(&app, player),
        140.0,
        "spawned clear above the platform"
    );

    for _ in 0..120 {
        app.update();
    }

    // The platform's top is at 80 + 10 / 2 = 85, the player's half height 16: the centre rests
    // at 101, give or take the rounding of the push that stopped it (one f32 step at 101).
    let y = position_y(&app, player);
    let one_step = 101.0f32.next_up() - 101.0;
    assert!(
        (y - 101.0).abs() <= one_step,
        "rests at {y}, not on the platform's top"
    );
    let flags = *app.world().get::<ContactFlags>(player).expect("Weak");
    assert!(flags.on_floor());
    assert_eq!(flags.standing_on(), Some(platform));
    assert_eq!(
        app.world().get::<Velocity>(player).expect("Weak").0,
        Vec2::ZERO
    );
}

fn position_y(app: &App, entity: Entity) -> f32 {
    app.world()
        .get::<Transform>(entity)
        .expect("has a Transform")
        .translation
        .y
}
