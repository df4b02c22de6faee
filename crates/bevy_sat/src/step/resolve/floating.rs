//! [`Floating`](crate::Floating) bodies: every surface they meet, they slide along at constant
//! speed. Their velocity is turned along the surface as resolution stops it
//! ([`slide_at_speed`], which [`Moves::stop_along`] applies), and after the passes, the
//! distance they lost into the surface is added along it ([`slide_on`]), as far as nothing
//! Mighty is in the way.

use bevy::prelude::*;

use super::character::{Character, Nearby};
use crate::step::body::{Body, MovedShape};
use crate::step::moves::Moves;

/// How close to straight into a surface (the cosine of the angle, 15°) a floating body's
/// velocity must be for it to stop against the surface instead of sliding along it at full
/// speed, as Godot's default `wall_min_slide_angle` does.
const HEAD_ON_COS: f32 = 0.965_925_8;

/// The velocity of a floating body after a surface stops it along `into` (a unit vector; the
/// velocity goes `along > 0` into it): turned along the surface at the same speed, unless it
/// goes within 15° of straight into it, where only the part into it is removed. With whether it
/// was turned.
pub(crate) fn slide_at_speed(velocity: Vec2, into: Vec2, along: f32) -> (Vec2, bool) {
    let slid = velocity - into * along;
    let speed = velocity.length();
    if along >= speed * HEAD_ON_COS {
        return (slid, false);
    }
    match slid.try_normalize() {
        Some(direction) => (direction * speed, true),
        None => (slid, false),
    }
}

/// Floating body `i`, whose velocity resolution turned along a surface this step, moves on
/// along its velocity until it has moved as far from where it started the step as its own
/// motion would have taken it (so it covers its whole distance each step), or until it meets
/// a Mighty body. The records are where the passes left the bodies.
pub(super) fn slide_on(
    bodies: &mut [Body],
    i: usize,
    moves: &mut Moves,
    character: &mut Character,
    nearby: &Nearby,
) {
    let body = &bodies[i];
    let moved = body.motion(); // its own motion and resolution's moves
    let own = moved - moves.offset(i);
    let (covered, full) = (moved.length_squared(), own.length_squared());
    let Some(along) = moves.velocity(i).try_normalize() else {
        return;
    };
    if covered >= full {
        return;
    }
    // The distance `s` along `along` at which |moved + s along| = |own|.
    let ahead = moved.dot(along);
    let s = -ahead + (ahead * ahead - covered + full).max(0.0).sqrt();
    if s <= 0.0 {
        return;
    }
    let motion = along * s;
    let area = body.shape.aabb().grown(s + nearby.settings.margin);
    character.gather(bodies, nearby, i, area);
    let toi = character
        .cast(
            bodies,
            &MovedShape::new(body, Vec2::ZERO),
            motion,
            nearby.settings.margin,
        )
        .map_or(1.0, |hit| hit.toi);
    moves.shift(i, motion * toi);
    moves.apply(i, &mut bodies[i]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along a wall at an angle, the velocity keeps its speed; within 15° of head-on it only
    /// loses the part into the wall.
    #[test]
    fn the_velocity_turns_along_the_surface_at_the_same_speed() {
        let (v, turned) = slide_at_speed(Vec2::new(-3.0, 4.0), Vec2::NEG_X, 3.0);
        assert!(turned);
        assert_eq!(v, Vec2::new(0.0, 5.0));
        let head_on = Vec2::from_angle(0.1) * 10.0; // 5.7° from straight into +x
        let (v, turned) = slide_at_speed(head_on, Vec2::X, head_on.x);
        assert!(!turned);
        assert_eq!(v, Vec2::new(0.0, head_on.y));
    }
}
