//! The write port: every method is one immediate transaction.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use core_domain::overrides::{Counterparty, CustodyLink, FeeEdit, RowOverride, ValueEdit};
use core_domain::{AccountId, Asset, Instant, ledger::is_reserved_account_name};
use rusqlite::types::ValueRef;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};
use rust_decimal::Decimal;
use shared_types::CustodyKind;
use use_cases::ports::{
    ConflictPolicy, Duplicate, DuplicateMatch, ImportBatch, ImportOutcome, LedgerWrite,
    MarketConflict, MarketOutcome, NewFuturesRecord, NewImportLog, NewSpotRecord, PriceBatch,
    RateBatch, RecordRef, SettingKey, WriteMode,
};
use use_cases::{PortError, PortResult};

use crate::SqliteLedger;
use crate::codec::{
    SEP, StoredKey, day_of, decimal_text, int_col, invalid, key_col, lines_text, opt_text_col,
    parse_decimal, spot_type_code, tx_type_code,
};
use crate::error::{corrupt, map_err};
use crate::read::{ledger_version, meta_value};

mod prices;
mod stream;

pub use stream::{StreamEnd, StreamOrder, StreamPlan, StreamRecord};

const MAX_ACCOUNT_NAME_CHARS: usize = 64;

/// Caches of one write transaction: asset ids and accounts by folded name.
struct Ids {
    assets: KeyMap<Asset, i64>,
    accounts: HashMap<String, i64>,
    created: Vec<String>,
}

impl Ids {
    fn load(tx: &Transaction<'_>) -> PortResult<Self> {
        let mut assets = KeyMap::default();
        {
            let mut statement = tx
                .prepare_cached("SELECT id, symbol FROM assets")
                .map_err(map_err)?;
            let mut rows = statement.query([]).map_err(map_err)?;
            while let Some(row) = rows.next().map_err(map_err)? {
                let id: i64 = row.get(0).map_err(map_err)?;
                let symbol: String = row.get(1).map_err(map_err)?;
                let asset = Asset::new(&symbol).map_err(|e| corrupt("asset symbol", e))?;
                assets.insert(asset, id);
            }
        }
        let mut accounts = HashMap::new();
        {
            let mut statement = tx
                .prepare_cached("SELECT id, name_fold FROM accounts")
                .map_err(map_err)?;
            let mut rows = statement.query([]).map_err(map_err)?;
            while let Some(row) = rows.next().map_err(map_err)? {
                accounts.insert(row.get(1).map_err(map_err)?, row.get(0).map_err(map_err)?);
            }
        }
        Ok(Self {
            assets,
            accounts,
            created: Vec::new(),
        })
    }

    fn asset(&mut self, tx: &Transaction<'_>, asset: Asset) -> PortResult<i64> {
        if let Some(id) = self.assets.get(&asset) {
            return Ok(*id);
        }
        tx.prepare_cached("INSERT INTO assets (symbol) VALUES (?1)")
            .and_then(|mut s| s.execute([asset.as_str()]))
            .map_err(map_err)?;
        let id = tx.last_insert_rowid();
        self.assets.insert(asset, id);
        Ok(id)
    }

    fn opt_asset(&mut self, tx: &Transaction<'_>, asset: Option<Asset>) -> PortResult<Option<i64>> {
        asset.map(|a| self.asset(tx, a)).transpose()
    }

    /// The account of `name`, created (with its `<venue>` parent) when absent.
    fn account(&mut self, tx: &Transaction<'_>, name: &str) -> PortResult<i64> {
        let name = name.trim();
        let fold = name.to_lowercase();
        if let Some(id) = self.accounts.get(&fold) {
            return Ok(*id);
        }
        validate_account_name(name)?;
        // `<venue>:<segment>` is a child of `<venue>` (imports.md §1.17); a deeper name
        // nests the same way.
        let parent = match name.rsplit_once(':') {
            Some((venue, segment)) if !venue.trim().is_empty() && !segment.trim().is_empty() => {
                Some(self.account(tx, venue.trim())?)
            }
            _ => None,
        };
        tx.prepare_cached("INSERT INTO accounts (name, name_fold, parent_id) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| s.execute(params![name, fold, parent]))
            .map_err(map_err)?;
        let id = tx.last_insert_rowid();
        self.accounts.insert(fold, id);
        self.created.push(name.to_owned());
        Ok(id)
    }
}

fn validate_account_name(name: &str) -> PortResult<()> {
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_ACCOUNT_NAME_CHARS {
        return Err(invalid(
            "account name",
            format!("{name:?} must have 1 to 64 characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(invalid(
            "account name",
            format!("{name:?} contains a control character"),
        ));
    }
    if is_reserved_account_name(name) {
        return Err(invalid(
            "account name",
            format!("{name:?} is reserved for synthetic accounts"),
        ));
    }
    Ok(())
}

fn bump_version(tx: &Transaction<'_>) -> PortResult<()> {
    tx.prepare_cached("UPDATE meta SET value = value + 1 WHERE key = 'ledger_version'")
        .and_then(|mut s| s.execute([]))
        .map_err(map_err)?;
    Ok(())
}

fn to_i64(value: u64, what: &str) -> PortResult<i64> {
    i64::try_from(value).map_err(|_| invalid(what, format!("{value} is too large")))
}

fn insert_log(tx: &Transaction<'_>, log: &NewImportLog) -> PortResult<i64> {
    let skipped: Vec<String> = log
        .skipped
        .iter()
        .map(|(reason, count)| format!("{reason}={count}"))
        .collect();
    let sep = SEP.to_string();
    tx.prepare_cached(
        "INSERT INTO import_log (imported_at, file_name, file_sha256, format, layout, options, \
         rows_read, skipped, invalid, warnings, added, duplicates, replaced) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 0, 0, 0)",
    )
    .and_then(|mut s| {
        s.execute(params![
            log.imported_at.unix_nanos(),
            log.file_name,
            log.file_sha256,
            log.format,
            log.layout,
            log.options.join(&sep),
            to_i64(log.rows_read, "rows read").unwrap_or(i64::MAX),
            skipped.join(&sep),
            to_i64(log.invalid, "invalid").unwrap_or(i64::MAX),
            to_i64(log.warnings, "warnings").unwrap_or(i64::MAX),
        ])
    })
    .map_err(map_err)?;
    Ok(tx.last_insert_rowid())
}

fn finish_log(
    tx: &Transaction<'_>,
    id: i64,
    added: u64,
    duplicates: u64,
    replaced: u64,
) -> PortResult<()> {
    tx.prepare_cached(
        "UPDATE import_log SET added = ?2, duplicates = ?3, replaced = ?4 WHERE id = ?1",
    )
    .and_then(|mut s| {
        s.execute(params![
            id,
            to_i64(added, "added").unwrap_or(i64::MAX),
            to_i64(duplicates, "duplicates").unwrap_or(i64::MAX),
            to_i64(replaced, "replaced").unwrap_or(i64::MAX),
        ])
    })
    .map_err(map_err)?;
    Ok(())
}

/// The stored row behind a key: `(seq, account name folded, content key)`.
fn stored_row(
    tx: &Transaction<'_>,
    row_key: &str,
) -> PortResult<Option<(i64, String, Option<String>)>> {
    tx.prepare_cached(
        "SELECT r.seq, a.name_fold, r.content_key \
         FROM (SELECT seq, account_id, content_key FROM spot_rows WHERE row_key = ?1 \
               UNION ALL \
               SELECT seq, account_id, content_key FROM futures_rows WHERE row_key = ?1) AS r \
         JOIN accounts a ON a.id = r.account_id",
    )
    .and_then(|mut s| {
        s.query_row([StoredKey::new(row_key)], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })
        .optional()
    })
    .map_err(map_err)
}

/// The key and account of the stored row that has `content_key`.
fn stored_by_content(
    tx: &Transaction<'_>,
    content_key: &str,
) -> PortResult<Option<(i64, String, String)>> {
    // The spot index holds only the searched keys (schema v3): such a key is looked up
    // through it by repeating its condition; any other key (none the importers search for)
    // by a scan.
    let sql = if content_key.starts_with(crate::schema::SEARCHED_CONTENT_PREFIX) {
        concat!(
            "SELECT r.seq, r.row_key, a.name_fold \
             FROM (SELECT seq, row_key, account_id FROM spot_rows WHERE content_key = ?1 AND ",
            crate::schema::searched_content!(),
            " UNION ALL \
               SELECT seq, row_key, account_id FROM futures_rows WHERE content_key = ?1) AS r \
             JOIN accounts a ON a.id = r.account_id \
             ORDER BY r.seq LIMIT 1"
        )
    } else {
        "SELECT r.seq, r.row_key, a.name_fold \
         FROM (SELECT seq, row_key, account_id FROM spot_rows WHERE content_key = ?1 \
               UNION ALL \
               SELECT seq, row_key, account_id FROM futures_rows WHERE content_key = ?1) AS r \
         JOIN accounts a ON a.id = r.account_id \
         ORDER BY r.seq LIMIT 1"
    };
    tx.prepare_cached(sql)
        .and_then(|mut s| {
            s.query_row([content_key], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, rusqlite::types::Value>(1)?,
                    row.get::<_, String>(2)?,
                ))
            })
            .optional()
        })
        .map_err(map_err)?
        .map(|(seq, key, account)| Ok((seq, key_col(ValueRef::from(&key))?, account)))
        .transpose()
}

/// What the import loop needs to know about one record, whatever its kind.
struct Common<'a> {
    record: RecordRef,
    account: &'a str,
    row_key: &'a str,
    content_key: Option<&'a str>,
}

fn duplicate_of(
    tx: &Transaction<'_>,
    common: &Common<'_>,
    first_seq: i64,
) -> PortResult<Option<Duplicate>> {
    let Some((seq, account_fold, stored_content)) = stored_row(tx, common.row_key)? else {
        return Ok(None);
    };
    Ok(Some(identity_duplicate(
        common,
        (seq, &account_fold, stored_content.as_deref()),
        first_seq,
    )))
}

/// The duplicate of a record whose identity is already stored, from the stored row's `seq`,
/// folded account name and content key (`first_seq`: the batch's first; a row at or after it
/// was stored by this batch).
fn identity_duplicate(
    common: &Common<'_>,
    (seq, account_fold, stored_content): (i64, &str, Option<&str>),
    first_seq: i64,
) -> Duplicate {
    Duplicate {
        record: common.record,
        stored_row_key: common.row_key.to_owned(),
        other_account: account_fold != common.account.trim().to_lowercase(),
        content_changed: matches!(
            (common.content_key, stored_content),
            (Some(new), Some(old)) if new != old
        ),
        matched_by: DuplicateMatch::Identity,
        within_batch: seq >= first_seq,
    }
}

/// The spot insert, shared by the checked and the bulk statement.
macro_rules! insert_spot_sql {
    () => {
        "INSERT INTO spot_rows (seq, row_key, account_id, tx_type, \
     unknown_label, instant, in_asset, in_qty, out_asset, out_qty, fee_asset, fee_qty, \
     sv_amount, sv_ccy, sp_amount, sp_ccy, sfv_amount, sfv_ccy, group_id, import_id, \
     source_lines, source_ref, note, content_key) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, \
     ?20, ?21, ?22, ?23, ?24)"
    };
}

/// The usual insert: the unique key index reports a stored identity as no change.
const INSERT_SPOT: &str = concat!(insert_spot_sql!(), " ON CONFLICT (row_key) DO NOTHING");

/// The bulk path's insert: identities are checked beforehand and the key index is rebuilt.
const INSERT_SPOT_BULK: &str = insert_spot_sql!();

const INSERT_FUTURES: &str = "INSERT INTO futures_rows (seq, row_key, account_id, kind, \
     contract, instant, settlement_asset, realized_pnl, funding, fee_asset, fee, trade_price, \
     import_id, source_lines, source_ref, note, content_key) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17) \
     ON CONFLICT (row_key) DO NOTHING";

fn dec(value: Option<Decimal>) -> Option<String> {
    value.map(decimal_text)
}

/// The ids of [`record_assets`], created where new.
fn asset_ids(
    tx: &Transaction<'_>,
    ids: &mut Ids,
    r: &NewSpotRecord,
) -> PortResult<[Option<i64>; 6]> {
    let mut out = [None; 6];
    for (id, asset) in out.iter_mut().zip(record_assets(r)) {
        *id = ids.opt_asset(tx, asset)?;
    }
    Ok(out)
}

/// The six asset columns of a spot row, in column order: in, out, fee, and the currencies of
/// the stated value, price and fee value.
fn record_assets(r: &NewSpotRecord) -> [Option<Asset>; 6] {
    [
        r.inflow.map(|s| s.asset),
        r.outflow.map(|s| s.asset),
        r.fee.map(|f| f.asset),
        r.stated_value.map(|s| s.currency),
        r.stated_price.map(|s| s.currency),
        r.stated_fee_value.map(|s| s.currency),
    ]
}

fn insert_spot(
    tx: &Transaction<'_>,
    sql: &str,
    ids: &mut Ids,
    import_id: i64,
    seq: i64,
    account: i64,
    r: &NewSpotRecord,
) -> PortResult<bool> {
    let (code, label) = tx_type_code(&r.tx_type);
    let [
        in_asset,
        out_asset,
        fee_asset,
        value_currency,
        price_currency,
        fee_value_currency,
    ] = asset_ids(tx, ids, r)?;
    let changed = tx
        .prepare_cached(sql)
        .and_then(|mut s| {
            s.execute(params![
                seq,
                StoredKey::new(&r.row_key),
                account,
                code,
                label,
                r.instant.unix_nanos(),
                in_asset,
                dec(r.inflow.map(|s| s.quantity)),
                out_asset,
                dec(r.outflow.map(|s| s.quantity)),
                fee_asset,
                dec(r.fee.map(|f| f.quantity)),
                dec(r.stated_value.map(|s| s.amount)),
                value_currency,
                dec(r.stated_price.map(|s| s.amount)),
                price_currency,
                dec(r.stated_fee_value.map(|s| s.amount)),
                fee_value_currency,
                r.transfer_group_id,
                import_id,
                lines_text(&r.source_lines),
                r.source_ref,
                r.note,
                r.content_key,
            ])
        })
        .map_err(map_err)?;
    Ok(changed == 1)
}

fn insert_futures(
    tx: &Transaction<'_>,
    ids: &mut Ids,
    import_id: i64,
    seq: i64,
    account: i64,
    r: &NewFuturesRecord,
) -> PortResult<bool> {
    let settlement = ids.asset(tx, r.settlement_asset)?;
    let fee_asset = ids.opt_asset(tx, r.fee.map(|f| f.asset))?;
    let changed = tx
        .prepare_cached(INSERT_FUTURES)
        .and_then(|mut s| {
            s.execute(params![
                seq,
                StoredKey::new(&r.row_key),
                account,
                r.kind.as_str(),
                r.contract,
                r.instant.unix_nanos(),
                settlement,
                dec(r.realized_pnl),
                dec(r.funding),
                fee_asset,
                dec(r.fee.map(|f| f.quantity)),
                dec(r.trade_price),
                import_id,
                lines_text(&r.source_lines),
                r.source_ref,
                r.note,
                r.content_key,
            ])
        })
        .map_err(map_err)?;
    Ok(changed == 1)
}

/// What happened to one record of a batch.
enum Stored {
    Inserted,
    Duplicate(Duplicate),
}

/// The fields every record kind shares, borrowed from the batch.
fn common_of(batch: &ImportBatch, record: RecordRef) -> PortResult<Common<'_>> {
    let found = match record {
        RecordRef::Spot(i) => batch.spot.get(i).map(|r| Common {
            record,
            account: &r.account,
            row_key: &r.row_key,
            content_key: r.content_key.as_deref(),
        }),
        RecordRef::Futures(i) => batch.futures.get(i).map(|r| Common {
            record,
            account: &r.account,
            row_key: &r.row_key,
            content_key: r.content_key.as_deref(),
        }),
    };
    found.ok_or_else(|| invalid("record", "index out of range"))
}

/// Where one record goes: the batch's import entry, its `seq`, the batch's first `seq`.
#[derive(Clone, Copy)]
struct Slot {
    import_id: i64,
    seq: i64,
    first_seq: i64,
    /// Whether futures rows can exist (stored or in the batch): otherwise a spot record's
    /// identity need not be looked up among them.
    probe_futures: bool,
}

fn store_record(
    tx: &Transaction<'_>,
    ids: &mut Ids,
    batch: &ImportBatch,
    record: RecordRef,
    slot: Slot,
) -> PortResult<Stored> {
    let Slot {
        import_id,
        seq,
        first_seq,
        probe_futures,
    } = slot;
    let common = common_of(batch, record)?;
    if common.row_key.is_empty() {
        return Err(invalid("row key", "a record has an empty identity"));
    }
    if let RecordRef::Spot(i) = record
        && let Some(r) = batch.spot.get(i)
        && r.dedupe_by_content_key
        && let Some(content_key) = r.content_key.as_deref()
        && let Some((stored_seq, stored_key, stored_account)) = stored_by_content(tx, content_key)?
    {
        return Ok(Stored::Duplicate(Duplicate {
            record,
            stored_row_key: stored_key,
            other_account: stored_account != r.account.trim().to_lowercase(),
            content_changed: false,
            matched_by: DuplicateMatch::ContentKey,
            within_batch: stored_seq >= first_seq,
        }));
    }
    // A known account lets the insert itself detect a duplicate identity (one index probe);
    // otherwise look first, so a duplicate never creates an account.
    let known_account = ids
        .accounts
        .contains_key(&common.account.trim().to_lowercase());
    let in_other_table = match record {
        RecordRef::Spot(_) => {
            probe_futures
                && key_exists(
                    tx,
                    "SELECT 1 FROM futures_rows WHERE row_key = ?1",
                    common.row_key,
                )?
        }
        RecordRef::Futures(_) => key_exists(
            tx,
            "SELECT 1 FROM spot_rows WHERE row_key = ?1",
            common.row_key,
        )?,
    };
    if (!known_account || in_other_table)
        && let Some(duplicate) = duplicate_of(tx, &common, first_seq)?
    {
        return Ok(Stored::Duplicate(duplicate));
    }
    let account = ids.account(tx, common.account)?;
    let inserted = match record {
        RecordRef::Spot(i) => match batch.spot.get(i) {
            Some(r) => insert_spot(tx, INSERT_SPOT, ids, import_id, seq, account, r)?,
            None => false,
        },
        RecordRef::Futures(i) => match batch.futures.get(i) {
            Some(r) => insert_futures(tx, ids, import_id, seq, account, r)?,
            None => false,
        },
    };
    if !inserted {
        let duplicate = duplicate_of(tx, &common, first_seq)?
            .ok_or_else(|| corrupt("row key", "conflict without a stored row"))?;
        return Ok(Stored::Duplicate(duplicate));
    }
    Ok(Stored::Inserted)
}

fn import_batch(ledger: &mut SqliteLedger, batch: &ImportBatch) -> PortResult<ImportOutcome> {
    // Insertion order of imports.md §1.2: timestamp, then first source line; the sort is
    // stable, so ties keep the batch's order.
    let mut order: Vec<(Instant, u64, RecordRef)> = batch
        .spot
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let line = r.source_lines.first().copied().unwrap_or(0);
            (r.instant, line, RecordRef::Spot(i))
        })
        .chain(batch.futures.iter().enumerate().map(|(i, r)| {
            let line = r.source_lines.first().copied().unwrap_or(0);
            (r.instant, line, RecordRef::Futures(i))
        }))
        .collect();
    order.sort_by_key(|(instant, line, _)| (*instant, *line));

    // A big batch inserts into a row-key index larger than the default cache: give the bulk
    // load room so its random inserts stay in memory, then return to the default. The journal
    // stays WAL whatever the path, so readers keep reading the last committed state during
    // an import (docs/decisions.md D-72).
    let bulk = batch.spot.len() + batch.futures.len() > BULK_ROWS;
    if bulk {
        ledger
            .conn
            .pragma_update(None, "cache_size", BULK_CACHE_KIB)
            .map_err(map_err)?;
    }
    let result = import_in_tx(ledger, batch, order);
    if bulk {
        ledger
            .conn
            .pragma_update(None, "cache_size", crate::DEFAULT_CACHE_KIB)
            .map_err(map_err)?;
    }
    result
}

fn stored_rows(conn: &rusqlite::Connection) -> PortResult<i64> {
    conn.query_row(
        "SELECT (SELECT count(*) FROM spot_rows) + (SELECT count(*) FROM futures_rows)",
        [],
        |row| row.get(0),
    )
    .map_err(map_err)
}

/// The page cache while the bulk path builds the key index (sets the sorter's run size).
const SORT_CACHE_KIB: i64 = -16_384;

/// Batches above this many records get the bulk cache.
const BULK_ROWS: usize = 50_000;
/// 512 MiB (negative: KiB), reached only by a million-row import.
const BULK_CACHE_KIB: i64 = -524_288;

fn import_in_tx(
    ledger: &mut SqliteLedger,
    batch: &ImportBatch,
    order: Vec<(Instant, u64, RecordRef)>,
) -> PortResult<ImportOutcome> {
    let threshold = ledger.bulk_min_records;
    let tx = ledger
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(map_err)?;
    let import_id = insert_log(&tx, &batch.log)?;
    let mut ids = Ids::load(&tx)?;
    let first_seq = to_i64(meta_value(&tx, "next_seq")?, "next seq")?;
    let mut seq = first_seq;
    let mut outcome = ImportOutcome::default();
    let probe_futures = !batch.futures.is_empty()
        || tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM futures_rows)")
            .and_then(|mut s| s.query_row([], |row| row.get::<_, bool>(0)))
            .map_err(map_err)?;

    if bulk_eligible(&tx, batch, threshold)? {
        seq = bulk_import(
            &tx,
            &mut ids,
            batch,
            &order,
            import_id,
            first_seq,
            &mut outcome,
        )?;
    } else {
        for (_, _, record) in order {
            let slot = Slot {
                import_id,
                seq,
                first_seq,
                probe_futures,
            };
            match store_record(&tx, &mut ids, batch, record, slot)? {
                Stored::Duplicate(duplicate) => outcome.duplicates.push(duplicate),
                Stored::Inserted => {
                    match record {
                        RecordRef::Spot(_) => outcome.added_spot += 1,
                        RecordRef::Futures(_) => outcome.added_futures += 1,
                    }
                    seq = seq
                        .checked_add(1)
                        .ok_or_else(|| corrupt("seq", "sequence exhausted"))?;
                }
            }
        }
    }

    let added = outcome.added_spot + outcome.added_futures;
    if added > 0 {
        let last = u64::try_from(seq - 1).map_err(|e| corrupt("seq", e))?;
        let first = u64::try_from(first_seq).map_err(|e| corrupt("seq", e))?;
        outcome.seq_range = Some((first, last));
        tx.prepare_cached("UPDATE meta SET value = ?1 WHERE key = 'next_seq'")
            .and_then(|mut s| s.execute([seq]))
            .map_err(map_err)?;
        bump_version(&tx)?;
    }
    finish_log(&tx, import_id, added, outcome.duplicates.len() as u64, 0)?;
    outcome.created_accounts = std::mem::take(&mut ids.created);
    match batch.mode {
        WriteMode::Commit => {
            outcome.ledger_version = ledger_version(&tx)?;
            tx.commit().map_err(map_err)?;
            outcome.committed = true;
            outcome.import_id = Some(import_id);
        }
        WriteMode::DryRun => {
            tx.rollback().map_err(map_err)?;
            outcome.ledger_version = ledger_version(&ledger.conn)?;
        }
    }
    Ok(outcome)
}

/// Batches of at least this many spot records into a ledger holding no more rows than the
/// batch take the bulk path.
pub(crate) const BULK_MIN_RECORDS: usize = 50_000;

/// Whether the batch can take the bulk path: many spot records, none needing content-key
/// matching or futures handling, and a stored ledger small enough to hold its keys in memory.
fn bulk_eligible(tx: &Transaction<'_>, batch: &ImportBatch, threshold: usize) -> PortResult<bool> {
    if batch.spot.len() < threshold
        || !batch.futures.is_empty()
        || batch.spot.iter().any(|r| r.dedupe_by_content_key)
    {
        return Ok(false);
    }
    let stored = stored_rows(tx)?;
    Ok(usize::try_from(stored).is_ok_and(|n| n <= batch.spot.len()))
}

/// The bulk path's identity maps: keys are hex SHA-256 digests written by the importers, and
/// SipHash over a million of them was a visible cost.
type KeyMap<K, V> = core_domain::fast_hash::FastMap<K, V>;

/// The bulk path: identities are checked in memory against the stored keys and the batch,
/// the rows are appended without the unique key index, and the index is rebuilt in one sort,
/// which costs far less than a random index insert per row. Everything stays inside the
/// batch's transaction, so a failure rolls back the index drop too. Returns the next `seq`.
fn bulk_import(
    tx: &Transaction<'_>,
    ids: &mut Ids,
    batch: &ImportBatch,
    order: &[(Instant, u64, RecordRef)],
    import_id: i64,
    first_seq: i64,
    outcome: &mut ImportOutcome,
) -> PortResult<i64> {
    // Stored identities with what a duplicate report needs: seq, account, content key.
    let mut stored: KeyMap<String, (i64, i64, Option<String>)> = KeyMap::default();
    for sql in [
        "SELECT row_key, seq, account_id, content_key FROM spot_rows",
        "SELECT row_key, seq, account_id, content_key FROM futures_rows",
    ] {
        let mut statement = tx.prepare_cached(sql).map_err(map_err)?;
        let mut rows = statement.query([]).map_err(map_err)?;
        while let Some(row) = rows.next().map_err(map_err)? {
            let v = |i: usize| row.get_ref_unwrap(i);
            stored.insert(
                key_col(v(0))?,
                (
                    int_col(v(1), "seq")?,
                    int_col(v(2), "account id")?,
                    opt_text_col(v(3), "content key")?,
                ),
            );
        }
    }
    let folds: HashMap<i64, &str> = ids
        .accounts
        .iter()
        .map(|(fold, id)| (*id, fold.as_str()))
        .collect();
    let mut first_of: KeyMap<&str, &NewSpotRecord> =
        KeyMap::with_capacity_and_hasher(batch.spot.len(), BuildHasherDefault::default());
    let mut to_insert: Vec<&NewSpotRecord> = Vec::with_capacity(batch.spot.len());
    for (_, _, record) in order {
        let RecordRef::Spot(i) = *record else {
            return Err(invalid("record", "the bulk path takes spot records only"));
        };
        let r = batch
            .spot
            .get(i)
            .ok_or_else(|| invalid("record", "index out of range"))?;
        if r.row_key.is_empty() {
            return Err(invalid("row key", "a record has an empty identity"));
        }
        if let Some((seq, account_id, content_key)) = stored.get(r.row_key.as_str()) {
            let account = folds.get(account_id).copied().unwrap_or_default();
            outcome.duplicates.push(Duplicate {
                record: *record,
                stored_row_key: r.row_key.clone(),
                other_account: account != r.account.trim().to_lowercase(),
                content_changed: matches!(
                    (r.content_key.as_deref(), content_key.as_deref()),
                    (Some(new), Some(old)) if new != old
                ),
                matched_by: DuplicateMatch::Identity,
                within_batch: *seq >= first_seq,
            });
            continue;
        }
        if let Some(first) = first_of.get(r.row_key.as_str()) {
            outcome.duplicates.push(Duplicate {
                record: *record,
                stored_row_key: r.row_key.clone(),
                other_account: first.account.trim().to_lowercase()
                    != r.account.trim().to_lowercase(),
                content_changed: matches!(
                    (r.content_key.as_deref(), first.content_key.as_deref()),
                    (Some(new), Some(old)) if new != old
                ),
                matched_by: DuplicateMatch::Identity,
                within_batch: true,
            });
            continue;
        }
        first_of.insert(&r.row_key, r);
        to_insert.push(r);
    }
    if to_insert.is_empty() {
        return Ok(first_seq);
    }
    tx.execute_batch("DROP INDEX spot_rows_key")
        .map_err(map_err)?;
    let seq = bulk_insert(tx, ids, &to_insert, import_id, first_seq)?;
    outcome.added_spot += to_insert.len() as u64;
    rebuild_key_index(tx)?;
    Ok(seq)
}

/// Creates the row-key index the bulk path dropped. The build sorts every key: SQLite's
/// sorter sorts runs of at most the cache size, then merges them, so the cache is kept small
/// meanwhile (the caller restores it). The sorter uses a worker thread only when its runs go
/// to temporary files (SQLite turns threads off for in-memory temp storage): at 1M rows that
/// build takes 2.8 s of wall instead of 3.4 s for the whole import. Where no temporary file
/// can be created the failed statement is undone and the build runs in memory.
fn rebuild_key_index(tx: &Transaction<'_>) -> PortResult<()> {
    const CREATE: &str = "CREATE UNIQUE INDEX spot_rows_key ON spot_rows (row_key)";
    // A staged stream set FILE before its transaction: once a temporary table exists the
    // setting cannot change inside the transaction, so it is left to the stream to restore.
    let staged = tx
        .pragma_query_value(None, "temp_store", |row| row.get::<_, i64>(0))
        .map_err(map_err)?
        == 1;
    tx.pragma_update(None, "threads", 2).map_err(map_err)?;
    tx.pragma_update(None, "cache_size", SORT_CACHE_KIB)
        .map_err(map_err)?;
    if !staged {
        tx.pragma_update(None, "temp_store", "FILE")
            .map_err(map_err)?;
    }
    let on_files = tx.execute_batch(CREATE);
    if !staged {
        tx.pragma_update(None, "temp_store", "MEMORY")
            .map_err(map_err)?;
    }
    tx.pragma_update(None, "threads", 0).map_err(map_err)?;
    match on_files {
        Ok(()) => Ok(()),
        // A duplicate key is the data's fault, not the temporary storage's: report it.
        Err(e) if is_constraint(&e) => Err(map_err(e)),
        Err(_) => tx.execute_batch(CREATE).map_err(map_err),
    }
}

/// Whether `e` is a constraint violation.
fn is_constraint(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation)
}

/// Appends `value` to `buf` as stored (a zero is unsigned) and returns its byte range.
fn push_decimal(buf: &mut String, value: Option<Decimal>) -> Option<std::ops::Range<usize>> {
    use std::fmt::Write as _;
    let mut value = value?;
    if value.is_zero() {
        value.set_sign_positive(true);
    }
    let start = buf.len();
    let _ = write!(buf, "{value}");
    Some(start..buf.len())
}

/// The bulk path's row loop: one statement prepared once, parameters bound in place from
/// one reused text buffer (no per-row allocation, no statement-cache lookup of the SQL),
/// and account ids looked up by the name as written. Returns the next `seq`.
fn bulk_insert(
    tx: &Transaction<'_>,
    ids: &mut Ids,
    rows: &[&NewSpotRecord],
    import_id: i64,
    first_seq: i64,
) -> PortResult<i64> {
    let mut statement = tx.prepare(INSERT_SPOT_BULK).map_err(map_err)?;
    let mut writer = BulkWriter::new(import_id);
    let mut seq = first_seq;
    for r in rows {
        writer.insert(tx, &mut statement, ids, r, seq)?;
        seq = seq
            .checked_add(1)
            .ok_or_else(|| corrupt("seq", "sequence exhausted"))?;
    }
    Ok(seq)
}

/// The reused state of the bulk insert statement.
struct BulkWriter {
    import_id: i64,
    buf: String,
    accounts: KeyMap<String, i64>,
}

impl BulkWriter {
    fn new(import_id: i64) -> Self {
        Self {
            import_id,
            buf: String::with_capacity(256),
            accounts: KeyMap::default(),
        }
    }

    /// Whether the account of `r` (spelled `account`) exists: by this spelling, or folded.
    fn knows_account(&self, ids: &Ids, account: &str) -> bool {
        self.accounts.contains_key(account)
            || ids.accounts.contains_key(&account.trim().to_lowercase())
    }

    /// Inserts `r` as row `seq` with the prepared [`INSERT_SPOT_BULK`] or [`INSERT_SPOT`];
    /// `false` when the latter found its identity stored.
    fn insert(
        &mut self,
        tx: &Transaction<'_>,
        statement: &mut rusqlite::Statement<'_>,
        ids: &mut Ids,
        r: &NewSpotRecord,
        seq: i64,
    ) -> PortResult<bool> {
        // Accounts by exact spelling: no case folding per row.
        let account = if let Some(id) = self.accounts.get(r.account.as_str()) {
            *id
        } else {
            let id = ids.account(tx, &r.account)?;
            self.accounts.insert(r.account.clone(), id);
            id
        };
        let assets = asset_ids(tx, ids, r)?;
        let changed = self
            .bind(statement, r, seq, account, assets)
            .and_then(|()| statement.raw_execute())
            .map_err(map_err)?;
        Ok(changed == 1)
    }

    /// Stages `r` with the prepared `stream::INSERT_STAGE`: the columns of
    /// [`INSERT_SPOT_BULK`] with the arrival for the seq, the account name and asset
    /// symbols for their ids (resolved later, in insertion order), and the first line.
    fn stage(
        &mut self,
        statement: &mut rusqlite::Statement<'_>,
        r: &NewSpotRecord,
        arrival: i64,
    ) -> PortResult<()> {
        let assets = record_assets(r);
        let first_line = r.source_lines.first().copied().unwrap_or(0);
        let symbols = assets.each_ref().map(|a| a.as_ref().map(Asset::as_str));
        self.bind(statement, r, arrival, r.account.as_str(), symbols)
            .and_then(|()| statement.raw_bind_parameter(25, first_line))
            .and_then(|()| statement.raw_execute())
            .map_err(map_err)?;
        Ok(())
    }

    /// Binds the 24 columns of [`INSERT_SPOT_BULK`], with `account` and the six assets
    /// (in, out, fee, value, price and fee value currencies) as given.
    fn bind<A: rusqlite::ToSql, S: rusqlite::ToSql>(
        &mut self,
        statement: &mut rusqlite::Statement<'_>,
        r: &NewSpotRecord,
        seq: i64,
        account: A,
        assets: [Option<S>; 6],
    ) -> rusqlite::Result<()> {
        use std::fmt::Write as _;
        let import_id = self.import_id;
        let (code, label) = tx_type_code(&r.tx_type);
        let buf = &mut self.buf;
        buf.clear();
        let in_qty = push_decimal(buf, r.inflow.map(|s| s.quantity));
        let out_qty = push_decimal(buf, r.outflow.map(|s| s.quantity));
        let fee_qty = push_decimal(buf, r.fee.map(|f| f.quantity));
        let sv = push_decimal(buf, r.stated_value.map(|s| s.amount));
        let sp = push_decimal(buf, r.stated_price.map(|s| s.amount));
        let sfv = push_decimal(buf, r.stated_fee_value.map(|s| s.amount));
        let lines_start = buf.len();
        for (i, line) in r.source_lines.iter().enumerate() {
            if i > 0 {
                buf.push(',');
            }
            let _ = write!(buf, "{line}");
        }
        let buf = &self.buf;
        let text = |range: Option<std::ops::Range<usize>>| range.and_then(|r| buf.get(r));
        let [
            in_asset,
            out_asset,
            fee_asset,
            value_currency,
            price_currency,
            fee_value_currency,
        ] = assets;
        statement.raw_bind_parameter(1, seq)?;
        statement.raw_bind_parameter(2, StoredKey::new(&r.row_key))?;
        statement.raw_bind_parameter(3, account)?;
        statement.raw_bind_parameter(4, code)?;
        statement.raw_bind_parameter(5, label)?;
        statement.raw_bind_parameter(6, r.instant.unix_nanos())?;
        statement.raw_bind_parameter(7, in_asset)?;
        statement.raw_bind_parameter(8, text(in_qty))?;
        statement.raw_bind_parameter(9, out_asset)?;
        statement.raw_bind_parameter(10, text(out_qty))?;
        statement.raw_bind_parameter(11, fee_asset)?;
        statement.raw_bind_parameter(12, text(fee_qty))?;
        statement.raw_bind_parameter(13, text(sv))?;
        statement.raw_bind_parameter(14, value_currency)?;
        statement.raw_bind_parameter(15, text(sp))?;
        statement.raw_bind_parameter(16, price_currency)?;
        statement.raw_bind_parameter(17, text(sfv))?;
        statement.raw_bind_parameter(18, fee_value_currency)?;
        statement.raw_bind_parameter(19, r.transfer_group_id.as_deref())?;
        statement.raw_bind_parameter(20, import_id)?;
        statement.raw_bind_parameter(21, buf.get(lines_start..).unwrap_or_default())?;
        statement.raw_bind_parameter(22, r.source_ref.as_deref())?;
        statement.raw_bind_parameter(23, r.note.as_deref())?;
        statement.raw_bind_parameter(24, r.content_key.as_deref())?;
        Ok(())
    }
}

fn exists(tx: &Transaction<'_>, sql: &str, key: &str) -> PortResult<bool> {
    tx.prepare_cached(sql)
        .and_then(|mut s| s.exists([key]))
        .map_err(map_err)
}

/// Whether a spot or futures table holds `row_key`.
fn key_exists(tx: &Transaction<'_>, sql: &str, row_key: &str) -> PortResult<bool> {
    tx.prepare_cached(sql)
        .and_then(|mut s| s.exists([StoredKey::new(row_key)]))
        .map_err(map_err)
}

/// The statements of the rates table; keys are bound in column order.
struct MarketSql {
    select: &'static str,
    insert: &'static str,
    update: &'static str,
}

const RATE_SQL: MarketSql = MarketSql {
    select: "SELECT rate FROM rates WHERE currency_id = ?1 AND day = ?2",
    insert: "INSERT INTO rates (currency_id, day, rate, import_id) VALUES (?1, ?2, ?3, ?4)",
    update: "UPDATE rates SET rate = ?3, import_id = ?4 WHERE currency_id = ?1 AND day = ?2",
};

/// One market value to store: its key columns and its value.
struct MarketValue {
    key: Vec<i64>,
    value: Decimal,
}

fn write_market(
    ledger: &mut SqliteLedger,
    log: &NewImportLog,
    policy: ConflictPolicy,
    mode: WriteMode,
    sql: &MarketSql,
    keys: impl Fn(&Transaction<'_>, &mut Ids, usize) -> PortResult<Option<MarketValue>>,
) -> PortResult<MarketOutcome> {
    let tx = ledger
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(map_err)?;
    let import_id = insert_log(&tx, log)?;
    let mut ids = Ids::load(&tx)?;
    let mut outcome = MarketOutcome::default();
    let mut index = 0;
    while let Some(item) = keys(&tx, &mut ids, index)? {
        if item.value <= Decimal::ZERO {
            return Err(invalid(
                "market value",
                format!("row {index}: {} is not positive", item.value),
            ));
        }
        let key_params = rusqlite::params_from_iter(item.key.iter());
        let stored: Option<String> = tx
            .prepare_cached(sql.select)
            .and_then(|mut s| s.query_row(key_params, |row| row.get(0)).optional())
            .map_err(map_err)?;
        let text = decimal_text(item.value);
        let mut bind: Vec<rusqlite::types::Value> = item
            .key
            .iter()
            .map(|k| rusqlite::types::Value::Integer(*k))
            .collect();
        bind.push(rusqlite::types::Value::Text(text));
        bind.push(rusqlite::types::Value::Integer(import_id));
        match stored {
            None => {
                tx.prepare_cached(sql.insert)
                    .and_then(|mut s| s.execute(rusqlite::params_from_iter(bind.iter())))
                    .map_err(map_err)?;
                outcome.added += 1;
            }
            Some(old) => {
                let old =
                    parse_decimal(old.as_bytes()).ok_or_else(|| corrupt("market value", &old))?;
                if old == item.value {
                    outcome.duplicates += 1;
                } else {
                    outcome.conflicts.push(MarketConflict {
                        index,
                        stored: old,
                        new: item.value,
                    });
                    if policy == ConflictPolicy::Replace {
                        tx.prepare_cached(sql.update)
                            .and_then(|mut s| s.execute(rusqlite::params_from_iter(bind.iter())))
                            .map_err(map_err)?;
                        outcome.replaced += 1;
                    }
                }
            }
        }
        index += 1;
    }
    let rejected = policy == ConflictPolicy::Reject && !outcome.conflicts.is_empty();
    let keep = !rejected && mode != WriteMode::DryRun;
    end_market_write(tx, import_id, keep, &mut outcome)?;
    Ok(outcome)
}

/// Ends a rate or price import: bumps the version when values were added or replaced, closes
/// the log entry, then commits when `keep` (else rolls back, leaving the store as it was).
fn end_market_write(
    tx: Transaction<'_>,
    import_id: i64,
    keep: bool,
    outcome: &mut MarketOutcome,
) -> PortResult<()> {
    // The transaction holds the write lock: after a rollback the version is this one.
    let before = ledger_version(&tx)?;
    if outcome.added + outcome.replaced > 0 {
        bump_version(&tx)?;
    }
    finish_log(
        &tx,
        import_id,
        outcome.added,
        outcome.duplicates,
        outcome.replaced,
    )?;
    if keep {
        outcome.ledger_version = ledger_version(&tx)?;
        tx.commit().map_err(map_err)?;
        outcome.committed = true;
        outcome.import_id = Some(import_id);
    } else {
        tx.rollback().map_err(map_err)?;
        outcome.ledger_version = before;
    }
    Ok(())
}

fn edit_code(edit: &ValueEdit) -> (i64, Option<String>, Option<Asset>) {
    match edit {
        ValueEdit::Unchanged => (0, None, None),
        ValueEdit::Set { amount, currency } => (1, Some(decimal_text(*amount)), Some(*currency)),
        ValueEdit::Clear => (2, None, None),
    }
}

impl SqliteLedger {
    /// Runs `f` in one immediate transaction and commits.
    fn in_tx<T>(&mut self, f: impl FnOnce(&Transaction<'_>) -> PortResult<T>) -> PortResult<T> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(map_err)?;
        let value = f(&tx)?;
        tx.commit().map_err(map_err)?;
        Ok(value)
    }
}

impl LedgerWrite for SqliteLedger {
    fn write_import_batch(&mut self, batch: &ImportBatch) -> PortResult<ImportOutcome> {
        import_batch(self, batch)
    }

    fn write_rates(&mut self, batch: &RateBatch) -> PortResult<MarketOutcome> {
        write_market(
            self,
            &batch.log,
            batch.on_conflict,
            batch.mode,
            &RATE_SQL,
            |tx, ids, i| {
                let Some(row) = batch.rows.get(i) else {
                    return Ok(None);
                };
                Ok(Some(MarketValue {
                    key: vec![ids.asset(tx, row.currency)?, day_of(row.date)],
                    value: row.rate,
                }))
            },
        )
    }

    fn write_prices(&mut self, batch: &PriceBatch) -> PortResult<MarketOutcome> {
        prices::write_prices(self, batch)
    }

    fn set_setting(&mut self, key: SettingKey, value: &str) -> PortResult<()> {
        self.in_tx(|tx| {
            let old: Option<String> = tx
                .query_row(
                    "SELECT value FROM settings WHERE key = ?1",
                    [key.as_str()],
                    |row| row.get(0),
                )
                .optional()
                .map_err(map_err)?;
            if old.as_deref() != Some(value) {
                tx.execute(
                    "INSERT INTO settings (key, value) VALUES (?1, ?2) \
                     ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [key.as_str(), value],
                )
                .map_err(map_err)?;
                bump_version(tx)?;
            }
            Ok(())
        })
    }

    fn unset_setting(&mut self, key: SettingKey) -> PortResult<bool> {
        self.in_tx(|tx| {
            let removed = tx
                .execute("DELETE FROM settings WHERE key = ?1", [key.as_str()])
                .map_err(map_err)?;
            if removed > 0 {
                bump_version(tx)?;
            }
            Ok(removed > 0)
        })
    }

    fn ensure_account(&mut self, name: &str) -> PortResult<AccountId> {
        self.in_tx(|tx| {
            let mut ids = Ids::load(tx)?;
            let id = ids.account(tx, name)?;
            if !ids.created.is_empty() {
                bump_version(tx)?;
            }
            u32::try_from(id)
                .map(AccountId)
                .map_err(|e| corrupt("account id", e))
        })
    }

    fn set_account_custody(
        &mut self,
        account: AccountId,
        kind: CustodyKind,
        country: Option<&str>,
    ) -> PortResult<()> {
        if let Some(code) = country
            && !(code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase()))
        {
            return Err(invalid(
                "country",
                format!("{code:?} is not an ISO 3166-1 alpha-2 code"),
            ));
        }
        self.in_tx(|tx| {
            let changed = tx
                .execute(
                    "UPDATE accounts SET custody_kind = ?2, country = ?3 WHERE id = ?1",
                    params![account.0, kind.as_str(), country],
                )
                .map_err(map_err)?;
            if changed == 0 {
                return Err(PortError::NotFound {
                    what: format!("account {}", account.0),
                });
            }
            bump_version(tx)
        })
    }

    fn set_override(&mut self, edit: &RowOverride, note: Option<&str>) -> PortResult<()> {
        if edit.row_key.is_empty() {
            return Err(invalid("override", "empty row key"));
        }
        self.in_tx(|tx| {
            let mut ids = Ids::load(tx)?;
            let (fee_code, fee_asset, fee_qty) = match edit.fee {
                FeeEdit::Unchanged => (0, None, None),
                FeeEdit::None => (1, None, None),
                FeeEdit::Charged { asset, quantity } => {
                    (2, Some(ids.asset(tx, asset)?), Some(decimal_text(quantity)))
                }
            };
            let (value_code, value_amount, value_ccy) = edit_code(&edit.edited_value);
            let (price_code, price_amount, price_ccy) = edit_code(&edit.edited_price);
            let (fv_code, fv_amount, fv_ccy) = edit_code(&edit.edited_fee_value);
            let value_ccy = ids.opt_asset(tx, value_ccy)?;
            let price_ccy = ids.opt_asset(tx, price_ccy)?;
            let fv_ccy = ids.opt_asset(tx, fv_ccy)?;
            tx.execute(
                "INSERT OR REPLACE INTO overrides (row_key, tx_type, instant, in_qty, out_qty, \
                 fee_edit, fee_asset, fee_qty, value_edit, value_amount, value_ccy, price_edit, \
                 price_amount, price_ccy, fee_value_edit, fee_value_amount, fee_value_ccy, \
                 excluded, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, \
                 ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
                params![
                    edit.row_key,
                    edit.tx_type.map(spot_type_code),
                    edit.instant.map(Instant::unix_nanos),
                    dec(edit.in_quantity),
                    dec(edit.out_quantity),
                    fee_code,
                    fee_asset,
                    fee_qty,
                    value_code,
                    value_amount,
                    value_ccy,
                    price_code,
                    price_amount,
                    price_ccy,
                    fv_code,
                    fv_amount,
                    fv_ccy,
                    i64::from(edit.excluded),
                    note,
                ],
            )
            .map_err(map_err)?;
            bump_version(tx)
        })
    }

    fn restore_override(&mut self, row_key: &str) -> PortResult<bool> {
        self.in_tx(|tx| {
            let removed = tx
                .execute("DELETE FROM overrides WHERE row_key = ?1", [row_key])
                .map_err(map_err)?;
            if removed > 0 {
                bump_version(tx)?;
            }
            Ok(removed > 0)
        })
    }

    fn link(&mut self, link: &CustodyLink) -> PortResult<()> {
        self.in_tx(|tx| {
            let linked = |key: &str| {
                exists(
                    tx,
                    "SELECT 1 FROM custody_links WHERE row_key = ?1 OR in_row_key = ?1",
                    key,
                )
            };
            match link {
                CustodyLink::Link {
                    out_row_key,
                    in_row_key,
                } => {
                    if out_row_key == in_row_key || out_row_key.is_empty() {
                        return Err(invalid("link", "the two legs must be different rows"));
                    }
                    for key in [out_row_key, in_row_key] {
                        if linked(key)? {
                            return Err(PortError::Conflict {
                                reason: format!("row {key} is already linked"),
                            });
                        }
                    }
                    tx.execute(
                        "INSERT INTO custody_links (row_key, kind, in_row_key) VALUES (?1, 0, ?2)",
                        [out_row_key, in_row_key],
                    )
                    .map_err(map_err)?;
                }
                CustodyLink::Counterparty {
                    row_key,
                    counterparty,
                } => {
                    if linked(row_key)? {
                        return Err(PortError::Conflict {
                            reason: format!("row {row_key} is already linked"),
                        });
                    }
                    let account = match counterparty {
                        Counterparty::Account(id) => {
                            if !tx
                                .prepare_cached("SELECT 1 FROM accounts WHERE id = ?1")
                                .and_then(|mut s| s.exists([id.0]))
                                .map_err(map_err)?
                            {
                                return Err(PortError::NotFound {
                                    what: format!("account {}", id.0),
                                });
                            }
                            Some(id.0)
                        }
                        Counterparty::OwnWallet => None,
                    };
                    tx.execute(
                        "INSERT INTO custody_links (row_key, kind, counterparty) VALUES (?1, 1, ?2)",
                        params![row_key, account],
                    )
                    .map_err(map_err)?;
                }
            }
            bump_version(tx)
        })
    }

    fn unlink(&mut self, row_key: &str) -> PortResult<u64> {
        self.in_tx(|tx| {
            let removed = tx
                .execute(
                    "DELETE FROM custody_links WHERE row_key = ?1 OR in_row_key = ?1",
                    [row_key],
                )
                .map_err(map_err)?;
            if removed > 0 {
                bump_version(tx)?;
            }
            Ok(removed as u64)
        })
    }
}
