//! `SpatialQuery` sees a `TileGrid`'s pieces, which are no entities: rays, shape casts, point,
//! area and nearest-point queries name the grid's entity once, with exact distances, and the
//! hit's cell comes from `TileGrid::touched_cell`. Also: a step makes colliders of the pieces
//! near bodies only, and a huge grid far from every body changes nothing.

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const CELL: f32 = 16.0;
/// Where the grid's entity is: cell (0, 0)'s bottom-left corner.
const ORIGIN: Vec3 = Vec3::new(-320.0, -32.0, 0.0);

fn query<T: Send + 'static>(
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

/// A 40 × 20 grid of 16-unit cells at (-320, -32): rows 0 and 1 solid (world y -32 to 0, x
/// -320 to 320) and row 5 one-way from x = 10 to 29 (world x -160 to 160, y 48 to 64).
fn level(app: &mut App) -> Entity {
    let mut grid = TileGrid::new(UVec2::new(40, 20), Vec2::splat(CELL));
    for x in 0..40 {
        grid.set(UVec2::new(x, 0), Tile::Solid);
        grid.set(UVec2::new(x, 1), Tile::Solid);
    }
    for x in 10..30 {
        grid.set(UVec2::new(x, 5), Tile::OneWay);
    }
    let grid = spawn(app, (grid, Transform::from_translation(ORIGIN)));
    app.update();
    grid
}

fn cell_of_hit(app: &App, grid: Entity, point: Vec2, outward: Vec2) -> Option<UVec2> {
    let transform = Transform::from_translation(ORIGIN);
    let tiles = app.world().get::<TileGrid>(grid).unwrap();
    tiles.touched_cell(&transform, point, -outward)
}

#[test]
fn a_ray_hits_the_grid_once_at_its_nearest_piece() {
    let mut app = app();
    let grid = level(&mut app);
    // Down onto the one-way row's top (y = 64), over the floor (y = 0).
    let hit = query(&mut app, |q| {
        q.cast_ray(Vec2::new(3.0, 100.0), Dir2::NEG_Y, 500.0, true, &all())
    })
    .unwrap();
    assert_eq!(hit.entity, grid);
    assert_eq!(
        (hit.distance, hit.normal, hit.point),
        (36.0, Vec2::Y, Vec2::new(3.0, 64.0))
    );
    assert_eq!(
        cell_of_hit(&app, grid, hit.point, hit.normal),
        Some(UVec2::new(20, 5))
    );
    // Every hit: the grid once, where the ray first meets it.
    let hits = query(&mut app, |q| {
        q.ray_hits(Vec2::new(3.0, 100.0), Dir2::NEG_Y, 500.0, 10, true, &all())
    });
    assert_eq!(hits, vec![hit]);
    // Beside the row, down to the floor; from the left, into the floor's side.
    let floor = query(&mut app, |q| {
        q.cast_ray(Vec2::new(-300.0, 100.0), Dir2::NEG_Y, 500.0, true, &all())
    })
    .unwrap();
    assert_eq!((floor.entity, floor.distance), (grid, 100.0));
    let side = query(&mut app, |q| {
        q.cast_ray(Vec2::new(-400.0, -20.0), Dir2::X, 500.0, true, &all())
    })
    .unwrap();
    assert_eq!(
        (side.distance, side.normal, side.point),
        (80.0, Vec2::NEG_X, Vec2::new(-320.0, -20.0))
    );
    assert_eq!(
        cell_of_hit(&app, grid, side.point, side.normal),
        Some(UVec2::new(0, 0))
    );
    // Short of it, or with the grid left out: nothing.
    let short = query(&mut app, |q| {
        q.cast_ray(Vec2::new(-400.0, -20.0), Dir2::X, 79.0, true, &all())
    });
    assert_eq!(short, None);
    let without = query(&mut app, move |q| {
        let filter = all().with_excluded_entities([grid]);
        q.cast_ray(Vec2::new(3.0, 100.0), Dir2::NEG_Y, 500.0, true, &filter)
    });
    assert_eq!(without, None);
    // An unbounded ray along the whole floor from inside it (solid: at once; hollow: where it
    // leaves the piece it starts in).
    let inside = query(&mut app, |q| {
        q.cast_ray(Vec2::new(0.0, -8.0), Dir2::X, f32::MAX, true, &all())
    })
    .unwrap();
    assert_eq!((inside.entity, inside.distance), (grid, 0.0));
}

#[test]
fn a_body_in_front_of_the_grid_is_hit_first() {
    let mut app = app();
    let grid = level(&mut app);
    let body = mighty(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 80.0);
    app.update();
    let hits = query(&mut app, |q| {
        q.ray_hits(Vec2::new(0.0, 100.0), Dir2::NEG_Y, 500.0, 10, true, &all())
    });
    let found: Vec<_> = hits.iter().map(|h| (h.entity, h.distance)).collect();
    assert_eq!(found, vec![(body, 15.0), (grid, 36.0)]);
}

#[test]
fn a_shape_cast_stops_on_the_grid_with_its_contact_point() {
    let mut app = app();
    let grid = level(&mut app);
    let shape = ConvexCollider::rectangle(10.0, 10.0);
    let hit = query(&mut app, move |q| {
        q.cast_shape(
            &shape,
            Vec2::new(-300.0, 100.0),
            0.0,
            Dir2::NEG_Y,
            500.0,
            &all(),
        )
    })
    .unwrap();
    assert_eq!(hit.entity, grid);
    assert_eq!((hit.distance, hit.normal), (95.0, Vec2::Y));
    assert_eq!(hit.point.y, 0.0);
    assert!(
        (hit.point.x + 300.0).abs() <= 5.0,
        "under the box: {}",
        hit.point
    );
    let shape = ConvexCollider::rectangle(10.0, 10.0);
    let hits = query(&mut app, move |q| {
        q.shape_hits(
            &shape,
            Vec2::new(0.0, 100.0),
            0.0,
            Dir2::NEG_Y,
            500.0,
            10,
            &all(),
        )
    });
    let found: Vec<_> = hits.iter().map(|h| (h.entity, h.distance)).collect();
    assert_eq!(found, vec![(grid, 31.0)], "the one-way row's top, once");
}

#[test]
fn point_and_area_queries_list_the_grid_once() {
    let mut app = app();
    let grid = level(&mut app);
    let mut at = |x: f32, y: f32| {
        query(&mut app, move |q| {
            q.point_intersections(Vec2::new(x, y), &all())
        })
    };
    assert_eq!(at(0.0, -10.0), vec![grid]);
    assert_eq!(at(0.0, 56.0), vec![grid]);
    assert_eq!(at(0.0, 20.0), Vec::<Entity>::new());
    assert_eq!(at(-400.0, -10.0), Vec::<Entity>::new());
    let boxed = query(&mut app, |q| {
        q.aabb_intersections(Vec2::new(-5.0, -5.0), Vec2::new(200.0, 50.0), &all())
    });
    assert_eq!(boxed, vec![grid]);
    let clear = query(&mut app, |q| {
        q.aabb_intersections(Vec2::new(-5.0, 5.0), Vec2::new(5.0, 40.0), &all())
    });
    assert!(clear.is_empty());
    let circle = ConvexCollider::circle(3.0);
    let shapes = query(&mut app, move |q| {
        q.shape_intersections(&circle, Vec2::new(0.0, 20.0), 0.0, &all())
    });
    assert!(shapes.is_empty());
    let circle = ConvexCollider::circle(3.0);
    let shapes = query(&mut app, move |q| {
        q.shape_intersections(&circle, Vec2::new(0.0, 2.0), 0.0, &all())
    });
    assert_eq!(shapes, vec![grid]);
}

#[test]
fn the_nearest_point_of_the_grid_is_found_near_and_far() {
    let mut app = app();
    let grid = level(&mut app);
    // Between the floor (30 below) and the one-way row (18 above).
    let near = query(&mut app, |q| {
        q.project_point(Vec2::new(0.0, 30.0), true, &all())
    })
    .unwrap();
    assert_eq!(
        (near.entity, near.point, near.is_inside),
        (grid, Vec2::new(0.0, 48.0), false)
    );
    // Far away: the floor's top-right corner.
    let far = query(&mut app, |q| {
        q.project_point(Vec2::new(1000.0, 1000.0), true, &all())
    })
    .unwrap();
    assert_eq!((far.entity, far.point), (grid, Vec2::new(320.0, 0.0)));
    // Inside, solid: the point itself.
    let inside = query(&mut app, |q| {
        q.project_point(Vec2::new(0.0, -8.0), true, &all())
    })
    .unwrap();
    assert_eq!(
        (inside.point, inside.is_inside),
        (Vec2::new(0.0, -8.0), true)
    );
    // A body nearer than the grid wins.
    let body = mighty(&mut app, ConvexCollider::rectangle(4.0, 4.0), 0.0, 36.0);
    app.update();
    let nearest = query(&mut app, |q| {
        q.project_point(Vec2::new(0.0, 30.0), true, &all())
    })
    .unwrap();
    assert_eq!(
        (nearest.entity, nearest.point),
        (body, Vec2::new(0.0, 34.0))
    );
}

#[test]
fn a_huge_grid_far_from_every_body_leaves_the_step_as_it_was() {
    // The same falling body, with and without a 1000 × 1000 grid whose nearest cell is far.
    let fall = |with_grid: bool| {
        let mut app = app_with_gravity(-900.0);
        if with_grid {
            let mut grid = TileGrid::new(UVec2::splat(1000), Vec2::splat(CELL));
            for i in (0..1000).step_by(3) {
                for j in 0..1000 {
                    grid.set(UVec2::new(i, j), Tile::Solid);
                }
            }
            spawn(&mut app, (grid, Transform::from_xyz(10_000.0, 0.0, 0.0)));
        }
        let ground = floor(&mut app);
        let body = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), 0.0, 60.0);
        run(&mut app, 40);
        let flags = flags(&app, body);
        assert_eq!(flags.standing_on(), Some(ground));
        (
            position(&app, body),
            velocity(&app, body),
            flags.on_floor(),
            flags.floor_normal(),
        )
    };
    assert_eq!(fall(true), fall(false));
}

/// Queries skip the tile grids' walk while there are none: a grid spawned after another was
/// despawned is found at once, two grids are counted apart, and a grid whose pieces were
/// taken off is found again once the plugin has put them back.
#[test]
fn grids_that_come_and_go_are_found_while_they_exist() {
    let mut app = app();
    let down = |app: &mut App| {
        query(app, |q| {
            q.cast_ray(Vec2::new(3.0, 100.0), Dir2::NEG_Y, 500.0, true, &all())
                .map(|hit| hit.entity)
        })
    };
    let point = |app: &mut App| query(app, |q| q.point_intersections(Vec2::new(3.0, -8.0), &all()));
    let first = level(&mut app);
    assert_eq!(down(&mut app), Some(first));
    app.world_mut().despawn(first);
    assert_eq!(down(&mut app), None);
    assert!(point(&mut app).is_empty());
    // Two at once; one goes, the other stays found.
    let second = level(&mut app);
    let third = level(&mut app);
    let both = point(&mut app);
    assert_eq!(both.len(), 2, "{both:?}");
    app.world_mut().despawn(second);
    assert_eq!(point(&mut app), vec![third]);
    // The pieces taken off the grid's entity: not found until the plugin has put them back.
    app.world_mut().entity_mut(third).remove::<TilePieces>();
    assert!(point(&mut app).is_empty());
    app.update();
    assert_eq!(point(&mut app), vec![third]);
}
