//! The parts of Tiled's JSON map format (`.tmj`) that the platformer reads, as Tiled writes them
//! (<https://doc.mapeditor.org/en/stable/reference/json-map-format/>). Fields the game does not
//! use are ignored; the ones it uses and Tiled always writes are required, so a file missing
//! one is refused with serde's message naming the field and where it is.

use serde::Deserialize;

/// A map: its size in tiles, the size of a tile, its layers and tilesets.
#[derive(Deserialize, Debug)]
pub struct Map {
    /// Always `"map"`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `"orthogonal"` is the only one a grid of rectangles can be made of.
    pub orientation: String,
    /// An infinite map stores its tiles in chunks instead of one array per layer.
    pub infinite: bool,
    pub width: u32,
    pub height: u32,
    pub tilewidth: f64,
    pub tileheight: f64,
    pub layers: Vec<Layer>,
    pub tilesets: Vec<Tileset>,
    #[serde(default)]
    pub properties: Vec<Property>,
}

/// A layer: tiles, objects, or a kind the game skips (image layers, groups).
#[derive(Deserialize, Debug)]
pub struct Layer {
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    /// Tile layers: the size in tiles (a fixed-size map's layers are as large as the map).
    #[serde(default)]
    pub width: u32,
    #[serde(default)]
    pub height: u32,
    /// Tile layers: `"csv"` (or absent) for an array of tile ids, `"base64"` for a string.
    #[serde(default)]
    pub encoding: Option<String>,
    /// Tile layers: the global tile ids, row by row from the top; kept as JSON until the
    /// encoding is known to be an array.
    #[serde(default)]
    pub data: Option<serde_json::Value>,
    /// Object layers.
    #[serde(default)]
    pub objects: Vec<Object>,
}

/// An embedded tileset, or a reference to an external one (`source`).
#[derive(Deserialize, Debug)]
pub struct Tileset {
    pub firstgid: u32,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub tilecount: u32,
    /// The tiles that have properties (others have none).
    #[serde(default)]
    pub tiles: Vec<TileInfo>,
}

/// One tile's data in a tileset: its local id and its custom properties.
#[derive(Deserialize, Debug)]
pub struct TileInfo {
    pub id: u32,
    #[serde(default)]
    pub properties: Vec<Property>,
}

/// A placed object: a rectangle, a point or a polygon, in pixels from the map's top-left corner
/// with y down.
#[derive(Deserialize, Debug)]
pub struct Object {
    pub id: u32,
    #[serde(default)]
    pub name: String,
    /// The object's class (written as `type`; Tiled 1.9 wrote `class`).
    #[serde(default, rename = "type", alias = "class")]
    pub kind: String,
    pub x: f64,
    pub y: f64,
    #[serde(default)]
    pub width: f64,
    #[serde(default)]
    pub height: f64,
    #[serde(default)]
    pub rotation: f64,
    #[serde(default)]
    pub point: bool,
    #[serde(default)]
    pub ellipse: bool,
    /// Relative to (`x`, `y`).
    #[serde(default)]
    pub polygon: Option<Vec<PolyPoint>>,
    #[serde(default)]
    pub polyline: Option<Vec<PolyPoint>>,
    #[serde(default)]
    pub properties: Vec<Property>,
}

/// A vertex of a polygon object.
#[derive(Deserialize, Debug, Clone, Copy)]
pub struct PolyPoint {
    pub x: f64,
    pub y: f64,
}

/// A custom property: a name, a type (`string`, `float`, `color`, `object`, …) and a value.
#[derive(Deserialize, Debug)]
pub struct Property {
    pub name: String,
    #[serde(rename = "type", default = "string_type")]
    pub kind: String,
    pub value: serde_json::Value,
}

fn string_type() -> String {
    "string".to_owned()
}

/// The property called `name`, if there is one.
pub fn property<'a>(properties: &'a [Property], name: &str) -> Option<&'a Property> {
    properties.iter().find(|p| p.name == name)
}
