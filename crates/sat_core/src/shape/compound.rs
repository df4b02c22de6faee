//! [`Compound`]: a shape made of several convex parts placed in one frame (a crate with a
//! handle, an L-shaped wall, a concave outline split into convex pieces), shared on the heap.
//!
//! Each part may say which of its edges are internal: faces where it meets another part of the
//! same compound, which are never a way out of it (see [`collide`](crate::collide)).

use std::sync::Arc;

use glam::{DVec2, Vec2};

use super::{AsShape, PolygonError, Shape, ShapeRef};
use crate::ConvexParts;
use crate::{Aabb, Pose, TransformError};

/// One part of a [`Compound`]: a convex shape in the compound's frame, and the edges of it that
/// are internal (bit `i`: the edge from vertex `i` to `i + 1` of a polygon part, in its stored
/// order; only polygons have edges, and only the first 16 count).
#[derive(Clone, Debug, PartialEq)]
pub struct CompoundPart {
    /// The part, placed in the compound's frame. Never itself a compound.
    pub shape: Shape,
    /// Its internal edges: faces shared with another part, never a push axis.
    pub internal: u16,
}

impl CompoundPart {
    /// The internal-edge mask of this part once placed as `placed` by `pose` (its edges
    /// renumbered when a mirror reverses the vertex order; none if placing merged corners).
    pub fn internal_when_placed(&self, placed: &Shape, pose: &Pose) -> u16 {
        placed_mask(&self.shape, self.internal, placed, pose)
    }
}

/// A shape made of convex parts, each placed in the compound's own frame.
///
/// Every query takes it, against every shape: it overlaps what any part overlaps, its contact
/// is the deepest of its parts' contacts (never along an internal edge), its sweep the
/// earliest of its parts'. Its data is on the heap behind an [`Arc`]: a clone shares it, and
/// moving or placing a compound that is not shared writes in place.
///
/// ```
/// # use sat_core::{Compound, ConvexPolygon, Shape, PolygonError}; use glam::Vec2;
/// // A crate with a handle on top.
/// let body = Shape::from(ConvexPolygon::rectangle(2.0, 2.0));
/// let handle = Shape::from(ConvexPolygon::rectangle(1.0, 0.5));
/// let crate_ = Compound::new([(Vec2::ZERO, 0.0, body, 0), (Vec2::new(0.0, 1.25), 0.0, handle, 0)])?;
/// assert_eq!(crate_.parts().len(), 2);
/// assert_eq!(crate_.aabb().max, Vec2::new(1.0, 1.5));
/// assert_eq!(Compound::new([]).unwrap_err(), PolygonError::NoParts);
/// # Ok::<(), PolygonError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Compound {
    data: Arc<CompoundData>,
}

/// What a [`Compound`] holds.
#[derive(Clone, Debug, PartialEq)]
struct CompoundData {
    parts: Vec<CompoundPart>,
    aabb: Aabb,
    centroid: Vec2,
}

impl CompoundData {
    /// The parts with their bounding box and area centroid.
    fn of(parts: Vec<CompoundPart>) -> Self {
        let mut aabb = parts.first().map_or(
            Aabb {
                min: Vec2::ZERO,
                max: Vec2::ZERO,
            },
            |p| p.shape.aabb(),
        );
        let (mut weighted, mut total) = (DVec2::ZERO, 0.0);
        for part in &parts {
            let b = part.shape.aabb();
            aabb.min = aabb.min.min(b.min);
            aabb.max = aabb.max.max(b.max);
            let area = area_of(part.shape.as_shape());
            weighted += part.shape.centroid().as_dvec2() * area;
            total += area;
        }
        let centroid = if total > 0.0 {
            (weighted / total).as_vec2()
        } else {
            (aabb.min + aabb.max) * 0.5
        };
        Self {
            parts,
            aabb,
            centroid,
        }
    }
}

/// The area of a convex shape, in `f64`.
fn area_of(shape: ShapeRef<'_>) -> f64 {
    let polygon = |points: &[Vec2]| {
        let n = points.len();
        (0..n)
            .map(|i| {
                points[i]
                    .as_dvec2()
                    .perp_dot(points[(i + 1) % n].as_dvec2())
            })
            .sum::<f64>()
            .abs()
            * 0.5
    };
    let disc = |r: f32| core::f64::consts::PI * f64::from(r) * f64::from(r);
    match shape {
        ShapeRef::Polygon(p) => polygon(p.vertices()),
        ShapeRef::Large(p) => polygon(p.vertices()),
        ShapeRef::Circle(c) => disc(c.radius),
        ShapeRef::Capsule(c) => {
            disc(c.radius) + 2.0 * f64::from(c.radius) * f64::from(c.start.distance(c.end))
        }
        ShapeRef::Rounded(r) => {
            let v = r.core.vertices();
            let perimeter: f32 = (0..v.len())
                .map(|i| v[i].distance(v[(i + 1) % v.len()]))
                .sum();
            polygon(v) + f64::from(perimeter) * f64::from(r.radius) + disc(r.radius)
        }
        ShapeRef::Compound(c) => c.parts().iter().map(|p| area_of(p.shape.as_shape())).sum(),
    }
}

impl Compound {
    /// A compound of `parts`, each a shape at an offset and a rotation (radians,
    /// counter-clockwise) in the compound's frame with its internal-edge mask (see
    /// [`CompoundPart::internal`], counted on the part as given). A part that is itself a
    /// compound is flattened: its parts are placed in turn.
    ///
    /// # Errors
    /// [`PolygonError::NoParts`] for no parts; [`PolygonError::PartOutOfRange`] for a part
    /// whose offset or rotation is not finite or whose placed shape is out of range.
    pub fn new(
        parts: impl IntoIterator<Item = (Vec2, f32, Shape, u16)>,
    ) -> Result<Self, PolygonError> {
        let mut placed = Vec::new();
        for (index, (offset, rotation, shape, internal)) in parts.into_iter().enumerate() {
            if !offset.is_finite() || !rotation.is_finite() {
                return Err(PolygonError::PartOutOfRange { index });
            }
            let pose = Pose {
                translation: offset,
                rotation: Vec2::from_angle(rotation),
                scale: Vec2::ONE,
            };
            let flat: Vec<(Shape, u16)> = match shape {
                Shape::Compound(inner) => inner
                    .parts()
                    .iter()
                    .map(|p| (p.shape.clone(), p.internal))
                    .collect(),
                other => vec![(other, internal)],
            };
            for (shape, internal) in flat {
                let part = place_part(&shape, internal, &pose)
                    .map_err(|_| PolygonError::PartOutOfRange { index })?;
                placed.push(part);
            }
        }
        if placed.is_empty() {
            return Err(PolygonError::NoParts);
        }
        Ok(Self {
            data: Arc::new(CompoundData::of(placed)),
        })
    }

    /// The convex parts of a decomposed outline ([`convex_decomposition`](crate::convex_decomposition)),
    /// internal edges kept.
    ///
    /// # Errors
    /// [`PolygonError::NoParts`] if there are none (a decomposition always has one).
    pub fn from_parts(parts: ConvexParts) -> Result<Self, PolygonError> {
        let (polygons, masks) = parts.into_parts();
        Self::new(
            polygons
                .into_iter()
                .zip(masks)
                .map(|(p, m)| (Vec2::ZERO, 0.0, Shape::from(p), m)),
        )
    }

    /// The parts, in the order given.
    pub fn parts(&self) -> &[CompoundPart] {
        &self.data.parts
    }

    /// The tight box around every part.
    pub fn aabb(&self) -> Aabb {
        self.data.aabb
    }

    /// The area centroid of the parts (overlaps between parts counted twice).
    pub fn centroid(&self) -> Vec2 {
        self.data.centroid
    }

    /// The lowest and highest projection of any part on a unit `axis`.
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        self.project_moved(axis, Vec2::ZERO)
    }

    /// As [`project`](Self::project), for the compound moved by `offset`.
    pub(crate) fn project_moved(&self, axis: Vec2, offset: Vec2) -> (f32, f32) {
        self.parts()
            .iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                let (a, b) = p.shape.as_shape().project_moved(axis, offset);
                (lo.min(a), hi.max(b))
            })
    }

    /// Moves every part by `offset` (in place unless the data is shared).
    pub fn translate(&mut self, offset: Vec2) {
        let data = Arc::make_mut(&mut self.data);
        for part in &mut data.parts {
            part.shape.translate(offset);
        }
        data.aabb.min += offset;
        data.aabb.max += offset;
        data.centroid += offset;
    }

    /// Writes this (local) compound placed by `pose` into `out` (in place when it holds a
    /// compound of as many parts not shared with another), and returns its AABB. On error `out`
    /// is left unchanged, except when it was written in place: then its parts before the one
    /// that could not be placed are placed, and its box is stale.
    ///
    /// # Errors
    /// [`TransformError`] for a non-finite pose, a zero scale, or a part out of range.
    pub fn transform_into(&self, pose: &Pose, out: &mut Shape) -> Result<Aabb, TransformError> {
        pose.check()?;
        if let Shape::Compound(world) = out
            && world.parts().len() == self.parts().len()
            && let Some(data) = Arc::get_mut(&mut world.data)
        {
            let mut aabb: Option<Aabb> = None;
            for (local, world) in self.parts().iter().zip(data.parts.iter_mut()) {
                let placed = local.shape.transform_into(pose, &mut world.shape)?;
                world.internal = placed_mask(&local.shape, local.internal, &world.shape, pose);
                aabb = Some(aabb.map_or(placed, |b| Aabb {
                    min: b.min.min(placed.min),
                    max: b.max.max(placed.max),
                }));
            }
            // The centroid moves with the parts (their areas all scale alike).
            data.centroid = pose.transform_point(self.data.centroid);
            data.aabb = aabb.unwrap_or(data.aabb);
            return Ok(data.aabb);
        }
        let parts = self
            .parts()
            .iter()
            .map(|p| place_part(&p.shape, p.internal, pose))
            .collect::<Result<Vec<_>, _>>()?;
        let data = CompoundData::of(parts);
        let aabb = data.aabb;
        *out = Shape::Compound(Self {
            data: Arc::new(data),
        });
        Ok(aabb)
    }
}

/// `shape` placed by `pose`, with its internal-edge mask following its edges.
fn place_part(shape: &Shape, internal: u16, pose: &Pose) -> Result<CompoundPart, TransformError> {
    let placed = shape.transformed(pose)?;
    Ok(CompoundPart {
        internal: placed_mask(shape, internal, &placed, pose),
        shape: placed,
    })
}

/// The internal-edge mask of `local` once placed by `pose` as `placed`: the same edges,
/// renumbered when a mirror reverses the vertex order; none if placing merged corners (the
/// edges no longer match).
fn placed_mask(local: &Shape, internal: u16, placed: &Shape, pose: &Pose) -> u16 {
    let (Shape::Polygon(p), Shape::Polygon(q)) = (local, placed) else {
        return 0;
    };
    let n = p.vertices().len();
    if internal == 0 || q.vertices().len() != n {
        return 0;
    }
    if pose.scale.x * pose.scale.y >= 0.0 {
        return internal;
    }
    // Mirrored: world edge k is local edge (2n - 2 - k) mod n.
    (0..n)
        .filter(|&k| internal >> ((2 * n - 2 - k) % n) & 1 != 0)
        .fold(0, |mask, k| mask | 1 << k)
}

impl From<Compound> for Shape {
    fn from(compound: Compound) -> Self {
        Self::Compound(compound)
    }
}
