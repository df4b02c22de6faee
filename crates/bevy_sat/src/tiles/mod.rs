//! Tile maps: [`TileGrid`], a grid of [`Tile`]s that collides as Mighty scenery.
//!
//! The grid's cells are merged into few rectangular pieces ([`merge`]), one batch per chunk of
//! cells, each piece a Mighty collider entity of its own ([`TilePiece`]) that the step treats
//! like any other, but names by the grid's entity. [`sync`] keeps the pieces in step with the
//! grid: an edit rebuilds only the chunks around the cell.

mod grid;
mod merge;
mod sync;

pub use grid::{Tile, TileGrid, TileGridError};
pub use sync::TilePiece;
pub(crate) use sync::sync_tile_grids;
