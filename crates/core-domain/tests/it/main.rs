//! Integration tests of core-domain: the worked examples of `domain.md` §17 and the engine's
//! properties of §16.

mod analytics_examples;
mod examples;
