//! The shapes: [`ConvexPolygon`] (up to [`MAX_POLYGON_VERTICES`] corners: inline up to
//! [`MAX_VERTICES`], else holding a [`LargePolygon`], which is on the heap), [`Circle`], the rounded ones ([`Capsule`],
//! which is also a bare segment, and [`RoundedPolygon`]), and [`Shape`], which holds any of
//! them.

mod circle;
mod compound;
mod lanes;
mod large;
mod outline;
mod polygon;
mod polygon_error;
mod polygon_large;
mod polyline;
mod rounded;
mod rounded_placement;
#[cfg(feature = "serde")]
mod serde_impls;
mod view;

pub use circle::*;
pub use compound::*;
pub(crate) use lanes::aabb_of;
pub(crate) use large::read_points;
pub use large::*;
pub(crate) use outline::signed_twice_area;
pub use polygon::*;
pub use polygon_error::*;
pub(crate) use polygon_large::unique_axis_indices;
pub use polyline::MAX_POLYLINE_POINTS;
pub use rounded::*;
pub(crate) use rounded_placement::rounded_radius;
pub(crate) use view::PolygonView;

use glam::Vec2;

use crate::Aabb;

/// Any kind of convex shape, so one collider type can hold any of them.
///
/// Cloning is a copy of the inline shapes; a [`LargePolygon`]'s data is shared.
///
/// The queries take a shape through [`AsShape::as_shape`], which hands a large polygon to
/// their large-polygon path whichever variant holds it.
///
/// ```
/// # use sat_core::{Shape, ConvexPolygon, Circle, collide}; use glam::Vec2;
/// let floor: Shape = ConvexPolygon::rectangle(10.0, 1.0).into();
/// let ball: Shape = Circle::new(Vec2::new(0.0, 0.9), 0.5).unwrap().into();
/// let contact = collide(&ball, &floor).unwrap();
/// assert_eq!(contact.normal, Vec2::NEG_Y);
/// assert!((contact.depth - 0.1).abs() < 1e-6);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // shapes live inline on purpose: no allocation per body
pub enum Shape {
    /// A convex polygon; [`Shape::from`] puts one of more than [`MAX_VERTICES`] corners in
    /// [`Shape::Large`] instead (one held here anyway is queried as one).
    Polygon(ConvexPolygon),
    /// A circle.
    Circle(Circle),
    /// A capsule, or a bare segment (radius 0).
    Capsule(Capsule),
    /// A convex polygon with rounded corners.
    Rounded(RoundedPolygon),
    /// A convex polygon of more corners than [`MAX_VERTICES`], on the heap.
    Large(LargePolygon),
    /// Several convex parts in one frame, on the heap.
    Compound(Compound),
}

impl From<Capsule> for Shape {
    fn from(capsule: Capsule) -> Self {
        Self::Capsule(capsule)
    }
}

impl From<RoundedPolygon> for Shape {
    fn from(rounded: RoundedPolygon) -> Self {
        Self::Rounded(rounded)
    }
}

impl From<ConvexPolygon> for Shape {
    /// [`Shape::Polygon`] for a polygon held inline, [`Shape::Large`] for one of more than
    /// [`MAX_VERTICES`] corners.
    fn from(polygon: ConvexPolygon) -> Self {
        match polygon.large {
            Some(large) => Self::Large(large),
            None => Self::Polygon(polygon),
        }
    }
}

impl From<Circle> for Shape {
    fn from(circle: Circle) -> Self {
        Self::Circle(circle)
    }
}

/// A borrowed view of a shape: what the queries dispatch on.
#[derive(Clone, Copy, Debug)]
pub enum ShapeRef<'a> {
    /// A convex polygon held inline ([`AsShape::as_shape`] gives a larger one as
    /// [`ShapeRef::Large`]).
    Polygon(&'a ConvexPolygon),
    /// A circle.
    Circle(&'a Circle),
    /// A capsule, or a bare segment (radius 0).
    Capsule(&'a Capsule),
    /// A convex polygon with rounded corners.
    Rounded(&'a RoundedPolygon),
    /// A convex polygon of more corners than [`MAX_VERTICES`], on the heap.
    Large(&'a LargePolygon),
    /// Several convex parts in one frame.
    Compound(&'a Compound),
}

/// Anything the queries ([`overlap`](crate::overlap), [`collide`](crate::collide),
/// [`sweep`](crate::sweep)) accept: [`ConvexPolygon`], [`LargePolygon`], [`Circle`],
/// [`Capsule`], [`RoundedPolygon`] and [`Shape`].
pub trait AsShape {
    /// The shape as a borrowed view.
    fn as_shape(&self) -> ShapeRef<'_>;
}

impl AsShape for Circle {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        ShapeRef::Circle(self)
    }
}

impl AsShape for Capsule {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        ShapeRef::Capsule(self)
    }
}

impl AsShape for RoundedPolygon {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        ShapeRef::Rounded(self)
    }
}

impl AsShape for Compound {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        ShapeRef::Compound(self)
    }
}

impl AsShape for LargePolygon {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        ShapeRef::Large(self)
    }
}

impl AsShape for Shape {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        match self {
            Self::Polygon(p) => p.as_shape(),
            Self::Circle(c) => ShapeRef::Circle(c),
            Self::Capsule(c) => ShapeRef::Capsule(c),
            Self::Rounded(r) => ShapeRef::Rounded(r),
            Self::Large(p) => ShapeRef::Large(p),
            Self::Compound(c) => ShapeRef::Compound(c),
        }
    }
}

impl<T: AsShape + ?Sized> AsShape for &T {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        (**self).as_shape()
    }
}

impl ShapeRef<'_> {
    /// An owned copy of the shape.
    pub fn to_shape(&self) -> Shape {
        match *self {
            Self::Polygon(p) => Shape::from((*p).clone()),
            Self::Circle(c) => Shape::Circle(*c),
            Self::Capsule(c) => Shape::Capsule(*c),
            Self::Rounded(r) => Shape::Rounded((*r).clone()),
            Self::Large(p) => Shape::Large((*p).clone()),
            Self::Compound(c) => Shape::Compound((*c).clone()),
        }
    }

    /// The lowest and highest projection on a unit `axis`.
    #[inline]
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        match self {
            Self::Polygon(p) => p.project(axis),
            Self::Circle(c) => c.project(axis),
            Self::Capsule(c) => c.project(axis),
            Self::Rounded(r) => r.project(axis),
            Self::Large(p) => p.project(axis),
            Self::Compound(c) => c.project(axis),
        }
    }

    /// The lowest and highest projection on a unit `axis` of the shape moved by `offset`,
    /// without moving it: bit for bit what translating a copy and projecting it gives.
    ///
    /// ```
    /// # use sat_core::{AsShape, ConvexPolygon, Shape}; use glam::Vec2;
    /// let square = Shape::from(ConvexPolygon::rectangle(2.0, 2.0));
    /// let mut moved = square.clone();
    /// moved.translate(Vec2::new(3.0, 0.5));
    /// let axis = Vec2::X;
    /// assert_eq!(square.as_shape().project_moved(axis, Vec2::new(3.0, 0.5)), moved.as_shape().project(axis));
    /// ```
    #[inline]
    pub fn project_moved(&self, axis: Vec2, offset: Vec2) -> (f32, f32) {
        match self {
            Self::Polygon(p) => p.project_moved(axis, offset),
            Self::Circle(c) => {
                let center = (c.center() + offset).dot(axis);
                (center - c.radius(), center + c.radius())
            }
            Self::Capsule(c) => {
                let (s, e) = ((c.start + offset).dot(axis), (c.end + offset).dot(axis));
                (s.min(e) - c.radius, s.max(e) + c.radius)
            }
            Self::Rounded(r) => {
                let (lo, hi) = r.core.project_moved(axis, offset);
                (lo - r.radius, hi + r.radius)
            }
            Self::Large(p) => p.project_moved(axis, offset),
            Self::Compound(c) => c.project_moved(axis, offset),
        }
    }

    /// The tight axis-aligned bounding box.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        match self {
            Self::Polygon(p) => p.aabb(),
            Self::Circle(c) => Aabb {
                min: c.center - Vec2::splat(c.radius),
                max: c.center + Vec2::splat(c.radius),
            },
            Self::Capsule(c) => Aabb {
                min: c.start.min(c.end) - Vec2::splat(c.radius),
                max: c.start.max(c.end) + Vec2::splat(c.radius),
            },
            Self::Rounded(r) => {
                let core = r.core.bounds();
                Aabb {
                    min: core.min - Vec2::splat(r.radius),
                    max: core.max + Vec2::splat(r.radius),
                }
            }
            Self::Large(p) => p.aabb(),
            Self::Compound(c) => c.aabb(),
        }
    }

    /// The area centroid (of a rounded polygon, its core's: the same for a symmetric core,
    /// such as a rounded rectangle's).
    pub fn centroid(&self) -> Vec2 {
        match self {
            Self::Polygon(p) => p.centroid,
            Self::Circle(c) => c.center,
            Self::Capsule(c) => (c.start + c.end) * 0.5,
            Self::Rounded(r) => r.core.centroid,
            Self::Large(p) => p.centroid(),
            Self::Compound(c) => c.centroid(),
        }
    }
}

impl Shape {
    /// The tight axis-aligned bounding box.
    ///
    /// ```
    /// # use sat_core::{Shape, ConvexPolygon, Aabb}; use glam::Vec2;
    /// let s = Shape::from(ConvexPolygon::rectangle(2.0, 4.0));
    /// assert_eq!(s.aabb(), Aabb { min: Vec2::new(-1.0, -2.0), max: Vec2::new(1.0, 2.0) });
    /// ```
    #[inline]
    pub fn aabb(&self) -> Aabb {
        self.as_shape().aabb()
    }

    /// The area centroid (see [`ShapeRef::centroid`]).
    pub fn centroid(&self) -> Vec2 {
        self.as_shape().centroid()
    }

    /// Moves the shape by `offset` in place (cheaper than placing it again).
    #[inline]
    pub fn translate(&mut self, offset: Vec2) {
        match self {
            Self::Polygon(p) => p.translate(offset),
            Self::Circle(c) => c.center += offset,
            Self::Capsule(c) => {
                c.start += offset;
                c.end += offset;
            }
            Self::Rounded(r) => r.core.translate(offset),
            Self::Large(p) => p.translate(offset),
            Self::Compound(c) => c.translate(offset),
        }
    }
}
