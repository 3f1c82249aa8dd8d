//! The providers against a local HTTP server on 127.0.0.1 answering in each provider's shape:
//! the chain, paging, throttles, retries, dead hosts, timeouts and refused answers.

mod chain;
mod manners;
