//! Keeping a [`TileGrid`]'s [`TilePieces`] in step with it: built per chunk, built again for the
//! chunks an edit touched, all of them when the grid is placed anew, and removed with the grid.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;

use super::grid::TileGrid;
use super::store::TilePieces;
use crate::components::CollisionLayers;

/// When a [`TileGrid`] is removed (or its entity despawned), its pieces go with it.
pub(crate) fn on_grid_removed(mut world: DeferredWorld, context: HookContext) {
    if world.get::<TilePieces>(context.entity).is_some() {
        world
            .commands()
            .entity(context.entity)
            .try_remove::<TilePieces>();
    }
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
/// places its colliders, so an edit takes effect at the next step. Nothing is spawned: the
/// pieces stay in the grid's [`TilePieces`].
// Kept out of line so that profiles show the cost of edits apart from the step.
#[inline(never)]
pub(crate) fn sync_tile_grids(
    mut grids: Grids,
    mut commands: Commands,
    mut dirty: Local<Vec<usize>>,
) {
    for (entity, mut grid, transform, layers, built) in &mut grids {
        // Taking the dirty chunks is bookkeeping, not an edit.
        let grid = grid.bypass_change_detection();
        let anew = built.is_none()
            || transform.is_changed()
            || layers.as_ref().is_some_and(Ref::is_changed);
        if anew {
            grid.mark_all_dirty();
        }
        grid.take_dirty(&mut dirty);
        if dirty.is_empty() && built.is_some() {
            continue;
        }
        let mut fresh = TilePieces::default();
        let is_fresh = built.is_none();
        let store = match built {
            Some(built) => built.into_inner(),
            None => &mut fresh,
        };
        // (Placing again is cheap, and catches a grid replaced by one of another size.)
        store.place(grid, &transform, layers.map(|l| *l));
        for &chunk in dirty.iter() {
            store.rebuild(grid, chunk);
        }
        if is_fresh {
            commands.entity(entity).try_insert(fresh);
        }
    }
}
