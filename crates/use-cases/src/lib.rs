//! The questions cartera answers, one use case per question, over ports.
//!
//! A use case (portfolio summary, tax report, token history, transaction search, an import, …)
//! is a function of ports: the ledger ([`ports::LedgerRead`], and [`ports::LedgerWrite`] for
//! the commands that change it), the rate and price stores, the settings and the clock. It
//! loads what it needs through them, runs `core-domain` and returns shared-types DTOs.
//! Adapters (`ledger-sqlite`, `importers`) implement or feed the ports and are never depended
//! on from here. The read ports carry no write method, so the read-only AI surface cannot
//! change the ledger by construction. [`queries::ReadUseCases`] answers every read question
//! (implemented by [`queries::LedgerQueries`], which computes the derived state once per ledger
//! version); [`commands`] holds the validated corrections the CLI writes.

#![deny(clippy::float_arithmetic)]

pub mod commands;
pub mod error;
pub mod ports;
pub mod queries;
pub mod sampling;
pub mod sync;

#[cfg(test)]
pub(crate) mod fake;

pub use error::{PortError, PortResult, UseCaseError, UseCaseResult};
