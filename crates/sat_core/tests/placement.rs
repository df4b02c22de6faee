//! Placing a polygon by a translation accepts exactly the placements whose vertices are valid:
//! all in range and no two consecutive corners merged by round-off. The check reads bounds kept
//! with the polygon instead of the vertices when those prove the placement valid; this compares
//! it with a check of the vertices themselves, at every scale from tiny shapes near the origin
//! to shapes so far out that f32 merges their corners.

use glam::Vec2;
use proptest::prelude::*;
use sat_core::{ConvexPolygon, MAX_COORDINATE, Pose};

/// A signed magnitude spread over many orders, from 1e-4 to 1e19.
fn magnitude() -> impl Strategy<Value = f32> {
    (-4.0f32..19.0, any::<bool>()).prop_map(|(e, neg)| {
        let m = 10f32.powf(e);
        if neg { -m } else { m }
    })
}

fn offset() -> impl Strategy<Value = Vec2> {
    (magnitude(), magnitude()).prop_map(|(x, y)| Vec2::new(x, y))
}

/// Small and large polygons, some with a very short edge.
fn polygon() -> impl Strategy<Value = ConvexPolygon> {
    prop_oneof![
        (1e-4f32..100.0, 1e-4f32..100.0).prop_map(|(w, h)| ConvexPolygon::rectangle(w, h)),
        (3usize..=8, 1e-4f32..100.0).prop_map(|(n, r)| ConvexPolygon::regular(n, r)),
        (1e-3f32..1.0, 1e-6f32..1e-2).prop_filter_map("convex", |(s, e)| {
            ConvexPolygon::new([
                Vec2::new(0.0, 0.0),
                Vec2::new(s, 0.0),
                Vec2::new(s + e, s * 0.5),
                Vec2::new(s, s),
                Vec2::new(0.0, s),
            ])
            .ok()
        }),
    ]
}

/// Whether `vertices` make a valid placed outline, checked vertex by vertex.
fn valid(vertices: &[Vec2]) -> bool {
    let n = vertices.len();
    vertices
        .iter()
        .all(|v| v.is_finite() && v.abs().max_element() <= MAX_COORDINATE)
        && (0..n).all(|k| vertices[k] != vertices[(k + 1) % n])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// `moves` first moves the polygon in place (each move widens its bounds), then it is
    /// placed by `by`.
    #[test]
    fn translation_is_refused_exactly_when_corners_are_invalid(
        polygon in polygon(),
        moves in prop::collection::vec(offset(), 0..4),
        by in offset(),
    ) {
        let mut polygon = polygon;
        for m in moves {
            let mut moved = polygon;
            moved.translate(m);
            if !valid(moved.vertices()) {
                break; // `translate` does not check: keep the last valid polygon
            }
            polygon = moved;
        }
        let expected: Vec<Vec2> = polygon.vertices().iter().map(|v| *v + by).collect();
        match polygon.transformed(&Pose::from_translation(by)) {
            Ok(placed) => {
                prop_assert!(valid(&expected), "accepted invalid corners {:?}", expected);
                prop_assert_eq!(placed.vertices(), &expected[..]);
            }
            Err(_) => prop_assert!(!valid(&expected), "refused valid corners {:?}", expected),
        }
    }
}

#[test]
fn a_tiny_box_far_out_is_refused_near_the_origin_accepted() {
    let tiny = ConvexPolygon::rectangle(1e-3, 1e-3);
    assert!(
        tiny.transformed(&Pose::from_translation(Vec2::splat(1e3)))
            .is_ok()
    );
    // At 1e5, f32 steps are about 0.008: the corners merge.
    assert!(
        tiny.transformed(&Pose::from_translation(Vec2::splat(1e5)))
            .is_err()
    );
}
