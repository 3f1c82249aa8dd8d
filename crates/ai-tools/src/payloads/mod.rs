//! Projection of use-case results into tool payloads (`tools.md` §7 to §9).
//!
//! The contract with the rest of the crate: [`project`] receives a tool and its canonical
//! arguments (already validated and normalised, defaults filled in, `tools.md` §6.9) and returns
//! the payload before sampling and gating. Series tools return a [`SeriesPayload`] that the gate
//! renders at 120, 60, 30 or 15 points (`tools.md` §4). `explain_metric` is not projected here:
//! it reads the static table of `tools.md` §12.

mod analytics;
mod args;
mod emit;
mod holdings;
mod integrity;
mod lots;
mod scenarios;
mod series;
mod shared;
mod tax;
mod tx;

use serde_json::{Map, Value};
use shared_types::ToolName;
use use_cases::queries::{DisplayCurrency, ReadUseCases};

use crate::profile::Settings;
use args::Args;

/// What a projection needs besides the arguments.
pub(crate) struct ProjectCtx<'a> {
    /// The read use cases (the only way to data).
    pub use_cases: &'a dyn ReadUseCases,
    /// The profile's display settings (caps and page sizes).
    pub settings: Settings,
    /// The request's base currency, `EUR` or `USD` (already validated).
    pub base_currency: &'a str,
    /// The tools the profile exposes, canonical order (`data_gaps.nextTools` lists only these).
    pub exposed: &'a [ToolName],
}

impl ProjectCtx<'_> {
    /// The base currency as the use cases take it.
    fn currency(&self, use_case: &'static str) -> Result<Option<DisplayCurrency>, ProjectError> {
        DisplayCurrency::parse(self.base_currency)
            .map(Some)
            .ok_or_else(|| emit::fail(use_case, "internal error: base currency is not EUR or USD"))
    }
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
    /// The keys before the list (`currency`, `year`), already checked.
    head: Map<String, Value>,
    /// `points` or `cells`.
    list_key: &'static str,
    /// Every point of the window, date ascending, each already checked.
    points: Vec<Value>,
}

impl SeriesPayload {
    /// The payload object with the series sampled to at most `max_points` points
    /// (`downsample`, `domain.md` §14.3) and its `omittedCount`.
    pub(crate) fn render(&self, max_points: usize) -> Map<String, Value> {
        series::render(self, max_points)
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
    let use_case = use_case_of(tool);
    let args = Args::new(args, use_case);
    let plain = |map: Map<String, Value>| Projected::Plain(map);
    match tool {
        ToolName::PortfolioSummary => holdings::portfolio_summary(ctx).map(plain),
        ToolName::FiscalIntegrity => integrity::fiscal_integrity(ctx).map(plain),
        ToolName::FiscalIntegrityRows => integrity::fiscal_integrity_rows(ctx, &args).map(plain),
        ToolName::TokenHistory => lots::token_history(ctx, &args).map(plain),
        ToolName::TokenLots => lots::token_lots(ctx, &args).map(plain),
        ToolName::AssetAllocation => analytics::asset_allocation(ctx).map(plain),
        ToolName::RiskMetrics => analytics::risk_metrics(ctx).map(plain),
        ToolName::Kpis => analytics::kpis(ctx).map(plain),
        ToolName::DrawdownCurve => series::drawdown_curve(ctx, &args).map(Projected::Series),
        ToolName::PerformanceHistory => {
            series::performance_history(ctx, &args).map(Projected::Series)
        }
        ToolName::VolatilityHeatmap => {
            series::volatility_heatmap(ctx, &args).map(Projected::Series)
        }
        ToolName::SpanishTaxReport => tax::spanish_tax_report(ctx, &args).map(plain),
        ToolName::LivePrices => tx::live_prices(ctx, &args).map(plain),
        ToolName::HoldingDetail => holdings::holding_detail(ctx, &args).map(plain),
        ToolName::AccountHoldings => holdings::account_holdings(ctx, &args).map(plain),
        ToolName::TaxYearComparison => tax::tax_year_comparison(ctx, &args).map(plain),
        ToolName::DataGaps => holdings::data_gaps(ctx).map(plain),
        ToolName::ExplainMetric => Err(emit::fail(
            use_case,
            "internal error: explain_metric reads the static table, not a use case",
        )),
        ToolName::ScenarioPositionValue => scenarios::position_value(ctx, &args).map(plain),
        ToolName::BreakevenPrice => scenarios::breakeven(ctx, &args).map(plain),
        ToolName::DerivativesPnl => lots::derivatives_pnl(ctx).map(plain),
        ToolName::CustodyLocations => lots::custody_locations(ctx, &args).map(plain),
        ToolName::ScenarioPortfolioShock => scenarios::shock(ctx, &args).map(plain),
        ToolName::ConcentrationRisk => scenarios::concentration(ctx).map(plain),
        ToolName::TxSearch => tx::tx_search(ctx, &args).map(plain),
    }
}

/// The use case a tool wraps, as named in `tools.md` §2 (the first one for tools reading two).
pub(crate) const fn use_case_of(tool: ToolName) -> &'static str {
    match tool {
        ToolName::PortfolioSummary
        | ToolName::HoldingDetail
        | ToolName::AccountHoldings
        | ToolName::DataGaps => "GetPortfolioSummary",
        ToolName::FiscalIntegrity | ToolName::FiscalIntegrityRows => "GetFiscalIntegrity",
        ToolName::TokenHistory | ToolName::TokenLots => "GetTokenHistory",
        ToolName::AssetAllocation => "GetAssetAllocation",
        ToolName::RiskMetrics => "GetRiskMetrics",
        ToolName::Kpis => "GetKpis",
        ToolName::DrawdownCurve => "GetDrawdownCurve",
        ToolName::PerformanceHistory => "GetPerformanceHistory",
        ToolName::VolatilityHeatmap => "GetVolatilityHeatmap",
        ToolName::SpanishTaxReport => "GetSpanishTaxReport",
        ToolName::LivePrices => "GetLatestPrices",
        ToolName::TaxYearComparison => "CompareTaxYears",
        ToolName::ExplainMetric => "ExplainMetric",
        ToolName::ScenarioPositionValue
        | ToolName::BreakevenPrice
        | ToolName::ScenarioPortfolioShock
        | ToolName::ConcentrationRisk => "GetPortfolioScenario",
        ToolName::DerivativesPnl => "GetDerivativesPnl",
        ToolName::CustodyLocations => "GetLotCustodyLocations",
        ToolName::TxSearch => "SearchSpotTransactions",
    }
}

#[cfg(test)]
mod tests;
