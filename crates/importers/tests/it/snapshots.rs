//! Snapshots of every example file of §2 and §3 (`imports.md` §0: each example has a
//! snapshot of its expected output), rendered as text.

use std::fmt::Write as _;

use importers::prices::{self, PriceOptions};
use importers::{ImportOptions, rates};

fn render_import(name: &str, bytes: &[u8]) -> String {
    let r = importers::import_bytes(bytes, &ImportOptions::default());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "format: {}",
        r.format
            .as_ref()
            .map_or("-".to_owned(), ToString::to_string)
    );
    let _ = writeln!(
        s,
        "header line: {:?}, rows read: {}, rows in records: {}, invalid rows: {}",
        r.header_line, r.rows_read, r.rows_in_records, r.invalid_rows
    );
    for (reason, n) in &r.skipped {
        let _ = writeln!(s, "skipped {reason}: {n}");
    }
    for t in &r.transactions {
        let _ = writeln!(s, "tx {}", crate::fmt_tx(t));
        let _ = writeln!(
            s,
            "   key {} identity {}",
            t.identity_key.replace('\u{1f}', "␟"),
            t.identity
        );
        let _ = writeln!(s, "   source_ref {:?} note {:?}", t.source_ref, t.note);
    }
    for f in &r.futures {
        let _ = writeln!(
            s,
            "futures {} {} {} {} {} {} pnl {:?} funding {:?} fee {:?} {:?} price {:?} identity {}",
            f.line,
            f.account,
            f.timestamp,
            f.kind,
            f.contract,
            f.settlement_asset,
            f.realized_pnl,
            f.funding_amount,
            f.fee_amount,
            f.fee_asset,
            f.trade_price,
            f.identity
        );
    }
    for f in &r.findings {
        let _ = writeln!(s, "{}", f.render(name));
    }
    s
}

#[test]
fn exchange_examples() {
    insta::glob!(
        "../../test_data",
        "{kraken-ledgers,kraken-futures,bitvavo,binance-statement,coinbase,generic}/*.csv",
        |path| {
            let bytes = std::fs::read(path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            insta::assert_snapshot!(render_import(&name, &bytes));
        }
    );
}

#[test]
fn rate_examples() {
    insta::glob!("../../test_data", "ecb/*.csv", |path| {
        let r = rates::parse_ecb(&std::fs::read(path).unwrap());
        let mut s = String::new();
        for x in &r.rates {
            let _ = writeln!(
                s,
                "{} {} {} (line {}, column {})",
                x.currency, x.date, x.rate, x.line, x.column
            );
        }
        let _ = writeln!(s, "findings: {}", r.findings.len());
        insta::assert_snapshot!(s);
    });
}

#[test]
fn price_examples() {
    insta::glob!("../../test_data", "prices/*.csv", |path| {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let options = if name.starts_with("series") {
            PriceOptions {
                symbol: Some("BTC".to_owned()),
                currency: Some("EUR".to_owned()),
                format: None,
            }
        } else {
            PriceOptions::default()
        };
        let r = prices::parse(&name, &std::fs::read(path).unwrap(), &options);
        let mut s = format!("format: {:?}\n", r.format);
        for (p, line) in r.prices.iter().zip(&r.lines) {
            let _ = writeln!(
                s,
                "{}/{} {} {} (line {line})",
                p.asset, p.currency, p.date, p.close
            );
        }
        let _ = writeln!(s, "findings: {}", r.findings.len());
        insta::assert_snapshot!(s);
    });
}
