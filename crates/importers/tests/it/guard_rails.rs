//! Guard rails of issue 25: for every importer profile and for the price and rate readers,
//! arbitrary bytes and mutated real rows never panic, and every row read is counted exactly
//! once (a record, skipped or invalid), whether the file is read whole or streamed.

use importers::prices::{self, PriceOptions};
use importers::{ImportOptions, ImportResult, Streamed, rates};
use proptest::prelude::*;

use crate::data;

/// One edit of a file: `(where, what, which byte)`.
type Edit = (usize, u8, u8);

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec((any::<usize>(), 0u8..7, any::<u8>()), 0..6)
}

/// Applies the edits to the rows after the first line (the header stays readable, so the
/// rows are read): a byte replaced, a quote, a comma or a line break inserted, a byte
/// removed, a row repeated, two rows swapped.
fn mutate(text: &[u8], edits: &[Edit]) -> Vec<u8> {
    let split = text.iter().position(|&b| b == b'\n').map_or(0, |p| p + 1);
    let (head, body) = text.split_at(split);
    let mut body = body.to_vec();
    for &(at, kind, byte) in edits {
        if body.is_empty() {
            break;
        }
        let i = at % body.len();
        match kind {
            0 => body[i] = byte,
            1 => body.insert(i, b'"'),
            2 => body.insert(i, b','),
            3 => body.insert(i, b'\n'),
            4 => {
                body.remove(i);
            }
            _ => {
                let lines: Vec<&[u8]> = body.split_inclusive(|&b| b == b'\n').collect();
                let a = at % lines.len();
                let b = usize::from(byte) % lines.len();
                let mut out: Vec<&[u8]> = lines.clone();
                if kind == 5 {
                    out.insert(a, lines[a]);
                } else {
                    out.swap(a, b);
                }
                body = out.concat();
            }
        }
    }
    [head, body.as_slice()].concat()
}

/// The counts of a result that was not rejected add up, and its findings point into the file.
fn check(result: &ImportResult, text: &[u8]) -> Result<(), TestCaseError> {
    #[allow(clippy::naive_bytecount)]
    let lines = text.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for f in &result.findings {
        prop_assert!(
            f.line >= 1 && f.line <= lines,
            "line {} of {lines}: {f:?}",
            f.line
        );
        prop_assert!(f.message.chars().count() <= 401, "{f:?}");
        prop_assert!(!f.message.contains('\0'), "{f:?}");
    }
    if result.file_rejected() {
        return Ok(());
    }
    prop_assert_eq!(
        result.rows_read,
        result.rows_in_records + result.skipped_total() + result.invalid_rows,
        "{:#?}",
        result.findings
    );
    for t in &result.transactions {
        prop_assert!(t.note.chars().count() <= 500);
    }
    Ok(())
}

/// The file read whole and read as a stream: neither panics, both count the same.
fn both_ways(text: &[u8], options: &ImportOptions) -> Result<(), TestCaseError> {
    let whole = importers::import_bytes(text, options);
    check(&whole, text)?;
    let mut sent = 0usize;
    let (streamed, _) =
        importers::import_read_any_order(&mut &text[..], text.len(), options, true, &mut |chunk| {
            sent += match chunk {
                importers::Chunk::Transactions(t) => t.len(),
                importers::Chunk::Futures(f) => f.len(),
            };
            true
        });
    if let Streamed::Done(streamed) = streamed {
        check(&streamed, text)?;
        prop_assert_eq!(streamed.rows_read, whole.rows_read);
        prop_assert_eq!(streamed.invalid_rows, whole.invalid_rows);
        prop_assert_eq!(streamed.skipped_total(), whole.skipped_total());
        if !whole.file_rejected() {
            prop_assert_eq!(sent, whole.transactions.len() + whole.futures.len());
        }
    }
    Ok(())
}

const PROFILES: [&str; 6] = [
    "generic/wallets-2024.csv",
    "bitvavo/bitvavo-2025.csv",
    "coinbase/coinbase-2025.csv",
    "kraken-ledgers/kraken-2025.csv",
    "binance-statement/binance-2025.csv",
    "kraken-futures/futures-2025.csv",
];

fn profile_case(index: usize, edits: &[Edit]) -> Result<(), TestCaseError> {
    let text = mutate(&data(PROFILES[index]), edits);
    both_ways(&text, &ImportOptions::default())
}

/// Price files: no panic; each row is read once and is either a close, a repeat of one, or
/// invalid, so closes and invalid rows never outnumber the rows.
fn check_prices(name: &str, text: &[u8], options: &PriceOptions) -> Result<(), TestCaseError> {
    let r = prices::parse(name, text, options);
    if r.file_rejected() {
        return Ok(());
    }
    prop_assert!(
        r.prices.len() as u64 + r.invalid_rows <= r.rows_read,
        "{:#?}",
        r.findings
    );
    let mut lines = r.lines.clone();
    lines.sort_unstable();
    lines.dedup();
    prop_assert_eq!(lines.len(), r.prices.len());
    for f in &r.findings {
        prop_assert!(f.message.chars().count() <= 401 && !f.message.contains('\0'));
    }
    Ok(())
}

fn series() -> PriceOptions {
    PriceOptions {
        symbol: Some("BTC".to_owned()),
        currency: Some("EUR".to_owned()),
        format: None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn generic_rows(edits in edits()) { profile_case(0, &edits)?; }

    #[test]
    fn bitvavo_rows(edits in edits()) { profile_case(1, &edits)?; }

    #[test]
    fn coinbase_rows(edits in edits()) { profile_case(2, &edits)?; }

    #[test]
    fn kraken_ledgers_rows(edits in edits()) { profile_case(3, &edits)?; }

    #[test]
    fn binance_rows(edits in edits()) { profile_case(4, &edits)?; }

    #[test]
    fn kraken_futures_rows(edits in edits()) { profile_case(5, &edits)?; }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400), header in 0usize..6) {
        // Bytes alone, and bytes after each profile's header line.
        both_ways(&bytes, &ImportOptions::default())?;
        let real = data(PROFILES[header]);
        let end = real.iter().position(|&b| b == b'\n').map_or(real.len(), |p| p + 1);
        let text = [&real[..end], bytes.as_slice()].concat();
        both_ways(&text, &ImportOptions::default())?;
        let _ = prices::parse("XBTEUR_1440.csv", &bytes, &PriceOptions::default());
        let _ = rates::parse_ecb(&bytes);
    }

    #[test]
    fn price_rows(edits in edits(), which in 0usize..3) {
        let (name, options) = [
            ("prices/daily-sample.csv", PriceOptions::default()),
            ("prices/series-sample.csv", series()),
            ("prices/XBTEUR_1440.csv", PriceOptions::default()),
        ][which].clone();
        let text = mutate(&data(name), &edits);
        check_prices(name.trim_start_matches("prices/"), &text, &options)?;
    }

    #[test]
    fn rate_rows(edits in edits()) {
        let text = mutate(&data("ecb/ecb-sample.csv"), &edits);
        let r = rates::parse_ecb(&text);
        if !r.file_rejected() {
            prop_assert!(r.invalid_rows <= r.rows_read, "{:#?}", r.findings);
            for rate in &r.rates {
                prop_assert!(rate.line >= 2);
            }
        }
    }
}
