//! The worked examples of `domain.md` §17 (fiscal parts), asserted verbatim.

use core_domain::testkit::{Ledger, buy, sell};

#[test]
fn d1_purchase_and_sale_with_fiat_fees() {
    let outcome = Ledger::new()
        .row(
            buy("d1r1", "Kraken", "2023-02-01T10:00:00Z")
                .inflow("1.5", "BTC")
                .outflow("30000", "EUR")
                .fee("15", "EUR"),
        )
        .row(
            sell("d1r2", "Kraken", "2023-06-15T12:00:00Z")
                .inflow("25000", "EUR")
                .outflow("1.0", "BTC")
                .fee("20", "EUR"),
        )
        .run();
    let lot = outcome.lot("L:d1r1:0");
    assert_eq!(lot.asset(), "BTC");
    assert_eq!(lot.original(), "1.5");
    assert_eq!(lot.acquisition_value(), "30015.00");
    assert_eq!(lot.provenance(), "STATED");
    assert_eq!(lot.unit_cost(), "20010");
    assert_eq!(lot.remaining(), "0.5");
    assert_eq!(lot.remaining_cost(), "10005.00");
    assert_eq!(lot.status(), "PARTIAL");
    let slice = outcome.slice("E:d1r2:P:0");
    assert_eq!(slice.lot(), "L:d1r1:0");
    assert_eq!(slice.quantity(), "1");
    assert_eq!(slice.gross(), "25000.00");
    assert_eq!(slice.fee_expense(), "20.00");
    assert_eq!(slice.net(), "24980.00");
    assert_eq!(slice.acquisition_value(), "20010.00");
    assert_eq!(slice.result(), "4970.00");
    assert_eq!(slice.clave(), "F");
    assert!(slice.included());
    assert_eq!(outcome.slice_ids(), ["E:d1r2:P:0"]);
    assert_eq!(outcome.lot_ids(), ["L:d1r1:0"]);
}
