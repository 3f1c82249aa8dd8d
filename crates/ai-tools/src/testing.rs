//! A seam for tests of the gate, the cache and the entry point: a replacement for the payload
//! projection. Not part of the supported API.

use serde_json::{Map, Value};
use shared_types::ToolName;
use use_cases::queries::ReadUseCases;

pub use crate::host::{char_count, gate_for_test};

/// A full series that renders itself at a given number of points.
pub trait SeriesRender: Send + Sync {
    /// The payload with the series sampled to at most `max_points` points.
    fn render(&self, max_points: usize) -> Map<String, Value>;
}

/// What a replacement projection returns.
pub enum FakeProjected {
    /// A finished payload.
    Plain(Map<String, Value>),
    /// A series payload.
    Series(Box<dyn SeriesRender>),
}

/// A failed replacement projection.
#[derive(Clone, Debug)]
pub struct FakeProjectError {
    /// The use case's name (`GetPortfolioSummary`).
    pub use_case: &'static str,
    /// Its error text.
    pub message: String,
}

/// A replacement projection: use cases, tool and canonical arguments to a payload.
pub type Projector = dyn Fn(&dyn ReadUseCases, ToolName, &Map<String, Value>) -> Result<FakeProjected, FakeProjectError>
    + Send
    + Sync;
