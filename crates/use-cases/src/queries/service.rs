//! [`LedgerQueries`]: the read use cases over one store, with the derived-state cache.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use core_domain::Instant;
use core_domain::analytics::DisplayCurrency;

use super::state::Derived;
use crate::error::UseCaseResult;
use crate::ports::{Clock, LedgerRead, PriceStore, RateStore, SettingsStore, StoredQuote};
use shared_types::dto::TaxReport;

/// A store implementing every read port.
pub trait ReadStore: LedgerRead + RateStore + PriceStore + SettingsStore {}

impl<T: LedgerRead + RateStore + PriceStore + SettingsStore + ?Sized> ReadStore for T {}

/// The read use cases over a store `S` (wrapped in a mutex, so `S` need only be `Send`) and a
/// clock. The derived state is computed once per ledger version and reused.
pub struct LedgerQueries<S> {
    store: Mutex<S>,
    clock: Box<dyn Clock + Send + Sync>,
    cache: Mutex<Option<Arc<Derived>>>,
    /// The latest quote of every (asset, currency) at a ledger version: `live_prices` reads it
    /// on every call, and the query behind it scans the whole price table.
    quotes: Mutex<Option<(u64, Arc<Vec<StoredQuote>>)>>,
    recomputations: AtomicU64,
}

impl<S: ReadStore + Send> LedgerQueries<S> {
    /// Use cases over `store`, reading "now" from `clock`.
    pub fn new(store: S, clock: impl Clock + 'static) -> Self {
        Self {
            store: Mutex::new(store),
            clock: Box::new(clock),
            cache: Mutex::new(None),
            quotes: Mutex::new(None),
            recomputations: AtomicU64::new(0),
        }
    }

    /// How many times the derived state was computed (one per ledger version seen).
    pub fn recomputations(&self) -> u64 {
        self.recomputations.load(Ordering::Relaxed)
    }

    /// The store, for callers that also write through it (the CLI's correction commands).
    pub fn store(&self) -> MutexGuard<'_, S> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Gives the store back.
    pub fn into_store(self) -> S {
        self.store
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// [`super::tax::check_year_covered`] over the ledger's years and the clock's year.
    fn check_covered(&self, derived: &Derived, year: i32) -> UseCaseResult<()> {
        use chrono::Datelike as _;
        let current = self.now().utc_date().year();
        super::tax::check_year_covered(&derived.overview().years, year, current)
    }

    /// Where the row `key` was read from, in words (`kraken.csv line 12`, `lines 4–5` for an
    /// operation of several lines), when the store knows it: notices name rows so (D-146).
    pub fn row_source(&self, key: &str) -> Option<String> {
        let detail = self.store().row_detail(key).ok().flatten()?;
        let first = detail.source_lines.first()?;
        Some(match detail.source_lines.last() {
            Some(last) if last != first => format!("{} lines {first}–{last}", detail.file_name),
            _ => format!("{} line {first}", detail.file_name),
        })
    }

    /// The current instant of the clock port.
    pub(crate) fn now(&self) -> Instant {
        self.clock.now()
    }

    /// The derived state of the current ledger version (computed when the version changed).
    pub fn derived(&self) -> UseCaseResult<Arc<Derived>> {
        self.derived_with(false)
    }

    /// [`LedgerQueries::derived`], reading the full market with the ledger when it computes
    /// the derived state and `full_market` is asked (see [`Derived::load_with`]).
    /// Leaves the derived state to the process's exit: a command that has printed its answer
    /// and is about to exit need not free it piece by piece (at a million rows, over a
    /// gigabyte in millions of allocations: about 50 ms). A later query recomputes it.
    pub fn leave_state_to_exit(&self) {
        let state = self
            .cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        std::mem::forget(state);
    }

    fn derived_with(&self, full_market: bool) -> UseCaseResult<Arc<Derived>> {
        let store = self.store();
        let version = store.ledger_version()?;
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(derived) = cache.as_ref().filter(|d| d.version == version) {
            return Ok(Arc::clone(derived));
        }
        let derived = Arc::new(Derived::load_with(&*store, full_market)?);
        self.recomputations.fetch_add(1, Ordering::Relaxed);
        *cache = Some(Arc::clone(&derived));
        Ok(derived)
    }

    /// The derived state with every close of the ledger's assets loaded (valuations, analytics).
    pub fn derived_full(&self) -> UseCaseResult<Arc<Derived>> {
        let derived = self.derived_with(true)?;
        derived.load_full_market(&*self.store())?;
        Ok(derived)
    }

    /// Builds the portfolio's custody allocation and the IRPF reports of `years` together,
    /// for a caller about to ask for the portfolio and each of those reports (`cartera demo`):
    /// see [`Derived::prepare`]. The later questions read what it built.
    pub fn prepare_portfolio_and_tax_years(&self, years: &[i32]) -> UseCaseResult<()> {
        self.derived_full()?.prepare(years, true);
        Ok(())
    }

    /// The Modelo 721 and Modelo 714 (apartado Q) worksheets of `year` (`GetModeloWorksheets`).
    pub fn get_modelo_worksheets(
        &self,
        year: i32,
    ) -> UseCaseResult<shared_types::dto::ModeloWorksheetsDto> {
        super::worksheets::worksheets(&*self.derived_full()?, year)
    }

    /// Builds the IRPF reports of `years` (without year-end holdings) from one prepared
    /// computation, for a caller about to ask for each of them (`cartera tax 2022..2024`).
    pub fn prepare_tax_years(&self, years: &[i32]) -> UseCaseResult<()> {
        for year in years {
            super::tax::check_year("year", *year)?;
        }
        self.derived()?.prepare(years, false);
        Ok(())
    }

    /// The memo key of a question that reads the as-of date (the clock's fiscal date).
    fn dated(&self, derived: &Derived, question: std::fmt::Arguments<'_>) -> String {
        let day = derived.settings.fiscal_timezone.fiscal_date(self.now());
        format!("{day} {question}")
    }

    /// The request's currency, else the `display_currency` setting.
    pub(crate) fn currency(
        derived: &Derived,
        requested: Option<DisplayCurrency>,
    ) -> DisplayCurrency {
        requested.unwrap_or(derived.settings.display_currency)
    }
}

impl<S: ReadStore + Send> super::ReadUseCases for LedgerQueries<S> {
    fn get_portfolio_summary(
        &self,
        req: &super::CurrencyRequest,
    ) -> UseCaseResult<shared_types::dto::PortfolioSummary> {
        let d = self.derived_full()?;
        let currency = Self::currency(&d, req.currency);
        let key = self.dated(&d, format_args!("summary {currency:?}"));
        kept(&d, key, || {
            super::holdings::portfolio_summary(&d, self.now(), currency, &|key| {
                self.row_source(key)
            })
        })
    }

    fn get_account_holdings(
        &self,
        req: &super::AccountHoldingsRequest,
    ) -> UseCaseResult<shared_types::dto::AccountHoldingsResult> {
        let d = self.derived_full()?;
        let currency = Self::currency(&d, req.currency);
        let key = self.dated(
            &d,
            format_args!("account {currency:?} {:?}", req.account_name),
        );
        kept(&d, key, || {
            super::holdings::account_holdings(&d, self.now(), currency, &req.account_name, &|key| {
                self.row_source(key)
            })
        })
    }

    fn get_holdings_at(
        &self,
        req: &super::HoldingsAtRequest,
    ) -> UseCaseResult<shared_types::dto::HoldingsAtDto> {
        super::holdings::holdings_at(&*self.derived_full()?, req.date)
    }

    fn get_fiscal_integrity(&self) -> UseCaseResult<shared_types::dto::FiscalIntegrity> {
        let shared = self.get_fiscal_integrity_shared()?;
        Ok(shared_types::dto::FiscalIntegrity::clone(&shared))
    }

    fn get_fiscal_integrity_shared(
        &self,
    ) -> UseCaseResult<Arc<shared_types::dto::FiscalIntegrity>> {
        let d = self.derived()?;
        d.answer("integrity".to_owned(), || {
            super::integrity::fiscal_integrity(&d)
        })
    }

    fn get_token_history(
        &self,
        req: &super::TokenHistoryRequest,
    ) -> UseCaseResult<shared_types::dto::TokenHistory> {
        let d = self.derived()?;
        let key = format!("lots {:?} {} {}", req.symbol, req.page, req.page_size);
        kept(&d, key, || {
            super::lots::token_history(&d, &req.symbol, req.page, req.page_size)
        })
    }

    fn get_asset_allocation(
        &self,
        req: &super::CurrencyRequest,
    ) -> UseCaseResult<shared_types::dto::AssetAllocation> {
        let d = self.derived_full()?;
        let currency = Self::currency(&d, req.currency);
        let key = self.dated(&d, format_args!("allocation {currency:?}"));
        kept(&d, key, || {
            super::analytics::asset_allocation(&d, self.now(), currency)
        })
    }

    fn get_risk_metrics(&self) -> UseCaseResult<shared_types::dto::RiskMetricsDto> {
        let d = self.derived_full()?;
        let key = self.dated(&d, format_args!("risk"));
        kept(&d, key, || super::analytics::risk(&d, self.now()))
    }

    fn get_kpis(&self, req: &super::CurrencyRequest) -> UseCaseResult<shared_types::dto::KpisDto> {
        let d = self.derived_full()?;
        let currency = Self::currency(&d, req.currency);
        let key = self.dated(&d, format_args!("kpis {currency:?}"));
        kept(&d, key, || {
            super::analytics::kpis_dto(&d, self.now(), currency)
        })
    }

    fn get_drawdown_curve(
        &self,
        req: &super::SeriesRequest,
    ) -> UseCaseResult<shared_types::dto::DrawdownCurve> {
        let d = self.derived_full()?;
        let key = self.dated(
            &d,
            format_args!("drawdown {} {:?}", req.days, req.max_points),
        );
        kept(&d, key, || {
            super::analytics::drawdown(&d, self.now(), req.days, req.max_points)
        })
    }

    fn get_performance_history(
        &self,
        req: &super::SeriesRequest,
    ) -> UseCaseResult<shared_types::dto::PerformanceHistory> {
        let d = self.derived_full()?;
        let currency = Self::currency(&d, req.currency);
        let key = self.dated(
            &d,
            format_args!("performance {currency:?} {} {:?}", req.days, req.max_points),
        );
        kept(&d, key, || {
            super::analytics::performance(&d, self.now(), currency, req.days, req.max_points)
        })
    }

    fn get_volatility_heatmap(
        &self,
        req: &super::HeatmapRequest,
    ) -> UseCaseResult<shared_types::dto::VolatilityHeatmap> {
        let d = self.derived_full()?;
        let key = self.dated(
            &d,
            format_args!("heatmap {:?} {:?}", req.year, req.max_points),
        );
        kept(&d, key, || {
            super::analytics::heatmap(&d, self.now(), req.year, req.max_points)
        })
    }

    fn get_spanish_tax_report(
        &self,
        req: &super::TaxReportRequest,
    ) -> UseCaseResult<shared_types::dto::TaxReport> {
        let shared = self.get_spanish_tax_report_shared(req)?;
        Ok(TaxReport::clone(&shared))
    }

    fn get_spanish_tax_report_shared(
        &self,
        req: &super::TaxReportRequest,
    ) -> UseCaseResult<Arc<TaxReport>> {
        super::tax::check_year("year", req.year)?;
        let d = if req.with_year_end_holdings {
            self.derived_full()?
        } else {
            self.derived()?
        };
        self.check_covered(&d, req.year)?;
        super::tax::report(&d, req.year, req.with_year_end_holdings)
    }

    fn get_tax_audit_latest(
        &self,
        year: i32,
        limit: usize,
    ) -> UseCaseResult<shared_types::dto::LatestAuditRows> {
        super::tax::check_year("year", year)?;
        let d = self.derived()?;
        self.check_covered(&d, year)?;
        kept(&d, format!("audit {year} {limit}"), || {
            let report = super::tax::report(&d, year, false)?;
            Ok(super::tax::latest_audit(&report, limit))
        })
    }

    fn get_tax_report_csv(
        &self,
        req: &super::TaxReportRequest,
    ) -> UseCaseResult<shared_types::dto::TaxCsvFiles> {
        let d = self.derived()?;
        self.check_covered(&d, req.year)?;
        super::tax::csv_files(&d, req.year)
    }

    fn get_latest_prices(
        &self,
        req: &super::LatestPricesRequest,
    ) -> UseCaseResult<shared_types::dto::LatestPrices> {
        let store = self.store();
        let preferred = match req.currency {
            Some(c) => c,
            None => match store.setting(crate::ports::SettingKey::DisplayCurrency)? {
                Some(text) => match super::settings::parse_value(
                    crate::ports::SettingKey::DisplayCurrency,
                    &text,
                )? {
                    super::settings::SettingValue::DisplayCurrency(c) => c,
                    _ => DisplayCurrency::Eur,
                },
                None => DisplayCurrency::Eur,
            },
        };
        let version = store.ledger_version()?;
        let mut cached = self.quotes.lock().unwrap_or_else(PoisonError::into_inner);
        let quotes = if let Some((_, quotes)) = cached.as_ref().filter(|(v, _)| *v == version) {
            Arc::clone(quotes)
        } else {
            let quotes = Arc::new(store.latest_quotes()?);
            *cached = Some((version, Arc::clone(&quotes)));
            quotes
        };
        drop(cached);
        drop(store);
        super::accounts::latest_prices(&quotes, &req.symbols, preferred, self.now())
    }

    fn list_accounts(&self) -> UseCaseResult<shared_types::dto::AccountList> {
        Ok(super::accounts::list_accounts(&*self.derived()?))
    }

    fn compare_tax_years(
        &self,
        req: &super::CompareTaxYearsRequest,
    ) -> UseCaseResult<shared_types::dto::TaxYearComparison> {
        let d = self.derived()?;
        self.check_covered(&d, req.year_a)?;
        self.check_covered(&d, req.year_b)?;
        kept(&d, format!("compare {} {}", req.year_a, req.year_b), || {
            super::tax::compare(&d, req.year_a, req.year_b)
        })
    }

    fn get_portfolio_scenario(
        &self,
        req: &super::ScenarioRequest,
        currency: Option<DisplayCurrency>,
    ) -> UseCaseResult<super::ScenarioAnswer> {
        let d = self.derived_full()?;
        super::scenarios::scenario(&d, self.now(), Self::currency(&d, currency), req)
    }

    fn get_derivatives_pnl(&self) -> UseCaseResult<shared_types::dto::DerivativesPnl> {
        super::lots::derivatives_pnl(&*self.derived()?)
    }

    fn get_lot_custody_locations(
        &self,
        req: &super::CustodyLocationsRequest,
    ) -> UseCaseResult<shared_types::dto::CustodyLocations> {
        let d = self.derived()?;
        kept(&d, format!("custody {:?}", req.symbol), || {
            super::lots::custody_locations(&d, req.symbol.as_deref())
        })
    }

    fn search_spot_transactions(
        &self,
        req: &super::TxSearchRequest,
    ) -> UseCaseResult<shared_types::dto::TxPage> {
        let d = self.derived()?;
        kept(&d, format!("tx {req:?}"), || super::tx::search(&d, req))
    }

    fn get_ledger_version(&self) -> UseCaseResult<shared_types::dto::LedgerVersion> {
        Ok(shared_types::dto::LedgerVersion {
            version: self.store().ledger_version()?,
        })
    }

    fn get_ledger_overview(&self) -> UseCaseResult<shared_types::dto::LedgerOverview> {
        let derived = self.derived()?;
        let overview = derived.overview();
        Ok(shared_types::dto::LedgerOverview {
            years: overview.years.iter().copied().collect(),
            assets: overview
                .assets
                .iter()
                .map(|a| a.as_str().to_owned())
                .collect(),
        })
    }

    fn list_settings(&self) -> UseCaseResult<shared_types::dto::SettingsList> {
        super::accounts::list_settings(&*self.store())
    }
}

/// [`Derived::answer`], cloned out (the answers kept are small DTOs).
fn kept<T: Clone + Send + Sync + 'static>(
    derived: &Derived,
    key: String,
    compute: impl FnOnce() -> UseCaseResult<T>,
) -> UseCaseResult<T> {
    derived.answer(key, compute).map(|answer| T::clone(&answer))
}
