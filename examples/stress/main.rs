//! The headless stress benchmark: the stress scene (docs/benchmarks.md) with bevy_sat, no
//! window, no rendering. Only `App::update()` (one fixed step) is timed. Prints one JSON line.
//!
//! ```text
//! cargo run --release --example stress -- --bodies 16000 --steps 300 --warmup 60 \
//!     --threads 1 --mode detect --seed 1
//! ```
//!
//! `--mode resolve` runs the plugin as games use it (Weak bodies pushed apart); `--mode detect`
//! makes the moving bodies sensors, so they pass through each other and everything is only
//! detected and reported, as kinematic bodies in other engines (the mode for comparing).
//!
//! `--stages` (bevy_sat only, not part of the shared options) also prints the median time of
//! each of the plugin's system sets to stderr.
//!
//! `--queries [--answers DIR]` runs the spatial-query benchmark instead of timing steps (see
//! `queries.rs`): after the warm-up steps, 10,000 rays, shape casts and point queries.
//!
//! `--compounds` (bevy_sat only) makes every other moving box a compound of its two halves
//! (a quarter of the moving bodies, each of two parts of the same outline), to measure what a
//! compound body costs against the single shape it replaces. `--children` splits the same
//! boxes instead into a body of the left half with the right half a child collider below it
//! (its own entity, folded into its body's shape every step), to measure what a child
//! collider costs. `--child-layers` gives each such child a layer of its own, meeting every
//! layer: the same motion, through the step's handling of parts with layers of their own.
//!
//! `--tiles` runs the tile-grid benchmark instead (see `tiles.rs`): a 1000 × 1000 cave grid,
//! its build, one edit, and `--bodies` Weak bodies over it against a floor of plain boxes.

mod harness;
mod queries;
mod sat_queries;
mod scene;
mod stages;
mod tiles;

use std::alloc::System;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use harness::{Started, WorldHalfExtent};
use scene::{Options, SceneShape};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

/// The system allocator, instrumented, so the run can report how many allocations happen per
/// step once warmed up (bevy_sat's own stages allocate nothing then; Bevy's scheduler may).
#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (args, run_queries, answers) = queries::take_flags(args);
    let by_stage = args.iter().any(|a| a == "--stages");
    let run_tiles = args.iter().any(|a| a == "--tiles");
    let split = if args.iter().any(|a| a == "--compounds") {
        Split::Compounds
    } else if args.iter().any(|a| a == "--children") {
        Split::Children
    } else if args.iter().any(|a| a == "--child-layers") {
        Split::ChildLayers
    } else {
        Split::None
    };
    let options = Options::from_args(args.into_iter().filter(|a| {
        !matches!(
            a.as_str(),
            "--stages" | "--tiles" | "--compounds" | "--children" | "--child-layers"
        )
    }))
    .unwrap_or_else(|error| harness::usage_exit("stress", &error));
    if run_tiles {
        tiles::run(&options);
        return;
    }
    let mut app = build_app(&options, split);
    if run_queries {
        harness::warm_up(&mut app, options.warmup);
        let scene = scene::stress_scene(options.bodies, options.seed);
        sat_queries::run(&mut app, &options, &scene, answers.as_deref());
        return;
    }
    if by_stage {
        stages::add_timers(&mut app);
    }
    harness::warm_up(&mut app, options.warmup);
    if by_stage {
        stages::reset(&mut app);
    }
    let region = Region::new(GLOBAL);
    let mut times = harness::time_steps(&mut app, options.steps);
    let allocations = region.change().allocations + region.change().reallocations;
    eprintln!(
        "stress: {allocations} allocations in {} timed steps ({:.1} per step, whole app)",
        options.steps,
        allocations as f64 / options.steps as f64
    );
    let (median, mean) = scene::median_and_mean(&mut times);
    if by_stage {
        stages::print(&mut app);
    }
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

/// How every other moving box of the scene is split into its two halves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Split {
    /// Not split.
    None,
    /// A compound of the two halves.
    Compounds,
    /// The left half the body's own collider, the right half a child collider.
    Children,
    /// As `Children`, the child collider on a layer of its own (meeting every layer): the same
    /// motion, through the step's handling of parts with layers of their own.
    ChildLayers,
}

/// The stress scene's app, every other moving box split as `split` says.
fn build_app(options: &Options, split: Split) -> App {
    let mut app = App::new();
    app.add_plugins((
        harness::minimal_plugins(options.threads),
        SatPlugin::default(),
    ));
    harness::one_fixed_step_per_update(&mut app);
    app.init_resource::<Started>()
        .add_systems(
            FixedPostUpdate,
            reflect_at_walls
                .before(SatSystems::Prepare)
                .before(stages::Start),
        )
        .add_systems(FixedPostUpdate, count_started.after(SatSystems::Writeback));

    let scene = scene::stress_scene(options.bodies, options.seed);
    app.insert_resource(WorldHalfExtent(scene.half_extent));
    let detect = options.mode == "detect";
    let mut ids = sat_queries::SceneIds::default();
    let world = app.world_mut();
    let mut boxes = 0usize;
    for (index, body) in scene.bodies.into_iter().enumerate() {
        let halved = match body.shape {
            SceneShape::Box { width, height } if split != Split::None && body.moving => {
                boxes += 1;
                boxes.is_multiple_of(2).then_some((width, height))
            }
            _ => None,
        };
        let children = matches!(split, Split::Children | Split::ChildLayers);
        let made = match halved {
            Some((w, h)) if children => left_half(w, h),
            Some((w, h)) => halves(w, h),
            None => collider_of(&body.shape),
        };
        let collider = match made {
            Ok(collider) => collider,
            Err(error) => {
                eprintln!("stress: skipping an invalid random polygon: {error}");
                continue;
            }
        };
        let transform = Transform::from_xyz(body.position[0], body.position[1], 0.0);
        let entity = if body.moving {
            let mut entity =
                world.spawn((collider, Weak, transform, Velocity(body.velocity.into())));
            if detect {
                entity.insert(Sensor);
            }
            let id = entity.id();
            if let Some((w, h)) = halved.filter(|_| children) {
                let mut part = world.spawn((
                    ConvexCollider::rectangle(w * 0.5, h),
                    Transform::from_xyz(w * 0.25, 0.0, 0.0),
                    ChildOf(id),
                ));
                if detect {
                    part.insert(Sensor);
                }
                if split == Split::ChildLayers {
                    part.insert(CollisionLayers::new(1 << 1, CollisionLayers::ALL));
                }
            }
            id
        } else {
            world.spawn((collider, Mighty, transform)).id()
        };
        ids.0.insert(entity, index);
    }
    app.insert_resource(ids);
    app
}

/// A box `width` × `height` as a compound of its left and right halves.
fn halves(width: f32, height: f32) -> Result<ConvexCollider, PolygonError> {
    let half = ConvexCollider::rectangle(width * 0.5, height);
    ConvexCollider::compound([
        (Vec2::new(-width * 0.25, 0.0), 0.0, half.clone()),
        (Vec2::new(width * 0.25, 0.0), 0.0, half),
    ])
}

/// The left half of a box `width` × `height`, in the box's frame: a compound of one part.
fn left_half(width: f32, height: f32) -> Result<ConvexCollider, PolygonError> {
    let half = ConvexCollider::rectangle(width * 0.5, height);
    ConvexCollider::compound([(Vec2::new(-width * 0.25, 0.0), 0.0, half)])
}

/// The collider of a scene shape.
fn collider_of(shape: &SceneShape) -> Result<ConvexCollider, PolygonError> {
    match shape {
        SceneShape::Box { width, height } => Ok(ConvexCollider::rectangle(*width, *height)),
        SceneShape::Regular { sides, radius } => {
            Ok(ConvexCollider::regular_polygon(*sides as usize, *radius))
        }
        SceneShape::Convex { points } => {
            ConvexCollider::convex_polygon(points.iter().map(|p| Vec2::from(*p)))
        }
    }
}

fn reflect_at_walls(
    world: Res<WorldHalfExtent>,
    mut bodies: Query<(&Transform, &mut Velocity), With<Weak>>,
) {
    for (transform, mut velocity) in &mut bodies {
        let mut v = velocity.0.to_array();
        scene::reflect(transform.translation.truncate().to_array(), &mut v, world.0);
        velocity.set_if_neq(Velocity(Vec2::from(v)));
    }
}

fn count_started(mut count: ResMut<Started>, mut started: MessageReader<CollisionStarted>) {
    count.0 += started.read().count() as u64;
}
