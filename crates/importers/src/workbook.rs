//! Workbooks (`.xlsx`) of the profiles that are downloaded as one (Bit2Me): the first sheet
//! becomes CSV text that the ordinary reader detects and reads, so a workbook gets the same
//! detection, findings and identities as a CSV file.
//!
//! - One sheet row is one text line, so a finding's line is the sheet's row number (rows
//!   above the sheet's first used row are blank lines). Line breaks inside a cell become
//!   spaces. Columns count from the sheet's first used column.
//! - A numeric cell becomes the shortest decimal text that reads back as the same binary
//!   value (Rust's `Display` for `f64`, which never uses exponent notation), and that text is
//!   parsed as an exact decimal like any CSV cell: `0.1` stays `0.1`, never
//!   `0.1000000000000000055511151231257827`, and no float arithmetic is ever done on it.
//! - A date cell becomes `YYYY-MM-DD HH:MM:SS[.fff]` (the sheet's 1900 or 1904 date system,
//!   to the millisecond); a boolean `TRUE`/`FALSE`; an error cell `#<error>` (which no
//!   profile reads as a value, so it is reported on its cell).

use std::fmt::Write as _;
use std::io::Cursor;

use calamine::{Data, Reader, Xlsx};

/// The first sheet of an `.xlsx` workbook as CSV text; `None` when `bytes` are not a
/// readable `.xlsx` workbook (another ZIP, a damaged file, no sheet).
pub(crate) fn csv_text(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut book: Xlsx<_> = Xlsx::new(Cursor::new(bytes)).ok()?;
    let range = book.worksheet_range_at(0)?.ok()?;
    let mut out = String::with_capacity(range.get_size().0.saturating_mul(64).min(1 << 24));
    if let Some((first_row, _)) = range.start() {
        for _ in 0..first_row {
            out.push('\n');
        }
    }
    for row in range.rows() {
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_cell(&mut out, cell);
        }
        out.push('\n');
    }
    Some(out.into_bytes())
}

/// Appends one cell, quoted when it is not empty.
fn push_cell(out: &mut String, cell: &Data) {
    let text = match cell {
        Data::Empty => return,
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
        Data::Float(f) => format!("{f}"),
        Data::Int(i) => i.to_string(),
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_owned(),
        Data::DateTime(d) => d.as_datetime().map_or_else(
            || format!("{}", d.as_f64()),
            |t| {
                let mut s = t.format("%Y-%m-%d %H:%M:%S").to_string();
                let ms = t.and_utc().timestamp_subsec_millis();
                if ms != 0 {
                    let _ = write!(s, ".{ms:03}");
                }
                s
            },
        ),
        Data::Error(e) => format!("#{e}"),
    };
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\"\""),
            '\r' | '\n' => out.push(' '),
            _ => out.push(c),
        }
    }
    out.push('"');
}
