//! [`sweep`]: the exact time of impact of a translating shape against another.

use glam::Vec2;

use super::collide::collide;
use super::contact::Hit;
use crate::shape::{AsShape, Circle, ConvexPolygon, MAX_VERTICES, ShapeRef};

/// When A, translating by `motion` relative to B, first touches B during the motion.
///
/// `motion` is A's displacement minus B's over the step; the result's `toi` is the fraction of
/// it travelled at first contact, in `[0, 1]`. Exact for translating convex shapes: per axis of
/// the Minkowski difference, the interval in which the projections overlap; the hit is the
/// latest entry if it comes before the earliest exit. `normal` points from A to B at the time of
/// impact. Shapes that already overlap (or touch) give `toi == 0` and the static contact. A
/// non-finite `motion` gives `None`.
///
/// ```
/// # use sat_core::{sweep, ConvexPolygon, Pose}; use glam::Vec2;
/// // A thin platform 2 units thick, and a box far above it falling fast.
/// let platform = ConvexPolygon::rectangle(100.0, 2.0);
/// let bx = ConvexPolygon::rectangle(1.0, 1.0)
///     .transformed(&Pose::from_translation(Vec2::new(0.0, 51.5)))
///     .unwrap(); // bottom at y = 51
/// let hit = sweep(&bx, &platform, Vec2::new(0.0, -100.0)).unwrap();
/// assert_eq!(hit.toi, 0.5); // touches the top (y = 1) after 50 units
/// assert_eq!(hit.normal, Vec2::NEG_Y);
/// ```
pub fn sweep<A: AsShape + ?Sized, B: AsShape + ?Sized>(a: &A, b: &B, motion: Vec2) -> Option<Hit> {
    if !motion.is_finite() {
        return None;
    }
    let (a, b) = (a.as_shape(), b.as_shape());
    if let Some(contact) = collide(&a, &b) {
        return Some(Hit {
            toi: 0.0,
            normal: contact.normal,
            depth: contact.depth,
        });
    }
    match (a, b) {
        (ShapeRef::Polygon(a), ShapeRef::Polygon(b)) => sweep_polygon_polygon(a, b, motion),
        (ShapeRef::Circle(a), ShapeRef::Polygon(b)) => sweep_circle_polygon(a, b, motion),
        (ShapeRef::Polygon(a), ShapeRef::Circle(b)) => {
            // The circle moves by -motion relative to the polygon.
            sweep_circle_polygon(b, a, -motion).map(|hit| Hit {
                normal: -hit.normal,
                ..hit
            })
        }
        (ShapeRef::Circle(a), ShapeRef::Circle(b)) => {
            let reach = f64::from(a.radius) + f64::from(b.radius);
            let toi = ray_circle(a.center, motion, b.center, reach)?;
            let normal = (b.center - (a.center + motion * toi)).try_normalize()?;
            Some(Hit {
                toi,
                normal,
                depth: 0.0,
            })
        }
    }
}

impl AsShape for ShapeRef<'_> {
    fn as_shape(&self) -> ShapeRef<'_> {
        *self
    }
}

/// The sweep of two polygons that do not overlap at the start.
fn sweep_polygon_polygon(a: &ConvexPolygon, b: &ConvexPolygon, motion: Vec2) -> Option<Hit> {
    let origin = a.vertices[0];
    // Both polygons relative to A's first vertex, laid out once for all the axes.
    let (a_lanes, b_lanes) = (
        a.lanes::<MAX_VERTICES>(origin),
        b.lanes::<MAX_VERTICES>(origin),
    );
    let mut enter = 0.0f32;
    let mut exit = 1.0f32;
    let mut normal = None;
    for axis in a.axes().chain(b.axes()) {
        let (a_min, a_max) = a_lanes.project(axis);
        let (b_min, b_max) = b_lanes.project(axis);
        let speed = motion.dot(axis);
        if a_max < b_min {
            // A lies below B on this axis: it must move up it to meet B.
            if speed <= 0.0 {
                return None;
            }
            let t = (b_min - a_max) / speed;
            if t > enter || normal.is_none() {
                enter = enter.max(t);
                normal = Some(axis);
            }
            exit = exit.min((b_max - a_min) / speed);
        } else if b_max < a_min {
            if speed >= 0.0 {
                return None;
            }
            let t = (b_max - a_min) / speed;
            if t > enter || normal.is_none() {
                enter = enter.max(t);
                normal = Some(-axis);
            }
            exit = exit.min((b_min - a_max) / speed);
        } else if speed > 0.0 {
            exit = exit.min((b_max - a_min) / speed);
        } else if speed < 0.0 {
            exit = exit.min((b_min - a_max) / speed);
        }
        if enter > exit {
            return None;
        }
    }
    Some(Hit {
        toi: enter,
        normal: normal?,
        depth: 0.0,
    })
}

/// The sweep of a circle against a polygon that do not overlap at the start: the circle's centre
/// as a ray against the polygon grown by the radius (offset faces and rounded corners).
fn sweep_circle_polygon(c: &Circle, p: &ConvexPolygon, motion: Vec2) -> Option<Hit> {
    let vertices = p.vertices();
    let n = vertices.len();
    let mut best: Option<(f32, Vec2)> = None;
    let mut consider = |toi: f32, normal: Vec2| {
        if best.is_none_or(|(t, _)| toi < t) {
            best = Some((toi, normal));
        }
    };
    for i in 0..n {
        let (v1, v2, normal) = (vertices[i], vertices[(i + 1) % n], p.normals[i]);
        let approach = -motion.dot(normal);
        let gap = normal.dot(c.center - v1) - c.radius;
        if approach > 0.0 && gap >= 0.0 && gap <= approach {
            let toi = gap / approach;
            let at = c.center + motion * toi - v1;
            let along = at.dot(v2 - v1);
            if (0.0..=(v2 - v1).length_squared()).contains(&along) {
                consider(toi, -normal);
            }
        }
        if let Some(toi) = ray_circle(c.center, motion, v1, f64::from(c.radius))
            && let Some(normal) = (v1 - (c.center + motion * toi)).try_normalize()
        {
            consider(toi, normal);
        }
    }
    best.map(|(toi, normal)| Hit {
        toi,
        normal,
        depth: 0.0,
    })
}

/// First time in `[0, 1]` at which `start + motion * t` is within `radius` of `center`, for a
/// start outside that circle. Computed in `f64` so that long motions cannot overflow.
fn ray_circle(start: Vec2, motion: Vec2, center: Vec2, radius: f64) -> Option<f32> {
    let offset = (start - center).as_dvec2();
    let motion = motion.as_dvec2();
    let a = motion.length_squared();
    let half_b = offset.dot(motion);
    let c = offset.length_squared() - radius * radius;
    if a == 0.0 || half_b >= 0.0 || c < 0.0 {
        return None;
    }
    let discriminant = half_b * half_b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    let t = (-half_b - discriminant.sqrt()) / a;
    (0.0..=1.0).contains(&t).then_some(t as f32)
}
