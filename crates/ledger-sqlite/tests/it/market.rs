//! ECB rates and daily prices: duplicates, conflicts, `--replace`, lookups, real data.

use std::path::PathBuf;

use ledger_sqlite::{ReadOnlyLedger, SqliteLedger};
use use_cases::ports::{
    ConflictPolicy, LedgerRead, LedgerWrite, MarketOutcome, NewImportLog, PriceBatch, PriceRow,
    PriceStore, PriceTable, RateBatch, RateRow, RateStore, StoredQuote, WriteMode,
};

use crate::support::{asset, date, dec, log, memory};

fn rate(currency: &str, day: &str, value: &str) -> RateRow {
    RateRow {
        currency: asset(currency),
        date: date(day),
        rate: dec(value),
    }
}

fn price(symbol: &str, quote: &str, day: &str, close: &str) -> PriceRow {
    PriceRow {
        asset: asset(symbol),
        currency: asset(quote),
        date: date(day),
        close: dec(close),
    }
}

fn rates(rows: Vec<RateRow>, on_conflict: ConflictPolicy) -> RateBatch {
    RateBatch {
        log: log("ecb.csv"),
        rows,
        on_conflict,
        mode: WriteMode::Commit,
    }
}

fn prices(rows: Vec<PriceRow>, on_conflict: ConflictPolicy) -> PriceBatch {
    PriceBatch {
        log: log("daily.csv"),
        rows,
        on_conflict,
        mode: WriteMode::Commit,
    }
}

/// `(committed, added, duplicates, replaced, conflicts)`.
fn counts(outcome: &MarketOutcome) -> (bool, u64, u64, u64, usize) {
    (
        outcome.committed,
        outcome.added,
        outcome.duplicates,
        outcome.replaced,
        outcome.conflicts.len(),
    )
}

#[test]
fn rates_add_dedupe_conflict_and_replace() {
    let mut ledger = memory();
    let first = ledger
        .write_rates(&rates(
            vec![
                rate("USD", "2025-01-13", "1.0198"),
                rate("USD", "2025-01-14", "1.0245"),
                rate("GBP", "2025-01-13", "0.8416"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&first), (true, 3, 0, 0, 0));
    assert_eq!(first.ledger_version, 1);

    // Equal as decimals is a duplicate: nothing added, no bump.
    let again = ledger
        .write_rates(&rates(
            vec![rate("USD", "2025-01-13", "1.01980")],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&again), (true, 0, 1, 0, 0));
    assert_eq!(again.ledger_version, 1);

    // A conflict rejects the whole file by default.
    let rejected = ledger
        .write_rates(&rates(
            vec![
                rate("USD", "2025-01-10", "1.0304"),
                rate("USD", "2025-01-13", "1.5"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&rejected), (false, 1, 0, 0, 1));
    assert_eq!(rejected.conflicts[0].index, 1);
    assert_eq!(rejected.conflicts[0].stored.to_string(), "1.0198");
    assert_eq!(rejected.conflicts[0].new.to_string(), "1.5");
    assert_eq!(ledger.rate_count().unwrap(), 3);
    assert_eq!(ledger.ledger_version().unwrap(), 1);

    // --skip-invalid: the others are written.
    let skipped = ledger
        .write_rates(&rates(
            vec![
                rate("USD", "2025-01-10", "1.0304"),
                rate("USD", "2025-01-13", "1.5"),
            ],
            ConflictPolicy::Skip,
        ))
        .unwrap();
    assert_eq!(counts(&skipped), (true, 1, 0, 0, 1));
    assert_eq!(ledger.rate_count().unwrap(), 4);

    // --replace.
    let replaced = ledger
        .write_rates(&rates(
            vec![rate("USD", "2025-01-13", "1.5")],
            ConflictPolicy::Replace,
        ))
        .unwrap();
    assert_eq!(counts(&replaced), (true, 0, 0, 1, 1));
    assert_eq!(replaced.ledger_version, 3);
    let usd = ledger.rates_for(&[asset("USD")]).unwrap();
    let listed: Vec<(String, String)> = usd
        .iter()
        .map(|r| (r.date.to_string(), r.rate.to_string()))
        .collect();
    assert_eq!(
        listed,
        [
            ("2025-01-10".to_owned(), "1.0304".to_owned()),
            ("2025-01-13".to_owned(), "1.5".to_owned()),
            ("2025-01-14".to_owned(), "1.0245".to_owned()),
        ]
    );
    let all: Vec<&str> = ledger
        .all_rates()
        .unwrap()
        .iter()
        .map(|r| r.currency.as_str())
        .map(|s| if s == "GBP" { "GBP" } else { "USD" })
        .collect();
    assert_eq!(all, ["GBP", "USD", "USD", "USD"]);
    assert!(ledger.rates_for(&[asset("JPY")]).unwrap().is_empty());
    let log = ledger.import_log().unwrap();
    let entries: Vec<(u64, u64, u64)> = log
        .iter()
        .map(|e| (e.added, e.duplicates, e.replaced))
        .collect();
    assert_eq!(entries, [(3, 0, 0), (0, 1, 0), (1, 0, 0), (0, 0, 1)]);
}

#[test]
fn a_dry_run_of_rates_writes_nothing() {
    let mut ledger = memory();
    let outcome = ledger
        .write_rates(&RateBatch {
            mode: WriteMode::DryRun,
            ..rates(
                vec![rate("USD", "2025-01-13", "1.0198")],
                ConflictPolicy::Reject,
            )
        })
        .unwrap();
    assert_eq!(counts(&outcome), (false, 1, 0, 0, 0));
    assert_eq!(ledger.rate_count().unwrap(), 0);
    assert!(ledger.import_log().unwrap().is_empty());
}

#[test]
fn prices_add_replace_and_answer_lookups() {
    let mut ledger = memory();
    let outcome = ledger
        .write_prices(&prices(
            vec![
                price("BTC", "EUR", "2025-01-13", "91250.40"),
                price("ETH", "EUR", "2025-01-13", "3102.15"),
                price("BTC", "EUR", "2025-01-14", "92010"),
                price("ETH", "USD", "2025-01-14", "3180.5"),
                price("BTC", "USD", "2025-01-01", "94000"),
                price("BTC", "EUR", "2024-12-01", "90000"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&outcome), (true, 6, 0, 0, 0));
    let conflict = ledger
        .write_prices(&prices(
            vec![price("BTC", "EUR", "2025-01-14", "92011")],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&conflict), (false, 0, 0, 0, 1));
    let replaced = ledger
        .write_prices(&prices(
            vec![price("BTC", "EUR", "2025-01-14", "92011")],
            ConflictPolicy::Replace,
        ))
        .unwrap();
    assert_eq!(counts(&replaced), (true, 0, 0, 1, 1));
    assert_eq!(ledger.price_count().unwrap(), 6);

    let show = |rows: Vec<PriceRow>| -> Vec<String> {
        rows.iter()
            .map(|r| format!("{} {} {} {}", r.asset, r.date, r.currency, r.close))
            .collect()
    };
    assert_eq!(
        show(ledger.latest_prices().unwrap()),
        [
            "BTC 2025-01-14 EUR 92011",
            "BTC 2025-01-01 USD 94000",
            "ETH 2025-01-13 EUR 3102.15",
            "ETH 2025-01-14 USD 3180.5",
        ]
    );
    assert_eq!(
        show(
            ledger
                .prices_for(
                    &[asset("ETH"), asset("BTC")],
                    date("2025-01-01"),
                    date("2025-01-13")
                )
                .unwrap()
        ),
        [
            "BTC 2025-01-01 USD 94000",
            "BTC 2025-01-13 EUR 91250.40",
            "ETH 2025-01-13 EUR 3102.15",
        ]
    );
    // Windows [d − 7, d]: 2025-01-08 reaches back to 2025-01-01; 2024-12-05 to 2024-11-28.
    assert_eq!(
        show(
            ledger
                .price_candidates(&[
                    (asset("BTC"), date("2025-01-08")),
                    (asset("BTC"), date("2025-01-13")),
                    (asset("BTC"), date("2024-12-05")),
                    (asset("DOGE"), date("2025-01-13")),
                ])
                .unwrap()
        ),
        [
            "BTC 2024-12-01 EUR 90000",
            "BTC 2025-01-01 USD 94000",
            "BTC 2025-01-13 EUR 91250.40",
        ]
    );
}

#[allow(clippy::print_stderr)] // The skip message says why the test did nothing.
fn shared_data() -> Option<PathBuf> {
    let path = std::env::var_os("CARTERA_SHARED_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    if path.is_dir() {
        Some(path)
    } else {
        eprintln!("skipping: shared data folder {} is absent", path.display());
        None
    }
}

/// A minimal reader of the ECB history file, enough to feed the store (the real reader is
/// the importers' job).
fn ecb_rows(text: &str) -> Vec<RateRow> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let mut rows = Vec::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        for (code, cell) in header.iter().zip(&cells).skip(1) {
            if !code.is_empty() && !cell.is_empty() && *cell != "N/A" {
                rows.push(rate(code, cells[0], cell));
            }
        }
    }
    rows
}

#[test]
fn the_ecb_history_imports_once_and_answers_the_spec_examples() {
    let Some(data) = shared_data() else { return };
    let text = std::fs::read_to_string(data.join("ecb/eurofxref-hist.csv")).unwrap();
    let rows = ecb_rows(&text);
    let mut ledger = memory();
    let first = ledger
        .write_rates(&rates(rows.clone(), ConflictPolicy::Reject))
        .unwrap();
    assert_eq!(first.added, rows.len() as u64);
    let second = ledger
        .write_rates(&rates(rows, ConflictPolicy::Reject))
        .unwrap();
    assert_eq!((second.added, second.replaced), (0, 0));
    assert_eq!(second.ledger_version, 1);
    let check = |day: &str, expected: (&str, &str)| {
        let found = ledger
            .rate_on_or_before(asset("USD"), date(day))
            .unwrap()
            .unwrap();
        assert_eq!(
            (
                found.rate.to_string().as_str(),
                found.date.to_string().as_str()
            ),
            expected
        );
    };
    check("2023-04-09", ("1.0915", "2023-04-06"));
    check("2023-12-31", ("1.105", "2023-12-29"));
    assert_eq!(
        ledger
            .rate_on_or_before(asset("USD"), date("1999-01-03"))
            .unwrap(),
        None
    );
    // The rows feed core-domain's table, which answers the same lookups.
    let table =
        core_domain::market::RateTable::new(ledger.rates_for(&[asset("USD")]).unwrap()).unwrap();
    let fx = table.rate(asset("USD"), date("2023-04-09")).unwrap();
    assert_eq!(
        (fx.rate.to_string(), fx.rate_date.to_string()),
        ("1.0915".to_owned(), "2023-04-06".to_owned())
    );
}

#[test]
fn the_btc_series_round_trips() {
    let Some(data) = shared_data() else { return };
    let text = std::fs::read_to_string(data.join("prices/btc-eur-daily.csv")).unwrap();
    let rows: Vec<PriceRow> = text
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once(','))
        .map(|(stamp, close)| price("BTC", "EUR", &stamp[..10], close))
        .collect();
    assert_eq!(rows.len(), 5198);
    let mut ledger = memory();
    let outcome = ledger
        .write_prices(&prices(rows.clone(), ConflictPolicy::Reject))
        .unwrap();
    assert_eq!(outcome.added, 5198);
    let stored = ledger
        .prices_for(&[asset("BTC")], date("2010-01-01"), date("2025-01-01"))
        .unwrap();
    assert_eq!(stored, rows);
    assert_eq!(
        stored[0].close.to_string(),
        "0.0487103725",
        "decimal text keeps every digit"
    );
    // Decoded straight into a price table: every close found on its own date.
    let mut builder = use_cases::ports::PriceTableBuilder::new();
    ledger
        .price_table_for(
            &[asset("BTC")],
            date("2010-01-01"),
            date("2025-01-01"),
            &mut builder,
        )
        .unwrap();
    let table = builder.finish().unwrap();
    let no_rates = core_domain::market::RateTable::new(Vec::new()).unwrap();
    for row in &rows {
        match table.lookup(asset("BTC"), row.date, &no_rates).unwrap() {
            core_domain::market::PriceLookup::Found { price, .. } => {
                assert_eq!((price.date, price.price), (row.date, row.close));
            }
            other => panic!("{}: {other:?}", row.date),
        }
    }
}

/// A price batch from a file of the given format.
fn prices_from(format: &str, rows: Vec<PriceRow>, on_conflict: ConflictPolicy) -> PriceBatch {
    let mut batch = prices(rows, on_conflict);
    batch.log = NewImportLog {
        format: format.to_owned(),
        ..log(&format!("{format}.csv"))
    };
    batch
}

#[test]
fn prices_keep_the_format_of_their_file() {
    let dir = crate::support::TempDir::new();
    let path = dir.ledger_path();
    let mut ledger = SqliteLedger::open(&path).unwrap();
    let daily = ledger
        .write_prices(&prices_from(
            "daily",
            vec![
                price("BTC", "EUR", "2025-01-13", "91250.40"),
                price("BTC", "EUR", "2025-01-14", "92000"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&daily), (true, 2, 0, 0, 0));
    let series = ledger
        .write_prices(&prices_from(
            "series",
            vec![price("ETH", "EUR", "2025-01-14", "3180.5")],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&series), (true, 1, 0, 0, 0));

    let show = |quotes: Vec<StoredQuote>| -> Vec<String> {
        quotes
            .iter()
            .map(|q| {
                format!(
                    "{} {} {} {}",
                    q.row.asset, q.row.date, q.row.close, q.format
                )
            })
            .collect()
    };
    assert_eq!(
        show(ledger.latest_quotes().unwrap()),
        ["BTC 2025-01-14 92000 daily", "ETH 2025-01-14 3180.5 series"]
    );

    // An equal value from another file is a duplicate: the price keeps its first provenance.
    let duplicate = ledger
        .write_prices(&prices_from(
            "kraken-ohlcvt",
            vec![price("ETH", "EUR", "2025-01-14", "3180.50")],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&duplicate), (true, 0, 1, 0, 0));
    // `--replace` takes the new file's format.
    let replaced = ledger
        .write_prices(&prices_from(
            "kraken-ohlcvt",
            vec![price("BTC", "EUR", "2025-01-14", "92011")],
            ConflictPolicy::Replace,
        ))
        .unwrap();
    assert_eq!(counts(&replaced), (true, 0, 0, 1, 1));
    let expected = [
        "BTC 2025-01-14 92011 kraken-ohlcvt",
        "ETH 2025-01-14 3180.5 series",
    ];
    assert_eq!(show(ledger.latest_quotes().unwrap()), expected);
    assert_eq!(
        ledger
            .latest_prices()
            .unwrap()
            .iter()
            .map(|r| format!("{} {} {}", r.asset, r.date, r.close))
            .collect::<Vec<_>>(),
        ["BTC 2025-01-14 92011", "ETH 2025-01-14 3180.5"]
    );
    drop(ledger);

    let read_only = ReadOnlyLedger::open(&path).unwrap();
    assert_eq!(show(read_only.latest_quotes().unwrap()), expected);
}

/// Closes merged out of order into the per-year series: a later batch fills days before,
/// between and after the stored ones across a year boundary; reads return them in
/// `(asset, date, currency)` order, the latest close moves only forward, and a rejected batch
/// leaves the series untouched.
#[test]
fn prices_merge_out_of_order_across_years() {
    let mut ledger = memory();
    let first = ledger
        .write_prices(&prices(
            vec![
                price("BTC", "EUR", "2024-12-30", "10"),
                price("BTC", "EUR", "2025-01-02", "13"),
                price("BTC", "USD", "2025-01-01", "12.5"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&first), (true, 3, 0, 0, 0));
    let second = ledger
        .write_prices(&prices(
            vec![
                price("BTC", "EUR", "2025-01-03", "14"),
                price("BTC", "EUR", "2024-12-31", "11"),
                price("BTC", "EUR", "2024-12-29", "9"),
                price("BTC", "EUR", "2025-01-02", "13.0"),
                price("BTC", "EUR", "2025-01-01", "12"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&second), (true, 4, 1, 0, 0));
    let show = |rows: Vec<PriceRow>| -> Vec<String> {
        rows.iter()
            .map(|r| format!("{} {} {} {}", r.asset, r.date, r.currency, r.close))
            .collect()
    };
    let all = [
        "BTC 2024-12-29 EUR 9",
        "BTC 2024-12-30 EUR 10",
        "BTC 2024-12-31 EUR 11",
        "BTC 2025-01-01 EUR 12",
        "BTC 2025-01-01 USD 12.5",
        "BTC 2025-01-02 EUR 13",
        "BTC 2025-01-03 EUR 14",
    ];
    let read = |ledger: &SqliteLedger| {
        show(
            ledger
                .prices_for(
                    &[crate::support::asset("BTC")],
                    crate::support::date("2024-01-01"),
                    crate::support::date("2025-12-31"),
                )
                .unwrap(),
        )
    };
    assert_eq!(read(&ledger), all);
    assert_eq!(ledger.price_count().unwrap(), 7);
    assert_eq!(
        show(
            ledger
                .price_candidates(&[(
                    crate::support::asset("BTC"),
                    crate::support::date("2025-01-01")
                )])
                .unwrap()
        ),
        all.get(..5).unwrap()
    );
    assert_eq!(
        show(ledger.latest_prices().unwrap()),
        ["BTC 2025-01-03 EUR 14", "BTC 2025-01-01 USD 12.5"]
    );
    // A conflict rejects the whole batch, its new days included.
    let rejected = ledger
        .write_prices(&prices(
            vec![
                price("BTC", "EUR", "2025-01-04", "15"),
                price("BTC", "EUR", "2024-12-30", "10.5"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    assert_eq!(counts(&rejected), (false, 1, 0, 0, 1));
    assert_eq!(rejected.conflicts.first().map(|c| c.index), Some(1));
    assert_eq!(read(&ledger), all);
    assert_eq!(
        show(ledger.latest_prices().unwrap()),
        ["BTC 2025-01-03 EUR 14", "BTC 2025-01-01 USD 12.5"]
    );
}

/// Many lookups are split by asset across two connections; the answer is the one
/// connection's, asset by asset in order, each asset's closes sorted.
#[test]
fn a_split_price_read_gives_the_single_connection_read() {
    let dir = crate::support::TempDir::new();
    let mut ledger = SqliteLedger::open(dir.ledger_path()).unwrap();
    ledger
        .write_prices(&prices(
            vec![
                price("ETH", "EUR", "2025-01-13", "3102.15"),
                price("BTC", "EUR", "2025-01-13", "91250.40"),
                price("SOL", "USD", "2025-01-10", "190.5"),
                price("BTC", "USD", "2025-01-01", "94000"),
                price("SOL", "EUR", "2025-01-12", "185"),
                price("ETH", "EUR", "2024-12-30", "3300"),
            ],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    drop(ledger);
    let requests = [
        (asset("BTC"), date("2025-01-08")),
        (asset("BTC"), date("2025-01-13")),
        (asset("ETH"), date("2025-01-05")),
        (asset("ETH"), date("2025-01-13")),
        (asset("SOL"), date("2025-01-12")),
    ];
    let show = |rows: Vec<PriceRow>| -> Vec<String> {
        rows.iter()
            .map(|r| format!("{} {} {} {}", r.asset, r.date, r.currency, r.close))
            .collect()
    };
    let (single, split) = crate::support::single_and_split(&dir.ledger_path());
    let expected = [
        "BTC 2025-01-01 USD 94000",
        "BTC 2025-01-13 EUR 91250.40",
        "ETH 2024-12-30 EUR 3300",
        "ETH 2025-01-13 EUR 3102.15",
        "SOL 2025-01-10 USD 190.5",
        "SOL 2025-01-12 EUR 185",
    ];
    assert_eq!(show(single.price_candidates(&requests).unwrap()), expected);
    assert_eq!(show(split.price_candidates(&requests).unwrap()), expected);
    // Decoded straight into a table, on one connection or two: the table of those rows.
    let rows = single.price_candidates(&requests).unwrap();
    let table = format!("{:?}", PriceTable::new(rows).unwrap());
    for store in [&single, &split] {
        let direct = store.price_candidates_table(&requests).unwrap();
        assert_eq!(format!("{direct:?}"), table);
        assert_eq!(direct.quote_currencies(), [asset("EUR"), asset("USD")]);
    }
}
