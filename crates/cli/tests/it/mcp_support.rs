//! What the MCP tests share (`mcp.md` §7): the fixture ledger of `crates/mcp/tests/fixtures/`
//! imported with the CLI, in-process servers over it (or over a failing fake), and a check
//! that input and output lines pair up.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ai_tools::{CacheConfig, CurrencyCode, Locale, Profile, TenantId, ToolHost};
use core_domain::Instant;
use ledger_sqlite::ReadOnlyLedger;
use mcp::{Server, ServerConfig};
use serde_json::Value;
use shared_types::dto::{
    AccountHoldingsResult, AccountList, AssetAllocation, CustodyLocations, DerivativesPnl,
    DrawdownCurve, FiscalIntegrity, HoldingsAtDto, KpisDto, LatestAuditRows, LatestPrices,
    LedgerOverview, LedgerVersion, PerformanceHistory, PortfolioSummary, RiskMetricsDto,
    SettingsList, TaxCsvFiles, TaxReport, TaxYearComparison, TokenHistory, TxPage,
    VolatilityHeatmap,
};
use use_cases::ports::FixedClock;
use use_cases::queries::{
    AccountHoldingsRequest, CompareTaxYearsRequest, CurrencyRequest, CustodyLocationsRequest,
    DisplayCurrency, HeatmapRequest, HoldingsAtRequest, LatestPricesRequest, LedgerQueries,
    ReadUseCases, ScenarioAnswer, ScenarioRequest, SeriesRequest, TaxReportRequest,
    TokenHistoryRequest, TxSearchRequest,
};
use use_cases::{PortError, UseCaseError, UseCaseResult};

use crate::support::cartera;

/// The fixed "now" of the transcripts.
pub(crate) const NOW: &str = "2025-06-30T12:00:00Z";

/// `crates/mcp/tests/<relative>`.
pub(crate) fn mcp_tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp/tests")
}

/// The fixture ledger, imported once per test run with the CLI's import commands (the same
/// commands `.ci/run` uses for the real-client check).
pub(crate) fn fixture_ledger() -> &'static Path {
    static LEDGER: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, path) = LEDGER.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("ledger.sqlite");
        let fixtures = mcp_tests_dir().join("fixtures");
        let steps: [&[&str]; 3] = [
            &["rates", "import", "ecb-rates.csv"],
            &["prices", "import", "prices-daily.csv"],
            &[
                "import",
                "kraken-ledgers.csv",
                "bitvavo.csv",
                "kraken-futures.csv",
            ],
        ];
        for args in steps {
            let output = cartera()
                .current_dir(&fixtures)
                .arg("--ledger")
                .arg(&ledger)
                .args(args)
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "cartera {args:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        (dir, ledger)
    });
    path
}

fn now() -> Instant {
    Instant::parse(NOW).unwrap()
}

/// A server over `use_cases` with the transcript settings: version `0.0.0-test`, tenant
/// `test`, locale `en`, base currency EUR.
pub(crate) fn server_over(use_cases: Arc<dyn ReadUseCases>, profile: Profile) -> Server {
    let host = ToolHost::new(
        use_cases,
        profile,
        CacheConfig::default(),
        Arc::new(FixedClock(now())),
    );
    Server::new(
        host,
        ServerConfig {
            name: "cartera",
            version: "0.0.0-test".to_owned(),
            tenant: TenantId::new("test").unwrap(),
            locale: Locale::parse("en").unwrap(),
            base_currency: CurrencyCode::EUR,
        },
    )
}

/// A server over the fixture ledger, opened read-only as `cartera mcp` opens it.
pub(crate) fn fixture_server(profile: Profile) -> Server {
    let store = ReadOnlyLedger::open(fixture_ledger()).unwrap();
    server_over(
        Arc::new(LedgerQueries::new(store, FixedClock(now()))),
        profile,
    )
}

/// A server whose every read fails.
pub(crate) fn failing_server(profile: Profile) -> Server {
    server_over(Arc::new(FailingReads), profile)
}

/// Runs `input` through `mcp::serve` and returns stdout and stderr.
pub(crate) fn serve_bytes(server: &Server, input: &[u8]) -> (Vec<u8>, String) {
    let mut out = Vec::new();
    let mut log = Vec::new();
    mcp::serve(server, Cursor::new(input), &mut out, &mut log).unwrap();
    (out, String::from_utf8(log).unwrap())
}

/// What one input line must produce, judged from the line alone (`mcp.md` §4).
#[derive(Debug, PartialEq)]
pub(crate) enum Expect {
    /// No output: a blank line, a notification or a client response.
    Nothing,
    /// One response echoing this id (null for lines whose id is unusable).
    Response(Value),
}

/// The expectation for one input line (without its `\n`).
pub(crate) fn expect(line: &[u8]) -> Expect {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > mcp::jsonrpc::MAX_LINE_BYTES {
        return Expect::Response(Value::Null);
    }
    if line.iter().all(u8::is_ascii_whitespace) {
        return Expect::Nothing;
    }
    let Ok(Value::Object(object)) = serde_json::from_slice::<Value>(line) else {
        return Expect::Response(Value::Null);
    };
    let id = object.get("id");
    let valid_id = match id {
        None | Some(Value::String(_)) => true,
        Some(Value::Number(n)) => n.is_i64() || n.is_u64(),
        Some(_) => false,
    };
    if !valid_id {
        return Expect::Response(Value::Null);
    }
    if !object.contains_key("method")
        && (object.contains_key("result") || object.contains_key("error"))
    {
        return Expect::Nothing;
    }
    let well_formed = object.get("jsonrpc").and_then(Value::as_str) == Some("2.0")
        && object.get("method").is_some_and(Value::is_string);
    match id {
        None if well_formed => Expect::Nothing,
        None => Expect::Response(Value::Null),
        Some(id) => Expect::Response(id.clone()),
    }
}

/// Asserts that `output` answers `input` line by line: every output line is one compact JSON
/// object, and the responses are exactly the expected ones, in order, with their ids.
pub(crate) fn assert_pairs_up(input: &[u8], output: &[u8]) {
    let expected: Vec<Value> = input
        .split(|&b| b == b'\n')
        .enumerate()
        .filter(|(i, line)| !(line.is_empty() && *i == input.split(|&b| b == b'\n').count() - 1))
        .filter_map(|(_, line)| match expect(line) {
            Expect::Nothing => None,
            Expect::Response(id) => Some(id),
        })
        .collect();
    let text = std::str::from_utf8(output).expect("the output is UTF-8");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "the output ends with a newline"
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), expected.len(), "one response per request");
    for (n, (line, id)) in lines.iter().zip(&expected).enumerate() {
        let value: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("response {n} is not JSON ({e}): {line}"));
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("response {n} is not an object"));
        assert_eq!(
            object.get("jsonrpc"),
            Some(&Value::from("2.0")),
            "response {n}"
        );
        assert_eq!(
            object.get("id"),
            Some(id),
            "response {n} echoes its id: {line}"
        );
        let keys: Vec<&str> = object.keys().map(String::as_str).collect();
        assert!(
            keys == ["jsonrpc", "id", "result"] || keys == ["jsonrpc", "id", "error"],
            "response {n} keys {keys:?}"
        );
        assert_eq!(
            &serde_json::to_string(&value).unwrap(),
            line,
            "response {n} is compact"
        );
    }
}

/// Every read fails as a locked ledger would.
struct FailingReads;

fn failed<T>() -> UseCaseResult<T> {
    Err(UseCaseError::Port(PortError::Busy {
        reason: "ledger is locked by another writer".to_owned(),
    }))
}

impl ReadUseCases for FailingReads {
    fn get_portfolio_summary(&self, _: &CurrencyRequest) -> UseCaseResult<PortfolioSummary> {
        failed()
    }
    fn get_account_holdings(
        &self,
        _: &AccountHoldingsRequest,
    ) -> UseCaseResult<AccountHoldingsResult> {
        failed()
    }
    fn get_holdings_at(&self, _: &HoldingsAtRequest) -> UseCaseResult<HoldingsAtDto> {
        failed()
    }
    fn get_fiscal_integrity(&self) -> UseCaseResult<FiscalIntegrity> {
        failed()
    }
    fn get_token_history(&self, _: &TokenHistoryRequest) -> UseCaseResult<TokenHistory> {
        failed()
    }
    fn get_asset_allocation(&self, _: &CurrencyRequest) -> UseCaseResult<AssetAllocation> {
        failed()
    }
    fn get_risk_metrics(&self) -> UseCaseResult<RiskMetricsDto> {
        failed()
    }
    fn get_kpis(&self, _: &CurrencyRequest) -> UseCaseResult<KpisDto> {
        failed()
    }
    fn get_drawdown_curve(&self, _: &SeriesRequest) -> UseCaseResult<DrawdownCurve> {
        failed()
    }
    fn get_performance_history(&self, _: &SeriesRequest) -> UseCaseResult<PerformanceHistory> {
        failed()
    }
    fn get_volatility_heatmap(&self, _: &HeatmapRequest) -> UseCaseResult<VolatilityHeatmap> {
        failed()
    }
    fn get_spanish_tax_report(&self, _: &TaxReportRequest) -> UseCaseResult<TaxReport> {
        failed()
    }
    fn get_tax_audit_latest(&self, _: i32, _: usize) -> UseCaseResult<LatestAuditRows> {
        failed()
    }
    fn get_tax_report_csv(&self, _: &TaxReportRequest) -> UseCaseResult<TaxCsvFiles> {
        failed()
    }
    fn get_latest_prices(&self, _: &LatestPricesRequest) -> UseCaseResult<LatestPrices> {
        failed()
    }
    fn list_accounts(&self) -> UseCaseResult<AccountList> {
        failed()
    }
    fn compare_tax_years(&self, _: &CompareTaxYearsRequest) -> UseCaseResult<TaxYearComparison> {
        failed()
    }
    fn get_portfolio_scenario(
        &self,
        _: &ScenarioRequest,
        _: Option<DisplayCurrency>,
    ) -> UseCaseResult<ScenarioAnswer> {
        failed()
    }
    fn get_derivatives_pnl(&self) -> UseCaseResult<DerivativesPnl> {
        failed()
    }
    fn get_lot_custody_locations(
        &self,
        _: &CustodyLocationsRequest,
    ) -> UseCaseResult<CustodyLocations> {
        failed()
    }
    fn search_spot_transactions(&self, _: &TxSearchRequest) -> UseCaseResult<TxPage> {
        failed()
    }
    fn get_ledger_version(&self) -> UseCaseResult<LedgerVersion> {
        failed()
    }
    fn get_ledger_overview(&self) -> UseCaseResult<LedgerOverview> {
        failed()
    }
    fn list_settings(&self) -> UseCaseResult<SettingsList> {
        failed()
    }
}
