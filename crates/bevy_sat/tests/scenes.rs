//! Saving the plugin's components and loading them back through reflection, the way Bevy's
//! scenes (`DynamicWorld`) do: each component is written with the type registry's serializer as
//! `{"type::path": value}` in RON, read back with its deserializer, and inserted with its
//! `ReflectComponent`. A collider is validated again on the way in.

mod common;

use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::reflect::{AppTypeRegistry, ReflectComponent};
use bevy::prelude::*;
use bevy::reflect::serde::{ReflectDeserializer, ReflectSerializer};
use bevy::reflect::{PartialReflect, TypeRegistry};
use bevy_sat::prelude::*;
use common::*;
use serde::de::DeserializeSeed;

/// One saved entity: each of its reflected components as RON text.
type SavedEntity = Vec<String>;

/// The plugin's components (and `Transform`) of `entities`, each as RON text, as a scene holds
/// them.
fn save(app: &App, entities: &[Entity]) -> Vec<SavedEntity> {
    let world = app.world();
    let registry = world.resource::<AppTypeRegistry>().read();
    entities
        .iter()
        .map(|&entity| {
            let entity_ref = world.entity(entity);
            let mut saved: Vec<(String, String)> = entity_ref
                .archetype()
                .iter_components()
                .filter_map(|id| world.components().get_info(id)?.type_id())
                .filter_map(|type_id| registry.get(type_id))
                .filter(|registration| {
                    let path = registration.type_info().type_path();
                    path.starts_with("bevy_sat::") || path.ends_with("::Transform")
                })
                .map(|registration| {
                    let component = registration
                        .data::<ReflectComponent>()
                        .expect("reflects Component")
                        .reflect(entity_ref)
                        .expect("on the entity");
                    let text = ron::to_string(&ReflectSerializer::new(
                        component.as_partial_reflect(),
                        &registry,
                    ))
                    .expect("serializable");
                    (registration.type_info().type_path().to_owned(), text)
                })
                .collect();
            // In a fixed order (as scenes sort them), whatever the archetype's.
            saved.sort();
            saved.into_iter().map(|(_, text)| text).collect()
        })
        .collect()
}

/// One saved component read back.
fn read(registry: &TypeRegistry, text: &str) -> Result<Box<dyn PartialReflect>, ron::Error> {
    let mut deserializer = ron::Deserializer::from_str(text).map_err(ron::Error::from)?;
    ReflectDeserializer::new(registry).deserialize(&mut deserializer)
}

/// Spawns the saved entities in `app`, in order; the first component that fails to read fails
/// the whole load, with its error (nothing is spawned then).
fn load(app: &mut App, saved: &[SavedEntity]) -> Result<Vec<Entity>, String> {
    let registry = app.world().resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let mut read_entities = Vec::new();
    for entity in saved {
        let components = entity
            .iter()
            .map(|text| read(&registry, text).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        read_entities.push(components);
    }
    let world = app.world_mut();
    Ok(read_entities
        .into_iter()
        .map(|components| {
            let mut entity = world.spawn_empty();
            for component in components {
                let type_id = component
                    .get_represented_type_info()
                    .expect("a represented type")
                    .type_id();
                registry
                    .get_type_data::<ReflectComponent>(type_id)
                    .expect("reflects Component")
                    .insert(&mut entity, component.as_partial_reflect(), &registry);
            }
            entity.id()
        })
        .collect())
}

fn scene_app() -> App {
    let mut app = app_with_gravity(-600.0);
    app.register_type::<Transform>();
    app
}

/// A small level: a floor, a rotated one-way platform, a Weak circle on its layers with a
/// velocity, and a triangular sensor.
fn level(app: &mut App) -> Vec<Entity> {
    let triangle = ConvexCollider::convex_polygon([
        Vec2::new(-8.0, 0.0),
        Vec2::new(8.0, 0.0),
        Vec2::new(0.0, 12.0),
    ])
    .expect("a valid triangle");
    vec![
        mighty(app, ConvexCollider::rectangle(300.0, 20.0), 0.0, 0.0),
        spawn(
            app,
            (
                ConvexCollider::regular_polygon(6, 20.0),
                OneWayPlatform {
                    left: true,
                    ..OneWayPlatform::TOP
                },
                Transform::from_xyz(60.0, 50.0, 0.0).with_rotation(Quat::from_rotation_z(0.3)),
            ),
        ),
        spawn(
            app,
            (
                ConvexCollider::circle(6.0),
                Weak,
                Velocity(Vec2::new(30.0, 0.0)),
                CollisionLayers::new(0b01, 0b11),
                Transform::from_xyz(-20.0, 40.0, 0.0),
            ),
        ),
        spawn(
            app,
            (
                triangle,
                Sensor,
                DropThrough,
                Transform::from_xyz(-60.0, 20.0, 0.0),
            ),
        ),
    ]
}

fn component<T: Component + Clone>(app: &App, entity: Entity) -> Option<T> {
    app.world().get::<T>(entity).cloned()
}

#[test]
fn a_saved_level_loads_as_it_was_and_moves_the_same() {
    let mut original = scene_app();
    let entities = level(&mut original);
    let saved = save(&original, &entities);
    let mut copy = scene_app();
    let loaded = load(&mut copy, &saved).expect("a valid scene");
    assert_eq!(loaded.len(), entities.len());
    for (&a, &b) in entities.iter().zip(&loaded) {
        let (from, to) = (&original, &copy);
        assert_eq!(component::<ConvexCollider>(from, a), component(to, b));
        assert!(component::<ConvexCollider>(to, b).is_some());
        assert_eq!(component::<Transform>(from, a), component(to, b));
        assert_eq!(component::<Mighty>(from, a), component(to, b));
        assert_eq!(component::<Weak>(from, a), component(to, b));
        assert_eq!(component::<Sensor>(from, a), component(to, b));
        assert_eq!(component::<Velocity>(from, a), component(to, b));
        assert_eq!(component::<CollisionLayers>(from, a), component(to, b));
        assert_eq!(component::<OneWayPlatform>(from, a), component(to, b));
        assert_eq!(component::<DropThrough>(from, a), component(to, b));
        assert_eq!(component::<ContactFlags>(from, a), component(to, b));
    }
    // The circle, the hexagon and the triangle came back as themselves.
    assert_eq!(
        component::<ConvexCollider>(&copy, loaded[2]),
        Some(ConvexCollider::circle(6.0))
    );
    assert_eq!(
        component::<ConvexCollider>(&copy, loaded[1]),
        Some(ConvexCollider::regular_polygon(6, 20.0))
    );
    // Both worlds step alike: the circle falls onto the floor in each, to the same place.
    run(&mut original, 90);
    run(&mut copy, 90);
    let (falling, falling_copy) = (entities[2], loaded[2]);
    assert_eq!(position(&original, falling), position(&copy, falling_copy));
    assert!(flags(&copy, falling_copy).on_floor());
    assert_eq!(flags(&copy, falling_copy).standing_on(), Some(loaded[0]));
}

/// The RON text of a 2 × 2 square collider, and the text of its vertex (1, 1) in it.
fn saved_square() -> (String, String) {
    let mut app = scene_app();
    let square = spawn(&mut app, ConvexCollider::rectangle(2.0, 2.0));
    let saved = save(&app, &[square]);
    let collider = saved[0]
        .iter()
        .find(|text| text.contains("ConvexCollider"))
        .expect("the collider was saved")
        .clone();
    let corner = ron::to_string(&Vec2::new(1.0, 1.0)).expect("serializable");
    assert!(collider.contains(&corner), "{corner} not in {collider}");
    (collider, corner)
}

fn load_tampered(collider: String) -> Result<Vec<Entity>, String> {
    let mut app = scene_app();
    let result = load(&mut app, &[vec![collider]]);
    if result.is_err() {
        // Nothing was spawned from the broken scene.
        let mut colliders = app.world_mut().query::<&ConvexCollider>();
        assert_eq!(colliders.iter(app.world()).count(), 0);
    }
    result
}

#[test]
fn a_scene_with_a_non_convex_polygon_fails_to_load() {
    let (collider, corner) = saved_square();
    // The corner (1, 1) pulled in past the centre: a dent.
    let dented = ron::to_string(&Vec2::new(-0.5, -0.5)).expect("serializable");
    let error = load_tampered(collider.replace(&corner, &dented)).expect_err("must fail");
    assert!(error.contains("not convex"), "{error}");
}

#[test]
fn a_scene_with_a_nan_coordinate_fails_to_load() {
    let (collider, corner) = saved_square();
    let error = load_tampered(collider.replace(&corner, "(NaN, 1.0)")).expect_err("must fail");
    assert!(error.contains("NaN or infinite"), "{error}");
}

#[test]
fn a_scene_with_a_bad_circle_fails_to_load() {
    let mut app = scene_app();
    let coin = spawn(&mut app, ConvexCollider::circle(3.0));
    let saved = save(&app, &[coin]);
    let collider = saved[0]
        .iter()
        .find(|text| text.contains("ConvexCollider"))
        .expect("the collider was saved")
        .clone();
    let radius = "radius:3.0";
    assert!(collider.contains(radius), "{collider}");
    let error = load_tampered(collider.replace(radius, "radius:-3.0")).expect_err("must fail");
    assert!(error.contains("radius"), "{error}");
}

/// The test above tampers with the text it expects; the untampered text loads.
#[test]
fn an_untampered_collider_loads() {
    let (collider, _) = saved_square();
    let loaded = load_tampered(collider).expect("valid");
    assert_eq!(loaded.len(), 1);
}

/// A scene maps the entities its components name to the entities it spawns: the one a body
/// stands on is mapped too, so a loaded body is carried by the loaded platform, not by
/// whatever had that id.
#[test]
fn contact_flags_map_the_entity_they_stand_on() {
    let mut app = scene_app();
    let floor = floor(&mut app);
    let body = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 20.0);
    run(&mut app, 60);
    let mut flags = flags(&app, body);
    assert_eq!(flags.standing_on(), Some(floor));
    let loaded_floor = spawn(&mut app, ());
    let mut map = EntityHashMap::default();
    map.insert(floor, loaded_floor);
    <ContactFlags as Component>::map_entities(&mut flags, &mut map);
    assert_eq!(flags.standing_on(), Some(loaded_floor));
}
