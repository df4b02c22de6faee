//! What the step's unit tests share: a crowd of bodies and a small random generator.

pub(crate) mod crowd;
/// The stress scene's xorshift generator: the same seed gives the same sequence in the step's
/// tests, the stress scene and sat_core's benchmarks.
#[path = "../../../../../examples/stress/xorshift.rs"]
pub(crate) mod xorshift;
