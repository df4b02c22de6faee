//! The contact of a pair in which a shape is rounded (a [`Capsule`](crate::Capsule), a bare
//! segment, a [`RoundedPolygon`](crate::RoundedPolygon)): each shape is a core and a radius
//! ([`core_of`]), and the pair is its two cores with the radii summed.
//!
//! Cores that are apart are as far apart as their closest points ([`nearest_between`]), and
//! the shapes overlap when that is within the radii; cores that overlap are separated along
//! their axis of least overlap, and the radii add to the depth. Computed in `f64`.

use glam::DVec2;

use super::contact::Contact;
use super::distance::{Core, core_of, nearest_between};
use crate::shape::ShapeRef;

/// How close to parallel to the contact normal an edge's normal must be (the sine of the angle
/// between them) for the edge to count as a face; of a face's two clipped ends, those deeper
/// than the deepest by more than round-off are then dropped, as for polygons.
const FACE: f64 = 1.0e-3;

/// The contact of two shapes, at least one of them rounded, within `margin` (non-negative):
/// as [`collide_within`](crate::collide_within) answers.
pub(crate) fn rounded_contact(a: ShapeRef<'_>, b: ShapeRef<'_>, margin: f32) -> Option<Contact> {
    let (core_a, radius_a) = core_of(a);
    let (core_b, radius_b) = core_of(b);
    let reach = radius_a + radius_b;
    let limit = reach + f64::from(margin);
    let (axis, separation) = least_overlap(&core_a, &core_b);
    if separation > limit {
        return None;
    }
    let (normal, gap) = if separation > 0.0 {
        // Apart: the cores' true distance, never less than the separation on an axis.
        match nearest_between(&core_a, &core_b) {
            Some((on_a, on_b, normal)) => {
                let gap = on_a.distance(on_b);
                if gap > limit {
                    return None;
                }
                (normal, gap)
            }
            None => (axis, 0.0),
        }
    } else {
        (axis, separation)
    };
    let depth = ((reach - gap) as f32).max(-margin);
    let sides = Sides {
        normal,
        radius_a,
        radius_b,
        depth: reach - gap,
    };
    Some(sides.points(&core_a, &core_b, depth))
}

/// The separating axis of two cores with the largest separation (negative: the least
/// overlap), as a unit vector from A towards B, and that separation.
///
/// The axes are both cores' edge normals, and a segment's direction too: two segments on one
/// line, or a point beyond a segment's end, are separated only along it. Of equal separations
/// the first is kept (A's axes come first). Two points (no axis at all) are separated along the
/// line joining them.
pub(crate) fn least_overlap(a: &Core, b: &Core) -> (DVec2, f64) {
    if !a.is_large() && !b.is_large() {
        return super::rounded_small::least_overlap_small(a, b);
    }
    let (mut walk_a, mut walk_b) = (Walk::default(), Walk::default());
    search_axes(a, b, false, |axis| {
        (extent(a, axis, &mut walk_a), extent(b, axis, &mut walk_b))
    })
}

/// The axis search of [`least_overlap`], with the extents of both cores on an axis from
/// `extents`: A's axes, then B's, each core's edge normals and a segment's direction; the
/// largest separation wins, the first of equal ones is kept. With `skip_opposite`, an edge
/// normal exactly opposite an earlier one of the same core is not weighed (see
/// [`least_overlap_small`](super::rounded_small::least_overlap_small)).
#[inline(always)]
pub(super) fn search_axes(
    a: &Core,
    b: &Core,
    skip_opposite: bool,
    mut extents: impl FnMut(DVec2) -> ((f64, f64), (f64, f64)),
) -> (DVec2, f64) {
    let mut best = (DVec2::Y, f64::NEG_INFINITY);
    let mut weigh = |axis: DVec2| {
        let ((a_min, a_max), (b_min, b_max)) = extents(axis);
        let (ahead, behind) = (b_min - a_max, a_min - b_max);
        let (axis, separation) = if ahead >= behind {
            (axis, ahead)
        } else {
            (-axis, behind)
        };
        if separation > best.1 {
            best = (axis, separation);
        }
    };
    for core in [a, b] {
        let normals = &core.normals()[..core.edges()];
        for (i, normal) in normals.iter().enumerate() {
            if skip_opposite && normals[..i].iter().any(|earlier| *earlier == -*normal) {
                continue;
            }
            weigh(normal.as_dvec2());
        }
        if core.len == 2
            && let Some(along) = (core.points()[1] - core.points()[0]).try_normalize()
        {
            weigh(along);
        }
    }
    if best.1 == f64::NEG_INFINITY {
        // Two points: their distance, along the line joining them (+y when they coincide).
        let offset = b.points()[0] - a.points()[0];
        return (offset.try_normalize().unwrap_or(DVec2::Y), offset.length());
    }
    best
}

/// Where a large core's lowest and highest corners were on the last axis weighed, and that
/// axis: the next extent is found by walking from them.
#[derive(Clone, Copy, Default)]
struct Walk {
    low: usize,
    high: usize,
    axis: Option<DVec2>,
}

/// The lowest and highest projection of a core's corners on `axis`.
///
/// A small core's corners are all read. A large polygon's are walked: the axes come in runs
/// that turn steadily (one polygon's edge normals in order), so its lowest and highest corners
/// on the next axis are a few steps on from the last ones, uphill all the way (a convex outline
/// projects as one rise and one fall). When the axis turned by a right angle or more since the
/// last, or there was none, every corner is read: a walk from far away could start on the
/// flat where round-off of nearly collinear corners makes small false peaks.
fn extent(core: &Core, axis: DVec2, walk: &mut Walk) -> (f64, f64) {
    let points = core.points();
    if !core.is_large() {
        return points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                let d = p.dot(axis);
                (lo.min(d), hi.max(d))
            });
    }
    match walk.axis {
        Some(last) if last.dot(axis) > 0.0 => {
            walk.low = climb(points, walk.low, -axis);
            walk.high = climb(points, walk.high, axis);
        }
        _ => {
            let (mut low, mut high) = (0, 0);
            for (i, p) in points.iter().enumerate() {
                let d = p.dot(axis);
                if d < points[low].dot(axis) {
                    low = i;
                }
                if d > points[high].dot(axis) {
                    high = i;
                }
            }
            (walk.low, walk.high) = (low, high);
        }
    }
    walk.axis = Some(axis);
    (points[walk.low].dot(axis), points[walk.high].dot(axis))
}

/// From corner `k`, the corner reached by stepping to a neighbour farther along `direction`
/// while there is one: the farthest corner of a convex outline.
fn climb(points: &[DVec2], mut k: usize, direction: DVec2) -> usize {
    let n = points.len();
    let mut here = points[k].dot(direction);
    for step in [1, n - 1] {
        // At most once round the outline: the values only rise.
        for _ in 0..n {
            let next = (k + step) % n;
            let there = points[next].dot(direction);
            if there <= here {
                break;
            }
            (k, here) = (next, there);
        }
    }
    k
}

/// The part of a core farthest along the unit `direction`: an edge (its two ends) when one
/// faces that way within [`FACE`], else the farthest corner (twice).
pub(crate) fn farthest_feature(core: &Core, direction: DVec2) -> (DVec2, DVec2) {
    let points = core.points();
    let mut best = 0;
    for (i, p) in points.iter().enumerate() {
        if p.dot(direction) > points[best].dot(direction) {
            best = i;
        }
    }
    feature_at(core, best, direction)
}

/// [`farthest_feature`] for a large polygon's core, among the features at the corners within
/// `band` of the farthest along `direction`: the one nearest to `near` (the other shape's
/// feature).
///
/// A large polygon's `f32` corners are convex only up to their round-off: where many nearly
/// collinear edges make a long, almost flat stretch, its farthest corner can lie anywhere
/// along it by a round-off, far from where the other shape touches; and beside a very short
/// edge, the corner nearest the other shape may be the one whose edges do not face it while
/// its neighbour's edge does. Measuring to each corner's feature, not to the corner, finds the
/// face.
fn farthest_feature_near(core: &Core, direction: DVec2, band: f64, near: DVec2) -> (DVec2, DVec2) {
    let points = core.points();
    let top = points
        .iter()
        .fold(f64::NEG_INFINITY, |top, p| top.max(p.dot(direction)));
    let mut best: Option<(f64, (DVec2, DVec2))> = None;
    for (i, p) in points.iter().enumerate() {
        if p.dot(direction) < top - band {
            continue;
        }
        let feature = feature_at(core, i, direction);
        let distance = nearest_on(feature.0, feature.1, near).distance_squared(near);
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, feature));
        }
    }
    best.map_or_else(|| farthest_feature(core, direction), |(_, feature)| feature)
}

/// The feature of a core at corner `best` facing `direction`: an edge out of or into it when
/// one faces that way within [`FACE`], else the corner (twice).
fn feature_at(core: &Core, best: usize, direction: DVec2) -> (DVec2, DVec2) {
    let corner = core.points()[best];
    if core.edges() == 0 {
        return (corner, corner);
    }
    let n = core.len;
    let faces = |i: usize| {
        let normal = core.normals()[i].as_dvec2();
        normal.dot(direction) > 0.0 && normal.perp_dot(direction).abs() <= FACE
    };
    let before = (best + n - 1) % n;
    // Of the two edges at the corner, the one facing `direction` more squarely: on a polygon of
    // many corners both may be within the tolerance, and the other one's far end can lie well
    // short of the contact.
    let alignment = |i: usize| core.normals()[i].as_dvec2().dot(direction);
    let after_first = alignment(best) >= alignment(before);
    match (faces(best), faces(before)) {
        (true, false) | (true, true) if after_first => (corner, core.points()[(best + 1) % n]),
        (_, true) => (core.points()[before], corner),
        (true, false) => (corner, core.points()[(best + 1) % n]),
        (false, false) => (corner, corner),
    }
}

/// What the contact points of a rounded pair are worked out from: the normal (from A to B),
/// both radii and the depth, in `f64`.
struct Sides {
    normal: DVec2,
    radius_a: f64,
    radius_b: f64,
    depth: f64,
}

impl Sides {
    /// The contact point halfway between A's surface over core point `on_a` and B's surface
    /// over core point `on_b`.
    fn midway(&self, on_a: DVec2, on_b: DVec2) -> DVec2 {
        let surface_a = on_a + self.normal * self.radius_a;
        let surface_b = on_b - self.normal * self.radius_b;
        (surface_a + surface_b) * 0.5
    }

    /// The contact: one point, or two where a face of each core meets the other (a capsule
    /// lying on a floor), clipped to the part both faces share; of the two, a point shallower
    /// than the other by more than round-off is dropped.
    fn points(&self, a: &Core, b: &Core, depth: f32) -> Contact {
        let normal = self.normal.as_vec2();
        let (mut a0, mut a1) = farthest_feature(a, self.normal);
        let (mut b0, mut b1) = farthest_feature(b, -self.normal);
        if a.is_large() || b.is_large() {
            // The round-off of the corners' `f32` coordinates: a large polygon's corners this
            // close to its farthest may be where the other touches.
            let size = [a0, a1, b0, b1]
                .iter()
                .fold(1.0f64, |m, p| m.max(p.abs().max_element()));
            let band = 8.0 * f64::from(f32::EPSILON) * size;
            if a.is_large() {
                (a0, a1) = farthest_feature_near(a, self.normal, band, (b0 + b1) * 0.5);
            }
            if b.is_large() {
                (b0, b1) = farthest_feature_near(b, -self.normal, band, (a0 + a1) * 0.5);
            }
        }
        if a0 == a1 || b0 == b1 {
            // A corner of either touches the other: the corner, and the nearest point of the
            // other's feature to it.
            let (on_a, on_b) = if b0 == b1 {
                (nearest_on(a0, a1, b0), b0)
            } else {
                (a0, nearest_on(b0, b1, a0))
            };
            return Contact::one_point(normal, depth, self.midway(on_a, on_b).as_vec2());
        }
        let tangent = self.normal.perp();
        let (a_low, a_high) = ordered(a0.dot(tangent), a1.dot(tangent));
        let (b_low, b_high) = ordered(b0.dot(tangent), b1.dot(tangent));
        let (low, high) = (a_low.max(b_low), a_high.min(b_high));
        let at = |u: f64| {
            let (on_a, on_b) = (
                at_tangent(a0, a1, tangent, u),
                at_tangent(b0, b1, tangent, u),
            );
            ((on_b - on_a).dot(self.normal), self.midway(on_a, on_b))
        };
        if low >= high {
            let (_, point) = at(0.5 * (low + high));
            return Contact::one_point(normal, depth, point.as_vec2());
        }
        let ((gap_low, low_point), (gap_high, high_point)) = (at(low), at(high));
        let size = a0.distance(a1).max(b0.distance(b1)).max(1.0);
        let slop = 1.0e-5 * size + self.depth.abs() * 1.0e-4;
        let least = gap_low.min(gap_high);
        match (gap_low <= least + slop, gap_high <= least + slop) {
            (true, true) => {
                Contact::two_points(normal, depth, [low_point.as_vec2(), high_point.as_vec2()])
            }
            (true, false) => Contact::one_point(normal, depth, low_point.as_vec2()),
            _ => Contact::one_point(normal, depth, high_point.as_vec2()),
        }
    }
}

/// `(x, y)` in increasing order.
fn ordered(x: f64, y: f64) -> (f64, f64) {
    if x <= y { (x, y) } else { (y, x) }
}

/// The point of segment `start → end` nearest to `point` (`start` when the ends coincide).
fn nearest_on(start: DVec2, end: DVec2, point: DVec2) -> DVec2 {
    if start == end {
        start
    } else {
        super::point::nearest_on_segment(start, end - start, point)
    }
}

/// The point of segment `start → end` whose projection on `tangent` is `u` (clamped to the
/// segment; its start for a segment perpendicular to the tangent).
fn at_tangent(start: DVec2, end: DVec2, tangent: DVec2, u: f64) -> DVec2 {
    let (s, e) = (start.dot(tangent), end.dot(tangent));
    let fraction = (u - s) / (e - s);
    if fraction.is_finite() {
        start.lerp(end, fraction.clamp(0.0, 1.0))
    } else {
        start
    }
}
