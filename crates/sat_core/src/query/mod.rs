//! The queries between shapes in the same frame: [`overlap`], [`collide`], [`sweep`], and
//! [`least_overlap_after`] for pairs that only translate.

mod axes;
mod collide;
mod contact;
mod exit;
mod manifold;
mod overlap;
mod point;
mod ray;
mod sweep;

pub use axes::*;
pub use collide::*;
pub use contact::*;
pub use exit::*;
pub use overlap::*;
pub use point::*;
pub use ray::*;
pub use sweep::*;
