//! The pure engine of cartera: ledger model, global FIFO, custody, valuation and analytics.
//!
//! Every function here is a function of its arguments: the effective ledger, the price and rate
//! tables, the settings and an explicit as-of instant. Nothing reads a clock, the environment or
//! a file, and no type derives serde traits: the serialization boundary is `shared-types`.
//! Money is `rust_decimal` with checked arithmetic only (`domain.md` §0, §1).
//!
//! # Threads
//!
//! The work that splits (the valuation of the next rows while these are matched, custody
//! beside the IRPF years, the audit trail, the daily series, the row checks) is split with
//! rayon, on the pool the call is made from; nothing here starts a thread or depends on the
//! number of threads: one thread and many give the same figures. A caller that must bound the
//! engine's threads runs it on a pool of its own:
//!
//! ```
//! use core_domain::fifo::{self, EngineSettings};
//! use core_domain::engine::EngineInput;
//! use core_domain::market::Market;
//!
//! let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! let output = pool.install(|| {
//!     fifo::run(&EngineInput::default(), &Market::default(), &EngineSettings::default())
//! });
//! assert!(output.unwrap().lots.is_empty());
//! ```
#![deny(clippy::float_arithmetic)]

pub mod analytics;
pub mod asset;
pub mod compare;
pub mod custody;
pub mod derivatives;
pub mod effective;
pub mod engine;
pub mod error;
pub mod fast_hash;
pub mod fifo;
pub mod holdings;
pub mod irpf;
pub mod ledger;
pub mod market;
pub mod num;
pub mod overrides;
pub mod pipeline;
pub mod quality;
pub mod ranking;
pub mod rng;
pub mod scenarios;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod time;
pub mod valuation;

pub use asset::Asset;
pub use error::{DomainError, DomainResult};
pub use fifo::{EngineSettings, run};
pub use ledger::{
    Account, AccountId, AssetAmount, Fee, FuturesRow, RowKey, RowValues, SpotRow, StatedAmount,
    StatedValues, TxType,
};
pub use market::{Market, PriceRow, RateRow};
pub use time::{Date, FiscalTimezone, Instant};
