//! `CollidingEntities`: filled each step with what its body touched, on both sides of a pair,
//! sensors included, and emptied when the body no longer touches anything.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// A 10 × 10 Weak box with `CollidingEntities`, its centre at `(x, y)`.
fn watched_box(app: &mut App, x: f32, y: f32) -> Entity {
    let entity = weak(app, ConvexCollider::rectangle(10.0, 10.0), x, y);
    app.world_mut()
        .entity_mut(entity)
        .insert(CollidingEntities::default());
    entity
}

fn touched(app: &App, entity: Entity) -> Vec<Entity> {
    app.world()
        .get::<CollidingEntities>(entity)
        .expect("has CollidingEntities")
        .iter()
        .collect()
}

#[test]
fn a_box_on_a_floor_and_the_floor_list_each_other() {
    let mut app = app_with_gravity(-900.0);
    let floor = mighty(&mut app, ConvexCollider::rectangle(200.0, 20.0), 0.0, -10.0);
    app.world_mut()
        .entity_mut(floor)
        .insert(CollidingEntities::default());
    let left = watched_box(&mut app, -20.0, 5.0);
    let right = watched_box(&mut app, 20.0, 5.0);
    run(&mut app, 5);
    assert_eq!(touched(&app, left), vec![floor]);
    assert_eq!(touched(&app, right), vec![floor]);
    let mut both = vec![left, right];
    both.sort();
    assert_eq!(touched(&app, floor), both);
    let list = app.world().get::<CollidingEntities>(left).unwrap();
    assert!(list.contains(floor) && !list.contains(right));
    assert_eq!(list.len(), 1);
}

#[test]
fn a_sensor_is_listed_and_the_list_empties_when_the_body_leaves() {
    let mut app = app();
    let zone = mighty(&mut app, ConvexCollider::rectangle(20.0, 20.0), 0.0, 0.0);
    app.world_mut().entity_mut(zone).insert(Sensor);
    let visitor = watched_box(&mut app, 0.0, 0.0);
    run(&mut app, 1);
    assert_eq!(touched(&app, visitor), vec![zone]);
    app.world_mut()
        .entity_mut(visitor)
        .insert(Velocity(Vec2::new(6000.0, 0.0)));
    run(&mut app, 2);
    assert!(
        app.world()
            .get::<CollidingEntities>(visitor)
            .unwrap()
            .is_empty(),
        "{:?}",
        touched(&app, visitor)
    );
}

#[test]
fn a_body_touching_many_lists_each_once_in_entity_order() {
    let mut app = app();
    // A box in the middle of four others pressed against it, all Weak, no gravity; spawned
    // between them, so that it is the larger entity of some pairs and the smaller of others.
    let side =
        |app: &mut App, (x, y): (f32, f32)| weak(app, ConvexCollider::rectangle(10.0, 10.0), x, y);
    let mut others = vec![side(&mut app, (10.0, 0.0)), side(&mut app, (-10.0, 0.0))];
    let middle = watched_box(&mut app, 0.0, 0.0);
    others.push(side(&mut app, (0.0, 10.0)));
    others.push(side(&mut app, (0.0, -10.0)));
    run(&mut app, 1);
    others.sort();
    assert_eq!(touched(&app, middle), others);
}
