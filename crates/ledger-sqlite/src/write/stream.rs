//! The streamed import: records arrive in chunks while the file is still being parsed on
//! another thread, and go into one transaction (`imports.md` §1.15: nothing is visible
//! before the commit, and a rejected file rolls everything back).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};
use use_cases::PortResult;
use use_cases::ports::{
    Duplicate, DuplicateMatch, ImportOutcome, NewFuturesRecord, NewImportLog, NewSpotRecord,
    RecordRef,
};

use core_domain::Asset;

use super::{
    BulkWriter, Common, INSERT_SPOT, INSERT_SPOT_BULK, Ids, KeyMap, bump_version, insert_log,
    rebuild_key_index, record_assets, stored_by_content, stored_rows, to_i64,
};
use crate::SqliteLedger;
use crate::codec::{StoredKey, decimal_text, key_col, lines_text};
use crate::error::{corrupt, map_err};
use crate::read::{ledger_version, meta_value};

/// How a streamed import ends, decided once the parse is over.
#[derive(Debug)]
pub enum StreamEnd {
    /// Commit, with the import log entry as the parse completed it.
    Commit(NewImportLog),
    /// Roll back and report what would have been written (`--dry-run`).
    DryRun,
    /// Roll back: the file was rejected, or it must be read another way.
    Abandon,
}

/// The order in which a stream's records arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamOrder {
    /// Insertion order: each record is inserted as it arrives.
    Insertion,
    /// Any order: the records are staged in a temporary table (on file, so memory stays flat)
    /// inside the transaction, then inserted in ascending (instant, first source line,
    /// arrival) order, with their accounts and assets created in that order, so the ledger
    /// is the one their insertion order would give.
    Any,
}

/// How a stream is to be written: the order its records arrive in, and about how many there
/// are (an estimate: it only chooses the write mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamPlan {
    /// The order in which the records arrive.
    pub order: StreamOrder,
    /// About how many records the stream brings.
    pub records: usize,
}

/// How a stream's identities are checked and the key index kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WriteMode {
    /// Every stored identity in memory, the key index dropped and rebuilt in one sort at the
    /// end: cheaper than an index probe per record while the ledger holds no more rows than
    /// the stream.
    Bulk,
    /// Each record looked up in the stored rows' key index (or inserted with `ON CONFLICT DO
    /// NOTHING`), the index kept and grown by each insert, as the batch path does: loading a
    /// larger ledger's identities and sorting all its keys again would cost more, and hold
    /// memory in proportion to the ledger.
    Checked,
}

impl WriteMode {
    /// Bulk when the ledger holds no more rows than the stream brings, checked otherwise.
    fn choose(conn: &rusqlite::Connection, records: usize) -> PortResult<Self> {
        let stored = stored_rows(conn)?;
        Ok(if usize::try_from(stored).is_ok_and(|n| n <= records) {
            Self::Bulk
        } else {
            Self::Checked
        })
    }
}

/// One record of a stream: a spot record, or a futures record (a Kraken futures log, which
/// is always streamed in [`StreamOrder::Any`]).
#[derive(Debug, Clone, Copy)]
pub enum StreamRecord<'a> {
    /// A record for `spot_rows`.
    Spot(&'a NewSpotRecord),
    /// A record for `futures_rows`.
    Futures(&'a NewFuturesRecord),
}

/// The staging tables of a [`StreamOrder::Any`] stream: the columns of `spot_rows` (and of
/// `futures_rows`), with the arrival for the seq, the account name and asset symbols for
/// their ids, and the first line.
const CREATE_STAGE: &str = "CREATE TEMP TABLE import_stage (arrival INTEGER PRIMARY KEY, \
     row_key, account, tx_type, unknown_label, instant, in_asset, in_qty, out_asset, out_qty, \
     fee_asset, fee_qty, sv_amount, sv_ccy, sp_amount, sp_ccy, sfv_amount, sfv_ccy, group_id, \
     import_id, source_lines, source_ref, note, content_key, first_line); \
     CREATE TEMP TABLE futures_stage (arrival INTEGER PRIMARY KEY, row_key, account, kind, \
     contract, instant, settlement_asset, realized_pnl, funding, fee_asset, fee, trade_price, \
     import_id, source_lines, source_ref, note, content_key, first_line); \
     CREATE TEMP TABLE import_stage_accounts (name TEXT PRIMARY KEY, id INTEGER NOT NULL); \
     CREATE TEMP TABLE import_stage_assets (symbol TEXT PRIMARY KEY, id INTEGER NOT NULL)";

const INSERT_STAGE: &str = "INSERT INTO temp.import_stage VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, \
     ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)";

/// The staged rows into the ledger in insertion order, numbered from `?1`.
const UNSTAGE: &str = "INSERT INTO main.spot_rows (seq, row_key, account_id, tx_type, \
     unknown_label, instant, in_asset, in_qty, out_asset, out_qty, fee_asset, fee_qty, \
     sv_amount, sv_ccy, sp_amount, sp_ccy, sfv_amount, sfv_ccy, group_id, import_id, \
     source_lines, source_ref, note, content_key) \
     SELECT ?1 - 1 + row_number() OVER (ORDER BY s.instant, s.first_line, s.arrival), \
     s.row_key, a.id, s.tx_type, s.unknown_label, s.instant, \
     (SELECT id FROM temp.import_stage_assets WHERE symbol = s.in_asset), s.in_qty, \
     (SELECT id FROM temp.import_stage_assets WHERE symbol = s.out_asset), s.out_qty, \
     (SELECT id FROM temp.import_stage_assets WHERE symbol = s.fee_asset), s.fee_qty, \
     s.sv_amount, (SELECT id FROM temp.import_stage_assets WHERE symbol = s.sv_ccy), \
     s.sp_amount, (SELECT id FROM temp.import_stage_assets WHERE symbol = s.sp_ccy), \
     s.sfv_amount, (SELECT id FROM temp.import_stage_assets WHERE symbol = s.sfv_ccy), \
     s.group_id, s.import_id, s.source_lines, s.source_ref, s.note, s.content_key \
     FROM temp.import_stage AS s JOIN temp.import_stage_accounts AS a ON a.name = s.account \
     ORDER BY s.instant, s.first_line, s.arrival";

const INSERT_FUTURES_STAGE: &str = "INSERT INTO temp.futures_stage VALUES (?1, ?2, ?3, ?4, ?5, \
     ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)";

/// The staged futures rows into the ledger in insertion order, numbered from `?1`.
const UNSTAGE_FUTURES: &str = "INSERT INTO main.futures_rows (seq, row_key, account_id, kind, \
     contract, instant, settlement_asset, realized_pnl, funding, fee_asset, fee, trade_price, \
     import_id, source_lines, source_ref, note, content_key) \
     SELECT ?1 - 1 + row_number() OVER (ORDER BY s.instant, s.first_line, s.arrival), \
     s.row_key, a.id, s.kind, s.contract, s.instant, \
     (SELECT id FROM temp.import_stage_assets WHERE symbol = s.settlement_asset), \
     s.realized_pnl, s.funding, \
     (SELECT id FROM temp.import_stage_assets WHERE symbol = s.fee_asset), s.fee, \
     s.trade_price, s.import_id, s.source_lines, s.source_ref, s.note, s.content_key \
     FROM temp.futures_stage AS s JOIN temp.import_stage_accounts AS a ON a.name = s.account \
     ORDER BY s.instant, s.first_line, s.arrival";

/// Stages futures record `r` with [`INSERT_FUTURES_STAGE`]: the columns of `futures_rows`
/// with the arrival for the seq, the account name and asset symbols for their ids, and the
/// first line.
fn stage_futures(
    statement: &mut rusqlite::Statement<'_>,
    r: &NewFuturesRecord,
    arrival: i64,
    import_id: i64,
) -> PortResult<()> {
    statement
        .execute(params![
            arrival,
            StoredKey::new(&r.row_key),
            r.account,
            r.kind.as_str(),
            r.contract,
            r.instant.unix_nanos(),
            r.settlement_asset.as_str(),
            r.realized_pnl.map(decimal_text),
            r.funding.map(decimal_text),
            r.fee.as_ref().map(|f| f.asset.as_str()),
            r.fee.map(|f| decimal_text(f.quantity)),
            r.trade_price.map(decimal_text),
            import_id,
            lines_text(&r.source_lines),
            r.source_ref,
            r.note,
            r.content_key,
            r.source_lines.first().copied().unwrap_or(0),
        ])
        .map_err(map_err)?;
    Ok(())
}

/// A place in insertion order: (instant, first line, rank). A staged record's rank is
/// `2 × arrival + 1`; a duplicate's is `2 × the next arrival`, between the records staged
/// before and after it.
type Place = (i64, u64, i64);

/// Where each account spelling and asset of a staged stream is first used in insertion
/// order: the place and the slot, the asset's column in the order the row insert resolves
/// them. Creating them in that order gives them the ids (and an account the spelling) that
/// inserting in that order would.
#[derive(Default)]
struct FirstUse {
    accounts: KeyMap<String, (Place, u8)>,
    assets: KeyMap<Asset, (Place, u8)>,
    /// Checked duplicates by identity: their failed insert, in the batch path, creates their
    /// assets when their account exists by then (place, account folded, assets).
    duplicates: Vec<(Place, String, [Option<Asset>; 6])>,
}

/// What first use notes of a record: its account as spelled, its place in insertion order
/// but the rank, and its assets in the order its insert resolves them.
struct Use<'a> {
    account: &'a str,
    instant: i64,
    line: u64,
    assets: [Option<Asset>; 6],
}

impl<'a> Use<'a> {
    fn spot(r: &'a NewSpotRecord) -> Self {
        Self {
            account: &r.account,
            instant: r.instant.unix_nanos(),
            line: r.source_lines.first().copied().unwrap_or(0),
            assets: record_assets(r),
        }
    }

    /// A futures row resolves its settlement asset, then its fee asset.
    fn futures(r: &'a NewFuturesRecord) -> Self {
        Self {
            account: &r.account,
            instant: r.instant.unix_nanos(),
            line: r.source_lines.first().copied().unwrap_or(0),
            assets: [
                Some(r.settlement_asset),
                r.fee.map(|f| f.asset),
                None,
                None,
                None,
                None,
            ],
        }
    }

    /// Its place with `rank`.
    fn place(&self, rank: i64) -> Place {
        (self.instant, self.line, rank)
    }
}

/// Notes the use of `assets` at `at`, keeping each one's earliest.
fn note_assets(first: &mut KeyMap<Asset, (Place, u8)>, at: Place, assets: [Option<Asset>; 6]) {
    for (slot, asset) in (0u8..).zip(assets) {
        let Some(asset) = asset else { continue };
        let old = first.entry(asset).or_insert((at, slot));
        *old = (*old).min((at, slot));
    }
}

impl FirstUse {
    /// A record staged with `arrival`.
    fn note(&mut self, r: &Use<'_>, arrival: i64) {
        let at = r.place(arrival.saturating_mul(2).saturating_add(1));
        match self.accounts.get_mut(r.account) {
            Some(old) => *old = (*old).min((at, 0)),
            None => {
                self.accounts.insert(r.account.to_owned(), (at, 0));
            }
        }
        note_assets(&mut self.assets, at, r.assets);
    }

    /// A duplicate by identity met when `next` was the next arrival.
    fn note_duplicate(&mut self, r: &Use<'_>, next: i64) {
        let at = r.place(next.saturating_mul(2));
        let fold = r.account.trim().to_lowercase();
        self.duplicates.push((at, fold, r.assets));
    }

    /// Creates the accounts and assets in order of first use and fills the stage's maps.
    fn resolve(self, tx: &Transaction<'_>, ids: &mut Ids) -> PortResult<()> {
        let Self {
            accounts,
            mut assets,
            mut duplicates,
        } = self;
        let mut accounts: Vec<_> = accounts.into_iter().collect();
        accounts.sort_unstable_by_key(|(_, at)| *at);
        // Stable: duplicates at one place keep their arrival order.
        duplicates.sort_by_key(|(at, _, _)| *at);
        let mut duplicates = duplicates.into_iter().peekable();
        // A duplicate's assets count when its account exists by its place.
        let mut known = |assets: &mut KeyMap<_, _>, ids: &Ids, until: Option<Place>| {
            while let Some((at, fold, used)) =
                duplicates.next_if(|(at, _, _)| until.is_none_or(|until| *at < until))
            {
                if ids.accounts.contains_key(&fold) {
                    note_assets(assets, at, used);
                }
            }
        };
        let mut statement = tx
            .prepare("INSERT INTO temp.import_stage_accounts (name, id) VALUES (?1, ?2)")
            .map_err(map_err)?;
        for (name, (at, _)) in accounts {
            known(&mut assets, ids, Some(at));
            let id = ids.account(tx, &name)?;
            statement.execute(params![name, id]).map_err(map_err)?;
        }
        known(&mut assets, ids, None);
        let mut assets: Vec<_> = assets.into_iter().collect();
        assets.sort_unstable_by_key(|(_, at)| *at);
        let mut statement = tx
            .prepare("INSERT INTO temp.import_stage_assets (symbol, id) VALUES (?1, ?2)")
            .map_err(map_err)?;
        for (asset, _) in assets {
            let id = ids.asset(tx, asset)?;
            statement
                .execute(params![asset.as_str(), id])
                .map_err(map_err)?;
        }
        Ok(())
    }
}

/// Every identity of the ledger, with its row's seq: hex SHA-256 keys (all the importers
/// write) as their 32 bytes, any other key as text. The records of one stream are not added:
/// they have distinct identities (one file's, which the importer makes unique), and should
/// two agree the key index refuses the second when it is rebuilt, failing the commit.
struct Seen {
    digests: HashMap<[u8; 32], i64, BuildHasherDefault<DigestHasher>>,
    texts: KeyMap<String, i64>,
}

/// SHA-256 digests are uniformly distributed: their first eight bytes are a hash already.
#[derive(Default, Clone, Copy)]
struct DigestHasher(u64);

impl Hasher for DigestHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut word = [0u8; 8];
        for (slot, byte) in word.iter_mut().zip(bytes) {
            *slot = *byte;
        }
        self.0 ^= u64::from_le_bytes(word);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl Seen {
    fn with_capacity(capacity: usize) -> Self {
        Self {
            digests: HashMap::with_capacity_and_hasher(capacity, BuildHasherDefault::default()),
            texts: KeyMap::default(),
        }
    }

    fn insert(&mut self, row_key: &str, seq: i64) {
        match StoredKey::new(row_key) {
            StoredKey::Digest(bytes) => {
                self.digests.insert(bytes, seq);
            }
            StoredKey::Text(text) => {
                self.texts.insert(text.to_owned(), seq);
            }
        }
    }

    /// Every identity of the ledger.
    fn load(tx: &Transaction<'_>) -> PortResult<Self> {
        let stored = usize::try_from(stored_rows(tx)?).unwrap_or(0);
        let mut seen = Self::with_capacity(stored);
        for sql in [
            "SELECT row_key, seq FROM spot_rows",
            "SELECT row_key, seq FROM futures_rows",
        ] {
            let mut statement = tx.prepare(sql).map_err(map_err)?;
            let mut rows = statement.query([]).map_err(map_err)?;
            while let Some(row) = rows.next().map_err(map_err)? {
                let key = key_col(row.get_ref(0).map_err(map_err)?)?;
                seen.insert(&key, row.get(1).map_err(map_err)?);
            }
        }
        Ok(seen)
    }

    /// The seq of the stored row with `row_key`.
    fn get(&self, row_key: &str) -> Option<i64> {
        if self.digests.is_empty() && self.texts.is_empty() {
            return None;
        }
        match StoredKey::new(row_key) {
            StoredKey::Digest(bytes) => self.digests.get(&bytes).copied(),
            StoredKey::Text(text) => self.texts.get(text).copied(),
        }
    }
}

/// The duplicate that record `r` of the stream is of the stored row `stored_seq`.
fn duplicate_of(
    tx: &Transaction<'_>,
    r: &Common<'_>,
    stored_seq: i64,
    first_seq: i64,
) -> PortResult<Duplicate> {
    let (account, content_key) = row_by_seq(tx, stored_seq)?;
    Ok(super::identity_duplicate(
        r,
        (stored_seq, &account, content_key.as_deref()),
        first_seq,
    ))
}

/// The duplicate that record `index` of the stream, `r`, is of a stored row with its content
/// key, when `r` is matched that way (`dedupe_by_content_key`).
fn by_content(
    tx: &Transaction<'_>,
    r: &NewSpotRecord,
    index: usize,
    first_seq: i64,
) -> PortResult<Option<Duplicate>> {
    let Some(content_key) = r.content_key.as_deref().filter(|_| r.dedupe_by_content_key) else {
        return Ok(None);
    };
    let Some((stored_seq, stored_key, stored_account)) = stored_by_content(tx, content_key)? else {
        return Ok(None);
    };
    Ok(Some(Duplicate {
        record: RecordRef::Spot(index),
        stored_row_key: stored_key,
        other_account: stored_account != r.account.trim().to_lowercase(),
        content_changed: false,
        matched_by: DuplicateMatch::ContentKey,
        within_batch: stored_seq >= first_seq,
    }))
}

/// How a stream's records are checked against the stored rows.
struct Checks {
    /// Bulk mode: every identity of the ledger, with its row's seq (the key index is dropped
    /// until the end). Checked mode: `None`, the key index answers.
    seen: Option<Seen>,
    staged: bool,
    /// Whether futures rows exist (checked mode): otherwise none is asked for.
    probe_futures: bool,
    first_seq: i64,
}

impl Checks {
    fn new(
        tx: &Transaction<'_>,
        mode: WriteMode,
        staged: bool,
        first_seq: i64,
    ) -> PortResult<Self> {
        let seen = match mode {
            WriteMode::Bulk => {
                let seen = Seen::load(tx)?;
                tx.execute_batch("DROP INDEX spot_rows_key")
                    .map_err(map_err)?;
                Some(seen)
            }
            WriteMode::Checked => None,
        };
        let probe_futures = mode == WriteMode::Checked
            && tx
                .query_row("SELECT EXISTS (SELECT 1 FROM futures_rows)", [], |row| {
                    row.get::<_, bool>(0)
                })
                .map_err(map_err)?;
        Ok(Self {
            seen,
            staged,
            probe_futures,
            first_seq,
        })
    }

    /// The duplicate that record `index` of the stream, `r`, is of a stored row, as far as
    /// it is found before `r` is written (`next` being the next seq or arrival); an inserted
    /// record in checked mode is also checked by its insert. `known` tells whether `r`'s
    /// account exists.
    fn before_write(
        &self,
        tx: &Transaction<'_>,
        r: &NewSpotRecord,
        index: usize,
        known: impl FnOnce() -> bool,
        first_use: &mut FirstUse,
        next: i64,
    ) -> PortResult<Option<Duplicate>> {
        // Matched by content key first, as the batch path does (a Coinbase v4 row against
        // older reports); the stream's own keys are distinct.
        if let Some(duplicate) = by_content(tx, r, index, self.first_seq)? {
            return Ok(Some(duplicate));
        }
        if let Some(seen) = &self.seen {
            return seen
                .get(&r.row_key)
                .map(|at| duplicate_of(tx, &common(r, index), at, self.first_seq))
                .transpose();
        }
        if self.staged {
            // Looked up now. The batch path inserts a duplicate whose account exists, unless
            // it is a futures row: the failed insert creates its assets, so note them too.
            // One probe of the key index (it covers the query); the rare duplicate is read.
            let stored =
                super::key_exists(tx, "SELECT 1 FROM spot_rows WHERE row_key = ?1", &r.row_key)?
                    || in_futures(tx, self.probe_futures, r)?;
            let found = if stored {
                super::duplicate_of(tx, &common(r, index), self.first_seq)?
            } else {
                None
            };
            if found.is_some() && !in_futures(tx, self.probe_futures, r)? {
                first_use.note_duplicate(&Use::spot(r), next);
            }
            return Ok(found);
        }
        // Found by the insert, unless a duplicate could create its account or be a futures
        // row (as in the batch path).
        if !known() || in_futures(tx, self.probe_futures, r)? {
            return super::duplicate_of(tx, &common(r, index), self.first_seq);
        }
        Ok(None)
    }

    /// The duplicate that futures record `index` of the stream, `r`, is of a stored row
    /// (`next` being the next arrival: futures records are always staged). Checked, the
    /// key indexes answer, as in the batch path; a duplicate not of a spot row would have
    /// failed its insert there, which creates its assets, so they are noted.
    fn futures_before_write(
        &self,
        tx: &Transaction<'_>,
        r: &NewFuturesRecord,
        index: usize,
        first_use: &mut FirstUse,
        next: i64,
    ) -> PortResult<Option<Duplicate>> {
        let common = Common {
            record: RecordRef::Futures(index),
            account: &r.account,
            row_key: &r.row_key,
            content_key: r.content_key.as_deref(),
        };
        if let Some(seen) = &self.seen {
            return seen
                .get(&r.row_key)
                .map(|at| duplicate_of(tx, &common, at, self.first_seq))
                .transpose();
        }
        let in_spot =
            super::key_exists(tx, "SELECT 1 FROM spot_rows WHERE row_key = ?1", &r.row_key)?;
        let stored = in_spot
            || super::key_exists(
                tx,
                "SELECT 1 FROM futures_rows WHERE row_key = ?1",
                &r.row_key,
            )?;
        let found = if stored {
            super::duplicate_of(tx, &common, self.first_seq)?
        } else {
            None
        };
        if found.is_some() && !in_spot {
            first_use.note_duplicate(&Use::futures(r), next);
        }
        Ok(found)
    }

    /// The duplicate of a stored row that record `index`, `r`, is, its insert having met a
    /// stored identity.
    fn conflict(
        &self,
        tx: &Transaction<'_>,
        r: &NewSpotRecord,
        index: usize,
    ) -> PortResult<Duplicate> {
        super::duplicate_of(tx, &common(r, index), self.first_seq)?
            .ok_or_else(|| corrupt("row key", "conflict without a stored row"))
    }
}

/// The fields of record `index`, `r`, that the batch path's duplicate report reads.
fn common(r: &NewSpotRecord, index: usize) -> Common<'_> {
    Common {
        record: RecordRef::Spot(index),
        account: &r.account,
        row_key: &r.row_key,
        content_key: r.content_key.as_deref(),
    }
}

/// Whether `r`'s identity is a futures row's (asked only when futures rows exist).
fn in_futures(tx: &Transaction<'_>, probe_futures: bool, r: &NewSpotRecord) -> PortResult<bool> {
    Ok(probe_futures
        && super::key_exists(
            tx,
            "SELECT 1 FROM futures_rows WHERE row_key = ?1",
            &r.row_key,
        )?)
}

/// The account (folded) and content key of the row `seq`, spot or futures.
fn row_by_seq(tx: &Transaction<'_>, seq: i64) -> PortResult<(String, Option<String>)> {
    tx.prepare_cached(
        "SELECT a.name_fold, r.content_key \
         FROM (SELECT account_id, content_key FROM spot_rows WHERE seq = ?1 \
               UNION ALL \
               SELECT account_id, content_key FROM futures_rows WHERE seq = ?1) AS r \
         JOIN accounts a ON a.id = r.account_id",
    )
    .and_then(|mut s| {
        s.query_row([seq], |row| Ok((row.get(0)?, row.get(1)?)))
            .optional()
    })
    .map_err(map_err)?
    .ok_or_else(|| corrupt("seq", format!("no row {seq}")))
}

impl SqliteLedger {
    /// Writes spot records that arrive in chunks, in insertion order, in one transaction.
    /// Into a ledger holding no more rows than `plan.records`, identities are checked in
    /// memory against the stored ones and the key index is rebuilt at the end (the bulk
    /// path); into a larger one each record is checked against the stored rows' key indexes,
    /// which are kept (the batch path's checks). `record` reads the store record of an
    /// item (spot, or futures in a [`StreamOrder::Any`] stream of futures records only);
    /// `on_duplicate` hears of each record not inserted; `retire` gets each chunk back
    /// once written (freeing a chunk's records can happen on another thread). When `chunks` is exhausted,
    /// `end` decides: commit (with the final import log entry), dry run or abandon (both
    /// roll back). An abandoned import returns an outcome with `committed` false. The records
    /// must have distinct identities (a file's do); of two equal ones, the second fails the
    /// commit (or, checked in insertion order, is a duplicate, as in a batch). A record
    /// with `dedupe_by_content_key` is first looked up by its content key among the stored
    /// rows, as in the batch path (a stream's own content keys are distinct, a file's being
    /// numbered).
    ///
    /// With [`StreamOrder::Any`] in `plan` the records may arrive in any order: they are staged and
    /// inserted in ascending (instant, first source line, arrival) order when `end` commits.
    /// Futures records (a Kraken futures log, newest first) take this path only, and a
    /// stream holds spot or futures records, not both; their duplicates are
    /// [`RecordRef::Futures`].
    ///
    /// # Errors
    /// Any store failure; the transaction is rolled back.
    pub fn import_stream<T>(
        &mut self,
        plan: StreamPlan,
        chunks: impl Iterator<Item = Vec<T>>,
        record: impl Fn(&T) -> StreamRecord<'_>,
        mut on_duplicate: impl FnMut(&T, &Duplicate),
        mut retire: impl FnMut(Vec<T>),
        end: impl FnOnce() -> StreamEnd,
    ) -> PortResult<ImportOutcome> {
        // Chosen before the transaction, for its journal: should another writer add rows
        // meanwhile, the mode is only slower, never wrong.
        let mode = WriteMode::choose(&self.conn, plan.records)?;
        // Both modes write through the WAL, so readers keep reading the last committed state
        // during the import (docs/decisions.md D-72).
        // Through the page cache, not a memory map, so the process does not map the ledger
        // it writes: the key-index build scans the whole table, and the checked probes and
        // duplicates' reads touch pages all over it (peak memory stays flat).
        let mapped = self.conn.pragma_update(None, "mmap_size", 0).is_ok();
        // Staged rows go to a temporary file, not to memory; setting the store back drops
        // the staging tables (it cannot change inside the transaction once they exist).
        let staged = plan.order == StreamOrder::Any;
        let result = if staged {
            self.conn
                .pragma_update(None, "temp_store", "FILE")
                .map_err(map_err)
        } else {
            Ok(())
        };
        let result = result.and_then(|()| {
            let shape = (plan.order, mode);
            self.import_stream_in_tx(shape, chunks, &record, &mut on_duplicate, &mut retire, end)
        });
        if staged {
            let _ = self.conn.pragma_update(None, "temp_store", "MEMORY");
        }
        if mapped {
            let _ = self
                .conn
                .pragma_update(None, "mmap_size", crate::MMAP_BYTES);
        }
        result
    }

    #[allow(clippy::too_many_lines)] // One transaction: spot or futures records, staged or not.
    fn import_stream_in_tx<T>(
        &mut self,
        (order, mode): (StreamOrder, WriteMode),
        chunks: impl Iterator<Item = Vec<T>>,
        record: &impl Fn(&T) -> StreamRecord<'_>,
        on_duplicate: &mut impl FnMut(&T, &Duplicate),
        retire: &mut impl FnMut(Vec<T>),
        end: impl FnOnce() -> StreamEnd,
    ) -> PortResult<ImportOutcome> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(map_err)?;
        // A placeholder entry: rows reference its id; the counts are written at the end.
        let import_id = insert_log(&tx, &NewImportLog::default())?;
        let mut ids = Ids::load(&tx)?;
        let first_seq = to_i64(meta_value(&tx, "next_seq")?, "next seq")?;
        let staged = order == StreamOrder::Any;
        let checks = Checks::new(&tx, mode, staged, first_seq)?;
        if staged {
            tx.execute_batch(CREATE_STAGE).map_err(map_err)?;
        }
        let mut first_use = FirstUse::default();
        let mut outcome = ImportOutcome::default();
        // The next seq, or in a staged stream the next arrival (they end equal).
        let mut seq = first_seq;
        {
            let mut statement = tx
                .prepare(match (staged, mode) {
                    (true, _) => INSERT_STAGE,
                    (false, WriteMode::Bulk) => INSERT_SPOT_BULK,
                    (false, WriteMode::Checked) => INSERT_SPOT,
                })
                .map_err(map_err)?;
            let mut futures_statement = if staged {
                Some(tx.prepare(INSERT_FUTURES_STAGE).map_err(map_err)?)
            } else {
                None
            };
            let mut writer = BulkWriter::new(import_id);
            let mut index = 0usize;
            for chunk in chunks {
                for item in &chunk {
                    let r = match record(item) {
                        StreamRecord::Spot(r) => r,
                        StreamRecord::Futures(r) => {
                            let Some(statement) = futures_statement.as_mut() else {
                                return Err(super::invalid(
                                    "record",
                                    "futures records are streamed in any order only",
                                ));
                            };
                            if r.row_key.is_empty() {
                                return Err(super::invalid(
                                    "row key",
                                    "a record has an empty identity",
                                ));
                            }
                            let duplicate =
                                checks.futures_before_write(&tx, r, index, &mut first_use, seq)?;
                            if let Some(duplicate) = duplicate {
                                on_duplicate(item, &duplicate);
                                outcome.duplicates.push(duplicate);
                            } else {
                                first_use.note(&Use::futures(r), seq);
                                stage_futures(statement, r, seq, import_id)?;
                                outcome.added_futures += 1;
                                seq = seq
                                    .checked_add(1)
                                    .ok_or_else(|| corrupt("seq", "sequence exhausted"))?;
                            }
                            index += 1;
                            continue;
                        }
                    };
                    if r.row_key.is_empty() {
                        return Err(super::invalid("row key", "a record has an empty identity"));
                    }
                    let known = || writer.knows_account(&ids, &r.account);
                    let duplicate =
                        checks.before_write(&tx, r, index, known, &mut first_use, seq)?;
                    let duplicate = if let Some(duplicate) = duplicate {
                        Some(duplicate)
                    } else if staged {
                        first_use.note(&Use::spot(r), seq);
                        writer.stage(&mut statement, r, seq)?;
                        None
                    } else if writer.insert(&tx, &mut statement, &mut ids, r, seq)? {
                        None
                    } else {
                        // `ON CONFLICT DO NOTHING` found the identity among the rows.
                        Some(checks.conflict(&tx, r, index)?)
                    };
                    if let Some(duplicate) = duplicate {
                        on_duplicate(item, &duplicate);
                        outcome.duplicates.push(duplicate);
                    } else {
                        outcome.added_spot += 1;
                        seq = seq
                            .checked_add(1)
                            .ok_or_else(|| corrupt("seq", "sequence exhausted"))?;
                    }
                    index += 1;
                }
                retire(chunk);
            }
        }
        drop(checks);
        let log = match end() {
            StreamEnd::Commit(log) => log,
            StreamEnd::DryRun => {
                tx.rollback().map_err(map_err)?;
                outcome.ledger_version = ledger_version(&self.conn)?;
                return Ok(outcome);
            }
            StreamEnd::Abandon => {
                tx.rollback().map_err(map_err)?;
                return Ok(ImportOutcome::default());
            }
        };
        if staged {
            unstage(&tx, first_use, &mut ids, first_seq, &outcome, mode)?;
        }
        if mode == WriteMode::Bulk {
            rebuild_key_index(&tx)?;
        }
        tx.pragma_update(None, "cache_size", crate::DEFAULT_CACHE_KIB)
            .map_err(map_err)?;
        let added = outcome.added_spot + outcome.added_futures;
        if added > 0 {
            outcome.seq_range = Some(advance_seq(&tx, first_seq, seq)?);
        }
        complete_log(&tx, import_id, &log, added, outcome.duplicates.len() as u64)?;
        outcome.created_accounts = std::mem::take(&mut ids.created);
        outcome.ledger_version = ledger_version(&tx)?;
        tx.commit().map_err(map_err)?;
        outcome.committed = true;
        outcome.import_id = Some(import_id);
        Ok(outcome)
    }
}

/// Records that the rows from `first_seq` up to `next` (excluded) were added: the next seq
/// and a new ledger version. Returns the seq range.
fn advance_seq(tx: &Transaction<'_>, first_seq: i64, next: i64) -> PortResult<(u64, u64)> {
    let last = u64::try_from(next - 1).map_err(|e| corrupt("seq", e))?;
    let first = u64::try_from(first_seq).map_err(|e| corrupt("seq", e))?;
    tx.prepare_cached("UPDATE meta SET value = ?1 WHERE key = 'next_seq'")
        .and_then(|mut s| s.execute([next]))
        .map_err(map_err)?;
    bump_version(tx)?;
    Ok((first, last))
}

/// Inserts the staged rows (`outcome`'s added spot or futures rows) from seq `first_seq` in
/// insertion order, having created their accounts and assets in that order, and empties the
/// stage. A stream holds the records of one file: spot or futures, not both.
fn unstage(
    tx: &Transaction<'_>,
    first_use: FirstUse,
    ids: &mut Ids,
    first_seq: i64,
    outcome: &ImportOutcome,
    mode: WriteMode,
) -> PortResult<()> {
    let (sql, added) = match (outcome.added_spot, outcome.added_futures) {
        (spot, 0) => (UNSTAGE, spot),
        (0, futures) => (UNSTAGE_FUTURES, futures),
        _ => {
            return Err(super::invalid(
                "record",
                "a stream holds spot or futures records, not both",
            ));
        }
    };
    first_use.resolve(tx, ids)?;
    // The sort spills to temporary files past the cache, which bounds its memory (three
    // sort lists of the cache's size, with two threads); the lists of the default cache
    // took 200 MB more for 1M rows. Checked, the default cache stays: the inserts also
    // modify the kept key index, whose pages would not fit in the sort's cache.
    if mode == WriteMode::Bulk {
        tx.pragma_update(None, "cache_size", super::SORT_CACHE_KIB)
            .map_err(map_err)?;
    }
    tx.pragma_update(None, "threads", 2).map_err(map_err)?;
    let inserted = tx.execute(sql, [first_seq]);
    tx.pragma_update(None, "threads", 0).map_err(map_err)?;
    let inserted = inserted.map_err(map_err)?;
    if u64::try_from(inserted).ok() != Some(added) {
        return Err(corrupt(
            "stage",
            format!("{inserted} staged rows inserted, {added} expected"),
        ));
    }
    tx.execute_batch(
        "DROP TABLE temp.import_stage; DROP TABLE temp.futures_stage; \
         DROP TABLE temp.import_stage_accounts; DROP TABLE temp.import_stage_assets",
    )
    .map_err(map_err)
}

/// Writes the final import log entry over the placeholder.
fn complete_log(
    tx: &Transaction<'_>,
    id: i64,
    log: &NewImportLog,
    added: u64,
    duplicates: u64,
) -> PortResult<()> {
    let skipped: Vec<String> = log
        .skipped
        .iter()
        .map(|(reason, count)| format!("{reason}={count}"))
        .collect();
    let sep = crate::codec::SEP.to_string();
    tx.execute(
        "UPDATE import_log SET imported_at = ?2, file_name = ?3, file_sha256 = ?4, format = ?5, \
         layout = ?6, options = ?7, rows_read = ?8, skipped = ?9, invalid = ?10, \
         warnings = ?11, added = ?12, duplicates = ?13, replaced = 0 WHERE id = ?1",
        params![
            id,
            log.imported_at.unix_nanos(),
            log.file_name,
            log.file_sha256,
            log.format,
            log.layout,
            log.options.join(&sep),
            to_i64(log.rows_read, "rows read")?,
            skipped.join(&sep),
            to_i64(log.invalid, "invalid")?,
            to_i64(log.warnings, "warnings")?,
            to_i64(added, "added")?,
            to_i64(duplicates, "duplicates")?,
        ],
    )
    .map_err(map_err)?;
    Ok(())
}

#[cfg(test)]
mod tests;
