//! Import batches: round trip, de-duplication, order, atomicity, dry run.

use core_domain::{FuturesRow, SpotRow, TxType};
use proptest::prelude::*;
use rust_decimal::Decimal;
use shared_types::{FuturesKind, SpotTxType};
use use_cases::PortError;
use use_cases::ports::{
    DuplicateMatch, ImportBatch, LedgerRead, LedgerWrite, NewFuturesRecord, NewSpotRecord,
    RecordRef, WriteMode,
};

use crate::support::{amount, asset, batch, buy, dec, fee, instant, log, memory, stated};

/// Every field set, with awkward decimals.
fn full_record() -> NewSpotRecord {
    NewSpotRecord {
        account: "Coinbase:staking".to_owned(),
        row_key: "full".to_owned(),
        content_key: Some("content-full".to_owned()),
        dedupe_by_content_key: false,
        tx_type: TxType::Spot(SpotTxType::Swap),
        instant: instant("2024-03-31T01:02:03.000000123Z"),
        inflow: amount("600.0000", "ETH"),
        outflow: amount("0.0000000000000000000000000001", "BTC"),
        fee: fee("0", "ETH"),
        stated_value: stated("79228162514264337593543950335", "USDT"),
        stated_price: stated("1.50", "USD"),
        stated_fee_value: stated("0.00", "EUR"),
        transfer_group_id: Some("group-7".to_owned()),
        source_ref: Some("a+b".to_owned()),
        note: Some("staking / main".to_owned()),
        source_lines: vec![5, 6, 9],
    }
}

fn check_spot(stored: &SpotRow, record: &NewSpotRecord) {
    assert_eq!(stored.row_key, record.row_key);
    assert_eq!(stored.tx_type, record.tx_type);
    assert_eq!(stored.instant, record.instant);
    assert_eq!(stored.inflow, record.inflow);
    assert_eq!(stored.outflow, record.outflow);
    assert_eq!(stored.fee, record.fee);
    assert_eq!(stored.stated_value(), record.stated_value);
    assert_eq!(stored.stated_price(), record.stated_price);
    assert_eq!(stored.stated_fee_value(), record.stated_fee_value);
    assert_eq!(stored.transfer_group_id, record.transfer_group_id);
    // Decimal equality ignores scale; the stored text must keep it too.
    let text = |d: Option<Decimal>| d.map(|d| d.to_string());
    assert_eq!(
        text(stored.inflow.map(|a| a.quantity)),
        text(record.inflow.map(|a| a.quantity))
    );
    assert_eq!(
        text(stored.fee.map(|f| f.quantity)),
        text(record.fee.map(|f| f.quantity))
    );
    assert_eq!(
        text(stored.stated_price().map(|s| s.amount)),
        text(record.stated_price.map(|s| s.amount))
    );
}

#[test]
fn every_spot_field_round_trips_exactly() {
    let mut ledger = memory();
    let mut no_fee = buy("no-fee", "Kraken", "2024-01-01T00:00:00Z", 2);
    no_fee.fee = None;
    let mut rebate = buy("rebate", "Kraken", "2024-01-02T00:00:00Z", 3);
    rebate.fee = fee("-0.25", "EUR");
    let mut unknown = buy("unknown", "Kraken", "2024-01-03T00:00:00Z", 4);
    unknown.tx_type = TxType::Unknown {
        source_label: "LEGACY_LOAN".to_owned(),
    };
    let records = vec![full_record(), no_fee, rebate, unknown];
    let outcome = ledger
        .write_import_batch(&batch("all.csv", records.clone()))
        .unwrap();
    assert_eq!(outcome.added_spot, 4);
    let rows = ledger.spot_rows().unwrap();
    for record in &records {
        let stored = rows.iter().find(|r| r.row_key == record.row_key).unwrap();
        check_spot(stored, record);
    }
    let accounts = ledger.accounts().unwrap();
    let full = rows.iter().find(|r| r.row_key == "full").unwrap();
    let account = accounts.iter().find(|a| a.id == full.account_id).unwrap();
    assert_eq!(account.name, "Coinbase:staking");

    let detail = ledger.row_detail("full").unwrap().unwrap();
    assert_eq!(detail.source_lines, vec![5, 6, 9]);
    assert_eq!(detail.source_ref.as_deref(), Some("a+b"));
    assert_eq!(detail.note.as_deref(), Some("staking / main"));
    assert_eq!(detail.content_key.as_deref(), Some("content-full"));
    assert_eq!(detail.file_name, "all.csv");
    assert_eq!(Some(detail.import_id), outcome.import_id);
    assert_eq!(ledger.row_detail("absent").unwrap(), None);
}

fn futures(key: &str, at: &str, line: u64) -> NewFuturesRecord {
    NewFuturesRecord {
        account: "Kraken:futures".to_owned(),
        row_key: key.to_owned(),
        content_key: None,
        kind: FuturesKind::Trade,
        contract: "pf_xbtusd".to_owned(),
        instant: instant(at),
        settlement_asset: asset("USD"),
        realized_pnl: Some(dec("-10.3438")),
        funding: None,
        fee: fee("0.6405", "USD"),
        trade_price: Some(dec("60997")),
        source_ref: Some(key.to_owned()),
        note: Some("flex".to_owned()),
        source_lines: vec![line],
    }
}

#[test]
fn futures_rows_round_trip_and_share_the_sequence() {
    let mut ledger = memory();
    let mut funding = futures("f2", "2025-06-06T08:00:00Z", 4);
    funding.kind = FuturesKind::FundingFee;
    funding.realized_pnl = None;
    funding.funding = Some(dec("0.0031"));
    funding.fee = None;
    funding.trade_price = None;
    let mut rebate = futures("f3", "2025-06-06T12:07:02Z", 2);
    rebate.fee = fee("-0.01", "USD");
    let mut input = batch(
        "futures.csv",
        vec![buy("s1", "Kraken", "2025-06-06T09:00:00Z", 9)],
    );
    input.futures = vec![futures("f1", "2025-06-05T10:21:47Z", 5), funding, rebate];
    let outcome = ledger.write_import_batch(&input).unwrap();
    assert_eq!((outcome.added_spot, outcome.added_futures), (1, 3));
    let rows: Vec<FuturesRow> = ledger.futures_rows().unwrap();
    let summary: Vec<(String, u64, String, String, String, Option<String>)> = rows
        .iter()
        .map(|r| {
            (
                r.row_key.to_string(),
                r.seq,
                r.realized_pnl.to_string(),
                r.funding.to_string(),
                r.fee.to_string(),
                r.fee_asset.map(|a| a.to_string()),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "f1".into(),
                1,
                "-10.3438".into(),
                "0".into(),
                "0.6405".into(),
                Some("USD".into())
            ),
            (
                "f2".into(),
                2,
                "0".into(),
                "0.0031".into(),
                "0".into(),
                None
            ),
            (
                "f3".into(),
                4,
                "-10.3438".into(),
                "0".into(),
                "-0.01".into(),
                Some("USD".into())
            ),
        ]
    );
    assert_eq!(ledger.spot_rows().unwrap()[0].seq, 3);
    assert_eq!(rows[0].kind, FuturesKind::Trade);
    assert_eq!(rows[1].kind, FuturesKind::FundingFee);
    let detail = ledger.row_detail("f2").unwrap().unwrap();
    assert!(!detail.realized_pnl_stated);
    assert!(detail.funding_stated);
    assert_eq!(detail.trade_price, None);
    let detail = ledger.row_detail("f1").unwrap().unwrap();
    assert_eq!(detail.trade_price, Some(dec("60997")));
    // Kraken:futures was created with its parent.
    let names: Vec<String> = ledger
        .accounts()
        .unwrap()
        .into_iter()
        .map(|a| a.name)
        .collect();
    assert_eq!(names, ["Kraken", "Kraken:futures"]);
}

#[test]
fn seq_follows_timestamp_then_first_source_line() {
    let mut ledger = memory();
    // File order is newest first, as exchanges write it; two rows share a timestamp.
    let records = vec![
        buy("c", "Kraken", "2024-03-01T00:00:00Z", 2),
        buy("b2", "Kraken", "2024-02-01T00:00:00Z", 4),
        buy("b1", "Kraken", "2024-02-01T00:00:00Z", 3),
        buy("a", "Kraken", "2024-01-01T00:00:00Z", 5),
    ];
    let outcome = ledger.write_import_batch(&batch("x.csv", records)).unwrap();
    assert_eq!(outcome.seq_range, Some((1, 4)));
    let order: Vec<(String, u64)> = ledger
        .spot_rows()
        .unwrap()
        .into_iter()
        .map(|r| (r.row_key.to_string(), r.seq))
        .collect();
    assert_eq!(
        order,
        [
            ("a".into(), 1),
            ("b1".into(), 2),
            ("b2".into(), 3),
            ("c".into(), 4)
        ]
    );

    // A later import of older rows gets higher seq; ledger order is (instant, seq).
    let later = vec![
        buy("old", "Bitvavo", "2023-01-01T00:00:00Z", 2),
        buy("tie", "Bitvavo", "2024-02-01T00:00:00Z", 3),
    ];
    ledger.write_import_batch(&batch("y.csv", later)).unwrap();
    let order: Vec<(String, u64)> = ledger
        .spot_rows()
        .unwrap()
        .into_iter()
        .map(|r| (r.row_key.to_string(), r.seq))
        .collect();
    assert_eq!(
        order,
        [
            ("old".into(), 5),
            ("a".into(), 1),
            ("b1".into(), 2),
            ("b2".into(), 3),
            ("tie".into(), 6),
            ("c".into(), 4)
        ]
    );
}

#[test]
fn reimport_adds_nothing_and_keeps_the_version() {
    let mut ledger = memory();
    let records = vec![
        buy("a", "Kraken", "2024-01-01T00:00:00Z", 2),
        buy("b", "Kraken", "2024-01-02T00:00:00Z", 3),
    ];
    let first = ledger
        .write_import_batch(&batch("x.csv", records.clone()))
        .unwrap();
    assert_eq!((first.added_spot, first.duplicates.len()), (2, 0));
    assert_eq!(first.ledger_version, 1);
    let second = ledger.write_import_batch(&batch("x.csv", records)).unwrap();
    assert_eq!((second.added_spot, second.duplicates.len()), (0, 2));
    assert_eq!(second.ledger_version, 1);
    assert_eq!(second.seq_range, None);
    assert!(
        second.duplicates.iter().all(|d| !d.other_account
            && !d.within_batch
            && d.matched_by == DuplicateMatch::Identity)
    );
    assert_eq!(ledger.spot_rows().unwrap().len(), 2);
    // The log entry is written even when everything was a duplicate.
    let entries = ledger.import_log().unwrap();
    let counts: Vec<(u64, u64)> = entries.iter().map(|e| (e.added, e.duplicates)).collect();
    assert_eq!(counts, [(2, 0), (0, 2)]);
}

#[test]
fn an_overlapping_export_adds_only_new_rows() {
    let mut ledger = memory();
    ledger
        .write_import_batch(&batch(
            "jan-feb.csv",
            vec![
                buy("jan", "Kraken", "2024-01-15T00:00:00Z", 2),
                buy("feb", "Kraken", "2024-02-15T00:00:00Z", 3),
            ],
        ))
        .unwrap();
    let outcome = ledger
        .write_import_batch(&batch(
            "feb-mar.csv",
            vec![
                buy("feb", "Kraken", "2024-02-15T00:00:00Z", 2),
                buy("mar", "Kraken", "2024-03-15T00:00:00Z", 3),
            ],
        ))
        .unwrap();
    assert_eq!(outcome.added_spot, 1);
    assert_eq!(outcome.duplicates.len(), 1);
    assert_eq!(outcome.duplicates[0].record, RecordRef::Spot(0));
    assert_eq!(outcome.seq_range, Some((3, 3)));
    let keys: Vec<String> = ledger
        .spot_rows()
        .unwrap()
        .into_iter()
        .map(|r| r.row_key.to_string())
        .collect();
    assert_eq!(keys, ["jan", "feb", "mar"]);
}

#[test]
fn duplicates_say_how_they_differ() {
    let mut ledger = memory();
    let mut stored = buy("declared", "Kraken", "2024-01-01T00:00:00Z", 2);
    stored.content_key = Some("content-1".into());
    let mut legacy = buy("legacy-v3", "Coinbase", "2024-01-02T00:00:00Z", 3);
    legacy.content_key = Some("coinbase-content".into());
    ledger
        .write_import_batch(&batch("first.csv", vec![stored, legacy]))
        .unwrap();

    let mut other_account = buy("declared", "Kraken2", "2024-01-01T00:00:00Z", 2);
    other_account.content_key = Some("content-2".into());
    let mut v4 = buy("v4-id", "Coinbase", "2024-01-02T00:00:00Z", 3);
    v4.content_key = Some("coinbase-content".into());
    v4.dedupe_by_content_key = true;
    let twice = buy("twice", "Kraken", "2024-01-03T00:00:00Z", 4);
    let outcome = ledger
        .write_import_batch(&batch(
            "second.csv",
            vec![other_account, v4, twice.clone(), twice],
        ))
        .unwrap();
    assert_eq!(outcome.added_spot, 1);
    let found: Vec<(RecordRef, String, bool, bool, DuplicateMatch, bool)> = outcome
        .duplicates
        .iter()
        .map(|d| {
            (
                d.record,
                d.stored_row_key.clone(),
                d.other_account,
                d.content_changed,
                d.matched_by,
                d.within_batch,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                RecordRef::Spot(0),
                "declared".into(),
                true,
                true,
                DuplicateMatch::Identity,
                false
            ),
            (
                RecordRef::Spot(1),
                "legacy-v3".into(),
                false,
                false,
                DuplicateMatch::ContentKey,
                false
            ),
            (
                RecordRef::Spot(3),
                "twice".into(),
                false,
                false,
                DuplicateMatch::Identity,
                true
            ),
        ]
    );
    // A duplicate under another account creates no account.
    let names: Vec<String> = ledger
        .accounts()
        .unwrap()
        .into_iter()
        .map(|a| a.name)
        .collect();
    assert_eq!(names, ["Kraken", "Coinbase"]);
}

#[test]
fn a_batch_that_fails_midway_leaves_the_ledger_unchanged() {
    let dir = crate::support::TempDir::new();
    let path = dir.ledger_path();
    let mut ledger = ledger_sqlite::SqliteLedger::open(&path).unwrap();
    ledger
        .write_import_batch(&batch(
            "ok.csv",
            vec![buy("a", "Kraken", "2024-01-01T00:00:00Z", 2)],
        ))
        .unwrap();
    let version = ledger.ledger_version().unwrap();
    // 500 good rows sort before the bad one, so the failure happens after many inserts.
    let mut records: Vec<NewSpotRecord> = (0..500)
        .map(|i| {
            buy(
                &format!("good-{i}"),
                "NewVenue:spot",
                "2024-02-01T00:00:00Z",
                2 + i,
            )
        })
        .collect();
    records.push(buy("bad", "ownwallet-BTC", "2024-03-01T00:00:00Z", 900));
    let err = ledger
        .write_import_batch(&batch("bad.csv", records))
        .unwrap_err();
    assert!(matches!(err, PortError::Invalid { .. }), "{err:?}");
    let check = |ledger: &dyn LedgerRead| {
        assert_eq!(ledger.spot_rows().unwrap().len(), 1);
        assert_eq!(ledger.ledger_version().unwrap(), version);
        assert_eq!(ledger.import_log().unwrap().len(), 1);
        assert_eq!(ledger.accounts().unwrap().len(), 1);
    };
    check(&ledger);
    // The next batch continues the sequence as if nothing happened.
    let next = ledger
        .write_import_batch(&batch(
            "next.csv",
            vec![buy("b", "Kraken", "2024-04-01T00:00:00Z", 2)],
        ))
        .unwrap();
    assert_eq!(next.seq_range, Some((2, 2)));
    drop(ledger);
    let reopened = ledger_sqlite::SqliteLedger::open(&path).unwrap();
    assert_eq!(reopened.spot_rows().unwrap().len(), 2);
}

#[test]
fn a_dry_run_reports_and_writes_nothing() {
    let mut ledger = memory();
    ledger
        .write_import_batch(&batch(
            "a.csv",
            vec![buy("a", "Kraken", "2024-01-01T00:00:00Z", 2)],
        ))
        .unwrap();
    let dry = ImportBatch {
        mode: WriteMode::DryRun,
        ..batch(
            "b.csv",
            vec![
                buy("a", "Kraken", "2024-01-01T00:00:00Z", 2),
                buy("b", "Bitvavo", "2024-01-02T00:00:00Z", 3),
            ],
        )
    };
    let outcome = ledger.write_import_batch(&dry).unwrap();
    assert!(!outcome.committed);
    assert_eq!(outcome.import_id, None);
    assert_eq!((outcome.added_spot, outcome.duplicates.len()), (1, 1));
    assert_eq!(outcome.created_accounts, ["Bitvavo"]);
    assert_eq!(outcome.ledger_version, 1);
    assert_eq!(ledger.spot_rows().unwrap().len(), 1);
    assert_eq!(ledger.import_log().unwrap().len(), 1);
    assert_eq!(ledger.accounts().unwrap().len(), 1);
}

#[test]
fn an_empty_file_writes_only_its_log_entry() {
    let mut ledger = memory();
    let outcome = ledger
        .write_import_batch(&ImportBatch {
            log: log("empty.csv"),
            ..ImportBatch::default()
        })
        .unwrap();
    assert!(outcome.committed);
    assert_eq!(outcome.ledger_version, 0);
    assert_eq!(ledger.import_log().unwrap().len(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any representable quantity comes back with the same digits and scale.
    #[test]
    fn decimals_round_trip_with_their_scale(mantissa in any::<i64>(), scale in 0u32..=28) {
        let value = Decimal::try_from_i128_with_scale(i128::from(mantissa), scale).unwrap();
        let mut ledger = memory();
        let mut record = buy("p", "Kraken", "2024-01-01T00:00:00Z", 2);
        record.fee = Some(core_domain::Fee { asset: asset("EUR"), quantity: value });
        ledger.write_import_batch(&batch("p.csv", vec![record])).unwrap();
        let stored = ledger.spot_rows().unwrap()[0].fee.unwrap().quantity;
        let mut expected = value;
        if expected.is_zero() {
            expected.set_sign_positive(true);
        }
        prop_assert_eq!(stored.to_string(), expected.to_string());
    }
}

#[test]
fn digest_identities_round_trip_and_dedupe() {
    let digest = "ae3475ee58782dc0d75ffea1d29e13ef0909d668888189012ae3991529594dc6";
    let mut ledger = memory();
    let mut record = buy(digest, "Kraken", "2024-01-01T00:00:00Z", 2);
    record.content_key = Some("content-d".into());
    let mut upper = buy(&digest.to_uppercase(), "Kraken", "2024-01-02T00:00:00Z", 3);
    upper.content_key = None;
    ledger
        .write_import_batch(&batch("d.csv", vec![record.clone(), upper.clone()]))
        .unwrap();
    let keys: Vec<String> = ledger
        .spot_rows()
        .unwrap()
        .into_iter()
        .map(|r| r.row_key.to_string())
        .collect();
    assert_eq!(keys, [digest.to_owned(), digest.to_uppercase()]);
    assert_eq!(ledger.row_detail(digest).unwrap().unwrap().seq, 1);

    let mut by_content = buy("other-id", "Kraken", "2024-01-01T00:00:00Z", 2);
    by_content.content_key = Some("content-d".into());
    by_content.dedupe_by_content_key = true;
    let outcome = ledger
        .write_import_batch(&batch("d.csv", vec![record, upper, by_content]))
        .unwrap();
    assert_eq!(outcome.added_spot, 0);
    let stored: Vec<&str> = outcome
        .duplicates
        .iter()
        .map(|d| d.stored_row_key.as_str())
        .collect();
    assert_eq!(stored, [digest, digest, &digest.to_uppercase()]);
}

/// Runs `batches` through the checked path and the bulk path and returns both outcomes and
/// ledgers' rows.
fn both_paths(
    batches: &[ImportBatch],
) -> [(
    Vec<use_cases::ports::ImportOutcome>,
    Vec<SpotRow>,
    Vec<String>,
); 2] {
    [usize::MAX, 1].map(|threshold| {
        let mut ledger = ledger_sqlite::SqliteLedger::open_in_memory()
            .unwrap()
            .with_bulk_threshold(threshold);
        let outcomes = batches
            .iter()
            .map(|b| ledger.write_import_batch(b).unwrap())
            .collect();
        let accounts = ledger
            .accounts()
            .unwrap()
            .into_iter()
            .map(|a| a.name)
            .collect();
        (outcomes, ledger.spot_rows().unwrap(), accounts)
    })
}

#[test]
fn the_bulk_path_gives_the_checked_path_results() {
    let mut changed = buy("a", "Kraken", "2024-01-01T00:00:00Z", 2);
    changed.content_key = Some("c1".into());
    let mut first = vec![
        buy("c", "Kraken:spot", "2024-03-01T00:00:00Z", 2),
        changed.clone(),
        buy("b", "kraken", "2024-02-01T00:00:00Z", 4),
        buy("b", "Other", "2024-02-01T00:00:00Z", 5),
    ];
    first[1].content_key = Some("c0".into());
    let second = vec![
        buy("d", "Bitvavo", "2023-12-01T00:00:00Z", 3),
        changed,
        buy("e", "KRAKEN:SPOT", "2024-03-01T00:00:00Z", 2),
        buy("c", "Kraken2", "2024-03-01T00:00:00Z", 9),
        buy("f", "Bitvavo", "2024-04-01T00:00:00Z", 4),
    ];
    let batches = [batch("one.csv", first), batch("two.csv", second)];
    let [checked, bulk] = both_paths(&batches);
    assert_eq!(checked, bulk);
    let (outcomes, rows, accounts) = checked;
    assert_eq!(outcomes[1].added_spot, 3);
    assert_eq!(outcomes[1].duplicates.len(), 2);
    assert_eq!(rows.len(), 6);
    assert_eq!(accounts, ["Kraken", "Kraken:spot", "Bitvavo"]);
}

#[test]
fn a_failed_bulk_batch_keeps_the_key_index() {
    let mut ledger = ledger_sqlite::SqliteLedger::open_in_memory()
        .unwrap()
        .with_bulk_threshold(1);
    ledger
        .write_import_batch(&batch(
            "ok.csv",
            vec![buy("a", "Kraken", "2024-01-01T00:00:00Z", 2)],
        ))
        .unwrap();
    let records = vec![
        buy("b", "Kraken", "2024-01-02T00:00:00Z", 2),
        buy("c", "ownwallet-ETH", "2024-01-03T00:00:00Z", 3),
    ];
    assert!(matches!(
        ledger.write_import_batch(&batch("bad.csv", records)),
        Err(PortError::Invalid { .. })
    ));
    assert_eq!(ledger.spot_rows().unwrap().len(), 1);
    assert_eq!(ledger.ledger_version().unwrap(), 1);
    // The checked path still finds the stored identity through the index.
    let mut checked = ledger.with_bulk_threshold(usize::MAX);
    let again = checked
        .write_import_batch(&batch(
            "ok.csv",
            vec![buy("a", "Kraken", "2024-01-01T00:00:00Z", 2)],
        ))
        .unwrap();
    assert_eq!((again.added_spot, again.duplicates.len()), (0, 1));
}
