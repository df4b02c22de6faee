//! The headless stress benchmark: the stress scene of DESIGN.md with bevy_sat, no window, no
//! rendering. Only `App::update()` (one fixed step) is timed. Prints one JSON line.
//!
//! ```text
//! cargo run --release --example stress -- --bodies 16000 --steps 300 --warmup 60 \
//!     --threads 1 --mode detect --seed 1
//! ```
//!
//! `--mode resolve` runs the plugin as games use it (Weak bodies pushed apart); `--mode detect`
//! makes the moving bodies sensors, so they pass through each other and everything is only
//! detected and reported, as kinematic bodies in other engines (the mode for comparing).

mod scene;

use std::alloc::System;
use std::time::Instant;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin, TaskPoolThreadAssignmentPolicy};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;
use scene::{Options, SceneShape};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

/// The system allocator, instrumented, so the run can report how many allocations happen per
/// step once warmed up (bevy_sat's own stages allocate nothing then; Bevy's scheduler may).
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The half extent of the world, for the reflection rule.
#[derive(Resource)]
struct World(f32);

/// Collision-started messages seen so far.
#[derive(Resource, Default)]
struct Started(u64);

fn main() {
    let options = match Options::from_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("stress: {error}");
            eprintln!(
                "usage: stress --bodies N --steps S --warmup K --threads T --mode resolve|detect --seed X"
            );
            std::process::exit(2);
        }
    };
    let mut app = build_app(&options);
    app.update(); // starts the clock: no step yet
    for _ in 0..options.warmup {
        app.update();
    }
    let mut times = Vec::with_capacity(options.steps);
    let region = Region::new(GLOBAL);
    for _ in 0..options.steps {
        let start = Instant::now();
        app.update();
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let allocations = region.change().allocations + region.change().reallocations;
    eprintln!(
        "stress: {allocations} allocations in {} timed steps ({:.1} per step, whole app)",
        options.steps,
        allocations as f64 / options.steps as f64
    );
    let (median, mean) = scene::median_and_mean(&mut times);
    let overlapping = app
        .world()
        .resource::<Contacts>()
        .iter()
        .filter(|pair| pair.contact.depth >= 0.0)
        .count();
    let started = app.world().resource::<Started>().0;
    println!(
        "{}",
        scene::json_line("bevy_sat", &options, median, mean, overlapping, started)
    );
}

fn build_app(options: &Options) -> App {
    let threads = options.threads;
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions {
                compute: TaskPoolThreadAssignmentPolicy {
                    min_threads: threads,
                    max_threads: threads,
                    percent: 1.0,
                    on_thread_spawn: None,
                    on_thread_destroy: None,
                },
                ..default()
            },
        }),
        SatPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .insert_resource(Time::<Fixed>::from_hz(60.0))
    .init_resource::<Started>()
    .add_systems(
        FixedPostUpdate,
        reflect_at_walls.before(SatSystems::Prepare),
    )
    .add_systems(FixedPostUpdate, count_started.after(SatSystems::Writeback));

    let scene = scene::stress_scene(options.bodies, options.seed);
    app.insert_resource(World(scene.half_extent));
    let detect = options.mode == "detect";
    let world = app.world_mut();
    for body in scene.bodies {
        let collider = match body.shape {
            SceneShape::Box { width, height } => ConvexCollider::rectangle(width, height),
            SceneShape::Regular { sides, radius } => {
                ConvexCollider::regular_polygon(sides as usize, radius)
            }
            SceneShape::Convex { points } => {
                match ConvexCollider::convex_polygon(points.iter().map(|p| Vec2::from(*p))) {
                    Ok(collider) => collider,
                    Err(error) => {
                        eprintln!("stress: skipping an invalid random polygon: {error}");
                        continue;
                    }
                }
            }
        };
        let transform = Transform::from_xyz(body.position[0], body.position[1], 0.0);
        if body.moving {
            let mut entity =
                world.spawn((collider, Weak, transform, Velocity(body.velocity.into())));
            if detect {
                entity.insert(Sensor);
            }
        } else {
            world.spawn((collider, Mighty, transform));
        }
    }
    app
}

fn reflect_at_walls(world: Res<World>, mut bodies: Query<(&Transform, &mut Velocity), With<Weak>>) {
    for (transform, mut velocity) in &mut bodies {
        let mut v = velocity.0.to_array();
        scene::reflect(transform.translation.truncate().to_array(), &mut v, world.0);
        velocity.set_if_neq(Velocity(Vec2::from(v)));
    }
}

fn count_started(mut count: ResMut<Started>, mut started: MessageReader<CollisionStarted>) {
    count.0 += started.read().count() as u64;
}
