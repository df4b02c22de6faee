//! Solid child colliders of a Weak body with `CollisionLayers` of their own: each part meets
//! what its own layers allow, the body still moves as one, and contacts, flags and spatial
//! queries see only the parts that take part. Exact positions, one fixed step per update.

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const PLAYER: u32 = 1 << 0;
const WORLD: u32 = 1 << 1;
const FOOT: u32 = 1 << 2;
const PLATE: u32 = 1 << 3;

/// A Mighty slab 100 wide and 40 tall with its top at y = 0, centred on `x`, on the layer
/// `layer` (meeting every layer).
fn slab(app: &mut App, x: f32, layer: u32) -> Entity {
    spawn(
        app,
        (
            ConvexCollider::rectangle(100.0, 40.0),
            Mighty,
            CollisionLayers::new(layer, CollisionLayers::ALL),
            Transform::from_xyz(x, -20.0, 0.0),
        ),
    )
}

/// A Weak player 20 × 20 at (`x`, 60), on PLAYER and meeting WORLD, with a solid foot 10 × 10
/// below it (its centre 15 below the player's), on FOOT and meeting PLATE.
fn player_with_foot(app: &mut App, x: f32) -> (Entity, Entity) {
    let player = weak(app, ConvexCollider::rectangle(20.0, 20.0), x, 60.0);
    app.world_mut()
        .entity_mut(player)
        .insert(CollisionLayers::new(PLAYER, WORLD));
    let foot = child(
        app,
        player,
        ConvexCollider::rectangle(10.0, 10.0),
        Vec2::new(0.0, -15.0),
    );
    app.world_mut()
        .entity_mut(foot)
        .insert(CollisionLayers::new(FOOT, PLATE));
    (player, foot)
}

/// Over a WORLD floor, the foot (which meets only PLATE) sinks into the floor and the player
/// lands on its own bottom: its centre 10 above the floor. Over a PLATE, which the player's own
/// collider does not meet, the foot lands on it: the centre 20 above. Each contact names the
/// part that meets, the flags name the body, and no warning is needed.
#[test]
fn each_solid_part_of_a_weak_body_meets_what_its_own_layers_allow() {
    let mut app = app_with_gravity(-600.0);
    log_messages(&mut app);
    let floor = slab(&mut app, -100.0, WORLD);
    let plate = slab(&mut app, 100.0, PLATE);
    let (on_floor, foot_in_floor) = player_with_foot(&mut app, -100.0);
    let (on_plate, foot_on_plate) = player_with_foot(&mut app, 100.0);
    run(&mut app, 120);
    let (a, b) = (position(&app, on_floor), position(&app, on_plate));
    assert!((a.y - 10.0).abs() < 1e-3, "on the floor at {a}");
    assert!((b.y - 20.0).abs() < 1e-3, "on the plate at {b}");
    assert_eq!((a.x, b.x), (-100.0, 100.0));
    for (body, support) in [(on_floor, floor), (on_plate, plate)] {
        let f = flags(&app, body);
        assert!(f.on_floor(), "{body} stands");
        assert_eq!(f.standing_on(), Some(support));
        assert_eq!(velocity(&app, body).y, 0.0);
    }
    assert!(touching(&app, on_floor, floor));
    assert!(
        !touching(&app, foot_in_floor, floor),
        "the foot ignores the floor"
    );
    assert!(touching(&app, foot_on_plate, plate));
    assert!(!touching(&app, on_plate, plate));
    let log = app.world().resource::<Log>();
    let mut started = log.started.clone();
    started.sort();
    let mut expected = vec![
        (on_floor.min(floor), on_floor.max(floor)),
        (foot_on_plate.min(plate), foot_on_plate.max(plate)),
    ];
    expected.sort();
    assert_eq!(started, expected);
    run(&mut app, 60);
    assert!(
        (position(&app, on_floor).y - 10.0).abs() < 1e-3,
        "and stays"
    );
    assert!(
        (position(&app, on_plate).y - 20.0).abs() < 1e-3,
        "and stays"
    );
}

/// A player moving right (no gravity) meets a post 8 tall that only its foot reaches (the foot
/// spans 0 to 10, the player's own collider 10 to 30). A PLATE post stops the foot, and so the
/// player, at the post's face; the foot passes through a WORLD post, and the player moves on.
#[test]
fn a_low_post_stops_the_player_only_when_its_foot_meets_it() {
    let mut app = app();
    let posts = [(PLATE, 0.0), (WORLD, 200.0)];
    let mut players = Vec::new();
    for (layer, x) in posts {
        spawn(
            &mut app,
            (
                ConvexCollider::rectangle(10.0, 8.0),
                Mighty,
                CollisionLayers::new(layer, CollisionLayers::ALL),
                Transform::from_xyz(x, 4.0, 0.0),
            ),
        );
        let (player, _) = player_with_foot(&mut app, x - 40.0);
        app.world_mut().entity_mut(player).insert((
            Transform::from_xyz(x - 40.0, 20.0, 0.0),
            Velocity(Vec2::new(60.0, 0.0)),
        ));
        players.push(player);
    }
    run(&mut app, 120);
    let stopped = position(&app, players[0]);
    // The foot (5 wide each side of the centre) stops at the post's left face, x = -5.
    assert!((stopped.x + 10.0).abs() < 1e-3, "stopped at {stopped}");
    assert_eq!(stopped.y, 20.0);
    let walked = position(&app, players[1]);
    assert!((walked.x - 280.0).abs() < 1e-3, "walked on to {walked}");
    assert_eq!(walked.y, 20.0);
}

/// Spatial queries see the parts on the layers they consider: a ray down onto the player from
/// above, considering FOOT only, passes the player's own collider and meets the foot's top;
/// considering PLAYER, it meets the player's top; a point inside the foot is inside the player
/// for a query considering FOOT, outside for one considering PLAYER alone.
#[test]
fn queries_see_the_parts_on_the_layers_they_consider() {
    let mut app = app();
    let (player, _) = player_with_foot(&mut app, 0.0);
    run(&mut app, 1);
    let found = app
        .world_mut()
        .run_system_once(|q: SpatialQuery| {
            let down = |mask| {
                let filter = SpatialQueryFilter::default().with_mask(mask);
                q.cast_ray(Vec2::new(0.0, 100.0), Dir2::NEG_Y, 200.0, true, &filter)
                    .map(|hit| (hit.entity, hit.distance, hit.normal))
            };
            let inside = |mask| {
                let filter = SpatialQueryFilter::default().with_mask(mask);
                q.point_intersections(Vec2::new(0.0, 45.0), &filter)
            };
            (down(FOOT), down(PLAYER), inside(FOOT), inside(PLAYER))
        })
        .unwrap();
    // The player at y = 60: its top at 70; the foot from 40 to 50.
    assert_eq!(found.0, Some((player, 50.0, Vec2::Y)));
    assert_eq!(found.1, Some((player, 30.0, Vec2::Y)));
    assert_eq!(found.2, vec![player]);
    assert_eq!(found.3, Vec::<Entity>::new());
}

/// The solid parts of one Weak body may have at most 4 different layers, the body's own
/// included: a fifth kind is not used, and its part collides with the body's layers. Here four
/// parts, all the same box hanging 10 below the body, each have layers of their own that ignore
/// the WORLD floor: one of them (whichever comes last) takes the body's layers instead, so the
/// body lands on the parts' bottom (its centre 20 above the floor), not on its own (10 above).
#[test]
fn a_fifth_kind_of_layers_on_one_body_takes_the_bodys_layers() {
    let mut app = app_with_gravity(-600.0);
    let floor = slab(&mut app, 0.0, WORLD);
    let player = weak(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 60.0);
    app.world_mut()
        .entity_mut(player)
        .insert(CollisionLayers::new(PLAYER, WORLD));
    let layers = [FOOT, 1 << 10, 1 << 11, 1 << 12];
    let parts: Vec<Entity> = layers
        .into_iter()
        .map(|layer| {
            let part = child(
                &mut app,
                player,
                ConvexCollider::rectangle(10.0, 10.0),
                Vec2::new(0.0, -15.0),
            );
            app.world_mut()
                .entity_mut(part)
                .insert(CollisionLayers::new(layer, PLATE));
            part
        })
        .collect();
    run(&mut app, 120);
    let p = position(&app, player);
    assert!((p.y - 20.0).abs() < 1e-3, "on the parts at {p}");
    assert_eq!(flags(&app, player).standing_on(), Some(floor));
    let on_floor = parts.iter().filter(|&&part| touching(&app, part, floor));
    assert_eq!(on_floor.count(), 1, "one part meets the floor");
    assert!(!touching(&app, player, floor));
}

/// A Weak crate 10 × 8, moving right at the height of the player's foot (no gravity), meets the
/// foot when it is on PLATE: the two Weak bodies are pushed apart, the crate's right face
/// against the foot's left one, and the player moves right. A crate on WORLD passes through
/// the foot (which meets only PLATE) below the player's own collider, and the player stays.
#[test]
fn a_weak_body_meets_another_weak_bodys_part_only_through_the_parts_layers() {
    let mut ends = Vec::new();
    for layer in [PLATE, WORLD] {
        let mut app = app();
        let (player, _) = player_with_foot(&mut app, 0.0);
        app.world_mut()
            .entity_mut(player)
            .insert(Transform::from_xyz(0.0, 20.0, 0.0));
        let crate_ = moving(
            &mut app,
            ConvexCollider::rectangle(10.0, 8.0),
            -30.0,
            4.0,
            Vec2::new(60.0, 0.0),
        );
        app.world_mut()
            .entity_mut(crate_)
            .insert(CollisionLayers::new(layer, CollisionLayers::ALL));
        run(&mut app, 60);
        ends.push((position(&app, player), position(&app, crate_)));
    }
    let (player, crate_) = ends[0];
    assert!((player.x - 0.5).abs() < 1e-3, "pushed to {player}");
    assert!(
        (crate_.x + 9.5).abs() < 1e-3,
        "the crate at {crate_} against the foot of the player at {player}"
    );
    assert_eq!((player.y, crate_.y), (20.0, 4.0));
    let (player, crate_) = ends[1];
    assert_eq!(player, Vec2::new(0.0, 20.0));
    assert!((crate_.x - 30.0).abs() < 1e-3, "passed on to {crate_}");
}
