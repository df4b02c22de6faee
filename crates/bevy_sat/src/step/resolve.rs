//! Stage 4: resolution. Fast pairs are first placed at their time of impact; then, for a few
//! passes, Weak bodies are pushed out of Mighty ones and Weak pairs are split, ground first,
//! with support propagated up through stacks.

use bevy::prelude::*;
use sat_core::collide_within;

use super::{Body, Kind, PairContact, StepState};
use crate::config::SatConfig;

/// How many directions a body remembers being held in, per pass.
const MAX_HOLDS: usize = 4;

/// A push along `direction` is blocked by a hold `h` when `h · direction` exceeds this (within
/// about 45°).
const HOLD_COS: f32 = core::f32::consts::FRAC_1_SQRT_2;

/// The directions a Weak body cannot be pushed in this pass: into a Mighty body it touches, or
/// into a body that is itself held that way (support propagated through a stack).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Holds {
    directions: [Vec2; MAX_HOLDS],
    len: usize,
}

impl Holds {
    fn add(&mut self, direction: Vec2) {
        if self.len < MAX_HOLDS {
            self.directions[self.len] = direction;
            self.len += 1;
        }
    }

    fn blocks(&self, push: Vec2) -> bool {
        self.directions[..self.len]
            .iter()
            .any(|h| h.dot(push) > HOLD_COS)
    }
}

/// The pairs resolution works on, split by kind; indices into the narrow-phase pairs.
#[derive(Default, Debug)]
pub(crate) struct Work {
    mighty_weak: Vec<usize>,
    weak_weak: Vec<usize>,
    holds: Vec<Holds>,
}

pub(crate) fn resolve_contacts(
    config: Res<SatConfig>,
    mut state: ResMut<StepState>,
    mut work: Local<Work>,
) {
    let state = &mut *state;
    resolve(&config, &mut state.bodies, &state.pairs, &mut work);
}

/// Runs the whole resolution on plain data.
pub(crate) fn resolve(
    config: &SatConfig,
    bodies: &mut [Body],
    pairs: &[PairContact],
    work: &mut Work,
) {
    place_at_time_of_impact(bodies, pairs);
    work.mighty_weak.clear();
    work.weak_weak.clear();
    for (k, p) in pairs.iter().enumerate() {
        let (a, b) = (&bodies[p.a], &bodies[p.b]);
        if !a.resolves_with(b) {
            continue;
        }
        if a.kind == Kind::Weak && b.kind == Kind::Weak {
            work.weak_weak.push(k);
        } else {
            work.mighty_weak.push(k);
        }
    }
    // Ground first: the pair whose lower body is lowest comes first, so support climbs a stack
    // in one pass. Ties keep the entity order.
    let bottom = |k: &usize| {
        let p = &pairs[*k];
        bodies[p.a]
            .shape
            .aabb()
            .min
            .y
            .min(bodies[p.b].shape.aabb().min.y)
    };
    let mut keyed: Vec<(f32, usize)> = work.weak_weak.iter().map(|k| (bottom(k), *k)).collect();
    keyed.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    work.weak_weak.clear();
    work.weak_weak.extend(keyed.into_iter().map(|(_, k)| k));

    let margin = config.contact_margin.max(0.0);
    work.holds.resize(bodies.len(), Holds::default());
    for _ in 0..config.passes.max(1) {
        work.holds.fill(Holds::default());
        for &k in &work.mighty_weak {
            push_out_of_mighty(bodies, &pairs[k], margin, &mut work.holds);
        }
        for &k in &work.weak_weak {
            split_weak_pair(bodies, &pairs[k], margin, &mut work.holds);
        }
    }
    // Last word to the Mighty bodies: whatever Weak bodies did to each other, none ends inside
    // a Mighty one.
    for &k in &work.mighty_weak {
        push_out_of_mighty(bodies, &pairs[k], margin, &mut work.holds);
    }
}

/// Fast pairs: each Weak body goes back along the step's relative motion to where it first
/// touched (the earliest such touch if it has several).
fn place_at_time_of_impact(bodies: &mut [Body], pairs: &[PairContact]) {
    // (body, toi, rewind, normal into the other body)
    let mut rewinds: Vec<(usize, f32, Vec2, Vec2)> = Vec::new();
    for p in pairs {
        let Some(hit) = p.hit else { continue };
        let (a, b) = (&bodies[p.a], &bodies[p.b]);
        if !a.resolves_with(b) {
            continue;
        }
        let late = 1.0 - hit.toi;
        match (a.kind, b.kind) {
            (Kind::Weak, Kind::Mighty) => {
                rewinds.push((p.a, hit.toi, (a.motion() - b.motion()) * late, hit.normal));
            }
            (Kind::Mighty, Kind::Weak) => {
                rewinds.push((p.b, hit.toi, (b.motion() - a.motion()) * late, -hit.normal));
            }
            _ => {
                rewinds.push((p.a, hit.toi, a.motion() * late, hit.normal));
                rewinds.push((p.b, hit.toi, b.motion() * late, -hit.normal));
            }
        }
    }
    // Earliest hit per body; stable, so equal times keep the pair order.
    rewinds.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)));
    let mut last = usize::MAX;
    for (body, _, rewind, into) in rewinds {
        if body == last {
            continue;
        }
        last = body;
        let body = &mut bodies[body];
        body.shift(-rewind);
        body.stop_along(into);
    }
}

/// Two mutable bodies of one pair.
fn two(bodies: &mut [Body], a: usize, b: usize) -> (&mut Body, &mut Body) {
    if a < b {
        let (left, right) = bodies.split_at_mut(b);
        (&mut left[a], &mut right[0])
    } else {
        let (left, right) = bodies.split_at_mut(a);
        (&mut right[0], &mut left[b])
    }
}

fn push_out_of_mighty(bodies: &mut [Body], pair: &PairContact, margin: f32, holds: &mut [Holds]) {
    let (weak, mighty) = if bodies[pair.a].kind == Kind::Weak {
        (pair.a, pair.b)
    } else {
        (pair.b, pair.a)
    };
    let (w, m) = two(bodies, weak, mighty);
    let Some(contact) = collide_within(&w.shape, &m.shape, margin) else {
        return;
    };
    if contact.depth > 0.0 {
        w.shift(contact.mtv());
        w.stop_along(contact.normal);
    }
    holds[weak].add(contact.normal);
}

fn split_weak_pair(bodies: &mut [Body], pair: &PairContact, margin: f32, holds: &mut [Holds]) {
    let (a, b) = two(bodies, pair.a, pair.b);
    let Some(contact) = collide_within(&a.shape, &b.shape, margin) else {
        return;
    };
    let n = contact.normal; // from a to b: a is pushed along -n, b along +n
    let a_held = holds[pair.a].blocks(-n);
    let b_held = holds[pair.b].blocks(n);
    if contact.depth > 0.0 {
        let share_a = match (a_held, b_held) {
            (true, false) => 0.0,
            (false, true) => 1.0,
            _ => 0.5,
        };
        a.shift(-n * contact.depth * share_a);
        b.shift(n * contact.depth * (1.0 - share_a));
        a.stop_along(n);
        b.stop_along(-n);
    }
    if a_held && !b_held {
        holds[pair.b].add(-n);
    } else if b_held && !a_held {
        holds[pair.a].add(n);
    }
}
