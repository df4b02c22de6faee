//! The queries between shapes in the same frame: [`overlap`], [`collide`], [`sweep`],
//! [`least_overlap_after`] for pairs that only translate, and [`distance`]; and the questions
//! about one shape: [`cast_ray`], [`contains_point`], [`project_point`], [`point_distance`].

mod axes;
mod axes_large;
mod collide;
mod compound;
mod compound_point;
mod contact;
mod distance;
mod exit;
mod impact;
mod large_contact;
mod manifold;
mod overlap;
mod point;
mod ray;
mod rounded;
mod rounded_point;
mod rounded_small;
mod rounded_sweep;
mod sweep;

pub use axes::*;
pub use collide::*;
pub use compound::{PartContact, PartHit, collide_parts, sweep_parts};
pub use contact::*;
pub use distance::*;
pub use exit::*;
pub use overlap::*;
pub use point::*;
pub use ray::*;
pub use sweep::*;
