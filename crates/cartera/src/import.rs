//! Imports: exchange exports, ECB rate files and price files into a [`Ledger`], each file whole
//! (one store transaction) or not at all, with the per-file report.

use std::path::Path;

use core_domain::Asset;
use core_domain::market::RateRow;
use importers::prices::{PriceFormat, PriceOptions};
use importers::{Finding, Profile, Zone};
use serde::Serialize;
use use_cases::ports::{
    ConflictPolicy, ImportBatch, LedgerWrite, MarketOutcome, NewImportLog, PriceBatch, RateBatch,
    WriteMode,
};

use crate::error::{Error, Result, Typed as _};
use crate::ledger::Ledger;

/// What a file holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ImportKind {
    /// An exchange or wallet export (Kraken, Bitvavo, Binance, Coinbase, …, or the generic
    /// CSV), detected from its header unless [`ImportOptions::format`] names it.
    #[default]
    Export,
    /// ECB euro reference rates (`eurofxref-hist.csv`, `eurofxref.csv`, or either as a ZIP).
    EcbRates,
    /// Daily prices (`date,symbol,close,currency`), a `timestamp,price` series, or Kraken
    /// OHLCVT candles.
    Prices,
}

/// How to read a file. `ImportOptions::default()` reads an exchange export, detecting it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// What the file holds.
    pub kind: ImportKind,
    /// The format id instead of detection: an export profile (`kraken-ledgers`, `bitvavo`,
    /// `binance-statement`, `coinbase`, `generic`, …) or a price format (`daily`, `series`,
    /// `kraken-ohlcvt`).
    pub format: Option<String>,
    /// The export's account (parent of its sub-wallet accounts); not with `generic`.
    pub account: Option<String>,
    /// The zone of timestamps that carry none: an IANA name, `UTC` or `+HH:MM`.
    pub timezone: Option<String>,
    /// Export labels booked as a type, `PROFILE:LABEL=TYPE` (`binance:Card Cashback=REWARD`),
    /// or Binance accounts read as a wallet, `binance:account:NAME=WALLET|FUTURES`; they come
    /// before the ledger's `import.label_map` setting.
    pub label_map: Vec<String>,
    /// The asset of a price series file.
    pub symbol: Option<String>,
    /// The quote currency of a price series file.
    pub currency: Option<String>,
    /// Write the valid rows and report the invalid ones, instead of refusing the file.
    pub skip_invalid: bool,
}

/// How a file ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ImportStatus {
    /// Every row was read and written (or was already stored).
    Imported,
    /// The valid rows were written; the invalid ones are in the findings
    /// ([`ImportOptions::skip_invalid`]).
    ImportedWithInvalidRows,
    /// Nothing was written; the findings say why.
    Rejected,
}

/// One finding, positioned on a line and cell of the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportFinding {
    /// `error` or `warning`.
    pub level: String,
    /// A short kebab-case name of the finding (`unknown-label`, `rate-conflict`, …).
    pub code: String,
    /// The line of the file, from 1.
    pub line: u64,
    /// The column, from 1.
    pub column: u64,
    /// The column's header cell (`-` when none applies).
    pub header: String,
    /// What is wrong and what to do.
    pub message: String,
}

/// The report of one imported file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// The file name given.
    pub file: String,
    /// The format read (`kraken-ledgers`, `ecb`, `daily`, …); `None` when none was recognised.
    pub format: Option<String>,
    /// The layout of the format (`L12`, `v4`, …), when it has several.
    pub layout: Option<String>,
    /// How the file ended.
    pub status: ImportStatus,
    /// Data rows read.
    pub rows_read: u64,
    /// Records (transactions, rates or prices) written.
    pub added: u64,
    /// Records already stored (importing a file twice adds nothing).
    pub duplicates: u64,
    /// Rows refused.
    pub invalid_rows: u64,
    /// Errors and warnings, in file order.
    pub findings: Vec<ImportFinding>,
}

impl ImportReport {
    fn new(file: &str, format: Option<String>, rows_read: u64, findings: &[Finding]) -> Self {
        Self {
            file: file.to_owned(),
            format,
            layout: None,
            status: ImportStatus::Rejected,
            rows_read,
            added: 0,
            duplicates: 0,
            invalid_rows: 0,
            findings: findings.iter().map(finding).collect(),
        }
    }
}

fn finding(finding: &Finding) -> ImportFinding {
    ImportFinding {
        level: finding.level.as_str().to_owned(),
        code: finding.code.to_owned(),
        line: finding.line,
        column: finding.column as u64,
        header: finding.header.clone(),
        message: finding.message.clone(),
    }
}

impl Ledger {
    /// Imports one file from disk; see [`Ledger::import_bytes`].
    pub fn import_file(
        &self,
        path: impl AsRef<Path>,
        options: &ImportOptions,
    ) -> Result<ImportReport> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|error| Error::Io {
            what: path.display().to_string(),
            reason: error.to_string(),
        })?;
        self.import_bytes(&path.display().to_string(), &bytes, options)
    }

    /// Imports one file's bytes, named `name` in the report and the import log. The file is
    /// written whole in one transaction, or not at all: a file with invalid rows is
    /// [`ImportStatus::Rejected`] (nothing written) unless [`ImportOptions::skip_invalid`].
    /// A bad option is [`Error::InvalidOption`]; a store failure is an error too.
    pub fn import_bytes(
        &self,
        name: &str,
        bytes: &[u8],
        options: &ImportOptions,
    ) -> Result<ImportReport> {
        match options.kind {
            ImportKind::Export => self.import_export(name, bytes, options),
            ImportKind::EcbRates => self.import_rates(name, bytes, options),
            ImportKind::Prices => self.import_prices(name, bytes, options),
        }
    }

    fn import_export(
        &self,
        name: &str,
        bytes: &[u8],
        options: &ImportOptions,
    ) -> Result<ImportReport> {
        let mut importer = export_options(options)?;
        // The store is locked only to read the label map and to write: the other threads keep
        // reading while the file is parsed.
        let stored_map = use_cases::queries::settings::label_map(&*self.store());
        importer.add_map_entries(stored_map.typed()?);
        let mut result = importers::import_bytes(bytes, &importer);
        let format = result.format.as_ref();
        let mut report = ImportReport::new(
            name,
            format.map(|f| f.profile.id().to_owned()),
            result.rows_read,
            &result.findings,
        );
        report.layout = format
            .map(|f| f.layout.to_owned())
            .filter(|l| !l.is_empty());
        report.invalid_rows = result.invalid_rows;
        if result.file_rejected() || (result.has_errors() && !options.skip_invalid) {
            return Ok(report);
        }
        let coinbase_v4 =
            format.is_some_and(|f| f.profile == Profile::Coinbase && f.layout == "v4");
        let mut log = self.log(
            name,
            bytes,
            report.format.clone(),
            options,
            result.rows_read,
        );
        log.layout.clone_from(&report.layout);
        log.skipped = result
            .skipped
            .iter()
            .map(|(reason, count)| (reason.as_str().to_owned(), *count))
            .collect();
        log.invalid = result.invalid_rows;
        log.warnings = result.warnings().count() as u64;
        let batch = ImportBatch {
            log,
            spot: std::mem::take(&mut result.transactions)
                .into_iter()
                .map(|t| importers::records::spot_record(t, coinbase_v4))
                .collect(),
            futures: std::mem::take(&mut result.futures)
                .into_iter()
                .map(importers::records::futures_record)
                .collect(),
            mode: WriteMode::Commit,
        };
        let outcome = self.store().write_import_batch(&batch).typed()?;
        report.added = outcome.added_spot + outcome.added_futures;
        report.duplicates = outcome.duplicates.len() as u64;
        report.status = if result.has_errors() {
            ImportStatus::ImportedWithInvalidRows
        } else {
            ImportStatus::Imported
        };
        Ok(report)
    }

    fn import_rates(
        &self,
        name: &str,
        bytes: &[u8],
        options: &ImportOptions,
    ) -> Result<ImportReport> {
        let parsed = importers::rates::parse_ecb(bytes);
        let mut report = ImportReport::new(
            name,
            Some("ecb".to_owned()),
            parsed.rows_read,
            &parsed.findings,
        );
        report.invalid_rows = parsed.invalid_rows;
        if parsed.file_rejected() || (parsed.has_errors() && !options.skip_invalid) {
            return Ok(report);
        }
        // A code outside the symbol grammar never reaches here: the importer refuses it.
        let rates: Vec<_> = parsed
            .rates
            .iter()
            .filter_map(|rate| Some((rate, Asset::new(&rate.currency).ok()?)))
            .collect();
        let batch = RateBatch {
            log: self.log(
                name,
                bytes,
                report.format.clone(),
                options,
                parsed.rows_read,
            ),
            rows: rates
                .iter()
                .map(|(rate, currency)| RateRow {
                    currency: *currency,
                    date: rate.date,
                    rate: rate.rate,
                })
                .collect(),
            on_conflict: policy(options),
            mode: WriteMode::Commit,
        };
        let outcome = self.store().write_rates(&batch).typed()?;
        let position = |index: usize| {
            rates.get(index).map_or((0, 1, String::new()), |(rate, _)| {
                (
                    rate.line,
                    rate.column,
                    format!("{} {}", rate.currency, rate.date),
                )
            })
        };
        settle(&mut report, &outcome, position, parsed.duplicates_in_file);
        Ok(report)
    }

    fn import_prices(
        &self,
        name: &str,
        bytes: &[u8],
        options: &ImportOptions,
    ) -> Result<ImportReport> {
        let format = match options.format.as_deref() {
            None => None,
            Some("daily") => Some(PriceFormat::Daily),
            Some("series") => Some(PriceFormat::Series),
            Some("kraken-ohlcvt") => Some(PriceFormat::KrakenOhlcvt),
            Some(other) => {
                return Err(Error::option(
                    "price format",
                    format!("{other:?} is not daily, series or kraken-ohlcvt"),
                ));
            }
        };
        let prices = PriceOptions {
            format,
            symbol: options.symbol.clone(),
            currency: options.currency.clone(),
        };
        if let Some((what, reason)) = importers::prices::usage_error(&prices) {
            return Err(Error::option(what, reason));
        }
        let file_name = Path::new(name)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut parsed = importers::prices::parse(&file_name, bytes, &prices);
        let mut report = ImportReport::new(
            name,
            parsed.format.map(|f| f.id().to_owned()),
            parsed.rows_read,
            &parsed.findings,
        );
        report.invalid_rows = parsed.invalid_rows;
        if parsed.file_rejected() || (parsed.has_errors() && !options.skip_invalid) {
            return Ok(report);
        }
        let column = match parsed.format {
            Some(PriceFormat::Series) => 2,
            Some(PriceFormat::KrakenOhlcvt) => 5,
            Some(PriceFormat::Daily) | None => 3,
        };
        let lines = std::mem::take(&mut parsed.lines);
        let batch = PriceBatch {
            log: self.log(
                name,
                bytes,
                report.format.clone(),
                options,
                parsed.rows_read,
            ),
            rows: std::mem::take(&mut parsed.prices),
            on_conflict: policy(options),
            mode: WriteMode::Commit,
        };
        let outcome = self.store().write_prices(&batch).typed()?;
        let position = |index: usize| {
            batch.rows.get(index).zip(lines.get(index)).map_or(
                (0, 1, String::new()),
                |(price, line)| {
                    (
                        *line,
                        column,
                        format!("{} {} {}", price.asset, price.currency, price.date),
                    )
                },
            )
        };
        settle(&mut report, &outcome, position, 0);
        Ok(report)
    }

    /// The import log entry of a file: when (the ledger's clock), what, and with which options.
    fn log(
        &self,
        name: &str,
        bytes: &[u8],
        format: Option<String>,
        options: &ImportOptions,
        rows_read: u64,
    ) -> NewImportLog {
        let mut flags = Vec::new();
        for (flag, value) in [
            ("--format", &options.format),
            ("--account", &options.account),
            ("--timezone", &options.timezone),
            ("--symbol", &options.symbol),
            ("--currency", &options.currency),
        ] {
            if let Some(value) = value {
                flags.extend([flag.to_owned(), value.clone()]);
            }
        }
        for entry in &options.label_map {
            flags.extend(["--map".to_owned(), entry.clone()]);
        }
        if options.skip_invalid {
            flags.push("--skip-invalid".to_owned());
        }
        NewImportLog {
            imported_at: use_cases::ports::Clock::now(&self.clock),
            file_name: name.to_owned(),
            file_sha256: importers::records::sha256_hex(bytes),
            format: format.unwrap_or_default(),
            layout: None,
            options: flags,
            rows_read,
            skipped: Vec::new(),
            invalid: 0,
            warnings: 0,
        }
    }
}

/// The importer's options of an export, validated.
fn export_options(options: &ImportOptions) -> Result<importers::ImportOptions> {
    let format =
        match options.format.as_deref() {
            None => None,
            Some(id) => Some(Profile::parse(id).ok_or_else(|| {
                Error::option("format", format!("{id:?} is not an export format"))
            })?),
        };
    let timezone =
        match options.timezone.as_deref() {
            None => None,
            Some(text) => Some(Zone::parse(text).ok_or_else(|| {
                Error::option("timezone", format!("{text:?} is not a known zone"))
            })?),
        };
    if let Some(account) = &options.account {
        importers::validate_account_name(account)
            .map_err(|reason| Error::option("account", reason))?;
    }
    let mut importer = importers::ImportOptions {
        format,
        account: options.account.clone(),
        timezone,
        ..importers::ImportOptions::default()
    };
    importer.add_map_entries(
        options
            .label_map
            .iter()
            .map(|text| shared_types::MapEntry::parse(text))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|reason| Error::option("label map", reason))?,
    );
    if let Some((what, reason)) = importers::usage_error(&importer) {
        return Err(Error::option(what, reason));
    }
    Ok(importer)
}

/// Rates and prices never replace a stored value through the facade; `skip_invalid` keeps the
/// stored one and writes the rest.
fn policy(options: &ImportOptions) -> ConflictPolicy {
    if options.skip_invalid {
        ConflictPolicy::Skip
    } else {
        ConflictPolicy::Reject
    }
}

/// The store's answer to a rate or price batch in the report: conflicts are row errors.
fn settle(
    report: &mut ImportReport,
    outcome: &MarketOutcome,
    position: impl Fn(usize) -> (u64, usize, String),
    in_file_duplicates: u64,
) {
    for conflict in &outcome.conflicts {
        let (line, column, key) = position(conflict.index);
        report.findings.push(ImportFinding {
            level: "error".to_owned(),
            code: "value-conflict".to_owned(),
            line,
            column: column as u64,
            header: "-".to_owned(),
            message: format!(
                "the ledger holds {} for {key}; the file says {}",
                conflict.stored, conflict.new
            ),
        });
    }
    report.invalid_rows += outcome.conflicts.len() as u64;
    report.added = outcome.added;
    report.duplicates = outcome.duplicates + in_file_duplicates;
    report.status = if !outcome.committed {
        ImportStatus::Rejected
    } else if report.invalid_rows > 0 {
        ImportStatus::ImportedWithInvalidRows
    } else {
        ImportStatus::Imported
    };
}
