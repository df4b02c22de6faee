//! The stress scene (docs/benchmarks.md) with bevy_rapier2d 0.36 (rapier2d 0.35), headless, for
//! comparison with bevy_sat's `examples/stress`. Same scene, options, harness and JSON line
//! (engine `"bevy_rapier2d"`).
//!
//! ```text
//! cargo run --release --bin stress_rapier -- --bodies 16000 --steps 300 --warmup 60 \
//!     --threads 1 --mode detect --seed 1
//! ```
//!
//! The moving bodies are `RigidBody::KinematicVelocityBased`, moved by their `Velocity`; walls
//! and boxes are `RigidBody::Fixed`. Rapier never resolves contacts between kinematic and
//! kinematic or fixed bodies (neither side can be pushed), so they pass through each other and
//! everything is only detected and reported: this is bevy_sat's `--mode detect`.
//! `--mode resolve` is accepted and runs exactly the same thing (kinematic bodies are never
//! resolved by this engine).
//!
//! Contacts: rapier's default `ActiveCollisionTypes` only pair colliders with a dynamic body,
//! so every collider gets all collision types except `STATIC_STATIC` (rapier2d's
//! `geometry/broad_phase_bvh/update.rs` and `narrow_phase/pair_update.rs` filter pairs by these
//! flags; bevy_sat skips Mighty–Mighty pairs and avian static–static pairs, so fixed–fixed pairs
//! are left out here too), and `ActiveEvents::COLLISION_EVENTS`, which makes rapier emit
//! `CollisionEvent::Started` when a pair gets its first active (solver) contact, i.e. a contact
//! point closer than the prediction distance (0.002 units with length unit 1).
//!
//! Stepping: the plugin runs in `FixedPostUpdate` (like bevy_sat and avian) with
//! `TimestepMode::Fixed { dt: 1/60, substeps: 1 }`: exactly one rapier step of 1/60 s each time
//! the schedule runs (plugin/context/mod.rs, `step_simulation`), i.e. per `App::update()` here.
//! Threads: with the `parallel` feature rapier runs its parallel parts on rayon; the pipeline
//! gets a dedicated pool of `--threads` threads (`PhysicsPipeline::configure_thread_pool`).

// The scene, options and JSON line of bevy_sat's own stress example, shared verbatim. Skipped by
// rustfmt here: that file belongs to (and is formatted with) the main workspace.
#[rustfmt::skip]
#[path = "../../../examples/stress/scene.rs"]
mod scene;

#[rustfmt::skip]
#[path = "../../../examples/stress/harness.rs"]
mod harness;

// The spatial-query benchmark's query list, shared verbatim like the scene.
#[rustfmt::skip]
#[path = "../../../examples/stress/queries.rs"]
mod queries;

#[path = "../queries/rapier.rs"]
mod engine_queries;

use bevy::prelude::*;
use bevy_rapier2d::prelude::*;
use bevy_rapier2d::rapier::dynamics::IntegrationParameters;
use bevy_rapier2d::rapier::pipeline::PhysicsPipeline;
use harness::{Started, Steps, WorldHalfExtent};
use scene::{Options, SceneShape};

fn main() {
    let (args, run_queries, answers) = queries::take_flags(std::env::args().skip(1).collect());
    let options = Options::from_args(args)
        .unwrap_or_else(|error| harness::usage_exit("stress_rapier", &error));
    let mut app = build_app(&options);
    if run_queries {
        // `--queries [--answers DIR]`: the spatial-query benchmark after the warm-up steps.
        harness::warm_up(&mut app, options.warmup);
        let scene = scene::stress_scene(options.bodies, options.seed);
        engine_queries::run(&mut app, &options, &scene, answers.as_deref());
        return;
    }
    let mut times = harness::run(&mut app, options.warmup, options.steps);
    let (median, mean) = scene::median_and_mean(&mut times);

    // Pairs in contact after the last step: a contact point at distance <= 0, i.e. penetration
    // >= 0 (touching or overlapping). The narrow phase also holds pairs whose AABBs merely
    // overlap.
    let world = app.world_mut();
    let mut contexts = world.query::<(
        &RapierContextSimulation,
        &RapierContextColliders,
        &RapierRigidBodySet,
    )>();
    let (simulation, colliders, bodies) = contexts.single(world).expect("one rapier context");
    let pairs = || simulation.contact_pairs(colliders, bodies);
    let overlapping = pairs()
        .filter(|pair| {
            pair.manifolds()
                .any(|manifold| manifold.points().any(|point| point.dist() <= 0.0))
        })
        .count();
    let active = pairs().filter(|pair| pair.has_any_active_contact()).count();
    eprintln!(
        "stress_rapier: {active} pairs with an active contact (rapier's own definition) after the \
         last step, {} pairs in the narrow phase",
        pairs().count()
    );
    eprintln!(
        "stress_rapier: {} fixed steps run, dt {} s each",
        world.resource::<Steps>().0,
        simulation.integration_parameters.dt
    );
    let started = world.resource::<Started>().0;
    println!(
        "{}",
        scene::json_line(
            "bevy_rapier2d",
            &options,
            median,
            mean,
            overlapping,
            started
        )
    );
}

fn build_app(options: &Options) -> App {
    let mut app = App::new();
    app.add_plugins((
        harness::minimal_plugins(options.threads),
        RapierPhysicsPlugin::<NoUserData>::default()
            .in_schedule(FixedPostUpdate)
            // The context is spawned below, with zero gravity and a sized thread pool.
            .with_custom_initialization(RapierContextInitialization::NoAutomaticRapierContext),
    ));
    harness::one_fixed_step_per_update(&mut app);
    // bevy_rapier runs Bevy's transform propagation systems itself (before each step); the
    // parallel propagation reads this resource, which `TransformPlugin` (not in
    // `MinimalPlugins`) would otherwise insert.
    app.init_resource::<StaticTransformOptimizations>();
    app.insert_resource(TimestepMode::Fixed {
        dt: scene::DT,
        substeps: 1,
    })
    .init_resource::<Started>()
    .init_resource::<Steps>()
    .add_systems(
        FixedPostUpdate,
        reflect_at_walls.before(PhysicsSet::SyncBackend),
    )
    .add_systems(
        FixedPostUpdate,
        count_started.after(PhysicsSet::StepSimulation),
    );

    let mut pipeline = PhysicsPipeline::new();
    pipeline
        .configure_thread_pool(options.threads)
        .expect("a rayon pool for rapier");
    let mut simulation = RapierContextSimulation::default();
    simulation.pipeline = pipeline;
    simulation.integration_parameters = IntegrationParameters::default(); // length unit 1
    app.world_mut().spawn((
        simulation,
        RapierConfiguration {
            gravity: Vec2::ZERO,
            ..RapierConfiguration::new(1.0)
        },
        DefaultRapierContext,
    ));

    let scene = scene::stress_scene(options.bodies, options.seed);
    app.insert_resource(WorldHalfExtent(scene.half_extent));
    let world = app.world_mut();
    let collision_types =
        ActiveCollisionTypes::all().difference(ActiveCollisionTypes::STATIC_STATIC);
    let mut skipped = 0;
    let mut ids = engine_queries::SceneIds::default();
    for (index, body) in scene.bodies.into_iter().enumerate() {
        let collider = match collider_of(&body.shape) {
            Some(collider) => collider,
            None => {
                skipped += 1;
                continue;
            }
        };
        let transform = Transform::from_xyz(body.position[0], body.position[1], 0.0);
        let common = (
            collider,
            transform,
            collision_types,
            ActiveEvents::COLLISION_EVENTS,
        );
        let entity = if body.moving {
            world.spawn((
                RigidBody::KinematicVelocityBased,
                Velocity::linear(Vec2::from(body.velocity)),
                common,
            ))
        } else {
            world.spawn((RigidBody::Fixed, common))
        }
        .id();
        ids.0.insert(entity, index);
    }
    if skipped > 0 {
        eprintln!("stress_rapier: skipped {skipped} random polygons without a convex hull");
    }
    app.insert_resource(ids);
    app
}

/// The collider of a scene shape; `None` for a random polygon without a convex hull.
fn collider_of(shape: &SceneShape) -> Option<Collider> {
    match shape {
        SceneShape::Box { width, height } => Some(Collider::cuboid(width * 0.5, height * 0.5)),
        SceneShape::Regular { sides, radius } => {
            Collider::convex_hull(&harness::regular_polygon_points(*sides, *radius))
        }
        SceneShape::Convex { points } => {
            let points: Vec<Vec2> = points.iter().map(|p| Vec2::from(*p)).collect();
            Collider::convex_hull(&points)
        }
    }
}

/// The reflection rule, before physics, on the `Transform` rapier writes back and `Velocity`.
fn reflect_at_walls(
    world: Res<WorldHalfExtent>,
    mut bodies: Query<(&Transform, &mut Velocity, &RigidBody)>,
) {
    for (transform, mut velocity, body) in &mut bodies {
        if *body != RigidBody::KinematicVelocityBased {
            continue;
        }
        let mut v = velocity.linear.to_array();
        scene::reflect(transform.translation.truncate().to_array(), &mut v, world.0);
        let v = Vec2::from(v);
        if velocity.linear != v {
            velocity.linear = v;
        }
    }
}

fn count_started(
    mut count: ResMut<Started>,
    mut steps: ResMut<Steps>,
    mut events: MessageReader<CollisionEvent>,
) {
    steps.0 += 1;
    count.0 += events
        .read()
        .filter(|event| matches!(event, CollisionEvent::Started(..)))
        .count() as u64;
}
