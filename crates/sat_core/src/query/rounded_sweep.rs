//! The sweep of a pair in which a shape is rounded (a capsule, a bare segment, a rounded
//! polygon), for shapes apart at the start.
//!
//! Two translating convex shapes first touch where a corner of one core comes within the
//! summed radii of an edge or a corner of the other: every corner of each core is cast as a
//! ray (A's along the motion, B's against it) at the other core's edges pushed out by the radii
//! and at its corners grown into discs of the radii. The earliest of these is the time of
//! impact: exact, in `f64`, whatever the speed.

use glam::{DVec2, Vec2};

use super::contact::Hit;
use super::distance::{Core, core_of};
use super::sweep::ray_circle;
use crate::shape::ShapeRef;

/// Round-off in the `f32` coordinates of the shapes, as a fraction of their magnitude: a few
/// units in the last place. A corner this close to an edge's line (behind it included) or
/// beyond its end still meets the edge, so that shapes placed touching, whose coordinates were
/// rounded apart or into each other, are not missed when a bare segment's end meets another's
/// end, where no edge is met inside its extent.
const ROUND_OFF: f64 = 4.0 * f32::EPSILON as f64;

/// Of a face hit and a disc hit this close in time (as a fraction of the motion), the face's
/// is kept: the disc's time is found through a square root, the face's by a division, and a
/// corner met where its face starts must give the face's normal.
const SAME_TIME: f64 = 1.0e-7;

/// The earliest contact found so far: its time, its normal from A to B, and whether a face
/// gave it.
#[derive(Default)]
struct Earliest(Option<(f64, DVec2, bool)>);

impl Earliest {
    fn consider(&mut self, t: f64, normal: DVec2, face: bool) {
        let better = match self.0 {
            None => true,
            Some((best, _, best_face)) => match (face, best_face) {
                (true, false) => t <= best + SAME_TIME,
                (false, true) => t + SAME_TIME < best,
                _ => t < best,
            },
        };
        if better {
            self.0 = Some((t, normal, face));
        }
    }
}

/// When A, translating by `motion` relative to B, first touches B, for shapes that do not
/// overlap at the start, at least one of them rounded.
pub(crate) fn sweep_rounded(a: ShapeRef<'_>, b: ShapeRef<'_>, motion: Vec2) -> Option<Hit> {
    let (core_a, radius_a) = core_of(a);
    let (core_b, radius_b) = core_of(b);
    let reach = radius_a + radius_b;
    let mut earliest = Earliest::default();
    let forward = motion.as_dvec2();
    for &corner in core_a.points() {
        for_edges(&core_b, corner, forward, reach, |t, normal| {
            earliest.consider(t, normal, true);
        });
        if reach > 0.0 {
            for &other in core_b.points() {
                if let Some((t, normal)) = disc_hit(corner, motion, other, reach) {
                    earliest.consider(t, normal, false);
                }
            }
        }
    }
    // B's corners move against the motion relative to A; the normal from them to A's edge is
    // the reverse of A's to B.
    for &corner in core_b.points() {
        for_edges(&core_a, corner, -forward, reach, |t, normal| {
            earliest.consider(t, -normal, true);
        });
    }
    let (toi, normal, _) = earliest.0?;
    Some(Hit {
        toi: (toi as f32).clamp(0.0, 1.0),
        normal: normal.as_vec2(),
        depth: 0.0,
    })
}

/// Calls `hit` with the time and the normal (from the corner to the edge) of each edge of
/// `core`, pushed out by `reach` along its outward normal, that `corner` meets moving by
/// `motion` within the motion. The normal is computed here in `f64` from the edge's ends, so
/// that a segment's two sides are exact opposites.
fn for_edges(
    core: &Core,
    corner: DVec2,
    motion: DVec2,
    reach: f64,
    mut hit: impl FnMut(f64, DVec2),
) {
    for i in 0..core.edges() {
        let (start, edge, _) = core.edge(i);
        let length = edge.length();
        // Outward: the right-hand side of a counter-clockwise outline's edge.
        let Some(normal) = DVec2::new(edge.y, -edge.x).try_normalize() else {
            continue;
        };
        let slack = ROUND_OFF
            * corner
                .abs()
                .max_element()
                .max(start.abs().max_element())
                .max(1.0);
        let outside = (corner - start).dot(normal);
        let approach = -motion.dot(normal);
        if outside < -slack || approach <= 0.0 {
            continue; // behind the edge's line, or not heading towards it
        }
        // Within the reach already (only through round-off, as the shapes do not overlap):
        // touching at the start.
        let gap = (outside - reach).max(0.0);
        if gap > approach {
            continue; // beyond the motion
        }
        let t = gap / approach;
        let along = (corner + motion * t - start).dot(edge);
        let within = slack * length;
        if along >= -within && along <= length * length + within {
            hit(t, -normal);
        }
    }
}

/// When the point `start` moving by `motion` comes within `reach` of `center`, and the normal
/// from it to the centre then.
fn disc_hit(start: DVec2, motion: Vec2, center: DVec2, reach: f64) -> Option<(f64, DVec2)> {
    // The core's corners are `f32` points widened to `f64`: narrowing them back is exact.
    let t = ray_circle(start.as_vec2(), motion, center.as_vec2(), reach)?;
    let t = f64::from(t);
    let normal = (center - (start + motion.as_dvec2() * t)).try_normalize()?;
    Some((t, normal))
}
