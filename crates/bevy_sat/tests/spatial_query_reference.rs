//! `SpatialQuery` against a brute-force reference over random scenes: every query kind, with
//! the answer of an independent f64 computation over every collider, placed from its entity's
//! `Transform` after the step (so this also checks that the queries see the colliders where
//! write-back put them).
//!
//! The reference ray cast clips the ray against each polygon's edge half-planes (and solves the
//! circle's quadratic); the reference shape cast is that ray cast from the cast shape's origin
//! against the convex hull of the Minkowski difference (hit collider minus cast shape); the
//! reference projections and containment tests walk each edge. None of it goes through the
//! library's grid or its geometry crate's queries.

mod common;

use bevy::ecs::system::RunSystemOnce;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_sat::geometry::{Pose, Shape};
use bevy_sat::prelude::*;

/// A small xorshift generator: the scenes are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// A collider placed in the world, in f64, from its entity's transform.
#[derive(Clone, Debug)]
enum Placed {
    Polygon(Vec<DVec2>),
    Circle(DVec2, f64),
}

/// Where a ray (from `o` along unit `d`) is inside a shape: entry and exit distances, and the
/// outward normals there. `None` if the line misses it or it lies wholly behind the origin.
fn clip(shape: &Placed, o: DVec2, d: DVec2) -> Option<(f64, DVec2, f64, DVec2)> {
    match shape {
        Placed::Polygon(v) => {
            let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
            let (mut n_enter, mut n_exit) = (DVec2::ZERO, DVec2::ZERO);
            for i in 0..v.len() {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                let e = b - a;
                let n = DVec2::new(e.y, -e.x).normalize();
                // Inside this edge's half-plane: n · (o + t d - a) <= 0.
                let (denom, num) = (n.dot(d), n.dot(a - o));
                if denom == 0.0 {
                    if num < 0.0 {
                        return None;
                    }
                } else if denom < 0.0 {
                    if num / denom > enter {
                        (enter, n_enter) = (num / denom, n);
                    }
                } else if num / denom < exit {
                    (exit, n_exit) = (num / denom, n);
                }
            }
            (enter <= exit && exit >= 0.0).then_some((enter, n_enter, exit, n_exit))
        }
        Placed::Circle(c, r) => {
            let m = o - *c;
            let b = m.dot(d);
            let disc = b * b - (m.length_squared() - r * r);
            if disc < 0.0 {
                return None;
            }
            let (enter, exit) = (-b - disc.sqrt(), -b + disc.sqrt());
            let normal = |t: f64| (o + d * t - *c).normalize();
            (exit >= 0.0).then(|| (enter, normal(enter), exit, normal(exit)))
        }
    }
}

/// The reference ray cast on one shape: distance and normal.
fn ray(shape: &Placed, o: DVec2, d: DVec2, max: f64, solid: bool) -> Option<(f64, DVec2)> {
    let (enter, n_enter, exit, n_exit) = clip(shape, o, d)?;
    let hit = if enter <= 0.0 {
        if solid { (0.0, -d) } else { (exit, n_exit) }
    } else {
        (enter, n_enter)
    };
    (hit.0 <= max).then_some(hit)
}

fn contains(shape: &Placed, p: DVec2) -> bool {
    match shape {
        Placed::Polygon(v) => (0..v.len()).all(|i| {
            let (a, b) = (v[i], v[(i + 1) % v.len()]);
            let e = b - a;
            DVec2::new(e.y, -e.x).dot(p - a) <= 0.0
        }),
        Placed::Circle(c, r) => (p - *c).length() <= *r,
    }
}

/// The distance from `p` to the shape's boundary.
fn boundary_distance(shape: &Placed, p: DVec2) -> f64 {
    match shape {
        Placed::Polygon(v) => (0..v.len())
            .map(|i| {
                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                (a + (b - a) * t - p).length()
            })
            .fold(f64::INFINITY, f64::min),
        Placed::Circle(c, r) => ((p - *c).length() - r).abs(),
    }
}

/// The convex hull (counter-clockwise) of `points`, by the monotone chain.
fn hull(mut points: Vec<DVec2>) -> Vec<DVec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<DVec2> = Vec::new();
    for &p in &points {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<DVec2> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// The Minkowski difference `b - a` of two polygons (a, the cast shape, placed at the origin
/// of the cast).
fn difference(b: &[DVec2], a: &[DVec2]) -> Placed {
    Placed::Polygon(hull(
        b.iter()
            .flat_map(|&p| a.iter().map(move |&q| p - q))
            .collect(),
    ))
}

fn placed(shape: &Shape) -> Placed {
    match shape {
        Shape::Polygon(p) => Placed::Polygon(p.vertices().iter().map(|v| v.as_dvec2()).collect()),
        Shape::Circle(c) => Placed::Circle(c.center().as_dvec2(), f64::from(c.radius())),
        _ => unreachable!("these tests make only polygons and circles"),
    }
}

/// Every collider of the world, placed from its transform.
fn world_shapes(app: &mut App) -> Vec<(Entity, Placed)> {
    let mut query = app
        .world_mut()
        .query::<(Entity, &ConvexCollider, &Transform)>();
    let mut shapes: Vec<_> = query
        .iter(app.world())
        .map(|(e, collider, t)| {
            let angle = (t.rotation * Vec3::X).truncate().to_angle();
            let pose = Pose::new(t.translation.truncate(), angle, t.scale.truncate());
            (e, placed(&collider.shape().transformed(&pose).unwrap()))
        })
        .collect();
    shapes.sort_by_key(|(e, _)| *e);
    shapes
}

/// A random scene: a crowd of boxes, regular polygons and (if `circles`) circles, turned at
/// random, some Weak ones overlapping (pushed apart by the step), some moving, and two walls
/// far larger than the rest. Returns the app after two steps.
fn scene(seed: u64, count: usize, circles: bool) -> App {
    let mut app = common::app();
    let mut rng = Rng(seed);
    for k in 0..count {
        let collider = match rng.next() % if circles { 3 } else { 2 } {
            0 => ConvexCollider::rectangle(rng.range(3.0, 30.0), rng.range(3.0, 30.0)),
            1 => {
                ConvexCollider::regular_polygon(3 + (rng.next() % 6) as usize, rng.range(3.0, 15.0))
            }
            _ => ConvexCollider::circle(rng.range(2.0, 12.0)),
        };
        let transform =
            Transform::from_xyz(rng.range(-200.0, 200.0), rng.range(-200.0, 200.0), 0.0)
                .with_rotation(Quat::from_rotation_z(rng.range(0.0, 6.3)));
        // Weak bodies pushed apart by resolution, moving Mighty bodies and moving sensors (whose
        // places the step knows without resolution), and static ones.
        let velocity = Velocity(Vec2::new(
            rng.range(-300.0, 300.0),
            rng.range(-300.0, 300.0),
        ));
        match k % 8 {
            0 | 4 => app.world_mut().spawn((collider, Weak, transform)),
            1 => app
                .world_mut()
                .spawn((collider, Mighty, transform, velocity)),
            2 => app
                .world_mut()
                .spawn((collider, Weak, Sensor, transform, velocity)),
            _ => app.world_mut().spawn((collider, Mighty, transform)),
        };
    }
    for y in [-230.0, 230.0] {
        app.world_mut().spawn((
            ConvexCollider::rectangle(3000.0, 10.0),
            Mighty,
            Transform::from_xyz(0.0, y, 0.0),
        ));
    }
    app.update();
    app.update();
    app
}

/// The nearest and second nearest of `(distance, entity)` candidates.
fn two_nearest<T: Copy>(mut found: Vec<(f64, Entity, T)>) -> Option<((f64, Entity, T), f64)> {
    found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let first = *found.first()?;
    Some((first, found.get(1).map_or(f64::INFINITY, |s| s.0)))
}

/// How far a hit's distance may be from the reference's: 1e-3, more for a ray grazing the
/// surface (whose hit moves far along it for a tiny change of direction), by the cosine between
/// the ray and the normal (`ray_normal_cos`, 1 where no direction applies).
fn tolerance(ray_normal_cos: f64) -> f64 {
    1e-3 / ray_normal_cos.abs().max(0.05)
}

/// Checks an answer against the reference's nearest: same entity unless another collider is
/// as near within the tolerance, distance within the tolerance (see [`tolerance`]; `d` the ray
/// direction, zero where none applies).
fn check_nearest(
    what: &str,
    got: Option<(f32, Entity)>,
    want: Option<((f64, Entity, DVec2), f64)>,
    d: DVec2,
) {
    match (got, want) {
        (None, None) => {}
        (Some((d_got, e)), Some(((wd, we, wn), second))) => {
            let cos = if d == DVec2::ZERO { 1.0 } else { wn.dot(d) };
            let d = d_got;
            assert!(
                (f64::from(d) - wd).abs() < tolerance(cos),
                "{what}: distance {d}, reference {wd}"
            );
            if second - wd > 1e-3 {
                assert_eq!(e, we, "{what}: entity");
            }
        }
        _ => panic!("{what}: got {got:?}, reference {want:?}"),
    }
}

fn run<T: Send + 'static>(
    app: &mut App,
    f: impl Fn(SpatialQuery) -> T + Send + Sync + 'static,
) -> T {
    app.world_mut()
        .run_system_once(move |q: SpatialQuery| f(q))
        .unwrap()
}

#[test]
fn rays_match_the_brute_force_reference() {
    for seed in [1, 2, 3] {
        let mut app = scene(seed, 150, true);
        let shapes = world_shapes(&mut app);
        let mut rng = Rng(seed * 77 + 5);
        let rays: Vec<(Vec2, Dir2, f32, bool)> = (0..400)
            .map(|_| {
                let o = Vec2::new(rng.range(-260.0, 260.0), rng.range(-260.0, 260.0));
                let d = Dir2::new(Vec2::from_angle(rng.range(0.0, 6.3))).unwrap();
                (o, d, rng.range(0.0, 400.0), rng.next().is_multiple_of(2))
            })
            .collect();
        let answers = run(&mut app, {
            let rays = rays.clone();
            move |q| {
                let f = SpatialQueryFilter::default();
                rays.iter()
                    .map(|&(o, d, max, solid)| {
                        (
                            q.cast_ray(o, d, max, solid, &f),
                            q.ray_hits(o, d, max, 5, solid, &f),
                        )
                    })
                    .collect::<Vec<_>>()
            }
        });
        for (&(o, d, max, solid), (closest, all)) in rays.iter().zip(answers) {
            let (od, dd) = (o.as_dvec2(), d.as_dvec2());
            let found: Vec<_> = shapes
                .iter()
                .filter_map(|(e, s)| ray(s, od, dd, f64::from(max), solid).map(|(t, n)| (t, *e, n)))
                .collect();
            let want = two_nearest(found.clone());
            let what = format!("seed {seed} ray from {o} along {d:?}, {max}, solid {solid}");
            check_nearest(&what, closest.map(|h| (h.distance, h.entity)), want, dd);
            if let (Some(hit), Some(((wd, _, wn), second))) = (closest, want) {
                // The normal, where the hit is clearly on one edge (not a corner) of one collider.
                let point = od + dd * wd;
                let on_corner = shapes.iter().any(|(_, s)| match s {
                    Placed::Polygon(v) => v
                        .iter()
                        .any(|c| (c.as_vec2().as_dvec2() - point).length() < 1e-2),
                    Placed::Circle(..) => false,
                });
                if second - wd > 1e-3 && !on_corner && wd > 0.0 {
                    assert!(
                        (hit.normal.as_dvec2() - wn).length() < 1e-3,
                        "{what}: normal {} vs {wn}",
                        hit.normal
                    );
                }
                assert!(
                    (hit.point.as_dvec2() - point).length() < 1e-2,
                    "{what}: point"
                );
            }
            // All hits: the reference's five nearest, in order.
            let mut sorted = found;
            sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            assert_eq!(all.len(), sorted.len().min(5), "{what}: hit count");
            for (k, hit) in all.iter().enumerate() {
                assert!(
                    (f64::from(hit.distance) - sorted[k].0).abs() < tolerance(sorted[k].2.dot(dd)),
                    "{what}: hit {k}: {all:?} vs {:?}",
                    &sorted[..sorted.len().min(5)]
                );
            }
            assert!(
                all.windows(2)
                    .all(|w| (w[0].distance, w[0].entity) <= (w[1].distance, w[1].entity))
            );
        }
    }
}

#[test]
fn shape_casts_match_the_brute_force_reference() {
    for seed in [4, 5, 6] {
        let mut app = scene(seed, 120, false);
        let shapes = world_shapes(&mut app);
        let mut rng = Rng(seed * 31 + 1);
        let casts: Vec<(ConvexCollider, Vec2, f32, Dir2, f32)> = (0..300)
            .map(|_| {
                let collider = if rng.next().is_multiple_of(2) {
                    ConvexCollider::rectangle(rng.range(2.0, 20.0), rng.range(2.0, 20.0))
                } else {
                    ConvexCollider::regular_polygon(
                        3 + (rng.next() % 5) as usize,
                        rng.range(2.0, 10.0),
                    )
                };
                let o = Vec2::new(rng.range(-260.0, 260.0), rng.range(-260.0, 260.0));
                let d = Dir2::new(Vec2::from_angle(rng.range(0.0, 6.3))).unwrap();
                (collider, o, rng.range(0.0, 6.3), d, rng.range(0.0, 300.0))
            })
            .collect();
        let answers = run(&mut app, {
            let casts = casts.clone();
            move |q| {
                let f = SpatialQueryFilter::default();
                casts
                    .iter()
                    .map(|(c, o, r, d, max)| q.cast_shape(c, *o, *r, *d, *max, &f))
                    .collect::<Vec<_>>()
            }
        });
        for ((collider, o, r, d, max), got) in casts.iter().zip(answers) {
            let cast = collider
                .shape()
                .transformed(&Pose::new(Vec2::ZERO, *r, Vec2::ONE))
                .unwrap();
            let Placed::Polygon(a) = placed(&cast) else {
                unreachable!()
            };
            let found: Vec<_> = shapes
                .iter()
                .filter_map(|(e, s)| {
                    let Placed::Polygon(b) = s else {
                        unreachable!()
                    };
                    ray(
                        &difference(b, &a),
                        o.as_dvec2(),
                        d.as_dvec2(),
                        f64::from(*max),
                        true,
                    )
                    .map(|(t, n)| (t, *e, n))
                })
                .collect();
            let want = two_nearest(found);
            let what = format!("seed {seed} cast from {o} along {d:?}, {max}");
            check_nearest(
                &what,
                got.map(|h| (h.distance, h.entity)),
                want,
                d.as_dvec2(),
            );
            if let (Some(hit), Some(((wd, _, wn), second))) = (got, want)
                && wd > 1e-3
                && second - wd > 1e-3
            {
                // The normal, where the reference enters its difference clearly through one
                // edge: the hit collider's face (or the cast shape's), pointing back at the
                // cast shape.
                let again = ray(
                    &difference(
                        match &shapes.iter().find(|(e, _)| *e == hit.entity).unwrap().1 {
                            Placed::Polygon(b) => b,
                            _ => unreachable!(),
                        },
                        &a,
                    ),
                    o.as_dvec2() + d.as_dvec2().perp() * 1e-3,
                    d.as_dvec2(),
                    f64::from(*max),
                    true,
                );
                if again.is_some_and(|(_, n)| (n - wn).length() < 1e-9) {
                    assert!(
                        (hit.normal.as_dvec2() - wn).length() < 1e-3,
                        "{what}: normal {} vs {wn}",
                        hit.normal
                    );
                }
            }
        }
    }
}

#[test]
fn point_queries_match_the_brute_force_reference() {
    for seed in [7, 8] {
        let mut app = scene(seed, 150, true);
        let shapes = world_shapes(&mut app);
        let mut rng = Rng(seed * 13 + 3);
        let points: Vec<Vec2> = (0..400)
            .map(|_| Vec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0)))
            .collect();
        let answers = run(&mut app, {
            let points = points.clone();
            move |q| {
                let f = SpatialQueryFilter::default();
                points
                    .iter()
                    .map(|&p| {
                        (
                            q.point_intersections(p, &f),
                            q.project_point(p, true, &f),
                            q.project_point(p, false, &f),
                        )
                    })
                    .collect::<Vec<_>>()
            }
        });
        for (&p, (inside, solid, hollow)) in points.iter().zip(answers) {
            let pd = p.as_dvec2();
            let mut want: Vec<Entity> = shapes
                .iter()
                .filter(|(_, s)| contains(s, pd))
                .map(|(e, _)| *e)
                .collect();
            want.sort();
            assert_eq!(inside, want, "point {p}: colliders containing it");
            for (solid, got) in [(true, solid), (false, hollow)] {
                let found = shapes
                    .iter()
                    .map(|(e, s)| {
                        let d = if solid && contains(s, pd) {
                            0.0
                        } else {
                            boundary_distance(s, pd)
                        };
                        (d, *e, DVec2::ZERO)
                    })
                    .collect();
                let what = format!("point {p} projected, solid {solid}");
                let got_distance = got.map(|g| {
                    let d = if solid && g.is_inside {
                        0.0
                    } else {
                        g.point.distance(p)
                    };
                    (d, g.entity)
                });
                check_nearest(&what, got_distance, two_nearest(found), DVec2::ZERO);
                if let Some(g) = got {
                    let s = &shapes.iter().find(|(e, _)| *e == g.entity).unwrap().1;
                    assert_eq!(g.is_inside, contains(s, pd), "{what}: is_inside");
                }
            }
        }
    }
}

#[test]
fn area_queries_match_the_brute_force_reference() {
    let mut app = scene(9, 150, false);
    let shapes = world_shapes(&mut app);
    let mut rng = Rng(99);
    let boxes: Vec<(Vec2, Vec2)> = (0..200)
        .map(|_| {
            let min = Vec2::new(rng.range(-260.0, 260.0), rng.range(-260.0, 260.0));
            (
                min,
                min + Vec2::new(rng.range(0.0, 60.0), rng.range(0.0, 60.0)),
            )
        })
        .collect();
    let answers = run(&mut app, {
        let boxes = boxes.clone();
        move |q| {
            let f = SpatialQueryFilter::default();
            boxes
                .iter()
                .map(|&(min, max)| {
                    let centre = (min + max) * 0.5;
                    let probe = ConvexCollider::rectangle(max.x - min.x, max.y - min.y);
                    (
                        q.aabb_intersections(min, max, &f),
                        q.shape_intersections(&probe, centre, 0.3, &f),
                    )
                })
                .collect::<Vec<_>>()
        }
    });
    for (&(min, max), (by_box, by_shape)) in boxes.iter().zip(answers) {
        let bounds = |s: &Placed| match s {
            Placed::Polygon(v) => v
                .iter()
                .fold((DVec2::INFINITY, DVec2::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(*p), hi.max(*p))
                }),
            Placed::Circle(c, r) => (*c - DVec2::splat(*r), *c + DVec2::splat(*r)),
        };
        let want: Vec<Entity> = shapes
            .iter()
            .filter(|(_, s)| {
                let (lo, hi) = bounds(s);
                lo.x <= f64::from(max.x)
                    && lo.y <= f64::from(max.y)
                    && hi.x >= f64::from(min.x)
                    && hi.y >= f64::from(min.y)
            })
            .map(|(e, _)| *e)
            .collect();
        assert_eq!(by_box, want, "box {min}..{max}");
        // The turned probe overlaps a collider when the origin is in their difference; a
        // collider within round-off of touching it may go either way.
        let centre = ((min + max) * 0.5).as_dvec2();
        let probe = ConvexCollider::rectangle(max.x - min.x, max.y - min.y);
        let Placed::Polygon(a) = placed(
            &probe
                .shape()
                .transformed(&Pose::new(Vec2::ZERO, 0.3, Vec2::ONE))
                .unwrap(),
        ) else {
            unreachable!()
        };
        for (e, s) in &shapes {
            let Placed::Polygon(b) = s else {
                unreachable!()
            };
            let diff = difference(b, &a);
            let margin = boundary_distance(&diff, centre);
            if margin > 1e-3 {
                assert_eq!(
                    by_shape.contains(e),
                    contains(&diff, centre),
                    "probe at {centre}: {e}"
                );
            }
        }
        assert!(by_shape.windows(2).all(|w| w[0] < w[1]), "sorted");
    }
}
