//! Tile maps: [`TileGrid`], a grid of [`Tile`]s that collides as Mighty scenery.
//!
//! The grid's cells are merged into few rectangular pieces ([`merge`]), one batch per chunk of
//! cells, kept in the grid's [`TilePieces`] ([`store`]); [`sync`] keeps them in step with the
//! grid: an edit rebuilds only the chunks around the cell. No piece is an entity: each step,
//! [`nearby`] makes step bodies of the pieces near the bodies that can collide with them, named
//! by the grid's entity. With the `bevy_ecs_tilemap` feature, [`ecs_tilemap`] turns
//! bevy_ecs_tilemap layers into grids.

#[cfg(feature = "bevy_ecs_tilemap")]
mod ecs_tilemap;
mod grid;
mod merge;
mod nearby;
mod store;
mod sync;

pub use grid::{Tile, TileGrid, TileGridError};
pub(crate) use nearby::add_nearby_pieces;
pub(crate) use store::TileGridCount;
pub use store::{TilePiece, TilePieces};
pub(crate) use sync::sync_tile_grids;

#[cfg(feature = "bevy_ecs_tilemap")]
pub use ecs_tilemap::TilemapCollision;
#[cfg(feature = "bevy_ecs_tilemap")]
pub(crate) use ecs_tilemap::sync_tilemap_layers;
