//! Character control: contact flags and surface normals that hold steady, the velocity of the
//! platform a body stands on and what it keeps of it when it leaves, riders carried from their
//! first step, slopes walked down with the default settings, and the real velocity.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const G: f32 = -1500.0;

fn with_gravity(on_leave: PlatformOnLeave) -> App {
    let mut app = app_with(SatConfig {
        gravity: Vec2::new(0.0, G),
        platform_on_leave: on_leave,
        ..default()
    });
    // Every Weak body here reports its real velocity, as a game that wants it everywhere does.
    app.register_required_components::<Weak, RealVelocity>();
    app
}

fn set_velocity(app: &mut App, body: Entity, velocity: Vec2) {
    app.world_mut()
        .get_mut::<Velocity>(body)
        .expect("has a Velocity")
        .0 = velocity;
}

/// Sets the horizontal velocity (a character controller's walking speed), keeping the vertical.
fn walk(app: &mut App, body: Entity, x: f32) {
    app.world_mut()
        .get_mut::<Velocity>(body)
        .expect("has a Velocity")
        .x = x;
}

fn real_velocity(app: &App, body: Entity) -> Vec2 {
    app.world()
        .get::<RealVelocity>(body)
        .expect("every Weak body here has a RealVelocity")
        .get()
}

fn assert_near(a: Vec2, b: Vec2, what: &str) {
    assert!((a - b).length() < 1e-3, "{what}: {a} against {b}");
}

/// A row of `n` flush 20 × 20 boxes, the first centred at (`x`, `y`), going on along
/// `direction` (a unit vector).
fn tiles(app: &mut App, n: usize, x: f32, y: f32, direction: Vec2) {
    for i in 0..n {
        let at = Vec2::new(x, y) + direction * 20.0 * i as f32;
        mighty(app, ConvexCollider::rectangle(20.0, 20.0), at.x, at.y);
    }
}

/// A body standing, then walking into a wall and pressing on it: the flags and normals are the
/// same every step (only `standing_on` may change, from tile to tile).
#[test]
fn flags_and_normals_hold_steady_standing_and_walking_over_tile_seams_into_a_wall() {
    let mut app = with_gravity(PlatformOnLeave::AddVelocity);
    // Flush floor tiles (tops at y = 0) from x = -110 to 130, a wall of flush tiles on the right
    // whose left face is at x = 110.
    tiles(&mut app, 12, -100.0, -10.0, Vec2::X);
    tiles(&mut app, 4, 120.0, 10.0, Vec2::Y);
    let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -60.0, 5.0);
    run(&mut app, 3);
    for step in 0..30 {
        app.update();
        let f = flags(&app, body);
        assert!(f.on_floor(), "standing, step {step}");
        assert_eq!(f.floor_normal(), Vec2::Y, "standing, step {step}");
        assert_eq!(f.wall_normal(), Vec2::ZERO, "standing, step {step}");
        assert_eq!(f.ceiling_normal(), Vec2::ZERO, "standing, step {step}");
        assert_eq!(f.platform_velocity(), Vec2::ZERO, "standing, step {step}");
        assert!(!f.on_wall_left() && !f.on_wall_right() && !f.on_ceiling());
        assert_eq!(position(&app, body), Vec2::new(-60.0, 5.0), "step {step}");
    }
    // Walks right over the seams (150 units/s) until the wall stops it at x = 105.
    let mut at_wall = None;
    for step in 0..120 {
        set_velocity(&mut app, body, Vec2::new(150.0, 0.0));
        app.update();
        let f = flags(&app, body);
        let p = position(&app, body);
        assert!(f.on_floor(), "walking, step {step} at {p}");
        assert_eq!(f.floor_normal(), Vec2::Y, "walking, step {step} at {p}");
        assert!(!f.on_ceiling() && !f.on_wall_left(), "walking, step {step}");
        assert!(
            (p.y - 5.0).abs() < 1e-3,
            "walking, step {step}: bumped to {p}"
        );
        if f.on_wall_right() {
            if *at_wall.get_or_insert(step) < step {
                assert!(real_velocity(&app, body).x.abs() < 1e-3, "step {step}");
            }
            assert_eq!(f.wall_normal(), Vec2::NEG_X, "step {step}");
            assert!((p.x - 105.0).abs() < 1e-3, "step {step}: {p}");
        } else {
            assert!(at_wall.is_none(), "left the wall at step {step}: flicker");
            assert_eq!(f.wall_normal(), Vec2::ZERO, "step {step}");
            assert_eq!(velocity(&app, body).x, 150.0, "snagged at step {step}: {p}");
        }
    }
    // (-60 to 105 at 2.5 a step: the wall is met in step 66.)
    assert_eq!(at_wall, Some(65));
}

/// Falling while pressing into a wall of flush tiles: the wall flag and normal hold every
/// step, on either side, and no floor or ceiling shows up at a seam.
#[test]
fn sliding_down_a_wall_of_tiles_holds_the_wall_flag_and_normal() {
    for side in [1.0f32, -1.0] {
        let mut app = with_gravity(PlatformOnLeave::AddVelocity);
        // A wall 200 tall, its face at x = 10 * side.
        tiles(&mut app, 10, 20.0 * side, 10.0, Vec2::Y);
        let body = weak(
            &mut app,
            ConvexCollider::rectangle(10.0, 10.0),
            5.0 * side,
            190.0,
        );
        for step in 0..25 {
            walk(&mut app, body, 80.0 * side);
            app.update();
            let f = flags(&app, body);
            assert_eq!(f.on_wall_right(), side > 0.0, "{side} step {step}");
            assert_eq!(f.on_wall_left(), side < 0.0, "{side} step {step}");
            assert_eq!(f.wall_normal(), Vec2::new(-side, 0.0), "{side} step {step}");
            assert!(!f.on_floor() && !f.on_ceiling(), "{side} step {step}");
            assert_eq!(f.floor_normal(), Vec2::ZERO);
            let x = position(&app, body).x;
            assert!((x - 5.0 * side).abs() < 1e-3, "{side} step {step}: {x}");
        }
        assert!(position(&app, body).y < 150.0, "it fell along the wall");
    }
}

/// Pushed up along a ceiling of flush tiles (no gravity): the ceiling flag and normal hold.
#[test]
fn moving_along_a_ceiling_of_tiles_holds_the_ceiling_flag_and_normal() {
    let mut app = app();
    // Bottom faces at y = 20.
    tiles(&mut app, 12, -100.0, 30.0, Vec2::X);
    let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -90.0, 15.0);
    for step in 0..60 {
        set_velocity(&mut app, body, Vec2::new(150.0, 60.0));
        app.update();
        let f = flags(&app, body);
        assert!(f.on_ceiling(), "step {step}");
        assert_eq!(f.ceiling_normal(), Vec2::NEG_Y, "step {step}");
        assert!(!f.on_floor() && !f.on_wall_left() && !f.on_wall_right());
        assert_eq!(
            (f.floor_normal(), f.wall_normal()),
            (Vec2::ZERO, Vec2::ZERO)
        );
        assert!((position(&app, body).y - 15.0).abs() < 1e-3, "step {step}");
    }
}

/// A platform 60 × 10 moving at `velocity`, its top at y = 0, and a 10 × 20 body standing on
/// it (both spawned at once: the platform moves from the first step).
fn platform_and_rider(app: &mut App, velocity: Vec2) -> (Entity, Entity) {
    platform_and_rider_at(app, velocity, Vec2::ZERO)
}

/// [`platform_and_rider`] moved by `origin`.
fn platform_and_rider_at(app: &mut App, velocity: Vec2, origin: Vec2) -> (Entity, Entity) {
    let platform = spawn(
        app,
        (
            ConvexCollider::rectangle(60.0, 10.0),
            Mighty,
            Velocity(velocity),
            Transform::from_xyz(origin.x, origin.y - 5.0, 0.0),
        ),
    );
    let rider = weak(
        app,
        ConvexCollider::rectangle(10.0, 20.0),
        origin.x + 5.0,
        origin.y + 10.0,
    );
    (platform, rider)
}

const DIRECTIONS: [Vec2; 8] = [
    Vec2::new(120.0, 0.0),
    Vec2::new(90.0, 90.0),
    Vec2::new(0.0, 120.0),
    Vec2::new(-90.0, 90.0),
    Vec2::new(-120.0, 0.0),
    Vec2::new(-90.0, -90.0),
    Vec2::new(0.0, -120.0),
    Vec2::new(90.0, -90.0),
];

/// A rider spawned standing on a platform that moves from the first step is carried from the
/// first step: its place on the platform never changes, and its flags say so from the first
/// step on. (Without its support known then, it would be left behind for a step, or, on a
/// platform moving down, fall after it for a few.)
#[test]
fn a_rider_spawned_on_a_moving_platform_is_carried_from_the_first_step() {
    for velocity in DIRECTIONS.into_iter().chain([Vec2::new(0.0, -300.0)]) {
        let mut app = with_gravity(PlatformOnLeave::AddVelocity);
        let (platform, rider) = platform_and_rider(&mut app, velocity);
        for step in 1..=30 {
            app.update();
            let offset = position(&app, rider) - position(&app, platform);
            assert_near(
                offset,
                Vec2::new(5.0, 15.0),
                &format!("{velocity} step {step}"),
            );
            let f = flags(&app, rider);
            assert!(f.on_floor(), "{velocity} step {step}");
            assert_eq!(f.standing_on(), Some(platform), "{velocity} step {step}");
            assert_eq!(f.floor_normal(), Vec2::Y, "{velocity} step {step}");
            assert_eq!(f.platform_velocity(), velocity, "{velocity} step {step}");
            assert_near(real_velocity(&app, rider), velocity, "real velocity");
        }
    }
}

/// A stack spawned on a platform that moves from the first step (platform, a box on it, a box
/// on that box, all spawned together) is carried from the first step, every level of it: each
/// box keeps its place on the platform, and each says from the first step what it stands on.
/// (The upper box's support is another new body, known only once the lower box's is.)
#[test]
fn a_stack_spawned_on_a_moving_platform_is_carried_from_the_first_step() {
    for velocity in DIRECTIONS.into_iter().chain([Vec2::new(0.0, -300.0)]) {
        let mut app = with_gravity(PlatformOnLeave::AddVelocity);
        let (platform, lower) = platform_and_rider(&mut app, velocity);
        let upper = weak(&mut app, ConvexCollider::rectangle(10.0, 20.0), 5.0, 30.0);
        for step in 1..=30 {
            app.update();
            let what = format!("{velocity} step {step}");
            let base = position(&app, platform);
            assert_near(position(&app, lower) - base, Vec2::new(5.0, 15.0), &what);
            assert_near(position(&app, upper) - base, Vec2::new(5.0, 35.0), &what);
            assert_eq!(flags(&app, lower).standing_on(), Some(platform), "{what}");
            assert_eq!(flags(&app, upper).standing_on(), Some(lower), "{what}");
            assert_eq!(flags(&app, upper).platform_velocity(), velocity, "{what}");
            assert_near(real_velocity(&app, upper), velocity, &what);
        }
    }
}

/// A second rider spawned later, onto a platform already moving, is carried from its first
/// step too (the support of a body is found whenever `Weak` is inserted, not only at start-up).
#[test]
fn a_rider_spawned_onto_a_platform_already_moving_is_carried_at_once() {
    let mut app = with_gravity(PlatformOnLeave::AddVelocity);
    let (platform, _) = platform_and_rider(&mut app, Vec2::new(0.0, -180.0));
    run(&mut app, 10);
    let top = position(&app, platform).y + 5.0;
    let late = weak(
        &mut app,
        ConvexCollider::rectangle(8.0, 8.0),
        -15.0,
        top + 4.0,
    );
    for step in 1..=20 {
        app.update();
        let gap = position(&app, late).y - 4.0 - (position(&app, platform).y + 5.0);
        assert!(gap.abs() < 1e-3, "step {step}: {gap} above the platform");
        assert!(flags(&app, late).on_floor(), "step {step}");
    }
}

/// Platforms moving up and down (and sideways): the rider's flags, floor normal and platform
/// velocity are the same every step.
#[test]
fn flags_hold_steady_on_a_platform_moving_up_or_down() {
    for velocity in [
        Vec2::new(0.0, 150.0),
        Vec2::new(0.0, -150.0),
        Vec2::new(100.0, 0.0),
    ] {
        let mut app = with_gravity(PlatformOnLeave::AddVelocity);
        let (platform, rider) = platform_and_rider(&mut app, velocity);
        run(&mut app, 2);
        let first = flags(&app, rider);
        assert_eq!(first.standing_on(), Some(platform));
        assert_eq!(first.platform_velocity(), velocity);
        for step in 0..60 {
            app.update();
            assert_eq!(flags(&app, rider), first, "{velocity} step {step}");
        }
    }
}

/// Jumping off a platform moving in each of 8 directions, with each `PlatformOnLeave`: the
/// jump's step adds what the setting keeps of the platform's velocity, once, and the body
/// flies on with it.
#[test]
fn jumping_off_a_moving_platform_keeps_what_platform_on_leave_says() {
    const JUMP: f32 = 500.0;
    for on_leave in [
        PlatformOnLeave::AddVelocity,
        PlatformOnLeave::AddUpwardVelocity,
        PlatformOnLeave::DoNothing,
    ] {
        for velocity in DIRECTIONS {
            let what = format!("{on_leave:?} {velocity}");
            let mut app = with_gravity(on_leave);
            let (_, rider) = platform_and_rider(&mut app, velocity);
            run(&mut app, 5);
            assert_eq!(flags(&app, rider).platform_velocity(), velocity, "{what}");
            set_velocity(&mut app, rider, Vec2::new(0.0, JUMP));
            app.update();
            assert!(!flags(&app, rider).on_floor(), "{what}: did not leave");
            assert_eq!(flags(&app, rider).platform_velocity(), Vec2::ZERO, "{what}");
            let kept = match on_leave {
                PlatformOnLeave::AddVelocity => velocity,
                PlatformOnLeave::AddUpwardVelocity => Vec2::new(velocity.x, velocity.y.max(0.0)),
                PlatformOnLeave::DoNothing => Vec2::ZERO,
            };
            let own = Vec2::new(0.0, JUMP + G * DT);
            assert_near(velocity_of(&app, rider), own + kept, &what);
            // Added once: from then on, only gravity changes it, and the body moves by it.
            for step in 1..=10 {
                let before = position(&app, rider);
                let v = velocity_of(&app, rider) + Vec2::new(0.0, G * DT);
                app.update();
                assert_near(velocity_of(&app, rider), v, &format!("{what} step {step}"));
                let moved = position(&app, rider) - before;
                assert_near(moved, v * DT, &format!("{what} step {step} moved"));
                assert_near(
                    real_velocity(&app, rider),
                    v,
                    &format!("{what} step {step}"),
                );
            }
        }
    }
}

fn velocity_of(app: &App, body: Entity) -> Vec2 {
    velocity(app, body)
}

/// Walking off the edge of a ferry high above the ground keeps the ferry's speed in the air:
/// a player who walks off at 60 units/s on a ferry moving at 120 flies on at 180.
#[test]
fn walking_off_a_moving_platform_keeps_its_velocity() {
    let mut app = with_gravity(PlatformOnLeave::AddVelocity);
    let (platform, rider) = platform_and_rider(&mut app, Vec2::new(120.0, 0.0));
    run(&mut app, 2);
    let mut left = None;
    for step in 0..60 {
        walk(&mut app, rider, 60.0);
        app.update();
        if !flags(&app, rider).on_floor() {
            left = Some(step);
            break;
        }
        assert_eq!(flags(&app, rider).standing_on(), Some(platform));
    }
    assert!(left.is_some(), "never walked off");
    assert_eq!(velocity(&app, rider).x, 180.0);
    let x = position(&app, rider).x;
    app.update();
    assert_near(
        Vec2::new(position(&app, rider).x - x, 0.0),
        Vec2::new(180.0 * DT, 0.0),
        "flies on at 180",
    );
}

/// A ramp rising to the right at `degrees` through the origin.
fn slope(app: &mut App, degrees: f32) {
    let angle = degrees.to_radians();
    spawn(
        app,
        (
            ConvexCollider::rectangle(600.0, 20.0),
            Mighty,
            Transform::from_rotation(Quat::from_rotation_z(angle)).with_translation(Vec3::new(
                10.0 * angle.sin(),
                -10.0 * angle.cos(),
                0.0,
            )),
        ),
    );
}

/// Walking down a 30° slope at 150 units/s with the default settings (gravity aside) stays on
/// it every step, with the slope's normal; a jump from it still leaves it.
#[test]
fn walking_down_a_slope_with_the_default_settings_stays_on_it_and_can_jump() {
    for gravity in [-600.0, G] {
        let mut app = app_with(SatConfig {
            gravity: Vec2::new(0.0, gravity),
            ..default()
        });
        slope(&mut app, 30.0);
        let body = weak(
            &mut app,
            ConvexCollider::rectangle(10.0, 10.0),
            150.0,
            100.0,
        );
        run(&mut app, 60);
        assert!(flags(&app, body).on_floor(), "{gravity}: landed");
        let normal = Vec2::new(-0.5, 3f32.sqrt() / 2.0);
        for step in 0..60 {
            walk(&mut app, body, -150.0);
            app.update();
            let f = flags(&app, body);
            assert!(
                f.on_floor(),
                "{gravity} step {step}: hopped off at {}",
                position(&app, body)
            );
            assert_near(f.floor_normal(), normal, &format!("{gravity} step {step}"));
            // On the slope's surface: the corner at the bottom right touches it.
            let corner = position(&app, body) + Vec2::new(5.0, -5.0);
            let height = corner.y - corner.x * 30f32.to_radians().tan();
            assert!(
                height.abs() < 0.02,
                "{gravity} step {step}: {height} above it"
            );
        }
        // A jump leaves the slope and is not pulled back down onto it.
        set_velocity(&mut app, body, Vec2::new(-150.0, 400.0));
        let y = position(&app, body).y;
        for step in 0..10 {
            app.update();
            assert!(!flags(&app, body).on_floor(), "{gravity} jump step {step}");
        }
        assert!(position(&app, body).y > y + 20.0, "{gravity}: jumped");
    }
}

/// The real velocity: a walker on the floor, one blocked by a wall, a falling body, a body at
/// rest, and a rider carried by a platform (whose own `Velocity` is zero).
#[test]
fn real_velocity_is_the_displacement_over_the_step() {
    let mut app = with_gravity(PlatformOnLeave::AddVelocity);
    floor(&mut app);
    mighty(&mut app, ConvexCollider::rectangle(20.0, 40.0), 60.0, 20.0);
    let walker = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        -100.0,
        5.0,
        Vec2::ZERO,
    );
    let blocked = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 45.0, 5.0);
    let resting = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -150.0, 5.0);
    let faller = weak(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        150.0,
        500.0,
    );
    let (_, rider) = platform_and_rider_at(&mut app, Vec2::new(-30.0, 45.0), Vec2::Y * 1000.0);
    assert_eq!(real_velocity(&app, walker), Vec2::ZERO, "before any step");
    run(&mut app, 2);
    for step in 0..20 {
        walk(&mut app, walker, 150.0);
        walk(&mut app, blocked, 150.0);
        let fall = velocity(&app, faller) + Vec2::new(0.0, G * DT);
        app.update();
        let what = format!("step {step}");
        assert_near(real_velocity(&app, walker), Vec2::new(150.0, 0.0), &what);
        assert_near(real_velocity(&app, blocked), Vec2::ZERO, &what);
        assert_near(real_velocity(&app, resting), Vec2::ZERO, &what);
        assert_near(real_velocity(&app, faller), fall, &what);
        assert_near(real_velocity(&app, rider), Vec2::new(-30.0, 45.0), &what);
        assert_eq!(velocity(&app, rider).x, 0.0, "{what}: carried, not its own");
    }
}
