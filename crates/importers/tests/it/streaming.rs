//! `import_bytes_streaming`: the same transactions as `import_bytes`, in chunks, for a generic
//! file in time order; the other cases are declined or unsorted.

use std::fmt::Write as _;

use importers::{ImportOptions, ImportResult, Streamed, Transaction};

use crate::{data, fmt_tx, import, rendered};

const HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";

/// A generic file of `rows` rows in time order, bursts of equal rows included (ordinals).
fn generic(rows: u64, bad: &[u64]) -> Vec<u8> {
    let mut text = format!("{HEADER}\n");
    for i in 0..rows {
        // Four rows per second: equal rows share a timestamp and get ordinals 1, 2.
        let secs = i / 4;
        let amount = if bad.contains(&i) { "x" } else { "0.5" };
        let _ = writeln!(
            text,
            "2024-03-01T{:02}:{:02}:{:02}Z,BUY,Wallet {},BTC,{amount},EUR,{},,,,,{},,",
            secs / 3600 % 24,
            secs / 60 % 60,
            secs % 60,
            i % 3,
            10 + (i / 2) % 5,
            if i % 5 == 0 {
                format!("id-{i}")
            } else {
                String::new()
            },
        );
    }
    text.into_bytes()
}

/// Streams `bytes`, returning what came back and the chunks' transactions.
fn stream(bytes: &[u8], send_after_errors: bool) -> (Streamed, Vec<Transaction>, usize) {
    let mut got = Vec::new();
    let mut chunks = 0;
    let streamed = importers::import_bytes_streaming(
        bytes,
        &ImportOptions::default(),
        send_after_errors,
        &mut |chunk| {
            chunks += 1;
            got.extend(chunk);
            true
        },
    );
    (streamed, got, chunks)
}

fn done(streamed: Streamed) -> ImportResult {
    match streamed {
        Streamed::Done(result) => result,
        other => panic!("expected a streamed result, got {other:?}"),
    }
}

fn summary(t: &Transaction) -> String {
    format!(
        "{} {} {} {:?} {}",
        fmt_tx(t),
        t.identity,
        t.identity_key,
        t.key_column,
        t.content_key
    )
}

#[test]
fn chunks_carry_exactly_the_batch_transactions() {
    let bytes = generic(20_000, &[]);
    let batch = import(&bytes, &ImportOptions::default());
    let (streamed, got, chunks) = stream(&bytes, false);
    let result = done(streamed);
    assert!(chunks > 1, "a 20,000-row file comes in several chunks");
    assert!(result.transactions.is_empty());
    assert_eq!(result.rows_read, batch.rows_read);
    assert_eq!(result.rows_in_records, batch.rows_in_records);
    assert_eq!(result.findings, batch.findings);
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    let got: Vec<String> = got.iter().map(summary).collect();
    assert_eq!(got.len(), 20_000);
    assert_eq!(got, expected);
}

#[test]
fn the_example_file_streams_like_the_batch_read() {
    let bytes = data("generic/wallets-2024.csv");
    let batch = import(&bytes, &ImportOptions::default());
    let (streamed, got, _) = stream(&bytes, false);
    done(streamed);
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
}

#[test]
fn invalid_rows_are_all_reported_and_stop_the_chunks() {
    let bytes = generic(20_000, &[10, 19_990]);
    let batch = import(&bytes, &ImportOptions::default());
    let (streamed, got, _) = stream(&bytes, false);
    let result = done(streamed);
    assert!(
        got.len() < 20_000 - 2,
        "chunks stop after the first invalid row"
    );
    assert_eq!(
        rendered(&result, "g.csv"),
        [
            "g.csv:12:5: error[bad-decimal] column \"in_amount\": \"x\" is not a plain decimal number",
            "g.csv:19992:5: error[bad-decimal] column \"in_amount\": \"x\" is not a plain decimal number",
        ]
    );
    assert_eq!(result.invalid_rows, 2);
    assert_eq!(result.findings, batch.findings);
    // With --skip-invalid every valid row is sent.
    let (streamed, got, _) = stream(&bytes, true);
    assert_eq!(done(streamed).invalid_rows, 2);
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
}

#[test]
fn rows_out_of_time_order_and_other_formats_are_not_streamed() {
    let mut bytes = generic(3, &[]);
    bytes.extend_from_slice(b"2024-02-01T00:00:00Z,BUY,Wallet 1,BTC,1,EUR,10,,,,,,,\n");
    let (streamed, _, _) = stream(&bytes, false);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
    let (streamed, got, _) = stream(&data("kraken-ledgers/kraken-2025.csv"), false);
    assert!(matches!(streamed, Streamed::Declined), "{streamed:?}");
    assert!(got.is_empty());
    // A file-level error is a result with nothing sent.
    let (streamed, got, _) = stream(b"nothing,here\n", false);
    assert!(done(streamed).file_rejected());
    assert!(got.is_empty());
}
