//! The bevy_ecs_tilemap adapter: a tilemap layer with a [`TilemapCollision`] rule gets a
//! [`TileGrid`] on its own entity, lined up with its drawn tiles and kept in sync with them.

use std::fmt;
use std::sync::Arc;

use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::{
    TileStorage, TileTextureIndex, TilemapAnchor, TilemapGridSize, TilemapId, TilemapSize,
    TilemapTileSize, TilemapType,
};
use bevy_ecs_tilemap::tiles::TilePos;

use super::grid::{Tile, TileGrid};

/// Makes a bevy_ecs_tilemap layer collide: which [`Tile`] each tile is, from its
/// [`TileTextureIndex`].
///
/// Insert it on a layer's entity (the one holding its [`TileStorage`], [`TilemapSize`],
/// [`TilemapGridSize`], [`TilemapTileSize`] and `Transform`) and the plugin gives that entity
/// a [`TileGrid`] of the same size, one cell per tile, cell size [`TilemapGridSize`], placed
/// so that each cell covers its drawn tile exactly (for square maps, with any
/// [`TilemapAnchor`]; tiles whose [`TilemapTileSize`] differs from the grid size are drawn
/// larger or smaller than their cell). A cell with no tile entity, or whose tile has no
/// texture index, is [`Tile::Empty`].
///
/// The grid follows the layer at each step: tiles added to or removed from the
/// [`TileStorage`], tile entities despawned, and texture indices changed, each setting only
/// its own cell. Changing the rule, the map's size, grid size, tile size, anchor or type
/// builds the whole grid again; removing this component removes the grid. Other map types
/// (hexagonal, isometric) are refused with one warning and collide with nothing. Contact
/// flags and events name the layer's entity; [`TileGrid::cell_at`] with a point in the
/// layer's local frame gives the same cell as the tile's [`TilePos`].
///
/// ```
/// use bevy::prelude::*;
/// use bevy_ecs_tilemap::prelude::*;
/// use bevy_sat::prelude::*;
///
/// /// Texture 0 is sky, 1 to 3 are ground, 4 is a jump-through plank.
/// fn tile_of(index: &TileTextureIndex) -> Tile {
///     match index.0 {
///         1..=3 => Tile::Solid,
///         4 => Tile::OneWay,
///         _ => Tile::Empty,
///     }
/// }
///
/// fn spawn_layer(mut commands: Commands) {
///     let size = TilemapSize { x: 32, y: 16 };
///     let layer = commands.spawn_empty().id();
///     let mut storage = TileStorage::empty(size);
///     for x in 0..size.x {
///         let position = TilePos { x, y: 0 };
///         let tile = commands
///             .spawn(TileBundle {
///                 position,
///                 texture_index: TileTextureIndex(1),
///                 tilemap_id: TilemapId(layer),
///                 ..default()
///             })
///             .id();
///         storage.set(&position, tile);
///     }
///     commands.entity(layer).insert((
///         storage,
///         size,
///         TilemapGridSize { x: 16.0, y: 16.0 },
///         TilemapTileSize { x: 16.0, y: 16.0 },
///         Transform::from_xyz(-256.0, -100.0, 0.0),
///         // With the rest of a `TilemapBundle` (texture, ...) to draw it.
///         TilemapCollision::new(tile_of),
///     ));
/// }
/// # let mut app = App::new();
/// # app.add_plugins((MinimalPlugins, SatPlugin::default())).add_systems(Startup, spawn_layer);
/// # app.update();
/// ```
#[derive(Component, Clone)]
pub struct TilemapCollision {
    rule: Arc<dyn Fn(&TileTextureIndex) -> Tile + Send + Sync>,
}

impl TilemapCollision {
    /// Tiles collide as `rule` says of their texture index: a function or closure such as
    /// `|index| if index.0 < 8 { Tile::Solid } else { Tile::Empty }`.
    pub fn new(rule: impl Fn(&TileTextureIndex) -> Tile + Send + Sync + 'static) -> Self {
        Self {
            rule: Arc::new(rule),
        }
    }

    /// The [`Tile`] a tile with texture `index` collides as.
    pub fn tile(&self, index: &TileTextureIndex) -> Tile {
        (self.rule)(index)
    }
}

impl fmt::Debug for TilemapCollision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TilemapCollision { .. }")
    }
}

/// How a layer's cells lie: its size in cells, cell size and where cell (0, 0)'s corner is.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Layout {
    size: UVec2,
    cell: Vec2,
    origin: Vec2,
}

/// Per layer: the layout its grid was built for and the tile entity seen in each cell (row by
/// row from the bottom, like [`TileStorage`]), to find the cells whose tile changed.
#[derive(Component, Debug)]
pub(crate) struct TilemapCells {
    layout: Option<Layout>,
    seen: Vec<Option<Entity>>,
}

/// The layers the adapter looks after.
type Layers<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Ref<'static, TilemapCollision>,
        Ref<'static, TileStorage>,
        &'static TilemapSize,
        &'static TilemapGridSize,
        &'static TilemapTileSize,
        Option<&'static TilemapType>,
        Option<&'static TilemapAnchor>,
        Option<&'static mut TilemapCells>,
        Option<&'static mut TileGrid>,
    ),
>;

/// The tiles whose texture index was set since the last step (new tiles included).
type ChangedTiles<'w, 's> =
    Query<'w, 's, (Entity, &'static TilePos, &'static TilemapId), Changed<TileTextureIndex>>;

/// Brings every layer's [`TileGrid`] in line with its tiles: the whole grid for new layers and
/// changed layouts or rules, otherwise cell by cell for the tiles that changed. Runs before
/// the grids' pieces are built, so a tile change takes effect at the next step.
pub(crate) fn sync_tilemap_layers(
    mut layers: Layers,
    indices: Query<&TileTextureIndex>,
    changed: ChangedTiles,
    mut removed: RemovedComponents<TileTextureIndex>,
    mut dropped: RemovedComponents<TilemapCollision>,
    mut commands: Commands,
    mut scratch: Local<(Vec<Entity>, HashSet<Entity>)>,
) {
    for layer in dropped.read() {
        if let Ok(mut entity) = commands.get_entity(layer)
            && !layers.contains(layer)
        {
            entity.try_remove::<(TileGrid, TilemapCells)>();
        }
    }
    let (rebuilt, gone) = &mut *scratch;
    rebuilt.clear();
    gone.clear();
    gone.extend(removed.read());
    for (entity, collision, storage, map_size, grid_size, tile_size, kind, anchor, cells, grid) in
        &mut layers
    {
        let layout = layout_of(&storage, map_size, grid_size, tile_size, kind, anchor);
        let stale = match (&cells, &grid) {
            (None, _) => true,
            (Some(cells), grid) => {
                cells.layout != layout.as_ref().ok().copied()
                    || collision.is_changed()
                    || (grid.is_none() && cells.layout.is_some())
            }
        };
        if stale {
            rebuilt.push(entity);
            rebuild(
                &mut commands,
                entity,
                &collision,
                &storage,
                layout,
                &indices,
            );
            continue;
        }
        let (Some(mut cells), Some(mut grid)) = (cells, grid) else {
            continue; // a layer refused once, and not changed since
        };
        let size = storage.size.x as usize;
        // Tiles put in, taken out of or moved within the storage.
        if storage.is_changed() {
            for (i, (now, seen)) in storage.iter().zip(cells.seen.iter_mut()).enumerate() {
                if now != seen {
                    *seen = *now;
                    let tile = now
                        .and_then(|tile| indices.get(tile).ok())
                        .map_or(Tile::Empty, |index| collision.tile(index));
                    set(&mut grid, cell_of(i, size), tile);
                }
            }
        }
        // Tiles despawned (or stripped of their index) while still in the storage.
        if !gone.is_empty() {
            for (i, seen) in cells.seen.iter().enumerate() {
                if seen.is_some_and(|tile| gone.contains(&tile)) {
                    set(&mut grid, cell_of(i, size), Tile::Empty);
                }
            }
        }
    }
    for (tile, position, layer) in &changed {
        if rebuilt.contains(&layer.0) {
            continue; // read whole just now
        }
        let Ok((_, collision, storage, .., Some(mut grid))) = layers.get_mut(layer.0) else {
            continue;
        };
        // Only the tile the storage holds at its position counts.
        if storage.checked_get(position) == Some(tile)
            && let Ok(index) = indices.get(tile)
        {
            set(&mut grid, UVec2::from(position), collision.tile(index));
        }
    }
}

/// Sets `cell` of `grid` to `tile`, marking the grid changed only when the cell changes.
fn set(grid: &mut Mut<TileGrid>, cell: UVec2, tile: Tile) {
    if grid.get(cell) != tile {
        grid.set(cell, tile);
    }
}

/// Cell `i` of a grid `width` cells wide, counted row by row from the bottom.
fn cell_of(i: usize, width: usize) -> UVec2 {
    // Both are below the storage's size, which is a pair of `u32`s.
    UVec2::new((i % width) as u32, (i / width) as u32)
}

/// Builds `entity`'s grid and cell record anew from its storage, or, for a layout that cannot
/// be a grid, warns once and leaves the layer without one.
fn rebuild(
    commands: &mut Commands,
    entity: Entity,
    collision: &TilemapCollision,
    storage: &TileStorage,
    layout: Result<Layout, String>,
    indices: &Query<&TileTextureIndex>,
) {
    let made = layout.and_then(|layout| {
        TileGrid::try_new(layout.size, layout.cell)
            .map(|grid| (layout, grid))
            .map_err(|error| error.to_string())
    });
    let (layout, mut grid) = match made {
        Ok(made) => made,
        Err(problem) => {
            warn!("the bevy_ecs_tilemap layer {entity} collides with nothing: {problem}");
            let cells = TilemapCells {
                layout: None,
                seen: Vec::new(),
            };
            commands
                .entity(entity)
                .try_remove::<TileGrid>()
                .try_insert(cells);
            return;
        }
    };
    grid.set_origin(layout.origin);
    let seen: Vec<Option<Entity>> = storage.iter().copied().collect();
    let size = storage.size.x as usize;
    for (i, tile) in seen.iter().enumerate() {
        if let Some(index) = tile.and_then(|tile| indices.get(tile).ok()) {
            grid.set(cell_of(i, size), collision.tile(index));
        }
    }
    let cells = TilemapCells {
        layout: Some(layout),
        seen,
    };
    commands.entity(entity).try_insert((grid, cells));
}

/// Where a layer's cells lie, or why they cannot be a [`TileGrid`].
fn layout_of(
    storage: &TileStorage,
    map_size: &TilemapSize,
    grid_size: &TilemapGridSize,
    tile_size: &TilemapTileSize,
    kind: Option<&TilemapType>,
    anchor: Option<&TilemapAnchor>,
) -> Result<Layout, String> {
    let kind = kind.copied().unwrap_or_default();
    if kind != TilemapType::Square {
        return Err(format!("only square maps collide, not {kind:?}"));
    }
    let size = UVec2::from(storage.size);
    let cell = Vec2::from(grid_size);
    // The anchor's offset needs a map of at least one tile (it counts from the last tile).
    let offset = if map_size.x == 0 || map_size.y == 0 {
        Vec2::ZERO
    } else {
        let anchor = anchor.copied().unwrap_or_default();
        anchor.as_offset(map_size, grid_size, tile_size, &kind)
    };
    // Tile (0, 0) is drawn centred on the offset; its cell's corner is half a cell below-left.
    let origin = offset - cell * 0.5;
    if !origin.is_finite() {
        return Err(format!(
            "its anchor, grid size {cell} and tile size {} place it nowhere",
            Vec2::from(tile_size)
        ));
    }
    Ok(Layout { size, cell, origin })
}
