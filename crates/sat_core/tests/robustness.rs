//! Arbitrary f32 input — NaN, ±∞, 1e30, 1e-30, subnormals — never panics in any entry point,
//! and whatever is accepted yields finite answers. 10,000 cases each.

use glam::Vec2;
use proptest::prelude::*;
use sat_core::{Aabb, Circle, ConvexPolygon, Pose, Shape, SweepAndPrune, collide, overlap, sweep};

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(10_000)
}

/// Any f32, weighted towards the troublesome ones.
fn nasty() -> impl Strategy<Value = f32> {
    prop_oneof![
        3 => -100.0f32..100.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(1e30f32),
        1 => Just(-1e30f32),
        1 => Just(1e-30f32),
        1 => Just(0.0f32),
        1 => Just(f32::MAX),
        1 => Just(f32::MIN_POSITIVE / 4.0),
        2 => any::<f32>(),
    ]
}

fn nasty_vec() -> impl Strategy<Value = Vec2> {
    (nasty(), nasty()).prop_map(|(x, y)| Vec2::new(x, y))
}

fn nasty_shape() -> impl Strategy<Value = Option<Shape>> {
    prop_oneof![
        prop::collection::vec(nasty_vec(), 0..20)
            .prop_map(|pts| ConvexPolygon::new(pts).ok().map(Shape::from)),
        (nasty(), nasty()).prop_map(|(w, h)| Some(ConvexPolygon::rectangle(w, h).into())),
        (any::<usize>(), nasty()).prop_map(|(n, r)| Some(ConvexPolygon::regular(n, r).into())),
        (nasty_vec(), nasty()).prop_map(|(c, r)| Circle::new(c, r).ok().map(Shape::from)),
    ]
}

fn nasty_pose() -> impl Strategy<Value = Pose> {
    (nasty_vec(), nasty(), nasty_vec()).prop_map(|(t, angle, scale)| Pose::new(t, angle, scale))
}

fn placed() -> impl Strategy<Value = Option<Shape>> {
    (nasty_shape(), nasty_pose()).prop_map(|(s, pose)| s.and_then(|s| s.transformed(&pose).ok()))
}

fn all_finite(points: &[Vec2]) -> bool {
    points.iter().all(|p| p.is_finite())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn constructors_and_placement_never_panic(shape in nasty_shape(), pose in nasty_pose()) {
        if let Some(shape) = shape
            && let Ok(placed) = shape.transformed(&pose)
        {
                let aabb = placed.aabb();
                prop_assert!(aabb.is_valid(), "{:?}", aabb);
                if let Shape::Polygon(p) = placed {
                    prop_assert!(all_finite(p.vertices()) && all_finite(p.normals()));
                    prop_assert!(p.normals().iter().all(|n| (n.length() - 1.0).abs() < 1e-3));
                }
        }
    }

    #[test]
    fn queries_never_panic_and_stay_finite(a in placed(), b in placed(), motion in nasty_vec()) {
        let (Some(a), Some(b)) = (a, b) else { return Ok(()) };
        let o = overlap(&a, &b);
        let c = collide(&a, &b);
        prop_assert_eq!(o, c.is_some());
        if let Some(c) = c {
            prop_assert!(c.normal.is_finite() && c.depth.is_finite() && c.depth >= 0.0, "{:?}", c);
            prop_assert!(all_finite(c.points()));
        }
        if let Some(hit) = sweep(&a, &b, motion) {
            prop_assert!((0.0..=1.0).contains(&hit.toi), "{:?}", hit);
            prop_assert!(hit.normal.is_finite() && hit.depth.is_finite(), "{:?}", hit);
        }
    }

    #[test]
    fn broad_phase_never_panics(boxes in prop::collection::vec((0u32..64, nasty_vec(), nasty_vec()), 0..40)) {
        let mut sap = SweepAndPrune::new();
        let mut accepted = std::collections::BTreeMap::new();
        for (id, min, max) in boxes {
            let aabb = Aabb { min, max };
            match sap.set(id, aabb) {
                Ok(()) => { accepted.insert(id, aabb); }
                Err(_) => prop_assert!(!aabb.is_valid()),
            }
        }
        let pairs = sap.pairs();
        for (a, b) in pairs {
            prop_assert!(a < b && accepted[&a].overlaps(&accepted[&b]));
        }
        prop_assert_eq!(sap.len(), accepted.len());
    }
}
