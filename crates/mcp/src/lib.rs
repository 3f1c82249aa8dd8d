//! The MCP server of cartera (`mcp.md`): a hand-written, synchronous JSON-RPC 2.0 dispatcher
//! over any line reader and writer (stdin and stdout in production) that exposes the read-only
//! tools of `ai-tools`.
//!
//! One message per line in, one compact response per request out, in arrival order. The server
//! answers `initialize` (with the profile's instructions), `ping`, `tools/list` (the catalogue
//! text of `ai-tools`, embedded verbatim) and `tools/call` (the tool result as
//! `structuredContent` plus a text copy, or an `isError` result for input and use-case errors),
//! and the read-only resources and prompts of `catalog` (`resources/list`,
//! `resources/templates/list`, `resources/read`, `prompts/list`, `prompts/get`). Every other
//! method is `-32601`. Bad input never stops it: every line is classified and every
//! request with a usable id gets exactly one response. No async runtime, no MCP SDK: the only
//! dependencies are `ai-tools`, `shared-types`, `serde` and `serde_json`.
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

mod catalog;
pub mod jsonrpc;
mod server;

pub use catalog::{LISTING_CEILING_CHARS, RESOURCE_NOT_FOUND};
pub use server::{PROTOCOL_VERSIONS, ServeError, Server, ServerConfig, serve};
