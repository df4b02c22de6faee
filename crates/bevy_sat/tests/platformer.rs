//! Platformer physics: one-way platforms, moving platforms that carry and push, no tunneling,
//! slopes, crushing, seams. The bugs people file against other engines are the cases here.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const G: f32 = -600.0;

fn platformer_app() -> App {
    app_with(SatConfig {
        gravity: Vec2::new(0.0, G),
        floor_snap_distance: 4.0,
        ..default()
    })
}

/// A one-way platform 100 wide and 2 thick, its top at `top`.
fn one_way(app: &mut App, top: f32, velocity: Vec2) -> Entity {
    one_way_slab(app, top, 2.0, velocity)
}

/// A one-way platform 100 wide (from x = -50 to 50) and `thickness` thick, its top at `top`.
fn one_way_slab(app: &mut App, top: f32, thickness: f32, velocity: Vec2) -> Entity {
    spawn(
        app,
        (
            ConvexCollider::rectangle(100.0, thickness),
            OneWayPlatform::default(),
            Velocity(velocity),
            Transform::from_xyz(0.0, top - thickness / 2.0, 0.0),
        ),
    )
}

fn bottom(app: &App, body: Entity, half_height: f32) -> f32 {
    position(app, body).y - half_height
}

#[test]
fn one_way_platform_lands_from_above_and_passes_from_below() {
    let mut app = platformer_app();
    let platform = one_way(&mut app, 0.0, Vec2::ZERO);
    let faller = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -20.0, 30.0);
    let jumper = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        20.0,
        -30.0,
        Vec2::new(0.0, 400.0),
    );
    let mut jumper_passed_through = false;
    for _ in 0..120 {
        app.update();
        let y = position(&app, jumper).y;
        jumper_passed_through |= y > 5.0 + 1.0;
    }
    assert!(
        (bottom(&app, faller, 5.0)).abs() < 1e-3,
        "faller bottom at {}",
        bottom(&app, faller, 5.0)
    );
    assert!(flags(&app, faller).on_floor());
    assert_eq!(flags(&app, faller).standing_on(), Some(platform));
    assert!(
        jumper_passed_through,
        "the jumper came up through the platform"
    );
    assert!(
        (bottom(&app, jumper, 5.0)).abs() < 1e-3,
        "and landed on top: {}",
        bottom(&app, jumper, 5.0)
    );
}

#[test]
fn body_starting_inside_a_one_way_platform_is_not_snapped_on_top() {
    let mut app = app();
    one_way(&mut app, 0.0, Vec2::ZERO);
    let inside = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        1.0,
        Vec2::new(0.0, -60.0),
    );
    app.update();
    assert_eq!(
        position(&app, inside),
        Vec2::new(0.0, 0.0),
        "kept falling, not lifted"
    );
    run(&mut app, 20);
    assert_eq!(position(&app, inside).y, -20.0, "fell through");
    assert!(!flags(&app, inside).on_floor());
}

#[test]
fn fast_body_lands_on_one_way_platform() {
    let mut app = platformer_app();
    one_way(&mut app, 0.0, Vec2::ZERO);
    let bullet = moving(
        &mut app,
        ConvexCollider::rectangle(4.0, 4.0),
        0.0,
        60.0,
        Vec2::new(0.0, -5000.0),
    );
    app.update();
    assert!(
        (bottom(&app, bullet, 2.0)).abs() < 1e-3,
        "bottom {}",
        bottom(&app, bullet, 2.0)
    );
    assert_eq!(velocity(&app, bullet).y, 0.0);
}

#[test]
fn upward_moving_one_way_platform_catches_and_lifts() {
    // The classic bug: a body falls through a one-way platform that is moving up.
    let mut app = platformer_app();
    let platform = one_way(&mut app, 0.0, Vec2::new(0.0, 240.0));
    let faller = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        40.0,
        Vec2::new(0.0, -300.0),
    );
    let mut landed = false;
    for step in 0..90 {
        app.update();
        let top = position(&app, platform).y + 1.0;
        let b = bottom(&app, faller, 5.0);
        assert!(
            b >= top - 1e-3,
            "step {step}: fell into the platform ({b} < {top})"
        );
        if flags(&app, faller).on_floor() {
            landed = true;
            assert!(
                (b - top).abs() < 1e-3,
                "step {step}: rides {} above",
                b - top
            );
        }
    }
    assert!(landed);
}

#[test]
fn drop_through_lets_one_body_fall_and_is_removed_when_clear() {
    let mut app = platformer_app();
    floor(&mut app); // top at 0
    let platform = one_way(&mut app, 40.0, Vec2::ZERO);
    let player = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 45.0);
    let other = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 30.0, 45.0);
    run(&mut app, 10);
    assert_eq!(flags(&app, player).standing_on(), Some(platform));
    app.world_mut().entity_mut(player).insert(DropThrough);
    run(&mut app, 60);
    assert!(
        (bottom(&app, player, 5.0)).abs() < 1e-3,
        "the player dropped to the floor"
    );
    assert!(
        app.world().get::<DropThrough>(player).is_none(),
        "flag removed once clear"
    );
    assert!(
        (bottom(&app, other, 5.0) - 40.0).abs() < 1e-3,
        "the other body stayed up"
    );
}

#[test]
fn moving_platforms_carry_riders_and_riders_of_riders() {
    for velocity in [
        Vec2::new(120.0, 0.0),
        Vec2::new(-90.0, 0.0),
        Vec2::new(0.0, 150.0),
        Vec2::new(0.0, -300.0),
        Vec2::new(100.0, -100.0),
    ] {
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
        let player = weak(&mut app, ConvexCollider::rectangle(10.0, 20.0), 5.0, 10.0);
        let crate_box = weak(&mut app, ConvexCollider::rectangle(8.0, 8.0), 3.0, 24.0);
        run(&mut app, 2); // the riders settle on the resting platform, which then sets off
        app.world_mut()
            .entity_mut(platform)
            .insert(Velocity(velocity));
        let offset = position(&app, player).x - position(&app, platform).x;
        let crate_offset = position(&app, crate_box).x - position(&app, player).x;
        for step in 0..60 {
            app.update();
            let top = position(&app, platform).y + 5.0;
            let p = position(&app, player);
            assert!(
                (p.y - 10.0 - top).abs() < 1e-3,
                "{velocity} step {step}: player {} above the platform",
                p.y - 10.0 - top
            );
            assert!(
                (p.x - position(&app, platform).x - offset).abs() < 1e-3,
                "{velocity} step {step}: player slid"
            );
            let c = position(&app, crate_box);
            assert!(
                (c.y - 4.0 - (p.y + 10.0)).abs() < 1e-3,
                "{velocity} step {step}: crate {} above the player",
                c.y - 4.0 - p.y - 10.0
            );
            assert!(
                (c.x - p.x - crate_offset).abs() < 1e-3,
                "{velocity} step {step}: crate slid"
            );
            assert!(flags(&app, player).on_floor() && flags(&app, crate_box).on_floor());
        }
    }
}

/// Only Mighty bodies' motion carries. A Weak body's own motion is not passed on to what
/// stands on it: in a game without gravity (seen from above), a body touching another on its
/// upper side is not dragged along when that one moves, and on a floor, a box does not ride a
/// crate sliding under it.
#[test]
fn a_weak_bodys_own_motion_carries_nothing() {
    for gravity in [0.0, G] {
        let mut app = app_with(SatConfig {
            gravity: Vec2::new(0.0, gravity),
            ..default()
        });
        if gravity != 0.0 {
            spawn(
                &mut app,
                (
                    ConvexCollider::rectangle(400.0, 10.0),
                    Mighty,
                    Transform::from_xyz(0.0, -10.0, 0.0),
                ),
            );
        }
        let below = moving(
            &mut app,
            ConvexCollider::rectangle(10.0, 10.0),
            0.0,
            0.0,
            Vec2::new(60.0, 0.0),
        );
        let above = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 10.0);
        for step in 1..=6 {
            app.update();
            assert_eq!(
                position(&app, below).x,
                step as f32,
                "{gravity}: the lower one slides"
            );
            let p = position(&app, above);
            assert_eq!(p.x, 0.0, "{gravity} step {step}: dragged along");
            assert!((p.y - 10.0).abs() < 1e-3, "{gravity} step {step}: {p}");
            assert_eq!(flags(&app, above).standing_on(), Some(below));
        }
    }
}

#[test]
fn moving_wall_pushes_but_does_not_drag() {
    let mut app = platformer_app();
    floor(&mut app);
    // A wall rising past a body that touches its side: the body is not lifted.
    spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 40.0),
            Mighty,
            Velocity(Vec2::new(0.0, 90.0)),
            Transform::from_xyz(-10.0, 20.0, 0.0),
        ),
    );
    let brushing = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 5.0);
    // A fast wall sweeping sideways pushes a box ahead of it, never through it (over a floor
    // long enough, flush with the first one).
    mighty(
        &mut app,
        ConvexCollider::rectangle(2000.0, 20.0),
        1200.0,
        -10.0,
    );
    let pusher = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 30.0),
            Mighty,
            Velocity(Vec2::new(3000.0, 0.0)),
            Transform::from_xyz(30.0, 15.0, 0.0),
        ),
    );
    let pushed = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 100.0, 5.0);
    for step in 0..20 {
        app.update();
        assert!(
            (position(&app, brushing) - Vec2::new(0.0, 5.0)).length() < 1e-3,
            "step {step}: dragged to {}",
            position(&app, brushing)
        );
        let face = position(&app, pusher).x + 5.0;
        let p = position(&app, pushed);
        assert!(
            p.x - 5.0 >= face - 1e-3,
            "step {step}: the wall passed through the box: wall face {face}, box {p}"
        );
        assert!(
            (p.y - 5.0).abs() < 1e-3,
            "step {step}: the box left the floor: {p}"
        );
    }
}

#[test]
fn nothing_tunnels_at_5000_units_per_second() {
    let shapes = [
        ConvexCollider::rectangle(6.0, 6.0),
        ConvexCollider::circle(3.0),
        ConvexCollider::regular_polygon(6, 3.5),
    ];
    let directions = [
        Vec2::X,
        Vec2::NEG_X,
        Vec2::Y,
        Vec2::NEG_Y,
        Vec2::ONE.normalize(),
        Vec2::new(-1.0, 1.0).normalize(),
        Vec2::NEG_ONE.normalize(),
        Vec2::new(1.0, -1.0).normalize(),
    ];
    for (s, shape) in shapes.iter().enumerate() {
        for (d, direction) in directions.iter().enumerate() {
            for weak_target in [false, true] {
                let mut app = app();
                // A 2-unit-thick wall across the path, 40 units ahead, wide enough to catch.
                let wall_angle = direction.to_angle() + core::f32::consts::FRAC_PI_2;
                let wall = Transform::from_translation((*direction * 40.0).extend(0.0))
                    .with_rotation(Quat::from_rotation_z(wall_angle));
                let target = if weak_target {
                    spawn(
                        &mut app,
                        (ConvexCollider::rectangle(200.0, 2.0), Weak, wall),
                    )
                } else {
                    spawn(
                        &mut app,
                        (ConvexCollider::rectangle(200.0, 2.0), Mighty, wall),
                    )
                };
                let bullet = spawn(
                    &mut app,
                    (shape.clone(), Weak, Velocity(*direction * 5000.0)),
                );
                app.update();
                app.update();
                let along = position(&app, bullet).dot(*direction);
                let face = position(&app, target).dot(*direction) - 1.0;
                assert!(
                    along < face,
                    "shape {s} dir {d} weak {weak_target}: tunneled ({along} past {face})"
                );
                if !weak_target {
                    let contacts = app.world().resource::<Contacts>();
                    let c = contacts
                        .get(bullet, target)
                        .unwrap_or_else(|| panic!("shape {s} dir {d}: not touching the wall"));
                    assert!(c.depth.abs() < 1e-3, "shape {s} dir {d}: depth {}", c.depth);
                }
            }
        }
    }
}

fn slope(app: &mut App, degrees: f32) -> Entity {
    let angle = degrees.to_radians();
    // A long ramp through the origin rising to the right.
    spawn(
        app,
        (
            ConvexCollider::rectangle(400.0, 20.0),
            Mighty,
            Transform::from_rotation(Quat::from_rotation_z(angle)).with_translation(Vec3::new(
                10.0 * angle.sin(),
                -10.0 * angle.cos(),
                0.0,
            )),
        ),
    )
}

#[test]
fn standing_on_a_gentle_slope_does_not_slide() {
    let mut app = platformer_app();
    slope(&mut app, 30.0);
    let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 30.0);
    run(&mut app, 60);
    let rest = position(&app, body);
    assert!(flags(&app, body).on_floor());
    run(&mut app, 120);
    assert!(
        (position(&app, body) - rest).length() < 1e-3,
        "slid from {rest} to {}",
        position(&app, body)
    );
    assert_eq!(velocity(&app, body), Vec2::ZERO);
}

#[test]
fn steeper_than_max_angle_slides_down() {
    let mut app = platformer_app();
    slope(&mut app, 60.0);
    let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 20.0, 50.0);
    run(&mut app, 30);
    let before = position(&app, body);
    run(&mut app, 30);
    let after = position(&app, body);
    assert!(
        after.x < before.x - 5.0 && after.y < before.y - 5.0,
        "did not slide: {before} → {after}"
    );
    assert!(!flags(&app, body).on_floor());
}

#[test]
fn walking_down_a_slope_stays_on_it() {
    let mut app = platformer_app();
    slope(&mut app, 30.0);
    let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 100.0, 70.0);
    run(&mut app, 60);
    assert!(flags(&app, body).on_floor());
    for step in 0..60 {
        // The game sets the walking speed every frame, as a character controller does.
        app.world_mut().get_mut::<Velocity>(body).unwrap().x = -150.0;
        app.update();
        assert!(
            flags(&app, body).on_floor(),
            "step {step}: left the slope at {}",
            position(&app, body)
        );
    }
    // Without snapping it would hop: check that the snap is what keeps it there.
    let mut hopping = app_with(SatConfig {
        gravity: Vec2::new(0.0, G),
        floor_snap_distance: 0.0,
        ..default()
    });
    slope(&mut hopping, 30.0);
    let hopper = weak(
        &mut hopping,
        ConvexCollider::rectangle(10.0, 10.0),
        100.0,
        70.0,
    );
    run(&mut hopping, 60);
    let mut airborne = 0;
    for _ in 0..60 {
        hopping.world_mut().get_mut::<Velocity>(hopper).unwrap().x = -150.0;
        hopping.update();
        airborne += usize::from(!flags(&hopping, hopper).on_floor());
    }
    assert!(airborne > 0, "the test would pass without snapping");
}

/// A walk off a step 3 units high, slow enough that the body moves about half a unit per
/// step: the lower floor is within the snap distance (4) but further than any body moves in a
/// step. The body is pulled down onto it at once and never leaves the ground. (The broad
/// phase once grew boxes by the step's motion only, so a floor further below than that was
/// never a candidate pair, and the body fell instead.)
#[test]
fn walking_off_a_small_step_snaps_down_onto_the_floor_below() {
    let walk = |config: SatConfig| {
        let mut app = app_with(config);
        // The upper floor ends at x = 0, 3 above the lower one, which runs on to the right.
        mighty(
            &mut app,
            ConvexCollider::rectangle(200.0, 20.0),
            -100.0,
            -7.0,
        );
        mighty(
            &mut app,
            ConvexCollider::rectangle(200.0, 20.0),
            100.0,
            -10.0,
        );
        let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -30.0, 8.0);
        run(&mut app, 30);
        assert!(flags(&app, body).on_floor());
        let mut airborne = 0;
        for _ in 0..90 {
            app.world_mut().get_mut::<Velocity>(body).unwrap().x = 30.0;
            app.update();
            airborne += usize::from(!flags(&app, body).on_floor());
        }
        (airborne, position(&app, body))
    };
    let (airborne, at) = walk(SatConfig {
        gravity: Vec2::new(0.0, G),
        floor_snap_distance: 4.0,
        ..default()
    });
    assert_eq!(airborne, 0, "left the ground; ended at {at}");
    assert!(at.x > 10.0, "walked off the step: {at}");
    assert!((at.y - 5.0).abs() < 0.02, "stands on the lower floor: {at}");
    // Without snapping the body falls the 3 units: the test would not pass without it.
    let (airborne, _) = walk(SatConfig {
        gravity: Vec2::new(0.0, G),
        floor_snap_distance: 0.0,
        ..default()
    });
    assert!(airborne > 0, "the test would pass without snapping");
}

/// A ball rolls off the end of a thick one-way platform, over a box that stands inside the
/// platform's end (passing through it, as a body walking under it does). The step the ball
/// leaves the top it has sagged below the top by that step's fall, and the snap must still
/// count the platform: the ball lands on the platform's corner. The next step it hangs below
/// the top, past the corner, and the box is within the snap distance; a snap onto the box
/// would pull it into the platform's corner, and it falls instead. (The snap once judged the
/// ball below the top on the first of these steps, looked past the platform, and pulled the
/// ball down onto the box, 1.4 deep into the platform.)
#[test]
fn a_body_rolling_off_a_one_way_platform_is_snapped_onto_its_corner_not_into_it() {
    let mut app = platformer_app();
    // The platform's top at 0, its end at x = 50.
    let platform = one_way_slab(&mut app, 0.0, 20.0, Vec2::ZERO);
    // A box from x = 46 to 54, its top at -2, on a floor under the platform's end.
    mighty(&mut app, ConvexCollider::rectangle(20.0, 10.0), 50.0, -11.0);
    weak(&mut app, ConvexCollider::rectangle(8.0, 4.0), 50.0, -4.0);
    let ball = weak(&mut app, ConvexCollider::circle(5.0), 45.9, 5.0);
    let mut past_the_end = 0;
    for step in 0..6 {
        app.world_mut().get_mut::<Velocity>(ball).unwrap().x = 120.0;
        app.update();
        let at = position(&app, ball);
        // How far the ball's centre is from the platform's rectangle.
        let outside = Vec2::new((at.x.abs() - 50.0).max(0.0), (at.y + 10.0).abs() - 10.0);
        let clearance = outside.max(Vec2::ZERO).length() + outside.max_element().min(0.0);
        assert!(
            clearance >= 5.0 - 1e-3,
            "step {step}: the ball at {at} is {} deep in the platform",
            5.0 - clearance
        );
        if at.x > 50.0 {
            past_the_end += 1;
        }
        if past_the_end == 1 {
            assert!(
                (at.distance(Vec2::new(50.0, 0.0)) - 5.0).abs() < 1e-3,
                "step {step}: the ball at {at} does not rest on the corner"
            );
            assert_eq!(
                flags(&app, ball).standing_on(),
                Some(platform),
                "step {step}"
            );
        }
    }
    assert!(past_the_end > 1, "the ball never rolled past the end");
}

#[test]
fn crushed_between_mighty_bodies_is_reported_and_not_pushed_into_either() {
    let mut app = platformer_app();
    let floor = floor(&mut app);
    let press = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(60.0, 10.0),
            Mighty,
            Velocity(Vec2::new(0.0, -60.0)),
            Transform::from_xyz(0.0, 20.0, 0.0),
        ),
    );
    let victim = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 5.0);
    app.init_resource::<Crushes>()
        .add_systems(FixedPostUpdate, record_crushes.after(SatSystems::Writeback));
    run(&mut app, 20);
    let crushes = &app.world().resource::<Crushes>().0;
    assert!(!crushes.is_empty(), "no crush reported");
    let mut expected = vec![floor, press];
    expected.sort();
    assert!(
        crushes
            .iter()
            .all(|c| c.body == victim && c.crushers.as_slice() == expected),
        "{crushes:?}"
    );
    assert!(
        bottom(&app, victim, 5.0) >= -1e-3,
        "pushed into the floor: {}",
        bottom(&app, victim, 5.0)
    );
}

/// A body squeezed between a press and the floor is crushed, but does not fall into the floor
/// by its own gravity while the press holds it (it used to, deeper every step, and was thrown
/// back out once deep enough), whether the press keeps coming or has stopped in it.
#[test]
fn crushed_body_does_not_sink_into_the_floor_under_gravity() {
    let shapes = [
        ("box", ConvexCollider::rectangle(10.0, 10.0)),
        (
            "rounded box",
            ConvexCollider::round_rectangle(10.0, 10.0, 2.0),
        ),
        ("circle", ConvexCollider::circle(5.0)),
        ("capsule", ConvexCollider::capsule(3.0, 4.0)),
    ];
    for (name, shape) in shapes {
        let mut app = platformer_app();
        floor(&mut app);
        let press = spawn(
            &mut app,
            (
                ConvexCollider::rectangle(60.0, 10.0),
                Mighty,
                Velocity(Vec2::new(0.0, -60.0)),
                Transform::from_xyz(0.0, 20.0, 0.0),
            ),
        );
        let victim = weak(&mut app, shape, 0.0, 5.0);
        app.init_resource::<Crushes>()
            .add_systems(FixedPostUpdate, record_crushes.after(SatSystems::Writeback));
        for step in 0..120 {
            if step == 10 {
                // The press stops 5 units into the body and stays there.
                app.world_mut().get_mut::<Velocity>(press).unwrap().0 = Vec2::ZERO;
            }
            app.update();
            let at = bottom(&app, victim, 5.0);
            assert!(at >= -1e-3, "{name}: sank to {at} at step {step}");
            assert!(at <= 1e-3, "{name}: lifted to {at} at step {step}");
        }
        let crushes = &app.world().resource::<Crushes>().0;
        assert!(
            crushes.iter().filter(|c| c.body == victim).count() >= 100,
            "{name}: reported crushed in {} steps",
            crushes.len()
        );
        let velocity = app.world().get::<Velocity>(victim).unwrap().0;
        assert!(
            velocity.y.abs() < 1e-3,
            "{name}: kept falling at {velocity}"
        );
    }
}

#[derive(Resource, Default)]
struct Crushes(Vec<Crushed>);

fn record_crushes(mut log: ResMut<Crushes>, mut crushed: MessageReader<Crushed>) {
    log.0.extend(crushed.read().cloned());
}

#[test]
fn tiled_floor_is_walked_over_without_snags_or_bumps() {
    let mut app = platformer_app();
    for i in 0..12 {
        mighty(
            &mut app,
            ConvexCollider::rectangle(20.0, 20.0),
            -100.0 + 20.0 * i as f32,
            -10.0,
        );
    }
    let walker = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -100.0, 5.0);
    run(&mut app, 5);
    for step in 0..100 {
        app.world_mut().get_mut::<Velocity>(walker).unwrap().x = 120.0;
        app.update();
        let p = position(&app, walker);
        assert!((p.y - 5.0).abs() < 1e-3, "step {step}: bump to {}", p.y);
        assert_eq!(
            velocity(&app, walker).x,
            120.0,
            "step {step}: snagged at x = {}",
            p.x
        );
        assert!(!flags(&app, walker).on_wall_left() && !flags(&app, walker).on_wall_right());
    }
    assert!((position(&app, walker).x - (-100.0 + 200.0)).abs() < 1e-2);
}
