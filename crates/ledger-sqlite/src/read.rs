//! The read ports.

use core_domain::overrides::{Counterparty, CustodyLink, FeeEdit, RowOverride, ValueEdit};
use core_domain::{
    Account, AccountId, Asset, AssetAmount, Date, Fee, FuturesRow, Instant, RowValues, SpotRow,
    StatedAmount, StatedValues, TxType,
};
use rusqlite::Connection;
use rusqlite::types::ValueRef;
use shared_types::{CustodyKind, FuturesKind};
use use_cases::PortResult;
use use_cases::ports::{
    ImportLogEntry, LedgerRead, LedgerSnapshot, NewImportLog, PriceRow, PriceStore, PriceTable,
    PriceTableBuilder, RateRow, RateStore, RowDetail, SettingKey, SettingsStore, StoredQuote,
};

use crate::codec::{
    AssetTable, SEP, StoredKey, UNKNOWN_TX_TYPE, date_of, day_of, decimal_col, int_col,
    opt_decimal_col, opt_int_col, opt_text_col, parse_lines, row_key_col, spot_type_of, text_col,
};
use crate::error::{corrupt, map_err};
use crate::series;
use crate::{ReadOnlyLedger, SqliteLedger};

pub(crate) fn ledger_version(conn: &Connection) -> PortResult<u64> {
    meta_value(conn, "ledger_version")
}

pub(crate) fn meta_value(conn: &Connection, key: &str) -> PortResult<u64> {
    let value: i64 = conn
        .prepare_cached("SELECT value FROM meta WHERE key = ?1")
        .and_then(|mut s| s.query_row([key], |row| row.get(0)))
        .map_err(map_err)?;
    u64::try_from(value).map_err(|e| corrupt(key, e))
}

fn account_id(id: i64) -> PortResult<AccountId> {
    u32::try_from(id)
        .map(AccountId)
        .map_err(|e| corrupt("account id", e))
}

fn seq_of(value: i64) -> PortResult<u64> {
    u64::try_from(value).map_err(|e| corrupt("seq", e))
}

fn accounts(conn: &Connection) -> PortResult<Vec<Account>> {
    let mut statement = conn
        .prepare_cached(
            "SELECT id, name, parent_id, custody_kind, country FROM accounts ORDER BY id",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let kind = text_col(row.get_ref_unwrap(3), "custody kind")?;
        out.push(Account {
            id: account_id(int_col(row.get_ref_unwrap(0), "account id")?)?,
            name: text_col(row.get_ref_unwrap(1), "account name")?,
            parent_id: opt_int_col(row.get_ref_unwrap(2), "parent id")?
                .map(account_id)
                .transpose()?,
            custody_kind: CustodyKind::parse(&kind)
                .ok_or_else(|| corrupt("custody kind", &kind))?,
            country: opt_text_col(row.get_ref_unwrap(4), "country")?,
        });
    }
    Ok(out)
}

fn side(
    assets: &AssetTable,
    asset: ValueRef<'_>,
    quantity: ValueRef<'_>,
    what: &str,
) -> PortResult<Option<(Asset, rust_decimal::Decimal)>> {
    match (opt_int_col(asset, what)?, opt_decimal_col(quantity, what)?) {
        (Some(id), Some(q)) => Ok(Some((assets.get(id)?, q))),
        (None, None) => Ok(None),
        _ => Err(corrupt(
            what,
            "asset and amount must both be set or both be empty",
        )),
    }
}

fn stated(
    assets: &AssetTable,
    amount: ValueRef<'_>,
    currency: ValueRef<'_>,
    what: &str,
) -> PortResult<Option<StatedAmount>> {
    Ok(side(assets, currency, amount, what)?
        .map(|(currency, amount)| StatedAmount { amount, currency }))
}

/// Spot rows from which a full read decodes half of them on a second connection: below it the
/// connection costs more than it saves (a count of rows, whatever the number of threads).
pub(crate) const PARALLEL_READ_MIN_ROWS: u64 = 20_000;

const SPOT_COLUMNS: &str = "seq, row_key, account_id, tx_type, unknown_label, instant, \
     in_asset, in_qty, out_asset, out_qty, fee_asset, fee_qty, sv_amount, sv_ccy, \
     sp_amount, sp_ccy, sfv_amount, sfv_ccy, group_id";

fn spot_rows(
    conn: &Connection,
    assets: &AssetTable,
    parallel_min_rows: u64,
) -> PortResult<Vec<SpotRow>> {
    // The rows number at most their `seq` span (the rowid), which the b-tree's two ends give at
    // once; `count(*)` would scan an index first (12 ms at 100k, about 50 ms at 1M).
    let span = seq_span(conn)?;
    let estimate = span.map_or(0, |(low, high)| {
        let rows = high.saturating_sub(low).saturating_add(1);
        u64::try_from(rows)
            .unwrap_or(0)
            .min(rows_the_file_holds(conn))
    });
    let mut out = Vec::with_capacity(usize::try_from(estimate).unwrap_or(0));
    // Table order is seq order, which is ledger order unless an import added older rows
    // (see the schema on why there is no ordering index).
    let split = span
        .filter(|_| estimate >= parallel_min_rows)
        .map(|(low, high)| low.saturating_add(high.saturating_sub(low) / 2));
    match (split, conn.path().filter(|p| !p.is_empty())) {
        (Some(mid), Some(path)) => {
            // A large ledger: the rows above the midpoint are read and decoded on a second
            // connection and thread while this one reads the rest (decoding is most of a
            // report's read time).
            let half = out.capacity() / 2 + 1;
            let ((), mut upper) = read_in_two(
                conn,
                path,
                || spot_range(conn, assets, Some((i64::MIN, mid)), &mut out),
                |reader| {
                    // Sized up front: growing a vector of wide rows copies them and faults
                    // fresh pages.
                    let mut rows = Vec::with_capacity(half);
                    spot_range(
                        reader,
                        assets,
                        Some((mid.saturating_add(1), i64::MAX)),
                        &mut rows,
                    )?;
                    Ok(rows)
                },
            )?;
            out.append(&mut upper);
        }
        _ => spot_range(conn, assets, None, &mut out)?,
    }
    if !out.is_sorted_by_key(|r| (r.instant, r.seq)) {
        out.sort_unstable_by_key(|r| (r.instant, r.seq));
    }
    Ok(out)
}

/// The seq that splits the spot rows into two halves of the seq range, when there are rows.
/// The lowest and highest `seq` of the spot rows (`None` without rows).
fn seq_span(conn: &Connection) -> PortResult<Option<(i64, i64)>> {
    let (low, high): (Option<i64>, Option<i64>) = conn
        // Two subqueries: SQLite answers a lone min() or max() of the rowid from the b-tree's
        // ends, but scans the whole table for both in one select.
        .prepare_cached("SELECT (SELECT min(seq) FROM spot_rows), (SELECT max(seq) FROM spot_rows)")
        .and_then(|mut s| s.query_row([], |row| Ok((row.get(0)?, row.get(1)?))))
        .map_err(map_err)?;
    Ok(low.zip(high))
}

/// Bytes of the smallest spot row a page can hold (record header, key, account, type, instant,
/// import and source lines, and the cell's own overhead): a bound on the rows the file holds.
const MIN_SPOT_ROW_BYTES: u64 = 32;

/// At most how many spot rows the ledger file can hold: a `seq` span with gaps (a sparse or
/// damaged ledger) never sizes the row list beyond what the file could decode into.
fn rows_the_file_holds(conn: &Connection) -> u64 {
    let pragma = |name: &str| -> u64 {
        conn.query_row(&format!("PRAGMA {name}"), [], |row| row.get::<_, i64>(0))
            .ok()
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(0)
    };
    pragma("page_count").saturating_mul(pragma("page_size")) / MIN_SPOT_ROW_BYTES
}

/// Runs `lower` on `conn` while `upper` runs on a second read-only connection to the ledger
/// at `path`, as a job of the rayon pool (the connection `conn` is not shared: it stays on this
/// thread). The second connection's answer counts only if it read the ledger version `conn`
/// reads; otherwise (a write in between, or any failure) `upper` runs on `conn` too. On a
/// one-thread pool the second connection would only cost: both run on `conn`.
fn read_in_two<L, U: Send>(
    conn: &Connection,
    path: &str,
    lower: impl FnOnce() -> PortResult<L>,
    upper: impl Fn(&Connection) -> PortResult<U> + Sync,
) -> PortResult<(L, U)> {
    let mut second = None;
    let lower = if rayon::current_num_threads() > 1 {
        let version = ledger_version(conn)?;
        rayon::in_place_scope(|scope| {
            let upper = &upper;
            let second = &mut second;
            scope.spawn(move |_| {
                *second = with_second_reader(path, version, upper).ok().flatten();
            });
            lower()
        })
    } else {
        lower()
    };
    let lower = lower?;
    let upper = match second {
        Some(upper) => upper,
        None => upper(conn)?,
    };
    Ok((lower, upper))
}

/// Runs `read` in a read transaction on a connection of its own to the ledger at `path`;
/// `None` when that connection sees another ledger version than `version` (a write came in
/// between), so the caller reads on its own connection instead.
fn with_second_reader<T>(
    path: &str,
    version: u64,
    read: impl FnOnce(&Connection) -> PortResult<T>,
) -> PortResult<Option<T>> {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(map_err)?;
    conn.busy_timeout(crate::BUSY_TIMEOUT).map_err(map_err)?;
    conn.pragma_update(None, "mmap_size", 1_i64 << 30)
        .map_err(map_err)?;
    let tx = conn.unchecked_transaction().map_err(map_err)?;
    if ledger_version(&tx)? != version {
        return Ok(None);
    }
    let value = read(&tx)?;
    tx.finish().map_err(map_err)?;
    Ok(Some(value))
}

/// Appends the spot rows with `from <= seq <= to` (all rows for `None`) in table order.
fn spot_range(
    conn: &Connection,
    assets: &AssetTable,
    seqs: Option<(i64, i64)>,
    out: &mut Vec<SpotRow>,
) -> PortResult<()> {
    let (from, to) = seqs.unwrap_or((i64::MIN, i64::MAX));
    let sql = format!("SELECT {SPOT_COLUMNS} FROM spot_rows WHERE seq BETWEEN ?1 AND ?2");
    let mut statement = conn.prepare_cached(&sql).map_err(map_err)?;
    let mut rows = statement.query((from, to)).map_err(map_err)?;
    while let Some(row) = rows.next().map_err(map_err)? {
        out.push(spot_row(row, assets)?);
    }
    Ok(())
}

/// One decoded spot row.
fn spot_row(row: &rusqlite::Row<'_>, assets: &AssetTable) -> PortResult<SpotRow> {
    let v = |i: usize| row.get_ref_unwrap(i);
    let code = int_col(v(3), "tx_type")?;
    let tx_type = if code == UNKNOWN_TX_TYPE {
        TxType::Unknown {
            source_label: opt_text_col(v(4), "unknown label")?.unwrap_or_default(),
        }
    } else {
        TxType::Spot(spot_type_of(code)?)
    };
    Ok(SpotRow {
        seq: seq_of(int_col(v(0), "seq")?)?,
        row_key: row_key_col(v(1))?,
        account_id: account_id(int_col(v(2), "account id")?)?,
        tx_type,
        instant: Instant::from_unix_nanos(int_col(v(5), "instant")?),
        inflow: side(assets, v(6), v(7), "in")?
            .map(|(asset, quantity)| AssetAmount { asset, quantity }),
        outflow: side(assets, v(8), v(9), "out")?
            .map(|(asset, quantity)| AssetAmount { asset, quantity }),
        fee: side(assets, v(10), v(11), "fee")?.map(|(asset, quantity)| Fee { asset, quantity }),
        values: RowValues::stated(StatedValues {
            value: stated(assets, v(12), v(13), "stated value")?,
            price: stated(assets, v(14), v(15), "stated price")?,
            fee_value: stated(assets, v(16), v(17), "stated fee value")?,
        }),
        transfer_group_id: opt_text_col(v(18), "group id")?,
    })
}

fn table_count(conn: &Connection, sql: &str) -> PortResult<u64> {
    let n: i64 = conn
        .prepare_cached(sql)
        .and_then(|mut s| s.query_row([], |row| row.get(0)))
        .map_err(map_err)?;
    u64::try_from(n).map_err(|e| corrupt("count", e))
}

fn futures_rows(conn: &Connection, assets: &AssetTable) -> PortResult<Vec<FuturesRow>> {
    let mut statement = conn
        .prepare_cached(
            "SELECT seq, row_key, account_id, kind, contract, instant, settlement_asset, \
             realized_pnl, funding, fee_asset, fee FROM futures_rows ORDER BY instant, seq",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let v = |i: usize| row.get_ref_unwrap(i);
        let kind = text_col(v(3), "futures kind")?;
        out.push(FuturesRow {
            seq: seq_of(int_col(v(0), "seq")?)?,
            row_key: row_key_col(v(1))?,
            account_id: account_id(int_col(v(2), "account id")?)?,
            kind: FuturesKind::parse(&kind).ok_or_else(|| corrupt("futures kind", &kind))?,
            contract: text_col(v(4), "contract")?,
            instant: Instant::from_unix_nanos(int_col(v(5), "instant")?),
            settlement_asset: assets.get(int_col(v(6), "settlement asset")?)?,
            realized_pnl: opt_decimal_col(v(7), "realized pnl")?.unwrap_or_default(),
            funding: opt_decimal_col(v(8), "funding")?.unwrap_or_default(),
            fee_asset: assets.opt(opt_int_col(v(9), "fee asset")?)?,
            fee: opt_decimal_col(v(10), "fee")?.unwrap_or_default(),
        });
    }
    Ok(out)
}

fn value_edit(
    assets: &AssetTable,
    kind: ValueRef<'_>,
    amount: ValueRef<'_>,
    currency: ValueRef<'_>,
    what: &str,
) -> PortResult<ValueEdit> {
    match int_col(kind, what)? {
        0 => Ok(ValueEdit::Unchanged),
        1 => {
            let set = stated(assets, amount, currency, what)?
                .ok_or_else(|| corrupt(what, "set without a value"))?;
            Ok(ValueEdit::Set {
                amount: set.amount,
                currency: set.currency,
            })
        }
        2 => Ok(ValueEdit::Clear),
        other => Err(corrupt(what, format!("unknown edit code {other}"))),
    }
}

fn overrides(conn: &Connection, assets: &AssetTable) -> PortResult<Vec<RowOverride>> {
    let mut statement = conn
        .prepare_cached(
            "SELECT row_key, tx_type, instant, in_qty, out_qty, fee_edit, fee_asset, fee_qty, \
             value_edit, value_amount, value_ccy, price_edit, price_amount, price_ccy, \
             fee_value_edit, fee_value_amount, fee_value_ccy, excluded \
             FROM overrides ORDER BY row_key",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let v = |i: usize| row.get_ref_unwrap(i);
        let fee = match int_col(v(5), "fee edit")? {
            0 => FeeEdit::Unchanged,
            1 => FeeEdit::None,
            2 => {
                let (asset, quantity) = side(assets, v(6), v(7), "fee edit")?
                    .ok_or_else(|| corrupt("fee edit", "charged without a fee"))?;
                FeeEdit::Charged { asset, quantity }
            }
            other => return Err(corrupt("fee edit", format!("unknown code {other}"))),
        };
        out.push(RowOverride {
            row_key: text_col(v(0), "row key")?,
            tx_type: opt_int_col(v(1), "tx type edit")?
                .map(spot_type_of)
                .transpose()?,
            instant: opt_int_col(v(2), "instant edit")?.map(Instant::from_unix_nanos),
            in_quantity: opt_decimal_col(v(3), "in quantity edit")?,
            out_quantity: opt_decimal_col(v(4), "out quantity edit")?,
            fee,
            edited_value: value_edit(assets, v(8), v(9), v(10), "value edit")?,
            edited_price: value_edit(assets, v(11), v(12), v(13), "price edit")?,
            edited_fee_value: value_edit(assets, v(14), v(15), v(16), "fee value edit")?,
            excluded: int_col(v(17), "excluded")? != 0,
        });
    }
    Ok(out)
}

fn override_notes(conn: &Connection) -> PortResult<Vec<(String, String)>> {
    let mut statement = conn
        .prepare_cached(
            "SELECT row_key, note FROM overrides WHERE note IS NOT NULL ORDER BY row_key",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        out.push((
            text_col(row.get_ref_unwrap(0), "row key")?,
            text_col(row.get_ref_unwrap(1), "override note")?,
        ));
    }
    Ok(out)
}

fn custody_links(conn: &Connection) -> PortResult<Vec<CustodyLink>> {
    let mut statement = conn
        .prepare_cached(
            "SELECT row_key, kind, in_row_key, counterparty FROM custody_links ORDER BY row_key",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let v = |i: usize| row.get_ref_unwrap(i);
        let row_key = text_col(v(0), "link row key")?;
        let link = match int_col(v(1), "link kind")? {
            0 => CustodyLink::Link {
                out_row_key: row_key,
                in_row_key: text_col(v(2), "link in row key")?,
            },
            1 => CustodyLink::Counterparty {
                row_key,
                counterparty: match opt_int_col(v(3), "counterparty")? {
                    Some(id) => Counterparty::Account(account_id(id)?),
                    None => Counterparty::OwnWallet,
                },
            },
            other => return Err(corrupt("link kind", format!("unknown code {other}"))),
        };
        out.push(link);
    }
    Ok(out)
}

fn row_detail(conn: &Connection, row_key: &str) -> PortResult<Option<RowDetail>> {
    let mut statement = conn
        .prepare_cached(
            "SELECT r.seq, r.import_id, l.file_name, r.source_lines, r.source_ref, r.note, \
                    r.content_key, r.trade_price, r.realized_pnl IS NOT NULL, r.funding IS NOT NULL, \
                    a.name \
             FROM (SELECT seq, import_id, account_id, source_lines, source_ref, note, content_key, \
                          NULL AS trade_price, NULL AS realized_pnl, NULL AS funding \
                   FROM spot_rows WHERE row_key = ?1 \
                   UNION ALL \
                   SELECT seq, import_id, account_id, source_lines, source_ref, note, content_key, \
                          trade_price, realized_pnl, funding \
                   FROM futures_rows WHERE row_key = ?1) AS r \
             JOIN import_log l ON l.id = r.import_id \
             JOIN accounts a ON a.id = r.account_id",
        )
        .map_err(map_err)?;
    let mut rows = statement
        .query([StoredKey::new(row_key)])
        .map_err(map_err)?;
    let Some(row) = rows.next().map_err(map_err)? else {
        return Ok(None);
    };
    let v = |i: usize| row.get_ref_unwrap(i);
    Ok(Some(RowDetail {
        row_key: row_key.to_owned(),
        seq: seq_of(int_col(v(0), "seq")?)?,
        import_id: int_col(v(1), "import id")?,
        file_name: text_col(v(2), "file name")?,
        source_lines: parse_lines(&text_col(v(3), "source lines")?)?,
        source_ref: opt_text_col(v(4), "source ref")?,
        note: opt_text_col(v(5), "note")?,
        content_key: opt_text_col(v(6), "content key")?,
        trade_price: opt_decimal_col(v(7), "trade price")?,
        realized_pnl_stated: int_col(v(8), "realized pnl stated")? != 0,
        funding_stated: int_col(v(9), "funding stated")? != 0,
        account: text_col(v(10), "account name")?,
    }))
}

fn split_list(text: &str) -> Vec<String> {
    if text.is_empty() {
        Vec::new()
    } else {
        text.split(SEP).map(str::to_owned).collect()
    }
}

fn count_of(value: ValueRef<'_>, what: &str) -> PortResult<u64> {
    u64::try_from(int_col(value, what)?).map_err(|e| corrupt(what, e))
}

fn import_log(conn: &Connection) -> PortResult<Vec<ImportLogEntry>> {
    let mut statement = conn
        .prepare_cached(
            "SELECT id, imported_at, file_name, file_sha256, format, layout, options, rows_read, \
             skipped, invalid, warnings, added, duplicates, replaced FROM import_log ORDER BY id",
        )
        .map_err(map_err)?;
    let mut rows = statement.query([]).map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        let v = |i: usize| row.get_ref_unwrap(i);
        let mut skipped = Vec::new();
        for entry in split_list(&text_col(v(8), "skipped")?) {
            let (reason, count) = entry
                .split_once('=')
                .ok_or_else(|| corrupt("skipped", &entry))?;
            let count = count.parse().map_err(|e| corrupt("skipped", e))?;
            skipped.push((reason.to_owned(), count));
        }
        out.push(ImportLogEntry {
            id: int_col(v(0), "import id")?,
            log: NewImportLog {
                imported_at: Instant::from_unix_nanos(int_col(v(1), "imported at")?),
                file_name: text_col(v(2), "file name")?,
                file_sha256: text_col(v(3), "file sha256")?,
                format: text_col(v(4), "format")?,
                layout: opt_text_col(v(5), "layout")?,
                options: split_list(&text_col(v(6), "options")?),
                rows_read: count_of(v(7), "rows read")?,
                skipped,
                invalid: count_of(v(9), "invalid")?,
                warnings: count_of(v(10), "warnings")?,
            },
            added: count_of(v(11), "added")?,
            duplicates: count_of(v(12), "duplicates")?,
            replaced: count_of(v(13), "replaced")?,
        });
    }
    Ok(out)
}

/// Ids of the given symbols that exist in the asset table.
fn asset_ids(conn: &Connection, assets: &[Asset]) -> PortResult<Vec<(i64, Asset)>> {
    let mut statement = conn
        .prepare_cached("SELECT id FROM assets WHERE symbol = ?1")
        .map_err(map_err)?;
    let mut out = Vec::new();
    for asset in assets {
        let id: Option<i64> = statement
            .query_row([asset.as_str()], |row| row.get(0))
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                other => Err(other),
            })
            .map_err(map_err)?;
        if let Some(id) = id {
            out.push((id, *asset));
        }
    }
    out.sort_unstable_by_key(|(_, asset)| *asset);
    out.dedup_by_key(|(id, _)| *id);
    Ok(out)
}

fn rates_where(conn: &Connection, sql: &str, currency_id: Option<i64>) -> PortResult<Vec<RateRow>> {
    let assets = AssetTable::load(conn)?;
    let mut statement = conn.prepare_cached(sql).map_err(map_err)?;
    let mut rows = match currency_id {
        Some(id) => statement.query([id]),
        None => statement.query([]),
    }
    .map_err(map_err)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(map_err)? {
        out.push(RateRow {
            currency: assets.get(int_col(row.get_ref_unwrap(0), "rate currency")?)?,
            date: date_of(int_col(row.get_ref_unwrap(1), "rate day")?)?,
            rate: decimal_col(row.get_ref_unwrap(2), "rate")?,
        });
    }
    // Ids follow first use, not the alphabet.
    out.sort_by_key(|r| (r.currency, r.date));
    Ok(out)
}

fn all_rates(conn: &Connection) -> PortResult<Vec<RateRow>> {
    rates_where(conn, "SELECT currency_id, day, rate FROM rates", None)
}

fn rates_for(conn: &Connection, currencies: &[Asset]) -> PortResult<Vec<RateRow>> {
    let mut out = Vec::new();
    for (id, _) in asset_ids(conn, currencies)? {
        out.extend(rates_where(
            conn,
            "SELECT currency_id, day, rate FROM rates WHERE currency_id = ?1",
            Some(id),
        )?);
    }
    out.sort_by_key(|r| (r.currency, r.date));
    Ok(out)
}

fn rate_on_or_before(
    conn: &Connection,
    currency: Asset,
    date: Date,
) -> PortResult<Option<RateRow>> {
    let Some((id, _)) = asset_ids(conn, &[currency])?.into_iter().next() else {
        return Ok(None);
    };
    let mut statement = conn
        .prepare_cached(
            "SELECT day, rate FROM rates WHERE currency_id = ?1 AND day <= ?2 \
             ORDER BY day DESC LIMIT 1",
        )
        .map_err(map_err)?;
    let mut rows = statement.query((id, day_of(date))).map_err(map_err)?;
    let Some(row) = rows.next().map_err(map_err)? else {
        return Ok(None);
    };
    Ok(Some(RateRow {
        currency,
        date: date_of(int_col(row.get_ref_unwrap(0), "rate day")?)?,
        rate: decimal_col(row.get_ref_unwrap(1), "rate")?,
    }))
}

/// Sorts the rows of one asset by `(date, currency)`: a series is read year by year and
/// quote by quote, so only an asset quoted in several currencies needs it. Assets are read in
/// symbol order, so the whole list ends sorted by `(asset, date, currency)`.
fn sort_asset_prices(rows: &mut [PriceRow]) {
    if !rows.is_sorted_by_key(|r| (r.date, r.currency)) {
        rows.sort_unstable_by_key(|r| (r.date, r.currency));
    }
}

fn prices_for(
    conn: &Connection,
    assets: &[Asset],
    from: Date,
    to: Date,
) -> PortResult<Vec<PriceRow>> {
    // One read transaction: one shared lock for every statement.
    let tx = read_transaction(conn)?;
    let table = AssetTable::load(conn)?;
    let mut out = Vec::new();
    let range = [(day_of(from), day_of(to))];
    for (id, _) in asset_ids(conn, assets)? {
        let start = out.len();
        series::read_ranges(conn, &table, id, &range, &mut out)?;
        sort_asset_prices(out.get_mut(start..).unwrap_or_default());
    }
    finish_read(tx)?;
    Ok(out)
}

fn price_table_for(
    conn: &Connection,
    assets: &[Asset],
    from: Date,
    to: Date,
    builder: &mut PriceTableBuilder,
) -> PortResult<()> {
    let tx = read_transaction(conn)?;
    let table = AssetTable::load(conn)?;
    let range = [(day_of(from), day_of(to))];
    for (id, _) in asset_ids(conn, assets)? {
        series::read_ranges_into(conn, &table, id, &range, builder)?;
    }
    finish_read(tx)?;
    Ok(())
}

/// Days of the §7.2 lookback window before the lookup date.
const PRICE_WINDOW_DAYS: i64 = 7;

/// Sorted, distinct `(asset, day)` lookups, and the stored ids of their assets (sorted by
/// asset).
type Lookups = (Vec<(Asset, i64)>, Vec<(i64, Asset)>);

/// The [`Lookups`] of `requests`.
fn wanted_lookups(conn: &Connection, requests: &[(Asset, Date)]) -> PortResult<Lookups> {
    let mut wanted: Vec<(Asset, i64)> = requests
        .iter()
        .map(|(asset, date)| (*asset, day_of(*date)))
        .collect();
    // The use cases ask in order, without repeats: then only the check costs.
    if !wanted.is_sorted() {
        wanted.sort_unstable();
    }
    wanted.dedup();
    let mut symbols: Vec<Asset> = wanted.iter().map(|(asset, _)| *asset).collect();
    symbols.dedup();
    let ids = asset_ids(conn, &symbols)?;
    Ok((wanted, ids))
}

/// Reads the candidates of `ids` with `read` (given a connection and those ids), from many
/// windows on two connections: the assets holding the second half of the windows are read
/// and decoded on a second connection and thread while this one reads the first half.
fn read_candidates<T: Send>(
    conn: &Connection,
    wanted: &[(Asset, i64)],
    ids: &[(i64, Asset)],
    parallel_min_requests: u64,
    read: impl Fn(&Connection, &[(i64, Asset)]) -> PortResult<T> + Sync,
) -> PortResult<(T, Option<T>)> {
    let parallel = u64::try_from(wanted.len()).is_ok_and(|n| n >= parallel_min_requests);
    match conn.path().filter(|p| parallel && !p.is_empty()) {
        Some(path) => {
            let mid = wanted.get(wanted.len() / 2).map(|(asset, _)| *asset);
            let split = ids.partition_point(|(_, asset)| Some(*asset) < mid);
            let (lower_ids, upper_ids) = ids.split_at(split);
            let (lower, upper) = read_in_two(
                conn,
                path,
                || read(conn, lower_ids),
                |reader| read(reader, upper_ids),
            )?;
            Ok((lower, Some(upper)))
        }
        None => Ok((read(conn, ids)?, None)),
    }
}

fn price_candidates(
    conn: &Connection,
    requests: &[(Asset, Date)],
    parallel_min_requests: u64,
) -> PortResult<Vec<PriceRow>> {
    let tx = read_transaction(conn)?;
    let table = AssetTable::load(conn)?;
    let (wanted, ids) = wanted_lookups(conn, requests)?;
    let (mut out, upper) =
        read_candidates(conn, &wanted, &ids, parallel_min_requests, |c, ids| {
            candidates_of(c, &table, &wanted, ids)
        })?;
    if let Some(mut upper) = upper {
        out.append(&mut upper);
    }
    finish_read(tx)?;
    Ok(out)
}

/// [`price_candidates`] decoded straight into a price table (each half of a split read into
/// its own, on its own thread, and the two joined): no list of rows in between.
fn price_candidates_table(
    conn: &Connection,
    requests: &[(Asset, Date)],
    parallel_min_requests: u64,
) -> PortResult<PriceTable> {
    let tx = read_transaction(conn)?;
    let table = AssetTable::load(conn)?;
    let (wanted, ids) = wanted_lookups(conn, requests)?;
    let (out, upper) = read_candidates(conn, &wanted, &ids, parallel_min_requests, |c, ids| {
        let mut builder = PriceTableBuilder::new();
        for (id, ranges) in WindowPlan::of(&wanted, ids).assets() {
            series::read_ranges_into(c, &table, id, ranges, &mut builder)?;
        }
        builder.finish().map_err(|error| corrupt("price", error))
    })?;
    finish_read(tx)?;
    Ok(match upper {
        Some(upper) => out.join(upper),
        None => out,
    })
}

/// The closes within the windows of `wanted` (sorted `(asset, day)` lookups) of the assets
/// `ids`, asset by asset in the order of `ids`, each asset's sorted.
fn candidates_of(
    conn: &Connection,
    table: &AssetTable,
    wanted: &[(Asset, i64)],
    ids: &[(i64, Asset)],
) -> PortResult<Vec<PriceRow>> {
    let plan = WindowPlan::of(wanted, ids);
    // The closes of one quote currency fit in the windows' total days: the list is sized once
    // instead of growing (each growth copies it and faults fresh pages).
    let mut out: Vec<PriceRow> = Vec::with_capacity(plan.days);
    for (id, ranges) in plan.assets() {
        let start = out.len();
        series::read_ranges(conn, table, id, ranges, &mut out)?;
        sort_asset_prices(out.get_mut(start..).unwrap_or_default());
    }
    Ok(out)
}

/// Every asset's lookup windows, coalesced into disjoint day ranges, in the order of the ids.
struct WindowPlan {
    ranges: Vec<(i64, i64)>,
    /// Each asset's id and the end of its ranges in `ranges`.
    ends: Vec<(i64, usize)>,
    /// The ranges' total days.
    days: usize,
}

impl WindowPlan {
    /// The windows of `wanted` (sorted `(asset, day)` lookups) of the assets `ids`.
    fn of(wanted: &[(Asset, i64)], ids: &[(i64, Asset)]) -> Self {
        let mut ranges: Vec<(i64, i64)> = Vec::new();
        let mut ends: Vec<(i64, usize)> = Vec::with_capacity(ids.len());
        for &(id, asset) in ids {
            // `wanted` is sorted by asset: this asset's requests are one contiguous run.
            let begin = wanted.partition_point(|(a, _)| *a < asset);
            let end = wanted.partition_point(|(a, _)| *a <= asset);
            let first = ranges.len();
            for (_, day) in wanted.get(begin..end).unwrap_or_default() {
                let start = day.saturating_sub(PRICE_WINDOW_DAYS);
                match ranges.get_mut(first..).and_then(<[_]>::last_mut) {
                    Some((_, to)) if start <= to.saturating_add(1) => *to = (*to).max(*day),
                    _ => ranges.push((start, *day)),
                }
            }
            ends.push((id, ranges.len()));
        }
        let days = ranges
            .iter()
            .map(|(from, to)| to.saturating_sub(*from).saturating_add(1))
            .fold(0_i64, i64::saturating_add);
        Self {
            ranges,
            ends,
            days: usize::try_from(days).unwrap_or(0),
        }
    }

    /// Each asset's id and its day ranges, in the order of the ids.
    fn assets(&self) -> impl Iterator<Item = (i64, &[(i64, i64)])> {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|(_, end)| *end));
        self.ends
            .iter()
            .zip(starts)
            .map(|(&(id, end), start)| (id, self.ranges.get(start..end).unwrap_or_default()))
    }
}

fn price_count(conn: &Connection) -> PortResult<u64> {
    table_count(conn, "SELECT coalesce(sum(n), 0) FROM price_series")
}

fn setting(conn: &Connection, key: SettingKey) -> PortResult<Option<String>> {
    let mut statement = conn
        .prepare_cached("SELECT value FROM settings WHERE key = ?1")
        .map_err(map_err)?;
    let mut rows = statement.query([key.as_str()]).map_err(map_err)?;
    match rows.next().map_err(map_err)? {
        Some(row) => Ok(Some(text_col(row.get_ref_unwrap(0), "setting value")?)),
        None => Ok(None),
    }
}

fn settings(conn: &Connection) -> PortResult<Vec<(SettingKey, String)>> {
    let mut out = Vec::new();
    for key in SettingKey::ALL {
        if let Some(value) = setting(conn, *key)? {
            out.push((*key, value));
        }
    }
    Ok(out)
}

/// A read transaction of its own, unless the connection is already inside one (a `begin_read`
/// scope or a write in progress), whose state it then reads.
fn read_transaction(conn: &Connection) -> PortResult<Option<rusqlite::Transaction<'_>>> {
    if conn.is_autocommit() {
        conn.unchecked_transaction().map(Some).map_err(map_err)
    } else {
        Ok(None)
    }
}

/// Ends a transaction of [`read_transaction`].
fn finish_read(tx: Option<rusqlite::Transaction<'_>>) -> PortResult<()> {
    tx.map_or(Ok(()), |tx| tx.finish().map_err(map_err))
}

fn snapshot(conn: &Connection, parallel_min_rows: u64) -> PortResult<LedgerSnapshot> {
    // One read transaction: every part sees the same committed state (inside a `begin_read`
    // scope, that scope's).
    let tx = read_transaction(conn)?;
    let assets = AssetTable::load(conn)?;
    let snapshot = LedgerSnapshot {
        version: ledger_version(conn)?,
        accounts: accounts(conn)?,
        spot_rows: spot_rows(conn, &assets, parallel_min_rows)?,
        futures_rows: futures_rows(conn, &assets)?,
        overrides: overrides(conn, &assets)?,
        custody_links: custody_links(conn)?,
    };
    finish_read(tx)?;
    Ok(snapshot)
}

/// Opens (outermost scope) or joins a read transaction.
fn begin_read(conn: &Connection, depth: &std::cell::Cell<u32>) -> PortResult<()> {
    // A connection already inside a transaction (a write in progress) reads through it.
    if depth.get() == 0 && conn.is_autocommit() {
        conn.execute_batch("BEGIN DEFERRED").map_err(map_err)?;
        depth.set(1);
    } else if depth.get() > 0 {
        depth.set(depth.get().saturating_add(1));
    }
    Ok(())
}

/// Closes a scope of [`begin_read`]; the outermost one ends the read transaction.
fn end_read(conn: &Connection, depth: &std::cell::Cell<u32>) -> PortResult<()> {
    match depth.get() {
        0 => Ok(()),
        1 => {
            depth.set(0);
            if conn.is_autocommit() {
                Ok(())
            } else {
                conn.execute_batch("COMMIT").map_err(map_err)
            }
        }
        n => {
            depth.set(n - 1);
            Ok(())
        }
    }
}

macro_rules! read_ports {
    ($ty:ty, $conn:ident => $expr:expr, $ledger:expr) => {
        impl LedgerRead for $ty {
            fn ledger_version(&self) -> PortResult<u64> {
                let $conn = self;
                ledger_version($expr)
            }
            fn accounts(&self) -> PortResult<Vec<Account>> {
                let $conn = self;
                accounts($expr)
            }
            fn spot_rows(&self) -> PortResult<Vec<SpotRow>> {
                let $conn = self;
                let conn = $expr;
                spot_rows(
                    conn,
                    &AssetTable::load(conn)?,
                    $ledger.parallel_read_min_rows,
                )
            }
            fn futures_rows(&self) -> PortResult<Vec<FuturesRow>> {
                let $conn = self;
                let conn = $expr;
                futures_rows(conn, &AssetTable::load(conn)?)
            }
            fn overrides(&self) -> PortResult<Vec<RowOverride>> {
                let $conn = self;
                let conn = $expr;
                overrides(conn, &AssetTable::load(conn)?)
            }
            fn override_notes(&self) -> PortResult<Vec<(String, String)>> {
                let $conn = self;
                override_notes($expr)
            }
            fn custody_links(&self) -> PortResult<Vec<CustodyLink>> {
                let $conn = self;
                custody_links($expr)
            }
            fn snapshot(&self) -> PortResult<LedgerSnapshot> {
                let $conn = self;
                snapshot($expr, $ledger.parallel_read_min_rows)
            }
            fn row_detail(&self, row_key: &str) -> PortResult<Option<RowDetail>> {
                let $conn = self;
                row_detail($expr, row_key)
            }
            fn import_log(&self) -> PortResult<Vec<ImportLogEntry>> {
                let $conn = self;
                import_log($expr)
            }
            fn begin_read(&self) -> PortResult<()> {
                let $conn = self;
                begin_read($expr, &$ledger.read_depth)
            }
            fn end_read(&self) -> PortResult<()> {
                let $conn = self;
                end_read($expr, &$ledger.read_depth)
            }
        }

        impl RateStore for $ty {
            fn all_rates(&self) -> PortResult<Vec<RateRow>> {
                let $conn = self;
                all_rates($expr)
            }
            fn rates_for(&self, currencies: &[Asset]) -> PortResult<Vec<RateRow>> {
                let $conn = self;
                rates_for($expr, currencies)
            }
            fn rate_on_or_before(
                &self,
                currency: Asset,
                date: Date,
            ) -> PortResult<Option<RateRow>> {
                let $conn = self;
                rate_on_or_before($expr, currency, date)
            }
            fn rate_count(&self) -> PortResult<u64> {
                let $conn = self;
                table_count($expr, "SELECT count(*) FROM rates")
            }
        }

        impl PriceStore for $ty {
            fn prices_for(
                &self,
                assets: &[Asset],
                from: Date,
                to: Date,
            ) -> PortResult<Vec<PriceRow>> {
                let $conn = self;
                prices_for($expr, assets, from, to)
            }
            fn price_table_for(
                &self,
                assets: &[Asset],
                from: Date,
                to: Date,
                builder: &mut PriceTableBuilder,
            ) -> PortResult<()> {
                let $conn = self;
                price_table_for($expr, assets, from, to, builder)
            }
            fn price_candidates(&self, requests: &[(Asset, Date)]) -> PortResult<Vec<PriceRow>> {
                let $conn = self;
                price_candidates($expr, requests, $ledger.parallel_read_min_rows)
            }
            fn price_candidates_table(&self, requests: &[(Asset, Date)]) -> PortResult<PriceTable> {
                let $conn = self;
                price_candidates_table($expr, requests, $ledger.parallel_read_min_rows)
            }
            fn latest_quotes(&self) -> PortResult<Vec<StoredQuote>> {
                let $conn = self;
                series::latest_quotes($expr)
            }
            fn price_count(&self) -> PortResult<u64> {
                let $conn = self;
                price_count($expr)
            }
        }

        impl SettingsStore for $ty {
            fn setting(&self, key: SettingKey) -> PortResult<Option<String>> {
                let $conn = self;
                setting($expr, key)
            }
            fn settings(&self) -> PortResult<Vec<(SettingKey, String)>> {
                let $conn = self;
                settings($expr)
            }
        }
    };
}

read_ports!(SqliteLedger, ledger => &ledger.conn, ledger);
read_ports!(ReadOnlyLedger, ledger => &ledger.inner.conn, ledger.inner);
