//! Projection of use-case results into tool payloads (`tools.md` §7 to §9).
//!
//! The contract with the rest of the crate: [`project`] receives a tool and its canonical
//! arguments (already validated and normalised, defaults filled in, `tools.md` §6.9) and returns
//! the payload before sampling and gating. Series tools return a [`SeriesPayload`] that the gate
//! renders at 120, 60, 30 or 15 points (`tools.md` §4). `explain_metric` is not projected here:
//! it reads the static table of `tools.md` §12.

use serde_json::{Map, Value};
use shared_types::ToolName;
use use_cases::queries::ReadUseCases;

use crate::profile::Settings;

/// What a projection needs besides the arguments.
pub(crate) struct ProjectCtx<'a> {
    /// The read use cases (the only way to data).
    pub use_cases: &'a dyn ReadUseCases,
    /// The profile's display settings (caps and page sizes).
    pub settings: Settings,
    /// The request's base currency, `EUR` or `USD` (already validated).
    pub base_currency: &'a str,
}

/// A projected payload, cached as is (`tools.md` §14: before sampling and gating).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Projected {
    /// A finished payload object.
    Plain(Map<String, Value>),
    /// A series payload, rendered per sampling step by the gate.
    Series(SeriesPayload),
}

/// The full series of a series tool, rendered at a given number of points.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SeriesPayload {
    // Filled in by the payload work.
}

impl SeriesPayload {
    /// The payload object with the series sampled to at most `max_points` points
    /// (`downsample`, `domain.md` §14.3) and its `omittedCount`.
    pub(crate) fn render(&self, max_points: usize) -> Map<String, Value> {
        let _ = (self, max_points);
        Map::new()
    }
}

/// A projection that failed: becomes `USE_CASE_FAILED` (`tools.md` §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProjectError {
    /// The use case's name as in `tools.md` §2, e.g. `GetPortfolioSummary`.
    pub use_case: &'static str,
    /// The error text on one line (no payload fragment).
    pub message: String,
}

/// Builds the payload of `tool` from its canonical arguments.
pub(crate) fn project(
    ctx: &ProjectCtx<'_>,
    tool: ToolName,
    args: &Map<String, Value>,
) -> Result<Projected, ProjectError> {
    let _ = (ctx, args);
    Err(ProjectError {
        use_case: "none",
        message: format!("{tool} is not projected yet"),
    })
}
