//! Polygons of more than 8 corners (`LargePolygon`, up to 256): validation, and each query on
//! a 16-gon with integer corners, where every answer is known exactly.

use core::f32::consts::{FRAC_PI_2, TAU};

use glam::Vec2;
use sat_core::{
    Capsule, ConvexPolygon, LargePolygon, MAX_POLYGON_VERTICES, MAX_VERTICES, PolygonError, Pose,
    Shape, cast_ray, collide, contains_point, distance, overlap, project_point, sweep,
};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// `n` points evenly round a circle of radius 100.
fn ring(n: usize) -> impl Iterator<Item = Vec2> {
    (0..n).map(move |i| Vec2::from_angle(i as f32 * TAU / n as f32) * 100.0)
}

/// A convex 16-gon with integer corners: flat bottom (y = -10) and top (y = 10, from x = -6 to
/// 6), flat sides (x = ±12, from y = -2 to 2).
fn hill() -> Shape {
    let right = [
        v(6.0, -10.0),
        v(9.0, -9.0),
        v(11.0, -6.0),
        v(12.0, -2.0),
        v(12.0, 2.0),
        v(11.0, 6.0),
        v(9.0, 9.0),
        v(6.0, 10.0),
    ];
    let left = right.map(|p| v(-p.x, -p.y));
    Shape::polygon(right.into_iter().chain(left)).unwrap()
}

/// A `w × h` box centred on `at`.
fn boxed(w: f32, h: f32, at: Vec2) -> Shape {
    Shape::from(ConvexPolygon::rectangle(w, h))
        .transformed(&Pose::from_translation(at))
        .unwrap()
}

#[test]
fn up_to_256_vertices_are_accepted_and_more_refused() {
    let Shape::Large(most) = Shape::polygon(ring(MAX_POLYGON_VERTICES)).unwrap() else {
        panic!("256 corners are a large polygon");
    };
    assert_eq!(most.vertices().len(), 256);
    assert_eq!(
        Shape::polygon(ring(257)),
        Err(PolygonError::TooManyVertices {
            count: 257,
            max: 256
        })
    );
    assert_eq!(
        LargePolygon::new(ring(300)).unwrap_err(),
        PolygonError::TooManyVertices {
            count: 300,
            max: 256
        }
    );
    // `ConvexPolygon::new` takes as many, holding the outline past its inline slots.
    let nine_inline = ConvexPolygon::new(ring(9)).unwrap();
    assert!(nine_inline.vertices().len() > MAX_VERTICES);
    assert_eq!(nine_inline.vertices().len(), 9);
    let Shape::Large(nine) = Shape::polygon(ring(9)).unwrap() else {
        panic!("9 corners are a large polygon");
    };
    assert_eq!(nine.vertices().len(), 9);
}

#[test]
fn collinear_points_are_removed_and_a_small_outline_stays_inline() {
    // A square given with 4 points on each side: 16 points, 4 corners.
    let side = |from: Vec2, to: Vec2| (0..4).map(move |k| from.lerp(to, k as f32 / 4.0));
    let corners = [v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0), v(0.0, 4.0)];
    let points = (0..4).flat_map(|i| side(corners[i], corners[(i + 1) % 4]));
    let Shape::Polygon(square) = Shape::polygon(points.clone()).unwrap() else {
        panic!("4 corners fit inline");
    };
    assert_eq!(square.vertices(), &corners);
    assert_eq!(LargePolygon::new(points).unwrap().vertices(), &corners);
}

#[test]
fn bad_points_are_named_by_their_index() {
    let mut points: Vec<Vec2> = ring(12).collect();
    points[10] = v(f32::NAN, 0.0);
    assert_eq!(
        Shape::polygon(points.clone()),
        Err(PolygonError::NonFinite { index: 10 })
    );
    points[10] = ring(12).nth(10).unwrap();
    points[5] *= 0.5; // pushed inwards: a dent
    assert_eq!(
        Shape::polygon(points.clone()),
        Err(PolygonError::NotConvex { index: 5 })
    );
    points[5] = points[4];
    assert_eq!(
        Shape::polygon(points),
        Err(PolygonError::DuplicatePoint { index: 5 })
    );
    assert_eq!(
        Shape::polygon([Vec2::ZERO, Vec2::X]),
        Err(PolygonError::TooFewPoints { count: 2 })
    );
}

#[test]
fn a_box_sunk_into_the_top_gets_the_face_and_both_corners() {
    let hill = hill();
    let crate_ = boxed(2.0, 2.0, v(0.0, 10.5)); // bottom at 9.5, half a unit in
    let c = collide(&crate_, &hill).unwrap();
    assert_eq!((c.normal, c.depth), (Vec2::NEG_Y, 0.5));
    assert_eq!(c.points(), &[v(-1.0, 9.75), v(1.0, 9.75)]);
    assert!(overlap(&crate_, &hill) && overlap(&hill, &crate_));
    let flipped = collide(&hill, &crate_).unwrap();
    assert_eq!((flipped.normal, flipped.depth), (Vec2::Y, 0.5));
    // Against the flat right side (x = 12), a quarter in.
    let c = collide(&boxed(2.0, 2.0, v(12.75, 0.0)), &hill).unwrap();
    assert_eq!((c.normal, c.depth), (Vec2::NEG_X, 0.25));
    assert_eq!(c.points().len(), 2);
    assert!(c.points().iter().all(|p| p.x == 11.875 && p.y.abs() == 1.0));
}

#[test]
fn a_fast_box_falls_onto_the_top_at_the_exact_time() {
    let hill = hill();
    // 5,000 units/s over a 1/60 s step is 83 units; this one covers 200.
    let crate_ = boxed(1.0, 1.0, v(0.0, 100.0)); // bottom at 99.5: 89.5 above the top
    let hit = sweep(&crate_, &hill, v(0.0, -200.0)).unwrap();
    assert_eq!(hit.normal, Vec2::NEG_Y);
    assert!((hit.toi - 89.5 / 200.0).abs() < 1e-6, "{}", hit.toi);
    // Beside the hill, it passes.
    assert!(sweep(&boxed(1.0, 1.0, v(20.0, 100.0)), &hill, v(0.0, -200.0)).is_none());
    // Touching already: a hit at 0.
    let resting = boxed(2.0, 2.0, v(0.0, 11.0));
    assert_eq!(sweep(&resting, &hill, v(0.0, -1.0)).unwrap().toi, 0.0);
}

#[test]
fn distance_rays_and_points_on_the_faces() {
    let hill = hill();
    let d = distance(&boxed(2.0, 2.0, v(1.0, 13.0)), &hill).unwrap();
    assert_eq!((d.distance, d.normal), (2.0, Vec2::NEG_Y));
    assert_eq!(d.point_b.y, 10.0);
    assert!(distance(&boxed(2.0, 2.0, v(0.0, 11.0)), &hill).is_none()); // touching
    let down = cast_ray(&hill, v(0.0, 50.0), Vec2::NEG_Y, 100.0, true).unwrap();
    assert_eq!(
        (down.distance, down.normal, down.point),
        (40.0, Vec2::Y, v(0.0, 10.0))
    );
    let left = cast_ray(&hill, v(50.0, 1.0), Vec2::NEG_X, 100.0, true).unwrap();
    assert_eq!((left.distance, left.normal), (38.0, Vec2::X));
    let inside = cast_ray(&hill, Vec2::ZERO, Vec2::X, 100.0, false).unwrap();
    assert_eq!((inside.distance, inside.normal), (12.0, Vec2::X));
    assert!(contains_point(&hill, v(12.0, 0.0)));
    assert!(contains_point(&hill, v(-6.0, 10.0))); // a corner
    assert!(!contains_point(&hill, v(12.001, 0.0)));
    let p = project_point(&hill, v(0.0, 7.0)).unwrap();
    assert_eq!((p.point, p.is_inside), (v(0.0, 10.0), true));
}

#[test]
fn placing_turns_mirrors_and_scales_every_corner() {
    let Shape::Large(local) = hill() else {
        panic!("16 corners are a large polygon");
    };
    for pose in [
        Pose::new(v(100.0, -3.0), FRAC_PI_2, Vec2::ONE),
        Pose::new(v(-7.0, 2.0), 0.3, v(-1.0, 2.0)),
        Pose::new(Vec2::ZERO, 0.0, v(0.5, 0.25)),
    ] {
        let Shape::Large(placed) = local.transformed(&pose).unwrap() else {
            panic!("still large");
        };
        let n = placed.vertices().len();
        assert_eq!(n, 16);
        let expected: Vec<Vec2> = local
            .vertices()
            .iter()
            .map(|p| pose.transform_point(*p))
            .collect();
        for p in placed.vertices() {
            assert!(expected.iter().any(|e| e.distance(*p) < 1e-4), "{p}");
        }
        // Counter-clockwise, with unit outward normals.
        for i in 0..n {
            let (a, b) = (placed.vertices()[i], placed.vertices()[(i + 1) % n]);
            let normal = placed.normals()[i];
            assert!((normal.length() - 1.0).abs() < 1e-6);
            assert!(normal.dot(b - a).abs() < 1e-4 * (b - a).length());
            assert!(normal.dot(placed.centroid() - a) < 0.0);
        }
        let aabb = Shape::Large(placed.clone()).aabb();
        let (lo, hi) = expected
            .iter()
            .fold((expected[0], expected[0]), |(lo, hi), p| {
                (lo.min(*p), hi.max(*p))
            });
        assert!(aabb.min.distance(lo) < 1e-4 && aabb.max.distance(hi) < 1e-4);
    }
    assert!(
        local
            .transformed(&Pose::new(Vec2::ZERO, 0.0, Vec2::ZERO))
            .is_err()
    );
}

#[test]
fn a_clone_shares_until_it_is_moved() {
    let Shape::Large(a) = hill() else {
        panic!("16 corners are a large polygon");
    };
    let mut b = a.clone();
    b.translate(v(1.0, 0.0));
    assert_eq!(a.vertices()[0], v(6.0, -10.0));
    assert_eq!(b.vertices()[0], v(7.0, -10.0));
    assert_eq!(Shape::Large(b).aabb().max.x, 13.0);
}

/// A segment whose end lies deep in a large polygon, under a face beside a very short edge
/// (two corners 3.5e-5 apart): its contact point is halfway between the segment's end and that
/// face, not between the end and the short edge's corner, which was the one nearest to it.
#[test]
fn segment_end_under_a_face_beside_a_short_edge_meets_the_face() {
    let pose = |x: f32, y: f32, rotation: Vec2| Pose {
        translation: Vec2::new(x, y),
        rotation,
        scale: Vec2::ONE,
    };
    let segment = Shape::from(
        Capsule::segment(
            Vec2::new(-10.443319, -6.0315595),
            Vec2::new(10.443319, 6.0315595),
        )
        .unwrap(),
    )
    .transformed(&pose(
        -12.922672,
        -15.2491255,
        Vec2::new(0.9820434, 0.18865517),
    ))
    .unwrap();
    let polygon = Shape::from(
        LargePolygon::new([
            Vec2::new(14.002998, 0.0),
            Vec2::new(13.725792, 3.8417404),
            Vec2::new(13.182719, 6.5435295),
            Vec2::new(12.360677, 9.117862),
            Vec2::new(12.289238, 9.30143),
            Vec2::new(11.695784, 10.669922),
            Vec2::new(11.187096, 11.67037),
            Vec2::new(10.118281, 13.413458),
            Vec2::new(8.522266, 15.396258),
            Vec2::new(7.3486032, 16.516972),
            Vec2::new(1.0442368, 19.349556),
            Vec2::new(-1.9134208, 19.221582),
            Vec2::new(-3.4123962, 18.818626),
            Vec2::new(-3.8576684, 18.652748),
            Vec2::new(-4.0247436, 18.584843),
            Vec2::new(-7.3150425, 16.545551),
            Vec2::new(-7.580756, 16.314274),
            Vec2::new(-7.580781, 16.31425),
            Vec2::new(-11.32782, 11.406749),
            Vec2::new(-13.896904, -2.384011),
            Vec2::new(-12.767473, -7.9691997),
            Vec2::new(-12.067621, -9.842816),
            Vec2::new(-11.151005, -11.736504),
            Vec2::new(-10.802397, -12.346669),
            Vec2::new(-8.936028, -14.939037),
            Vec2::new(-7.8588343, -16.059633),
            Vec2::new(2.0307467, -19.198456),
            Vec2::new(2.8235712, -19.005026),
            Vec2::new(3.6121283, -18.746912),
            Vec2::new(4.48371, -18.382008),
            Vec2::new(6.8583083, -16.917),
            Vec2::new(13.997311, -0.55299014),
        ])
        .unwrap(),
    )
    .transformed(&pose(-1.9245313, -17.865242, Vec2::X))
    .unwrap();
    let c = collide(&segment, &polygon).unwrap();
    let Shape::Capsule(s) = &segment else {
        unreachable!()
    };
    // The segment's end, moved halfway out along the normal.
    let expected = s.end() - c.normal * (c.depth * 0.5);
    for p in c.points() {
        assert!(
            p.distance(expected) < 1e-3,
            "{p} instead of {expected}: {c:?}"
        );
    }
}
