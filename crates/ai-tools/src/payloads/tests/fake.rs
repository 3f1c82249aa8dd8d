//! A fake `ReadUseCases` answering DTO fixtures and recording what it was asked.

use std::sync::Mutex;

use shared_types::dto::{
    AccountHoldingsResult, AccountList, AssetAllocation, AuditRowDto, CustodyLocations,
    DerivativesPnl, DrawdownCurve, FiscalIntegrity, HoldingsAtDto, KpisDto, LatestAuditRows,
    LatestPrices, LedgerOverview, LedgerVersion, LotDto, PerformanceHistory, PortfolioSummary,
    RiskMetricsDto, SettingsList, TaxCsvFiles, TaxReport, TaxYearComparison, TokenHistory, TxPage,
    TxRow, VolatilityHeatmap,
};
use use_cases::queries::{
    AccountHoldingsRequest, CompareTaxYearsRequest, CurrencyRequest, CustodyLocationsRequest,
    DisplayCurrency, HeatmapRequest, HoldingsAtRequest, LatestPricesRequest, ReadUseCases,
    ScenarioAnswer, ScenarioRequest, SeriesRequest, TaxReportRequest, TokenHistoryRequest,
    TxSearchRequest,
};
use use_cases::{UseCaseError, UseCaseResult};

/// Fixtures per use case; `None` answers an error.
#[derive(Default)]
pub(crate) struct Fake {
    pub summary: Option<PortfolioSummary>,
    pub account: Option<AccountHoldingsResult>,
    pub integrity: Option<FiscalIntegrity>,
    /// Lots of the asset `lots_symbol`, in use-case order (newest first); paged by the fake.
    pub lots: Vec<LotDto>,
    pub lots_symbol: String,
    pub allocation: Option<AssetAllocation>,
    pub risk: Option<RiskMetricsDto>,
    pub kpis: Option<KpisDto>,
    pub drawdown: Option<DrawdownCurve>,
    pub performance: Option<PerformanceHistory>,
    pub heatmap: Option<VolatilityHeatmap>,
    pub report: Option<TaxReport>,
    /// The year's slices in use-case order (newest first); cut by the fake.
    pub audit: Vec<AuditRowDto>,
    pub prices: Option<LatestPrices>,
    pub comparison: Option<TaxYearComparison>,
    pub scenario: Option<ScenarioAnswer>,
    pub derivatives: Option<DerivativesPnl>,
    pub custody: Option<CustodyLocations>,
    /// Every matching row in use-case order; paged by the fake.
    pub tx: Vec<TxRow>,
    /// An answer given as is instead of paging `tx`.
    pub tx_page: Option<TxPage>,
    /// What the fake was asked, one line per call.
    pub calls: Mutex<Vec<String>>,
}

fn missing<T>(what: &str) -> UseCaseResult<T> {
    Err(UseCaseError::NotFound {
        what: what.to_owned(),
    })
}

fn answer<T: Clone>(value: Option<&T>, what: &str) -> UseCaseResult<T> {
    value.cloned().map_or_else(|| missing(what), Ok)
}

fn code(currency: Option<DisplayCurrency>) -> &'static str {
    currency.map_or("default", DisplayCurrency::code)
}

impl Fake {
    fn log(&self, line: String) {
        self.calls.lock().unwrap().push(line);
    }

    pub(crate) fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }
}

impl ReadUseCases for Fake {
    fn get_portfolio_summary(&self, req: &CurrencyRequest) -> UseCaseResult<PortfolioSummary> {
        self.log(format!("summary {}", code(req.currency)));
        answer(self.summary.as_ref(), "summary")
    }
    fn get_account_holdings(
        &self,
        req: &AccountHoldingsRequest,
    ) -> UseCaseResult<AccountHoldingsResult> {
        self.log(format!(
            "account {:?} {}",
            req.account_name,
            code(req.currency)
        ));
        answer(self.account.as_ref(), "account")
    }
    fn get_holdings_at(&self, _: &HoldingsAtRequest) -> UseCaseResult<HoldingsAtDto> {
        missing("holdings at")
    }
    fn get_fiscal_integrity(&self) -> UseCaseResult<FiscalIntegrity> {
        self.log("integrity".to_owned());
        answer(self.integrity.as_ref(), "integrity")
    }
    fn get_token_history(&self, req: &TokenHistoryRequest) -> UseCaseResult<TokenHistory> {
        self.log(format!(
            "lots {} {} {}",
            req.symbol, req.page, req.page_size
        ));
        let lots: &[LotDto] = if req.symbol == self.lots_symbol {
            &self.lots
        } else {
            &[]
        };
        let start = req.page * req.page_size;
        let page = lots
            .iter()
            .skip(start)
            .take(req.page_size)
            .cloned()
            .collect();
        Ok(TokenHistory {
            symbol: req.symbol.clone(),
            currency: "EUR".to_owned(),
            lots: page,
            page: req.page as u64,
            page_size: req.page_size as u64,
            total_pages: lots.len().div_ceil(req.page_size).max(1) as u64,
            total_count: lots.len() as u64,
        })
    }
    fn get_asset_allocation(&self, req: &CurrencyRequest) -> UseCaseResult<AssetAllocation> {
        self.log(format!("allocation {}", code(req.currency)));
        answer(self.allocation.as_ref(), "allocation")
    }
    fn get_risk_metrics(&self) -> UseCaseResult<RiskMetricsDto> {
        answer(self.risk.as_ref(), "risk")
    }
    fn get_kpis(&self, req: &CurrencyRequest) -> UseCaseResult<KpisDto> {
        self.log(format!("kpis {}", code(req.currency)));
        answer(self.kpis.as_ref(), "kpis")
    }
    fn get_drawdown_curve(&self, req: &SeriesRequest) -> UseCaseResult<DrawdownCurve> {
        self.log(format!("drawdown {} {:?}", req.days, req.max_points));
        answer(self.drawdown.as_ref(), "drawdown")
    }
    fn get_performance_history(&self, req: &SeriesRequest) -> UseCaseResult<PerformanceHistory> {
        self.log(format!(
            "performance {} {} {:?}",
            req.days,
            code(req.currency),
            req.max_points
        ));
        answer(self.performance.as_ref(), "performance")
    }
    fn get_volatility_heatmap(&self, req: &HeatmapRequest) -> UseCaseResult<VolatilityHeatmap> {
        self.log(format!("heatmap {:?} {:?}", req.year, req.max_points));
        answer(self.heatmap.as_ref(), "heatmap")
    }
    fn get_spanish_tax_report(&self, req: &TaxReportRequest) -> UseCaseResult<TaxReport> {
        self.log(format!("report {}", req.year));
        answer(self.report.as_ref(), "report")
    }
    fn get_tax_audit_latest(&self, year: i32, limit: usize) -> UseCaseResult<LatestAuditRows> {
        self.log(format!("audit {year} {limit}"));
        Ok(LatestAuditRows {
            year,
            rows: self.audit.iter().take(limit).cloned().collect(),
            omitted_count: self.audit.len().saturating_sub(limit) as u64,
        })
    }
    fn get_tax_report_csv(&self, _: &TaxReportRequest) -> UseCaseResult<TaxCsvFiles> {
        missing("csv")
    }
    fn get_latest_prices(&self, req: &LatestPricesRequest) -> UseCaseResult<LatestPrices> {
        self.log(format!("prices {:?} {}", req.symbols, code(req.currency)));
        answer(self.prices.as_ref(), "prices")
    }
    fn list_accounts(&self) -> UseCaseResult<AccountList> {
        missing("accounts")
    }
    fn compare_tax_years(&self, req: &CompareTaxYearsRequest) -> UseCaseResult<TaxYearComparison> {
        self.log(format!("compare {} {}", req.year_a, req.year_b));
        answer(self.comparison.as_ref(), "comparison")
    }
    fn get_portfolio_scenario(
        &self,
        req: &ScenarioRequest,
        currency: Option<DisplayCurrency>,
    ) -> UseCaseResult<ScenarioAnswer> {
        self.log(format!("scenario {req:?} {}", code(currency)));
        answer(self.scenario.as_ref(), "scenario")
    }
    fn get_derivatives_pnl(&self) -> UseCaseResult<DerivativesPnl> {
        answer(self.derivatives.as_ref(), "derivatives")
    }
    fn get_lot_custody_locations(
        &self,
        req: &CustodyLocationsRequest,
    ) -> UseCaseResult<CustodyLocations> {
        self.log(format!("custody {:?}", req.symbol));
        answer(self.custody.as_ref(), "custody")
    }
    fn search_spot_transactions(&self, req: &TxSearchRequest) -> UseCaseResult<TxPage> {
        self.log(format!(
            "tx {:?} {:?} {:?} {:?} {} {}",
            req.symbol, req.from, req.to, req.types, req.page, req.page_size
        ));
        if let Some(page) = &self.tx_page {
            return Ok(page.clone());
        }
        let start = (req.page - 1) * req.page_size;
        Ok(TxPage {
            rows: self
                .tx
                .iter()
                .skip(start)
                .take(req.page_size)
                .cloned()
                .collect(),
            page: req.page as u64,
            page_size: req.page_size as u64,
            total_pages: self.tx.len().div_ceil(req.page_size).max(1) as u64,
            total_count: self.tx.len() as u64,
        })
    }
    fn get_ledger_version(&self) -> UseCaseResult<LedgerVersion> {
        Ok(LedgerVersion { version: 1 })
    }
    fn get_ledger_overview(&self) -> UseCaseResult<LedgerOverview> {
        Ok(LedgerOverview::default())
    }
    fn list_settings(&self) -> UseCaseResult<SettingsList> {
        missing("settings")
    }
}
