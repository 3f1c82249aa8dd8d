//! `import_bytes_streaming`: the same transactions as `import_bytes`, in chunks, for a generic
//! file in time order; the other cases are declined or unsorted.

use std::fmt::Write as _;

use importers::{Chunk, ImportOptions, ImportResult, Streamed, Transaction};

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
            got.extend(transactions(chunk));
            true
        },
    );
    (streamed, got, chunks)
}

/// The transactions of a spot file's chunk.
fn transactions(chunk: Chunk) -> Vec<Transaction> {
    match chunk {
        Chunk::Transactions(transactions) => transactions,
        Chunk::Futures(_) => panic!("futures records from a spot file"),
    }
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
fn rows_out_of_time_order_and_futures_logs_are_not_streamed_in_time_order() {
    let mut bytes = generic(3, &[]);
    bytes.extend_from_slice(b"2024-02-01T00:00:00Z,BUY,Wallet 1,BTC,1,EUR,10,,,,,,,\n");
    let (streamed, _, _) = stream(&bytes, false);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
    // A futures log is newest first: it is read in any order.
    let (streamed, got, _) = stream(&data("kraken-futures/futures-2025.csv"), false);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
    assert!(got.is_empty());
    // A file-level error is a result with nothing sent.
    let (streamed, got, _) = stream(b"nothing,here\n", false);
    assert!(done(streamed).file_rejected());
    assert!(got.is_empty());
}

/// A source that hands out at most `block` bytes per read, to cut records, lines and UTF-8
/// sequences at every possible place.
struct Trickle<'a> {
    rest: &'a [u8],
    block: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.block.min(buf.len()).min(self.rest.len());
        let (head, tail) = self.rest.split_at(n);
        buf[..n].copy_from_slice(head);
        self.rest = tail;
        Ok(n)
    }
}

/// Streams `bytes` read `block` bytes at a time: what came back, the chunks' transactions
/// and the file digest.
fn stream_read(bytes: &[u8], block: usize) -> (Streamed, Vec<Transaction>, String) {
    let mut got = Vec::new();
    let mut source = Trickle { rest: bytes, block };
    let (streamed, sha) = importers::import_read_streaming(
        &mut source,
        bytes.len(),
        &ImportOptions::default(),
        true,
        &mut |chunk| {
            got.extend(transactions(chunk));
            true
        },
    );
    (streamed, got, sha)
}

fn sha_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

/// The streamed read of a file gives what the read of its bytes gives, whatever the blocks.
fn check_read(bytes: &[u8]) {
    let (streamed, expected, _) = stream(bytes, true);
    let expected_result = done(streamed);
    for block in [1, 3, 7, 64, 4096, 1 << 20] {
        let (streamed, got, sha) = stream_read(bytes, block);
        let result = done(streamed);
        assert_eq!(
            rendered(&result, "g.csv"),
            rendered(&expected_result, "g.csv"),
            "block {block}"
        );
        assert_eq!(result.rows_read, expected_result.rows_read);
        let got: Vec<String> = got.iter().map(summary).collect();
        let want: Vec<String> = expected.iter().map(summary).collect();
        assert_eq!(got, want, "block {block}");
        if !result.file_rejected() {
            assert_eq!(sha, sha_hex(bytes), "block {block}");
        }
    }
}

#[test]
fn a_file_read_in_blocks_gives_what_its_bytes_give() {
    let mut text = String::from("\u{feff}\r\n");
    text.push_str(HEADER);
    text.push_str("\r\n\r\n,,,,,,,,,,,,,\n");
    text.push_str(
        "2024-03-01T10:00:00Z,BUY,Wallet ✓,BTC,0.5,EUR,10,,,,,id-1,,\"café\nsecond line, quoted\"\n",
    );
    text.push_str("2024-03-01T10:00:01Z,BUY,Wallet ✓,BTC,x,EUR,10,,,,,,,\n\n");
    text.push_str("2024-03-01T10:00:02Z,SELL,Wallet ✓,EUR,11,BTC,0.25,,,,,,,naïve €\r\n");
    check_read(text.as_bytes());
    let big = generic(20_000, &[5, 19_000]);
    check_read(&big);
}

#[test]
fn a_byte_that_is_not_utf8_rejects_the_file_read_in_blocks() {
    let mut bytes = generic(3_000, &[]);
    let at = bytes.len() - 10;
    bytes[at] = 0xFF;
    let whole = import(&bytes, &ImportOptions::default());
    for block in [1, 5, 4096] {
        let (streamed, _, _) = stream_read(&bytes, block);
        let result = done(streamed);
        assert!(result.file_rejected());
        assert_eq!(rendered(&result, "g.csv"), rendered(&whole, "g.csv"));
    }
    // A sequence cut off by the end of the file, and a bad byte in the header.
    let mut cut = generic(10, &[]);
    cut.extend_from_slice(b"\xE2\x9C");
    let mut header = generic(10, &[]);
    header[3] = 0xC3;
    for bytes in [cut, header] {
        let whole = import(&bytes, &ImportOptions::default());
        let (streamed, _, _) = stream_read(&bytes, 2);
        assert_eq!(
            rendered(&done(streamed), "g.csv"),
            rendered(&whole, "g.csv")
        );
    }
}

/// `generic(rows)` with its data rows in a scrambled order and some accounts spelled in
/// capitals.
fn scrambled(rows: u64) -> Vec<u8> {
    let text = String::from_utf8(generic(rows, &[])).unwrap();
    let mut lines: Vec<String> = text.lines().skip(1).map(str::to_owned).collect();
    for (i, line) in lines.iter_mut().enumerate() {
        if i % 7 == 3 {
            *line = line.replace("Wallet", "WALLET");
        }
    }
    // A fixed permutation: a stride coprime with the length, so every row comes once.
    let n = lines.len();
    let order: Vec<usize> = (0..n).map(|i| (i * 7919 + 13) % n).collect();
    let mut out = format!("{HEADER}\n");
    for i in order {
        out.push_str(&lines[i]);
        out.push('\n');
    }
    out.into_bytes()
}

#[test]
fn any_order_reads_give_the_batch_identities_in_file_order() {
    let bytes = scrambled(20_000);
    let batch = import(&bytes, &ImportOptions::default());
    assert!(!batch.has_errors());
    let (streamed, _, _) = stream(&bytes, false);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
    let (streamed, chunks, sha) = read_any_order(&bytes, 4096, false);
    let mut got: Vec<Transaction> = chunks.into_iter().flat_map(transactions).collect();
    let result = done(streamed);
    assert_eq!(sha, sha_hex(&bytes));
    assert_eq!(result.rows_read, batch.rows_read);
    assert_eq!(result.rows_in_records, batch.rows_in_records);
    assert_eq!(result.findings, batch.findings);
    assert!(
        got.windows(2)
            .any(|w| (w[1].timestamp, w[1].lines[0]) < (w[0].timestamp, w[0].lines[0])),
        "sent in file order"
    );
    // Insertion order, as the store puts it: (timestamp, first line), then arrival.
    got.sort_by_key(|t| (t.timestamp, t.lines[0]));
    // Rows keep their spelling; the store keeps the first in insertion order, as the batch.
    let mut first = std::collections::HashMap::new();
    for t in &mut got {
        let spelled = first
            .entry(t.account.to_lowercase())
            .or_insert_with(|| t.account.clone());
        t.account.clone_from(spelled);
    }
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
}

#[test]
fn a_bitvavo_export_newest_first_streams_in_any_order() {
    let bytes = data("bitvavo/bitvavo-2025.csv");
    let batch = import(&bytes, &ImportOptions::default());
    let (streamed, mut got) = any_order(&bytes);
    let result = done(streamed);
    assert_eq!(rendered(&result, "b.csv"), rendered(&batch, "b.csv"));
    assert_eq!(result.skipped, batch.skipped);
    assert_eq!(result.rows_in_records, batch.rows_in_records);
    got.sort_by_key(|t| (t.timestamp, t.lines[0]));
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    assert!(expected.len() > 5);
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
    // In time order it is found out at once.
    let (streamed, _, _) = stream(&bytes, false);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
}

#[test]
fn a_coinbase_report_streams_in_any_order_and_in_time_order() {
    let bytes = data("coinbase/coinbase-2025.csv");
    let batch = import(&bytes, &ImportOptions::default());
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    // A sub-wallet move is two transactions of one row: both must come through.
    assert!(
        expected.iter().any(|t| t.contains("move-in")),
        "{expected:?}"
    );
    assert!(
        batch
            .transactions
            .iter()
            .all(Transaction::matches_by_content_key)
    );
    let (streamed, mut got) = any_order(&bytes);
    let result = done(streamed);
    assert_eq!(rendered(&result, "c.csv"), rendered(&batch, "c.csv"));
    assert_eq!(result.skipped, batch.skipped);
    assert_eq!(result.rows_in_records, batch.rows_in_records);
    got.sort_by_key(|t| (t.timestamp, t.lines[0]));
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
    // Newest first, it is found out at once in time order ...
    let (streamed, _, _) = stream(&bytes, false);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
    // ... and oldest first it streams in insertion order.
    let text = String::from_utf8(bytes).unwrap();
    let (head, rows) = text.split_at(text.find("\n68").unwrap() + 1);
    let mut ascending = head.to_owned();
    for row in rows.lines().rev() {
        ascending.push_str(row);
        ascending.push('\n');
    }
    let batch = import(ascending.as_bytes(), &ImportOptions::default());
    let (streamed, got, _) = stream(ascending.as_bytes(), false);
    let result = done(streamed);
    assert_eq!(rendered(&result, "c.csv"), rendered(&batch, "c.csv"));
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
}

#[test]
fn only_coinbase_v4_transactions_match_by_content_key() {
    let generic = import(&generic(10, &[]), &ImportOptions::default());
    assert!(!generic.transactions.is_empty());
    assert!(
        !generic
            .transactions
            .iter()
            .any(Transaction::matches_by_content_key)
    );
    let bitvavo = import(&data("bitvavo/bitvavo-2025.csv"), &ImportOptions::default());
    assert!(
        !bitvavo
            .transactions
            .iter()
            .any(Transaction::matches_by_content_key)
    );
}

/// Reads `bytes` in any order in blocks of `block` bytes: the outcome, the chunks sent and
/// the file's digest.
fn read_any_order(
    bytes: &[u8],
    block: usize,
    send_after_errors: bool,
) -> (Streamed, Vec<Chunk>, String) {
    let mut chunks = Vec::new();
    let mut source = Trickle { rest: bytes, block };
    let (streamed, sha) = importers::import_read_any_order(
        &mut source,
        bytes.len(),
        &ImportOptions::default(),
        send_after_errors,
        &mut |chunk| {
            chunks.push(chunk);
            true
        },
    );
    (streamed, chunks, sha)
}

/// Reads `bytes` in any order in blocks of 64 bytes: the outcome and the transactions sent.
fn any_order(bytes: &[u8]) -> (Streamed, Vec<Transaction>) {
    let (streamed, chunks, _) = read_any_order(bytes, 64, true);
    (
        streamed,
        chunks.into_iter().flat_map(transactions).collect(),
    )
}

/// A Kraken ledgers file read in any order gives the batch read: findings, counts, and the
/// transactions once put in insertion order.
fn check_kraken(bytes: &[u8]) -> ImportResult {
    let batch = import(bytes, &ImportOptions::default());
    let (streamed, mut got) = any_order(bytes);
    let result = done(streamed);
    assert_eq!(rendered(&result, "k.csv"), rendered(&batch, "k.csv"));
    assert_eq!(result.skipped, batch.skipped);
    assert_eq!(result.invalid_rows, batch.invalid_rows);
    assert_eq!(result.rows_in_records, batch.rows_in_records);
    got.sort_by_key(|t| (t.timestamp, t.lines[0]));
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
    // In time order a Kraken file is not streamed: its groups complete after later rows.
    let (streamed, got, _) = stream(bytes, false);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
    assert!(got.is_empty());
    batch
}

#[test]
fn a_kraken_ledgers_file_in_time_order_streams_in_any_order() {
    let batch = check_kraken(&data("kraken-ledgers/kraken-2025.csv"));
    assert!(batch.transactions.len() > 5);
    // Trades and a staking move (both legs, held to the end of the file) came through.
    let all: Vec<String> = batch.transactions.iter().map(summary).collect();
    for ty in ["BUY", "SWAP", "TRANSFER_IN", "TRANSFER_OUT", "STAKING"] {
        assert!(all.iter().any(|t| t.contains(ty)), "{ty} in {all:?}");
    }
}

/// The example file with `rows` appended (and the header first).
fn kraken_with(rows: &[&str]) -> Vec<u8> {
    let mut bytes = data("kraken-ledgers/kraken-2025.csv");
    for row in rows {
        let cells: Vec<String> = row.split(',').map(|c| format!("\"{c}\"")).collect();
        bytes.extend_from_slice(cells.join(",").as_bytes());
        bytes.push(b'\n');
    }
    bytes
}

#[test]
fn kraken_bad_rows_give_the_batch_findings_in_order() {
    // An invalid trade leg before its group, a balance that does not follow, a move leg at
    // a later time, an unknown type, a duplicate txid, a zero deposit.
    let result = check_kraken(&kraken_with(&[
        "LX1,TZZ,2025-05-01 10:00:00,trade,tradespot,currency,fiat,ZEUR,spot / main,x,0,1",
        "LX2,TZZ,2025-05-01 10:00:01,trade,tradespot,currency,fiat,ZEUR,spot / main,-5,0,7",
        "LX3,TZZ,2025-05-01 10:00:01,trade,tradespot,currency,crypto,XXBT,spot / main,0.001,0,0.0072",
        "LX4,EZZ,2025-05-02 10:00:00,earn,allocation,currency,crypto,DOT,spot / main,-1,0,15.5",
        "LX5,RZZ,2025-05-03 10:00:00,bogus,,currency,fiat,ZEUR,spot / main,1,0,",
        "LX5,RZY,2025-05-03 10:00:00,deposit,,currency,fiat,ZEUR,spot / main,1,0,",
        "LX6,RZX,2025-05-04 10:00:00,deposit,,currency,fiat,ZEUR,spot / main,0,0,",
        "LX7,EZZ,2025-05-05 10:00:00,earn,allocation,currency,crypto,DOT.S,earn / bonded,1,0,99",
    ]));
    let codes: Vec<&str> = result.findings.iter().map(|f| f.code).collect();
    for code in [
        "balance-mismatch",
        "unknown-type",
        "duplicate-id",
        "not-positive",
        "group-member-invalid",
    ] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
}

#[test]
fn a_newest_first_kraken_file_streams_in_any_order() {
    let text = String::from_utf8(data("kraken-ledgers/kraken-2025.csv")).unwrap();
    let (head, rows) = text.split_once('\n').unwrap();
    let mut newest_first = format!("{head}\n");
    for row in rows.lines().rev() {
        newest_first.push_str(row);
        newest_first.push('\n');
    }
    let batch = check_kraken(newest_first.as_bytes());
    assert!(batch.transactions.len() > 5);
    // With bad rows and balances that do not follow, newest first too (an invalid leg at
    // an earlier time than its group would reach it closed: read whole, as oldest first).
    let bad = String::from_utf8(kraken_with(&[
        "LX1,TZZ,2025-05-01 10:00:01,trade,tradespot,currency,fiat,ZEUR,spot / main,x,0,1",
        "LX2,TZZ,2025-05-01 10:00:01,trade,tradespot,currency,fiat,ZEUR,spot / main,-5,0,7",
        "LX3,TZZ,2025-05-01 10:00:01,trade,tradespot,currency,crypto,XXBT,spot / main,0.001,0,0.0072",
        "LX8,RZW,2025-05-01 10:00:01,deposit,,currency,fiat,ZEUR,spot / main,1,0,9",
        "LX9,RZV,2025-05-02 10:00:00,deposit,,currency,fiat,ZEUR,spot / main,1,0,3",
    ]))
    .unwrap();
    let (head, rows) = bad.split_once('\n').unwrap();
    let mut newest_first = format!("{head}\n");
    for row in rows.lines().rev() {
        newest_first.push_str(row);
        newest_first.push('\n');
    }
    let batch = check_kraken(newest_first.as_bytes());
    assert!(
        batch.findings.iter().any(|f| f.code == "balance-mismatch"),
        "{:?}",
        batch.findings
    );
}

#[test]
fn a_kraken_file_out_of_order_or_with_a_split_group_is_read_whole() {
    // Oldest first, then a row earlier than the one before it.
    let unordered =
        kraken_with(&["LZ1,RZZ9,2025-01-01 00:00:00,deposit,,currency,fiat,ZEUR,spot / main,1,0,"]);
    let (streamed, _) = any_order(&unordered);
    assert!(matches!(streamed, Streamed::Declined), "{streamed:?}");
    // A trade leg at a later time than its group: the batch read reports the mismatch.
    let split = kraken_with(&[
        "LY1,TJ5N2D-7XK3P-MB6QRC,2025-06-01 09:30:00,trade,tradespot,currency,crypto,XXBT,spot / main,0.001,0,",
    ]);
    let (streamed, _) = any_order(&split);
    assert!(matches!(streamed, Streamed::Declined), "{streamed:?}");
    let batch = import(&split, &ImportOptions::default());
    assert!(
        batch
            .findings
            .iter()
            .any(|f| f.code == "group-time-mismatch"),
        "{:?}",
        batch.findings
    );
}

const BINANCE_HEADER: &str = "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark";

/// The rows of one second of a Binance statement, by pattern: groups whose legs are split
/// by other rows, bursts of groups, equal content keys, rewards written twice.
fn binance_second(s: u64) -> Vec<String> {
    let rows: &[&str] = match s % 10 {
        0 => &[
            "Spot,Transaction Spend,EUR,-300",
            "Spot,Deposit,EUR,500",
            "Spot,Transaction Buy,BTC,0.00331",
            "Spot,Transaction Fee,BTC,-0.00000331",
        ],
        1 => &[
            "Spot,Binance Convert,BTC,-0.001",
            "Spot,Simple Earn Flexible Subscription,ETH,-0.03",
            "Earn,Simple Earn Flexible Subscription,ETH,0.03",
            "Spot,Binance Convert,ETH,0.03512",
        ],
        2 => &[
            "Spot,Small Assets Exchange BNB,BNB,0.0051,DOGE to BNB",
            "Spot,Small Assets Exchange BNB,DOGE,-12.5,DOGE to BNB",
            "Spot,Small Assets Exchange BNB,TRX,-30,TRX to BNB",
            "Spot,Small Assets Exchange BNB,BNB,0.0115,TRX to BNB",
        ],
        3 => &["Earn,Simple Earn Flexible Interest,ETH,0.0001"],
        4 => &[
            "Spot,Transfer Between Main and Funding Wallet,BTC,0.1",
            "Spot,Deposit,BTC,0.1",
            "Funding,Transfer Between Main and Funding Wallet,BTC,-0.1",
            "Spot,Deposit,BTC,0.10",
        ],
        5 => &[
            "Spot,Simple Earn Flexible Interest,ETH,0.00010",
            "Spot,Deposit,EUR,100",
            "Spot,Deposit,EUR,100",
        ],
        6 => &[
            "Funding,Transaction Buy,ETH,0.1",
            "Spot,Transaction Spend,EUR,-50",
            "Funding,Transaction Spend,EUR,-250",
            "Spot,Withdraw,ETH,-0.005",
            "Spot,Transaction Buy,ETH,0.02",
        ],
        7 => &[
            "Spot,Sell,BTC,-0.001",
            "Spot,Transaction Related,EUR,30",
            "Spot,Fee,BNB,-0.0001",
        ],
        8 => &["Earn,Staking Rewards,ADA,0.5", "Spot,Airdrop Assets,ARB,2"],
        _ => &[
            "Spot,Large OTC trading,USDT,-1000",
            "Spot,Binance Convert,USDT,-10",
            "Spot,Large OTC trading,BTC,0.02",
            "Spot,Binance Convert,ETH,0.004",
        ],
    };
    let time = 1_735_725_600 + s * 7;
    let (day, tod) = (time / 86_400 - 20_089, time % 86_400);
    rows.iter()
        .map(|r| {
            let remark = if r.matches(',').count() == 4 {
                ""
            } else {
                ",\"\""
            };
            format!(
                "39184726,2025-01-{:02} {:02}:{:02}:{:02},{r}{remark}",
                day + 1,
                tod / 3600,
                tod / 60 % 60,
                tod % 60
            )
        })
        .collect()
}

/// A Binance statement of `seconds` seconds, oldest first, with `extra` rows at the end.
fn binance(seconds: u64, extra: &[&str]) -> Vec<u8> {
    let mut text = format!("{BINANCE_HEADER}\n");
    for s in 0..seconds {
        for row in binance_second(s) {
            text.push_str(&row);
            text.push('\n');
        }
    }
    for row in extra {
        text.push_str(row);
        text.push('\n');
    }
    text.into_bytes()
}

/// A Binance statement streamed in time order gives the batch read: findings in order,
/// counts, and the same transactions in the same order; so does the read in any order.
fn check_binance(bytes: &[u8], send_after_errors: bool) -> ImportResult {
    let batch = import(bytes, &ImportOptions::default());
    let (streamed, got, _) = stream(bytes, send_after_errors);
    let result = done(streamed);
    assert_eq!(rendered(&result, "b.csv"), rendered(&batch, "b.csv"));
    assert_eq!(result.skipped, batch.skipped);
    assert_eq!(result.invalid_rows, batch.invalid_rows);
    let expected: Vec<String> = batch.transactions.iter().map(summary).collect();
    // After an invalid row nothing more is sent (nor counted) unless asked.
    if send_after_errors || batch.invalid_rows == 0 {
        assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
        assert_eq!(result.rows_in_records, batch.rows_in_records);
    }
    let (streamed, mut got) = any_order(bytes);
    let result = done(streamed);
    assert_eq!(rendered(&result, "b.csv"), rendered(&batch, "b.csv"));
    got.sort_by_key(|t| (t.timestamp, t.lines[0]));
    assert_eq!(got.iter().map(summary).collect::<Vec<_>>(), expected);
    batch
}

#[test]
fn a_binance_statement_in_time_order_streams_like_the_batch_read() {
    check_binance(&data("binance-statement/binance-2025.csv"), false);
    let batch = check_binance(&binance(2_000, &[]), false);
    assert!(
        batch
            .findings
            .iter()
            .all(|f| f.code == "possible-duplicate-reward")
    );
    assert!(batch.findings.len() > 100);
    assert!(
        batch.transactions.len() > 3_000,
        "{}",
        batch.transactions.len()
    );
    // Equal content keys in one second are numbered in line order.
    let all: Vec<String> = batch.transactions.iter().map(summary).collect();
    for ty in [
        "BUY",
        "SELL",
        "SWAP",
        "TRANSFER_IN",
        "TRANSFER_OUT",
        "REWARD",
        "AIRDROP",
    ] {
        assert!(all.iter().any(|t| t.contains(ty)), "{ty}");
    }
    assert!(
        all.iter()
            .any(|t| t.contains("TRANSFER_IN") && t.ends_with("\u{1f}3"))
    );
}

#[test]
fn binance_bad_rows_give_the_batch_findings_in_order() {
    // An invalid trade leg before its group's legs, one after them, a row of an unknown
    // type, a positive fee leg, a zero move, a bad time, a futures row, an unknown account.
    let bytes = binance(
        40,
        &[
            "1,2025-02-01 10:00:00,Spot,Transaction Buy,b@d,1,\"\"",
            "1,2025-02-01 10:00:00,Spot,Transaction Spend,EUR,-10,\"\"",
            "1,2025-02-01 10:00:00,Spot,Transaction Buy,BTC,0.001,\"\"",
            "1,2025-02-01 10:00:00,Spot,Transaction Fee,BTC,x,\"\"",
            "1,2025-02-01 10:00:01,Spot,Bogus,BTC,1,\"\"",
            "1,2025-02-01 10:00:01,Spot,Transaction Spend,EUR,-10,\"\"",
            "1,2025-02-01 10:00:01,Spot,Transaction Buy,BTC,0.001,\"\"",
            "1,2025-02-01 10:00:01,Spot,Transaction Fee,BTC,0.0001,\"\"",
            "1,2025-02-01 10:00:02,Spot,Simple Earn Flexible Redemption,ETH,0,\"\"",
            "1,2025-02-01 10:00:02,Earn,Simple Earn Flexible Redemption,ETH,-1,\"\"",
            "1,2025-02-01 99:00:02,Spot,Deposit,EUR,1,\"\"",
            "1,2025-02-01 10:00:03,USD-M Futures,Deposit,USDT,1,\"\"",
            "1,2025-02-01 10:00:03,Mars,Deposit,USDT,1,\"\"",
            "1,2025-02-01 10:00:03,Spot,Binance Convert,USDT,-1,\"\"",
            "1,2025-02-01 10:00:03,Spot,Binance Convert,ETH,1,\"\"",
            "1,2025-02-01 10:00:03,Spot,Binance Convert,XRP,x,\"\"",
        ],
    );
    let batch = check_binance(&bytes, true);
    let codes: Vec<&str> = batch.findings.iter().map(|f| f.code).collect();
    for code in [
        "bad-asset-symbol",
        "bad-decimal",
        "group-member-invalid",
        "unknown-type",
        "sign-mismatch",
        "not-positive",
        "bad-timestamp",
        "unsupported-type",
        "unknown-account",
    ] {
        assert!(codes.contains(&code), "{code} in {codes:?}");
    }
    check_binance(&bytes, false);
}

#[test]
fn a_binance_statement_out_of_time_order_is_read_whole() {
    let text = String::from_utf8(binance(30, &[])).unwrap();
    let (head, rows) = text.split_once('\n').unwrap();
    let mut newest_first = format!("{head}\n");
    for row in rows.lines().rev() {
        newest_first.push_str(row);
        newest_first.push('\n');
    }
    let (streamed, got, _) = stream(newest_first.as_bytes(), false);
    assert!(matches!(streamed, Streamed::Declined), "{streamed:?}");
    assert!(got.is_empty());
    let (streamed, _) = any_order(newest_first.as_bytes());
    assert!(matches!(streamed, Streamed::Declined), "{streamed:?}");
    // The whole-file read of the rows newest first books the same operations.
    let batch = import(newest_first.as_bytes(), &ImportOptions::default());
    let in_order = import(text.as_bytes(), &ImportOptions::default());
    assert_eq!(batch.transactions.len(), in_order.transactions.len());
    assert_eq!(batch.findings.len(), in_order.findings.len());
    // A row one second back in time, late in the file, stops the reading there.
    let late = binance(30, &["1,2025-01-01 10:00:00,Spot,Deposit,EUR,1,\"\""]);
    let (streamed, _, _) = stream(&late, false);
    assert!(matches!(streamed, Streamed::Declined), "{streamed:?}");
}

/// A Kraken futures log of `n` entries newest first, as Kraken writes it: trades with their
/// position legs, funding, settlements, conversions, several contracts and settlement
/// currencies, several entries in one second, a bad row and a repeated uid.
fn futures_log(n: usize) -> Vec<u8> {
    let header = "uid,dateTime,account,type,symbol,contract,change,new balance,new average entry price,trade price,mark price,funding rate,realized pnl,fee,realized funding,collateral,conversion spread percentage,liquidation fee,position uid";
    let contracts = [
        ("pf_xbtusd", "usd"),
        ("pf_soleur", "eur"),
        ("fi_xbtusd", "xbt"),
    ];
    let mut rows = Vec::new();
    for i in 0..n {
        let (contract, symbol) = contracts[i % 3];
        let time = format!(
            "2025-{:02}-{:02} {:02}:{:02}:{:02}",
            1 + i / 2000 % 12,
            1 + i / 80 % 25,
            i / 4 % 20,
            i % 60,
            i / 3 % 2
        );
        let row = match i % 7 {
            0 | 1 => format!(
                "u{i},{time},flex,futures trade,{symbol},{contract},-1.5,100,,60000,,,-1,0.5,,,,,"
            ),
            2 => format!(
                "u{i},{time},flex,futures trade,{contract},{contract},0.01,0,,60000,,,,,,,,,"
            ),
            3 | 4 => format!(
                "u{i},{time},flex,funding rate change,{symbol},{contract},0.25,100,,,,,,,0.25,,,,"
            ),
            5 => format!("u{i},{time},flex,settlement,{symbol},{contract},3,100,,,,,3,,,,,,"),
            _ => format!("u{i},{time},flex,conversion,{symbol},,10,100,,,,,,,,,,,"),
        };
        rows.push(row);
    }
    rows[n / 2] = rows[n / 2].replace(",flex,", ",flex,x,");
    let repeated = rows[n / 3 + 7].clone();
    rows[n / 3] = repeated;
    rows.reverse();
    let mut text = format!("{header}\n");
    for row in rows {
        text.push_str(&row);
        text.push('\n');
    }
    text.into_bytes()
}

/// A Kraken futures log streamed in any order: the findings and counts of the whole-file
/// read, and its records once put in insertion order (timestamp, line); the time-order read
/// leaves it unread.
#[test]
fn kraken_futures_stream_in_any_order() {
    let bytes = futures_log(30_000);
    let batch = import(&bytes, &ImportOptions::default());
    assert!(batch.has_errors(), "the bad row and the repeated uid");
    let (streamed, _, _) = stream_read(&bytes, 4096);
    assert!(matches!(streamed, Streamed::Unsorted), "{streamed:?}");
    for send_after_errors in [false, true] {
        let (streamed, sent, sha) = read_any_order(&bytes, 4096, send_after_errors);
        let chunks = sent.len();
        let mut got = Vec::new();
        for chunk in sent {
            match chunk {
                Chunk::Futures(records) => got.extend(records),
                Chunk::Transactions(_) => panic!("transactions from a futures log"),
            }
        }
        let result = done(streamed);
        assert_eq!(sha, sha_hex(&bytes));
        assert_eq!(result.rows_read, batch.rows_read);
        assert_eq!(result.rows_in_records, batch.rows_in_records);
        assert_eq!(result.skipped, batch.skipped);
        assert_eq!(result.invalid_rows, batch.invalid_rows);
        assert_eq!(result.findings, batch.findings);
        assert!(result.futures.is_empty());
        if send_after_errors {
            assert!(chunks > 1, "{chunks} chunks");
            assert!(
                got.windows(2).any(|w| w[1].timestamp < w[0].timestamp),
                "sent in file order"
            );
            got.sort_by_key(|f| (f.timestamp, f.line));
            assert_eq!(got, batch.futures);
        } else {
            // Nothing after the first invalid row (newest first: near the end of the file).
            assert!(got.len() < batch.futures.len());
        }
    }
}
