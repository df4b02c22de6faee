//! # bevy_sat
//!
//! The Bevy plugin of the bevy_sat project: 2D collision built on the Separating Axis Theorem.
//!
//! The geometry lives in [`sat_core`], re-exported here as [`geometry`]. The plugin itself
//! (`SatPlugin`, `ConvexCollider`, `Velocity`, `Mighty`, `Weak`, contact flags and collision
//! events) is being built on top of it; until then this crate only re-exports the geometry.

pub use sat_core as geometry;
