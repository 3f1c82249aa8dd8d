//! Repository maintenance for cartera; its tidy tests live in `tests/`.

fn main() {}
