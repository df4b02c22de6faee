//! The platformer example (work in progress).
fn main() {}
