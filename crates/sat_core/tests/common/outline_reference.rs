//! An independent f64 reference for simple polygons (shoelace area, crossing-number point
//! test, convex clipping) and generators of simple outlines, for the decomposition tests.

use core::f64::consts::TAU;

use glam::{DVec2, Vec2};
use proptest::prelude::*;

/// Twice the signed area (positive counter-clockwise), by the shoelace formula.
pub fn twice_signed_area(p: &[DVec2]) -> f64 {
    let o = p[0];
    (1..p.len().saturating_sub(1))
        .map(|i| (p[i] - o).perp_dot(p[i + 1] - o))
        .sum()
}

/// The area of a polygon, either winding.
pub fn area(p: &[DVec2]) -> f64 {
    twice_signed_area(p).abs() / 2.0
}

/// Whether `q` is inside the polygon, by counting crossings of a ray to +x (boundary points go
/// either way; callers keep away from the boundary).
pub fn inside(p: &[DVec2], q: DVec2) -> bool {
    let n = p.len();
    let mut crossings = 0;
    for i in 0..n {
        let (a, b) = (p[i], p[(i + 1) % n]);
        if (a.y > q.y) != (b.y > q.y) {
            let x = a.x + (q.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if x > q.x {
                crossings += 1;
            }
        }
    }
    crossings % 2 == 1
}

/// The distance from `q` to segment `a–b`.
pub fn segment_distance(a: DVec2, b: DVec2, q: DVec2) -> f64 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((q - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - q).length()
}

/// The distance from `q` to the polygon's boundary.
pub fn boundary_distance(p: &[DVec2], q: DVec2) -> f64 {
    (0..p.len())
        .map(|i| segment_distance(p[i], p[(i + 1) % p.len()], q))
        .fold(f64::INFINITY, f64::min)
}

/// The part of convex counter-clockwise `subject` inside convex counter-clockwise `clip`
/// (Sutherland–Hodgman).
pub fn clip_convex(subject: &[DVec2], clip: &[DVec2]) -> Vec<DVec2> {
    let mut out = subject.to_vec();
    for i in 0..clip.len() {
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        let side = |p: DVec2| (b - a).perp_dot(p - a);
        let input = std::mem::take(&mut out);
        for j in 0..input.len() {
            let (p, q) = (input[j], input[(j + 1) % input.len()]);
            let (sp, sq) = (side(p), side(q));
            if sp >= 0.0 {
                out.push(p);
            }
            if (sp >= 0.0) != (sq >= 0.0) {
                out.push(p + (q - p) * (sp / (sp - sq)));
            }
        }
        if out.is_empty() {
            break;
        }
    }
    out
}

/// The outline counter-clockwise without its collinear points (`|sin| <= 1e-6`, going on
/// straight), as `ConvexPolygon` would store it.
pub fn cleaned(points: &[DVec2]) -> Vec<DVec2> {
    let mut p = points.to_vec();
    if twice_signed_area(&p) < 0.0 {
        p.reverse();
    }
    loop {
        let n = p.len();
        let flat = (0..n).find(|&k| {
            let (a, b, c) = (p[(k + n - 1) % n], p[k], p[(k + 1) % n]);
            let (e0, e1) = (b - a, c - b);
            (e0.perp_dot(e1) / (e0.length() * e1.length())).abs() <= 1.0e-6 && e0.dot(e1) > 0.0
        });
        match flat {
            Some(k) if n > 3 => {
                p.remove(k);
            }
            _ => return p,
        }
    }
}

/// The corners of a counter-clockwise outline that do not clearly turn left (`sin` of the turn
/// below `1e-5`): the reflex corners, and those too close to straight to end a merge.
pub fn reflex_count(ccw: &[DVec2]) -> usize {
    let n = ccw.len();
    (0..n)
        .filter(|&k| {
            let (a, b, c) = (ccw[(k + n - 1) % n], ccw[k], ccw[(k + 1) % n]);
            let (e0, e1) = (b - a, c - b);
            e0.perp_dot(e1) / (e0.length() * e1.length()) < 1.0e-5
        })
        .count()
}

/// A star-shaped outline: `n` angles spread round a centre (each jittered within its share)
/// at random radii between `inner` and `outer` times the scale.
pub fn star(max_points: usize) -> impl Strategy<Value = Vec<Vec2>> {
    (3..=max_points)
        .prop_flat_map(|n| {
            (
                prop::collection::vec((0.05f64..0.95, 0.1f64..1.0), n),
                0.01f64..1000.0,
                (-1000.0f64..1000.0, -1000.0f64..1000.0),
            )
        })
        .prop_map(|(spokes, scale, (cx, cy))| {
            let n = spokes.len() as f64;
            spokes
                .iter()
                .enumerate()
                .map(|(i, (jitter, radius))| {
                    let angle = (i as f64 + jitter) / n * TAU;
                    let p = DVec2::new(cx, cy) + DVec2::from_angle(angle) * radius * scale;
                    p.as_vec2()
                })
                .collect()
        })
}

/// A tile outline: columns of whole tiles side by side, each spanning from its bottom to its
/// top row, overlapping its neighbour by at least one row. Every tile corner along the way is
/// a point, so straight runs hold collinear points.
pub fn tile_outline(max_columns: usize) -> impl Strategy<Value = Vec<Vec2>> {
    (
        prop::collection::vec((0i32..4, 1i32..5), 1..=max_columns),
        0.25f32..64.0,
    )
        .prop_map(|(columns, tile)| {
            // Each column's rows, forced to overlap the previous column's by a row at least.
            let mut spans: Vec<(i32, i32)> = Vec::new();
            for (bottom, height) in columns {
                let (mut lo, mut hi) = (bottom, bottom + height);
                if let Some(&(plo, phi)) = spans.last() {
                    lo = lo.min(phi - 1);
                    hi = hi.max(plo + 1);
                }
                spans.push((lo, hi));
            }
            let mut pts = Vec::new();
            let p = |x: i32, y: i32| Vec2::new(x as f32, y as f32) * tile;
            // Along the bottom, left to right, then up the right side.
            for (x, &(lo, _)) in spans.iter().enumerate() {
                let x = x as i32;
                if x > 0 && spans[x as usize - 1].0 != lo {
                    pts.push(p(x, spans[x as usize - 1].0));
                }
                pts.push(p(x, lo));
            }
            let w = spans.len() as i32;
            let (last_lo, last_hi) = spans[spans.len() - 1];
            pts.push(p(w, last_lo));
            for y in last_lo + 1..last_hi {
                pts.push(p(w, y));
            }
            // Along the top, right to left, then down the left side.
            for x in (0..w).rev() {
                let hi = spans[x as usize].1;
                if x < w - 1 && spans[x as usize + 1].1 != hi {
                    pts.push(p(x + 1, spans[x as usize + 1].1));
                }
                pts.push(p(x + 1, hi));
                if x == 0 {
                    pts.push(p(0, hi));
                }
            }
            for y in (spans[0].0 + 1..spans[0].1).rev() {
                pts.push(p(0, y));
            }
            pts.dedup();
            pts
        })
}

/// A spiral band: an outer and an inner Archimedean arm, the outer out and the inner back.
pub fn spiral(max_steps: usize) -> impl Strategy<Value = Vec<Vec2>> {
    (4..=max_steps, 0.5f64..3.0, 0.2f64..0.9, 0.1f64..100.0).prop_map(
        |(steps, turns, width, scale)| {
            // Chords of at most a 24th of a turn stay clear of the next turn's arm.
            let steps = steps.max((turns * 24.0).ceil() as usize);
            let theta = |i: usize| i as f64 / steps as f64 * turns * TAU;
            // Radius grows by 1 per turn; the band is `width` of that wide.
            let arm = |i: usize, offset: f64| {
                let t = theta(i);
                (DVec2::from_angle(t) * (1.0 + t / TAU + offset) * scale).as_vec2()
            };
            let mut pts: Vec<Vec2> = (0..=steps).map(|i| arm(i, width)).collect();
            pts.extend((0..=steps).rev().map(|i| arm(i, 0.0)));
            pts
        },
    )
}
