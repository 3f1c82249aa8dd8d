//! The pure engine of cartera: ledger model, global FIFO, custody, valuation and analytics.
//!
//! Every function here is a function of its arguments: the effective ledger, the price and rate
//! tables, the settings and an explicit as-of instant. Nothing reads a clock, the environment or
//! a file, and no type derives serde traits: the serialization boundary is `shared-types`.
//! Money is `rust_decimal` with checked arithmetic only (`domain.md` §0, §1).
#![deny(clippy::float_arithmetic)]

pub mod analytics;
pub mod asset;
pub mod engine;
pub mod error;
pub mod holdings;
pub mod ledger;
pub mod num;
pub mod overrides;
pub mod ranking;
pub mod scenarios;
pub mod time;

pub use asset::Asset;
pub use error::{DomainError, DomainResult};
pub use ledger::{Account, AccountId, AssetAmount, Fee, FuturesRow, SpotRow, StatedAmount, TxType};
pub use time::{Date, FiscalTimezone, Instant};
