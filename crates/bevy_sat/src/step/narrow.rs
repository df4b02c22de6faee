//! Stage 3: the narrow phase. SAT on every candidate pair, sweeps for fast pairs, in parallel on
//! Bevy's compute task pool. The output keeps the broad phase's order (which depends only on
//! the bodies), chunk by chunk, so it is the same whatever the number of threads.

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, TaskPool};
use sat_core::{Hit, Shape, collide_within, least_overlap, sweep};

use super::StepState;
use super::body::{Body, Kind};
use super::one_way::is_passing;
use super::pair::{FastHit, FoundPairs, PairContact, Pushes, Seen};
use crate::config::StepSettings;

/// Normals closer than this (about 2.5°) are the same contact axis.
const SAME_AXIS_COS: f32 = 0.999;

/// Pairs per task: enough work to pay for the task, small enough to balance.
const MIN_CHUNK: usize = 256;

/// The narrow-phase answer for one candidate pair, or `None` when they are too far apart at the
/// end of the step for resolution to bring them together (`reach` plus the contact margin) and
/// did not meet during it.
///
/// A fast pair has a hit (its first touch during the step, if after its start) only when the
/// end of the step does not already show the same contact: when they passed through each
/// other, or would be pushed out sideways. `a` and `b` may come in either order: the answer's
/// `a` is the one with the smaller entity.
pub(crate) fn test_pair<const LAYERED: bool>(
    bodies: &[Body],
    a: usize,
    b: usize,
    reach: f32,
    settings: &StepSettings,
) -> Option<(PairContact, Option<Hit>)> {
    // The pair's `a` is the body with the smaller entity (as the pair names them).
    let (a, b) = if bodies[a].name < bodies[b].name {
        (a, b)
    } else {
        (b, a)
    };
    let (body_a, body_b) = (&bodies[a], &bodies[b]);
    let relative = body_a.motion() - body_b.motion();
    let limit = settings.sweep_fraction * body_a.size.min(body_b.size);
    // The motion of `a` relative to `b`, when fast enough to be swept.
    let fast = (relative.length_squared() > limit * limit).then_some(relative);
    if LAYERED && (body_a.layered | body_b.layered) {
        return test_layered_pair(body_a, body_b, (a, b), fast, reach, settings);
    }
    let hit = fast.and_then(|relative| {
        fast_hit(
            &body_a.start_shape(),
            &body_b.start_shape(),
            relative,
            settings.margin,
        )
    });
    finish_pair(
        body_a,
        body_b,
        (a, b),
        (&body_a.shape, &body_b.shape),
        hit,
        reach,
        settings,
    )
}

/// [`test_pair`] for a pair one of whose bodies has parts with layers of their own: each body
/// as the other meets it (see [`Body::shape_against`]); `None` when no part of one meets the
/// other.
#[cold]
#[inline(never)]
fn test_layered_pair(
    body_a: &Body,
    body_b: &Body,
    (a, b): (usize, usize),
    fast: Option<Vec2>,
    reach: f32,
    settings: &StepSettings,
) -> Option<(PairContact, Option<Hit>)> {
    let (shape_a, shape_b) = (body_a.shape_against(body_b)?, body_b.shape_against(body_a)?);
    let hit = fast.and_then(|relative| {
        let start_a = body_a.start_shape_against(body_b)?;
        let start_b = body_b.start_shape_against(body_a)?;
        fast_hit(&start_a, &start_b, relative, settings.margin)
    });
    finish_pair(
        body_a,
        body_b,
        (a, b),
        (&shape_a, &shape_b),
        hit,
        reach,
        settings,
    )
}

/// The first touch of a fast pair during the step, its shapes placed where they started and
/// `relative` the motion of `a` relative to `b`. A pair touching at the start counts too when
/// it moves into itself: a fast wall pushing a box it already touches must not pass through it.
#[inline(always)]
fn fast_hit(start_a: &Shape, start_b: &Shape, relative: Vec2, margin: f32) -> Option<Hit> {
    sweep(start_a, start_b, relative)
        .filter(|hit| hit.toi > 0.0 || (hit.depth <= margin && relative.dot(hit.normal) > 0.0))
}

/// The rest of [`test_pair`], with the shapes each body shows the other and the pair's hit
/// during the step, if fast.
#[inline(always)]
fn finish_pair(
    body_a: &Body,
    body_b: &Body,
    (a, b): (usize, usize),
    (shape_a, shape_b): (&Shape, &Shape),
    hit: Option<Hit>,
    reach: f32,
    settings: &StepSettings,
) -> Option<(PairContact, Option<Hit>)> {
    let margin = settings.margin;
    let resolvable = body_a.resolves_with(body_b);
    let reach = if resolvable {
        reach + settings.snap
    } else {
        0.0 // nothing will move them: only real contacts matter
    };
    // What was seen at the end, and the hit during the step unless the contact at the end
    // already holds it (the same axis); neither: the pair is dropped.
    let (seen, hit) = match near_contact(shape_a, shape_b, margin, reach) {
        Some(Seen::Touching(c)) => (
            Seen::Touching(c),
            hit.filter(|hit| c.normal.dot(hit.normal) < SAME_AXIS_COS),
        ),
        Some(seen) => (seen, hit),
        None => (Seen::Near, Some(hit?)),
    };
    let pushes = match (body_a.kind, body_b.kind) {
        _ if !resolvable => Pushes::Never,
        (Kind::Weak, Kind::Weak) => Pushes::Split,
        (Kind::Weak, Kind::Mighty) => Pushes::AOutOfB,
        (Kind::Mighty, _) => Pushes::BOutOfA,
    };
    let pair = PairContact {
        // (Body indices fit 32 bits: 2^32 bodies would take a TiB.)
        a: a as u32,
        b: b as u32,
        entities: (body_a.name, body_b.name),
        pushes,
        may_move: body_a.pushable() || body_b.pushable(),
        one_way: body_a.one_way.is_some() || body_b.one_way.is_some(),
        passing: is_passing(body_a, body_b, margin),
        covered: match pushes {
            Pushes::AOutOfB => body_b.internal != 0,
            Pushes::BOutOfA => body_a.internal != 0,
            Pushes::Never | Pushes::Split => false,
        },
        seen,
    };
    Some((pair, hit))
}

/// `None` when two shapes are more than `margin + reach` apart; otherwise whether they touch
/// (within `margin`). Contact points are clipped only for pairs that touch: most pairs that are
/// only near are never pushed into contact.
// Inlined into both callers: returned through memory, its large answer costs more than the call.
#[inline(always)]
fn near_contact(a: &Shape, b: &Shape, margin: f32, reach: f32) -> Option<Seen> {
    Some(match (a, b) {
        (Shape::Polygon(a), Shape::Polygon(b)) => {
            let found = least_overlap(a, b, margin + reach)?;
            if found.depth >= -margin {
                Seen::Touching(found.contact(a, b))
            } else {
                Seen::Apart(found)
            }
        }
        _ => match collide_within(a, b, margin + reach)? {
            c if c.depth >= -margin => Seen::Touching(c),
            _ => Seen::Near,
        },
    })
}

/// How many pairs ahead [`test_pairs`] asks for the bodies of a pair ([`Body::prefetch`]): the
/// time of a few pair tests covers the wait for memory.
const PREFETCH_DISTANCE: usize = 4;

/// The narrow phase's own storage, kept from step to step.
#[derive(Default, Debug)]
pub(crate) struct NarrowState {
    /// Per task: what it found.
    parts: Vec<FoundPairs>,
}

/// Tests `part` in order, appending what it finds to `out`. `LAYERED`: some body's parts may
/// have layers of their own (see [`Body::layered`]); without any, no pair asks.
pub(crate) fn test_pairs<const LAYERED: bool>(
    bodies: &[Body],
    part: &[(usize, usize)],
    reach: f32,
    settings: &StepSettings,
    found: &mut FoundPairs,
) {
    for (k, &(a, b)) in part.iter().enumerate() {
        if let Some(&(next_a, next_b)) = part.get(k + PREFETCH_DISTANCE) {
            bodies[next_a].prefetch();
            bodies[next_b].prefetch();
        }
        let Some((pair, hit)) = test_pair::<LAYERED>(bodies, a, b, reach, settings) else {
            continue;
        };
        if let Some(hit) = hit {
            found.hits.push(FastHit { pair, hit });
        }
        if pair.pushes == Pushes::Split {
            found
                .weak
                .push(pair, bodies[a].bottom.min(bodies[b].bottom));
        } else {
            found.pairs.push(pair);
        }
    }
}

/// Tests `candidates` on `pool`, replacing what `found` holds with what it finds, in candidate
/// order (see [`FoundPairs`]). `layered`: some body's parts have layers of their own.
// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
#[allow(clippy::too_many_arguments)] // the stage's inputs and outputs
pub(crate) fn run_narrow_phase(
    pool: &TaskPool,
    layered: bool,
    bodies: &[Body],
    candidates: &[(usize, usize)],
    reach: f32,
    settings: &StepSettings,
    parts: &mut Vec<FoundPairs>,
    found: &mut FoundPairs,
) {
    found.clear();
    let threads = pool.thread_num().max(1);
    let chunk = MIN_CHUNK.max(candidates.len().div_ceil(threads * 4));
    let test = if layered {
        test_pairs::<true>
    } else {
        test_pairs::<false>
    };
    if threads == 1 || candidates.len() <= chunk {
        test(bodies, candidates, reach, settings, found);
    } else {
        let count = candidates.len().div_ceil(chunk);
        if parts.len() < count {
            parts.resize_with(count, Default::default);
        }
        pool.scope(|scope| {
            for (part, part_found) in candidates.chunks(chunk).zip(parts.iter_mut()) {
                scope.spawn(async move {
                    part_found.clear();
                    test(bodies, part, reach, settings, part_found);
                });
            }
        });
        // Concatenated in chunk order: the same lists whatever thread ran which chunk.
        for part in &parts[..count] {
            found.append(part);
        }
    }
}

// Kept out of line so that profiles show each stage of the step.
#[inline(never)]
pub(crate) fn narrow_phase(mut state: ResMut<StepState>) {
    let state = &mut *state;
    let pool = ComputeTaskPool::get_or_init(TaskPool::default);
    run_narrow_phase(
        pool,
        state.children.any_layered(),
        &state.bodies,
        &state.broad.candidates,
        state.motion.reach,
        &state.settings,
        &mut state.narrow.parts,
        &mut state.found,
    );
}

#[cfg(test)]
mod tests {
    use bevy::tasks::TaskPoolBuilder;

    use super::*;
    use crate::step::testing::crowd::{crowd, every_pair};

    /// The narrow phase run in parts on several threads finds what it finds in one go, in the
    /// same order: the pairs, the Weak pairs with their keys (renumbered as the parts are
    /// joined), and the hits (every fifth body of the crowd made fast, so that there are some).
    #[test]
    fn the_narrow_phase_in_parts_finds_the_same() {
        let (mut bodies, _, settings) = crowd(11);
        for body in bodies.iter_mut().step_by(5) {
            body.start = body.position - Vec2::new(30.0, 0.0);
        }
        let candidates = every_pair(bodies.len());
        let mut whole = FoundPairs::default();
        test_pairs::<true>(&bodies, &candidates, 1.0, &settings, &mut whole);
        let pool = TaskPoolBuilder::new().num_threads(2).build();
        let (mut parts, mut found) = (Vec::new(), FoundPairs::default());
        run_narrow_phase(
            &pool,
            true,
            &bodies,
            &candidates,
            1.0,
            &settings,
            &mut parts,
            &mut found,
        );
        assert!(parts.len() > 1, "the candidates were split");
        let entities =
            |pairs: &[PairContact]| -> Vec<_> { pairs.iter().map(|p| p.entities).collect() };
        assert_eq!(entities(&found.pairs), entities(&whole.pairs));
        assert_eq!(entities(&found.weak.records), entities(&whole.weak.records));
        assert_eq!(found.weak.keys, whole.weak.keys);
        assert!(!whole.weak.records.is_empty() && whole.pairs.len() > 20);
        assert!(
            !whole.hits.is_empty(),
            "some fast pairs met during the step"
        );
        let hits = |found: &FoundPairs| {
            found
                .hits
                .iter()
                .map(|h| (h.pair.entities, h.hit.toi.to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(hits(&found), hits(&whole));
    }
}
