//! The contact of two polygons of which one or both is a [`LargePolygon`](crate::LargePolygon),
//! in `f32` and in `O(n + m)`: the pairs the exact `f64` path would otherwise answer, where
//! round-off cannot change the answer.
//!
//! Two convex polygons overlap exactly when no outward edge normal of either separates them,
//! and their penetration depth is the least overlap over those outward normals alone (they are
//! the face normals of the Minkowski difference, whose boundary nearest the origin is the way
//! out). Along one polygon's outward normal `n` of edge `i`, the polygon reaches no further than
//! its own edge, and the other polygon's lowest corner along `n` (its support in `-n`) gives the
//! overlap. Taking the normals in their counter-clockwise order turns that support
//! counter-clockwise too, so it is found by climbing from the last one: one pass over each
//! polygon's corners in all.
//!
//! Contact points come from clipping the incident edge (beside that support corner, the one
//! most against `n`) to the reference edge, as [`clip_manifold`](super::manifold) does for
//! the inline polygons. Coordinates are taken relative to a corner of the first polygon, so the
//! round-off scales with the pair's size, not its distance from the origin. When the least
//! separation is within that round-off of touching (or of the margin), the answer is left to
//! the exact path.

use glam::Vec2;

use super::contact::Contact;
use super::manifold::clip_segment;
use crate::Aabb;
use crate::shape::{PolygonView, ShapeRef};

/// The round-off allowed in a separation, relative to the extent of the pair: well above what
/// the `f32` dot products here can be off by, far below any gap or overlap worth answering.
const ROUND_OFF: f32 = 4.0e-6;

/// One polygon as the fast path reads it.
#[derive(Clone, Copy)]
pub(crate) struct Outline<'a> {
    pub(crate) view: PolygonView<'a>,
    pub(crate) aabb: Aabb,
}

/// The least separation found along one polygon's normals.
#[derive(Clone, Copy)]
struct Best {
    separation: f32,
    /// The edge (of the polygon whose normals were weighed) it was found along.
    edge: usize,
    /// The other polygon's support corner along that normal.
    support: usize,
}

/// The contact of `a` and `b` (normal from A towards B) within `margin` (non-negative), as
/// [`collide_within`](crate::collide_within) gives it: `Some(answer)` when `f32` decides it,
/// `None` when the pair is within round-off of touching or of the margin and the exact path
/// has to.
pub(crate) fn contact(a: Outline<'_>, b: Outline<'_>, margin: f32) -> Option<Option<Contact>> {
    let (va, vb) = (a.view.vertices, b.view.vertices);
    if va.len() < 3 || vb.len() < 3 {
        return None;
    }
    let both = Aabb {
        min: a.aabb.min.min(b.aabb.min),
        max: a.aabb.max.max(b.aabb.max),
    };
    let origin = va[0];
    let extent = (both.max - both.min).max_element();
    let tolerance = ROUND_OFF * extent;
    if !tolerance.is_finite() {
        return None;
    }
    let on_a = least_separation(a.view, b.view, origin, margin + tolerance)?;
    if on_a.separation > margin + tolerance {
        return Some(None);
    }
    let on_b = least_separation(b.view, a.view, origin, margin + tolerance)?;
    let best = on_a.separation.max(on_b.separation);
    if best > margin + tolerance {
        return Some(None);
    }
    if best >= -tolerance {
        return None;
    }
    let depth = -best;
    // A's axes first, as the exact path keeps the first of equal separations.
    Some(Some(if on_a.separation >= on_b.separation {
        clip(a.view, b.view, on_a, depth, extent, false)
    } else {
        clip(b.view, a.view, on_b, depth, extent, true)
    }))
}

/// The largest separation of `incident` from `reference` along `reference`'s outward normals
/// (negative: the least overlap), with coordinates taken from `origin`. Stops early, with a
/// separation above `enough`, once one normal separates them by more than that. `None` for a
/// non-finite separation.
///
/// The support of `incident` along `-n` is the corner whose normal cone (between the normals of
/// its two edges) holds `-n`. As `n` turns counter-clockwise from one normal to the next, the
/// support moves on to the next corner while `-n` lies counter-clockwise of the support's
/// leading edge normal. Comparing unit normals, rather than the corners' projections, keeps the
/// walk from stopping early where round-off of nearly equal projections (a very short edge)
/// would make a false minimum.
fn least_separation(
    reference: PolygonView<'_>,
    incident: PolygonView<'_>,
    origin: Vec2,
    enough: f32,
) -> Option<Best> {
    let (corners, normals) = (reference.vertices, reference.normals);
    let (others, other_normals) = (incident.vertices, incident.normals);
    let m = others.len();
    let along = |k: usize, n: Vec2| (others[k] - origin).dot(n);
    // The support of the first normal by a full look, the others by walking on from it.
    let n0 = normals[0];
    let mut j = 0;
    let mut low = along(0, n0);
    for k in 1..m {
        let d = along(k, n0);
        if d < low {
            (j, low) = (k, d);
        }
    }
    let mut best = Best {
        separation: f32::NEG_INFINITY,
        edge: 0,
        support: 0,
    };
    for (i, (&corner, &n)) in corners.iter().zip(normals).enumerate() {
        if i > 0 {
            // `-n` counter-clockwise of edge `j`'s normal: the support is further on. At most
            // once round, whatever round-off says.
            let mut steps = 0;
            while n.perp_dot(other_normals[j]) > 0.0 && steps < m {
                j = if j + 1 == m { 0 } else { j + 1 };
                steps += 1;
            }
            low = along(j, n);
        }
        let separation = low - (corner - origin).dot(n);
        if separation > best.separation {
            best = Best {
                separation,
                edge: i,
                support: j,
            };
            if separation > enough {
                break;
            }
        }
    }
    best.separation.is_finite().then_some(best)
}

/// The contact of an overlapping pair along `reference`'s edge `best.edge` (normal from the
/// reference polygon towards the incident one), `depth` deep: the incident edge beside the
/// support corner that faces most against the normal, clipped to the reference edge, each
/// point kept within round-off of the deepest and placed halfway to the reference edge. With
/// `flip`, the reference polygon is B: the contact's normal is reversed (from A towards B).
fn clip(
    reference: PolygonView<'_>,
    incident: PolygonView<'_>,
    best: Best,
    depth: f32,
    extent: f32,
    flip: bool,
) -> Contact {
    let (rv, iv, inorm) = (reference.vertices, incident.vertices, incident.normals);
    let face = best.edge;
    let normal = reference.normals[face];
    let r1 = rv[face];
    let r2 = rv[if face + 1 == rv.len() { 0 } else { face + 1 }];
    let m = iv.len();
    let j = best.support;
    let before = if j == 0 { m - 1 } else { j - 1 };
    // Edge `before → j` or edge `j → j + 1`: the one whose normal is most against `normal`.
    let edge = if inorm[before].dot(normal) <= inorm[j].dot(normal) {
        before
    } else {
        j
    };
    let segment = [iv[edge], iv[if edge + 1 == m { 0 } else { edge + 1 }]];
    let tangent = normal.perp(); // along r1 → r2
    let local = [segment[0] - r1, segment[1] - r1];
    let clipped = clip_segment(local, tangent, 0.0)
        .and_then(|s| clip_segment(s, -tangent, -(r2 - r1).dot(tangent)));
    let slop = 1.0e-5 * extent.max(1.0) + depth * 1.0e-4;
    let mut points = [Vec2::ZERO; 2];
    let mut count = 0;
    for p in clipped.into_iter().flatten() {
        let separation = p.dot(normal);
        if separation <= slop {
            points[count] = r1 + p - normal * (separation * 0.5);
            count += 1;
        }
    }
    let contact_normal = if flip { -normal } else { normal };
    match count {
        2 => {
            // In the order the exact path gives them: along the left-hand perpendicular of the
            // contact's normal.
            let tangent = contact_normal.perp();
            if points[1].dot(tangent) < points[0].dot(tangent) {
                points.swap(0, 1);
            }
            Contact::two_points(contact_normal, depth, points)
        }
        1 => Contact::one_point(contact_normal, depth, points[0]),
        _ => {
            // Only through round-off: the support corner, halfway to the reference edge.
            let deepest = iv[j];
            let separation = (deepest - r1).dot(normal);
            let point = deepest - normal * (separation * 0.5);
            Contact::one_point(contact_normal, depth, point)
        }
    }
}

/// The polygon `shape` is, if it is one (inline or large).
fn outline(shape: ShapeRef<'_>) -> Option<Outline<'_>> {
    match shape {
        ShapeRef::Polygon(p) => Some(Outline {
            view: p.view(),
            aabb: p.aabb(),
        }),
        ShapeRef::Large(p) => Some(Outline {
            view: p.view(),
            aabb: p.aabb(),
        }),
        _ => None,
    }
}

/// [`contact`] for a pair of polygons (at least one of them large: two inline ones take their
/// own path before this); `None` for any other pair, or when the exact path has to answer.
pub(crate) fn polygons_contact(
    a: ShapeRef<'_>,
    b: ShapeRef<'_>,
    margin: f32,
) -> Option<Option<Contact>> {
    contact(outline(a)?, outline(b)?, margin)
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;
    use crate::query::rounded::rounded_contact;
    use crate::{AsShape, ConvexPolygon, Pose, Shape};

    /// A 32-gon of radius 1 with one corner cut off a hundred-thousandth of the way along its
    /// edges: a very short edge, where the corners' projections differ by little more than
    /// their round-off.
    fn notched() -> Shape {
        let mut points: Vec<Vec2> = (0..32)
            .map(|i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / 32.0))
            .collect();
        let (before, corner, after) = (points[4], points[5], points[6]);
        points[5] = corner + (before - corner) * 1.0e-5;
        points.insert(6, corner + (after - corner) * 1.0e-5);
        let shape = Shape::polygon(points).expect("a valid 33-gon");
        assert!(matches!(&shape, Shape::Large(p) if p.vertices().len() == 33));
        shape
    }

    fn placed(shape: &Shape, at: Vec2, angle: f32) -> Shape {
        shape
            .transformed(&Pose::new(at, angle, Vec2::ONE))
            .expect("placed in range")
    }

    /// Over placements from deep to apart, every answer the fast path gives is the exact
    /// path's: the same contact or none, the same depth, and the same normal unless two axes
    /// tie; near touching it leaves the answer to the exact path.
    #[test]
    fn fast_answers_agree_with_the_exact_path() {
        let a = notched();
        let mut decided = 0;
        for step in 0..400 {
            let angle = step as f32 * 0.173;
            let distance = 2.05 * (step % 41) as f32 / 40.0;
            let at = Vec2::from_angle(step as f32 * 0.61) * distance;
            let b = placed(&a, at, angle);
            let exact = rounded_contact(a.as_shape(), b.as_shape(), 0.0);
            let Some(fast) = polygons_contact(a.as_shape(), b.as_shape(), 0.0) else {
                let exact = exact.map_or(0.0, |c| c.depth);
                assert!(exact < 1e-4, "left to the exact path at depth {exact}");
                continue;
            };
            decided += 1;
            assert_eq!(fast.is_some(), exact.is_some(), "step {step}");
            let (Some(fast), Some(exact)) = (fast, exact) else {
                continue;
            };
            assert!((fast.depth - exact.depth).abs() < 1e-5, "step {step}");
            // The same least overlap; a different normal only where two axes tie for it.
            let (_, a_max) = a.as_shape().project(fast.normal);
            let (b_min, _) = b.as_shape().project(fast.normal);
            let tie = (a_max - b_min - exact.depth).abs() < 1e-5;
            let same_normal = (fast.normal - exact.normal).length() < 1e-5;
            assert!(same_normal || tie, "step {step}: {fast:?} vs {exact:?}");
            assert!(crate::overlap(&a, &b), "step {step}");
        }
        assert!(decided > 350, "decided {decided}");
    }

    /// Touching within round-off, and within the margin, the exact path answers; clearly apart
    /// or clearly overlapping, the fast path does (on unit squares, which it takes too).
    #[test]
    fn touching_is_left_to_the_exact_path() {
        let square = |x: f32| {
            placed(
                &Shape::from(ConvexPolygon::rectangle(1.0, 1.0)),
                Vec2::new(x, 0.0),
                0.0,
            )
        };
        let (a, touching, near) = (square(0.0), square(1.0), square(1.005));
        assert!(polygons_contact(a.as_shape(), touching.as_shape(), 0.0).is_none());
        assert!(polygons_contact(a.as_shape(), near.as_shape(), 0.01).is_none());
        let far = square(1.5);
        assert_eq!(
            polygons_contact(a.as_shape(), far.as_shape(), 0.01),
            Some(None)
        );
        let deep = square(0.5);
        let c = polygons_contact(a.as_shape(), deep.as_shape(), 0.0).expect("decided");
        let c = c.expect("in contact");
        assert_eq!((c.normal, c.depth), (Vec2::X, 0.5));
        assert_eq!(c.points(), &[Vec2::new(0.25, -0.5), Vec2::new(0.25, 0.5)]);
    }
}
