//! An independent reference for the geometry, written without SAT: the signed distance between
//! two shapes through their Minkowski difference, in `f64`.
//!
//! A shape is a set of points plus a radius: a polygon is its vertices with radius 0, a circle
//! its centre with its radius. `B ⊖ A` is the convex hull of every `b - a`, rounded by the sum
//! of the radii; A and B overlap exactly when the origin lies in it, and translating A by `t`
//! moves the origin to `t` relative to it.

use glam::{DVec2, Vec2};
use sat_core::{AsShape, Shape, ShapeRef};

#[derive(Clone, Debug)]
pub struct Rounded {
    pub points: Vec<DVec2>,
    pub radius: f64,
}

pub fn rounded(shape: &Shape) -> Rounded {
    match shape.as_shape() {
        ShapeRef::Polygon(p) => Rounded {
            points: p.vertices().iter().map(|v| v.as_dvec2()).collect(),
            radius: 0.0,
        },
        ShapeRef::Circle(c) => Rounded {
            points: vec![c.center().as_dvec2()],
            radius: f64::from(c.radius()),
        },
        ShapeRef::Capsule(c) => Rounded {
            points: vec![c.start().as_dvec2(), c.end().as_dvec2()],
            radius: f64::from(c.radius()),
        },
        ShapeRef::Rounded(r) => Rounded {
            points: r.core().vertices().iter().map(|v| v.as_dvec2()).collect(),
            radius: f64::from(r.radius()),
        },
        ShapeRef::Large(p) => Rounded {
            points: p.vertices().iter().map(|v| v.as_dvec2()).collect(),
            radius: 0.0,
        },
        // Not convex: the compound tests compare part by part.
        ShapeRef::Compound(_) => panic!("a compound has no single reference hull"),
    }
}

/// Andrew's monotone chain; counter-clockwise, no collinear points. May return 1 or 2 points.
pub fn convex_hull(mut pts: Vec<DVec2>) -> Vec<DVec2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut lower: Vec<DVec2> = Vec::new();
    for &p in &pts {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<DVec2> = Vec::new();
    for &p in pts.iter().rev() {
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

/// The Minkowski difference `B ⊖ A`.
#[derive(Clone, Debug)]
pub struct Difference {
    pub hull: Vec<DVec2>,
    pub radius: f64,
}

impl Difference {
    pub fn new(a: &Shape, b: &Shape) -> Self {
        let (ra, rb) = (rounded(a), rounded(b));
        let mut pts = Vec::new();
        for pa in &ra.points {
            for pb in &rb.points {
                pts.push(*pb - *pa);
            }
        }
        Difference {
            hull: convex_hull(pts),
            radius: ra.radius + rb.radius,
        }
    }

    fn closest_on_boundary(&self, p: DVec2) -> DVec2 {
        let n = self.hull.len();
        if n == 1 {
            return self.hull[0];
        }
        let mut best = self.hull[0];
        for i in 0..n {
            let (a, b) = (self.hull[i], self.hull[(i + 1) % n]);
            let e = b - a;
            let t = ((p - a).dot(e) / e.length_squared()).clamp(0.0, 1.0);
            let q = a + e * t;
            if q.distance_squared(p) < best.distance_squared(p) {
                best = q;
            }
        }
        best
    }

    fn contains_point(&self, p: DVec2) -> bool {
        let n = self.hull.len();
        n >= 3
            && (0..n)
                .all(|i| (self.hull[(i + 1) % n] - self.hull[i]).perp_dot(p - self.hull[i]) >= 0.0)
    }

    /// Signed distance between the shapes when A is translated by `t`: positive apart,
    /// negative overlapping (minus the penetration depth).
    pub fn signed_distance_at(&self, t: DVec2) -> f64 {
        let d = self.closest_on_boundary(t).distance(t);
        if self.contains_point(t) {
            -d - self.radius
        } else {
            d - self.radius
        }
    }

    pub fn signed_distance(&self) -> f64 {
        self.signed_distance_at(DVec2::ZERO)
    }

    /// The contact normal (from A to B) of the current placement, when they overlap.
    pub fn normal(&self) -> DVec2 {
        let q = self.closest_on_boundary(DVec2::ZERO);
        if self.contains_point(DVec2::ZERO) {
            -q.normalize()
        } else {
            q.normalize()
        }
    }

    /// The outward unit normal of `B ⊖ A` where it is nearest to A's placement (the origin),
    /// for A touching B: from the nearest point of the hull towards the origin when the
    /// difference is rounded (a circle), else the outward normal of the nearest hull edge.
    pub fn outward_normal(&self) -> Option<DVec2> {
        if self.radius > 0.0 {
            return (-self.closest_on_boundary(DVec2::ZERO)).try_normalize();
        }
        let n = self.hull.len();
        if n < 3 {
            return None;
        }
        let distance = |i: usize| {
            let (a, b) = (self.hull[i], self.hull[(i + 1) % n]);
            let e = b - a;
            let t = (-a.dot(e) / e.length_squared()).clamp(0.0, 1.0);
            (a + e * t).length()
        };
        let nearest = (0..n).min_by(|&i, &j| distance(i).total_cmp(&distance(j)))?;
        let e = self.hull[(nearest + 1) % n] - self.hull[nearest];
        // Counter-clockwise hull: the outside is on the right of each edge.
        DVec2::new(e.y, -e.x).try_normalize()
    }

    /// How far A must move along unit `u` to stop overlapping (bisection on the signed
    /// distance, which is convex along the line).
    pub fn exit_distance(&self, u: DVec2) -> f64 {
        let (mut lo, mut hi) = (0.0, 1.0);
        while self.signed_distance_at(u * hi) < 0.0 {
            hi *= 2.0;
        }
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if self.signed_distance_at(u * mid) < 0.0 {
                lo = mid
            } else {
                hi = mid
            }
        }
        hi
    }
}

pub fn to_f64(v: Vec2) -> DVec2 {
    v.as_dvec2()
}

/// The size of a shape, for relative tolerances.
pub fn size(shape: &Shape) -> f64 {
    let aabb = shape.aabb();
    f64::from((aabb.max - aabb.min).max_element())
        + f64::from(aabb.max.abs().max(aabb.min.abs()).max_element())
}
