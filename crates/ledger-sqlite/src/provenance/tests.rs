use use_cases::ports::{
    ConflictPolicy, LedgerRead, LedgerWrite, NewImportLog, PriceBatch, RateBatch, WriteMode,
};

use super::*;

fn sym(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap()
}

fn date(text: &str) -> Date {
    Date::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn dec(text: &str) -> rust_decimal::Decimal {
    text.parse().unwrap()
}

fn log(format: &str, layout: Option<&str>) -> NewImportLog {
    NewImportLog {
        file_name: format!("{format}.csv"),
        format: format.to_owned(),
        layout: layout.map(str::to_owned),
        ..NewImportLog::default()
    }
}

fn close(symbol: &str, day: &str, value: &str, currency: &str) -> PriceRow {
    PriceRow {
        asset: sym(symbol),
        date: date(day),
        close: dec(value),
        currency: sym(currency),
    }
}

#[test]
fn each_close_and_rate_names_the_import_that_wrote_it() {
    let mut ledger = SqliteLedger::open_in_memory().unwrap();
    let prices =
        |format: &str, layout: Option<&str>, rows: Vec<PriceRow>, on_conflict| PriceBatch {
            log: log(format, layout),
            rows,
            on_conflict,
            mode: WriteMode::Commit,
        };
    ledger
        .write_prices(&prices(
            "daily",
            None,
            vec![close("BTC", "2024-01-02", "40000", "EUR")],
            ConflictPolicy::Reject,
        ))
        .unwrap();
    ledger
        .write_prices(&prices(
            "kraken",
            Some("XBTEUR"),
            vec![
                close("BTC", "2024-01-01", "39000.5", "EUR"),
                close("BTC", "2024-01-02", "40100", "EUR"),
                close("BTC", "2024-01-03", "41000", "EUR"),
            ],
            ConflictPolicy::Skip,
        ))
        .unwrap();
    ledger
        .write_prices(&prices(
            "binance-usdt",
            Some("ETHUSDT (USDT taken as USD)"),
            vec![close("ETH", "2023-12-31", "2300", "USD")],
            ConflictPolicy::Skip,
        ))
        .unwrap();
    let formats: std::collections::BTreeMap<i64, String> = ledger
        .import_log()
        .unwrap()
        .into_iter()
        .map(|e| (e.id, e.log.format))
        .collect();
    let got: Vec<String> = ledger
        .price_sources(None, date("2023-01-01"), date("2024-01-02"))
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{} {} {} {} {}",
                s.row.asset.as_str(),
                s.row.date,
                s.row.close,
                s.row.currency.as_str(),
                formats[&s.import_id]
            )
        })
        .collect();
    // The imported close of 2024-01-02 is kept (Skip), the day after is outside the range.
    assert_eq!(
        got,
        vec![
            "BTC 2024-01-01 39000.5 EUR kraken",
            "BTC 2024-01-02 40000 EUR daily",
            "ETH 2023-12-31 2300 USD binance-usdt",
        ]
    );
    let eth = ledger
        .price_sources(Some(&[sym("ETH")]), date("2023-01-01"), date("2025-01-01"))
        .unwrap();
    assert_eq!(eth.len(), 1);

    ledger
        .write_rates(&RateBatch {
            log: log("ecb", Some("data-api")),
            rows: vec![RateRow {
                currency: sym("USD"),
                date: date("2024-01-02"),
                rate: dec("1.0956"),
            }],
            on_conflict: ConflictPolicy::Skip,
            mode: WriteMode::Commit,
        })
        .unwrap();
    let rates = ledger
        .rate_sources(Some(sym("USD")), date("2024-01-01"), date("2024-01-31"))
        .unwrap();
    assert_eq!(rates.len(), 1);
    assert_eq!(formats.len() + 1, ledger.import_log().unwrap().len());
    assert_eq!(rates[0].row.rate, dec("1.0956"));
    assert!(
        ledger
            .rate_sources(Some(sym("GBP")), date("2024-01-01"), date("2024-01-31"))
            .unwrap()
            .is_empty()
    );
}
