//! The read use cases: one method per question of `tools.md` §2 and the CLI.
//!
//! [`ReadUseCases`] is object safe and `Send + Sync` so the AI tool layer and the CLI can hold
//! `&dyn ReadUseCases`. [`LedgerQueries`] implements it over any store implementing the read
//! ports; the derived state is computed once per ledger version (see [`state`]).

mod accounts;
mod analytics;
mod convert;
mod holdings;
mod integrity;
mod lots;
mod scenarios;
mod service;
pub mod settings;
pub mod state;
mod tax;
mod tx;
mod worksheets;

use shared_types::SpotTxType;
use shared_types::dto::{
    AccountHoldingsResult, AccountList, AssetAllocation, BreakevenDto, ConcentrationDto,
    CustodyLocations, DerivativesPnl, DrawdownCurve, FiscalIntegrity, HoldingsAtDto, KpisDto,
    LatestAuditRows, LatestPrices, LedgerVersion, PerformanceHistory, PortfolioSummary,
    PositionValueDto, RiskMetricsDto, SettingsList, ShockDto, TaxCsvFiles, TaxReport,
    TaxYearComparison, TokenHistory, TxPage, VolatilityHeatmap,
};

use crate::error::UseCaseResult;

pub use service::{LedgerQueries, ReadStore};
pub use state::Derived;
pub use tax::check_year_covered;

/// The display currency of a request (`domain.md` §0.1); `None` in a request means the
/// `display_currency` setting.
pub use core_domain::analytics::DisplayCurrency;

/// The fiscal date type of the requests (`YYYY-MM-DD`, proleptic Gregorian).
pub use core_domain::Date;

/// Parses a `YYYY-MM-DD` fiscal date (exactly four, two and two digits; a real calendar day).
pub fn parse_date(text: &str) -> Option<Date> {
    let bytes = text.as_bytes();
    let shaped = bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        });
    if !shaped {
        return None;
    }
    Date::parse_from_str(text, "%Y-%m-%d").ok()
}

/// Default page size of paged answers.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// A request for the holdings snapshot or the analytics in a display currency.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CurrencyRequest {
    /// `None`: the `display_currency` setting (EUR when unset).
    pub currency: Option<DisplayCurrency>,
}

/// `GetAccountHoldings { account_name, base_currency }`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountHoldingsRequest {
    /// Account name: exact (case-insensitive), else a unique prefix.
    pub account_name: String,
    /// Display currency.
    pub currency: Option<DisplayCurrency>,
}

/// `GetHoldingsAt { date }`: holdings per custodian at the end of a fiscal date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldingsAtRequest {
    /// The fiscal date (a 31 December adds the Modelo 721 / 714 figures).
    pub date: Date,
}

/// A window of the daily series ending at the as-of date (`days` in 1..=3650).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeriesRequest {
    /// Number of fiscal dates (default 30).
    pub days: u32,
    /// Display currency (performance history only).
    pub currency: Option<DisplayCurrency>,
    /// Sampling cap (`None`: every day).
    pub max_points: Option<usize>,
}

impl Default for SeriesRequest {
    fn default() -> Self {
        Self {
            days: core_domain::analytics::endpoints::DEFAULT_DAYS,
            currency: None,
            max_points: None,
        }
    }
}

/// `GetVolatilityHeatmap { year }`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeatmapRequest {
    /// Calendar year; `None` = the as-of date's year.
    pub year: Option<i32>,
    /// Sampling cap (`None`: every day).
    pub max_points: Option<usize>,
}

/// `GetSpanishTaxReport { year }` (method is always FIFO).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaxReportRequest {
    /// Fiscal year (2009..=9999).
    pub year: i32,
    /// Add the year-end holdings (Modelo 721 / 714, `irpf.md` §10); costs a custody replay
    /// per 31 December from 2023.
    pub with_year_end_holdings: bool,
}

/// `CompareTaxYears { year_a, year_b }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareTaxYearsRequest {
    /// First year.
    pub year_a: i32,
    /// Second year (deltas are B − A).
    pub year_b: i32,
}

/// `GetTokenHistory { symbol }`, paged (pages from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenHistoryRequest {
    /// Asset symbol (case-insensitive).
    pub symbol: String,
    /// Page index from 0.
    pub page: usize,
    /// Page size (≥ 1).
    pub page_size: usize,
}

/// `GetLatestPrices { symbols }`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LatestPricesRequest {
    /// Symbols (case-insensitive), answered in this order.
    pub symbols: Vec<String>,
    /// Preferred quote currency (`None`: the display currency setting).
    pub currency: Option<DisplayCurrency>,
}

/// `GetLotCustodyLocations { symbol? }`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustodyLocationsRequest {
    /// Restrict to one symbol.
    pub symbol: Option<String>,
}

/// A uniform or per-asset percentage move (`domain.md` §13.3). Percentages are decimal strings
/// (`-30`, `12.5`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShockSpec {
    /// Every valued holding moves by `pct`.
    Uniform {
        /// Percentage.
        pct: String,
    },
    /// Listed assets move; the rest keep `pct = 0`.
    PerAsset {
        /// `(symbol, pct)`.
        shocks: Vec<(String, String)>,
    },
}

/// `GetPortfolioScenario`: one of the four scenarios of `domain.md` §13.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioRequest {
    /// §13.1: value of one holding at a hypothetical unit price (decimal string).
    PositionValue {
        /// Symbol.
        symbol: String,
        /// Unit price in the display currency.
        price: String,
    },
    /// §13.2: average unit cost.
    Breakeven {
        /// Symbol.
        symbol: String,
    },
    /// §13.3.
    Shock(ShockSpec),
    /// §13.4.
    Concentration,
}

/// The answer of [`ReadUseCases::get_portfolio_scenario`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScenarioAnswer {
    /// §13.1.
    PositionValue(PositionValueDto),
    /// §13.2.
    Breakeven(BreakevenDto),
    /// §13.3.
    Shock(ShockDto),
    /// §13.4.
    Concentration(ConcentrationDto),
}

/// `SearchSpotTransactions`: filters on effective values; pages from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxSearchRequest {
    /// Either side of the transaction, exact symbol (case-insensitive).
    pub symbol: Option<String>,
    /// Fiscal date from (inclusive).
    pub from: Option<Date>,
    /// Fiscal date to (inclusive).
    pub to: Option<Date>,
    /// Types (empty: all).
    pub types: Vec<SpotTxType>,
    /// Page from 1.
    pub page: usize,
    /// Page size (≥ 1).
    pub page_size: usize,
}

impl Default for TxSearchRequest {
    fn default() -> Self {
        Self {
            symbol: None,
            from: None,
            to: None,
            types: Vec::new(),
            page: 1,
            page_size: DEFAULT_PAGE_SIZE,
        }
    }
}

/// Every read-only question cartera answers. Implementations only read the ledger.
pub trait ReadUseCases: Send + Sync {
    /// `GetPortfolioSummary`: the holdings snapshot (`domain.md` §12.1).
    fn get_portfolio_summary(&self, req: &CurrencyRequest) -> UseCaseResult<PortfolioSummary>;
    /// `GetPortfolioSummary { account }`: the holdings of an account tree (`domain.md` §12.2).
    fn get_account_holdings(
        &self,
        req: &AccountHoldingsRequest,
    ) -> UseCaseResult<AccountHoldingsResult>;
    /// Holdings per custodian at the end of a fiscal date (`irpf.md` §10).
    fn get_holdings_at(&self, req: &HoldingsAtRequest) -> UseCaseResult<HoldingsAtDto>;
    /// `GetFiscalIntegrity`: groups, rows and counters (`domain.md` §10.2, §10.3).
    fn get_fiscal_integrity(&self) -> UseCaseResult<FiscalIntegrity>;
    /// `GetTokenHistory`: the lots of one asset with their history.
    fn get_token_history(&self, req: &TokenHistoryRequest) -> UseCaseResult<TokenHistory>;
    /// `GetAssetAllocation` at the last daily close.
    fn get_asset_allocation(&self, req: &CurrencyRequest) -> UseCaseResult<AssetAllocation>;
    /// `GetRiskMetrics` from the EUR series.
    fn get_risk_metrics(&self) -> UseCaseResult<RiskMetricsDto>;
    /// `GetKpis` at the last daily close.
    fn get_kpis(&self, req: &CurrencyRequest) -> UseCaseResult<KpisDto>;
    /// `GetDrawdownCurve { days }`.
    fn get_drawdown_curve(&self, req: &SeriesRequest) -> UseCaseResult<DrawdownCurve>;
    /// `GetPerformanceHistory { days, base_currency }`.
    fn get_performance_history(&self, req: &SeriesRequest) -> UseCaseResult<PerformanceHistory>;
    /// `GetVolatilityHeatmap { year }`.
    fn get_volatility_heatmap(&self, req: &HeatmapRequest) -> UseCaseResult<VolatilityHeatmap>;
    /// `GetSpanishTaxReport { year }`: `irpf.md` §7 in full.
    fn get_spanish_tax_report(&self, req: &TaxReportRequest) -> UseCaseResult<TaxReport>;
    /// The year's latest `limit` disposal slices (legs P and F), disposal date descending then
    /// slice id ascending (`tools.md` §8 "audit rows").
    fn get_tax_audit_latest(&self, year: i32, limit: usize) -> UseCaseResult<LatestAuditRows>;
    /// The Modelo 100 rows and the per-operation annex of a year as CSV files
    /// (`cartera tax YEAR --csv DIR`).
    fn get_tax_report_csv(&self, req: &TaxReportRequest) -> UseCaseResult<TaxCsvFiles>;
    /// `GetLatestPrices { symbols }` from the price store.
    fn get_latest_prices(&self, req: &LatestPricesRequest) -> UseCaseResult<LatestPrices>;
    /// `ListAccounts`: the account tree with kinds, countries and row counts.
    fn list_accounts(&self) -> UseCaseResult<AccountList>;
    /// `CompareTaxYears { year_a, year_b }` (`domain.md` §15).
    fn compare_tax_years(&self, req: &CompareTaxYearsRequest) -> UseCaseResult<TaxYearComparison>;
    /// `GetPortfolioScenario`: one of the four scenarios of `domain.md` §13.
    fn get_portfolio_scenario(
        &self,
        req: &ScenarioRequest,
        currency: Option<DisplayCurrency>,
    ) -> UseCaseResult<ScenarioAnswer>;
    /// `GetDerivativesPnl`: per contract (`domain.md` §5).
    fn get_derivatives_pnl(&self) -> UseCaseResult<DerivativesPnl>;
    /// `GetLotCustodyLocations { symbol? }` (`domain.md` §12.4).
    fn get_lot_custody_locations(
        &self,
        req: &CustodyLocationsRequest,
    ) -> UseCaseResult<CustodyLocations>;
    /// `SearchSpotTransactions`: a page of effective rows, newest first.
    fn search_spot_transactions(&self, req: &TxSearchRequest) -> UseCaseResult<TxPage>;
    /// `GetLedgerVersion`.
    fn get_ledger_version(&self) -> UseCaseResult<LedgerVersion>;
    /// The fiscal years and assets the ledger covers (from the cached derived state).
    fn get_ledger_overview(&self) -> UseCaseResult<shared_types::dto::LedgerOverview>;
    /// Every setting with its stored value and default.
    fn list_settings(&self) -> UseCaseResult<SettingsList>;

    /// [`ReadUseCases::get_fiscal_integrity`], shared: an implementation that keeps the answer
    /// hands out the same copy instead of a clone of every row.
    fn get_fiscal_integrity_shared(&self) -> UseCaseResult<std::sync::Arc<FiscalIntegrity>> {
        self.get_fiscal_integrity().map(std::sync::Arc::new)
    }

    /// [`ReadUseCases::get_spanish_tax_report`], shared (the year's report holds its whole
    /// audit trail: a clone per call costs milliseconds on a large ledger).
    fn get_spanish_tax_report_shared(
        &self,
        req: &TaxReportRequest,
    ) -> UseCaseResult<std::sync::Arc<TaxReport>> {
        self.get_spanish_tax_report(req).map(std::sync::Arc::new)
    }
}

#[cfg(test)]
mod tests;
