//! Why a turn ended without an answer.

use std::time::Duration;

/// Why a turn ended without an answer. Every message names what to do next; none carries the
/// API key or a figure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AdvisorError {
    /// The user cancelled the request in flight (Ctrl-C, or a new question in `chat`).
    #[error("cancelled")]
    Cancelled,
    /// The model server could not be reached, after the retries.
    #[error(
        "cannot reach the model server at {url}: {detail}. Is it running, and is the endpoint right?"
    )]
    Unreachable {
        /// The URL requested.
        url: String,
        /// The network error.
        detail: String,
    },
    /// The server answered 5xx on every attempt.
    #[error("the model server at {url} failed with HTTP {status}: {message}")]
    ServerFailed {
        /// The URL requested.
        url: String,
        /// The last status.
        status: u16,
        /// The server's own message.
        message: String,
    },
    /// The server refused the request (4xx): wrong model name, key, or request shape.
    #[error("the model server refused the request with HTTP {status}: {message}")]
    Rejected {
        /// The status.
        status: u16,
        /// The server's own message.
        message: String,
    },
    /// The server answered, but not in the shape of the chosen API.
    #[error("the server at {url} does not answer like the {api} API: {detail}")]
    NotCompatible {
        /// The URL requested.
        url: String,
        /// `OpenAI-compatible chat completions` or `Anthropic Messages`.
        api: &'static str,
        /// What was wrong.
        detail: String,
    },
    /// The answer stopped arriving for longer than the read timeout.
    #[error("the model server sent nothing for {} s and the answer was abandoned; a local model may still be loading, so try again", whole_seconds(*.timeout))]
    Stalled {
        /// The read timeout.
        timeout: Duration,
    },
    /// The connection broke while the answer was streaming.
    #[error("the answer stream broke: {detail}")]
    StreamBroken {
        /// The IO error.
        detail: String,
    },
    /// The server reported an error inside the stream.
    #[error("the model server reported an error while answering: {message}")]
    StreamError {
        /// The server's message.
        message: String,
    },
    /// The model kept calling tools without answering.
    #[error(
        "the model called tools for {rounds} rounds without answering; ask a narrower question"
    )]
    TooManyRounds {
        /// The cap that was reached.
        rounds: u32,
    },
}

/// A timeout in whole seconds, rounded up (a 400 ms test timeout reads "1 s").
fn whole_seconds(timeout: Duration) -> u64 {
    timeout
        .as_secs()
        .saturating_add(u64::from(timeout.subsec_nanos() > 0))
}
