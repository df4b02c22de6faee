//! Holds: the directions a Weak body cannot be pushed in during a pass, into a Mighty body it
//! touches or into a body itself held that way. They carry support up a stack (a crate on a
//! crate on the floor is pushed like one on the floor) and refuse pushes that would squeeze a
//! body into a wall.

use bevy::prelude::*;

/// How many directions a body remembers being held in, per pass.
const MAX_HOLDS: usize = 4;

/// A push along `direction` is blocked by a hold `h` when `h · direction` exceeds this (within
/// 45°).
pub(super) const HOLD_COS: f32 = core::f32::consts::FRAC_1_SQRT_2;

/// A direction a Weak body cannot be pushed in: into a Mighty body it touches (`by`), or into a
/// body that is itself held that way (support propagated through a stack, `by == None`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Hold {
    pub direction: Vec2,
    pub by: Option<Entity>,
}

/// The holds of every body in one pass. The counts are a small array of their own, so that
/// starting a pass clears a byte per body and a body without holds costs one byte to check.
#[derive(Clone, Debug, Default)]
pub(crate) struct Holds {
    pub(super) len: Vec<u8>,
    pub(super) items: Vec<[Hold; MAX_HOLDS]>,
}

impl Holds {
    /// No body holds anything (for `bodies` bodies).
    pub fn clear(&mut self, bodies: usize) {
        self.len.clear();
        self.len.resize(bodies, 0);
        if self.items.len() < bodies {
            self.items.resize(bodies, [Hold::default(); MAX_HOLDS]);
        }
    }

    pub fn add(&mut self, body: usize, direction: Vec2, by: Option<Entity>) {
        let len = &mut self.len[body];
        if usize::from(*len) < MAX_HOLDS {
            self.items[body][usize::from(*len)] = Hold { direction, by };
            *len += 1;
        }
    }

    pub fn holding(&self, body: usize) -> &[Hold] {
        &self.items[body][..usize::from(self.len[body])]
    }

    pub fn blocks(&self, body: usize, push: Vec2) -> bool {
        self.len[body] > 0
            && self
                .holding(body)
                .iter()
                .any(|h| h.direction.dot(push) > HOLD_COS)
    }

    /// A Mighty body other than `except` that holds `body` against `push`.
    pub fn blocker(&self, body: usize, push: Vec2, except: Entity) -> Option<Entity> {
        self.holding(body)
            .iter()
            .filter(|h| h.direction.dot(push) > HOLD_COS)
            .find_map(|h| h.by.filter(|by| *by != except))
    }
}
