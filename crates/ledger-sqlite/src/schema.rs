//! The versioned schema. Each migration runs in its own transaction and sets `user_version`;
//! a store written by a newer program is refused rather than misread.

use rusqlite::{Connection, TransactionBehavior};
use use_cases::{PortError, PortResult};

use crate::error::map_err;

/// The schema version this program writes.
pub const SCHEMA_VERSION: i64 = 3;

/// One schema step: its SQL, then an optional conversion of the data in the same transaction.
struct Migration {
    sql: &'static str,
    convert: Option<fn(&Connection) -> PortResult<()>>,
}

/// Migration `n` takes the schema from version `n` to `n + 1`.
const MIGRATIONS: &[Migration] = &[
    Migration {
        sql: V1,
        convert: None,
    },
    Migration {
        sql: V2_PRICE_SERIES,
        convert: Some(crate::series::convert_price_rows),
    },
    Migration {
        sql: V3_CONTENT_INDEX,
        convert: None,
    },
];

// Row keys that are SHA-256 hex digests are stored as 32-byte BLOBs (`codec::StoredKey`).
// Amounts are decimal TEXT (exact, scale kept); instants are i64 nanoseconds; dates are days
// from the common era; assets and accounts are integer ids. The hot spot and futures tables
// carry their display-only facts (source lines, reference, note, content key) in trailing
// columns: one insert per row, and a load never decodes them. There is no (instant, seq)
// index: seq is the rowid, a load scans in seq order and sorts only when an import added
// older rows, which measured faster than walking an index (a table probe per row) and spares
// every insert an index update.
const V1: &str = r"
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) STRICT;
INSERT INTO meta (key, value) VALUES ('ledger_version', 0), ('next_seq', 1);

CREATE TABLE assets (
    id     INTEGER PRIMARY KEY,
    symbol TEXT NOT NULL UNIQUE
) STRICT;

CREATE TABLE accounts (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    name_fold    TEXT NOT NULL UNIQUE,
    parent_id    INTEGER REFERENCES accounts (id),
    custody_kind TEXT NOT NULL DEFAULT 'UNCLASSIFIED',
    country      TEXT
) STRICT;

CREATE TABLE import_log (
    id          INTEGER PRIMARY KEY,
    imported_at INTEGER NOT NULL,
    file_name   TEXT NOT NULL,
    file_sha256 TEXT NOT NULL,
    format      TEXT NOT NULL,
    layout      TEXT,
    options     TEXT NOT NULL,
    rows_read   INTEGER NOT NULL,
    skipped     TEXT NOT NULL,
    invalid     INTEGER NOT NULL,
    warnings    INTEGER NOT NULL,
    added       INTEGER NOT NULL,
    duplicates  INTEGER NOT NULL,
    replaced    INTEGER NOT NULL
) STRICT;

CREATE TABLE spot_rows (
    seq           INTEGER PRIMARY KEY,
    row_key       ANY NOT NULL,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    tx_type       INTEGER NOT NULL,
    unknown_label TEXT,
    instant       INTEGER NOT NULL,
    in_asset      INTEGER,
    in_qty        TEXT,
    out_asset     INTEGER,
    out_qty       TEXT,
    fee_asset     INTEGER,
    fee_qty       TEXT,
    sv_amount     TEXT,
    sv_ccy        INTEGER,
    sp_amount     TEXT,
    sp_ccy        INTEGER,
    sfv_amount    TEXT,
    sfv_ccy       INTEGER,
    group_id      TEXT,
    import_id     INTEGER NOT NULL REFERENCES import_log (id),
    source_lines  TEXT NOT NULL,
    source_ref    TEXT,
    note          TEXT,
    content_key   TEXT
) STRICT;
-- A named index (not an inline UNIQUE) so a bulk import can drop and rebuild it (write.rs).
CREATE UNIQUE INDEX spot_rows_key ON spot_rows (row_key);
CREATE INDEX spot_rows_content_key ON spot_rows (content_key) WHERE content_key IS NOT NULL;

CREATE TABLE futures_rows (
    seq              INTEGER PRIMARY KEY,
    row_key          ANY NOT NULL UNIQUE,
    account_id       INTEGER NOT NULL REFERENCES accounts (id),
    kind             TEXT NOT NULL,
    contract         TEXT NOT NULL,
    instant          INTEGER NOT NULL,
    settlement_asset INTEGER NOT NULL,
    realized_pnl     TEXT,
    funding          TEXT,
    fee_asset        INTEGER,
    fee              TEXT,
    trade_price      TEXT,
    import_id        INTEGER NOT NULL REFERENCES import_log (id),
    source_lines     TEXT NOT NULL,
    source_ref       TEXT,
    note             TEXT,
    content_key      TEXT
) STRICT;
CREATE INDEX futures_rows_content_key ON futures_rows (content_key)
    WHERE content_key IS NOT NULL;

CREATE TABLE overrides (
    row_key        TEXT PRIMARY KEY,
    tx_type        INTEGER,
    instant        INTEGER,
    in_qty         TEXT,
    out_qty        TEXT,
    fee_edit       INTEGER NOT NULL,
    fee_asset      INTEGER,
    fee_qty        TEXT,
    value_edit     INTEGER NOT NULL,
    value_amount   TEXT,
    value_ccy      INTEGER,
    price_edit     INTEGER NOT NULL,
    price_amount   TEXT,
    price_ccy      INTEGER,
    fee_value_edit INTEGER NOT NULL,
    fee_value_amount TEXT,
    fee_value_ccy  INTEGER,
    excluded       INTEGER NOT NULL,
    note           TEXT
) STRICT;

CREATE TABLE custody_links (
    row_key        TEXT PRIMARY KEY,
    kind           INTEGER NOT NULL,
    in_row_key     TEXT UNIQUE,
    counterparty   INTEGER REFERENCES accounts (id)
) STRICT;

CREATE TABLE rates (
    currency_id INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    rate        TEXT NOT NULL,
    import_id   INTEGER NOT NULL REFERENCES import_log (id),
    PRIMARY KEY (currency_id, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE prices (
    asset_id  INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    quote_id  INTEGER NOT NULL,
    close     TEXT NOT NULL,
    import_id INTEGER NOT NULL REFERENCES import_log (id),
    PRIMARY KEY (asset_id, day, quote_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
";

// Prices as compact series (`series.rs`): one row per (asset, year, quote) with that year's
// closes as a BLOB of 20-byte entries sorted by day, and the latest close per (asset, quote)
// with the import that wrote it (the format `latest_quotes` reports). A rowid table with a
// unique key: the blobs are a few KB, too large for a WITHOUT ROWID b-tree. The conversion
// moves the version-1 `prices` rows and drops that table.
const V2_PRICE_SERIES: &str = r"
CREATE TABLE price_series (
    asset_id INTEGER NOT NULL,
    year     INTEGER NOT NULL,
    quote_id INTEGER NOT NULL,
    n        INTEGER NOT NULL,
    closes   BLOB NOT NULL,
    UNIQUE (asset_id, year, quote_id)
) STRICT;

CREATE TABLE price_latest (
    asset_id  INTEGER NOT NULL,
    quote_id  INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    close     TEXT NOT NULL,
    import_id INTEGER NOT NULL REFERENCES import_log (id),
    PRIMARY KEY (asset_id, quote_id)
) STRICT, WITHOUT ROWID;
";

/// The prefix of the content keys a lookup by content key can ask for: only Coinbase `v4`
/// records are matched by content key, against Coinbase `v2`/`v3` rows (`imports.md` §1.14).
pub(crate) const SEARCHED_CONTENT_PREFIX: &str = "v1\u{1f}coinbase\u{1f}content\u{1f}";

/// The partial-index condition of [`V3_CONTENT_INDEX`]; a query that repeats it verbatim can use the index.
macro_rules! searched_content {
    () => {
        "substr(content_key, 1, 20) = 'v1\u{1f}coinbase\u{1f}content\u{1f}'"
    };
}
pub(crate) use searched_content;

// Version 3: the content-key index holds only the keys a lookup can ask for. Indexing every
// content key (about 95 bytes each) made that index a third of a ledger's bytes and a B-tree
// insert per imported row (docs/decisions.md, import throughput); the column keeps every key.
const V3_CONTENT_INDEX: &str = concat!(
    "DROP INDEX spot_rows_content_key;\n",
    "CREATE INDEX spot_rows_content_key ON spot_rows (content_key) WHERE ",
    searched_content!(),
    ";\n"
);

fn user_version(conn: &Connection) -> PortResult<i64> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(map_err)
}

/// Brings the schema to [`SCHEMA_VERSION`], one transaction per migration.
pub(crate) fn migrate(conn: &mut Connection) -> PortResult<()> {
    let mut version = user_version(conn)?;
    if version > SCHEMA_VERSION {
        return Err(PortError::SchemaTooNew {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    while version < SCHEMA_VERSION {
        let index = usize::try_from(version).map_err(|_| PortError::Corrupt {
            what: "schema version".to_owned(),
            reason: format!("negative user_version {version}"),
        })?;
        let migration = MIGRATIONS.get(index).ok_or(PortError::SchemaTooNew {
            found: version,
            supported: SCHEMA_VERSION,
        })?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(map_err)?;
        // Re-read inside the lock: another process may have migrated meanwhile.
        let current = user_version(&tx)?;
        if current == version {
            tx.execute_batch(migration.sql).map_err(map_err)?;
            if let Some(convert) = migration.convert {
                convert(&tx)?;
            }
            tx.pragma_update(None, "user_version", version + 1)
                .map_err(map_err)?;
        }
        tx.commit().map_err(map_err)?;
        version = user_version(conn)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
