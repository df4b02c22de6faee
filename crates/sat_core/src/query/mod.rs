//! The queries between shapes in the same frame: [`overlap`], [`collide`], [`sweep`].

mod collide;
mod contact;
mod exit;
mod manifold;
mod overlap;
mod sweep;

pub use collide::*;
pub use contact::*;
pub use exit::*;
pub use overlap::*;
pub use sweep::*;
