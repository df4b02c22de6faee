//! The last check after the last Mighty pass: no Weak body it pushed may end inside another
//! Mighty body, and no body moved further than the narrow phase looked may end inside a Mighty
//! body the narrow phase did not pair it with.
//!
//! A push out of one Mighty body can go into another at an angle the holds let through (a
//! floor pushing a body up into a slanted wall above it, a wall pushing it sideways into a
//! slope), and pushes out of each in turn only close such a wedge by a fraction per pass. And a
//! body pushed further than the step's reach (one that started deep inside a Mighty body, or
//! deep in a Weak one) can meet a Mighty body no pair knows of.
//!
//! For each such body still inside a Mighty one (the rare case), every Mighty body it touches
//! asks it to move into a half-plane of offsets ([`Constraint`]); the shortest offset in all of
//! them is found exactly (in 2D, it lies where at most two of their lines meet). The body
//! takes it if it is short enough; if there is none, or the body is still inside one after it,
//! it is crushed between the Mighty bodies it touches.

use bevy::prelude::*;
use sat_core::collide_within;

use super::Resolution;
use super::mighty::{Constraint, constraint, pair_constraint};
use super::mighty_index::MightyIndex;
use crate::config::StepSettings;
use crate::step::body::Body;
use crate::step::broad::{MightyBox, MightyBoxes};
use crate::step::moves::{Moves, Overlap};
use crate::step::one_way::is_passing;
use crate::step::pair::{PairContact, Pushes};

/// The longest way out of a wedge a body takes, in multiples of the deepest overlap that asks
/// for it: a wedge narrower than about 14° (or none at all, between opposite faces) crushes it.
const LONGEST_WAY_OUT: f32 = 4.0;

/// The last check's reused storage.
#[derive(Default, Debug)]
pub(crate) struct Settle {
    /// Whether [`Settle::pushed`] records (only during the last Mighty pass).
    pub recording: bool,
    /// Per body, whether it is in `checked`.
    marked: Vec<bool>,
    /// The bodies to check.
    checked: Vec<u32>,
    /// The Mighty–Weak pairs of the checked bodies: `(body, pair)`, sorted.
    pairs: Vec<(u32, u32)>,
    /// The Mighty bodies a far body may meet.
    index: MightyIndex,
    /// One body's constraints, and where each comes from.
    constraints: Vec<(Constraint, Source)>,
}

impl Settle {
    /// Starts a step with `bodies` bodies, none to check. (Every mark is taken off as its body
    /// is checked: the marks are cleared in full only when the count of bodies changes.)
    pub fn start(&mut self, bodies: usize) {
        self.recording = false;
        for &w in &self.checked {
            self.marked[w as usize] = false;
        }
        self.checked.clear();
        if self.marked.len() != bodies {
            self.marked.clear();
            self.marked.resize(bodies, false);
        }
    }

    /// Weak body `w` was pushed by a Mighty body: checked if in the last Mighty pass.
    #[inline]
    pub fn pushed(&mut self, w: usize) {
        if self.recording {
            self.mark(w);
        }
    }

    fn mark(&mut self, w: usize) {
        if !self.marked[w] {
            self.marked[w] = true;
            self.checked.push(w as u32);
        }
    }
}

/// Where a body's [`Constraint`] comes from: a known pair (its index), or a Mighty body the
/// scan for a far body found (its index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Pair(u32),
    Body(u32),
}

/// The last check (see the module's documentation). `visited`: the Mighty–Weak pairs the last
/// Mighty pass visited; `surroundings`: the Mighty bodies a body moved far may meet.
pub(super) fn settle(
    bodies: &[Body],
    pairs: &[PairContact],
    visited: &[u32],
    surroundings: Surroundings,
    moves: &mut Moves,
    res: &mut Resolution,
    settings: &StepSettings,
) {
    let Resolution {
        settle, crushed, ..
    } = res;
    settle.recording = false;
    // Bodies moved beyond the reach (rare).
    let any_far = !moves.far().is_empty();
    for &i in moves.far() {
        settle.mark(i as usize);
    }
    if settle.checked.is_empty() {
        return;
    }
    // Their pairs among those the last pass visited. (A far body's island the last pass did
    // not visit settled in an earlier pass: the scan finds the Mighty bodies it meets.)
    settle.pairs.clear();
    for &k in visited {
        // (The pair tells which body is Weak, without reading a body record.)
        let pair = &pairs[k as usize];
        let (a, b) = pair.bodies();
        let w = if pair.pushes == Pushes::AOutOfB { a } else { b };
        if settle.marked[w] {
            settle.pairs.push((w as u32, k));
        }
    }
    settle.pairs.sort_unstable();
    settle.index.start_step();
    settle.checked.sort_unstable();
    let far = Far {
        surroundings,
        any: any_far,
    };
    let mut start = 0;
    for i in 0..settle.checked.len() {
        let w = settle.checked[i] as usize;
        settle.marked[w] = false;
        let end = start + settle.pairs[start..].partition_point(|&(b, _)| b as usize == w);
        let known = start..end;
        start = end;
        // Fills `settle.constraints` for `w` where it is now; returns the deepest overlap.
        let gather_now = |moves: &mut Moves, settle: &mut Settle| {
            gather(
                bodies,
                pairs,
                w,
                known.clone(),
                far,
                moves,
                settle,
                settings,
            )
        };
        let found = gather_now(moves, settle);
        if found <= settings.slop {
            continue; // the usual case: clear of every Mighty body
        }
        // Already reported crushed by a refused push: it stays where the passes left it.
        let entity = bodies[w].entity;
        let mut ok = false;
        if !crushed.iter().any(|&(body, _)| body == entity) {
            let before = moves.offset(w);
            for _ in 0..ROUNDS {
                let Some(x) = way_out(&settle.constraints, settings) else {
                    break;
                };
                moves.shift(w, x);
                for (c, _) in &settle.constraints {
                    if c.need > 0.0 && x.dot(c.out) <= c.need + settings.slop {
                        moves.stop_along(w, -c.out);
                    }
                }
                // Measured again where it is now (every Mighty body it may meet, not only
                // those it touched): the half-planes are exact along separating axes, but not
                // always out of one-way platforms, and the move may meet another body.
                let found = gather_now(moves, settle);
                if found <= settings.slop {
                    ok = true;
                    break;
                }
            }
            if !ok && moves.offset(w) != before {
                // No way out: back where the passes left it.
                moves.shift(w, before - moves.offset(w));
                gather_now(moves, settle);
            }
        }
        if !ok {
            // Crushed between the Mighty bodies it is in or touches.
            let crushers = settle
                .constraints
                .iter()
                .filter(|c| c.0.depth >= -settings.slop);
            crushed.extend(crushers.map(|c| (entity, c.0.mighty)));
        }
    }
    settle.checked.clear();
}

/// Relative round-off allowed in [`shortest_way_out`]: where two lines meet is found within a
/// few ulps of each.
const ROUND_OFF: f32 = 1.0e-5;

/// How many moves a body takes out of the Mighty bodies it is in, at most: each may meet a
/// body the one before did not touch.
const ROUNDS: usize = 3;

/// What a body moved beyond the step's reach may meet: the reach itself (how far from where
/// the narrow phase saw it a body may move and still meet only Mighty bodies it paired it
/// with), and this step's solid Mighty bodies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Surroundings<'a> {
    pub reach: f32,
    pub mighty: &'a MightyBoxes,
}

/// The [`Surroundings`], and whether any body may have moved beyond the reach this step.
#[derive(Clone, Copy, Debug)]
struct Far<'a> {
    surroundings: Surroundings<'a>,
    any: bool,
}

/// Fills `settle.constraints` with the constraints Weak body `w` has where it is now: those of
/// its known pairs (`known`, in `settle.pairs`), and if it is beyond the reach, those of the
/// Mighty bodies the scan finds. Returns the deepest overlap.
#[allow(clippy::too_many_arguments)]
fn gather(
    bodies: &[Body],
    pairs: &[PairContact],
    w: usize,
    known: core::ops::Range<usize>,
    far: Far,
    moves: &mut Moves,
    settle: &mut Settle,
    settings: &StepSettings,
) -> f32 {
    settle.constraints.clear();
    for j in known.clone() {
        let source = Source::Pair(settle.pairs[j].1);
        if let Some(c) = measure(bodies, pairs, w, source, moves, settings) {
            settle.constraints.push((c, source));
        }
    }
    let reach = far.surroundings.reach;
    if far.any && moves.offset(w).length_squared() > reach * reach {
        let boxes = far.surroundings.mighty;
        settle.index.prepare_scan(boxes);
        scan_mighty(bodies, pairs, boxes, w, known, moves, settle, settings);
    }
    let depths = settle.constraints.iter().map(|c| c.0.depth);
    depths.fold(f32::MIN, f32::max)
}

/// The shortest way out of every constraint (see [`shortest_way_out`]), unless it is longer
/// than [`LONGEST_WAY_OUT`] allows.
fn way_out(constraints: &[(Constraint, Source)], settings: &StepSettings) -> Option<Vec2> {
    let need = constraints.iter().map(|c| c.0.need).fold(0.0, f32::max);
    let longest = LONGEST_WAY_OUT * need + settings.margin;
    shortest_way_out(constraints, 0.5 * settings.slop).filter(|x| x.length() <= longest)
}

/// The constraint `source` sets Weak body `w` where it is now.
fn measure(
    bodies: &[Body],
    pairs: &[PairContact],
    w: usize,
    source: Source,
    moves: &mut Moves,
    settings: &StepSettings,
) -> Option<Constraint> {
    match source {
        Source::Pair(k) => pair_constraint(bodies, pairs, k as usize, moves, settings).1,
        Source::Body(m) => {
            let w_shape = moves.shape_now_against(bodies, w, m as usize)?;
            let (body, mighty) = (&bodies[w], &bodies[m as usize]);
            let c = collide_within(&w_shape, &mighty.shape, settings.margin)?;
            let contact = Overlap {
                normal: c.normal,
                depth: c.depth,
            };
            constraint(body, || w_shape.clone(), mighty, contact, settings)
        }
    }
}

/// Adds to `settle.constraints` those of the Mighty bodies Weak body `w` (moved beyond the
/// reach) touches where it is now that none of its known pairs (`known`, in `settle.pairs`)
/// is with: every moving one, and every still one or, once they are indexed, those whose left
/// is near.
#[allow(clippy::too_many_arguments)]
fn scan_mighty(
    bodies: &[Body],
    pairs: &[PairContact],
    boxes: &MightyBoxes,
    w: usize,
    known: core::ops::Range<usize>,
    moves: &mut Moves,
    settle: &mut Settle,
    settings: &StepSettings,
) {
    let body = &bodies[w];
    let aabb = moves.shape_now(bodies, w).aabb().grown(settings.margin);
    let Settle {
        pairs: known_pairs,
        constraints,
        index,
        ..
    } = settle;
    let consider = |b: &MightyBox| {
        let MightyBox {
            aabb: swept,
            body: m,
        } = *b;
        if !swept.overlaps(&aabb) {
            return;
        }
        let m = m as usize;
        let mighty = &bodies[m];
        let paired = known_pairs[known.clone()].iter().any(|&(_, k)| {
            let (a, b) = pairs[k as usize].bodies();
            a == m || b == m
        });
        if paired
            || !mighty.shape.aabb().overlaps(&aabb)
            || !body.resolves_with(mighty)
            || !body.layers.interacts_with(&mighty.layers)
            || body.shape_against(mighty).is_none()
            || is_passing(body, mighty, settings.margin)
        {
            return;
        }
        let source = Source::Body(m as u32);
        if let Some(c) = measure(bodies, pairs, w, source, moves, settings) {
            constraints.push((c, source));
        }
    };
    index.near(boxes, aabb, consider);
}

/// The shortest offset `x` with `x · out >= need - tolerance` for every constraint (up to
/// round-off), if there is one. In the plane the shortest lies on the lines of at most two of
/// them: no move, the move out of one alone, or where two lines meet, whichever of these is
/// allowed and shortest.
fn shortest_way_out(constraints: &[(Constraint, Source)], tolerance: f32) -> Option<Vec2> {
    let allowed = |x: Vec2| {
        let round_off = ROUND_OFF * (1.0 + x.length());
        x.is_finite()
            && constraints
                .iter()
                .all(|(c, _)| x.dot(c.out) >= c.need - tolerance - round_off * (1.0 + c.need.abs()))
    };
    let mut best: Option<Vec2> = None;
    let mut consider = |x: Vec2| {
        if allowed(x) && best.is_none_or(|b| x.length_squared() < b.length_squared()) {
            best = Some(x);
        }
    };
    consider(Vec2::ZERO);
    for (i, (c, _)) in constraints.iter().enumerate() {
        consider(c.out * c.need);
        for (d, _) in &constraints[i + 1..] {
            let det = c.out.perp_dot(d.out);
            if det.abs() > 1.0e-4 {
                // x · c.out = c.need and x · d.out = d.need.
                let x = Vec2::new(
                    c.need * d.out.y - d.need * c.out.y,
                    c.out.x * d.need - d.out.x * c.need,
                ) / det;
                consider(x);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wall(out: Vec2, need: f32) -> (Constraint, Source) {
        let c = Constraint {
            mighty: Entity::PLACEHOLDER,
            out: out.normalize(),
            need,
            depth: need,
        };
        (c, Source::Body(0))
    }

    /// In a wedge between a floor the body touches and a 45° plank it is 1 deep in, the
    /// shortest way out runs along the floor, √2 away, not out of the plank into the floor.
    #[test]
    fn the_way_out_of_a_wedge_runs_along_the_face_it_touches() {
        let wedge = [wall(Vec2::Y, 0.0), wall(Vec2::new(-1.0, -1.0), 1.0)];
        let x = shortest_way_out(&wedge, 0.0).expect("a way out");
        assert!(
            (x - Vec2::new(-core::f32::consts::SQRT_2, 0.0)).length() < 1e-5,
            "{x}"
        );
        // One face alone: straight out of it.
        let x = shortest_way_out(&wedge[1..], 0.0).expect("a way out");
        assert!((x - Vec2::new(-1.0, -1.0) / core::f32::consts::SQRT_2).length() < 1e-5);
        // Clear of both: no move.
        let clear = [wall(Vec2::Y, -0.5), wall(Vec2::X, 0.0)];
        assert_eq!(shortest_way_out(&clear, 0.0), Some(Vec2::ZERO));
    }

    /// Between a floor and a ceiling it is in, with nothing to slide along, there is no way
    /// out; nor is a way out taken when it is much longer than the overlap (a wedge a few
    /// degrees wide).
    #[test]
    fn there_is_no_way_out_between_opposite_faces_or_of_a_narrow_wedge() {
        let settings = StepSettings::default();
        let squeezed = [wall(Vec2::Y, 0.0), wall(Vec2::NEG_Y, 0.5)];
        assert_eq!(shortest_way_out(&squeezed, 0.0), None);
        assert_eq!(way_out(&squeezed, &settings), None);
        let narrow = [wall(Vec2::Y, 0.0), wall(Vec2::from_angle(-1.5), 0.5)];
        let x = shortest_way_out(&narrow, 0.0).expect("a long way out");
        assert!(x.length() > LONGEST_WAY_OUT * 0.5);
        assert_eq!(way_out(&narrow, &settings), None);
        let open = [wall(Vec2::Y, 0.0), wall(Vec2::from_angle(-2.0), 0.5)];
        assert!(way_out(&open, &settings).is_some());
    }
}
