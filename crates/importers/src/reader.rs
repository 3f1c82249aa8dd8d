//! Stage 1 and 2: decoding (§1.3), records with their physical lines, blank records, the header
//! search over the first 10 records and column resolution.

use std::collections::VecDeque;

use csv::ByteRecord;

use crate::model::{Finding, Level};

/// A file-level error at line 1, column 1, header `-`.
pub(crate) fn file_error_dash(code: &'static str, message: String) -> Finding {
    Finding {
        level: Level::Error,
        code,
        line: 1,
        column: 1,
        header: "-".to_owned(),
        message,
        file_level: true,
    }
}

/// Which binary signatures a reader accepts.
pub(crate) enum Decoded<'a> {
    Text(&'a [u8]),
    Zip,
}

/// Checks the signature, strips a BOM and validates UTF-8.
pub(crate) fn decode(bytes: &[u8]) -> Result<Decoded<'_>, Finding> {
    if bytes.starts_with(b"PK\x03\x04") {
        return Ok(Decoded::Zip);
    }
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        return Err(spreadsheet());
    }
    let (body, offset) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, 3),
        None => (bytes, 0),
    };
    if let Err(e) = std::str::from_utf8(body) {
        return Err(file_error_dash(
            "not-utf8",
            format!(
                "the file is not UTF-8 text (first invalid byte at offset {})",
                e.valid_up_to() + offset
            ),
        ));
    }
    Ok(Decoded::Text(body))
}

pub(crate) fn spreadsheet() -> Finding {
    file_error_dash(
        "spreadsheet-not-accepted",
        "this is a spreadsheet, not a CSV file; export or save it as CSV".to_owned(),
    )
}

pub(crate) fn header_not_found(message: String) -> Finding {
    file_error_dash("header-not-found", message)
}

pub(crate) const NO_HEADER: &str = "no supported header in the first 10 records; name the format with --format or use the generic format";

/// Trims spaces and tabs (§1.3).
pub(crate) fn trim(text: &str) -> &str {
    text.trim_matches([' ', '\t'])
}

/// Cell `i` of a record, trimmed; empty when absent.
pub(crate) fn cell(record: &ByteRecord, i: usize) -> &str {
    record
        .get(i)
        .and_then(|b| std::str::from_utf8(b).ok())
        .map_or("", trim)
}

fn is_blank(record: &ByteRecord) -> bool {
    (0..record.len()).all(|i| cell(record, i).is_empty())
}

/// Streams the non-blank records of a decoded text with their start lines.
pub(crate) struct Records<'a> {
    text: &'a [u8],
    /// Byte offset up to which newlines have been counted, and their count.
    counted: (usize, u64),
    reader: csv::Reader<&'a [u8]>,
    ahead: VecDeque<(u64, ByteRecord)>,
    done: bool,
}

impl<'a> Records<'a> {
    pub(crate) fn new(text: &'a [u8]) -> Self {
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text);
        Self {
            text,
            counted: (0, 0),
            reader,
            ahead: VecDeque::new(),
            done: false,
        }
    }

    fn read_raw(&mut self, record: &mut ByteRecord) -> Option<u64> {
        loop {
            if self.done {
                return None;
            }
            // The csv reader only fails on I/O, impossible on a byte slice.
            if let Ok(true) = self.reader.read_byte_record(record) {
                if !is_blank(record) {
                    return Some(self.line_of(record));
                }
            } else {
                self.done = true;
                return None;
            }
        }
    }

    /// The physical line on which `record` starts: the csv crate's own line counter skips
    /// blank lines, so lines are counted here from the record's byte offset.
    #[allow(clippy::naive_bytecount)] // A few bytes per record; no extra dependency for it.
    fn line_of(&mut self, record: &ByteRecord) -> u64 {
        let mut start = record
            .position()
            .map_or(0, |p| usize::try_from(p.byte()).unwrap_or(0));
        while matches!(self.text.get(start), Some(b'\r' | b'\n')) {
            start += 1;
        }
        let (from, count) = self.counted;
        if start >= from {
            let more = self
                .text
                .get(from..start)
                .map_or(0, |s| s.iter().filter(|&&b| b == b'\n').count());
            self.counted = (start, count + more as u64);
        }
        self.counted.1 + 1
    }

    /// The first `n` non-blank records (kept for re-reading as rows).
    pub(crate) fn peek(&mut self, n: usize) -> Vec<(u64, Vec<String>)> {
        while self.ahead.len() < n {
            let mut rec = ByteRecord::new();
            match self.read_raw(&mut rec) {
                Some(line) => self.ahead.push_back((line, rec)),
                None => break,
            }
        }
        self.ahead
            .iter()
            .map(|(line, rec)| {
                (
                    *line,
                    (0..rec.len()).map(|i| cell(rec, i).to_owned()).collect(),
                )
            })
            .collect()
    }

    /// A capacity hint for per-row vectors (about one row per 64 bytes).
    pub(crate) fn rows_hint(&self) -> usize {
        self.text.len() / 64
    }

    /// Drops the first `n` peeked records (preamble and header).
    pub(crate) fn consume(&mut self, n: usize) {
        for _ in 0..n {
            self.ahead.pop_front();
        }
    }

    /// The next non-blank record into `record`, with its line.
    pub(crate) fn next_into(&mut self, record: &mut ByteRecord) -> Option<u64> {
        if let Some((line, rec)) = self.ahead.pop_front() {
            *record = rec;
            return Some(line);
        }
        self.read_raw(record)
    }
}

/// The accepted header record.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    pub(crate) line: u64,
    /// Cells as written (trimmed).
    pub(crate) cells: Vec<String>,
    /// Number of cells up to the last non-empty one.
    pub(crate) required_len: usize,
}

impl Header {
    pub(crate) fn new(line: u64, cells: Vec<String>) -> Self {
        let required_len = cells
            .iter()
            .rposition(|c| !c.is_empty())
            .map_or(0, |p| p + 1);
        Self {
            line,
            cells,
            required_len,
        }
    }

    /// Index of the column named `name` (ASCII case-insensitive).
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.cells.iter().position(|c| c.eq_ignore_ascii_case(name))
    }

    pub(crate) fn name(&self, i: usize) -> &str {
        self.cells.get(i).map_or("-", String::as_str)
    }

    /// A file-level error on header cell `i`.
    pub(crate) fn error(&self, i: usize, code: &'static str, message: String) -> Finding {
        Finding {
            level: Level::Error,
            code,
            line: self.line,
            column: i + 1,
            header: self.name(i).to_owned(),
            message,
            file_level: true,
        }
    }

    /// Duplicate headers (§1.3) and empty cells that are not trailing.
    pub(crate) fn check_cells(&self) -> Option<Finding> {
        for (i, c) in self.cells.iter().enumerate() {
            if c.is_empty() {
                if i < self.required_len {
                    return Some(self.error(
                        i,
                        "unknown-column",
                        "column \"\" is not part of the format".to_owned(),
                    ));
                }
                continue;
            }
            if self.cells[..i].iter().any(|o| o.eq_ignore_ascii_case(c)) {
                return Some(self.error(
                    i,
                    "duplicate-header",
                    format!("column \"{c}\" appears twice"),
                ));
            }
        }
        None
    }

    /// The field-count rule for a row of `len` cells; `Some(message)` when it fails.
    pub(crate) fn field_count(&self, record: &ByteRecord) -> Option<Finding> {
        let len = record.len();
        let ok = len == self.cells.len()
            || (len >= self.required_len
                && len < self.cells.len()
                && (self.required_len..len).all(|i| cell(record, i).is_empty()));
        let ok = ok
            && (self.required_len..len.min(self.cells.len())).all(|i| cell(record, i).is_empty());
        if ok {
            return None;
        }
        Some(Finding {
            level: Level::Error,
            code: "field-count",
            line: 0,
            column: 1,
            header: self.name(0).to_owned(),
            message: format!("expected {} cells, found {len}", self.cells.len()),
            file_level: false,
        })
    }
}

/// Resolves known columns; returns their indices (same order as `names`) and the unknown ones.
pub(crate) fn resolve(header: &Header, names: &[&str]) -> (Vec<Option<usize>>, Vec<usize>) {
    let idx = names.iter().map(|n| header.find(n)).collect::<Vec<_>>();
    let unknown = (0..header.cells.len())
        .filter(|&i| {
            !header.cells[i].is_empty()
                && !names
                    .iter()
                    .any(|n| header.cells[i].eq_ignore_ascii_case(n))
        })
        .collect();
    (idx, unknown)
}
