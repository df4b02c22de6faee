//! Collision events (messages and observers), sensors, layers, and the `Contacts` resource.

mod common;

use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// A Weak box moving right at 60 units/s (1 per step) towards a Mighty box 10 units away.
fn approaching_pair(app: &mut App) -> (Entity, Entity) {
    let mover = spawn(
        app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Sensor,
            Velocity(Vec2::new(60.0, 0.0)),
        ),
    );
    let target = spawn(
        app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Mighty,
            Transform::from_xyz(15.5, 0.0, 0.0),
        ),
    );
    (mover, target)
}

#[test]
fn started_and_ended_exactly_once_per_change() {
    let mut app = app();
    log_messages(&mut app);
    let (mover, target) = approaching_pair(&mut app);
    let key = (mover.min(target), mover.max(target));
    run(&mut app, 5); // right side at 10 vs 10.5: apart
    assert!(app.world().resource::<Log>().started.is_empty());
    app.update(); // 11 > 10.5: overlapping
    assert_eq!(app.world().resource::<Log>().started, vec![key]);
    run(&mut app, 10); // passes through (a sensor): stays in contact
    assert_eq!(app.world().resource::<Log>().started.len(), 1);
    assert!(app.world().resource::<Log>().ended.is_empty());
    run(&mut app, 10); // left side beyond 20.5: apart
    let log = app.world().resource::<Log>();
    assert_eq!((log.started.len(), log.ended.clone()), (1, vec![key]));
}

#[test]
fn despawn_and_collider_removal_end_the_pair_once() {
    let mut app = app();
    log_messages(&mut app);
    let still = spawn(
        &mut app,
        (ConvexCollider::rectangle(10.0, 10.0), Mighty, Sensor),
    );
    let a = weak(&mut app, ConvexCollider::rectangle(4.0, 4.0), 1.0, 0.0);
    let b = weak(&mut app, ConvexCollider::rectangle(4.0, 4.0), -1.0, 30.0);
    app.update();
    assert_eq!(
        app.world().resource::<Log>().started,
        vec![(still.min(a), still.max(a))]
    );
    app.world_mut().entity_mut(a).despawn();
    run(&mut app, 3);
    assert_eq!(
        app.world().resource::<Log>().ended,
        vec![(still.min(a), still.max(a))]
    );
    // b enters, then loses its collider.
    app.world_mut()
        .entity_mut(b)
        .insert(Transform::from_xyz(-1.0, 0.0, 0.0));
    app.update();
    assert_eq!(app.world().resource::<Log>().started.len(), 2);
    app.world_mut().entity_mut(b).remove::<ConvexCollider>();
    run(&mut app, 3);
    let log = app.world().resource::<Log>();
    assert_eq!(
        log.ended,
        vec![(still.min(a), still.max(a)), (still.min(b), still.max(b))]
    );
    assert_eq!(log.started.len(), 2);
}

#[derive(Resource, Default)]
struct Observed(Vec<(&'static str, Entity, Entity)>);

#[test]
fn a_global_observer_hears_of_a_despawned_body_only_from_the_other_one() {
    let mut app = app();
    app.init_resource::<Observed>();
    app.add_observer(|hit: On<CollisionEnded>, mut seen: ResMut<Observed>| {
        seen.0.push(("ended", hit.a, hit.b));
    });
    let still = spawn(
        &mut app,
        (ConvexCollider::rectangle(10.0, 10.0), Mighty, Sensor),
    );
    // Both inside `still`, 2 apart from each other.
    let gone = weak(&mut app, ConvexCollider::rectangle(4.0, 4.0), 3.0, 0.0);
    let left = weak(&mut app, ConvexCollider::rectangle(4.0, 4.0), -3.0, 0.0);
    app.update();
    app.world_mut().entity_mut(gone).despawn();
    // `left` loses its collider but lives: both of its sides are heard.
    app.world_mut().entity_mut(left).remove::<ConvexCollider>();
    run(&mut app, 2);
    let mut seen = app.world().resource::<Observed>().0.clone();
    seen.sort();
    let mut expected = vec![
        ("ended", still, gone),
        ("ended", still, left),
        ("ended", left, still),
    ];
    expected.sort();
    assert_eq!(seen, expected, "nothing targeted at the despawned body");
}

#[test]
fn observers_fire_on_both_entities() {
    let mut app = app();
    app.init_resource::<Observed>();
    let (mover, target) = approaching_pair(&mut app);
    for e in [mover, target] {
        app.world_mut().entity_mut(e).observe(
            |hit: On<CollisionStarted>, mut seen: ResMut<Observed>| {
                seen.0.push(("started", hit.a, hit.b));
            },
        );
        app.world_mut().entity_mut(e).observe(
            |hit: On<CollisionEnded>, mut seen: ResMut<Observed>| {
                seen.0.push(("ended", hit.a, hit.b));
            },
        );
    }
    run(&mut app, 30);
    let mut seen = app.world().resource::<Observed>().0.clone();
    seen.sort();
    assert_eq!(
        seen,
        {
            let mut v = vec![
                ("ended", mover, target),
                ("ended", target, mover),
                ("started", mover, target),
                ("started", target, mover),
            ];
            v.sort();
            v
        },
        "each observer sees itself as `a`"
    );
}

#[test]
fn started_events_carry_the_contact_and_contacts_are_readable() {
    let mut app = app();
    let floor = floor(&mut app);
    let bx = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 4.0);
    app.update();
    let started: Vec<CollisionStarted> = app
        .world_mut()
        .resource_mut::<Messages<CollisionStarted>>()
        .drain()
        .collect();
    assert_eq!(started.len(), 1);
    let e = started[0];
    assert_eq!((e.a, e.b), (floor.min(bx), floor.max(bx)));
    // The contact as it was after resolution: touching (depth 0), normal from a to b.
    let expected_normal = if e.a == bx { Vec2::NEG_Y } else { Vec2::Y };
    assert_eq!(e.contact.normal, expected_normal);
    assert!(e.contact.depth.abs() < 1e-4);
    let contacts = app.world().resource::<Contacts>();
    assert_eq!(contacts.len(), 1);
    let c = contacts.get(bx, floor).expect("touching");
    assert_eq!(c.normal, Vec2::NEG_Y);
    assert_eq!(c.points().len(), 2);
    assert_eq!(
        contacts
            .touching(floor)
            .map(|(other, c)| (other, c.normal))
            .collect::<Vec<_>>(),
        vec![(bx, Vec2::Y)]
    );
}

#[test]
fn sensors_report_and_never_push() {
    let mut app = app_with_gravity(-600.0);
    log_messages(&mut app);
    let coin = spawn(
        &mut app,
        (
            ConvexCollider::circle(5.0),
            Sensor,
            Transform::from_xyz(0.0, -20.0, 0.0),
        ),
    );
    let body = spawn(&mut app, (ConvexCollider::rectangle(10.0, 10.0), Weak));
    // A Weak sensor is not pushed out of a Mighty wall either.
    let ghost = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Sensor,
            Transform::from_xyz(100.0, 0.0, 0.0),
        ),
    );
    mighty(&mut app, ConvexCollider::rectangle(10.0, 100.0), 100.0, 0.0);
    run(&mut app, 30);
    // Free fall, exactly as without the coin: v_n = -10 n, y_n = -sum = -10 n (n + 1) / 2 / 60.
    let n = 30.0;
    let expected = -600.0 / 3600.0 * n * (n + 1.0) / 2.0;
    assert!(
        (position(&app, body).y - expected).abs() < 1e-3,
        "{}",
        position(&app, body).y
    );
    assert_eq!(position(&app, coin), Vec2::new(0.0, -20.0));
    assert_eq!(position(&app, ghost).x, 100.0);
    assert!(!flags(&app, body).on_floor() && !flags(&app, ghost).on_wall_left());
    let log = app.world().resource::<Log>();
    assert!(log.started.contains(&(coin.min(body), coin.max(body))));
    assert!(log.ended.contains(&(coin.min(body), coin.max(body))));
}

/// With every Weak body a sensor, the step has nothing to push and skips resolution: the body
/// sinks into the floor, still reported in contact, and its floor flag is cleared. Made solid
/// again, it is pushed back on top of the floor in the next step.
#[test]
fn a_scene_of_sensors_only_resolves_nothing_until_a_body_is_solid_again() {
    let mut app = app_with_gravity(-600.0);
    let floor = floor(&mut app);
    let body = moving(
        &mut app,
        ConvexCollider::rectangle(10.0, 10.0),
        0.0,
        5.0,
        Vec2::ZERO,
    );
    run(&mut app, 10);
    assert_eq!(position(&app, body).y, 5.0);
    assert!(flags(&app, body).on_floor());

    app.world_mut().entity_mut(body).insert(Sensor);
    run(&mut app, 10);
    // Gravity only: v_n = -10 n, so y falls by 10 (1 + ... + 10) / 60.
    let sunk = 5.0 - 10.0 * 55.0 / 60.0;
    assert!((position(&app, body).y - sunk).abs() < 1e-4);
    assert_eq!(flags(&app, body), ContactFlags::default());
    let contacts = app.world().resource::<Contacts>();
    assert_eq!(
        contacts
            .touching(floor)
            .map(|(other, _)| other)
            .collect::<Vec<_>>(),
        vec![body]
    );

    app.world_mut().entity_mut(body).remove::<Sensor>();
    app.update();
    assert!(
        (position(&app, body).y - 5.0).abs() < 1e-5,
        "{}",
        position(&app, body).y
    );
    assert!(flags(&app, body).on_floor());
    assert_eq!(velocity(&app, body), Vec2::ZERO);
}

#[test]
fn layers_filter_events_and_resolution() {
    let mut app = app_with_gravity(-600.0);
    log_messages(&mut app);
    const PLAYER: u32 = 1;
    const WORLD: u32 = 2;
    const GHOST: u32 = 4;
    spawn(
        &mut app,
        (
            ConvexCollider::rectangle(400.0, 20.0),
            Mighty,
            Transform::from_xyz(0.0, -10.0, 0.0),
            CollisionLayers::new(WORLD, CollisionLayers::ALL),
        ),
    );
    let player = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Transform::from_xyz(0.0, 20.0, 0.0),
            CollisionLayers::new(PLAYER, WORLD),
        ),
    );
    let ghost = spawn(
        &mut app,
        (
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Transform::from_xyz(2.0, 20.0, 0.0),
            CollisionLayers::new(GHOST, PLAYER),
        ),
    );
    run(&mut app, 60);
    assert!(
        (position(&app, player).y - 5.0).abs() < 1e-3,
        "the player lands"
    );
    assert!(
        position(&app, ghost).y < -100.0,
        "the ghost falls through the world"
    );
    // Player and ghost overlapped at the start but neither pushed nor reported each other.
    assert_eq!(position(&app, player).x, 0.0);
    let log = app.world().resource::<Log>();
    assert!(
        !log.started.iter().any(|&(a, b)| a == ghost || b == ghost),
        "{:?}",
        log.started
    );
    assert_eq!(log.started.len(), 1);
}

/// With the resolution set turned off (detection only), two overlapping Weak bodies stay where
/// they are and are still reported: listed in `Contacts`, one started event, and their
/// contact the narrow phase's.
#[test]
fn weak_pairs_are_reported_without_resolution() {
    let mut app = app();
    log_messages(&mut app);
    app.configure_sets(FixedPostUpdate, SatSystems::Resolve.run_if(|| false));
    let a = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 0.0);
    let b = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 8.0, 0.0);
    run(&mut app, 3);
    assert_eq!(position(&app, a), Vec2::ZERO, "not pushed");
    assert_eq!(position(&app, b), Vec2::new(8.0, 0.0), "not pushed");
    assert_eq!(
        app.world().resource::<Log>().started,
        vec![(a.min(b), a.max(b))]
    );
    let contacts = app.world().resource::<Contacts>();
    assert_eq!(contacts.len(), 1);
    let contact = contacts.get(a, b).expect("overlapping");
    assert_eq!((contact.normal, contact.depth), (Vec2::X, 2.0));
}
