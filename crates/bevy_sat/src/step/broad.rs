//! Stage 2: the broad phase. sat_core's sweep-and-prune over the swept AABBs, with a stable
//! slot per entity so that the sort stays incremental from step to step.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use sat_core::{Aabb, SweepAndPrune};

use super::StepState;
use super::body::{Body, Kind};
use super::seams::mark_internal_faces;
use crate::components::CollisionLayers;

/// What the broad phase needs of body `i`, at `inputs[i]`: written by prepare as it places the
/// body, so that the broad phase streams this small array instead of reading a cache line of
/// every body record (at tens of thousands of bodies, those reads would wait on memory).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BroadInput {
    pub entity: Entity,
    /// Which of the entity's bodies this is: 0, but for the parts of a Mighty compound body,
    /// each a body of its own (see `prepare::parts`).
    pub part: u32,
    /// The AABB swept over the step's motion, grown by the contact margin.
    pub swept: Aabb,
    /// Resolution may push the body ([`Body::pushable`](super::Body::pushable)).
    pub pushable: bool,
    /// Mighty and not a sensor.
    pub solid_mighty: bool,
    /// Solid Mighty and not a one-way platform: its faces can be hidden by flush neighbours.
    pub seamable: bool,
    /// Seamable and without a velocity: static scenery, whose hidden faces are kept from step
    /// to step while no scenery changes.
    pub scenery: bool,
    /// Scenery kept in place from the last step (same entity, transform and collider).
    pub kept: bool,
    /// Its [`CollisionLayers`] are not the default ones, or it is a part of a body with child
    /// colliders (or such a body): its pairs are checked for both.
    pub custom_layers: bool,
}

impl BroadInput {
    /// The input for `body`, whose placed shape has the box `aabb`, moved by `motion` this
    /// step; `still`: it has no velocity; `kept`: it is where it was last step, unchanged.
    #[inline]
    pub fn of(body: &Body, aabb: Aabb, motion: Vec2, margin: f32, still: bool, kept: bool) -> Self {
        let solid_mighty = body.kind == Kind::Mighty && !body.sensor;
        let seamable = solid_mighty && body.one_way.is_none();
        Self {
            entity: body.entity,
            part: 0,
            swept: Self::swept(aabb, motion, margin),
            pushable: body.pushable(),
            solid_mighty,
            seamable,
            scenery: seamable && still,
            kept,
            custom_layers: body.layers != CollisionLayers::default(),
        }
    }

    /// The box `aabb` swept back over `motion` (to where the step started), grown by `margin`.
    pub fn swept(aabb: Aabb, motion: Vec2, margin: f32) -> Aabb {
        aabb.swept(-motion).grown(margin)
    }
}

/// A solid Mighty body (its index) and a box holding it over the whole step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MightyBox {
    pub aabb: Aabb,
    pub body: u32,
}

/// The solid Mighty bodies of a step with their boxes: the static scenery
/// ([`BroadInput::scenery`]) kept from step to step, since nothing moves it, and the others.
#[derive(Default, Debug)]
pub(crate) struct MightyBoxes {
    /// The static scenery, listed again only in a step where some of it came, went, moved or
    /// changed; [`MightyBoxes::version`] counts those steps.
    pub still: Vec<MightyBox>,
    pub version: u64,
    /// The others, this step, with their boxes over the whole step.
    pub moving: Vec<MightyBox>,
}

/// Broad-phase storage kept across steps.
#[derive(Default, Debug)]
pub(crate) struct BroadState {
    /// Per body, filled by prepare.
    pub inputs: Vec<BroadInput>,
    /// This step's candidate pairs (indices into the bodies, in either order).
    pub candidates: Vec<(usize, usize)>,
    /// This step's solid Mighty bodies, for resolution to find those a body pushed far meets.
    pub mighty: MightyBoxes,
    sap: SweepAndPrune,
    slots: HashMap<(Entity, u32), u32>,
    free: Vec<u32>,
    /// Per slot, the body index this step (`u32::MAX` when the slot's entity is absent).
    slot_body: Vec<u32>,
    /// Last step's bodies in order with their slots: with an unchanged world the bodies come in
    /// the same order, and the slot is found without hashing.
    last: Vec<((Entity, u32), u32)>,
    raw: Vec<(u32, u32)>,
    /// Per body (bit `i` for body `i`), what the pair filter needs: bit sets of a few KiB that
    /// stay in cache however many bodies there are, unlike the body records.
    solid_mighty: Bits,
    /// Solid Mighty bodies that are not one-way platforms: their faces can be hidden by flush
    /// neighbours.
    seamable: Bits,
    /// Bodies whose [`CollisionLayers`](crate::CollisionLayers) are not the default: only pairs
    /// with one of them need their layers read.
    custom_layers: Bits,
    /// Static scenery ([`BroadInput::scenery`]), this step and the last.
    scenery: Bits,
    was_scenery: Bits,
    /// Per body, the faces of static scenery hidden by flush static neighbours: found again
    /// only when some scenery changed, since nothing else moves them.
    scenery_internal: Vec<u16>,
}

impl BroadState {
    /// The entity and part (see [`BroadInput::part`]) that body `i` was last step, if there
    /// was a body `i`.
    pub fn last_body(&self, i: usize) -> Option<(Entity, u32)> {
        self.last.get(i).map(|&(key, _)| key)
    }

    /// The faces of static scenery body `i` that its flush static neighbours hid last step.
    pub fn scenery_internal(&self, i: usize) -> u16 {
        self.scenery_internal.get(i).copied().unwrap_or(0)
    }
}

/// A set of body indices, one bit each.
#[derive(Default, Debug, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    /// Empties the set and makes room for `len` indices.
    fn reset(&mut self, len: usize) {
        self.0.clear();
        self.0.resize(len.div_ceil(64), 0);
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }
}

// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn find_candidate_pairs(mut state: ResMut<StepState>) {
    let state = &mut *state;
    let settings = state.settings;
    let broad = &mut state.broad;
    broad.slot_body.fill(u32::MAX);
    let count = state.bodies.len();
    broad.solid_mighty.reset(count);
    broad.seamable.reset(count);
    broad.custom_layers.reset(count);
    std::mem::swap(&mut broad.scenery, &mut broad.was_scenery);
    broad.scenery.reset(count);
    // Whether any static scenery moved, changed, came or went since the last step.
    let mut scenery_changed = false;
    // Resolution may push a Weak body up to `reach` (the longest motion of the step) beyond
    // its own sweep, and snap it down by the floor snap distance: the narrow phase keeps a
    // pair resolution may push within their sum (see `narrow::test_pair`). Both sides of such
    // a pair, Weak or solid Mighty, grow by half of it, so that the sweep finds such pairs that
    // near, and no further: growing only the Weak side by `reach` would find a floor further
    // below than that too late to snap onto, and Weak pairs up to twice as far apart.
    let grow = if state.motion.any_pushable {
        0.5 * (state.motion.reach + settings.snap)
    } else {
        0.0
    };
    let mut same_order = count == broad.last.len();
    // Every body in the slot of its own index (the usual steady state when entities came in
    // one batch): then a slot is a body index, without a lookup per pair.
    let mut slot_is_index = true;
    broad.mighty.moving.clear();
    for (i, input) in broad.inputs.iter().enumerate() {
        if input.solid_mighty {
            broad.solid_mighty.insert(i);
        }
        if input.seamable {
            broad.seamable.insert(i);
        }
        if input.custom_layers {
            broad.custom_layers.insert(i);
        }
        if input.scenery {
            broad.scenery.insert(i);
            scenery_changed |= !input.kept;
        }
        let slot = match broad.last.get(i) {
            Some(&(key, slot)) if key == (input.entity, input.part) => slot,
            _ => {
                same_order = false;
                *broad
                    .slots
                    .entry((input.entity, input.part))
                    .or_insert_with(|| broad.free.pop().unwrap_or(broad.slot_body.len() as u32))
            }
        };
        if slot as usize >= broad.slot_body.len() {
            broad.slot_body.resize(slot as usize + 1, u32::MAX);
        }
        broad.slot_body[slot as usize] = i as u32;
        slot_is_index &= slot as usize == i;
        let aabb = if input.pushable || input.solid_mighty {
            input.swept.grown(grow)
        } else {
            input.swept
        };
        // Bodies were placed successfully, so the box is finite; a refusal cannot happen, and
        // would only leave the previous box in place.
        let _ = broad.sap.set(slot, aabb);
        if input.solid_mighty && !input.scenery {
            let body = i as u32;
            broad.mighty.moving.push(MightyBox { aabb, body });
        }
    }
    // Bodies that became or stopped being scenery (word by word: a set of a few KiB).
    scenery_changed |= broad.scenery != broad.was_scenery;
    if !same_order {
        // Entities gone since the last step (despawned, collider removed, or skipped).
        let (sap, free, slot_body) = (&mut broad.sap, &mut broad.free, &broad.slot_body);
        broad.slots.retain(|_, slot| {
            let present = slot_body[*slot as usize] != u32::MAX;
            if !present {
                sap.remove(*slot);
                free.push(*slot);
            }
            present
        });
        broad.last.clear();
        broad.last.extend(broad.inputs.iter().map(|input| {
            (
                (input.entity, input.part),
                broad
                    .slots
                    .get(&(input.entity, input.part))
                    .copied()
                    .unwrap_or(u32::MAX),
            )
        }));
    }
    let scenery_changed = scenery_changed || !same_order;
    if scenery_changed {
        let mighty = &mut broad.mighty;
        mighty.still.clear();
        let still = broad.inputs.iter().enumerate().filter(|(_, x)| x.scenery);
        mighty.still.extend(still.map(|(i, input)| MightyBox {
            aabb: input.swept,
            body: i as u32,
        }));
        mighty.version += 1;
        // Every hidden face of the scenery is found again below.
        broad.scenery_internal.clear();
        broad.scenery_internal.resize(count, 0);
        for (i, body) in state.bodies.iter_mut().enumerate() {
            if broad.scenery.contains(i) {
                body.internal = body.hidden;
            }
        }
    }
    broad.sap.pairs_into(&mut broad.raw);
    broad.candidates.clear();
    // With every body in the slot of its index, and as many slots as bodies, no slot is free.
    let slot_is_index = slot_is_index && broad.slot_body.len() == count;
    for &(s1, s2) in &broad.raw {
        let body = |slot: u32| {
            if slot_is_index {
                slot as usize
            } else {
                broad.slot_body[slot as usize] as usize
            }
        };
        let (i, j) = (body(s1), body(s2));
        if broad.solid_mighty.contains(i) && broad.solid_mighty.contains(j) {
            // Not a pair to resolve, but flush neighbours hide the faces they share.
            let static_pair = broad.scenery.contains(i) && broad.scenery.contains(j);
            if broad.seamable.contains(i)
                && broad.seamable.contains(j)
                && (scenery_changed || !static_pair)
                && let Ok([a, b]) = state.bodies.get_disjoint_mut([i, j])
            {
                let (found_a, found_b) = mark_internal_faces(a, b, settings.seam_tolerance);
                if static_pair {
                    broad.scenery_internal[i] |= found_a;
                    broad.scenery_internal[j] |= found_b;
                }
            }
            continue;
        }
        // (Child colliders are marked so too: a body's parts are never paired.)
        let custom = broad.custom_layers.contains(i) || broad.custom_layers.contains(j);
        let owner = |k: usize| state.children.owner(k, state.bodies[k].entity);
        if custom
            && (owner(i) == owner(j)
                || !state.bodies[i]
                    .layers
                    .interacts_with(&state.bodies[j].layers))
        {
            continue;
        }
        // In either order: the narrow phase, which reads both bodies anyway, orders them.
        broad.candidates.push((i, j));
    }
}
