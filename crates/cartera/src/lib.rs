//! cartera as a library: one entry point for a service that embeds the ledger, the Spanish IRPF
//! tax report and the AI tools.
//!
//! Open a [`Ledger`] (a file, read-write or read-only, or in memory) with a [`Clock`]; import
//! exchange exports, ECB rates and prices into it ([`Ledger::import_bytes`],
//! [`Ledger::import_file`]); set its settings; ask it the read questions
//! ([`Ledger::portfolio`], [`Ledger::tax_report`], [`Ledger::tax_reports`], [`Ledger::lots`],
//! [`Ledger::transactions`], [`Ledger::integrity`]); build its AI [`Tools`] for a tenant and call
//! one by name with JSON arguments, or serve them over MCP on any reader and writer
//! ([`McpServer`]). Answers are the `shared-types` DTOs that the cli's `--json` prints (amounts
//! as decimal strings); every failure is one [`Error`].
//!
//! A [`Ledger`] and its [`Tools`] are `Send + Sync`: open each ledger once and share it across
//! request threads. Nothing here reads the system clock or the environment unless asked: the
//! clock is injected ([`SystemClock`] for the real time, [`FixedClock`] for reproducible
//! answers).
//!
//! ```
//! use cartera::{FixedClock, ImportOptions, Ledger, ToolConfig};
//! use serde_json::json;
//!
//! let ledger = Ledger::in_memory(FixedClock::parse("2024-12-31T12:00:00Z")?)?;
//! let csv = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,\
//!            fee_amount,fiat_value,fiat_currency,id,group_id,note\n\
//!            2024-03-01T10:00:00Z,BUY,Bank,BTC,0.02,EUR,1000,,,,,b1,,\n\
//!            2024-09-01T10:00:00Z,SELL,Bank,EUR,700,BTC,0.01,,,,,s1,,\n";
//! ledger.import_bytes("bank.csv", csv.as_bytes(), &ImportOptions::default())?;
//! let report = ledger.tax_report(2024)?;
//! assert_eq!(report.summary.capital_gains, "200.00");
//! let tools = ledger.tools(&ToolConfig::new("me"))?;
//! let answer = tools.call("spanish_tax_report", &json!({ "year": 2024 }))?;
//! assert_eq!(answer["kind"], "ok");
//! # Ok::<(), cartera::Error>(())
//! ```

#![warn(missing_docs)]

mod clock;
mod error;
mod import;
mod ledger;
mod tools;

pub use clock::{Clock, FixedClock, SystemClock};
pub use error::{Error, Result};
pub use import::{ImportFinding, ImportKind, ImportOptions, ImportReport, ImportStatus};
pub use ledger::{Ledger, TxQuery};
pub use tools::{McpServer, ToolConfig, ToolProfile, Tools};

/// The answers: the DTOs of `shared-types`, the same documents the cli prints with `--json`.
pub use shared_types::dto::{
    FiscalIntegrity, LedgerVersion, PortfolioSummary, SettingsList, TaxReport, TokenHistory, TxPage,
};

/// The transaction types a [`TxQuery`] filters on.
pub use shared_types::SpotTxType;
