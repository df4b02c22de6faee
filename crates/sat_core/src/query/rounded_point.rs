//! The point and ray queries on a rounded shape (a capsule, a bare segment, a rounded polygon):
//! the point's nearest point of the core, moved out by the radius; the ray's span in the union
//! of the pieces the shape is made of.

use glam::DVec2;

use super::distance::core_of;
use super::point::{nearest_on_segment, project_on_polygon};
use super::ray::{End, Ray, Span, circle_span, polygon_span};
use crate::shape::{Circle, ShapeRef};

/// The nearest boundary point of a rounded shape to `point`, and whether `point` is inside (the
/// boundary counts), in `f64`. `None` for a shape that is not rounded.
///
/// Outside the core, the nearest boundary point lies on the line from the core's nearest point
/// to `point`, the radius away from the core; inside the core (or on it), the radius beyond the
/// foot on the nearest edge.
pub(crate) fn project_on_rounded(shape: ShapeRef<'_>, point: DVec2) -> Option<(DVec2, bool)> {
    let (core, radius) = match shape {
        ShapeRef::Capsule(_) | ShapeRef::Rounded(_) => core_of(shape),
        _ => return None,
    };
    // The nearest point of the core, and the core's outward normal there when `point` is on
    // the core (no line from one to the other to follow).
    let (nearest, normal_at) = match shape {
        ShapeRef::Rounded(r) => {
            let (foot, inside) = project_on_polygon(r.core.view(), point);
            if inside {
                (foot, Some(nearest_edge_normal(&core, point)))
            } else {
                (foot, None)
            }
        }
        _ => {
            let start = core.points()[0];
            let edge = if core.len == 2 {
                core.points()[1] - start
            } else {
                DVec2::ZERO
            };
            let foot = if edge == DVec2::ZERO {
                start
            } else {
                nearest_on_segment(start, edge, point)
            };
            let side = if core.len == 2 {
                core.normals()[0].as_dvec2()
            } else {
                DVec2::Y
            };
            (foot, (foot == point).then_some(side))
        }
    };
    let offset = point - nearest;
    let inside = normal_at.is_some() || offset.length_squared() <= radius * radius;
    let direction = match normal_at {
        Some(normal) => normal,
        None => offset.try_normalize().unwrap_or(DVec2::Y),
    };
    Some((nearest + direction * radius, inside))
}

/// The outward normal of the edge of a closed core whose line `point` (inside) is nearest.
fn nearest_edge_normal(core: &super::distance::Core, point: DVec2) -> DVec2 {
    let mut best = (f64::NEG_INFINITY, DVec2::Y);
    for i in 0..core.edges() {
        let (start, _, normal) = core.edge(i);
        let normal = normal.as_dvec2();
        let outside = (point - start).dot(normal);
        if outside > best.0 {
            best = (outside, normal);
        }
    }
    best.1
}

/// The span of a ray in a rounded shape: the union of a disc at each corner of the core, a
/// rectangle over each edge (the edge pushed out by the radius) and, for a rounded polygon,
/// the core itself. The union is convex, so its span is from the earliest entry to the latest
/// exit of the pieces the ray meets. Of equal times the discs' and the faces' ends are kept
/// (they come first), so that the normal is the surface's, never a joint between pieces.
pub(crate) fn rounded_span(shape: ShapeRef<'_>, ray: &Ray) -> Option<Span> {
    let (core, radius) = core_of(shape);
    let mut union: Option<Span> = None;
    let mut join = |span: Option<Span>| {
        let Some(span) = span else { return };
        union = Some(match union {
            None => span,
            Some(u) => Span {
                enter: if span.enter.t < u.enter.t {
                    span.enter
                } else {
                    u.enter
                },
                exit: if span.exit.t > u.exit.t {
                    span.exit
                } else {
                    u.exit
                },
            },
        });
    };
    let radius_f32 = radius as f32;
    if radius > 0.0 {
        for &corner in core.points() {
            let disc = Circle {
                center: corner.as_vec2(),
                radius: radius_f32,
            };
            join(circle_span(&disc, ray));
        }
    }
    for i in 0..core.edges() {
        let (start, edge, normal) = core.edge(i);
        join(slab_span(start, edge, normal.as_dvec2(), radius, ray));
    }
    if core.edges() == 0 {
        // A segment whose ends merged by round-off: a disc (or a point).
        let disc = Circle {
            center: core.points()[0].as_vec2(),
            radius: radius_f32.max(f32::MIN_POSITIVE),
        };
        join(circle_span(&disc, ray));
    }
    if let ShapeRef::Rounded(r) = shape {
        join(polygon_span(r.core.view(), ray));
    }
    union
}

/// The span of a ray in the rectangle over the edge `start + edge` reaching `reach` along its
/// outward unit `normal`: four half-planes clipped in turn (Cyrus–Beck), in `f64`. With a reach
/// of 0 the rectangle is the edge itself, and a ray across it enters and leaves at one time.
fn slab_span(start: DVec2, edge: DVec2, normal: DVec2, reach: f64, ray: &Ray) -> Option<Span> {
    let along = edge.try_normalize()?;
    // Each side: a point on it and its outward unit normal.
    let sides = [
        (start, -normal),
        (start + normal * reach, normal),
        (start, -along),
        (start + edge, along),
    ];
    let mut enter: Option<(f64, DVec2)> = None;
    let mut exit: Option<(f64, DVec2)> = None;
    for (on, outward) in sides {
        let outside = (ray.origin - on).dot(outward);
        let approach = ray.direction.dot(outward);
        if approach == 0.0 {
            if outside > 0.0 {
                return None; // parallel to the side and outside it
            }
            continue;
        }
        let t = -outside / approach;
        if approach < 0.0 {
            if enter.is_none_or(|(te, _)| t > te) {
                enter = Some((t, outward));
            }
        } else if exit.is_none_or(|(tx, _)| t < tx) {
            exit = Some((t, outward));
        }
    }
    let ((t_in, n_in), (t_out, n_out)) = (enter?, exit?);
    if t_in > t_out {
        return None;
    }
    let end = |t: f64, normal: DVec2| End {
        t,
        normal: normal.as_vec2(),
        point: (ray.origin + ray.direction * t).as_vec2(),
    };
    Some(Span {
        enter: end(t_in, n_in),
        exit: end(t_out, n_out),
    })
}
