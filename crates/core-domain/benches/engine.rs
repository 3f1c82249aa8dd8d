//! Criterion benchmark of the FIFO engine.
fn main() {}
