//! [`TileGrid`] and its cells, [`Tile`]: the data a game edits. Turning it into colliders is
//! [`merge`](super::merge) and [`sync`](super::sync)'s work.

use std::fmt;

use bevy::prelude::*;

use super::sync::on_grid_removed;

/// Cells per side of a chunk: the cells whose pieces an edit rebuilds together.
pub(crate) const CHUNK: u32 = 16;

/// One cell of a [`TileGrid`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Reflect)]
pub enum Tile {
    /// Nothing: bodies pass.
    #[default]
    Empty,
    /// Solid from every side.
    Solid,
    /// Solid from above only, like [`OneWayPlatform::default()`](crate::OneWayPlatform):
    /// bodies jump through it from below and land on it from above, and a Weak body with
    /// [`DropThrough`](crate::DropThrough) falls through it.
    OneWay,
}

/// Why a [`TileGrid`] could not be made or edited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TileGridError {
    /// The cell size is zero, negative or not finite in some direction.
    CellSize(Vec2),
    /// The grid has more cells than [`TileGrid::MAX_CELLS`], its extent (cells times cell size)
    /// is not finite, or its cells could not be allocated.
    TooLarge(UVec2),
    /// The cell is outside the grid.
    OutOfGrid {
        /// The cell asked for.
        cell: UVec2,
        /// The grid's size in cells.
        size: UVec2,
    },
}

impl fmt::Display for TileGridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::CellSize(size) => write!(
                f,
                "the cell size {size} is not positive and finite in both directions"
            ),
            Self::TooLarge(size) => write!(
                f,
                "a grid of {} × {} cells is too large (at most {} cells, with a finite extent)",
                size.x,
                size.y,
                TileGrid::MAX_CELLS
            ),
            Self::OutOfGrid { cell, size } => write!(
                f,
                "cell ({}, {}) is outside the grid of {} × {} cells",
                cell.x, cell.y, size.x, size.y
            ),
        }
    }
}

impl std::error::Error for TileGridError {}

/// A grid of [`Tile`]s that collides as Mighty scenery, placed by its entity's `Transform`.
///
/// Cell `(x, y)` covers `[x·w, (x+1)·w] × [y·h, (y+1)·h]` in the entity's local frame, where
/// `(w, h)` is the cell size: cell (0, 0)'s bottom-left corner is at the entity's origin
/// (grids made from a bevy_ecs_tilemap layer are shifted to line up with its drawn tiles: see
/// [`TileGrid::origin`]).
///
/// The plugin merges the cells into few rectangular pieces (per chunk of 16 × 16 cells), kept
/// in the grid's [`TilePieces`] component, not as entities: each step makes colliders of only
/// the pieces near the bodies that can touch them, so a large grid costs a step no more than
/// the bodies near it ask. Shared faces of pieces are never push axes, so bodies walk and
/// slide over the whole grid without catching on seams. [`ContactFlags::standing_on`],
/// [`Contacts`], the collision events and [`SpatialQuery`] hits name the grid's entity; a body
/// touching several pieces has one contact with the grid per piece in [`Contacts`], and one
/// started and one ended event. Which cell was hit is [`TileGrid::touched_cell`]'s answer for
/// a contact point (or a query's hit point).
///
/// [`TileGrid::set`] takes effect at the next step and rebuilds only the pieces of the chunks
/// around the cell. Moving the grid's `Transform` places it anew (a teleport: it carries
/// nothing); its [`CollisionLayers`](crate::CollisionLayers), if any, apply to every piece.
/// Seams between the grid and other colliders are not hidden: a floor should be one grid.
///
/// Bad input never panics: [`TileGrid::try_new`] and [`TileGrid::try_set`] return a
/// [`TileGridError`], and [`TileGrid::new`] and [`TileGrid::set`] log one warning instead (`new`
/// then gives an empty grid of 0 × 0 cells).
///
/// ```
/// use bevy::prelude::*;
/// use bevy_sat::prelude::*;
///
/// let mut grid = TileGrid::new(UVec2::new(20, 10), Vec2::splat(16.0));
/// for x in 0..20 {
///     grid.set(UVec2::new(x, 0), Tile::Solid);
/// }
/// grid.set(UVec2::new(5, 3), Tile::OneWay);
/// assert_eq!(grid.get(UVec2::new(5, 3)), Tile::OneWay);
/// assert_eq!(grid.cell_at(Vec2::new(90.0, 50.0)), Some(UVec2::new(5, 3)));
/// # let mut world = World::new();
/// world.spawn((grid, Transform::from_xyz(-160.0, -16.0, 0.0)));
/// ```
///
/// [`TilePieces`]: crate::TilePieces
/// [`SpatialQuery`]: crate::SpatialQuery
/// [`ContactFlags::standing_on`]: crate::ContactFlags::standing_on
/// [`Contacts`]: crate::Contacts
#[derive(Component, Clone, Debug)]
#[component(on_remove = on_grid_removed)]
#[require(Transform)]
pub struct TileGrid {
    size: UVec2,
    cell_size: Vec2,
    /// Where cell (0, 0)'s bottom-left corner is in the entity's local frame.
    origin: Vec2,
    /// Row by row from the bottom.
    cells: Vec<Tile>,
    /// Per chunk (row by row): its pieces must be built again.
    dirty: Vec<bool>,
    /// Some chunk is dirty.
    any_dirty: bool,
    /// A bad edit was reported: the next ones are not.
    warned: bool,
}

impl TileGrid {
    /// The most cells a grid may have (2^26, 64 MiB of cells).
    pub const MAX_CELLS: u64 = 1 << 26;

    /// A grid of `size` cells of `cell_size` each, all [`Tile::Empty`]. Bad input (see
    /// [`TileGrid::try_new`]) is logged once and gives an empty grid of 0 × 0 cells.
    pub fn new(size: UVec2, cell_size: Vec2) -> Self {
        Self::try_new(size, cell_size).unwrap_or_else(|error| {
            warn!("TileGrid::new: {error}: the grid has no cells and collides with nothing");
            Self::empty()
        })
    }

    /// A grid of `size` cells of `cell_size` each, all [`Tile::Empty`].
    ///
    /// # Errors
    /// [`TileGridError::CellSize`] when a side of `cell_size` is zero, negative or not finite;
    /// [`TileGridError::TooLarge`] when the grid has more than [`TileGrid::MAX_CELLS`] cells,
    /// its extent is not finite, or its cells cannot be allocated.
    pub fn try_new(size: UVec2, cell_size: Vec2) -> Result<Self, TileGridError> {
        if !(cell_size.is_finite() && cell_size.min_element() > 0.0) {
            return Err(TileGridError::CellSize(cell_size));
        }
        let count = u64::from(size.x) * u64::from(size.y);
        if count > Self::MAX_CELLS || !(size.as_vec2() * cell_size).is_finite() {
            return Err(TileGridError::TooLarge(size));
        }
        let count = count as usize; // at most 2^26
        let mut cells = Vec::new();
        cells
            .try_reserve_exact(count)
            .map_err(|_| TileGridError::TooLarge(size))?;
        cells.resize(count, Tile::Empty);
        let chunks = chunks_of(size);
        Ok(Self {
            size,
            cell_size,
            origin: Vec2::ZERO,
            cells,
            dirty: vec![true; (chunks.x * chunks.y) as usize],
            any_dirty: true,
            warned: false,
        })
    }

    fn empty() -> Self {
        Self {
            size: UVec2::ZERO,
            cell_size: Vec2::ONE,
            origin: Vec2::ZERO,
            cells: Vec::new(),
            dirty: Vec::new(),
            any_dirty: false,
            warned: false,
        }
    }

    /// The grid's size in cells.
    pub fn size(&self) -> UVec2 {
        self.size
    }

    /// The size of one cell, in the entity's local units.
    pub fn cell_size(&self) -> Vec2 {
        self.cell_size
    }

    /// Where cell (0, 0)'s bottom-left corner is in the entity's local frame: the origin for
    /// grids made with [`TileGrid::new`], elsewhere for grids the bevy_ecs_tilemap adapter makes
    /// (whose layer's origin is the centre of its tile (0, 0), by default).
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// Moves cell (0, 0)'s bottom-left corner to `origin` in the entity's local frame (a finite
    /// point, checked by the caller); every piece is built again.
    #[cfg_attr(not(feature = "bevy_ecs_tilemap"), allow(dead_code))]
    pub(crate) fn set_origin(&mut self, origin: Vec2) {
        self.origin = origin;
        self.mark_all_dirty();
    }

    /// The tile of `cell`; [`Tile::Empty`] outside the grid.
    pub fn get(&self, cell: UVec2) -> Tile {
        self.index(cell).map_or(Tile::Empty, |i| self.cells[i])
    }

    /// Sets `cell` to `tile`, from the next step on. A cell outside the grid is left alone,
    /// with one warning per grid (see [`TileGrid::try_set`]).
    pub fn set(&mut self, cell: UVec2, tile: Tile) {
        if let Err(error) = self.try_set(cell, tile)
            && !self.warned
        {
            self.warned = true;
            warn!("TileGrid::set: {error}: nothing is changed (reported once per grid)");
        }
    }

    /// Sets `cell` to `tile`, from the next step on: the pieces of the cell's chunk, and of the
    /// chunks of the cells beside it, are built again.
    ///
    /// # Errors
    /// [`TileGridError::OutOfGrid`] when `cell` is outside the grid (nothing changes).
    pub fn try_set(&mut self, cell: UVec2, tile: Tile) -> Result<(), TileGridError> {
        let i = self.index(cell).ok_or(TileGridError::OutOfGrid {
            cell,
            size: self.size,
        })?;
        if self.cells[i] == tile {
            return Ok(());
        }
        self.cells[i] = tile;
        // The pieces beside the cell depend on it too (which of their faces are hidden).
        let (x, y) = (i64::from(cell.x), i64::from(cell.y));
        for (dx, dy) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
            if let Some(chunk) = self.chunk_of(x + dx, y + dy) {
                self.dirty[chunk] = true;
                self.any_dirty = true;
            }
        }
        Ok(())
    }

    /// The cell holding `local_point` (in the entity's local frame), if it is inside the grid.
    /// A point on the line between two cells belongs to the one above or to the right.
    pub fn cell_at(&self, local_point: Vec2) -> Option<UVec2> {
        let at = ((local_point - self.origin) / self.cell_size).floor();
        let inside =
            at.x >= 0.0 && at.y >= 0.0 && at.x < self.size.x as f32 && at.y < self.size.y as f32;
        // (NaN fails every comparison above.)
        inside.then(|| at.as_uvec2())
    }

    /// The cell a body touched at `point` (in the world), for a grid whose entity's `Transform`
    /// is `transform`: `normal` points from the body into the grid, as the normal of a contact
    /// in [`Contacts`](crate::Contacts) does when the body comes first (for a
    /// [`SpatialQuery`](crate::SpatialQuery) hit, pass its normal reversed). A contact point
    /// lies on a cell's face: the point is moved a thousandth of a cell along `normal`, into
    /// the cell behind that face. `None` if that is outside the grid or the transform cannot
    /// be undone.
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use bevy_sat::prelude::*;
    ///
    /// let mut grid = TileGrid::new(UVec2::new(10, 4), Vec2::splat(16.0));
    /// grid.set(UVec2::new(3, 0), Tile::Solid);
    /// let transform = Transform::from_xyz(-80.0, -16.0, 0.0);
    /// // A body standing on cell (3, 0), whose top is at world y = 0, touches it at x = -24.
    /// let cell = grid.touched_cell(&transform, Vec2::new(-24.0, 0.0), Vec2::NEG_Y);
    /// assert_eq!(cell, Some(UVec2::new(3, 0)));
    /// ```
    pub fn touched_cell(&self, transform: &Transform, point: Vec2, normal: Vec2) -> Option<UVec2> {
        let to_local = transform.compute_affine().inverse();
        let local = to_local.transform_point3(point.extend(transform.translation.z));
        let into = to_local.transform_vector3(normal.extend(0.0)).truncate();
        let nudge = into.normalize_or_zero() * 1.0e-3 * self.cell_size.min_element();
        self.cell_at(local.truncate() + nudge)
    }

    fn index(&self, cell: UVec2) -> Option<usize> {
        (cell.x < self.size.x && cell.y < self.size.y)
            .then(|| cell.y as usize * self.size.x as usize + cell.x as usize)
    }

    /// The tile at `(x, y)`, where coordinates outside the grid (negative ones too) are empty.
    pub(crate) fn tile_at(&self, x: i64, y: i64) -> Tile {
        match (u32::try_from(x), u32::try_from(y)) {
            (Ok(x), Ok(y)) => self.get(UVec2::new(x, y)),
            _ => Tile::Empty,
        }
    }

    /// The number of chunks in x and y.
    pub(crate) fn chunks(&self) -> UVec2 {
        chunks_of(self.size)
    }

    /// The index of the chunk holding cell `(x, y)`, if it is inside the grid.
    fn chunk_of(&self, x: i64, y: i64) -> Option<usize> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        let cell = UVec2::new(x, y);
        self.index(cell)?;
        let chunk = cell / CHUNK;
        Some((chunk.y * self.chunks().x + chunk.x) as usize)
    }

    /// Every chunk whose pieces must be built again, in order, and marks them all clean.
    pub(crate) fn take_dirty(&mut self, out: &mut Vec<usize>) {
        out.clear();
        if !std::mem::take(&mut self.any_dirty) {
            return;
        }
        for (i, dirty) in self.dirty.iter_mut().enumerate() {
            if std::mem::take(dirty) {
                out.push(i);
            }
        }
    }

    /// Marks every chunk to be built again.
    pub(crate) fn mark_all_dirty(&mut self) {
        self.dirty.fill(true);
        self.any_dirty = !self.dirty.is_empty();
    }
}

/// The number of chunks of a grid of `size` cells, in x and y.
fn chunks_of(size: UVec2) -> UVec2 {
    UVec2::new(size.x.div_ceil(CHUNK), size.y.div_ceil(CHUNK))
}
