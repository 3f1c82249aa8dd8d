//! The read commands: `portfolio`, `tax`, `tax compare`, `integrity`, `lots`, `tx` and
//! `holdings-at`. Each asks one use case for its DTO and prints it as aligned tables, or as
//! one JSON document with `--json` (the DTO itself).

use crate::output::{diag, out, outln};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use core_domain::Date;
use ledger_sqlite::SqliteLedger;
use serde::Serialize;
use shared_types::SpotTxType;
use shared_types::dto::{
    AccountHoldingsResult, AccountSection, CompletenessDto, CustodianDto, FeeDto, FiscalIntegrity,
    HoldingsAtDto, Metrics, MissingDataNotice, PortfolioSummary, TaxCsvFiles, TaxReport,
    TaxSummary, TaxYearComparison, TokenHistory, TxPage, UnvaluedHolding, ValuedHolding,
    YearEndHoldingsDto,
};
use use_cases::UseCaseResult;
use use_cases::ports::Clock;
use use_cases::queries::{
    AccountHoldingsRequest, CompareTaxYearsRequest, CurrencyRequest, DisplayCurrency,
    HoldingsAtRequest, LedgerQueries, ReadUseCases, TaxReportRequest, TokenHistoryRequest,
    TxSearchRequest,
};

use crate::i18n::{es, num, num_opt, t};
use crate::session::{CliClock, explain, fail, open_existing};
use crate::table::{Align, Table, opt, pairs, unit_price};
use crate::{Outcome, UsageError};

/// Rows per page of `cartera tx` and lots per page of `cartera lots`.
const PAGE_SIZE: usize = 50;

#[derive(Debug, Args)]
pub(crate) struct PortfolioArgs {
    /// Currency of the figures (default: the display_currency setting, else EUR).
    #[arg(long, value_parser = ["EUR", "USD"])]
    currency: Option<String>,
    /// Only the holdings of this account and its sub-accounts (custody quantities).
    #[arg(long, value_name = "NAME")]
    account: Option<String>,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct TaxArgs {
    #[command(subcommand)]
    compare: Option<TaxCommand>,
    /// The fiscal year, or several: `2022..2024` (every year and the carry-forward chain).
    #[arg(value_name = "YEAR", required = true, value_parser = crate::tax_years::parse_span)]
    year: Option<crate::tax_years::YearSpan>,
    /// Also write `modelo100_<YEAR>.csv` and `annex_<YEAR>.csv` into DIR.
    #[arg(long, value_name = "DIR")]
    csv: Option<PathBuf>,
    /// CSV dialect: rfc4180 (default: `,` and `.`) or excel-es (`;`, decimal commas, UTF-8
    /// with a BOM: what a Spanish Excel opens).
    #[arg(long, value_name = "DIALECT", default_value = "rfc4180", value_parser = ["rfc4180", "excel-es"])]
    csv_dialect: String,
    /// Write the year's report as one self-contained HTML file (charts inline, prints on A4).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Write the Modelo 721 worksheet (31 December, foreign custodians) to FILE (.csv or .json).
    #[arg(long, value_name = "FILE")]
    modelo721: Option<PathBuf>,
    /// Write the Modelo 714 apartado Q worksheet to FILE (.csv or .json).
    #[arg(long, value_name = "FILE")]
    modelo714: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum TaxCommand {
    /// Two years side by side: the sixteen summary fields and their deltas (B − A).
    #[command(after_help = "Example:\n  cartera tax compare 2023 2024")]
    Compare {
        /// First year.
        #[arg(value_name = "YEAR_A")]
        year_a: i32,
        /// Second year (deltas are YEAR_B − YEAR_A).
        #[arg(value_name = "YEAR_B")]
        year_b: i32,
    },
}

#[derive(Debug, Args)]
pub(crate) struct IntegrityArgs {
    /// List the rows of this quality flag (MISSING_PRICE, MISSING_ACQUISITION, …).
    #[arg(long, value_name = "FLAG")]
    flag: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct LotsArgs {
    /// The asset symbol (case-insensitive).
    #[arg(value_name = "SYMBOL")]
    symbol: String,
    /// Page of lots, newest first (from 1).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    page: u32,
}

#[derive(Debug, Args)]
pub(crate) struct TxArgs {
    /// Either side of the transaction is this asset.
    #[arg(long, value_name = "S")]
    symbol: Option<String>,
    /// From this fiscal date (YYYY-MM-DD, inclusive).
    #[arg(long, value_name = "D", value_parser = parse_date)]
    from: Option<Date>,
    /// To this fiscal date (YYYY-MM-DD, inclusive).
    #[arg(long, value_name = "D", value_parser = parse_date)]
    to: Option<Date>,
    /// Only this transaction type (repeatable): BUY, SELL, SWAP, STAKING, TRANSFER_IN, …
    #[arg(long = "type", value_name = "T")]
    types: Vec<String>,
    /// Page (from 1), newest first.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    page: u32,
    /// Show the row keys that `cartera edit`, `link` and `unlink` take.
    #[arg(long)]
    keys: bool,
}

#[derive(Debug, Args)]
pub(crate) struct HoldingsAtArgs {
    /// The fiscal date (YYYY-MM-DD); a 31 December adds the Modelo 721 / 714 figures.
    #[arg(value_name = "DATE", value_parser = parse_date)]
    date: Date,
}

/// A `YYYY-MM-DD` date argument.
pub(crate) fn parse_date(text: &str) -> Result<Date, String> {
    Date::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| format!("\"{text}\" is not a date: write it as YYYY-MM-DD (2024-12-31)"))
}

/// The store and its use cases, for one command.
/// Where a row was read from, in words (`kraken.csv line 12`), when the ledger knows it.
pub(crate) type RowSource<'a> = &'a dyn Fn(&str) -> Option<String>;

pub(crate) struct Session {
    pub(crate) path: PathBuf,
    pub(crate) queries: LedgerQueries<SqliteLedger>,
    facts: std::cell::OnceCell<LedgerFacts>,
    clock: CliClock,
}

/// What the error messages need to know about the ledger.
#[derive(Debug, Default)]
struct LedgerFacts {
    /// Fiscal years holding a row.
    years: BTreeSet<i32>,
    /// Every asset symbol a row names (fiat included).
    assets: BTreeSet<String>,
}

impl Session {
    pub(crate) fn open(explicit: Option<&Path>) -> Result<Self> {
        Self::open_with_clock(explicit, CliClock::from_env()?)
    }

    pub(crate) fn open_with_clock(explicit: Option<&Path>, clock: CliClock) -> Result<Self> {
        let (path, store) = open_existing(explicit)?;
        let queries = LedgerQueries::new(store, clock);
        Ok(Self {
            path,
            queries,
            facts: std::cell::OnceCell::new(),
            clock,
        })
    }

    /// Fails (exit 1) when the ledger holds no transaction.
    fn require_rows(&self) -> Result<()> {
        if self.years()?.is_empty() {
            return fail(format!(
                "the ledger {} holds no transactions: import exports with `cartera import FILE…` \
                 (or try `cartera demo`)",
                self.path.display()
            ));
        }
        Ok(())
    }

    /// The fiscal years that hold a spot or futures row, in order.
    pub(crate) fn years(&self) -> Result<BTreeSet<i32>> {
        Ok(self.facts()?.years.clone())
    }

    /// Years and assets of the ledger, read once per command.
    fn facts(&self) -> Result<&LedgerFacts> {
        if let Some(facts) = self.facts.get() {
            return Ok(facts);
        }
        // The use case answers from its cached derived state: no second read of the rows.
        let overview = self.queries.get_ledger_overview()?;
        let facts = LedgerFacts {
            years: overview.years.into_iter().collect(),
            assets: overview.assets.into_iter().collect(),
        };
        Ok(self.facts.get_or_init(|| facts))
    }

    /// Fails (exit 1) when no row of the ledger names `symbol`; returns it upper-cased.
    fn require_symbol(&self, symbol: &str, crypto_only: bool) -> Result<String> {
        let upper = symbol.trim().to_ascii_uppercase();
        let facts = self.facts()?;
        if crypto_only && shared_types::is_fiat_code(&upper) {
            return fail(format!(
                "{upper} is a fiat currency: FIFO lots are kept for crypto assets only"
            ));
        }
        if !facts.assets.contains(&upper) {
            let known: Vec<&str> = facts
                .assets
                .iter()
                .filter(|a| !shared_types::is_fiat_code(a))
                .map(String::as_str)
                .collect();
            return fail(format!(
                "unknown symbol {upper}: no transaction of the ledger moves it; the ledger's \
                 crypto assets are {}",
                known.join(", ")
            ));
        }
        Ok(upper)
    }

    /// Fails (exit 1) when `year` is outside the years the ledger covers.
    /// The rule is the use cases' (`check_year_covered`), so the tools say the same.
    pub(crate) fn require_year(&self, year: i32) -> Result<()> {
        let years = self.years()?;
        if years.is_empty() {
            return self.require_rows();
        }
        let current = year_of(self.clock.now().utc_date());
        answer(use_cases::queries::check_year_covered(
            &years, year, current,
        ))
    }
}

fn year_of(date: Date) -> i32 {
    use chrono::Datelike as _;
    date.year()
}

/// Unwraps a use-case answer; an error is an exit-1 failure with its message.
pub(crate) fn answer<T>(result: UseCaseResult<T>) -> Result<T> {
    result.or_else(|error| fail(explain(&error)))
}

pub(crate) fn print_json<T: Serialize>(value: &T) -> Result<Outcome> {
    use std::io::Write as _;
    // Streamed into a buffered stdout: a year of a million-row ledger is a 100 MB document,
    // which need not exist as one string first.
    let mut out = crate::output::Stdout::buffered();
    let written = serde_json::to_writer_pretty(&mut out, value);
    if let Some(failure) = out.failure() {
        return Err(failure.into());
    }
    written.context("cannot serialise the answer")?;
    if let Err(error) = out.write_all(b"\n") {
        return Err(crate::output::OutputError(error).into());
    }
    out.finish()?;
    Ok(Outcome::Success)
}

// ---------------------------------------------------------------------------------------------
// portfolio
// ---------------------------------------------------------------------------------------------

pub(crate) fn run_portfolio(
    ledger: Option<&Path>,
    json: bool,
    args: &PortfolioArgs,
) -> Result<Outcome> {
    let session = Session::open(ledger)?;
    session.require_rows()?;
    let currency = args.currency.as_deref().map(|c| {
        if c == "USD" {
            DisplayCurrency::Usd
        } else {
            DisplayCurrency::Eur
        }
    });
    if let Some(name) = &args.account {
        let result = answer(
            session
                .queries
                .get_account_holdings(&AccountHoldingsRequest {
                    account_name: name.clone(),
                    currency,
                }),
        )?;
        return match result {
            AccountHoldingsResult::Resolved { .. } if json => print_json(&result),
            AccountHoldingsResult::Resolved {
                account_name,
                sections,
                empty_account_count,
                missing,
            } => {
                out!(
                    "{}",
                    render_account_holdings(
                        &account_name,
                        &sections,
                        empty_account_count,
                        &missing
                    )
                );
                Ok(Outcome::Success)
            }
            AccountHoldingsResult::Ambiguous { candidates } => fail(format!(
                "several accounts start with \"{name}\": {}; give the full name",
                candidates.join(", ")
            )),
            AccountHoldingsResult::NotFound { available } => fail(format!(
                "no account is named \"{name}\"; accounts: {} (see `cartera accounts`)",
                available.join(", ")
            )),
        };
    }
    let summary = answer(
        session
            .queries
            .get_portfolio_summary(&CurrencyRequest { currency }),
    )?;
    if json {
        return print_json(&summary);
    }
    out!("{}", render_portfolio(&summary));
    Ok(Outcome::Success)
}

fn valued_table(holdings: &[ValuedHolding], currency: &str, with_locations: bool) -> String {
    let avg = format!("{} {currency}", t("avg cost", "coste medio"));
    let cost = format!("{} {currency}", t("cost basis", "coste"));
    let price = format!("{} {currency}", t("price", "precio"));
    let value = format!("{} {currency}", t("value", "valor"));
    let pnl = format!("{} {currency}", t("unrealized", "latente"));
    let mut columns = vec![
        (t("asset", "activo"), Align::Left),
        (t("quantity", "cantidad"), Align::Right),
        (avg.as_str(), Align::Right),
        (cost.as_str(), Align::Right),
        (price.as_str(), Align::Right),
        (value.as_str(), Align::Right),
        (pnl.as_str(), Align::Right),
        (t("allocation %", "peso %"), Align::Right),
    ];
    if with_locations {
        columns.push((t("held at", "custodia"), Align::Left));
    }
    let mut table = Table::new(&columns);
    for h in holdings {
        let mut cells = vec![
            h.symbol.clone(),
            h.amount.clone(),
            unit_price(&h.avg_price_fiat),
            h.cost_basis_fiat.clone(),
            unit_price(&h.current_price_fiat),
            h.current_value_fiat.clone(),
            h.unrealized_pnl_fiat.clone(),
            h.allocation_pct.clone(),
        ];
        if with_locations {
            cells.push(h.locations.join(", "));
        }
        table.row(cells);
    }
    table.render()
}

fn unvalued_table(holdings: &[UnvaluedHolding], currency: &str, with_locations: bool) -> String {
    let cost = format!("cost basis {currency}");
    let mut columns = vec![
        (t("asset", "activo"), Align::Left),
        (t("quantity", "cantidad"), Align::Right),
        (cost.as_str(), Align::Right),
        (t("reason", "motivo"), Align::Left),
    ];
    if with_locations {
        columns.push((t("held at", "custodia"), Align::Left));
    }
    let mut table = Table::new(&columns);
    for h in holdings {
        let mut cells = vec![
            h.symbol.clone(),
            h.amount.clone(),
            opt(h.cost_basis_fiat.as_ref()),
            unvalued_reason(&h.reason).to_owned(),
        ];
        if with_locations {
            cells.push(h.locations.join(", "));
        }
        table.row(cells);
    }
    table.render()
}

fn unvalued_reason(reason: &str) -> &str {
    match reason {
        "no_price" => t("no price", "sin precio"),
        "no_rate" => t("no ECB rate", "sin tipo del BCE"),
        other => other,
    }
}

fn metrics_block(metrics: &Metrics, with_realized: bool) -> String {
    let c = &metrics.currency;
    let mut rows = vec![
        (
            t("equity", "patrimonio"),
            format!("{} {c}", crate::i18n::num(&metrics.total_equity_fiat)),
        ),
        (
            t("cost basis", "coste"),
            format!("{} {c}", crate::i18n::num(&metrics.total_cost_basis_fiat)),
        ),
        (
            t("unrealized PnL", "resultado latente"),
            format!(
                "{} {c}",
                crate::i18n::num(&metrics.total_unrealized_pnl_fiat)
            ),
        ),
    ];
    if with_realized {
        rows.push((
            t("realized PnL", "resultado realizado"),
            format!("{} {c}", crate::i18n::num(&metrics.total_realized_pnl_fiat)),
        ));
        rows.push((
            t("total PnL", "resultado total"),
            format!("{} {c}", crate::i18n::num(&metrics.total_pnl_fiat)),
        ));
    }
    pairs(&rows)
}

fn completeness_notes(metrics: &Metrics) -> String {
    let mut out = String::new();
    if metrics.prices_incomplete {
        out.push_str(
            "warning: prices are incomplete on this date: holdings without a stored price are \
             left out of the totals (never counted as zero); run `cartera prices import FILE…`\n",
        );
    }
    if metrics.rates_incomplete {
        out.push_str(
            "warning: a conversion needs an ECB rate that is not stored: the figures it feeds are \
             left out; run `cartera rates import eurofxref-hist.zip`\n",
        );
    }
    out
}

pub(crate) fn render_portfolio(summary: &PortfolioSummary) -> String {
    let currency = &summary.metrics.currency;
    let mut out = format!(
        "{} {} ({currency})\n\n",
        t("Portfolio on", "Cartera a"),
        summary.as_of
    );
    if summary.valued.is_empty() && summary.unvalued.is_empty() {
        out.push_str(t(
            "No holdings: every asset bought has been sold or spent.\n\n",
            "Sin posiciones: todo lo comprado se ha vendido o gastado.\n\n",
        ));
    }
    if !summary.valued.is_empty() {
        out.push_str(t("Valued holdings\n", "Posiciones valoradas\n"));
        out.push_str(&valued_table(&summary.valued, currency, true));
        out.push('\n');
    }
    if !summary.unvalued.is_empty() {
        out.push_str(t(
            "Unvalued holdings (not in the totals; never counted as zero)\n",
            "Posiciones sin valorar (fuera de los totales; nunca cuentan como cero)\n",
        ));
        out.push_str(&unvalued_table(&summary.unvalued, currency, true));
        out.push('\n');
    }
    out.push_str(t(
        "Totals (valued holdings)\n",
        "Totales (posiciones valoradas)\n",
    ));
    out.push_str(&metrics_block(&summary.metrics, true));
    if summary.missing.is_empty() {
        out.push_str(&completeness_notes(&summary.metrics));
    }
    for notice in &summary.missing {
        let _ = writeln!(out, "warning: {}: {}", notice.what, notice.hint);
    }
    out
}

fn render_account_holdings(
    name: &str,
    sections: &[AccountSection],
    empty: u64,
    missing: &[MissingDataNotice],
) -> String {
    let mut out = format!("Holdings of {name} and its sub-accounts (custody quantities)\n");
    if sections.is_empty() {
        out.push_str("\nNothing is held there now.\n");
    }
    for section in sections {
        let currency = &section.metrics.currency;
        let _ = writeln!(out, "\n{} ({currency})", section.account_name);
        if !section.ranked.is_empty() {
            out.push_str(&valued_table(&section.ranked, currency, false));
        }
        if !section.unvalued.is_empty() {
            out.push_str("Unvalued (not in the totals)\n");
            out.push_str(&unvalued_table(&section.unvalued, currency, false));
        }
        out.push_str(&metrics_block(&section.metrics, false));
        if missing.is_empty() {
            out.push_str(&completeness_notes(&section.metrics));
        }
    }
    if empty > 0 {
        let _ = writeln!(out, "\n{empty} more account(s) of the tree hold nothing.");
    }
    // The portfolio's notices, for the assets of this tree: one valuation policy (D-91).
    if !missing.is_empty() {
        out.push('\n');
    }
    for notice in missing {
        let _ = writeln!(out, "warning: {}: {}", notice.what, notice.hint);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// tax, tax compare
// ---------------------------------------------------------------------------------------------

pub(crate) fn run_tax(ledger: Option<&Path>, json: bool, args: &TaxArgs) -> Result<Outcome> {
    if let Some(TaxCommand::Compare { year_a, year_b }) = args.compare {
        return run_compare(ledger, json, year_a, year_b);
    }
    let Some(span) = args.year else {
        return Err(UsageError {
            code: "missing-year",
            reason: "give the fiscal year: `cartera tax 2024`".to_owned(),
        }
        .into());
    };
    let sheets = [
        (args.modelo721.as_deref(), "--modelo721"),
        (args.modelo714.as_deref(), "--modelo714"),
    ];
    let mut kinds = Vec::new();
    for (path, option) in sheets {
        if let Some(path) = path {
            kinds.push((path, crate::worksheets::kind_of(path, option)?));
        }
    }
    if span.first != span.last {
        if !kinds.is_empty() || args.html.is_some() {
            return Err(UsageError {
                code: "worksheet-one-year",
                reason: "--html, --modelo721 and --modelo714 take one year: `cartera tax 2024 --modelo721 \
                         m721.csv`"
                    .to_owned(),
            }
            .into());
        }
        return crate::tax_years::run(
            ledger,
            json,
            span,
            args.csv.as_deref(),
            args.csv_dialect == "excel-es",
        );
    }
    let year = span.first;
    let session = Session::open(ledger)?;
    session.require_year(year)?;
    let report = tax_report(&session, year)?;
    if let Some(dir) = &args.csv {
        let files = answer(session.queries.get_tax_report_csv(&TaxReportRequest {
            year,
            with_year_end_holdings: false,
        }))?;
        write_csv(dir, &files, args.csv_dialect == "excel-es")?;
    }
    let worksheets = if kinds.is_empty() && args.html.is_none() {
        None
    } else {
        let w = answer(session.queries.get_modelo_worksheets(year))?;
        if let Some(path) = args.modelo721.as_deref() {
            let kind = crate::worksheets::kind_of(path, "--modelo721")?;
            crate::worksheets::write_file(path, kind, &w.modelo721, crate::worksheets::csv_721)?;
        }
        if let Some(path) = args.modelo714.as_deref() {
            let kind = crate::worksheets::kind_of(path, "--modelo714")?;
            crate::worksheets::write_file(path, kind, &w.modelo714, crate::worksheets::csv_714)?;
        }
        Some(w)
    };
    if let (Some(path), Some(w)) = (args.html.as_deref(), &worksheets) {
        let series = year_series(&session, year)?;
        let page = crate::html::render(&crate::html::HtmlInput {
            report: &report,
            worksheets: w,
            series: &series,
        });
        crate::worksheets::write_whole(path, page.as_bytes())?;
        diag!("wrote {}", path.display());
    }
    if json {
        print_json(&*report)?;
    } else {
        let mut text = render_tax(&report, &|key| session.queries.row_source(key));
        if let Some(w) = &worksheets {
            text.push_str(&crate::worksheets::render(w));
        }
        out!("{text}");
    }
    // The process exits next: the OS reclaims the ledger's derived state at once.
    session.queries.leave_state_to_exit();
    Ok(Outcome::Success)
}

/// The portfolio's daily EUR value over `year` (up to today for the current year).
fn year_series(session: &Session, year: i32) -> Result<Vec<shared_types::dto::PerformancePoint>> {
    use chrono::Datelike as _;
    let today = session.clock.now().utc_date();
    let Some(first) = Date::from_ymd_opt(year, 1, 1) else {
        return Ok(Vec::new());
    };
    if today < first {
        return Ok(Vec::new());
    }
    let days = u32::try_from((today - first).num_days() + 1).unwrap_or(u32::MAX);
    let history = answer(session.queries.get_performance_history(
        &use_cases::queries::SeriesRequest {
            days,
            currency: Some(use_cases::queries::DisplayCurrency::Eur),
            max_points: None,
        },
    ))?;
    Ok(history
        .points
        .into_iter()
        .filter(|p| p.date.get(..4) == Some(year.to_string().as_str()) && today.year() >= year)
        .collect())
}

/// The year's report as the use cases keep it for this ledger version (shared, not copied: a
/// large ledger's report holds its whole audit trail).
pub(crate) fn tax_report(session: &Session, year: i32) -> Result<Arc<TaxReport>> {
    answer(
        session
            .queries
            .get_spanish_tax_report_shared(&TaxReportRequest {
                year,
                with_year_end_holdings: false,
            }),
    )
}

fn run_compare(ledger: Option<&Path>, json: bool, year_a: i32, year_b: i32) -> Result<Outcome> {
    if year_a == year_b {
        return Err(UsageError {
            code: "same-year",
            reason: format!("compare two different years (both are {year_a})"),
        }
        .into());
    }
    let session = Session::open(ledger)?;
    session.require_year(year_a)?;
    session.require_year(year_b)?;
    let comparison = answer(
        session
            .queries
            .compare_tax_years(&CompareTaxYearsRequest { year_a, year_b }),
    )?;
    if json {
        return print_json(&comparison);
    }
    out!("{}", render_compare(&comparison));
    Ok(Outcome::Success)
}

/// The sixteen summary fields with their labels, in `irpf.md` §7.1 order.
pub(crate) fn summary_fields(summary: &TaxSummary) -> [(&'static str, Option<&String>); 16] {
    let mut values = summary.values().into_iter();
    [
        t("capital gains", "ganancias patrimoniales"),
        t("capital losses", "pérdidas patrimoniales"),
        t(
            "savings base yields (staking, lending)",
            "rendimientos del ahorro (staking, préstamos)",
        ),
        t("general base airdrops", "airdrops (base general)"),
        t("net patrimonial result", "resultado patrimonial neto"),
        t("estimated IRPF", "IRPF estimado"),
        t(
            "savings transmission balance",
            "saldo de transmisiones (ahorro)",
        ),
        t(
            "general short-term balance",
            "saldo a corto plazo (base general)",
        ),
        t(
            "current-year cross-compensation",
            "compensación cruzada del ejercicio",
        ),
        t("carry-forward used", "pérdidas anteriores aplicadas"),
        t(
            "savings base after compensation",
            "base del ahorro tras compensar",
        ),
        t(
            "general gains after compensation",
            "ganancias generales tras compensar",
        ),
        t("carry-forward generated", "pérdidas generadas a compensar"),
        t("carry-forward remaining", "pérdidas pendientes"),
        t("carry-forward expired", "pérdidas caducadas"),
        t(
            "economic activity income",
            "ingresos de actividad económica",
        ),
    ]
    .map(|label| (label, values.next().flatten()))
}

fn completeness_text(status: &CompletenessDto) -> String {
    match status {
        CompletenessDto::Complete => t("COMPLETE", "COMPLETO").to_owned(),
        CompletenessDto::Incomplete { reasons } => {
            format!("{} ({})", t("INCOMPLETE", "INCOMPLETO"), reasons.join(", "))
        }
    }
}

/// The year report as text.
pub(crate) fn render_tax(report: &TaxReport, source: RowSource<'_>) -> String {
    render_tax_with(report, true, source)
}

/// [`render_tax`], with or without the one-line-per-slice disposal list (a run of several years
/// leaves it to `cartera tax YEAR`, `--csv` and `--html`).
#[allow(
    clippy::too_many_lines,
    reason = "one section after another, in the order of the year report"
)]
pub(crate) fn render_tax_with(
    report: &TaxReport,
    with_disposals: bool,
    source: RowSource<'_>,
) -> String {
    let mut out = format!(
        "IRPF {} ({}, {}): {}\n\n",
        report.year,
        report.currency,
        report.method,
        completeness_text(&report.completeness.status)
    );
    out.push_str(t("Summary (EUR)\n", "Resumen (EUR)\n"));
    let rows: Vec<(&str, String)> = summary_fields(&report.summary)
        .into_iter()
        .map(|(label, value)| {
            (
                label,
                value.cloned().unwrap_or_else(|| {
                    t(
                        "- (no savings scale for the year)",
                        "- (sin escala del ahorro para el ejercicio)",
                    )
                    .to_owned()
                }),
            )
        })
        .collect();
    out.push_str(&pairs(&rows));

    let bases = &report.bases;
    if !bases.brackets.is_empty() {
        out.push_str(t("\nSavings scale\n", "\nEscala del ahorro\n"));
        let mut table = Table::new(&[
            (t("from EUR", "desde EUR"), Align::Right),
            (t("to EUR", "hasta EUR"), Align::Right),
            (t("rate", "tipo"), Align::Right),
            (t("taxed EUR", "gravado EUR"), Align::Right),
            (t("tax EUR", "cuota EUR"), Align::Right),
        ]);
        for b in &bases.brackets {
            table.row([
                b.lower.clone(),
                b.upper
                    .clone()
                    .unwrap_or_else(|| t("and above", "en adelante").to_owned()),
                b.rate.clone(),
                b.taxed_amount.clone(),
                b.tax.clone(),
            ]);
        }
        out.push_str(&table.render());
    }

    let carry = &report.carry_forward;
    if !carry.used.is_empty() {
        out.push_str(t(
            "\nCarry-forward used\n",
            "\nPérdidas anteriores aplicadas\n",
        ));
        let mut table = Table::new(&[
            (t("origin year", "año de origen"), Align::Right),
            (t("kind", "tipo"), Align::Left),
            (t("source", "fuente"), Align::Left),
            (t("nature", "naturaleza"), Align::Left),
            (t("amount EUR", "importe EUR"), Align::Right),
        ]);
        for u in &carry.used {
            table.row([
                u.origin_year.to_string(),
                u.kind.clone(),
                u.source.clone(),
                u.nature.clone(),
                u.amount.clone(),
            ]);
        }
        out.push_str(&table.render());
    }
    for (title, items) in [
        (
            t("Carry-forward generated", "Pérdidas generadas"),
            &carry.generated,
        ),
        (
            t("Carry-forward expired", "Pérdidas caducadas"),
            &carry.expired,
        ),
    ] {
        if items.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{title}");
        let mut table = Table::new(&[
            (t("origin year", "año de origen"), Align::Right),
            (t("kind", "tipo"), Align::Left),
            (t("amount EUR", "importe EUR"), Align::Right),
        ]);
        for item in items {
            table.row([
                item.origin_year.to_string(),
                item.kind.clone(),
                item.amount.clone(),
            ]);
        }
        out.push_str(&table.render());
    }
    if !carry.remaining.is_empty() {
        out.push_str(t("\nCarry-forward remaining\n", "\nPérdidas pendientes\n"));
        let mut table = Table::new(&[
            (t("origin year", "año de origen"), Align::Right),
            (t("kind", "tipo"), Align::Left),
            (t("source", "fuente"), Align::Left),
            (t("remaining EUR", "pendiente EUR"), Align::Right),
            (t("last usable year", "último año"), Align::Right),
        ]);
        for r in &carry.remaining {
            table.row([
                r.origin_year.to_string(),
                r.kind.clone(),
                r.source.clone(),
                r.remaining.clone(),
                r.last_usable_year.to_string(),
            ]);
        }
        out.push_str(&table.render());
    }

    let modelo = &report.modelo100;
    out.push_str(if modelo.boxes {
        t("\nModelo 100: virtual currency transmissions (EUR)\n", "\nModelo 100: transmisiones de monedas virtuales (EUR)\n")
    } else {
        t("\nModelo 100: transmissions, block of other patrimonial elements (EUR; no box numbers before 2022)\n", "\nModelo 100: transmisiones, bloque de otros elementos patrimoniales (EUR; sin casillas antes de 2022)\n")
    });
    if modelo.rows.is_empty() {
        out.push_str(t(
            " No transmission in the year.\n",
            " Ninguna transmisión en el ejercicio.\n",
        ));
    } else {
        let mut table = Table::new(&[
            ("base", Align::Left),
            (t("1802 asset", "1802 activo"), Align::Left),
            ("1803 clave", Align::Left),
            (
                t("1804 transmission EUR", "1804 transmisión EUR"),
                Align::Right,
            ),
            (
                t("1806 acquisition EUR", "1806 adquisición EUR"),
                Align::Right,
            ),
            (t("1807 loss EUR", "1807 pérdida EUR"), Align::Right),
            (t("1809 gain EUR", "1809 ganancia EUR"), Align::Right),
            (t("slices", "tramos"), Align::Right),
            (t("operations", "operaciones"), Align::Right),
        ]);
        for r in &modelo.rows {
            table.row([
                r.base.clone(),
                r.asset.clone(),
                r.clave.clone(),
                r.transmission_value.clone(),
                r.acquisition_value.clone(),
                opt(r.loss.as_ref()),
                opt(r.gain.as_ref()),
                r.slice_count.to_string(),
                r.operation_count.to_string(),
            ]);
        }
        let t = &modelo.totals;
        table.row([
            "TOTAL".to_owned(),
            String::new(),
            String::new(),
            t.total_transmission_value.clone(),
            t.total_acquisition_value.clone(),
            t.total_losses.clone(),
            t.total_gains.clone(),
            t.slice_count.to_string(),
            t.operation_count.to_string(),
        ]);
        out.push_str(&table.render());
    }
    for (title, block) in [
        (
            t(
                "Capital income (RCM: staking, lending, interest)",
                "Rendimientos del capital mobiliario (staking, préstamos, intereses)",
            ),
            &modelo.capital_income,
        ),
        (
            t(
                "General-base gains (airdrops, promotions)",
                "Ganancias de la base general (airdrops, promociones)",
            ),
            &modelo.general_gains,
        ),
        (
            t(
                "Economic activity (mining; reported, not taxed)",
                "Actividad económica (minería; se informa, no se tributa)",
            ),
            &modelo.economic_activity,
        ),
    ] {
        if block.per_asset.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{title}: {} EUR", block.total);
        let mut table = Table::new(&[
            (t("asset", "activo"), Align::Left),
            (t("quantity", "cantidad"), Align::Right),
            (t("value EUR", "valor EUR"), Align::Right),
        ]);
        for a in &block.per_asset {
            table.row([a.asset.clone(), a.quantity.clone(), a.value.clone()]);
        }
        out.push_str(&table.render());
    }
    if !modelo.derivatives.is_empty() {
        out.push_str(t("\nDerivatives (EUR)\n", "\nDerivados (EUR)\n"));
        let mut table = Table::new(&[
            (t("contract", "contrato"), Align::Left),
            (t("settled in", "liquidado en"), Align::Left),
            (t("gains EUR", "ganancias EUR"), Align::Right),
            (t("losses EUR", "pérdidas EUR"), Align::Right),
            (t("net EUR", "neto EUR"), Align::Right),
            (t("rows", "filas"), Align::Right),
        ]);
        for d in &modelo.derivatives {
            table.row([
                d.contract.clone(),
                d.settlement_asset.clone(),
                d.gains.clone(),
                d.losses.clone(),
                d.net.clone(),
                d.rows.to_string(),
            ]);
        }
        out.push_str(&table.render());
    }

    if with_disposals && !report.audit_trail.is_empty() {
        out.push_str(t(
            "\nDisposals (one line per FIFO slice; full detail in `--csv`)\n",
            "\nTransmisiones (una línea por tramo FIFO; detalle completo en `--csv`)\n",
        ));
        let mut table = Table::new(&[
            (t("date", "fecha"), Align::Left),
            (t("type", "tipo"), Align::Left),
            (t("leg", "pata"), Align::Left),
            (t("asset", "activo"), Align::Left),
            (t("quantity", "cantidad"), Align::Right),
            (t("acquired", "adquirido"), Align::Left),
            (t("transmission EUR", "transmisión EUR"), Align::Right),
            (t("acquisition EUR", "adquisición EUR"), Align::Right),
            (t("result EUR", "resultado EUR"), Align::Right),
            (t("included", "incluido"), Align::Left),
        ]);
        for s in &report.audit_trail {
            table.row([
                s.disposed_on.clone(),
                s.operation_type.clone(),
                s.leg.clone(),
                s.asset.clone(),
                s.quantity.clone(),
                opt(s.acquired_on.as_ref()),
                opt(s.transmission_value.as_ref()),
                opt(s.acquisition_value.as_ref()),
                opt(s.result.as_ref()),
                if s.included {
                    t("yes", "sí").to_owned()
                } else {
                    format!("no: {}", s.quality_flags.join(", "))
                },
            ]);
        }
        out.push_str(&table.render());
    }

    let completeness = &report.completeness;
    if completeness.status != CompletenessDto::Complete {
        out.push_str(t(
            "\nIncomplete: these items are left out of the figures, never guessed\n",
            "\nIncompleto: estas partidas quedan fuera de las cifras, nunca se estiman\n",
        ));
        out.push_str(&pairs(&[
            (
                t(
                    "unconvertible (no ECB rate)",
                    "sin conversión (sin tipo del BCE)",
                ),
                completeness.unconvertible_count.to_string(),
            ),
            (
                t("flagged events excluded", "operaciones excluidas"),
                completeness.excluded_flagged_events.to_string(),
            ),
            (
                t("income without a value", "rentas sin valor"),
                completeness.excluded_unresolved_income.to_string(),
            ),
        ]));
        for gap in &completeness.uncovered_quantity {
            let _ = writeln!(
                out,
                " {} {} {}",
                crate::i18n::num(&gap.amount),
                gap.symbol,
                t(
                    "disposed of without a recorded acquisition",
                    "transmitidos sin adquisición registrada"
                )
            );
        }
        // An overflow names its asset and row (D-146): the row is the one to correct.
        for op in completeness
            .excluded_operations
            .iter()
            .filter(|op| op.flags.iter().any(|f| f == "AMOUNT_OUT_OF_RANGE"))
        {
            let quantity = crate::i18n::num(&op.quantity);
            let at = source(&op.row_key)
                .map(|at| format!("{at}, "))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                " {}",
                if crate::i18n::es() {
                    format!(
                        "{asset}: los importes de la fila {key} ({at}pata {leg}, {quantity} \
                         {asset}) son demasiado grandes para calcularse; corríjala con \
                         `cartera edit {key}`",
                        asset = op.asset,
                        key = op.row_key,
                        leg = op.leg,
                    )
                } else {
                    format!(
                        "{asset}: the amounts of row {key} ({at}leg {leg}, {quantity} {asset}) \
                         are too large to compute; correct it with `cartera edit {key}`",
                        asset = op.asset,
                        key = op.row_key,
                        leg = op.leg,
                    )
                }
            );
        }
        out.push_str(t(
            " See `cartera integrity` for the rows to fix (missing prices: `cartera prices import`, \
             missing rates: `cartera rates import`, missing buys: `cartera import`).\n",
            " Vea `cartera integrity` para las filas a corregir (precios: `cartera prices import`, \
             tipos de cambio: `cartera rates import`, compras: `cartera import`).\n",
        ));
    }
    if let Some(entries) = &report.art_33_5_warnings
        && !entries.is_empty()
    {
        out.push_str(t(
            "\nArt. 33.5 review: losses with re-acquisitions within two months\n",
            "\nRevisión del art. 33.5: pérdidas con recompras en dos meses\n",
        ));
        let mut table = Table::new(&[
            (t("disposed on", "transmitido"), Align::Left),
            (t("asset", "activo"), Align::Left),
            (t("loss EUR", "pérdida EUR"), Align::Right),
            (t("window", "ventana"), Align::Left),
            (t("re-acquired", "recomprado"), Align::Left),
        ]);
        for e in entries {
            table.row([
                e.disposed_on.clone(),
                e.asset.clone(),
                e.loss.clone(),
                format!("{} … {}", e.window_from, e.window_to),
                e.reacquisitions
                    .iter()
                    .map(|r| format!("{} on {}", r.quantity, r.acquired_on))
                    .collect::<Vec<_>>()
                    .join(", "),
            ]);
        }
        out.push_str(&table.render());
    }
    if let Some(year_end) = &report.year_end_holdings {
        out.push('\n');
        out.push_str(&render_year_end(year_end));
    }
    out.push('\n');
    out.push_str(&crate::guide::render_guide(&report.renta_guide));
    out.push_str(&crate::guide::render_warnings_and_assumptions(
        &report.warnings,
        &report.assumptions,
    ));
    out
}

fn render_compare(comparison: &TaxYearComparison) -> String {
    let a = &comparison.year_a;
    let b = &comparison.year_b;
    let mut out = format!(
        "IRPF {} vs {} (EUR, {})\n {}: {}\n {}: {}\n\n",
        a.year,
        b.year,
        comparison.method,
        a.year,
        completeness_text(&a.completeness),
        b.year,
        completeness_text(&b.completeness)
    );
    let year_a = format!("{} EUR", a.year);
    let year_b = format!("{} EUR", b.year);
    let mut table = Table::new(&[
        (t("field", "campo"), Align::Left),
        (year_a.as_str(), Align::Right),
        (year_b.as_str(), Align::Right),
        (t("delta EUR", "diferencia EUR"), Align::Right),
        (t("comparable", "comparable"), Align::Left),
    ]);
    for (((label, value_a), (_, value_b)), delta) in summary_fields(&a.summary)
        .into_iter()
        .zip(summary_fields(&b.summary))
        .zip(comparison.deltas.values())
    {
        table.row([
            label.to_owned(),
            opt(value_a),
            opt(value_b),
            opt(delta.value.as_ref()),
            if delta.kind.eq_ignore_ascii_case("delta") {
                t("yes", "sí").to_owned()
            } else {
                "no".to_owned()
            },
        ]);
    }
    out.push_str(&table.render());
    out
}

/// Writes `modelo100_<YEAR>.csv` and `annex_<YEAR>.csv` (`irpf.md` §8.1, §8.3).
pub(crate) fn write_csv(dir: &Path, files: &TaxCsvFiles, excel_es: bool) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return fail(format!(
            "--csv {}: that is a file, not a folder; name a folder for the CSV files",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    for file in &files.files {
        let path = dir.join(&file.name);
        let content = if excel_es {
            crate::csv_dialect::excel_es(&file.content)
        } else {
            file.content.clone()
        };
        crate::worksheets::write_whole(&path, content.as_bytes())?;
        diag!("wrote {}", path.display());
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// integrity
// ---------------------------------------------------------------------------------------------

pub(crate) fn run_integrity(
    ledger: Option<&Path>,
    json: bool,
    args: &IntegrityArgs,
) -> Result<Outcome> {
    let flag = match args.flag.as_deref() {
        None => None,
        Some(text) => Some(
            shared_types::QualityFlag::parse(&text.to_ascii_uppercase()).ok_or_else(|| {
                UsageError {
                    code: "unknown-flag",
                    reason: format!(
                        "\"{text}\" is not a quality flag; flags: {}",
                        shared_types::QualityFlag::ALL
                            .iter()
                            .map(|f| f.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }
            })?,
        ),
    };
    let session = Session::open(ledger)?;
    session.require_rows()?;
    let mut integrity = answer(session.queries.get_fiscal_integrity())?;
    if let Some(flag) = flag {
        integrity.groups.retain(|g| g.quality_flag == flag.as_str());
    }
    if json {
        return print_json(&integrity);
    }
    out!("{}", render_integrity(&integrity, flag));
    Ok(Outcome::Success)
}

/// The rows of one quality flag (`cartera integrity --flag FLAG`).
fn render_flagged(out: &mut String, integrity: &FiscalIntegrity, flag: shared_types::QualityFlag) {
    let _ = writeln!(
        out,
        "{} {}",
        t("Rows flagged", "Filas marcadas con"),
        flag.as_str()
    );
    let Some(group) = integrity.groups.first() else {
        let _ = writeln!(
            out,
            "{}",
            if es() {
                format!(" Ninguna: ninguna fila del libro genera {}.", flag.as_str())
            } else {
                format!(" None: no row of the ledger raises {}.", flag.as_str())
            }
        );
        return;
    };
    let mut table = Table::new(&[
        (t("occurred at", "fecha y hora"), Align::Left),
        (t("asset", "activo"), Align::Left),
        (t("account", "cuenta"), Align::Left),
        (t("quantity", "cantidad"), Align::Right),
        (t("detail", "detalle"), Align::Left),
        (t("row key", "clave de fila"), Align::Left),
    ]);
    for row in &group.rows {
        table.row([
            opt(row.occurred_at.as_ref()),
            opt(row.symbol.as_ref()),
            opt(row.account.as_ref()),
            num_opt(row.quantity.as_ref()),
            row.detail_key.clone(),
            opt(row.row_key.as_ref()),
        ]);
    }
    out.push_str(&table.render());
}

fn render_integrity(
    integrity: &FiscalIntegrity,
    flag: Option<shared_types::QualityFlag>,
) -> String {
    let mut out = String::new();
    if let Some(flag) = flag {
        render_flagged(&mut out, integrity, flag);
        return out;
    }
    let _ = writeln!(
        out,
        "{}: {} {}, {} {}\n",
        t("Data quality", "Calidad de los datos"),
        integrity.total_defects,
        t("finding(s)", "hallazgo(s)"),
        integrity.pending_review,
        t("pending review", "pendiente(s) de revisión")
    );
    if integrity.groups.is_empty() {
        out.push_str(t(
            " No finding: every operation is valued, covered by its acquisitions and placed.\n",
            " Ningún hallazgo: cada operación está valorada, cubierta por sus adquisiciones y \
             ubicada.\n",
        ));
    } else {
        let mut table = Table::new(&[
            (t("flag", "marca"), Align::Left),
            (t("severity", "gravedad"), Align::Left),
            (t("rows", "filas"), Align::Right),
            (t("pending review", "pendientes de revisión"), Align::Right),
        ]);
        for g in &integrity.groups {
            table.row([
                g.quality_flag.clone(),
                g.severity.clone(),
                g.count.to_string(),
                g.pending_review.to_string(),
            ]);
        }
        out.push_str(&table.render());
        out.push_str(t(
            "\nList the rows of one flag with `cartera integrity --flag FLAG`.\n",
            "\nLista las filas de una marca con `cartera integrity --flag FLAG`.\n",
        ));
    }
    let c = &integrity.counters;
    out.push_str(t(
        "\nCompleteness over the whole ledger\n",
        "\nCompletitud de todo el libro\n",
    ));
    out.push_str(&pairs(&[
        (
            t("excluded operations", "operaciones excluidas"),
            c.excluded_operations.to_string(),
        ),
        (
            t("flagged open lots", "lotes abiertos marcados"),
            c.flagged_open_lots.to_string(),
        ),
        (
            t("unresolved income", "rendimientos sin resolver"),
            c.unresolved_income.to_string(),
        ),
        (
            t("unresolved derivatives", "derivados sin resolver"),
            c.unresolved_derivatives.to_string(),
        ),
        (
            t("unknown rows", "filas desconocidas"),
            c.unknown_rows.to_string(),
        ),
    ]));
    for gap in &c.uncovered_quantity {
        let _ = writeln!(
            out,
            " {} {} {}",
            t("uncovered", "sin cubrir"),
            num(&gap.amount),
            gap.symbol
        );
    }
    out
}

// ---------------------------------------------------------------------------------------------
// lots
// ---------------------------------------------------------------------------------------------

pub(crate) fn run_lots(ledger: Option<&Path>, json: bool, args: &LotsArgs) -> Result<Outcome> {
    let session = Session::open(ledger)?;
    session.require_rows()?;
    let symbol = session.require_symbol(&args.symbol, true)?;
    let history = answer(session.queries.get_token_history(&TokenHistoryRequest {
        symbol,
        page: args.page.saturating_sub(1) as usize,
        page_size: PAGE_SIZE,
    }))?;
    if history.total_count > 0 && history.lots.is_empty() {
        return fail(format!(
            "page {} is past the last page ({}) of the {} lots of {}",
            args.page, history.total_pages, history.total_count, history.symbol
        ));
    }
    if json {
        return print_json(&history);
    }
    out!("{}", render_lots(&history, args.page));
    Ok(Outcome::Success)
}

/// `#n`: the lot's FIFO number (the oldest lot is #1), the same on every page and listing.
fn lot_label(number: u64) -> String {
    format!("#{number}")
}

/// The title line of `cartera lots`.
fn lots_title(history: &TokenHistory, page: u32) -> String {
    if es() {
        format!(
            "Lotes FIFO de {} ({} lotes, los más recientes primero, numerados en orden FIFO; \
             página {page} de {})\n",
            history.symbol,
            history.total_count,
            history.total_pages.max(1)
        )
    } else {
        format!(
            "FIFO lots of {} ({} lots, newest first, numbered in FIFO order; page {page} of {})\n",
            history.symbol,
            history.total_count,
            history.total_pages.max(1)
        )
    }
}

fn render_lots(history: &TokenHistory, page: u32) -> String {
    let mut out = lots_title(history, page);
    if history.lots.is_empty() {
        if es() {
            let _ = writeln!(
                out,
                " {} no se adquirió nunca en este libro.",
                history.symbol
            );
        } else {
            let _ = writeln!(
                out,
                " {} was never acquired in this ledger.",
                history.symbol
            );
        }
        return out;
    }
    let currency = &history.currency;
    let unit = format!("{} {currency}", t("unit cost", "coste unitario"));
    let total = format!("{} {currency}", t("cost", "coste"));
    let mut table = Table::new(&[
        (t("lot", "lote"), Align::Left),
        (t("acquired", "adquirido"), Align::Left),
        (t("account", "cuenta"), Align::Left),
        (t("quantity", "cantidad"), Align::Right),
        (t("remaining", "restante"), Align::Right),
        (unit.as_str(), Align::Right),
        (total.as_str(), Align::Right),
        (t("status", "estado"), Align::Left),
        (t("flags", "marcas"), Align::Left),
    ]);
    for lot in &history.lots {
        table.row([
            lot_label(lot.number),
            lot.date.clone(),
            lot.exchange.clone(),
            lot.original_qty.clone(),
            lot.remaining_qty.clone(),
            lot.unit_cost
                .as_deref()
                .map_or_else(|| "-".to_owned(), unit_price),
            opt(lot.total_cost.as_ref()),
            lot.status.clone(),
            lot.flags.join(", "),
        ]);
    }
    out.push_str(&table.render());
    out.push_str(t(
        " (lot ids in full: `cartera lots SYMBOL --json`)\n",
        " (los identificadores completos de los lotes: `cartera lots SYMBOL --json`)\n",
    ));
    let consumed: Vec<_> = history
        .lots
        .iter()
        .flat_map(|lot| lot.slices.iter().map(move |s| (lot.number, s)))
        .collect();
    if !consumed.is_empty() {
        let transmission = format!("{} {currency}", t("transmission", "transmisión"));
        let acquisition = format!("{} {currency}", t("acquisition", "adquisición"));
        let result = format!("{} {currency}", t("result", "resultado"));
        out.push_str(t("\nConsumption history\n", "\nHistorial de consumo\n"));
        let mut table = Table::new(&[
            (t("lot", "lote"), Align::Left),
            (t("date", "fecha"), Align::Left),
            (t("type", "tipo"), Align::Left),
            (t("leg", "pata"), Align::Left),
            (t("quantity", "cantidad"), Align::Right),
            (transmission.as_str(), Align::Right),
            (acquisition.as_str(), Align::Right),
            (result.as_str(), Align::Right),
            (t("included", "incluido"), Align::Left),
        ]);
        for (number, s) in consumed {
            table.row([
                lot_label(number),
                s.date.clone(),
                s.tx_type.clone(),
                s.leg.clone(),
                s.quantity.clone(),
                opt(s.transmission_value.as_ref()),
                opt(s.acquisition_value.as_ref()),
                opt(s.gain_loss.as_ref()),
                if s.included { t("yes", "sí") } else { "no" }.to_owned(),
            ]);
        }
        out.push_str(&table.render());
    }
    out.push_str(&render_moves(history));
    out
}

fn render_moves(history: &TokenHistory) -> String {
    let mut out = String::new();
    let moves: Vec<_> = history
        .lots
        .iter()
        .flat_map(|lot| lot.relocations.iter().map(move |r| (lot.number, r)))
        .collect();
    if !moves.is_empty() {
        out.push_str(t("\nCustody moves\n", "\nCambios de custodia\n"));
        let mut table = Table::new(&[
            (t("lot", "lote"), Align::Left),
            (t("at", "fecha"), Align::Left),
            (t("from", "desde"), Align::Left),
            (t("to", "hacia"), Align::Left),
            (t("quantity", "cantidad"), Align::Right),
        ]);
        for (number, r) in moves {
            table.row([
                lot_label(number),
                r.at.clone(),
                r.from.clone(),
                r.to.clone(),
                r.quantity.clone(),
            ]);
        }
        out.push_str(&table.render());
    }
    out
}

// ---------------------------------------------------------------------------------------------
// tx
// ---------------------------------------------------------------------------------------------

pub(crate) fn parse_tx_type(text: &str) -> Result<SpotTxType> {
    SpotTxType::parse(&text.to_ascii_uppercase()).ok_or_else(|| {
        UsageError {
            code: "unknown-type",
            reason: format!(
                "\"{text}\" is not a transaction type; types: {}",
                SpotTxType::ALL
                    .iter()
                    .map(|t| t.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
        .into()
    })
}

pub(crate) fn run_tx(ledger: Option<&Path>, json: bool, args: &TxArgs) -> Result<Outcome> {
    let types = args
        .types
        .iter()
        .map(|t| parse_tx_type(t))
        .collect::<Result<Vec<_>>>()?;
    if let (Some(from), Some(to)) = (args.from, args.to)
        && from > to
    {
        return Err(UsageError {
            code: "bad-range",
            reason: format!("--from {from} is after --to {to}"),
        }
        .into());
    }
    let session = Session::open(ledger)?;
    session.require_rows()?;
    let symbol = match &args.symbol {
        Some(symbol) => Some(session.require_symbol(symbol, false)?),
        None => None,
    };
    let page = answer(session.queries.search_spot_transactions(&TxSearchRequest {
        symbol,
        from: args.from,
        to: args.to,
        types,
        page: args.page as usize,
        page_size: PAGE_SIZE,
    }))?;
    if page.total_count > 0 && page.rows.is_empty() {
        return fail(format!(
            "page {} is past the last page ({}) of the {} matching transactions",
            args.page, page.total_pages, page.total_count
        ));
    }
    if json {
        return print_json(&page);
    }
    out!("{}", render_tx(&page, args.keys));
    Ok(Outcome::Success)
}

fn side(asset: Option<&String>, amount: Option<&String>) -> String {
    match (amount, asset) {
        (Some(amount), Some(asset)) => format!("{} {asset}", num(amount)),
        _ => String::new(),
    }
}

fn render_tx(page: &TxPage, keys: bool) -> String {
    let mut out = if es() {
        format!(
            "Transacciones, las más recientes primero: {} coinciden, página {} de {}\n",
            page.total_count,
            page.page,
            page.total_pages.max(1)
        )
    } else {
        format!(
            "Transactions, newest first: {} matching, page {} of {}\n",
            page.total_count,
            page.page,
            page.total_pages.max(1)
        )
    };
    if page.rows.is_empty() {
        out.push_str(t(
            " No transaction matches these filters.\n",
            " Ninguna transacción coincide con estos filtros.\n",
        ));
        return out;
    }
    let mut columns = vec![
        (t("date (UTC)", "fecha (UTC)"), Align::Left),
        (t("type", "tipo"), Align::Left),
        (t("account", "cuenta"), Align::Left),
        (t("in", "entrada"), Align::Right),
        (t("out", "salida"), Align::Right),
        (t("fee", "comisión"), Align::Right),
        (t("stated value", "valor declarado"), Align::Right),
    ];
    if keys {
        columns.push((t("row key", "clave de fila"), Align::Left));
    }
    let mut table = Table::new(&columns);
    let mut edited = false;
    for row in &page.rows {
        let mut tx_type = row.tx_type.clone();
        if row.edited {
            tx_type.push('*');
            edited = true;
        }
        let value = match (&row.total_fiat, &row.fiat_currency) {
            (Some(v), Some(c)) => format!("{} {c}", num(v)),
            (Some(v), None) => v.clone(),
            _ => String::new(),
        };
        let mut cells = vec![
            row.date.clone(),
            tx_type,
            row.exchange.clone(),
            side(row.asset_in.as_ref(), row.amount_in.as_ref()),
            side(row.asset_out.as_ref(), row.amount_out.as_ref()),
            match &row.fee {
                FeeDto::None => String::new(),
                FeeDto::Charged { amount, asset } => format!("{} {asset}", num(amount)),
            },
            value,
        ];
        if keys {
            cells.push(row.row_key.clone());
        }
        table.row(cells);
    }
    out.push_str(&table.render());
    if edited {
        out.push_str(t(
            "* edited with `cartera edit` (restore with `cartera edit ROW --restore`)\n",
            "* editada con `cartera edit` (se restaura con `cartera edit ROW --restore`)\n",
        ));
    }
    if !keys {
        out.push_str(t(
            "Row keys for `cartera edit` and `cartera link`: add --keys.\n",
            "Claves de fila para `cartera edit` y `cartera link`: añade --keys.\n",
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// holdings-at
// ---------------------------------------------------------------------------------------------

pub(crate) fn run_holdings_at(
    ledger: Option<&Path>,
    json: bool,
    args: &HoldingsAtArgs,
) -> Result<Outcome> {
    let session = Session::open(ledger)?;
    session.require_rows()?;
    let holdings = answer(
        session
            .queries
            .get_holdings_at(&HoldingsAtRequest { date: args.date }),
    )?;
    if json {
        return print_json(&holdings);
    }
    out!("{}", render_holdings_at(&holdings));
    Ok(Outcome::Success)
}

fn custodian_table(custodians: &[CustodianDto]) -> String {
    let mut table = Table::new(&[
        (t("custodian", "custodio"), Align::Left),
        (t("country", "país"), Align::Left),
        (t("custody", "custodia"), Align::Left),
        (t("asset", "activo"), Align::Left),
        (t("units", "unidades"), Align::Right),
        (t("value EUR", "valor EUR"), Align::Right),
        (t("complete", "completo"), Align::Left),
    ]);
    for c in custodians {
        for e in &c.entries {
            table.row([
                c.name.clone(),
                opt(c.country.as_ref()),
                c.custody_kind.clone(),
                e.symbol.clone(),
                e.units.clone(),
                opt(e.value_eur.as_ref()),
                if e.incomplete { "no" } else { t("yes", "sí") }.to_owned(),
            ]);
        }
    }
    table.render()
}

fn render_holdings_at(holdings: &HoldingsAtDto) -> String {
    let mut out = if es() {
        format!(
            "Tenencias por custodio al final del {} (valores en EUR al último cierre de ese día \
             o anterior)\n",
            holdings.date
        )
    } else {
        format!(
            "Holdings per custodian at the end of {} (EUR values at the latest close on or before \
             that day)\n",
            holdings.date
        )
    };
    if holdings.custodians.iter().all(|c| c.entries.is_empty()) {
        out.push_str(t(
            " Nothing was held at that date.\n",
            " No había tenencias en esa fecha.\n",
        ));
    } else {
        out.push_str(&custodian_table(&holdings.custodians));
    }
    // An entry a notice names (a value out of range, D-146) is explained there.
    if holdings
        .custodians
        .iter()
        .flat_map(|c| &c.entries)
        .any(|e| {
            e.value_eur.is_none()
                && !holdings
                    .missing
                    .iter()
                    .any(|n| n.what.split(' ').next() == Some(e.symbol.as_str()))
        })
    {
        out.push_str(t(
            "warning: some holdings have no close at that date; run `cartera prices import FILE…`\n",
            "aviso: algunas tenencias no tienen cierre en esa fecha; ejecuta `cartera prices import \
             FILE…`\n",
        ));
    }
    if holdings
        .custodians
        .iter()
        .any(|c| c.custody_kind == "UNCLASSIFIED")
    {
        out.push_str(t(
            "note: custodians of kind UNCLASSIFIED: set them with `cartera accounts set NAME \
             --kind FOREIGN_PROVIDER|SPANISH_PROVIDER|SELF_CUSTODY --country CC`\n",
            "nota: custodios de tipo UNCLASSIFIED: clasifícalos con `cartera accounts set NAME \
             --kind FOREIGN_PROVIDER|SPANISH_PROVIDER|SELF_CUSTODY --country CC`\n",
        ));
    }
    for notice in &holdings.missing {
        let _ = writeln!(
            out,
            "{}: {}: {}",
            t("warning", "aviso"),
            notice.what,
            notice.hint
        );
    }
    if let Some(year_end) = &holdings.year_end {
        out.push('\n');
        out.push_str(&render_year_end(year_end));
        if let Some(whole) = &holdings.whole_quantity_total714 {
            let whole = num(whole);
            if es() {
                let _ = writeln!(
                    out,
                    "nota: el total del Modelo 714 es la suma de las filas anteriores, con el valor \
                     de cada custodio redondeado a céntimos como lo declara el Modelo 721; valorar \
                     de una vez la cantidad total de cada activo, como hace `cartera portfolio`, da \
                     {whole} EUR"
                );
            } else {
                let _ = writeln!(
                    out,
                    "note: the Modelo 714 total is the sum of the rows above, each custodian's value \
                     rounded to cents as Modelo 721 declares it; valuing each asset's whole quantity \
                     at once, as `cartera portfolio` does, gives {whole} EUR"
                );
            }
        }
    }
    out
}

fn render_year_end(year_end: &YearEndHoldingsDto) -> String {
    let m721 = &year_end.modelo721;
    let m714 = &year_end.modelo714;
    let mut out = format!("Modelo 721 ({}): {}\n", year_end.year, m721.decision);
    let mut rows = vec![
        (
            t("foreign custody total", "total en custodia extranjera"),
            format!("{} EUR", num(&m721.total721)),
        ),
        (
            t("last filed total", "último total presentado"),
            m721.last_filed_total
                .as_ref()
                .map_or_else(|| "-".to_owned(), |v| format!("{} EUR", num(v))),
        ),
        (
            t("filing window", "plazo de presentación"),
            format!("{} … {}", m721.filing_window_from, m721.filing_window_to),
        ),
    ];
    if let Some(year) = m721.last_filed_year {
        rows.push((
            t("last filed year", "último año presentado"),
            year.to_string(),
        ));
    }
    out.push_str(&pairs(&rows));
    for [custodian, symbol] in &m721.vanished_positions {
        if es() {
            let _ = writeln!(
                out,
                " revisar: {symbol} en {custodian} se declaró antes y ya no se tiene"
            );
        } else {
            let _ = writeln!(
                out,
                " review: {symbol} at {custodian} was declared before and is no longer held"
            );
        }
    }
    let _ = writeln!(out, "\nModelo 714 ({})", year_end.year);
    let mut table = Table::new(&[
        (t("asset", "activo"), Align::Left),
        (t("units", "unidades"), Align::Right),
        (t("value EUR", "valor EUR"), Align::Right),
    ]);
    for item in &m714.per_asset {
        table.row([
            item.symbol.clone(),
            item.units.clone(),
            opt(item.value_eur.as_ref()),
        ]);
    }
    if !table.is_empty() {
        out.push_str(&table.render());
    }
    out.push_str(&pairs(&[
        ("total", format!("{} EUR", num(&m714.total714))),
        (
            t(
                "crypto alone above 2,000,000 EUR",
                "solo cripto por encima de 2.000.000 EUR",
            ),
            if m714.crypto_alone_exceeds2m {
                t("yes", "sí")
            } else {
                "no"
            }
            .to_owned(),
        ),
    ]));
    if !m714.unvalued.is_empty() {
        let _ = writeln!(
            out,
            " {}: {}",
            t("unvalued", "sin valorar"),
            m714.unvalued.join(", ")
        );
    }
    out
}

// ---------------------------------------------------------------------------------------------
// demo
// ---------------------------------------------------------------------------------------------

/// The portfolio, then the IRPF report of every year of the ledger (`cartera demo`).
pub(crate) fn print_demo(ledger: &Path, json: bool) -> Result<Outcome> {
    let session = Session::open_with_clock(Some(ledger), demo_clock(ledger)?)?;
    let years = session.years()?;
    let listed: Vec<i32> = years.iter().copied().collect();
    session.queries.prepare_portfolio_and_tax_years(&listed)?;
    let summary = answer(
        session
            .queries
            .get_portfolio_summary(&CurrencyRequest::default()),
    )?;
    let mut reports = Vec::with_capacity(years.len());
    for year in &years {
        reports.push(tax_report(&session, *year)?);
    }
    if json {
        return print_json(&serde_json::json!({
            "portfolio": summary,
            "taxReports": reports.iter().map(|r| &**r).collect::<Vec<&TaxReport>>(),
        }));
    }
    out!("{}", render_portfolio(&summary));
    for report in &reports {
        outln!();
        out!(
            "{}",
            render_tax(report, &|key| session.queries.row_source(key))
        );
    }
    Ok(Outcome::Success)
}

/// The demo's "now": the end of the last day its price file covers (so that its output is the
/// same whatever the day it runs), unless `$CARTERA_NOW` says otherwise.
fn demo_clock(ledger: &Path) -> Result<CliClock> {
    let clock = CliClock::from_env()?;
    if clock.is_set() {
        return Ok(clock);
    }
    let (_, store) = open_existing(Some(ledger))?;
    let last = use_cases::ports::PriceStore::latest_prices(&store)
        .context("cannot read the prices")?
        .iter()
        .map(|p| p.date)
        .max();
    // Noon UTC of that day: the same fiscal date in both fiscal time zones.
    Ok(last
        .and_then(|date| core_domain::Instant::from_utc(date, 12, 0, 0, 0))
        .map_or(clock, CliClock::fixed))
}
