//! Analytics answers over the daily valuation series (`domain.md` §11).

use serde::{Deserialize, Serialize};

use super::common::GapItem;

/// One valued asset of the allocation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct AllocationItem {
    pub symbol: String,
    /// `QUANTITY`.
    pub amount: String,
    /// `FIAT`.
    pub value_fiat: String,
    /// `PERCENT` of the valued total.
    pub allocation_pct: String,
    pub currency: String,
}

/// Split of value across assets at the last daily close (`tools.md` §9.6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct AssetAllocation {
    /// Valuation date; null when no series exists.
    pub as_of: Option<String>,
    pub currency: String,
    /// Value descending, ties in symbol order.
    pub ranked: Vec<AllocationItem>,
    /// Symbol ascending.
    pub unvalued: Vec<GapItem>,
}

/// Trade statistics (`domain.md` §11.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct TradeStatsDto {
    pub total: u64,
    pub winning: u64,
    pub losing: u64,
    /// `PERCENT`.
    pub win_rate_pct: Option<String>,
    /// `RATIO`.
    pub average_r: Option<String>,
}

/// Best or worst asset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct AssetKpi {
    pub symbol: String,
    pub roi_pct: String,
    pub allocation_pct: String,
}

/// Headline indicators at the last daily close (`tools.md` §9.8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct KpisDto {
    pub as_of: Option<String>,
    pub currency: String,
    pub rates_incomplete: bool,
    pub prices_incomplete: bool,
    pub total_equity: String,
    pub total_cost_basis: String,
    pub total_unrealized_pnl: String,
    pub total_realized_pnl: String,
    pub total_pnl: String,
    pub total_roi_pct: Option<String>,
    pub change24h: Option<String>,
    pub all_time_high: Option<String>,
    pub max_drawdown_pct: String,
    pub annualized_volatility: Option<String>,
    pub sharpe_ratio: Option<String>,
    pub excluded_flagged_lots: u64,
    pub trades: TradeStatsDto,
    pub best_asset: Option<AssetKpi>,
    pub worst_asset: Option<AssetKpi>,
}

/// Risk statistics from the EUR series (`tools.md` §9.7); `RATIO` strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct RiskMetricsDto {
    pub max_drawdown_pct: String,
    pub annualized_volatility: Option<String>,
    pub sharpe_ratio: Option<String>,
    pub alpha: Option<String>,
    pub beta: Option<String>,
}

/// One day of the drawdown curve.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DrawdownPoint {
    pub date: String,
    /// `RATIO` ≤ 0.
    pub drawdown_pct: String,
}

/// Drawdown per day, sampled to at most `max_points` (date ascending).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct DrawdownCurve {
    pub points: Vec<DrawdownPoint>,
    /// Days of the window left out by the sampling.
    pub omitted_count: u64,
}

/// One day of the performance history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct PerformancePoint {
    pub date: String,
    /// `FIAT`; null when no rate covers the day.
    pub portfolio_value: Option<String>,
    pub drawdown_pct: String,
    pub unvalued_assets: u64,
}

/// Portfolio value per day in the display currency (date ascending, sampled).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct PerformanceHistory {
    pub currency: String,
    pub points: Vec<PerformancePoint>,
    pub omitted_count: u64,
}

/// One day of the volatility heatmap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct VolatilityCell {
    pub date: String,
    /// `RATIO`; null with fewer than two returns.
    pub volatility: Option<String>,
}

/// Rolling thirty-day volatility per day of a year (sampled).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(missing_docs)]
pub struct VolatilityHeatmap {
    pub year: i32,
    pub cells: Vec<VolatilityCell>,
    pub omitted_count: u64,
}
