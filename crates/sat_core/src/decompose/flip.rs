//! Edge flips towards the constrained Delaunay triangulation: a diagonal shared by two
//! triangles is swapped for the quad's other diagonal when that makes the pair's smallest
//! angle larger. Ear clipping can be forced into a sliver (an ear whose apex lies nearly on
//! the line through its base) that no merge absorbs and no [`ConvexPolygon`] accepts; the
//! flips replace it with the better-shaped pair the quad around it allows.
//!
//! [`ConvexPolygon`]: crate::ConvexPolygon

use std::collections::HashMap;

use glam::DVec2;

use super::merge::is_outline_edge;
use super::outline::orient;

/// How much a flip must raise the pair's smallest `sin`, relative to it: flips that change
/// nothing but round-off are not made, so the flipping ends.
const GAIN: f64 = 1.0e-9;

/// Flips diagonals of the triangulation of `points` (each triangle counter-clockwise) while a
/// flip makes the two triangles around a diagonal better shaped.
pub(super) fn improve(points: &[DVec2], triangles: &mut [[usize; 3]]) {
    let n = points.len();
    // Each directed edge `a → b` mapped to the triangle holding it.
    let mut owner: HashMap<(usize, usize), usize> = HashMap::with_capacity(3 * triangles.len());
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            owner.insert((tri[k], tri[(k + 1) % 3]), t);
        }
    }
    let mut pending: Vec<(usize, usize)> = owner
        .keys()
        .copied()
        .filter(|&(a, b)| a < b && !is_outline_edge(n, a, b))
        .collect();
    // Each flip raises the smallest angle of the triangulation or keeps it and raises another;
    // the cap only guards against round-off cycling.
    let mut budget = 8 * n * n + 64;
    while let Some((a, b)) = pending.pop() {
        if budget == 0 {
            return;
        }
        budget -= 1;
        let (Some(&left), Some(&right)) = (owner.get(&(a, b)), owner.get(&(b, a))) else {
            continue;
        };
        let c = apex(&triangles[left], a, b);
        let d = apex(&triangles[right], b, a);
        let (pa, pb, pc, pd) = (points[a], points[b], points[c], points[d]);
        // The new triangles `c, a, d` and `d, b, c` must both turn left: the quad is convex.
        if orient(pc, pa, pd) <= 0.0 || orient(pd, pb, pc) <= 0.0 {
            continue;
        }
        let before = quality(pa, pb, pc).min(quality(pb, pa, pd));
        let after = quality(pc, pa, pd).min(quality(pd, pb, pc));
        if after <= before * (1.0 + GAIN) {
            continue;
        }
        for (x, y) in [(a, b), (b, c), (c, a), (b, a), (a, d), (d, b)] {
            owner.remove(&(x, y));
        }
        triangles[left] = [c, a, d];
        triangles[right] = [d, b, c];
        for (t, tri) in [(left, triangles[left]), (right, triangles[right])] {
            for k in 0..3 {
                owner.insert((tri[k], tri[(k + 1) % 3]), t);
            }
        }
        // The quad's sides may now be worth flipping.
        for (x, y) in [(a, d), (d, b), (b, c), (c, a)] {
            if !is_outline_edge(n, x, y) {
                pending.push((x.min(y), x.max(y)));
            }
        }
    }
}

/// The corner of `tri` that is neither `a` nor `b`.
fn apex(tri: &[usize; 3], a: usize, b: usize) -> usize {
    tri.iter().copied().find(|&v| v != a && v != b).unwrap_or(a)
}

/// `sin` of the smallest angle of triangle `a, b, c` (counter-clockwise): twice its area over
/// the product of the two longest sides, which meet at that angle.
pub(super) fn quality(a: DVec2, b: DVec2, c: DVec2) -> f64 {
    let twice_area = orient(a, b, c);
    let (ab, bc, ca) = ((b - a).length(), (c - b).length(), (a - c).length());
    twice_area / (ab * ca).max(ab * bc).max(bc * ca)
}
