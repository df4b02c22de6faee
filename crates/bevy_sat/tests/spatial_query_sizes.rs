//! `SpatialQuery` over bodies of every size at once: a crowd of tiny boxes, boxes a few to a
//! few dozen times larger, and level walls, so that the index keeps bodies in each of its
//! places (the fine cells, the coarse cells and the list of large bodies). Every collider is an
//! unturned box, so the reference is plain f64 arithmetic on its corners: the slab test for
//! rays, containment, and the distance to a rectangle.

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_sat::prelude::*;

/// A small xorshift generator: the scene is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// An unturned box: its entity and corners, in f64.
struct Rect {
    entity: Entity,
    min: DVec2,
    max: DVec2,
}

/// `tiny` tiny boxes (sides 1–3), 40 medium (10–60), 6 long (100–200 by 4) and two walls 5,000
/// wide, all static, over a square `side` wide (the walls `side / 2 + 30` above and below its
/// middle); the app after two steps and the boxes.
fn scene(seed: u64, tiny: usize, side: f32) -> (App, Vec<Rect>) {
    let mut app = common::app();
    let mut rng = Rng(seed);
    let half = side * 0.5;
    let mut sizes = Vec::new();
    sizes.extend((0..tiny).map(|_| (1.0, 3.0)));
    sizes.extend((0..40).map(|_| (10.0, 60.0)));
    sizes.extend((0..6).map(|_| (100.0, 200.0)));
    let mut rects = Vec::new();
    let mut add = |app: &mut App, centre: Vec2, size: Vec2| {
        let entity = app
            .world_mut()
            .spawn((
                ConvexCollider::rectangle(size.x, size.y),
                Mighty,
                Transform::from_translation(centre.extend(0.0)),
            ))
            .id();
        let (c, h) = (centre.as_dvec2(), size.as_dvec2() * 0.5);
        rects.push(Rect {
            entity,
            min: c - h,
            max: c + h,
        });
    };
    for (lo, hi) in sizes {
        let size = if hi > 100.0 {
            Vec2::new(rng.range(lo, hi), 4.0)
        } else {
            Vec2::new(rng.range(lo, hi), rng.range(lo, hi))
        };
        let centre = Vec2::new(rng.range(-half, half), rng.range(-half, half));
        add(&mut app, centre, size);
    }
    for y in [-half - 30.0, half + 30.0] {
        add(&mut app, Vec2::new(0.0, y), Vec2::new(5000.0, 10.0));
    }
    app.update();
    app.update();
    (app, rects)
}

/// Where the ray enters the box (0 if it starts inside), if within `max`: the slab test.
fn ray_rect(rect: &Rect, o: DVec2, d: DVec2, max: f64) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, max);
    for axis in 0..2 {
        if d[axis] == 0.0 {
            if o[axis] < rect.min[axis] || o[axis] > rect.max[axis] {
                return None;
            }
        } else {
            let a = (rect.min[axis] - o[axis]) / d[axis];
            let b = (rect.max[axis] - o[axis]) / d[axis];
            enter = enter.max(a.min(b));
            exit = exit.min(a.max(b));
        }
    }
    (enter <= exit).then_some(enter)
}

fn contains(rect: &Rect, p: DVec2) -> bool {
    p.cmpge(rect.min).all() && p.cmple(rect.max).all()
}

/// The distance from `p` to the box (0 inside).
fn distance(rect: &Rect, p: DVec2) -> f64 {
    (rect.min - p).max(p - rect.max).max(DVec2::ZERO).length()
}

/// The two smallest of `(value, entity)`: the answer, and how far the runner-up is.
fn two_smallest(mut found: Vec<(f64, Entity)>) -> Option<((f64, Entity), f64)> {
    found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let first = *found.first()?;
    Some((first, found.get(1).map_or(f64::INFINITY, |s| s.0)))
}

#[test]
fn bodies_of_every_size_are_found_by_rays_points_and_boxes() {
    let (app, rects) = scene(11, 300, 400.0);
    answers_match_the_reference(app, &rects, 400.0, 500);
}

/// More bodies than the index's grid keeps in a core's cache: it then lays its fine level out
/// with fuller cells.
#[test]
fn bodies_past_a_cached_grid_are_found_by_rays_points_and_boxes() {
    let (app, rects) = scene(12, 44_000, 2400.0);
    answers_match_the_reference(app, &rects, 2400.0, 150);
}

/// `count` rays (up to 500 long), points, projections and boxes 14 wide around the points,
/// from over a square 120 wider than `side`, answered by `app` and by the reference over
/// `rects`.
fn answers_match_the_reference(mut app: App, rects: &[Rect], side: f32, count: usize) {
    let mut rng = Rng(5);
    let reach = side * 0.5 + 60.0;
    let rays: Vec<(Vec2, Dir2, f32)> = (0..count)
        .map(|_| {
            let o = Vec2::new(rng.range(-reach, reach), rng.range(-reach, reach));
            let d = Dir2::new(Vec2::from_angle(rng.range(0.0, 6.3))).unwrap();
            (o, d, rng.range(0.0, 500.0))
        })
        .collect();
    let points: Vec<Vec2> = (0..count)
        .map(|_| Vec2::new(rng.range(-reach, reach), rng.range(-reach, reach)))
        .collect();
    let (ray_answers, point_answers) = app
        .world_mut()
        .run_system_once({
            let (rays, points) = (rays.clone(), points.clone());
            move |q: SpatialQuery| {
                let f = SpatialQueryFilter::default();
                let hits: Vec<_> = rays
                    .iter()
                    .map(|&(o, d, max)| q.cast_ray(o, d, max, true, &f))
                    .collect();
                let found: Vec<_> = points
                    .iter()
                    .map(|&p| {
                        let box_min = p - Vec2::splat(7.0);
                        let box_max = p + Vec2::splat(7.0);
                        (
                            q.point_intersections(p, &f),
                            q.project_point(p, false, &f),
                            q.aabb_intersections(box_min, box_max, &f),
                        )
                    })
                    .collect();
                (hits, found)
            }
        })
        .unwrap();
    let mut hits = 0;
    for (&(o, d, max), got) in rays.iter().zip(ray_answers) {
        let (od, dd) = (o.as_dvec2(), d.as_dvec2());
        let found = rects
            .iter()
            .filter_map(|r| ray_rect(r, od, dd, f64::from(max)).map(|t| (t, r.entity)))
            .collect();
        match (two_smallest(found), got) {
            (None, None) => {}
            (Some(((t, e), next)), Some(hit)) => {
                hits += 1;
                assert!(
                    (f64::from(hit.distance) - t).abs() < 1e-3,
                    "ray {o} {d:?}: {t} vs {hit:?}"
                );
                assert!(
                    hit.entity == e || next - t < 1e-3,
                    "ray {o} {d:?}: {e} vs {hit:?}"
                );
            }
            (want, got) => panic!("ray {o} {d:?} up to {max}: want {want:?}, got {got:?}"),
        }
    }
    assert!(hits * 2 > count, "most rays hit something: {hits}");
    for (&p, (inside, projection, in_box)) in points.iter().zip(point_answers) {
        let pd = p.as_dvec2();
        let mut want: Vec<Entity> = rects
            .iter()
            .filter(|r| contains(r, pd))
            .map(|r| r.entity)
            .collect();
        want.sort();
        assert_eq!(inside, want, "point {p}");
        let (lo, hi) = (pd - 7.0, pd + 7.0);
        let mut want: Vec<Entity> = rects
            .iter()
            .filter(|r| r.min.cmple(hi).all() && r.max.cmpge(lo).all())
            .map(|r| r.entity)
            .collect();
        want.sort();
        assert_eq!(in_box, want, "box around {p}");
        // Hollow: the distance to the nearest boundary, inside or out.
        let boundary = |r: &Rect| {
            if contains(r, pd) {
                (pd - r.min).min(r.max - pd).min_element()
            } else {
                distance(r, pd)
            }
        };
        let found = rects.iter().map(|r| (boundary(r), r.entity)).collect();
        let ((t, e), next) = two_smallest(found).unwrap();
        let got = projection.expect("every point has a nearest collider");
        let got_distance = f64::from(got.point.distance(p));
        assert!(
            (got_distance - t).abs() < 1e-3,
            "projection of {p}: {t} vs {got:?}"
        );
        assert!(
            got.entity == e || next - t < 1e-3,
            "projection of {p}: {e} vs {got:?}"
        );
    }
}
