//! A crowd of bodies for the step's unit tests, and what the narrow phase finds among them.

use bevy::prelude::*;
use sat_core::{ConvexPolygon, Pose, Shape};

use super::xorshift::XorShift;
use crate::components::OneWayPlatform;
use crate::config::{SatConfig, StepSettings};
use crate::step::body::{Body, Kind};
use crate::step::broad::{MightyBox, MightyBoxes};
use crate::step::moves::Moves;
use crate::step::narrow::test_pairs;
use crate::step::pair::FoundPairs;
use crate::step::resolve::{Resolution, Surroundings, resolve};

/// The reach the crowd's narrow phase looks within (see [`Motion::reach`](crate::step::Motion)).
pub(crate) const REACH: f32 = 1.0;

/// The solid Mighty bodies among `bodies`, with their boxes, as the broad phase lists them
/// for resolution (the crowd's Mighty bodies stand still).
pub(crate) fn mighty_boxes(bodies: &[Body]) -> MightyBoxes {
    let solid_mighty = |(_, b): &(usize, &Body)| b.kind == Kind::Mighty && !b.sensor;
    let boxes = bodies.iter().enumerate().filter(solid_mighty);
    let still = boxes.map(|(i, b)| MightyBox {
        aabb: b.shape.aabb(),
        body: i as u32,
    });
    let mut boxes = MightyBoxes::default();
    boxes.still.extend(still);
    boxes.version = 1;
    boxes
}

/// A body of `kind` with `polygon` at `position`, which it reached moving at `velocity` for a
/// 60 Hz step; entity `index`.
fn body(index: u32, polygon: ConvexPolygon, position: Vec2, velocity: Vec2, kind: Kind) -> Body {
    let entity = Entity::from_raw_u32(index).expect("a small index");
    let shape = polygon
        .transformed(&Pose::from_translation(position))
        .expect("a small shape near the origin places");
    let shape = Shape::Polygon(shape);
    let size = shape.aabb().size().min_element();
    let mut body = Body::new(entity, shape);
    body.position = position;
    body.start = position - velocity / 60.0;
    body.velocity = velocity;
    body.kind = kind;
    body.size = size;
    body
}

/// A crowd of boxes and regular polygons dropped on top of each other among static boxes,
/// some of them one-way platforms, and what the narrow phase finds among them.
pub(crate) fn crowd(seed: u64) -> (Vec<Body>, FoundPairs, StepSettings) {
    crowd_within(seed, 60.0)
}

/// [`crowd`], its bodies placed within `extent` of the origin in x and y.
fn crowd_within(seed: u64, extent: f32) -> (Vec<Body>, FoundPairs, StepSettings) {
    let mut rng = XorShift::new(seed);
    let mut bodies = Vec::new();
    for i in 0..300 {
        let polygon = if i % 3 == 0 {
            ConvexPolygon::regular(3 + i as usize % 6, rng.range(3.0, 7.0))
        } else {
            ConvexPolygon::rectangle(rng.range(4.0, 12.0), rng.range(4.0, 12.0))
        };
        let position = Vec2::new(rng.range(-extent, extent), rng.range(-extent, extent));
        let velocity = Vec2::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0));
        bodies.push(body(i, polygon, position, velocity, Kind::Weak));
    }
    for i in 300..320 {
        let polygon = ConvexPolygon::rectangle(rng.range(10.0, 40.0), 4.0);
        let position = Vec2::new(rng.range(-extent, extent), rng.range(-extent, extent));
        let mut platform = body(i, polygon, position, Vec2::ZERO, Kind::Mighty);
        platform.one_way = (i % 4 == 0).then(OneWayPlatform::default);
        bodies.push(platform);
    }
    let (settings, _) = SatConfig {
        passes: 8,
        ..default()
    }
    .settings();
    let found = narrow_phase(&bodies, &settings);
    (bodies, found, settings)
}

/// What the narrow phase finds among `bodies` (every pair a candidate).
fn narrow_phase(bodies: &[Body], settings: &StepSettings) -> FoundPairs {
    let candidates = every_pair(bodies.len());
    let mut found = FoundPairs::default();
    test_pairs::<true>(bodies, &candidates, REACH, settings, &mut found);
    found
}

/// A crowd like [`crowd`]'s but with room to settle (spread over four times the area), some
/// steps later: resolved step after step at rest, then every tenth body moving on. Most of it
/// rests against itself within the slop, as a crowd at rest does; and what the narrow phase
/// finds among them.
pub(crate) fn settled_crowd(seed: u64) -> (Vec<Body>, FoundPairs, StepSettings) {
    let (mut bodies, mut found, settings) = crowd_within(seed, 120.0);
    let thrown: Vec<_> = bodies.iter().map(|b| b.velocity).collect();
    for step in 0..=STEPS_TO_SETTLE {
        let velocities: Vec<_> = bodies.iter().map(|b| b.velocity).collect();
        let mighty = mighty_boxes(&bodies);
        resolve(
            &settings,
            Surroundings {
                reach: REACH,
                mighty: &mighty,
            },
            &mut bodies,
            &velocities,
            &mut found,
            &mut Moves::default(),
            &mut Resolution::default(),
        );
        for (i, body) in bodies.iter_mut().enumerate() {
            body.start = body.position;
            body.moved = false;
            let moves_on = step == STEPS_TO_SETTLE && i % 10 == 0 && body.kind == Kind::Weak;
            body.velocity = if moves_on { thrown[i] } else { Vec2::ZERO };
            body.shift(body.velocity / 60.0);
        }
        found = narrow_phase(&bodies, &settings);
    }
    (bodies, found, settings)
}

/// How many steps [`settled_crowd`] lets the crowd settle.
const STEPS_TO_SETTLE: usize = 12;

/// Every pair of `n` bodies, as candidates.
pub(crate) fn every_pair(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect()
}
