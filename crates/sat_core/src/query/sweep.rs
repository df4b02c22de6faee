//! [`sweep`]: the exact time of impact of a translating shape against another.

use glam::Vec2;

use super::collide::{collide, each_axis, least_overlap_inline};
use super::contact::{Contact, Hit};
use crate::shape::{AsShape, Circle, ConvexPolygon, ShapeRef};

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
    if let (ShapeRef::Polygon(a), ShapeRef::Polygon(b)) = (a, b) {
        // The time-of-impact test finds the overlap at the start itself, on the projections
        // `collide` makes: no static test first.
        return sweep_polygon_polygon(a, b, motion);
    }
    if super::compound::is_compound(a, b) {
        return super::compound::sweep_compound(a, b, motion);
    }
    if let Some(contact) = collide(&a, &b) {
        return Some(at_start(&contact));
    }
    match (a, b) {
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
        (ShapeRef::Polygon(_), ShapeRef::Polygon(_)) => None, // answered above
        (a, b) => super::rounded_sweep::sweep_rounded(a, b, motion),
    }
}

/// The hit of shapes that overlap or touch at the start: `toi == 0` and the static contact.
fn at_start(contact: &Contact) -> Hit {
    Hit {
        toi: 0.0,
        normal: contact.normal,
        depth: contact.depth,
    }
}

impl AsShape for ShapeRef<'_> {
    /// The view itself; a [`ShapeRef::Polygon`] of a large polygon as [`ShapeRef::Large`].
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        match *self {
            ShapeRef::Polygon(p) => p.as_shape(),
            other => other,
        }
    }
}

/// The sweep of two polygons: per axis, the interval of the motion in which the projections
/// overlap; the hit is the latest entry if it comes before the earliest exit.
///
/// The axes and the overlaps on them are those [`collide`] weighs ([`each_axis`]), so when no
/// axis separates the polygons at the start, `collide` finds them touching too, and the least
/// overlap is the hit.
fn sweep_polygon_polygon(a: &ConvexPolygon, b: &ConvexPolygon, motion: Vec2) -> Option<Hit> {
    let mut enter = 0.0f32;
    let mut exit = 1.0f32;
    let mut normal = None;
    // `out_negative` is `a_max - b_min`, `out_positive` is `b_max - a_min`.
    let may_hit = each_axis(a, b, |(axis, _), (out_negative, out_positive), _| {
        let speed = motion.dot(axis);
        if out_negative < 0.0 {
            // A lies below B on this axis: it must move up it to meet B.
            if speed <= 0.0 {
                return false;
            }
            let t = -out_negative / speed;
            if t > enter || normal.is_none() {
                enter = enter.max(t);
                normal = Some(axis);
            }
            exit = exit.min(out_positive / speed);
        } else if out_positive < 0.0 {
            if speed >= 0.0 {
                return false;
            }
            let t = out_positive / speed;
            if t > enter || normal.is_none() {
                enter = enter.max(t);
                normal = Some(-axis);
            }
            exit = exit.min(-out_negative / speed);
        } else if speed > 0.0 {
            exit = exit.min(out_positive / speed);
        } else if speed < 0.0 {
            exit = exit.min(-out_negative / speed);
        }
        enter <= exit
    });
    if !may_hit {
        return None;
    }
    match normal {
        Some(normal) => Some(Hit {
            toi: enter,
            normal,
            depth: 0.0,
        }),
        // No axis separates them: they overlap or touch at the start. `collide` finds that on
        // the same numbers; asking for the least overlap within any gap keeps the answer a
        // contact whatever happens, with a gap counted as touching.
        None => {
            let found = least_overlap_inline(a, b, f32::INFINITY)?;
            Some(Hit {
                toi: 0.0,
                normal: found.normal,
                depth: found.depth.max(0.0),
            })
        }
    }
}

/// The sweep of a circle against a polygon that do not overlap at the start: the circle's centre
/// as a ray against the polygon grown by the radius (offset faces and rounded corners).
///
/// Where a face meets the rounded corner at its end, the two are hit at the same time up to
/// round-off (the corner's time is computed in `f64`, the face's in `f32`), and the corner can
/// come out a hair first although the circle meets the face. A corner hit whose contact lies
/// beside an adjacent face the circle approaches is that face's hit, and takes its normal.
fn sweep_circle_polygon(c: &Circle, p: &ConvexPolygon, motion: Vec2) -> Option<Hit> {
    let vertices = p.inline_vertices();
    let n = vertices.len();
    // The earliest hit: its time, its normal, and the vertex when it is a corner's.
    let mut best: Option<(f32, Vec2, Option<usize>)> = None;
    let mut consider = |toi: f32, normal: Vec2, corner: Option<usize>| {
        if best.is_none_or(|(t, _, _)| toi < t) {
            best = Some((toi, normal, corner));
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
                consider(toi, -normal, None);
            }
        }
        if let Some(toi) = ray_circle(c.center, motion, v1, f64::from(c.radius))
            && let Some(normal) = (v1 - (c.center + motion * toi)).try_normalize()
        {
            consider(toi, normal, Some(i));
        }
    }
    let (toi, mut normal, corner) = best?;
    if let Some(i) = corner {
        // The edges out of and into the corner, and their outward normals. `-normal` points
        // from the corner to the centre at impact; along an edge, the contact is on that face.
        let (previous, next) = ((i + n - 1) % n, (i + 1) % n);
        let out_of = vertices[next] - vertices[i];
        let into = vertices[i] - vertices[previous];
        if -normal.dot(out_of) > 0.0 && motion.dot(p.normals[i]) < 0.0 {
            normal = -p.normals[i];
        } else if -normal.dot(into) < 0.0 && motion.dot(p.normals[previous]) < 0.0 {
            normal = -p.normals[previous];
        }
    }
    Some(Hit {
        toi,
        normal,
        depth: 0.0,
    })
}

/// First time in `[0, 1]` at which `start + motion * t` is within `radius` of `center`: 0 for a
/// start within it already. Computed in `f64` so that long motions cannot overflow; the start
/// is tested exactly as [`collide`] tests a circle against a circle or a corner, so that the
/// two agree on whether the shapes touch at the start.
pub(crate) fn ray_circle(start: Vec2, motion: Vec2, center: Vec2, radius: f64) -> Option<f32> {
    let offset = (start - center).as_dvec2();
    let motion = motion.as_dvec2();
    let c = offset.length_squared() - radius * radius;
    if c <= 0.0 {
        return Some(0.0);
    }
    let a = motion.length_squared();
    let half_b = offset.dot(motion);
    if a == 0.0 || half_b >= 0.0 {
        return None;
    }
    let discriminant = half_b * half_b - a * c;
    if discriminant < 0.0 {
        return None;
    }
    let t = (-half_b - discriminant.sqrt()) / a;
    (0.0..=1.0).contains(&t).then_some(t as f32)
}
