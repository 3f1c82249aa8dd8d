//! `cartera bench tools` (hidden): the harness runs it as a child process on an imported
//! ledger. It picks valid arguments for every one of the 25 tools from the ledger itself (the
//! largest valued holding, the first account, a quality flag that has rows, the report year),
//! then times `ToolHost::call` in this process (`performance.md`, "tools"):
//!
//! - `cold`: the first call on a fresh store, use-case state and host, so the derived state is
//!   recomputed (what the first call after a ledger change pays); opening the store is not timed;
//! - `warm`: repeated identical calls on one host after a warm-up: the result cache hits (except
//!   `live_prices` and `explain_metric`, which are never cached);
//! - `uncached`: the derived state warm but a fresh host (empty result cache, built untimed) per
//!   sample: the projection and the use case run every time.
//!
//! It prints one JSON document with the chosen arguments, the outcome kind and the samples in
//! milliseconds.

use crate::output::{diag, outln};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ai_tools::{CacheConfig, Locale, Profile, RequestContext, ToolHost};
use anyhow::{Context, Result};
use clap::Args;
use ledger_sqlite::ReadOnlyLedger;
use serde_json::{Value, json};
use shared_types::ToolName;
use use_cases::ports::Clock;
use use_cases::queries::{CurrencyRequest, LedgerQueries, ReadUseCases};

use crate::Outcome;
use crate::session::{CliClock, fail};

#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    /// Cold samples per tool (a fresh host and derived state each).
    #[arg(long, default_value_t = 5)]
    cold: u32,
    /// Warm samples per tool after the warm-up.
    #[arg(long, default_value_t = 200)]
    warm: u32,
    /// The fiscal year of the tax tools (the comparison uses it and the year before).
    #[arg(long, default_value_t = 2025)]
    year: i32,
    /// Print only the chosen arguments (`{"tools":[{"tool","arguments"}]}`), time nothing.
    #[arg(long)]
    args_only: bool,
    /// Time only these tools (comma-separated names; default all).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Cold samples with the derived state (and the full market) computed untimed first: the
    /// tool's own first-call work, without the ledger load.
    #[arg(long)]
    own: bool,
}

/// Uncached samples stop after this much time per tool (at least [`MIN_UNCACHED`] are taken).
const UNCACHED_BUDGET: Duration = Duration::from_secs(5);
const MIN_UNCACHED: usize = 20;
const WARM_UP: usize = 10;

/// The values the tool arguments are built from.
struct Picks {
    symbol: String,
    account: String,
    quality_flag: String,
    year: i32,
}

fn pick(queries: &dyn ReadUseCases, year: i32) -> Result<Picks> {
    let summary = queries
        .get_portfolio_summary(&CurrencyRequest { currency: None })
        .context("cannot read the portfolio summary")?;
    let symbol = summary
        .valued
        .first()
        .map(|h| h.symbol.clone())
        .or_else(|| summary.unvalued.first().map(|h| h.symbol.clone()))
        .unwrap_or_else(|| "BTC".to_owned());
    let accounts = queries
        .list_accounts()
        .context("cannot list the accounts")?;
    let account = accounts
        .accounts
        .first()
        .map_or_else(|| "Account01".to_owned(), |a| a.name.clone());
    let integrity = queries
        .get_fiscal_integrity()
        .context("cannot read the fiscal integrity")?;
    let quality_flag = integrity
        .groups
        .iter()
        .find(|g| g.count > 0)
        .or_else(|| integrity.groups.first())
        .map(|g| g.quality_flag.clone())
        .or_else(|| {
            shared_types::QualityFlag::ALL
                .first()
                .map(|f| f.as_str().to_owned())
        })
        .unwrap_or_default();
    Ok(Picks {
        symbol,
        account,
        quality_flag,
        year,
    })
}

/// Valid arguments for every tool, in canonical order.
fn arguments(p: &Picks) -> Vec<(ToolName, Value)> {
    let s = p.symbol.as_str();
    ToolName::ALL
        .iter()
        .map(|tool| {
            let args = match tool {
                ToolName::FiscalIntegrityRows => json!({"qualityFlag": p.quality_flag}),
                ToolName::TokenHistory | ToolName::HoldingDetail | ToolName::BreakevenPrice => {
                    json!({"symbol": s})
                }
                ToolName::TokenLots => json!({"symbol": s, "page": 0}),
                ToolName::DrawdownCurve | ToolName::PerformanceHistory => json!({"days": 365}),
                ToolName::VolatilityHeatmap | ToolName::SpanishTaxReport => {
                    json!({"year": p.year})
                }
                ToolName::LivePrices => json!({"symbols": [s]}),
                ToolName::AccountHoldings => json!({"accountName": p.account}),
                ToolName::TaxYearComparison => json!({"yearA": p.year - 1, "yearB": p.year}),
                ToolName::ExplainMetric => json!({"metric": "hhi"}),
                ToolName::ScenarioPositionValue => {
                    json!({"symbol": s, "hypotheticalPrice": "50000"})
                }
                ToolName::CustodyLocations => json!({"symbol": s}),
                ToolName::ScenarioPortfolioShock => {
                    json!({"shock": {"kind": "uniform", "pct": "-30"}})
                }
                ToolName::TxSearch => json!({
                    "symbol": s,
                    "from": format!("{}-01-01", p.year),
                    "to": format!("{}-12-31", p.year),
                    "page": 1
                }),
                _ => json!({}),
            };
            (*tool, args)
        })
        .collect()
}

/// A fresh store, use cases and host over the ledger (a ledger change as the host sees it).
fn fresh(path: &Path, clock: CliClock) -> Result<(Arc<dyn ReadUseCases>, ToolHost)> {
    let (queries, host) = fresh_queries(path, clock)?;
    Ok((queries, host))
}

/// [`fresh`] with the concrete use cases (to warm their derived state).
fn fresh_queries(
    path: &Path,
    clock: CliClock,
) -> Result<(Arc<LedgerQueries<ReadOnlyLedger>>, ToolHost)> {
    let (_, store) = crate::session::open_read_only(Some(path))?;
    let queries = Arc::new(LedgerQueries::new(store, clock));
    let shared: Arc<dyn ReadUseCases> = Arc::clone(&queries) as Arc<dyn ReadUseCases>;
    let host = host_over(&shared, clock);
    Ok((queries, host))
}

fn host_over(queries: &Arc<dyn ReadUseCases>, clock: CliClock) -> ToolHost {
    ToolHost::new(
        Arc::clone(queries),
        Profile::Metered,
        CacheConfig::default(),
        Arc::new(clock) as Arc<dyn Clock>,
    )
}

fn millis(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}

pub(crate) fn run(ledger: Option<&Path>, args: &ToolsArgs) -> Result<Outcome> {
    let clock = CliClock::from_env()?;
    let path = crate::ledger_path::resolve(ledger)?;
    let (queries, _) = fresh(&path, clock)?;
    let context = RequestContext {
        tenant: crate::session::tenant(&path)?,
        locale: Locale::parse("es")?,
        base_currency: ai_tools::CurrencyCode::EUR,
    };
    let picks = pick(queries.as_ref(), args.year)?;
    drop(queries);
    if args.args_only {
        let rows: Vec<Value> = arguments(&picks)
            .into_iter()
            .map(|(tool, arguments)| json!({"tool": tool.as_str(), "arguments": arguments}))
            .collect();
        outln!("{}", json!({ "tools": rows }));
        return Ok(Outcome::Success);
    }
    let mut rows = Vec::new();
    for (tool, arguments) in arguments(&picks) {
        let name = tool.as_str();
        if !args.only.is_empty() && !args.only.iter().any(|o| o == name) {
            continue;
        }
        let mut cold = Vec::new();
        for _ in 0..args.cold.max(1) {
            let (queries, host) = fresh_queries(&path, clock)?;
            if args.own {
                queries.derived_full()?;
            }
            let started = Instant::now();
            let result = host.call(&context, None, name, &arguments);
            cold.push(millis(started));
            std::hint::black_box(result);
        }
        // Warm: one host, derived state and result cache filled by the warm-up.
        let (queries, host) = fresh(&path, clock)?;
        let mut kind = String::new();
        let mut chars = 0usize;
        for _ in 0..WARM_UP {
            let result = host.call(&context, None, name, &arguments);
            result["kind"].as_str().unwrap_or("?").clone_into(&mut kind);
            // The payload's characters; a truncated result carries only their count.
            chars = match result["actualChars"].as_u64() {
                Some(actual) => usize::try_from(actual).unwrap_or(usize::MAX),
                None => {
                    serde_json::to_string(&result["payload"]).map_or(0, |text| text.chars().count())
                }
            };
            if kind == "error" {
                return fail(format!("bench tools: {name} {arguments} answered {result}"));
            }
        }
        let mut warm = Vec::new();
        for _ in 0..args.warm.max(1) {
            let started = Instant::now();
            let result = host.call(&context, None, name, &arguments);
            warm.push(millis(started));
            std::hint::black_box(result);
        }
        // Uncached: derived state warm, an empty result cache per sample.
        let mut uncached = Vec::new();
        let budget = Instant::now();
        for _ in 0..args.warm.max(1) {
            if uncached.len() >= MIN_UNCACHED && budget.elapsed() > UNCACHED_BUDGET {
                break;
            }
            let host = host_over(&queries, clock);
            let started = Instant::now();
            let result = host.call(&context, None, name, &arguments);
            uncached.push(millis(started));
            std::hint::black_box(result);
        }
        diag!(
            "bench tools: {name}: cold max {:.1} ms, warm max {:.3} ms, uncached max {:.3} ms",
            cold.iter().copied().fold(0.0, f64::max),
            warm.iter().copied().fold(0.0, f64::max),
            uncached.iter().copied().fold(0.0, f64::max)
        );
        rows.push(json!({
            "tool": name,
            "arguments": arguments,
            "kind": kind,
            "payloadChars": chars,
            "coldMs": cold,
            "warmMs": warm,
            "uncachedMs": uncached,
        }));
    }
    let document = json!({
        "tools": rows,
        "peakKib": super::engine::peak_kib(),
    });
    outln!("{document}");
    Ok(Outcome::Success)
}
