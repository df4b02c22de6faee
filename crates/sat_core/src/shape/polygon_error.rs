//! [`PolygonError`]: why a point list is not a valid polygon.

use core::fmt;

use super::MAX_COORDINATE;

/// Why a point list is not a valid [`ConvexPolygon`](super::ConvexPolygon).
///
/// Every index refers to the position of the offending point in the input, counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolygonError {
    /// Fewer than 3 points were given.
    TooFewPoints {
        /// How many points were given.
        count: usize,
    },
    /// More points were given than the constructor takes:
    /// [`MAX_POLYGON_VERTICES`](crate::MAX_POLYGON_VERTICES) for [`ConvexPolygon::new`](super::ConvexPolygon::new),
    /// [`LargePolygon::new`](crate::LargePolygon::new) and
    /// [`Shape::polygon`](crate::Shape::polygon),
    /// [`MAX_OUTLINE_VERTICES`](crate::MAX_OUTLINE_VERTICES) for an outline split into parts.
    TooManyVertices {
        /// How many points were given.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// A coordinate is NaN or infinite.
    NonFinite {
        /// The point with the non-finite coordinate.
        index: usize,
    },
    /// A coordinate's magnitude exceeds [`MAX_COORDINATE`].
    OutOfRange {
        /// The point with the out-of-range coordinate.
        index: usize,
    },
    /// A point repeats the point before it (the last point is compared with the first).
    DuplicatePoint {
        /// The repeated point (the second of the two equal points).
        index: usize,
    },
    /// The points enclose zero or nearly zero area (all collinear, or a sliver), see [`MIN_AREA`](super::MIN_AREA).
    ZeroArea,
    /// The outline turns the wrong way at this point: it is concave there, or the outline crosses
    /// itself like a figure eight.
    NotConvex {
        /// The point where the outline turns the wrong way.
        index: usize,
    },
    /// Every turn goes the same way but the outline winds around more than once (a star).
    SelfIntersecting {
        /// The point where the outline completes its first full turn.
        index: usize,
    },
    /// Two edges of an outline cross or touch anywhere but at the point they share (edge `i`
    /// runs from point `i` to point `i + 1`, the last edge back to point 0).
    OutlineCrosses {
        /// The earlier of the two edges.
        first: usize,
        /// The later of the two edges.
        second: usize,
    },
    /// A simple outline that cannot be split into valid convex parts: a corner too sharp or a
    /// piece too thin for a [`ConvexPolygon`](super::ConvexPolygon) to hold.
    NoValidParts {
        /// The corner of the piece that could not be made valid whose turn is nearest to
        /// straight on or to a U-turn: usually the point to move.
        index: usize,
    },
    /// A compound shape was given no parts.
    NoParts,
    /// A part of a compound shape has a non-finite offset or rotation, or lies out of range
    /// once placed.
    PartOutOfRange {
        /// The part, in the order given.
        index: usize,
    },
}

impl fmt::Display for PolygonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooFewPoints { count } => {
                write!(f, "a polygon needs at least 3 points, got {count}")
            }
            Self::TooManyVertices { count, max } => {
                write!(f, "a polygon has at most {max} points, got {count}")
            }
            Self::NonFinite { index } => {
                write!(f, "point {index} has a NaN or infinite coordinate")
            }
            Self::OutOfRange { index } => write!(
                f,
                "point {index} has a coordinate larger than {MAX_COORDINATE:e} in magnitude"
            ),
            Self::DuplicatePoint { index } => {
                write!(f, "point {index} repeats the point before it")
            }
            Self::ZeroArea => write!(f, "the points enclose (nearly) zero area"),
            Self::NotConvex { index } => {
                write!(f, "the outline is not convex at point {index}")
            }
            Self::SelfIntersecting { index } => write!(
                f,
                "the outline winds around more than once (crosses itself) at point {index}"
            ),
            Self::OutlineCrosses { first, second } => {
                write!(
                    f,
                    "edges {first} and {second} of the outline cross or touch"
                )
            }
            Self::NoValidParts { index } => write!(
                f,
                "the outline near point {index} is too sharp or thin to split into convex parts"
            ),
            Self::NoParts => write!(f, "a compound shape needs at least one part"),
            Self::PartOutOfRange { index } => write!(
                f,
                "part {index} has a non-finite offset or rotation, or is out of range once placed"
            ),
        }
    }
}

impl std::error::Error for PolygonError {}
