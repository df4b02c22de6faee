//! # bevy_sat
//!
//! 2D collision for Bevy built on the Separating Axis Theorem. Add [`SatPlugin`], give entities
//! a [`ConvexCollider`] and a body kind — [`Mighty`] (never pushed: walls, platforms) or
//! [`Weak`] (pushed out of what it hits; two Weak bodies split the push 50/50) — and read
//! [`ContactFlags`], [`Contacts`] and the [`CollisionStarted`] / [`CollisionEnded`] events.
//!
//! ```
//! use bevy::prelude::*;
//! use bevy::time::TimeUpdateStrategy;
//! use bevy_sat::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, SatPlugin::default()))
//!     .insert_resource(TimeUpdateStrategy::FixedTimesteps(1)) // one physics step per update
//!     .insert_resource(SatConfig { gravity: Vec2::new(0.0, -900.0), ..default() });
//! let floor = app.world_mut().spawn((ConvexCollider::rectangle(200.0, 20.0), Mighty)).id();
//! let player = app
//!     .world_mut()
//!     .spawn((ConvexCollider::rectangle(10.0, 20.0), Weak, Transform::from_xyz(0.0, 30.0, 0.0)))
//!     .id();
//! for _ in 0..120 {
//!     app.update();
//! }
//! let flags = app.world().get::<ContactFlags>(player).unwrap();
//! assert!(flags.on_floor());
//! assert_eq!(flags.standing_on(), Some(floor));
//! let y = app.world().get::<Transform>(player).unwrap().translation.y;
//! assert!((y - 20.0).abs() < 1e-3); // resting on the floor's top at y = 10
//! ```
//!
//! The geometry is [`sat_core`], re-exported as [`geometry`]; everything a game needs is in
//! [`prelude`].

// Library code never unwraps: bad input becomes an `Err` or a logged warning.
#![warn(clippy::unwrap_used, clippy::expect_used)]

mod components;
mod config;
mod contacts;
#[cfg(feature = "debug")]
mod debug;
mod diagnostics;
mod events;
mod plugin;
mod step;

pub use sat_core as geometry;

pub use components::{
    CollisionLayers, ContactFlags, ConvexCollider, DropThrough, Mighty, OneWayPlatform, Sensor,
    Velocity, Weak,
};
pub use config::SatConfig;
pub use contacts::{ContactPair, Contacts};
#[cfg(feature = "debug")]
pub use debug::{SatDebugConfig, SatDebugPlugin};
pub use events::{CollisionEnded, CollisionStarted, Crushed};
pub use plugin::{SatPlugin, SatSystems};
pub use sat_core::{Contact, PolygonError};

/// Everything a game needs: `use bevy_sat::prelude::*;`.
pub mod prelude {
    pub use crate::{
        CollisionEnded, CollisionLayers, CollisionStarted, Contact, ContactFlags, ContactPair,
        Contacts, ConvexCollider, Crushed, DropThrough, Mighty, OneWayPlatform, PolygonError,
        SatConfig, SatPlugin, SatSystems, Sensor, Velocity, Weak,
    };
    #[cfg(feature = "debug")]
    pub use crate::{SatDebugConfig, SatDebugPlugin};
}
