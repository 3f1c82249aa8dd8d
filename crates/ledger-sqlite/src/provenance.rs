//! Where each stored close and rate came from: the import log entry that wrote it (a file
//! import, or a `cartera sync` request whose entry names the provider, market and fetch time,
//! `docs/decisions.md` D-110). Read by `prices list` and `rates list`.

use core_domain::{Asset, Date};
use rusqlite::Connection;
use use_cases::PortResult;
use use_cases::ports::{PriceRow, RateRow};

use crate::SqliteLedger;
use crate::codec::{date_of, day_of, decimal_col, int_col, text_col};
use crate::error::{corrupt, map_err};
use crate::series::{ENTRY, check_len, entry_close, entry_day, entry_import, year_of};

/// A stored close and the import log entry that wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriceSource {
    /// The close.
    pub row: PriceRow,
    /// The import log id of the file or sync request that wrote it.
    pub import_id: i64,
}

/// A stored rate and the import log entry that wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateSource {
    /// The rate.
    pub row: RateRow,
    /// The import log id.
    pub import_id: i64,
}

fn asset(symbol: &str) -> PortResult<Asset> {
    Asset::new(symbol).map_err(|e| corrupt("asset symbol", e))
}

/// The series rows of a year range, with their asset and quote symbols.
const SELECT_SERIES: &str = "SELECT a.symbol, q.symbol, s.closes FROM price_series s \
     JOIN assets a ON a.id = s.asset_id JOIN assets q ON q.id = s.quote_id \
     WHERE s.year BETWEEN ?1 AND ?2";

fn price_sources(
    conn: &Connection,
    assets: Option<&[Asset]>,
    from: Date,
    to: Date,
) -> PortResult<Vec<PriceSource>> {
    let (first, last) = (day_of(from), day_of(to));
    let years = (year_of(first), year_of(last));
    let mut out = Vec::new();
    if let Some(assets) = assets {
        // One asset at a time: a sync plans one asset per call.
        let mut statement = conn
            .prepare_cached(&format!("{SELECT_SERIES} AND a.symbol = ?3"))
            .map_err(map_err)?;
        for asset in assets {
            let mut rows = statement
                .query((years.0, years.1, asset.as_str()))
                .map_err(map_err)?;
            while let Some(row) = rows.next().map_err(map_err)? {
                decode(row, (first, last), &mut out)?;
            }
        }
    } else {
        let mut statement = conn.prepare_cached(SELECT_SERIES).map_err(map_err)?;
        let mut rows = statement.query(years).map_err(map_err)?;
        while let Some(row) = rows.next().map_err(map_err)? {
            decode(row, (first, last), &mut out)?;
        }
    }
    out.sort_by(|x, y| {
        (x.row.asset.as_str(), x.row.date, x.row.currency.as_str()).cmp(&(
            y.row.asset.as_str(),
            y.row.date,
            y.row.currency.as_str(),
        ))
    });
    Ok(out)
}

/// The entries of one series row inside `days`.
fn decode(
    row: &rusqlite::Row<'_>,
    (first, last): (i64, i64),
    out: &mut Vec<PriceSource>,
) -> PortResult<()> {
    let a = asset(&text_col(row.get_ref(0).map_err(map_err)?, "asset")?)?;
    let quote = asset(&text_col(row.get_ref(1).map_err(map_err)?, "quote")?)?;
    let blob: Vec<u8> = row.get(2).map_err(map_err)?;
    check_len(&blob)?;
    for entry in blob.chunks_exact(ENTRY) {
        let day = i64::from(entry_day(entry));
        if day < first || day > last {
            continue;
        }
        out.push(PriceSource {
            row: PriceRow {
                asset: a,
                date: date_of(day)?,
                close: entry_close(entry),
                currency: quote,
            },
            import_id: i64::from(entry_import(entry)),
        });
    }
    Ok(())
}

fn rate_sources(
    conn: &Connection,
    currency: Option<Asset>,
    from: Date,
    to: Date,
) -> PortResult<Vec<RateSource>> {
    let mut statement = conn
        .prepare(
            "SELECT a.symbol, r.day, r.rate, r.import_id FROM rates r \
             JOIN assets a ON a.id = r.currency_id WHERE r.day BETWEEN ?1 AND ?2",
        )
        .map_err(map_err)?;
    let mut rows = statement
        .query((day_of(from), day_of(to)))
        .map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let code = asset(&text_col(row.get_ref(0).map_err(map_err)?, "currency")?)?;
        if currency.is_some_and(|c| c != code) {
            continue;
        }
        out.push(RateSource {
            row: RateRow {
                currency: code,
                date: date_of(int_col(row.get_ref(1).map_err(map_err)?, "rate day")?)?,
                rate: decimal_col(row.get_ref(2).map_err(map_err)?, "rate")?,
            },
            import_id: int_col(row.get_ref(3).map_err(map_err)?, "rate import")?,
        });
    }
    out.sort_by(|x, y| {
        (x.row.currency.as_str(), x.row.date).cmp(&(y.row.currency.as_str(), y.row.date))
    });
    Ok(out)
}

impl SqliteLedger {
    /// The stored closes of `assets` (all when `None`) with `from ≤ date ≤ to`, each with the
    /// import log entry that wrote it; sorted by (asset, date, currency).
    pub fn price_sources(
        &self,
        assets: Option<&[Asset]>,
        from: Date,
        to: Date,
    ) -> PortResult<Vec<PriceSource>> {
        price_sources(&self.conn, assets, from, to)
    }

    /// The stored rates of `currency` (all when `None`) with `from ≤ date ≤ to`, each with the
    /// import log entry that wrote it; sorted by (currency, date).
    pub fn rate_sources(
        &self,
        currency: Option<Asset>,
        from: Date,
        to: Date,
    ) -> PortResult<Vec<RateSource>> {
        rate_sources(&self.conn, currency, from, to)
    }
}

#[cfg(test)]
mod tests;
