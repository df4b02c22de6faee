//! # sat_core
//!
//! 2D convex collision geometry built on the Separating Axis Theorem, with no engine attached:
//!
//! - validated shapes: [`ConvexPolygon`] (built only through constructors that check their
//!   input; up to [`MAX_POLYGON_VERTICES`] corners, held inline up to [`MAX_VERTICES`]),
//!   [`LargePolygon`] (up to [`MAX_POLYGON_VERTICES`], always on the heap), [`Circle`],
//!   [`Capsule`] (also a bare segment), [`RoundedPolygon`], and [`Shape`] holding any of them
//!   ([`Shape::polygon`] picks the polygon that fits);
//! - placing a local shape in the world ([`Pose`]: translation, rotation, non-uniform scale)
//!   into a reusable buffer, and its [`Aabb`];
//! - [`overlap`]: a yes/no test with an early exit;
//! - [`collide`]: the [`Contact`] — unit `normal` from A to B, `depth`, minimum translation
//!   vector and one or two contact points from clipping;
//! - [`sweep`]: the exact time of impact of a translating shape ([`Hit`]), and on demand
//!   where it touches ([`Hit::point`]);
//! - questions about one shape, for spatial queries: [`cast_ray`] ([`RayHit`]),
//!   [`contains_point`], [`project_point`] ([`PointProjection`]), [`point_distance`], and
//!   [`distance`] between two separated shapes ([`ShapeDistance`]);
//! - [`convex_decomposition`]: any simple polygon split into convex parts ([`ConvexParts`]);
//! - [`SweepAndPrune`]: the broad phase.
//!
//! ## Conventions
//!
//! y points up. Polygons are counter-clockwise; the outward normal of edge `v[i] → v[i+1]` is
//! its right-hand perpendicular. In every answer the normal points **from the first shape (A)
//! to the second (B)** and `depth >= 0`: move A by `-normal * depth` (or B by
//! `+normal * depth`) to separate them. Touching shapes are in contact with depth 0.
//!
//! Invalid input is refused when a shape is built (a `Result` naming the problem); queries on
//! valid shapes then never fail, never panic and never produce NaN.
//!
//! ```
//! use sat_core::{collide, sweep, ConvexPolygon, Pose};
//! use glam::Vec2;
//!
//! let wall = ConvexPolygon::rectangle(2.0, 10.0);
//! let player = ConvexPolygon::rectangle(1.0, 2.0)
//!     .transformed(&Pose::from_translation(Vec2::new(1.25, 0.0)))?;
//! let contact = collide(&player, &wall).expect("they overlap");
//! assert_eq!(contact.normal, Vec2::NEG_X); // from the player into the wall
//! assert_eq!(contact.mtv(), Vec2::new(0.25, 0.0)); // the player steps out to the right
//!
//! let far = ConvexPolygon::rectangle(1.0, 2.0)
//!     .transformed(&Pose::from_translation(Vec2::new(11.5, 0.0)))?;
//! let hit = sweep(&far, &wall, Vec2::new(-20.0, 0.0)).expect("it would pass through");
//! assert_eq!(hit.toi, 0.5);
//! # Ok::<(), sat_core::TransformError>(())
//! ```

// Library code never unwraps: bad input becomes an `Err` or a logged warning.
#![warn(clippy::unwrap_used, clippy::expect_used)]

mod aabb;
mod broad_phase;
mod decompose;
mod pose;
mod query;
mod shape;

pub use aabb::Aabb;
pub use broad_phase::{BroadPhaseError, SweepAndPrune};
pub use decompose::*;
pub use pose::{Pose, TransformError};
pub use query::*;
pub use shape::*;
