//! What the benchmarks share: a seeded generator and the criterion settings of the per-query
//! benches.
#![allow(dead_code)] // each bench uses part of it

use std::time::Duration;

use criterion::Criterion;

/// Marsaglia's xorshift64: deterministic, and no `rand` needed.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
}

/// Short runs for queries that take nanoseconds to microseconds: 1 s warm-up, 3 s of 50
/// samples.
pub fn quick_criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(50)
}
