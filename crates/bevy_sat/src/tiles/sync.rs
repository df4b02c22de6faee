//! Keeping a [`TileGrid`]'s pieces in step with it: [`TilePiece`] entities built per chunk,
//! built again for the chunks an edit touched, all of them when the grid is placed anew, and
//! despawned with the grid.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

use super::grid::TileGrid;
use super::merge::{BOTTOM, Piece, TOP, merge_chunk};
use crate::components::{CollisionLayers, ConvexCollider, Mighty, OneWayPlatform};

/// A collider the plugin made of some cells of a [`TileGrid`]: a Mighty rectangle (with
/// [`OneWayPlatform::default()`] for one-way cells), spawned, placed and despawned with the
/// grid. Don't edit it: edit the grid. The step names the grid in its place in contact flags,
/// [`Contacts`](crate::Contacts) and events; spatial queries name the piece, whose
/// [`TilePiece::grid`] is the grid.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TilePiece {
    pub(crate) grid: Entity,
    /// The faces against other cells of the grid, by edge of the placed rectangle: never push
    /// axes.
    pub(crate) hidden: u16,
    min: UVec2,
    max: UVec2,
}

impl TilePiece {
    /// The grid's entity.
    pub fn grid(&self) -> Entity {
        self.grid
    }

    /// The cells it covers: from the first (bottom-left) up to the last, inclusive.
    pub fn cells(&self) -> (UVec2, UVec2) {
        (self.min, self.max - UVec2::ONE)
    }
}

/// A grid's piece entities, chunk by chunk (in the grid's chunk order).
#[derive(Component, Default, Debug)]
pub(crate) struct TilePieces {
    chunks: Vec<Vec<Entity>>,
}

/// When a [`TileGrid`] is removed (or its entity despawned), its pieces go with it.
pub(crate) fn on_grid_removed(mut world: DeferredWorld, context: HookContext) {
    let Some(pieces) = world.get::<TilePieces>(context.entity) else {
        return;
    };
    let all: Vec<Entity> = pieces.chunks.iter().flatten().copied().collect();
    let mut commands = world.commands();
    for piece in all {
        commands.entity(piece).try_despawn();
    }
    commands.entity(context.entity).try_remove::<TilePieces>();
}

/// The grids to look at: new ones, edited ones, and those placed anew.
type Grids<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Mut<'static, TileGrid>,
        Ref<'static, Transform>,
        Option<Ref<'static, CollisionLayers>>,
        Option<&'static mut TilePieces>,
    ),
    Or<(
        Changed<TileGrid>,
        Changed<Transform>,
        Changed<CollisionLayers>,
        Without<TilePieces>,
    )>,
>;

/// Builds the pieces of every chunk an edit touched since the last step, and of every chunk of
/// a grid that is new, placed anew or given other collision layers. Runs just before the step
/// places its colliders, so an edit takes effect at the next step.
pub(crate) fn sync_tile_grids(
    mut grids: Grids,
    mut commands: Commands,
    mut scratch: Local<(Vec<usize>, Vec<Piece>)>,
) {
    let (dirty, pieces) = &mut *scratch;
    for (entity, mut grid, transform, layers, built) in &mut grids {
        // Taking the dirty chunks is bookkeeping, not an edit.
        let grid = grid.bypass_change_detection();
        let anew = built.is_none()
            || transform.is_changed()
            || layers.as_ref().is_some_and(Ref::is_changed);
        if anew {
            grid.mark_all_dirty();
        }
        grid.take_dirty(dirty);
        if dirty.is_empty() && built.is_some() {
            continue;
        }
        let mut fresh = TilePieces::default();
        let is_fresh = built.is_none();
        let built = match built {
            Some(built) => built.into_inner(),
            None => &mut fresh,
        };
        // A grid replaced by one of another size: the chunks beyond its own go.
        let chunks = grid.chunks();
        let count = (chunks.x * chunks.y) as usize;
        for gone in built
            .chunks
            .drain(count.min(built.chunks.len())..)
            .flatten()
        {
            commands.entity(gone).try_despawn();
        }
        built.chunks.resize_with(count, Vec::new);
        let layers = layers.map(|l| *l);
        for &chunk in dirty.iter() {
            for old in built.chunks[chunk].drain(..) {
                commands.entity(old).try_despawn();
            }
            pieces.clear();
            let at = UVec2::new(chunk as u32 % chunks.x, chunk as u32 / chunks.x);
            merge_chunk(grid, at, pieces);
            for piece in pieces.iter() {
                let spawned = spawn_piece(&mut commands, entity, grid, &transform, layers, piece);
                built.chunks[chunk].push(spawned);
            }
        }
        if is_fresh {
            commands.entity(entity).insert(fresh);
        }
    }
}

/// Spawns the collider of `piece` of `grid` (entity `grid_entity`, placed by `transform`).
fn spawn_piece(
    commands: &mut Commands,
    grid_entity: Entity,
    grid: &TileGrid,
    transform: &Transform,
    layers: Option<CollisionLayers>,
    piece: &Piece,
) -> Entity {
    let cell = grid.cell_size();
    let size = (piece.max - piece.min).as_vec2() * cell;
    let centre = grid.origin() + (piece.min + piece.max).as_vec2() * 0.5 * cell;
    let placed = transform.mul_transform(Transform::from_translation(centre.extend(0.0)));
    // A mirroring scale reverses the placed rectangle's edges: its bottom edge comes third.
    let mut hidden = piece.hidden;
    if transform.scale.x * transform.scale.y < 0.0 {
        hidden = hidden & !(BOTTOM | TOP)
            | if hidden & BOTTOM != 0 { TOP } else { 0 }
            | if hidden & TOP != 0 { BOTTOM } else { 0 };
    }
    let mut spawned = commands.spawn((
        ConvexCollider::rectangle(size.x, size.y),
        Mighty,
        placed,
        TilePiece {
            grid: grid_entity,
            hidden,
            min: piece.min,
            max: piece.max,
        },
    ));
    if piece.one_way {
        spawned.insert(OneWayPlatform::default());
    }
    if let Some(layers) = layers {
        spawned.insert(layers);
    }
    spawned.id()
}
