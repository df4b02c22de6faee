//! Sweeps that start or meet within `f32` round-off of touching: the start test, the time of
//! impact and the reported normal must agree with each other and with the exact geometry. The
//! expected values are computed in `f64` from the same `f32` inputs.

mod common;

use common::reference::Difference;
use glam::{DVec2, Vec2};
use sat_core::{Circle, ConvexPolygon, Shape, collide, overlap, sweep};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn polygon(points: &[(f32, f32)]) -> Shape {
    ConvexPolygon::new(points.iter().map(|&(x, y)| v(x, y)))
        .expect("a valid polygon")
        .into()
}

fn circle(x: f32, y: f32, r: f32) -> Shape {
    Circle::new(v(x, y), r).expect("a valid circle").into()
}

/// The reference's signed distance of A moved by `fraction` of `motion`, and B.
fn distance_at(a: &Shape, b: &Shape, motion: Vec2, fraction: f64) -> f64 {
    Difference::new(a, b).signed_distance_at(motion.as_dvec2() * fraction)
}

/// Touching at the start (exactly, or within round-off of the `f32` inputs), then moving more
/// than `deep` into B: `overlap` and `collide` say they touch, and the sweep hits at
/// `toi == 0` with their contact.
fn assert_touching_start_hits_at_zero(a: &Shape, b: &Shape, motion: Vec2, deep: f64) {
    assert!(
        distance_at(a, b, motion, 0.0).abs() < 1.0e-6,
        "not touching at the start"
    );
    let deepest = (0..=64)
        .map(|k| distance_at(a, b, motion, f64::from(k) / 64.0))
        .fold(f64::INFINITY, f64::min);
    assert!(deepest < -deep, "not driven into B: {deepest}");
    assert!(overlap(a, b), "overlap sees a gap");
    let contact = collide(a, b).expect("collide sees a gap");
    assert!(contact.depth < 1.0e-6, "{:?}", contact); // touching up to round-off
    let hit = sweep(a, b, motion).expect("the sweep misses a hit at the start");
    assert_eq!(
        (hit.toi, hit.normal, hit.depth),
        (0.0, contact.normal, contact.depth)
    );
    assert!(hit.normal.dot(motion) > 0.0, "{:?}", hit);
}

/// B's corner is the midpoint of A's edge: exactly touching, though A's extent on the edge's
/// (rounded) normal differs at the edge's two ends.
#[test]
fn sweep_from_a_corner_on_an_edge_midpoint_hits_at_toi_zero() {
    let a = polygon(&[(0.0, 0.0), (-3.0, 1.0), (-3.0, -3.0)]);
    let b = polygon(&[(-1.5, 0.5), (0.5, 2.5), (-1.5, 2.5)]);
    assert_touching_start_hits_at_zero(&a, &b, v(0.0, 1.0), 0.9);
}

/// Centres 11.9 apart and radii adding up to 11.9: touching to within the rounding of the
/// inputs, where the `f32` distance and the `f64` ray disagreed.
#[test]
fn sweep_of_circles_touching_within_round_off_hits_at_toi_zero() {
    let a = circle(0.0, 0.0, 4.76);
    let b = circle(5.6, 10.5, 7.14);
    assert_touching_start_hits_at_zero(&a, &b, v(0.470_588_24, 0.882_352_95), 0.9);
}

/// A small circle on a corner of a rotated box, within round-off.
#[test]
fn sweep_of_a_circle_on_a_box_corner_within_round_off_hits_at_toi_zero() {
    let a = circle(-3.942_692, -8.498_34, 0.241_246_82);
    let b = polygon(&[
        (-2.808_562, -8.262_36),
        (-3.614_865_3, -7.993_474),
        (-3.739_735_8, -8.367_922),
        (-2.933_432_6, -8.636_807),
    ]);
    assert_touching_start_hits_at_zero(&a, &b, v(0.918_007_14, 0.589_902_8), 0.1);
    // The same pair seen from the box.
    let hit = sweep(&b, &a, -v(0.918_007_14, 0.589_902_8)).expect("a hit at the start");
    assert_eq!((hit.toi, hit.depth), (0.0, 0.0));
}

/// A circle hitting a face close to its end: the face is reached first, so the normal is the
/// face's, not that of the corner just past it (reached a hair later, or at the same time up to
/// round-off).
#[test]
fn circle_sweep_near_a_face_end_reports_the_face_normal() {
    let (center, radius) = (v(-0.503_414_87, -8.010_523), 0.023_590_896);
    let corners = [
        (7.778_252, 1.595_024_1),
        (-4.718_657_5, 12.110_329),
        (-12.498_967, 2.863_822_5),
        (-0.002_057_295_3, -7.651_481_6),
    ];
    let motion = v(0.953_772_25, 0.669_457_1);
    let a = circle(center.x, center.y, radius);
    let b = polygon(&corners);
    // The face from the third corner to the fourth, in f64: its outward normal, and when the
    // circle reaches its line.
    let (p, q) = (
        DVec2::new(f64::from(corners[2].0), f64::from(corners[2].1)),
        DVec2::new(f64::from(corners[3].0), f64::from(corners[3].1)),
    );
    let outward = (q - p).perp().normalize() * -1.0; // counter-clockwise: the right side is out
    let (c, m) = (center.as_dvec2(), motion.as_dvec2());
    let toi = ((c - p).dot(outward) - f64::from(radius)) / -m.dot(outward);
    let along = (c + m * toi - p).dot((q - p).normalize());
    assert!(
        along > 0.0 && along < (q - p).length(),
        "the face is hit within its ends"
    );
    assert!(!overlap(&a, &b));

    let hit = sweep(&a, &b, motion).expect("a hit");
    let expected = -outward; // from the circle towards the box
    let angle = hit.normal.as_dvec2().angle_to(expected).abs();
    assert!(
        angle < 1.0e-6,
        "normal {} is {angle} rad from the face's",
        hit.normal
    );
    assert!(
        (f64::from(hit.toi) - toi).abs() < 1.0e-6,
        "toi {} vs {toi}",
        hit.toi
    );
    // From the box's side the normal is reversed.
    let back = sweep(&b, &a, -motion).expect("a hit");
    assert!(back.normal.as_dvec2().angle_to(-expected).abs() < 1.0e-6);
}
