//! The fiscal engine's data model (`domain.md` §6 to §8): effective rows, values with
//! provenance, lots, slices, operations, income receipts and derivative results.
//!
//! Records refer to rows by their index in [`EngineInput::rows`] (cheap, `Copy`) and format
//! public identifiers (`L:<row_key>:<k>`, `E:<row_key>:<leg>:<n>`) only on demand.

pub mod model;

pub use model::*;
