//! The physics step: one module per stage, in the order they run, each a public
//! [`SatSystems`](crate::SatSystems) set:
//!
//! ```text
//! prepare ─► broad ─► narrow ─► resolve ─► writeback
//! ```
//!
//! 1. [`prepare`]: gravity and integration; every collider placed in the world once; riders
//!    carried by what they stood on.
//! 2. [`broad`]: sweep-and-prune over the swept boxes: the candidate pairs.
//! 3. [`narrow`]: SAT on each candidate: contacts, and times of impact for fast pairs.
//! 4. [`resolve`]: Weak bodies pushed out of Mighty ones and apart from each other.
//! 5. [`writeback`]: final contacts, contact flags, positions and velocities written to the
//!    entities, [`Contacts`](crate::Contacts) and the collision events.
//!
//! What the stages hand each other is plain data in [`StepState`], in types that sit below
//! the stages: [`body`], [`pair`], [`moves`]. The rules several stages apply have a module
//! each: [`one_way`] (one-way platforms) and [`seams`] (faces shared by flush neighbours).
//! The body records grow through [`huge_pages`], which asks the kernel to back a large array with
//! 2 MiB pages.

pub(crate) mod body;
pub(crate) mod broad;
pub(crate) mod children;
pub(crate) mod fold_seams;
pub(crate) mod huge_pages;
pub(crate) mod layer_views;
pub(crate) mod moves;
pub(crate) mod narrow;
pub(crate) mod one_way;
pub(crate) mod pair;
pub(crate) mod pair_sort;
pub(crate) mod part_names;
pub(crate) mod prepare;
pub(crate) mod resolve;
pub(crate) mod seams;
#[cfg(test)]
pub(crate) mod testing;
pub(crate) mod writeback;

use bevy::prelude::*;

use crate::config::StepSettings;

/// What prepare found of this step's motion, for the stages after it.
#[derive(Default, Debug)]
pub(crate) struct Motion {
    /// The longest distance any body moves by its velocity this step. Resolution can push a
    /// Weak body no further than this, so pairs closer than it (plus the contact margin) are
    /// the ones resolution may bring into contact.
    pub reach: f32,
    /// Some body may be pushed by resolution this step (Weak and not a sensor). Without one,
    /// resolution has nothing to do.
    pub any_pushable: bool,
    /// Every body's velocity as prepare integrated it (as in its record), for resolution to
    /// read in one small array. Prepare fills it when the last step had a pushable body, else
    /// resolution does, from the records.
    pub velocities: Vec<Vec2>,
    /// The step's duration in seconds, as integrated (cut to the longest step, zero for an
    /// unusable one).
    pub dt: f32,
    /// Some Mighty body moved this step: without one, nothing is carried and every platform
    /// velocity is zero.
    pub any_mighty_moving: bool,
}

/// The state the step's stages hand to each other, kept from step to step so that its storage
/// is reused: a step allocates nothing once warmed up.
#[derive(Resource, Default, Debug)]
pub(crate) struct StepState {
    /// [`SatConfig`](crate::SatConfig) made valid, once per step (by prepare).
    pub settings: StepSettings,
    /// Every collider taking part, in query order.
    pub bodies: Vec<body::Body>,
    pub motion: Motion,
    pub prepare: prepare::PrepareState,
    /// The child colliders' part of the step.
    pub children: children::ChildState,
    pub broad: broad::BroadState,
    pub narrow: narrow::NarrowState,
    /// The narrow phase's pairs; resolution puts them in the order it takes them.
    pub found: pair::FoundPairs,
    /// What resolution did: moves per body, contacts where the bodies are now.
    pub moves: moves::Moves,
    pub resolution: resolve::Resolution,
    pub writeback: writeback::WritebackState,
}
