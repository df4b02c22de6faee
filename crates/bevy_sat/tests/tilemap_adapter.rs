//! The bevy_ecs_tilemap adapter: a layer with `TilemapCollision` becomes a `TileGrid` lined up
//! with its drawn tiles, and follows tiles added, removed and retextured at run time. The
//! layers are bevy_ecs_tilemap's own components, spawned without its render plugin.
#![cfg(feature = "bevy_ecs_tilemap")]

mod common;

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// Texture 1 is ground, 2 a jump-through plank, anything else decoration.
fn rule(index: &TileTextureIndex) -> Tile {
    match index.0 {
        1 => Tile::Solid,
        2 => Tile::OneWay,
        _ => Tile::Empty,
    }
}

/// A layer of `size` tiles of 16 × 16 units (grid and tile size), placed by `transform` and
/// `anchor`, holding tiles `(x, y, texture)`. Returns the layer's entity.
fn layer(
    app: &mut App,
    size: UVec2,
    transform: Transform,
    anchor: TilemapAnchor,
    tiles: &[(u32, u32, u32)],
) -> Entity {
    let world = app.world_mut();
    let layer = world.spawn_empty().id();
    let size = TilemapSize::from(size);
    let mut storage = TileStorage::empty(size);
    for &(x, y, texture) in tiles {
        let position = TilePos::new(x, y);
        let tile = world
            .spawn(TileBundle {
                position,
                texture_index: TileTextureIndex(texture),
                tilemap_id: TilemapId(layer),
                ..default()
            })
            .id();
        storage.set(&position, tile);
    }
    world.entity_mut(layer).insert((
        storage,
        size,
        TilemapGridSize::new(16.0, 16.0),
        TilemapTileSize::new(16.0, 16.0),
        TilemapType::Square,
        anchor,
        transform,
        TilemapCollision::new(rule),
    ));
    layer
}

/// A row of ground tiles from x = 0 to `width - 1` at row `y`.
fn row(width: u32, y: u32, texture: u32) -> Vec<(u32, u32, u32)> {
    (0..width).map(|x| (x, y, texture)).collect()
}

fn grid(app: &App, layer: Entity) -> &TileGrid {
    app.world()
        .get::<TileGrid>(layer)
        .expect("the layer has a grid")
}

fn tile_entity(app: &App, layer: Entity, x: u32, y: u32) -> Entity {
    let storage = app.world().get::<TileStorage>(layer).unwrap();
    storage.get(&TilePos::new(x, y)).expect("a tile there")
}

/// Within round-off of pushes (1e-3).
fn assert_near(at: Vec2, expected: Vec2) {
    assert!(
        (at - expected).abs().max_element() < 1e-3,
        "at {at}, expected {expected}"
    );
}

#[test]
fn a_layer_becomes_the_grid_of_its_tiles_under_the_drawn_tiles() {
    let mut app = app_with_gravity(-900.0);
    let mut tiles = row(10, 0, 1);
    tiles.extend([(3, 3, 2), (4, 3, 2), (5, 3, 2), (8, 2, 7), (9, 1, 1)]);
    let layer = layer(
        &mut app,
        UVec2::new(10, 6),
        Transform::from_xyz(100.0, -50.0, 0.0),
        TilemapAnchor::None,
        &tiles,
    );
    app.update();
    let g = grid(&app, layer);
    assert_eq!(g.size(), UVec2::new(10, 6));
    assert_eq!(g.cell_size(), Vec2::splat(16.0));
    // Tile (0, 0) is drawn centred on the layer's origin: its cell's corner is at (-8, -8).
    assert_eq!(g.origin(), Vec2::new(-8.0, -8.0));
    for y in 0..6 {
        for x in 0..10 {
            let expected = match (x, y) {
                (_, 0) | (9, 1) => Tile::Solid,
                (3..=5, 3) => Tile::OneWay,
                _ => Tile::Empty, // no tile, or tile (8, 2) of a texture that does not collide
            };
            assert_eq!(g.get(UVec2::new(x, y)), expected, "cell ({x}, {y})");
            // The centre of the drawn tile, by bevy_ecs_tilemap, is in the tile's own cell.
            let centre = TilePos::new(x, y).center_in_world(
                &TilemapSize::new(10, 6),
                &TilemapGridSize::new(16.0, 16.0),
                &TilemapTileSize::new(16.0, 16.0),
                &TilemapType::Square,
                &TilemapAnchor::None,
            );
            assert_eq!(g.cell_at(centre), Some(UVec2::new(x, y)));
        }
    }
    // Bodies meet the drawn tiles' faces. Tile (2, 0) is drawn over x 124..140, y -58..-42.
    let lander = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), 132.0, 0.0);
    // Tile (9, 1)'s left face is at x = 100 + 144 - 8 = 236; a body walks into it.
    let walker = moving(
        &mut app,
        ConvexCollider::rectangle(12.0, 12.0),
        200.0,
        -36.0,
        Vec2::new(60.0, 0.0),
    );
    run(&mut app, 90);
    assert_near(position(&app, lander), Vec2::new(132.0, -36.0));
    assert_eq!(flags(&app, lander).standing_on(), Some(layer));
    assert_near(position(&app, walker), Vec2::new(230.0, -36.0));
    assert!(flags(&app, walker).on_wall_right() && flags(&app, walker).on_floor());
}

#[test]
fn a_centre_anchored_layer_collides_where_it_is_drawn() {
    let mut app = app_with_gravity(-900.0);
    // 8 × 4 tiles of 16 centred on the origin: drawn over [-64, 64] × [-32, 32].
    let layer = layer(
        &mut app,
        UVec2::new(8, 4),
        Transform::IDENTITY,
        TilemapAnchor::Center,
        &row(8, 0, 1),
    );
    let body = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), 0.0, 20.0);
    run(&mut app, 60);
    assert_eq!(grid(&app, layer).origin(), Vec2::new(-64.0, -32.0));
    // Row 0's top is at -32 + 16.
    assert_near(position(&app, body), Vec2::new(0.0, -10.0));
    assert_eq!(flags(&app, body).standing_on(), Some(layer));
}

#[test]
fn a_tile_removed_at_run_time_opens_a_hole_a_body_falls_through() {
    let mut app = app_with_gravity(-900.0);
    let layer = layer(
        &mut app,
        UVec2::new(10, 4),
        Transform::IDENTITY,
        TilemapAnchor::None,
        &row(10, 0, 1),
    );
    // On tile (5, 0), drawn over x 72..88 with its top at y = 8.
    let body = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), 80.0, 14.0);
    run(&mut app, 5);
    assert_eq!(position(&app, body), Vec2::new(80.0, 14.0));
    // As bevy_ecs_tilemap asks: out of the storage, and despawned.
    let tile = tile_entity(&app, layer, 5, 0);
    let mut storage = app.world_mut().get_mut::<TileStorage>(layer).unwrap();
    storage.remove(&TilePos::new(5, 0));
    app.world_mut().despawn(tile);
    app.update();
    assert_eq!(grid(&app, layer).get(UVec2::new(5, 0)), Tile::Empty);
    assert_eq!(grid(&app, layer).get(UVec2::new(4, 0)), Tile::Solid);
    run(&mut app, 30);
    let at = position(&app, body);
    assert!(at.y < -8.0 - 6.0, "fell through: {at}");
    assert_eq!(at.x, 80.0, "straight down");
}

#[test]
fn a_tile_despawned_but_left_in_the_storage_opens_a_hole_too() {
    let mut app = app_with_gravity(-900.0);
    let layer = layer(
        &mut app,
        UVec2::new(10, 4),
        Transform::IDENTITY,
        TilemapAnchor::None,
        &row(10, 0, 1),
    );
    let body = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), 80.0, 14.0);
    run(&mut app, 5);
    let tile = tile_entity(&app, layer, 5, 0);
    app.world_mut().despawn(tile);
    run(&mut app, 30);
    assert_eq!(grid(&app, layer).get(UVec2::new(5, 0)), Tile::Empty);
    assert!(position(&app, body).y < -14.0, "fell through");
}

#[test]
fn a_tile_added_at_run_time_catches_a_falling_body() {
    let mut app = app_with_gravity(-900.0);
    let mut tiles = row(10, 0, 1);
    tiles.remove(5);
    let layer = layer(
        &mut app,
        UVec2::new(10, 4),
        Transform::IDENTITY,
        TilemapAnchor::None,
        &tiles,
    );
    let body = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), 80.0, 60.0);
    app.update();
    assert_eq!(grid(&app, layer).get(UVec2::new(5, 0)), Tile::Empty);
    let position_5 = TilePos::new(5, 0);
    let tile = app
        .world_mut()
        .spawn(TileBundle {
            position: position_5,
            texture_index: TileTextureIndex(1),
            tilemap_id: TilemapId(layer),
            ..default()
        })
        .id();
    let mut storage = app.world_mut().get_mut::<TileStorage>(layer).unwrap();
    storage.set(&position_5, tile);
    run(&mut app, 60);
    assert_eq!(grid(&app, layer).get(UVec2::new(5, 0)), Tile::Solid);
    assert_near(position(&app, body), Vec2::new(80.0, 14.0));
    assert!(flags(&app, body).on_floor());
}

#[test]
fn a_tile_whose_texture_becomes_one_way_becomes_one_way() {
    let mut app = app_with_gravity(-900.0);
    // 40 tiles wide (three chunks of cells); a solid ledge at row 4 over tiles 3..=7, drawn
    // over y 56..72.
    let mut tiles = row(40, 0, 1);
    tiles.extend((3..8).map(|x| (x, 4, 1)));
    tiles.push((36, 1, 1));
    let layer = layer(
        &mut app,
        UVec2::new(40, 8),
        Transform::IDENTITY,
        TilemapAnchor::None,
        &tiles,
    );
    let body = weak(&mut app, ConvexCollider::rectangle(12.0, 12.0), 80.0, 14.0);
    run(&mut app, 5);
    assert_eq!(grid(&app, layer).get(UVec2::new(5, 4)), Tile::Solid);
    let far_pieces = pieces_beyond(&mut app, 32);
    assert!(!far_pieces.is_empty());
    let builds = chunk_builds(&app, layer);
    for x in 3..8 {
        let tile = tile_entity(&app, layer, x, 4);
        app.world_mut().get_mut::<TileTextureIndex>(tile).unwrap().0 = 2;
    }
    app.update();
    for x in 3..8 {
        assert_eq!(grid(&app, layer).get(UVec2::new(x, 4)), Tile::OneWay);
    }
    // Only the pieces of the edited chunk were built again.
    assert_eq!(pieces_beyond(&mut app, 32), far_pieces);
    assert_eq!(chunk_builds(&app, layer), builds + 1);
    // Up through the ledge from below, and down onto its top.
    app.world_mut().get_mut::<Velocity>(body).unwrap().0 = Vec2::new(0.0, 500.0);
    let mut highest = 0.0f32;
    for _ in 0..80 {
        app.update();
        highest = highest.max(position(&app, body).y);
    }
    assert!(highest > 72.0 + 6.0, "went up through the ledge: {highest}");
    assert_near(position(&app, body), Vec2::new(80.0, 78.0));
    assert_eq!(flags(&app, body).standing_on(), Some(layer));
}

/// The pieces of every grid covering cells from column `x` on, in their grid's order.
fn pieces_beyond(app: &mut App, x: u32) -> Vec<TilePiece> {
    let mut query = app.world_mut().query::<&TilePieces>();
    query
        .iter(app.world())
        .flat_map(|pieces| pieces.iter())
        .filter(|piece| piece.cells().0.x >= x)
        .collect()
}

/// How many chunk builds the layer's grid has had.
fn chunk_builds(app: &App, layer: Entity) -> u64 {
    app.world()
        .get::<TilePieces>(layer)
        .expect("the layer's grid has pieces")
        .chunk_builds()
}

#[test]
fn removing_the_rule_removes_the_grid_and_its_pieces() {
    let mut app = app();
    let layer = layer(
        &mut app,
        UVec2::new(10, 4),
        Transform::IDENTITY,
        TilemapAnchor::None,
        &row(10, 0, 1),
    );
    app.update();
    assert!(!pieces_beyond(&mut app, 0).is_empty());
    app.world_mut()
        .entity_mut(layer)
        .remove::<TilemapCollision>();
    run(&mut app, 2);
    assert!(app.world().get::<TileGrid>(layer).is_none());
    assert!(pieces_beyond(&mut app, 0).is_empty());
}

#[test]
fn a_hexagonal_layer_is_refused_without_a_panic() {
    let mut app = app();
    let layer = layer(
        &mut app,
        UVec2::new(10, 4),
        Transform::IDENTITY,
        TilemapAnchor::None,
        &row(10, 0, 1),
    );
    app.world_mut()
        .entity_mut(layer)
        .insert(TilemapType::Hexagon(HexCoordSystem::Row));
    run(&mut app, 3);
    assert!(app.world().get::<TileGrid>(layer).is_none());
    // Back to square: it collides.
    app.world_mut()
        .entity_mut(layer)
        .insert(TilemapType::Square);
    app.update();
    assert_eq!(grid(&app, layer).get(UVec2::new(3, 0)), Tile::Solid);
}
