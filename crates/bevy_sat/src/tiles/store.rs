//! [`TilePieces`]: a [`TileGrid`]'s merged pieces, kept chunk by chunk on the grid's entity, and
//! placed in the world only when a body or a query comes near them.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::math::Affine2;
use bevy::prelude::*;
use sat_core::{Aabb, ConvexPolygon, Shape};

use super::grid::{CHUNK, TileGrid};
use super::merge::{BOTTOM, Piece, TOP, merge_chunk};
use crate::components::{CollisionLayers, OneWayPlatform};
use crate::step::body::pose_of;

/// The merged pieces of a [`TileGrid`], on the grid's entity: the plugin builds them from the
/// grid before each step that follows an edit (only the chunks around the edited cells), and the
/// step and [`SpatialQuery`](crate::SpatialQuery) read them from here. No piece is an entity:
/// the step makes a collider of a piece only for a step in which some body comes near it, and
/// names the grid's entity for it.
///
/// Read-only for games: to see what the grid merged into (say, to count the pieces or draw
/// them), walk [`TilePieces::iter`]. Which cell a body touched is [`TileGrid::touched_cell`]'s
/// answer.
#[derive(Component, Debug, Default)]
#[component(on_add = TilePieces::on_add, on_remove = TilePieces::on_remove)]
pub struct TilePieces {
    /// Per chunk (row by row from the bottom), its pieces.
    chunks: Vec<Vec<Piece>>,
    /// Chunks per row.
    chunks_x: u32,
    /// The grid's size in cells.
    size: UVec2,
    cell: Vec2,
    origin: Vec2,
    /// The grid's entity's `Transform` when the pieces were placed.
    transform: Transform,
    /// From the world into the grid's local frame (`None`: the transform cannot be undone, and
    /// the grid collides with nothing).
    to_local: Option<Affine2>,
    /// The grid's [`CollisionLayers`], shared by every piece.
    pub(crate) layers: CollisionLayers,
    /// A box around every cell of the grid, in the world (`None`: no cell can collide).
    pub(crate) bounds: Option<Aabb>,
    /// The transform mirrors the grid: a placed rectangle's bottom edge comes third.
    mirrored: bool,
    count: usize,
    builds: u64,
}

/// One merged piece of a [`TileGrid`]: a rectangle of cells of one kind, as
/// [`TilePieces::iter`] lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TilePiece {
    min: UVec2,
    max: UVec2,
    one_way: bool,
}

impl TilePiece {
    /// The cells it covers: from the first (bottom-left) to the last (top-right), inclusive.
    pub fn cells(&self) -> (UVec2, UVec2) {
        (self.min, self.max - UVec2::ONE)
    }

    /// Whether it is made of [`Tile::OneWay`](super::Tile::OneWay) cells (solid from above
    /// only); otherwise of [`Tile::Solid`](super::Tile::Solid) ones.
    pub fn is_one_way(&self) -> bool {
        self.one_way
    }
}

/// A piece placed in the world: its shape, and the faces (edges of the shape) that lie against
/// other cells of the grid, which are never push axes.
pub(crate) struct Placed {
    pub shape: Shape,
    pub hidden: u16,
    pub translation: Vec2,
    pub rotation: Vec2,
    pub one_way: Option<OneWayPlatform>,
}

/// How many entities hold [`TilePieces`], kept by the component's hooks: a spatial query in a
/// world without tile grids then asks the ECS nothing about them.
#[derive(Resource, Default, Debug)]
pub(crate) struct TileGridCount(pub usize);

impl TilePieces {
    fn on_add(mut world: DeferredWorld, _: HookContext) {
        if let Some(mut count) = world.get_resource_mut::<TileGridCount>() {
            count.0 += 1;
        }
    }

    fn on_remove(mut world: DeferredWorld, _: HookContext) {
        if let Some(mut count) = world.get_resource_mut::<TileGridCount>() {
            count.0 = count.0.saturating_sub(1);
        }
    }
}

impl TilePieces {
    /// How many pieces the grid merged into.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the grid has no piece (no solid or one-way cell).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Every piece, chunk by chunk (chunks of 16 × 16 cells, row by row from the bottom).
    pub fn iter(&self) -> impl Iterator<Item = TilePiece> + '_ {
        self.chunks.iter().flatten().map(|p| TilePiece {
            min: p.min,
            max: p.max,
            one_way: p.one_way,
        })
    }

    /// How many times the pieces of a chunk were built since the grid's entity got its
    /// pieces: every chunk once at first, then the chunks around each edited cell (the cell's
    /// own and those of the cells beside it), and every chunk again when the grid is placed
    /// anew or given other collision layers.
    pub fn chunk_builds(&self) -> u64 {
        self.builds
    }

    /// Takes the grid's size and placement: with a new transform, layers or size, every chunk
    /// must then be built again (the caller marks them).
    pub(crate) fn place(
        &mut self,
        grid: &TileGrid,
        transform: &Transform,
        layers: Option<CollisionLayers>,
    ) {
        let chunks = grid.chunks();
        let count = (chunks.x * chunks.y) as usize;
        if self.chunks.len() != count {
            self.count -= self.chunks.iter().skip(count).map(Vec::len).sum::<usize>();
            self.chunks.resize_with(count, Vec::new);
        }
        self.chunks_x = chunks.x;
        self.size = grid.size();
        self.cell = grid.cell_size();
        self.origin = grid.origin();
        self.transform = *transform;
        self.layers = layers.unwrap_or_default();
        self.mirrored = transform.scale.x * transform.scale.y < 0.0;
        // The plane part of the transform, as the step places colliders (see `pose_of`).
        let affine = pose_of(transform).map_or(Affine2::NAN, |pose| {
            let (r, s) = (pose.rotation, pose.scale);
            Affine2::from_mat2_translation(
                Mat2::from_cols(r * s.x, r.perp() * s.y),
                pose.translation,
            )
        });
        self.to_local = (affine.matrix2.determinant() != 0.0 && affine.is_finite())
            .then(|| affine.inverse())
            .filter(|inverse| inverse.is_finite());
        let local = Aabb {
            min: self.origin,
            max: self.origin + self.size.as_vec2() * self.cell,
        };
        self.bounds = (self.to_local.is_some() && self.size.min_element() > 0)
            .then(|| box_through(&affine, &local))
            .filter(|b| b.is_valid() && b.min.is_finite() && b.max.is_finite());
    }

    /// Builds the pieces of chunk `chunk` (its index) of `grid` again.
    pub(crate) fn rebuild(&mut self, grid: &TileGrid, chunk: usize) {
        let Some(pieces) = self.chunks.get_mut(chunk) else {
            return;
        };
        self.count -= pieces.len();
        pieces.clear();
        let at = UVec2::new(chunk as u32 % self.chunks_x, chunk as u32 / self.chunks_x);
        merge_chunk(grid, at, pieces);
        self.count += pieces.len();
        self.builds += 1;
    }

    /// Calls `each` with `(chunk, k, piece)` for every piece whose cells may meet the world box
    /// `area` (a conservative test: the box is brought into the grid's frame whole), chunk by
    /// chunk, until it returns false.
    pub(crate) fn near(&self, area: &Aabb, each: impl FnMut(u32, u32, &Piece) -> bool) {
        self.near_where(area, |_, _| true, each);
    }

    /// Calls `each` as [`TilePieces::near`] does for the pieces that the world segment from
    /// `from` to `to` may meet (tested in the grid's frame, chunk by chunk and piece by piece,
    /// with a little room for round-off).
    pub(crate) fn along(&self, from: Vec2, to: Vec2, each: impl FnMut(u32, u32, &Piece) -> bool) {
        let Some(to_local) = self.to_local else {
            return;
        };
        let area = Aabb {
            min: from.min(to),
            max: from.max(to),
        };
        let cells = |p: Vec2| (to_local.transform_point2(p) - self.origin) / self.cell;
        let (a, b) = (cells(from), cells(to));
        self.near_where(&area, |lo, hi| segment_meets_box(a, b, lo, hi), each);
    }

    /// [`TilePieces::near`] for the chunks and pieces whose boxes in cells, `(lo, hi)`, `keep`
    /// accepts.
    fn near_where(
        &self,
        area: &Aabb,
        keep: impl Fn(Vec2, Vec2) -> bool,
        mut each: impl FnMut(u32, u32, &Piece) -> bool,
    ) {
        let (Some(bounds), Some(to_local)) = (self.bounds, self.to_local) else {
            return;
        };
        if !area.overlaps(&bounds) {
            return;
        }
        let local = box_through(&to_local, area);
        // In cells, as floats: a piece `[min, max]` meets the box when it overlaps it.
        let lo = (local.min - self.origin) / self.cell;
        let hi = (local.max - self.origin) / self.cell;
        let size = self.size.as_vec2();
        if !(lo.is_finite() && hi.is_finite())
            || hi.x < 0.0
            || hi.y < 0.0
            || lo.x > size.x
            || lo.y > size.y
        {
            return;
        }
        let last = size - 1.0;
        let first_cell = lo.floor().clamp(Vec2::ZERO, last).as_uvec2();
        let last_cell = hi.floor().clamp(Vec2::ZERO, last).as_uvec2();
        let (c0, c1) = (first_cell / CHUNK, last_cell / CHUNK);
        for cy in c0.y..=c1.y {
            for cx in c0.x..=c1.x {
                let corner = UVec2::new(cx, cy) * CHUNK;
                let far = (corner + CHUNK).min(self.size);
                if !keep(corner.as_vec2(), far.as_vec2()) {
                    continue;
                }
                let chunk = cy * self.chunks_x + cx;
                let pieces = &self.chunks[chunk as usize];
                for (k, piece) in pieces.iter().enumerate() {
                    let (min, max) = (piece.min.as_vec2(), piece.max.as_vec2());
                    let meets = min.x <= hi.x && max.x >= lo.x && min.y <= hi.y && max.y >= lo.y;
                    if meets && keep(min, max) && !each(chunk, k as u32, piece) {
                        return;
                    }
                }
            }
        }
    }

    /// Every piece's shape placed in the world (for drawing them).
    #[cfg_attr(not(feature = "debug"), allow(dead_code))]
    pub(crate) fn shapes(&self) -> impl Iterator<Item = Shape> + '_ {
        let pieces = self.chunks.iter().flatten();
        pieces.filter_map(|p| self.placed(p).map(|placed| placed.shape))
    }

    /// Piece `piece` placed in the world as the grid's transform places it: a rectangle with
    /// the hidden faces of its edges. `None` if the placement is out of range.
    pub(crate) fn placed(&self, piece: &Piece) -> Option<Placed> {
        let size = (piece.max - piece.min).as_vec2() * self.cell;
        let centre = self.origin + (piece.min + piece.max).as_vec2() * 0.5 * self.cell;
        let placed = self
            .transform
            .mul_transform(Transform::from_translation(centre.extend(0.0)));
        let pose = pose_of(&placed)?;
        let shape = Shape::from(ConvexPolygon::rectangle(size.x, size.y))
            .transformed(&pose)
            .ok()?;
        // A mirroring scale reverses the placed rectangle's edges: its bottom edge comes third.
        let mut hidden = piece.hidden;
        if self.mirrored {
            hidden = hidden & !(BOTTOM | TOP)
                | if hidden & BOTTOM != 0 { TOP } else { 0 }
                | if hidden & TOP != 0 { BOTTOM } else { 0 };
        }
        Some(Placed {
            shape,
            hidden,
            translation: pose.translation,
            rotation: pose.rotation,
            one_way: piece.one_way.then(OneWayPlatform::default),
        })
    }
}

/// The box around `aabb` taken through `affine` (its four corners').
fn box_through(affine: &Affine2, aabb: &Aabb) -> Aabb {
    let corners = [
        aabb.min,
        Vec2::new(aabb.max.x, aabb.min.y),
        aabb.max,
        Vec2::new(aabb.min.x, aabb.max.y),
    ]
    .map(|c| affine.transform_point2(c));
    let min = corners
        .iter()
        .copied()
        .reduce(Vec2::min)
        .unwrap_or(Vec2::NAN);
    let max = corners
        .iter()
        .copied()
        .reduce(Vec2::max)
        .unwrap_or(Vec2::NAN);
    Aabb { min, max }
}

/// Whether the segment from `a` to `b` meets the box from `lo` to `hi` grown by a little more
/// than round-off (the slab test), all in cells.
fn segment_meets_box(a: Vec2, b: Vec2, lo: Vec2, hi: Vec2) -> bool {
    const ROOM: f32 = 1.0e-3;
    let (lo, hi) = (lo - ROOM, hi + ROOM);
    let d = b - a;
    let (mut enter, mut exit) = (0.0f32, 1.0f32);
    for axis in 0..2 {
        if d[axis] == 0.0 {
            if a[axis] < lo[axis] || a[axis] > hi[axis] {
                return false;
            }
        } else {
            let (t0, t1) = (
                (lo[axis] - a[axis]) / d[axis],
                (hi[axis] - a[axis]) / d[axis],
            );
            enter = enter.max(t0.min(t1));
            exit = exit.min(t0.max(t1));
        }
    }
    enter <= exit
}
