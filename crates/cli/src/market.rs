//! `cartera rates import` and `cartera prices import` (`imports.md` §3).

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use core_domain::Asset;
use core_domain::market::RateRow;
use importers::prices::{PriceFormat, PriceOptions};
use use_cases::ports::{
    ConflictPolicy, LedgerWrite, MarketOutcome, NewImportLog, PriceBatch, RateBatch,
};

use crate::import::{Progress, sha256_hex, write_mode};
use crate::report::{FileReport, FileResult, FindingOut};
use crate::{Outcome, UsageError, ledger_path};

#[derive(Debug, Default, Args)]
pub(crate) struct RatesArgs {
    /// eurofxref-hist.csv, eurofxref.csv, or either as a ZIP.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// A new value for a stored (currency, date) replaces the stored one.
    #[arg(long)]
    replace: bool,
    /// Write the valid rates and report the invalid rows.
    #[arg(long)]
    skip_invalid: bool,
    /// Run every check and write nothing.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Debug, Default, Args)]
pub(crate) struct PricesArgs {
    /// Price files, processed in the order given.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// daily (date,symbol,close,currency), kraken-ohlcvt or series (timestamp,price).
    #[arg(long, value_parser = ["daily", "kraken-ohlcvt", "series"])]
    format: Option<String>,
    /// Asset of a series file (or of a renamed Kraken OHLCVT file).
    #[arg(long, value_name = "SYM")]
    symbol: Option<String>,
    /// Quote currency of a series file (or of a renamed Kraken OHLCVT file).
    #[arg(long, value_name = "CUR")]
    currency: Option<String>,
    /// A new value for a stored (asset, currency, date) replaces the stored one.
    #[arg(long)]
    replace: bool,
    /// Write the valid prices and report the invalid rows.
    #[arg(long)]
    skip_invalid: bool,
    /// Run every check and write nothing.
    #[arg(long)]
    dry_run: bool,
}

/// Where a stored value's row sits in the file, for conflict findings.
#[derive(Clone, Debug, Default)]
struct Position {
    line: u64,
    column: usize,
    header: String,
    key: String,
}

fn policy(replace: bool, skip_invalid: bool) -> ConflictPolicy {
    if replace {
        ConflictPolicy::Replace
    } else if skip_invalid {
        ConflictPolicy::Skip
    } else {
        ConflictPolicy::Reject
    }
}

fn log(
    name: &str,
    bytes: &[u8],
    format: &str,
    options: Vec<String>,
    rows_read: u64,
) -> NewImportLog {
    NewImportLog {
        imported_at: crate::import::now_for_log(),
        file_name: name.to_owned(),
        file_sha256: sha256_hex(bytes),
        format: format.to_owned(),
        layout: None,
        options,
        rows_read,
        skipped: Vec::new(),
        invalid: 0,
        warnings: 0,
    }
}

fn flags(replace: bool, skip_invalid: bool) -> Vec<String> {
    let mut options = Vec::new();
    if replace {
        options.push("--replace".to_owned());
    }
    if skip_invalid {
        options.push("--skip-invalid".to_owned());
    }
    options
}

pub(crate) fn run_rates(ledger: Option<&Path>, json: bool, args: &RatesArgs) -> Result<Outcome> {
    let mut store = ledger_path::open_for_write(ledger)?;
    let name = args.file.display().to_string();
    let mut report = FileReport::new(&name, "rates");
    report.format = Some("ecb".to_owned());
    let Some(bytes) = read(&args.file, &mut report) else {
        return finish(&[report], json);
    };
    let report = import_rates(&mut store, &name, &bytes, args);
    finish(&[report], json)
}

/// Imports one ECB file's bytes (read from disk, or bundled for `cartera demo`).
pub(crate) fn import_rates(
    store: &mut ledger_sqlite::SqliteLedger,
    name: &str,
    bytes: &[u8],
    args: &RatesArgs,
) -> FileReport {
    let mut report = FileReport::new(name, "rates");
    report.format = Some("ecb".to_owned());
    let progress = Progress::start(name, bytes);
    let parsed = importers::rates::parse_ecb(bytes);
    let refused = parsed.file_rejected() || (parsed.has_errors() && !args.skip_invalid);
    let counts = (parsed.rows_read, parsed.invalid_rows);
    if read_into(&mut report, &progress, counts, &parsed.findings, refused) {
        return report;
    }
    let mut rows = Vec::with_capacity(parsed.rates.len());
    let mut positions = Vec::with_capacity(parsed.rates.len());
    for rate in &parsed.rates {
        // A code outside the symbol grammar never reaches here: the importer refuses it.
        if let Ok(currency) = Asset::new(&rate.currency) {
            rows.push(RateRow {
                currency,
                date: rate.date,
                rate: rate.rate,
            });
            positions.push(Position {
                line: rate.line,
                column: rate.column,
                header: rate.currency.clone(),
                key: format!("{} {}", rate.currency, rate.date),
            });
        }
    }
    let batch = RateBatch {
        log: log(
            name,
            bytes,
            "ecb",
            flags(args.replace, args.skip_invalid),
            parsed.rows_read,
        ),
        rows,
        on_conflict: policy(args.replace, args.skip_invalid),
        mode: write_mode(args.dry_run),
    };
    let outcome = store.write_rates(&batch);
    progress.finish();
    settle(
        &mut report,
        outcome,
        |index| positions.get(index).cloned().unwrap_or_default(),
        "rate-conflict",
        args.dry_run,
        parsed.duplicates_in_file,
    );
    report
}

pub(crate) fn run_prices(ledger: Option<&Path>, json: bool, args: &PricesArgs) -> Result<Outcome> {
    let options = PriceOptions {
        format: args.format.as_deref().map(|f| match f {
            "series" => PriceFormat::Series,
            "kraken-ohlcvt" => PriceFormat::KrakenOhlcvt,
            _ => PriceFormat::Daily,
        }),
        symbol: args.symbol.clone(),
        currency: args.currency.clone(),
    };
    if let Some((code, reason)) = importers::prices::usage_error(&options) {
        return Err(UsageError { code, reason }.into());
    }
    let mut store = ledger_path::open_for_write(ledger)?;
    let mut reports = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let name = file.display().to_string();
        let mut unread = FileReport::new(&name, "prices");
        let Some(bytes) = read(file, &mut unread) else {
            reports.push(unread);
            continue;
        };
        let file_name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let report = import_prices(&mut store, &name, &file_name, &bytes, &options, args);
        reports.push(report);
    }
    finish(&reports, json)
}

/// Imports one price file's bytes (read from disk, or bundled for `cartera demo`).
pub(crate) fn import_prices(
    store: &mut ledger_sqlite::SqliteLedger,
    name: &str,
    file_name: &str,
    bytes: &[u8],
    options: &PriceOptions,
    args: &PricesArgs,
) -> FileReport {
    let mut report = FileReport::new(name, "prices");
    let progress = Progress::start(name, bytes);
    let mut parsed = importers::prices::parse(file_name, bytes, options);
    report.format = parsed.format.map(|f| f.id().to_owned());
    let refused = parsed.file_rejected() || (parsed.has_errors() && !args.skip_invalid);
    let counts = (parsed.rows_read, parsed.invalid_rows);
    if read_into(&mut report, &progress, counts, &parsed.findings, refused) {
        return report;
    }
    let mut options_used = Vec::new();
    for (flag, value) in [
        ("--format", &args.format),
        ("--symbol", &args.symbol),
        ("--currency", &args.currency),
    ] {
        if let Some(value) = value {
            options_used.extend([flag.to_owned(), value.clone()]);
        }
    }
    options_used.extend(flags(args.replace, args.skip_invalid));
    let format = report.format.clone().unwrap_or_default();
    let (column, header) = match parsed.format {
        Some(PriceFormat::Series) => (2, "price"),
        Some(PriceFormat::KrakenOhlcvt) => (5, "close"),
        Some(PriceFormat::Daily) | None => (3, "close"),
    };
    // The closes move into the batch as parsed; their lines stay aside for the conflicts the
    // store reports.
    let rows = std::mem::take(&mut parsed.prices);
    let lines = std::mem::take(&mut parsed.lines);
    let batch = PriceBatch {
        log: log(name, bytes, &format, options_used, parsed.rows_read),
        rows,
        on_conflict: policy(args.replace, args.skip_invalid),
        mode: write_mode(args.dry_run),
    };
    // Built only for the conflicts the store reports: a file of millions of closes would
    // otherwise allocate two strings per close.
    let position = |index: usize| {
        batch
            .rows
            .get(index)
            .zip(lines.get(index))
            .map(|(p, line)| Position {
                line: *line,
                column,
                header: header.to_owned(),
                key: format!("{} {} {}", p.asset, p.currency, p.date),
            })
            .unwrap_or_default()
    };
    let outcome = store.write_prices(&batch);
    progress.finish();
    settle(
        &mut report,
        outcome,
        position,
        "price-conflict",
        args.dry_run,
        0,
    );
    report
}

/// A rate or price file's read into its report: the counts and every finding. When `refused`
/// (a file-level error, or a row error without `--skip-invalid`) the report ends rejected and
/// nothing of the file is written; returns `refused`.
fn read_into(
    report: &mut FileReport,
    progress: &Progress,
    (rows_read, invalid_rows): (u64, u64),
    findings: &[importers::Finding],
    refused: bool,
) -> bool {
    report.rows_read = rows_read;
    report.invalid_rows = invalid_rows;
    report.findings = findings.iter().map(FindingOut::from_importer).collect();
    if refused {
        progress.finish();
        report.finish(FileResult::Rejected);
    }
    refused
}

fn read(file: &Path, report: &mut FileReport) -> Option<Vec<u8>> {
    match crate::import::read_input(file) {
        Ok(bytes) => Some(bytes),
        Err(error) => {
            report.reject_unreadable(&error);
            None
        }
    }
}

/// Turns the store's answer into the report: conflicts are row errors (`imports.md` §3.1).
fn settle(
    report: &mut FileReport,
    outcome: use_cases::PortResult<MarketOutcome>,
    position: impl Fn(usize) -> Position,
    conflict_code: &'static str,
    dry_run: bool,
    in_file_duplicates: u64,
) {
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => {
            report.reject_store_error(1, &error);
            return;
        }
    };
    let replacing = outcome.replaced > 0;
    for conflict in &outcome.conflicts {
        if replacing {
            continue;
        }
        let Position {
            line,
            column,
            header,
            key,
        } = position(conflict.index);
        report.findings.push(FindingOut {
            level: "error",
            code: conflict_code,
            line,
            column,
            header,
            message: format!(
                "the ledger holds {} for {key}; the file says {}; use --replace to overwrite",
                conflict.stored, conflict.new
            ),
        });
    }
    let conflicts = if replacing {
        0
    } else {
        outcome.conflicts.len() as u64
    };
    report.invalid_rows += conflicts;
    report.added = outcome.added;
    report.duplicates = outcome.duplicates + in_file_duplicates;
    report.replaced = Some(outcome.replaced);
    let result = if dry_run {
        FileResult::DryRun
    } else if !outcome.committed {
        FileResult::Rejected
    } else if report.invalid_rows > 0 {
        FileResult::ImportedWithInvalidRows
    } else {
        FileResult::Imported
    };
    report.finish(result);
}

fn finish(reports: &[FileReport], json: bool) -> Result<Outcome> {
    crate::report::print_all(reports, json)
}
