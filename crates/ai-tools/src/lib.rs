//! The AI tool layer of cartera (`tools.md`): 25 read-only tools over the read use cases.
//!
//! The crate owns the catalogue, the execution profiles and budgets, strict input validation,
//! the projection of use-case DTOs into payloads, the result gate, the result cache, the JSON
//! Schemas, the agent instructions and the `explain_metric` texts. It never sees a decimal
//! value: figures arrive as validated strings from `use-cases` and leave unchanged.
#![forbid(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::float_arithmetic
)]

pub(crate) mod payloads;
pub mod profile;

pub use profile::{Profile, Settings};
