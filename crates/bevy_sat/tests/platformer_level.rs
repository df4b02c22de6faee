//! The platformer's level file, `assets/platformer/level.tmx` (a Tiled map, read by the
//! `tiled` crate): what the shipped file holds once loaded, and one clear error, naming the file
//! and the problem, for each way a file can be broken (each made from the shipped file with one
//! thing wrong).

#[path = "../../../examples/platformer/level.rs"]
#[allow(dead_code)]
mod level;
#[path = "../../../examples/platformer/level_objects.rs"]
#[allow(dead_code)]
mod level_objects;
#[path = "../../../examples/platformer/tmx.rs"]
mod tmx;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_sat::prelude::*;

use level::{Level, LevelError};
use level_objects::ThingKind;

fn shipped() -> Level {
    level::load(&level::default_path()).unwrap()
}

fn shipped_text() -> String {
    std::fs::read_to_string(level::default_path()).unwrap()
}

/// A file of this test's own, holding `text`.
fn file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `text` with `from`, which occurs in it exactly once, replaced by `to`.
fn replaced(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from}");
    text.replacen(from, to, 1)
}

/// The error of loading the file at `path`, checked to name it: the problem.
fn problem_of(path: &PathBuf) -> String {
    let error: LevelError = level::load(path).unwrap_err();
    assert_eq!(&error.path, path);
    let message = error.to_string();
    let prefix = format!("level {}: ", path.display());
    assert!(message.starts_with(&prefix), "{message}");
    message[prefix.len()..].to_owned()
}

/// The shipped map with one change, written to a file and loaded: the problem.
fn broken(name: &str, change: impl FnOnce(String) -> String) -> String {
    let path = file(&format!("level_{name}.tmx"), &change(shipped_text()));
    problem_of(&path)
}

/// The shipped map with one change in the terrain layer's tile ids (row by row from the top).
fn with_ids(text: &str, change: impl FnOnce(&mut Vec<String>)) -> String {
    let start = text.find("<data encoding=\"csv\">").unwrap() + "<data encoding=\"csv\">".len();
    let end = text.find("</data>").unwrap();
    let mut ids: Vec<String> = text[start..end]
        .split(',')
        .map(|id| id.trim().to_owned())
        .collect();
    assert_eq!(ids.len(), 206 * 53);
    change(&mut ids);
    let rows: Vec<String> = ids.chunks(206).map(|row| row.join(",")).collect();
    format!("{}\n{}\n{}", &text[..start], rows.join(",\n"), &text[end..])
}

/// The shipped map's tileset as an external tileset file (`.tsx`), and the map without it.
fn tileset_apart(text: &str) -> (String, String) {
    let start = text.find(" <tileset firstgid=\"1\"").unwrap();
    let end = text.find("</tileset>").unwrap() + "</tileset>\n".len();
    let embedded = &text[start..end];
    let tsx = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}",
        embedded.replacen(
            " <tileset firstgid=\"1\"",
            "<tileset version=\"1.10\" tiledversion=\"1.11.2\"",
            1
        )
    );
    let map = format!("{}{}", &text[..start], &text[end..]);
    (tsx, map)
}

#[test]
fn the_shipped_level_is_a_grid_of_16_unit_tiles_with_the_floor_walls_and_one_way_rows() {
    let level = shipped();
    assert_eq!(level.grid.size(), UVec2::new(206, 53));
    assert_eq!(level.grid.cell_size(), Vec2::splat(16.0));
    assert_eq!(level.origin, Vec2::new(-400.0, -240.0));
    let tile = |x: u32, y: u32| level.grid.get(UVec2::new(x, y));
    // The floor's top at world y = 0 is the top of row 14; the left wall is columns 0..3.
    assert_eq!(tile(3, 14), Tile::Solid);
    assert_eq!(tile(3, 15), Tile::Empty);
    assert_eq!(tile(0, 52), Tile::Solid);
    assert_eq!(tile(3, 52), Tile::Empty);
    // The pit: open from its floor (rows 0..2) up, between x = 1440 and 1856.
    assert_eq!(tile(115, 1), Tile::Solid);
    assert_eq!(tile(115, 2), Tile::Empty);
    assert_eq!(tile(115, 14), Tile::Empty);
    // Two one-way rows of 8 tiles, their tops at y = 96 and 176, and no other one-way cell.
    let mut one_way = Vec::new();
    for y in 0..53 {
        for x in 0..206 {
            if tile(x, y) == Tile::OneWay {
                one_way.push((x, y));
            }
        }
    }
    let expected: Vec<_> = [20, 25]
        .into_iter()
        .flat_map(|y| (151..159).map(move |x| (x, y)))
        .collect();
    assert_eq!(one_way, expected);
}

#[test]
fn the_shipped_levels_art_covers_each_tile_once() {
    let level = shipped();
    let mut covered = vec![0u32; 206 * 53];
    for art in &level.art {
        let min = ((art.min - level.origin) / 16.0).as_uvec2();
        let max = ((art.min + art.size - level.origin) / 16.0).as_uvec2();
        assert_eq!(min.as_vec2() * 16.0 + level.origin, art.min, "on the grid");
        for y in min.y..max.y {
            for x in min.x..max.x {
                covered[(y * 206 + x) as usize] += 1;
            }
        }
    }
    for y in 0..53 {
        for x in 0..206 {
            let filled = level.grid.get(UVec2::new(x, y)) != Tile::Empty;
            assert_eq!(
                covered[(y * 206 + x) as usize],
                u32::from(filled),
                "({x}, {y})"
            );
        }
    }
    // The first floor tile: 64 × 32 of grass, its top-left at (-352, 0).
    let grass = Color::srgb_u8(0x61, 0x9e, 0x52);
    assert!(level.art.contains(&level::TileArt {
        min: Vec2::new(-352.0, -32.0),
        size: Vec2::new(64.0, 32.0),
        color: grass,
    }));
}

#[test]
fn the_shipped_levels_objects_are_placed_in_world_units() {
    let level = shipped();
    assert_eq!(level.start(), Vec2::new(0.0, 16.0));
    let named = |name: &str| level.things.iter().find(|t| t.name == name).unwrap();
    let coins = level
        .things
        .iter()
        .filter(|t| matches!(t.kind, ThingKind::Coin))
        .count();
    assert_eq!(coins, 5);
    assert_eq!(named("push_crate").at, Vec2::new(420.0, 20.0));
    // The step the player walks up without a jump: 96 × 8 on the floor, from x = 60 to 156.
    let step = named("step");
    assert_eq!(step.at, Vec2::new(108.0, 4.0));
    let ThingKind::Block(collider, _) = &step.kind else {
        panic!("the step is a block: {step:?}");
    };
    assert_eq!(collider.shape().aabb().size(), Vec2::new(96.0, 8.0));
    assert!(
        matches!(named("push_crate").kind, ThingKind::Crate(size) if size == Vec2::splat(40.0))
    );
    // The crate with a handle, 28 × 28, resting on the cup's inner floor (8 above the ground).
    let handle_crate = named("handle_crate");
    assert_eq!(handle_crate.at, Vec2::new(-70.0, 22.0));
    assert!(matches!(handle_crate.kind, ThingKind::HandleCrate(size) if size == Vec2::splat(28.0)));
    let ferry = named("ferry");
    assert_eq!(ferry.at, Vec2::new(1488.0, -8.0));
    let ThingKind::Platform {
        size,
        to,
        speed,
        pause,
    } = ferry.kind
    else {
        panic!("the ferry is a platform: {ferry:?}");
    };
    assert_eq!(
        (size, to, speed, pause),
        (Vec2::new(96.0, 16.0), Vec2::new(1808.0, -8.0), 120.0, 1.0)
    );
    let ThingKind::Platform { to, .. } = named("elevator").kind else {
        panic!("the elevator is a platform");
    };
    assert_eq!(to, Vec2::new(2400.0, 232.0));
    // The slope up: a triangle from (840, 0) to (1040, 0) up to the plateau's top at 200·tan 30°.
    let slope = named("slope up");
    let ThingKind::Block(collider, _) = &slope.kind else {
        panic!("the slope is a block");
    };
    let bevy_sat::geometry::Shape::Polygon(polygon) = collider.shape() else {
        panic!("the slope is a polygon");
    };
    let rise = 200.0 * 30f64.to_radians().tan();
    let expected = [(840.0, 0.0), (1040.0, 0.0), (1040.0, rise)];
    for (vertex, (x, y)) in polygon.vertices().iter().zip(expected) {
        let world = *vertex + slope.at;
        assert!(
            (f64::from(world.x) - x).abs() < 1e-3 && (f64::from(world.y) - y).abs() < 1e-3,
            "{world} vs ({x}, {y})"
        );
    }
}

/// The round platform left of the start: a 24-gon of radius 26 (more corners than an inline
/// polygon holds), centred at (-75, 118), behind the floating block from the sentry's laser.
#[test]
fn the_shipped_levels_round_platform_is_a_24_gon() {
    let level = shipped();
    let round = level
        .things
        .iter()
        .find(|t| t.name == "round platform")
        .unwrap();
    assert!(
        (round.at - Vec2::new(-75.0, 118.0)).length() < 1e-3,
        "{}",
        round.at
    );
    let ThingKind::Block(collider, _) = &round.kind else {
        panic!("the round platform is a block: {round:?}");
    };
    let bevy_sat::geometry::Shape::Large(polygon) = collider.shape() else {
        panic!("the round platform is a large polygon: {collider:?}");
    };
    assert_eq!(polygon.vertices().len(), 24);
    for corner in polygon.vertices() {
        assert!((corner.length() - 26.0).abs() < 1e-3, "{corner}");
    }
}

/// The hill left of the start is a polyline (a chain of five points, 8 high), and the cup
/// beside it a concave polygon split into convex parts: both Mighty compounds.
#[test]
fn the_shipped_levels_hill_is_a_polyline_and_its_cup_concave() {
    let level = shipped();
    let block = |name: &str| {
        let thing = level.things.iter().find(|t| t.name == name).unwrap();
        let ThingKind::Block(collider, _) = &thing.kind else {
            panic!("{name} is a block: {thing:?}");
        };
        (thing.at, collider.clone())
    };
    let (at, hill) = block("hill");
    let bevy_sat::geometry::Shape::Compound(chain) = hill.shape() else {
        panic!("the hill is a chain: {hill:?}");
    };
    assert_eq!(chain.parts().len(), 4, "a part per segment");
    let top = hill.shape().aabb().max.y + at.y;
    assert!((top - 8.0).abs() < 1e-3, "the hill's top at {top}");
    let (at, cup) = block("cup");
    let bevy_sat::geometry::Shape::Compound(parts) = cup.shape() else {
        panic!("the cup is split into parts: {cup:?}");
    };
    assert!(parts.parts().len() >= 3, "{} parts", parts.parts().len());
    let aabb = cup.shape().aabb();
    assert_eq!(
        (aabb.min + at, aabb.max + at),
        (Vec2::new(-110.0, 0.0), Vec2::new(-30.0, 24.0))
    );
}

#[test]
fn a_missing_file_is_named_with_the_reason() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no_such_level.tmx");
    let error = level::load(&path).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "level {}: cannot be read: No such file or directory (os error 2)",
            path.display()
        )
    );
}

#[test]
fn a_truncated_file_is_not_a_map_and_says_so() {
    let text = shipped_text();
    // Cut in the middle of the terrain layer's ids.
    let problem = problem_of(&file("level_truncated.tmx", &text[..text.len() / 2]));
    assert_eq!(
        problem,
        "is not a Tiled TMX map: end of file while reading element contents"
    );
    // Cut after the map's first object.
    let cut = text.find("<object id=\"2\"").unwrap();
    let problem = problem_of(&file("level_cut_in_objects.tmx", &text[..cut]));
    assert_eq!(
        problem,
        "is not a Tiled TMX map: Document ended before we expected."
    );
    let empty = problem_of(&file("level_empty.tmx", ""));
    assert_eq!(
        empty,
        "is not a Tiled TMX map: Document ended before root element <map> was found"
    );
}

#[test]
fn a_file_that_is_not_a_map_or_lacks_a_required_attribute_says_which() {
    let problem = broken("no_tile_width", |text| {
        replaced(
            &text,
            " tilewidth=\"16\" tileheight=\"16\" infinite",
            " tileheight=\"16\" infinite",
        )
    });
    assert_eq!(
        problem,
        "is not a Tiled TMX map: Missing attribute: tilewidth"
    );
    let problem = broken("wide", |text| {
        replaced(
            &text,
            "<layer id=\"1\" name=\"terrain\" width=\"206\"",
            "<layer id=\"1\" name=\"terrain\" width=\"wide\"",
        )
    });
    assert_eq!(
        problem,
        "is not a Tiled TMX map: Error parsing attribute 'width'"
    );
    let (tsx, _) = tileset_apart(&shipped_text());
    let problem = problem_of(&file("level_a_tileset.tmx", &tsx));
    assert_eq!(
        problem,
        "is not a Tiled TMX map: Expected root element <map>, got <tileset>"
    );
}

#[test]
fn an_unknown_tile_id_is_named_with_its_place() {
    let problem = broken("unknown_tile", |text| {
        with_ids(&text, |ids| ids[206 + 2] = "9".into())
    });
    assert_eq!(
        problem,
        "layer \"terrain\": unknown tile id 9 at column 2, row 1"
    );
    // An id below the first tileset's would be no tile: the first tileset must start at 1.
    let problem = broken("late_tileset", |text| {
        replaced(&text, "<tileset firstgid=\"1\"", "<tileset firstgid=\"3\"")
    });
    assert_eq!(
        problem,
        "tileset \"terrain\" starts at id 3: the first tileset must start at 1"
    );
}

#[test]
fn a_flipped_tile_collides_like_the_tile() {
    // Row 1 from the top, column 1: the left wall's stone (4), flipped horizontally.
    let text = with_ids(&shipped_text(), |ids| {
        ids[206 + 1] = 0x8000_0004u32.to_string();
    });
    let level = level::load(&file("level_flipped.tmx", &text)).unwrap();
    assert_eq!(level.grid.get(UVec2::new(1, 51)), Tile::Solid);
}

#[test]
fn a_layer_of_the_wrong_size_is_refused() {
    let problem = broken("narrow_layer", |text| {
        replaced(
            &text,
            "name=\"terrain\" width=\"206\"",
            "name=\"terrain\" width=\"205\"",
        )
    });
    assert_eq!(
        problem,
        "layer \"terrain\" is 205 × 53 tiles, the map 206 × 53"
    );
    // Fewer ids than the layer's cells: `tiled` would index past its data.
    let problem = broken("short_data", |text| {
        with_ids(&text, |ids| ids.truncate(206 * 52))
    });
    assert_eq!(
        problem,
        "layer \"terrain\" has 10712 tiles, not 206 × 53 = 10918"
    );
    let problem = broken("long_data", |text| {
        with_ids(&text, |ids| {
            ids.extend(std::iter::repeat_n("0".into(), 206))
        })
    });
    assert_eq!(
        problem,
        "layer \"terrain\" has 11124 tiles, not 206 × 53 = 10918"
    );
    let problem = broken("text_tile", |text| {
        with_ids(&text, |ids| ids[5] = "4a".into())
    });
    assert_eq!(
        problem,
        "layer \"terrain\": tile 5 is \"4a\", not a tile id"
    );
    let problem = broken("negative_tile", |text| {
        with_ids(&text, |ids| ids[7] = "-1".into())
    });
    assert_eq!(
        problem,
        "layer \"terrain\": tile 7 is \"-1\", not a tile id"
    );
}

/// The terrain layer again, as a second tile layer called "decor" after it, its ids changed.
fn with_decor(text: &str, change: impl FnOnce(&mut Vec<String>)) -> String {
    let start = text.find(" <layer id=\"1\"").unwrap();
    let end = text.find(" </layer>\n").unwrap() + " </layer>\n".len();
    let decor = with_ids(&text[start..end], change).replacen(
        "<layer id=\"1\" name=\"terrain\"",
        "<layer id=\"3\" name=\"decor\"",
        1,
    );
    format!("{}{decor}{}", &text[..end], &text[end..])
}

/// Each tile layer's ids are counted on their own: a second layer is checked like the first,
/// and one that repeats the first changes nothing.
#[test]
fn a_second_tile_layer_is_checked_on_its_own() {
    let problem = broken("short_decor", |text| {
        with_decor(&text, |ids| ids.truncate(206 * 52))
    });
    assert_eq!(
        problem,
        "layer \"decor\" has 10712 tiles, not 206 × 53 = 10918"
    );
    let problem = broken("unknown_decor", |text| {
        with_decor(&text, |ids| ids[3] = "6".into())
    });
    assert_eq!(
        problem,
        "layer \"decor\": unknown tile id 6 at column 3, row 0"
    );
    let twice = with_decor(&shipped_text(), |_| {});
    let level = level::load(&file("level_decor.tmx", &twice)).unwrap();
    let shipped = shipped();
    for y in 0..53 {
        for x in 0..206 {
            let cell = UVec2::new(x, y);
            assert_eq!(level.grid.get(cell), shipped.grid.get(cell), "{cell}");
        }
    }
    assert_eq!(
        level.art.len(),
        2 * shipped.art.len(),
        "each layer is drawn"
    );
}

#[test]
fn a_map_too_large_is_refused_before_anything_is_allocated() {
    let problem = broken("huge", |text| {
        replaced(
            &text,
            "width=\"206\" height=\"53\" tilewidth",
            "width=\"100000\" height=\"100000\" tilewidth",
        )
    });
    assert_eq!(
        problem,
        "a map of 100000 × 100000 tiles is too large (at most 1048576 tiles)"
    );
    // A tileset's tiles are allocated as it is read: its count is checked before.
    let problem = broken("huge_tileset", |text| {
        replaced(&text, "tilecount=\"5\"", "tilecount=\"4000000000\"")
    });
    assert_eq!(
        problem,
        "tileset \"terrain\" has 4000000000 tiles (at most 1048576)"
    );
}

#[test]
fn maps_the_game_cannot_read_say_how_to_save_them() {
    let csv = |text: &str| {
        let start = text.find("<data encoding=\"csv\">").unwrap();
        let end = text.find("</data>").unwrap();
        (start, end)
    };
    let problem = broken("base64", |text| {
        let (start, end) = csv(&text);
        format!(
            "{}<data encoding=\"base64\">AAAA{}",
            &text[..start],
            &text[end..]
        )
    });
    assert_eq!(
        problem,
        "layer \"terrain\" is base64-encoded: save the map with the tile layer format CSV"
    );
    let problem = broken("zlib", |text| {
        let (start, end) = csv(&text);
        format!(
            "{}<data encoding=\"base64\" compression=\"zlib\">eJwBAAD//w=={}",
            &text[..start],
            &text[end..]
        )
    });
    assert_eq!(
        problem,
        "layer \"terrain\" is base64-encoded and zlib-compressed: save the map with the tile \
         layer format CSV"
    );
    let problem = broken("infinite", |text| {
        replaced(&text, "infinite=\"0\"", "infinite=\"1\"")
    });
    assert_eq!(
        problem,
        "it is an infinite map: make it fixed-size (Map Properties, Infinite off)"
    );
    let problem = broken("isometric", |text| {
        replaced(
            &text,
            "orientation=\"orthogonal\"",
            "orientation=\"isometric\"",
        )
    });
    assert_eq!(
        problem,
        "its orientation is isometric: only orthogonal maps are supported"
    );
    let problem = broken("group", |text| {
        let text = replaced(
            &text,
            " <objectgroup id=\"2\" name=\"things\">",
            " <group id=\"3\" name=\"scenery\">\n <objectgroup id=\"2\" name=\"things\">",
        );
        replaced(&text, " </objectgroup>\n", " </objectgroup>\n </group>\n")
    });
    assert_eq!(
        problem,
        "layer \"scenery\" is a group: move its layers out of it"
    );
}

/// The tileset may be an external file (`.tsx`) beside the map: the level is the same. A
/// missing one is named.
#[test]
fn an_external_tileset_is_read_and_a_missing_one_named() {
    let (tsx, map) = tileset_apart(&shipped_text());
    file("terrain_apart.tsx", &tsx);
    let map = replaced(
        &map,
        " <layer id=\"1\"",
        " <tileset firstgid=\"1\" source=\"terrain_apart.tsx\"/>\n <layer id=\"1\"",
    );
    let apart = level::load(&file("level_tileset_apart.tmx", &map)).unwrap();
    let shipped = shipped();
    assert_eq!(apart.grid.size(), shipped.grid.size());
    for y in 0..53 {
        for x in 0..206 {
            let cell = UVec2::new(x, y);
            assert_eq!(apart.grid.get(cell), shipped.grid.get(cell), "{cell}");
        }
    }
    assert_eq!(apart.art, shipped.art);
    let missing = replaced(&map, "terrain_apart.tsx", "no_such_tileset.tsx");
    let problem = problem_of(&file("level_tileset_missing.tmx", &missing));
    let tsx_path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no_such_tileset.tsx");
    assert_eq!(
        problem,
        format!(
            "{}: cannot be read: No such file or directory (os error 2)",
            tsx_path.display()
        )
    );
    // The external file is checked like the map.
    file(
        "terrain_huge.tsx",
        &replaced(&tsx, "tilecount=\"5\"", "tilecount=\"4000000000\""),
    );
    let huge = replaced(&map, "terrain_apart.tsx", "terrain_huge.tsx");
    let problem = problem_of(&file("level_tileset_huge.tmx", &huge));
    let tsx_path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terrain_huge.tsx");
    assert_eq!(
        problem,
        format!(
            "{}: tileset \"terrain\" has 4000000000 tiles (at most 1048576)",
            tsx_path.display()
        )
    );
}

#[test]
fn a_tile_with_an_unknown_collision_is_refused() {
    let problem = broken("bad_collision", |text| {
        replaced(&text, "value=\"oneway\"", "value=\"sticky\"")
    });
    assert_eq!(
        problem,
        "tileset \"terrain\", tile 4: collision \"sticky\" is not one of \"solid\", \"oneway\", \"none\""
    );
}

#[test]
fn objects_the_game_cannot_place_are_named() {
    let problem = broken("unknown_class", |text| {
        replaced(&text, "type=\"goal\"", "type=\"trampoline\"")
    });
    assert_eq!(
        problem,
        "object 22 (\"goal\", class \"trampoline\"): the class \"trampoline\" is not one of \
         player, crate, handle_crate, block, coin, hazard, checkpoint, goal, sentry, platform, \
         waypoint"
    );
    let problem = broken("no_destination", |text| {
        replaced(
            &text,
            "    <property name=\"to\" type=\"object\" value=\"15\"/>\n",
            "",
        )
    });
    assert_eq!(
        problem,
        "object 16 (\"ferry\", class \"platform\"): it needs a property to (an object: where it goes)"
    );
    let problem = broken("rotated", |text| {
        replaced(
            &text,
            "name=\"spikes\" type=\"hazard\"",
            "name=\"spikes\" type=\"hazard\" rotation=\"45\"",
        )
    });
    assert_eq!(
        problem,
        "object 14 (\"spikes\", class \"hazard\"): rotated objects are not supported"
    );
    let problem = broken("flat_goal", |text| {
        replaced(
            &text,
            "width=\"20\" height=\"56\"",
            "width=\"20\" height=\"0\"",
        )
    });
    assert_eq!(
        problem,
        "object 22 (\"goal\", class \"goal\"): its size [20, 0] is not positive"
    );
    let problem = broken("crossed", |text| {
        replaced(
            &text,
            "points=\"0,0 200,0 200,-115.4701\"",
            "points=\"0,0 100,-100 100,0 0,-60\"",
        )
    });
    assert_eq!(
        problem,
        "object 10 (\"slope up\", class \"block\"): its polygon is not usable: edges 0 and 2 \
         of the outline cross or touch"
    );
    let problem = broken("polyline_goal", |text| {
        replaced(
            &text,
            "height=\"56\"/>",
            "height=\"56\">\n   <polyline points=\"0,0 10,0\"/>\n  </object>",
        )
    });
    assert_eq!(
        problem,
        "object 22 (\"goal\", class \"goal\"): only a block can be a polyline"
    );
    let problem = broken("ellipse_coin", |text| {
        replaced(
            &text,
            "<object id=\"17\" type=\"coin\" x=\"2048\" y=\"584\">\n   <point/>",
            "<object id=\"17\" type=\"coin\" x=\"2048\" y=\"584\" width=\"8\" height=\"8\">\n   <ellipse/>",
        )
    });
    assert_eq!(
        problem,
        "object 17 (\"\", class \"coin\"): ellipses are not supported"
    );
}

#[test]
fn a_level_needs_exactly_one_player() {
    let problem = broken("no_player", |text| {
        replaced(&text, "type=\"player\"", "type=\"waypoint\"")
    });
    assert_eq!(
        problem,
        "it has 0 objects of class \"player\": it needs exactly one"
    );
    let problem = broken("two_players", |text| {
        replaced(
            &text,
            "name=\"ferry end\" type=\"waypoint\"",
            "name=\"ferry end\" type=\"player\"",
        )
    });
    assert_eq!(
        problem,
        "it has 2 objects of class \"player\": it needs exactly one"
    );
}
