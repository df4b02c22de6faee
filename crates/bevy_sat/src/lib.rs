//! # bevy_sat
//!
//! The Bevy plugin of the bevy_sat project: 2D collision built on the Separating Axis Theorem.
//!
//! The geometry lives in [`sat_core`], re-exported here as [`geometry`]. The plugin itself
//! (`SatPlugin`, `ConvexCollider`, `Velocity`, `Mighty`, `Weak`, contact flags and collision
//! events) is being built on top of it; until then this crate only re-exports the geometry.

// Library code never unwraps: bad input becomes an `Err` or a logged warning.
#![warn(clippy::unwrap_used, clippy::expect_used)]

pub use sat_core as geometry;
