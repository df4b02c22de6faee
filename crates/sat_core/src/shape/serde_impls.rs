//! Serde support (feature `serde`): shapes serialize as their defining data and are validated
//! again when deserialized, so a file can never produce an invalid shape.

use glam::Vec2;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

use super::{Capsule, Circle, ConvexPolygon, LargePolygon, RoundedPolygon, Shape};

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
struct CapsuleData {
    start: Vec2,
    end: Vec2,
    radius: f32,
}

impl Serialize for Capsule {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CapsuleData {
            start: self.start,
            end: self.end,
            radius: self.radius,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Capsule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let data = CapsuleData::deserialize(deserializer)?;
        if data.radius == 0.0 {
            Capsule::segment(data.start, data.end)
        } else {
            Capsule::new(data.start, data.end, data.radius)
        }
        .map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
struct RoundedData {
    core: ConvexPolygon,
    radius: f32,
}

impl Serialize for RoundedPolygon {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RoundedData {
            core: self.core.clone(),
            radius: self.radius,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RoundedPolygon {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let data = RoundedData::deserialize(deserializer)?;
        RoundedPolygon::new(data.core, data.radius).map_err(D::Error::custom)
    }
}

#[derive(Serialize, Deserialize)]
#[allow(clippy::large_enum_variant)] // short-lived, on the stack
enum ShapeData {
    Polygon(ConvexPolygon),
    Circle(Circle),
    Capsule(Capsule),
    Rounded(RoundedPolygon),
    Large(Vec<Vec2>),
    /// The parts, placed in the compound's frame, with their internal-edge masks.
    Compound(Vec<(Shape, u16)>),
}

impl Serialize for LargePolygon {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.vertices().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LargePolygon {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let points = Vec::<Vec2>::deserialize(deserializer)?;
        LargePolygon::new(points).map_err(D::Error::custom)
    }
}

impl Serialize for Shape {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Shape::Polygon(p) => match p.as_large() {
                Some(large) => ShapeData::Large(large.vertices().to_vec()),
                None => ShapeData::Polygon(p.clone()),
            },
            Shape::Circle(c) => ShapeData::Circle(*c),
            Shape::Capsule(c) => ShapeData::Capsule(*c),
            Shape::Rounded(r) => ShapeData::Rounded(r.clone()),
            Shape::Large(p) => ShapeData::Large(p.vertices().to_vec()),
            Shape::Compound(c) => ShapeData::Compound(
                c.parts()
                    .iter()
                    .map(|p| (p.shape.clone(), p.internal))
                    .collect(),
            ),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Shape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match ShapeData::deserialize(deserializer)? {
            ShapeData::Polygon(p) => Shape::from(p),
            ShapeData::Circle(c) => Shape::Circle(c),
            ShapeData::Capsule(c) => Shape::Capsule(c),
            ShapeData::Rounded(r) => Shape::Rounded(r),
            ShapeData::Large(points) => {
                Shape::Large(LargePolygon::new(points).map_err(D::Error::custom)?)
            }
            ShapeData::Compound(parts) => Shape::Compound(
                super::Compound::new(parts.into_iter().map(|(s, m)| (Vec2::ZERO, 0.0, s, m)))
                    .map_err(D::Error::custom)?,
            ),
        })
    }
}
