//! `ConvexPolygon::new` takes outlines of up to 256 corners: past the inline slots it holds the
//! outline as a `LargePolygon`, and every query answers exactly as for that `LargePolygon`.

use core::f32::consts::TAU;

use glam::Vec2;
use sat_core::{
    AsShape, Capsule, Circle, ConvexPolygon, LargePolygon, MAX_POLYGON_VERTICES, MAX_VERTICES,
    PolygonError, Pose, RoundedPolygon, Shape, ShapeRef, cast_ray, collide, collide_within,
    contains_point, distance, least_overlap, least_overlap_after, measure_axes, overlap,
    point_distance, project_point, sweep,
};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// `n` points evenly round a circle of radius 10, counter-clockwise from +x.
fn ring(n: usize) -> Vec<Vec2> {
    (0..n)
        .map(|i| Vec2::from_angle(i as f32 * TAU / n as f32) * 10.0)
        .collect()
}

/// A shape placed at `at`, turned by `angle`.
fn placed(shape: impl Into<Shape>, at: Vec2, angle: f32) -> Shape {
    shape
        .into()
        .transformed(&Pose {
            translation: at,
            rotation: Vec2::from_angle(angle),
            scale: Vec2::ONE,
        })
        .unwrap()
}

/// Shapes of every kind around a ring of radius 10 at the origin: overlapping it, touching
/// it, and apart from it.
fn others() -> Vec<Shape> {
    let mut shapes = Vec::new();
    let kinds: Vec<Shape> = vec![
        ConvexPolygon::rectangle(4.0, 3.0).into(),
        ConvexPolygon::regular(6, 2.5).into(),
        Circle::new(Vec2::ZERO, 2.0).unwrap().into(),
        Capsule::vertical(1.0, 3.0).unwrap().into(),
        Capsule::segment(v(-2.0, 0.0), v(2.0, 0.0)).unwrap().into(),
        RoundedPolygon::round_rectangle(4.0, 3.0, 0.5)
            .unwrap()
            .into(),
        LargePolygon::new(ring(20).into_iter().map(|p| p * 0.3))
            .unwrap()
            .into(),
    ];
    for kind in &kinds {
        for (at, angle) in [
            (v(0.0, 11.0), 0.0),
            (v(9.5, 4.0), 0.4),
            (v(-12.9, 0.0), 1.1),
            (v(0.0, -25.0), 0.0),
            (v(3.0, 2.0), 2.0),
        ] {
            shapes.push(placed(kind.clone(), at, angle));
        }
    }
    shapes
}

/// Every query of `a` (a `ConvexPolygon`) against `other`, both ways, and of one shape alone,
/// as text: the same text for two shapes means the same answers, bit for bit.
fn answers(a: &dyn AsShape, other: &Shape) -> Vec<String> {
    let a = a.as_shape();
    let motion = v(-30.0, 5.0);
    let mut out = vec![
        format!("{:?}", overlap(&a, other)),
        format!("{:?}", overlap(other, &a)),
        format!("{:?}", collide(&a, other)),
        format!("{:?}", collide(other, &a)),
        format!("{:?}", collide_within(&a, other, 0.75)),
        format!("{:?}", sweep(&a, other, motion)),
        format!("{:?}", sweep(other, &a, motion)),
        format!("{:?}", distance(&a, other)),
        format!("{:?}", distance(other, &a)),
    ];
    for (origin, direction) in [(v(-30.0, 1.0), v(1.0, 0.0)), (v(2.0, 3.0), v(0.6, 0.8))] {
        out.push(format!(
            "{:?}",
            cast_ray(&a, origin, direction, 100.0, true)
        ));
        out.push(format!(
            "{:?}",
            cast_ray(&a, origin, direction, 100.0, false)
        ));
    }
    for point in [v(0.0, 0.0), v(9.9, 0.5), v(20.0, -3.0)] {
        out.push(format!("{:?}", contains_point(&a, point)));
        out.push(format!("{:?}", project_point(&a, point)));
        out.push(format!("{:?}", point_distance(&a, point)));
    }
    out
}

#[test]
fn new_takes_9_32_and_256_corners_as_large_polygon_does() {
    for n in [9, 32, MAX_POLYGON_VERTICES] {
        let polygon = ConvexPolygon::new(ring(n)).unwrap();
        let large = LargePolygon::new(ring(n)).unwrap();
        assert_eq!(polygon.vertices().len(), n);
        assert_eq!(polygon.vertices(), large.vertices());
        assert_eq!(polygon.normals(), large.normals());
        assert_eq!(polygon.centroid(), large.centroid());
        assert_eq!(polygon.bounding_radius(), large.bounding_radius());
        assert_eq!(polygon.bounds(), large.aabb());
        assert_eq!(polygon.as_large(), Some(&large));
        // A regular polygon of an even number of sides has one axis per pair of parallel edges.
        let unique = if n % 2 == 0 { n / 2 } else { n };
        assert_eq!(polygon.axes().count(), unique, "{n}");
        assert_eq!(large.axes().count(), unique, "{n}");
        assert!(matches!(Shape::from(polygon.clone()), Shape::Large(_)));
        assert!(matches!(polygon.as_shape(), ShapeRef::Large(_)));
        assert_eq!(LargePolygon::from(polygon), large);
    }
}

#[test]
fn more_than_256_points_are_refused() {
    assert_eq!(
        ConvexPolygon::new(ring(MAX_POLYGON_VERTICES + 1)),
        Err(PolygonError::TooManyVertices {
            count: 257,
            max: 256
        })
    );
    // A bad point past the inline slots is named by its index in the input.
    let mut points = ring(40);
    points[20] = v(f32::NAN, 0.0);
    assert_eq!(
        ConvexPolygon::new(points),
        Err(PolygonError::NonFinite { index: 20 })
    );
    // And so is a concave corner.
    let mut dented = ring(40);
    dented[30] *= 0.5;
    assert_eq!(
        ConvexPolygon::new(dented),
        Err(PolygonError::NotConvex { index: 30 })
    );
}

#[test]
fn every_query_agrees_exactly_with_large_polygon() {
    let others = others();
    for n in [9, 32, MAX_POLYGON_VERTICES] {
        for (at, angle) in [(Vec2::ZERO, 0.0), (v(0.25, -0.5), 0.3)] {
            let pose = Pose {
                translation: at,
                rotation: Vec2::from_angle(angle),
                scale: Vec2::ONE,
            };
            let polygon = ConvexPolygon::new(ring(n))
                .unwrap()
                .transformed(&pose)
                .unwrap();
            let Shape::Large(large) = LargePolygon::new(ring(n))
                .unwrap()
                .transformed(&pose)
                .unwrap()
            else {
                panic!("a large polygon places as one");
            };
            assert_eq!(polygon.vertices(), large.vertices());
            // A `Shape::Polygon` holding it, built by hand, answers the same too.
            let held = Shape::Polygon(polygon.clone());
            for other in &others {
                let expected = answers(&large, other);
                assert_eq!(
                    answers(&polygon, other),
                    expected,
                    "{n}-gon against {other:?}"
                );
                assert_eq!(answers(&held, other), expected, "{n}-gon against {other:?}");
            }
        }
    }
}

#[test]
fn clockwise_input_is_reordered_and_collinear_points_removed() {
    let mut clockwise = ring(32);
    clockwise.reverse();
    let polygon = ConvexPolygon::new(clockwise.clone()).unwrap();
    assert_eq!(
        polygon.vertices(),
        LargePolygon::new(clockwise).unwrap().vertices()
    );
    // Counter-clockwise from the first point given: ring point 31, then 0, 1, …
    let ccw = ring(32);
    assert_eq!(polygon.vertices()[0], ccw[31]);
    assert_eq!(polygon.vertices()[1..], ccw[..31]);

    // An octagon with the midpoint of every edge given too: 16 points, 8 corners, inline.
    let octagon = [
        v(2.0, -6.0),
        v(6.0, -2.0),
        v(6.0, 2.0),
        v(2.0, 6.0),
        v(-2.0, 6.0),
        v(-6.0, 2.0),
        v(-6.0, -2.0),
        v(-2.0, -6.0),
    ];
    let with_midpoints: Vec<Vec2> = (0..8)
        .flat_map(|i| [octagon[i], (octagon[i] + octagon[(i + 1) % 8]) * 0.5])
        .collect();
    let polygon = ConvexPolygon::new(with_midpoints).unwrap();
    assert_eq!(polygon.vertices(), octagon);
    assert!(polygon.as_large().is_none());
    assert!(matches!(Shape::from(polygon), Shape::Polygon(_)));
    // A 12-gon with its midpoints: 24 points, 12 corners on the heap.
    let twelve = ring(12);
    let with_midpoints: Vec<Vec2> = (0..12)
        .flat_map(|i| [twelve[i], (twelve[i] + twelve[(i + 1) % 12]) * 0.5])
        .collect();
    let polygon = ConvexPolygon::new(with_midpoints).unwrap();
    assert_eq!(polygon.vertices(), twelve);
    assert!(polygon.vertices().len() > MAX_VERTICES);
}

#[test]
fn equality_and_debug_go_by_the_outline() {
    let a = ConvexPolygon::new(ring(32)).unwrap();
    let b = ConvexPolygon::new(ring(32)).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.clone(), a);
    assert_ne!(a, ConvexPolygon::new(ring(33)).unwrap());
    // Not equal to an inline polygon with the same bounding box (what its inline slots hold).
    assert_ne!(a, ConvexPolygon::rectangle(20.0, 20.0));
    let text = format!("{a:?}");
    assert!(text.starts_with("ConvexPolygon { vertices: ["), "{text}");
    assert_eq!(text.matches("Vec2(").count(), 32 + 1, "{text}"); // the corners and the centroid
}

#[test]
fn placing_and_moving_keep_the_large_outline() {
    let local = ConvexPolygon::new(ring(32)).unwrap();
    let pose = Pose {
        translation: v(100.0, -40.0),
        rotation: Vec2::from_angle(0.7),
        scale: v(2.0, -1.5),
    };
    let Shape::Large(expected) = LargePolygon::new(ring(32))
        .unwrap()
        .transformed(&pose)
        .unwrap()
    else {
        panic!("a large polygon places as one");
    };
    let world = local.transformed(&pose).unwrap();
    assert_eq!(world.vertices(), expected.vertices());
    assert_eq!(world.centroid(), expected.centroid());
    // Into a polygon held inline, and back into one that is large: the storage follows.
    let mut slot = ConvexPolygon::rectangle(1.0, 1.0);
    let aabb = local.transform_into(&pose, &mut slot).unwrap();
    assert_eq!(slot.vertices(), expected.vertices());
    assert_eq!(aabb, expected.aabb());
    ConvexPolygon::rectangle(2.0, 2.0)
        .transform_into(&Pose::from_translation(v(1.0, 0.0)), &mut slot)
        .unwrap();
    assert_eq!(slot.vertices().len(), 4);
    assert!(slot.as_large().is_none());
    // As a shape, a large polygon is placed as a `Shape::Large`, whichever variant holds it.
    let held = Shape::Polygon(local.clone());
    let mut out = Shape::from(ConvexPolygon::rectangle(1.0, 1.0));
    held.transform_into(&pose, &mut out).unwrap();
    let Shape::Large(world) = &out else {
        panic!("placed as a large polygon: {out:?}");
    };
    assert_eq!(world.vertices(), expected.vertices());
    // Moving in place.
    let mut moved = local.clone();
    moved.translate(v(5.0, 1.0));
    let mut reference = LargePolygon::new(ring(32)).unwrap();
    reference.translate(v(5.0, 1.0));
    assert_eq!(moved.vertices(), reference.vertices());
    assert_eq!(moved.centroid(), reference.centroid());
    assert_eq!(local.vertices(), ring(32)); // the original is not moved with its clone
}

#[test]
fn the_polygon_pair_questions_take_a_large_polygon() {
    let round = ConvexPolygon::new(ring(32)).unwrap();
    // A 4 × 2 box sunk 0.5 into the flat top of the 32-gon turned so an edge faces up.
    let turned = round
        .transformed(&Pose {
            translation: Vec2::ZERO,
            rotation: Vec2::from_angle(TAU / 64.0),
            scale: Vec2::ONE,
        })
        .unwrap();
    let top = turned
        .vertices()
        .iter()
        .fold(f32::NEG_INFINITY, |y, p| y.max(p.y));
    let crate_ = ConvexPolygon::rectangle(4.0, 2.0)
        .transformed(&Pose::from_translation(v(0.0, top + 0.5)))
        .unwrap();
    let expected = collide(&turned, &crate_).unwrap();
    assert!((expected.depth - 0.5).abs() < 1e-5, "{expected:?}");
    assert!(expected.normal.abs_diff_eq(Vec2::Y, 1e-6), "{expected:?}");
    let found = least_overlap(&turned, &crate_, 0.0).unwrap();
    assert!(found.normal.abs_diff_eq(expected.normal, 1e-6), "{found:?}");
    assert!((found.depth - expected.depth).abs() < 1e-5, "{found:?}");
    let contact = found.contact(&turned, &crate_);
    assert_eq!(contact.point_count(), expected.point_count());
    for (p, q) in contact.points().iter().zip(expected.points()) {
        assert!(p.abs_diff_eq(*q, 1e-4), "{contact:?} against {expected:?}");
    }
    let mut axes = Vec::new();
    // The 32-gon's 16 unique axes (among them the box's x and y, its edges facing up, down
    // and sideways once turned by half an edge), four to a group.
    assert_eq!(measure_axes(&turned, &crate_, &mut axes), 4);
    let now = least_overlap_after(&axes, Vec2::ZERO, 0.0).unwrap();
    assert_eq!((now.normal, now.depth), (found.normal, found.depth));
    let lifted = least_overlap_after(&axes, v(0.0, 0.25), 0.0).unwrap();
    assert!((lifted.depth - 0.25).abs() < 1e-5, "{lifted:?}");
    assert!(least_overlap_after(&axes, v(0.0, 1.0), 0.0).is_none());
    assert!(
        least_overlap(
            &turned,
            &crate_
                .transformed(&Pose::from_translation(v(0.0, 1.0)))
                .unwrap(),
            0.0
        )
        .is_none()
    );
}

#[test]
fn a_rounded_large_polygon_is_its_outline_grown_by_the_radius() {
    let round = RoundedPolygon::new(ConvexPolygon::new(ring(32)).unwrap(), 1.0).unwrap();
    // A box whose bottom is 0.25 into the rounded top (the outline's top corner is at y = 10).
    let crate_ = ConvexPolygon::rectangle(0.5, 2.0)
        .transformed(&Pose::from_translation(v(0.0, 11.0 - 0.25 + 1.0)))
        .unwrap();
    let contact = collide(&round, &crate_).unwrap();
    assert!((contact.depth - 0.25).abs() < 1e-4, "{contact:?}");
    assert!(contact.normal.abs_diff_eq(Vec2::Y, 1e-4), "{contact:?}");
    assert_eq!(Shape::from(round.clone()).aabb().max.y, 11.0);
    assert!(!overlap(
        &round,
        &crate_
            .transformed(&Pose::from_translation(v(0.0, 0.5)))
            .unwrap()
    ));
}
