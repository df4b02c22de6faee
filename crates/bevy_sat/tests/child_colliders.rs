//! Child colliders: entities with a collider below a Mighty or Weak body are parts of it. Solid
//! parts move and are resolved with their body, sensor parts ride on it, a part may have its
//! own layers, a body's parts never meet each other, and hierarchy changes take effect at the
//! next step. Exact positions, one fixed step per update.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// A sensor child of `body` with `collider` at `offset` in the body's frame.
fn sensor_child(app: &mut App, body: Entity, collider: ConvexCollider, offset: Vec2) -> Entity {
    let part = child(app, body, collider, offset);
    app.world_mut().entity_mut(part).insert(Sensor);
    part
}

fn collider_of(app: &App, part: Entity) -> Option<Entity> {
    app.world().get::<ColliderOf>(part).map(|of| of.body)
}

/// A Weak box 20 × 20 with a child box 10 × 10 sticking out 10 below it lands on the floor on
/// the child's bottom: its centre 20 above the floor's top, standing on the floor, the contact
/// naming the child. The child's own transform (its offset) is left as it was.
#[test]
fn a_weak_body_lands_on_its_child_colliders_bottom() {
    let mut app = app_with_gravity(-600.0);
    log_messages(&mut app);
    let floor = floor(&mut app);
    let body = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 7.0, 60.0);
    let foot = child(
        &mut app,
        body,
        ConvexCollider::rectangle(10.0, 10.0),
        Vec2::new(0.0, -15.0),
    );
    run(&mut app, 120);
    let p = position(&app, body);
    assert!((p.y - 20.0).abs() < 1e-3, "the body's centre at {p}");
    assert_eq!(p.x, 7.0);
    let f = flags(&app, body);
    assert!(f.on_floor());
    assert_eq!(f.standing_on(), Some(floor));
    assert_eq!(velocity(&app, body).y, 0.0);
    assert_eq!(position(&app, foot), Vec2::new(0.0, -15.0), "its offset");
    assert_eq!(collider_of(&app, foot), Some(body));
    let listed: Vec<Entity> = app
        .world()
        .get::<BodyColliders>(body)
        .unwrap()
        .iter()
        .collect();
    assert_eq!(listed, vec![foot]);
    // The contact names the part that touches the floor; the flags name the body.
    assert!(touching(&app, foot, floor));
    assert!(!touching(&app, body, floor));
    let log = app.world().resource::<Log>();
    assert_eq!(log.started, vec![(foot.min(floor), foot.max(floor))]);
    run(&mut app, 60);
    assert!((position(&app, body).y - 20.0).abs() < 1e-3, "and stays");
}

/// A child two levels below its body is placed through the entity between them: an empty
/// entity 5 to the right, and the child 10 × 10 at (0, -15) below that, rotated a quarter
/// turn (a square either way). The body lands on it: 20 above the floor.
#[test]
fn a_child_collider_is_placed_through_the_entities_between() {
    let mut app = app_with_gravity(-600.0);
    floor(&mut app);
    let body = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 60.0);
    let joint = spawn(
        &mut app,
        (Transform::from_xyz(5.0, 0.0, 0.0), ChildOf(body)),
    );
    let foot = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Transform::from_xyz(0.0, -15.0, 0.0)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)),
            ChildOf(joint),
        ),
    );
    run(&mut app, 120);
    assert!((position(&app, body).y - 20.0).abs() < 1e-3);
    assert_eq!(collider_of(&app, foot), Some(body));
}

/// A Mighty wall made of a parent 20 × 100 at x = 100 and a child 20 × 20 sticking out 30 to
/// its left and 30 below its centre: a box moving right at the child's height stops at the
/// child's left face (x = 60), exactly, against the child (named by its own entity).
#[test]
fn a_mighty_body_stops_a_box_at_its_child_colliders_face() {
    let mut app = app();
    let wall = mighty(
        &mut app,
        ConvexCollider::rectangle(20.0, 100.0),
        100.0,
        50.0,
    );
    let ledge = child(
        &mut app,
        wall,
        ConvexCollider::rectangle(20.0, 20.0),
        Vec2::new(-30.0, -30.0),
    );
    let block = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        20.0,
        Vec2::new(120.0, 0.0),
    );
    run(&mut app, 60);
    let p = position(&app, block);
    assert!((p.x - 55.0).abs() < 1e-3, "the box at {p}");
    assert_eq!(p.y, 20.0);
    let f = flags(&app, block);
    assert!(f.on_wall_right() && !f.on_floor());
    assert!(touching(&app, block, ledge), "the contact names the part");
    assert!(!touching(&app, block, wall));
    assert_eq!(collider_of(&app, ledge), Some(wall));
    assert_eq!(position(&app, wall), Vec2::new(100.0, 50.0));
    assert_eq!(position(&app, ledge), Vec2::new(-30.0, -30.0));
}

/// A moving Mighty platform carries its child part along: a box resting on the part rides
/// with the platform.
#[test]
fn a_moving_mighty_body_carries_what_stands_on_its_child() {
    let mut app = app_with_gravity(-600.0);
    let platform = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(40.0, 10.0),
            Mighty,
            Velocity(Vec2::new(60.0, 0.0)),
            Transform::from_xyz(0.0, 0.0, 0.0),
        ),
    );
    let step = child(
        &mut app,
        platform,
        ConvexCollider::rectangle(20.0, 10.0),
        Vec2::new(30.0, 0.0),
    );
    let rider = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 30.0, 10.0);
    run(&mut app, 30);
    assert_eq!(flags(&app, rider).standing_on(), Some(step));
    run(&mut app, 60);
    let carried = position(&app, rider).x - position(&app, platform).x;
    assert!(
        (carried - 30.0).abs() < 1e-2,
        "kept its place on the part: {carried}"
    );
    assert!((position(&app, rider).y - 10.0).abs() < 1e-3);
}

/// The floors on either side of a gap 30 wide, tops at y = 0.
fn floors_around_a_gap(app: &mut App) -> (Entity, Entity) {
    let left = mighty(app, ConvexCollider::rectangle(200.0, 20.0), -115.0, -10.0);
    let right = mighty(app, ConvexCollider::rectangle(200.0, 20.0), 115.0, -10.0);
    (left, right)
}

/// A player 20 × 20 with a foot sensor 16 × 4 under it (reaching 3 below its feet) rests on
/// the floor on its own collider (centre at 10, standing on the floor), while the sensor reports
/// the floor: a started message and a contact naming the sensor, whose `ColliderOf` says the
/// player. The sensor never reports the player itself.
#[test]
fn a_foot_sensor_reports_the_floor_and_holds_nothing_up() {
    let mut app = app_with_gravity(-600.0);
    log_messages(&mut app);
    let floor = floor(&mut app);
    let player = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 40.0);
    let foot = sensor_child(
        &mut app,
        player,
        ConvexCollider::rectangle(16.0, 4.0),
        Vec2::new(0.0, -11.0),
    );
    run(&mut app, 120);
    let p = position(&app, player);
    assert!((p.y - 10.0).abs() < 1e-3, "the player at {p}");
    assert_eq!(flags(&app, player).standing_on(), Some(floor));
    assert!(touching(&app, foot, floor));
    assert!(touching(&app, player, floor));
    assert!(!touching(&app, foot, player));
    let contact = app.world().resource::<Contacts>().get(foot, floor).unwrap();
    // The sensor, 3 into the floor where the player rests.
    assert!(
        (contact.depth - 3.0).abs() < 1e-3,
        "depth {}",
        contact.depth
    );
    assert_eq!(collider_of(&app, foot), Some(player));
    let log = app.world().resource::<Log>();
    let pair = if foot < floor {
        (foot, floor)
    } else {
        (floor, foot)
    };
    assert_eq!(log.started.iter().filter(|p| **p == pair).count(), 1);
    assert!(
        log.started
            .iter()
            .all(|&(a, b)| (a, b) != (player.min(foot), player.max(foot)))
    );
    assert!(log.ended.is_empty());
}

/// A player 20 wide over a gap 30 wide falls through it, though its foot sensor, 40 wide,
/// overlaps both floors' edges on the way: a sensor never holds its body up. The sensor
/// reported both floors while it passed them.
#[test]
fn a_player_falls_through_a_gap_its_foot_sensor_overlaps() {
    let mut app = app_with_gravity(-600.0);
    log_messages(&mut app);
    let (left, right) = floors_around_a_gap(&mut app);
    let player = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 12.0);
    let foot = sensor_child(
        &mut app,
        player,
        ConvexCollider::rectangle(40.0, 4.0),
        Vec2::new(0.0, -11.0),
    );
    run(&mut app, 60);
    let p = position(&app, player);
    assert!(p.y < -100.0, "the player fell: {p}");
    assert_eq!(p.x, 0.0);
    let log = app.world().resource::<Log>();
    for floor in [left, right] {
        let pair = (foot.min(floor), foot.max(floor));
        assert!(log.started.contains(&pair), "the sensor met {floor}");
        assert!(log.ended.contains(&pair), "and left it");
    }
    assert!(log.started.iter().all(|&(a, b)| a != player && b != player));
}

const HURT: u32 = 1 << 0;
const ENEMY: u32 = 1 << 1;
const COIN: u32 = 1 << 2;

/// A hurtbox (a sensor child wider than its player, on the HURT layer, meeting only ENEMY)
/// overlaps a spike (ENEMY) on one side and a coin (COIN) on the other: it reports the spike
/// alone. The player's own collider, with the default layers, touches neither.
#[test]
fn a_hurtbox_with_its_own_layers_meets_only_what_they_allow() {
    let mut app = app();
    let player = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 0.0);
    let hurtbox = sensor_child(
        &mut app,
        player,
        ConvexCollider::rectangle(40.0, 10.0),
        Vec2::ZERO,
    );
    app.world_mut()
        .entity_mut(hurtbox)
        .insert(CollisionLayers::new(HURT, ENEMY));
    let spike = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(6.0, 6.0),
            Sensor,
            CollisionLayers::new(ENEMY, CollisionLayers::ALL),
            Transform::from_xyz(-18.0, 0.0, 0.0),
        ),
    );
    let coin = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(6.0, 6.0),
            Sensor,
            CollisionLayers::new(COIN, CollisionLayers::ALL),
            Transform::from_xyz(18.0, 0.0, 0.0),
        ),
    );
    run(&mut app, 3);
    assert!(touching(&app, hurtbox, spike));
    assert!(!touching(&app, hurtbox, coin));
    assert!(!touching(&app, player, spike) && !touching(&app, player, coin));
    let all: Vec<_> = app
        .world()
        .resource::<Contacts>()
        .iter()
        .map(|p| (p.a, p.b))
        .collect();
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(position(&app, player), Vec2::ZERO);
}

/// A body's parts overlap each other (a Weak body and a Mighty one, each with a solid part and
/// a sensor part inside it) and never meet: nothing moves, nothing is reported.
#[test]
fn a_bodys_parts_never_collide_with_each_other() {
    let mut app = app();
    log_messages(&mut app);
    for (x, kind_is_weak) in [(-100.0, true), (100.0, false)] {
        let body = if kind_is_weak {
            weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), x, 0.0)
        } else {
            mighty(&mut app, ConvexCollider::rectangle(20.0, 20.0), x, 0.0)
        };
        child(
            &mut app,
            body,
            ConvexCollider::rectangle(20.0, 20.0),
            Vec2::new(5.0, 5.0),
        );
        sensor_child(&mut app, body, ConvexCollider::circle(8.0), Vec2::ZERO);
        sensor_child(
            &mut app,
            body,
            ConvexCollider::circle(8.0),
            Vec2::new(3.0, 0.0),
        );
    }
    let mut query = app.world_mut().query::<(Entity, &Transform)>();
    let mut before: Vec<(Entity, Vec3)> = query
        .iter(app.world())
        .map(|(e, t)| (e, t.translation))
        .collect();
    before.sort_by_key(|(e, _)| *e);
    run(&mut app, 10);
    let mut after: Vec<(Entity, Vec3)> = query
        .iter(app.world())
        .map(|(e, t)| (e, t.translation))
        .collect();
    after.sort_by_key(|(e, _)| *e);
    assert_eq!(before, after);
    assert_eq!(app.world().resource::<Contacts>().iter().count(), 0);
    assert!(app.world().resource::<Log>().started.is_empty());
}

/// Despawning a Weak body's solid child at run time takes effect at the next step: the body,
/// resting on the child's bottom (20 above the floor), falls onto its own (10 above), and no
/// longer lists the child.
#[test]
fn despawning_a_child_collider_lets_its_body_fall_onto_its_own() {
    let mut app = app_with_gravity(-600.0);
    floor(&mut app);
    let body = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 21.0);
    let foot = child(
        &mut app,
        body,
        ConvexCollider::rectangle(10.0, 10.0),
        Vec2::new(0.0, -15.0),
    );
    run(&mut app, 60);
    assert!((position(&app, body).y - 20.0).abs() < 1e-3);
    app.world_mut().entity_mut(foot).despawn();
    run(&mut app, 60);
    assert!((position(&app, body).y - 10.0).abs() < 1e-3);
    assert!(app.world().get::<BodyColliders>(body).is_none());
}

/// Removing a sensor child's parent link, or giving a child a body kind of its own, makes it a
/// body of its own at the next step: `ColliderOf` goes, and a child made Weak falls on its own
/// while its former body stays on the floor.
#[test]
fn unlinking_a_child_or_giving_it_a_kind_makes_it_its_own_body() {
    let mut app = app_with_gravity(-600.0);
    floor(&mut app);
    let player = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 10.0);
    let foot = sensor_child(
        &mut app,
        player,
        ConvexCollider::rectangle(16.0, 4.0),
        Vec2::new(0.0, -11.0),
    );
    let hat = child(
        &mut app,
        player,
        ConvexCollider::rectangle(10.0, 10.0),
        Vec2::new(0.0, 40.0),
    );
    run(&mut app, 5);
    assert_eq!(collider_of(&app, foot), Some(player));
    assert_eq!(collider_of(&app, hat), Some(player));
    app.world_mut().entity_mut(foot).remove::<ChildOf>();
    app.world_mut().entity_mut(hat).insert(Weak);
    app.update();
    assert_eq!(collider_of(&app, foot), None);
    assert_eq!(collider_of(&app, hat), None);
    assert!(app.world().get::<BodyColliders>(player).is_none());
    run(&mut app, 60);
    // The hat, Weak and still a child in the hierarchy, moves by its own transform (in its
    // parent's frame, as the hierarchy draws it): it fell.
    assert!(position(&app, hat).y < 40.0 - 1.0);
    assert!((position(&app, player).y - 10.0).abs() < 1e-3);
}

/// A body at the origin with a solid child box at x = 20 and a sensor child box at x = 40
/// (all 10 × 10), walls 20 wide centred at x = ±100 (faces at ±90). Returns the body, the
/// solid part, the sensor part and the walls (left, right).
fn body_with_parts_between_walls(app: &mut App, weak_body: bool) -> [Entity; 5] {
    let left = mighty(app, ConvexCollider::rectangle(20.0, 40.0), -100.0, 0.0);
    let right = mighty(app, ConvexCollider::rectangle(20.0, 40.0), 100.0, 0.0);
    let square = ConvexCollider::rectangle(10.0, 10.0);
    let body = if weak_body {
        weak(app, square.clone(), 0.0, 0.0)
    } else {
        mighty(app, square.clone(), 0.0, 0.0)
    };
    let solid = child(app, body, square.clone(), Vec2::new(20.0, 0.0));
    let sensor = sensor_child(app, body, square, Vec2::new(40.0, 0.0));
    [body, solid, sensor, left, right]
}

fn ray_hits(app: &App, caster: Entity) -> Vec<(Entity, f32)> {
    let hits = app.world().get::<RayHits>(caster).expect("a ray caster");
    hits.iter().map(|h| (h.entity, h.distance)).collect()
}

fn shape_hits(app: &App, caster: Entity) -> Vec<(Entity, f32)> {
    let hits = app
        .world()
        .get::<ShapeHits>(caster)
        .expect("a shape caster");
    hits.iter().map(|h| (h.entity, h.distance)).collect()
}

/// A ray cast to the right from the centre of a body (Weak, whose solid part is folded into
/// it, and Mighty, whose parts are colliders of their own) passes its solid and sensor parts
/// and hits the wall 90 away; not ignoring itself, it hits its own body first.
#[test]
fn a_ray_caster_on_a_body_ignores_the_bodys_parts() {
    for weak_body in [true, false] {
        let mut app = app();
        let [body, _, sensor, _, right] = body_with_parts_between_walls(&mut app, weak_body);
        app.world_mut().entity_mut(body).insert(
            RayCaster::new(Vec2::ZERO, Dir2::X)
                .with_max_distance(500.0)
                .with_max_hits(8),
        );
        run(&mut app, 2);
        assert_eq!(
            ray_hits(&app, body),
            vec![(right, 90.0)],
            "weak: {weak_body}"
        );
        app.world_mut()
            .get_mut::<RayCaster>(body)
            .unwrap()
            .ignore_self = false;
        run(&mut app, 1);
        let hits = ray_hits(&app, body);
        assert_eq!(hits.first(), Some(&(body, 0.0)), "weak: {weak_body}");
        assert!(hits.contains(&(sensor, 35.0)), "{hits:?}");
        assert_eq!(hits.last(), Some(&(right, 90.0)));
    }
}

/// A ray cast to the left from the centre of a body's sensor part (at x = 40) passes the
/// body's solid part and its own collider and hits the left wall's face at x = -90, 130 away;
/// one cast to the left from the solid part (at x = 20) likewise, 110 away.
#[test]
fn a_ray_caster_on_a_part_ignores_its_body_and_the_other_parts() {
    for weak_body in [true, false] {
        let mut app = app();
        let [_, solid, sensor, left, _] = body_with_parts_between_walls(&mut app, weak_body);
        for part in [solid, sensor] {
            app.world_mut().entity_mut(part).insert(
                RayCaster::new(Vec2::ZERO, Dir2::NEG_X)
                    .with_max_distance(500.0)
                    .with_max_hits(8),
            );
        }
        run(&mut app, 2);
        assert_eq!(
            ray_hits(&app, sensor),
            vec![(left, 130.0)],
            "weak: {weak_body}"
        );
        assert_eq!(
            ray_hits(&app, solid),
            vec![(left, 110.0)],
            "weak: {weak_body}"
        );
    }
}

/// Shape casts (a 4 × 4 square) from a body to the right and from its sensor part to the left
/// ignore the body and all its parts: they meet only the walls' faces, the square's leading
/// side from x = 2 to 90 (88) and from x = 38 to -90 (128).
#[test]
fn a_shape_caster_ignores_its_own_bodys_parts() {
    for weak_body in [true, false] {
        let mut app = app();
        let [body, _, sensor, left, right] = body_with_parts_between_walls(&mut app, weak_body);
        let probe = ConvexCollider::rectangle(4.0, 4.0);
        app.world_mut().entity_mut(body).insert(
            ShapeCaster::new(probe.clone(), Vec2::ZERO, Dir2::X)
                .with_max_distance(500.0)
                .with_max_hits(8),
        );
        app.world_mut().entity_mut(sensor).insert(
            ShapeCaster::new(probe, Vec2::ZERO, Dir2::NEG_X)
                .with_max_distance(500.0)
                .with_max_hits(8),
        );
        run(&mut app, 2);
        // Each meets one wall, within the sweep's round-off of the exact distance.
        for (caster, wall, distance) in [(body, right, 88.0), (sensor, left, 128.0)] {
            let hits = shape_hits(&app, caster);
            assert_eq!(hits.len(), 1, "weak: {weak_body}: {hits:?}");
            assert_eq!(hits[0].0, wall);
            assert!((hits[0].1 - distance).abs() < 1e-4, "{hits:?}");
        }
    }
}

/// A Weak body of two flush 10 × 10 boxes (its own collider and a child 10 to its right), or
/// one 20 × 10 box, its left end at `x`, its bottom at `bottom`, moving with `velocity`.
fn two_boxes_or_one(app: &mut App, two: bool, x: f32, bottom: f32, velocity: Vec2) -> Entity {
    let y = bottom + 5.0;
    if !two {
        return moving(
            app,
            ConvexCollider::rectangle(20.0, 10.0),
            x + 10.0,
            y,
            velocity,
        );
    }
    let square = ConvexCollider::rectangle(10.0, 10.0);
    let body = moving(app, square.clone(), x + 5.0, y, velocity);
    child(app, body, square, Vec2::new(10.0, 0.0));
    body
}

/// Where the body's left end and bottom are (for the two boxes, their own collider's centre
/// is 5 from the left end; for the one box, 10).
fn left_bottom(app: &App, body: Entity, two: bool) -> Vec2 {
    position(app, body) - Vec2::new(if two { 5.0 } else { 10.0 }, 5.0)
}

/// Two flush boxes sliding along the floor into a step 8 high (its left face at x = 80) move
/// exactly as one box of their size does, step by step: they rest on the floor (bottom at
/// y = 0) against the step (right end at x = 80), never shoved up or back by the face between
/// them.
#[test]
fn two_flush_child_boxes_slide_into_a_step_like_one_box() {
    let mut runs = Vec::new();
    for two in [true, false] {
        let mut app = app_with_gravity(-600.0);
        floor(&mut app);
        mighty(&mut app, ConvexCollider::rectangle(40.0, 8.0), 100.0, 4.0);
        let body = two_boxes_or_one(&mut app, two, -40.0, 0.0, Vec2::new(90.0, 0.0));
        let mut path = Vec::new();
        for _ in 0..120 {
            app.update();
            path.push(left_bottom(&app, body, two));
        }
        let f = flags(&app, body);
        assert!(f.on_floor() && f.on_wall_right(), "two: {two}");
        runs.push(path);
    }
    assert_eq!(runs[0].last(), Some(&Vec2::new(60.0, 0.0)));
    for (step, (two, one)) in runs[0].iter().zip(&runs[1]).enumerate() {
        assert!(
            two.abs_diff_eq(*one, 1e-4),
            "step {step}: {two} against {one}"
        );
        assert_eq!(two.y, 0.0, "step {step}: never lifted");
    }
}

/// Two flush boxes placed 3 deep into a post 4 wide centred under the face between them
/// (each box 2 into it sideways, less than 3) are pushed straight up out of it, as one box of
/// their size is: never sideways out of the face between them.
#[test]
fn two_flush_child_boxes_sunk_into_a_post_under_their_seam_rise_like_one_box() {
    for two in [true, false] {
        let mut app = app();
        mighty(&mut app, ConvexCollider::rectangle(4.0, 40.0), 10.0, 20.0);
        let body = two_boxes_or_one(&mut app, two, 0.0, 37.0, Vec2::ZERO);
        run(&mut app, 3);
        assert_eq!(
            left_bottom(&app, body, two),
            Vec2::new(0.0, 40.0),
            "two: {two}"
        );
        assert!(flags(&app, body).on_floor());
    }
}

/// A 20 × 20 box with a 10 × 10 child hanging flush below its middle lands on the floor on
/// the child and rests with its centre exactly 20 above the floor's top.
#[test]
fn a_box_with_a_flush_child_below_rests_at_the_exact_height() {
    let mut app = app_with_gravity(-600.0);
    floor(&mut app);
    let body = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 60.0);
    child(
        &mut app,
        body,
        ConvexCollider::rectangle(10.0, 10.0),
        Vec2::new(0.0, -15.0),
    );
    run(&mut app, 120);
    assert_eq!(position(&app, body), Vec2::new(0.0, 20.0));
    assert_eq!(velocity(&app, body), Vec2::ZERO);
    run(&mut app, 60);
    assert_eq!(position(&app, body), Vec2::new(0.0, 20.0), "and stays");
}

/// Three Weak bodies, each a 20 × 10 box with a 20 × 10 child flush on top of it, dropped in a
/// column settle as three 20 × 20 boxes do: the same heights (10, 30 and 50 for the centres
/// of the boxes; 5, 25 and 45 for the bodies' own colliders), each standing on the body below
/// it (named by the body, though it rests on that body's child), none drifting sideways.
#[test]
fn a_stack_of_child_collider_bodies_settles_like_a_stack_of_boxes() {
    let mut settled = Vec::new();
    for two in [true, false] {
        let mut app = app_with_gravity(-600.0);
        let floor = floor(&mut app);
        let bodies: Vec<Entity> = (0..3)
            .map(|i| {
                let bottom = 0.5 + 21.0 * i as f32;
                if two {
                    let half = ConvexCollider::rectangle(20.0, 10.0);
                    let body = weak(&mut app, half.clone(), 0.0, bottom + 5.0);
                    child(&mut app, body, half, Vec2::new(0.0, 10.0));
                    body
                } else {
                    weak(
                        &mut app,
                        ConvexCollider::rectangle(20.0, 20.0),
                        0.0,
                        bottom + 10.0,
                    )
                }
            })
            .collect();
        run(&mut app, 300);
        for (i, &body) in bodies.iter().enumerate() {
            let f = flags(&app, body);
            assert!(f.on_floor(), "two: {two}, body {i}");
            let below = if i == 0 { floor } else { bodies[i - 1] };
            assert_eq!(f.standing_on(), Some(below), "two: {two}, body {i}");
        }
        let bottoms: Vec<Vec2> = bodies
            .iter()
            .map(|&b| position(&app, b) - Vec2::new(0.0, if two { 5.0 } else { 10.0 }))
            .collect();
        settled.push(bottoms);
    }
    let expected: Vec<Vec2> = (0..3).map(|i| Vec2::new(0.0, 20.0 * i as f32)).collect();
    assert_eq!(settled[0], expected, "the bodies' bottoms");
    assert_eq!(settled[1], expected, "the boxes' bottoms");
}
