//! [`distance`]: how far apart two separated shapes are, and their closest points.
//!
//! Every shape is seen as a core (a polygon's outline, a circle's centre) grown by a radius
//! (0 for a polygon): the distance between two shapes is the distance between their cores
//! minus both radii, along the line joining the cores' closest points. A new kind of shape (a
//! capsule is a segment grown by a radius, a rounded polygon a polygon grown by one) is one
//! more arm of [`core_of`].

use glam::{DVec2, Vec2};

use super::overlap::overlap;
use super::point::nearest_on_segment;
use crate::shape::{AsShape, ShapeRef};

/// How far apart two separated shapes are: the answer of [`distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShapeDistance {
    /// The gap between the shapes, `>= 0` (0 only when round-off leaves them a hair apart).
    pub distance: f32,
    /// The point of A nearest to B, on A's boundary.
    pub point_a: Vec2,
    /// The point of B nearest to A, on B's boundary.
    pub point_b: Vec2,
    /// Unit vector from A towards B: `point_b ≈ point_a + normal * distance`. Moving A by
    /// `normal * distance` makes the shapes touch.
    pub normal: Vec2,
}

/// The distance between two shapes (in the same frame) and their closest points, or `None`
/// when they overlap or touch, as [`overlap`](crate::overlap) decides (use
/// [`collide`](crate::collide) for the depth of an overlap). The one other `None`: shapes
/// that `overlap` finds a hair apart but whose closest points coincide exactly in `f64`, where
/// no normal exists.
///
/// Exact (computed in `f64`): for two polygons, the point of their Minkowski difference
/// nearest to the origin, walking its `n + m` edges once (`O(n + m)`, so it stays cheap for
/// large polygons). Where the closest points are not unique (parallel faces), one pair of
/// them; where a corner faces an edge, the normal is that edge's own (exactly perpendicular to
/// it).
///
/// ```
/// # use sat_core::{distance, Circle, ConvexPolygon, Pose}; use glam::Vec2;
/// let floor = ConvexPolygon::rectangle(10.0, 2.0); // top at y = 1
/// let ball = Circle::new(Vec2::new(2.0, 4.0), 1.0).unwrap(); // bottom at y = 3
/// let d = distance(&ball, &floor).unwrap();
/// assert_eq!(d.distance, 2.0);
/// assert_eq!((d.point_a, d.point_b, d.normal), (Vec2::new(2.0, 3.0), Vec2::new(2.0, 1.0), Vec2::NEG_Y));
/// // Overlapping or touching: no distance.
/// let resting = Circle::new(Vec2::new(2.0, 2.0), 1.0).unwrap();
/// assert_eq!(distance(&resting, &floor), None);
/// ```
pub fn distance<A: AsShape + ?Sized, B: AsShape + ?Sized>(a: &A, b: &B) -> Option<ShapeDistance> {
    let (a, b) = (a.as_shape(), b.as_shape());
    if super::compound::is_compound(a, b) {
        return super::compound_point::distance_compound(a, b);
    }
    if overlap(&a, &b) {
        return None;
    }
    let (core_a, radius_a) = core_of(a);
    let (core_b, radius_b) = core_of(b);
    let (on_a, on_b, normal) = nearest_between(&core_a, &core_b)?;
    let gap = on_a.distance(on_b) - radius_a - radius_b;
    let (point_a, point_b) = (on_a + normal * radius_a, on_b - normal * radius_b);
    Some(ShapeDistance {
        distance: (gap.max(0.0) as f32).min(f32::MAX),
        point_a: point_a.as_vec2(),
        point_b: point_b.as_vec2(),
        normal: normal.as_vec2(),
    })
}

/// A shape's core, in `f64`: its corners, whether consecutive corners are joined by edges (a
/// closed outline), and their outward unit normals when they are. A segment is a closed
/// outline of two corners: its two sides are its edges. A small core is held here; a
/// [`LargePolygon`](crate::LargePolygon)'s is read where it is.
pub(crate) struct Core<'a> {
    inline_points: [DVec2; crate::MAX_VERTICES],
    inline_normals: [Vec2; crate::MAX_VERTICES],
    /// A large polygon's corners and normals, in place of the inline ones.
    wide: Option<(&'a [DVec2], &'a [Vec2])>,
    pub(crate) len: usize,
    pub(crate) closed: bool,
}

impl Core<'_> {
    /// The corners.
    #[inline]
    pub(crate) fn points(&self) -> &[DVec2] {
        match self.wide {
            Some((points, _)) => points,
            None => &self.inline_points[..self.len],
        }
    }

    /// The outward unit normals of the edges (meaningful for a closed outline).
    #[inline]
    pub(crate) fn normals(&self) -> &[Vec2] {
        match self.wide {
            Some((_, normals)) => normals,
            None => &self.inline_normals[..self.len],
        }
    }

    /// Whether the core is a large polygon's, whose extents are found by walking its corners
    /// (see [`least_overlap`](super::rounded::least_overlap)).
    #[inline]
    pub(crate) fn is_large(&self) -> bool {
        self.wide.is_some()
    }

    /// Edge `i`: its start, its vector and its outward unit normal.
    pub(crate) fn edge(&self, i: usize) -> (DVec2, DVec2, Vec2) {
        let points = self.points();
        let start = points[i];
        (start, points[(i + 1) % self.len] - start, self.normals()[i])
    }

    /// How many edges there are: 0 for a point.
    pub(crate) fn edges(&self) -> usize {
        if self.closed { self.len } else { 0 }
    }
}

/// The core and the radius of a shape.
pub(crate) fn core_of(shape: ShapeRef<'_>) -> (Core<'_>, f64) {
    let mut core = Core {
        inline_points: [DVec2::ZERO; crate::MAX_VERTICES],
        inline_normals: [Vec2::ZERO; crate::MAX_VERTICES],
        wide: None,
        len: 0,
        closed: false,
    };
    match shape {
        ShapeRef::Polygon(p) => {
            for (slot, v) in core.inline_points.iter_mut().zip(p.vertices()) {
                *slot = v.as_dvec2();
            }
            core.inline_normals = p.normals;
            core.len = p.vertices().len();
            core.closed = true;
            (core, 0.0)
        }
        ShapeRef::Large(p) => {
            core.wide = Some((p.wide(), p.normals()));
            core.len = p.vertices().len();
            core.closed = true;
            (core, 0.0)
        }
        ShapeRef::Circle(c) => {
            core.inline_points[0] = c.center.as_dvec2();
            core.len = 1;
            (core, f64::from(c.radius))
        }
        ShapeRef::Capsule(c) => {
            let (start, end) = (c.start.as_dvec2(), c.end.as_dvec2());
            core.inline_points[0] = start;
            core.len = 1;
            // Ends merged by round-off leave a point.
            if let Some(side) = (end - start).perp().try_normalize() {
                let side = -side.as_vec2(); // the right-hand side of start → end
                core.inline_points[1] = end;
                core.inline_normals[..2].copy_from_slice(&[side, -side]);
                core.len = 2;
                core.closed = true;
            }
            (core, f64::from(c.radius))
        }
        ShapeRef::Rounded(r) => {
            let (core, _) = core_of(r.core.as_shape());
            (core, f64::from(r.radius))
        }
        // Every query answers a compound part by part; its first part stands for it here.
        ShapeRef::Compound(c) => match c.parts().first() {
            Some(part) => core_of(part.shape.as_shape()),
            None => {
                core.inline_points[0] = c.centroid().as_dvec2();
                core.len = 1;
                (core, 0.0)
            }
        },
    }
}

/// The closest points of two cores that do not meet, and the unit vector from A's to B's.
/// `None` only when the cores meet exactly.
pub(crate) fn nearest_between(a: &Core, b: &Core) -> Option<(DVec2, DVec2, DVec2)> {
    let mut best = Nearest::default();
    if a.edges() > 0 && b.edges() > 0 {
        nearest_of_outlines(a, b, &mut best);
    } else {
        nearest_by_features(a, b, &mut best);
    }
    let (_, on_a, on_b, normal) = best.0?;
    let normal = match normal {
        // A segment's two sides lie on one line: the side facing the other core.
        Some(normal) if normal.dot(on_b - on_a) < 0.0 => -normal,
        Some(normal) => normal,
        None => (on_b - on_a).try_normalize()?,
    };
    Some((on_a, on_b, normal))
}

/// The nearest pair found so far: (squared distance, point on A, point on B, the normal when
/// an edge gives it exactly).
#[derive(Default)]
struct Nearest(Option<(f64, DVec2, DVec2, Option<DVec2>)>);

impl Nearest {
    /// Keeps the pair `on_a`, `on_b` if it is nearer; `edge_normal` is the normal from A to B
    /// when the pair is a corner and a point inside an edge (else the points decide it).
    fn consider(&mut self, on_a: DVec2, on_b: DVec2, edge_normal: Option<Vec2>) {
        let squared = on_a.distance_squared(on_b);
        if self.0.is_none_or(|(s, ..)| squared < s) {
            self.0 = Some((squared, on_a, on_b, edge_normal.map(Vec2::as_dvec2)));
        }
    }
}

/// Two outlines: the boundary of their Minkowski difference `B ⊖ A` (every `b - a`), walked
/// once by merging the edges of B and of `-A` in the order of their directions, both from
/// their lowest corner. Each of its edges is an edge of one outline offset by a corner of the
/// other, so the point of it nearest the origin is a pair of closest points.
fn nearest_of_outlines(a: &Core, b: &Core, best: &mut Nearest) {
    let (n, m) = (a.len, b.len);
    let (a_pts, b_pts) = (a.points(), b.points());
    // The lowest (then leftmost) corner of B, and of -A: A's highest (then rightmost).
    let lowest = |pts: &[DVec2], sign: f64| {
        (0..pts.len())
            .min_by(|&i, &k| {
                let (p, q) = (pts[i] * sign, pts[k] * sign);
                p.y.total_cmp(&q.y).then(p.x.total_cmp(&q.x))
            })
            .unwrap_or(0)
    };
    let (start_b, start_a) = (lowest(b_pts, 1.0), lowest(a_pts, -1.0));
    let (mut i, mut j) = (0, 0);
    while i < m || j < n {
        let (bi, aj) = ((start_b + i) % m, (start_a + j) % n);
        let (bk, ak) = ((bi + 1) % m, (aj + 1) % n);
        let (b_edge, a_edge) = (b_pts[bk] - b_pts[bi], a_pts[ak] - a_pts[aj]);
        // B's edge comes first when its direction's angle is no larger than -A's (of parallel
        // ones, B's).
        let take_b = j == n || (i < m && turns_no_further(b_edge, -a_edge));
        let corner = b_pts[bi] - a_pts[aj];
        if take_b {
            let s = fraction_nearest_origin(corner, b_edge);
            let normal = (s > 0.0 && s < 1.0).then(|| -b.normals()[bi]);
            best.consider(a_pts[aj], b_pts[bi] + b_edge * s, normal);
            i += 1;
        } else {
            let s = fraction_nearest_origin(corner, -a_edge);
            let normal = (s > 0.0 && s < 1.0).then_some(a.normals()[aj]);
            best.consider(a_pts[aj] + a_edge * s, b_pts[bi], normal);
            j += 1;
        }
    }
}

/// Whether the direction of `u` makes an angle with +x, counted counter-clockwise in
/// `[0, 2π)`, no larger than that of `v`: the order in which the edges of both outlines come,
/// walked from their lowest corner. The half-turn decides first, so that opposite directions
/// (a segment's two sides) are ordered too; within a half-turn, the sign of the cross product.
fn turns_no_further(u: DVec2, v: DVec2) -> bool {
    let second_half = |d: DVec2| !(d.y > 0.0 || (d.y == 0.0 && d.x > 0.0));
    match (second_half(u), second_half(v)) {
        (false, true) => true,
        (true, false) => false,
        _ => u.perp_dot(v) >= 0.0,
    }
}

/// How far along the segment `start + edge * s`, `s` in `[0, 1]`, its point nearest the origin
/// lies.
fn fraction_nearest_origin(start: DVec2, edge: DVec2) -> f64 {
    let s = -start.dot(edge) / edge.length_squared();
    if s.is_finite() {
        s.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// A core without edges (a circle's centre) against any core: every corner of each against
/// every edge of the other, and corner against corner, `O(n)` for a point.
fn nearest_by_features(a: &Core, b: &Core, best: &mut Nearest) {
    // A corner against an edge: the edge's normal when the nearest point is inside the edge.
    let corner_edge = |corner: DVec2, (start, edge, normal): (DVec2, DVec2, Vec2)| {
        let on = nearest_on_segment(start, edge, corner);
        let inside = on != start && on != start + edge;
        (on, inside.then_some(normal))
    };
    for &corner in a.points() {
        for i in 0..b.edges() {
            let (on, normal) = corner_edge(corner, b.edge(i));
            best.consider(corner, on, normal.map(|n| -n));
        }
    }
    for &corner in b.points() {
        for i in 0..a.edges() {
            let (on, normal) = corner_edge(corner, a.edge(i));
            best.consider(on, corner, normal);
        }
    }
    for &p in a.points() {
        for &q in b.points() {
            best.consider(p, q, None);
        }
    }
}
