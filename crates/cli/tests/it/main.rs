//! Integration tests of the `cartera` binary: each test runs the real executable on a temporary
//! ledger and reads the result back through the store's ports.
#![allow(clippy::print_stderr, reason = "tests say why they skip")]

mod acceptance;
mod import;
mod support;
