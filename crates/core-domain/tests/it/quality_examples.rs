//! Integrity rows and completeness of the worked examples (`domain.md` §17 D-12, D-2, D-6).

use core_domain::num;
use core_domain::quality::{IntegrityRow, completeness, integrity_report, integrity_rows};
use core_domain::testkit::Outcome;

use crate::custody_examples::{custody, d12};

fn rows_of(outcome: &Outcome) -> Vec<IntegrityRow> {
    integrity_rows(
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &custody(outcome),
    )
    .unwrap()
}

/// `"<flag> <severity> <subject> <asset> <account> <row_key> <occurred_at> <qty> <detail_key>
/// <pending>"`.
fn describe(rows: &[IntegrityRow]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {} {} {} {} {}",
                r.quality_flag,
                r.severity,
                r.subject.as_str(),
                r.asset.map_or("-".to_owned(), |a| a.to_string()),
                r.account_name.as_deref().unwrap_or("-"),
                r.row_key.as_deref().unwrap_or("-"),
                r.occurred_at.map_or("-".to_owned(), |t| t.to_string()),
                r.quantity.map_or("-".to_owned(), num::quantity),
                r.detail_key,
                r.pending_review
            )
        })
        .collect()
}

#[test]
fn d12_every_integrity_row_in_report_order() {
    let outcome = d12();
    let report = integrity_report(rows_of(&outcome));
    let groups: Vec<String> = report
        .groups
        .iter()
        .map(|g| {
            format!(
                "{} {} count={} pending={}",
                g.quality_flag, g.severity, g.count, g.pending_review_count
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            "NEGATIVE_COST_BASIS high count=1 pending=1",
            "UNTRACKED_INFLOW high count=1 pending=1",
            "MISSING_FX_RATE medium count=1 pending=1",
            "CURRENCY_MISMATCH medium count=1 pending=1",
            "CUSTODY_IMBALANCE medium count=2 pending=0",
            "UNKNOWN_TX_TYPE medium count=1 pending=1",
            "CUSTODY_RESIDUAL low count=1 pending=1",
        ]
    );
    let all: Vec<IntegrityRow> = report.groups.iter().flat_map(|g| g.rows.clone()).collect();
    assert_eq!(
        describe(&all),
        [
            "NEGATIVE_COST_BASIS high ACQUISITION XRP Kraken d12r6 2024-04-03T10:00:00Z - quality.negative_cost_basis.acquisition true",
            "UNTRACKED_INFLOW high CUSTODY ETH ownwallet-ETH - - -0.5 quality.untracked_inflow.custody true",
            "MISSING_FX_RATE medium ACQUISITION BTC Kraken d12r7 2023-12-30T12:00:00Z - quality.missing_fx_rate.acquisition true",
            "CURRENCY_MISMATCH medium ACQUISITION ADA Binance d12r5 2024-04-02T10:00:00Z - quality.currency_mismatch.acquisition true",
            "CUSTODY_IMBALANCE medium CUSTODY ETH Bitvavo - - 0.5 quality.custody_imbalance.custody false",
            "CUSTODY_IMBALANCE medium CUSTODY ETH ownwallet-ETH - - -0.5 quality.custody_imbalance.custody false",
            "UNKNOWN_TX_TYPE medium ROW - Kraken d12r8 2024-04-05T10:00:00Z - quality.unknown_tx_type.row true",
            "CUSTODY_RESIDUAL low CUSTODY BTC ownwallet-BTC - - 0.7 quality.custody_residual.custody true",
        ]
    );
    assert_eq!((report.total_defects, report.pending_review), (8, 6));
    let rows: Vec<IntegrityRow> = rows_of(&outcome);
    let counters = completeness(&outcome.input, &outcome.output, &rows).unwrap();
    let per_flag: Vec<String> = counters
        .rows_per_flag
        .iter()
        .map(|(f, n)| format!("{f}={n}"))
        .collect();
    assert_eq!(
        per_flag,
        [
            "MISSING_PRICE=0",
            "MISSING_FX_RATE=1",
            "CURRENCY_MISMATCH=1",
            "NEGATIVE_COST_BASIS=1",
            "MISSING_ACQUISITION=0",
            "CUSTODY_RESIDUAL=1",
            "UNTRACKED_INFLOW=1",
            "CUSTODY_IMBALANCE=2",
            "UNKNOWN_TX_TYPE=1",
            "AMOUNT_OUT_OF_RANGE=0",
        ]
    );
    assert_eq!(counters.excluded_operations, 0);
    assert!(counters.uncovered_quantity.is_empty());
    // L:d12r6:0 (negative cost basis) and L:d12r7:0 (no rate) are open and blocked.
    assert_eq!(counters.flagged_open_lots, 2);
    assert_eq!(
        (
            counters.unresolved_income,
            counters.unresolved_derivatives,
            counters.unknown_rows
        ),
        (0, 0, 1)
    );
}

#[test]
fn d2_missing_price_is_one_income_row_and_the_inheriting_slice_raises_none() {
    let outcome = core_domain::testkit::examples::d2()
        .price("2023-03-06", "ETH", "1650.25", "USD")
        .price("2023-04-09", "ETH", "1862.10", "USD")
        .rate("2023-03-06", "USD", "1.0646")
        .rate("2023-04-06", "USD", "1.0915")
        .run();
    let rows = rows_of(&outcome);
    let fiscal: Vec<String> = describe(&rows)
        .into_iter()
        .filter(|r| !r.contains(" CUSTODY "))
        .collect();
    assert_eq!(
        fiscal,
        [
            "MISSING_PRICE medium INCOME ETH Kraken:earn d2r3 2022-05-09T07:00:00Z - quality.missing_price.income true"
        ]
    );
    let counters = completeness(&outcome.input, &outcome.output, &rows).unwrap();
    assert_eq!(counters.excluded_operations, 1);
    assert_eq!(counters.unresolved_income, 1);
    assert_eq!(counters.flagged_open_lots, 0);
}

#[test]
fn d6_uncovered_quantities() {
    let outcome = core_domain::testkit::examples::d6().run();
    let rows = rows_of(&outcome);
    assert_eq!(
        describe(&rows),
        [
            "MISSING_ACQUISITION high DISPOSAL ETH Kraken d6r2 2024-02-01T10:00:00Z 0.5 quality.missing_acquisition.disposal true",
            "MISSING_ACQUISITION high DISPOSAL ETH Kraken d6r3 2024-03-01T09:00:00Z 1 quality.missing_acquisition.disposal true",
            // Custody sees the same hole per account: 1.5 + 1 in, 3 out; the takes found 1.5
            // too few pieces while the later purchase still sits at Kraken.
            "UNTRACKED_INFLOW high CUSTODY ETH Kraken - - -0.5 quality.untracked_inflow.custody true",
            "CUSTODY_IMBALANCE medium CUSTODY ETH Kraken - - -1.5 quality.custody_imbalance.custody false",
        ]
    );
    let counters = completeness(&outcome.input, &outcome.output, &rows).unwrap();
    assert_eq!(counters.excluded_operations, 2);
    assert_eq!(
        counters
            .uncovered_quantity
            .iter()
            .map(|(a, q)| format!("{a} {}", num::quantity(*q)))
            .collect::<Vec<_>>(),
        ["ETH 1.5"]
    );
}
