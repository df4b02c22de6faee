//! The platformer's level, read from a Tiled map (`.tmj`, Tiled's JSON format) before the game
//! starts: tile layers become one [`TileGrid`] (which tiles are solid or one-way is each tile's
//! `collision` property in the tileset), object layers place the player, crates, coins, blocks,
//! hazards, the sentry, moving platforms, the checkpoint and the goal (by each object's class).
//!
//! The file is read with `std::fs` rather than through Bevy's assets, so that a bad file stops
//! the game before any window opens, with one message naming the file and the problem, and so
//! that the headless tests load it the same way.
//!
//! Map conventions (see `assets/platformer/level.tmj`):
//! - the map's custom properties `origin_x` and `origin_y` (floats, default 0) place its
//!   bottom-left corner in the world; Tiled's y points down, the world's up;
//! - each tile's properties: `collision` = `solid`, `oneway` or `none` (the default), and
//!   `color` (drawn with it);
//! - objects by class: `player` (a point, exactly one), `crate`, `handle_crate` (a crate with
//!   a handle on top, the size of the box without it), `block` (a rectangle or a
//!   convex polygon, with a `color`), `coin` (a point), `hazard`, `checkpoint`, `goal`,
//!   `sentry` (its laser points right), `platform` (moves to the object its `to` property names,
//!   at `speed` units/s, pausing `pause` s at each end) and `waypoint` (a point, for `to`).
//!   Names matter for three: the crate named `push_crate`, the platforms `ferry` and `elevator`.

use std::fmt;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_sat::prelude::*;

use crate::level_objects::{Thing, ThingKind, things};
use crate::tmj::{self, Map};

/// Where the shipped level is: found from the crate's directory, so `cargo run` works from any
/// working directory.
pub fn default_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/platformer/level.tmj")
}

/// The most tiles a map may have (a grid of 1024 × 1024 tiles): far more than a level needs,
/// and small enough that a wrong size in a file cannot ask for gigabytes.
pub const MAX_TILES: u64 = 1 << 20;

/// A level file could not be used: the file, and what is wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong, in a sentence.
    pub problem: String,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for LevelError {}

/// A rectangle of equal tiles to draw, in world units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TileArt {
    pub min: Vec2,
    pub size: Vec2,
    pub color: Color,
}

/// Everything a level file holds, checked and in world units, ready to spawn.
#[derive(Resource, Debug, Clone)]
pub struct Level {
    /// The collision of every tile layer.
    pub grid: TileGrid,
    /// Where the grid's bottom-left corner is.
    pub origin: Vec2,
    /// What the tile layers look like: rectangles of equal tiles.
    pub art: Vec<TileArt>,
    /// The objects.
    pub things: Vec<Thing>,
}

impl Level {
    /// Where the player starts (a level always has exactly one player).
    pub fn start(&self) -> Vec2 {
        self.things
            .iter()
            .find(|t| matches!(t.kind, ThingKind::Player))
            .map_or(Vec2::ZERO, |t| t.at)
    }
}

/// Reads and checks the level at `path`.
///
/// # Errors
/// A [`LevelError`] naming the file and the first problem found: it cannot be read, is not
/// JSON (a truncated file), is not an orthogonal fixed-size Tiled map, is too large, has a tile
/// layer of the wrong size or an unknown tile id, or an object the game cannot place.
pub fn load(path: &Path) -> Result<Level, LevelError> {
    let fail = |problem: String| LevelError {
        path: path.to_owned(),
        problem,
    };
    let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot be read: {e}")))?;
    let map: Map =
        serde_json::from_str(&text).map_err(|e| fail(format!("is not a Tiled JSON map: {e}")))?;
    from_map(&map).map_err(fail)
}

/// The level of a parsed map.
fn from_map(map: &Map) -> Result<Level, String> {
    if map.kind != "map" {
        return Err(format!("its type is \"{}\", not \"map\"", map.kind));
    }
    if map.orientation != "orthogonal" {
        return Err(format!(
            "its orientation is {}: only orthogonal maps are supported",
            map.orientation
        ));
    }
    if map.infinite {
        return Err(
            "it is an infinite map: make it fixed-size (Map Properties, Infinite off)".into(),
        );
    }
    let tiles = u64::from(map.width) * u64::from(map.height);
    if tiles > MAX_TILES {
        return Err(format!(
            "a map of {} × {} tiles is too large (at most {MAX_TILES} tiles)",
            map.width, map.height
        ));
    }
    // Layers inside a group would be left out without a word: refuse the group instead.
    if let Some(group) = map.layers.iter().find(|l| l.kind == "group") {
        return Err(format!(
            "layer \"{}\" is a group: move its layers out of it",
            group.name
        ));
    }
    let tile = Vec2::new(map.tilewidth as f32, map.tileheight as f32);
    if !(tile.is_finite() && tile.min_element() > 0.0) {
        return Err(format!("its tile size {tile} is not positive"));
    }
    let origin = Vec2::new(
        number_property(&map.properties, "origin_x")?.unwrap_or(0.0),
        number_property(&map.properties, "origin_y")?.unwrap_or(0.0),
    );
    let size = UVec2::new(map.width, map.height);
    let mut grid = TileGrid::try_new(size, tile).map_err(|e| e.to_string())?;
    let mut art = Vec::new();
    let kinds = TileKinds::of(map)?;
    for layer in map.layers.iter().filter(|l| l.kind == "tilelayer") {
        let gids = layer_tiles(layer, size)?;
        for (i, &gid) in gids.iter().enumerate() {
            let Some(kind) = kinds.get(gid) else {
                let (x, row) = (i as u32 % size.x, i as u32 / size.x);
                return Err(format!(
                    "layer \"{}\": unknown tile id {gid} at column {x}, row {row}",
                    layer.name
                ));
            };
            let cell = cell_of(i, size);
            // Where layers overlap, solid wins over one-way, one-way over nothing.
            let merged = match (grid.get(cell), kind.tile) {
                (Tile::Solid, _) | (_, Tile::Solid) => Tile::Solid,
                (Tile::OneWay, _) | (_, Tile::OneWay) => Tile::OneWay,
                _ => Tile::Empty,
            };
            grid.try_set(cell, merged).map_err(|e| e.to_string())?;
        }
        art.extend(rectangles(
            &gids,
            size,
            |gid| kinds.get(gid).map(|k| k.color),
            tile,
            origin,
        ));
    }
    let things = things(map, origin)?;
    Ok(Level {
        grid,
        origin,
        art,
        things,
    })
}

/// The grid cell (y up) of the `i`-th id of a layer (rows from the top).
fn cell_of(i: usize, size: UVec2) -> UVec2 {
    let (x, row) = (i as u32 % size.x, i as u32 / size.x);
    UVec2::new(x, size.y - 1 - row)
}

/// A tile layer's global tile ids, checked to be an array of the map's size, without the flip
/// flags (a flipped tile collides like the tile).
fn layer_tiles(layer: &tmj::Layer, size: UVec2) -> Result<Vec<u32>, String> {
    let name = &layer.name;
    if layer.encoding.as_deref().is_some_and(|e| e != "csv") {
        return Err(format!(
            "layer \"{name}\" is {}-encoded: save the map with the tile layer format CSV",
            layer.encoding.as_deref().unwrap_or_default()
        ));
    }
    if UVec2::new(layer.width, layer.height) != size {
        return Err(format!(
            "layer \"{name}\" is {} × {} tiles, the map {} × {}",
            layer.width, layer.height, size.x, size.y
        ));
    }
    let Some(serde_json::Value::Array(data)) = &layer.data else {
        return Err(format!("layer \"{name}\" has no array of tiles (`data`)"));
    };
    let expected = size.x as usize * size.y as usize;
    if data.len() != expected {
        return Err(format!(
            "layer \"{name}\" has {} tiles, not {} × {} = {expected}",
            data.len(),
            size.x,
            size.y
        ));
    }
    data.iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_u64()
                .and_then(|id| u32::try_from(id).ok())
                .map(|gid| gid & 0x0FFF_FFFF)
                .ok_or_else(|| format!("layer \"{name}\": tile {i} is {v}, not a tile id"))
        })
        .collect()
}

/// What a tile is: how it collides and its colour.
#[derive(Debug, Clone, Copy)]
struct TileKind {
    tile: Tile,
    color: Color,
}

/// Every tile of the map's tilesets, by global id (0 is no tile).
struct TileKinds(Vec<Option<TileKind>>);

/// Drawn for a tile without a `color`.
const NO_COLOR: Color = Color::srgb(0.5, 0.5, 0.5);

impl TileKinds {
    fn of(map: &Map) -> Result<Self, String> {
        let mut kinds = vec![Some(TileKind {
            tile: Tile::Empty,
            color: NO_COLOR,
        })];
        for set in &map.tilesets {
            if let Some(source) = &set.source {
                return Err(format!(
                    "tileset {source} is external: embed it in the map (Map, Embed Tilesets)"
                ));
            }
            let end = u64::from(set.firstgid) + u64::from(set.tilecount);
            if set.firstgid == 0 || end > MAX_TILES {
                return Err(format!(
                    "tileset \"{}\": first id {} and {} tiles are out of range",
                    set.name, set.firstgid, set.tilecount
                ));
            }
            kinds.resize(kinds.len().max(end as usize), None);
            for id in 0..set.tilecount {
                let properties = set
                    .tiles
                    .iter()
                    .find(|t| t.id == id)
                    .map_or(&[][..], |t| &t.properties[..]);
                let kind = tile_kind(properties)
                    .map_err(|e| format!("tileset \"{}\", tile {id}: {e}", set.name))?;
                kinds[(set.firstgid + id) as usize] = Some(kind);
            }
        }
        Ok(Self(kinds))
    }

    fn get(&self, gid: u32) -> Option<TileKind> {
        self.0.get(gid as usize).copied().flatten()
    }
}

fn tile_kind(properties: &[tmj::Property]) -> Result<TileKind, String> {
    let tile = match tmj::property(properties, "collision").map(|p| p.value.as_str()) {
        None | Some(Some("none")) => Tile::Empty,
        Some(Some("solid")) => Tile::Solid,
        Some(Some("oneway")) => Tile::OneWay,
        Some(other) => {
            return Err(format!(
                "collision {} is not one of \"solid\", \"oneway\", \"none\"",
                other.map_or_else(|| "(not a string)".to_owned(), |s| format!("\"{s}\""))
            ));
        }
    };
    let color = color_property(properties)?.unwrap_or(NO_COLOR);
    Ok(TileKind { tile, color })
}

/// The `color` property (Tiled writes `#AARRGGBB`, or `#RRGGBB`), if there is one.
pub fn color_property(properties: &[tmj::Property]) -> Result<Option<Color>, String> {
    let Some(property) = tmj::property(properties, "color") else {
        return Ok(None);
    };
    let text = property.value.as_str().unwrap_or_default();
    let hex = text.strip_prefix('#').unwrap_or_default();
    let value = u32::from_str_radix(hex, 16).ok().filter(|_| hex.is_ascii());
    let byte = |shift: u32| value.map_or(0, |v| (v >> shift) as u8);
    match hex.len() {
        6 if value.is_some() => Ok(Some(Color::srgb_u8(byte(16), byte(8), byte(0)))),
        8 if value.is_some() => Ok(Some(Color::srgba_u8(byte(16), byte(8), byte(0), byte(24)))),
        _ => Err(format!("color {} is not #AARRGGBB", property.value)),
    }
}

/// A float (or int) property, if there is one.
pub fn number_property(properties: &[tmj::Property], name: &str) -> Result<Option<f32>, String> {
    let Some(property) = tmj::property(properties, name) else {
        return Ok(None);
    };
    match property.value.as_f64().map(|v| v as f32) {
        Some(v) if v.is_finite() => Ok(Some(v)),
        _ => Err(format!(
            "property {name} = {} is not a number",
            property.value
        )),
    }
}

/// Rectangles of equal tiles covering every tile with a colour: each grows right along its row,
/// then up while the rows above repeat it.
fn rectangles(
    gids: &[u32],
    size: UVec2,
    color: impl Fn(u32) -> Option<Color>,
    tile: Vec2,
    origin: Vec2,
) -> Vec<TileArt> {
    let (w, h) = (size.x as usize, size.y as usize);
    // By cell, rows from the bottom.
    let at = |x: usize, y: usize| gids[(h - 1 - y) * w + x];
    let mut done = vec![false; w * h];
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let gid = at(x, y);
            if gid == 0 || done[y * w + x] {
                continue;
            }
            let same = |cx: usize, cy: usize| at(cx, cy) == gid && !done[cy * w + cx];
            let mut x1 = x + 1;
            while x1 < w && same(x1, y) {
                x1 += 1;
            }
            let mut y1 = y + 1;
            while y1 < h && (x..x1).all(|cx| same(cx, y1)) {
                y1 += 1;
            }
            for cy in y..y1 {
                done[cy * w + x..cy * w + x1].fill(true);
            }
            let min = origin + Vec2::new(x as f32, y as f32) * tile;
            let cells = Vec2::new((x1 - x) as f32, (y1 - y) as f32);
            out.push(TileArt {
                min,
                size: cells * tile,
                color: color(gid).unwrap_or(NO_COLOR),
            });
        }
    }
    out
}
