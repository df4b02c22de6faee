//! The stress scene (docs/benchmarks.md) with avian2d 0.7, headless, for comparison with
//! bevy_sat's `examples/stress`. Same scene, options, harness and JSON line (engine `"avian2d"`).
//!
//! ```text
//! cargo run --release --bin stress_avian -- --bodies 16000 --steps 300 --warmup 60 \
//!     --threads 1 --mode detect --seed 1
//! ```
//!
//! The moving bodies are `RigidBody::Kinematic`, moved by their `LinearVelocity`; walls and
//! boxes are `RigidBody::Static`. Avian never resolves contacts of kinematic bodies (a contact
//! constraint needs a dynamic body), so they pass through each other and everything is only
//! detected and reported: this is bevy_sat's `--mode detect`. `--mode resolve` is accepted and
//! runs exactly the same thing (kinematic bodies are never resolved by this engine).
//!
//! Contacts, from avian's source (`collision/broad_phase/bvh_broad_phase.rs`,
//! `collision/narrow_phase/system_param.rs`): the broad phase queries the dynamic, kinematic and
//! static trees for every moved proxy, so kinematic–kinematic and kinematic–static pairs are
//! found; only static–static pairs are skipped (bevy_sat skips Mighty–Mighty pairs too). The
//! narrow phase computes manifolds for every pair; `CollisionEventsEnabled` on the colliders makes
//! it write a `CollisionStart` message when a pair starts touching.
//!
//! Speculative contacts: by default avian keeps contact points up to `|relative velocity| * dt`
//! apart (for its solver's continuous collision of dynamic bodies) and counts such a pair as
//! touching, so `CollisionStart` would fire up to one step before the shapes meet. Kinematic
//! bodies are never solved, so this run sets `NarrowPhaseConfig::default_speculative_margin` to 0
//! (avian's documented way to disable speculative collision): "touching" is then "within the
//! contact tolerance" (0.005 units), like bevy_sat's 0.01 margin and rapier's 0.002 prediction.
//! Set `AVIAN_DEFAULT_SPECULATIVE=1` to keep avian's default instead.

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

#[path = "../queries/avian.rs"]
mod engine_queries;

use avian2d::prelude::*;
use bevy::prelude::*;
use harness::{Started, Steps, WorldHalfExtent};
use scene::{Options, SceneShape};

fn main() {
    let (args, run_queries, answers) = queries::take_flags(std::env::args().skip(1).collect());
    let options = Options::from_args(args)
        .unwrap_or_else(|error| harness::usage_exit("stress_avian", &error));
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

    // Pairs in contact after the last step: a contact point with penetration >= 0 (touching or
    // overlapping). The contact graph also holds pairs whose AABBs merely overlap.
    let graph = app.world().resource::<ContactGraph>();
    let pairs = || graph.active_pairs().iter().chain(graph.sleeping_pairs());
    let overlapping = pairs()
        .filter(|pair| {
            pair.manifolds
                .iter()
                .any(|manifold| manifold.points.iter().any(|point| point.penetration >= 0.0))
        })
        .count();
    let touching = pairs().filter(|pair| pair.is_touching()).count();
    eprintln!(
        "stress_avian: {touching} pairs touching by avian's own definition after the last step, \
         {} pairs in the contact graph",
        pairs().count()
    );
    eprintln!(
        "stress_avian: {} fixed steps run, {:.4} s simulated (Time<Physics>)",
        app.world().resource::<Steps>().0,
        app.world().resource::<Time<Physics>>().elapsed_secs_f64()
    );
    let started = app.world().resource::<Started>().0;
    println!(
        "{}",
        scene::json_line("avian2d", &options, median, mean, overlapping, started)
    );
}

fn build_app(options: &Options) -> App {
    let mut app = App::new();
    // `PhysicsPlugins::default()` runs physics in `FixedPostUpdate`, advancing by
    // `Time<Fixed>`'s delta (schedule/mod.rs, `run_physics_schedule`): one 1/60 s step per
    // fixed step, i.e. per `App::update()` here.
    app.add_plugins((
        harness::minimal_plugins(options.threads),
        PhysicsPlugins::default(),
    ));
    harness::one_fixed_step_per_update(&mut app);
    app.insert_resource(Gravity(Vec2::ZERO))
        .init_resource::<Started>()
        .init_resource::<Steps>()
        .add_systems(
            FixedPostUpdate,
            reflect_at_walls.before(PhysicsSystems::Prepare),
        )
        .add_systems(
            FixedPostUpdate,
            count_started.after(PhysicsSystems::StepSimulation),
        );
    if std::env::var_os("AVIAN_DEFAULT_SPECULATIVE").is_none_or(|v| v.is_empty() || v == "0") {
        app.insert_resource(NarrowPhaseConfig {
            default_speculative_margin: 0.0,
            ..default()
        });
    }

    let scene = scene::stress_scene(options.bodies, options.seed);
    app.insert_resource(WorldHalfExtent(scene.half_extent));
    let world = app.world_mut();
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
        let entity = if body.moving {
            world.spawn((
                RigidBody::Kinematic,
                collider,
                transform,
                LinearVelocity(Vec2::from(body.velocity)),
                CollisionEventsEnabled,
            ))
        } else {
            world.spawn((
                RigidBody::Static,
                collider,
                transform,
                CollisionEventsEnabled,
            ))
        }
        .id();
        ids.0.insert(entity, index);
    }
    if skipped > 0 {
        eprintln!("stress_avian: skipped {skipped} random polygons without a convex hull");
    }
    app.insert_resource(ids);
    app
}

/// The collider of a scene shape; `None` for a random polygon without a convex hull.
fn collider_of(shape: &SceneShape) -> Option<Collider> {
    match shape {
        SceneShape::Box { width, height } => Some(Collider::rectangle(*width, *height)),
        SceneShape::Regular { sides, radius } => {
            Collider::convex_hull(harness::regular_polygon_points(*sides, *radius))
        }
        SceneShape::Convex { points } => {
            Collider::convex_hull(points.iter().map(|p| Vec2::from(*p)).collect())
        }
    }
}

/// The reflection rule, before physics, on avian's `Position` and `LinearVelocity`.
fn reflect_at_walls(
    world: Res<WorldHalfExtent>,
    mut bodies: Query<(&Position, &mut LinearVelocity, &RigidBody)>,
) {
    for (position, mut velocity, body) in &mut bodies {
        if !body.is_kinematic() {
            continue;
        }
        let mut v = velocity.0.to_array();
        scene::reflect(position.0.to_array(), &mut v, world.0);
        let v = Vec2::from(v);
        if velocity.0 != v {
            velocity.0 = v;
        }
    }
}

fn count_started(
    mut count: ResMut<Started>,
    mut steps: ResMut<Steps>,
    mut started: MessageReader<CollisionStart>,
) {
    count.0 += started.read().count() as u64;
    steps.0 += 1;
}
