//! The same scene gives bit-identical transforms on every run, with 1 or 2 threads.

mod common;
#[path = "../../../examples/stress/scene.rs"]
mod scene;

use bevy::app::TaskPoolOptions;
use bevy::app::TaskPoolPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

/// A busy scene: 600 mixed Weak bodies falling into a walled pit onto Mighty shelves, so that
/// the narrow phase has well over a task's worth of pairs every step.
fn spawn_busy_scene(app: &mut App) -> Vec<Entity> {
    let world = app.world_mut();
    for (x, y, w, h) in [
        (0.0, -10.0, 420.0, 20.0),
        (-210.0, 200.0, 20.0, 420.0),
        (210.0, 200.0, 20.0, 420.0),
        (-60.0, 120.0, 120.0, 8.0),
        (80.0, 60.0, 90.0, 8.0),
    ] {
        world.spawn((
            ConvexCollider::rectangle(w, h),
            Mighty,
            Transform::from_xyz(x, y, 0.0),
        ));
    }
    let mut rng = scene::XorShift::new(0x2545_F491_4F6C_DD1D);
    let mut next = move || rng.unit();
    (0..600)
        .map(|i| {
            let collider = match i % 3 {
                0 => ConvexCollider::rectangle(6.0 + 6.0 * next(), 6.0 + 6.0 * next()),
                1 => ConvexCollider::regular_polygon(3 + i % 6, 3.0 + 3.0 * next()),
                _ => ConvexCollider::circle(3.0 + 2.0 * next()),
            };
            let at = Vec3::new(-190.0 + 380.0 * next(), 20.0 + 380.0 * next(), 0.0);
            let v = Vec2::new(next() - 0.5, next() - 0.5) * 200.0;
            world
                .spawn((collider, Weak, Transform::from_translation(at), Velocity(v)))
                .id()
        })
        .collect()
}

fn run_scene(threads: Option<usize>) -> Vec<[u32; 4]> {
    let mut app = App::new();
    let mut plugins = MinimalPlugins.build();
    if let Some(threads) = threads {
        plugins = plugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(threads),
        });
    }
    app.add_plugins((plugins, SatPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(SatConfig {
            gravity: Vec2::new(0.0, -400.0),
            ..default()
        });
    app.update();
    let bodies = spawn_busy_scene(&mut app);
    for _ in 0..240 {
        app.update();
    }
    bodies
        .iter()
        .map(|e| {
            let t = app.world().get::<Transform>(*e).expect("alive").translation;
            let v = app.world().get::<Velocity>(*e).expect("weak").0;
            [t.x.to_bits(), t.y.to_bits(), v.x.to_bits(), v.y.to_bits()]
        })
        .collect()
}

fn fingerprint(state: &[[u32; 4]]) -> String {
    // FNV-1a over every bit of every position and velocity.
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for word in state.iter().flatten() {
        for byte in word.to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

#[test]
fn two_runs_are_bit_identical() {
    let first = run_scene(None);
    let second = run_scene(None);
    assert_eq!(first, second);
    // The scene really did something: bodies came to rest on the floor and shelves.
    let resting = first.iter().filter(|s| f32::from_bits(s[3]) == 0.0).count();
    assert!(resting > 100, "only {resting} bodies at rest");
}

/// Run in a child process by `one_and_two_threads_are_bit_identical` (Bevy's task pools are
/// global, one size per process): prints the fingerprint of the scene with `SAT_THREADS`
/// threads. Ignored on its own, and fails without `SAT_THREADS`, so that it never passes
/// without having checked anything.
#[test]
#[ignore = "a child process of one_and_two_threads_are_bit_identical, which sets SAT_THREADS"]
fn child_scene_fingerprint() {
    let threads: usize = std::env::var("SAT_THREADS")
        .expect("SAT_THREADS: run through one_and_two_threads_are_bit_identical")
        .parse()
        .expect("a thread count");
    println!("FINGERPRINT {}", fingerprint(&run_scene(Some(threads))));
}

#[test]
fn one_and_two_threads_are_bit_identical() {
    let fingerprint_with = |threads: usize| {
        common::value_from_child("child_scene_fingerprint", threads, "FINGERPRINT")
    };
    let one = fingerprint_with(1);
    let two = fingerprint_with(2);
    assert_eq!(one, two);
    assert_eq!(
        one,
        fingerprint(&run_scene(None)),
        "and the same as this process's pool"
    );
}
