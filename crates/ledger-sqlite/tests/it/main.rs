//! Integration tests of the SQLite ledger through its ports.

mod accounts;
mod edits;
mod import;
mod market;
mod schema;
mod support;
