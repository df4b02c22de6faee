//! The results of the queries: [`Contact`] and [`Hit`].

use glam::Vec2;

/// How two overlapping (or touching) shapes meet: the answer of [`collide`](crate::collide).
///
/// `normal` is a unit vector pointing **from A towards B**; `depth >= 0` is how far they
/// overlap along it. Move A by [`mtv`](Contact::mtv) (= `-normal * depth`), or B by
/// `normal * depth`, to separate them; touching shapes have `depth == 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact {
    /// Unit vector from A towards B.
    pub normal: Vec2,
    /// Penetration along `normal`, never negative.
    pub depth: f32,
    /// Contact points (the first [`point_count`](Contact::point_count) are valid): where the
    /// incident edge, clipped to the reference face, lies, taken halfway through the overlap.
    pub points: [Vec2; 2],
    /// How many of `points` are valid: 1 or 2.
    pub point_count: u8,
}

impl Contact {
    /// The valid contact points (one or two).
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.point_count as usize]
    }

    /// The minimum translation vector for A: moving A by it separates the shapes (leaves them
    /// touching).
    pub fn mtv(&self) -> Vec2 {
        -self.normal * self.depth
    }

    /// The same contact seen from B: the normal reversed.
    pub fn flipped(&self) -> Contact {
        Contact {
            normal: -self.normal,
            ..*self
        }
    }
}

/// When a translating shape first touches another: the answer of [`sweep`](crate::sweep).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hit {
    /// Time of impact in `[0, 1]`, as a fraction of the motion: A touches B after moving by
    /// `motion * toi`.
    pub toi: f32,
    /// Unit normal from A towards B at the time of impact (the axis entered last).
    pub normal: Vec2,
    /// 0 for a hit during the motion. When the shapes already overlap at the start, `toi == 0`
    /// and `normal` and `depth` are those of the static [`Contact`].
    pub depth: f32,
}
