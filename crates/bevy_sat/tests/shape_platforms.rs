//! Capsules, rounded boxes, segments and polygons of more than 8 corners in platformer roles:
//! landing on and jumping up through one-way platforms and being one, riding moving platforms
//! and being one, being crushed and crushing, and a capsule on a ledge's corner on either side
//! of `sin(max_floor_angle) · radius`.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::shapes::{platforms, upright};
use common::*;

const G: f32 = -600.0;

fn platformer_app() -> App {
    app_with_gravity(G)
}

/// A one-way platform 100 wide and 2 thick, its top at y = 0.
fn one_way_box(app: &mut App) -> Entity {
    spawn(
        app,
        (
            ConvexCollider::rectangle(100.0, 2.0),
            OneWayPlatform::default(),
            Transform::from_xyz(0.0, -1.0, 0.0),
        ),
    )
}

/// Each shape falling onto a one-way platform lands on it; each one jumping from below passes
/// up through it and lands on it too.
#[test]
fn each_shape_lands_on_a_one_way_platform_and_jumps_up_through_it() {
    for case in upright() {
        let name = case.name;
        let mut app = platformer_app();
        let platform = one_way_box(&mut app);
        let faller = weak(&mut app, case.collider.clone(), -20.0, 30.0);
        let jumper = moving(
            &mut app,
            case.collider.clone(),
            20.0,
            -40.0,
            Vec2::new(0.0, 400.0),
        );
        let mut passed = false;
        for _ in 0..120 {
            app.update();
            passed |= position(&app, jumper).y - case.below() > 1.0;
        }
        let below = case.below();
        for body in [faller, jumper] {
            let p = position(&app, body);
            assert!((p.y - below).abs() < 1e-3, "{name}: bottom {}", p.y - below);
            assert_eq!(flags(&app, body).standing_on(), Some(platform), "{name}");
        }
        assert!(passed, "{name}: the jumper came up through the platform");
    }
}

/// Each shape as a one-way platform, solid from above (for the capsule turned a quarter turn,
/// that is its local right side): a box falling on it lands on its top; a box jumping from
/// below passes up through it and lands on it.
#[test]
fn each_shape_is_a_one_way_platform() {
    for (name, collider, rotation, top, solid) in platforms() {
        let mut app = platformer_app();
        let platform = spawn(
            &mut app,
            (collider, solid, Transform::from_rotation(rotation)),
        );
        let faller = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -10.0, 30.0);
        let jumper = moving(
            &mut app,
            ConvexCollider::rectangle(10.0, 10.0),
            10.0,
            -30.0,
            Vec2::new(0.0, 400.0),
        );
        let mut passed = false;
        for _ in 0..120 {
            app.update();
            passed |= position(&app, jumper).y - 5.0 > top + 1.0;
        }
        for (body, x) in [(faller, -10.0), (jumper, 10.0)] {
            let p = position(&app, body);
            assert!(
                (p.y - 5.0 - top).abs() < 1e-3,
                "{name}: bottom {}",
                p.y - 5.0
            );
            assert_eq!(p.x, x, "{name}");
            assert_eq!(flags(&app, body).standing_on(), Some(platform), "{name}");
        }
        assert!(passed, "{name}: the jumper came up through the platform");
    }
}

const PLATFORM_VELOCITIES: [Vec2; 5] = [
    Vec2::new(120.0, 0.0),
    Vec2::new(-90.0, 0.0),
    Vec2::new(0.0, 150.0),
    Vec2::new(0.0, -300.0),
    Vec2::new(100.0, -100.0),
];

/// Checks for 60 steps, after the platform sets off at `velocity`, that `rider` keeps its place
/// on `platform`: its bottom (`below` under its centre) on the platform's top (`top` above the
/// platform's centre), its offset along x unchanged, on the floor.
fn assert_carried(
    app: &mut App,
    platform: Entity,
    rider: Entity,
    top: f32,
    below: f32,
    what: &str,
) {
    let offset = position(app, rider).x - position(app, platform).x;
    for step in 0..60 {
        app.update();
        let (p, q) = (position(app, platform), position(app, rider));
        let gap = q.y - below - (p.y + top);
        assert!(gap.abs() < 1e-3, "{what} step {step}: {gap} above the top");
        let slid = q.x - p.x - offset;
        assert!(slid.abs() < 1e-3, "{what} step {step}: slid by {slid}");
        assert!(flags(app, rider).on_floor(), "{what} step {step}");
        assert_eq!(flags(app, rider).standing_on(), Some(platform), "{what}");
    }
}

/// Each shape rides a moving box platform in every direction without sinking, lifting off or
/// sliding.
#[test]
fn each_shape_rides_a_moving_platform() {
    for case in upright() {
        for velocity in PLATFORM_VELOCITIES {
            let mut app = platformer_app();
            let platform = spawn(
                &mut app,
                (
                    ConvexCollider::rectangle(60.0, 10.0),
                    Mighty,
                    Velocity::default(),
                    Transform::from_xyz(0.0, -5.0, 0.0),
                ),
            );
            let rider = weak(&mut app, case.collider.clone(), 5.0, case.below());
            run(&mut app, 2);
            app.world_mut()
                .entity_mut(platform)
                .insert(Velocity(velocity));
            let what = format!("{} at {velocity}", case.name);
            assert_carried(&mut app, platform, rider, 5.0, case.below(), &what);
        }
    }
}

/// Each shape as a moving platform carries a box standing on it in every direction.
#[test]
fn each_shape_carries_a_rider_as_a_moving_platform() {
    for (name, collider, rotation, top, _) in platforms() {
        for velocity in PLATFORM_VELOCITIES {
            let mut app = platformer_app();
            let platform = spawn(
                &mut app,
                (
                    collider.clone(),
                    Mighty,
                    Velocity::default(),
                    Transform::from_rotation(rotation),
                ),
            );
            let rider = weak(
                &mut app,
                ConvexCollider::rectangle(10.0, 10.0),
                5.0,
                top + 5.0,
            );
            run(&mut app, 2);
            app.world_mut()
                .entity_mut(platform)
                .insert(Velocity(velocity));
            let what = format!("{name} at {velocity}");
            assert_carried(&mut app, platform, rider, top, 5.0, &what);
        }
    }
}

#[derive(Resource, Default)]
struct Crushes(Vec<Crushed>);

fn record_crushes(mut log: ResMut<Crushes>, mut crushed: MessageReader<Crushed>) {
    log.0.extend(crushed.read().cloned());
}

/// Runs the 4 steps before a press 5 above `victim`'s top, moving down 1 a step, reaches it,
/// checking that `victim` keeps its place `at`, then the 4 steps after, and checks that only
/// `victim` was reported crushed, between exactly `by`, and in each of those steps.
fn assert_crushed(app: &mut App, victim: Entity, at: Vec2, mut by: Vec<Entity>, what: &str) {
    app.init_resource::<Crushes>()
        .add_systems(FixedPostUpdate, record_crushes.after(SatSystems::Writeback));
    for step in 0..4 {
        app.update();
        let p = position(app, victim);
        assert!((p - at).length() < 1e-3, "{what} step {step}: at {p}");
    }
    assert!(app.world().resource::<Crushes>().0.is_empty(), "{what}");
    run(app, 5);
    by.sort();
    let crushes = &app.world().resource::<Crushes>().0;
    assert!(crushes.len() >= 4, "{what}: crushes {crushes:?}");
    assert!(
        crushes.iter().all(|c| c.body == victim && c.crushers == by),
        "{what}: {crushes:?}"
    );
}

/// Each shape pressed against the floor by a descending press is reported crushed between the
/// two, as a box is.
#[test]
fn each_shape_is_crushed_between_mighty_bodies() {
    for case in upright() {
        let name = case.name;
        let mut app = platformer_app();
        let floor = floor(&mut app);
        // The press's bottom 5 above the body's top.
        let press_y = case.below() + case.above() + 10.0;
        let press = spawn(
            &mut app,
            (
                ConvexCollider::rectangle(60.0, 10.0),
                Mighty,
                Velocity(Vec2::new(0.0, -60.0)),
                Transform::from_xyz(0.0, press_y, 0.0),
            ),
        );
        let victim = weak(&mut app, case.collider.clone(), 0.0, case.below());
        let at = Vec2::new(0.0, case.below());
        assert_crushed(&mut app, victim, at, vec![floor, press], name);
    }
}

/// Each shape as a descending press crushes a box against the floor.
#[test]
fn each_shape_crushes_as_a_press() {
    for (name, collider, rotation, top, _) in platforms() {
        let mut app = platformer_app();
        let floor = floor(&mut app);
        // Symmetric shapes: the bottom is as far below the centre as the top is above it.
        let press = spawn(
            &mut app,
            (
                collider,
                Mighty,
                Velocity(Vec2::new(0.0, -60.0)),
                Transform::from_rotation(rotation).with_translation(Vec3::new(
                    0.0,
                    15.0 + top,
                    0.0,
                )),
            ),
        );
        let victim = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 5.0);
        assert_crushed(
            &mut app,
            victim,
            Vec2::new(0.0, 5.0),
            vec![floor, press],
            name,
        );
    }
}

/// A ledge whose top-right corner is the origin.
fn ledge(app: &mut App) -> Entity {
    mighty(app, ConvexCollider::rectangle(200.0, 20.0), -100.0, -10.0)
}

/// Drops a capsule (radius 8, length 16) with its centre `beyond` past the ledge's edge and
/// returns where it is after 2 s, and whether it stands on the ledge.
fn capsule_on_ledge(max_floor_angle: f32, beyond: f32) -> (Vec2, bool) {
    let mut app = app_with(SatConfig {
        gravity: Vec2::new(0.0, G),
        max_floor_angle,
        ..default()
    });
    let ledge = ledge(&mut app);
    let capsule = weak(&mut app, ConvexCollider::capsule(8.0, 16.0), beyond, 40.0);
    run(&mut app, 120);
    let f = flags(&app, capsule);
    (
        position(&app, capsule),
        f.on_floor() && f.standing_on() == Some(ledge),
    )
}

/// A capsule of radius 8 whose centre is past the ledge's edge by less than
/// `sin(max_floor_angle) · 8` stands on the corner, at the height where its lower end meets
/// it; by more, it slides off and falls. Checked 0.15 either side of the threshold at the
/// default 45° (5.657) and at 30° (4).
#[test]
fn capsule_past_a_ledge_corner_stands_within_sin_floor_angle_times_radius() {
    let radius = 8.0f32;
    for degrees in [45.0f32, 30.0] {
        let angle = degrees.to_radians();
        let threshold = angle.sin() * radius;
        let inside = threshold - 0.15;
        let (p, stands) = capsule_on_ledge(angle, inside);
        // The lower end's centre is `radius` from the corner (0, 0).
        let expected = Vec2::new(inside, 8.0 + (radius * radius - inside * inside).sqrt());
        assert!(stands, "{degrees}°: {inside} past the edge falls: {p}");
        assert!(
            (p - expected).length() < 1e-3,
            "{degrees}°: at {p}, expected {expected}"
        );
        let outside = threshold + 0.15;
        let (p, stands) = capsule_on_ledge(angle, outside);
        assert!(!stands, "{degrees}°: {outside} past the edge stands");
        assert!(
            p.x > radius && p.y < -40.0,
            "{degrees}°: {outside} past the edge: {p}"
        );
    }
}
