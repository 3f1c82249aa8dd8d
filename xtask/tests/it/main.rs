//! Tidy tests: the architecture and style rules of cartera, checked on every `cargo test`.
//!
//! Each module reads one kind of evidence (`cargo metadata`, manifests, documentation, source
//! lines, the test folders) and each rule is a table row or a small function whose failure
//! lists every offending `file:line` with the fix. The tables are the single place to touch
//! when a crate is added: `crate_map::CRATE_MAP`, `scans::SCAN_RULES` and the allow-lists
//! next to them.

mod crate_map;
mod docs;
mod facade;
mod manifests;
mod scans;
mod test_layout;
mod threads;
mod workspace;
