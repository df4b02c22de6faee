//! [`collide`]: SAT with the minimum translation vector and a clipped contact manifold.

use glam::Vec2;

use super::axes_large::{each_axis_large, either_large, large_pair_contact};
use super::contact::Contact;
use super::manifold::clip_manifold;
use crate::shape::{AsShape, Circle, ConvexPolygon, MAX_VERTICES, ShapeRef};

/// The contact between two shapes in the same frame, or `None` when they are apart.
///
/// `normal` points from A to B and `depth >= 0` (touching shapes give `depth == 0`). Among the
/// axes, the one with the least overlap wins; its sign is the shorter way out along it, so a
/// shape inside another is pushed out the short way whatever their centres. Polygon pairs get
/// one or two contact points by clipping the incident edge against the reference face; so do
/// rounded shapes (capsules, segments, rounded polygons) whose cores meet face to face, as a
/// capsule lying on a floor does.
///
/// ```
/// # use sat_core::{collide, ConvexPolygon, Pose}; use glam::Vec2;
/// let floor = ConvexPolygon::rectangle(10.0, 2.0); // top at y = 1
/// let bx = ConvexPolygon::rectangle(2.0, 2.0)
///     .transformed(&Pose::from_translation(Vec2::new(0.0, 1.75)))
///     .unwrap(); // bottom at y = 0.75
/// let c = collide(&bx, &floor).unwrap();
/// assert_eq!(c.normal, Vec2::NEG_Y); // from the box down into the floor
/// assert_eq!(c.depth, 0.25);
/// assert_eq!(c.mtv(), Vec2::new(0.0, 0.25)); // the box moves up
/// assert_eq!(c.points().len(), 2); // both bottom corners
/// ```
pub fn collide<A: AsShape + ?Sized, B: AsShape + ?Sized>(a: &A, b: &B) -> Option<Contact> {
    collide_within(a, b, 0.0)
}

/// Like [`collide`], but also answers for shapes that are apart by at most `margin` (a
/// speculative contact): then `depth` is negative, minus the gap along `normal`.
///
/// Physics uses this to keep a resting contact from flickering when round-off leaves a gap of
/// a few ulps. For polygons the gap is measured like the overlap, along the best separating
/// axis, which is the true distance except between two corners, where it is less. A negative
/// or NaN `margin` counts as 0.
///
/// ```
/// # use sat_core::{collide, collide_within, ConvexPolygon, Pose}; use glam::Vec2;
/// let a = ConvexPolygon::rectangle(2.0, 2.0);
/// let b = a.transformed(&Pose::from_translation(Vec2::new(2.005, 0.0))).unwrap();
/// assert!(collide(&a, &b).is_none());
/// let c = collide_within(&a, &b, 0.01).unwrap();
/// assert_eq!(c.normal, Vec2::X);
/// assert!((c.depth + 0.005).abs() < 1e-6);
/// ```
pub fn collide_within<A: AsShape + ?Sized, B: AsShape + ?Sized>(
    a: &A,
    b: &B,
    margin: f32,
) -> Option<Contact> {
    let margin = if margin > 0.0 { margin } else { 0.0 };
    match (a.as_shape(), b.as_shape()) {
        (ShapeRef::Polygon(a), ShapeRef::Polygon(b)) => polygon_polygon(a, b, margin),
        (ShapeRef::Polygon(a), ShapeRef::Circle(b)) => polygon_circle(a, b, margin),
        (ShapeRef::Circle(a), ShapeRef::Polygon(b)) => {
            polygon_circle(b, a, margin).map(|c| c.flipped())
        }
        (ShapeRef::Circle(a), ShapeRef::Circle(b)) => circle_circle(a, b, margin),
        (a @ ShapeRef::Compound(_), b) | (a, b @ ShapeRef::Compound(_)) => {
            super::compound::collide(a, b, margin)
        }
        (a, b) => super::large_contact::polygons_contact(a, b, margin)
            .unwrap_or_else(|| super::rounded::rounded_contact(a, b, margin)),
    }
}

/// The axis of least overlap between two polygons: the contact's normal and depth, and where
/// the axis came from (which [`AxisOverlap::contact`] needs to clip the contact points).
///
/// Given by [`least_overlap`] and [`least_overlap_after`](crate::least_overlap_after);
/// [`collide`] finds the same one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisOverlap {
    /// Unit vector from A towards B.
    pub normal: Vec2,
    /// Overlap along `normal`; negative: the gap, for shapes apart by less than the margin.
    pub depth: f32,
    pub(crate) on_a: bool,
    /// The index of the axis's edge normal in the polygon it belongs to.
    pub(crate) edge: u8,
    /// Whether `normal` is that edge normal itself (else its opposite).
    pub(crate) along_edge: bool,
}

impl AxisOverlap {
    /// The reference face for clipping when it is the axis's own edge: the edge whose outward
    /// normal is the contact normal out of the reference polygon. (When the normal is the
    /// opposite of the edge's, the face has to be searched for.)
    fn reference_face(&self) -> Option<usize> {
        // A's axis: the normal points out of A (from A to B); B's: the reference normal is
        // the opposite of the contact normal.
        (self.along_edge == self.on_a).then_some(usize::from(self.edge))
    }

    /// The full contact on this axis, contact points included, between `a` and `b` where they
    /// are now: the polygons this overlap was found for.
    pub fn contact(&self, a: &ConvexPolygon, b: &ConvexPolygon) -> Contact {
        if either_large(a, b) {
            return large_pair_contact(self, a, b);
        }
        let face = self.reference_face();
        if self.on_a {
            clip_manifold(a, b, self.normal, self.depth, face)
        } else {
            clip_manifold(b, a, -self.normal, self.depth, face).flipped()
        }
    }
}

/// The least overlap among the axes weighed so far, and which axis has it: the rule that both
/// [`least_overlap`] and [`least_overlap_after`](crate::least_overlap_after) apply.
///
/// A depth and a packed key, each kept by a select: which axis wins changes from pair to pair
/// in no pattern a branch predictor could learn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Least {
    depth: f32,
    /// `on_a << 9 | along_edge << 8 | edge` of the least axis (see [`AxisOverlap`]).
    key: u32,
}

impl Least {
    /// No axis weighed yet.
    pub(crate) const NONE: Least = Least {
        depth: f32::INFINITY,
        key: 0b11 << 8,
    };

    /// The least axis, once found elsewhere: overlap `depth` on the normal of edge `edge` (of A
    /// when `on_a`), the way out along the normal when `along_edge` (else against it).
    pub(crate) fn of(depth: f32, edge: u8, on_a: bool, along_edge: bool) -> Least {
        Least {
            depth,
            key: Self::key(edge, on_a, along_edge),
        }
    }

    fn key(edge: u8, on_a: bool, along_edge: bool) -> u32 {
        u32::from(on_a) << 9 | u32::from(along_edge) << 8 | u32::from(edge)
    }

    /// Weighs the axis of edge `edge` (of A when `on_a`), given how far A must move to leave B
    /// along it each way (`out_negative` along `-axis`, `out_positive` along `+axis`): `None`
    /// when it separates the shapes by more than `margin`, else whether it is now the least (of
    /// equal overlaps, the first stays). The sign is the shorter way out.
    #[inline]
    pub(crate) fn weigh(
        &mut self,
        (out_negative, out_positive): (f32, f32),
        edge: u8,
        on_a: bool,
        margin: f32,
    ) -> Option<bool> {
        if (out_negative < -margin) | (out_positive < -margin) {
            return None;
        }
        // The shorter way out, written as `minss` computes it: `out_positive` only when
        // strictly shorter, so that of equal ways out the one along the edge's normal stays.
        let along_edge = out_negative <= out_positive;
        let here = if out_positive < out_negative {
            out_positive
        } else {
            out_negative
        };
        let key = Self::key(edge, on_a, along_edge);
        let better = here < self.depth;
        self.depth = if better { here } else { self.depth };
        self.key = if better { key } else { self.key };
        Some(better)
    }

    /// Whether the least axis is an edge normal of A, and the index of that edge.
    pub(crate) fn edge(&self) -> (bool, u8) {
        (self.key >> 9 != 0, self.key as u8)
    }

    /// The overlap on the least axis, given that axis (the normal of edge [`Least::edge`]).
    pub(crate) fn overlap(self, axis: Vec2) -> AxisOverlap {
        let (on_a, edge) = self.edge();
        let along_edge = self.key >> 8 & 1 != 0;
        AxisOverlap {
            normal: if along_edge { axis } else { -axis },
            depth: self.depth,
            on_a,
            edge,
            along_edge,
        }
    }
}

/// How far A must move to leave B along `-axis` and `+axis`, given their projections on it.
#[inline]
pub(crate) fn exits((a_min, a_max): (f32, f32), (b_min, b_max): (f32, f32)) -> (f32, f32) {
    (a_max - b_min, b_max - a_min)
}

/// The contact between two polygons. On equal overlap, A's axes win (A holds the reference
/// face), which keeps the answer stable from step to step.
fn polygon_polygon(a: &ConvexPolygon, b: &ConvexPolygon, margin: f32) -> Option<Contact> {
    let found = least_overlap_inline(a, b, margin)?;
    let face = found.reference_face();
    Some(if found.on_a {
        clip_manifold(a, b, found.normal, found.depth, face)
    } else {
        clip_manifold(b, a, -found.normal, found.depth, face).flipped()
    })
}

/// The axis of least overlap between two polygons, or `None` when one separates them by more
/// than `margin`: what [`collide_within`] finds, without the contact points, which
/// [`AxisOverlap::contact`] adds. The cheaper question when most answers are a gap, or only the
/// normal and depth matter. [`overlap`](crate::overlap) asks this too, so the two always agree.
/// A negative or NaN `margin` counts as 0.
///
/// ```
/// # use sat_core::{collide_within, least_overlap, ConvexPolygon, Pose}; use glam::Vec2;
/// let a = ConvexPolygon::rectangle(2.0, 2.0);
/// let b = a.transformed(&Pose::from_translation(Vec2::new(1.5, 0.0))).unwrap();
/// let found = least_overlap(&a, &b, 0.0).unwrap();
/// assert_eq!((found.normal, found.depth), (Vec2::X, 0.5));
/// assert_eq!(Some(found.contact(&a, &b)), collide_within(&a, &b, 0.0));
/// ```
///
/// For a polygon of more than [`MAX_VERTICES`] corners it weighs every unique axis of both as
/// well, and agrees with [`collide_within`], which takes such a pair through its large-polygon
/// path, up to round-off.
pub fn least_overlap(a: &ConvexPolygon, b: &ConvexPolygon, margin: f32) -> Option<AxisOverlap> {
    if either_large(a, b) {
        let margin = if margin > 0.0 { margin } else { 0.0 };
        let mut least = Least::NONE;
        let found = each_axis_large(a, b, |(_, edge), out, on_a| {
            least.weigh(out, edge, on_a, margin).is_some()
        });
        let (on_a, edge) = least.edge();
        return found.then(|| least.overlap(if on_a { a } else { b }.normals()[usize::from(edge)]));
    }
    least_overlap_inline(a, b, margin)
}

/// [`least_overlap`] of two polygons held inline.
#[inline]
pub(crate) fn least_overlap_inline(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
    margin: f32,
) -> Option<AxisOverlap> {
    let margin = if margin > 0.0 { margin } else { 0.0 };
    let mut least = Least::NONE;
    let found = each_axis(a, b, |(_, edge), out, on_a| {
        least.weigh(out, edge, on_a, margin).is_some()
    });
    if !found {
        return None;
    }
    let (on_a, edge) = least.edge();
    Some(least.overlap(if on_a { a } else { b }.normals[usize::from(edge)]))
}

/// The axis [`least_overlap_inline`] finds for two polygons held inline, named again by the
/// normal it gave (`normal` is one of their unique axes or its opposite, exactly) with its
/// overlap `depth`: what [`collide_within`] clips the contact on, found without weighing the
/// axes again. `None` when `normal` is none of their axes.
///
/// The axes are unique across the pair (B's axes that are A's are not B's, as
/// [`each_axis`] skips them), so a normal names one axis, and the way out along it.
pub(crate) fn overlap_on_normal(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
    normal: Vec2,
    depth: f32,
) -> Option<AxisOverlap> {
    let find = |p: &ConvexPolygon| {
        p.axis_indices().find_map(|i| {
            let axis = p.normals[i];
            (axis == normal || axis == -normal).then_some((i, axis == normal))
        })
    };
    let (on_a, (edge, along_edge)) = match find(a) {
        Some(found) => (true, found),
        None => (false, find(b)?),
    };
    let axis = if on_a { a } else { b }.normals[edge];
    Some(Least::of(depth, edge as u8, on_a, along_edge).overlap(axis))
}

/// Calls `weigh` with each separating axis of two polygons, in the order [`collide`] weighs
/// them: A's unique edge normals, then B's that are not A's (or their opposites, as for two
/// unrotated boxes), each with its edge index, how far A must move to leave B along it each
/// way ([`exits`]), and whether it is A's. Stops, returning `false`, when `weigh` does.
///
/// Both polygons are projected vertex by vertex, over a fixed number of slots chosen once per
/// pair for each polygon: 4 for one with no more than 4 corners (a box, a triangle), else 8. (A
/// box against an octagon is projected on the octagon's axes over its 4 slots, not over 8 of
/// which 4 repeat a corner.) A polygon's extent on its own axis is its projection too: it takes
/// both ends of the edge, which project equally only up to round-off, so that a corner of the
/// other polygon lying on the edge is never a gap of round-off away; a few vector multiplies,
/// fewer instructions than picking out the edge's ends and antipodes one by one.
/// [`sweep`](crate::sweep) weighs the same numbers, so the two agree on whether polygons touch
/// at the start.
#[inline]
pub(crate) fn each_axis(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
    weigh: impl FnMut((Vec2, u8), (f32, f32), bool) -> bool,
) -> bool {
    const ALL: usize = MAX_VERTICES;
    match (a.len <= 4, b.len <= 4) {
        (true, true) => each_axis_over::<4, 4>(a, b, weigh),
        (true, false) => each_axis_over::<4, ALL>(a, b, weigh),
        (false, true) => each_axis_over::<ALL, 4>(a, b, weigh),
        (false, false) => each_axis_over::<ALL, ALL>(a, b, weigh),
    }
}

/// [`each_axis`] with every vertex and edge of A in its first `A_SLOTS` slots, and of B in its
/// first `B_SLOTS`.
#[inline]
fn each_axis_over<const A_SLOTS: usize, const B_SLOTS: usize>(
    a: &ConvexPolygon,
    b: &ConvexPolygon,
    mut weigh: impl FnMut((Vec2, u8), (f32, f32), bool) -> bool,
) -> bool {
    let origin = a.vertices[0];
    // Both polygons relative to A's first vertex, laid out once for all the axes.
    let (a_lanes, b_lanes) = (a.lanes::<A_SLOTS>(origin), b.lanes::<B_SLOTS>(origin));
    for i in a.axis_indices() {
        let axis = a.normals[i];
        let (own, other) = a_lanes.project_with(&b_lanes, axis);
        let out = exits(own, other);
        if !weigh((axis, i as u8), out, true) {
            return false;
        }
    }
    for i in b.axis_indices() {
        let axis = b.normals[i];
        if a.has_axis::<A_SLOTS>(axis) {
            continue;
        }
        let (other, own) = a_lanes.project_with(&b_lanes, axis);
        let out = exits(other, own);
        if !weigh((axis, i as u8), out, false) {
            return false;
        }
    }
    true
}

/// Which part of a polygon is closest to a circle's centre: `(normal from the polygon towards
/// the circle, depth)`, or `None` when they are apart.
pub(crate) fn polygon_circle_feature(
    p: &ConvexPolygon,
    c: &Circle,
    margin: f32,
) -> Option<(Vec2, f32)> {
    let vertices = p.inline_vertices();
    let n = vertices.len();
    let (mut edge, mut separation) = (0, f32::NEG_INFINITY);
    for (i, (v, normal)) in vertices.iter().zip(p.inline_normals()).enumerate() {
        let s = normal.dot(c.center - *v);
        if s > separation {
            (edge, separation) = (i, s);
        }
    }
    if separation > c.radius + margin {
        return None;
    }
    let face = (p.normals[edge], c.radius - separation);
    if separation <= 0.0 {
        return Some(face); // the centre is inside: out through the nearest face
    }
    let (v1, v2) = (vertices[edge], vertices[(edge + 1) % n]);
    let corner = if (c.center - v1).dot(v2 - v1) < 0.0 {
        v1
    } else if (c.center - v2).dot(v1 - v2) < 0.0 {
        v2
    } else {
        return Some(face);
    };
    let offset = c.center - corner;
    if !within(offset, f64::from(c.radius) + f64::from(margin)) {
        return None;
    }
    // Within reach in f64, the f32 distance may still exceed the radius by round-off.
    Some((
        offset.try_normalize().unwrap_or(face.0),
        (c.radius - offset.length()).max(-margin),
    ))
}

/// Whether a circle of radius `reach` around a point holds the point `offset` away, for circles
/// and corners. Compared in `f64`, where the squares of `f32` coordinates are exact and the
/// comparison is about as good as the inputs: the test [`sweep`](crate::sweep) makes at the
/// start of its ray, so that the two agree on whether shapes touch.
#[inline]
pub(crate) fn within(offset: Vec2, reach: f64) -> bool {
    offset.as_dvec2().length_squared() <= reach * reach
}

/// The contact between a polygon (A) and a circle (B).
fn polygon_circle(a: &ConvexPolygon, b: &Circle, margin: f32) -> Option<Contact> {
    let (normal, depth) = polygon_circle_feature(a, b, margin)?;
    Some(Contact::one_point(
        normal,
        depth,
        b.center - normal * (b.radius - depth * 0.5),
    ))
}

/// The contact between two circles. Coincident centres are pushed apart along +y.
fn circle_circle(a: &Circle, b: &Circle, margin: f32) -> Option<Contact> {
    let offset = b.center - a.center;
    let radii = a.radius + b.radius;
    if !within(
        offset,
        f64::from(a.radius) + f64::from(b.radius) + f64::from(margin),
    ) {
        return None;
    }
    let distance = offset.length();
    let normal = offset.try_normalize().unwrap_or(Vec2::Y);
    let depth = (radii - distance).max(-margin);
    Some(Contact::one_point(
        normal,
        depth,
        a.center + normal * (a.radius - depth * 0.5),
    ))
}
