//! Hertel–Mehlhorn: triangles sharing a diagonal are merged when the merged piece stays convex
//! at both ends of the diagonal and has at most [`MAX_VERTICES`] corners. Every diagonal that
//! survives is needed by one of its ends (a reflex corner, at most two per corner) or by the
//! corner limit, so there are at most `2 r + 1` parts for `r` reflex corners when the limit
//! never binds, within 4 times the fewest convex parts possible.

use std::collections::HashMap;

use glam::DVec2;

use super::outline::turn_sin;
use crate::MAX_VERTICES;

/// How clearly a merged piece must still turn left at both ends of the removed diagonal
/// (`sin` of the turn): ten times the tolerance at which a polygon drops a corner as
/// collinear, so that every corner of a merged part stays a corner.
const MERGE_SIN: f64 = 1.0e-5;

/// Merges the triangles (corner indices, counter-clockwise) into convex pieces, each a
/// counter-clockwise list of corner indices.
pub(super) fn merge_triangles(points: &[DVec2], triangles: &[[usize; 3]]) -> Vec<Vec<usize>> {
    let mut pieces: Vec<Vec<usize>> = triangles.iter().map(|t| t.to_vec()).collect();
    let mut alive = vec![true; pieces.len()];
    // Each directed edge `a → b` of a piece, mapped to that piece: the diagonal `a–b` joins
    // the piece holding `a → b` and the one holding `b → a`.
    let mut owner: HashMap<(usize, usize), usize> = HashMap::new();
    let mut diagonals = Vec::new();
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            owner.insert((a, b), t);
            if a < b && !is_outline_edge(points.len(), a, b) {
                diagonals.push((a, b));
            }
        }
    }
    for (a, b) in diagonals {
        let (Some(&left), Some(&right)) = (owner.get(&(a, b)), owner.get(&(b, a))) else {
            continue;
        };
        if left == right || !alive[left] || !alive[right] {
            continue;
        }
        let Some(merged) = merged_piece(points, &pieces[left], &pieces[right], a, b) else {
            continue;
        };
        for k in 0..merged.len() {
            owner.insert((merged[k], merged[(k + 1) % merged.len()]), left);
        }
        owner.remove(&(a, b));
        owner.remove(&(b, a));
        pieces[left] = merged;
        pieces[right].clear();
        alive[right] = false;
    }
    pieces.into_iter().filter(|p| !p.is_empty()).collect()
}

/// Whether `a–b` is an edge of the outline of `n` corners (consecutive corners).
pub(super) fn is_outline_edge(n: usize, a: usize, b: usize) -> bool {
    (a + 1) % n == b || (b + 1) % n == a
}

/// The piece made of `left` (which holds edge `a → b`) and `right` (which holds `b → a`) with
/// the diagonal removed, if it is convex at `a` and `b` and small enough.
fn merged_piece(
    points: &[DVec2],
    left: &[usize],
    right: &[usize],
    a: usize,
    b: usize,
) -> Option<Vec<usize>> {
    if left.len() + right.len() - 2 > MAX_VERTICES {
        return None;
    }
    // `left` from `b` round to `a`, then `right` from after `a` round to before `b`.
    let start = left.iter().position(|&v| v == b)?;
    let mut merged: Vec<usize> = (0..left.len())
        .map(|k| left[(start + k) % left.len()])
        .collect();
    let from = right.iter().position(|&v| v == a)?;
    merged.extend((1..right.len() - 1).map(|k| right[(from + k) % right.len()]));
    let m = merged.len();
    let at = |v: usize| -> Option<f64> {
        let k = merged.iter().position(|&x| x == v)?;
        let (p, q) = (merged[(k + m - 1) % m], merged[(k + 1) % m]);
        Some(turn_sin(points[p], points[v], points[q]))
    };
    let convex = at(a)? > MERGE_SIN && at(b)? > MERGE_SIN;
    convex.then_some(merged)
}
