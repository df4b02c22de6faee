//! Building a [`ConvexPolygon`] from an outline: validation (each way input can be wrong is a
//! distinct [`PolygonError`]) and the cached normals, axes, centroid and radius.

use glam::{DVec2, Vec2};

use super::{ConvexPolygon, MAX_COORDINATE, MAX_VERTICES, MIN_AREA, MIN_SIZE, PolygonError};

/// `sin` of the largest angle at which two edges still count as collinear (and are merged).
const ANGLE_TOLERANCE: f64 = 1.0e-6;

/// How close to -1 the dot product of two edge normals must be for them to share an axis
/// (about 1.4e-5 radians: only edges that are parallel up to `f32` round-off).
const ANTIPARALLEL_TOLERANCE: f64 = 1.0e-10;

pub(super) fn sanitize_size(size: f32) -> f32 {
    let size = size.abs();
    if size.is_nan() {
        MIN_SIZE
    } else {
        size.clamp(MIN_SIZE, MAX_COORDINATE)
    }
}

/// Validates finite, in-range input points (3 to `MAX_VERTICES` of them) and builds the polygon.
pub(super) fn validate_outline(input: &[DVec2]) -> Result<ConvexPolygon, PolygonError> {
    let (corners, len) = valid_corners::<MAX_VERTICES>(input)?;
    Ok(polygon_from_corners(&corners[..len]))
}

/// Validates finite, in-range input points (3 to `N` of them) and returns the polygon's
/// corners, counter-clockwise with the collinear points removed, in the first `len` slots.
/// `N` is the capacity: [`MAX_VERTICES`] for an inline polygon, more for a
/// [`LargePolygon`](super::LargePolygon), so that the small case keeps its small arrays.
pub(super) fn valid_corners<const N: usize>(
    input: &[DVec2],
) -> Result<([DVec2; N], usize), PolygonError> {
    let n = input.len();
    let twice_area = signed_twice_area(input)?;
    // Counter-clockwise order (the first point stays first), remembering each point's input index for error messages.
    let mut order = [0usize; N];
    for (i, slot) in order.iter_mut().take(n).enumerate() {
        *slot = if twice_area > 0.0 { i } else { (n - i) % n };
    }
    // Turns: left is convex, straight-on is collinear (removed), right or a U-turn is concave.
    let mut keep = [false; N];
    let mut turns = [0.0; N];
    for k in 0..n {
        let prev = input[order[(k + n - 1) % n]];
        let here = input[order[k]];
        let next = input[order[(k + 1) % n]];
        let (e0, e1) = (here - prev, next - here);
        let lengths = e0.length() * e1.length();
        let (sin, cos) = (e0.perp_dot(e1) / lengths, e0.dot(e1) / lengths);
        if sin > ANGLE_TOLERANCE {
            keep[k] = true;
        } else if sin < -ANGLE_TOLERANCE || cos < 0.0 {
            return Err(PolygonError::NotConvex { index: order[k] });
        }
        turns[k] = sin.atan2(cos);
    }
    // All turns go left; a simple outline turns exactly once around in total, a star more.
    let mut turning = 0.0;
    for k in 0..n {
        turning += turns[k];
        if turning > core::f64::consts::TAU + 1.0e-3 {
            return Err(PolygonError::SelfIntersecting { index: order[k] });
        }
    }
    let mut corners = [DVec2::ZERO; N];
    let mut len = 0;
    for k in (0..n).filter(|&k| keep[k]) {
        corners[len] = input[order[k]];
        len += 1;
    }
    // A positive area guarantees at least 3 corners; guard anyway rather than panic.
    if len < 3 {
        return Err(PolygonError::ZeroArea);
    }
    Ok((corners, len))
}

/// The area centroid of a valid counter-clockwise outline (from the fan around its first
/// corner) and the distance from it to the farthest corner.
pub(super) fn centroid_and_radius(corners: &[DVec2]) -> (DVec2, f64) {
    let n = corners.len();
    let origin = corners[0];
    let (mut weighted, mut twice_area) = (DVec2::ZERO, 0.0);
    for i in 1..n - 1 {
        let (a, b) = (corners[i] - origin, corners[i + 1] - origin);
        let w = a.perp_dot(b);
        weighted += (a + b) * w / 3.0;
        twice_area += w;
    }
    let centroid = origin + weighted / twice_area;
    let radius = corners
        .iter()
        .map(|c| (*c - centroid).length())
        .fold(0.0, f64::max);
    (centroid, radius)
}

/// Computes normals, unique axes, centroid and radius of a valid counter-clockwise outline of
/// at most [`MAX_VERTICES`] corners.
pub(super) fn polygon_from_corners(corners: &[DVec2]) -> ConvexPolygon {
    let n = corners.len();
    let mut vertices = [Vec2::ZERO; MAX_VERTICES];
    let mut normals = [DVec2::ZERO; MAX_VERTICES];
    let mut axis_mask = 0u16;
    for i in 0..n {
        vertices[i] = corners[i].as_vec2();
        let edge = corners[(i + 1) % n] - corners[i];
        // The outward normal: the edge turned a quarter clockwise.
        normals[i] = (-edge.perp()).normalize_or_zero();
        let parallel_to_earlier = (0..i).any(|j| {
            axis_mask & (1 << j) != 0 && normals[j].dot(normals[i]) < -1.0 + ANTIPARALLEL_TOLERANCE
        });
        if !parallel_to_earlier {
            axis_mask |= 1 << i;
        }
    }
    let (centroid, radius) = centroid_and_radius(corners);
    let normals = normals.map(DVec2::as_vec2);
    ConvexPolygon::from_parts(
        &vertices[..n],
        &normals[..n],
        axis_mask,
        centroid.as_vec2(),
        radius as f32,
    )
}

/// Twice the signed area of an outline of at least 3 points (positive counter-clockwise), once
/// it is known to repeat no point (consecutive points closer than 1e-7 of its size) and to
/// enclose more than [`MIN_AREA`] and a sliver's area: the checks every polygon constructor
/// makes, in this order.
pub(crate) fn signed_twice_area(input: &[DVec2]) -> Result<f64, PolygonError> {
    let n = input.len();
    let (lo, hi) = input
        .iter()
        .fold((input[0], input[0]), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let size = (hi - lo).max_element();
    // Repeated consecutive points, with a tolerance relative to the polygon's size.
    let same_point = size * 1.0e-7;
    for i in 0..n {
        let next = (i + 1) % n;
        if (input[next] - input[i]).length() <= same_point {
            return Err(PolygonError::DuplicatePoint { index: next });
        }
    }
    // Signed area (shoelace, relative to the first point for precision).
    let origin = input[0];
    let twice_area: f64 = (1..n - 1)
        .map(|i| (input[i] - origin).perp_dot(input[i + 1] - origin))
        .sum();
    let area = twice_area.abs() * 0.5;
    if area < f64::from(MIN_AREA) || area < size * size * 1.0e-6 {
        return Err(PolygonError::ZeroArea);
    }
    Ok(twice_area)
}
