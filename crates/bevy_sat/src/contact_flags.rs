//! [`ContactFlags`]: which sides of a Weak body touch something, the surfaces' normals, what
//! it stands on and how fast that moves, written by the plugin after every step.

use bevy::prelude::*;

/// Which sides of a [`Weak`](crate::Weak) body touched something solid in the last step, the
/// normals of those surfaces, what it stands on and how fast that moves. Written by the plugin
/// after every step (required by `Weak`).
///
/// A contact counts as floor when the direction the body is pushed out of it is within
/// [`SatConfig::max_floor_angle`](crate::SatConfig::max_floor_angle) of straight up, as
/// ceiling when within that angle of straight down, and as a wall otherwise. Sensors never
/// count. Every flag and normal comes from the contacts as resolution left them, so a body
/// resting on a floor, walking over flush tiles or sliding along a wall reads the same values
/// step after step.
///
/// In a scene, the entity it stands on is mapped to its new id when the scene is loaded.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
pub struct ContactFlags {
    pub(crate) floor: bool,
    pub(crate) ceiling: bool,
    pub(crate) wall_left: bool,
    pub(crate) wall_right: bool,
    #[entities]
    pub(crate) standing_on: Option<Entity>,
    pub(crate) floor_normal: Vec2,
    pub(crate) wall_normal: Vec2,
    pub(crate) ceiling_normal: Vec2,
    pub(crate) platform_velocity: Vec2,
}

impl ContactFlags {
    /// Whether these are the default flags (nothing touched), as `== default()` answers, but
    /// without a branch per field: the step asks it of every body.
    pub(crate) fn is_default(&self) -> bool {
        let sides = self.floor | self.ceiling | self.wall_left | self.wall_right;
        let normals = self.floor_normal.cmpne(Vec2::ZERO).any()
            | self.wall_normal.cmpne(Vec2::ZERO).any()
            | self.ceiling_normal.cmpne(Vec2::ZERO).any()
            | self.platform_velocity.cmpne(Vec2::ZERO).any();
        !(sides | normals | self.standing_on.is_some())
    }

    /// Whether `self == other`, but without a branch per field: write-back asks it of every
    /// body whose flags may have changed (`set_if_neq` through the derived `PartialEq` was a
    /// branch per field, on flags that change in no pattern).
    pub(crate) fn same_as(&self, other: &Self) -> bool {
        let sides = (self.floor == other.floor)
            & (self.ceiling == other.ceiling)
            & (self.wall_left == other.wall_left)
            & (self.wall_right == other.wall_right);
        let on = |f: &Self| {
            (
                f.standing_on.is_some(),
                f.standing_on.map_or(0, Entity::to_bits),
            )
        };
        let (mine, theirs) = (on(self), on(other));
        let standing = (mine.0 == theirs.0) & (mine.1 == theirs.1);
        let vectors = self.floor_normal.cmpeq(other.floor_normal).all()
            & self.wall_normal.cmpeq(other.wall_normal).all()
            & self.ceiling_normal.cmpeq(other.ceiling_normal).all()
            & self.platform_velocity.cmpeq(other.platform_velocity).all();
        sides & standing & vectors
    }

    /// Standing on something (a floor or a gentle enough slope).
    pub fn on_floor(&self) -> bool {
        self.floor
    }

    /// Touching something above.
    pub fn on_ceiling(&self) -> bool {
        self.ceiling
    }

    /// Touching a wall on the body's left side.
    pub fn on_wall_left(&self) -> bool {
        self.wall_left
    }

    /// Touching a wall on the body's right side.
    pub fn on_wall_right(&self) -> bool {
        self.wall_right
    }

    /// The entity the body stands on (the most level floor contact), if any.
    pub fn standing_on(&self) -> Option<Entity> {
        self.standing_on
    }

    /// The unit normal of the floor the body stands on, pointing up out of it at the body
    /// (zero when not on the floor).
    pub fn floor_normal(&self) -> Vec2 {
        self.floor_normal
    }

    /// The unit normal of the wall the body touches, pointing out of it at the body: `+x` for
    /// an upright wall on the body's left (zero when touching no wall). Of several walls, the
    /// most upright one; of two as upright (one on each side), the one on the left.
    pub fn wall_normal(&self) -> Vec2 {
        self.wall_normal
    }

    /// The unit normal of the ceiling the body touches, pointing down out of it at the body
    /// (zero when touching no ceiling). Of several, the most level one; of two as level, the
    /// one whose normal leans further right.
    pub fn ceiling_normal(&self) -> Vec2 {
        self.ceiling_normal
    }

    /// The velocity of what the body stands on in the last step, in units per second: the
    /// [`Velocity`](crate::Velocity) of a moving [`Mighty`](crate::Mighty) platform (its
    /// displacement over the step divided by the step's duration), and zero on still ground.
    /// On a [`Weak`](crate::Weak) body (a crate riding a platform), it is that body's own
    /// platform velocity: only Mighty bodies' motion carries what stands on them.
    ///
    /// It is what [`SatConfig::platform_on_leave`](crate::SatConfig::platform_on_leave) adds
    /// to the body's [`Velocity`](crate::Velocity) when it leaves the platform.
    pub fn platform_velocity(&self) -> Vec2 {
        self.platform_velocity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default flags, and flags that differ from them in one field each (some equal to
    /// the default all the same: -0.0), or in several.
    fn flag_cases() -> Vec<ContactFlags> {
        let (e7, e8) = (
            Entity::from_raw_u32(7).expect("a valid index"),
            Entity::from_raw_u32(8).expect("a valid index"),
        );
        let mut cases = vec![ContactFlags::default()];
        let vectors = [
            Vec2::new(-0.0, 0.0),     // equal to zero
            Vec2::new(0.0, f32::NAN), // equal to nothing
            Vec2::Y,
            Vec2::new(0.6, 0.8),
        ];
        for change in 0..23 {
            let mut f = ContactFlags::default();
            let v = vectors[change % 4];
            match change {
                0..4 => f.floor_normal = v,
                4..8 => f.wall_normal = v,
                8..12 => f.ceiling_normal = v,
                12..16 => f.platform_velocity = v,
                16 => f.floor = true,
                17 => f.ceiling = true,
                18 => f.wall_left = true,
                19 => f.wall_right = true,
                20 => f.standing_on = Some(e7),
                21 => f.standing_on = Some(e8),
                _ => {
                    f.floor = true;
                    f.standing_on = Some(e7);
                    f.floor_normal = Vec2::Y;
                    f.wall_right = true;
                    f.wall_normal = Vec2::NEG_X;
                    f.platform_velocity = Vec2::new(120.0, 0.0);
                }
            }
            cases.push(f);
        }
        cases
    }

    #[test]
    fn is_default_answers_as_equality_with_the_default() {
        for f in flag_cases() {
            assert_eq!(f.is_default(), f == ContactFlags::default(), "{f:?}");
        }
    }

    #[test]
    fn same_as_answers_as_equality() {
        let cases = flag_cases();
        for a in &cases {
            for b in &cases {
                assert_eq!(a.same_as(b), a == b, "{a:?} against {b:?}");
            }
        }
    }
}
