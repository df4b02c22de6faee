//! Ear clipping: a simple counter-clockwise outline becomes `n - 2` triangles with its corners
//! as their only vertices.
//!
//! Each step clips the best-shaped ear (the one whose smallest angle is largest), so thin
//! triangles appear only where the outline forces them: they are harder to merge into parts
//! that a [`ConvexPolygon`](crate::ConvexPolygon) accepts. Only the two neighbours of a clipped
//! ear change, so each step rechecks those two: `O(n²)` in all.

use glam::DVec2;

use super::flip::quality;
use super::outline::orient;

/// The triangles of the outline, each as three corner indices counter-clockwise, or the index
/// of a corner near which no ear could be found (possible only through round-off on an
/// outline that is barely simple).
pub(super) fn triangulate(points: &[DVec2]) -> Result<Vec<[usize; 3]>, usize> {
    let n = points.len();
    let mut prev: Vec<usize> = (0..n).map(|i| (i + n - 1) % n).collect();
    let mut next: Vec<usize> = (0..n).map(|i| (i + 1) % n).collect();
    let mut alive = vec![true; n];
    let mut quality: Vec<Option<f64>> = (0..n)
        .map(|i| ear_quality(points, &alive, prev[i], i, next[i]))
        .collect();
    let mut triangles = Vec::with_capacity(n.saturating_sub(2));
    let mut remaining = n;
    while remaining > 3 {
        let best = (0..n)
            .filter(|&i| alive[i])
            .filter_map(|i| quality[i].map(|q| (i, q)))
            .fold(None, |best: Option<(usize, f64)>, (i, q)| match best {
                Some((_, bq)) if bq >= q => best,
                _ => Some((i, q)),
            });
        let Some((ear, _)) = best else {
            let stuck = (0..n).find(|&i| alive[i]).unwrap_or(0);
            return Err(stuck);
        };
        let (p, q) = (prev[ear], next[ear]);
        triangles.push([p, ear, q]);
        alive[ear] = false;
        quality[ear] = None;
        next[p] = q;
        prev[q] = p;
        remaining -= 1;
        quality[p] = ear_quality(points, &alive, prev[p], p, next[p]);
        quality[q] = ear_quality(points, &alive, prev[q], q, next[q]);
    }
    if let Some(i) = (0..n).find(|&i| alive[i]) {
        let (p, q) = (prev[i], next[i]);
        if orient(points[p], points[i], points[q]) <= 0.0 {
            return Err(i);
        }
        triangles.push([p, i, q]);
    }
    Ok(triangles)
}

/// How far outside the diagonal `p–q` of an ear a corner `r` still blocks it: when the path
/// `p → r → q` turns by less than this `sin`. Clipping such an ear would leave `r` nearly on
/// the diagonal, where a later part would have a corner [`ConvexPolygon`] drops as collinear
/// (losing a sliver of area); ten times its tolerance.
///
/// [`ConvexPolygon`]: crate::ConvexPolygon
const BLOCK_SIN: f64 = 1.0e-5;

/// The smallest `sin` of the angles of triangle `p, i, q` if it is an ear of the remaining
/// outline: `i` turns strictly left and no other remaining corner lies inside the triangle, on
/// its boundary or nearly on the diagonal `p–q` (see [`BLOCK_SIN`]). `None` otherwise.
fn ear_quality(points: &[DVec2], alive: &[bool], p: usize, i: usize, q: usize) -> Option<f64> {
    let (a, b, c) = (points[p], points[i], points[q]);
    let twice_area = orient(a, b, c);
    if twice_area <= 0.0 {
        return None;
    }
    let blocked = points.iter().enumerate().any(|(k, &r)| {
        alive[k]
            && k != p
            && k != i
            && k != q
            && orient(a, b, r) >= 0.0
            && orient(b, c, r) >= 0.0
            && orient(c, a, r) >= -BLOCK_SIN * (r - c).length() * (a - r).length()
    });
    if blocked {
        return None;
    }
    Some(quality(a, b, c))
}
