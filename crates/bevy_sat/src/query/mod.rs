//! Spatial queries against the colliders as the last step placed them: [`SpatialQuery`] (rays,
//! shape casts, point and area tests) with its [`SpatialQueryFilter`], and the
//! [`RayCaster`] and [`ShapeCaster`] components that cast every step.
//!
//! They read what the step leaves behind (its placed bodies) through uniform grids ([`index`])
//! built on the first query after each step: a step without queries pays nothing for them.

mod casters;
mod filter;
mod hits;
pub(crate) mod index;
mod spatial_query;

pub use casters::{RayCaster, RayHits, ShapeCaster, ShapeHits};
pub use filter::SpatialQueryFilter;
pub use hits::{PointProjection, RayHitData, ShapeHitData};
pub use spatial_query::SpatialQuery;

pub(crate) use casters::run_casters;
pub(crate) use spatial_query::QueryIndex;
