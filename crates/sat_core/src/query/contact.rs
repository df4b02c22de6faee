//! The results of the queries: [`Contact`] and [`Hit`].

use glam::Vec2;

/// How two overlapping (or touching) shapes meet: the answer of [`collide`](crate::collide).
///
/// `normal` is a unit vector pointing **from A towards B**; `depth >= 0` is how far they
/// overlap along it. Move A by [`mtv`](Contact::mtv) (= `-normal * depth`), or B by
/// `normal * depth`, to separate them; touching shapes have `depth == 0`. The contact points
/// are read through [`points`](Contact::points): one or two, always.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "ContactData", try_from = "ContactData")
)]
pub struct Contact {
    /// Unit vector from A towards B.
    pub normal: Vec2,
    /// Penetration along `normal`: never negative from [`collide`](crate::collide); from
    /// [`collide_within`](crate::collide_within), minus the gap for shapes apart.
    pub depth: f32,
    /// The contact points; the first [`PointCount`] of them are valid. The second repeats the
    /// first when there is one.
    points: [Vec2; 2],
    count: PointCount,
}

/// How many contact points a [`Contact`] holds: only these two values exist, so that
/// [`Contact::points`] cannot be asked for more than it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum PointCount {
    One = 1,
    Two = 2,
}

impl Contact {
    /// A contact at one point.
    pub(crate) fn one_point(normal: Vec2, depth: f32, point: Vec2) -> Contact {
        Contact {
            normal,
            depth,
            points: [point, point],
            count: PointCount::One,
        }
    }

    /// A contact at two points.
    pub(crate) fn two_points(normal: Vec2, depth: f32, points: [Vec2; 2]) -> Contact {
        Contact {
            normal,
            depth,
            points,
            count: PointCount::Two,
        }
    }

    /// The contact points (one or two): where the incident edge, clipped to the reference face,
    /// lies, taken halfway through the overlap; for a circle, the point halfway through it on
    /// the line of the centres (or from the nearest feature of the polygon).
    #[inline]
    pub fn points(&self) -> &[Vec2] {
        &self.points[..self.point_count()]
    }

    /// How many contact points there are: 1 or 2.
    #[inline]
    pub fn point_count(&self) -> usize {
        self.count as usize
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

/// A [`Contact`] as serialized: its fields, with the number of valid points, checked to be 1
/// or 2 when read back.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct ContactData {
    normal: Vec2,
    depth: f32,
    points: [Vec2; 2],
    point_count: u8,
}

#[cfg(feature = "serde")]
impl From<Contact> for ContactData {
    fn from(contact: Contact) -> Self {
        ContactData {
            normal: contact.normal,
            depth: contact.depth,
            points: contact.points,
            point_count: contact.count as u8,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<ContactData> for Contact {
    type Error = String;

    fn try_from(data: ContactData) -> Result<Self, Self::Error> {
        match data.point_count {
            1 => Ok(Contact::one_point(data.normal, data.depth, data.points[0])),
            2 => Ok(Contact::two_points(data.normal, data.depth, data.points)),
            n => Err(format!("a contact has 1 or 2 points, not {n}")),
        }
    }
}

/// When a translating shape first touches another: the answer of [`sweep`](crate::sweep).
///
/// Where they touch is asked separately, with the same shapes and motion:
/// [`Hit::point`].
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The point count is an enum of two values: the contact stays as small as a count byte
    /// made it, and copying it is still free.
    #[test]
    fn contact_is_copy_and_32_bytes() {
        fn copy<T: Copy>(_: T) {}
        let contact = Contact::two_points(Vec2::X, 0.5, [Vec2::ZERO, Vec2::Y]);
        copy(contact);
        assert_eq!(size_of::<Contact>(), 32);
        assert_eq!(contact.points(), &[Vec2::ZERO, Vec2::Y]);
        assert_eq!(contact.point_count(), 2);
        let one = Contact::one_point(Vec2::X, 0.5, Vec2::Y);
        assert_eq!((one.points(), one.point_count()), (&[Vec2::Y][..], 1));
        assert_eq!(one.flipped().points(), &[Vec2::Y]);
    }

    /// A serialized contact read back with a point count other than 1 or 2 is refused.
    #[cfg(feature = "serde")]
    #[test]
    fn deserialized_point_count_is_checked() {
        let contact = Contact::two_points(Vec2::X, 0.5, [Vec2::ZERO, Vec2::Y]);
        let data = ContactData::from(contact);
        assert_eq!(data.point_count, 2);
        assert_eq!(Contact::try_from(data), Ok(contact));
        for bad in [0, 3, 255] {
            let data = ContactData {
                point_count: bad,
                ..data
            };
            assert!(Contact::try_from(data).is_err(), "{bad}");
        }
    }
}
