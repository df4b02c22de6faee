//! The shapes: [`ConvexPolygon`], [`Circle`], and [`Shape`], which holds either.

mod circle;
mod lanes;
mod outline;
mod polygon;
#[cfg(feature = "serde")]
mod serde_impls;

pub use circle::*;
pub(crate) use lanes::aabb_of;
pub use polygon::*;

use glam::Vec2;

use crate::Aabb;

/// Either kind of convex shape, so one collider type can hold any of them.
///
/// ```
/// # use sat_core::{Shape, ConvexPolygon, Circle, collide}; use glam::Vec2;
/// let floor: Shape = ConvexPolygon::rectangle(10.0, 1.0).into();
/// let ball: Shape = Circle::new(Vec2::new(0.0, 0.9), 0.5).unwrap().into();
/// let contact = collide(&ball, &floor).unwrap();
/// assert_eq!(contact.normal, Vec2::NEG_Y);
/// assert!((contact.depth - 0.1).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // shapes live inline on purpose: no allocation per body
pub enum Shape {
    /// A convex polygon.
    Polygon(ConvexPolygon),
    /// A circle.
    Circle(Circle),
}

impl From<ConvexPolygon> for Shape {
    fn from(polygon: ConvexPolygon) -> Self {
        Self::Polygon(polygon)
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
    /// A convex polygon.
    Polygon(&'a ConvexPolygon),
    /// A circle.
    Circle(&'a Circle),
}

/// Anything the queries ([`overlap`](crate::overlap), [`collide`](crate::collide),
/// [`sweep`](crate::sweep)) accept: [`ConvexPolygon`], [`Circle`] and [`Shape`].
pub trait AsShape {
    /// The shape as a borrowed view.
    fn as_shape(&self) -> ShapeRef<'_>;
}

impl AsShape for ConvexPolygon {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        ShapeRef::Polygon(self)
    }
}

impl AsShape for Circle {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        ShapeRef::Circle(self)
    }
}

impl AsShape for Shape {
    #[inline]
    fn as_shape(&self) -> ShapeRef<'_> {
        match self {
            Self::Polygon(p) => ShapeRef::Polygon(p),
            Self::Circle(c) => ShapeRef::Circle(c),
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
    /// The lowest and highest projection on a unit `axis`.
    #[inline]
    pub fn project(&self, axis: Vec2) -> (f32, f32) {
        match self {
            Self::Polygon(p) => p.project(axis),
            Self::Circle(c) => c.project(axis),
        }
    }

    /// The lowest and highest projection on a unit `axis` of the shape moved by `offset`,
    /// without moving it: bit for bit what translating a copy and projecting it gives.
    ///
    /// ```
    /// # use sat_core::{AsShape, ConvexPolygon, Shape}; use glam::Vec2;
    /// let square = Shape::from(ConvexPolygon::rectangle(2.0, 2.0));
    /// let mut moved = square;
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
        }
    }

    /// The area centroid.
    pub fn centroid(&self) -> Vec2 {
        match self {
            Self::Polygon(p) => p.centroid,
            Self::Circle(c) => c.center,
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

    /// The area centroid.
    pub fn centroid(&self) -> Vec2 {
        self.as_shape().centroid()
    }

    /// Moves the shape by `offset` in place (cheaper than placing it again).
    #[inline]
    pub fn translate(&mut self, offset: Vec2) {
        match self {
            Self::Polygon(p) => p.translate(offset),
            Self::Circle(c) => c.center += offset,
        }
    }
}
