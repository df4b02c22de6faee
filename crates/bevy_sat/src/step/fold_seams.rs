//! The faces where two solid parts of one Weak body meet, found when the parts are folded into
//! the body's compound (see `children`): such a face is internal, never a push axis, as
//! between the parts of a concave outline. Otherwise an obstacle reaching just past the seam
//! between two flush parts would be measured against the seam's face and shove the body
//! sideways.
//!
//! An edge is internal when an edge of a part of another source (the body's own collider, or
//! another child collider) lies flush along it, facing the opposite way, and covers it from
//! end to end: an edge only partly covered stays a face where it is open.

use sat_core::{Aabb, Shape};

use super::seams::covered_faces;

/// How far apart two edges may lie and still be flush, in world units, besides the round-off
/// of their coordinates (see [`tolerance`]).
const FLUSH: f32 = 1e-3;

/// A placed part of a folded body: its shape, its internal-edge mask, and its source (parts
/// of one source never hide each other's faces: a compound collider hides none of its own).
#[derive(Clone, Debug)]
pub(crate) struct FoldPart {
    /// The part, placed in the world.
    pub shape: Shape,
    /// Its internal edges (bit `i`: edge `i` of a polygon).
    pub internal: u16,
    /// Which collider it comes from.
    pub source: u32,
}

/// Marks in `parts` the edges covered by a flush, opposite edge of a part of another source.
// Kept out of line so that profiles show it apart from the folding.
#[inline(never)]
pub(crate) fn mark_shared_faces(parts: &mut [FoldPart]) {
    for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            if parts[i].source == parts[j].source {
                continue;
            }
            let (Shape::Polygon(p), Shape::Polygon(q)) = (&parts[i].shape, &parts[j].shape) else {
                continue;
            };
            let (p_box, q_box) = (parts[i].shape.aabb(), parts[j].shape.aabb());
            let tolerance = tolerance(p_box, q_box);
            if !near(p_box, q_box, tolerance) {
                continue;
            }
            let (on_p, on_q) = covered_faces(p, q, tolerance);
            parts[i].internal |= on_p;
            parts[j].internal |= on_q;
        }
    }
}

/// The tolerance for edges of two parts within boxes `p` and `q`: [`FLUSH`] and the round-off
/// of coordinates of their size.
fn tolerance(p: Aabb, q: Aabb) -> f32 {
    let size = p
        .min
        .abs()
        .max(p.max.abs())
        .max(q.min.abs().max(q.max.abs()));
    FLUSH + size.max_element() * 8.0 * f32::EPSILON
}

/// Whether two boxes come within `slack` of each other.
fn near(p: Aabb, q: Aabb, slack: f32) -> bool {
    p.min.x <= q.max.x + slack
        && q.min.x <= p.max.x + slack
        && p.min.y <= q.max.y + slack
        && q.min.y <= p.max.y + slack
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::prelude::Vec2;
    use sat_core::{ConvexPolygon, Pose};

    fn square_at(x: f32, y: f32, size: f32) -> Shape {
        let pose = Pose::from_translation(Vec2::new(x, y));
        Shape::from(ConvexPolygon::rectangle(size, size))
            .transformed(&pose)
            .unwrap()
    }

    fn masks(parts: Vec<(Shape, u32)>) -> Vec<u16> {
        let mut parts: Vec<FoldPart> = parts
            .into_iter()
            .map(|(shape, source)| FoldPart {
                shape,
                internal: 0,
                source,
            })
            .collect();
        mark_shared_faces(&mut parts);
        parts.iter().map(|p| p.internal).collect()
    }

    /// The rectangle's edges, counter-clockwise from its bottom-left corner: bottom (0), right
    /// (1), top (2), left (3).
    #[test]
    fn rectangle_edges_are_numbered_from_the_bottom() {
        let Shape::Polygon(p) = square_at(0.0, 0.0, 2.0) else {
            panic!("a polygon");
        };
        assert_eq!(p.vertices()[0], Vec2::new(-1.0, -1.0));
        assert_eq!(p.normals(), &[Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X]);
    }

    #[test]
    fn two_flush_squares_side_by_side_hide_the_faces_between_them() {
        let found = masks(vec![
            (square_at(1000.0, 500.0, 10.0), 0),
            (square_at(1010.0, 500.0, 10.0), 1),
        ]);
        assert_eq!(found, vec![1 << 1, 1 << 3]);
    }

    #[test]
    fn a_smaller_square_below_hides_only_its_own_top() {
        // A 20 square and a 10 square flush below its middle: the small one's top is covered,
        // the big one's bottom is open on either side of it.
        let found = masks(vec![
            (square_at(0.0, 0.0, 20.0), 0),
            (square_at(0.0, -15.0, 10.0), 1),
        ]);
        assert_eq!(found, vec![0, 1 << 2]);
    }

    #[test]
    fn gaps_offsets_and_one_source_hide_nothing() {
        // A gap of 0.01, squares meeting only at a corner, and two parts of one source.
        let gap = masks(vec![
            (square_at(0.0, 0.0, 10.0), 0),
            (square_at(10.01, 0.0, 10.0), 1),
        ]);
        let corner = masks(vec![
            (square_at(0.0, 0.0, 10.0), 0),
            (square_at(10.0, 10.0, 10.0), 1),
        ]);
        let same = masks(vec![
            (square_at(0.0, 0.0, 10.0), 2),
            (square_at(10.0, 0.0, 10.0), 2),
        ]);
        assert_eq!((gap, corner, same), (vec![0, 0], vec![0, 0], vec![0, 0]));
    }
}
