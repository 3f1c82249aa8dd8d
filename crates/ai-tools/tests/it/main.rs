//! Integration tests of the AI tool layer (`tools.md` §15 and §16), one binary (D-9).

// Helpers take owned JSON so call sites read like the spec's examples.
#![allow(clippy::needless_pass_by_value)]

mod acceptance;
mod cache_isolation;
mod catalogue_invariants;
mod catalogue_size;
mod entry_point;
mod guard_dependencies;
mod guard_source_scan;
mod instructions;
mod schema_conformance;
mod support;
mod support_golden;
