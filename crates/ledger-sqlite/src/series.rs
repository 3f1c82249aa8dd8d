//! The compact price store: one row per (asset, year, quote currency) holding that year's
//! closes as a BLOB of fixed-size entries sorted by day, and one row per (asset, quote) with
//! the latest close. A read decodes only the years it asks for, a million closes in a few
//! milliseconds instead of a million SQL rows with decimal text.

use chrono::Datelike;
use core_domain::{Asset, Date};
use rusqlite::Connection;
use rust_decimal::Decimal;
use use_cases::PortResult;
use use_cases::ports::{PriceRow, PriceTableBuilder, StoredQuote};

use crate::codec::{AssetTable, date_of, decimal_col, int_col, text_col};
use crate::error::{corrupt, map_err};

/// Bytes of one entry: the day (i32 little endian, days from the common era), the close
/// (`Decimal::serialize`, which keeps the scale: `1.50` stays `1.50`), then the import log id
/// of the file that wrote it (u32 little endian: every stored value keeps its provenance,
/// `imports.md` §3.1).
pub(crate) const ENTRY: usize = 24;

/// An import log id as an entry stores it.
pub(crate) fn entry_import_id(import: i64) -> PortResult<u32> {
    u32::try_from(import).map_err(|e| corrupt("price import id", e))
}

/// The year of a stored day number; days outside chrono's range clamp to its bounds.
pub(crate) fn year_of(day: i64) -> i64 {
    let clamped = i32::try_from(day).unwrap_or(if day < 0 { i32::MIN } else { i32::MAX });
    match chrono::NaiveDate::from_num_days_from_ce_opt(clamped) {
        Some(date) => i64::from(date.year()),
        None if day < 0 => i64::from(chrono::NaiveDate::MIN.year()),
        None => i64::from(chrono::NaiveDate::MAX.year()),
    }
}

/// Appends one entry.
pub(crate) fn push_entry(buf: &mut Vec<u8>, day: i32, close: Decimal, import: u32) {
    buf.extend_from_slice(&day.to_le_bytes());
    buf.extend_from_slice(&close.serialize());
    buf.extend_from_slice(&import.to_le_bytes());
}

/// The day of entry `bytes` (exactly [`ENTRY`] bytes long).
pub(crate) fn entry_day(bytes: &[u8]) -> i32 {
    let mut day = [0u8; 4];
    if let Some(head) = bytes.get(..4) {
        day.copy_from_slice(head);
    }
    i32::from_le_bytes(day)
}

/// The close of entry `bytes` (exactly [`ENTRY`] bytes long).
pub(crate) fn entry_close(bytes: &[u8]) -> Decimal {
    let mut close = [0u8; 16];
    if let Some(tail) = bytes.get(4..20) {
        close.copy_from_slice(tail);
    }
    Decimal::deserialize(close)
}

/// The import log id of entry `bytes` (exactly [`ENTRY`] bytes long). No read asks for it
/// yet (only the latest close's provenance is reported); tests check it is kept.
pub(crate) fn entry_import(bytes: &[u8]) -> u32 {
    let mut import = [0u8; 4];
    if let Some(tail) = bytes.get(20..ENTRY) {
        import.copy_from_slice(tail);
    }
    u32::from_le_bytes(import)
}

/// Checks that a stored blob is a whole number of entries.
pub(crate) fn check_len(blob: &[u8]) -> PortResult<()> {
    if blob.len() % ENTRY != 0 {
        return Err(corrupt(
            "price series",
            format!("blob of {} bytes", blob.len()),
        ));
    }
    Ok(())
}

/// The index of the first entry dated on or after `day` (entries are sorted by day).
fn first_from(blob: &[u8], day: i64) -> usize {
    let count = blob.len() / ENTRY;
    let (mut low, mut high) = (0usize, count);
    while low < high {
        let mid = low + (high - low) / 2;
        let at = blob.get(mid * ENTRY..).unwrap_or_default();
        if i64::from(entry_day(at)) < day {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

/// Where decoded closes go: a price table being built, or a list of rows.
pub(crate) trait CloseSink {
    /// Room for `additional` more closes of `asset` (the length of a stored run, told before
    /// its closes arrive).
    fn reserve(&mut self, asset: Asset, additional: usize);
    /// One close.
    fn push(&mut self, row: PriceRow);
}

impl CloseSink for PriceTableBuilder {
    fn reserve(&mut self, asset: Asset, additional: usize) {
        PriceTableBuilder::reserve(self, asset, additional);
    }

    fn push(&mut self, row: PriceRow) {
        PriceTableBuilder::push(self, row);
    }
}

impl CloseSink for Vec<PriceRow> {
    fn reserve(&mut self, _: Asset, additional: usize) {
        Vec::reserve(self, additional);
    }

    fn push(&mut self, row: PriceRow) {
        Vec::push(self, row);
    }
}

/// Appends to `out` the closes of `asset_id` dated within each of `ranges` (sorted, disjoint
/// `[from, to]` day ranges), every quote currency.
pub(crate) fn read_ranges(
    conn: &Connection,
    assets: &AssetTable,
    asset_id: i64,
    ranges: &[(i64, i64)],
    out: &mut Vec<PriceRow>,
) -> PortResult<()> {
    read_ranges_into(conn, assets, asset_id, ranges, out)
}

/// [`read_ranges`] handing each close to `out`, quote currency by quote currency, each
/// sorted by day.
pub(crate) fn read_ranges_into(
    conn: &Connection,
    assets: &AssetTable,
    asset_id: i64,
    ranges: &[(i64, i64)],
    out: &mut dyn CloseSink,
) -> PortResult<()> {
    let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
        return Ok(());
    };
    let mut statement = conn
        .prepare_cached(
            "SELECT quote_id, closes FROM price_series \
             WHERE asset_id = ?1 AND year BETWEEN ?2 AND ?3",
        )
        .map_err(map_err)?;
    let asset = assets.get(asset_id)?;
    let mut rows = statement
        .query((asset_id, year_of(first.0), year_of(last.1)))
        .map_err(map_err)?;
    while let Some(row) = rows.next().map_err(map_err)? {
        let currency = assets.get(int_col(row.get_ref_unwrap(0), "price quote")?)?;
        let blob = row
            .get_ref_unwrap(1)
            .as_blob()
            .map_err(|e| corrupt("price series", e))?;
        check_len(blob)?;
        let count = blob.len() / ENTRY;
        let (Some(head), Some(tail)) = (blob.get(..ENTRY), blob.get((count.max(1) - 1) * ENTRY..))
        else {
            continue;
        };
        let (low, high) = (i64::from(entry_day(head)), i64::from(entry_day(tail)));
        for &(from, to) in ranges {
            if to < low || from > high {
                continue;
            }
            // The entries are sorted by day: the range is one run of them.
            let start = first_from(blob, from);
            let end = first_from(blob, to.saturating_add(1)).max(start);
            out.reserve(asset, end - start);
            // Consecutive days are the common case: the next date is one step from the last
            // rather than a conversion from the day number.
            let mut previous: Option<(i64, Date)> = None;
            for entry in blob
                .get(start * ENTRY..end * ENTRY)
                .unwrap_or_default()
                .chunks_exact(ENTRY)
            {
                let day = i64::from(entry_day(entry));
                let date = match previous {
                    Some((last, date)) if day == last + 1 => {
                        date.succ_opt().map_or_else(|| date_of(day), Ok)?
                    }
                    _ => date_of(day)?,
                };
                previous = Some((day, date));
                out.push(PriceRow {
                    asset,
                    date,
                    currency,
                    close: entry_close(entry),
                });
            }
        }
    }
    Ok(())
}

/// The latest close per (asset, quote) with its import's format, sorted by (asset, quote).
pub(crate) fn latest_quotes(conn: &Connection) -> PortResult<Vec<StoredQuote>> {
    let table = AssetTable::load(conn)?;
    let mut statement = conn
        .prepare_cached(
            "SELECT q.asset_id, q.quote_id, q.day, q.close, l.format FROM price_latest AS q \
             LEFT JOIN import_log AS l ON l.id = q.import_id",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        out.push(StoredQuote {
            row: PriceRow {
                asset: table.get(int_col(row.get_ref_unwrap(0), "price asset")?)?,
                currency: table.get(int_col(row.get_ref_unwrap(1), "price quote")?)?,
                date: date_of(int_col(row.get_ref_unwrap(2), "price day")?)?,
                close: decimal_col(row.get_ref_unwrap(3), "close")?,
            },
            format: text_col(row.get_ref_unwrap(4), "price import format")?,
        });
    }
    out.sort_by_key(|q| (q.row.asset, q.row.currency));
    Ok(out)
}

/// Migration step: moves the rows of the version-1 `prices` table into the series and latest
/// tables (created by the migration's SQL), then drops it.
pub(crate) fn convert_price_rows(conn: &Connection) -> PortResult<()> {
    let mut statement = conn
        .prepare(
            "SELECT asset_id, quote_id, day, close, import_id FROM prices \
             ORDER BY asset_id, quote_id, day",
        )
        .map_err(map_err)?;
    let mut insert_series = conn
        .prepare(
            "INSERT INTO price_series (asset_id, year, quote_id, n, closes) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .map_err(map_err)?;
    let mut insert_latest = conn
        .prepare(
            "INSERT INTO price_latest (asset_id, quote_id, day, close, import_id) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    // (asset, quote, year) of the blob being built; (asset, quote, day, close text, import).
    let mut current: Option<(i64, i64, i64)> = None;
    let mut buf: Vec<u8> = Vec::new();
    let mut latest: Option<(i64, i64, i64, String, i64)> = None;
    let mut flush = |key: Option<(i64, i64, i64)>, buf: &mut Vec<u8>| -> PortResult<()> {
        if let Some((asset, quote, year)) = key
            && !buf.is_empty()
        {
            let n = i64::try_from(buf.len() / ENTRY).map_err(|e| corrupt("price series", e))?;
            insert_series
                .execute((asset, year, quote, n, &buf[..]))
                .map_err(map_err)?;
        }
        buf.clear();
        Ok(())
    };
    let mut write_latest = |latest: Option<(i64, i64, i64, String, i64)>| -> PortResult<()> {
        if let Some((asset, quote, day, close, import)) = latest {
            insert_latest
                .execute((asset, quote, day, close, import))
                .map_err(map_err)?;
        }
        Ok(())
    };
    while let Some(row) = rows.next().map_err(map_err)? {
        let asset = int_col(row.get_ref_unwrap(0), "price asset")?;
        let quote = int_col(row.get_ref_unwrap(1), "price quote")?;
        let day = int_col(row.get_ref_unwrap(2), "price day")?;
        let close = decimal_col(row.get_ref_unwrap(3), "close")?;
        let import = int_col(row.get_ref_unwrap(4), "price import")?;
        let key = (asset, quote, year_of(day));
        if current != Some(key) {
            flush(current, &mut buf)?;
            current = Some(key);
        }
        if latest
            .as_ref()
            .is_some_and(|l| (l.0, l.1) != (asset, quote))
        {
            write_latest(latest.take())?;
        }
        let text = crate::codec::decimal_text(close);
        latest = Some((asset, quote, day, text, import));
        let day = i32::try_from(day).map_err(|e| corrupt("price day", e))?;
        push_entry(&mut buf, day, close, entry_import_id(import)?);
    }
    flush(current, &mut buf)?;
    write_latest(latest)?;
    drop(rows);
    drop(statement);
    conn.execute_batch("DROP TABLE prices").map_err(map_err)?;
    Ok(())
}
