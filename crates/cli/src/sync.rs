//! `cartera sync`, `rates sync`, `prices sync`, `prices list` and `rates list`: the only
//! commands that open network connections (through the `providers` crate).
//!
//! The composition root of the sync: the environment (base URLs, proxy, timeouts,
//! `CARTERA_NOW`) is read here, once, into a `providers::Config`; the assets and days to fetch
//! come from the engine's price requests (`use_cases::sync::price_needs`) minus what is stored;
//! each provider's closes for an asset are written as they arrive, in their own transaction,
//! under an import log entry that names the provider, the market and the fetch time (D-110).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;

use anyhow::Result;
use chrono::NaiveDate;
use clap::Args;
use core_domain::{Asset, Date, Instant};
use ledger_sqlite::SqliteLedger;
use providers::chain::{AssetRequest, Catalog, fetch_asset};
use providers::symbols::{self, Overrides};
use providers::{AnswerError, Client, Config, Family, Provider, ProviderSeries};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use use_cases::ports::{
    ConflictPolicy, LedgerRead, LedgerWrite, NewImportLog, PriceBatch, PriceRow, RateBatch,
    RateRow, RateStore, WriteMode,
};

use crate::output::{diag, out, outln};
use crate::session::{CliClock, fail, open_existing};
use crate::table::{Align, Table};
use crate::{Outcome, UsageError, ledger_path};

/// `cartera sync`: the rates, then the prices.
#[derive(Debug, Args)]
pub(crate) struct SyncArgs {
    #[command(flatten)]
    prices: PricesSyncArgs,
}

/// `cartera prices sync`.
#[derive(Debug, Args)]
pub(crate) struct PricesSyncArgs {
    /// Only this asset (repeatable).
    #[arg(long, value_name = "SYMBOL")]
    asset: Vec<String>,
    /// First day (UTC) to fetch; default: each asset's first row.
    #[arg(long, value_name = "YYYY-MM-DD")]
    from: Option<String>,
    /// Last day (UTC) to fetch; default: the day before today (today's close is not final).
    #[arg(long, value_name = "YYYY-MM-DD")]
    to: Option<String>,
    /// Ask only these providers, in this order (repeatable): kraken, coinbase, bitvavo,
    /// binance, bitstamp, binance-usdt, coingecko.
    #[arg(long, value_name = "NAME")]
    provider: Vec<String>,
    /// Fetch stored days too and replace their closes (imported ones included).
    #[arg(long)]
    replace: bool,
    /// Show what would be fetched, and from where, without any request.
    #[arg(long)]
    dry_run: bool,
}

/// `cartera rates sync`.
#[derive(Debug, Args)]
pub(crate) struct RatesSyncArgs {
    /// Show what would be fetched without any request.
    #[arg(long)]
    dry_run: bool,
}

/// `cartera prices list`.
#[derive(Debug, Args)]
pub(crate) struct PricesListArgs {
    /// Only this asset (repeatable).
    #[arg(long, value_name = "SYMBOL")]
    asset: Vec<String>,
    /// First day.
    #[arg(long, value_name = "YYYY-MM-DD")]
    from: Option<String>,
    /// Last day.
    #[arg(long, value_name = "YYYY-MM-DD")]
    to: Option<String>,
}

/// `cartera rates list`.
#[derive(Debug, Args)]
pub(crate) struct RatesListArgs {
    /// Only this currency.
    #[arg(long, value_name = "CODE")]
    currency: Option<String>,
    /// First day.
    #[arg(long, value_name = "YYYY-MM-DD")]
    from: Option<String>,
    /// Last day.
    #[arg(long, value_name = "YYYY-MM-DD")]
    to: Option<String>,
}

/// The environment of a sync run: read once, here.
struct Env {
    config: Config,
    /// `CARTERA_TEST_NO_SLEEP=1`: waits are counted, not slept (the test suite's switch).
    no_sleep: bool,
}

/// The base-URL variables, one per host family.
const BASE_VARS: [(&str, Family); 8] = [
    ("CARTERA_KRAKEN_URL", Family::Kraken),
    ("CARTERA_COINBASE_URL", Family::Coinbase),
    ("CARTERA_BITVAVO_URL", Family::Bitvavo),
    ("CARTERA_BINANCE_URL", Family::Binance),
    ("CARTERA_BITSTAMP_URL", Family::Bitstamp),
    ("CARTERA_COINGECKO_URL", Family::CoinGecko),
    ("CARTERA_ECB_URL", Family::Ecb),
    ("CARTERA_ECB_DATA_URL", Family::EcbData),
];

#[allow(
    clippy::disallowed_methods,
    reason = "the binary reads its configuration from the environment"
)]
fn read_env() -> Result<Env> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let mut config = Config::default();
    for (name, family) in BASE_VARS {
        if let Some(value) = var(name) {
            if !(value.starts_with("http://") || value.starts_with("https://")) {
                return Err(UsageError {
                    code: "bad-url",
                    reason: format!("{name} \"{value}\" is not an http:// or https:// URL"),
                }
                .into());
            }
            config.set_base(family, &value);
        }
    }
    config.proxy = var("HTTPS_PROXY")
        .or_else(|| var("https_proxy"))
        .or_else(|| var("ALL_PROXY"))
        .or_else(|| var("all_proxy"));
    config.no_proxy = var("NO_PROXY").or_else(|| var("no_proxy"));
    if let Some(text) = var("CARTERA_HTTP_TIMEOUT") {
        let seconds: u64 = text.trim().parse().map_err(|_| UsageError {
            code: "bad-timeout",
            reason: format!("CARTERA_HTTP_TIMEOUT \"{text}\" is not a number of seconds"),
        })?;
        config.connect_timeout = std::time::Duration::from_secs(seconds.max(1));
        config.read_timeout = std::time::Duration::from_secs(seconds.max(1));
    }
    Ok(Env {
        config,
        no_sleep: var("CARTERA_TEST_NO_SLEEP").is_some_and(|v| v == "1"),
    })
}

fn client(env: &Env) -> Result<Client> {
    let pause: Box<dyn providers::Pause> = if env.no_sleep {
        Box::new(providers::testing::CountingPause::default())
    } else {
        Box::new(providers::SystemPause::new())
    };
    Client::new(env.config.clone(), pause).or_else(fail)
}

fn parse_day(text: Option<&str>, option: &str) -> Result<Option<Date>> {
    text.map(|t| {
        NaiveDate::parse_from_str(t.trim(), "%Y-%m-%d").map_err(|_| {
            UsageError {
                code: "bad-date",
                reason: format!("{option} \"{t}\" is not a date: write it as 2024-01-31"),
            }
            .into()
        })
    })
    .transpose()
}

fn parse_asset(text: &str) -> Result<Asset> {
    Asset::new(&text.trim().to_ascii_uppercase()).map_err(|e| {
        UsageError {
            code: "bad-asset",
            reason: format!("--asset \"{text}\": {e}"),
        }
        .into()
    })
}

/// Opens the ledger the sync writes to; it must exist (a sync has nothing to ask without rows).
fn open_ledger(explicit: Option<&Path>) -> Result<ledger_path::WriteSession> {
    let path = ledger_path::resolve(explicit)?;
    if !path.is_file() {
        return fail(format!(
            "no ledger at {}: import your exports first (`cartera import FILE…`)",
            path.display()
        ));
    }
    ledger_path::open_existing_for_write(Some(&path))
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The run's now and UTC today (`CARTERA_NOW` sets both).
fn now() -> Result<(Instant, Date)> {
    let clock = CliClock::from_env()?;
    let now = use_cases::ports::Clock::now(&clock);
    Ok((now, now.utc_date()))
}

// -------------------------------------------------------------------------------------------
// cartera sync
// -------------------------------------------------------------------------------------------

pub(crate) fn run_sync(ledger: Option<&Path>, json: bool, args: &SyncArgs) -> Result<Outcome> {
    let env = read_env()?;
    let mut store = open_ledger(ledger)?;
    let (now, today) = now()?;
    let mut client = client(&env)?;
    let rates = rates_sync(&mut store, &mut client, now, today, args.prices.dry_run)?;
    let prices = prices_sync(&mut store, &mut client, now, today, &args.prices)?;
    let failed = rates.failed || prices.failed;
    let document = json!({"rates": rates.json, "prices": prices.json});
    emit(json, &document, &format!("{}\n{}", rates.text, prices.text))?;
    finish(failed, &client)
}

pub(crate) fn run_rates_sync(
    ledger: Option<&Path>,
    json: bool,
    args: &RatesSyncArgs,
) -> Result<Outcome> {
    let env = read_env()?;
    let mut store = open_ledger(ledger)?;
    let (now, today) = now()?;
    let mut client = client(&env)?;
    let rates = rates_sync(&mut store, &mut client, now, today, args.dry_run)?;
    emit(json, &rates.json, &rates.text)?;
    finish(rates.failed, &client)
}

pub(crate) fn run_prices_sync(
    ledger: Option<&Path>,
    json: bool,
    args: &PricesSyncArgs,
) -> Result<Outcome> {
    let env = read_env()?;
    let mut store = open_ledger(ledger)?;
    let (now, today) = now()?;
    let mut client = client(&env)?;
    let prices = prices_sync(&mut store, &mut client, now, today, args)?;
    emit(json, &prices.json, &prices.text)?;
    finish(prices.failed, &client)
}

fn emit(json: bool, document: &Value, text: &str) -> Result<()> {
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(document).unwrap_or_default()
        );
    } else {
        out!("{text}");
    }
    Ok(())
}

/// Exit 1 when the network or every provider failed, naming the hosts.
fn finish(failed: bool, client: &Client) -> Result<Outcome> {
    let dead = client.dead_hosts();
    for (family, reason) in &dead {
        diag!("cartera: warning: {family}: {reason}");
    }
    if failed {
        let hosts: Vec<String> = dead
            .iter()
            .map(|(f, _)| client.config().base(*f).to_owned())
            .collect();
        if hosts.is_empty() {
            return fail("no provider sent a usable answer; what was fetched before is kept");
        }
        return fail(format!(
            "no provider could be reached ({}); what was fetched before is kept",
            hosts.join(", ")
        ));
    }
    Ok(Outcome::Success)
}

/// What one part of the sync printed and whether it failed.
struct Part {
    text: String,
    json: Value,
    failed: bool,
}

/// Whether every family asked in this run failed.
fn all_failed(client: &Client) -> bool {
    let asked: Vec<Family> = Family::ALL
        .into_iter()
        .filter(|f| client.requests(*f) > 0)
        .collect();
    !asked.is_empty() && asked.iter().all(|f| client.is_down(*f))
}

// -------------------------------------------------------------------------------------------
// rates sync
// -------------------------------------------------------------------------------------------

fn sync_log(
    now: Instant,
    url: &str,
    format: &str,
    layout: &str,
    bytes: &[u8],
    rows: u64,
) -> NewImportLog {
    NewImportLog {
        imported_at: now,
        file_name: url.to_owned(),
        file_sha256: sha256_hex(bytes),
        format: format.to_owned(),
        layout: Some(layout.to_owned()),
        options: vec!["sync".to_owned()],
        rows_read: rows,
        ..NewImportLog::default()
    }
}

fn rates_sync(
    store: &mut SqliteLedger,
    client: &mut Client,
    now: Instant,
    today: Date,
    dry_run: bool,
) -> Result<Part> {
    let usd = Asset::new("USD").map_err(|e| anyhow::anyhow!("{e}"))?;
    let latest = store
        .rate_on_or_before(usd, today)
        .map_err(|e| anyhow::anyhow!("cannot read the ledger's rates: {e}"))?
        .map(|r| r.date);
    let mut added = 0u64;
    let mut lines = Vec::new();
    let mut errors = Vec::new();
    let history_url = format!(
        "{}{}",
        client.config().base(Family::Ecb),
        providers::ecb::HISTORY_PATH
    );
    let mut latest = latest;
    if latest.is_none() {
        if dry_run {
            lines.push(format!("would download the ECB history from {history_url}"));
        } else {
            match providers::ecb::fetch_history(client) {
                Ok(bytes) => match store_history(store, now, &history_url, &bytes) {
                    Ok((n, last)) => {
                        added += n;
                        latest = last;
                        lines.push(format!("ECB history: {n} rates added"));
                    }
                    Err(reason) => errors.push(format!(
                        "ecb sent an answer that cannot be used for {history_url}: {reason}"
                    )),
                },
                Err(error) => errors.push(error.to_string()),
            }
        }
    }
    if let Some(last) = latest.filter(|l| *l < today) {
        let from = last.succ_opt().unwrap_or(last);
        let url = format!(
            "{}{}",
            client.config().base(Family::EcbData),
            providers::ecb::data_path(from, today)
        );
        if dry_run {
            lines.push(format!(
                "would ask the ECB Data API for {from} to {today}: {url}"
            ));
        } else if !client.is_down(Family::EcbData) {
            match providers::ecb::fetch_days(client, from, today) {
                Ok(rates) => {
                    let n = store_rates(store, now, &url, &rates)?;
                    added += n;
                    lines.push(format!("ECB Data API, {from} to {today}: {n} rates added"));
                }
                Err(error) => errors.push(error.to_string()),
            }
        }
    } else if latest.is_some() {
        lines.push(format!("ECB rates: up to date ({today})"));
    }
    // The ECB is the only source of rates: its failure with nothing stored fails the run.
    let failed = !errors.is_empty() && added == 0;
    let mut text = String::from("Rates\n");
    for line in &lines {
        let _ = writeln!(text, "  {line}");
    }
    for error in &errors {
        let _ = writeln!(text, "  error: {error}");
    }
    Ok(Part {
        text,
        json: json!({"added": added, "messages": lines, "errors": errors}),
        failed,
    })
}

/// Reads the ECB history zip with the `rates import` reader and stores it.
fn store_history(
    store: &mut SqliteLedger,
    now: Instant,
    url: &str,
    bytes: &[u8],
) -> std::result::Result<(u64, Option<Date>), String> {
    let parsed = importers::rates::parse_ecb(bytes);
    if parsed.file_rejected() || parsed.has_errors() {
        let first = parsed
            .findings
            .first()
            .map_or_else(|| "unreadable file".to_owned(), |f| f.message.clone());
        return Err(first);
    }
    let rows: Vec<RateRow> = parsed
        .rates
        .iter()
        .filter_map(|r| {
            Some(RateRow {
                currency: Asset::new(&r.currency).ok()?,
                date: r.date,
                rate: r.rate,
            })
        })
        .collect();
    let last = rows.iter().map(|r| r.date).max();
    let batch = RateBatch {
        log: sync_log(now, url, "ecb", "history", bytes, parsed.rows_read),
        rows,
        on_conflict: ConflictPolicy::Skip,
        mode: WriteMode::Commit,
    };
    let outcome = store.write_rates(&batch).map_err(|e| e.to_string())?;
    Ok((outcome.added, last))
}

fn store_rates(
    store: &mut SqliteLedger,
    now: Instant,
    url: &str,
    rates: &[providers::ecb::EcbRate],
) -> Result<u64> {
    if rates.is_empty() {
        return Ok(0);
    }
    let text = rates.iter().fold(String::new(), |mut text, r| {
        let _ = writeln!(text, "{},{},{}", r.currency, r.date, r.rate);
        text
    });
    let batch = RateBatch {
        log: sync_log(
            now,
            url,
            "ecb",
            "data-api",
            text.as_bytes(),
            rates.len() as u64,
        ),
        rows: rates
            .iter()
            .filter_map(|r| {
                Some(RateRow {
                    currency: Asset::new(&r.currency).ok()?,
                    date: r.date,
                    rate: r.rate,
                })
            })
            .collect(),
        on_conflict: ConflictPolicy::Skip,
        mode: WriteMode::Commit,
    };
    let outcome = store
        .write_rates(&batch)
        .map_err(|e| anyhow::anyhow!("cannot store the ECB rates: {e}"))?;
    Ok(outcome.added)
}

// -------------------------------------------------------------------------------------------
// prices sync
// -------------------------------------------------------------------------------------------

/// One asset's plan: the days to fetch.
struct Plan {
    asset: Asset,
    missing: Vec<Date>,
}

/// The user's markets (`prices.provider_markets`).
fn overrides(store: &SqliteLedger) -> Result<Overrides> {
    let stored = use_cases::queries::settings::provider_markets_of(store)
        .map_err(|e| anyhow::anyhow!("cannot read the settings: {e}"))?;
    Ok(stored
        .into_iter()
        .filter_map(|((asset, provider), market)| {
            Some((
                (asset.as_str().to_owned(), Provider::parse(&provider)?),
                market,
            ))
        })
        .collect())
}

fn providers_of(args: &PricesSyncArgs) -> Result<Vec<Provider>> {
    if args.provider.is_empty() {
        return Ok(Provider::ALL.to_vec());
    }
    let mut out = Vec::new();
    for name in &args.provider {
        let Some(p) = Provider::parse(name) else {
            return Err(UsageError {
                code: "bad-provider",
                reason: format!(
                    "--provider \"{name}\" is not one of {}",
                    Provider::ALL.map(Provider::name).join(", ")
                ),
            }
            .into());
        };
        if !out.contains(&p) {
            out.push(p);
        }
    }
    Ok(out)
}

fn plans(store: &SqliteLedger, args: &PricesSyncArgs, today: Date) -> Result<Vec<Plan>> {
    let from = parse_day(args.from.as_deref(), "--from")?;
    let to = parse_day(args.to.as_deref(), "--to")?;
    let last_final = today.pred_opt().unwrap_or(today);
    let end = to.map_or(last_final, |t| t.min(last_final));
    let needs = use_cases::sync::price_needs(store)
        .map_err(|e| anyhow::anyhow!("cannot read the ledger: {e}"))?;
    let mut wanted: BTreeMap<Asset, Date> = needs.into_iter().collect();
    if !args.asset.is_empty() {
        let mut chosen = BTreeMap::new();
        for text in &args.asset {
            let asset = parse_asset(text)?;
            match (wanted.get(&asset), from) {
                (Some(first), _) => {
                    chosen.insert(asset, *first);
                }
                (None, Some(f)) => {
                    chosen.insert(asset, f);
                }
                (None, None) => {
                    return Err(UsageError {
                        code: "asset-not-in-ledger",
                        reason: format!(
                            "{asset} is not in the ledger; give --from to fetch its closes anyway"
                        ),
                    }
                    .into());
                }
            }
        }
        wanted = chosen;
    }
    let mut out = Vec::new();
    for (asset, first) in wanted {
        // An asset named with --asset starts at --from as given; otherwise no earlier than its
        // first row.
        let start = if args.asset.is_empty() {
            from.map_or(first, |f| f.max(first))
        } else {
            from.unwrap_or(first)
        };
        if start > end {
            continue;
        }
        let stored: BTreeSet<Date> = if args.replace {
            BTreeSet::new()
        } else {
            store
                .price_sources(Some(&[asset]), start, end)
                .map_err(|e| anyhow::anyhow!("cannot read the stored closes: {e}"))?
                .into_iter()
                .map(|s| s.row.date)
                .collect()
        };
        let missing: Vec<Date> = start
            .iter_days()
            .take_while(|d| *d <= end)
            .filter(|d| !stored.contains(d))
            .collect();
        if !missing.is_empty() {
            out.push(Plan { asset, missing });
        }
    }
    Ok(out)
}

/// One asset's line of the summary.
struct AssetLine {
    asset: String,
    fetched: Vec<(String, String, usize)>,
    missing: Vec<providers::Gap>,
    why: Vec<String>,
}

fn store_series(
    store: &mut SqliteLedger,
    now: Instant,
    asset: Asset,
    series: &ProviderSeries,
    base: &str,
    replace: bool,
) -> std::result::Result<u64, String> {
    let quote = series.provider.quote();
    let currency = Asset::new(quote.code()).map_err(|e| e.to_string())?;
    let market = if series.provider == Provider::BinanceUsdt {
        format!("{} (USDT taken as USD)", series.market)
    } else {
        series.market.clone()
    };
    let text = series.closes.iter().fold(String::new(), |mut text, c| {
        let _ = writeln!(text, "{},{}", c.date, c.close);
        text
    });
    let url = format!(
        "{base}{}",
        series.requests.first().map_or("", String::as_str)
    );
    let mut log = sync_log(
        now,
        &url,
        series.provider.name(),
        &market,
        text.as_bytes(),
        series.closes.len() as u64,
    );
    if replace {
        log.options.push("--replace".to_owned());
    }
    let batch = PriceBatch {
        log,
        rows: series
            .closes
            .iter()
            .map(|c| PriceRow {
                asset,
                date: c.date,
                close: c.close,
                currency,
            })
            .collect(),
        on_conflict: if replace {
            ConflictPolicy::Replace
        } else {
            ConflictPolicy::Skip
        },
        mode: WriteMode::Commit,
    };
    store
        .write_prices(&batch)
        .map(|o| o.added + o.replaced)
        .map_err(|e| e.to_string())
}

fn progress(len: usize) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(len as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} assets  {msg}")
    {
        bar.set_style(style);
    }
    bar
}

fn prices_sync(
    store: &mut SqliteLedger,
    client: &mut Client,
    now: Instant,
    today: Date,
    args: &PricesSyncArgs,
) -> Result<Part> {
    let chain = providers_of(args)?;
    let plans = plans(store, args, today)?;
    let overrides = overrides(store)?;
    if args.dry_run {
        return Ok(dry_run(&plans, &chain, &overrides));
    }
    let bar = progress(plans.len());
    let mut catalog = Catalog::default();
    let mut lines = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for plan in &plans {
        bar.set_message(plan.asset.as_str().to_owned());
        let request = AssetRequest {
            asset: plan.asset.as_str(),
            missing: &plan.missing,
            today,
            providers: &chain,
            overrides: &overrides,
        };
        let mut fetched = Vec::new();
        let mut store_errors = Vec::new();
        let bases: BTreeMap<Family, String> = Family::ALL
            .into_iter()
            .map(|f| (f, client.config().base(f).to_owned()))
            .collect();
        let outcome = fetch_asset(client, &mut catalog, &request, |series| {
            let base = bases
                .get(&series.provider.family())
                .map_or("", String::as_str);
            match store_series(store, now, plan.asset, series, base, args.replace) {
                Ok(_) => fetched.push((
                    series.provider.name().to_owned(),
                    series.market.clone(),
                    series.closes.len(),
                )),
                Err(e) => store_errors.push(format!("cannot store {}: {e}", plan.asset)),
            }
        });
        problems.extend(outcome.bad_answers.iter().map(AnswerError::to_string));
        problems.extend(store_errors);
        lines.push(AssetLine {
            asset: plan.asset.as_str().to_owned(),
            fetched,
            missing: outcome.gaps.clone(),
            why: outcome.notes.clone(),
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    // Failed: nothing fetched, and the hosts were down or what they sent was unusable (an
    // asset that no provider lists is a gap, not a failure).
    let failed =
        lines.iter().all(|l| l.fetched.is_empty()) && (all_failed(client) || !problems.is_empty());
    Ok(summary(&lines, &problems, failed))
}

fn summary(lines: &[AssetLine], problems: &[String], failed: bool) -> Part {
    let mut table = Table::new(&[
        ("asset", Align::Left),
        ("days fetched", Align::Right),
        ("from", Align::Left),
        ("days missing", Align::Right),
    ]);
    let mut gaps_text = String::new();
    let mut items = Vec::new();
    for line in lines {
        let fetched: usize = line.fetched.iter().map(|f| f.2).sum();
        let missing: u64 = line.missing.iter().map(|g| g.days).sum();
        let from: Vec<String> = line
            .fetched
            .iter()
            .map(|(p, m, n)| format!("{p} {m} ({n})"))
            .collect();
        table.row([
            line.asset.clone(),
            fetched.to_string(),
            if from.is_empty() {
                "-".to_owned()
            } else {
                from.join(", ")
            },
            missing.to_string(),
        ]);
        if missing > 0 {
            let runs: Vec<String> = line
                .missing
                .iter()
                .map(|g| {
                    if g.from == g.to {
                        g.from.to_string()
                    } else {
                        format!("{} to {}", g.from, g.to)
                    }
                })
                .collect();
            let _ = writeln!(
                gaps_text,
                "  {}: {} day(s) missing ({}): {}",
                line.asset,
                missing,
                runs.join(", "),
                line.why.join("; ")
            );
        }
        items.push(json!({
            "asset": line.asset,
            "daysFetched": fetched,
            "fetched": line.fetched.iter().map(|(p, m, n)| json!({"provider": p, "market": m, "days": n})).collect::<Vec<_>>(),
            "daysMissing": missing,
            "missing": line.missing.iter().map(|g| json!({"from": g.from.to_string(), "to": g.to.to_string(), "days": g.days})).collect::<Vec<_>>(),
            "why": line.why,
        }));
    }
    let mut text = String::from("Prices\n");
    if lines.is_empty() {
        text.push_str("  nothing missing: every needed close is stored\n");
    } else {
        text.push_str(&table.render());
        text.push('\n');
    }
    if !gaps_text.is_empty() {
        text.push_str("Gaps (they show in `cartera integrity`)\n");
        text.push_str(&gaps_text);
    }
    for problem in problems {
        let _ = writeln!(text, "  error: {problem}");
    }
    Part {
        text,
        json: json!({"assets": items, "errors": problems}),
        failed,
    }
}

fn dry_run(plans: &[Plan], chain: &[Provider], overrides: &Overrides) -> Part {
    let mut text = String::from("Prices (dry run: nothing is fetched)\n");
    let mut items = Vec::new();
    for plan in plans {
        let runs = providers::chain::runs(&plan.missing);
        let sources: Vec<String> = chain
            .iter()
            .filter_map(|p| {
                symbols::market(*p, plan.asset.as_str(), overrides).map(|m| format!("{p} {m}"))
            })
            .collect();
        let _ = writeln!(
            text,
            "  {}: {} day(s) in {} run(s), from {} to {}; would ask {}",
            plan.asset,
            plan.missing.len(),
            runs.len(),
            plan.missing
                .first()
                .map(ToString::to_string)
                .unwrap_or_default(),
            plan.missing
                .last()
                .map(ToString::to_string)
                .unwrap_or_default(),
            sources.join(" → ")
        );
        items.push(json!({
            "asset": plan.asset.as_str(),
            "days": plan.missing.len(),
            "from": plan.missing.first().map(ToString::to_string),
            "to": plan.missing.last().map(ToString::to_string),
            "providers": sources,
        }));
    }
    if plans.is_empty() {
        text.push_str("  nothing missing\n");
    }
    Part {
        text,
        json: json!({"dryRun": true, "assets": items}),
        failed: false,
    }
}

// -------------------------------------------------------------------------------------------
// prices list, rates list
// -------------------------------------------------------------------------------------------

/// The import log entries by id: provider (format), market (layout), fetch time, source.
fn sources(store: &SqliteLedger) -> Result<BTreeMap<i64, use_cases::ports::ImportLogEntry>> {
    Ok(store
        .import_log()
        .map_err(|e| anyhow::anyhow!("cannot read the import log: {e}"))?
        .into_iter()
        .map(|e| (e.id, e))
        .collect())
}

fn bounds(from: Option<&str>, to: Option<&str>) -> Result<(Date, Date)> {
    Ok((
        parse_day(from, "--from")?.unwrap_or(NaiveDate::MIN),
        parse_day(to, "--to")?.unwrap_or(NaiveDate::MAX),
    ))
}

fn provenance(log: Option<&use_cases::ports::ImportLogEntry>) -> (String, String, String, String) {
    match log {
        Some(entry) => (
            entry.log.format.clone(),
            entry.log.layout.clone().unwrap_or_default(),
            entry.log.imported_at.to_string(),
            entry.log.file_name.clone(),
        ),
        None => Default::default(),
    }
}

pub(crate) fn run_prices_list(
    ledger: Option<&Path>,
    json: bool,
    args: &PricesListArgs,
) -> Result<Outcome> {
    let (from, to) = bounds(args.from.as_deref(), args.to.as_deref())?;
    let assets: Vec<Asset> = args
        .asset
        .iter()
        .map(|a| parse_asset(a))
        .collect::<Result<_>>()?;
    let (_, store) = open_existing(ledger)?;
    let logs = sources(&store)?;
    let rows = store
        .price_sources((!assets.is_empty()).then_some(assets.as_slice()), from, to)
        .map_err(|e| anyhow::anyhow!("cannot read the stored closes: {e}"))?;
    let mut table = Table::new(&[
        ("date", Align::Left),
        ("asset", Align::Left),
        ("close", Align::Right),
        ("currency", Align::Left),
        ("provider", Align::Left),
        ("market", Align::Left),
        ("fetched or imported at", Align::Left),
    ]);
    let mut items = Vec::with_capacity(rows.len());
    for source in &rows {
        let (provider, market, at, file) = provenance(logs.get(&source.import_id));
        let close = decimal_text(source.row.close);
        if json {
            items.push(json!({
                "date": source.row.date.to_string(),
                "asset": source.row.asset.as_str(),
                "close": close,
                "currency": source.row.currency.as_str(),
                "provider": provider,
                "market": if market.is_empty() { Value::Null } else { Value::from(market) },
                "fetchedAt": at,
                "source": file,
            }));
        } else {
            table.row([
                source.row.date.to_string(),
                source.row.asset.as_str().to_owned(),
                close,
                source.row.currency.as_str().to_owned(),
                provider,
                if market.is_empty() {
                    "-".to_owned()
                } else {
                    market
                },
                at,
            ]);
        }
    }
    print_listing(json, "prices", items, &table, "no stored closes match")
}

pub(crate) fn run_rates_list(
    ledger: Option<&Path>,
    json: bool,
    args: &RatesListArgs,
) -> Result<Outcome> {
    let (from, to) = bounds(args.from.as_deref(), args.to.as_deref())?;
    let currency = args.currency.as_deref().map(parse_asset).transpose()?;
    let (_, store) = open_existing(ledger)?;
    let logs = sources(&store)?;
    let rows = store
        .rate_sources(currency, from, to)
        .map_err(|e| anyhow::anyhow!("cannot read the stored rates: {e}"))?;
    let mut table = Table::new(&[
        ("date", Align::Left),
        ("currency", Align::Left),
        ("rate", Align::Right),
        ("source", Align::Left),
        ("fetched or imported at", Align::Left),
    ]);
    let mut items = Vec::with_capacity(rows.len());
    for source in &rows {
        let (format, layout, at, file) = provenance(logs.get(&source.import_id));
        let origin = if layout.is_empty() {
            format.clone()
        } else {
            format!("{format} {layout}")
        };
        if json {
            items.push(json!({
                "date": source.row.date.to_string(),
                "currency": source.row.currency.as_str(),
                "rate": decimal_text(source.row.rate),
                "provider": format,
                "source": file,
                "fetchedAt": at,
            }));
        } else {
            table.row([
                source.row.date.to_string(),
                source.row.currency.as_str().to_owned(),
                decimal_text(source.row.rate),
                origin,
                at,
            ]);
        }
    }
    print_listing(json, "rates", items, &table, "no stored rates match")
}

/// A listing's end: `{"<key>": items}` with `--json`, else the table, or `empty` when it has no
/// row.
fn print_listing(
    json: bool,
    key: &str,
    items: Vec<Value>,
    table: &Table,
    empty: &str,
) -> Result<Outcome> {
    if json {
        let document =
            Value::Object(std::iter::once((key.to_owned(), Value::Array(items))).collect());
        outln!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else if table.is_empty() {
        outln!("{empty}");
    } else {
        outln!("{}", table.render());
    }
    Ok(Outcome::Success)
}

/// A decimal as stored (scale kept), never with an exponent.
fn decimal_text(value: Decimal) -> String {
    value.to_string()
}
