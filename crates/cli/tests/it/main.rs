//! Integration tests of the `cartera` binary: each test runs the real executable on a temporary
//! ledger (a fresh demo ledger for the report and correction commands) and reads the result
//! back through its output or the store's ports.
#![allow(clippy::print_stderr, reason = "tests say why they skip")]

mod acceptance;
mod ai_payloads;
mod ask;
mod bench;
mod bench_tools;
mod concurrency;
mod corrections;
mod demo;
mod errors;
mod exchanges;
mod guide;
mod import;
mod import_limits;
mod lang;
mod mcp_stdio;
mod mcp_support;
mod mcp_transcript;
mod real_exports;
mod real_generations;
mod reliability;
mod reports;
mod storage;
mod support;
mod sync;
mod threads;
mod tools;
mod views;
