//! Fast pairs placed at their time of impact: each Weak body takes back the part of its motion
//! after the impact that went into the other body, and keeps the part that slides along it.

use bevy::prelude::*;

use super::Resolution;
use crate::config::StepSettings;
use crate::step::body::{Body, Kind};
use crate::step::moves::Moves;
use crate::step::one_way;
use crate::step::pair::FastHit;
use crate::step::seams::toward_internal_face;
use sat_core::Shape;

/// A body's motion after an impact that is taken back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rewind {
    /// The body.
    pub body: usize,
    /// When it hit, as a fraction of the step.
    pub toi: f32,
    /// How far it moved into the other body after the hit.
    pub offset: Vec2,
    /// The direction into the other body: its velocity along it stops.
    pub into: Vec2,
}

/// Fast pairs: each Weak body takes back the part of its motion after the impact that went
/// into the other body (the earliest impact if it has several), and keeps sliding. The
/// rewinds start cleared ([`resolve`](super::resolve) clears them, whether or not a pair has
/// a hit).
pub(super) fn place_at_time_of_impact(
    bodies: &mut [Body],
    hits: &[FastHit],
    moves: &mut Moves,
    res: &mut Resolution,
    settings: &StepSettings,
) {
    let rewinds = &mut res.rewinds;
    for &FastHit { pair: p, hit } in hits {
        if p.unpushed() {
            continue;
        }
        let (i, j) = p.bodies();
        let (a, b) = (&bodies[i], &bodies[j]);
        let late = 1.0 - hit.toi;
        let n = match (a.kind, b.kind) {
            (Kind::Weak, Kind::Mighty) => -face_normal_near(b, -hit.normal),
            (Kind::Mighty, Kind::Weak) => face_normal_near(a, hit.normal),
            _ => hit.normal,
        }; // from a to b
        let relative = a.motion() - b.motion();
        match (a.kind, b.kind) {
            // A hit on a face a flush neighbour covers (an internal face), or on a corner beside
            // one, is no wall: the body slides over the seam, and the neighbour stops it if
            // anything does.
            (Kind::Weak, Kind::Mighty) => {
                if let Some(into) = one_way::hit_direction(a, b, n, settings)
                    && !toward_internal_face(b, -n)
                {
                    rewinds.push(Rewind {
                        body: i,
                        toi: hit.toi,
                        offset: into * (relative.dot(into) * late).max(0.0),
                        into,
                    });
                }
            }
            (Kind::Mighty, Kind::Weak) => {
                if let Some(into) = one_way::hit_direction(b, a, -n, settings)
                    && !toward_internal_face(a, n)
                {
                    rewinds.push(Rewind {
                        body: j,
                        toi: hit.toi,
                        offset: into * ((-relative).dot(into) * late).max(0.0),
                        into,
                    });
                }
            }
            _ => {
                let approach_a = a.motion().dot(n).max(0.0);
                let approach_b = (-b.motion().dot(n)).max(0.0);
                rewinds.push(Rewind {
                    body: i,
                    toi: hit.toi,
                    offset: n * (approach_a * late),
                    into: n,
                });
                rewinds.push(Rewind {
                    body: j,
                    toi: hit.toi,
                    offset: -n * (approach_b * late),
                    into: -n,
                });
            }
        }
    }
    // Earliest hit per body; equal times keep the pair order.
    rewinds.sort_by(|x, y| x.body.cmp(&y.body).then(x.toi.total_cmp(&y.toi)));
    let mut last = usize::MAX;
    for rewind in &res.rewinds {
        if rewind.body == last {
            continue;
        }
        last = rewind.body;
        moves.shift(rewind.body, -rewind.offset);
        moves.stop_along(rewind.body, rewind.into);
    }
}

/// A hit's normal out of Mighty body `m`, `outward`, or the normal of the face of `m` it lies
/// within round-off of. A round body meeting a polygon's corner with its centre a round-off
/// beyond the face's end (a body sliding along a floor that ends at a corner, where a flush
/// neighbour takes over) gets the corner's normal, tilted from the face's by that round-off:
/// taken as it is, it would stop a little of the body's sliding speed and let it sink as
/// little into the neighbour. Within this angle the face is what the body touches.
fn face_normal_near(m: &Body, outward: Vec2) -> Vec2 {
    /// The cosine of 1e-3 rad, the largest tilt taken for round-off.
    const NEAR_FACE_COS: f32 = 1.0 - 5.0e-7;
    let Shape::Polygon(p) = &m.shape else {
        return outward;
    };
    p.normals()
        .iter()
        .copied()
        .find(|face| face.dot(outward) > NEAR_FACE_COS)
        .unwrap_or(outward)
}
