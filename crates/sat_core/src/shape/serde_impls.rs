//! Serde support (feature `serde`): shapes serialize as their defining data and are validated
//! again when deserialized, so a file can never produce an invalid shape.

use glam::Vec2;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

use super::{Circle, ConvexPolygon, Shape};

impl Serialize for ConvexPolygon {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.vertices().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ConvexPolygon {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let points = Vec::<Vec2>::deserialize(deserializer)?;
        ConvexPolygon::new(points).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
struct CircleData {
    center: Vec2,
    radius: f32,
}

impl Serialize for Circle {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CircleData {
            center: self.center,
            radius: self.radius,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Circle {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let data = CircleData::deserialize(deserializer)?;
        Circle::new(data.center, data.radius).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // short-lived, on the stack
enum ShapeData {
    Polygon(ConvexPolygon),
    Circle(Circle),
}

impl Serialize for Shape {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Shape::Polygon(p) => ShapeData::Polygon(p),
            Shape::Circle(c) => ShapeData::Circle(c),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match ShapeData::deserialize(deserializer)? {
            ShapeData::Polygon(p) => Shape::Polygon(p),
            ShapeData::Circle(c) => Shape::Circle(c),
        })
    }
}
