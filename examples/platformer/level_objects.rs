//! The objects of a level file: what each Tiled object becomes, in world units (y up).

use bevy::prelude::*;
use bevy_sat::prelude::*;
use tiled::{LayerType, Map, Object, ObjectShape, PropertyValue};

use crate::level::{color_property, number_property};

/// Drawn for a block without a `color`.
const BLOCK_COLOR: Color = Color::srgb(0.45, 0.47, 0.52);

/// What an object is, with the sizes it needs.
#[derive(Debug, Clone)]
pub enum ThingKind {
    /// Where the player starts (a point).
    Player,
    /// A pushable crate of this size.
    Crate(Vec2),
    /// A pushable crate of this size with a handle on top (a child collider of the crate).
    HandleCrate(Vec2),
    /// Mighty scenery around the object's position: a rectangle, a polygon (convex, or concave
    /// and split into convex parts) or a polyline (a chain of segments: terrain).
    Block(ConvexCollider, Color),
    /// A coin (a point).
    Coin,
    /// Spikes: a sensor that sends the player back.
    Hazard(Vec2),
    /// Moves the respawn point here.
    Checkpoint(Vec2),
    /// The end of the level.
    Goal(Vec2),
    /// A wall-mounted laser pointing right.
    Sentry(Vec2),
    /// A moving platform: its size, where it goes, its speed and its pause at each end.
    Platform {
        size: Vec2,
        to: Vec2,
        speed: f32,
        pause: f32,
    },
}

/// One object: its name, its centre (or point) in the world, and what it is.
#[derive(Debug, Clone)]
pub struct Thing {
    pub name: String,
    pub at: Vec2,
    pub kind: ThingKind,
}

/// Every object of the map's object layers, checked: known classes, the shapes each needs, no
/// rotation, exactly one player.
pub fn things(map: &Map, origin: Vec2) -> Result<Vec<Thing>, String> {
    // Tiled's y runs down from the map's top edge.
    let top = f64::from(map.height) * f64::from(map.tile_height);
    let world = |x: f64, y: f64| origin + Vec2::new(x as f32, (top - y) as f32);
    let objects: Vec<Object> = map
        .layers()
        .filter_map(|l| match l.layer_type() {
            LayerType::Objects(layer) => Some(layer),
            _ => None,
        })
        .flat_map(|layer| layer.objects())
        .collect();
    let mut out = Vec::new();
    for object in &objects {
        let thing = thing(object, &objects, &world).map_err(|e| {
            format!(
                "object {} (\"{}\", class \"{}\"): {e}",
                object.id(),
                object.name,
                object.user_type
            )
        })?;
        out.extend(thing);
    }
    let players = out
        .iter()
        .filter(|t| matches!(t.kind, ThingKind::Player))
        .count();
    if players != 1 {
        return Err(format!(
            "it has {players} objects of class \"player\": it needs exactly one"
        ));
    }
    Ok(out)
}

/// The thing an object is (`None` for a waypoint, which only marks a place).
fn thing(
    object: &Object,
    objects: &[Object],
    world: &impl Fn(f64, f64) -> Vec2,
) -> Result<Option<Thing>, String> {
    if object.rotation != 0.0 {
        return Err("rotated objects are not supported".into());
    }
    let kind = object.user_type.as_str();
    match &object.shape {
        ObjectShape::Ellipse { .. } => return Err("ellipses are not supported".into()),
        ObjectShape::Capsule { .. } => return Err("capsules are not supported".into()),
        ObjectShape::Text { .. } => return Err("text objects are not supported".into()),
        ObjectShape::Polyline { .. } if kind != "block" => {
            return Err("only a block can be a polyline".into());
        }
        _ => {}
    }
    let (x, y) = (f64::from(object.x), f64::from(object.y));
    let point = || -> Result<Vec2, String> {
        if matches!(object.shape, ObjectShape::Point(..)) {
            Ok(world(x, y))
        } else {
            Err("it must be a point".into())
        }
    };
    let rectangle = || -> Result<(Vec2, Vec2), String> {
        let ObjectShape::Rect { width, height } = object.shape else {
            return Err("it must be a rectangle".into());
        };
        let size = Vec2::new(width, height);
        if !(size.is_finite() && size.min_element() > 0.0) {
            return Err(format!("its size {size} is not positive"));
        }
        let centre = world(x + f64::from(width) / 2.0, y + f64::from(height) / 2.0);
        Ok((centre, size))
    };
    let (at, kind) = match kind {
        "player" => (point()?, ThingKind::Player),
        "coin" => (point()?, ThingKind::Coin),
        "waypoint" => {
            point()?;
            return Ok(None);
        }
        "crate" => rectangle().map(|(at, size)| (at, ThingKind::Crate(size)))?,
        "handle_crate" => rectangle().map(|(at, size)| (at, ThingKind::HandleCrate(size)))?,
        "hazard" => rectangle().map(|(at, size)| (at, ThingKind::Hazard(size)))?,
        "checkpoint" => rectangle().map(|(at, size)| (at, ThingKind::Checkpoint(size)))?,
        "goal" => rectangle().map(|(at, size)| (at, ThingKind::Goal(size)))?,
        "sentry" => rectangle().map(|(at, size)| (at, ThingKind::Sentry(size)))?,
        "block" => {
            let color = color_property(&object.properties)?.unwrap_or(BLOCK_COLOR);
            let (at, collider) = match &object.shape {
                ObjectShape::Polygon { points } => polygon(object, points, world)?,
                ObjectShape::Polyline { points } => polyline(object, points, world)?,
                _ => {
                    let (at, size) = rectangle()?;
                    (at, ConvexCollider::rectangle(size.x, size.y))
                }
            };
            (at, ThingKind::Block(collider, color))
        }
        "platform" => {
            let (at, size) = rectangle()?;
            let to = waypoint(object, objects, world)?;
            let number = |name: &str| {
                number_property(&object.properties, name)?
                    .filter(|v| *v >= 0.0)
                    .ok_or_else(|| format!("it needs a property {name} (a number, at least 0)"))
            };
            let kind = ThingKind::Platform {
                size,
                to,
                speed: number("speed")?,
                pause: number("pause")?,
            };
            (at, kind)
        }
        other => {
            return Err(format!(
                "the class \"{other}\" is not one of player, crate, handle_crate, block, coin, \
                 hazard, checkpoint, goal, sentry, platform, waypoint"
            ));
        }
    };
    if !at.is_finite() {
        return Err(format!("its position {at} is not finite"));
    }
    Ok(Some(Thing {
        name: object.name.clone(),
        at,
        kind,
    }))
}

/// A polygon object as a collider around its vertices' mean, and that mean: convex as it is,
/// or, when it is concave, split into convex parts.
fn polygon(
    object: &Object,
    points: &[(f32, f32)],
    world: &impl Fn(f64, f64) -> Vec2,
) -> Result<(Vec2, ConvexCollider), String> {
    let (centre, vertices) = around_mean(object, points, world);
    let collider = ConvexCollider::convex_polygon(vertices.iter().copied())
        .or_else(|_| ConvexCollider::concave(vertices.iter().copied()))
        .map_err(|e| format!("its polygon is not usable: {e}"))?;
    Ok((centre, collider))
}

/// A polyline object as a chain collider around its vertices' mean, and that mean.
fn polyline(
    object: &Object,
    points: &[(f32, f32)],
    world: &impl Fn(f64, f64) -> Vec2,
) -> Result<(Vec2, ConvexCollider), String> {
    let (centre, vertices) = around_mean(object, points, world);
    let collider = ConvexCollider::polyline(vertices)
        .map_err(|e| format!("its polyline is not usable: {e}"))?;
    Ok((centre, collider))
}

/// An object's vertices (relative to its position) in the world, and their mean with the
/// vertices taken relative to it.
fn around_mean(
    object: &Object,
    points: &[(f32, f32)],
    world: &impl Fn(f64, f64) -> Vec2,
) -> (Vec2, Vec<Vec2>) {
    let (x, y) = (f64::from(object.x), f64::from(object.y));
    let vertices: Vec<Vec2> = points
        .iter()
        .map(|&(px, py)| world(x + f64::from(px), y + f64::from(py)))
        .collect();
    let centre = vertices.iter().copied().sum::<Vec2>() / vertices.len().max(1) as f32;
    (centre, vertices.iter().map(|v| *v - centre).collect())
}

/// Where a platform goes: the point object its `to` property names.
fn waypoint(
    object: &Object,
    objects: &[Object],
    world: &impl Fn(f64, f64) -> Vec2,
) -> Result<Vec2, String> {
    let Some(&PropertyValue::ObjectValue(id)) = object.properties.get("to") else {
        return Err("it needs a property to (an object: where it goes)".into());
    };
    let target = objects
        .iter()
        .find(|o| o.id() == id && matches!(o.shape, ObjectShape::Point(..)))
        .ok_or_else(|| format!("its property to names object {id}, which is not a point"))?;
    Ok(world(f64::from(target.x), f64::from(target.y)))
}
