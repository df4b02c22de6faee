//! Mighty bodies made of several parts (compound and concave colliders): each part is a step
//! body of its own, named after the owning entity, with the faces it shares with the other
//! parts hidden, as the pieces of a tile grid are. So a body sliding along the inside of a
//! concave wall meets each part's open faces alone, and rests in its inner corners exactly.

use bevy::prelude::*;
use sat_core::{Compound, Pose};

use super::super::body::{Body, Kind};
use super::super::broad::{BroadInput, BroadState};
use super::super::huge_pages;
use crate::components::{CollisionLayers, OneWayPlatform};

/// What every part of one Mighty compound body shares.
pub(super) struct Owner<'a> {
    pub entity: Entity,
    pub compound: &'a Compound,
    /// Where it is placed at the end of the step.
    pub pose: Pose,
    /// Its translation at the start of the step.
    pub start: Vec2,
    pub velocity: Vec2,
    /// It has no velocity component.
    pub still: bool,
    /// It is unchanged since the last step, where it was then.
    pub unchanged: bool,
    pub layers: CollisionLayers,
    pub sensor: bool,
    pub one_way: Option<OneWayPlatform>,
}

/// The step's bodies and broad-phase inputs being filled, from slot `count` on.
pub(super) struct Slots<'a> {
    pub bodies: &'a mut Vec<Body>,
    /// The broad phase's state: its inputs, and the faces flush neighbours hid last step.
    pub broad: &'a mut BroadState,
    /// Resolution's copy of the velocities, when it keeps one.
    pub velocities: Option<&'a mut Vec<Vec2>>,
    pub count: &'a mut usize,
    pub margin: f32,
}

/// Places every part of `owner` as a Mighty body of its own, in the slots from `count` on,
/// and returns how many it placed (a part that cannot be placed is left out).
pub(super) fn place_parts(owner: &Owner, slots: &mut Slots) -> usize {
    let mut placed = 0;
    for (index, part) in owner.compound.parts().iter().enumerate() {
        let slot = *slots.count;
        let mut kept = false;
        // Kept only if the slot held this very part: when the bodies before it came or went,
        // it may hold another part of the same entity.
        let same_part = slots.broad.last_body(slot) == Some((owner.entity, index as u32));
        let aabb = match slots.bodies.get_mut(slot) {
            Some(body)
                if owner.unchanged
                    && same_part
                    && body.entity == owner.entity
                    && body.position == owner.start =>
            {
                kept = true;
                Ok(body.shape.aabb())
            }
            Some(body) => part.shape.transform_into(&owner.pose, &mut body.shape),
            None => part.shape.transformed(&owner.pose).map(|shape| {
                let aabb = shape.aabb();
                huge_pages::push(slots.bodies, Body::new(owner.entity, shape));
                aabb
            }),
        };
        let Ok(aabb) = aabb else {
            continue;
        };
        *slots.count += 1;
        placed += 1;
        let body = &mut slots.bodies[slot];
        let hidden = part.internal_when_placed(&body.shape, &owner.pose);
        body.entity = owner.entity;
        body.name = owner.entity;
        body.hidden = hidden;
        body.position = owner.pose.translation;
        body.velocity = owner.velocity;
        if let Some(velocities) = slots.velocities.as_deref_mut() {
            velocities.push(owner.velocity);
        }
        body.layers = owner.layers;
        body.size = aabb.size().min_element();
        body.bottom = aabb.min.y;
        body.kind = Kind::Mighty;
        body.sensor = owner.sensor;
        body.drop_through = false;
        body.flags_were_default = true;
        body.one_way = owner.one_way;
        body.start = owner.start;
        body.moved = owner.pose.translation != owner.start;
        body.velocity_changed = false;
        body.rotation = owner.pose.rotation;
        body.support = None;
        body.layered = false;
        body.internal = hidden
            | if kept {
                slots.broad.scenery_internal(slot)
            } else {
                0
            };
        let motion = owner.pose.translation - owner.start;
        let mut input = BroadInput::of(body, aabb, motion, slots.margin, owner.still, kept);
        input.part = index as u32;
        slots.broad.inputs.push(input);
    }
    placed
}
