use importers::{ImportOptions, SkipReason};

use crate::{data, import};

#[test]
fn example_futures_2025() {
    let r = import(
        &data("kraken-futures/futures-2025.csv"),
        &ImportOptions::default(),
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert!(r.transactions.is_empty());
    assert_eq!(
        r.format.clone().unwrap().to_string(),
        "kraken-futures, layout F19 (detected)"
    );
    let opt = |d: Option<rust_decimal::Decimal>| {
        d.map_or("—".to_owned(), |v| v.normalize().to_string())
    };
    let got: Vec<String> = r
        .futures
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {} {} {} {} {} {} {}",
                f.line,
                f.account,
                f.timestamp,
                f.kind,
                f.contract,
                f.settlement_asset,
                opt(f.realized_pnl),
                opt(f.funding_amount),
                f.fee_amount.map_or("—".to_owned(), |q| format!(
                    "{} {}",
                    q.normalize(),
                    f.fee_asset.unwrap()
                )),
                opt(f.trade_price)
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            "5 Kraken:futures 2025-06-05T10:21:47Z TRADE pf_xbtusd USD 0 — 0.6474 USD 60505",
            "4 Kraken:futures 2025-06-06T08:00:00Z FUNDING_FEE pf_xbtusd USD — 0.0031 — —",
            "2 Kraken:futures 2025-06-06T12:07:02Z TRADE pf_xbtusd USD -10.3438 — 0.6405 USD 60997",
        ]
    );
    // AC-47.
    assert_eq!(
        r.futures[2].identity,
        "c39ca7c1d9fbbe704fe5981346709ea5eae52f6991e7a2cdcd03ff28c2b48a8d"
    );
    assert_eq!(r.skipped.get(&SkipReason::PositionLeg), Some(&2));
    assert_eq!(r.skipped.get(&SkipReason::CollateralMovement), Some(&1));
    assert_eq!(r.rows_read, 6);
    assert_eq!(r.rows_in_records, 3);
}
