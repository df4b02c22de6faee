//! Headless test apps: `MinimalPlugins`, the plugin, and exactly one 60 Hz fixed step per
//! `update()`.
#![allow(dead_code)]

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

pub mod shapes;

pub const DT: f32 = 1.0 / 60.0;

pub fn app_with(config: SatConfig) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(config);
    // The first update only starts the clock; from then on each update is one fixed step.
    app.update();
    app
}

pub fn app() -> App {
    app_with(SatConfig::default())
}

pub fn app_with_gravity(y: f32) -> App {
    app_with(SatConfig {
        gravity: Vec2::new(0.0, y),
        ..default()
    })
}

pub fn run(app: &mut App, steps: usize) {
    for _ in 0..steps {
        app.update();
    }
}

pub fn position(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Transform>(entity)
        .expect("has a Transform")
        .translation
        .truncate()
}

pub fn velocity(app: &App, entity: Entity) -> Vec2 {
    app.world()
        .get::<Velocity>(entity)
        .expect("has a Velocity")
        .0
}

pub fn flags(app: &App, entity: Entity) -> ContactFlags {
    *app.world().get::<ContactFlags>(entity).expect("is Weak")
}

pub fn spawn(app: &mut App, bundle: impl Bundle) -> Entity {
    app.world_mut().spawn(bundle).id()
}

/// A child collider of `body` with `collider` at `offset` in the body's frame.
pub fn child(app: &mut App, body: Entity, collider: ConvexCollider, offset: Vec2) -> Entity {
    spawn(
        app,
        (
            collider,
            Transform::from_translation(offset.extend(0.0)),
            ChildOf(body),
        ),
    )
}

/// Whether `a` and `b` touch, as [`Contacts`] lists them after the last step.
pub fn touching(app: &App, a: Entity, b: Entity) -> bool {
    app.world().resource::<Contacts>().get(a, b).is_some()
}

/// A Weak body with `collider` at (`x`, `y`).
pub fn weak(app: &mut App, collider: ConvexCollider, x: f32, y: f32) -> Entity {
    spawn(app, (collider, Weak, Transform::from_xyz(x, y, 0.0)))
}

/// A Weak body with `collider` at (`x`, `y`), moving with `velocity`.
pub fn moving(app: &mut App, collider: ConvexCollider, x: f32, y: f32, velocity: Vec2) -> Entity {
    spawn(
        app,
        (
            collider,
            Weak,
            Transform::from_xyz(x, y, 0.0),
            Velocity(velocity),
        ),
    )
}

/// A Mighty body with `collider` at (`x`, `y`).
pub fn mighty(app: &mut App, collider: ConvexCollider, x: f32, y: f32) -> Entity {
    spawn(app, (collider, Mighty, Transform::from_xyz(x, y, 0.0)))
}

/// A Mighty floor 400 wide and 20 tall whose top is at y = 0.
pub fn floor(app: &mut App) -> Entity {
    mighty(app, ConvexCollider::rectangle(400.0, 20.0), 0.0, -10.0)
}

/// Counts of the messages read so far.
#[derive(Resource, Default, Debug)]
pub struct Log {
    pub started: Vec<(Entity, Entity)>,
    pub ended: Vec<(Entity, Entity)>,
}

fn record(
    mut log: ResMut<Log>,
    mut started: MessageReader<CollisionStarted>,
    mut ended: MessageReader<CollisionEnded>,
) {
    log.started.extend(started.read().map(|e| (e.a, e.b)));
    log.ended.extend(ended.read().map(|e| (e.a, e.b)));
}

/// Records every collision message into the `Log` resource.
pub fn log_messages(app: &mut App) {
    app.init_resource::<Log>()
        .add_systems(FixedPostUpdate, record.after(SatSystems::Writeback));
}

/// Runs the ignored test `test` of this test binary in a child process with `SAT_THREADS` set
/// to `threads` (Bevy's task pools are global, one size per process), and returns the word it
/// printed after `tag` (`"TAG value"` on a line of its output).
pub fn value_from_child(test: &str, threads: usize, tag: &str) -> String {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            test,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("SAT_THREADS", threads.to_string())
        .output()
        .expect("the child test runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "child failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let prefix = format!("{tag} ");
    stdout
        .lines()
        .find_map(|l| l.split(prefix.as_str()).nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no {tag} in {stdout}"))
}
