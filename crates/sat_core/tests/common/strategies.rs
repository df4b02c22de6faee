//! proptest strategies for shapes placed in the world.

use core::f32::consts::TAU;

use glam::Vec2;
use proptest::prelude::*;
use sat_core::{Circle, ConvexPolygon, Pose, Shape};

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
