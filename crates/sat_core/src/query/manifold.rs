//! Contact points by clipping the incident edge against the reference face (as Box2D does).

use glam::{Vec2, Vec4, Vec4Swizzles};

use super::contact::Contact;
use crate::shape::ConvexPolygon;

/// Index of the normal of `polygon` most aligned with `direction` (the first of equals).
///
/// All `MAX_VERTICES` slots at once, four to a vector (the unused ones at `-inf`, so they never
/// win): the highest dot product, then the first slot that has it. No branch depends on the
/// shapes, whose winning normal changes from pair to pair in no pattern a branch predictor
/// could learn.
#[inline]
fn most_aligned(polygon: &ConvexPolygon, direction: Vec2) -> usize {
    let n = &polygon.normals;
    let (x, y) = (Vec4::splat(direction.x), Vec4::splat(direction.y));
    let len = Vec4::splat(f32::from(polygon.len));
    let dots = |k: usize| {
        let d = Vec4::new(n[k].x, n[k + 1].x, n[k + 2].x, n[k + 3].x) * x
            + Vec4::new(n[k].y, n[k + 1].y, n[k + 2].y, n[k + 3].y) * y;
        let slot = Vec4::new(0.0, 1.0, 2.0, 3.0) + Vec4::splat(k as f32);
        Vec4::select(slot.cmplt(len), d, Vec4::NEG_INFINITY)
    };
    let (low, high) = (dots(0), dots(4));
    let best = low.max(high);
    let best = best.zwzw().max(best);
    let best = Vec4::splat(best.yyyy().max(best).x);
    let first = low.cmpeq(best).bitmask() | high.cmpeq(best).bitmask() << 4;
    // None equal only for a NaN direction: then, as for any tie, the first slot.
    if first == 0 {
        0
    } else {
        first.trailing_zeros() as usize
    }
}

/// Keeps the part of segment `p` where `tangent · x >= limit`.
///
/// With branches, unlike the face choice above: the cut costs a division, and a segment that
/// lies wholly on one side, as most do, needs none; a branch-free version would divide on
/// every call.
#[inline]
pub(super) fn clip_segment(p: [Vec2; 2], tangent: Vec2, limit: f32) -> Option<[Vec2; 2]> {
    let d0 = p[0].dot(tangent) - limit;
    let d1 = p[1].dot(tangent) - limit;
    match (d0 >= 0.0, d1 >= 0.0) {
        (true, true) => Some(p),
        (false, false) => None,
        (inside0, _) => {
            let cut = p[0] + (p[1] - p[0]) * (d0 / (d0 - d1));
            Some(if inside0 { [p[0], cut] } else { [cut, p[1]] })
        }
    }
}

/// The contact of an overlapping pair whose separating normal (from `reference` towards
/// `incident`) belongs to `reference`; `depth` is the overlap along it. `face`, when known, is
/// the reference edge whose outward normal is `normal`.
pub(crate) fn clip_manifold(
    reference: &ConvexPolygon,
    incident: &ConvexPolygon,
    normal: Vec2,
    depth: f32,
    face: Option<usize>,
) -> Contact {
    let face = face.unwrap_or_else(|| most_aligned(reference, normal));
    let face_normal = reference.normals[face];
    let r1 = reference.vertices[face];
    let r2 = reference.edge_end(face);
    let edge = most_aligned(incident, -face_normal);
    let segment = [incident.vertices[edge], incident.edge_end(edge)];
    // Measure from r1 for precision far from the origin.
    let tangent = face_normal.perp(); // along r1 → r2 for a counter-clockwise polygon
    let local = [segment[0] - r1, segment[1] - r1];
    let clipped = clip_segment(local, tangent, 0.0)
        .and_then(|s| clip_segment(s, -tangent, -(r2 - r1).dot(tangent)));
    // Keep the points within round-off of the deepest possible one (a negative depth is a gap).
    let slop = 1.0e-5 * (reference.radius + incident.radius).max(1.0)
        + depth.abs() * 1.0e-4
        + (-depth).max(0.0);
    let mut points = [Vec2::ZERO; 2];
    let mut count = 0;
    if let Some(clipped) = clipped {
        for p in clipped {
            let separation = p.dot(face_normal);
            if separation <= slop {
                // Halfway between the incident point and the reference face.
                points[count] = r1 + p - face_normal * (separation * 0.5);
                count += 1;
            }
        }
    }
    match count {
        2 => Contact::two_points(normal, depth, points),
        1 => Contact::one_point(normal, depth, points[0]),
        _ => {
            // Only through round-off: fall back to the incident vertex deepest in the reference.
            let (_, deepest) = incident.support(-face_normal);
            let separation = (deepest - r1).dot(face_normal);
            Contact::one_point(normal, depth, deepest - face_normal * (separation * 0.5))
        }
    }
}
