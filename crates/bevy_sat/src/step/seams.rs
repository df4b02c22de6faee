//! Internal faces: where two Mighty polygons lie flush (a tiled floor), the faces they share
//! are never push axes, so a body sliding over the seam is not snagged by the next tile's side
//! (the "ghost collision" other engines are known for).

use bevy::prelude::*;
use sat_core::{ConvexPolygon, Shape};

use super::body::Body;

/// Normals closer than this to opposite count as facing each other.
const OPPOSITE_COS: f32 = -0.9999;

/// Marks in `a.internal` every edge of `a` that lies on an edge of `b` facing it and is
/// entirely covered by it, and the same for `b`. Returns the edges it found, of `a` and of `b`.
pub(crate) fn mark_internal_faces(a: &mut Body, b: &mut Body, tolerance: f32) -> (u16, u16) {
    let (Shape::Polygon(pa), Shape::Polygon(pb)) = (&a.shape, &b.shape) else {
        return (0, 0);
    };
    let (found_a, found_b) = covered_faces(pa, pb, tolerance);
    a.internal |= found_a;
    b.internal |= found_b;
    (found_a, found_b)
}

/// The edges of `pa` that lie on an edge of `pb` facing them, within `tolerance`, and are
/// entirely covered by it (bit `i`: edge `i`), and the same of `pb`.
pub(crate) fn covered_faces(pa: &ConvexPolygon, pb: &ConvexPolygon, tolerance: f32) -> (u16, u16) {
    let (mut found_a, mut found_b) = (0u16, 0u16);
    for i in 0..pa.vertices().len() {
        for j in 0..pb.vertices().len() {
            if pa.normals()[i].dot(pb.normals()[j]) > OPPOSITE_COS {
                continue;
            }
            if covered(pa, i, pb, j, tolerance) {
                found_a |= 1 << i;
            }
            if covered(pb, j, pa, i, tolerance) {
                found_b |= 1 << j;
            }
        }
    }
    (found_a, found_b)
}

fn edge(p: &ConvexPolygon, i: usize) -> (Vec2, Vec2) {
    let v = p.vertices();
    (v[i], v[(i + 1) % v.len()])
}

/// Whether edge `i` of `p` lies on the line of edge `j` of `q` and within its extent.
fn covered(p: &ConvexPolygon, i: usize, q: &ConvexPolygon, j: usize, tolerance: f32) -> bool {
    let (p0, p1) = edge(p, i);
    let (q0, q1) = edge(q, j);
    let normal = q.normals()[j];
    if (p0 - q0).dot(normal).abs() > tolerance || (p1 - q0).dot(normal).abs() > tolerance {
        return false;
    }
    let tangent = normal.perp();
    let (lo, hi) = {
        let (a, b) = (q0.dot(tangent), q1.dot(tangent));
        (a.min(b) - tolerance, a.max(b) + tolerance)
    };
    let inside = |x: Vec2| (lo..=hi).contains(&x.dot(tangent));
    inside(p0) && inside(p1)
}

/// Whether the face of Mighty body `m` that faces direction `outward` is internal (one a flush
/// neighbour covers). Unlike [`toward_internal_face`], a direction out of a corner beside such a
/// face does not count: a contact there is a real one.
pub(crate) fn is_internal_face(m: &Body, outward: Vec2) -> bool {
    let Shape::Polygon(p) = &m.shape else {
        return false;
    };
    p.normals()
        .iter()
        .enumerate()
        .any(|(i, n)| m.internal & (1 << i) != 0 && n.dot(outward) > -OPPOSITE_COS)
}

/// Whether a push out of Mighty body `m` along `outward` would be through an internal face:
/// `outward` is an internal face's normal, or points out of a corner beside one (a circle
/// meeting the corner where two flush neighbours meet is pushed out of the corner's vertex,
/// not out of a face). Either way, the way out is through an open face.
pub(crate) fn toward_internal_face(m: &Body, outward: Vec2) -> bool {
    if m.internal == 0 {
        return false; // the usual case: no flush neighbour
    }
    let Shape::Polygon(p) = &m.shape else {
        return false;
    };
    let mut beside_internal = false;
    for (i, n) in p.normals().iter().enumerate() {
        let along = n.dot(outward);
        let internal = m.internal & (1 << i) != 0;
        if along > -OPPOSITE_COS {
            return internal; // along a face: internal or open
        }
        beside_internal |= internal && along > CORNER_DOT;
    }
    beside_internal
}

/// A direction counts as leaning toward a face when its dot product with the face's normal is
/// above this: out of the corner beside it.
const CORNER_DOT: f32 = 1e-3;

/// The outward normals of the faces of `m` that are not internal (for any shape but a polygon:
/// none, as only polygons have internal faces).
pub(crate) fn open_faces(m: &Body) -> impl Iterator<Item = Vec2> + '_ {
    let normals: &[Vec2] = match &m.shape {
        Shape::Polygon(p) => p.normals(),
        _ => &[],
    };
    normals
        .iter()
        .enumerate()
        .filter(move |(i, _)| m.internal & (1 << i) == 0)
        .map(|(_, n)| *n)
}
