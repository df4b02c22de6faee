//! Capsules, bare segments and rounded polygons on hand-built scenes whose answers are known
//! exactly: resting contacts with two points, sweeps that must not tunnel, rays, point queries,
//! distances, placement and validation.

use glam::Vec2;
use sat_core::{
    Capsule, Circle, ConvexPolygon, Pose, RoundedError, RoundedPolygon, Shape, TransformError,
    cast_ray, collide, collide_within, contains_point, distance, exit_distance, overlap,
    point_distance, project_point, sweep,
};

/// A 10 × 2 floor whose top is at y = 1.
fn floor() -> ConvexPolygon {
    ConvexPolygon::rectangle(10.0, 2.0)
}

/// A horizontal capsule whose segment runs from x = -1 to 1 at height `y`, radius 0.5.
fn lying_capsule(y: f32) -> Capsule {
    Capsule::new(Vec2::new(-1.0, y), Vec2::new(1.0, y), 0.5).unwrap()
}

fn sorted(points: &[Vec2]) -> Vec<Vec2> {
    let mut points = points.to_vec();
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    points
}

/// A capsule lying on a floor touches it along its whole flat side: two contact points, at the
/// ends of its segment, depth 0, normal straight down.
#[test]
fn lying_capsule_on_floor_reports_two_points() {
    let contact = collide(&lying_capsule(1.5), &floor()).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::NEG_Y, 0.0));
    assert_eq!(
        sorted(contact.points()),
        [Vec2::new(-1.0, 1.0), Vec2::new(1.0, 1.0)]
    );
    // Sunk by 0.25: the points halfway through the overlap.
    let sunk = collide(&lying_capsule(1.25), &floor()).unwrap();
    assert_eq!((sunk.normal, sunk.depth), (Vec2::NEG_Y, 0.25));
    assert_eq!(
        sorted(sunk.points()),
        [Vec2::new(-1.0, 0.875), Vec2::new(1.0, 0.875)]
    );
    // Seen from the floor: the normal reversed, the same points.
    let seen = collide(&floor(), &lying_capsule(1.25)).unwrap();
    assert_eq!((seen.normal, seen.depth), (Vec2::Y, 0.25));
    assert_eq!(sorted(seen.points()), sorted(sunk.points()));
}

/// A rounded box resting on a floor: two points under the ends of its core's bottom edge.
#[test]
fn rounded_box_on_floor_reports_two_points() {
    let local = RoundedPolygon::round_rectangle(4.0, 2.0, 0.5).unwrap();
    let placed = local
        .transformed(&Pose::from_translation(Vec2::new(0.0, 2.0)))
        .unwrap();
    let contact = collide(&placed, &floor()).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::NEG_Y, 0.0));
    assert_eq!(
        sorted(contact.points()),
        [Vec2::new(-1.5, 1.0), Vec2::new(1.5, 1.0)]
    );
    // On a rounded floor too: the floor's core top at y = 0.5 with radius 0.5.
    let rounded_floor = RoundedPolygon::round_rectangle(10.0, 2.0, 0.5).unwrap();
    let contact = collide(&placed, &rounded_floor).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::NEG_Y, 0.0));
    assert_eq!(contact.point_count(), 2);
}

/// A capsule standing upright touches the floor at one point, under its centre.
#[test]
fn standing_capsule_touches_at_one_point() {
    let standing = Capsule::vertical(0.5, 2.0)
        .unwrap()
        .transformed(&Pose::from_translation(Vec2::new(2.0, 2.5)))
        .unwrap();
    let contact = collide(&standing, &floor()).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::NEG_Y, 0.0));
    assert_eq!(contact.points(), [Vec2::new(2.0, 1.0)]);
}

/// Standing on a corner, the normal runs from the rounded end to the corner.
#[test]
fn capsule_on_corner_is_pushed_along_the_corner_line() {
    // The floor's top-right corner is (5, 1); the capsule's lower end centre (5.375, 1.5),
    // 0.625 from it (3-4-5 over 8), so they touch.
    let capsule = Capsule::new(Vec2::new(5.375, 1.5), Vec2::new(5.375, 3.5), 0.625).unwrap();
    let contact = collide_within(&capsule, &floor(), 0.0).unwrap();
    assert!((contact.normal - Vec2::new(-0.6, -0.8)).length() < 1e-6);
    assert!(contact.depth.abs() < 1e-6);
    assert!((contact.points()[0] - Vec2::new(5.0, 1.0)).length() < 1e-6);
}

/// Two capsules side by side, parallel: two points; crossed: one, where they cross.
#[test]
fn capsule_pairs() {
    let a = Capsule::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 4.0), 1.0).unwrap();
    let b = Capsule::new(Vec2::new(1.5, 1.0), Vec2::new(1.5, 6.0), 1.0).unwrap();
    let contact = collide(&a, &b).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::X, 0.5));
    assert_eq!(
        {
            let mut p = contact.points().to_vec();
            p.sort_by(|u, v| u.y.total_cmp(&v.y));
            p
        },
        [Vec2::new(0.75, 1.0), Vec2::new(0.75, 4.0)]
    );
    // Crossed at (0, 2): out along y, 2 units either way (A's core spans y = 0 to 4), plus
    // both radii; along x it would be 3. Of the two equal ways, up (+y) is taken.
    let crossing = Capsule::new(Vec2::new(-3.0, 2.0), Vec2::new(3.0, 2.0), 0.25).unwrap();
    let contact = collide(&a, &crossing).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::Y, 3.25));
    assert_eq!(contact.point_count(), 1);
}

/// A circle against a capsule and a bare segment.
#[test]
fn circle_against_capsule_and_segment() {
    let capsule = Capsule::vertical(1.0, 2.0).unwrap(); // core from y = -1 to 1
    let ball = Circle::new(Vec2::new(0.0, 2.5), 1.0).unwrap();
    let contact = collide(&ball, &capsule).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::NEG_Y, 0.5));
    assert_eq!(contact.points(), [Vec2::new(0.0, 1.75)]);
    let side = Circle::new(Vec2::new(2.5, 0.3), 1.0).unwrap();
    assert_eq!(collide(&capsule, &side), None);
    let near = collide_within(&capsule, &side, 1.0).unwrap();
    assert_eq!((near.normal, near.depth), (Vec2::X, -0.5));
    let segment = Capsule::segment(Vec2::new(-2.0, 0.0), Vec2::new(2.0, 0.0)).unwrap();
    let resting = Circle::new(Vec2::new(1.0, 0.5), 0.5).unwrap();
    let contact = collide(&resting, &segment).unwrap();
    assert_eq!((contact.normal, contact.depth), (Vec2::NEG_Y, 0.0));
    assert_eq!(contact.points(), [Vec2::new(1.0, 0.0)]);
    // Beyond the segment's end on its line: apart.
    let beyond = Circle::new(Vec2::new(3.0, 0.0), 0.5).unwrap();
    assert!(!overlap(&beyond, &segment));
    assert_eq!(distance(&beyond, &segment).unwrap().distance, 0.5);
}

/// A box falling at 5,000 units/s (83.3 units in a 1/60 s step) onto a bare segment 2 units
/// long stops on it: the sweep finds the exact time, not a step past it.
#[test]
fn fast_box_does_not_tunnel_through_a_segment() {
    let segment = Capsule::segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).unwrap();
    let bx = ConvexPolygon::rectangle(1.0, 1.0)
        .transformed(&Pose::from_translation(Vec2::new(0.25, 40.5)))
        .unwrap(); // bottom at y = 40
    let motion = Vec2::new(0.0, -5_000.0 / 60.0);
    let hit = sweep(&bx, &segment, motion).unwrap();
    assert!((hit.toi * motion.length() - 40.0).abs() < 1e-4, "{hit:?}");
    assert_eq!(hit.normal, Vec2::NEG_Y);
    // From below, the other side; and a capsule and a segment moving through each other.
    let below = ConvexPolygon::rectangle(1.0, 1.0)
        .transformed(&Pose::from_translation(Vec2::new(-0.75, -40.5)))
        .unwrap();
    let hit = sweep(&below, &segment, -motion).unwrap();
    assert!((hit.toi * motion.length() - 40.0).abs() < 1e-4, "{hit:?}");
    assert_eq!(hit.normal, Vec2::Y);
    let capsule = Capsule::vertical(0.25, 1.0)
        .unwrap()
        .transformed(&Pose::from_translation(Vec2::new(0.9, 60.75)))
        .unwrap(); // lowest point at y = 60
    let hit = sweep(&capsule, &segment, motion).unwrap();
    assert!((hit.toi * motion.length() - 60.0).abs() < 1e-4, "{hit:?}");
    assert_eq!(hit.normal, Vec2::NEG_Y);
    // Sideways into a segment's end: the segment has no thickness, but its end is met.
    let from_side = ConvexPolygon::rectangle(1.0, 1.0)
        .transformed(&Pose::from_translation(Vec2::new(-30.5, 0.25)))
        .unwrap();
    let hit = sweep(&from_side, &segment, Vec2::new(80.0, 0.0)).unwrap();
    assert!((hit.toi * 80.0 - 29.0).abs() < 1e-4, "{hit:?}");
    assert_eq!(hit.normal, Vec2::X);
    // Passing beside it: no hit.
    let beside = ConvexPolygon::rectangle(1.0, 1.0)
        .transformed(&Pose::from_translation(Vec2::new(1.6, 40.5)))
        .unwrap();
    assert_eq!(sweep(&beside, &segment, motion), None);
}

/// A capsule falling onto a floor lands on its rounded end; one lying down lands flat, and
/// where it touches is the middle of its flat side.
#[test]
fn capsule_sweeps_onto_a_floor() {
    let standing = Capsule::vertical(0.5, 2.0)
        .unwrap()
        .transformed(&Pose::from_translation(Vec2::new(1.0, 11.5)))
        .unwrap(); // lowest point at y = 10
    let motion = Vec2::new(0.0, -18.0);
    let hit = sweep(&standing, &floor(), motion).unwrap();
    assert_eq!((hit.toi, hit.normal), (0.5, Vec2::NEG_Y));
    assert_eq!(hit.point(&standing, &floor(), motion), Vec2::new(1.0, 1.0));
    let lying = lying_capsule(10.5);
    let hit = sweep(&lying, &floor(), motion).unwrap();
    assert_eq!((hit.toi, hit.normal), (0.5, Vec2::NEG_Y));
    assert_eq!(hit.point(&lying, &floor(), motion), Vec2::new(0.0, 1.0));
    // Already resting: toi 0, the static contact.
    let hit = sweep(&lying_capsule(1.5), &floor(), motion).unwrap();
    assert_eq!((hit.toi, hit.normal, hit.depth), (0.0, Vec2::NEG_Y, 0.0));
}

/// Rays against a capsule: its flat side, its rounded end, from inside.
#[test]
fn rays_against_a_capsule() {
    let capsule = Capsule::vertical(1.0, 2.0).unwrap(); // core y = -1 to 1, radius 1
    let down = cast_ray(&capsule, Vec2::new(0.0, 10.0), Vec2::NEG_Y, 100.0, true).unwrap();
    assert_eq!(
        (down.distance, down.normal, down.point),
        (8.0, Vec2::Y, Vec2::new(0.0, 2.0))
    );
    let side = cast_ray(&capsule, Vec2::new(-10.0, 0.5), Vec2::X, 100.0, true).unwrap();
    assert_eq!(
        (side.distance, side.normal, side.point),
        (9.0, Vec2::NEG_X, Vec2::new(-1.0, 0.5))
    );
    // Across the top cap at y = 1.6: x = -0.8 on the circle of radius 1 around (0, 1).
    let cap = cast_ray(&capsule, Vec2::new(-10.0, 1.6), Vec2::X, 100.0, true).unwrap();
    assert!((cap.distance - 9.2).abs() < 1e-5);
    assert!((cap.normal - Vec2::new(-0.8, 0.6)).length() < 1e-6);
    let hollow = cast_ray(&capsule, Vec2::ZERO, Vec2::Y, 100.0, false).unwrap();
    assert_eq!((hollow.distance, hollow.normal), (2.0, Vec2::Y));
    assert_eq!(
        cast_ray(&capsule, Vec2::new(-10.0, 2.5), Vec2::X, 100.0, true),
        None
    );
    // A bare segment is hit from either side, and not from beyond its end.
    let segment = Capsule::segment(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0)).unwrap();
    let hit = cast_ray(&segment, Vec2::new(0.5, 3.0), Vec2::NEG_Y, 10.0, true).unwrap();
    assert_eq!((hit.distance, hit.normal), (3.0, Vec2::Y));
    let hit = cast_ray(&segment, Vec2::new(0.5, -3.0), Vec2::Y, 10.0, true).unwrap();
    assert_eq!((hit.distance, hit.normal), (3.0, Vec2::NEG_Y));
    assert_eq!(
        cast_ray(&segment, Vec2::new(1.5, 3.0), Vec2::NEG_Y, 10.0, true),
        None
    );
    // Along its line: its near end.
    let along = cast_ray(&segment, Vec2::new(-4.0, 0.0), Vec2::X, 10.0, true).unwrap();
    assert_eq!((along.distance, along.normal), (3.0, Vec2::NEG_X));
}

/// A rounded box's rounded corner bends rays; its flat faces do not.
#[test]
fn rays_against_a_rounded_box() {
    let rounded = RoundedPolygon::round_rectangle(4.0, 2.0, 0.5).unwrap(); // core ±1.5 × ±0.5
    let down = cast_ray(&rounded, Vec2::new(1.0, 5.0), Vec2::NEG_Y, 10.0, true).unwrap();
    assert_eq!((down.distance, down.normal), (4.0, Vec2::Y));
    // At x = 1.8 the corner disc around (1.5, 0.5): y = 0.5 + 0.4.
    let corner = cast_ray(&rounded, Vec2::new(1.8, 5.0), Vec2::NEG_Y, 10.0, true).unwrap();
    assert!((corner.distance - 4.1).abs() < 1e-5);
    assert!((corner.normal - Vec2::new(0.6, 0.8)).length() < 1e-6);
    assert_eq!(
        cast_ray(&rounded, Vec2::new(2.1, 5.0), Vec2::NEG_Y, 10.0, true),
        None
    );
}

/// Point queries: inside, on, outside the rounded surface.
#[test]
fn point_queries_on_rounded_shapes() {
    let capsule = Capsule::vertical(1.0, 2.0).unwrap();
    assert!(contains_point(&capsule, Vec2::new(0.6, 1.8))); // 0.6² + 0.8² = 1: on the cap
    assert!(!contains_point(&capsule, Vec2::new(0.61, 1.8)));
    assert_eq!(point_distance(&capsule, Vec2::new(3.0, 5.0)), Some(4.0)); // 3-4-5 from (0, 1)
    let p = project_point(&capsule, Vec2::new(3.0, 5.0)).unwrap();
    assert!((p.point - Vec2::new(0.6, 1.8)).length() < 1e-6 && !p.is_inside);
    let inside = project_point(&capsule, Vec2::new(0.25, 0.0)).unwrap();
    assert_eq!(
        (inside.point, inside.is_inside),
        (Vec2::new(1.0, 0.0), true)
    );
    let rounded = RoundedPolygon::round_rectangle(4.0, 2.0, 0.5).unwrap();
    assert_eq!(point_distance(&rounded, Vec2::new(0.0, 3.0)), Some(2.0));
    let inside = project_point(&rounded, Vec2::new(1.4, 0.0)).unwrap();
    assert_eq!(
        (inside.point, inside.is_inside),
        (Vec2::new(2.0, 0.0), true)
    );
    let segment = Capsule::segment(Vec2::ZERO, Vec2::new(2.0, 0.0)).unwrap();
    assert!(contains_point(&segment, Vec2::new(1.0, 0.0)));
    assert!(!contains_point(&segment, Vec2::new(1.0, 1e-6)));
    assert_eq!(point_distance(&segment, Vec2::new(1.0, -2.0)), Some(2.0));
    assert_eq!(point_distance(&segment, Vec2::NAN), None);
}

/// Distances and exit distances between rounded shapes.
#[test]
fn distances_and_exits() {
    let d = distance(&lying_capsule(4.0), &floor()).unwrap();
    assert_eq!(d.distance, 2.5);
    assert_eq!(d.normal, Vec2::NEG_Y);
    let up = exit_distance(&lying_capsule(1.25), &floor(), Vec2::Y).unwrap();
    assert!((up - 0.25).abs() < 1e-6);
    let rounded = RoundedPolygon::round_rectangle(2.0, 2.0, 0.5)
        .unwrap()
        .transformed(&Pose::from_translation(Vec2::new(0.0, 5.0)))
        .unwrap();
    let d = distance(&rounded, &lying_capsule(1.5)).unwrap();
    assert_eq!((d.distance, d.normal), (2.0, Vec2::NEG_Y));
}

/// Placing a rounded shape moves its core and scales its radius by the larger scale.
#[test]
fn placement() {
    let capsule = Capsule::vertical(0.5, 2.0).unwrap();
    let pose = Pose::new(
        Vec2::new(3.0, 0.0),
        core::f32::consts::FRAC_PI_2,
        Vec2::new(1.0, 2.0),
    );
    let placed = capsule.transformed(&pose).unwrap();
    assert!((placed.start() - Vec2::new(5.0, 0.0)).length() < 1e-6);
    assert!((placed.end() - Vec2::new(1.0, 0.0)).length() < 1e-6);
    assert_eq!(placed.radius(), 1.0);
    let shape = Shape::from(RoundedPolygon::round_rectangle(4.0, 2.0, 0.5).unwrap());
    let mut out = Shape::from(ConvexPolygon::rectangle(1.0, 1.0));
    let aabb = shape
        .transform_into(&Pose::from_translation(Vec2::new(1.0, 1.0)), &mut out)
        .unwrap();
    assert_eq!(
        (aabb.min, aabb.max),
        (Vec2::new(-1.0, 0.0), Vec2::new(3.0, 2.0))
    );
    assert_eq!(out.aabb(), aabb);
    let bad = Pose::new(Vec2::ZERO, 0.0, Vec2::new(f32::NAN, 1.0));
    assert_eq!(
        capsule.transformed(&bad),
        Err(TransformError::NonFinitePose)
    );
}

/// Bad numbers are refused with a reason, never a panic.
#[test]
fn validation() {
    use RoundedError::*;
    let (a, b) = (Vec2::ZERO, Vec2::X);
    assert_eq!(Capsule::new(a, b, f32::NAN), Err(NonFinite));
    assert_eq!(Capsule::new(a, Vec2::INFINITY, 1.0), Err(NonFinite));
    assert_eq!(Capsule::new(a, b, 1.0e30), Err(OutOfRange));
    assert_eq!(Capsule::new(a, b, 0.0), Err(NonPositiveRadius));
    assert_eq!(Capsule::new(a, b, -1.0), Err(NonPositiveRadius));
    assert_eq!(Capsule::new(b, b, 1.0), Err(DegenerateSegment));
    assert_eq!(Capsule::segment(a, a), Err(DegenerateSegment));
    assert_eq!(Capsule::segment(Vec2::NAN, b), Err(NonFinite));
    assert_eq!(Capsule::vertical(1.0, 0.0), Err(DegenerateSegment));
    assert_eq!(Capsule::vertical(1.0, -2.0), Err(DegenerateSegment));
    assert_eq!(Capsule::vertical(-1.0, 2.0), Err(NonPositiveRadius));
    assert_eq!(
        RoundedPolygon::round_rectangle(2.0, 2.0, 1.0),
        Err(RadiusTooLarge)
    );
    assert_eq!(
        RoundedPolygon::round_rectangle(0.0, 2.0, 0.1),
        Err(DegenerateSegment)
    );
    assert_eq!(
        RoundedPolygon::round_rectangle(2.0, 2.0, 0.0),
        Err(NonPositiveRadius)
    );
    assert_eq!(
        RoundedPolygon::round_rectangle(f32::INFINITY, 2.0, 0.1),
        Err(NonFinite)
    );
    let core = ConvexPolygon::rectangle(1.0, 1.0);
    assert_eq!(
        RoundedPolygon::new(core.clone(), -0.5),
        Err(NonPositiveRadius)
    );
    assert_eq!(RoundedPolygon::new(core, f32::NEG_INFINITY), Err(NonFinite));
    assert!(RoundedError::RadiusTooLarge.to_string().contains("radius"));
}
