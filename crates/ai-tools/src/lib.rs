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

mod cache;
pub mod context;
mod host;
mod instructions;
mod metrics;
pub mod outcome;
// The stub projection leaves its contract unused until the payload work lands.
#[allow(dead_code)]
pub(crate) mod payloads;
pub mod profile;
pub mod schemas;
#[doc(hidden)]
pub mod testing;
mod validate;

pub use context::{ContextError, CurrencyCode, Locale, RequestContext, TenantId};
pub use host::{CacheConfig, ToolHost};
pub use outcome::{ErrorCode, InputReason, Payload, ToolError, ToolOutcome};
pub use profile::{Profile, ProfileError, RunBudget, Settings, metered_budget};
