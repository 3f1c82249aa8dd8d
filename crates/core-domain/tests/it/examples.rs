//! The worked examples of `domain.md` §17 (fiscal parts), asserted verbatim.

use core_domain::testkit::{Ledger, buy, sell};

#[test]
fn d1_purchase_and_sale_with_fiat_fees() {
    let outcome = core_domain::testkit::examples::d1().run();
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

use core_domain::testkit::{
    Outcome, airdrop, edit, fork, future, migration, mining, promotion, reward, swap,
};
use shared_types::FuturesKind;

/// One expected slice: id, lot, quantity, gross, fee expense, acquisition value, result,
/// included.
struct S(
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    bool,
);

fn check_slices(outcome: &Outcome, expected: &[S]) {
    let ids: Vec<&str> = expected.iter().map(|s| s.0).collect();
    assert_eq!(outcome.slice_ids(), ids, "slice list and order");
    for S(id, lot, quantity, gross, fee, acquisition, result, included) in expected {
        let slice = outcome.slice(id);
        assert_eq!(
            (
                slice.lot().as_str(),
                slice.quantity().as_str(),
                slice.gross().as_str(),
                slice.fee_expense().as_str(),
                slice.acquisition_value().as_str(),
                slice.result().as_str(),
                slice.included(),
            ),
            (
                *lot,
                *quantity,
                *gross,
                *fee,
                *acquisition,
                *result,
                *included
            ),
            "{id}"
        );
    }
}

/// One expected lot: id, asset, original, remaining, acquisition value, remaining cost, status.
struct L(
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

fn check_lots(outcome: &Outcome, expected: &[L]) {
    let ids: Vec<&str> = expected.iter().map(|l| l.0).collect();
    assert_eq!(outcome.lot_ids(), ids, "lot list and order");
    for L(id, asset, original, remaining, value, remaining_cost, status) in expected {
        let lot = outcome.lot(id);
        assert_eq!(
            (
                lot.asset().as_str(),
                lot.original().as_str(),
                lot.remaining().as_str(),
                lot.acquisition_value().as_str(),
                lot.remaining_cost().as_str(),
                lot.status(),
            ),
            (
                *asset,
                *original,
                *remaining,
                *value,
                *remaining_cost,
                *status
            ),
            "{id}"
        );
    }
}

#[test]
fn d2_staking_in_usd_weekend_rate_missing_price_flagged_lot_first() {
    let outcome = core_domain::testkit::examples::d2()
        .price("2023-03-06", "ETH", "1650.25", "USD")
        .price("2023-04-09", "ETH", "1862.10", "USD")
        // The published ECB USD rates around the example's dates (eurofxref-hist.csv).
        .rate("2023-03-06", "USD", "1.0646")
        .rate("2023-04-06", "USD", "1.0915")
        .rate("2023-04-05", "USD", "1.094")
        .rate("2023-04-11", "USD", "1.0905")
        .rate("2022-05-09", "USD", "1.0559")
        .rate("2023-05-02", "USD", "1.0965")
        .run();

    let r1 = outcome.lot("L:d2r1:0");
    assert_eq!(r1.acquisition_value(), "15501.13");
    assert_eq!(r1.provenance(), "MARKET_CONVERTED");
    assert_eq!(r1.fx().as_deref(), Some("1.0646@2023-03-06"));
    let income = outcome.income("d2r1");
    assert_eq!(income.bucket.as_str(), "RCM");
    assert_eq!(
        income.value.amount().map(core_domain::num::fiat).as_deref(),
        Some("15501.13")
    );
    assert_eq!(income.fiscal_date.to_string(), "2023-03-06");

    let r2 = outcome.lot("L:d2r2:0");
    assert_eq!(r2.acquisition_value(), "6824.00");
    assert_eq!(r2.fx().as_deref(), Some("1.0915@2023-04-06"));
    assert_eq!(
        outcome
            .income("d2r2")
            .value
            .amount()
            .map(core_domain::num::fiat)
            .as_deref(),
        Some("6824.00")
    );

    let r3 = outcome.lot("L:d2r3:0");
    assert_eq!(r3.acquisition_value(), "unknown");
    assert_eq!(r3.flags(), "MISSING_PRICE");
    let unresolved = outcome.income("d2r3");
    assert_eq!(unresolved.value.amount(), None);
    assert_eq!(
        core_domain::testkit::flags(unresolved.flags),
        "MISSING_PRICE"
    );
    assert_eq!(unresolved.fiscal_date.to_string(), "2022-05-09");

    check_slices(
        &outcome,
        &[
            S(
                "E:d2r4:P:0",
                "L:d2r3:0",
                "3",
                "5400.00",
                "0.00",
                "unknown",
                "unknown",
                false,
            ),
            S(
                "E:d2r4:P:1",
                "L:d2r1:0",
                "10",
                "18000.00",
                "0.00",
                "15501.13",
                "2498.87",
                true,
            ),
            S(
                "E:d2r4:P:2",
                "L:d2r2:0",
                "2",
                "3600.00",
                "0.00",
                "3412.00",
                "188.00",
                true,
            ),
        ],
    );
    assert_eq!(outcome.slice("E:d2r4:P:0").flags(), "MISSING_PRICE");
    check_lots(
        &outcome,
        &[
            L("L:d2r3:0", "ETH", "3", "0", "unknown", "unknown", "CLOSED"),
            L("L:d2r1:0", "ETH", "10", "0", "15501.13", "0.00", "CLOSED"),
            L("L:d2r2:0", "ETH", "4", "2", "6824.00", "3412.00", "PARTIAL"),
        ],
    );
}

#[test]
fn d3_swap_valued_on_the_higher_leg_fee_in_a_third_asset() {
    let outcome = Ledger::new()
        .row(
            buy("d3r1", "Binance", "2023-01-02T10:00:00Z")
                .inflow("1", "BNB")
                .outflow("100", "EUR"),
        )
        .row(
            buy("d3r2", "Binance", "2023-01-02T11:00:00Z")
                .inflow("0.5", "BTC")
                .outflow("10000", "EUR"),
        )
        .row(
            swap("d3r3", "Binance", "2023-01-03T12:00:00Z")
                .inflow("5000", "USDT")
                .outflow("0.2", "BTC")
                .fee("0.1", "BNB"),
        )
        .price("2023-01-03", "BTC", "25000", "EUR")
        .price("2023-01-03", "USDT", "0.93", "EUR")
        .price("2023-01-03", "BNB", "300", "EUR")
        .run();
    let op = outcome.operation("d3r3", "P");
    let swap = op.swap.as_deref().expect("swap detail");
    assert_eq!(
        swap.given.amount().map(core_domain::num::fiat).as_deref(),
        Some("5000.00")
    );
    assert_eq!(
        swap.received
            .amount()
            .map(core_domain::num::fiat)
            .as_deref(),
        Some("4650.00")
    );
    assert_eq!(swap.winner, Some(core_domain::engine::SwapWinner::Given));
    assert_eq!(
        outcome.slice("E:d3r3:P:0").transmission_provenance(),
        "MARKET"
    );
    assert_eq!(
        core_domain::testkit::money(outcome.operation("d3r3", "F").gross_value),
        "30.00"
    );
    check_slices(
        &outcome,
        &[
            S(
                "E:d3r3:P:0",
                "L:d3r2:0",
                "0.2",
                "5000.00",
                "30.00",
                "4000.00",
                "970.00",
                true,
            ),
            S(
                "E:d3r3:F:0",
                "L:d3r1:0",
                "0.1",
                "30.00",
                "0.00",
                "10.00",
                "20.00",
                true,
            ),
        ],
    );
    assert_eq!(outcome.slice("E:d3r3:P:0").net(), "4970.00");
    assert_eq!(outcome.slice("E:d3r3:P:0").clave(), "N");
    assert_eq!(outcome.slice("E:d3r3:F:0").net(), "30.00");
    assert_eq!(outcome.slice("E:d3r3:F:0").clave(), "B");
    check_lots(
        &outcome,
        &[
            L("L:d3r1:0", "BNB", "1", "0.9", "100.00", "90.00", "PARTIAL"),
            L(
                "L:d3r2:0", "BTC", "0.5", "0.3", "10000.00", "6000.00", "PARTIAL",
            ),
            L(
                "L:d3r3:0", "USDT", "5000", "5000", "5000.00", "5000.00", "OPEN",
            ),
        ],
    );
}

#[test]
fn d3_swap_into_a_listed_non_currency_asset_is_clave_o() {
    let outcome = Ledger::new()
        .row(
            buy("d3r2", "Binance", "2023-01-02T11:00:00Z")
                .inflow("0.5", "BTC")
                .outflow("10000", "EUR"),
        )
        .row(
            swap("d3r3", "Binance", "2023-01-03T12:00:00Z")
                .inflow("1", "NFTX")
                .outflow("0.2", "BTC"),
        )
        .price("2023-01-03", "BTC", "25000", "EUR")
        .non_currency_asset("NFTX")
        .run();
    assert_eq!(outcome.slice("E:d3r3:P:0").clave(), "O");
}

#[test]
fn d4_received_leg_wins_one_leg_unpriced() {
    let outcome = Ledger::new()
        .row(
            buy("d4r1", "Bitvavo", "2024-03-01T10:00:00Z")
                .inflow("2", "ETH")
                .outflow("3000", "EUR"),
        )
        .row(
            swap("d4r2", "Bitvavo", "2024-03-15T10:00:00Z")
                .inflow("0.05", "BTC")
                .outflow("1", "ETH"),
        )
        .row(
            swap("d4r3", "Bitvavo", "2024-05-10T10:00:00Z")
                .inflow("1000", "NEWT")
                .outflow("1", "ETH"),
        )
        .price("2024-03-15", "ETH", "3200", "EUR")
        .price("2024-03-15", "BTC", "65603.54", "EUR")
        .price("2024-05-10", "ETH", "2800", "EUR")
        .run();
    let d4r2 = outcome
        .operation("d4r2", "P")
        .swap
        .as_deref()
        .expect("swap");
    assert_eq!(
        d4r2.given.amount().map(core_domain::num::fiat).as_deref(),
        Some("3200.00")
    );
    assert_eq!(
        d4r2.received
            .amount()
            .map(core_domain::num::fiat)
            .as_deref(),
        Some("3280.18")
    );
    assert_eq!(d4r2.winner, Some(core_domain::engine::SwapWinner::Received));
    let d4r3 = outcome.operation("d4r3", "P");
    assert_eq!(d4r3.swap.as_deref().expect("swap").received.amount(), None);
    assert!(d4r3.flags.is_empty(), "no flag when one leg is known");
    check_slices(
        &outcome,
        &[
            S(
                "E:d4r2:P:0",
                "L:d4r1:0",
                "1",
                "3280.18",
                "0.00",
                "1500.00",
                "1780.18",
                true,
            ),
            S(
                "E:d4r3:P:0",
                "L:d4r1:0",
                "1",
                "2800.00",
                "0.00",
                "1500.00",
                "1300.00",
                true,
            ),
        ],
    );
    check_lots(
        &outcome,
        &[
            L(
                "L:d4r2:0", "BTC", "0.05", "0.05", "3280.18", "3280.18", "OPEN",
            ),
            L("L:d4r1:0", "ETH", "2", "0", "3000.00", "0.00", "CLOSED"),
            L(
                "L:d4r3:0", "NEWT", "1000", "1000", "2800.00", "2800.00", "OPEN",
            ),
        ],
    );
    assert_eq!(outcome.lot("L:d4r3:0").flags(), "");
}

#[test]
fn d5_global_fifo_across_accounts_with_a_network_fee() {
    let outcome = core_domain::testkit::examples::d5()
        .price("2023-03-10", "BTC", "35000", "EUR")
        .run();
    check_slices(
        &outcome,
        &[
            S(
                "E:d5r3:F:0",
                "L:d5r1:0",
                "0.0001",
                "3.50",
                "0.00",
                "2.00",
                "1.50",
                true,
            ),
            S(
                "E:d5r5:P:0",
                "L:d5r1:0",
                "0.9999",
                "39996.00",
                "0.00",
                "19998.00",
                "19998.00",
                true,
            ),
            S(
                "E:d5r5:P:1",
                "L:d5r2:0",
                "0.2001",
                "8004.00",
                "0.00",
                "6003.00",
                "2001.00",
                true,
            ),
        ],
    );
    assert_eq!(outcome.slice("E:d5r3:F:0").clave(), "B");
    check_lots(
        &outcome,
        &[
            L("L:d5r1:0", "BTC", "1", "0", "20000.00", "0.00", "CLOSED"),
            L(
                "L:d5r2:0", "BTC", "1", "0.7999", "30000.00", "23997.00", "PARTIAL",
            ),
        ],
    );
    assert_eq!(outcome.lot("L:d5r2:0").account(), "Bitvavo");
}

#[test]
fn d6_disposals_without_cover() {
    let outcome = core_domain::testkit::examples::d6().run();
    check_slices(
        &outcome,
        &[
            S(
                "E:d6r2:P:0",
                "L:d6r1:0",
                "1.5",
                "3750.00",
                "0.00",
                "3000.00",
                "750.00",
                true,
            ),
            S(
                "E:d6r2:P:1",
                "uncovered",
                "0.5",
                "1250.00",
                "0.00",
                "unknown",
                "unknown",
                false,
            ),
            S(
                "E:d6r3:P:0",
                "uncovered",
                "1",
                "2600.00",
                "0.00",
                "unknown",
                "unknown",
                false,
            ),
        ],
    );
    assert_eq!(outcome.slice("E:d6r2:P:1").flags(), "MISSING_ACQUISITION");
    assert_eq!(outcome.slice("E:d6r2:P:0").flags(), "");
    assert_eq!(outcome.slice("E:d6r3:P:0").flags(), "MISSING_ACQUISITION");
    check_lots(
        &outcome,
        &[
            L("L:d6r1:0", "ETH", "1.5", "0", "3000.00", "0.00", "CLOSED"),
            L("L:d6r4:0", "ETH", "1", "1", "2500.00", "2500.00", "OPEN"),
        ],
    );
}

#[test]
fn d7_same_instant_acquisitions_first_ties_by_seq() {
    let outcome = Ledger::new()
        .row(
            sell("d7r1", "Kraken", "2024-06-01T12:00:00Z")
                .inflow("12000", "EUR")
                .outflow("0.4", "BTC")
                .seq(1),
        )
        .row(
            buy("d7r2", "Kraken", "2024-06-01T12:00:00Z")
                .inflow("0.3", "BTC")
                .outflow("8700", "EUR")
                .seq(2),
        )
        .row(
            buy("d7r3", "Kraken", "2024-06-01T12:00:00Z")
                .inflow("0.3", "BTC")
                .outflow("8790", "EUR")
                .seq(3),
        )
        .run();
    check_slices(
        &outcome,
        &[
            S(
                "E:d7r1:P:0",
                "L:d7r2:0",
                "0.3",
                "9000.00",
                "0.00",
                "8700.00",
                "300.00",
                true,
            ),
            S(
                "E:d7r1:P:1",
                "L:d7r3:0",
                "0.1",
                "3000.00",
                "0.00",
                "2930.00",
                "70.00",
                true,
            ),
        ],
    );
    check_lots(
        &outcome,
        &[
            L("L:d7r2:0", "BTC", "0.3", "0", "8700.00", "0.00", "CLOSED"),
            L(
                "L:d7r3:0", "BTC", "0.3", "0.2", "8790.00", "5860.00", "PARTIAL",
            ),
        ],
    );
}

#[test]
fn d8_income_types_and_a_fork() {
    let outcome = Ledger::new()
        .row(
            airdrop("d8r1", "Coinbase", "2020-09-17T10:00:00Z")
                .inflow("400", "UNI")
                .stated_value("1200.00", "EUR"),
        )
        .row(
            promotion("d8r2", "Bitvavo", "2020-10-01T10:00:00Z")
                .inflow("100", "ADA")
                .stated_value("8.50", "EUR"),
        )
        .row(
            reward("d8r3", "Nexo", "2020-11-01T10:00:00Z")
                .inflow("0.5", "ETH")
                .stated_value("195.00", "EUR"),
        )
        .row(
            fork("d8r5", "Ledger", "2020-11-15T10:00:00Z")
                .inflow("2", "XYZ")
                .seq(5),
        )
        .row(
            mining("d8r4", "Rig", "2020-12-01T10:00:00Z")
                .inflow("0.01", "BTC")
                .seq(4),
        )
        .row(
            sell("d8r6", "Kraken", "2020-12-15T10:00:00Z")
                .inflow("50", "EUR")
                .outflow("2", "XYZ")
                .seq(6),
        )
        .price("2020-12-01", "BTC", "15950.40", "EUR")
        .run();
    let receipts: Vec<(String, &str, String, String)> = outcome
        .output
        .income
        .iter()
        .map(|r| {
            (
                outcome.input.row_key(r.row).unwrap().to_string(),
                r.bucket.as_str(),
                core_domain::testkit::money(r.value.amount()),
                r.fiscal_date.to_string(),
            )
        })
        .collect();
    let expected = [
        ("d8r1", "GENERAL_GP", "1200.00", "2020-09-17"),
        ("d8r2", "GENERAL_GP", "8.50", "2020-10-01"),
        ("d8r3", "RCM", "195.00", "2020-11-01"),
        ("d8r4", "ACTIVITY", "159.50", "2020-12-01"),
    ];
    let expected: Vec<(String, &str, String, String)> = expected
        .iter()
        .map(|(k, b, v, d)| ((*k).to_owned(), *b, (*v).to_owned(), (*d).to_owned()))
        .collect();
    assert_eq!(receipts, expected);
    let mining_value = outcome.income("d8r4").value;
    assert!(matches!(
        mining_value,
        core_domain::engine::Valued::Known {
            provenance: core_domain::engine::Provenance::Market,
            ..
        }
    ));
    assert_eq!(outcome.lot("L:d8r1:0").acquisition_value(), "1200.00");
    assert_eq!(outcome.lot("L:d8r2:0").acquisition_value(), "8.50");
    assert_eq!(outcome.lot("L:d8r3:0").acquisition_value(), "195.00");
    assert_eq!(outcome.lot("L:d8r4:0").acquisition_value(), "159.50");
    assert_eq!(outcome.lot("L:d8r4:0").provenance(), "MARKET");
    let forked = outcome.lot("L:d8r5:0");
    assert_eq!(forked.acquisition_value(), "0.00");
    assert_eq!(forked.provenance(), "STATED");
    assert!(outcome.find_income("d8r5").is_none());
    check_slices(
        &outcome,
        &[S(
            "E:d8r6:P:0",
            "L:d8r5:0",
            "2",
            "50.00",
            "0.00",
            "0.00",
            "50.00",
            true,
        )],
    );
    assert_eq!(outcome.slice("E:d8r6:P:0").clave(), "F");
}

#[test]
fn d9_migration_carries_lots() {
    let outcome = Ledger::new()
        .row(
            buy("d9r1", "Binance", "2019-03-01T10:00:00Z")
                .inflow("1000", "LEND")
                .outflow("200", "EUR"),
        )
        .row(
            buy("d9r2", "Binance", "2019-06-01T10:00:00Z")
                .inflow("500", "LEND")
                .outflow("250", "EUR"),
        )
        .row(
            migration("d9r3", "Binance", "2020-10-05T10:00:00Z")
                .inflow("15", "AAVE")
                .outflow("1500", "LEND"),
        )
        .row(
            sell("d9r4", "Binance", "2021-01-15T10:00:00Z")
                .inflow("3000", "EUR")
                .outflow("12", "AAVE"),
        )
        .run();
    check_slices(
        &outcome,
        &[
            S(
                "E:d9r3:M:0",
                "L:d9r1:0",
                "1000",
                "unknown",
                "unknown",
                "200.00",
                "unknown",
                false,
            ),
            S(
                "E:d9r3:M:1",
                "L:d9r2:0",
                "500",
                "unknown",
                "unknown",
                "250.00",
                "unknown",
                false,
            ),
            S(
                "E:d9r4:P:0",
                "L:d9r3:1",
                "10",
                "2500.00",
                "0.00",
                "200.00",
                "2300.00",
                true,
            ),
            S(
                "E:d9r4:P:1",
                "L:d9r3:2",
                "2",
                "500.00",
                "0.00",
                "100.00",
                "400.00",
                true,
            ),
        ],
    );
    assert_eq!(outcome.slice("E:d9r3:M:0").clave(), "-");
    check_lots(
        &outcome,
        &[
            L("L:d9r3:1", "AAVE", "10", "0", "200.00", "0.00", "CLOSED"),
            L("L:d9r3:2", "AAVE", "5", "3", "250.00", "150.00", "PARTIAL"),
            L("L:d9r1:0", "LEND", "1000", "0", "200.00", "0.00", "CLOSED"),
            L("L:d9r2:0", "LEND", "500", "0", "250.00", "0.00", "CLOSED"),
        ],
    );
    let carried = outcome.lot("L:d9r3:1");
    assert_eq!(carried.acquired_on(), "2019-03-01");
    assert_eq!(carried.acquired_at(), "2019-03-01T10:00:00Z");
    assert_eq!(carried.carried_from().as_deref(), Some("L:d9r1:0"));
    assert_eq!(carried.provenance(), "STATED");
    assert_eq!(outcome.lot("L:d9r3:2").acquired_on(), "2019-06-01");
}

fn d10_ledger() -> Ledger {
    Ledger::new()
        .row(
            buy("d10r2", "Kraken", "2024-01-05T10:00:00Z")
                .inflow("1", "BTC")
                .seq(1),
        )
        .row(
            buy("d10r1", "Kraken", "2024-01-10T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR")
                .fee("10", "EUR")
                .seq(2),
        )
        .row(
            buy("d10r3", "Kraken", "2024-02-01T10:00:00Z")
                .inflow("0.5", "BTC")
                .outflow("20000", "EUR")
                .seq(3),
        )
        .row(
            sell("d10r4", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("25000", "EUR")
                .outflow("0.5", "BTC")
                .seq(4),
        )
        .edit(edit("d10r2").value("43000", "EUR"))
        .edit(edit("d10r1").price("42000", "EUR"))
        .edit(edit("d10r3").instant("2024-01-01T10:00:00Z"))
}

#[test]
fn d10_edits() {
    let outcome = d10_ledger().run();
    let r2 = outcome.lot("L:d10r2:0");
    assert_eq!(
        (r2.acquisition_value(), r2.provenance()),
        ("43000.00".to_owned(), "MANUAL")
    );
    let r1 = outcome.lot("L:d10r1:0");
    assert_eq!(
        (r1.acquisition_value(), r1.provenance()),
        ("42010.00".to_owned(), "MANUAL")
    );
    assert_eq!(outcome.lot("L:d10r3:0").acquisition_value(), "20000.00");
    assert_eq!(
        outcome.lot_ids(),
        ["L:d10r3:0", "L:d10r2:0", "L:d10r1:0"],
        "d10r3 is the oldest lot"
    );
    check_slices(
        &outcome,
        &[S(
            "E:d10r4:P:0",
            "L:d10r3:0",
            "0.5",
            "25000.00",
            "0.00",
            "20000.00",
            "5000.00",
            true,
        )],
    );
}

#[test]
fn d10_restoring_the_instant_edit() {
    let outcome = d10_ledger().restore("d10r3").run();
    check_slices(
        &outcome,
        &[S(
            "E:d10r4:P:0",
            "L:d10r2:0",
            "0.5",
            "25000.00",
            "0.00",
            "21500.00",
            "3500.00",
            true,
        )],
    );
    assert_eq!(outcome.lot("L:d10r3:0").remaining(), "0.5");
    assert_eq!(outcome.lot("L:d10r2:0").remaining_cost(), "21500.00");
}

#[test]
fn d11_allocation_remainders() {
    let outcome = Ledger::new()
        .row(
            buy("d11r1", "Kraken", "2024-01-01T10:00:00Z")
                .inflow("3", "SOL")
                .outflow("100", "EUR"),
        )
        .row(
            sell("d11r2", "Kraken", "2024-02-01T10:00:00Z")
                .inflow("40", "EUR")
                .outflow("1", "SOL"),
        )
        .row(
            sell("d11r3", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("40", "EUR")
                .outflow("1", "SOL"),
        )
        .row(
            sell("d11r4", "Kraken", "2024-04-01T10:00:00Z")
                .inflow("40", "EUR")
                .outflow("1", "SOL"),
        )
        .run();
    check_slices(
        &outcome,
        &[
            S(
                "E:d11r2:P:0",
                "L:d11r1:0",
                "1",
                "40.00",
                "0.00",
                "33.33",
                "6.67",
                true,
            ),
            S(
                "E:d11r3:P:0",
                "L:d11r1:0",
                "1",
                "40.00",
                "0.00",
                "33.34",
                "6.66",
                true,
            ),
            S(
                "E:d11r4:P:0",
                "L:d11r1:0",
                "1",
                "40.00",
                "0.00",
                "33.33",
                "6.67",
                true,
            ),
        ],
    );
    check_lots(
        &outcome,
        &[L("L:d11r1:0", "SOL", "3", "0", "100.00", "0.00", "CLOSED")],
    );
}

#[test]
fn d12_fiscal_parts_of_the_data_quality_example() {
    // The same rows the custody examples replay.
    let outcome = crate::custody_examples::d12();
    let ada = outcome.lot("L:d12r5:0");
    assert_eq!(
        (ada.acquisition_value(), ada.provenance(), ada.flags()),
        ("28.00".to_owned(), "MARKET", "CURRENCY_MISMATCH".to_owned())
    );
    assert!(!ada.lot.flags.is_blocking());
    let xrp = outcome.lot("L:d12r6:0");
    assert_eq!(
        (xrp.acquisition_value(), xrp.flags()),
        ("-0.10".to_owned(), "NEGATIVE_COST_BASIS".to_owned())
    );
    assert_eq!(xrp.lot.known_cost(), None);
    let usd = outcome.lot("L:d12r7:0");
    assert_eq!(
        (usd.acquisition_value(), usd.flags()),
        ("unknown".to_owned(), "MISSING_FX_RATE".to_owned())
    );
    assert!(outcome.output.slices.is_empty(), "no fiscal slice exists");
    assert_eq!(
        outcome.lot_ids(),
        ["L:d12r5:0", "L:d12r7:0", "L:d12r1:0", "L:d12r6:0"]
    );
}

#[test]
fn d13_derivative_results() {
    let outcome = Ledger::new()
        .future(
            future(
                "f1",
                "Kraken:futures",
                FuturesKind::Trade,
                "BTCUSD-PERP",
                "2024-05-10T14:00:00Z",
            )
            .settle("USD")
            .pnl("1200")
            .fee("15", "USD"),
        )
        .future(
            future(
                "f2",
                "Kraken:futures",
                FuturesKind::FundingFee,
                "BTCUSD-PERP",
                "2024-05-10T16:00:00Z",
            )
            .settle("USD")
            .funding("-35.50"),
        )
        .future(
            future(
                "f3",
                "Kraken:futures",
                FuturesKind::Trade,
                "ETHUSDT-PERP",
                "2024-09-02T09:00:00Z",
            )
            .settle("USDT")
            .pnl("-400")
            .fee("2", "USDT"),
        )
        .rate("2024-05-10", "USD", "1.0779")
        .price("2024-09-02", "USDT", "0.904", "EUR")
        .run();
    let net = |key: &str| core_domain::testkit::money(outcome.derivative(key).net);
    assert_eq!(net("f1"), "1099.36");
    assert_eq!(net("f2"), "-32.93");
    assert_eq!(net("f3"), "-363.41");
    let keys: Vec<String> = outcome
        .output
        .derivatives
        .iter()
        .map(|d| outcome.input.futures[d.row as usize].row_key.to_string())
        .collect();
    assert_eq!(keys, ["f1", "f2", "f3"]);
    assert!(
        outcome
            .output
            .derivatives
            .iter()
            .all(|d| d.flags.is_empty())
    );
}

#[test]
fn d13_missing_conversions_leave_the_result_unknown() {
    let outcome = Ledger::new()
        .future(
            future(
                "f1",
                "K",
                FuturesKind::Trade,
                "BTCUSD-PERP",
                "2024-05-10T14:00:00Z",
            )
            .settle("USD")
            .pnl("1200"),
        )
        .future(
            future(
                "f3",
                "K",
                FuturesKind::Trade,
                "ETHUSDT-PERP",
                "2024-09-02T09:00:00Z",
            )
            .settle("USDT")
            .pnl("-400"),
        )
        .run();
    assert_eq!(outcome.derivative("f1").net, None);
    assert_eq!(
        core_domain::testkit::flags(outcome.derivative("f1").flags),
        "MISSING_FX_RATE"
    );
    assert_eq!(
        core_domain::testkit::flags(outcome.derivative("f3").flags),
        "MISSING_PRICE"
    );
}

#[test]
fn carried_lots_keep_their_historic_fifo_position_in_a_busy_queue() {
    let outcome = Ledger::new()
        .row(
            buy("m0", "Binance", "2019-03-01T10:00:00Z")
                .inflow("100", "LEND")
                .outflow("50", "EUR"),
        )
        .row(
            buy("a1", "Binance", "2020-01-01T10:00:00Z")
                .inflow("5", "AAVE")
                .outflow("100", "EUR"),
        )
        .row(
            sell("a2", "Binance", "2020-02-01T10:00:00Z")
                .inflow("150", "EUR")
                .outflow("5", "AAVE"),
        )
        .row(
            buy("a3", "Binance", "2020-06-01T10:00:00Z")
                .inflow("5", "AAVE")
                .outflow("200", "EUR"),
        )
        .row(
            migration("m1", "Binance", "2020-10-05T10:00:00Z")
                .inflow("1", "AAVE")
                .outflow("100", "LEND"),
        )
        .row(
            sell("a4", "Binance", "2020-11-01T10:00:00Z")
                .inflow("100", "EUR")
                .outflow("2", "AAVE"),
        )
        .run();
    check_lots(
        &outcome,
        &[
            L("L:m1:1", "AAVE", "1", "0", "50.00", "0.00", "CLOSED"),
            L("L:a1:0", "AAVE", "5", "0", "100.00", "0.00", "CLOSED"),
            L("L:a3:0", "AAVE", "5", "4", "200.00", "160.00", "PARTIAL"),
            L("L:m0:0", "LEND", "100", "0", "50.00", "0.00", "CLOSED"),
        ],
    );
    check_slices(
        &outcome,
        &[
            S(
                "E:a2:P:0", "L:a1:0", "5", "150.00", "0.00", "100.00", "50.00", true,
            ),
            S(
                "E:m1:M:0", "L:m0:0", "100", "unknown", "unknown", "50.00", "unknown", false,
            ),
            S(
                "E:a4:P:0", "L:m1:1", "1", "50.00", "0.00", "50.00", "0.00", true,
            ),
            S(
                "E:a4:P:1", "L:a3:0", "1", "50.00", "0.00", "40.00", "10.00", true,
            ),
        ],
    );
}
