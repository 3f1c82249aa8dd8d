//! Integration tests of the advisor loop against a scripted model server on 127.0.0.1, in the
//! OpenAI and the Anthropic streaming shapes, over a fake tool box.
#![allow(
    clippy::print_stderr,
    reason = "the performance test prints its figure"
)]

mod anthropic;
mod failures;
mod fake;
mod openai;
mod scripted;
