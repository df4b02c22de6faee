//! A golden hash of a fixed busy scene: every bit of every body's state after every step, the
//! contact flags, the `Contacts` resource and every collision message, checked against a
//! committed value with 1 and with 2 threads.
//!
//! It guards against any change in behaviour, however small: a position one ulp off in one
//! step changes the hash. A change that is meant (a new resolution rule, a different order of
//! operations) changes it too; the failure message then prints the new value, to be committed
//! once the change is understood.

mod common;

use std::collections::HashMap;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::prelude::*;

/// The hash of [`run_golden_scene`]. Update it only for a change in behaviour that is meant.
const GOLDEN: u64 = 0x257b_06dc_c24a_cdca;

/// How many fixed 60 Hz steps the scene runs: long enough for the bodies to fall and settle,
/// the pusher to squeeze its box against the block, the carrier and the lift to carry riders,
/// and the dropping body to reach the floor.
const STEPS: usize = 360;

/// FNV-1a, 64 bits, over bytes fed in a fixed order (little-endian words).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }

    fn u32(&mut self, word: u32) {
        self.bytes(&word.to_le_bytes());
    }

    fn f32(&mut self, x: f32) {
        self.u32(x.to_bits());
    }

    fn vec2(&mut self, v: Vec2) {
        self.f32(v.x);
        self.f32(v.y);
    }

    fn flag(&mut self, b: bool) {
        self.bytes(&[u8::from(b)]);
    }
}

/// A small deterministic generator for the scene's layout (the scene must not depend on any
/// other file's random numbers).
struct XorShift(u64);

impl XorShift {
    /// A number in [0, 1).
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A number in [lo, hi).
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// The bodies of the scene that the sanity checks follow.
struct Named {
    /// Every collider, in spawn order: the hash names entities by their index here.
    all: Vec<Entity>,
    carrier: Entity,
    lift: Entity,
    one_way: Entity,
    dropper: Entity,
    jumper: Entity,
    squeezed: Entity,
}

/// The scene, in a pit 580 wide with a floor at y = 0:
/// - Mighty scenery: floor, two walls, a shelf, a ramp turned 25°, a block on the floor, a
///   one-way platform (solid from above) at y = 117..123, and a Mighty sensor;
/// - moving Mighty bodies: a carrier (horizontal, -15 units/s) and a lift (up, 25 units/s)
///   that carry what lands on them, and a pusher (right, 40 units/s) that squeezes a box
///   against the block;
/// - a Weak box with `DropThrough` resting on the one-way platform (it falls through), and a
///   Weak ball thrown up through it from below (it passes, then lands on top);
/// - 120 Weak bodies of every kind of shape (boxes, regular polygons of 3 to 8 sides, circles,
///   irregular convex quads, turned boxes, a scaled box) raining into the pit.
fn spawn_scene(world: &mut World, nudge: bool) -> Named {
    let mut all = Vec::new();
    let mut spawn = |world: &mut World, bundle: (ConvexCollider, Transform), extra: Extra| {
        let mut entity = world.spawn(bundle);
        match extra {
            Extra::Mighty => entity.insert(Mighty),
            Extra::Moving(v) => entity.insert((Mighty, Velocity(v))),
            Extra::OneWay => entity.insert(OneWayPlatform::TOP),
            Extra::Sensor => entity.insert((Mighty, Sensor)),
            Extra::Weak(v) => entity.insert((Weak, Velocity(v))),
            Extra::Dropping => entity.insert((Weak, DropThrough)),
        };
        let id = entity.id();
        all.push(id);
        id
    };
    let rect = |w: f32, h: f32, x: f32, y: f32| {
        (
            ConvexCollider::rectangle(w, h),
            Transform::from_xyz(x, y, 0.0),
        )
    };
    // Scenery.
    spawn(world, rect(600.0, 20.0, 0.0, -10.0), Extra::Mighty);
    spawn(world, rect(20.0, 500.0, -300.0, 250.0), Extra::Mighty);
    spawn(world, rect(20.0, 500.0, 300.0, 250.0), Extra::Mighty);
    spawn(world, rect(100.0, 8.0, -180.0, 200.0), Extra::Mighty);
    let (ramp, mut at) = rect(120.0, 8.0, -200.0, 60.0);
    at.rotation = Quat::from_rotation_z(25f32.to_radians());
    spawn(world, (ramp, at), Extra::Mighty);
    spawn(world, rect(20.0, 20.0, 60.0, 10.0), Extra::Mighty);
    let one_way = spawn(world, rect(140.0, 6.0, 0.0, 120.0), Extra::OneWay);
    spawn(
        world,
        (
            ConvexCollider::circle(20.0),
            Transform::from_xyz(-60.0, 60.0, 0.0),
        ),
        Extra::Sensor,
    );
    // Moving Mighty bodies.
    let carrier = spawn(
        world,
        rect(80.0, 8.0, 120.0, 240.0),
        Extra::Moving(Vec2::new(-15.0, 0.0)),
    );
    let lift = spawn(
        world,
        rect(60.0, 8.0, 220.0, 10.0),
        Extra::Moving(Vec2::new(0.0, 25.0)),
    );
    spawn(
        world,
        rect(16.0, 24.0, -20.0, 12.0),
        Extra::Moving(Vec2::new(40.0, 0.0)),
    );
    // The pusher meets it after about a second, and the block two seconds later.
    let mut box_x = 30.0f32;
    if nudge {
        box_x = f32::from_bits(box_x.to_bits() + 1); // one ulp to the right
    }
    let squeezed = spawn(world, rect(10.0, 10.0, box_x, 5.0), Extra::Weak(Vec2::ZERO));
    // Resting on the one-way platform, with DropThrough: falls through to the floor.
    let dropper = spawn(world, rect(10.0, 10.0, 40.0, 128.0), Extra::Dropping);
    // Thrown up from below: rises to about y = 172, through the platform, and lands on it.
    let jumper = spawn(
        world,
        (
            ConvexCollider::circle(5.0),
            Transform::from_xyz(-30.0, 60.0, 0.0),
        ),
        Extra::Weak(Vec2::new(0.0, 300.0)),
    );
    // The rain.
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for i in 0..120 {
        let (collider, mut at) = match i % 6 {
            0 => rect(rng.range(6.0, 14.0), rng.range(6.0, 14.0), 0.0, 0.0),
            1 => (
                ConvexCollider::regular_polygon(3 + (i / 6) % 6, rng.range(3.0, 7.0)),
                Transform::default(),
            ),
            2 => (
                ConvexCollider::circle(rng.range(3.0, 6.0)),
                Transform::default(),
            ),
            3 => {
                let quad = [
                    Vec2::new(-rng.range(3.0, 6.0), -rng.range(2.0, 5.0)),
                    Vec2::new(rng.range(3.0, 6.0), -rng.range(2.0, 5.0)),
                    Vec2::new(rng.range(1.0, 5.0), rng.range(2.0, 5.0)),
                    Vec2::new(-rng.range(1.0, 5.0), rng.range(2.0, 5.0)),
                ];
                (
                    ConvexCollider::convex_polygon(quad).expect("a convex quad"),
                    Transform::default(),
                )
            }
            4 => {
                let (collider, mut at) = rect(rng.range(6.0, 12.0), rng.range(4.0, 8.0), 0.0, 0.0);
                at.rotation = Quat::from_rotation_z(rng.range(-1.5, 1.5));
                (collider, at)
            }
            _ => {
                let (collider, mut at) = rect(6.0, 6.0, 0.0, 0.0);
                at.scale = Vec3::new(rng.range(0.8, 2.0), rng.range(0.8, 2.0), 1.0);
                (collider, at)
            }
        };
        at.translation = Vec3::new(rng.range(-270.0, 270.0), rng.range(150.0, 420.0), 0.0);
        let v = Vec2::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0));
        spawn(world, (collider, at), Extra::Weak(v));
    }
    Named {
        all,
        carrier,
        lift,
        one_way,
        dropper,
        jumper,
        squeezed,
    }
}

/// What a spawned collider is besides its shape and place.
enum Extra {
    Mighty,
    Moving(Vec2),
    OneWay,
    Sensor,
    Weak(Vec2),
    Dropping,
}

/// Every message of one step, in the order read.
#[derive(Resource, Default)]
struct StepMessages {
    started: Vec<CollisionStarted>,
    ended: Vec<CollisionEnded>,
    crushed: Vec<Crushed>,
}

fn record_messages(
    mut log: ResMut<StepMessages>,
    mut started: MessageReader<CollisionStarted>,
    mut ended: MessageReader<CollisionEnded>,
    mut crushed: MessageReader<Crushed>,
) {
    log.started.extend(started.read().copied());
    log.ended.extend(ended.read().copied());
    log.crushed.extend(crushed.read().cloned());
}

/// What the sanity checks need to know that the scene did what it is meant to.
#[derive(Debug, Default)]
struct Observed {
    crushed_events: usize,
    /// Steps in which some body stood on the carrier / the lift.
    carried_steps: usize,
    lifted_steps: usize,
    /// How far a rider of the carrier moved in x while standing on it (most negative).
    carried_dx: f32,
    /// How far a rider of the lift rose while standing on it.
    lifted_dy: f32,
    /// Steps in which the jumper overlapped the one-way platform (it passes through).
    jumper_passing_steps: usize,
    /// Weak bodies at rest on a floor at the end.
    resting: usize,
    started: usize,
    ended: usize,
    dropper_y: f32,
    dropper_on: Option<Entity>,
    jumper_y: f32,
    jumper_on: Option<Entity>,
    squeezed_x: f32,
    floor: Option<Entity>,
    one_way: Option<Entity>,
}

/// Runs the scene (`threads`: the size of the task pools, or Bevy's default; `nudge`: one box
/// placed one ulp off) and hashes everything after every step.
fn run_golden_scene(threads: Option<usize>, nudge: bool) -> (u64, Observed) {
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
        })
        .init_resource::<StepMessages>()
        .add_systems(
            FixedPostUpdate,
            record_messages.after(SatSystems::Writeback),
        );
    // The first update only starts the clock; each one after it is one fixed step.
    app.update();
    let named = spawn_scene(app.world_mut(), nudge);
    let index: HashMap<Entity, u32> = named.all.iter().zip(0u32..).map(|(&e, i)| (e, i)).collect();
    // Entities are named by spawn order, so the hash does not depend on how Bevy numbers them.
    let id = |e: Entity| index.get(&e).copied().unwrap_or(u32::MAX);
    let mut hash = Fnv::new();
    let mut seen = Observed::default();
    let mut riding: HashMap<Entity, (Entity, Vec2)> = HashMap::new();
    for step in 0..STEPS {
        app.update();
        hash.u32(step as u32);
        let world = app.world();
        for &e in &named.all {
            let transform = world.get::<Transform>(e).expect("alive");
            hash.vec2(transform.translation.truncate());
            hash.f32(transform.translation.z);
            for q in transform.rotation.to_array() {
                hash.f32(q);
            }
            match world.get::<Velocity>(e) {
                Some(v) => {
                    hash.flag(true);
                    hash.vec2(v.0);
                }
                None => hash.flag(false),
            }
            match world.get::<ContactFlags>(e) {
                Some(f) => {
                    hash.flag(true);
                    hash.flag(f.on_floor());
                    hash.flag(f.on_ceiling());
                    hash.flag(f.on_wall_left());
                    hash.flag(f.on_wall_right());
                    hash.u32(f.standing_on().map_or(u32::MAX - 1, id));
                    hash.vec2(f.floor_normal());
                }
                None => hash.flag(false),
            }
            hash.flag(world.get::<DropThrough>(e).is_some());
        }
        let contacts = world.resource::<Contacts>();
        hash.u32(contacts.len() as u32);
        for pair in contacts.iter() {
            hash.u32(id(pair.a));
            hash.u32(id(pair.b));
            hash_contact(&mut hash, &pair.contact);
            hash.flag(pair.resolved);
        }
        let jumper_contact = contacts.get(named.jumper, named.one_way);
        if jumper_contact.is_some_and(|c| c.depth > 0.5) {
            seen.jumper_passing_steps += 1;
        }
        let messages = std::mem::take(&mut *app.world_mut().resource_mut::<StepMessages>());
        hash.u32(messages.started.len() as u32);
        for m in &messages.started {
            hash.u32(id(m.a));
            hash.u32(id(m.b));
            hash_contact(&mut hash, &m.contact);
        }
        hash.u32(messages.ended.len() as u32);
        for m in &messages.ended {
            hash.u32(id(m.a));
            hash.u32(id(m.b));
        }
        hash.u32(messages.crushed.len() as u32);
        for m in &messages.crushed {
            hash.u32(id(m.body));
            hash.u32(m.crushers.len() as u32);
            for &c in &m.crushers {
                hash.u32(id(c));
            }
        }
        seen.started += messages.started.len();
        seen.ended += messages.ended.len();
        seen.crushed_events += messages.crushed.len();
        // Follow the riders of the carrier and the lift.
        let world = app.world();
        let mut carried = false;
        let mut lifted = false;
        for &e in &named.all {
            let Some(on) = world.get::<ContactFlags>(e).and_then(|f| f.standing_on()) else {
                riding.remove(&e);
                continue;
            };
            let at = world
                .get::<Transform>(e)
                .expect("alive")
                .translation
                .truncate();
            if on != named.carrier && on != named.lift {
                riding.remove(&e);
                continue;
            }
            carried |= on == named.carrier;
            lifted |= on == named.lift;
            let (platform, from) = *riding.entry(e).or_insert((on, at));
            if platform != on {
                riding.insert(e, (on, at));
                continue;
            }
            let moved = at - from;
            if on == named.carrier {
                seen.carried_dx = seen.carried_dx.min(moved.x);
            } else {
                seen.lifted_dy = seen.lifted_dy.max(moved.y);
            }
        }
        seen.carried_steps += usize::from(carried);
        seen.lifted_steps += usize::from(lifted);
    }
    let world = app.world();
    seen.resting = named
        .all
        .iter()
        .filter(|&&e| {
            world.get::<Weak>(e).is_some()
                && world.get::<ContactFlags>(e).is_some_and(|f| f.on_floor())
                && world.get::<Velocity>(e).is_some_and(|v| v.0 == Vec2::ZERO)
        })
        .count();
    let y_and_floor = |e: Entity| {
        (
            world.get::<Transform>(e).expect("alive").translation.y,
            world.get::<ContactFlags>(e).and_then(|f| f.standing_on()),
        )
    };
    (seen.dropper_y, seen.dropper_on) = y_and_floor(named.dropper);
    (seen.jumper_y, seen.jumper_on) = y_and_floor(named.jumper);
    (seen.floor, seen.one_way) = (Some(named.all[0]), Some(named.one_way));
    seen.squeezed_x = world
        .get::<Transform>(named.squeezed)
        .expect("alive")
        .translation
        .x;
    (hash.0, seen)
}

fn hash_contact(hash: &mut Fnv, contact: &Contact) {
    hash.vec2(contact.normal);
    hash.f32(contact.depth);
    hash.u32(contact.points().len() as u32);
    for &p in contact.points() {
        hash.vec2(p);
    }
}

/// Run in a child process by [`golden_hash_with_one_and_two_threads`] (Bevy's task pools are
/// global, one size per process): prints the hash of the scene with `SAT_THREADS` threads.
#[test]
#[ignore = "a child process of golden_hash_with_one_and_two_threads, which sets SAT_THREADS"]
fn golden_child() {
    let threads: usize = std::env::var("SAT_THREADS")
        .expect("SAT_THREADS: run through golden_hash_with_one_and_two_threads")
        .parse()
        .expect("a thread count");
    let (hash, _) = run_golden_scene(Some(threads), false);
    println!("GOLDEN {hash:016x}");
}

/// The hash printed by [`golden_child`] run in a child process with `threads` threads.
fn hash_in_child(threads: usize) -> String {
    common::value_from_child("golden_child", threads, "GOLDEN")
}

#[test]
fn golden_hash_with_one_and_two_threads() {
    let one = hash_in_child(1);
    let two = hash_in_child(2);
    assert_eq!(one, two, "1 thread against 2 threads");
    let golden = format!("{GOLDEN:016x}");
    assert_eq!(
        one,
        golden,
        "the golden scene's hash changed: now 0x{one} (committed 0x{golden}). If the change in \
         behaviour is meant, set GOLDEN in {} to 0x{one}",
        file!()
    );
}

/// The scene does what the hash is meant to cover: bodies come to rest, moving platforms carry
/// riders, one body is crushed, one passes up through the one-way platform and one drops
/// through it.
#[test]
fn golden_scene_covers_resting_carrying_crushing_and_one_way() {
    let (hash, seen) = run_golden_scene(None, false);
    println!("{seen:#?}");
    // Bevy's default pool here: the same hash as with 1 or 2 threads.
    assert_eq!(hash, GOLDEN, "0x{hash:016x}");
    assert!(seen.resting > 60, "{seen:#?}");
    assert!(seen.crushed_events > 0, "{seen:#?}");
    assert!(
        seen.carried_steps > 60 && seen.carried_dx < -10.0,
        "{seen:#?}"
    );
    assert!(seen.lifted_steps > 60 && seen.lifted_dy > 10.0, "{seen:#?}");
    assert!(seen.jumper_passing_steps > 0, "{seen:#?}");
    assert!(seen.started > 100 && seen.ended > 10, "{seen:#?}");
    // The dropper fell through the one-way platform (top at 123) to below it, and the jumper
    // ended on top of it.
    assert!(
        seen.dropper_y < 110.0 && seen.dropper_on == seen.floor,
        "{seen:#?}"
    );
    assert!(
        seen.jumper_y > 123.0 && seen.jumper_on == seen.one_way,
        "{seen:#?}"
    );
}

/// The hash sees a change of one ulp in one body's position.
#[test]
fn golden_hash_sees_one_ulp() {
    let (hash, _) = run_golden_scene(None, true);
    assert_ne!(hash, GOLDEN);
}
