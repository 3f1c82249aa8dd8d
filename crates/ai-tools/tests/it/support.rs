//! Fakes shared by the integration tests: use cases, a settable clock and host builders.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use ai_tools::testing::{FakeProjectError, FakeProjected, Projector, SeriesRender};
use ai_tools::{CacheConfig, CurrencyCode, Locale, Profile, RequestContext, TenantId, ToolHost};
use serde_json::{Map, Value, json};
use shared_types::ToolName;
use shared_types::dto::{
    AccountHoldingsResult, AccountList, AssetAllocation, CustodyLocations, DerivativesPnl,
    DrawdownCurve, FiscalIntegrity, HoldingsAtDto, KpisDto, LatestAuditRows, LatestPrices,
    LedgerOverview, LedgerVersion, PerformanceHistory, PortfolioSummary, RiskMetricsDto,
    SettingsList, TaxCsvFiles, TaxReport, TaxYearComparison, TokenHistory, TxPage,
    VolatilityHeatmap,
};
use use_cases::ports::{Clock, ClockInstant};
use use_cases::queries::{
    AccountHoldingsRequest, CompareTaxYearsRequest, CurrencyRequest, CustodyLocationsRequest,
    DisplayCurrency, HeatmapRequest, HoldingsAtRequest, LatestPricesRequest, ReadUseCases,
    ScenarioAnswer, ScenarioRequest, SeriesRequest, TaxReportRequest, TokenHistoryRequest,
    TxSearchRequest,
};
use use_cases::{UseCaseError, UseCaseResult};

/// 2026-03-10T12:00:00Z in nanoseconds.
pub(crate) const MARCH_2026_NANOS: i64 = 1_773_144_000_000_000_000;

/// A clock the test moves by hand.
#[derive(Debug)]
pub(crate) struct TestClock(AtomicI64);

impl TestClock {
    pub(crate) fn at(nanos: i64) -> Arc<TestClock> {
        Arc::new(TestClock(AtomicI64::new(nanos)))
    }
    pub(crate) fn advance(&self, nanos: i64) {
        self.0.fetch_add(nanos, Ordering::SeqCst);
    }
}

impl Clock for TestClock {
    fn now(&self) -> ClockInstant {
        ClockInstant::from_unix_nanos(self.0.load(Ordering::SeqCst))
    }
}

/// Use cases whose reads all fail, except the ledger version (unless told otherwise); the
/// version can be bumped. Payloads come from a [`Fixture`] through the projector seam.
#[derive(Debug, Default)]
pub(crate) struct FakeUseCases {
    pub(crate) version: AtomicU64,
    pub(crate) version_fails: AtomicBool,
    pub(crate) panics: AtomicBool,
    pub(crate) reads: AtomicUsize,
}

fn fail<T>() -> UseCaseResult<T> {
    Err(UseCaseError::MissingData {
        what: "no data in the fake".to_owned(),
        hint: "load a fixture".to_owned(),
    })
}

impl FakeUseCases {
    fn read<T>(&self) -> UseCaseResult<T> {
        self.reads.fetch_add(1, Ordering::SeqCst);
        if self.panics.load(Ordering::SeqCst) {
            std::panic::panic_any("fake use case panicked");
        }
        fail()
    }
}

impl ReadUseCases for FakeUseCases {
    fn get_portfolio_summary(&self, _: &CurrencyRequest) -> UseCaseResult<PortfolioSummary> {
        self.read()
    }
    fn get_account_holdings(
        &self,
        _: &AccountHoldingsRequest,
    ) -> UseCaseResult<AccountHoldingsResult> {
        self.read()
    }
    fn get_holdings_at(&self, _: &HoldingsAtRequest) -> UseCaseResult<HoldingsAtDto> {
        self.read()
    }
    fn get_fiscal_integrity(&self) -> UseCaseResult<FiscalIntegrity> {
        self.read()
    }
    fn get_token_history(&self, _: &TokenHistoryRequest) -> UseCaseResult<TokenHistory> {
        self.read()
    }
    fn get_asset_allocation(&self, _: &CurrencyRequest) -> UseCaseResult<AssetAllocation> {
        self.read()
    }
    fn get_risk_metrics(&self) -> UseCaseResult<RiskMetricsDto> {
        self.read()
    }
    fn get_kpis(&self, _: &CurrencyRequest) -> UseCaseResult<KpisDto> {
        self.read()
    }
    fn get_drawdown_curve(&self, _: &SeriesRequest) -> UseCaseResult<DrawdownCurve> {
        self.read()
    }
    fn get_performance_history(&self, _: &SeriesRequest) -> UseCaseResult<PerformanceHistory> {
        self.read()
    }
    fn get_volatility_heatmap(&self, _: &HeatmapRequest) -> UseCaseResult<VolatilityHeatmap> {
        self.read()
    }
    fn get_spanish_tax_report(&self, _: &TaxReportRequest) -> UseCaseResult<TaxReport> {
        self.read()
    }
    fn get_tax_audit_latest(&self, _: i32, _: usize) -> UseCaseResult<LatestAuditRows> {
        self.read()
    }
    fn get_tax_report_csv(&self, _: &TaxReportRequest) -> UseCaseResult<TaxCsvFiles> {
        self.read()
    }
    fn get_latest_prices(&self, _: &LatestPricesRequest) -> UseCaseResult<LatestPrices> {
        self.read()
    }
    fn list_accounts(&self) -> UseCaseResult<AccountList> {
        self.read()
    }
    fn compare_tax_years(&self, _: &CompareTaxYearsRequest) -> UseCaseResult<TaxYearComparison> {
        self.read()
    }
    fn get_portfolio_scenario(
        &self,
        _: &ScenarioRequest,
        _: Option<DisplayCurrency>,
    ) -> UseCaseResult<ScenarioAnswer> {
        self.read()
    }
    fn get_derivatives_pnl(&self) -> UseCaseResult<DerivativesPnl> {
        self.read()
    }
    fn get_lot_custody_locations(
        &self,
        _: &CustodyLocationsRequest,
    ) -> UseCaseResult<CustodyLocations> {
        self.read()
    }
    fn search_spot_transactions(&self, _: &TxSearchRequest) -> UseCaseResult<TxPage> {
        self.read()
    }
    fn get_ledger_version(&self) -> UseCaseResult<LedgerVersion> {
        if self.version_fails.load(Ordering::SeqCst) {
            return fail();
        }
        Ok(LedgerVersion {
            version: self.version.load(Ordering::SeqCst),
        })
    }
    fn get_ledger_overview(&self) -> UseCaseResult<LedgerOverview> {
        self.read()
    }
    fn list_settings(&self) -> UseCaseResult<SettingsList> {
        self.read()
    }
}

/// How the fake projection answers.
#[derive(Clone, Debug)]
pub(crate) enum Mode {
    /// Return this payload.
    Payload(Map<String, Value>),
    /// A series of `n` points (each `{"date":…,"v":…}`), sampled by the gate.
    Series(usize),
    /// Fail as this use case with this text.
    Fail(&'static str, String),
    /// Panic.
    Panic,
}

/// What the fake projection currently answers, and what it saw.
#[derive(Debug)]
pub(crate) struct Fixture {
    pub(crate) mode: Mutex<Mode>,
    pub(crate) calls: AtomicUsize,
    pub(crate) seen: Mutex<Vec<(ToolName, Map<String, Value>)>>,
}

impl Fixture {
    pub(crate) fn new(payload: Value) -> Arc<Fixture> {
        Arc::new(Fixture {
            mode: Mutex::new(Mode::Payload(object(payload))),
            calls: AtomicUsize::new(0),
            seen: Mutex::new(Vec::new()),
        })
    }
    pub(crate) fn load(&self, payload: Value) {
        self.set(Mode::Payload(object(payload)));
    }
    pub(crate) fn set(&self, mode: Mode) {
        *self
            .mode
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = mode;
    }
    pub(crate) fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
    pub(crate) fn last_args(&self) -> Option<(ToolName, Map<String, Value>)> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .last()
            .cloned()
    }
}

pub(crate) fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => {
            let mut map = Map::new();
            map.insert("value".to_owned(), other);
            map
        }
    }
}

/// A series that keeps the `downsample` indices of `domain.md` §14.3.
struct FakeSeries(usize);

impl SeriesRender for FakeSeries {
    fn render(&self, max_points: usize) -> Map<String, Value> {
        let points: Vec<usize> = (0..self.0).collect();
        let sampled = use_cases::sampling::downsample(&points, max_points)
            .map(|d| d.points)
            .unwrap_or_default();
        let kept = sampled.len();
        let rendered: Vec<Value> = sampled
            .into_iter()
            .map(|i| json!({"date": format!("day-{i:05}"), "drawdownPct": "-0.0159"}))
            .collect();
        object(json!({"points": rendered, "omittedCount": self.0.saturating_sub(kept)}))
    }
}

pub(crate) fn projector(fixture: &Arc<Fixture>) -> Arc<Projector> {
    let fixture = Arc::clone(fixture);
    Arc::new(
        move |_: &dyn ReadUseCases, tool: ToolName, args: &Map<String, Value>| {
            fixture.calls.fetch_add(1, Ordering::SeqCst);
            fixture
                .seen
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((tool, args.clone()));
            let mode = fixture
                .mode
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone();
            match mode {
                Mode::Payload(map) => Ok(FakeProjected::Plain(map)),
                Mode::Series(n) => Ok(FakeProjected::Series(Box::new(FakeSeries(n)))),
                Mode::Fail(use_case, message) => Err(FakeProjectError { use_case, message }),
                Mode::Panic => std::panic::panic_any("projection panicked"),
            }
        },
    )
}

/// Everything a test needs around one host.
pub(crate) struct Rig {
    pub(crate) host: ToolHost,
    pub(crate) fixture: Arc<Fixture>,
    pub(crate) use_cases: Arc<FakeUseCases>,
    pub(crate) clock: Arc<TestClock>,
}

impl Rig {
    pub(crate) fn new(profile: Profile, capacity: usize, payload: Value) -> Rig {
        let use_cases = Arc::new(FakeUseCases::default());
        let clock = TestClock::at(MARCH_2026_NANOS);
        let fixture = Fixture::new(payload);
        let host = ToolHost::new(
            Arc::clone(&use_cases) as Arc<dyn ReadUseCases>,
            profile,
            CacheConfig { capacity },
            Arc::clone(&clock) as Arc<dyn Clock>,
        )
        .with_projector(projector(&fixture));
        Rig {
            host,
            fixture,
            use_cases,
            clock,
        }
    }

    pub(crate) fn metered(payload: Value) -> Rig {
        Rig::new(Profile::Metered, 256, payload)
    }

    pub(crate) fn with_budget(mut self, budget: u32) -> Rig {
        self.host = self.host.with_tool_budget(budget);
        self
    }

    pub(crate) fn call(&self, tool: &str, args: Value) -> Value {
        self.host.call(&ctx(), None, tool, &args)
    }
}

/// A host over the real projection (the stub until the payload work lands).
pub(crate) fn plain_host(profile: Profile, use_cases: Arc<FakeUseCases>) -> ToolHost {
    ToolHost::new(
        use_cases as Arc<dyn ReadUseCases>,
        profile,
        CacheConfig::default(),
        TestClock::at(MARCH_2026_NANOS) as Arc<dyn Clock>,
    )
}

pub(crate) fn ctx_with(tenant: &str, locale: &str, currency: &str) -> RequestContext {
    RequestContext {
        tenant: TenantId::new(tenant).unwrap_or_else(|e| panic!("{e}")),
        locale: Locale::parse(locale).unwrap_or_else(|e| panic!("{e}")),
        base_currency: CurrencyCode::parse(currency).unwrap_or_else(|e| panic!("{e}")),
    }
}

pub(crate) fn ctx() -> RequestContext {
    ctx_with("tenant-a", "en", "EUR")
}

pub(crate) fn local(context_window: u32) -> Profile {
    Profile::local(context_window).unwrap_or_else(|e| panic!("{e}"))
}

/// Asserts an `INVALID_TOOL_INPUT` with `reason` at `path`.
pub(crate) fn assert_rejected(result: &Value, reason: &str, path: &str) {
    assert_eq!(result["kind"], "error", "{result}");
    assert_eq!(result["code"], "INVALID_TOOL_INPUT", "{result}");
    assert_eq!(result["reason"], reason, "{result}");
    assert_eq!(result["path"], path, "{result}");
    let message = result["message"].as_str().unwrap_or_default();
    assert!(
        message.ends_with('.') && message.chars().count() <= 300 && !message.contains('\n'),
        "{message}"
    );
}

pub(crate) fn assert_ok(result: &Value) -> &Value {
    assert_eq!(result["kind"], "ok", "{result}");
    &result["payload"]
}
