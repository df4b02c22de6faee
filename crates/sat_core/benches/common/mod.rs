//! What the benchmarks share: a seeded generator and the criterion settings of the per-query
//! benches.
#![allow(dead_code)] // each bench uses part of it

use std::time::Duration;

use criterion::Criterion;

/// The stress scene's generator, so that benchmarks and scene draw from one implementation.
#[path = "../../../../examples/stress/xorshift.rs"]
pub mod xorshift;

/// Short runs for queries that take nanoseconds to microseconds: 1 s warm-up, 3 s of 50
/// samples.
pub fn quick_criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}
