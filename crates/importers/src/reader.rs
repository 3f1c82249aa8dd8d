//! Stage 1 and 2: decoding (§1.3), records with their physical lines, blank records, the header
//! search over the first 10 records and column resolution.

use std::collections::VecDeque;
use std::io::Read;

use csv::ByteRecord;
use sha2::{Digest, Sha256};

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

/// [`decode`] for a format that is never a ZIP archive: a ZIP (an `.xlsx` workbook) is the
/// `spreadsheet` finding.
pub(crate) fn decode_text(bytes: &[u8]) -> Result<&[u8], Finding> {
    match decode(bytes)? {
        Decoded::Text(text) => Ok(text),
        Decoded::Zip => Err(spreadsheet()),
    }
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
        return Err(not_utf8((e.valid_up_to() + offset) as u64));
    }
    Ok(Decoded::Text(body))
}

/// `not-utf8` at file offset `offset`.
pub(crate) fn not_utf8(offset: u64) -> Finding {
    file_error_dash(
        "not-utf8",
        format!("the file is not UTF-8 text (first invalid byte at offset {offset})"),
    )
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

/// A record with nothing in it, or only the line KuCoin writes into an export without rows
/// (`No matching records found.`, D-152): neither a row nor an error.
fn is_blank(record: &ByteRecord) -> bool {
    (0..record.len()).all(|i| cell(record, i).is_empty())
        || (1..record.len()).all(|i| cell(record, i).is_empty())
            && cell(record, 0).eq_ignore_ascii_case(NO_RECORDS)
}

/// KuCoin's sentence in place of the rows of an empty export.
const NO_RECORDS: &str = "No matching records found.";

/// The longest record read (D-82): a longer one is a file-level error naming its line, and
/// memory never holds more of it (a 200 MB line, a device of zeros, a quote never closed).
pub(crate) const MAX_RECORD_BYTES: u64 = 1 << 20;

/// The longest cell read (D-82): a longer one is a row error on that cell.
pub(crate) const MAX_CELL_BYTES: usize = 64 << 10;

/// The CSV reader's buffer.
const READ_BUFFER: usize = 1 << 16;

/// The bytes under the CSV reader. It pulls them from the source in blocks and keeps only
/// the window since the last counted record start (for line numbers), so a file is never
/// held whole (`imports.md` §1.2). Reading a file (not a decoded slice), it also checks
/// UTF-8 as the bytes pass (§1.3) and hashes the file for the import log.
pub(crate) struct Tap<'a> {
    inner: Box<dyn Read + 'a>,
    /// Bytes of the text from offset `base` on, up to what the CSV reader has been given.
    window: Vec<u8>,
    base: u64,
    /// Text offset of the next byte handed out.
    passed: u64,
    /// File bytes before the text (a byte-order mark), for error offsets.
    bom: u64,
    /// UTF-8 checking of a file source: the incomplete sequence at the end of the last block.
    check: bool,
    carry: Vec<u8>,
    /// File offset of the first byte that is not UTF-8.
    bad_utf8: Option<u64>,
    /// A read of the source that failed (the file ends there for the reader).
    failed: Option<String>,
    sha: Option<Sha256>,
    /// Text offset where the record being read starts (after the last one returned), and
    /// whether that record grew past [`MAX_RECORD_BYTES`]: the reader then sees the end of
    /// the file there (D-82).
    record_from: u64,
    oversized: bool,
    /// Whether a CR has passed: only then are lone CRs looked for when lines are counted.
    cr_seen: bool,
}

impl Read for Tap<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.bad_utf8.is_some() || self.failed.is_some() || self.record_too_long() {
            return Ok(0);
        }
        let n = loop {
            match self.inner.read(buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.failed = Some(e.to_string());
                    return Ok(0);
                }
            }
        };
        let got = buf.get(..n).unwrap_or_default();
        if let Some(sha) = &mut self.sha {
            sha.update(got);
        }
        if self.check && !self.valid(got) {
            // The reader sees the end of the file; the caller reports `not-utf8`.
            return Ok(0);
        }
        self.cr_seen = self.cr_seen || got.contains(&b'\r');
        self.window.extend_from_slice(got);
        self.passed += n as u64;
        Ok(n)
    }
}

impl<'a> Tap<'a> {
    fn new(inner: Box<dyn Read + 'a>, bom: u64, check: bool, sha: Option<Sha256>) -> Self {
        Self {
            inner,
            window: Vec::with_capacity(1 << 16),
            base: 0,
            passed: 0,
            bom,
            check,
            carry: Vec::new(),
            bad_utf8: None,
            failed: None,
            sha,
            record_from: 0,
            oversized: false,
            cr_seen: false,
        }
    }

    /// Whether the record being read is longer than [`MAX_RECORD_BYTES`]: the bytes passed
    /// since it started exceed the limit and the CSV reader's buffer. Line breaks alone (blank
    /// lines the CSV reader skips) do not count.
    fn record_too_long(&mut self) -> bool {
        if self.oversized {
            return true;
        }
        if self.passed.saturating_sub(self.record_from) <= MAX_RECORD_BYTES + READ_BUFFER as u64 {
            return false;
        }
        let since = self
            .record_from
            .checked_sub(self.base)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.window.get(i..))
            .unwrap_or_default();
        if since.iter().all(|b| matches!(b, b'\r' | b'\n')) {
            self.record_from = self.passed;
            return false;
        }
        self.oversized = true;
        true
    }

    /// Checks the next block (`got`, empty at the end of the file) continues valid UTF-8.
    fn valid(&mut self, got: &[u8]) -> bool {
        let start = self.passed - self.carry.len() as u64;
        let joined;
        let data = if self.carry.is_empty() {
            got
        } else {
            joined = [self.carry.as_slice(), got].concat();
            joined.as_slice()
        };
        match std::str::from_utf8(data) {
            Ok(_) => {
                self.carry.clear();
                true
            }
            Err(e) if e.error_len().is_none() && !got.is_empty() => {
                // A sequence cut by the block boundary: completed by the next block.
                self.carry = data.get(e.valid_up_to()..).unwrap_or_default().to_vec();
                true
            }
            Err(e) => {
                self.bad_utf8 = Some(self.bom + start + e.valid_up_to() as u64);
                false
            }
        }
    }

    /// Reads the rest of the source (checking and hashing it); a read error ends it.
    fn drain(&mut self) {
        let mut block = vec![0u8; 1 << 16];
        while let Ok(n) = self.read(&mut block) {
            if n == 0 {
                break;
            }
            // Nothing reads these bytes as records: keep the window small.
            self.window.clear();
            self.base = self.passed;
        }
    }
}

/// Streams the non-blank records of a decoded text with their start lines.
pub(crate) struct Records<'a> {
    /// Text offset up to which newlines have been counted, and their count.
    counted: (u64, u64),
    reader: csv::Reader<Tap<'a>>,
    ahead: VecDeque<(u64, ByteRecord)>,
    done: bool,
    size: usize,
    /// The line of a record longer than [`MAX_RECORD_BYTES`], where the reading stopped.
    oversized: Option<u64>,
}

/// The end of a file read through [`Records::from_file`].
pub(crate) struct Drained {
    /// File offset of the first byte that is not UTF-8.
    pub(crate) bad_utf8: Option<u64>,
    /// Lowercase hex SHA-256 of the file bytes.
    pub(crate) sha256: String,
    /// Why the file could not be read to its end.
    pub(crate) failed: Option<String>,
}

impl<'a> Records<'a> {
    /// The records of a decoded text (checked by [`decode`]).
    pub(crate) fn new(text: &'a [u8]) -> Self {
        Self::with_tap(Tap::new(Box::new(text), 0, false, None), text.len())
    }

    /// The records of a file read block by block, its first bytes `head` (already read,
    /// byte-order mark included) followed by the rest of `source`; `size` is the file's
    /// length as far as known (a capacity hint).
    pub(crate) fn from_file(head: &'a [u8], source: Box<dyn Read + 'a>, size: usize) -> Self {
        let (text, bom) = match head.strip_prefix(b"\xEF\xBB\xBF") {
            Some(rest) => (rest, 3_usize),
            None => (head, 0),
        };
        // The tap hashes what it reads; the byte-order mark it never sees is hashed here.
        let mut sha = Sha256::new();
        sha.update(head.get(..bom).unwrap_or_default());
        Self::with_tap(
            Tap::new(Box::new(text.chain(source)), bom as u64, true, Some(sha)),
            size,
        )
    }

    /// The records of a text built in memory (a workbook's first sheet, `workbook.rs`).
    pub(crate) fn owned(text: Vec<u8>) -> Records<'static> {
        let size = text.len();
        Records::with_tap(
            Tap::new(Box::new(std::io::Cursor::new(text)), 0, false, None),
            size,
        )
    }

    fn with_tap(tap: Tap<'a>, size: usize) -> Self {
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(READ_BUFFER)
            .from_reader(tap);
        Self {
            counted: (0, 0),
            reader,
            ahead: VecDeque::new(),
            done: false,
            size,
            oversized: None,
        }
    }

    /// Reads what is left of the file (records no longer wanted) and says whether it was
    /// UTF-8 and what its digest is.
    pub(crate) fn drain(&mut self) -> Drained {
        let tap = self.reader.get_mut();
        tap.drain();
        let sha256 = tap.sha.take().map_or_else(String::new, |sha| {
            use std::fmt::Write as _;
            sha.finalize()
                .iter()
                .fold(String::with_capacity(64), |mut hex, b| {
                    let _ = write!(hex, "{b:02x}");
                    hex
                })
        });
        Drained {
            bad_utf8: tap.bad_utf8,
            sha256,
            failed: tap.failed.take(),
        }
    }

    fn read_raw(&mut self, record: &mut ByteRecord) -> Option<u64> {
        loop {
            if self.done {
                return None;
            }
            // The csv reader only fails on I/O (a file that cannot be read further ends it).
            if let Ok(true) = self.reader.read_byte_record(record) {
                if self.reader.get_ref().oversized {
                    // The record was cut where the reader stopped: it ends the file.
                    let line = self.line_of(record);
                    self.oversized = Some(line);
                    self.done = true;
                    return None;
                }
                self.reader.get_mut().record_from = self.reader.position().byte();
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
        let tap = self.reader.get_mut();
        let at = |offset: u64| {
            offset
                .checked_sub(tap.base)
                .and_then(|i| usize::try_from(i).ok())
        };
        let mut start = record.position().map_or(0, csv::Position::byte);
        while matches!(
            at(start).and_then(|i| tap.window.get(i)),
            Some(b'\r' | b'\n')
        ) {
            start += 1;
        }
        let (from, count) = self.counted;
        if start >= from {
            let more = at(from)
                .zip(at(start))
                .and_then(|(a, b)| tap.window.get(a..b))
                .map_or(0, |s| line_breaks(s, tap.cr_seen));
            self.counted = (start, count + more as u64);
            // Forget the counted bytes once they are a large part of the window.
            if let Some(done) = at(start)
                && done >= 1 << 16
                && done * 2 >= tap.window.len()
            {
                tap.window.drain(..done);
                tap.base = start;
            }
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

    /// The file-level error of a record longer than [`MAX_RECORD_BYTES`], if the reading
    /// stopped at one; `header` names its first column.
    pub(crate) fn oversized(&self, header: Option<&Header>) -> Option<Finding> {
        let line = self.oversized?;
        Some(Finding {
            level: Level::Error,
            code: "record-too-long",
            line,
            column: 1,
            header: header.map_or_else(|| "-".to_owned(), |h| h.name(0).to_owned()),
            message: format!(
                "the record starting on line {line} is longer than {} MiB (a quote that is never closed?); the file was not read past it",
                MAX_RECORD_BYTES >> 20
            ),
            file_level: true,
        })
    }

    /// A capacity hint for per-row vectors (about one row per 64 bytes).
    pub(crate) fn rows_hint(&self) -> usize {
        self.size / 64
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

/// The line breaks in `bytes`: LF, CRLF, and a lone CR, which the CSV reader also ends a
/// record with (so two records never share a line, and every row is counted once).
#[allow(clippy::naive_bytecount)] // A few bytes per record; no extra dependency for it.
/// `cr_seen`: whether the file has a CR at all (the hot path of a LF file counts LF only).
fn line_breaks(bytes: &[u8], cr_seen: bool) -> usize {
    let lf = bytes.iter().filter(|&&b| b == b'\n').count();
    if !cr_seen {
        return lf;
    }
    let cr = bytes.iter().filter(|&&b| b == b'\r').count();
    lf + cr - bytes.windows(2).filter(|w| w == b"\r\n").count()
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
        self.check_cells_allowing(&|_, _| false)
    }

    /// [`Self::check_cells`], except the cells `allowed(code, cell)` admits (a shape a
    /// profile's real export has).
    pub(crate) fn check_cells_allowing(
        &self,
        allowed: &dyn Fn(&str, &str) -> bool,
    ) -> Option<Finding> {
        for (i, c) in self.cells.iter().enumerate() {
            if c.is_empty() {
                if i < self.required_len && !allowed("unknown-column", c) {
                    return Some(self.error(
                        i,
                        "unknown-column",
                        "column \"\" is not part of the format".to_owned(),
                    ));
                }
                continue;
            }
            if self.cells[..i].iter().any(|o| o.eq_ignore_ascii_case(c))
                && !allowed("duplicate-header", c)
            {
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

/// Columns of exchange exports whose free text may hold line breaks (Coinbase `Notes`,
/// Binance `Remark`); in every other column a line break means a quote swallowed lines.
const MULTILINE_COLUMNS: [&str; 2] = ["Notes", "Remark"];

/// The row error of a record whose cells the format never gives such a shape (D-81): a cell
/// over [`MAX_CELL_BYTES`] (`cell-too-long`), or a quoted value spanning lines in a column
/// that never holds line breaks (`quote-spans-lines`, naming the lines it took in). `line`
/// is the line the record starts on.
#[allow(clippy::naive_bytecount)] // Only records that hold a line break are counted.
pub(crate) fn cell_shape(header: &Header, record: &ByteRecord, line: u64) -> Option<Finding> {
    let bytes = record.as_slice();
    let long = bytes.len() > MAX_CELL_BYTES;
    if !long && !bytes.contains(&b'\n') {
        return None;
    }
    let mut at = line;
    for (i, cell) in record.iter().enumerate() {
        let breaks = cell.iter().filter(|&&b| b == b'\n').count() as u64;
        let finding = |code, message| Finding {
            level: Level::Error,
            code,
            line,
            column: i + 1,
            header: header.name(i).to_owned(),
            message,
            file_level: false,
        };
        if cell.len() > MAX_CELL_BYTES {
            return Some(finding(
                "cell-too-long",
                format!(
                    "this cell holds {} bytes; a cell may hold at most {} KiB",
                    cell.len(),
                    MAX_CELL_BYTES >> 10
                ),
            ));
        }
        let free_text = MULTILINE_COLUMNS
            .iter()
            .any(|c| header.name(i).eq_ignore_ascii_case(c));
        if breaks > 0 && !free_text {
            return Some(finding(
                "quote-spans-lines",
                format!(
                    "a quoted value spans lines {at} to {}, which were read as this one cell; is a closing quote missing on line {at}?",
                    at + breaks
                ),
            ));
        }
        at += breaks;
    }
    None
}
