use core_domain::{Asset, AssetAmount, Instant, TxType};
use shared_types::SpotTxType;
use use_cases::ports::{ImportBatch, LedgerRead, LedgerWrite, NewImportLog, NewSpotRecord};

use super::{StreamEnd, StreamOrder, StreamPlan, StreamRecord, WriteMode};
use crate::SqliteLedger;

fn record(key: &str, account: &str, at: &str, line: u64, asset: &str) -> NewSpotRecord {
    let amount = |quantity: &str, symbol: &str| {
        Some(AssetAmount {
            asset: Asset::new(symbol).unwrap(),
            quantity: rust_decimal::Decimal::from_str_exact(quantity).unwrap(),
        })
    };
    NewSpotRecord {
        account: account.to_owned(),
        row_key: key.to_owned(),
        content_key: None,
        dedupe_by_content_key: false,
        tx_type: TxType::Spot(SpotTxType::Buy),
        instant: Instant::parse(at).unwrap(),
        inflow: amount("1", asset),
        outflow: amount("100", "EUR"),
        fee: None,
        stated_value: None,
        stated_price: None,
        stated_fee_value: None,
        transfer_group_id: None,
        source_ref: None,
        note: None,
        source_lines: vec![line],
    }
}

fn log(file: &str) -> NewImportLog {
    NewImportLog {
        imported_at: Instant::parse("2026-01-01T00:00:00Z").unwrap(),
        file_name: file.to_owned(),
        format: "generic".to_owned(),
        ..NewImportLog::default()
    }
}

fn stored() -> Vec<NewSpotRecord> {
    vec![
        record("a", "Kraken", "2024-01-01T00:00:00Z", 2, "BTC"),
        record("d", "Kraken", "2024-01-02T00:00:00Z", 3, "BTC"),
        record("e", "Kraken", "2024-01-03T00:00:00Z", 4, "BTC"),
    ]
}

/// A second file, out of insertion order: new rows with new accounts and assets, and
/// duplicates by identity with assets no stored or new row has.
fn second() -> Vec<NewSpotRecord> {
    vec![
        // Its account exists by its place (created by "x"): its failed insert makes YYY.
        record("d", "new", "2024-04-01T00:00:00Z", 5, "YYY"),
        record("x", "New", "2024-03-01T00:00:00Z", 2, "AAA"),
        // A stored account: ZZZ is made before AAA.
        record("a", "Kraken", "2024-02-01T00:00:00Z", 3, "ZZZ"),
        // An account that never exists: QQQ is not made.
        record("e", "Newer", "2024-05-01T00:00:00Z", 6, "QQQ"),
        record("f", "Kraken:spot", "2024-01-15T00:00:00Z", 7, "BBB"),
        // Same place as "x" but later in the file: its account does not exist before it.
        record("g", "Other", "2024-03-01T00:00:00Z", 2, "CCC"),
    ]
}

fn table(ledger: &SqliteLedger, sql: &str) -> Vec<(i64, String)> {
    let mut statement = ledger.conn.prepare(sql).unwrap();
    statement
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn with_stored() -> SqliteLedger {
    let mut ledger = SqliteLedger::open_in_memory().unwrap();
    let batch = ImportBatch {
        log: log("one.csv"),
        spot: stored(),
        ..ImportBatch::default()
    };
    ledger.write_import_batch(&batch).unwrap();
    ledger
}

/// Checked into a larger ledger, in either order, a stream gives the ids of the batch path,
/// whose failed insert of a duplicate creates its assets when its account exists.
#[test]
fn a_checked_stream_creates_the_accounts_and_assets_of_the_batch_path() {
    let mut batched = with_stored();
    let batch = ImportBatch {
        log: log("two.csv"),
        spot: second(),
        ..ImportBatch::default()
    };
    let expected = batched.write_import_batch(&batch).unwrap();
    assert_eq!((expected.added_spot, expected.duplicates.len()), (3, 3));
    let assets = "SELECT id, symbol FROM assets ORDER BY id";
    let accounts = "SELECT id, name FROM accounts ORDER BY id";
    let symbols: Vec<String> = table(&batched, assets).into_iter().map(|a| a.1).collect();
    assert_eq!(symbols, ["BTC", "EUR", "BBB", "ZZZ", "AAA", "CCC", "YYY"]);
    for order in [StreamOrder::Insertion, StreamOrder::Any] {
        let mut streamed = with_stored();
        let mut records = second();
        if order == StreamOrder::Insertion {
            records.sort_by_key(|r| (r.instant, r.source_lines[0]));
        }
        let plan = StreamPlan { order, records: 0 };
        let outcome = streamed
            .import_stream(
                plan,
                std::iter::once(records),
                |r: &NewSpotRecord| StreamRecord::Spot(r),
                |_, _| {},
                drop,
                || StreamEnd::Commit(log("two.csv")),
            )
            .unwrap();
        assert_eq!(outcome.added_spot, expected.added_spot, "{order:?}");
        assert_eq!(outcome.created_accounts, expected.created_accounts);
        assert_eq!(
            table(&streamed, assets),
            table(&batched, assets),
            "{order:?}"
        );
        assert_eq!(table(&streamed, accounts), table(&batched, accounts));
        assert_eq!(streamed.spot_rows().unwrap(), batched.spot_rows().unwrap());
    }
}

/// The bulk mode is taken while the ledger holds no more rows than the stream brings.
#[test]
fn the_write_mode_follows_the_ledger_size() {
    let mode = |ledger: &SqliteLedger, records| WriteMode::choose(&ledger.conn, records).unwrap();
    assert_eq!(
        mode(&SqliteLedger::open_in_memory().unwrap(), 0),
        WriteMode::Bulk
    );
    let ledger = with_stored();
    assert_eq!(mode(&ledger, 3), WriteMode::Bulk);
    assert_eq!(mode(&ledger, 2), WriteMode::Checked);
}
