//! Tile maps: [`TileGrid`], a grid of [`Tile`]s that collides as Mighty scenery.
//!
//! The grid's cells are merged into few rectangular pieces ([`merge`]), one batch per chunk of
//! cells, each piece a Mighty collider entity of its own ([`TilePiece`]) that the step treats
//! like any other, but names by the grid's entity. [`sync`] keeps the pieces in step with the
//! grid: an edit rebuilds only the chunks around the cell. With the `bevy_ecs_tilemap` feature,
//! [`ecs_tilemap`] turns bevy_ecs_tilemap layers into grids.

#[cfg(feature = "bevy_ecs_tilemap")]
mod ecs_tilemap;
mod grid;
mod merge;
mod sync;

pub use grid::{Tile, TileGrid, TileGridError};
pub use sync::TilePiece;
pub(crate) use sync::sync_tile_grids;

#[cfg(feature = "bevy_ecs_tilemap")]
pub use ecs_tilemap::TilemapCollision;
#[cfg(feature = "bevy_ecs_tilemap")]
pub(crate) use ecs_tilemap::sync_tilemap_layers;
