use rusqlite::Connection;
use use_cases::ports::{PriceRow, PriceStore};

use crate::SqliteLedger;

fn date(text: &str) -> core_domain::Date {
    core_domain::Date::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn asset(symbol: &str) -> core_domain::Asset {
    core_domain::Asset::new(symbol).unwrap()
}

/// `(asset, date, currency, close text)` of each row.
fn rows(prices: &[PriceRow]) -> Vec<(String, String, String, String)> {
    prices
        .iter()
        .map(|p| {
            (
                p.asset.to_string(),
                p.date.to_string(),
                p.currency.to_string(),
                p.close.to_string(),
            )
        })
        .collect()
}

/// A version-1 ledger file with prices over two years, two quotes and two imports.
fn write_v1_ledger(path: &std::path::Path) {
    let raw = Connection::open(path).unwrap();
    raw.execute_batch(super::V1).unwrap();
    raw.pragma_update(None, "user_version", 1).unwrap();
    raw.execute_batch(
        "INSERT INTO assets (id, symbol) VALUES (1, 'BTC'), (2, 'EUR'), (3, 'USD'), (4, 'ETH');
         INSERT INTO import_log (id, imported_at, file_name, file_sha256, format, options,
             rows_read, skipped, invalid, warnings, added, duplicates, replaced)
         VALUES (1, 0, 'a.csv', 'x', 'daily', '', 0, '', 0, 0, 0, 0, 0),
                (2, 0, 'b.csv', 'y', 'series', '', 0, '', 0, 0, 0, 0, 0);",
    )
    .unwrap();
    let mut insert = raw
        .prepare(
            "INSERT INTO prices (asset_id, day, quote_id, close, import_id)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .unwrap();
    for (asset_id, day, quote_id, close, import_id) in [
        (1, "2024-12-30", 2, "41000.50", 1),
        (1, "2024-12-31", 2, "42000", 1),
        (1, "2024-12-31", 3, "43000.1", 1),
        (1, "2025-01-01", 2, "0.00000001", 1),
        (1, "2025-01-03", 2, "45000.000", 2),
        (4, "2025-01-02", 3, "3300", 1),
    ] {
        let day = i64::from(chrono::Datelike::num_days_from_ce(&date(day)));
        insert
            .execute((asset_id, day, quote_id, close, import_id))
            .unwrap();
    }
}

/// A version-1 ledger file with prices over two years, two quotes and two imports migrates to
/// the series store and reads the same closes (scale kept), latest quotes and count.
#[test]
fn a_version_1_ledger_with_prices_migrates_and_reads_the_same_closes() {
    let dir = std::env::temp_dir().join(format!("cartera-schema-v1-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ledger.sqlite");
    write_v1_ledger(&path);
    let ledger = SqliteLedger::open(&path).unwrap();
    assert_eq!(ledger.schema_version().unwrap(), super::SCHEMA_VERSION);
    assert_eq!(ledger.price_count().unwrap(), 6);
    let all = ledger
        .prices_for(
            &[asset("BTC"), asset("ETH")],
            date("2000-01-01"),
            date("2099-12-31"),
        )
        .unwrap();
    let s = |symbol: &str, day: &str, quote: &str, close: &str| {
        (symbol.into(), day.into(), quote.into(), close.into())
    };
    assert_eq!(
        rows(&all),
        vec![
            s("BTC", "2024-12-30", "EUR", "41000.50"),
            s("BTC", "2024-12-31", "EUR", "42000"),
            s("BTC", "2024-12-31", "USD", "43000.1"),
            s("BTC", "2025-01-01", "EUR", "0.00000001"),
            s("BTC", "2025-01-03", "EUR", "45000.000"),
            s("ETH", "2025-01-02", "USD", "3300"),
        ]
    );
    let window = ledger
        .price_candidates(&[
            (asset("BTC"), date("2025-01-01")),
            (asset("ETH"), date("2025-01-01")),
        ])
        .unwrap();
    assert_eq!(
        rows(&window),
        vec![
            s("BTC", "2024-12-30", "EUR", "41000.50"),
            s("BTC", "2024-12-31", "EUR", "42000"),
            s("BTC", "2024-12-31", "USD", "43000.1"),
            s("BTC", "2025-01-01", "EUR", "0.00000001"),
        ]
    );
    let latest: Vec<(String, String, String, String, String)> = ledger
        .latest_quotes()
        .unwrap()
        .into_iter()
        .map(|q| {
            let (symbol, day, quote, close) = rows(&[q.row]).remove(0);
            (symbol, day, quote, close, q.format)
        })
        .collect();
    let l = |symbol: &str, day: &str, quote: &str, close: &str, format: &str| {
        (
            symbol.into(),
            day.into(),
            quote.into(),
            close.into(),
            format.into(),
        )
    };
    assert_eq!(
        latest,
        vec![
            l("BTC", "2025-01-03", "EUR", "45000.000", "series"),
            l("BTC", "2024-12-31", "USD", "43000.1", "daily"),
            l("ETH", "2025-01-02", "USD", "3300", "daily"),
        ]
    );
    drop(ledger);
    let raw = Connection::open(&path).unwrap();
    let old: i64 = raw
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'prices'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(old, 0, "the version-1 table is dropped");
    drop(raw);
    let _ = std::fs::remove_dir_all(&dir);
}
