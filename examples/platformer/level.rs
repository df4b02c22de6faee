//! The platformer's level, read from a Tiled map (`.tmx`, Tiled's XML format, read by the
//! `tiled` crate) before the game starts: tile layers become one [`TileGrid`] (which tiles are
//! solid or one-way is each tile's `collision` property in the tileset), object layers place
//! the player, crates, coins, blocks, hazards, the sentry, moving platforms, the checkpoint and
//! the goal (by each object's class).
//!
//! The file is read from the disk rather than through Bevy's assets, so that a bad file stops
//! the game before any window opens, with one message naming the file and the problem, and so
//! that the headless tests load it the same way.
//!
//! Map conventions (see `assets/platformer/level.tmx`):
//! - the map's custom properties `origin_x` and `origin_y` (floats, default 0) place its
//!   bottom-left corner in the world; Tiled's y points down, the world's up;
//! - tile layers are CSV-encoded (Tiled's default); tilesets are embedded or external (`.tsx`);
//! - each tile's properties: `collision` = `solid`, `oneway` or `none` (the default), and
//!   `color` (drawn with it);
//! - objects by class: `player` (a point, exactly one), `crate`, `handle_crate` (a crate with
//!   a handle on top, the size of the box without it), `block` (a rectangle or a
//!   convex polygon, with a `color`), `coin` (a point), `hazard`, `checkpoint`, `goal`,
//!   `sentry` (its laser points right), `platform` (moves to the object its `to` property names,
//!   at `speed` units/s, pausing `pause` s at each end) and `waypoint` (a point, for `to`).
//!   Names matter for three: the crate named `push_crate`, the platforms `ferry` and `elevator`.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy_sat::prelude::*;
use tiled::{LayerType, Map, Orientation, Properties, PropertyValue, TileLayer};

use crate::level_objects::{Thing, ThingKind, things};
use crate::tmx::{self, Facts};

/// Where the shipped level is: found from the crate's directory, so `cargo run` works from any
/// working directory.
pub fn default_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/platformer/level.tmx")
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
/// A [`LevelError`] naming the file and the first problem found: it cannot be read, is not a
/// TMX map (a truncated file, or one `tiled` refuses), is not an orthogonal fixed-size map, is
/// too large, has a tile layer of the wrong size or an unknown tile id, or an object the game
/// cannot place.
pub fn load(path: &Path) -> Result<Level, LevelError> {
    let fail = |problem: String| LevelError {
        path: path.to_owned(),
        problem,
    };
    let (map, facts) = tmx::read(path).map_err(fail)?;
    from_map(&map, &facts).map_err(fail)
}

/// The level of a map read by `tiled`.
fn from_map(map: &Map, facts: &Facts) -> Result<Level, String> {
    if map.orientation != Orientation::Orthogonal {
        return Err(format!(
            "its orientation is {}: only orthogonal maps are supported",
            map.orientation
        ));
    }
    if map.infinite() {
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
    if let Some(group) = map
        .layers()
        .find(|l| matches!(l.layer_type(), LayerType::Group(_)))
    {
        return Err(format!(
            "layer \"{}\" is a group: move its layers out of it",
            group.name
        ));
    }
    let tile = Vec2::new(map.tile_width as f32, map.tile_height as f32);
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
    let kinds = TileKinds::of(map, facts)?;
    let tile_layers = map.layers().filter_map(|l| match l.layer_type() {
        LayerType::Tiles(tiles) => Some((l.name.clone(), tiles)),
        _ => None,
    });
    for (n, (name, layer)) in tile_layers.enumerate() {
        let count = facts.layer_tiles.get(n).copied().unwrap_or(0);
        let gids = layer_tiles(&name, &layer, count, size, facts)?;
        for (i, &gid) in gids.iter().enumerate() {
            let Some(kind) = kinds.get(gid) else {
                let (x, row) = (i as u32 % size.x, i as u32 / size.x);
                return Err(format!(
                    "layer \"{name}\": unknown tile id {gid} at column {x}, row {row}"
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

/// A tile layer's global tile ids, row by row from the top, checked to be as many as the map
/// has cells, without the flip flags (`tiled` keeps them apart: a flipped tile collides like
/// the tile); 0 is no tile. `count` is how many ids the layer's data holds.
fn layer_tiles(
    name: &str,
    layer: &TileLayer,
    count: usize,
    size: UVec2,
    facts: &Facts,
) -> Result<Vec<u32>, String> {
    let TileLayer::Finite(layer) = layer else {
        return Err(format!(
            "layer \"{name}\" is infinite: make the map fixed-size (Map Properties, Infinite off)"
        ));
    };
    if UVec2::new(layer.width(), layer.height()) != size {
        return Err(format!(
            "layer \"{name}\" is {} × {} tiles, the map {} × {}",
            layer.width(),
            layer.height(),
            size.x,
            size.y
        ));
    }
    let expected = size.x as usize * size.y as usize;
    if count != expected {
        return Err(format!(
            "layer \"{name}\" has {count} tiles, not {} × {} = {expected}",
            size.x, size.y
        ));
    }
    // Every cell is now within the layer's data, which `tiled` indexes without a check.
    let mut gids = Vec::with_capacity(expected);
    for row in 0..size.y as i32 {
        for x in 0..size.x as i32 {
            // `tiled` gives a tile as its tileset and its id there; the global id is that
            // tileset's first id plus it.
            let gid = layer.get_tile_data(x, row).map_or(0, |t| {
                let first = facts.first_gids.get(t.tileset_index()).copied();
                first.map_or(u32::MAX, |first| first.saturating_add(t.id()))
            });
            gids.push(gid);
        }
    }
    Ok(gids)
}

/// What a tile is: how it collides and its colour.
#[derive(Debug, Clone, Copy)]
struct TileKind {
    tile: Tile,
    color: Color,
}

/// Every tile of the map's tilesets, by global id (0 is no tile).
struct TileKinds(HashMap<u32, TileKind>);

/// Drawn for a tile without a `color`.
const NO_COLOR: Color = Color::srgb(0.5, 0.5, 0.5);

impl TileKinds {
    /// The tiles of the map's tilesets, each tileset's ids checked to be in range.
    fn of(map: &Map, facts: &Facts) -> Result<Self, String> {
        let empty = TileKind {
            tile: Tile::Empty,
            color: NO_COLOR,
        };
        let mut kinds = HashMap::from([(0, empty)]);
        if map.tilesets().len() != facts.first_gids.len() {
            return Err(format!(
                "it has {} tilesets, of which {} have a first id",
                map.tilesets().len(),
                facts.first_gids.len()
            ));
        }
        for (i, (set, &first)) in map.tilesets().iter().zip(&facts.first_gids).enumerate() {
            let end = u64::from(first) + u64::from(set.tilecount);
            if first == 0 || end > MAX_TILES {
                return Err(format!(
                    "tileset \"{}\": first id {first} and {} tiles are out of range",
                    set.name, set.tilecount
                ));
            }
            // `tiled` reads an id below the first tileset's as no tile, without a word.
            if i == 0 && first != 1 {
                return Err(format!(
                    "tileset \"{}\" starts at id {first}: the first tileset must start at 1",
                    set.name
                ));
            }
            // In id order, so that of two wrong tiles the same one is always named.
            let mut tiles: Vec<_> = set.tiles().collect();
            tiles.sort_unstable_by_key(|(id, _)| *id);
            for (id, tile) in tiles {
                let kind = tile_kind(&tile.properties)
                    .map_err(|e| format!("tileset \"{}\", tile {id}: {e}", set.name))?;
                if let Some(gid) = first.checked_add(id) {
                    kinds.insert(gid, kind);
                }
            }
        }
        Ok(Self(kinds))
    }

    /// The tile with this global id, if a tileset has it.
    fn get(&self, gid: u32) -> Option<TileKind> {
        self.0.get(&gid).copied()
    }
}

/// A tile's collision and colour, from its properties.
fn tile_kind(properties: &Properties) -> Result<TileKind, String> {
    let tile = match properties.get("collision") {
        None => Tile::Empty,
        Some(PropertyValue::StringValue(collision)) => match collision.as_str() {
            "none" => Tile::Empty,
            "solid" => Tile::Solid,
            "oneway" => Tile::OneWay,
            other => {
                return Err(format!(
                    "collision \"{other}\" is not one of \"solid\", \"oneway\", \"none\""
                ));
            }
        },
        Some(_) => {
            return Err(
                "collision (not a string) is not one of \"solid\", \"oneway\", \"none\"".into(),
            );
        }
    };
    let color = color_property(properties)?.unwrap_or(NO_COLOR);
    Ok(TileKind { tile, color })
}

/// The `color` property (a colour, or a string `#AARRGGBB` or `#RRGGBB`), if there is one.
pub fn color_property(properties: &Properties) -> Result<Option<Color>, String> {
    let text = match properties.get("color") {
        None => return Ok(None),
        Some(PropertyValue::ColorValue(c)) => {
            return Ok(Some(Color::srgba_u8(c.red, c.green, c.blue, c.alpha)));
        }
        Some(PropertyValue::StringValue(text)) => text,
        Some(other) => return Err(format!("color {} is not #AARRGGBB", tmx::shown(other))),
    };
    let hex = text.strip_prefix('#').unwrap_or_default();
    let value = u32::from_str_radix(hex, 16).ok().filter(|_| hex.is_ascii());
    let byte = |shift: u32| value.map_or(0, |v| (v >> shift) as u8);
    match hex.len() {
        6 if value.is_some() => Ok(Some(Color::srgb_u8(byte(16), byte(8), byte(0)))),
        8 if value.is_some() => Ok(Some(Color::srgba_u8(byte(16), byte(8), byte(0), byte(24)))),
        _ => Err(format!("color {text:?} is not #AARRGGBB")),
    }
}

/// A float (or int) property, if there is one.
pub fn number_property(properties: &Properties, name: &str) -> Result<Option<f32>, String> {
    let Some(value) = properties.get(name) else {
        return Ok(None);
    };
    let number = match value {
        PropertyValue::FloatValue(v) => Some(*v),
        PropertyValue::IntValue(v) => Some(*v as f32),
        _ => None,
    };
    match number {
        Some(v) if v.is_finite() => Ok(Some(v)),
        _ => Err(format!(
            "property {name} = {} is not a number",
            tmx::shown(value)
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
