//! Pushes of Weak bodies out of Mighty ones: along the minimum translation vector, except that
//! a floor-like contact pushes straight up (bodies stand still on slopes), a one-way platform
//! pushes out through its solid side, and an internal face (shared by flush Mighty neighbours)
//! is never a push axis. A push that would drive a body into another Mighty body it touches is
//! refused, and the body is crushed between them.

use bevy::prelude::*;
use sat_core::{Shape, exit_distance};

use super::{PREFETCH_DISTANCE, Resolution, landing, prefetch_visit};
use crate::config::StepSettings;
use crate::step::body::Body;
use crate::step::moves::{Moves, Overlap};
use crate::step::one_way::solid_side_at_start;
use crate::step::pair::{PairContact, Pushes};
use crate::step::seams::{open_faces, toward_internal_face};

/// The Mighty–Weak pairs and what the Mighty passes found of them.
#[derive(Default, Debug)]
pub(crate) struct MightyPairs {
    /// The Mighty–Weak pairs (their indices, in order): the pairs the Mighty passes visit.
    pub all: Vec<u32>,
    /// The ones the pass under way (or the last pass) visits, in order.
    pub(super) visited: Vec<u32>,
    /// Per visited pair, its push as the pass's first loop found it.
    pushes: Vec<Pushed>,
    /// The pushes refused this step, in every pass.
    pub blocked: Vec<Blocked>,
}

/// The push of Mighty body `mighty` on Weak body `weak`, found when `weak` was at `version`.
#[derive(Clone, Copy, Debug)]
struct Pushed {
    weak: usize,
    version: u32,
    mighty: Entity,
    push: Option<Push>,
}

/// A push of Mighty body `mighty` on Weak body `body` (Mighty–Weak pair `pair`) that pass
/// `pass` refused, since it would have driven the body into Mighty body `other`: the body is
/// crushed between them, if the pass is the last visit of its island.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocked {
    pub pass: u32,
    pub pair: u32,
    pub body: Entity,
    pub mighty: Entity,
    pub other: Entity,
}

/// What a Mighty body does to a Weak one it touches.
#[derive(Clone, Copy, Debug)]
struct Push {
    /// Move the Weak body by this.
    offset: Vec2,
    /// The direction into the Mighty body: the Weak body cannot be pushed that way any more,
    /// and loses its velocity along it.
    into: Vec2,
}

/// The push of Mighty `m` on Weak `w` where they touch (`contact`, from `w` to `m`);
/// `w_shape` gives `w`'s shape where resolution has moved it (needed only for some pushes).
/// `one_way`: whether `m` is a one-way platform (as the pair knows). A push of a body touching
/// within the slop reads neither body record.
/// `floating`: whether `w` is [`Floating`](crate::Floating), which no surface holds up (it is
/// pushed out of slopes along their normal).
fn mighty_push(
    w: &Body,
    w_shape: impl Fn() -> Shape,
    m: &Body,
    (one_way, floating): (bool, bool),
    contact: Overlap,
    settings: &StepSettings,
) -> Option<Push> {
    if one_way {
        let side = solid_side_at_start(w, m, settings.margin)?;
        let lift = if contact.depth > settings.slop {
            exit_distance(&w_shape(), &m.shape, side).unwrap_or(0.0)
        } else {
            0.0
        };
        return Some(Push {
            offset: side * lift,
            into: -side,
        });
    }
    let n = contact.normal; // from w into m
    if contact.depth <= settings.slop {
        return Some(Push {
            offset: Vec2::ZERO,
            into: n,
        });
    }
    let (mut out, mut distance) = (-n, contact.depth);
    if toward_internal_face(m, -n) {
        // The shortest way out is through a face a flush neighbour covers (or out of a corner
        // beside one): take the shortest way through an open face instead.
        let w_shape = w_shape();
        if let Some((face, d)) = open_faces(m)
            .filter_map(|f| exit_distance(&w_shape, &m.shape, f).map(|d| (f, d)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
        {
            (out, distance) = (face, d);
        }
    }
    if settings.is_floor(out) && out != Vec2::Y && !floating {
        // Stand on slopes: out of a floor straight up, so gravity does not slide the body down.
        if let Some(up) = exit_distance(&w_shape(), &m.shape, Vec2::Y)
            .filter(|up| *up <= 2.0 * distance / settings.floor_cos.max(0.1) + settings.margin)
        {
            (out, distance) = (Vec2::Y, up);
        }
    }
    if !floating && out.y > 0.0 && !settings.is_floor(out) && landing::is_round(&w.shape) {
        // A round end that came down onto a corner at a floor's angle stands on it.
        if let Some(up) = landing::floor_landing_lift(w, &w_shape(), m, distance, settings) {
            (out, distance) = (Vec2::Y, up);
        }
    }
    Some(Push {
        offset: out * distance,
        into: -out,
    })
}

/// What Mighty–Weak pair `k` asks of its Weak body where it is now, as a half-plane of the
/// offsets that take it out: the body must move by some `x` with `x · out >= need`. Along a
/// separating axis (the contact normal), any such `x` separates the pair on that axis; out
/// of a one-way platform, through its solid side, by the distance to leave it that way.
/// `None` when they do not touch (within the margin), or the pair is passing through a
/// one-way platform.
#[derive(Clone, Copy, Debug)]
pub(super) struct Constraint {
    pub mighty: Entity,
    pub out: Vec2,
    pub need: f32,
    /// How deep the Weak body is in the Mighty one (negative: apart, within the margin).
    pub depth: f32,
}

/// The [`Constraint`] that Mighty body `m` sets Weak body `w`, whose contact (from `w` to
/// `m`, where `w` is now) is `contact`, and whose shape where it is now `w_shape` gives.
pub(super) fn constraint(
    w: &Body,
    w_shape: impl Fn() -> Shape,
    m: &Body,
    contact: Overlap,
    settings: &StepSettings,
) -> Option<Constraint> {
    let (out, need) = if m.one_way.is_some() {
        let push = mighty_push(w, w_shape, m, (true, false), contact, settings)?;
        (-push.into, push.offset.length().max(contact.depth.min(0.0)))
    } else {
        (-contact.normal, contact.depth)
    };
    Some(Constraint {
        mighty: m.entity,
        out,
        need,
        depth: contact.depth,
    })
}

/// The [`Constraint`] of Mighty–Weak pair `k` on its Weak body (whose index comes first).
pub(super) fn pair_constraint(
    bodies: &[Body],
    pairs: &[PairContact],
    k: usize,
    moves: &mut Moves,
    settings: &StepSettings,
) -> (usize, Option<Constraint>) {
    let (w, m, contact) = weak_side(bodies, pairs, k, moves, settings);
    let w_shape = || shape_now_against(moves, bodies, w, m);
    let found = contact.and_then(|c| constraint(&bodies[w], w_shape, &bodies[m], c, settings));
    (w, found)
}

/// Weak body `w`'s shape where resolution has moved it, as Mighty body `m` meets it (its whole
/// shape if no part does: such a pair is never found, this only keeps the question answered).
pub(super) fn shape_now_against(moves: &Moves, bodies: &[Body], w: usize, m: usize) -> Shape {
    moves
        .shape_now_against(bodies, w, m)
        .unwrap_or_else(|| moves.shape_now(bodies, w))
}

/// Mighty–Weak pair `k` as its Weak body sees it: the Weak body's index, the Mighty one's, and
/// their overlap where they are now with its normal from the Weak body to the Mighty one.
#[inline]
pub(super) fn weak_side(
    bodies: &[Body],
    pairs: &[PairContact],
    k: usize,
    moves: &mut Moves,
    settings: &StepSettings,
) -> (usize, usize, Option<Overlap>) {
    let pair = &pairs[k];
    let weak_is_a = pair.pushes == Pushes::AOutOfB;
    let (a, b) = pair.bodies();
    let (w, m) = if weak_is_a { (a, b) } else { (b, a) };
    let contact = moves
        .overlap(k, bodies, pair, settings.margin)
        .map(|c| if weak_is_a { c } else { c.flipped() });
    (w, m, contact)
}

/// The Weak body of pair `k` (its index), the Mighty one (its entity), and the push of the
/// one on the other.
fn mighty_weak_push(
    bodies: &[Body],
    pairs: &[PairContact],
    k: usize,
    moves: &mut Moves,
    settings: &StepSettings,
) -> (usize, Entity, Option<Push>) {
    let (w, m, contact) = weak_side(bodies, pairs, k, moves, settings);
    let w_shape = || shape_now_against(moves, bodies, w, m);
    let pair = &pairs[k];
    let kind = (pair.one_way, moves.is_floating(w));
    let push =
        contact.and_then(|c| mighty_push(&bodies[w], w_shape, &bodies[m], kind, c, settings));
    // (From the pair record, in hand, rather than the Mighty body's.)
    let (a, b) = pair.entities;
    let mighty = if pair.pushes == Pushes::AOutOfB { b } else { a };
    (w, mighty, push)
}

/// Pushes Weak bodies out of Mighty ones. All holds are taken first, so that a push that would
/// drive a body into another Mighty body it touches is refused whatever the pair order; such
/// pushes are recorded in [`MightyPairs::blocked`]. Visits the Mighty–Weak pairs of `pairs` (listed
/// in [`MightyPairs::all`]) that the pass under way visits.
pub(super) fn mighty_pass(
    bodies: &mut [Body],
    pairs: &[PairContact],
    moves: &mut Moves,
    res: &mut Resolution,
    settings: &StepSettings,
) {
    res.mighty.pushes.clear();
    let mut visited = std::mem::take(&mut res.mighty.visited);
    let every = res.mighty.all.iter().copied();
    res.islands.visited(every, &mut visited);
    for (i, &k) in visited.iter().enumerate() {
        let k = k as usize;
        moves.prefetch_versions(pairs, visited.get(i + 2 * PREFETCH_DISTANCE));
        if let Some(&ahead) = visited.get(i + PREFETCH_DISTANCE) {
            prefetch_visit(moves, &res.holds, bodies, pairs, ahead as usize);
        }
        let (w, mighty, push) = mighty_weak_push(bodies, pairs, k, moves, settings);
        if let Some(push) = push {
            res.holds.add(w, push.into, Some(mighty));
        }
        res.mighty.pushes.push(Pushed {
            weak: w,
            version: moves.version(w),
            mighty,
            push,
        });
    }
    for (i, &k) in visited.iter().enumerate() {
        let k = k as usize;
        // The push found above, unless an earlier push of this loop moved the Weak body.
        let Pushed {
            weak: w,
            version,
            mighty,
            push,
        } = res.mighty.pushes[i];
        let push = if version == moves.version(w) {
            push
        } else {
            mighty_weak_push(bodies, pairs, k, moves, settings).2
        };
        let Some(push) = push else {
            continue;
        };
        let Some(direction) = push.offset.try_normalize() else {
            continue;
        };
        if let Some(other) = res.holds.blocker(w, direction, mighty) {
            res.mighty.blocked.push(Blocked {
                pass: res.islands.pass(),
                pair: k as u32,
                body: bodies[w].entity,
                mighty,
                other,
            });
            continue;
        }
        moves.shift(w, push.offset);
        moves.stop_along(w, push.into);
        res.islands.moved(k);
        res.settle.pushed(w);
    }
    res.mighty.visited = visited;
}
