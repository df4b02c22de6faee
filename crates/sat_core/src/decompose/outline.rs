//! Checking an outline before it is split: every way it can be wrong is a distinct
//! [`PolygonError`], found in a fixed order. Then its collinear points are dropped and it is
//! put counter-clockwise, ready to triangulate.

use glam::{DVec2, Vec2};

use super::MAX_OUTLINE_VERTICES;
use crate::PolygonError;
use crate::shape::{read_points, signed_twice_area};

/// `sin` of the largest turn at which a point counts as lying on the straight line through
/// its neighbours (and is dropped), as [`ConvexPolygon::new`](crate::ConvexPolygon::new) does.
pub(super) const COLLINEAR_SIN: f64 = 1.0e-6;

/// A simple outline, counter-clockwise, without collinear points.
pub(super) struct Outline {
    /// The corners, in f64 (exactly the input's `f32` values).
    pub points: Vec<DVec2>,
    /// For each corner, its index in the input, for error messages.
    pub source: Vec<usize>,
}

/// `(b - a) × (c - a)`: positive when `a → b → c` turns left.
#[inline]
pub(super) fn orient(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    (b - a).perp_dot(c - a)
}

/// `sin` of the turn at `b` on the way `a → b → c` (positive: left), or 0 for a zero-length
/// edge.
#[inline]
pub(super) fn turn_sin(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    let (e0, e1) = (b - a, c - b);
    let lengths = e0.length() * e1.length();
    if lengths > 0.0 {
        e0.perp_dot(e1) / lengths
    } else {
        0.0
    }
}

/// Reads and checks the points, in this order: count, finite and in-range coordinates, at least
/// 3 points, repeated consecutive points, (near-)zero area, crossing or touching edges. Returns
/// the outline counter-clockwise with its collinear points dropped.
pub(super) fn checked_outline(
    points: impl IntoIterator<Item = Vec2>,
) -> Result<Outline, PolygonError> {
    let input = read_points(points, MAX_OUTLINE_VERTICES)?;
    let n = input.len();
    let twice_area = signed_twice_area(&input)?;
    if let Some((first, second)) = crossing_edges(&input) {
        return Err(PolygonError::OutlineCrosses { first, second });
    }
    // Counter-clockwise with the first point first, the order `ConvexPolygon::new` uses.
    let source: Vec<usize> = if twice_area > 0.0 {
        (0..n).collect()
    } else {
        (0..n).map(|k| (n - k) % n).collect()
    };
    let source = drop_collinear(&input, source);
    if source.len() < 3 {
        return Err(PolygonError::ZeroArea);
    }
    let points = source.iter().map(|&i| input[i]).collect();
    Ok(Outline { points, source })
}

/// The first pair of edges (by index) that cross or touch other than at the point two
/// consecutive edges share; consecutive edges that fold back over each other count too.
fn crossing_edges(p: &[DVec2]) -> Option<(usize, usize)> {
    let n = p.len();
    let edge = |i: usize| (p[i], p[(i + 1) % n]);
    for i in 0..n {
        let (a, b) = edge(i);
        let (lo, hi) = (a.min(b), a.max(b));
        for j in i + 1..n {
            let (c, d) = edge(j);
            if c.max(d).cmplt(lo).any() || c.min(d).cmpgt(hi).any() {
                continue;
            }
            let touches = if j == i + 1 {
                folds_back(a, b, d)
            } else if i == 0 && j == n - 1 {
                folds_back(c, a, b)
            } else {
                segments_meet(a, b, c, d)
            };
            if touches {
                return Some((i, j));
            }
        }
    }
    None
}

/// Whether `b → c` runs back along `a → b` (a zero-width spike).
fn folds_back(a: DVec2, b: DVec2, c: DVec2) -> bool {
    orient(a, b, c) == 0.0 && (b - a).dot(c - b) < 0.0
}

/// Whether the closed segments `a–b` and `c–d` have a point in common.
fn segments_meet(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let (d1, d2) = (orient(a, b, c), orient(a, b, d));
    let (d3, d4) = (orient(c, d, a), orient(c, d, b));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |p: DVec2, q: DVec2, r: DVec2| r.cmpge(p.min(q)).all() && r.cmple(p.max(q)).all();
    (d1 == 0.0 && on(a, b, c))
        || (d2 == 0.0 && on(a, b, d))
        || (d3 == 0.0 && on(c, d, a))
        || (d4 == 0.0 && on(c, d, b))
}

/// Drops the points (given as input indices, in counter-clockwise order) that lie on the
/// straight line through their neighbours, until none is left: dropping one can straighten
/// the turn at its neighbours.
fn drop_collinear(input: &[DVec2], mut ring: Vec<usize>) -> Vec<usize> {
    let mut k = 0;
    let mut unchanged = 0;
    while ring.len() >= 3 && unchanged < ring.len() {
        let m = ring.len();
        let (a, b, c) = (
            input[ring[(k + m - 1) % m]],
            input[ring[k]],
            input[ring[(k + 1) % m]],
        );
        if turn_sin(a, b, c).abs() <= COLLINEAR_SIN && (b - a).dot(c - b) > 0.0 {
            ring.remove(k);
            unchanged = 0;
            if k >= ring.len() {
                k = 0;
            }
        } else {
            unchanged += 1;
            k = (k + 1) % m;
        }
    }
    ring
}
