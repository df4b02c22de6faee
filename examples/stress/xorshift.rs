//! A small xorshift generator (Marsaglia's xorshift64): deterministic, and no `rand` needed.
//!
//! Shared by the stress scene (`scene.rs`), sat_core's benchmarks and bevy_sat's unit tests,
//! which include this file with `#[path]`: the same seed gives the same sequence everywhere.
#![allow(dead_code)] // each user takes the part it needs

/// Xorshift64 over a non-zero 64-bit state.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a seed (0 is replaced, xorshift needs a non-zero state).
    pub fn new(seed: u64) -> Self {
        Self(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `[0, 1)`: the top 24 bits of the next word.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in `lo..=hi` (`lo <= hi`).
    pub fn int(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next_u64() % u64::from(hi - lo + 1)) as u32
    }
}
