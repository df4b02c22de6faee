//! `TileGrid` as a game uses it: one-way cells, edits under a resting body, the grid's entity
//! named in flags, `Contacts` and events, which cell was hit, and bad input.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

const CELL: f32 = 16.0;

/// A 40 × 20 grid of 16-unit cells at (-320, -32): rows 0 and 1 solid (the floor, its top at
/// world y = 0) and row 5 one-way from x = 10 to 29 (its top at world y = 64).
fn level(app: &mut App) -> Entity {
    let mut grid = TileGrid::new(UVec2::new(40, 20), Vec2::splat(CELL));
    for x in 0..40 {
        grid.set(UVec2::new(x, 0), Tile::Solid);
        grid.set(UVec2::new(x, 1), Tile::Solid);
    }
    for x in 10..30 {
        grid.set(UVec2::new(x, 5), Tile::OneWay);
    }
    spawn(app, (grid, Transform::from_xyz(-320.0, -32.0, 0.0)))
}

/// Within round-off of pushes (1e-3).
fn assert_near(at: Vec2, expected: Vec2) {
    assert!(
        (at - expected).abs().max_element() < 1e-3,
        "at {at}, expected {expected}"
    );
}

fn grid_mut(app: &mut App, grid: Entity) -> Mut<'_, TileGrid> {
    app.world_mut().get_mut::<TileGrid>(grid).unwrap()
}

fn pieces_of(app: &App, grid: Entity) -> Vec<TilePiece> {
    app.world()
        .get::<TilePieces>(grid)
        .map(|pieces| pieces.iter().collect())
        .unwrap_or_default()
}

fn chunk_builds(app: &App, grid: Entity) -> u64 {
    app.world().get::<TilePieces>(grid).unwrap().chunk_builds()
}

#[test]
fn a_body_lands_on_the_grid_and_stands_on_the_grid_entity() {
    let mut app = app_with_gravity(-900.0);
    let grid = level(&mut app);
    let body = weak(
        &mut app,
        ConvexCollider::rectangle(12.0, 12.0),
        -200.0,
        40.0,
    );
    run(&mut app, 60);
    assert_eq!(position(&app, body), Vec2::new(-200.0, 6.0));
    let f = flags(&app, body);
    assert!(f.on_floor());
    assert_eq!(f.standing_on(), Some(grid));
    let contacts = app.world().resource::<Contacts>();
    let (other, contact) = contacts.touching(body).next().unwrap();
    assert_eq!(other, grid);
    assert_eq!(contacts.get(body, grid).unwrap().normal, Vec2::NEG_Y);
    // Which cell: the contact point in the grid's frame, nudged into the grid along the normal.
    let local = contact.points()[0] - Vec2::new(-320.0, -32.0) + contact.normal * 0.01;
    let cell = app.world().get::<TileGrid>(grid).unwrap().cell_at(local);
    assert_eq!(cell, Some(UVec2::new(7, 1)));
}

#[test]
fn walking_over_many_pieces_starts_one_collision_and_ends_none() {
    let mut app = app_with_gravity(-900.0);
    log_messages(&mut app);
    let grid = level(&mut app);
    // Cut the floor into many pieces: a hole every 4 cells in row 0 splits row 1 there.
    for x in (0..40).step_by(4) {
        grid_mut(&mut app, grid).set(UVec2::new(x, 0), Tile::Empty);
    }
    let body = moving(
        &mut app,
        ConvexCollider::rectangle(12.0, 12.0),
        -300.0,
        6.0,
        Vec2::new(300.0, 0.0),
    );
    run(&mut app, 110);
    assert!(pieces_of(&app, grid).len() > 10);
    let log = app.world().resource::<Log>();
    let with_grid = |pairs: &Vec<(Entity, Entity)>| {
        pairs
            .iter()
            .filter(|&&(a, b)| (a, b) == (grid.min(body), grid.max(body)))
            .count()
    };
    assert_eq!(with_grid(&log.started), 1);
    assert_eq!(with_grid(&log.ended), 0);
    let colliding = app
        .world_mut()
        .entity_mut(body)
        .insert(CollidingEntities::default())
        .id();
    app.update();
    let list: Vec<Entity> = app
        .world()
        .get::<CollidingEntities>(colliding)
        .unwrap()
        .iter()
        .collect();
    assert_eq!(list, vec![grid]);
}

#[test]
fn one_way_cells_pass_from_below_hold_from_above_and_let_a_drop_through() {
    let mut app = app_with_gravity(-900.0);
    let grid = level(&mut app);
    // Jumping up through the one-way row (bottom at y = 48, top at 64) from the floor.
    let body = moving(
        &mut app,
        ConvexCollider::rectangle(12.0, 12.0),
        0.0,
        6.0,
        Vec2::new(0.0, 500.0),
    );
    let mut highest = 0.0f32;
    for _ in 0..80 {
        app.update();
        highest = highest.max(position(&app, body).y);
    }
    assert!(highest > 64.0 + 6.0, "went up through the row: {highest}");
    assert_near(position(&app, body), Vec2::new(0.0, 70.0)); // landed on its top
    let f = flags(&app, body);
    assert!(f.on_floor());
    assert_eq!(f.standing_on(), Some(grid));
    // Drop through it, down to the floor.
    app.world_mut().entity_mut(body).insert(DropThrough);
    run(&mut app, 60);
    assert_near(position(&app, body), Vec2::new(0.0, 6.0));
    assert!(
        app.world().get::<DropThrough>(body).is_none(),
        "removed once clear"
    );
}

#[test]
fn a_body_standing_on_a_cell_set_empty_falls_through_the_hole() {
    let mut app = app_with_gravity(-900.0);
    let grid = level(&mut app);
    // A 12 × 12 box on cell (7, 1) (world x from -208 to -192); the cells below go too.
    let body = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), -200.0, 6.0);
    run(&mut app, 5);
    assert_eq!(position(&app, body), Vec2::new(-200.0, 6.0));
    grid_mut(&mut app, grid).set(UVec2::new(7, 1), Tile::Empty);
    grid_mut(&mut app, grid).set(UVec2::new(7, 0), Tile::Empty);
    run(&mut app, 30);
    assert!(
        position(&app, body).y < -40.0,
        "fell: {}",
        position(&app, body)
    );
    assert_eq!(
        position(&app, body).x,
        -200.0,
        "straight down, not pushed aside"
    );
}

#[test]
fn a_cell_set_solid_around_a_body_pushes_it_out_the_short_way() {
    let mut app = app_with_gravity(-900.0);
    let grid = level(&mut app);
    // A 10 × 10 box on the floor inside cell (7, 2) (world x -208 to -192, y 0 to 16), 3 from
    // its left side: the left is the short way out.
    let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), -203.0, 5.0);
    run(&mut app, 5);
    grid_mut(&mut app, grid).set(UVec2::new(7, 2), Tile::Solid);
    app.update();
    assert_near(position(&app, body), Vec2::new(-213.0, 5.0));
    assert!(flags(&app, body).on_wall_right());
}

#[test]
fn an_edit_rebuilds_only_the_pieces_of_its_chunk() {
    let mut app = app();
    let mut grid = TileGrid::new(UVec2::new(64, 4), Vec2::splat(CELL));
    for x in 0..64 {
        grid.set(UVec2::new(x, 0), Tile::Solid);
    }
    let grid = spawn(&mut app, (grid, Transform::default()));
    app.update();
    // One piece per chunk of 16 cells, each chunk built once.
    let before = pieces_of(&app, grid);
    assert_eq!(before.len(), 4);
    assert_eq!(chunk_builds(&app, grid), 4);
    grid_mut(&mut app, grid).set(UVec2::new(40, 2), Tile::Solid); // in chunk 2, away from its edges
    app.update();
    let after = pieces_of(&app, grid);
    assert_eq!(chunk_builds(&app, grid), 4 + 1, "chunk 2 alone built again");
    let kept: Vec<_> = before.iter().filter(|p| after.contains(p)).collect();
    assert_eq!(
        kept.len(),
        4,
        "the new cell does not touch the floor's piece"
    );
    assert_eq!(after.len(), 4 + 1);
    assert!(after.contains(&before[2]));
    let lone = after.iter().find(|p| !before.contains(p)).unwrap();
    assert_eq!(lone.cells(), (UVec2::new(40, 2), UVec2::new(40, 2)));
    assert!(!lone.is_one_way());
    // A step without an edit builds nothing.
    app.update();
    assert_eq!(chunk_builds(&app, grid), 5);
}

#[test]
fn removing_the_grid_removes_its_pieces() {
    let mut app = app();
    let grid = level(&mut app);
    app.update();
    assert!(!pieces_of(&app, grid).is_empty());
    app.world_mut().entity_mut(grid).remove::<TileGrid>();
    app.update();
    assert!(app.world().get::<TilePieces>(grid).is_none());
    let other = level(&mut app);
    app.update();
    assert!(!pieces_of(&app, other).is_empty());
    app.world_mut().despawn(other);
    app.update();
    let mut query = app.world_mut().query::<&TilePieces>();
    assert_eq!(query.iter(app.world()).count(), 0);
}

#[test]
fn bad_input_gives_an_error_or_an_empty_grid_never_a_panic() {
    let size = UVec2::new(10, 10);
    for cell in [
        Vec2::ZERO,
        Vec2::new(16.0, 0.0),
        Vec2::new(-1.0, 16.0),
        Vec2::new(f32::NAN, 16.0),
        Vec2::new(16.0, f32::INFINITY),
    ] {
        assert!(matches!(
            TileGrid::try_new(size, cell),
            Err(TileGridError::CellSize(_))
        ));
        let inert = TileGrid::new(size, cell);
        assert_eq!(inert.size(), UVec2::ZERO);
    }
    let huge = UVec2::new(1 << 20, 1 << 20);
    assert_eq!(
        TileGrid::try_new(huge, Vec2::ONE).unwrap_err(),
        TileGridError::TooLarge(huge)
    );
    let overflowing = UVec2::new(100, 100);
    assert_eq!(
        TileGrid::try_new(overflowing, Vec2::splat(f32::MAX)).unwrap_err(),
        TileGridError::TooLarge(overflowing)
    );
    let mut grid = TileGrid::new(size, Vec2::splat(CELL));
    let outside = UVec2::new(10, 3);
    assert_eq!(
        grid.try_set(outside, Tile::Solid),
        Err(TileGridError::OutOfGrid {
            cell: outside,
            size
        })
    );
    grid.set(outside, Tile::Solid); // a warning, nothing else
    grid.set(UVec2::new(u32::MAX, u32::MAX), Tile::Solid);
    assert_eq!(grid.get(outside), Tile::Empty);
    assert_eq!(grid.cell_at(Vec2::new(-0.5, 3.0)), None);
    assert_eq!(grid.cell_at(Vec2::new(160.0, 3.0)), None);
    assert_eq!(grid.cell_at(Vec2::NAN), None);
    assert_eq!(grid.cell_at(Vec2::new(159.9, 0.0)), Some(UVec2::new(9, 0)));
    // An empty grid in an app: no pieces, no panic.
    let mut app = app_with_gravity(-900.0);
    spawn(
        &mut app,
        (TileGrid::new(size, Vec2::ZERO), Transform::default()),
    );
    run(&mut app, 3);
    let mut query = app.world_mut().query::<&TilePieces>();
    assert!(query.iter(app.world()).all(TilePieces::is_empty));
}
