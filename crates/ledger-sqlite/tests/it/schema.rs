//! Opening, migrating, reopening and read-only access.

use ledger_sqlite::{ReadOnlyLedger, SCHEMA_VERSION, SqliteLedger};
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
