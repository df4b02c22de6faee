//! Worked examples: the classic cases (touching, containment, rotated boxes, parallel edges),
//! the seed articles' examples, circles, sweeps and placement. Expected values were
//! computed independently (by hand, or with the f64 Minkowski-difference reference).

use core::f32::consts::{FRAC_PI_4, SQRT_2};

use glam::Vec2;
use sat_core::{Circle, ConvexPolygon, Pose, Shape, TransformError, collide, overlap, sweep};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn at(p: ConvexPolygon, x: f32, y: f32) -> ConvexPolygon {
    p.transformed(&Pose::from_translation(v(x, y))).unwrap()
}

fn close(a: Vec2, b: Vec2, tol: f32) -> bool {
    (a - b).length() <= tol
}

fn sorted_points(c: &sat_core::Contact) -> Vec<Vec2> {
    let mut p = c.points().to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    p
}

#[test]
fn touching_is_a_contact_of_depth_zero() {
    let a = ConvexPolygon::rectangle(2.0, 2.0);
    let b = at(ConvexPolygon::rectangle(2.0, 2.0), 2.0, 0.5);
    let c = collide(&a, &b).expect("touching counts");
    assert_eq!((c.normal, c.depth), (Vec2::X, 0.0));
    assert_eq!(sorted_points(&c), vec![v(1.0, -0.5), v(1.0, 1.0)]);
    assert!(overlap(&a, &b));
    let apart = at(ConvexPolygon::rectangle(2.0, 2.0), 2.0001, 0.5);
    assert!(collide(&a, &apart).is_none() && !overlap(&a, &apart));
}

#[test]
fn contained_shape_is_pushed_out_the_short_way_not_by_centres() {
    // A thin triangle inside a tall box. Its centroid (x ≈ -0.93) is left of the box's centre,
    // but its projection's midpoint (x = 0.1) is right of it: leaving to the right is shorter
    // (13 against 13.2). A centre-based sign would push it 13 to the left, still inside.
    let tri = ConvexPolygon::new([v(-3.0, 0.0), v(3.2, 0.0), v(-3.0, 0.5)]).unwrap();
    let tall = ConvexPolygon::rectangle(20.0, 200.0);
    assert!(tri.centroid().x < 0.0);
    let c = collide(&tri, &tall).unwrap();
    assert_eq!(c.normal, Vec2::NEG_X);
    assert!((c.depth - 13.0).abs() < 1e-5);
    let out = tri.transformed(&Pose::from_translation(c.mtv())).unwrap();
    assert!(collide(&out, &tall).is_none_or(|c| c.depth < 1e-5));
    // And seen from the box, the normal flips.
    assert_eq!(collide(&tall, &tri).unwrap().normal, Vec2::X);
}

#[test]
fn box_resting_on_floor_reports_both_corners() {
    let floor = at(ConvexPolygon::rectangle(20.0, 2.0), 0.0, -1.0); // top at y = 0
    let bx = at(ConvexPolygon::rectangle(2.0, 2.0), 3.0, 0.9); // bottom at y = -0.1
    let c = collide(&bx, &floor).unwrap();
    assert_eq!(c.normal, Vec2::NEG_Y);
    assert!((c.depth - 0.1).abs() < 1e-6);
    let p = sorted_points(&c);
    assert!(
        close(p[0], v(2.0, -0.05), 1e-6) && close(p[1], v(4.0, -0.05), 1e-6),
        "{p:?}"
    );
}

#[test]
fn parallel_edges_offset_clip_to_the_shared_span() {
    let a = ConvexPolygon::rectangle(4.0, 2.0);
    let b = at(ConvexPolygon::rectangle(4.0, 2.0), 3.0, 1.5); // overlap x ∈ [1, 2], y ∈ [0.5, 1]
    let c = collide(&a, &b).unwrap();
    assert_eq!(c.normal, Vec2::Y);
    assert!((c.depth - 0.5).abs() < 1e-6);
    let p = sorted_points(&c);
    assert!(
        close(p[0], v(1.0, 0.75), 1e-6) && close(p[1], v(2.0, 0.75), 1e-6),
        "{p:?}"
    );
}

#[test]
fn rotated_box_corner_down_has_one_point() {
    let floor = at(ConvexPolygon::rectangle(20.0, 2.0), 0.0, -1.0);
    let diamond = ConvexPolygon::rectangle(2.0, 2.0)
        .transformed(&Pose::new(v(0.0, SQRT_2 - 0.1), FRAC_PI_4, Vec2::ONE))
        .unwrap(); // bottom corner at y = -0.1
    let c = collide(&diamond, &floor).unwrap();
    assert!(close(c.normal, Vec2::NEG_Y, 1e-6));
    assert!((c.depth - 0.1).abs() < 1e-5, "{}", c.depth);
    assert_eq!(c.points().len(), 1);
    assert!(
        close(c.points()[0], v(0.0, -0.05), 1e-5),
        "{:?}",
        c.points()
    );
}

#[test]
fn rotated_boxes_against_each_other() {
    // Two unit boxes turned 45°: diamonds overlapping tip to tip along x by 0.2.
    let turn = |x: f32| {
        ConvexPolygon::rectangle(1.0, 1.0)
            .transformed(&Pose::new(v(x, 0.0), FRAC_PI_4, Vec2::ONE))
            .unwrap()
    };
    let (a, b) = (turn(0.0), turn(SQRT_2 - 0.2));
    let c = collide(&a, &b).unwrap();
    // Along a face normal (±45°) the overlap is 0.2 · cos 45°.
    assert!(
        (c.depth - 0.2 * FRAC_PI_4.cos()).abs() < 1e-5,
        "{}",
        c.depth
    );
    assert!(
        (c.normal.x - FRAC_PI_4.cos()).abs() < 1e-5
            && (c.normal.y.abs() - FRAC_PI_4.sin()).abs() < 1e-5
    );
}

/// Seed 000: the 7-gon at (320, 200) and the regular triangle of radius 50 (coordinates and
/// expected MTVs from the article's scene, computed with the f64 reference).
#[test]
fn seed_triangle_against_heptagon() {
    let heptagon = ConvexPolygon::new(
        [
            (90.0, 110.0),
            (-60.0, 120.0),
            (-130.0, 30.0),
            (-120.0, -10.0),
            (-90.0, -50.0),
            (130.0, -10.0),
            (100.0, 100.0),
        ]
        .map(|(x, y)| v(x + 320.0, y + 200.0)),
    )
    .unwrap();
    assert_eq!(heptagon.vertices().len(), 7);
    let triangle = ConvexPolygon::regular(3, 50.0);
    let cases = [
        (v(150.0, 210.0), 4.850_712_5, v(0.970_142_5, 0.242_535_6)),
        (v(320.0, 120.0), 1.459_166, v(-0.178_885_4, 0.983_869_9)),
        (v(470.0, 240.0), 3.061_266_7, v(-0.964_763_8, -0.263_117_4)),
    ];
    for (position, depth, normal) in cases {
        let t = at(triangle.clone(), position.x, position.y);
        let c = collide(&t, &heptagon).unwrap();
        assert!(
            (c.depth - depth).abs() < 1e-3,
            "{position}: depth {} vs {depth}",
            c.depth
        );
        assert!(
            close(c.normal, normal, 1e-5),
            "{position}: normal {} vs {normal}",
            c.normal
        );
        let out = t.transformed(&Pose::from_translation(c.mtv())).unwrap();
        assert!(collide(&out, &heptagon).is_none_or(|c| c.depth < 1e-3));
    }
    // Far away: no contact, no overlap.
    assert!(!overlap(&at(triangle, 100.0, 200.0), &heptagon));
}

/// Seed 002: the weak quad W (8×8, from [2, -6] to [1, -5]) and the mighty quad M (8×8, from
/// [-7, 4] to [-4, 1]); positions are the quads' lower corners.
#[test]
fn seed_two_quads() {
    let quad = |corner: Vec2| {
        at(
            ConvexPolygon::rectangle(8.0, 8.0),
            corner.x + 4.0,
            corner.y + 4.0,
        )
    };
    let (w_start, m_start) = (quad(v(2.0, -6.0)), quad(v(-7.0, 4.0)));
    let (w_end, m_end) = (quad(v(1.0, -5.0)), quad(v(-4.0, 1.0)));
    assert!(!overlap(&w_start, &m_start));
    // Relative motion (-1, 1) - (3, -3): x closes its gap of 1 at t = 1/4, y its gap of 2 at
    // t = 1/2, so they touch at t = 1/2 through the y faces.
    let hit = sweep(&w_start, &m_start, v(-4.0, 4.0)).unwrap();
    assert_eq!((hit.toi, hit.normal, hit.depth), (0.5, Vec2::Y, 0.0));
    // At the end they overlap 3 along x and 2 along y: pushed apart along y.
    let c = collide(&w_end, &m_end).unwrap();
    assert_eq!((c.normal, c.depth), (Vec2::Y, 2.0));
    assert_eq!(c.mtv(), v(0.0, -2.0));
    assert_eq!(sorted_points(&c), vec![v(1.0, 2.0), v(4.0, 2.0)]);
}

#[test]
fn circles() {
    let ball = |x: f32, y: f32, r: f32| Circle::new(v(x, y), r).unwrap();
    let c = collide(&ball(0.0, 0.0, 1.0), &ball(1.5, 0.0, 1.0)).unwrap();
    assert_eq!(
        (c.normal, c.depth, c.points()),
        (Vec2::X, 0.5, &[v(0.75, 0.0)][..])
    );
    assert_eq!(
        collide(&ball(0.0, 0.0, 1.0), &ball(2.0, 0.0, 1.0))
            .unwrap()
            .depth,
        0.0
    );
    assert!(collide(&ball(0.0, 0.0, 1.0), &ball(2.01, 0.0, 1.0)).is_none());
    // Coincident centres: a defined push, never NaN.
    let same = collide(&ball(1.0, 1.0, 1.0), &ball(1.0, 1.0, 0.5)).unwrap();
    assert_eq!((same.normal, same.depth), (Vec2::Y, 1.5));

    let square = ConvexPolygon::rectangle(2.0, 2.0);
    // Face region.
    let c = collide(&ball(0.0, 1.5, 1.0), &square).unwrap();
    assert_eq!((c.normal, c.depth), (Vec2::NEG_Y, 0.5));
    // Corner region: centre at (1.5, 1.5), nearest point the corner (1, 1).
    let c = collide(&square, &ball(1.5, 1.5, 1.0)).unwrap();
    assert!(close(c.normal, v(1.0, 1.0).normalize(), 1e-6));
    assert!((c.depth - (1.0 - 0.5 * SQRT_2)).abs() < 1e-6);
    assert!(collide(&square, &ball(1.8, 1.8, 1.0)).is_none());
    // Centre inside the square: out through the nearest face, the short way.
    let c = collide(&square, &ball(0.7, 0.1, 0.5)).unwrap();
    assert_eq!(c.normal, Vec2::X);
    assert!((c.depth - 0.8).abs() < 1e-6);
}

#[test]
fn sweeps() {
    let ball = Circle::new(v(-10.0, 0.0), 1.0).unwrap();
    let wall = at(ConvexPolygon::rectangle(2.0, 10.0), 0.0, 0.0); // faces at x = ±1
    let hit = sweep(&ball, &wall, v(20.0, 0.0)).unwrap();
    assert_eq!((hit.toi, hit.normal), (0.4, Vec2::X));
    // Polygon moving into a circle: the normal still points from A to B.
    let hit = sweep(&wall, &ball, v(-20.0, 0.0)).unwrap();
    assert_eq!((hit.toi, hit.normal), (0.4, Vec2::NEG_X));
    // Circle against circle.
    let other = Circle::new(v(10.0, 0.0), 1.0).unwrap();
    let hit = sweep(&ball, &other, v(40.0, 0.0)).unwrap();
    assert_eq!((hit.toi, hit.normal), (0.45, Vec2::X));
    // Moving away, parallel, or too short: no hit.
    assert!(sweep(&ball, &wall, v(-20.0, 0.0)).is_none());
    assert!(sweep(&ball, &wall, v(0.0, 20.0)).is_none());
    assert!(sweep(&ball, &wall, v(5.0, 0.0)).is_none());
    // Passing a corner diagonally: the rounded corner is hit, not the face plane.
    // The centre runs along (-3 + 4t, 7 - 4t), straight at the corner (-1, 5), and passes the
    // planes of both faces (y = 6 or x = -2 at t = 1/4) beside the faces, not over them. It
    // meets the corner when the distance |4t - 2|·√2 is the radius 1: t = 1/2 - √2/8, and
    // the normal points from the centre to the corner, (1, -1)/√2.
    let corner_ball = Circle::new(v(-3.0, 7.0), 1.0).unwrap();
    let hit = sweep(&corner_ball, &wall, v(4.0, -4.0)).unwrap();
    let exact_toi = 0.5 - 2f64.sqrt() / 8.0;
    assert!(
        (f64::from(hit.toi) - exact_toi).abs() < 1e-6,
        "toi {} against {exact_toi}",
        hit.toi
    );
    assert!(
        close(hit.normal, v(1.0, -1.0).normalize(), 1e-6),
        "{}",
        hit.normal
    );
    assert_eq!(hit.depth, 0.0);
    // Already overlapping: toi 0 and the static contact.
    let inside = at(ConvexPolygon::rectangle(1.0, 1.0), 1.25, 0.0);
    let hit = sweep(&inside, &wall, v(5.0, 0.0)).unwrap();
    assert_eq!((hit.toi, hit.normal, hit.depth), (0.0, Vec2::NEG_X, 0.25));
    // A non-finite motion is refused, not propagated.
    assert!(sweep(&ball, &wall, v(f32::NAN, 0.0)).is_none());
}

#[test]
fn thin_platform_is_not_tunneled() {
    // 5,000 units/s for a 60 Hz step against a 2-unit platform: the static test sees nothing
    // at either end of the step, the sweep sees the hit.
    let platform = ConvexPolygon::rectangle(100.0, 2.0);
    let start = at(ConvexPolygon::rectangle(1.0, 1.0), 0.0, 40.0);
    let motion = v(0.0, -5000.0 / 60.0);
    let end = start.transformed(&Pose::from_translation(motion)).unwrap();
    assert!(!overlap(&start, &platform) && !overlap(&end, &platform));
    let hit = sweep(&start, &platform, motion).unwrap();
    assert!((hit.toi - 38.5 / (5000.0 / 60.0)).abs() < 1e-6);
    assert_eq!(hit.normal, Vec2::NEG_Y);
}

#[test]
fn placement_scale_rotation_and_mirroring() {
    let tri = ConvexPolygon::new([v(0.0, 0.0), v(2.0, 0.0), v(0.0, 1.0)]).unwrap();
    // Mirrored in x: still counter-clockwise, normals outward.
    let mirrored = tri
        .transformed(&Pose::new(v(5.0, 0.0), 0.0, v(-1.0, 2.0)))
        .unwrap();
    let expected = [v(5.0, 0.0), v(5.0, 2.0), v(3.0, 0.0)];
    for p in expected {
        assert!(
            mirrored.vertices().contains(&p),
            "{:?}",
            mirrored.vertices()
        );
    }
    let check_outward = |p: &ConvexPolygon| {
        let n = p.vertices().len();
        for i in 0..n {
            let e = p.vertices()[(i + 1) % n] - p.vertices()[i];
            assert!(
                e.perp_dot(p.vertices()[(i + 2) % n] - p.vertices()[i]) > 0.0,
                "ccw"
            );
            assert!((p.normals()[i].dot(e)).abs() < 1e-5);
            assert!(p.normals()[i].perp_dot(e) > 0.0, "outward normal {i}");
        }
    };
    check_outward(&mirrored);
    let stretched = ConvexPolygon::regular(6, 1.0)
        .transformed(&Pose::new(v(1.0, 2.0), 0.3, v(3.0, 0.5)))
        .unwrap();
    check_outward(&stretched);
    assert_eq!(
        stretched.axes().count(),
        3,
        "parallel edges stay parallel under scaling"
    );
    assert!(close(stretched.centroid(), v(1.0, 2.0), 1e-5));
    // Bad poses are refused.
    let square = ConvexPolygon::rectangle(1.0, 1.0);
    assert_eq!(
        square.transformed(&Pose::new(Vec2::ZERO, 0.0, v(0.0, 1.0))),
        Err(TransformError::ZeroScale)
    );
    assert_eq!(
        square.transformed(&Pose::from_translation(v(f32::NAN, 0.0))),
        Err(TransformError::NonFinitePose)
    );
    assert_eq!(
        square.transformed(&Pose::from_translation(v(1e30, 0.0))),
        Err(TransformError::OutOfRange)
    );
    // A reusable buffer: transform_into leaves it alone on error.
    let mut buffer = Shape::from(square.clone());
    let before = buffer.clone();
    assert!(
        Shape::from(square.clone())
            .transform_into(&Pose::from_translation(v(f32::INFINITY, 0.0)), &mut buffer)
            .is_err()
    );
    assert_eq!(buffer, before);
    Shape::from(square)
        .transform_into(&Pose::from_translation(v(3.0, 0.0)), &mut buffer)
        .unwrap();
    assert_eq!(buffer.aabb().min, v(2.5, -0.5));
    // A circle under non-uniform scale takes the larger factor.
    let ball = Circle::new(v(1.0, 0.0), 1.0).unwrap();
    let placed = ball
        .transformed(&Pose::new(v(0.0, 0.0), 0.0, v(2.0, -3.0)))
        .unwrap();
    assert_eq!((placed.center(), placed.radius()), (v(2.0, 0.0), 3.0));
}
