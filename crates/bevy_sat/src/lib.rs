#![doc = include_str!("../../../README.md")]
//!
//! ## Where to start in the API
//!
//! Add [`SatPlugin`], give entities a [`ConvexCollider`] and a body kind — [`Mighty`],
//! [`Weak`] or [`Sensor`] — and read [`ContactFlags`], [`RealVelocity`], [`Contacts`] and the
//! [`CollisionStarted`], [`CollisionEnded`] and [`Crushed`] events. [`OneWayPlatform`] and
//! [`DropThrough`] make jump-through platforms, [`CollisionLayers`] filters pairs, [`SatConfig`]
//! holds the settings and [`SatSystems`] the step's system sets. [`SpatialQuery`] casts rays
//! and shapes against the colliders as the step placed them; [`RayCaster`] and [`ShapeCaster`]
//! do it every step. [`TileGrid`] is a tile map that collides as merged Mighty pieces; with
//! the `bevy_ecs_tilemap` feature, `TilemapCollision` makes a bevy_ecs_tilemap layer one. The
//! geometry is [`sat_core`], re-exported as [`geometry`]; everything a game needs is in
//! [`prelude`].

// Library code never unwraps: bad input becomes an `Err` or a logged warning.
#![warn(clippy::unwrap_used, clippy::expect_used)]

mod child_colliders;
mod collider_removals;
mod colliding;
mod components;
mod compound_colliders;
mod config;
mod contact_flags;
mod contacts;
#[cfg(feature = "debug")]
mod debug;
mod diagnostics;
mod events;
mod interpolation;
mod plugin;
mod query;
mod rounded_colliders;
mod step;
mod tiles;

pub use sat_core as geometry;

pub use child_colliders::{BodyColliders, ColliderOf};
pub use colliding::CollidingEntities;
pub use components::{
    CollisionLayers, ConvexCollider, DropThrough, Floating, Mighty, OneWayPlatform, RealVelocity,
    Sensor, Velocity, Weak,
};
pub use compound_colliders::POLYLINE_THICKNESS;
pub use config::{PlatformOnLeave, SatConfig};
pub use contact_flags::ContactFlags;
pub use contacts::{ContactPair, Contacts};
#[cfg(feature = "debug")]
pub use debug::{SatDebugConfig, SatDebugPlugin};
pub use events::{CollisionEnded, CollisionStarted, Crushed, Crushers};
pub use interpolation::TransformInterpolation;
pub use plugin::{SatPlugin, SatSystems};
pub use query::{
    PointProjection, RayCaster, RayHitData, RayHits, ShapeCaster, ShapeHitData, ShapeHits,
    SpatialQuery, SpatialQueryFilter,
};
pub use sat_core::{Contact, PolygonError};
#[cfg(feature = "bevy_ecs_tilemap")]
pub use tiles::TilemapCollision;
pub use tiles::{Tile, TileGrid, TileGridError, TilePiece, TilePieces};

/// Everything a game needs: `use bevy_sat::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "bevy_ecs_tilemap")]
    pub use crate::TilemapCollision;
    pub use crate::{
        BodyColliders, ColliderOf, CollidingEntities, CollisionEnded, CollisionLayers,
        CollisionStarted, Contact, ContactFlags, ContactPair, Contacts, ConvexCollider, Crushed,
        Crushers, DropThrough, Floating, Mighty, OneWayPlatform, PlatformOnLeave, PointProjection,
        PolygonError, RayCaster, RayHitData, RayHits, RealVelocity, SatConfig, SatPlugin,
        SatSystems, Sensor, ShapeCaster, ShapeHitData, ShapeHits, SpatialQuery, SpatialQueryFilter,
        Tile, TileGrid, TileGridError, TilePiece, TilePieces, TransformInterpolation, Velocity,
        Weak,
    };
    #[cfg(feature = "debug")]
    pub use crate::{SatDebugConfig, SatDebugPlugin};
}
