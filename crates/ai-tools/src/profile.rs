//! Execution profiles (`tools.md` §3): exposure, display settings and budgets.

use shared_types::{Tier, ToolName};

/// The display settings a profile fixes (`tools.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Cap of every holdings-like list.
    pub top_n_holdings: u32,
    /// Page size of `token_history` and `token_lots`.
    pub lots_page_size: u32,
    /// Page size of `fiscal_integrity_rows` and `tx_search`.
    pub rows_page_size: u32,
}

/// An execution profile (`tools.md` §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// A paid, hosted model: all 25 tools, the metered budgets.
    Metered,
    /// A local model with a known context window (tokens): the 14 core tools.
    Local {
        /// The model's context window in tokens, from 1000 to 10,000,000.
        context_window: u32,
    },
    /// A chain mixing local and hosted models: behaves exactly like `Metered`.
    Mixed,
}

/// A local profile asked for a context window outside 1000 to 10,000,000 tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProfileError {
    /// The context window is out of range.
    ContextWindowOutOfRange {
        /// The rejected window.
        context_window: u32,
    },
}

impl std::fmt::Display for ProfileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ContextWindowOutOfRange { context_window } => write!(
                f,
                "context window {context_window} is out of range: it must be an integer from {MIN_CONTEXT_WINDOW} to {MAX_CONTEXT_WINDOW}"
            ),
        }
    }
}

impl std::error::Error for ProfileError {}

/// Smallest accepted context window (tokens).
pub const MIN_CONTEXT_WINDOW: u32 = 1000;
/// Largest accepted context window (tokens).
pub const MAX_CONTEXT_WINDOW: u32 = 10_000_000;

/// The 14 core tools in canonical order (the local exposure).
const CORE_TOOLS: [ToolName; 14] = [
    ToolName::PortfolioSummary,
    ToolName::FiscalIntegrity,
    ToolName::TokenHistory,
    ToolName::AssetAllocation,
    ToolName::Kpis,
    ToolName::SpanishTaxReport,
    ToolName::LivePrices,
    ToolName::HoldingDetail,
    ToolName::AccountHoldings,
    ToolName::TaxYearComparison,
    ToolName::DataGaps,
    ToolName::ExplainMetric,
    ToolName::ScenarioPositionValue,
    ToolName::BreakevenPrice,
];

/// The metered per-tool budget in characters (`tools.md` §2). Exhaustive on purpose: a new tool
/// does not compile until it has a budget.
pub const fn metered_budget(tool: ToolName) -> u32 {
    match tool {
        // A full first page (15 ranked and 15 unvalued holdings) of the longest realistic rows
        // is about 6,900 characters (issue 25 §13, D-93).
        ToolName::PortfolioSummary | ToolName::AccountHoldings => 7500,
        ToolName::FiscalIntegrityRows
        | ToolName::DrawdownCurve
        | ToolName::PerformanceHistory
        | ToolName::VolatilityHeatmap
        | ToolName::TaxYearComparison
        | ToolName::DataGaps
        | ToolName::DerivativesPnl
        | ToolName::CustodyLocations
        | ToolName::ScenarioPortfolioShock
        // 15 ranked and 15 unvalued items of the longest realistic rows: about 3,300 (D-93).
        | ToolName::AssetAllocation => 4000,
        // A full page of lots of the longest realistic rows is about 4,500 characters; both
        // lot tools list the same page (issue 25 §13, D-93).
        ToolName::FiscalIntegrity
        | ToolName::TokenHistory
        | ToolName::TokenLots
        | ToolName::SpanishTaxReport => 6000,
        ToolName::Kpis | ToolName::HoldingDetail => 3000,
        ToolName::RiskMetrics | ToolName::ScenarioPositionValue | ToolName::BreakevenPrice => 1500,
        ToolName::LivePrices | ToolName::ExplainMetric | ToolName::ConcentrationRisk => 2000,
        ToolName::TxSearch => 5000,
    }
}

/// `⌊3·cw/5⌋` in integers (`tools.md` §3).
fn local_tool_budget(context_window: u32) -> u32 {
    let scaled = u64::from(context_window).saturating_mul(3) / 5;
    u32::try_from(scaled).unwrap_or(u32::MAX)
}

/// `⌊12·cw/5⌋` in integers (`tools.md` §3).
fn local_run_budget(context_window: u32) -> u64 {
    u64::from(context_window).saturating_mul(12) / 5
}

impl Profile {
    /// A local profile; the context window must be from 1000 to 10,000,000 tokens.
    ///
    /// # Errors
    ///
    /// [`ProfileError::ContextWindowOutOfRange`] outside that range.
    pub fn local(context_window: u32) -> Result<Profile, ProfileError> {
        if (MIN_CONTEXT_WINDOW..=MAX_CONTEXT_WINDOW).contains(&context_window) {
            Ok(Profile::Local { context_window })
        } else {
            Err(ProfileError::ContextWindowOutOfRange { context_window })
        }
    }

    /// The profile's label: `metered`, `local` or `mixed`.
    pub const fn label(&self) -> &'static str {
        match self {
            Profile::Metered => "metered",
            Profile::Local { .. } => "local",
            Profile::Mixed => "mixed",
        }
    }

    /// The exposure label: `local`, or `metered` for metered and mixed (which behave alike).
    pub const fn exposure_label(&self) -> &'static str {
        match self {
            Profile::Metered | Profile::Mixed => "metered",
            Profile::Local { .. } => "local",
        }
    }

    /// Whether the profile exposes only the core tools.
    pub const fn is_local(&self) -> bool {
        matches!(self, Profile::Local { .. })
    }

    /// The display settings (`tools.md` §3).
    pub fn settings(&self) -> Settings {
        match *self {
            Profile::Metered | Profile::Mixed => Settings {
                top_n_holdings: 15,
                lots_page_size: 15,
                rows_page_size: 15,
            },
            Profile::Local { context_window } => {
                let unit = local_tool_budget(context_window) / 400;
                Settings {
                    top_n_holdings: unit.clamp(5, 50),
                    lots_page_size: unit.clamp(5, 100),
                    rows_page_size: unit.clamp(5, 100),
                }
            }
        }
    }

    /// The exposed tools in canonical order.
    pub fn exposed(&self) -> &'static [ToolName] {
        match self {
            Profile::Metered | Profile::Mixed => ToolName::ALL,
            Profile::Local { .. } => &CORE_TOOLS,
        }
    }

    /// Whether the profile exposes `tool`.
    pub fn exposes(&self, tool: ToolName) -> bool {
        match self {
            Profile::Metered | Profile::Mixed => true,
            Profile::Local { .. } => tool.tier() == Tier::Core,
        }
    }

    /// The per-tool budget in characters.
    pub fn tool_budget(&self, tool: ToolName) -> u32 {
        match *self {
            Profile::Metered | Profile::Mixed => metered_budget(tool),
            Profile::Local { context_window } => local_tool_budget(context_window),
        }
    }

    /// A fresh run budget for one model run (`tools.md` §3.1).
    pub fn new_run_budget(&self) -> RunBudget {
        match *self {
            Profile::Metered | Profile::Mixed => RunBudget::unbounded(),
            Profile::Local { context_window } => {
                RunBudget::bounded(local_run_budget(context_window))
            }
        }
    }
}

/// The character budget of one model run (`tools.md` §3.1). Never share one between runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunBudget {
    limit: Option<u64>,
    used: u64,
}

impl RunBudget {
    /// A budget that never limits (metered and mixed).
    pub const fn unbounded() -> RunBudget {
        RunBudget {
            limit: None,
            used: 0,
        }
    }

    /// A budget of `limit` characters over the whole run (local).
    pub const fn bounded(limit: u64) -> RunBudget {
        RunBudget {
            limit: Some(limit),
            used: 0,
        }
    }

    /// The run's limit; `None` when unbounded.
    pub const fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// Characters of `ok` payloads counted so far.
    pub const fn used(&self) -> u64 {
        self.used
    }

    /// `limit − used`; `None` when unbounded.
    pub fn remaining(&self) -> Option<u64> {
        self.limit.map(|limit| limit.saturating_sub(self.used))
    }

    /// Adds the characters of an `ok` payload.
    pub(crate) fn add_ok_chars(&mut self, chars: u64) {
        if self.limit.is_some() {
            self.used = self.used.saturating_add(chars);
        }
    }
}
