//! `cartera import`: exchange exports through the importers into the ledger, one file at a time,
//! each file one store transaction (`imports.md` §1.2 stage 7, §1.15).

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;
use importers::{ImportOptions, ImportResult, Profile, Zone};
use use_cases::ports::{ImportBatch, LedgerRead, LedgerWrite, NewImportLog, RecordRef, WriteMode};

use crate::report::{FileReport, FileResult, FindingOut, RowCounts, SkipCount};
use crate::{Outcome, UsageError, ledger_path};

mod stream;
mod zone_hint;

/// Files above this many rows get a progress indicator when stderr is a terminal (`cli.md`).
const PROGRESS_ROWS: usize = 10_000;

#[derive(Debug, Default, Args)]
pub(crate) struct ImportArgs {
    /// Export files, processed in the order given.
    #[arg(required = true, value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Read the files with this profile instead of detecting it.
    #[arg(long, value_name = "ID", value_parser = ["kraken-ledgers", "kraken-futures", "bitvavo", "binance-statement", "coinbase", "generic", "cryptocom-app", "revolut-crypto", "bit2me", "bitunix", "kucoin", "okx", "bybit"])]
    format: Option<String>,
    /// The files' account (parent of its sub-wallet accounts); not with generic.
    #[arg(long, value_name = "NAME")]
    account: Option<String>,
    /// Zone of timestamps that carry none: IANA name, UTC or +HH:MM.
    #[arg(long, value_name = "TZ")]
    timezone: Option<String>,
    /// coinbase only: advanced trades without a named quote were traded against fiat.
    #[arg(long)]
    assume_fiat_quote: bool,
    /// Write the valid operations and report the invalid rows.
    #[arg(long)]
    skip_invalid: bool,
    /// Run every stage, including duplicate detection, and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Book an export label as a type (repeatable), before the setting import.label_map:
    /// 'binance:Card Cashback=REWARD'; profiles binance, bitvavo, coinbase, kraken. A Binance
    /// account cartera does not know: 'binance:account:NAME=WALLET' (every operation read, on
    /// an account of its own) or '=FUTURES' (only its transfers read).
    #[arg(long = "map", value_name = "PROFILE:LABEL=TYPE")]
    map: Vec<String>,
}

pub(crate) fn run(ledger: Option<&Path>, json: bool, args: &ImportArgs) -> Result<Outcome> {
    let mut options = options(args)?;
    let mut store = ledger_path::open_for_write(ledger)?;
    // The setting's entries come after --map's, which therefore win.
    options.add_map_entries(use_cases::queries::settings::label_map(&*store)?);
    let mut reports = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let mut report = import_one(&mut store, file, &options, args);
        zone_hint::add(&mut report, &file.display().to_string());
        reports.push(report);
    }
    crate::report::print_all(&reports, json)
}

pub(crate) fn options(args: &ImportArgs) -> Result<ImportOptions> {
    let timezone = match args.timezone.as_deref() {
        None => None,
        Some(text) => Some(Zone::parse(text).ok_or_else(|| UsageError {
            code: "unknown-timezone",
            reason: format!("\"{text}\" is not a known time zone"),
        })?),
    };
    let mut options = ImportOptions {
        format: args.format.as_deref().and_then(Profile::parse),
        account: args.account.clone(),
        timezone,
        assume_fiat_quote: args.assume_fiat_quote,
        ..ImportOptions::default()
    };
    let entries = args
        .map
        .iter()
        .map(|text| {
            shared_types::MapEntry::parse(text).map_err(|reason| UsageError {
                code: "bad-label-map",
                reason: format!("--map {reason}"),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    options.add_map_entries(entries);
    if let Some(account) = &options.account
        && account.trim().is_empty()
    {
        return Err(UsageError {
            code: "bad-account-name",
            reason: format!(
                "--account {account:?} is blank: name the account, e.g. --account Kraken"
            ),
        }
        .into());
    }
    if let Some(account) = &options.account
        && let Err(reason) = importers::validate_account_name(account)
    {
        return Err(UsageError {
            code: "bad-account-name",
            reason: format!(
                "\"{}\" is not a valid account name: {reason}",
                shared_types::text::excerpt(account)
            ),
        }
        .into());
    }
    if let Some((code, reason)) = importers::usage_error(&options) {
        return Err(UsageError { code, reason }.into());
    }
    Ok(options)
}

fn import_one(
    store: &mut ledger_sqlite::SqliteLedger,
    file: &Path,
    options: &ImportOptions,
    args: &ImportArgs,
) -> FileReport {
    let name = file.display().to_string();
    // A large file is read block by block (imports.md §1.2); the batch path, for the
    // files the streamed one declines, reads it whole.
    let metadata = std::fs::metadata(file).ok();
    let regular = metadata.as_ref().is_none_or(std::fs::Metadata::is_file);
    if regular
        && let Some(size) = metadata.and_then(|m| usize::try_from(m.len()).ok())
        && let Some(report) = stream::import(
            store,
            &name,
            stream::Source::File(file),
            size,
            options,
            args,
        )
    {
        return report;
    }
    match read_input(file) {
        // A pipe or device read into memory is streamed from there when large.
        Ok(bytes) if !regular => import_data(store, &name, &bytes, options, args),
        Ok(bytes) => import_batch(store, &name, &bytes, options, args),
        Err(error) => {
            let mut report = FileReport::new(&name, "transactions");
            report.reject_unreadable(&error);
            report
        }
    }
}

/// The most read from a file that is not a regular file (a pipe, a FIFO, a device such as
/// `/dev/zero`), which has no size to stream by and may never end (D-82).
pub(crate) const NON_REGULAR_CAP: u64 = 64 << 20;

/// Reads a whole input file: a regular file as it is, anything else up to
/// [`NON_REGULAR_CAP`] bytes, past which it is refused rather than read without end.
pub(crate) fn read_input(file: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let opened = std::fs::File::open(file)?;
    if opened.metadata()?.is_file() {
        return std::fs::read(file);
    }
    let mut bytes = Vec::new();
    opened.take(NON_REGULAR_CAP + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > NON_REGULAR_CAP {
        return Err(std::io::Error::other(format!(
            "it is not a regular file and holds more than {} MiB; save it as a file and import that",
            NON_REGULAR_CAP >> 20
        )));
    }
    Ok(bytes)
}

/// Imports one file's bytes (read from disk, or bundled with the binary for `cartera demo`).
pub(crate) fn import_data(
    store: &mut ledger_sqlite::SqliteLedger,
    name: &str,
    bytes: &[u8],
    options: &ImportOptions,
    args: &ImportArgs,
) -> FileReport {
    let source = stream::Source::Bytes(bytes);
    if let Some(report) = stream::import(store, name, source, bytes.len(), options, args) {
        return report;
    }
    import_batch(store, name, bytes, options, args)
}

/// The batch path: the whole file parsed, then written in one store call.
fn import_batch(
    store: &mut ledger_sqlite::SqliteLedger,
    name: &str,
    bytes: &[u8],
    options: &ImportOptions,
    args: &ImportArgs,
) -> FileReport {
    let mut report = FileReport::new(name, "transactions");
    let progress = Progress::start(name, bytes);
    let (mut result, file_sha256) = parse_and_digest(bytes, options);
    describe_parse(&mut report, &result);
    if result.file_rejected() || (result.has_errors() && !args.skip_invalid) {
        progress.finish();
        report.finish(FileResult::Rejected);
        return report;
    }
    progress.set_message(format!(
        "writing {} records of {name}",
        result.transactions.len()
    ));
    let (batch, keys) = batch(name, file_sha256, &mut result, args);
    let outcome = match store.write_import_batch(&batch) {
        Ok(outcome) => outcome,
        Err(error) => {
            progress.finish();
            report.reject_store_error(result.header_line.unwrap_or(1), &error);
            return report;
        }
    };
    progress.finish();
    report.added = outcome.added_spot + outcome.added_futures;
    report.duplicates = outcome.duplicates.len() as u64;
    let mut duplicate_lines = BTreeSet::new();
    for duplicate in &outcome.duplicates {
        let position = record_position(&result, &batch, &keys, duplicate.record);
        duplicate_lines.extend(position.lines.iter().copied());
        warn_duplicate(store, &mut report, duplicate, &position);
    }
    // Distinct source lines of the records: a sorted vector, not a set (a million rows).
    let mut record_lines: Vec<u64> = batch
        .spot
        .iter()
        .flat_map(|t| t.source_lines.iter().copied())
        .chain(
            batch
                .futures
                .iter()
                .flat_map(|f| f.source_lines.iter().copied()),
        )
        .collect();
    record_lines.sort_unstable();
    record_lines.dedup();
    let duplicate_rows = duplicate_lines.len() as u64;
    report.rows = Some(RowCounts {
        added: (record_lines.len() as u64).saturating_sub(duplicate_rows),
        duplicate: duplicate_rows,
        skipped: result.skipped_total(),
        invalid: result.invalid_rows,
    });
    let has_errors = result.has_errors();
    // Freeing a million records takes a visible fraction of a second: the pool does it while
    // the report is printed (or the next file is read).
    rayon::spawn(move || drop((batch, keys, result)));
    report.finish(if args.dry_run {
        FileResult::DryRun
    } else if has_errors {
        FileResult::ImportedWithInvalidRows
    } else {
        FileResult::Imported
    });
    report
}

/// The warnings a duplicate raises (AC-17, `source-changed`).
fn warn_duplicate(
    store: &ledger_sqlite::SqliteLedger,
    report: &mut FileReport,
    duplicate: &use_cases::ports::Duplicate,
    position: &RecordPosition,
) {
    if duplicate.other_account {
        // The warning names the account the row was first imported into (AC-17).
        let stored = store
            .row_detail(&duplicate.stored_row_key)
            .ok()
            .flatten()
            .map(|detail| detail.account)
            .unwrap_or_default();
        report.findings.push(position.warning(
            "duplicate-in-other-account",
            format!("already imported into account \"{stored}\"; not added again"),
        ));
    }
    if duplicate.content_changed {
        let id = position.key.clone();
        report.findings.push(position.warning(
            "source-changed",
            format!(
                "id {id} was imported before with other figures; the stored transaction is kept"
            ),
        ));
    }
}

/// Stages 1–6, with the file digest of the import log computed beside them.
fn parse_and_digest(bytes: &[u8], options: &ImportOptions) -> (ImportResult, String) {
    rayon::join(
        || importers::import_bytes(bytes, options),
        || sha256_hex(bytes),
    )
}

pub(crate) fn describe_parse(report: &mut FileReport, result: &ImportResult) {
    if let Some(format) = &result.format {
        report.format = Some(format.profile.id().to_owned());
        report.layout = Some(format.layout.to_owned()).filter(|l| !l.is_empty());
        report.detected = Some(format.detected);
    }
    report.rows_read = result.rows_read;
    report.invalid_rows = result.invalid_rows;
    report.skipped = result
        .skipped
        .iter()
        .map(|(reason, count)| SkipCount {
            reason: reason.as_str().to_owned(),
            count: *count,
        })
        .collect();
    report.findings = result
        .findings
        .iter()
        .map(FindingOut::from_importer)
        .collect();
}

/// Where a store-level finding about one record points: its first line and its key cell.
pub(crate) struct RecordPosition {
    lines: Vec<u64>,
    column: usize,
    header: String,
    key: String,
}

impl RecordPosition {
    fn warning(&self, code: &'static str, message: String) -> FindingOut {
        FindingOut {
            level: "warning",
            code,
            line: self.lines.first().copied().unwrap_or(0),
            column: self.column,
            header: self.header.clone(),
            message,
        }
    }
}

/// Key column and identity key of each record of a batch, kept when the records move into
/// it (the rest of a record is read back from the batch).
#[derive(Default)]
struct BatchKeys {
    spot: Vec<(Option<usize>, String)>,
    futures: Vec<(Option<usize>, String)>,
}

fn record_position(
    result: &ImportResult,
    batch: &ImportBatch,
    keys: &BatchKeys,
    record: RecordRef,
) -> RecordPosition {
    let (lines, keyed) = match record {
        RecordRef::Spot(index) => (
            batch.spot.get(index).map(|r| r.source_lines.clone()),
            keys.spot.get(index),
        ),
        RecordRef::Futures(index) => (
            batch.futures.get(index).map(|r| r.source_lines.clone()),
            keys.futures.get(index),
        ),
    };
    let (key_column, identity_key) = keyed.map_or((None, ""), |(c, k)| (*c, k.as_str()));
    position(
        lines.unwrap_or_default(),
        key_column,
        identity_key,
        &result.header_cells,
    )
}

/// The position of a record with `lines`, its key's column and its identity key.
pub(crate) fn position(
    lines: Vec<u64>,
    key_column: Option<usize>,
    identity_key: &str,
    header_cells: &[String],
) -> RecordPosition {
    let column = key_column.unwrap_or(1);
    let header = column
        .checked_sub(1)
        .and_then(|i| header_cells.get(i))
        .cloned()
        .unwrap_or_else(|| "-".to_owned());
    // The id as the source writes it: the field after `v1␟<profile>␟<kind>␟`, except that a
    // generic id key puts the lower-cased account first (`v1␟generic␟id␟<account>␟<id>`).
    let fields: Vec<&str> = identity_key.split('\u{1f}').collect();
    let id_field = if fields.get(1..3) == Some(&["generic", "id"][..]) {
        4
    } else {
        3
    };
    let key = fields.get(id_field).copied().unwrap_or_default().to_owned();
    RecordPosition {
        lines,
        column,
        header,
        key,
    }
}

#[allow(
    clippy::disallowed_methods,
    reason = "the import log records when the import happened"
)]
pub(crate) fn now_for_log() -> core_domain::Instant {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    core_domain::Instant::from_unix_nanos(nanos)
}

/// The store batch of a parse result; the records move out of `result` (a million-row file
/// must not be held twice), their key columns and identity keys into [`BatchKeys`].
fn batch(
    name: &str,
    file_sha256: String,
    result: &mut ImportResult,
    args: &ImportArgs,
) -> (ImportBatch, BatchKeys) {
    let mut keys = BatchKeys::default();
    let format = result.format.as_ref();
    let coinbase_v4 = format.is_some_and(|f| f.profile == Profile::Coinbase && f.layout == "v4");
    let batch = ImportBatch {
        log: import_log(name, file_sha256, result, args),
        spot: std::mem::take(&mut result.transactions)
            .into_iter()
            .map(|mut t| {
                keys.spot
                    .push((t.key_column, std::mem::take(&mut t.identity_key)));
                spot_record(t, coinbase_v4)
            })
            .collect(),
        futures: std::mem::take(&mut result.futures)
            .into_iter()
            .map(|mut f| {
                keys.futures
                    .push((f.key_column, std::mem::take(&mut f.identity_key)));
                futures_record(f)
            })
            .collect(),
        mode: write_mode(args.dry_run),
    };
    (batch, keys)
}

/// The import log entry of a parsed file.
pub(crate) fn import_log(
    name: &str,
    file_sha256: String,
    result: &ImportResult,
    args: &ImportArgs,
) -> NewImportLog {
    let format = result.format.as_ref();
    let mut options = Vec::new();
    if let Some(format) = &args.format {
        options.extend(["--format".to_owned(), format.clone()]);
    }
    if let Some(account) = &args.account {
        options.extend(["--account".to_owned(), account.clone()]);
    }
    if let Some(zone) = &args.timezone {
        options.extend(["--timezone".to_owned(), zone.clone()]);
    }
    for entry in &args.map {
        options.extend(["--map".to_owned(), entry.clone()]);
    }
    for (flag, on) in [
        ("--assume-fiat-quote", args.assume_fiat_quote),
        ("--skip-invalid", args.skip_invalid),
    ] {
        if on {
            options.push(flag.to_owned());
        }
    }
    NewImportLog {
        imported_at: now_for_log(),
        file_name: name.to_owned(),
        file_sha256,
        format: format
            .map(|f| f.profile.id().to_owned())
            .unwrap_or_default(),
        layout: format
            .map(|f| f.layout.to_owned())
            .filter(|l| !l.is_empty()),
        options,
        rows_read: result.rows_read,
        skipped: result
            .skipped
            .iter()
            .map(|(reason, count)| (reason.as_str().to_owned(), *count))
            .collect(),
        invalid: result.invalid_rows,
        warnings: result.warnings().count() as u64,
    }
}

/// `--dry-run` runs every check against the store, then rolls back.
pub(crate) fn write_mode(dry_run: bool) -> WriteMode {
    if dry_run {
        WriteMode::DryRun
    } else {
        WriteMode::Commit
    }
}

pub(crate) use importers::records::{futures_record, sha256_hex, spot_record};

/// A spinner on stderr for large files when stderr is a terminal; otherwise nothing.
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    pub(crate) fn start(name: &str, bytes: &[u8]) -> Self {
        #[allow(
            clippy::naive_bytecount,
            reason = "once per file; not worth a dependency"
        )]
        let rows = bytes.iter().filter(|b| **b == b'\n').count();
        Self::rows(name, rows)
    }

    /// For a file not read yet: about one row per 86 bytes (the generic CSV's average).
    pub(crate) fn sized(name: &str, size: usize) -> Self {
        Self::rows(name, size / 86)
    }

    fn rows(name: &str, rows: usize) -> Self {
        if rows <= PROGRESS_ROWS || !std::io::stderr().is_terminal() {
            return Self(None);
        }
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message(format!("reading {name} (~{rows} rows)"));
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Self(Some(bar))
    }

    pub(crate) fn set_message(&self, message: String) {
        if let Some(bar) = &self.0 {
            bar.set_message(message);
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
