//! ECB reference rates (§3.2): `eurofxref-hist.csv`, the daily `eurofxref.csv`, and either
//! inside a ZIP holding exactly one `.csv` entry.

use std::collections::{BTreeSet, HashMap};
use std::io::Read;

use chrono::NaiveDate;
use csv::ByteRecord;
use rust_decimal::Decimal;

use crate::model::{Finding, Level};
use crate::reader::{self, Decoded, Header, Records};
use crate::values::{self, NumError};

/// One ECB rate: units of `currency` per 1 EUR on `date`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EcbRate {
    /// Three-letter code as the file writes it.
    pub currency: String,
    /// The rate's date.
    pub date: NaiveDate,
    /// The rate, exact as written.
    pub rate: Decimal,
    /// Source line.
    pub line: u64,
    /// Source column (1-based).
    pub column: usize,
}

/// The result of reading one rate file (stages 1–6).
#[derive(Clone, Debug, Default)]
pub struct RatesResult {
    /// Data rows read.
    pub rows_read: u64,
    /// Valid rates in file order; rates of invalid rows and in-file duplicates are left out.
    pub rates: Vec<EcbRate>,
    /// Values that repeated an equal value of the same file (counted once).
    pub duplicates_in_file: u64,
    /// Invalid rows.
    pub invalid_rows: u64,
    /// Every error and warning, sorted by line then column.
    pub findings: Vec<Finding>,
}

impl RatesResult {
    /// Whether a file-level error occurred.
    pub fn file_rejected(&self) -> bool {
        crate::model::any_file_error(&self.findings)
    }

    /// Whether any error occurred.
    pub fn has_errors(&self) -> bool {
        crate::model::any_error(&self.findings)
    }
}

/// Reads the single `.csv` entry of a ZIP archive.
pub(crate) fn unzip(bytes: &[u8]) -> Result<Vec<u8>, Finding> {
    let bad = |why: &str| {
        reader::file_error_dash(
            "spreadsheet-not-accepted",
            format!("this ZIP file cannot be read as a rate file: {why}"),
        )
    };
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| bad(&e.to_string()))?;
    let csvs: Vec<usize> = (0..archive.len())
        .filter(|&i| {
            archive
                .name_for_index(i)
                .is_some_and(|n| n.to_ascii_lowercase().ends_with(".csv"))
        })
        .collect();
    let [only] = csvs.as_slice() else {
        return Err(bad("it must hold exactly one .csv file"));
    };
    let mut entry = archive.by_index(*only).map_err(|e| bad(&e.to_string()))?;
    let mut out = Vec::new();
    entry
        .read_to_end(&mut out)
        .map_err(|e| bad(&e.to_string()))?;
    Ok(out)
}

fn parse_ecb_date(text: &str) -> Option<NaiveDate> {
    values::parse_date(text, false).or_else(|| {
        NaiveDate::parse_from_str(text, "%d %B %Y")
            .ok()
            .filter(|_| {
                // chrono accepts abbreviations and other case; the ECB writes full English names.
                text.split(' ').nth(1).is_some_and(|m| {
                    [
                        "January",
                        "February",
                        "March",
                        "April",
                        "May",
                        "June",
                        "July",
                        "August",
                        "September",
                        "October",
                        "November",
                        "December",
                    ]
                    .contains(&m)
                })
            })
    })
}

/// Reads an ECB rate file (history or daily, CSV or ZIP).
pub fn parse_ecb(bytes: &[u8]) -> RatesResult {
    let mut result = parse_ecb_untidy(bytes);
    result.findings.iter_mut().for_each(Finding::tidy);
    result
}

#[allow(clippy::too_many_lines)] // Decoding, header and row checks of §3.2 in one pass.
fn parse_ecb_untidy(bytes: &[u8]) -> RatesResult {
    let mut result = RatesResult::default();
    let unzipped;
    let decoded = match reader::decode(bytes) {
        Ok(Decoded::Text(t)) => Ok(t),
        // The ECB history zip: its one CSV entry, which is never a zip again.
        Ok(Decoded::Zip) => match unzip(bytes) {
            Ok(inner) => {
                unzipped = inner;
                reader::decode_text(&unzipped)
            }
            Err(f) => Err(f),
        },
        Err(f) => Err(f),
    };
    let text = match decoded {
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
    let Some(index) = peeked.iter().position(|(_, cells)| {
        cells
            .first()
            .is_some_and(|c| c.eq_ignore_ascii_case("Date"))
    }) else {
        let mut f = reader::header_not_found(
            "no ECB header (a first cell \"Date\") in the first 10 records".to_owned(),
        );
        if let Some((line, cells)) = peeked.first() {
            f.line = *line;
            f.header = cells.first().cloned().unwrap_or_default();
        }
        result.findings.push(f);
        return result;
    };
    let header = Header::new(peeked[index].0, peeked[index].1.clone());
    records.consume(index + 1);
    if let Some(f) = header.check_cells() {
        result.findings.push(f);
        return result;
    }
    for (i, c) in header.cells.iter().enumerate().skip(1) {
        if !c.is_empty() && (c.len() != 3 || !c.bytes().all(|b| b.is_ascii_uppercase())) {
            result.findings.push(header.error(
                i,
                "bad-asset-symbol",
                format!("\"{c}\" is not a valid asset symbol"),
            ));
            return result;
        }
    }
    let mut findings = Vec::new();
    let mut invalid = BTreeSet::new();
    let mut seen: HashMap<(usize, NaiveDate), (Decimal, u64)> = HashMap::new();
    let mut rates = Vec::new();
    let mut record = ByteRecord::new();
    let push = |findings: &mut Vec<Finding>, level, code, line, col: usize, msg: String| {
        findings.push(Finding {
            level,
            code,
            line,
            column: col + 1,
            header: header.name(col).to_owned(),
            message: msg,
            file_level: false,
        });
    };
    while let Some(line) = records.next_into(&mut record) {
        result.rows_read += 1;
        if let Some(f) = reader::cell_shape(&header, &record, line) {
            findings.push(f);
            invalid.insert(line);
            continue;
        }
        if let Some(mut f) = header.field_count(&record) {
            f.line = line;
            findings.push(f);
            invalid.insert(line);
            continue;
        }
        let date_text = reader::cell(&record, 0);
        let Some(date) = parse_ecb_date(date_text) else {
            push(
                &mut findings,
                Level::Error,
                "bad-timestamp",
                line,
                0,
                format!("\"{date_text}\" is not a timestamp of the form YYYY-MM-DD"),
            );
            invalid.insert(line);
            continue;
        };
        if !values::supported_date(date, values::Dated::Rate) {
            push(
                &mut findings,
                Level::Error,
                "timestamp-out-of-range",
                line,
                0,
                values::Dated::Rate.outside(date_text),
            );
            invalid.insert(line);
            continue;
        }
        for col in 1..header.required_len {
            let cell = reader::cell(&record, col);
            if cell == "N/A" {
                continue;
            }
            let mut error = |code, msg| {
                push(&mut findings, Level::Error, code, line, col, msg);
                invalid.insert(line);
            };
            let rate = match values::parse_decimal(cell) {
                _ if cell.is_empty() => {
                    error("missing-value", "a value is required here".to_owned());
                    continue;
                }
                Ok(v) if v.is_sign_negative() || v.is_zero() => {
                    error(
                        "not-positive",
                        format!("\"{cell}\" must be greater than zero"),
                    );
                    continue;
                }
                Ok(v) => v,
                Err(NumError::Bad) => {
                    error(
                        "bad-decimal",
                        format!("\"{cell}\" is not a plain decimal number"),
                    );
                    continue;
                }
                Err(NumError::Range) => {
                    error("decimal-out-of-range", values::out_of_range_reason(cell));
                    continue;
                }
            };
            let currency = header.name(col);
            if let Some((old, first)) = seen.get(&(col, date)).copied() {
                if old == rate {
                    push(
                        &mut findings,
                        Level::Warning,
                        "duplicate-key",
                        line,
                        col,
                        format!("same value as line {first}; counted once"),
                    );
                    result.duplicates_in_file += 1;
                } else {
                    let key = format!("{currency} {date}");
                    push(
                        &mut findings,
                        Level::Error,
                        "duplicate-key",
                        line,
                        col,
                        format!("{key} already appears on line {first} with another value"),
                    );
                    push(
                        &mut findings,
                        Level::Error,
                        "duplicate-key",
                        first,
                        col,
                        format!("{key} already appears on line {line} with another value"),
                    );
                    invalid.insert(line);
                    invalid.insert(first);
                }
                continue;
            }
            seen.insert((col, date), (rate, line));
            rates.push(EcbRate {
                currency: currency.to_owned(),
                date,
                rate,
                line,
                column: col + 1,
            });
        }
    }
    findings.extend(records.oversized(Some(&header)));
    rates.retain(|r| !invalid.contains(&r.line));
    findings.sort_by_key(|f| (f.line, f.column));
    result.rates = rates;
    result.invalid_rows = invalid.len() as u64;
    result.findings = findings;
    result
}

#[cfg(test)]
mod tests;
