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

/// The import log id of every stored close, series by series in key order.
fn stored_import_ids(raw: &Connection) -> Vec<u32> {
    let mut ids = Vec::new();
    let mut blobs = raw
        .prepare("SELECT closes FROM price_series ORDER BY asset_id, year, quote_id")
        .unwrap();
    let mut found = blobs.query([]).unwrap();
    while let Some(row) = found.next().unwrap() {
        let blob: Vec<u8> = row.get(0).unwrap();
        ids.extend(
            blob.chunks_exact(crate::series::ENTRY)
                .map(crate::series::entry_import),
        );
    }
    ids
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
    // Every close keeps the import log entry of its file (`imports.md` §3.1): BTC EUR 2024
    // (30th, 31st), BTC USD 2024, BTC EUR 2025 (1st, 3rd), ETH USD 2025.
    assert_eq!(stored_import_ids(&raw), vec![1, 1, 1, 1, 2, 1]);
    drop(raw);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A price import writes its log id into each close it adds or replaces; a duplicate keeps
/// the first file's.
#[test]
fn each_written_close_keeps_the_import_that_wrote_it() {
    use use_cases::ports::{ConflictPolicy, LedgerWrite, NewImportLog, PriceBatch, WriteMode};
    let batch = |file: &str, rows: &[(&str, &str)], on_conflict| PriceBatch {
        log: NewImportLog {
            file_name: file.to_owned(),
            format: "daily".to_owned(),
            ..NewImportLog::default()
        },
        rows: rows
            .iter()
            .map(|(day, close)| PriceRow {
                asset: asset("BTC"),
                currency: asset("EUR"),
                date: date(day),
                close: close.parse().unwrap(),
            })
            .collect(),
        on_conflict,
        mode: WriteMode::Commit,
    };
    let mut ledger = SqliteLedger::open_in_memory().unwrap();
    let first = [
        ("2025-01-01", "10"),
        ("2025-01-02", "11"),
        ("2025-01-03", "12"),
    ];
    let one = ledger
        .write_prices(&batch("a.csv", &first, ConflictPolicy::Reject))
        .unwrap();
    // A duplicate, a replaced close and a new day before the others.
    let second = [
        ("2025-01-01", "10.0"),
        ("2025-01-02", "15"),
        ("2024-12-31", "9"),
    ];
    let two = ledger
        .write_prices(&batch("b.csv", &second, ConflictPolicy::Replace))
        .unwrap();
    let (a, b) = (one.import_id.unwrap(), two.import_id.unwrap());
    let (a, b) = (u32::try_from(a).unwrap(), u32::try_from(b).unwrap());
    // 2024: the 31st; 2025: the 1st, 2nd, 3rd.
    assert_eq!(stored_import_ids(&ledger.conn), vec![b, a, b, a]);
}
