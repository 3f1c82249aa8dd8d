//! Repository maintenance for cartera.
//!
//! The tidy tests live in `tests/it/` and run with the rest of the suite (`cargo test --workspace`):
//! they read `cargo metadata`, the manifests and the sources, and fail with the offending
//! `file:line` when a rule of `ARCHITECTURE.md` or the spec's `style.md` is broken.
//! This binary does nothing yet; it exists so later tasks (code generation, release chores) have
//! a home that is not a shell script.

fn main() {}
