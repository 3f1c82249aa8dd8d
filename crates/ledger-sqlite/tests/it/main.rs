//! Integration tests of the SQLite ledger through its ports.
#![allow(
    clippy::disallowed_methods,
    reason = "tests, benches and examples read their knobs from the environment"
)]

mod accounts;
mod edits;
mod import;
mod market;
mod read;
mod schema;
mod stream;
mod support;
