//! Reading a Tiled map (TMX) with the `tiled` crate, and the checks it leaves to its caller.
//!
//! `tiled` reads the whole format: the map, its tilesets (embedded, or external `.tsx` files),
//! tile layers, object layers and properties. Two things in a file it takes on trust, and a
//! wrong value there would panic or exhaust memory instead of giving an error: a finite tile
//! layer's tiles are looked up by `width` × `height` without checking that its data holds that
//! many ids, and a tileset's `tilecount` is allocated before its tiles are read. So each file
//! is first walked with quick-xml, the XML parser `tiled` itself uses, for only those two
//! things: the number of ids in each tile layer's data (which must be CSV, the one encoding
//! whose ids can be counted without decompressing them) and each tileset's tile count. The same
//! walk notes each tileset's first global id, which `tiled` resolves and then drops, so that a
//! message can name a tile by the id the file holds.

use std::borrow::Cow;
use std::fmt;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use tiled::{Loader, Map, PropertyValue, ResourceReader};

use crate::level::MAX_TILES;

/// What the walk before `tiled` learnt of a map, for the checks after it.
#[derive(Debug, Default)]
pub struct Facts {
    /// The first global tile id of each tileset, in the map's order (that of `Map::tilesets`).
    pub first_gids: Vec<u32>,
    /// How many ids the data of each tile layer that is a child of the map holds (0 without
    /// data), in the map's order (that of its tile layers in `Map::layers`).
    pub layer_tiles: Vec<usize>,
}

/// Reads the map at `path` with `tiled`, its data and tilesets checked first.
///
/// # Errors
/// The problem in a sentence (the caller names the map): the map cannot be read, a tile
/// layer is not CSV or holds something other than tile ids, a tileset is too large, `tiled`
/// refuses the map (its message), or a file the map refers to cannot be read or is refused.
pub fn read(path: &Path) -> Result<(Map, Facts), String> {
    let bytes: Arc<[u8]> = std::fs::read(path)
        .map_err(|e| format!("cannot be read: {e}"))?
        .into();
    let facts = check(&bytes)?;
    let files = Files {
        map: path.to_owned(),
        bytes,
    };
    let map = Loader::with_reader(files)
        .load_tmx_map(path)
        .map_err(|error| match error {
            // A tileset or template the map refers to.
            tiled::Error::ResourceLoadingError { path, err } => {
                format!("{}: {err}", path.display())
            }
            other => format!("is not a Tiled TMX map: {other}"),
        })?;
    Ok((map, facts))
}

/// The files `tiled` asks for: the map from the bytes already read and checked, any other file
/// (an external tileset, a template) from the disk, checked the same way.
struct Files {
    map: PathBuf,
    bytes: Arc<[u8]>,
}

/// Why a file other than the map was not handed to `tiled`.
#[derive(Debug)]
struct Refused(String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

impl ResourceReader for Files {
    type Resource = Cursor<Arc<[u8]>>;
    type Error = Refused;

    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        if path == self.map {
            return Ok(Cursor::new(self.bytes.clone()));
        }
        let bytes = std::fs::read(path).map_err(|e| Refused(format!("cannot be read: {e}")))?;
        check(&bytes).map_err(Refused)?;
        Ok(Cursor::new(bytes.into()))
    }
}

/// A tile layer's `<data>` being read: the layer's name and the first text in it (`tiled`
/// reads only the first).
struct Data {
    layer: String,
    text: Option<String>,
}

/// Walks a TMX (or TSX, or template) file for what `tiled` takes on trust. Malformed XML ends
/// the walk without an error: `tiled` reads the same bytes next and says what is wrong.
fn check(bytes: &[u8]) -> Result<Facts, String> {
    let mut reader = Reader::from_reader(bytes);
    let mut facts = Facts::default();
    // The local names of the open elements, the root first.
    let mut open: Vec<Vec<u8>> = Vec::new();
    // The name of the tile layer (a child of the map) being read, if one is.
    let mut layer: Option<String> = None;
    let mut data: Option<Data> = None;
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(ref element) | Event::Empty(ref element) => {
                let name = element.local_name().as_ref().to_vec();
                let in_map = open.len() == 1 && open[0] == b"map";
                match name.as_slice() {
                    b"tileset" => check_tileset(element, in_map, &mut facts)?,
                    b"layer" if in_map => {
                        layer = Some(attribute(element, b"name"));
                        facts.layer_tiles.push(0);
                    }
                    b"data" if open.len() == 2 && open[1] == b"layer" => {
                        let layer = layer.clone().unwrap_or_default();
                        check_encoding(element, &layer)?;
                        // `<data/>` holds no ids: its layer's count stays 0.
                        if matches!(event, Event::Start(_)) {
                            data = Some(Data { layer, text: None });
                        }
                    }
                    _ => {}
                }
                if matches!(event, Event::Start(_)) {
                    open.push(name);
                }
            }
            Event::Text(text) => {
                if let Some(data) = data.as_mut().filter(|d| d.text.is_none()) {
                    let Ok(text) = text.unescape() else { break };
                    data.text = Some(text.into_owned());
                }
            }
            Event::CData(text) => {
                if let Some(data) = data.as_mut().filter(|d| d.text.is_none()) {
                    data.text = Some(String::from_utf8_lossy(&text.into_inner()).into_owned());
                }
            }
            Event::End(_) => {
                // The ids are counted only once their element is closed: a file cut short in
                // the middle of them is reported by `tiled` as cut short.
                if open.len() == 3
                    && open[2] == b"data"
                    && let Some(data) = data.take()
                {
                    let text = data.text.as_deref().unwrap_or_default();
                    let count = count_ids(&data.layer, text)?;
                    if let Some(last) = facts.layer_tiles.last_mut() {
                        *last = count;
                    }
                }
                open.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(facts)
}

/// An attribute's value, or an empty string (`tiled` reports a malformed one).
fn attribute(element: &BytesStart, name: &[u8]) -> String {
    element
        .attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .and_then(|a| a.unescape_value().ok())
        .map(Cow::into_owned)
        .unwrap_or_default()
}

/// A `<tileset>`: its tile count within bounds (it is allocated before the tiles are read), and
/// in a map its first global id noted.
fn check_tileset(element: &BytesStart, in_map: bool, facts: &mut Facts) -> Result<(), String> {
    if in_map {
        // A value that is not a number is `tiled`'s to report.
        facts
            .first_gids
            .push(attribute(element, b"firstgid").parse().unwrap_or(0));
    }
    let count: u64 = attribute(element, b"tilecount").parse().unwrap_or(0);
    if count > MAX_TILES {
        return Err(format!(
            "tileset \"{}\" has {count} tiles (at most {MAX_TILES})",
            attribute(element, b"name")
        ));
    }
    Ok(())
}

/// A tile layer's `<data>` must be CSV: the ids of another encoding cannot be counted before
/// `tiled` decodes (and, mostly, decompresses) them.
fn check_encoding(element: &BytesStart, layer: &str) -> Result<(), String> {
    let encoding = attribute(element, b"encoding");
    let compression = attribute(element, b"compression");
    if encoding == "csv" && compression.is_empty() {
        return Ok(());
    }
    let encoding = if encoding.is_empty() {
        "XML".to_owned()
    } else {
        encoding
    };
    let compressed = if compression.is_empty() {
        String::new()
    } else {
        format!(" and {compression}-compressed")
    };
    Err(format!(
        "layer \"{layer}\" is {encoding}-encoded{compressed}: save the map with the tile layer \
         format CSV"
    ))
}

/// The number of ids in a CSV layer's text, each checked to be one (a global tile id with its
/// flip flags, as `tiled` reads it). Only white space is no ids: an infinite map's layers keep
/// their ids in chunks instead.
fn count_ids(layer: &str, text: &str) -> Result<usize, String> {
    if text.trim().is_empty() {
        return Ok(0);
    }
    let mut count = 0;
    for (i, id) in text.split(',').map(str::trim).enumerate() {
        if id.parse::<u32>().is_err() {
            return Err(format!(
                "layer \"{layer}\": tile {i} is \"{id}\", not a tile id"
            ));
        }
        count += 1;
    }
    Ok(count)
}

/// A property's value as a message shows it: text quoted, numbers as they are.
pub fn shown(value: &PropertyValue) -> String {
    match value {
        PropertyValue::BoolValue(v) => v.to_string(),
        PropertyValue::FloatValue(v) => v.to_string(),
        PropertyValue::IntValue(v) => v.to_string(),
        PropertyValue::ObjectValue(v) => format!("object {v}"),
        PropertyValue::ColorValue(c) => {
            format!("#{:02x}{:02x}{:02x}{:02x}", c.alpha, c.red, c.green, c.blue)
        }
        PropertyValue::StringValue(v) | PropertyValue::FileValue(v) => format!("{v:?}"),
        PropertyValue::ListValue(_) => "a list".to_owned(),
        PropertyValue::ClassValue { property_type, .. } => format!("a {property_type:?}"),
    }
}
