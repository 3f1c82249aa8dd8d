//! The facade's answers on the demo ledger are the figures the README and the demo's own README
//! (crates/cli/demo/README.md, computed by hand) state.

use cartera::{Ledger, SpotTxType, TxQuery};

use crate::demo::{all, clock, import};

fn demo() -> Ledger {
    let ledger = Ledger::in_memory(clock()).expect("ledger");
    import(&ledger, &all());
    ledger
}

#[test]
fn the_demo_portfolio_tax_years_lots_transactions_and_integrity() {
    let ledger = demo();
    let portfolio = ledger.portfolio().expect("portfolio");
    assert_eq!(portfolio.as_of, "2024-12-31");
    assert_eq!(portfolio.metrics.total_equity_fiat, "10442.35");
    assert_eq!(portfolio.metrics.total_realized_pnl_fiat, "1139.57");

    let years = ledger.tax_reports(2022..=2024).expect("tax reports");
    let gains: Vec<(i32, &str, &str)> = years
        .iter()
        .map(|r| {
            (
                r.year,
                r.summary.capital_gains.as_str(),
                r.summary.capital_losses.as_str(),
            )
        })
        .collect();
    assert_eq!(gains[1], (2023, "0.00", "459.98"));
    assert_eq!(gains[2], (2024, "2221.92", "0.00"));
    for report in &years {
        assert_eq!(report, &ledger.tax_report(report.year).expect("one year"));
    }

    let lots = ledger.lots("btc", 0, 50).expect("lots");
    assert_eq!(lots.total_count, 2);

    let sells = ledger
        .transactions(&TxQuery {
            types: vec![SpotTxType::Sell],
            ..TxQuery::default()
        })
        .expect("transactions");
    assert_eq!(sells.total_count, 3);

    let integrity = ledger.integrity().expect("integrity");
    assert_eq!((integrity.total_defects, integrity.pending_review), (0, 0));
}

#[test]
fn a_setting_changes_the_answers_and_unset_restores_them() {
    let ledger = demo();
    let before = ledger.tax_report(2024).expect("report");
    let version = ledger.version().expect("version").version;
    ledger
        .set_setting("fiscal_timezone", "Atlantic/Canary")
        .expect("set");
    assert!(ledger.version().expect("version").version > version);
    assert!(ledger.unset_setting("fiscal_timezone").expect("unset"));
    assert!(
        !ledger
            .unset_setting("fiscal_timezone")
            .expect("unset twice")
    );
    assert_eq!(ledger.tax_report(2024).expect("report"), before);
}

#[test]
fn importing_a_file_twice_adds_nothing() {
    let ledger = demo();
    let (name, kind, bytes) = crate::demo::FILES[2];
    let options = cartera::ImportOptions {
        kind,
        ..cartera::ImportOptions::default()
    };
    let again = ledger.import_bytes(name, bytes, &options).expect("import");
    assert_eq!(again.status, cartera::ImportStatus::Imported);
    assert_eq!((again.added, again.duplicates), (0, 46));
    assert_eq!(again.format.as_deref(), Some("kraken-ledgers"));
}
