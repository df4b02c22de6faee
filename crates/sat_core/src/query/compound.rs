//! The queries when either shape is a [`Compound`](crate::Compound): each is answered over the parts, and
//! [`collide_parts`] and [`sweep_parts`] also say which parts met.
//!
//! A compound's contact is the deepest of its parts' contacts, each found with the part's
//! internal edges (the faces it shares with another part) never a way out: a contact whose
//! normal lies along one is measured again on the part's open faces and the other shape's.

use glam::Vec2;

use super::collide::{AxisOverlap, collide_within, least_overlap_inline};
use super::contact::{Contact, Hit};
use super::sweep::sweep;
use crate::Aabb;
use crate::shape::{AsShape, ConvexPolygon, ShapeRef};

/// Normals closer than this to each other lie along the same edge.
const ALONG: f32 = 0.9999;

/// A contact between two shapes and the parts it is between.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartContact {
    /// The contact, as [`collide_within`] gives it.
    pub contact: Contact,
    /// The index of A's part in [`Compound::parts`](crate::Compound::parts); `None` when A is not a compound.
    pub part_a: Option<usize>,
    /// The index of B's part; `None` when B is not a compound.
    pub part_b: Option<usize>,
}

/// A sweep's hit between two shapes and the parts that meet first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartHit {
    /// The hit, as [`sweep`] gives it.
    pub hit: Hit,
    /// The index of A's part in [`Compound::parts`](crate::Compound::parts); `None` when A is not a compound.
    pub part_a: Option<usize>,
    /// The index of B's part; `None` when B is not a compound.
    pub part_b: Option<usize>,
}

/// The parts of a shape with their indices and internal-edge masks: a shape that is not a
/// compound is its own single part (index `None`, no internal edges).
pub(crate) fn parts_of(
    shape: ShapeRef<'_>,
) -> impl Iterator<Item = (Option<usize>, ShapeRef<'_>, u16)> {
    let (list, single) = match shape {
        ShapeRef::Compound(c) => (c.parts(), None),
        other => (&[][..], Some(other)),
    };
    list.iter()
        .enumerate()
        .map(|(i, p)| (Some(i), p.shape.as_shape(), p.internal))
        .chain(single.map(|s| (None, s, 0)))
}

/// Whether either shape is a compound.
#[inline]
pub(crate) fn is_compound(a: ShapeRef<'_>, b: ShapeRef<'_>) -> bool {
    matches!(a, ShapeRef::Compound(_)) || matches!(b, ShapeRef::Compound(_))
}

/// Whether two boxes come within `margin` of each other.
fn near(a: Aabb, b: Aabb, margin: f32) -> bool {
    a.min.x <= b.max.x + margin
        && b.min.x <= a.max.x + margin
        && a.min.y <= b.max.y + margin
        && b.min.y <= a.max.y + margin
}

/// The contact of two shapes, either or both compounds, within `margin` (as
/// [`collide_within`]), with the parts it is between: the deepest contact over every pair of
/// parts, none of them along a part's internal edge. Of equal depths the first pair (in part
/// order, A's parts outermost) is kept.
///
/// ```
/// # use sat_core::{collide_parts, Compound, ConvexPolygon, Pose, Shape}; use glam::Vec2;
/// // A floor of two flush halves, the seam between them internal (bit 1: the right edge of
/// // the left half; bit 3: the left edge of the right half).
/// let half = Shape::from(ConvexPolygon::rectangle(2.0, 2.0));
/// let floor = Compound::new([
///     (Vec2::new(-1.0, 0.0), 0.0, half.clone(), 1 << 1),
///     (Vec2::new(1.0, 0.0), 0.0, half, 1 << 3),
/// ]).unwrap();
/// // A box sunk 0.25 into the floor just left of the seam is pushed up, never sideways.
/// let bx = ConvexPolygon::rectangle(1.0, 1.0)
///     .transformed(&Pose::from_translation(Vec2::new(-0.4, 1.25))).unwrap();
/// let found = collide_parts(&bx, &floor, 0.0).unwrap();
/// assert_eq!(found.contact.normal, Vec2::NEG_Y);
/// assert_eq!(found.contact.depth, 0.25);
/// assert_eq!((found.part_a, found.part_b), (None, Some(0)));
/// ```
pub fn collide_parts<A: AsShape + ?Sized, B: AsShape + ?Sized>(
    a: &A,
    b: &B,
    margin: f32,
) -> Option<PartContact> {
    let margin = if margin > 0.0 { margin } else { 0.0 };
    // The deepest pair first, by depth alone; its contact points are clipped once, at the end.
    let mut best: Option<(Found, Option<usize>, Option<usize>)> = None;
    for (part_a, shape_a, mask_a) in parts_of(a.as_shape()) {
        let box_a = shape_a.aabb();
        for (part_b, shape_b, mask_b) in parts_of(b.as_shape()) {
            if !near(box_a, shape_b.aabb(), margin) {
                continue;
            }
            let Some(found) = part_depth(shape_a, mask_a, shape_b, mask_b, margin) else {
                continue;
            };
            if best
                .as_ref()
                .is_none_or(|(best, ..)| found.depth() > best.depth())
            {
                best = Some((found, part_a, part_b));
            }
        }
    }
    let (found, part_a, part_b) = best?;
    let contact = match found {
        Found::Contact(contact) => contact,
        Found::Axis(axis, pa, pb) => axis.contact(pa, pb),
    };
    Some(PartContact {
        contact,
        part_a,
        part_b,
    })
}

/// A pair of parts' contact, or for two polygons its axis alone (the points are clipped only
/// for the deepest pair).
enum Found<'a> {
    Contact(Contact),
    Axis(AxisOverlap, &'a ConvexPolygon, &'a ConvexPolygon),
}

impl Found<'_> {
    fn depth(&self) -> f32 {
        match self {
            Found::Contact(c) => c.depth,
            Found::Axis(axis, ..) => axis.depth,
        }
    }
}

/// The depth of two convex parts' contact, never along either's internal edge: for two
/// polygons whose least axis is open, that axis; else the full contact.
fn part_depth<'a>(
    a: ShapeRef<'a>,
    mask_a: u16,
    b: ShapeRef<'a>,
    mask_b: u16,
    margin: f32,
) -> Option<Found<'a>> {
    if let (ShapeRef::Polygon(pa), ShapeRef::Polygon(pb)) = (a, b) {
        let axis = least_overlap_inline(pa, pb, margin)?;
        if !along_internal(a, mask_a, axis.normal) && !along_internal(b, mask_b, -axis.normal) {
            return Some(Found::Axis(axis, pa, pb));
        }
    }
    part_contact(a, mask_a, b, mask_b, margin).map(Found::Contact)
}

/// The contact of two convex parts, never along either's internal edge.
fn part_contact(
    a: ShapeRef<'_>,
    mask_a: u16,
    b: ShapeRef<'_>,
    mask_b: u16,
    margin: f32,
) -> Option<Contact> {
    let contact = collide_within(&a, &b, margin)?;
    if !along_internal(a, mask_a, contact.normal) && !along_internal(b, mask_b, -contact.normal) {
        return Some(contact);
    }
    Some(open_contact(a, mask_a, b, mask_b, &contact))
}

/// Whether `outward` lies along the outward normal of one of `shape`'s internal edges.
fn along_internal(shape: ShapeRef<'_>, mask: u16, outward: Vec2) -> bool {
    match shape {
        ShapeRef::Polygon(p) if mask != 0 => p
            .normals()
            .iter()
            .enumerate()
            .any(|(i, n)| mask >> i & 1 != 0 && n.dot(outward) > ALONG),
        _ => false,
    }
}

/// The open edge normals of a polygon part (every one if it has no internal edge); none for
/// other shapes.
fn open_normals(shape: ShapeRef<'_>, mask: u16) -> impl Iterator<Item = (usize, Vec2)> + '_ {
    let normals: &[Vec2] = match shape {
        ShapeRef::Polygon(p) => p.normals(),
        ShapeRef::Large(p) => p.normals(),
        _ => &[],
    };
    normals
        .iter()
        .copied()
        .enumerate()
        .filter(move |(i, _)| *i >= 16 || mask >> i & 1 == 0)
}

/// The contact of `a` and `b` on the axis of least overlap among the open edge normals of
/// both (A's pointing from A to B as they are, B's reversed) that lie along neither's internal
/// edges: the way out that does not lead through an internal face. `found` (the contact along an internal face) when neither has an
/// open edge normal.
fn open_contact(
    a: ShapeRef<'_>,
    mask_a: u16,
    b: ShapeRef<'_>,
    mask_b: u16,
    found: &Contact,
) -> Contact {
    // (depth, normal, edge, of A)
    let mut best: Option<(f32, Vec2, usize, bool)> = None;
    let mut weigh = |normal: Vec2, edge: usize, on_a: bool| {
        // One shape's face may lie along the other's internal edge: no way out either.
        if along_internal(a, mask_a, normal) || along_internal(b, mask_b, -normal) {
            return;
        }
        let depth = a.project(normal).1 - b.project(normal).0;
        if best.is_none_or(|(d, ..)| depth < d) {
            best = Some((depth, normal, edge, on_a));
        }
    };
    for (i, n) in open_normals(a, mask_a) {
        weigh(n, i, true);
    }
    for (j, m) in open_normals(b, mask_b) {
        weigh(-m, j, false);
    }
    let Some((depth, normal, edge, on_a)) = best else {
        return *found;
    };
    if let (ShapeRef::Polygon(pa), ShapeRef::Polygon(pb), Ok(edge)) = (a, b, u8::try_from(edge)) {
        let axis = AxisOverlap {
            normal,
            depth,
            on_a,
            edge,
            along_edge: on_a,
        };
        return axis.contact(pa, pb);
    }
    match *found.points() {
        [one] => Contact::one_point(normal, depth, one),
        [first, second] => Contact::two_points(normal, depth, [first, second]),
        _ => Contact::one_point(normal, depth, found.points()[0]),
    }
}

/// [`collide_within`] when either shape is a compound.
pub(crate) fn collide(a: ShapeRef<'_>, b: ShapeRef<'_>, margin: f32) -> Option<Contact> {
    collide_parts(&a, &b, margin).map(|found| found.contact)
}

/// [`overlap`](crate::overlap) when either shape is a compound: whether any two parts overlap.
pub(crate) fn overlap(a: ShapeRef<'_>, b: ShapeRef<'_>) -> bool {
    parts_of(a).any(|(_, pa, _)| {
        let box_a = pa.aabb();
        parts_of(b).any(|(_, pb, _)| near(box_a, pb.aabb(), 0.0) && crate::overlap(&pa, &pb))
    })
}

/// The first hit of A translating by `motion` against B, either or both compounds, with the
/// parts that meet: shapes that overlap or touch at the start give `toi == 0` and their contact
/// ([`collide_parts`]); else the earliest hit over every pair of parts (of equal times, the
/// first pair). `None` for a non-finite motion or no hit.
///
/// ```
/// # use sat_core::{sweep_parts, Compound, ConvexPolygon, Pose, Shape}; use glam::Vec2;
/// let post = Shape::from(ConvexPolygon::rectangle(1.0, 4.0));
/// let gate = Compound::new([
///     (Vec2::new(-5.0, 0.0), 0.0, post.clone(), 0),
///     (Vec2::new(5.0, 0.0), 0.0, post, 0),
/// ]).unwrap();
/// let bx = ConvexPolygon::rectangle(1.0, 1.0)
///     .transformed(&Pose::from_translation(Vec2::new(10.0, 0.0))).unwrap();
/// // Moving left by 20 it meets the right post first: its left face at x = 9.5 reaches 5.5.
/// let found = sweep_parts(&bx, &gate, Vec2::new(-20.0, 0.0)).unwrap();
/// assert_eq!(found.hit.toi, 0.2);
/// assert_eq!(found.part_b, Some(1));
/// ```
pub fn sweep_parts<A: AsShape + ?Sized, B: AsShape + ?Sized>(
    a: &A,
    b: &B,
    motion: Vec2,
) -> Option<PartHit> {
    if !motion.is_finite() {
        return None;
    }
    let (a, b) = (a.as_shape(), b.as_shape());
    if let Some(found) = collide_parts(&a, &b, 0.0) {
        return Some(PartHit {
            hit: Hit {
                toi: 0.0,
                normal: found.contact.normal,
                depth: found.contact.depth,
            },
            part_a: found.part_a,
            part_b: found.part_b,
        });
    }
    let mut best: Option<PartHit> = None;
    for (part_a, shape_a, _) in parts_of(a) {
        let start = shape_a.aabb();
        let swept = Aabb {
            min: start.min + motion.min(Vec2::ZERO),
            max: start.max + motion.max(Vec2::ZERO),
        };
        for (part_b, shape_b, _) in parts_of(b) {
            if !near(swept, shape_b.aabb(), 0.0) {
                continue;
            }
            let Some(hit) = sweep(&shape_a, &shape_b, motion) else {
                continue;
            };
            if best.is_none_or(|best| hit.toi < best.hit.toi) {
                best = Some(PartHit {
                    hit,
                    part_a,
                    part_b,
                });
            }
        }
    }
    best
}

/// The shape of part `index` (the shape itself when it is no compound or `index` is `None`).
fn part(shape: ShapeRef<'_>, index: Option<usize>) -> ShapeRef<'_> {
    match (shape, index) {
        (ShapeRef::Compound(c), Some(i)) => c.parts().get(i).map_or(shape, |p| p.shape.as_shape()),
        _ => shape,
    }
}

/// [`Hit::point`] when either shape is a compound: the point where the parts that meet first
/// touch.
pub(crate) fn hit_point(hit: &Hit, a: ShapeRef<'_>, b: ShapeRef<'_>, motion: Vec2) -> Vec2 {
    let motion = if motion.is_finite() {
        motion
    } else {
        Vec2::ZERO
    };
    match sweep_parts(&a, &b, motion) {
        Some(found) => {
            let (pa, pb) = (part(a, found.part_a), part(b, found.part_b));
            if found.hit.toi <= 0.0 {
                let contact = collide_parts(&pa, &pb, f32::INFINITY).map(|c| c.contact);
                if let Some(contact) = contact {
                    let points = contact.points();
                    return points.iter().copied().sum::<Vec2>() / points.len() as f32;
                }
            }
            hit.point(&pa, &pb, motion)
        }
        None => a.centroid(),
    }
}

/// [`sweep`] when either shape is a compound.
pub(crate) fn sweep_compound(a: ShapeRef<'_>, b: ShapeRef<'_>, motion: Vec2) -> Option<Hit> {
    sweep_parts(&a, &b, motion).map(|found| found.hit)
}
