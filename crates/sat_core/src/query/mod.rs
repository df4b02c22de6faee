//! The queries between shapes in the same frame: [`overlap`], [`collide`], [`sweep`].

mod collide;
mod contact;
mod manifold;
mod overlap;
mod sweep;

pub use collide::*;
pub use contact::*;
pub use overlap::*;
pub use sweep::*;
