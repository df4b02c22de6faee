//! The platformer's level file, `assets/platformer/level.tmj` (a Tiled JSON map): what the
//! shipped file holds once loaded, and one clear error, naming the file and the problem, for
//! each way a file can be broken (each made from the shipped file with one thing wrong).

#[path = "../../../examples/platformer/level.rs"]
#[allow(dead_code)]
mod level;
#[path = "../../../examples/platformer/level_objects.rs"]
#[allow(dead_code)]
mod level_objects;
#[path = "../../../examples/platformer/tmj.rs"]
mod tmj;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use serde_json::{Value, json};

use level::{Level, LevelError};
use level_objects::ThingKind;

fn shipped() -> Level {
    level::load(&level::default_path()).unwrap()
}

fn shipped_json() -> Value {
    let text = std::fs::read_to_string(level::default_path()).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A file of this test's own, holding `text`.
fn file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("level_{name}.tmj"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The shipped map with one change, written to a file and loaded: the error, checked to name
/// the file.
fn broken(name: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut map = shipped_json();
    change(&mut map);
    let path = file(name, &serde_json::to_string(&map).unwrap());
    let error: LevelError = level::load(&path).unwrap_err();
    assert_eq!(error.path, path);
    let message = error.to_string();
    let prefix = format!("level {}: ", path.display());
    assert!(message.starts_with(&prefix), "{message}");
    message[prefix.len()..].to_owned()
}

fn terrain(map: &mut Value) -> &mut Value {
    &mut map["layers"][0]
}

/// The object with this name in the object layer.
fn object<'a>(map: &'a mut Value, name: &str) -> &'a mut Value {
    let objects = map["layers"][1]["objects"].as_array_mut().unwrap();
    objects.iter_mut().find(|o| o["name"] == name).unwrap()
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
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no_such_level.tmj");
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
fn a_truncated_file_is_not_json_and_says_where_it_ends() {
    let text = std::fs::read_to_string(level::default_path()).unwrap();
    let path = file("truncated", &text[..text.len() / 2]);
    let error = level::load(&path).unwrap_err();
    assert!(
        error
            .problem
            .starts_with("is not a Tiled JSON map: EOF while parsing"),
        "{error}"
    );
    let empty = level::load(&file("empty", "")).unwrap_err();
    assert_eq!(
        empty.problem,
        "is not a Tiled JSON map: EOF while parsing a value at line 1 column 0"
    );
}

#[test]
fn a_file_missing_a_required_field_names_it() {
    let problem = broken("no_tile_width", |map| {
        map.as_object_mut().unwrap().remove("tilewidth");
    });
    assert!(
        problem.starts_with("is not a Tiled JSON map: missing field `tilewidth`"),
        "{problem}"
    );
}

#[test]
fn an_unknown_tile_id_is_named_with_its_place() {
    let problem = broken("unknown_tile", |map| {
        terrain(map)["data"][206 + 2] = json!(9);
    });
    assert_eq!(
        problem,
        "layer \"terrain\": unknown tile id 9 at column 2, row 1"
    );
}

#[test]
fn a_flipped_tile_collides_like_the_tile() {
    let mut map = shipped_json();
    // Row 1 from the top, column 1: the left wall's stone (4), flipped horizontally.
    terrain(&mut map)["data"][206 + 1] = json!(0x8000_0004u32);
    let path = file("flipped", &serde_json::to_string(&map).unwrap());
    let level = level::load(&path).unwrap();
    assert_eq!(level.grid.get(UVec2::new(1, 51)), Tile::Solid);
}

#[test]
fn a_layer_of_the_wrong_size_is_refused() {
    let problem = broken("narrow_layer", |map| terrain(map)["width"] = json!(205));
    assert_eq!(
        problem,
        "layer \"terrain\" is 205 × 53 tiles, the map 206 × 53"
    );
    let problem = broken("short_data", |map| {
        terrain(map)["data"]
            .as_array_mut()
            .unwrap()
            .truncate(206 * 52);
    });
    assert_eq!(
        problem,
        "layer \"terrain\" has 10712 tiles, not 206 × 53 = 10918"
    );
    let problem = broken("text_tile", |map| terrain(map)["data"][5] = json!("4"));
    assert_eq!(problem, "layer \"terrain\": tile 5 is \"4\", not a tile id");
}

#[test]
fn a_map_too_large_is_refused_before_anything_is_allocated() {
    let problem = broken("huge", |map| {
        map["width"] = json!(100_000);
        map["height"] = json!(100_000);
    });
    assert_eq!(
        problem,
        "a map of 100000 × 100000 tiles is too large (at most 1048576 tiles)"
    );
}

#[test]
fn maps_the_game_cannot_read_say_how_to_save_them() {
    let problem = broken("base64", |map| {
        terrain(map)["encoding"] = json!("base64");
        terrain(map)["data"] = json!("AAAA");
    });
    assert_eq!(
        problem,
        "layer \"terrain\" is base64-encoded: save the map with the tile layer format CSV"
    );
    let problem = broken("infinite", |map| map["infinite"] = json!(true));
    assert_eq!(
        problem,
        "it is an infinite map: make it fixed-size (Map Properties, Infinite off)"
    );
    let problem = broken("isometric", |map| map["orientation"] = json!("isometric"));
    assert_eq!(
        problem,
        "its orientation is isometric: only orthogonal maps are supported"
    );
    let problem = broken("group", |map| {
        let things = map["layers"].as_array_mut().unwrap().pop().unwrap();
        map["layers"]
            .as_array_mut()
            .unwrap()
            .push(json!({"type": "group", "name": "scenery", "layers": [things]}));
    });
    assert_eq!(
        problem,
        "layer \"scenery\" is a group: move its layers out of it"
    );
    let problem = broken("external_tileset", |map| {
        map["tilesets"][0] = json!({"firstgid": 1, "source": "terrain.tsj"});
    });
    assert_eq!(
        problem,
        "tileset terrain.tsj is external: embed it in the map (Map, Embed Tilesets)"
    );
}

#[test]
fn a_tile_with_an_unknown_collision_is_refused() {
    let problem = broken("bad_collision", |map| {
        map["tilesets"][0]["tiles"][4]["properties"][0]["value"] = json!("sticky");
    });
    assert_eq!(
        problem,
        "tileset \"terrain\", tile 4: collision \"sticky\" is not one of \"solid\", \"oneway\", \"none\""
    );
}

#[test]
fn objects_the_game_cannot_place_are_named() {
    let problem = broken("unknown_class", |map| {
        object(map, "goal")["type"] = json!("trampoline");
    });
    assert_eq!(
        problem,
        "object 22 (\"goal\", class \"trampoline\"): the class \"trampoline\" is not one of \
         player, crate, handle_crate, block, coin, hazard, checkpoint, goal, sentry, platform, \
         waypoint"
    );
    let problem = broken("no_destination", |map| {
        object(map, "ferry")["properties"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    assert_eq!(
        problem,
        "object 16 (\"ferry\", class \"platform\"): it needs a property to (an object: where it goes)"
    );
    let problem = broken("rotated", |map| {
        object(map, "spikes")["rotation"] = json!(45)
    });
    assert_eq!(
        problem,
        "object 14 (\"spikes\", class \"hazard\"): rotated objects are not supported"
    );
    let problem = broken("flat_goal", |map| object(map, "goal")["height"] = json!(0));
    assert_eq!(
        problem,
        "object 22 (\"goal\", class \"goal\"): its size [20, 0] is not positive"
    );
    let problem = broken("crossed", |map| {
        object(map, "slope up")["polygon"] = json!([{"x": 0, "y": 0}, {"x": 100, "y": -100}, {"x": 100, "y": 0}, {"x": 0, "y": -60}]);
    });
    assert_eq!(
        problem,
        "object 10 (\"slope up\", class \"block\"): its polygon is not usable: edges 0 and 2 \
         of the outline cross or touch"
    );
    let problem = broken("polyline_coin", |map| {
        object(map, "goal")["polyline"] = json!([{"x": 0, "y": 0}, {"x": 10, "y": 0}]);
    });
    assert_eq!(
        problem,
        "object 22 (\"goal\", class \"goal\"): only a block can be a polyline"
    );
}

#[test]
fn a_level_needs_exactly_one_player() {
    let problem = broken("no_player", |map| {
        object(map, "player")["type"] = json!("waypoint");
    });
    assert_eq!(
        problem,
        "it has 0 objects of class \"player\": it needs exactly one"
    );
    let problem = broken("two_players", |map| {
        object(map, "ferry end")["type"] = json!("player");
    });
    assert_eq!(
        problem,
        "it has 2 objects of class \"player\": it needs exactly one"
    );
}
