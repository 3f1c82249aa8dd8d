//! Price files (§3.3–§3.5): the daily price CSV, `timestamp,price` series and Kraken OHLCVT
//! daily candles. Each yields closing prices keyed by (asset, quote currency, UTC date).

use std::collections::{BTreeSet, HashMap};

use core_domain::{Asset, Instant, PriceRow};
use csv::ByteRecord;
use rust_decimal::Decimal;

use crate::model::{Finding, Level, Zone};
use crate::profiles::kraken;
use crate::reader::{self, Header, Records};
use crate::values::{self, NumError};

/// The price file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceFormat {
    /// `date,symbol,close,currency`.
    Daily,
    /// `timestamp,price` with `--symbol` and `--currency`.
    Series,
    /// Kraken OHLCVT candles, no header.
    KrakenOhlcvt,
}

impl PriceFormat {
    /// The format id.
    pub const fn id(self) -> &'static str {
        match self {
            Self::Daily => "daily",
            Self::Series => "series",
            Self::KrakenOhlcvt => "kraken-ohlcvt",
        }
    }
}

/// Options of `cartera prices import`.
#[derive(Clone, Debug, Default)]
pub struct PriceOptions {
    /// `--format`.
    pub format: Option<PriceFormat>,
    /// `--symbol`.
    pub symbol: Option<String>,
    /// `--currency`.
    pub currency: Option<String>,
}

/// The result of reading one price file (stages 1–6).
#[derive(Clone, Debug, Default)]
pub struct PricesResult {
    /// The format read.
    pub format: Option<PriceFormat>,
    /// Data rows read.
    pub rows_read: u64,
    /// Valid closes, ordered by (asset, currency, date), in the form the store takes.
    pub prices: Vec<PriceRow>,
    /// The source line of each close of `prices`, at the same index.
    pub lines: Vec<u64>,
    /// Invalid rows.
    pub invalid_rows: u64,
    /// Every error and warning, sorted by line then column.
    pub findings: Vec<Finding>,
}

impl PricesResult {
    /// Whether a file-level error occurred.
    pub fn file_rejected(&self) -> bool {
        crate::model::any_file_error(&self.findings)
    }

    /// Whether any error occurred.
    pub fn has_errors(&self) -> bool {
        crate::model::any_error(&self.findings)
    }
}

/// Usage errors knowable before reading (`--format series` without `--symbol`, …).
pub fn usage_error(options: &PriceOptions) -> Option<(&'static str, String)> {
    match options.format? {
        PriceFormat::Series => missing_option(options, "series"),
        PriceFormat::Daily if options.symbol.is_some() => Some((
            "option-not-applicable",
            "--symbol does not apply to daily".to_owned(),
        )),
        PriceFormat::Daily if options.currency.is_some() => Some((
            "option-not-applicable",
            "--currency does not apply to daily".to_owned(),
        )),
        _ => None,
    }
}

fn missing_option(options: &PriceOptions, format: &str) -> Option<(&'static str, String)> {
    if options.symbol.is_none() {
        return Some(("option-missing", format!("{format} files need --symbol")));
    }
    if options.currency.is_none() {
        return Some(("option-missing", format!("{format} files need --currency")));
    }
    None
}

const OHLCVT: [&str; 7] = ["time", "open", "high", "low", "close", "volume", "trades"];

/// `XBTEUR_1440.csv` → (`XBTEUR`, `1440`).
fn ohlcvt_name(file_name: &str) -> Option<(String, Option<u32>)> {
    let base = std::path::Path::new(file_name).file_name()?.to_str()?;
    let stem = base
        .strip_suffix(".csv")
        .or_else(|| base.strip_suffix(".CSV"))?;
    let (pair, minutes) = stem.rsplit_once('_')?;
    if pair.is_empty() || !pair.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    Some((pair.to_ascii_uppercase(), minutes.parse().ok()))
}

struct Sink {
    header: Header,
    findings: Vec<Finding>,
    invalid: BTreeSet<u64>,
}

impl Sink {
    fn push(&mut self, level: Level, code: &'static str, line: u64, col: usize, message: String) {
        if level == Level::Error {
            self.invalid.insert(line);
        }
        self.findings.push(Finding {
            level,
            code,
            line,
            column: col + 1,
            header: self.header.name(col).to_owned(),
            message,
            file_level: false,
        });
    }

    /// `timestamp-out-of-range` for the date or instant `shown` as the file writes it.
    fn out_of_range(&mut self, line: u64, col: usize, shown: &str) {
        self.push(
            Level::Error,
            "timestamp-out-of-range",
            line,
            col,
            values::Dated::Ledger.outside(shown),
        );
    }

    /// `date` when it lies in the supported range; reports it otherwise.
    fn supported_date(
        &mut self,
        line: u64,
        col: usize,
        date: Option<chrono::NaiveDate>,
        text: &str,
    ) -> Option<chrono::NaiveDate> {
        let date = date?;
        if values::supported_date(date, values::Dated::Ledger) {
            Some(date)
        } else {
            self.out_of_range(line, col, text);
            None
        }
    }

    fn dec(&mut self, line: u64, col: usize, text: &str, positive: bool) -> Option<Decimal> {
        match values::parse_decimal(text) {
            _ if text.is_empty() => {
                self.push(
                    Level::Error,
                    "missing-value",
                    line,
                    col,
                    "a value is required here".to_owned(),
                );
                None
            }
            Ok(v) if v.is_sign_negative() && !v.is_zero() => {
                let code = if positive {
                    "not-positive"
                } else {
                    "negative-not-allowed"
                };
                let msg = if positive {
                    format!("\"{text}\" must be greater than zero")
                } else {
                    format!("\"{text}\" must not be negative")
                };
                self.push(Level::Error, code, line, col, msg);
                None
            }
            Ok(v) if positive && v.is_zero() => {
                self.push(
                    Level::Error,
                    "not-positive",
                    line,
                    col,
                    format!("\"{text}\" must be greater than zero"),
                );
                None
            }
            Ok(v) => Some(v),
            Err(NumError::Bad) => {
                self.push(
                    Level::Error,
                    "bad-decimal",
                    line,
                    col,
                    format!("\"{text}\" is not a plain decimal number"),
                );
                None
            }
            Err(NumError::Range) => {
                self.push(
                    Level::Error,
                    "decimal-out-of-range",
                    line,
                    col,
                    values::out_of_range_reason(text),
                );
                None
            }
        }
    }
}

/// A valid close as read, before duplicates and same-day closes are settled: 32 bytes, the
/// (asset, currency) pair as an index into [`Pairs`]. The line is a `u32`, saturating: a file
/// past 4.29 billion lines cannot be read into memory to begin with.
#[derive(Clone, Copy)]
struct Candidate {
    pair: u32,
    line: u32,
    instant: Instant,
    close: Decimal,
}

/// The distinct (asset, currency) pairs of a file, numbered as first seen.
#[derive(Default)]
struct Pairs {
    ids: HashMap<(Asset, Asset), u32>,
    list: Vec<(Asset, Asset)>,
}

impl Pairs {
    fn id(&mut self, pair: (Asset, Asset)) -> u32 {
        let next = u32::try_from(self.list.len()).unwrap_or(u32::MAX);
        *self.ids.entry(pair).or_insert_with(|| {
            self.list.push(pair);
            next
        })
    }
}

/// Settles the closes read: a repeated (asset, currency, instant) counts once with a warning
/// when its value is the same as its first line's, and makes both lines invalid when it is not;
/// closes on invalid lines are dropped; of the remaining closes of one UTC day the latest
/// instant is kept. The result is ordered by (asset, currency, date), with each close's line.
fn settle(
    mut candidates: Vec<Candidate>,
    pairs: Pairs,
    sink: &mut Sink,
    key_col: usize,
) -> (Vec<PriceRow>, Vec<u64>) {
    // The id table is not needed any more: only the list, indexed by id.
    let Pairs { ids, list } = pairs;
    drop(ids);
    // Pair ids become ranks in (asset, currency) order, so one sort by small keys orders the
    // closes like the symbols (sorting by the two 21-byte symbols took 3.5 s of the 1M file's 10).
    let mut order: Vec<u32> = (0..u32::try_from(list.len()).unwrap_or(u32::MAX)).collect();
    order.sort_unstable_by_key(|&id| list.get(id as usize).copied());
    let mut rank = vec![0u32; order.len()];
    for (position, &id) in order.iter().enumerate() {
        if let Some(slot) = rank.get_mut(id as usize) {
            *slot = u32::try_from(position).unwrap_or(u32::MAX);
        }
    }
    let sorted_pairs: Vec<(Asset, Asset)> = order
        .iter()
        .filter_map(|&id| list.get(id as usize).copied())
        .collect();
    for candidate in &mut candidates {
        candidate.pair = rank
            .get(candidate.pair as usize)
            .copied()
            .unwrap_or(u32::MAX);
    }
    let pair_of = |c: &Candidate| sorted_pairs.get(c.pair as usize).copied();
    candidates.sort_unstable_by_key(|c| (c.pair, c.instant, c.line));
    // Within one key the lines ascend, so the retained one is the first in the file.
    candidates.dedup_by(|later, first| {
        if (later.pair, later.instant) != (first.pair, first.instant) {
            return false;
        }
        if later.close == first.close {
            sink.push(
                Level::Warning,
                "duplicate-key",
                u64::from(later.line),
                key_col,
                format!("same value as line {}; counted once", first.line),
            );
        } else {
            let key = match pair_of(first) {
                Some((asset, currency)) => format!("{asset}/{currency} {}", first.instant),
                None => first.instant.to_string(),
            };
            sink.push(
                Level::Error,
                "duplicate-key",
                u64::from(later.line),
                key_col,
                format!(
                    "{key} already appears on line {} with another value",
                    first.line
                ),
            );
            sink.push(
                Level::Error,
                "duplicate-key",
                u64::from(first.line),
                key_col,
                format!(
                    "{key} already appears on line {} with another value",
                    later.line
                ),
            );
        }
        true
    });
    // Invalid lines leave before the days are settled, so a day keeps its latest valid close
    // (with `--skip-invalid`, as if those lines were absent).
    candidates.retain(|c| !sink.invalid.contains(&u64::from(c.line)));
    // The latest instant of a day is the last of its run: it replaces the retained one.
    candidates.dedup_by(|later, kept| {
        let same_day =
            (later.pair, later.instant.utc_date()) == (kept.pair, kept.instant.utc_date());
        if same_day {
            *kept = *later;
        }
        same_day
    });
    let mut rows = Vec::with_capacity(candidates.len());
    let mut lines = Vec::with_capacity(candidates.len());
    for c in &candidates {
        if let Some((asset, currency)) = pair_of(c) {
            rows.push(PriceRow {
                asset,
                date: c.instant.utc_date(),
                close: c.close,
                currency,
            });
            lines.push(u64::from(c.line));
        }
    }
    (rows, lines)
}

/// Reads a price file. `file_name` is read only for Kraken OHLCVT names (§3.5).
pub fn parse(file_name: &str, bytes: &[u8], options: &PriceOptions) -> PricesResult {
    let mut result = parse_untidy(file_name, bytes, options);
    result.findings.iter_mut().for_each(Finding::tidy);
    result
}

#[allow(clippy::too_many_lines)] // Three small formats share one driver.
#[allow(clippy::many_single_char_names)]
fn parse_untidy(file_name: &str, bytes: &[u8], options: &PriceOptions) -> PricesResult {
    let mut result = PricesResult::default();
    let text = match reader::decode_text(bytes) {
        Ok(text) => text,
        Err(f) => {
            result.findings.push(f);
            return result;
        }
    };
    let mut records = Records::new(text);
    let peeked = records.peek(10);
    // A long record after the header is reported with the header's column names below.
    if let Some(f) = records.oversized(None).filter(|_| peeked.is_empty()) {
        result.findings.push(f);
        return result;
    }
    let is_header = |cells: &[String], names: &[&str]| {
        cells.iter().filter(|c| !c.is_empty()).count() == names.len()
            && names
                .iter()
                .all(|n| cells.iter().any(|c| c.eq_ignore_ascii_case(n)))
    };
    let numeric = |cells: &[String]| {
        cells.len() == 7 && cells.iter().all(|c| values::parse_decimal(c).is_ok())
    };
    let name = ohlcvt_name(file_name);
    let mut header_index = None;
    let format = match options.format {
        Some(PriceFormat::KrakenOhlcvt) => PriceFormat::KrakenOhlcvt,
        Some(f) => {
            let names: &[&str] = if f == PriceFormat::Daily {
                &["date", "symbol", "close", "currency"]
            } else {
                &["timestamp", "price"]
            };
            header_index = peeked.iter().position(|(_, c)| is_header(c, names));
            if header_index.is_none() {
                let mut e = reader::header_not_found(format!(
                    "the header does not match format {}: missing {}",
                    f.id(),
                    names.join(", ")
                ));
                e.code = "header-mismatch";
                if let Some((line, cells)) = peeked.first() {
                    e.line = *line;
                    e.header = cells.first().cloned().unwrap_or_default();
                }
                result.findings.push(e);
                return result;
            }
            f
        }
        None => {
            let found = peeked.iter().enumerate().find_map(|(i, (_, c))| {
                if is_header(c, &["date", "symbol", "close", "currency"]) {
                    Some((i, PriceFormat::Daily))
                } else if is_header(c, &["timestamp", "price"]) {
                    Some((i, PriceFormat::Series))
                } else {
                    None
                }
            });
            match found {
                Some((i, f)) => {
                    header_index = Some(i);
                    f
                }
                None if peeked.first().is_some_and(|(_, c)| numeric(c)) && name.is_some() => {
                    PriceFormat::KrakenOhlcvt
                }
                None => {
                    let mut e = reader::header_not_found(
                        "no price header in the first 10 records; name the format with --format"
                            .to_owned(),
                    );
                    if let Some((line, cells)) = peeked.first() {
                        e.line = *line;
                        e.header = cells.first().cloned().unwrap_or_default();
                    }
                    result.findings.push(e);
                    return result;
                }
            }
        }
    };
    result.format = Some(format);
    let header = match header_index {
        Some(i) => {
            records.consume(i + 1);
            Header::new(peeked[i].0, peeked[i].1.clone())
        }
        None => Header::new(1, OHLCVT.iter().map(|s| (*s).to_owned()).collect()),
    };
    let file_error = |result: &mut PricesResult, col: usize, code: &'static str, msg: String| {
        result.findings.push(header.error(col, code, msg));
    };
    if let Some(f) = header.check_cells() {
        result.findings.push(f);
        return result;
    }
    // Asset and currency fixed by options or the file name.
    let mut fixed: Option<(Asset, Asset)> = None;
    let opt_pair = |result: &mut PricesResult| -> Option<Option<(Asset, Asset)>> {
        let (Some(s), Some(c)) = (&options.symbol, &options.currency) else {
            return Some(None);
        };
        let Some(asset) = values::asset(s.trim()) else {
            file_error(
                result,
                0,
                "bad-asset-symbol",
                format!("\"{s}\" is not a valid asset symbol"),
            );
            return None;
        };
        let Some(cur) = values::asset(c.trim()) else {
            file_error(
                result,
                0,
                "bad-asset-symbol",
                format!("\"{c}\" is not a valid asset symbol"),
            );
            return None;
        };
        if asset.is_fiat() {
            file_error(result, 0, "crypto-expected", format!("{asset} is fiat"));
            return None;
        }
        if !cur.is_fiat() {
            file_error(
                result,
                0,
                "quote-not-fiat",
                format!("quote currency {cur} is not fiat"),
            );
            return None;
        }
        Some(Some((asset, cur)))
    };
    match format {
        PriceFormat::Daily => {
            if options.symbol.is_some() || options.currency.is_some() {
                let o = if options.symbol.is_some() {
                    "symbol"
                } else {
                    "currency"
                };
                file_error(
                    &mut result,
                    0,
                    "option-not-applicable",
                    format!("--{o} does not apply to daily"),
                );
                return result;
            }
        }
        PriceFormat::Series => {
            if let Some((code, msg)) = missing_option(options, "series") {
                file_error(&mut result, 0, code, msg);
                return result;
            }
            let Some(pair) = opt_pair(&mut result) else {
                return result;
            };
            fixed = pair;
        }
        PriceFormat::KrakenOhlcvt => {
            let Some(Some(minutes)) = name.as_ref().map(|n| n.1) else {
                file_error(
                    &mut result,
                    0,
                    "unsupported-interval",
                    "only daily candles are read; the file name states no interval".to_owned(),
                );
                return result;
            };
            if minutes != 1440 {
                file_error(
                    &mut result,
                    0,
                    "unsupported-interval",
                    format!("only daily candles are read; the file name says {minutes} minutes"),
                );
                return result;
            }
            let Some(pair) = opt_pair(&mut result) else {
                return result;
            };
            fixed = if let Some(p) = pair {
                Some(p)
            } else {
                let pair_name = name.as_ref().map_or(String::new(), |n| n.0.clone());
                let split = pair_name
                    .len()
                    .checked_sub(3)
                    .filter(|&i| i > 0 && pair_name.is_char_boundary(i));
                let quote = split
                    .and_then(|i| values::asset(&pair_name[i..]))
                    .filter(Asset::is_fiat);
                let Some((i, quote)) = split.zip(quote) else {
                    file_error(
                        &mut result,
                        0,
                        "quote-not-fiat",
                        format!("pair {pair_name} does not end in a fiat currency code"),
                    );
                    return result;
                };
                let Some(base) = values::asset(&kraken::alias(&pair_name[..i])) else {
                    file_error(
                        &mut result,
                        0,
                        "bad-asset-symbol",
                        format!("\"{pair_name}\" is not a valid asset symbol"),
                    );
                    return result;
                };
                if base.is_fiat() {
                    file_error(&mut result, 0, "crypto-expected", format!("{base} is fiat"));
                    return result;
                }
                Some((base, quote))
            };
        }
    }
    let mut sink = Sink {
        header: header.clone(),
        findings: Vec::new(),
        invalid: BTreeSet::new(),
    };
    let cols: Vec<usize> = match format {
        PriceFormat::Daily => ["date", "symbol", "close", "currency"]
            .iter()
            .map(|n| header.find(n).unwrap_or(0))
            .collect(),
        PriceFormat::Series => ["timestamp", "price"]
            .iter()
            .map(|n| header.find(n).unwrap_or(0))
            .collect(),
        PriceFormat::KrakenOhlcvt => (0..7).collect(),
    };
    // Every valid close, settled after the read by sorting (duplicates, then the day's latest):
    // one flat list where two maps cost about 300 bytes per close (4 GB for 8.8M closes).
    let mut candidates: Vec<Candidate> = Vec::with_capacity(text.len() / 24);
    let mut pairs = Pairs::default();
    let mut record = ByteRecord::new();
    while let Some(line) = records.next_into(&mut record) {
        result.rows_read += 1;
        if let Some(f) = reader::cell_shape(&header, &record, line) {
            sink.invalid.insert(line);
            sink.findings.push(f);
            continue;
        }
        if let Some(mut f) = header.field_count(&record) {
            f.line = line;
            sink.invalid.insert(line);
            sink.findings.push(f);
            continue;
        }
        let get = |i: usize| reader::cell(&record, cols[i]);
        let point = match format {
            PriceFormat::Daily => {
                let date_text = get(0);
                let mut date = values::parse_date(date_text, false);
                if date.is_none() {
                    sink.push(
                        Level::Error,
                        "bad-timestamp",
                        line,
                        cols[0],
                        format!("\"{date_text}\" is not a timestamp of the form YYYY-MM-DD"),
                    );
                }
                date = sink.supported_date(line, cols[0], date, date_text);
                let sym = get(1);
                let asset = values::asset(sym);
                match asset {
                    None => sink.push(
                        Level::Error,
                        "bad-asset-symbol",
                        line,
                        cols[1],
                        format!("\"{sym}\" is not a valid asset symbol"),
                    ),
                    Some(a) if a.is_fiat() => sink.push(
                        Level::Error,
                        "crypto-expected",
                        line,
                        cols[1],
                        format!("{a} is fiat"),
                    ),
                    Some(_) => {}
                }
                let close = sink.dec(line, cols[2], get(2), true);
                let cur_text = get(3);
                let cur = values::asset(cur_text);
                match cur {
                    None => sink.push(
                        Level::Error,
                        "bad-asset-symbol",
                        line,
                        cols[3],
                        format!("\"{cur_text}\" is not a valid asset symbol"),
                    ),
                    Some(c) if !c.is_fiat() => sink.push(
                        Level::Error,
                        "quote-not-fiat",
                        line,
                        cols[3],
                        format!("quote currency {c} is not fiat"),
                    ),
                    Some(_) => {}
                }
                match (date, asset, close, cur) {
                    (Some(d), Some(a), Some(p), Some(c)) if !sink.invalid.contains(&line) => {
                        Instant::from_utc(d, 0, 0, 0, 0).map(|i| (a, c, i, p))
                    }
                    _ => None,
                }
            }
            PriceFormat::Series => {
                let ts = get(0);
                let instant = values::parse_stamp(ts, b"T ", false, true)
                    .map(|s| (s.local, s.zone.unwrap_or(Zone::Utc)))
                    .or_else(|| {
                        values::parse_date(ts, false)
                            .and_then(|d| d.and_hms_opt(0, 0, 0))
                            .map(|l| (l, Zone::Utc))
                    })
                    .map(|(l, z)| values::place(l, z));
                let instant = match instant {
                    Some(values::Placed::Single(i) | values::Placed::Ambiguous(i)) => Some(i),
                    Some(values::Placed::OutOfRange) => {
                        sink.out_of_range(line, cols[0], ts);
                        None
                    }
                    Some(values::Placed::Nonexistent) | None => None,
                };
                if instant.is_none() && !sink.invalid.contains(&line) {
                    sink.push(Level::Error, "bad-timestamp", line, cols[0], format!("\"{ts}\" is not a timestamp of the form YYYY-MM-DD[THH:MM:SS[.f]][Z|±HH:MM]"));
                }
                let close = sink.dec(line, cols[1], get(1), true);
                match (instant, close, fixed) {
                    (Some(i), Some(p), Some((a, c))) => Some((a, c, i, p)),
                    _ => None,
                }
            }
            PriceFormat::KrakenOhlcvt => {
                let t = get(0);
                let secs = t
                    .parse::<i64>()
                    .ok()
                    .filter(|_| t.bytes().all(|b| b.is_ascii_digit()));
                let mut instant = None;
                match secs {
                    None => sink.push(
                        Level::Error,
                        "bad-timestamp",
                        line,
                        0,
                        format!("\"{t}\" is not a timestamp of the form Unix seconds"),
                    ),
                    Some(s) if s % 86_400 != 0 => sink.push(
                        Level::Error,
                        "not-daily",
                        line,
                        0,
                        format!("{t} is not a UTC midnight"),
                    ),
                    Some(s) => {
                        instant = s
                            .checked_mul(1_000_000_000)
                            .and_then(|n| values::supported_nanos(n, values::Dated::Ledger));
                        if instant.is_none() {
                            sink.out_of_range(line, 0, t);
                        }
                    }
                }
                for c in [1, 2, 3, 5] {
                    sink.dec(line, c, get(c), false);
                }
                let close = sink.dec(line, 4, get(4), true);
                let trades = get(6);
                if trades.is_empty() || !trades.bytes().all(|b| b.is_ascii_digit()) {
                    sink.push(
                        Level::Error,
                        "bad-decimal",
                        line,
                        6,
                        format!("\"{trades}\" is not a plain decimal number"),
                    );
                }
                match (instant, close, fixed) {
                    (Some(i), Some(p), Some((a, c))) if !sink.invalid.contains(&line) => {
                        Some((a, c, i, p))
                    }
                    _ => None,
                }
            }
        };
        let Some((asset, cur, instant, close)) = point else {
            continue;
        };
        candidates.push(Candidate {
            pair: pairs.id((asset, cur)),
            line: u32::try_from(line).unwrap_or(u32::MAX),
            instant,
            close,
        });
    }
    if let Some(f) = records.oversized(Some(&header)) {
        result.findings.push(f);
    }
    let key_col = cols
        .get(match format {
            PriceFormat::KrakenOhlcvt => 4,
            PriceFormat::Daily => 2,
            PriceFormat::Series => 1,
        })
        .copied()
        .unwrap_or(0);
    (result.prices, result.lines) = settle(candidates, pairs, &mut sink, key_col);
    result.invalid_rows = sink.invalid.len() as u64;
    sink.findings.sort_by_key(|f| (f.line, f.column));
    result.findings.extend(sink.findings);
    result
}
