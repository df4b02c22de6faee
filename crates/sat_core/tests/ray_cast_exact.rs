//! Exact cases of `cast_ray` on shapes with exact coordinates, where every answer is known:
//! rays along an edge, through a corner, from an edge, grazing a circle, at the reach; and
//! NaN, infinite and huge inputs.

use glam::Vec2;
use sat_core::{Circle, ConvexPolygon, Pose, Shape, cast_ray};

/// A 4 × 2 box centred at (1, 1): edges on x = -1, x = 3, y = 0, y = 2, all exact.
fn dyadic_box() -> Shape {
    ConvexPolygon::rectangle(4.0, 2.0)
        .transformed(&Pose::from_translation(Vec2::new(1.0, 1.0)))
        .unwrap()
        .into()
}

fn ray(shape: &Shape, o: (f32, f32), d: (f32, f32), solid: bool) -> Option<(f32, Vec2, Vec2)> {
    cast_ray(
        shape,
        Vec2::new(o.0, o.1),
        Vec2::new(d.0, d.1),
        100.0,
        solid,
    )
    .map(|h| (h.distance, h.normal, h.point))
}

/// A ray exactly along an edge's line touches the box: at the edge's near corner, with the
/// normal of the edge it enters by there (the side), from either end.
#[test]
fn ray_exactly_along_an_edge_hits_its_near_corner() {
    let b = dyadic_box();
    assert_eq!(
        ray(&b, (-5.0, 0.0), (1.0, 0.0), true),
        Some((4.0, Vec2::NEG_X, Vec2::new(-1.0, 0.0)))
    );
    assert_eq!(
        ray(&b, (7.0, 2.0), (-2.0, 0.0), true),
        Some((4.0, Vec2::X, Vec2::new(3.0, 2.0)))
    );
    // Just off the line, outside: a miss.
    assert_eq!(ray(&b, (-5.0, -1e-6), (1.0, 0.0), true), None);
}

/// A ray through a corner only touching it hits the corner; one through it into the box
/// hits it with the normal of the edge met more head-on (the first edge on a tie).
#[test]
fn ray_exactly_through_a_corner() {
    let b = dyadic_box();
    // Touching only the corner (3, 2): it enters by the top edge there and leaves by the side.
    assert_eq!(
        ray(&b, (1.0, 4.0), (1.0, -1.0), true),
        Some((8f32.sqrt(), Vec2::Y, Vec2::new(3.0, 2.0)))
    );
    // Into the box diagonally through (-1, 0): bottom and left are met equally head-on.
    assert_eq!(
        ray(&b, (-3.0, -2.0), (1.0, 1.0), true),
        Some((8f32.sqrt(), Vec2::NEG_Y, Vec2::new(-1.0, 0.0)))
    );
    // More head-on to the left side than to the bottom.
    let (_, normal, point) = ray(&b, (-5.0, -2.0), (2.0, 1.0), true).unwrap();
    assert_eq!((normal, point), (Vec2::NEG_X, Vec2::new(-1.0, 0.0)));
}

/// An origin exactly on an edge is inside: solid hits at once, hollow where it leaves (at
/// once when heading out).
#[test]
fn ray_from_exactly_on_an_edge() {
    let b = dyadic_box();
    assert_eq!(
        ray(&b, (3.0, 1.0), (1.0, 0.0), true),
        Some((0.0, Vec2::NEG_X, Vec2::new(3.0, 1.0)))
    );
    assert_eq!(
        ray(&b, (3.0, 1.0), (1.0, 0.0), false),
        Some((0.0, Vec2::X, Vec2::new(3.0, 1.0)))
    );
    assert_eq!(
        ray(&b, (3.0, 1.0), (-1.0, 0.0), false),
        Some((4.0, Vec2::NEG_X, Vec2::new(-1.0, 1.0)))
    );
    assert_eq!(
        ray(&b, (2.0, 0.0), (0.0, 1.0), false),
        Some((2.0, Vec2::Y, Vec2::new(2.0, 2.0)))
    );
}

/// A ray tangent to a circle touches it at the tangent point; a hair further out misses.
#[test]
fn ray_grazing_a_circle() {
    let c: Shape = Circle::new(Vec2::new(1.0, 1.0), 2.0).unwrap().into();
    assert_eq!(
        ray(&c, (-5.0, 3.0), (1.0, 0.0), true),
        Some((6.0, Vec2::Y, Vec2::new(1.0, 3.0)))
    );
    assert_eq!(ray(&c, (-5.0, 3.0 + 1e-6), (1.0, 0.0), true), None);
    // Hollow from the centre: out the far side.
    assert_eq!(
        ray(&c, (1.0, 1.0), (0.0, -3.0), false),
        Some((2.0, Vec2::NEG_Y, Vec2::new(1.0, -1.0)))
    );
}

/// The reach is inclusive, and a negative one is refused.
#[test]
fn ray_reach_is_inclusive() {
    let b = dyadic_box();
    let cast = |max| cast_ray(&b, Vec2::new(-5.0, 1.0), Vec2::X, max, true).map(|h| h.distance);
    assert_eq!(
        (cast(4.0), cast(3.999_999), cast(-1.0), cast(0.0)),
        (Some(4.0), None, None, None)
    );
    assert_eq!(
        cast_ray(&b, Vec2::new(0.0, 1.0), Vec2::X, -0.0, true).map(|h| h.distance),
        Some(0.0)
    );
}

/// NaN, infinite and huge inputs never panic: bad ones give `None`, huge ones a finite hit.
#[test]
fn ray_nasty_inputs_never_panic() {
    let nasty = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e30,
        -1e30,
        f32::MAX,
        1e-30,
        0.0,
        1.0,
    ];
    let shapes = [dyadic_box(), Circle::new(Vec2::ONE, 2.0).unwrap().into()];
    for shape in &shapes {
        for &x in &nasty {
            for &y in &nasty {
                for &max in &nasty {
                    for solid in [true, false] {
                        for (o, d) in [
                            (Vec2::new(x, y), Vec2::NEG_ONE),
                            (Vec2::new(1.0, 1.0), Vec2::new(x, y)),
                        ] {
                            let hit = cast_ray(shape, o, d, max, solid);
                            let bad = !o.is_finite()
                                || !d.is_finite()
                                || d == Vec2::ZERO
                                || !max.is_finite()
                                || max < 0.0;
                            if bad {
                                assert_eq!(hit, None, "{o} {d} {max}");
                            } else if let Some(h) = hit {
                                assert!(
                                    h.distance.is_finite()
                                        && h.point.is_finite()
                                        && h.normal.is_finite(),
                                    "{h:?}"
                                );
                                assert!(h.distance <= max, "{h:?}");
                            }
                        }
                    }
                }
            }
        }
    }
    // From 1e30 away, aimed at the box: a hit on its boundary.
    let far = cast_ray(&shapes[0], Vec2::new(-1e30, 1.0), Vec2::X, f32::MAX, true).unwrap();
    assert_eq!((far.normal, far.point), (Vec2::NEG_X, Vec2::new(-1.0, 1.0)));
    assert!((far.distance - 1e30).abs() <= 1e24, "{far:?}");
}

/// A hollow ray leaving a circle from exactly on it reports distance +0, not -0.
#[test]
fn ray_leaving_from_the_boundary_reports_positive_zero() {
    let c: Shape = Circle::new(Vec2::ZERO, 1.0).unwrap().into();
    let hit = cast_ray(&c, Vec2::X, Vec2::X, 10.0, false).unwrap();
    assert_eq!((hit.normal, hit.point), (Vec2::X, Vec2::X));
    assert!(
        hit.distance == 0.0 && hit.distance.is_sign_positive(),
        "{hit:?}"
    );
}

/// Beside a very short edge, whose direction is mostly the round-off of its corners, the
/// clipped ray may stop on that edge's line a little beyond its ends: the point stays on the
/// ray (within the noise of the outline), not moved to the edge's far end. A polygon with an
/// edge of 8e-4 next to a long one nearly in line with it, turned to many angles, and a ray
/// aimed at the corner where the long edge starts.
#[test]
fn ray_hit_point_stays_on_the_ray_beside_a_very_short_edge() {
    let v = Vec2::new;
    let local = ConvexPolygon::new([
        v(19.073017, 0.0),
        v(17.07502, -1.1874096),
        v(17.07535, -1.334883),
        v(17.075352, -1.3357017),
        v(17.176283, -8.655842),
    ])
    .unwrap();
    for step in 0..4000 {
        let pose = Pose::new(Vec2::ZERO, step as f32 * 0.0015, Vec2::ONE);
        let p = local.transformed(&pose).unwrap();
        let corner = p.vertices()[1];
        for solid in [true, false] {
            let hit = cast_ray(&p, Vec2::ZERO, corner, 100.0, solid).unwrap();
            assert!(
                (hit.distance - corner.length()).abs() < 1e-3,
                "{step}: {hit:?}"
            );
            assert!(hit.point.distance(corner) < 1e-3, "{step}: {hit:?}");
        }
    }
}
