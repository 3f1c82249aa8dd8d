//! Integration tests of core-domain: the worked examples of `domain.md` §17, value precedence,
//! overrides and the engine's properties of §16.

mod examples;
mod overrides;
mod properties;
mod real_data;
mod scale;
mod valuation;
