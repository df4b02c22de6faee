//! Placing a polygon by a translation gives the translated vertices when they are valid: all in
//! range and no two consecutive corners merged by round-off. When round-off merged corners, it
//! gives the polygon the remaining corners make, or an error when they make none. The check
//! reads bounds kept with the polygon instead of the vertices when those prove the placement
//! valid; this compares it with a reference built from the vertices themselves (through
//! `ConvexPolygon::new`), at every scale from tiny shapes near the origin to shapes so far out
//! that f32 merges their corners.

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
    in_range(vertices) && (0..n).all(|k| vertices[k] != vertices[(k + 1) % n])
}

fn in_range(vertices: &[Vec2]) -> bool {
    vertices
        .iter()
        .all(|v| v.is_finite() && v.abs().max_element() <= MAX_COORDINATE)
}

/// What placing a polygon whose translated vertices are `vertices` must give: those vertices
/// when valid; when round-off merged corners (and all are in range), the polygon that the
/// distinct corners make, if they make one; otherwise nothing.
fn reference(vertices: &[Vec2]) -> Option<Vec<Vec2>> {
    if valid(vertices) {
        return Some(vertices.to_vec());
    }
    if !in_range(vertices) {
        return None;
    }
    let mut distinct: Vec<Vec2> = Vec::new();
    for &v in vertices {
        if distinct.last() != Some(&v) {
            distinct.push(v);
        }
    }
    while distinct.len() > 1 && distinct.first() == distinct.last() {
        distinct.pop();
    }
    ConvexPolygon::new(distinct)
        .ok()
        .map(|p| p.vertices().to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// `moves` first moves the polygon in place (each move widens its bounds), then it is
    /// placed by `by`.
    #[test]
    fn translation_gives_the_corners_that_remain_valid(
        polygon in polygon(),
        moves in prop::collection::vec(offset(), 0..4),
        by in offset(),
    ) {
        let mut polygon = polygon;
        for m in moves {
            let mut moved = polygon.clone();
            moved.translate(m);
            if !valid(moved.vertices()) {
                break; // `translate` does not check: keep the last valid polygon
            }
            polygon = moved;
        }
        let translated: Vec<Vec2> = polygon.vertices().iter().map(|v| *v + by).collect();
        let placed = polygon.transformed(&Pose::from_translation(by));
        match reference(&translated) {
            Some(expected) => match placed {
                Ok(placed) => prop_assert_eq!(placed.vertices(), &expected[..]),
                Err(error) => prop_assert!(false, "refused {:?}: {}", translated, error),
            },
            None => prop_assert!(placed.is_err(), "accepted invalid corners {:?}", translated),
        }
    }
}

/// The lowest and highest projection of `vertices` on `axis`, one vertex at a time.
fn projection_of(vertices: &[Vec2], axis: Vec2) -> (f32, f32) {
    vertices
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v.dot(axis)), hi.max(v.dot(axis)))
        })
}

/// The lowest and highest coordinates of `vertices`, one vertex at a time.
fn bounds_of(vertices: &[Vec2]) -> (Vec2, Vec2) {
    vertices
        .iter()
        .fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(*v), hi.max(*v))
        })
}

proptest! {
    /// Placing into storage that held another polygon (of more corners, say) keeps nothing of
    /// it: after every placement, turned and scaled or only moved, and after every move in
    /// place, the polygon projects exactly like the vertices it reports. The box the placement
    /// returns is the one those vertices span.
    #[test]
    fn a_reused_slot_projects_like_the_vertices_it_holds(
        placements in prop::collection::vec(
            (polygon(), -1e3f32..1e3, -1e3f32..1e3, -3.0f32..3.0, 0.5f32..2.0, any::<bool>()),
            1..6,
        ),
        moved_by in (-10.0f32..10.0, -10.0f32..10.0),
        direction in 0.0f32..std::f32::consts::TAU,
    ) {
        let axis = Vec2::from_angle(direction);
        let mut slot = ConvexPolygon::regular(8, 1.0);
        for (polygon, x, y, angle, scale, turned) in placements {
            let pose = if turned {
                Pose::new(Vec2::new(x, y), angle, Vec2::new(scale, 1.0 / scale))
            } else {
                Pose::from_translation(Vec2::new(x, y))
            };
            let Ok(aabb) = polygon.transform_into(&pose, &mut slot) else {
                continue; // left unchanged, still valid
            };
            prop_assert_eq!((aabb.min, aabb.max), bounds_of(slot.vertices()));
            prop_assert_eq!(slot.project(axis), projection_of(slot.vertices(), axis));
            slot.translate(Vec2::from(moved_by));
            prop_assert_eq!(slot.project(axis), projection_of(slot.vertices(), axis));
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

/// The collider the 64,000-body stress scene lost before merged corners were rebuilt: a random
/// 5-corner polygon with an edge 2.5e-5 long, at about (835, -976), where f32 steps by 6.1e-5.
#[test]
fn a_short_edge_far_out_merges_into_a_polygon_with_fewer_corners() {
    let local = ConvexPolygon::new([
        Vec2::new(-6.0, -2.0),
        Vec2::new(1.0, -5.0),
        Vec2::new(6.0, 0.0),
        Vec2::new(6.0, 2.5e-5),
        Vec2::new(-1.0, 4.0),
    ])
    .unwrap();
    assert_eq!(local.vertices().len(), 5);
    let by = Vec2::new(835.0, -976.0);
    let placed = local.transformed(&Pose::from_translation(by)).unwrap();
    assert_eq!(
        placed.vertices(),
        &[
            Vec2::new(-6.0, -2.0) + by,
            Vec2::new(1.0, -5.0) + by,
            Vec2::new(6.0, 0.0) + by,
            Vec2::new(-1.0, 4.0) + by,
        ]
    );
    assert_eq!(placed.normals().len(), 4);
    // The general placement (rotation and scale) rebuilds it the same way.
    let turned = Pose {
        translation: by,
        rotation: Vec2::new(1.0, 0.0),
        scale: Vec2::new(1.0, -1.0),
    };
    assert_eq!(local.transformed(&turned).unwrap().vertices().len(), 4);
}
