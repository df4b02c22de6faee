//! Shared helpers for the integration tests: an independent exact reference (in f64) and shape
//! generators.
#![allow(dead_code, missing_docs)]

pub mod checks;
pub mod outline_reference;
pub mod reference;
pub mod strategies;
