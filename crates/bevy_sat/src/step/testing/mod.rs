//! What the step's unit tests share: a crowd of bodies and a small random generator.

pub(crate) mod crowd;
pub(crate) mod rng;
