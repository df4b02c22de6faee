//! Splitting any simple polygon into a few convex parts: [`convex_decomposition`] and its
//! answer, [`ConvexParts`].
//!
//! The outline is checked ([`outline`]), cut into triangles by ear clipping ([`triangulate`]),
//! the triangles reshaped by edge flips ([`flip`]) and merged into convex parts by Hertel–Mehlhorn ([`merge`]). Each part
//! records which of its edges are internal (shared with another part): a body made of the
//! parts should never be pushed out along those, as they are not part of its surface.

mod flip;
mod merge;
mod outline;
mod triangulate;

use glam::Vec2;

use crate::{ConvexPolygon, MAX_VERTICES, PolygonError};

/// The most points an outline given to [`convex_decomposition`] may have.
///
/// Checking that the outline does not cross itself and clipping its ears both take time
/// growing with the square of the number of points; this keeps a bad call to well under a
/// second.
pub const MAX_OUTLINE_VERTICES: usize = 1024;

// The internal-edge masks hold one bit per edge of a part.
const _: () = assert!(MAX_VERTICES <= 16);

/// A simple polygon split into convex parts, in the polygon's frame: the answer of
/// [`convex_decomposition`].
///
/// Part `i` is [`parts()`](Self::parts)`[i]`; bit `k` of
/// [`internal_edges()`](Self::internal_edges)`[i]` is set when the part's edge `k` (from
/// `vertices()[k]` to the next vertex, in the part's stored counter-clockwise order) is shared
/// with another part instead of lying on the outline.
///
/// ```
/// use sat_core::convex_decomposition;
/// use glam::Vec2;
///
/// // An L: a 2 × 1 foot and a 1 × 1 stem on its left end.
/// let l = convex_decomposition([
///     Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(2.0, 1.0),
///     Vec2::new(1.0, 1.0), Vec2::new(1.0, 2.0), Vec2::new(0.0, 2.0),
/// ])?;
/// assert_eq!(l.len(), 2);
/// // Each part has exactly one internal edge, the cut through the inner corner.
/// for (part, internal) in l.iter() {
///     assert_eq!(internal.count_ones(), 1);
///     let k = internal.trailing_zeros() as usize;
///     let (a, b) = (part.vertices()[k], part.vertices()[(k + 1) % part.vertices().len()]);
///     assert!(a == Vec2::new(1.0, 1.0) || b == Vec2::new(1.0, 1.0));
/// }
/// let area: f32 = l.parts().iter().map(|p| {
///     let v = p.vertices();
///     (0..v.len()).map(|i| v[i].perp_dot(v[(i + 1) % v.len()])).sum::<f32>() / 2.0
/// }).sum();
/// assert_eq!(area, 3.0);
/// # Ok::<(), sat_core::PolygonError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexParts {
    parts: Vec<ConvexPolygon>,
    internal: Vec<u16>,
}

impl ConvexParts {
    /// The convex parts, each counter-clockwise, in the polygon's frame.
    pub fn parts(&self) -> &[ConvexPolygon] {
        &self.parts
    }

    /// One mask per part: bit `k` is set when edge `k` of that part (in its stored vertex
    /// order) is shared with another part.
    pub fn internal_edges(&self) -> &[u16] {
        &self.internal
    }

    /// Whether edge `edge` of part `part` is shared with another part (`false` for indices out
    /// of range).
    pub fn is_internal(&self, part: usize, edge: usize) -> bool {
        edge < 16 && self.internal.get(part).is_some_and(|m| m >> edge & 1 != 0)
    }

    /// The parts with their internal-edge masks.
    pub fn iter(&self) -> impl Iterator<Item = (&ConvexPolygon, u16)> + '_ {
        self.parts.iter().zip(self.internal.iter().copied())
    }

    /// How many parts there are (at least 1).
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Always `false`: a decomposition has at least one part.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The parts and their masks, taken apart.
    pub fn into_parts(self) -> (Vec<ConvexPolygon>, Vec<u16>) {
        (self.parts, self.internal)
    }
}

/// Splits a simple polygon, in either winding, into convex parts of at most [`MAX_VERTICES`]
/// corners each.
///
/// Points lying on the straight line between their neighbours are dropped. The outline is
/// triangulated by ear clipping and the triangles merged while they stay convex
/// (Hertel–Mehlhorn): at most `2 r + 1` parts for `r` reflex corners where the corner limit
/// does not bind, and a convex outline of up to [`MAX_VERTICES`] corners stays one part.
///
/// # Errors
/// The first problem found, in this order: more than [`MAX_OUTLINE_VERTICES`] points
/// ([`PolygonError::TooManyVertices`]), a NaN or infinite coordinate
/// ([`NonFinite`](PolygonError::NonFinite)) or one beyond
/// [`MAX_COORDINATE`](crate::MAX_COORDINATE) ([`OutOfRange`](PolygonError::OutOfRange)),
/// fewer than 3 points ([`TooFewPoints`](PolygonError::TooFewPoints)), a point repeating the
/// one before it ([`DuplicatePoint`](PolygonError::DuplicatePoint)), (nearly) no area
/// ([`ZeroArea`](PolygonError::ZeroArea)), edges that cross or touch
/// ([`OutlineCrosses`](PolygonError::OutlineCrosses)), and a corner too sharp or a piece too
/// thin for a [`ConvexPolygon`] ([`NoValidParts`](PolygonError::NoValidParts)).
///
/// ```
/// use sat_core::{convex_decomposition, PolygonError};
/// use glam::Vec2;
///
/// // A bow tie crosses itself between its second and fourth edges.
/// let bow_tie = convex_decomposition([
///     Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0), Vec2::new(2.0, 0.0), Vec2::new(0.0, 1.0),
/// ]);
/// assert_eq!(bow_tie, Err(PolygonError::OutlineCrosses { first: 0, second: 2 }));
/// ```
pub fn convex_decomposition(
    points: impl IntoIterator<Item = Vec2>,
) -> Result<ConvexParts, PolygonError> {
    let outline = outline::checked_outline(points)?;
    let n = outline.points.len();
    let mut triangles =
        triangulate::triangulate(&outline.points).map_err(|corner| PolygonError::NoValidParts {
            index: outline.source[corner],
        })?;
    flip::improve(&outline.points, &mut triangles);
    let pieces = merge::merge_triangles(&outline.points, &triangles);
    let mut parts = Vec::with_capacity(pieces.len());
    let mut internal = Vec::with_capacity(pieces.len());
    for mut piece in pieces {
        // Start each part at its corner that comes first counter-clockwise from the input's
        // first point, as `ConvexPolygon::new` orders its vertices: a convex outline of few
        // enough corners comes back exactly as that would build it.
        let first = (0..piece.len()).min_by_key(|&k| piece[k]).unwrap_or(0);
        piece.rotate_left(first);
        let refused = PolygonError::NoValidParts {
            index: outline.source[piece[sharpest_corner(&outline.points, &piece)]],
        };
        let corners: Vec<Vec2> = piece.iter().map(|&i| outline.points[i].as_vec2()).collect();
        let part = ConvexPolygon::new(corners.iter().copied()).map_err(|_| refused)?;
        // A corner dropped as collinear would lose a sliver of area and leave the neighbour's
        // corner in the middle of this part's edge.
        if part.vertices().len() != corners.len() {
            return Err(refused);
        }
        let mask = stored_mask(&part, &corners, |k| {
            !merge::is_outline_edge(n, piece[k], piece[(k + 1) % piece.len()])
        })
        .ok_or(refused)?;
        parts.push(part);
        internal.push(mask);
    }
    Ok(ConvexParts { parts, internal })
}

/// The corner of a piece (a position in it) whose turn is closest to straight on or to a
/// U-turn (smallest `|sin|`): the one a [`ConvexPolygon`] refuses or drops first.
fn sharpest_corner(points: &[glam::DVec2], piece: &[usize]) -> usize {
    let m = piece.len();
    let sin = |k: usize| {
        let at = |j: usize| points[piece[j % m]];
        outline::turn_sin(at(k + m - 1), at(k), at(k + 1)).abs()
    };
    (0..m)
        .min_by(|&a, &b| sin(a).total_cmp(&sin(b)))
        .unwrap_or(0)
}

/// The internal-edge mask in the part's stored vertex order, from the corners it was built
/// from (counter-clockwise) and whether each corner edge `k` (corner `k` to `k + 1`) is
/// internal. The polygon may start at another corner or drop one as collinear: a stored edge
/// is internal only when every corner edge it covers is. `None` if a stored vertex is not
/// one of the corners.
fn stored_mask(
    part: &ConvexPolygon,
    corners: &[Vec2],
    internal: impl Fn(usize) -> bool,
) -> Option<u16> {
    let stored = part.vertices();
    let m = corners.len();
    let mut mask = 0;
    for (k, v) in stored.iter().enumerate() {
        let from = corners.iter().position(|c| c == v)?;
        let end = stored[(k + 1) % stored.len()];
        let to = corners.iter().position(|c| *c == end)?;
        let span = (to + m - from) % m;
        if span > 0 && (0..span).all(|s| internal((from + s) % m)) {
            mask |= 1 << k;
        }
    }
    Some(mask)
}
