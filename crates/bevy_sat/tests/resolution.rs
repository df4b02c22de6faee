//! Mighty/Weak resolution: resting, 50/50 splits, Mighty never moving, stacks settling, sliding,
//! contact flags.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

#[test]
fn one_update_is_one_fixed_step() {
    let mut app = app();
    let body = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(2.0, 2.0),
            Weak,
            Velocity(Vec2::new(60.0, -30.0)),
        ),
    );
    app.update();
    assert_eq!(position(&app, body), Vec2::new(1.0, -0.5));
    app.update();
    assert_eq!(position(&app, body), Vec2::new(2.0, -1.0));
}

#[test]
fn box_dropped_on_floor_rests_on_it() {
    let mut app = app_with_gravity(-600.0);
    let floor = floor(&mut app);
    let bx = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 40.0);
    run(&mut app, 10);
    assert!(position(&app, bx).y > 30.0, "falls freely first");
    run(&mut app, 110);
    let p = position(&app, bx);
    assert!(
        (p.y - 5.0).abs() < 1e-3,
        "box bottom {} vs floor top 0",
        p.y - 5.0
    );
    assert_eq!(p.x, 0.0);
    let f = flags(&app, bx);
    assert!(f.on_floor() && !f.on_ceiling() && !f.on_wall_left() && !f.on_wall_right());
    assert_eq!(f.standing_on(), Some(floor));
    assert_eq!(f.floor_normal(), Vec2::Y);
    assert_eq!(velocity(&app, bx).y, 0.0, "downward velocity removed");
    // And it stays there.
    run(&mut app, 60);
    assert!((position(&app, bx).y - 5.0).abs() < 1e-3);
    assert_eq!(position(&app, floor), Vec2::new(0.0, -10.0));
}

#[test]
fn two_weak_boxes_each_move_half_the_mtv() {
    let mut app = app();
    let a = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 0.0);
    let b = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 8.0, 3.0);
    app.update();
    // Overlap 2 along x (7 along y): each moves 1, in opposite directions.
    assert_eq!(position(&app, a), Vec2::new(-1.0, 0.0));
    assert_eq!(position(&app, b), Vec2::new(9.0, 3.0));
    assert!(flags(&app, a).on_wall_right() && flags(&app, b).on_wall_left());
    app.update();
    assert_eq!(
        position(&app, a),
        Vec2::new(-1.0, 0.0),
        "touching pairs stay put"
    );
}

/// Round-off after a push leaves overlaps of a millionth of a unit or so: resolution leaves
/// overlaps up to a tenth of the contact margin (still touching), and pushes deeper ones apart.
#[test]
fn overlaps_within_a_tenth_of_the_margin_are_left_touching() {
    let shallow = 1.0 / 2048.0; // below 0.001, a tenth of the default margin
    let deep = 1.0 / 512.0;
    for (overlap, margin, pushed) in [
        (shallow, 0.01, false),
        (deep, 0.01, true),
        (shallow, 0.0, true), // no margin, no slop
    ] {
        let mut app = app();
        app.insert_resource(SatConfig {
            contact_margin: margin,
            ..default()
        });
        let a = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 0.0);
        let b = weak(
            &mut app,
            ConvexCollider::rectangle(10.0, 10.0),
            10.0 - overlap,
            0.0,
        );
        app.update();
        let half = if pushed { overlap / 2.0 } else { 0.0 };
        assert_eq!(
            position(&app, a),
            Vec2::new(-half, 0.0),
            "{overlap} {margin}"
        );
        assert_eq!(position(&app, b), Vec2::new(10.0 - overlap + half, 0.0));
        assert!(
            flags(&app, a).on_wall_right() && flags(&app, b).on_wall_left(),
            "touching either way"
        );
    }
}

#[test]
fn mighty_never_moves_whatever_hits_it() {
    let mut app = app_with_gravity(-600.0);
    let wall = mighty(&mut app, ConvexCollider::rectangle(20.0, 100.0), 50.0, 0.0);
    let movers = [
        moving(
            &mut app,
            ConvexCollider::rectangle(10.0, 10.0),
            0.0,
            0.0,
            Vec2::new(3000.0, 0.0),
        ),
        moving(
            &mut app,
            ConvexCollider::circle(6.0),
            0.0,
            20.0,
            Vec2::new(500.0, 0.0),
        ),
        weak(
            &mut app,
            ConvexCollider::regular_polygon(5, 8.0),
            45.0,
            10.0,
        ),
    ];
    // A Mighty moving into it is not resolved either.
    let other = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Mighty,
            Transform::from_xyz(30.0, -30.0, 0.0),
            Velocity(Vec2::new(120.0, 0.0)),
        ),
    );
    for _ in 0..60 {
        app.update();
        assert_eq!(position(&app, wall), Vec2::new(50.0, 0.0));
        for m in movers {
            assert!(
                position(&app, m).x < 40.0 + 1e-3,
                "{m} went into the wall: {}",
                position(&app, m)
            );
        }
    }
    assert_eq!(
        position(&app, other),
        Vec2::new(30.0 + 120.0, -30.0),
        "Mighty pairs are not resolved"
    );
}

#[test]
fn weak_slides_along_walls_and_keeps_tangential_velocity() {
    let mut app = app();
    floor(&mut app);
    let bx = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        4.0,
        Vec2::new(60.0, -60.0),
    );
    app.update();
    // Moved to (1, 3), pushed up to rest on the floor (y = 5), vertical velocity removed.
    assert_eq!(position(&app, bx), Vec2::new(1.0, 5.0));
    assert_eq!(velocity(&app, bx), Vec2::new(60.0, 0.0));
    run(&mut app, 10);
    assert!((position(&app, bx) - Vec2::new(11.0, 5.0)).length() < 1e-4);
    assert!(flags(&app, bx).on_floor());
}

#[test]
fn contained_body_is_pushed_out_the_short_way() {
    let mut app = app();
    spawn(&mut app, (ConvexCollider::rectangle(100.0, 100.0), Mighty));
    let inside = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 40.0, 10.0);
    app.update();
    // Shortest way out is to the right: from x = 35 (left side) to 50.
    assert_eq!(position(&app, inside), Vec2::new(55.0, 10.0));
    assert!(flags(&app, inside).on_wall_left());
}

#[test]
fn stack_of_ten_settles_without_jitter() {
    let mut app = app_with_gravity(-600.0);
    floor(&mut app);
    let boxes: Vec<Entity> = (0..10)
        .map(|i| {
            weak(
                &mut app,
                ConvexCollider::rectangle(10.0, 10.0),
                0.0,
                5.5 + 10.5 * i as f32,
            )
        })
        .collect();
    run(&mut app, 240);
    let settled: Vec<Vec2> = boxes.iter().map(|b| position(&app, *b)).collect();
    for (i, p) in settled.iter().enumerate() {
        assert!(
            (p.y - (5.0 + 10.0 * i as f32)).abs() < 1e-2,
            "box {i} at {p}"
        );
        assert!(p.x.abs() < 1e-4, "box {i} drifted sideways: {p}");
        assert!(flags(&app, boxes[i]).on_floor(), "box {i} not on floor");
        let below = flags(&app, boxes[i]).standing_on();
        if i > 0 {
            assert_eq!(below, Some(boxes[i - 1]));
        }
    }
    let mut largest = 0.0f32;
    for _ in 0..600 {
        app.update();
        for (b, p) in boxes.iter().zip(&settled) {
            largest = largest.max((position(&app, *b) - *p).length());
        }
    }
    assert!(largest < 1e-3, "the stack moved {largest} over 600 steps");
}

#[test]
fn weak_pushed_by_weak_never_ends_inside_mighty() {
    let mut app = app();
    mighty(&mut app, ConvexCollider::rectangle(20.0, 100.0), 30.0, 0.0);
    let crate_box = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 14.0, 0.0);
    let pusher = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        0.0,
        Vec2::new(600.0, 0.0),
    );
    for _ in 0..30 {
        app.update();
        let c = position(&app, crate_box).x;
        assert!(c <= 15.0 + 1e-3, "crate inside the wall: {c}");
        assert!(
            position(&app, pusher).x <= c - 10.0 + 1e-3,
            "pusher inside the crate"
        );
    }
    let (c, p) = (position(&app, crate_box).x, position(&app, pusher).x);
    assert!((c - 15.0).abs() < 1e-3, "crate at {c}, pusher at {p}");
    assert!((position(&app, pusher).x - 5.0).abs() < 1e-3);
    assert!(flags(&app, crate_box).on_wall_right());
}

/// A box squeezed between two boxes that rest against walls, with too little room between
/// them: each of the outer boxes is held by its wall, and the inner one by the box it was
/// pushed off. The pair of held boxes is left overlapping (no pass can part them without
/// pushing one into a wall), instead of being split in every pass and pushed back.
#[test]
fn a_box_squeezed_between_held_boxes_stays_put() {
    let mut app = app();
    mighty(&mut app, ConvexCollider::rectangle(10.0, 40.0), -15.0, 0.0);
    mighty(&mut app, ConvexCollider::rectangle(10.0, 40.0), 23.0, 0.0);
    let left = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -5.0, 0.0);
    let middle = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 4.0, 0.0);
    let right = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 13.0, 0.0);
    // The room between the outer boxes is 8 wide: the middle box overlaps each by 1. Pushed
    // off the left one (held by its wall), it overlaps the right one (held by its wall) by 2.
    for step in 0..20 {
        app.update();
        assert_eq!(position(&app, left), Vec2::new(-5.0, 0.0), "step {step}");
        assert_eq!(position(&app, middle), Vec2::new(5.0, 0.0), "step {step}");
        assert_eq!(position(&app, right), Vec2::new(13.0, 0.0), "step {step}");
    }
}

#[test]
fn contact_flags_for_each_side() {
    let mut app = app();
    let probe = spawn(&mut app, (ConvexCollider::rectangle(10.0, 10.0), Weak));
    let ceiling = mighty(&mut app, ConvexCollider::rectangle(40.0, 10.0), 0.0, 9.9);
    app.update();
    let f = flags(&app, probe);
    assert!(f.on_ceiling() && !f.on_floor(), "{f:?}");
    app.world_mut().entity_mut(ceiling).despawn();
    mighty(&mut app, ConvexCollider::rectangle(10.0, 40.0), -9.9, 0.0);
    app.update();
    let f = flags(&app, probe);
    assert!(
        f.on_wall_left() && !f.on_ceiling() && !f.on_wall_right(),
        "{f:?}"
    );
    // A 30° slope is floor, a 60° one is wall (max floor angle 45°). Both rise to the right, so
    // the steep one is a wall on the body's right.
    for (degrees, floor_expected) in [(30.0f32, true), (60.0, false)] {
        let mut app = common::app();
        let slope = degrees.to_radians();
        spawn(
            &mut app,
            (
                ConvexCollider::rectangle(200.0, 20.0),
                Mighty,
                Transform::from_rotation(Quat::from_rotation_z(slope)).with_translation(Vec3::new(
                    0.0,
                    -10.0 / slope.cos(),
                    0.0,
                )),
            ),
        );
        let bx = weak(&mut app, ConvexCollider::circle(5.0), 0.0, 4.9);
        app.update();
        let f = flags(&app, bx);
        assert_eq!(f.on_floor(), floor_expected, "{degrees}°: {f:?}");
        if floor_expected {
            assert!((f.floor_normal() - Vec2::new(-slope.sin(), slope.cos())).length() < 1e-4);
        } else {
            assert!(f.on_wall_right() && !f.on_wall_left(), "{degrees}°: {f:?}");
        }
    }
}

/// A crate across two flush floors, level with each other, stands on the one whose pair comes
/// first in entity order (the order `Contacts` lists them in): whichever order the floors and
/// the crate were spawned in, and so whichever order the step meets the two contacts in.
#[test]
fn of_two_level_floors_the_first_in_entity_order_is_stood_on() {
    let floor_at =
        |app: &mut App, x: f32| mighty(app, ConvexCollider::rectangle(20.0, 10.0), x, -5.0);
    for crate_first in [false, true] {
        for left_first in [false, true] {
            let mut app = app_with_gravity(-600.0);
            let crate_box = crate_first
                .then(|| weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 5.0));
            let (left, right) = if left_first {
                let left = floor_at(&mut app, -10.0);
                (left, floor_at(&mut app, 10.0))
            } else {
                let right = floor_at(&mut app, 10.0);
                (floor_at(&mut app, -10.0), right)
            };
            let crate_box = crate_box
                .unwrap_or_else(|| weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 5.0));
            run(&mut app, 30);
            let f = flags(&app, crate_box);
            let case = format!("crate first {crate_first}, left first {left_first}");
            assert_eq!(position(&app, crate_box), Vec2::new(0.0, 5.0), "{case}");
            assert_eq!(f.floor_normal(), Vec2::Y, "{case}");
            assert_eq!(f.standing_on(), Some(left.min(right)), "{case}");
        }
    }
}

/// A Mighty body that neither moves by a velocity nor changes is not placed again each step
/// (its world shape is kept): one the game moves, turns, or gives another collider, is where
/// and what the game made it from the next step on.
#[test]
fn static_scenery_moved_or_reshaped_by_the_game_is_placed_anew() {
    let mut app = app();
    // A ledge 20 wide, its top at y = 0, and a box resting on it.
    let ledge = mighty(&mut app, ConvexCollider::rectangle(20.0, 10.0), 0.0, -5.0);
    let resting = weak(&mut app, ConvexCollider::rectangle(4.0, 4.0), 0.0, 2.0);
    run(&mut app, 10);
    assert_eq!(position(&app, resting), Vec2::new(0.0, 2.0));
    assert!(flags(&app, resting).on_floor());
    // Moved up by 1 by the game: the box is pushed up with it, onto its new top.
    app.world_mut()
        .get_mut::<Transform>(ledge)
        .unwrap()
        .translation
        .y += 1.0;
    run(&mut app, 1);
    assert_eq!(position(&app, resting), Vec2::new(0.0, 3.0));
    assert_eq!(flags(&app, resting).standing_on(), Some(ledge));
    run(&mut app, 10);
    assert_eq!(position(&app, resting), Vec2::new(0.0, 3.0), "and stays");
    // Made 2 units taller (its top at y = 2): the box is pushed up onto it again.
    app.world_mut()
        .entity_mut(ledge)
        .insert(ConvexCollider::rectangle(20.0, 14.0));
    run(&mut app, 1);
    assert_eq!(position(&app, resting), Vec2::new(0.0, 5.0));
    // Turned a quarter where it stands (20 tall now, its top at y = 6): pushed up again.
    app.world_mut()
        .get_mut::<Transform>(ledge)
        .unwrap()
        .rotation = Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
    run(&mut app, 1);
    let at = position(&app, resting);
    assert!(
        (at - Vec2::new(0.0, 8.0)).length() < 1e-4,
        "on the turned ledge: {at}"
    );
    // Moved away sideways: the box no longer touches it.
    app.world_mut()
        .get_mut::<Transform>(ledge)
        .unwrap()
        .translation
        .x = 100.0;
    run(&mut app, 1);
    assert!(
        !flags(&app, resting).on_floor(),
        "nothing under it any more"
    );
}
