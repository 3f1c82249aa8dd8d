//! The advisor of cartera: an agent loop that lets a language model answer questions about the
//! ledger through the read-only AI tools of `ai-tools`, never computing a figure itself.
//!
//! One question is one turn: the loop sends the conversation, the profile's instructions and
//! its tool definitions to a model server (an OpenAI-compatible chat completions endpoint such
//! as Ollama, llama.cpp, vLLM, LM Studio or OpenAI, or the Anthropic Messages API), reads the
//! answer as it streams (Server-Sent Events, or one JSON document from a server that does not
//! stream), runs the tool calls the model asks for through [`ai_tools::ToolHost`] under one run
//! budget, feeds the results back, and repeats until the model answers without calling a tool
//! or the round cap is reached. The final answer's figures are then audited against this
//! turn's tool results as text ([`audit`]).
//!
//! It does no decimal arithmetic and prints nothing: text deltas, tool activity and warnings
//! reach the caller through an [`Observer`]. HTTP is blocking (`ureq`, no async runtime): each
//! request runs on a worker thread so that the caller's cancel flag and the read timeout end a
//! request in flight at once.
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

mod agent;
pub mod audit;
mod backend;
mod error;
mod http;
mod message;
mod sse;
mod tools;

pub use agent::{Agent, AgentConfig, Observer, ToolCallRecord, Turn};
pub use backend::Api;
pub use error::AdvisorError;
pub use message::{Message, ToolCall};
pub use tools::{HostTools, ToolBox};

/// Whether a base URL names a loopback or private-network host (`localhost`, `*.local`,
/// 127.0.0.0/8, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16, 100.64.0.0/10,
/// `::1`, `fc00::/7`, `fe80::/10`): a model the user runs, which gets the `local` profile by
/// default and is reached without the environment's proxy.
pub fn is_private_endpoint(url: &str) -> bool {
    use std::net::IpAddr;
    let host = backend::url_host(url);
    // `url_host` lower-cases the host.
    #[allow(clippy::case_sensitive_file_extension_comparisons)]
    let named_local =
        host == "localhost" || host.ends_with(".localhost") || host.ends_with(".local");
    if named_local {
        return true;
    }
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) => {
            let [a, b, ..] = ip.octets();
            ip.is_loopback()
                || ip.is_private()
                || ip.is_link_local()
                || ip.is_unspecified()
                || (a == 100 && (64..128).contains(&b))
        }
        Ok(IpAddr::V6(ip)) => {
            let first = ip.segments().first().copied().unwrap_or(0);
            ip.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
        }
        Err(_) => false,
    }
}
