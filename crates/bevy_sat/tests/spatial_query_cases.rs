//! `SpatialQuery`, `RayCaster` and `ShapeCaster` on hand-built scenes with known answers:
//! filters, casters, rays starting inside, along an edge and through a corner, bad input,
//! despawned entities, ties, and colliders moved by resolution.

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

fn run<T: Send + 'static>(
    app: &mut App,
    f: impl Fn(SpatialQuery) -> T + Send + Sync + 'static,
) -> T {
    app.world_mut()
        .run_system_once(move |q: SpatialQuery| f(q))
        .unwrap()
}

fn all() -> SpatialQueryFilter {
    SpatialQueryFilter::default()
}

/// A 20 × 20 box centred at (`x`, `y`), Mighty.
fn block(app: &mut App, x: f32, y: f32) -> Entity {
    mighty(app, ConvexCollider::rectangle(20.0, 20.0), x, y)
}

#[test]
fn closest_ray_hit_has_exact_distance_normal_and_point() {
    let mut app = app();
    let near = block(&mut app, 50.0, 0.0); // left face at x = 40
    let _far = block(&mut app, 100.0, 0.0);
    app.update();
    let hit = run(&mut app, |q| {
        q.cast_ray(Vec2::ZERO, Dir2::X, 1000.0, true, &all())
    })
    .unwrap();
    assert_eq!(hit.entity, near);
    assert_eq!(
        (hit.distance, hit.normal, hit.point),
        (40.0, Vec2::NEG_X, Vec2::new(40.0, 0.0))
    );
    let hits = run(&mut app, |q| {
        q.ray_hits(Vec2::ZERO, Dir2::X, 1000.0, 10, true, &all())
    });
    assert_eq!(
        hits.iter().map(|h| h.distance).collect::<Vec<_>>(),
        [40.0, 90.0]
    );
    let one = run(&mut app, |q| {
        q.ray_hits(Vec2::ZERO, Dir2::X, 1000.0, 1, true, &all())
    });
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].entity, near);
    // Short of the box: nothing.
    assert!(
        run(&mut app, |q| q.cast_ray(
            Vec2::ZERO,
            Dir2::X,
            39.9,
            true,
            &all()
        ))
        .is_none()
    );
}

#[test]
fn filter_by_mask_excluded_entities_and_sensors() {
    let mut app = app();
    let on_layer_1 = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(20.0, 20.0),
            Mighty,
            CollisionLayers::new(0b10, CollisionLayers::ALL),
            Transform::from_xyz(50.0, 0.0, 0.0),
        ),
    );
    let sensor = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(20.0, 20.0),
            Sensor,
            Transform::from_xyz(100.0, 0.0, 0.0),
        ),
    );
    let plain = block(&mut app, 150.0, 0.0);
    app.update();
    let first = move |filter: SpatialQueryFilter| {
        move |q: SpatialQuery| {
            q.cast_ray(Vec2::ZERO, Dir2::X, 1000.0, true, &filter)
                .map(|h| h.entity)
        }
    };
    assert_eq!(run(&mut app, first(all())), Some(on_layer_1));
    assert_eq!(run(&mut app, first(all().with_mask(0b01))), Some(sensor));
    assert_eq!(
        run(&mut app, first(all().with_mask(0b01).without_sensors())),
        Some(plain)
    );
    assert_eq!(
        run(
            &mut app,
            first(all().with_excluded_entities([on_layer_1, sensor]))
        ),
        Some(plain)
    );
    // The others are on every layer (the default), layer 1 too.
    assert_eq!(
        run(
            &mut app,
            first(all().with_mask(0b10).with_excluded_entities([on_layer_1]))
        ),
        Some(sensor)
    );
    assert_eq!(run(&mut app, first(all().with_mask(0))), None);
    // The same filters on the point and area queries.
    let at = |x: f32, filter: SpatialQueryFilter| {
        move |q: SpatialQuery| q.point_intersections(Vec2::new(x, 0.0), &filter)
    };
    assert_eq!(run(&mut app, at(100.0, all())), [sensor]);
    assert!(run(&mut app, at(100.0, all().without_sensors())).is_empty());
    assert!(run(&mut app, at(50.0, all().with_mask(0b100))).is_empty());
    let boxed = run(&mut app, |q| {
        q.aabb_intersections(
            Vec2::new(0.0, -1.0),
            Vec2::new(200.0, 1.0),
            &all().without_sensors(),
        )
    });
    // Sorted by entity (`Entity`'s own order).
    let mut want = [on_layer_1, plain];
    want.sort();
    assert_eq!(boxed, want);
}

#[test]
fn rays_starting_inside_hit_at_once_when_solid_and_on_the_way_out_when_hollow() {
    let mut app = app();
    let b = block(&mut app, 0.0, 0.0);
    app.update();
    let solid = run(&mut app, |q| {
        q.cast_ray(Vec2::new(5.0, 0.0), Dir2::X, 100.0, true, &all())
    })
    .unwrap();
    assert_eq!(
        (solid.entity, solid.distance, solid.point, solid.normal),
        (b, 0.0, Vec2::new(5.0, 0.0), Vec2::NEG_X)
    );
    let hollow = run(&mut app, |q| {
        q.cast_ray(Vec2::new(5.0, 0.0), Dir2::X, 100.0, false, &all())
    })
    .unwrap();
    assert_eq!(
        (hollow.entity, hollow.distance, hollow.point, hollow.normal),
        (b, 5.0, Vec2::new(10.0, 0.0), Vec2::X)
    );
    // Hollow and too short to leave: no hit.
    assert!(
        run(&mut app, |q| q.cast_ray(
            Vec2::new(5.0, 0.0),
            Dir2::X,
            4.0,
            false,
            &all()
        ))
        .is_none()
    );
}

#[test]
fn rays_along_an_edge_and_through_a_corner_hit_where_they_first_touch() {
    let mut app = app();
    let b = block(&mut app, 0.0, 0.0); // corners at (±10, ±10)
    app.update();
    // Along the top edge's line, from the left: the near corner, by the left face.
    let along = run(&mut app, |q| {
        q.cast_ray(Vec2::new(-30.0, 10.0), Dir2::X, 100.0, true, &all())
    })
    .unwrap();
    assert_eq!(
        (along.entity, along.distance, along.point),
        (b, 20.0, Vec2::new(-10.0, 10.0))
    );
    assert_eq!(along.normal, Vec2::NEG_X);
    // Diagonally through the corner (-10, -10).
    let diagonal = Dir2::new(Vec2::ONE).unwrap();
    let corner = run(&mut app, move |q| {
        q.cast_ray(Vec2::new(-20.0, -20.0), diagonal, 100.0, true, &all())
    })
    .unwrap();
    assert_eq!(corner.entity, b);
    assert!(
        (corner.distance - 200f32.sqrt()).abs() < 1e-4,
        "{}",
        corner.distance
    );
    assert!((corner.point - Vec2::splat(-10.0)).length() < 1e-4);
    // Just above the top edge's line: a miss.
    assert!(
        run(&mut app, |q| q.cast_ray(
            Vec2::new(-30.0, 10.001),
            Dir2::X,
            100.0,
            true,
            &all()
        ))
        .is_none()
    );
}

#[test]
fn zero_length_and_non_finite_input_is_no_hit_and_no_panic() {
    let mut app = app();
    block(&mut app, 50.0, 0.0);
    let probe = ConvexCollider::rectangle(2.0, 2.0);
    app.update();
    let answers = run(&mut app, move |q| {
        let f = all();
        [
            q.cast_ray(Vec2::ZERO, Dir2::X, 0.0, true, &f).is_some(),
            q.cast_ray(Vec2::NAN, Dir2::X, 100.0, true, &f).is_some(),
            q.cast_ray(Vec2::new(f32::INFINITY, 0.0), Dir2::X, 100.0, true, &f)
                .is_some(),
            q.cast_ray(Vec2::ZERO, Dir2::X, f32::NAN, true, &f)
                .is_some(),
            q.cast_ray(Vec2::ZERO, Dir2::X, f32::INFINITY, true, &f)
                .is_some(),
            q.cast_ray(Vec2::ZERO, Dir2::X, -1.0, true, &f).is_some(),
            !q.ray_hits(Vec2::NAN, Dir2::X, 100.0, 4, true, &f)
                .is_empty(),
            q.cast_shape(&probe, Vec2::ZERO, 0.0, Dir2::X, 0.0, &f)
                .is_some(),
            q.cast_shape(&probe, Vec2::NAN, 0.0, Dir2::X, 100.0, &f)
                .is_some(),
            q.cast_shape(&probe, Vec2::ZERO, f32::NAN, Dir2::X, 100.0, &f)
                .is_some(),
            q.cast_shape(&probe, Vec2::ZERO, 0.0, Dir2::X, f32::INFINITY, &f)
                .is_some(),
            !q.point_intersections(Vec2::NAN, &f).is_empty(),
            !q.shape_intersections(&probe, Vec2::INFINITY, 0.0, &f)
                .is_empty(),
            !q.aabb_intersections(Vec2::ZERO, Vec2::NAN, &f).is_empty(),
            !q.aabb_intersections(Vec2::new(60.0, 0.0), Vec2::new(40.0, 1.0), &f)
                .is_empty(),
            q.project_point(Vec2::NAN, true, &f).is_some(),
        ]
    });
    assert_eq!(answers, [false; 16]);
    // The same reach, with room to hit: found.
    assert!(
        run(&mut app, |q| q.cast_ray(
            Vec2::ZERO,
            Dir2::X,
            f32::MAX,
            true,
            &all()
        ))
        .is_some()
    );
}

#[test]
fn shape_cast_exact_hit_and_start_overlapping() {
    let mut app = app();
    let wall = block(&mut app, 50.0, 0.0); // left face at x = 40
    app.update();
    // A fresh probe in each query (a collider is not `Copy`).
    let probe = || ConvexCollider::rectangle(4.0, 4.0);
    let hit = run(&mut app, move |q| {
        q.cast_shape(&probe(), Vec2::ZERO, 0.0, Dir2::X, 100.0, &all())
    })
    .unwrap();
    assert_eq!(
        (hit.entity, hit.distance, hit.normal),
        (wall, 38.0, Vec2::NEG_X)
    );
    assert_eq!(hit.point, Vec2::new(40.0, 0.0));
    // Already overlapping: distance 0.
    let inside = run(&mut app, move |q| {
        q.cast_shape(&probe(), Vec2::new(41.0, 0.0), 0.0, Dir2::X, 100.0, &all())
    })
    .unwrap();
    assert_eq!((inside.entity, inside.distance), (wall, 0.0));
    // Turned 45°: the diamond's corner reaches the face sqrt(8) units earlier than its centre.
    let turned = run(&mut app, move |q| {
        q.cast_shape(
            &probe(),
            Vec2::ZERO,
            std::f32::consts::FRAC_PI_4,
            Dir2::X,
            100.0,
            &all(),
        )
    })
    .unwrap();
    assert!(
        (turned.distance - (40.0 - 8f32.sqrt())).abs() < 1e-4,
        "{}",
        turned.distance
    );
    // Moving away: nothing.
    assert!(
        run(&mut app, move |q| q.cast_shape(
            &probe(),
            Vec2::ZERO,
            0.0,
            Dir2::NEG_X,
            100.0,
            &all()
        ))
        .is_none()
    );
    let hits = run(&mut app, move |q| {
        q.shape_hits(&probe(), Vec2::ZERO, 0.0, Dir2::X, 100.0, 3, &all())
    });
    assert_eq!(hits.len(), 1);
}

#[test]
fn equal_distances_are_ordered_by_entity() {
    let mut app = app();
    // Two identical boxes in the same place, spawned in both orders over two runs.
    let a = block(&mut app, 50.0, 0.0);
    let b = block(&mut app, 50.0, 0.0);
    let (small, large) = if a < b { (a, b) } else { (b, a) };
    app.update();
    let hit = run(&mut app, |q| {
        q.cast_ray(Vec2::ZERO, Dir2::X, 100.0, true, &all())
    })
    .unwrap();
    assert_eq!(hit.entity, small);
    let hits = run(&mut app, |q| {
        q.ray_hits(Vec2::ZERO, Dir2::X, 100.0, 5, true, &all())
    });
    assert_eq!(
        hits.iter().map(|h| h.entity).collect::<Vec<_>>(),
        [small, large]
    );
    let nearest = run(&mut app, |q| {
        q.project_point(Vec2::new(50.0, 30.0), true, &all())
    })
    .unwrap();
    assert_eq!(nearest.entity, small);
    assert_eq!(
        run(&mut app, |q| q
            .point_intersections(Vec2::new(50.0, 0.0), &all())),
        [small, large]
    );
}

/// A shape cast that starts inside several colliders hits them all at distance 0, and the
/// nearest hits are those of the smallest entities, whichever the walk meets first (a body
/// after the last hit kept at 0 is never swept). The first entity in their order is a wide
/// block, which the walk meets after the small ones (it is held with the larger bodies); the
/// small blocks are spawned in several orders.
#[test]
fn casts_starting_inside_several_colliders_rank_them_by_entity_at_distance_0() {
    // Six blocks overlapping the origin besides the wide one, and one farther along +x.
    let spots = [
        (8.0, 3.0),
        (-6.0, -2.0),
        (1.0, 9.0),
        (-3.0, 7.0),
        (5.0, -8.0),
        (0.0, 0.0),
    ];
    for order in 0..12 {
        let mut spots = spots;
        spots.rotate_left(order % 6);
        if order >= 6 {
            spots.reverse();
        }
        let mut app = app();
        let mut inside: Vec<Entity> = spots.iter().map(|&(x, y)| block(&mut app, x, y)).collect();
        let wide = mighty(&mut app, ConvexCollider::rectangle(60.0, 20.0), 20.0, 0.0);
        inside.push(wide);
        inside.sort();
        assert_eq!(
            inside[0], wide,
            "the wide block comes first in the entities' order"
        );
        let far = block(&mut app, 70.0, 0.0); // left face at x = 60, past the wide one
        app.update();
        let probe = || ConvexCollider::rectangle(4.0, 4.0);
        for direction in [Dir2::X, Dir2::NEG_X, Dir2::Y, Dir2::NEG_Y] {
            let hit = run(&mut app, move |q| {
                q.cast_shape(&probe(), Vec2::ZERO, 0.0, direction, 100.0, &all())
            })
            .unwrap();
            assert_eq!(
                (hit.entity, hit.distance),
                (inside[0], 0.0),
                "{order} {direction:?}"
            );
            let hits = run(&mut app, move |q| {
                q.shape_hits(&probe(), Vec2::ZERO, 0.0, direction, 100.0, 3, &all())
            });
            let found: Vec<_> = hits.iter().map(|h| (h.entity, h.distance)).collect();
            let want: Vec<_> = inside[..3].iter().map(|&e| (e, 0.0)).collect();
            assert_eq!(found, want, "{order} {direction:?}");
        }
        let every = run(&mut app, move |q| {
            q.shape_hits(&probe(), Vec2::ZERO, 0.0, Dir2::X, 100.0, 10, &all())
        });
        let mut want: Vec<_> = inside.iter().map(|&e| (e, 0.0)).collect();
        want.push((far, 58.0)); // the probe's right side from x = 2 to 60
        let found: Vec<_> = every.iter().map(|h| (h.entity, h.distance)).collect();
        assert_eq!(found, want, "{order}");
    }
}

/// With the block at x = 50 gone, a ray from the origin along x hits `far` (the block at
/// x = 100), and the point (50, 0) is in no collider.
fn assert_near_block_gone(app: &mut App, far: Entity) {
    let hit = run(app, |q| {
        q.cast_ray(Vec2::ZERO, Dir2::X, 1000.0, true, &all())
    })
    .unwrap();
    assert_eq!(hit.entity, far);
    assert_eq!(
        run(app, |q| q.point_intersections(Vec2::new(50.0, 0.0), &all())),
        []
    );
}

/// An app with a block at x = 50 (`near`) and one at x = 100 (`far`), after a step.
fn near_and_far() -> (App, Entity, Entity) {
    let mut app = app();
    let near = block(&mut app, 50.0, 0.0);
    let far = block(&mut app, 100.0, 0.0);
    app.update();
    (app, near, far)
}

#[test]
fn despawned_entities_are_never_returned_even_before_the_next_step() {
    let (mut app, near, far) = near_and_far();
    app.world_mut().despawn(near);
    assert_near_block_gone(&mut app, far);
    // A collider removed is left out too.
    app.world_mut().entity_mut(far).remove::<ConvexCollider>();
    assert!(
        run(&mut app, |q| q.cast_ray(
            Vec2::ZERO,
            Dir2::X,
            1000.0,
            true,
            &all()
        ))
        .is_none()
    );
}

/// The entity to despawn in the middle of a step.
#[derive(Resource)]
struct DespawnMidStep(Entity);

#[test]
fn a_collider_despawned_during_the_step_after_its_bodies_were_gathered_is_never_returned() {
    let (mut app, near, far) = near_and_far();
    // Despawned between prepare, which gathered it as a body, and the broad phase.
    app.insert_resource(DespawnMidStep(near));
    app.add_systems(
        FixedPostUpdate,
        (|mut commands: Commands, target: Option<Res<DespawnMidStep>>| {
            if let Some(target) = target {
                commands.entity(target.0).despawn();
                commands.remove_resource::<DespawnMidStep>();
            }
        })
        .after(SatSystems::Prepare)
        .before(SatSystems::BroadPhase),
    );
    app.update();
    assert!(app.world().get_entity(near).is_err());
    assert_near_block_gone(&mut app, far);
    // The next step gathers the bodies again: the far block is still found.
    app.update();
    let hit = run(&mut app, |q| {
        q.cast_ray(Vec2::ZERO, Dir2::X, 1000.0, true, &all())
    })
    .unwrap();
    assert_eq!((hit.entity, hit.distance), (far, 90.0));
}

#[test]
fn queries_see_colliders_where_write_back_put_them() {
    let mut app = app();
    floor(&mut app); // top at y = 0
    // A box sunk 5 units into the floor: resolution pushes it up to rest on it.
    let b = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 0.0);
    app.update();
    let y = position(&app, b).y;
    assert!(y > 4.9, "pushed up, at {y}");
    let hit = run(&mut app, |q| {
        q.cast_ray(Vec2::new(0.0, 100.0), Dir2::NEG_Y, 200.0, true, &all())
    })
    .unwrap();
    assert_eq!(hit.entity, b);
    assert!(
        (hit.point.y - (y + 5.0)).abs() < 1e-4,
        "top at {} vs transform {y}",
        hit.point.y
    );
    // A collider added after the step is found from the next step on.
    let late = block(&mut app, 0.0, 60.0);
    assert_ne!(
        run(&mut app, |q| q.cast_ray(
            Vec2::new(0.0, 100.0),
            Dir2::NEG_Y,
            200.0,
            true,
            &all()
        ))
        .unwrap()
        .entity,
        late
    );
    app.update();
    assert_eq!(
        run(&mut app, |q| q.cast_ray(
            Vec2::new(0.0, 100.0),
            Dir2::NEG_Y,
            200.0,
            true,
            &all()
        ))
        .unwrap()
        .entity,
        late
    );
}

#[test]
fn huge_walls_and_small_bodies_are_found_together() {
    let mut app = app();
    let wall = mighty(
        &mut app,
        ConvexCollider::rectangle(100_000.0, 10.0),
        0.0,
        -100.0,
    );
    let small: Vec<Entity> = (0..50)
        .map(|k| block(&mut app, k as f32 * 40.0, 0.0))
        .collect();
    app.update();
    let down = run(&mut app, |q| {
        q.cast_ray(Vec2::new(20.0, 50.0), Dir2::NEG_Y, 1000.0, true, &all())
    })
    .unwrap();
    assert_eq!((down.entity, down.distance), (wall, 145.0));
    let right = run(&mut app, |q| {
        q.cast_ray(Vec2::new(-50.0, 0.0), Dir2::X, 10_000.0, true, &all())
    })
    .unwrap();
    assert_eq!((right.entity, right.distance), (small[0], 40.0));
    let left = run(&mut app, |q| {
        q.cast_ray(Vec2::new(5000.0, 0.0), Dir2::NEG_X, 10_000.0, true, &all())
    })
    .unwrap();
    assert_eq!(left.entity, small[49]);
    assert_eq!(left.distance, 5000.0 - 49.0 * 40.0 - 10.0);
    let nearest = run(&mut app, |q| {
        q.project_point(Vec2::new(40_000.0, -80.0), true, &all())
    })
    .unwrap();
    assert_eq!(
        (nearest.entity, nearest.point),
        (wall, Vec2::new(40_000.0, -95.0))
    );
}

#[test]
fn ray_caster_writes_hits_every_step_and_ignores_itself() {
    let mut app = app();
    let wall = block(&mut app, 100.0, 0.0); // left face at x = 90
    let caster = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Mighty,
            RayCaster::new(Vec2::ZERO, Dir2::X).with_max_distance(500.0),
            Transform::from_xyz(0.0, 0.0, 0.0),
        ),
    );
    app.update();
    let hits = app.world().get::<RayHits>(caster).unwrap().clone();
    assert_eq!(hits.len(), 1);
    assert_eq!(
        (hits.as_slice()[0].entity, hits.as_slice()[0].distance),
        (wall, 90.0)
    );
    // The caster follows its entity: moved (and turned to face -y), it sees nothing.
    app.world_mut()
        .get_mut::<Transform>(caster)
        .unwrap()
        .translation
        .x = 30.0;
    app.update();
    assert_eq!(
        app.world().get::<RayHits>(caster).unwrap().as_slice()[0].distance,
        60.0
    );
    app.world_mut()
        .get_mut::<Transform>(caster)
        .unwrap()
        .rotation = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
    app.update();
    assert!(app.world().get::<RayHits>(caster).unwrap().is_empty());
    // Not ignoring itself: a solid ray from inside its own box hits it at once.
    app.world_mut()
        .get_mut::<RayCaster>(caster)
        .unwrap()
        .ignore_self = false;
    app.update();
    let own = app.world().get::<RayHits>(caster).unwrap().as_slice()[0];
    assert_eq!((own.entity, own.distance), (caster, 0.0));
}

#[test]
fn shape_caster_writes_hits_every_step_and_ignores_itself() {
    let mut app = app();
    floor(&mut app); // top at y = 0
    let player = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 20.0),
            Mighty,
            ShapeCaster::new(
                ConvexCollider::rectangle(10.0, 2.0),
                Vec2::new(0.0, -9.0),
                Dir2::NEG_Y,
            )
            .with_max_distance(20.0)
            .with_max_hits(4),
            Transform::from_xyz(0.0, 30.0, 0.0), // feet at y = 20
        ),
    );
    app.update();
    let hits = app.world().get::<ShapeHits>(player).unwrap().clone();
    assert_eq!(hits.len(), 1, "{hits:?}"); // the floor, not the player's own box
    assert_eq!(hits.as_slice()[0].distance, 20.0); // the probe's bottom from y = 20 to the floor
    assert_eq!(hits.as_slice()[0].normal, Vec2::Y);
    app.world_mut()
        .get_mut::<Transform>(player)
        .unwrap()
        .translation
        .y = 50.0;
    app.update();
    assert!(app.world().get::<ShapeHits>(player).unwrap().is_empty());
}
