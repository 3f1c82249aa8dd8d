//! Opening, migrating, reopening and read-only access.

use ledger_sqlite::{OpenError, ReadOnlyLedger, SCHEMA_VERSION, SqliteLedger};
use use_cases::PortError;
use use_cases::ports::{LedgerRead, LedgerWrite, SettingKey, SettingsStore};

use crate::support::{TempDir, batch, buy};

#[test]
fn a_new_file_is_migrated_and_reopens_with_its_data() {
    let dir = TempDir::new();
    let path = dir.ledger_path();
    {
        let mut ledger = SqliteLedger::open(&path).unwrap();
        assert_eq!(ledger.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(ledger.ledger_version().unwrap(), 0);
        ledger
            .write_import_batch(&batch(
                "a.csv",
                vec![buy("k1", "Kraken", "2024-01-01T00:00:00Z", 2)],
            ))
            .unwrap();
    }
    let ledger = SqliteLedger::open(&path).unwrap();
    assert_eq!(ledger.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(ledger.ledger_version().unwrap(), 1);
    assert_eq!(ledger.spot_rows().unwrap().len(), 1);
    assert_eq!(ledger.import_log().unwrap().len(), 1);
}

#[test]
fn the_file_uses_wal_strict_tables_and_decimal_text() {
    let dir = TempDir::new();
    let path = dir.ledger_path();
    let mut ledger = SqliteLedger::open(&path).unwrap();
    ledger
        .write_import_batch(&batch(
            "a.csv",
            vec![buy("k1", "Kraken", "2024-01-01T00:00:00Z", 2)],
        ))
        .unwrap();
    drop(ledger);
    let raw = rusqlite::Connection::open(&path).unwrap();
    let mode: String = raw
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let types: (String, String, String) = raw
        .query_row(
            "SELECT typeof(in_qty), typeof(out_qty), typeof(fee_qty) FROM spot_rows",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(types, ("text".into(), "text".into(), "text".into()));
    let strict: i64 = raw
        .query_row(
            "SELECT count(*) FROM pragma_table_list WHERE schema = 'main' \
             AND name NOT LIKE 'sqlite_%' AND strict = 0",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(strict, 0, "every table is STRICT");
    // STRICT refuses a value of another storage class in an amount column.
    let refused = raw.execute("UPDATE spot_rows SET in_qty = x'01'", []);
    assert!(refused.is_err());
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = TempDir::new();
    let path = dir.ledger_path();
    drop(SqliteLedger::open(&path).unwrap());
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    drop(raw);
    let err = SqliteLedger::open(&path).unwrap_err();
    assert_eq!(
        err,
        PortError::SchemaTooNew {
            found: SCHEMA_VERSION + 1,
            supported: SCHEMA_VERSION
        }
    );
    assert!(matches!(
        ReadOnlyLedger::open(&path),
        Err(PortError::SchemaTooNew { .. })
    ));
}

#[test]
fn read_only_opening_reads_and_refuses_every_write() {
    let dir = TempDir::new();
    let path = dir.ledger_path();
    {
        let mut ledger = SqliteLedger::open(&path).unwrap();
        ledger
            .write_import_batch(&batch(
                "a.csv",
                vec![buy("k1", "Kraken", "2024-01-01T00:00:00Z", 2)],
            ))
            .unwrap();
        ledger
            .set_setting(SettingKey::FiscalTimezone, "\"Atlantic/Canary\"")
            .unwrap();
    }
    let mut read_only = SqliteLedger::open_read_only(&path).unwrap();
    assert_eq!(read_only.spot_rows().unwrap().len(), 1);
    assert_eq!(read_only.ledger_version().unwrap(), 2);
    assert_eq!(
        read_only.set_setting(SettingKey::DisplayCurrency, "\"USD\""),
        Err(PortError::ReadOnly)
    );
    assert_eq!(
        read_only
            .write_import_batch(&batch(
                "b.csv",
                vec![buy("k2", "Kraken", "2024-01-02T00:00:00Z", 2)]
            ))
            .unwrap_err(),
        PortError::ReadOnly
    );
    assert_eq!(
        read_only.ensure_account("Bitvavo"),
        Err(PortError::ReadOnly)
    );
    assert_eq!(read_only.ledger_version().unwrap(), 2);

    // The AI surface's type has the read ports only.
    let ai = ReadOnlyLedger::open(&path).unwrap();
    assert_eq!(ai.snapshot().unwrap().spot_rows.len(), 1);
    assert_eq!(
        ai.setting(SettingKey::FiscalTimezone).unwrap().as_deref(),
        Some("\"Atlantic/Canary\"")
    );
}

#[test]
fn read_only_opening_of_a_missing_file_fails() {
    let dir = TempDir::new();
    let err = ReadOnlyLedger::open(dir.path().join("absent.sqlite")).unwrap_err();
    assert!(matches!(err, PortError::Unavailable { .. }), "{err:?}");
}

/// The content-key index of schema versions 1 and 2, as such a file has it.
const V1_CONTENT_INDEX: &str = "DROP INDEX spot_rows_content_key; \
     CREATE INDEX spot_rows_content_key ON spot_rows (content_key) WHERE content_key IS NOT NULL;";

#[test]
fn a_version_2_file_migrates_its_content_index_and_reads_the_same_data() {
    let dir = TempDir::new();
    let path = dir.ledger_path();
    let coinbase_key = "v1\u{1f}coinbase\u{1f}content\u{1f}coinbase\u{1f}2024-01-02T00:00:00Z";
    let before = {
        let mut ledger = SqliteLedger::open(&path).unwrap();
        let mut legacy = buy("legacy-v3", "Coinbase", "2024-01-02T00:00:00Z", 2);
        legacy.content_key = Some(coinbase_key.to_owned());
        let mut generic = buy("declared", "Ledger", "2024-01-01T00:00:00Z", 3);
        generic.content_key = Some("v1\u{1f}generic\u{1f}content\u{1f}ledger".to_owned());
        ledger
            .write_import_batch(&batch("a.csv", vec![legacy, generic]))
            .unwrap();
        (
            ledger.spot_rows().unwrap(),
            ledger.row_detail("declared").unwrap(),
        )
    };
    // Turn the file back into a version-2 ledger (the price series exist, the index is whole).
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch(V1_CONTENT_INDEX).unwrap();
    raw.pragma_update(None, "user_version", 2).unwrap();
    drop(raw);

    let mut ledger = SqliteLedger::open(&path).unwrap();
    assert_eq!(ledger.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(ledger.spot_rows().unwrap(), before.0);
    assert_eq!(ledger.row_detail("declared").unwrap(), before.1);
    // A Coinbase v4 record still finds the v3 row by its content key.
    let mut v4 = buy("v4-id", "Coinbase", "2024-01-02T00:00:00Z", 2);
    v4.content_key = Some(coinbase_key.to_owned());
    v4.dedupe_by_content_key = true;
    let outcome = ledger
        .write_import_batch(&batch("b.csv", vec![v4]))
        .unwrap();
    assert_eq!(outcome.added_spot, 0);
    assert_eq!(outcome.duplicates[0].stored_row_key, "legacy-v3");
    drop(ledger);

    // The migrated index is partial, and the lookup of a Coinbase key uses it.
    let raw = rusqlite::Connection::open(&path).unwrap();
    let sql: String = raw
        .query_row(
            "SELECT sql FROM sqlite_schema WHERE name = 'spot_rows_content_key'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(sql.contains("WHERE substr(content_key, 1, 20)"), "{sql}");
    let plan: String = raw
        .query_row(
            "EXPLAIN QUERY PLAN SELECT seq FROM spot_rows WHERE content_key = ?1 AND \
             substr(content_key, 1, 20) = 'v1\u{1f}coinbase\u{1f}content\u{1f}'",
            [coinbase_key],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.contains("spot_rows_content_key"), "{plan}");
}

#[test]
fn a_file_that_is_not_a_ledger_is_refused_and_left_as_it_was() {
    let dir = TempDir::new();
    let foreign = dir.path().join("foreign.db");
    {
        let conn = rusqlite::Connection::open(&foreign).unwrap();
        conn.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
    }
    let empty = dir.path().join("empty.db");
    std::fs::write(&empty, b"").unwrap();
    let noise = dir.path().join("noise.db");
    std::fs::write(&noise, vec![7_u8; 4096]).unwrap();
    for (path, what) in [
        (&foreign, "an SQLite database of another program"),
        (&empty, "an empty file"),
        (&noise, "not an SQLite database"),
    ] {
        let before = std::fs::read(path).unwrap();
        let error = SqliteLedger::open_reader(path).unwrap_err();
        assert_eq!(
            error,
            OpenError::NotALedger {
                what: what.to_owned()
            }
        );
        assert!(ReadOnlyLedger::open_reader(path).is_err());
        assert_eq!(std::fs::read(path).unwrap(), before, "{what}");
    }
    // A write refuses the foreign database too, and leaves it as it was.
    let before = std::fs::read(&foreign).unwrap();
    assert!(matches!(
        SqliteLedger::open_existing(&foreign),
        Err(OpenError::NotALedger { .. })
    ));
    assert!(matches!(
        SqliteLedger::create_or_open(&foreign),
        Err(OpenError::NotALedger { .. })
    ));
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
    // A 0-byte file is a new ledger for a write; a missing file is not created by a reader.
    let ledger = SqliteLedger::create_or_open(&empty).unwrap();
    assert!(ledger.holds_nothing().unwrap());
    let absent = dir.path().join("absent.db");
    assert_eq!(
        SqliteLedger::open_reader(&absent).unwrap_err(),
        OpenError::Missing
    );
    assert_eq!(
        SqliteLedger::open_existing(&absent).unwrap_err(),
        OpenError::Missing
    );
    assert!(!absent.exists());
}

#[test]
fn a_read_only_open_rolls_back_a_hot_journal_and_never_migrates() {
    let dir = TempDir::new();
    let path = dir.ledger_path();
    {
        let mut ledger = SqliteLedger::open(&path).unwrap();
        ledger
            .write_import_batch(&batch(
                "a.csv",
                vec![buy("k1", "Kraken", "2024-01-01T00:00:00Z", 2)],
            ))
            .unwrap();
    }
    // A writer killed mid-transaction in rollback-journal mode: the file with spilled pages
    // and its hot journal, copied while the transaction is open.
    let work = TempDir::new();
    let live = work.ledger_path();
    std::fs::copy(&path, &live).unwrap();
    let conn = rusqlite::Connection::open(&live).unwrap();
    let _: String = conn
        .query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))
        .unwrap();
    conn.execute_batch(
        "PRAGMA cache_size = 2; BEGIN IMMEDIATE; \
         UPDATE spot_rows SET note = hex(zeroblob(200000)); DELETE FROM meta;",
    )
    .unwrap();
    let killed = TempDir::new();
    std::fs::copy(&live, killed.ledger_path()).unwrap();
    std::fs::copy(
        work.path().join("ledger.sqlite-journal"),
        killed.path().join("ledger.sqlite-journal"),
    )
    .unwrap();
    conn.execute_batch("ROLLBACK").unwrap();
    let reader = ReadOnlyLedger::open_reader(killed.ledger_path()).unwrap();
    assert_eq!(reader.spot_rows().unwrap().len(), 1);
    assert_eq!(reader.ledger_version().unwrap(), 1);

    // An older schema is refused by a reader and left at its version.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.pragma_update(None, "user_version", 1).unwrap();
    drop(raw);
    assert_eq!(
        SqliteLedger::open_reader(&path).unwrap_err(),
        OpenError::SchemaTooOld {
            found: 1,
            supported: SCHEMA_VERSION
        }
    );
    let raw = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = raw
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1);
}
