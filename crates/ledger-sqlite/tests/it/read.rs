//! The full read: split across two connections on large ledgers, and read scopes.

use ledger_sqlite::SqliteLedger;
use use_cases::ports::{LedgerRead, LedgerWrite, NewSpotRecord};

use crate::support::{TempDir, batch, buy};

/// Rows on two accounts whose instants are not in key order, and a later batch of older rows,
/// so table order is not ledger order.
fn records(prefix: &str, count: usize, year: u32) -> Vec<NewSpotRecord> {
    (0..count)
        .map(|i| {
            let account = if i % 3 == 0 { "Kraken" } else { "Bitvavo" };
            let day = 1 + (i * 7) % 28;
            let at = format!("{year}-03-{day:02}T10:00:00Z");
            buy(&format!("{prefix}{i}"), account, &at, i as u64 + 2)
        })
        .collect()
}

fn file_ledger(dir: &TempDir) -> SqliteLedger {
    let mut ledger = SqliteLedger::open(dir.ledger_path()).unwrap();
    ledger
        .write_import_batch(&batch("one.csv", records("a", 41, 2024)))
        .unwrap();
    ledger
        .write_import_batch(&batch("two.csv", records("b", 30, 2023)))
        .unwrap();
    ledger
}

#[test]
fn a_split_read_gives_the_single_connection_read() {
    let dir = TempDir::new();
    drop(file_ledger(&dir));
    let (single, split) = crate::support::single_and_split(&dir.ledger_path());
    let expected = single.snapshot().unwrap();
    assert_eq!(expected.spot_rows.len(), 71);
    assert!(expected.spot_rows.is_sorted_by_key(|r| (r.instant, r.seq)));
    assert_eq!(split.snapshot().unwrap(), expected);
    assert_eq!(split.spot_rows().unwrap(), expected.spot_rows);
}

#[test]
fn a_read_scope_sees_one_state_even_when_the_helper_connection_would_not() {
    let dir = TempDir::new();
    let mut writer = file_ledger(&dir);
    let reader = SqliteLedger::open(dir.ledger_path())
        .unwrap()
        .with_parallel_read_threshold(1);
    reader.begin_read().unwrap();
    // Nested scopes join the outer one.
    reader.begin_read().unwrap();
    let before = reader.snapshot().unwrap();
    reader.end_read().unwrap();
    // A write commits while the scope is open: the scope keeps reading the state it started
    // at, and the split read's second connection (which would see the new state) is not used.
    writer
        .write_import_batch(&batch("three.csv", records("c", 5, 2025)))
        .unwrap();
    let during = reader.snapshot().unwrap();
    assert_eq!(during, before);
    assert_eq!(reader.ledger_version().unwrap(), before.version);
    reader.end_read().unwrap();
    let after = reader.snapshot().unwrap();
    assert_eq!(after.spot_rows.len(), 76);
    assert!(after.version > before.version);
    // Closing more scopes than were opened does nothing.
    reader.end_read().unwrap();
    assert_eq!(reader.snapshot().unwrap(), after);
}

/// The price reads open their own read transaction only outside a scope: inside one they read
/// the scope's state (SQLite refuses a transaction within a transaction).
#[test]
fn price_reads_join_an_open_read_scope() {
    use use_cases::ports::PriceStore;
    let dir = TempDir::new();
    let reader = file_ledger(&dir);
    let btc = core_domain::Asset::new("BTC").unwrap();
    let day = core_domain::Date::from_ymd_opt(2024, 3, 1).unwrap();
    let outside = (
        reader.price_candidates(&[(btc, day)]).unwrap(),
        reader.prices_for(&[btc], day, day).unwrap(),
    );
    reader.begin_read().unwrap();
    let snapshot = reader.snapshot().unwrap();
    let inside = (
        reader.price_candidates(&[(btc, day)]).unwrap(),
        reader.prices_for(&[btc], day, day).unwrap(),
    );
    reader.end_read().unwrap();
    assert_eq!(inside, outside);
    assert_eq!(snapshot.spot_rows.len(), 71);
}
