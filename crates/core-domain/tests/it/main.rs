//! Integration tests of core-domain: the worked examples of `domain.md` §17, value precedence,
//! overrides and the engine's properties of §16.
#![allow(
    clippy::disallowed_methods,
    reason = "tests and benches read their knobs from the environment"
)]

mod analytics_examples;
mod custody_examples;
mod examples;
mod irpf_examples;
mod out_of_range;
mod overrides;
mod properties;
mod quality_examples;
mod real_data;
mod scale;
mod valuation;
