//! The grids' pieces in the step: after the broad phase, every body that can collide with
//! scenery (Weak bodies and sensors) asks each grid its box overlaps for the pieces near it.
//! Each piece met becomes a step body once per step (a Mighty rectangle, or a one-way platform,
//! named by the grid, with its faces against other cells hidden), appended after the entities'
//! bodies, and is paired with every body it is near. So a step costs as much as the bodies near
//! the grids ask, whatever the grids' size; without a grid it costs one look at the grids.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;

use super::store::TilePieces;
use crate::components::CollisionLayers;
use crate::step::StepState;
use crate::step::body::{Body, Kind};
use crate::step::broad::{BroadInput, MightyBox};
use crate::step::huge_pages;
use crate::step::seams::mark_internal_faces;

/// The per-step storage, kept so that it allocates nothing once warmed up.
#[derive(Default, Debug)]
pub(crate) struct NearbyPieces {
    /// The pieces made bodies: (grid, chunk, piece) → the body's index and the left of its box.
    made: HashMap<u64, (u32, f32)>,
    /// The pieces near the body at hand, as (left of the box, body index).
    near: Vec<(f32, u32)>,
    /// The entities' solid Mighty polygons beside the grid at hand, which a piece may lie
    /// flush against (listed when the grid's first piece is made).
    beside: Vec<u32>,
}

/// The key of piece `k` of chunk `chunk` of the `grid`-th grid: a chunk holds at most 256
/// pieces (16 × 16 cells), a grid at most 2^18 chunks (2^26 cells).
fn key(grid: usize, chunk: u32, k: u32) -> u64 {
    (grid as u64) << 32 | u64::from(chunk) << 9 | u64::from(k)
}

/// Makes step bodies of the pieces near the bodies that can collide with them, and adds those
/// pairs to the broad phase's candidates. Runs right after the broad phase.
// Kept out of line so that profiles show it apart from the stages.
#[inline(never)]
pub(crate) fn add_nearby_pieces(
    grids: Query<(Entity, &TilePieces)>,
    mut state: ResMut<StepState>,
    mut scratch: Local<NearbyPieces>,
) {
    if grids.is_empty() {
        return;
    }
    let state = &mut *state;
    let settings = state.settings;
    let motion = &mut state.motion;
    // As the broad phase grows both boxes of a pair resolution may push (see
    // `find_candidate_pairs`), and as far again as character control may lift or nudge a body
    // (it looks for the Mighty bodies there).
    let grow = if motion.any_pushable {
        motion.reach + settings.snap + settings.step_height + settings.corner_correction
    } else {
        0.0
    };
    let margin = settings.margin;
    let tolerance = settings.seam_tolerance;
    let NearbyPieces { made, near, beside } = &mut *scratch;
    made.clear();
    let bodies = &mut state.bodies;
    let broad = &mut state.broad;
    let entities = broad.inputs.len();
    // Resolution's copy of the velocities, if prepare made one, must cover the pieces too.
    let velocities = (motion.velocities.len() == bodies.len()).then_some(&mut motion.velocities);
    let mut velocities = velocities;
    for (g, (grid, pieces)) in grids.iter().enumerate() {
        let Some(bounds) = pieces.bounds else {
            continue;
        };
        let mut listed = false;
        for i in 0..entities {
            let input = &broad.inputs[i];
            // Solid Mighty bodies are never paired with scenery.
            if input.solid_mighty {
                continue;
            }
            let area = input.swept.grown(grow);
            let custom = input.custom_layers || pieces.layers != CollisionLayers::default();
            if !area.overlaps(&bounds) || custom && !bodies[i].layers.interacts_with(&pieces.layers)
            {
                continue;
            }
            near.clear();
            pieces.near(&area, |chunk, k, piece| {
                let found = match made.get(&key(g, chunk, k)) {
                    Some(&found) => found,
                    None => {
                        let Some(placed) = pieces.placed(piece) else {
                            return true;
                        };
                        let j = bodies.len() as u32;
                        let mut body = Body::new(grid, placed.shape);
                        let aabb = body.shape.aabb();
                        body.position = placed.translation;
                        body.start = placed.translation;
                        body.rotation = placed.rotation;
                        body.layers = pieces.layers;
                        body.size = aabb.size().min_element();
                        body.kind = Kind::Mighty;
                        body.one_way = placed.one_way;
                        body.hidden = placed.hidden;
                        body.internal = placed.hidden;
                        if body.one_way.is_none() {
                            if !listed {
                                listed = true;
                                beside.clear();
                                let reach = bounds.grown(tolerance);
                                let inputs = &broad.inputs[..entities];
                                let flush = |(_, input): &(usize, &BroadInput)| {
                                    input.seamable && input.swept.overlaps(&reach)
                                };
                                let found = inputs.iter().enumerate().filter(flush);
                                beside.extend(found.map(|(e, _)| e as u32));
                            }
                            hide_faces_beside(&mut body, &aabb, beside, bodies, tolerance);
                        }
                        huge_pages::push(bodies, body);
                        if let Some(velocities) = velocities.as_deref_mut() {
                            velocities.push(Vec2::ZERO);
                        }
                        broad.mighty.moving.push(MightyBox {
                            aabb: aabb.grown(margin + grow),
                            body: j,
                        });
                        made.insert(key(g, chunk, k), (j, aabb.min.x));
                        (j, aabb.min.x)
                    }
                };
                near.push((found.1, found.0));
                true
            });
            // From left to right, as a sweep along x lists a body's pairs with scenery: which of
            // two pieces a body meets at the same time comes first decides which one's face
            // it is stopped along.
            near.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            let pairs = near.iter().map(|&(_, j)| (i, j as usize));
            broad.candidates.extend(pairs);
        }
    }
}

/// Hides the faces that piece `piece` (its box `aabb`) shares with the solid Mighty polygons
/// `beside` it lying flush against it, on both sides, as the broad phase does between two
/// such entities: a body walking from the grid onto a plain collider beside it (or back) is
/// not snagged on the seam.
fn hide_faces_beside(
    piece: &mut Body,
    aabb: &sat_core::Aabb,
    beside: &[u32],
    bodies: &mut [Body],
    tolerance: f32,
) {
    let reach = aabb.grown(tolerance);
    for &e in beside {
        let other = &mut bodies[e as usize];
        if other.shape.aabb().overlaps(&reach) {
            mark_internal_faces(piece, other, tolerance);
        }
    }
}
