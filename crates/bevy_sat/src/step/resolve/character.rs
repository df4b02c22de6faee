//! Character control after the passes: [`Floating`](crate::Floating) bodies slide on at
//! constant speed ([`floating`](super::floating)), bodies walking into a low ledge step up
//! onto it ([`step_up`](super::step_up)), and bodies rising into a ceiling's corner are nudged
//! past it ([`corner`](super::corner)). Each moves a body only to where it overlaps no Mighty
//! body, found by sweeping its shape through the Mighty bodies near it.

use bevy::prelude::*;
use sat_core::{Aabb, Hit, sweep};

use super::mighty_index::MightyIndex;
use super::{Resolution, corner, floating, step_up};
use crate::config::StepSettings;
use crate::step::body::{Body, MovedShape};
use crate::step::broad::MightyBoxes;
use crate::step::moves::Moves;
use crate::step::one_way::is_passing;

/// How far a hit at the start of a sweep may point into the motion (the cosine of the angle
/// between them) and still be taken for the shapes sliding along each other: round-off tilts
/// the normal of two faces that touch.
const SLIDING_COS: f32 = 1.0e-3;

/// The reused storage of character control.
#[derive(Default, Debug)]
pub(crate) struct Character {
    /// The [`Floating`](crate::Floating) bodies of this step (their indices), listed before
    /// resolution runs.
    pub floating: Vec<u32>,
    /// The solid Mighty bodies near the body at hand.
    pub(super) near: Vec<u32>,
    index: MightyIndex,
}

/// What character control reads of the step besides the bodies.
pub(super) struct Nearby<'a> {
    pub boxes: &'a MightyBoxes,
    pub settings: &'a StepSettings,
}

impl Character {
    /// Lists the solid Mighty bodies whose box meets `area` that Weak body `w` resolves with
    /// (one-way platforms it is passing through left out).
    pub(super) fn gather(&mut self, bodies: &[Body], nearby: &Nearby, w: usize, area: Aabb) {
        self.index.prepare_scan(nearby.boxes);
        let body = &bodies[w];
        let margin = nearby.settings.margin;
        let near = &mut self.near;
        near.clear();
        self.index.near(nearby.boxes, area, |b| {
            let m = &bodies[b.body as usize];
            if b.aabb.overlaps(&area)
                && m.shape.aabb().overlaps(&area)
                && body.resolves_with(m)
                && body.layers.interacts_with(&m.layers)
                && body.shape_against(m).is_some()
                && !is_passing(body, m, margin)
            {
                near.push(b.body);
            }
        });
    }

    /// The first hit of `shape` moving by `motion` into one of the bodies [`Character::gather`]
    /// listed. A body it touches at the start (within `margin`) and slides along or leaves is
    /// no hit.
    pub(super) fn cast(
        &self,
        bodies: &[Body],
        shape: &MovedShape,
        motion: Vec2,
        margin: f32,
    ) -> Option<Hit> {
        let direction = motion.try_normalize()?;
        let start = margin / motion.length();
        let hits = self.near.iter().filter_map(|&m| {
            let m = &bodies[m as usize];
            let hit = sweep(&*shape.against(m)?, &m.shape, motion)?;
            let sliding = hit.toi <= start && hit.normal.dot(direction) <= SLIDING_COS;
            (!sliding).then_some(hit)
        });
        hits.min_by(|a, b| a.toi.total_cmp(&b.toi))
    }

    /// The deepest overlap of `shape` with the bodies [`Character::gather`] listed (negative:
    /// apart from all of them; `f32::MIN` when there are none).
    pub(super) fn deepest(&self, bodies: &[Body], shape: &MovedShape, margin: f32) -> f32 {
        let depths = self.near.iter().filter_map(|&m| {
            let m = &bodies[m as usize];
            sat_core::collide_within(&*shape.against(m)?, &m.shape, margin).map(|c| c.depth)
        });
        depths.fold(f32::MIN, f32::max)
    }
}

/// Runs character control on the bodies where the passes left them (their records up to
/// date): nothing unless a body is floating or step-up or corner correction is on.
/// `velocities`: every body's velocity as prepare integrated it.
pub(super) fn after_passes(
    bodies: &mut [Body],
    velocities: &[Vec2],
    boxes: &MightyBoxes,
    moves: &mut Moves,
    res: &mut Resolution,
    settings: &StepSettings,
) {
    let stepping = settings.step_height > 0.0;
    let correcting = settings.corner_correction > 0.0;
    let character = &mut res.character;
    if !stepping && !correcting && character.floating.is_empty() {
        return;
    }
    character.index.start_step();
    let nearby = Nearby { boxes, settings };
    let floating = std::mem::take(&mut character.floating);
    for &i in &floating {
        let i = i as usize;
        if moves.slid(i) {
            floating::slide_on(bodies, i, moves, character, &nearby);
        }
    }
    character.floating = floating;
    if !stepping && !correcting {
        return;
    }
    let crushed = |body: &Body| res.crushed.iter().any(|c| c.0 == body.entity);
    for i in 0..bodies.len() {
        let body = &bodies[i];
        if !body.pushable() || moves.is_floating(i) {
            continue;
        }
        let pushed = moves.offset(i);
        let own = body.motion() - pushed;
        let v = velocities[i];
        let walking = own.x * pushed.x < 0.0 && v.y <= 0.0 && body.support.is_some();
        let rising = own.y > 0.0 && v.y > 0.0 && pushed.y < -settings.slop;
        // (Both are rare: the list of crushed bodies is read only for them.)
        if stepping && walking && !crushed(body) {
            step_up::step_up(bodies, i, own, v, moves, &mut res.character, &nearby);
        } else if correcting && rising && !crushed(body) {
            corner::correct(bodies, i, own, v, moves, &mut res.character, &nearby);
        }
    }
}
