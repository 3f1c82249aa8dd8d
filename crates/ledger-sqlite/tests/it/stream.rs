//! The streamed import (`SqliteLedger::import_stream`), in both write modes (bulk into a
//! ledger no larger than the stream, checked into a larger one): same rows, duplicates and log
//! as the batch path; abandoned and dry runs write nothing.

use ledger_sqlite::{SqliteLedger, StreamEnd, StreamOrder, StreamPlan, StreamRecord};
use use_cases::ports::{
    DuplicateMatch, ImportOutcome, LedgerRead, LedgerWrite, NewFuturesRecord, NewSpotRecord,
    RecordRef,
};

use crate::support::{batch, buy, log, memory};

/// The two write modes: the stream announces more records than any ledger here holds (bulk),
/// or none (checked, once the ledger holds a row).
const MODES: [usize; 2] = [usize::MAX, 0];

/// Streams `records` in chunks of two, in insertion order, announced as `announced` records,
/// ending with `end`; returns the outcome and the keys the duplicate callback heard of.
fn stream(
    ledger: &mut SqliteLedger,
    announced: usize,
    records: &[NewSpotRecord],
    end: StreamEnd,
) -> (ImportOutcome, Vec<String>) {
    let plan = StreamPlan {
        order: StreamOrder::Insertion,
        records: announced,
    };
    stream_in(ledger, plan, records, end)
}

fn stream_in(
    ledger: &mut SqliteLedger,
    plan: StreamPlan,
    records: &[NewSpotRecord],
    end: StreamEnd,
) -> (ImportOutcome, Vec<String>) {
    let chunks: Vec<Vec<NewSpotRecord>> = records.chunks(2).map(<[_]>::to_vec).collect();
    let mut heard = Vec::new();
    let mut retired = 0;
    let outcome = ledger
        .import_stream(
            plan,
            chunks.into_iter(),
            |r: &NewSpotRecord| StreamRecord::Spot(r),
            |r, d| {
                assert_eq!(r.row_key, d.stored_row_key);
                heard.push(r.row_key.clone());
            },
            |chunk| retired += chunk.len(),
            || end,
        )
        .unwrap();
    assert_eq!(retired, records.len(), "every chunk comes back");
    (outcome, heard)
}

fn first() -> Vec<NewSpotRecord> {
    let mut b = buy("b", "Kraken", "2024-02-01T00:00:00Z", 3);
    b.content_key = Some("stated".to_owned());
    vec![buy("a", "Kraken", "2024-01-01T00:00:00Z", 2), b]
}

fn second() -> Vec<NewSpotRecord> {
    let mut changed = buy("b", "Kraken", "2024-02-01T00:00:00Z", 3);
    changed.content_key = Some("other".to_owned());
    vec![
        buy("c", "Bitvavo", "2023-12-01T00:00:00Z", 2),
        changed,
        buy("d", "bitvavo", "2024-03-01T00:00:00Z", 4),
        buy("e", "Kraken:spot", "2024-04-01T00:00:00Z", 5),
        buy("a", "Other", "2024-05-01T00:00:00Z", 6),
    ]
}

#[test]
fn a_stream_stores_what_the_batch_path_stores() {
    for announced in MODES {
        a_stream_stores_what_the_batch_path_stores_when(announced);
    }
}

fn a_stream_stores_what_the_batch_path_stores_when(announced: usize) {
    let mut batched = memory();
    batched
        .write_import_batch(&batch("one.csv", first()))
        .unwrap();
    let expected = batched
        .write_import_batch(&batch("two.csv", second()))
        .unwrap();
    let mut streamed = memory();
    streamed
        .write_import_batch(&batch("one.csv", first()))
        .unwrap();
    let (outcome, heard) = stream(
        &mut streamed,
        announced,
        &second(),
        StreamEnd::Commit(log("two.csv")),
    );
    assert_eq!(heard, ["b", "a"]);
    assert_eq!(
        outcome
            .duplicates
            .iter()
            .map(|d| (d.record, d.other_account, d.content_changed, d.within_batch))
            .collect::<Vec<_>>(),
        [
            (RecordRef::Spot(1), false, true, false),
            (RecordRef::Spot(4), true, false, false),
        ]
    );
    assert_eq!(outcome.duplicates, expected.duplicates);
    assert_eq!(outcome.added_spot, expected.added_spot);
    assert_eq!(outcome.seq_range, expected.seq_range);
    assert_eq!(outcome.created_accounts, expected.created_accounts);
    assert_eq!(outcome.ledger_version, expected.ledger_version);
    assert!(outcome.committed);
    assert_eq!(streamed.spot_rows().unwrap(), batched.spot_rows().unwrap());
    assert_eq!(streamed.accounts().unwrap(), batched.accounts().unwrap());
    let logs = |l: &SqliteLedger| {
        l.import_log()
            .unwrap()
            .into_iter()
            .map(|e| (e.log, e.added, e.duplicates))
            .collect::<Vec<_>>()
    };
    assert_eq!(logs(&streamed), logs(&batched));
    // The key index is back: the checked path finds the streamed identities.
    let again = streamed
        .write_import_batch(&batch(
            "three.csv",
            vec![buy("e", "Kraken:spot", "2024-04-01T00:00:00Z", 5)],
        ))
        .unwrap();
    assert_eq!((again.added_spot, again.duplicates.len()), (0, 1));
}

/// Records out of insertion order, new accounts and assets among them: the first spelling
/// and the ids in insertion order are the ones a batch gives.
fn shuffled() -> Vec<NewSpotRecord> {
    vec![
        buy("d", "bitvavo", "2024-03-01T00:00:00Z", 4),
        buy("f", "bitvavo", "2024-06-01T00:00:00Z", 3),
        buy("e", "Kraken:spot", "2024-04-01T00:00:00Z", 5),
        buy("g", "Bitvavo", "2024-06-01T00:00:00Z", 2),
        buy("h", "BITVAVO", "2024-06-01T00:00:00Z", 2),
        buy("c", "Bitvavo", "2023-12-01T00:00:00Z", 2),
        buy("a", "Other", "2024-05-01T00:00:00Z", 6),
    ]
}

#[test]
fn an_any_order_stream_stores_what_the_batch_path_stores() {
    for records in MODES {
        let plan = StreamPlan {
            order: StreamOrder::Any,
            records,
        };
        an_any_order_stream_stores_what_the_batch_path_stores_when(plan);
    }
}

fn an_any_order_stream_stores_what_the_batch_path_stores_when(plan: StreamPlan) {
    let mut batched = memory();
    batched
        .write_import_batch(&batch("one.csv", first()))
        .unwrap();
    let expected = batched
        .write_import_batch(&batch("two.csv", shuffled()))
        .unwrap();
    let mut streamed = memory();
    streamed
        .write_import_batch(&batch("one.csv", first()))
        .unwrap();
    // An abandoned staged stream leaves no stage behind for the next one.
    let (abandoned, _) = stream_in(&mut streamed, plan, &shuffled(), StreamEnd::Abandon);
    assert!(!abandoned.committed);
    let (outcome, heard) = stream_in(
        &mut streamed,
        plan,
        &shuffled(),
        StreamEnd::Commit(log("two.csv")),
    );
    assert_eq!(heard, ["a"]);
    assert!(outcome.committed);
    assert_eq!(outcome.added_spot, expected.added_spot);
    assert_eq!(outcome.seq_range, expected.seq_range);
    assert_eq!(outcome.created_accounts, expected.created_accounts);
    assert_eq!(outcome.ledger_version, expected.ledger_version);
    assert_eq!(streamed.spot_rows().unwrap(), batched.spot_rows().unwrap());
    assert_eq!(streamed.accounts().unwrap(), batched.accounts().unwrap());
    // The key index is back.
    let again = streamed
        .write_import_batch(&batch("three.csv", shuffled()))
        .unwrap();
    assert_eq!((again.added_spot, again.duplicates.len()), (0, 7));
}

#[test]
fn abandoned_and_dry_streams_write_nothing() {
    for announced in MODES {
        abandoned_and_dry_streams_write_nothing_when(announced);
    }
}

fn abandoned_and_dry_streams_write_nothing_when(announced: usize) {
    let mut ledger = memory();
    ledger
        .write_import_batch(&batch("one.csv", first()))
        .unwrap();
    let before = (
        ledger.spot_rows().unwrap(),
        ledger.import_log().unwrap(),
        ledger.ledger_version().unwrap(),
    );
    let (outcome, _) = stream(&mut ledger, announced, &second(), StreamEnd::Abandon);
    assert!(!outcome.committed);
    let (dry, heard) = stream(&mut ledger, announced, &second(), StreamEnd::DryRun);
    assert!(!dry.committed);
    assert_eq!((dry.added_spot, heard.len()), (3, 2));
    let after = (
        ledger.spot_rows().unwrap(),
        ledger.import_log().unwrap(),
        ledger.ledger_version().unwrap(),
    );
    assert_eq!(after, before);
    let again = ledger
        .write_import_batch(&batch("one.csv", first()))
        .unwrap();
    assert_eq!((again.added_spot, again.duplicates.len()), (0, 2));
}

#[test]
fn repeated_identities_in_one_stream_fail_the_commit() {
    let mut ledger = memory();
    let records = vec![
        buy("x", "Kraken", "2024-01-01T00:00:00Z", 2),
        buy("x", "Kraken", "2024-01-02T00:00:00Z", 3),
    ];
    let chunks = vec![records];
    let plan = StreamPlan {
        order: StreamOrder::Insertion,
        records: 2,
    };
    let result = ledger.import_stream(
        plan,
        chunks.into_iter(),
        |r: &NewSpotRecord| StreamRecord::Spot(r),
        |_, _| {},
        drop,
        || StreamEnd::Commit(log("dup.csv")),
    );
    assert!(result.is_err());
    assert!(ledger.spot_rows().unwrap().is_empty());
    assert!(ledger.import_log().unwrap().is_empty());
}

#[test]
fn a_file_ledger_returns_to_wal_after_a_stream_with_or_without_a_reader() {
    let dir = std::env::temp_dir().join(format!("cartera-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ledger.sqlite");
    // WAL is recorded in the file: a fresh connection reads the mode the file is in.
    let mode = |_: &SqliteLedger| -> String {
        rusqlite::Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .unwrap()
    };
    {
        let mut ledger = SqliteLedger::open(&path).unwrap();
        let (outcome, _) = stream(&mut ledger, 2, &first(), StreamEnd::Commit(log("one.csv")));
        assert_eq!(outcome.added_spot, 2);
        assert_eq!(mode(&ledger), "wal");
        // A reader holds the file: the stream keeps WAL and still commits.
        let reader = ledger_sqlite::ReadOnlyLedger::open(&path).unwrap();
        assert_eq!(reader.spot_rows().unwrap().len(), 2);
        let (outcome, _) = stream(&mut ledger, 5, &second(), StreamEnd::Commit(log("two.csv")));
        assert_eq!(outcome.added_spot, 3);
        assert_eq!(mode(&ledger), "wal");
        assert_eq!(reader.spot_rows().unwrap().len(), 5);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Coinbase v4 record whose content key a stored v2/v3 row has is a duplicate of it, found
/// by content key before its identity, in either order, as in the batch path.
#[test]
fn content_keys_match_in_a_stream_as_in_a_batch() {
    let legacy_key = "v1\u{1f}coinbase\u{1f}content\u{1f}coinbase\u{1f}legacy";
    let stored = || {
        let mut legacy = buy("legacy-v3", "Coinbase", "2024-01-02T00:00:00Z", 3);
        legacy.content_key = Some(legacy_key.to_owned());
        let mut declared = buy("v4-seen", "Coinbase", "2024-01-03T00:00:00Z", 3);
        declared.content_key = Some("v1\u{1f}coinbase\u{1f}content\u{1f}coinbase\u{1f}x".into());
        vec![legacy, declared]
    };
    let v4 = || {
        let record = |key: &str, at: &str, content: &str| {
            let mut r = buy(key, "Coinbase", at, 3);
            r.content_key = Some(content.to_owned());
            r.dedupe_by_content_key = true;
            r
        };
        vec![
            record(
                "v4-new",
                "2024-01-05T00:00:00Z",
                "v1\u{1f}coinbase\u{1f}content\u{1f}n",
            ),
            record("v4-old", "2024-01-02T00:00:00Z", legacy_key),
            // Its identity is stored; its content key (another one) is not.
            record(
                "v4-seen",
                "2024-01-03T00:00:00Z",
                "v1\u{1f}coinbase\u{1f}content\u{1f}y",
            ),
        ]
    };
    let mut batched = memory();
    batched
        .write_import_batch(&batch("v3.csv", stored()))
        .unwrap();
    let expected = batched.write_import_batch(&batch("v4.csv", v4())).unwrap();
    let summary = |outcome: &ImportOutcome| {
        outcome
            .duplicates
            .iter()
            .map(|d| {
                (
                    d.stored_row_key.clone(),
                    d.matched_by,
                    d.other_account,
                    d.content_changed,
                    d.within_batch,
                )
            })
            .collect::<Vec<_>>()
    };
    let mut want = summary(&expected);
    want.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        want.iter().map(|d| (d.0.as_str(), d.1)).collect::<Vec<_>>(),
        [
            ("legacy-v3", DuplicateMatch::ContentKey),
            ("v4-seen", DuplicateMatch::Identity)
        ]
    );
    let plans = [StreamOrder::Insertion, StreamOrder::Any]
        .into_iter()
        .flat_map(|order| MODES.map(|records| StreamPlan { order, records }));
    for plan in plans {
        let order = plan.order;
        let mut streamed = memory();
        streamed
            .write_import_batch(&batch("v3.csv", stored()))
            .unwrap();
        let mut records = v4();
        if order == StreamOrder::Insertion {
            records.sort_by_key(|r| r.instant);
        }
        let outcome = streamed
            .import_stream(
                plan,
                std::iter::once(records),
                |r: &NewSpotRecord| StreamRecord::Spot(r),
                |_, _| {},
                drop,
                || StreamEnd::Commit(log("v4.csv")),
            )
            .unwrap();
        let mut got = summary(&outcome);
        got.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(got, want, "{plan:?}");
        assert_eq!(outcome.added_spot, expected.added_spot);
        assert_eq!(streamed.spot_rows().unwrap(), batched.spot_rows().unwrap());
    }
}

/// A futures record of `account` settled in `settlement`.
fn futures(key: &str, account: &str, at: &str, line: u64, settlement: &str) -> NewFuturesRecord {
    NewFuturesRecord {
        account: account.to_owned(),
        row_key: key.to_owned(),
        content_key: None,
        kind: shared_types::FuturesKind::Trade,
        contract: "pf_xbtusd".to_owned(),
        instant: crate::support::instant(at),
        settlement_asset: crate::support::asset(settlement),
        realized_pnl: Some(crate::support::dec("-10.5")),
        funding: None,
        fee: crate::support::fee("0.25", settlement),
        trade_price: Some(crate::support::dec("60997")),
        source_ref: Some(key.to_owned()),
        note: Some("flex".to_owned()),
        source_lines: vec![line],
    }
}

/// A futures log newest first: new accounts and assets first used late in the file, one
/// second with two rows (line order decides), and a row already stored.
fn futures_log() -> Vec<NewFuturesRecord> {
    vec![
        futures("f6", "Kraken:futures", "2025-03-01T00:00:00Z", 2, "USD"),
        futures("f5", "kraken:FUTURES", "2025-02-01T00:00:00Z", 3, "EUR"),
        futures("f4", "Kraken:futures", "2025-01-01T00:00:00Z", 5, "USD"),
        futures("f3", "Kraken:futures", "2025-01-01T00:00:00Z", 4, "BTC"),
        futures("old", "Other:futures", "2024-12-01T00:00:00Z", 6, "USD"),
        futures("f1", "kraken:FUTURES", "2024-11-01T00:00:00Z", 7, "ETH"),
    ]
}

/// The assets and futures rows of a ledger file, as stored.
fn futures_tables(path: &std::path::Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut out = Vec::new();
    for sql in [
        "SELECT id || ' ' || symbol FROM assets ORDER BY id",
        "SELECT id || ' ' || name || ' ' || ifnull(parent_id, '-') FROM accounts ORDER BY id",
        "SELECT seq || ' ' || quote(row_key) || ' ' || account_id || ' ' || kind || ' ' || \
         contract || ' ' || instant || ' ' || settlement_asset || ' ' || \
         ifnull(realized_pnl, '-') || ' ' || ifnull(funding, '-') || ' ' || \
         ifnull(fee_asset, '-') || ' ' || ifnull(fee, '-') || ' ' || \
         ifnull(trade_price, '-') || ' ' || import_id || ' ' || source_lines || ' ' || \
         ifnull(source_ref, '-') || ' ' || ifnull(note, '-') FROM futures_rows ORDER BY seq",
    ] {
        let mut statement = conn.prepare(sql).unwrap();
        let rows = statement
            .query_map([], |row| row.get::<_, String>(0))
            .unwrap();
        out.extend(rows.map(Result::unwrap));
    }
    out
}

#[test]
fn a_futures_log_in_any_order_is_staged_and_stored_as_the_batch_path_stores_it() {
    for announced in MODES {
        futures_log_as_batched(announced, &[]);
    }
}

#[test]
fn a_checked_futures_duplicate_creates_its_assets_as_the_batch_path_does() {
    // The stored row `dup` settles in USD; the log's `dup`, in an account that exists by
    // then, settles in XRP and pays its fee in DOT: the batch path's failed insert creates
    // both, between ETH and BTC in insertion order.
    let mut dup = futures("dup", "kraken:futures", "2024-12-15T00:00:00Z", 8, "XRP");
    dup.fee = crate::support::fee("0.1", "DOT");
    let tables = futures_log_as_batched(0, &[dup]);
    assert_eq!(
        tables[..6],
        ["1 USD", "2 ETH", "3 XRP", "4 DOT", "5 BTC", "6 EUR"],
        "{tables:?}"
    );
}

/// Streams the futures log and `more` (staged, announced as `announced` records) into a
/// ledger holding `old` and `dup`, and checks the ledger is the batch path's; returns its
/// tables.
fn futures_log_as_batched(announced: usize, more: &[NewFuturesRecord]) -> Vec<String> {
    let stored = || {
        let mut batch = batch("old.csv", Vec::new());
        batch.futures = vec![
            futures("old", "Kraken:futures", "2024-12-01T00:00:00Z", 9, "USD"),
            futures("dup", "Kraken:futures", "2024-12-02T00:00:00Z", 10, "USD"),
        ];
        batch
    };
    let log_records = || {
        let mut records = futures_log();
        records.extend_from_slice(more);
        records
    };
    let dir = crate::support::TempDir::new();
    let batched_path = dir.path().join("batched.sqlite");
    let streamed_path = dir.path().join("streamed.sqlite");
    let mut batched = SqliteLedger::open(&batched_path).unwrap();
    batched.write_import_batch(&stored()).unwrap();
    let mut whole = batch("log.csv", Vec::new());
    whole.futures = log_records();
    let expected = batched.write_import_batch(&whole).unwrap();
    let mut streamed = SqliteLedger::open(&streamed_path).unwrap();
    streamed.write_import_batch(&stored()).unwrap();
    let chunks: Vec<Vec<NewFuturesRecord>> = log_records().chunks(2).map(<[_]>::to_vec).collect();
    let mut heard = Vec::new();
    let plan = StreamPlan {
        order: StreamOrder::Any,
        records: announced,
    };
    let outcome = streamed
        .import_stream(
            plan,
            chunks.into_iter(),
            |r: &NewFuturesRecord| StreamRecord::Futures(r),
            |r, _| heard.push(r.row_key.clone()),
            drop,
            || StreamEnd::Commit(log("log.csv")),
        )
        .unwrap();
    let want_heard: Vec<String> = std::iter::once("old".to_owned())
        .chain(more.iter().map(|r| r.row_key.clone()))
        .collect();
    assert_eq!(heard, want_heard);
    assert_eq!(outcome.duplicates.len(), expected.duplicates.len());
    for (got, want) in outcome.duplicates.iter().zip(&expected.duplicates) {
        assert_eq!(
            (
                got.record,
                &got.stored_row_key,
                got.other_account,
                got.content_changed
            ),
            (
                want.record,
                &want.stored_row_key,
                want.other_account,
                want.content_changed
            )
        );
    }
    let got = &outcome.duplicates[0];
    assert_eq!(got.record, RecordRef::Futures(4));
    assert!(got.other_account);
    assert_eq!(
        (outcome.added_spot, outcome.added_futures),
        (expected.added_spot, expected.added_futures)
    );
    assert_eq!(outcome.seq_range, expected.seq_range);
    assert_eq!(outcome.created_accounts, expected.created_accounts);
    assert_eq!(
        streamed.futures_rows().unwrap(),
        batched.futures_rows().unwrap()
    );
    drop((batched, streamed));
    let tables = futures_tables(&streamed_path);
    assert_eq!(tables, futures_tables(&batched_path), "{announced}");
    if more.is_empty() {
        assert_eq!(
            tables[..4],
            ["1 USD", "2 ETH", "3 BTC", "4 EUR"],
            "{tables:?}"
        );
    }
    tables
}

#[test]
fn futures_records_are_streamed_in_any_order_only_and_never_with_spot_records() {
    let mut ledger = memory();
    let records = futures_log();
    let plan = |order| StreamPlan { order, records: 0 };
    let result = ledger.import_stream(
        plan(StreamOrder::Insertion),
        std::iter::once(records),
        |r: &NewFuturesRecord| StreamRecord::Futures(r),
        |_, _| {},
        drop,
        || StreamEnd::Commit(log("log.csv")),
    );
    assert!(result.is_err());
    let spot = buy("s", "Kraken", "2025-01-01T00:00:00Z", 1);
    let records = futures_log();
    let mixed: Vec<StreamRecord<'_>> = std::iter::once(StreamRecord::Spot(&spot))
        .chain(records.iter().map(StreamRecord::Futures))
        .collect();
    let result = ledger.import_stream(
        plan(StreamOrder::Any),
        std::iter::once(mixed),
        |r: &StreamRecord<'_>| *r,
        |_, _| {},
        drop,
        || StreamEnd::Commit(log("log.csv")),
    );
    assert!(result.is_err());
    assert!(ledger.futures_rows().unwrap().is_empty());
    assert!(ledger.spot_rows().unwrap().is_empty());
    assert!(ledger.import_log().unwrap().is_empty());
}
