//! proptest strategies for shapes placed in the world.

use core::f32::consts::TAU;

use glam::Vec2;
use proptest::prelude::*;
use sat_core::{Capsule, Circle, ConvexPolygon, Pose, RoundedPolygon, Shape};

/// A random convex polygon: sorted random angles on an ellipse (as in the stress scene).
pub fn ellipse_polygon() -> impl Strategy<Value = ConvexPolygon> {
    (
        prop::collection::vec(0.0f32..1.0, 3..=8),
        1.0f32..20.0,
        1.0f32..20.0,
    )
        .prop_filter_map("degenerate outline", |(mut fractions, rx, ry)| {
            fractions.sort_by(f32::total_cmp);
            let points = fractions
                .iter()
                .map(|f| Vec2::new((f * TAU).cos() * rx, (f * TAU).sin() * ry));
            ConvexPolygon::new(points).ok()
        })
}

/// Any local shape: boxes, regular polygons, random convex polygons, circles.
pub fn local_shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (1.0f32..30.0, 1.0f32..30.0).prop_map(|(w, h)| ConvexPolygon::rectangle(w, h).into()),
        (3usize..=8, 1.0f32..20.0).prop_map(|(n, r)| ConvexPolygon::regular(n, r).into()),
        ellipse_polygon().prop_map(Shape::from),
        ellipse_polygon().prop_map(Shape::from),
        (1.0f32..15.0).prop_map(|r| Circle::new(Vec2::ZERO, r).map(Shape::from).unwrap()),
    ]
}

pub fn pose(extent: f32) -> impl Strategy<Value = Pose> {
    (
        -extent..extent,
        -extent..extent,
        0.0f32..TAU,
        prop::bool::ANY,
    )
        .prop_map(move |(x, y, angle, rotate)| {
            Pose::new(Vec2::new(x, y), if rotate { angle } else { 0.0 }, Vec2::ONE)
        })
}

/// A shape placed near the origin, so that pairs overlap about half the time.
pub fn placed_shape() -> impl Strategy<Value = Shape> {
    (local_shape(), pose(25.0)).prop_map(|(s, p)| s.transformed(&p).unwrap())
}

/// Local capsules: radius 0.2 to 5, segment 0.5 to 20 along y.
pub fn capsule() -> impl Strategy<Value = Shape> {
    (0.2f32..5.0, 0.5f32..20.0).prop_map(|(r, l)| Capsule::vertical(r, l).unwrap().into())
}

/// Local bare segments, 0.5 to 30 long, any direction.
pub fn segment() -> impl Strategy<Value = Shape> {
    (0.5f32..30.0, 0.0f32..core::f32::consts::TAU).prop_map(|(l, a)| {
        let half = Vec2::from_angle(a) * (l * 0.5);
        Capsule::segment(-half, half).unwrap().into()
    })
}

/// Local rounded polygons: rounded rectangles and random convex cores, radius 0.1 to 4.
pub fn rounded_polygon() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (1.0f32..30.0, 1.0f32..30.0, 0.05f32..0.45).prop_filter_map(
            "core too thin",
            |(w, h, f)| RoundedPolygon::round_rectangle(w, h, w.min(h) * f)
                .ok()
                .map(Shape::from)
        ),
        (ellipse_polygon(), 0.1f32..4.0)
            .prop_map(|(p, r)| RoundedPolygon::new(p, r).unwrap().into()),
    ]
}

/// Local polygons and circles.
pub fn polygon() -> impl Strategy<Value = Shape> {
    prop_oneof![
        (1.0f32..30.0, 1.0f32..30.0).prop_map(|(w, h)| ConvexPolygon::rectangle(w, h).into()),
        ellipse_polygon().prop_map(Shape::from),
    ]
}

pub fn circle() -> impl Strategy<Value = Shape> {
    (0.5f32..15.0).prop_map(|r| Circle::new(Vec2::ZERO, r).unwrap().into())
}

/// A local polygon of `n` corners on an ellipse (semi-axes 1 to 20), either evenly spaced from
/// a random start or at sorted random angles: a round platform, or a lumpy one with edges of
/// every length. Built as a [`LargePolygon`](sat_core::LargePolygon) whatever its size.
pub fn large_polygon_of(n: impl Strategy<Value = usize>) -> impl Strategy<Value = Shape> {
    (
        n,
        1.0f32..20.0,
        1.0f32..20.0,
        0.0f32..1.0,
        prop::bool::ANY,
        prop::collection::vec(0.0f32..1.0, 256),
    )
        .prop_filter_map(
            "degenerate outline",
            |(n, rx, ry, start, even, mut fractions)| {
                let fractions: Vec<f32> = if even {
                    (0..n).map(|i| start + i as f32 / n as f32).collect()
                } else {
                    fractions.truncate(n);
                    fractions.sort_by(f32::total_cmp);
                    fractions
                };
                let points = fractions
                    .iter()
                    .map(|f| Vec2::new((f * TAU).cos() * rx, (f * TAU).sin() * ry));
                sat_core::LargePolygon::new(points).ok().map(Shape::from)
            },
        )
}

/// Large polygons of 9 to 256 corners: 32-gons and 256-gons often, other sizes between.
pub fn large_polygon() -> impl Strategy<Value = Shape> {
    large_polygon_of(prop_oneof![Just(32usize), Just(256usize), 9usize..=96])
}
