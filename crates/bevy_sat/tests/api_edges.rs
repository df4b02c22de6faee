//! The sharp edges of the public API: `Mighty` and `Weak` exclude each other, a body without a
//! collider is left out (not a default shape) and reported once, and `Crushed` holds a plain
//! `Vec`.

mod common;

use std::fmt::Debug;
use std::sync::{Mutex, Once};

use bevy::log::Level;
use bevy::log::tracing::field::{Field, Visit};
use bevy::log::tracing::{self, Event, Subscriber};
use bevy::log::tracing_subscriber::layer::{Context, SubscriberExt};
use bevy::log::tracing_subscriber::{Layer, Registry};
use bevy::prelude::*;
use bevy_sat::prelude::*;
use common::*;

/// Every warning logged in this test binary, from any thread.
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// A tracing layer that records the message of every warning in [`WARNINGS`].
struct CaptureWarnings;

impl<S: Subscriber> Layer<S> for CaptureWarnings {
    fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
        struct Message(String);
        impl Visit for Message {
            fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        if *event.metadata().level() != Level::WARN {
            return;
        }
        let mut message = Message(String::new());
        event.record(&mut message);
        WARNINGS.lock().expect("not poisoned").push(message.0);
    }
}

/// Installs [`CaptureWarnings`] as the process-wide subscriber (once: systems log from the
/// task pool's threads, so a thread-local one would miss them).
fn capture_warnings() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        tracing::subscriber::set_global_default(Registry::default().with(CaptureWarnings))
            .expect("no other subscriber in this test binary");
    });
}

/// The warnings logged so far that mention `text` (a name unique to one test).
fn warnings_about(text: &str) -> Vec<String> {
    WARNINGS
        .lock()
        .expect("not poisoned")
        .iter()
        .filter(|w| w.contains(text))
        .cloned()
        .collect()
}

fn kinds(app: &App, entity: Entity) -> (bool, bool) {
    let e = app.world().entity(entity);
    (e.contains::<Mighty>(), e.contains::<Weak>())
}

// --- Mighty and Weak exclude each other -----------------------------------------------------

#[test]
fn inserting_weak_on_a_mighty_body_leaves_only_weak() {
    let mut app = app();
    let body = spawn(&mut app, (ConvexCollider::rectangle(10.0, 10.0), Mighty));
    app.world_mut().entity_mut(body).insert(Weak);
    assert_eq!(kinds(&app, body), (false, true));
    // Weak's own requirements came with it.
    assert!(app.world().entity(body).contains::<Velocity>());
    assert!(app.world().entity(body).contains::<ContactFlags>());
}

#[test]
fn inserting_mighty_on_a_weak_body_leaves_only_mighty() {
    let mut app = app();
    let body = spawn(&mut app, (ConvexCollider::rectangle(10.0, 10.0), Weak));
    app.world_mut().entity_mut(body).insert(Mighty);
    assert_eq!(kinds(&app, body), (true, false));
}

/// Through commands, as a game would: the other kind is gone before any later system runs.
#[test]
fn a_kind_inserted_by_command_replaces_the_other_before_the_next_system() {
    let mut app = app();
    let body = spawn(&mut app, (ConvexCollider::rectangle(10.0, 10.0), Mighty));
    app.add_systems(
        Update,
        (
            move |mut commands: Commands| {
                commands.entity(body).insert(Weak);
            },
            move |bodies: Query<(Has<Mighty>, Has<Weak>)>| {
                assert_eq!(bodies.get(body).expect("alive"), (false, true));
            },
        )
            .chain(),
    );
    app.update();
    assert_eq!(kinds(&app, body), (false, true));
}

/// A wall turned Weak falls under gravity (the step sees only the new kind), and turned
/// Mighty again stops where it is.
#[test]
fn a_body_that_changes_kind_moves_as_its_new_kind() {
    let mut app = app_with_gravity(-600.0);
    let body = mighty(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 0.0);
    run(&mut app, 3);
    assert_eq!(position(&app, body), Vec2::ZERO);
    app.world_mut().entity_mut(body).insert(Weak);
    run(&mut app, 3);
    let fallen = position(&app, body);
    assert!(fallen.y < -1.0, "{fallen}");
    app.world_mut()
        .entity_mut(body)
        .insert((Mighty, Velocity(Vec2::ZERO)));
    run(&mut app, 3);
    assert_eq!(kinds(&app, body), (true, false));
    assert_eq!(position(&app, body), fallen);
}

/// A Weak body turned Mighty keeps its velocity and moves on at it, feeling no gravity.
#[test]
fn a_weak_body_turned_mighty_moves_on_at_its_velocity() {
    let mut app = app_with_gravity(-600.0);
    let collider = ConvexCollider::rectangle(10.0, 10.0);
    let body = moving(&mut app, collider, 0.0, 0.0, Vec2::new(60.0, 0.0));
    app.world_mut().entity_mut(body).insert(Mighty);
    run(&mut app, 6);
    assert_eq!(velocity(&app, body), Vec2::new(60.0, 0.0));
    let at = position(&app, body);
    assert!((at - Vec2::new(6.0, 0.0)).length() < 1e-4, "{at}");
}

#[test]
fn a_bundle_with_both_kinds_keeps_the_one_listed_first() {
    capture_warnings();
    let mut app = app_with_gravity(-600.0);
    let collider = || ConvexCollider::rectangle(10.0, 10.0);
    let mighty_first = spawn(&mut app, (collider(), Mighty, Weak));
    let weak_first = spawn(&mut app, (collider(), Weak, Mighty));
    assert_eq!(kinds(&app, mighty_first), (true, false));
    assert_eq!(kinds(&app, weak_first), (false, true));
    // The same when the bundle is inserted on an entity that has neither.
    let inserted = spawn(&mut app, collider());
    app.world_mut().entity_mut(inserted).insert((Weak, Mighty));
    assert_eq!(kinds(&app, inserted), (false, true));
    // Nested bundles list their components in order too.
    let nested = spawn(&mut app, (collider(), (Mighty, (Weak,))));
    assert_eq!(kinds(&app, nested), (true, false));
    // The step never sees both, so never warns about it.
    run(&mut app, 2);
    assert!(warnings_about("both Mighty and Weak").is_empty());
}

/// A one-way platform brings `Mighty` with it (a required component), which then wins over a
/// `Weak` the entity had.
#[test]
fn a_one_way_platform_on_a_weak_body_makes_it_mighty() {
    let mut app = app();
    let body = spawn(&mut app, (ConvexCollider::rectangle(10.0, 10.0), Weak));
    app.world_mut().entity_mut(body).insert(OneWayPlatform::TOP);
    assert_eq!(kinds(&app, body), (true, false));
}

// --- Bodies without a collider --------------------------------------------------------------

#[test]
fn a_body_kind_brings_no_collider() {
    let mut app = app();
    for bundle in [
        spawn(&mut app, Mighty),
        spawn(&mut app, Weak),
        spawn(&mut app, Sensor),
    ] {
        let e = app.world().entity(bundle);
        assert!(!e.contains::<ConvexCollider>());
        assert!(e.contains::<Transform>());
    }
}

/// A Mighty body without a collider is no wall: a box falls straight through where it is (it
/// used to get a 1 × 1 square by default, and the box landed on it).
#[test]
fn a_mighty_body_without_a_collider_does_not_stop_a_falling_body() {
    let mut app = app_with_gravity(-600.0);
    spawn(&mut app, (Mighty, Transform::default()));
    let faller = weak(&mut app, ConvexCollider::rectangle(10.0, 10.0), 0.0, 20.0);
    run(&mut app, 60);
    let y = position(&app, faller).y;
    assert!(y < -100.0, "the box stopped at {y}");
    assert!(!flags(&app, faller).on_floor());
    assert!(app.world().resource::<Contacts>().is_empty());
}

/// A Weak body without a collider is left out of the step (not moved, not collided) until it
/// gets one; then it falls onto the floor and stands on it.
#[test]
fn a_weak_body_without_a_collider_waits_for_one_then_lands() {
    let mut app = app_with_gravity(-600.0);
    let floor = mighty(&mut app, ConvexCollider::rectangle(200.0, 20.0), 0.0, 0.0);
    let body = spawn(&mut app, (Weak, Transform::from_xyz(0.0, 40.0, 0.0)));
    run(&mut app, 30);
    assert_eq!(position(&app, body), Vec2::new(0.0, 40.0));
    assert_eq!(velocity(&app, body), Vec2::ZERO);
    assert_eq!(flags(&app, body), ContactFlags::default());
    app.world_mut()
        .entity_mut(body)
        .insert(ConvexCollider::rectangle(10.0, 10.0));
    run(&mut app, 120);
    let flags = flags(&app, body);
    assert!(flags.on_floor());
    assert_eq!(flags.standing_on(), Some(floor));
    let y = position(&app, body).y;
    assert!(
        (y - 15.0).abs() < 1e-3,
        "resting at {y}, not on the floor's top (10) + 5"
    );
}

#[test]
fn a_body_without_a_collider_is_reported_once_by_name() {
    capture_warnings();
    let mut app = app();
    let body = spawn(&mut app, (Weak, Name::new("lost-collider")));
    spawn(&mut app, (Mighty, Name::new("bare-wall")));
    run(&mut app, 10);
    let warned = warnings_about("lost-collider");
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].contains("Weak") && warned[0].contains("ConvexCollider"));
    assert_eq!(warnings_about("bare-wall").len(), 1);
    // Given a collider, it is no longer reported; losing it again is a new mistake, reported
    // again (once).
    app.world_mut()
        .entity_mut(body)
        .insert(ConvexCollider::rectangle(4.0, 4.0));
    run(&mut app, 5);
    assert_eq!(warnings_about("lost-collider").len(), 1);
    app.world_mut().entity_mut(body).remove::<ConvexCollider>();
    run(&mut app, 5);
    assert_eq!(warnings_about("lost-collider").len(), 2);
}

/// Without a name, the warning names the entity itself.
#[test]
fn an_unnamed_body_without_a_collider_is_reported_by_entity() {
    capture_warnings();
    let mut app = app();
    let body = spawn(&mut app, Sensor);
    run(&mut app, 3);
    let warned = warnings_about(&format!("{body} is Sensor"));
    assert_eq!(warned.len(), 1, "{warned:?}");
}

// --- Crushed ----------------------------------------------------------------------------------

/// `Crushed::crushers` is the crate's own `Crushers`, read as a slice: no third-party type in
/// the public API.
#[test]
fn crushed_lists_its_crushers_as_a_slice() {
    let mut app = app();
    let (body, a, b) = (
        spawn(&mut app, ()),
        spawn(&mut app, ()),
        spawn(&mut app, ()),
    );
    let crushers: Vec<Entity> = vec![a, b];
    let event = Crushed {
        body,
        crushers: Crushers::from(crushers.clone()),
    };
    assert_eq!(*event.crushers, crushers[..]);
    assert_eq!(event.crushers.to_vec(), crushers);
}
