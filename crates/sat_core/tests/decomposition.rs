//! `convex_decomposition` against an independent f64 reference (`common::outline_reference`):
//! on random simple outlines (stars, tile outlines with collinear runs, spirals, both windings,
//! any starting point) the parts are convex, counter-clockwise, cover the outline's area exactly
//! once, classify points as the outline does, mark exactly the edges they share as internal, and
//! are no more than Hertel–Mehlhorn's bound. 10,000 cases each.

mod common;

use common::outline_reference::{
    area, boundary_distance, cleaned, clip_convex, inside, reflex_count, spiral, star, tile_outline,
};
use glam::{DVec2, Vec2};
use proptest::prelude::*;
use sat_core::{MAX_VERTICES, PolygonError, convex_decomposition};

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 10_000,
        ..ProptestConfig::default()
    }
}

fn d(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

/// Any of the outline generators, in either winding, starting at any of its points.
fn simple_outline() -> impl Strategy<Value = Vec<Vec2>> {
    (
        prop_oneof![star(64), tile_outline(40), spiral(60)],
        any::<bool>(),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(mut pts, reverse, start)| {
            if reverse {
                pts.reverse();
            }
            let k = start.index(pts.len());
            pts.rotate_left(k);
            pts
        })
}

/// Checks every property of a decomposition of `outline` against the f64 reference.
fn check(outline: &[Vec2], samples: &[(f64, f64)]) -> Result<(), TestCaseError> {
    let parts = convex_decomposition(outline.iter().copied())
        .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    // The reference is the outline without the points that lie on the line through their
    // neighbours, which the decomposition drops (as a polygon does): such a point takes a sliver
    // of up to `1e-6` of its edges' lengths squared with it.
    let poly = cleaned(&outline.iter().copied().map(d).collect::<Vec<_>>());
    let (lo, hi) = poly
        .iter()
        .fold((poly[0], poly[0]), |(l, h), p| (l.min(*p), h.max(*p)));
    let size = (hi - lo).max_element();
    let eps = size * 1.0e-9;
    let pieces: Vec<Vec<DVec2>> = parts
        .parts()
        .iter()
        .map(|p| p.vertices().iter().copied().map(d).collect())
        .collect();
    prop_assert!(!pieces.is_empty());
    prop_assert_eq!(parts.len(), parts.internal_edges().len());

    // Convex, counter-clockwise, within the corner limit, and built from outline points.
    for piece in &pieces {
        let m = piece.len();
        prop_assert!((3..=MAX_VERTICES).contains(&m));
        for k in 0..m {
            let (a, b, c) = (piece[k], piece[(k + 1) % m], piece[(k + 2) % m]);
            prop_assert!(
                (b - a).perp_dot(c - b) > 0.0,
                "not strictly convex: {piece:?}"
            );
            prop_assert!(poly.contains(&a), "a corner off the outline: {a}");
        }
    }

    // The areas add up to the outline's.
    let total: f64 = pieces.iter().map(|p| area(p)).sum();
    let expected = area(&poly);
    prop_assert!(
        (total - expected).abs() <= expected * 1.0e-9,
        "parts {total} vs outline {expected}"
    );

    // No two parts overlap.
    for i in 0..pieces.len() {
        for j in i + 1..pieces.len() {
            let common = clip_convex(&pieces[i], &pieces[j]);
            let overlap = if common.len() >= 3 {
                area(&common)
            } else {
                0.0
            };
            prop_assert!(
                overlap <= expected * 1.0e-9,
                "parts {i} and {j} overlap by {overlap}"
            );
        }
    }

    // Points clear of every boundary are in one part if inside the outline, else in none.
    for &(fx, fy) in samples {
        let q = lo + (hi - lo) * DVec2::new(fx, fy) * 1.2 - (hi - lo) * 0.1;
        let near_part_edge = pieces.iter().any(|p| boundary_distance(p, q) <= eps);
        if boundary_distance(&poly, q) <= eps || near_part_edge {
            continue;
        }
        let holding = pieces.iter().filter(|p| inside(p, q)).count();
        let expected = usize::from(inside(&poly, q));
        prop_assert_eq!(holding, expected, "point {} classified apart", q);
    }

    // Internal edges are shared with exactly one other part and lie inside the outline; the
    // others lie on the outline.
    let mut heavy_pairs = 0;
    for (i, piece) in pieces.iter().enumerate() {
        let m = piece.len();
        for k in 0..m {
            let (a, b) = (piece[k], piece[(k + 1) % m]);
            let mid = (a + b) / 2.0;
            let on_outline = boundary_distance(&poly, mid) <= eps;
            if parts.is_internal(i, k) {
                prop_assert!(!on_outline, "internal edge {a}–{b} on the outline");
                let twins: Vec<usize> = (0..pieces.len())
                    .filter(|&j| {
                        j != i
                            && (0..pieces[j].len()).any(|e| {
                                let n = pieces[j].len();
                                pieces[j][e] == b && pieces[j][(e + 1) % n] == a
                            })
                    })
                    .collect();
                prop_assert_eq!(twins.len(), 1, "edge {}–{} shared with {:?}", a, b, twins);
                let j = twins[0];
                if j > i && m + pieces[j].len() - 2 > MAX_VERTICES {
                    heavy_pairs += 1;
                }
            } else {
                prop_assert!(on_outline, "outer edge {a}–{b} off the outline");
            }
        }
    }

    // Hertel–Mehlhorn: each kept diagonal is needed by a reflex (or nearly straight) corner,
    // at most two per corner, or by the corner limit.
    let reflex = reflex_count(&poly);
    prop_assert!(
        parts.len() <= 2 * reflex + 1 + heavy_pairs,
        "{} parts for {} reflex corners and {} pairs at the limit",
        parts.len(),
        reflex,
        heavy_pairs
    );
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn parts_cover_the_outline_exactly(
        outline in simple_outline(),
        samples in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 24),
    ) {
        check(&outline, &samples)?;
    }

    /// A spike far longer than the star it sticks out of: split when it can be, and refused
    /// as too thin (or its base points too close for its length), never answered wrongly.
    #[test]
    fn thin_spikes_split_or_refused(
        base in star(12),
        spike in 1.0f32..1.0e6,
        at in any::<prop::sample::Index>(),
        samples in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 16),
    ) {
        let mut outline = base;
        let k = at.index(outline.len());
        let (a, b) = (outline[k], outline[(k + 1) % outline.len()]);
        let centre = outline.iter().copied().sum::<Vec2>() / outline.len() as f32;
        let mid = (a + b) / 2.0;
        outline.insert(k + 1, mid + (mid - centre) * spike);
        match convex_decomposition(outline.iter().copied()) {
            Ok(_) => check(&outline, &samples)?,
            Err(
                PolygonError::NoValidParts { .. }
                | PolygonError::OutlineCrosses { .. }
                | PolygonError::ZeroArea
                | PolygonError::DuplicatePoint { .. },
            ) => {}
            Err(e) => prop_assert!(false, "{e:?}"),
        }
    }

    /// Any numbers at all: an answer or an error, never a panic, and an answer is finite.
    #[test]
    fn wild_input_never_panics(
        points in prop::collection::vec(
            (prop::num::f32::ANY, prop::num::f32::ANY).prop_map(|(x, y)| Vec2::new(x, y)),
            0..24,
        ),
    ) {
        if let Ok(parts) = convex_decomposition(points.iter().copied()) {
            for part in parts.parts() {
                prop_assert!(part.vertices().iter().all(|v| v.is_finite()));
                prop_assert!(part.normals().iter().all(|n| n.is_finite()));
            }
        }
    }

    /// Small integer coordinates: crossings, touching and collinear outlines are common. An
    /// answer, when there is one, passes every check.
    #[test]
    fn small_grid_outlines(
        points in prop::collection::vec((-4i8..=4, -4i8..=4), 3..12),
        samples in prop::collection::vec((0.0f64..1.0, 0.0f64..1.0), 16),
    ) {
        let outline: Vec<Vec2> =
            points.iter().map(|&(x, y)| Vec2::new(f32::from(x), f32::from(y))).collect();
        if convex_decomposition(outline.iter().copied()).is_ok() {
            check(&outline, &samples)?;
        }
    }
}
