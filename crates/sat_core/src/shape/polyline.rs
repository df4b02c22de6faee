//! [`Compound::polyline`]: a chain of segments for terrain, as a compound of one convex quad
//! per segment, each the segment and a band of thickness on its right-hand side, neighbours
//! meeting on a mitred edge they both hide. A body sliding along the chain over its joints
//! meets only the segments' faces: no bump at a joint.

use glam::{DVec2, Vec2};

use super::{Compound, ConvexPolygon, MAX_COORDINATE, PolygonError, Shape};

/// The most points a polyline takes.
pub const MAX_POLYLINE_POINTS: usize = 4096;

/// How much longer than the thickness a mitred joint's edge may be: a joint that turns by more
/// than about 150° would reach too far back along its neighbours.
const MAX_MITER: f64 = 4.0;

impl Compound {
    /// A chain of segments through `points` (at least 2, at most [`MAX_POLYLINE_POINTS`]),
    /// solid on the right-hand side of each segment (below, for points from left to right) to
    /// a depth of `thickness`: one quad per segment, whose edges against its neighbours are
    /// internal.
    ///
    /// ```
    /// # use sat_core::{Compound, PolygonError}; use glam::Vec2;
    /// let hill = Compound::polyline(
    ///     [Vec2::new(0.0, 0.0), Vec2::new(10.0, 2.0), Vec2::new(20.0, 2.0), Vec2::new(30.0, 0.0)],
    ///     1.0,
    /// )?;
    /// assert_eq!(hill.parts().len(), 3);
    /// // The middle quad hides its edges against both neighbours.
    /// assert_eq!(hill.parts()[1].internal.count_ones(), 2);
    /// assert_eq!(hill.aabb().max, Vec2::new(30.0, 2.0));
    /// # Ok::<(), PolygonError>(())
    /// ```
    ///
    /// # Errors
    /// [`PolygonError::TooFewPoints`] for fewer than 2 points, `TooManyVertices` above the
    /// limit, `NonFinite`, `OutOfRange` and `DuplicatePoint` (a point repeating the one before
    /// it) for the point at fault, `ZeroArea` for a thickness that is not a positive finite
    /// number, and `NotConvex` at a joint that turns back too sharply for a mitre.
    pub fn polyline(
        points: impl IntoIterator<Item = Vec2>,
        thickness: f32,
    ) -> Result<Self, PolygonError> {
        let points = read_chain(points)?;
        if points.len() < 2 {
            return Err(PolygonError::TooFewPoints {
                count: points.len(),
            });
        }
        if !(thickness.is_finite() && thickness > 0.0) {
            return Err(PolygonError::ZeroArea);
        }
        let wide: Vec<DVec2> = points.iter().map(|p| p.as_dvec2()).collect();
        let n = wide.len();
        // The unit normal on the solid side of each segment.
        let mut below = Vec::with_capacity(n - 1);
        for i in 0..n - 1 {
            let side = (wide[i + 1] - wide[i]).perp().try_normalize();
            let Some(side) = side else {
                return Err(PolygonError::DuplicatePoint { index: i + 1 });
            };
            below.push(-side);
        }
        // The inner end of each joint's edge: along the mitre, so that both neighbours' bands
        // are `thickness` deep.
        let depth = f64::from(thickness);
        let mut inner = Vec::with_capacity(n);
        for (k, &point) in wide.iter().enumerate() {
            let offset = match (k.checked_sub(1).map(|j| below[j]), below.get(k).copied()) {
                (Some(a), Some(b)) => {
                    let mitre = a + b;
                    let along = mitre.dot(a);
                    if along <= 1.0 / MAX_MITER {
                        return Err(PolygonError::NotConvex { index: k });
                    }
                    mitre * (depth / along)
                }
                (Some(a), None) | (None, Some(a)) => a * depth,
                (None, None) => DVec2::ZERO,
            };
            inner.push(point + offset);
        }
        let mut parts = Vec::with_capacity(n - 1);
        for i in 0..n - 1 {
            let (a, b) = (points[i], points[i + 1]);
            let (c, d) = (inner[i + 1].as_vec2(), inner[i].as_vec2());
            let quad = ConvexPolygon::new([a, b, c, d])
                .map_err(|_| PolygonError::NotConvex { index: i + 1 })?;
            // The edges between a joint's point and its inner end, where a neighbour joins.
            let mut internal = 0u16;
            let v = quad.vertices();
            for e in 0..v.len() {
                let edge = (v[e], v[(e + 1) % v.len()]);
                let joins = |p: Vec2, q: Vec2| edge == (p, q) || edge == (q, p);
                if (i > 0 && joins(a, d)) || (i + 2 < n && joins(b, c)) {
                    internal |= 1 << e;
                }
            }
            parts.push((Vec2::ZERO, 0.0, Shape::from(quad), internal));
        }
        Compound::new(parts)
    }
}

/// The points of a chain, checked one by one: finite, in range, at most
/// [`MAX_POLYLINE_POINTS`].
fn read_chain(points: impl IntoIterator<Item = Vec2>) -> Result<Vec<Vec2>, PolygonError> {
    let mut out = Vec::new();
    for (index, point) in points.into_iter().enumerate() {
        if index >= MAX_POLYLINE_POINTS {
            return Err(PolygonError::TooManyVertices {
                count: index + 1,
                max: MAX_POLYLINE_POINTS,
            });
        }
        if !point.is_finite() {
            return Err(PolygonError::NonFinite { index });
        }
        if point.abs().max_element() > MAX_COORDINATE {
            return Err(PolygonError::OutOfRange { index });
        }
        out.push(point);
    }
    Ok(out)
}
