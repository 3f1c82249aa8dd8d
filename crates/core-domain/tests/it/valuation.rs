//! Value precedence (`domain.md` §7.3), provenance (§7.4) and the fee rules of §8.4.

use core_domain::engine::Valued;
use core_domain::testkit::{
    Ledger, Outcome, buy, edit, fork, money, promotion, reward, sell, spend, staking, swap,
    transfer_out,
};

const DAY: &str = "2024-03-04T10:00:00Z";

/// A ledger whose market prices BTC at 50000 EUR and ETH at 2000 USD on 2024-03-04, with the
/// USD rate 1.0850 of that day.
fn market() -> Ledger {
    Ledger::new()
        .price("2024-03-04", "BTC", "50000", "EUR")
        .price("2024-03-04", "ETH", "2000", "USD")
        .rate("2024-03-04", "USD", "1.0850")
}

/// `(value, provenance, flags)` of the lot a row opened.
fn lot_of(outcome: &Outcome, row_key: &str) -> (String, String, String) {
    let lot = outcome.lot(&format!("L:{row_key}:0"));
    (
        lot.acquisition_value(),
        lot.provenance().to_owned(),
        lot.flags(),
    )
}

fn check(ledger: &Ledger, row_key: &str, expected: (&str, &str, &str)) {
    let outcome = ledger.run();
    let (value, provenance, flags) = lot_of(&outcome, row_key);
    assert_eq!(
        (value.as_str(), provenance.as_str(), flags.as_str()),
        expected,
        "{row_key}"
    );
}

fn base_buy() -> core_domain::testkit::RowSpec {
    buy("b", "Kraken", DAY)
        .inflow("0.1", "BTC")
        .outflow("4000", "EUR")
        .stated_value("4500", "EUR")
        .stated_price("46000", "EUR")
}

#[test]
fn consideration_sources_in_order() {
    // Edited value beats everything.
    check(
        &market()
            .row(base_buy())
            .edit(edit("b").value("4100", "EUR").price("47000", "EUR")),
        "b",
        ("4100.00", "MANUAL", ""),
    );
    // Edited price × quantity beats the fiat leg.
    check(
        &market()
            .row(base_buy())
            .edit(edit("b").price("47000", "EUR")),
        "b",
        ("4700.00", "MANUAL", ""),
    );
    // Fiat leg beats the stated value.
    check(&market().row(base_buy()), "b", ("4000.00", "STATED", ""));
    // Stated value beats the stated price.
    check(
        &market().row(
            buy("b", "Kraken", DAY)
                .inflow("0.1", "BTC")
                .stated_value("4500", "EUR")
                .stated_price("46000", "EUR"),
        ),
        "b",
        ("4500.00", "STATED", ""),
    );
    // Stated price × quantity beats the market.
    check(
        &market().row(
            buy("b", "Kraken", DAY)
                .inflow("0.1", "BTC")
                .stated_price("46000", "EUR"),
        ),
        "b",
        ("4600.00", "STATED", ""),
    );
    // The market last.
    check(
        &market().row(buy("b", "Kraken", DAY).inflow("0.1", "BTC")),
        "b",
        ("5000.00", "MARKET", ""),
    );
    // A price quoted in USD is converted with the rate of the operation's date.
    check(
        &market().row(staking("s", "Kraken", DAY).inflow("1", "ETH")),
        "s",
        ("1843.32", "MARKET_CONVERTED", ""),
    );
}

#[test]
fn clearing_a_statement_falls_through_to_the_next_source() {
    check(
        &market()
            .row(
                buy("b", "Kraken", DAY)
                    .inflow("0.1", "BTC")
                    .stated_value("4500", "EUR")
                    .stated_price("46000", "EUR"),
            )
            .edit(edit("b").clear_value().clear_price()),
        "b",
        ("5000.00", "MARKET", ""),
    );
}

#[test]
fn non_fiat_statements_are_skipped_with_currency_mismatch() {
    check(
        &market().row(
            buy("b", "Kraken", DAY)
                .inflow("0.1", "BTC")
                .stated_value("4500", "USDT")
                .stated_price("46000", "EUR"),
        ),
        "b",
        ("4600.00", "STATED", "CURRENCY_MISMATCH"),
    );
    // When the next source fails too, the subject also carries its blocking flag.
    check(
        &Ledger::new().row(
            staking("s", "Kraken", DAY)
                .inflow("1", "DOGE")
                .stated_value("1", "USDT"),
        ),
        "s",
        ("unknown", "unknown", "MISSING_PRICE,CURRENCY_MISMATCH"),
    );
}

#[test]
fn a_foreign_statement_without_a_rate_is_unknown_and_never_replaced_by_the_market() {
    check(
        &market().row(
            buy("b", "Kraken", "2024-03-04T10:00:00Z")
                .inflow("0.1", "BTC")
                .stated_value("4500", "JPY"),
        ),
        "b",
        ("unknown", "unknown", "MISSING_FX_RATE"),
    );
    // With a rate it is converted once, rounded to cents after the division.
    check(
        &market().row(
            buy("b", "Kraken", DAY)
                .inflow("0.1", "BTC")
                .stated_value("4500", "USD"),
        ),
        "b",
        ("4147.47", "STATED", ""),
    );
    let outcome = market()
        .row(
            buy("b", "Kraken", DAY)
                .inflow("0.1", "BTC")
                .stated_value("4500", "USD"),
        )
        .run();
    assert_eq!(
        outcome.lot("L:b:0").fx().as_deref(),
        Some("1.085@2024-03-04")
    );
}

#[test]
fn missing_price_versus_missing_rate() {
    // No candidate at all → MISSING_PRICE; a candidate in USD without any rate →
    // MISSING_FX_RATE.
    check(
        &Ledger::new().row(staking("s", "Kraken", DAY).inflow("1", "ETH")),
        "s",
        ("unknown", "unknown", "MISSING_PRICE"),
    );
    check(
        &Ledger::new()
            .price("2024-03-01", "ETH", "2000", "USD")
            .row(staking("s", "Kraken", DAY).inflow("1", "ETH")),
        "s",
        ("unknown", "unknown", "MISSING_FX_RATE"),
    );
}

#[test]
fn swap_legs_and_single_statement() {
    // A single stated value values both legs: equal legs, winner GIVEN.
    let outcome = market()
        .row(
            buy("b", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR"),
        )
        .row(
            swap("s", "Kraken", DAY)
                .outflow("0.1", "BTC")
                .inflow("2", "ETH")
                .stated_value("4800", "EUR"),
        )
        .run();
    let detail = outcome.operation("s", "P").swap.as_deref().expect("swap");
    assert_eq!(money(detail.given.amount()), "4800.00");
    assert_eq!(money(detail.received.amount()), "4800.00");
    assert_eq!(detail.winner, Some(core_domain::engine::SwapWinner::Given));
    assert_eq!(outcome.lot("L:s:0").acquisition_value(), "4800.00");
    // An edited price values the given leg only; the received leg falls to the market.
    let outcome = market()
        .row(
            buy("b", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR"),
        )
        .row(
            swap("s", "Kraken", DAY)
                .outflow("0.1", "BTC")
                .inflow("2", "ETH"),
        )
        .edit(edit("s").price("45000", "EUR"))
        .run();
    let detail = outcome.operation("s", "P").swap.as_deref().expect("swap");
    assert_eq!(money(detail.given.amount()), "4500.00");
    assert_eq!(money(detail.received.amount()), "3686.64");
    assert_eq!(outcome.slice("E:s:P:0").gross(), "4500.00");
    assert_eq!(outcome.slice("E:s:P:0").transmission_provenance(), "MANUAL");
    // Neither leg known: both the disposal and the new lot carry the flag.
    let outcome = Ledger::new()
        .row(
            buy("b", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("1", "AAA")
                .outflow("10", "EUR"),
        )
        .row(
            swap("s", "Kraken", DAY)
                .outflow("1", "AAA")
                .inflow("2", "BBB"),
        )
        .run();
    assert_eq!(outcome.slice("E:s:P:0").flags(), "MISSING_PRICE");
    assert!(!outcome.slice("E:s:P:0").included());
    assert_eq!(outcome.lot("L:s:0").flags(), "MISSING_PRICE");
    assert_eq!(
        outcome
            .operation("s", "P")
            .swap
            .as_deref()
            .expect("swap")
            .winner,
        None
    );
}

#[test]
fn fees_by_row_type() {
    // Crypto fee value: edited → stated → market.
    let crypto_fee = |ledger: Ledger| {
        let outcome = ledger
            .row(
                buy("b0", "Kraken", "2024-03-01T10:00:00Z")
                    .inflow("1", "BTC")
                    .outflow("40000", "EUR"),
            )
            .row(
                transfer_out("t", "Kraken", DAY)
                    .outflow("0.5", "BTC")
                    .fee("0.001", "BTC")
                    .stated_fee_value("45", "EUR"),
            )
            .run();
        outcome.slice("E:t:F:0").gross()
    };
    assert_eq!(crypto_fee(market()), "45.00");
    assert_eq!(
        crypto_fee(market().edit(edit("t").fee_value("44", "EUR"))),
        "44.00"
    );
    // A fiat fee in USD on a sale is converted and is the sale's fee expense.
    let outcome = market()
        .row(
            buy("b0", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR"),
        )
        .row(
            sell("s", "Kraken", DAY)
                .outflow("0.5", "BTC")
                .inflow("25000", "EUR")
                .fee("10.85", "USD"),
        )
        .run();
    assert_eq!(outcome.slice("E:s:P:0").fee_expense(), "10.00");
    assert_eq!(outcome.slice("E:s:P:0").result(), "4990.00");
    // A fiat rebate on a disposal raises the net transmission value.
    let outcome = market()
        .row(
            buy("b0", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR"),
        )
        .row(
            sell("s", "Kraken", DAY)
                .outflow("0.5", "BTC")
                .inflow("25000", "EUR")
                .fee("-5", "EUR"),
        )
        .run();
    assert_eq!(outcome.slice("E:s:P:0").net(), "25005.00");
    // A crypto fee on a BUY is a fee disposal whose value is added to the lot.
    let outcome = market()
        .row(
            buy("b0", "Kraken", "2024-03-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("40000", "EUR"),
        )
        .row(
            buy("b", "Kraken", DAY)
                .inflow("0.1", "BTC")
                .outflow("4000", "EUR")
                .fee("0.0001", "BTC"),
        )
        .run();
    assert_eq!(outcome.lot("L:b:0").acquisition_value(), "4005.00");
    assert_eq!(outcome.slice("E:b:F:0").gross(), "5.00");
    assert_eq!(outcome.slice("E:b:F:0").lot(), "L:b0:0");
    // An unknown crypto fee makes the BUY lot unknown with the same flag.
    let outcome = market()
        .row(
            buy("b", "Kraken", DAY)
                .inflow("0.1", "BTC")
                .outflow("4000", "EUR")
                .fee("3", "DOGE"),
        )
        .run();
    assert_eq!(outcome.lot("L:b:0").acquisition_value(), "unknown");
    assert_eq!(outcome.lot("L:b:0").flags(), "MISSING_PRICE");
    assert_eq!(
        outcome.slice("E:b:F:0").flags(),
        "MISSING_PRICE,MISSING_ACQUISITION"
    );
    // A fiat fee on an income row is recorded with no effect; a zero fee has no effect.
    let outcome = market()
        .row(
            staking("s", "Kraken", DAY)
                .inflow("0.01", "BTC")
                .fee("1", "EUR"),
        )
        .row(
            spend("p", "Kraken", DAY)
                .outflow("0.01", "BTC")
                .fee("0", "BTC"),
        )
        .run();
    assert_eq!(outcome.lot("L:s:0").acquisition_value(), "500.00");
    assert_eq!(outcome.slice_ids(), ["E:p:P:0"]);
    assert_eq!(outcome.slice("E:p:P:0").clave(), "B");
}

#[test]
fn fiat_income_fork_and_unknown_income() {
    let outcome = market()
        .row(reward("r", "Nexo", DAY).inflow("10.85", "USD"))
        .row(promotion("p", "Bitvavo", DAY).inflow("5", "EUR"))
        .edit(edit("p").value("6", "EUR"))
        .row(fork("f", "Ledger", DAY).inflow("3", "BCH"))
        .run();
    let reward = outcome.income("r");
    assert_eq!(money(reward.value.amount()), "10.00");
    assert!(matches!(reward.value, Valued::Known { fx: Some(_), .. }));
    assert_eq!(money(outcome.income("p").value.amount()), "6.00");
    assert!(outcome.find_lot("L:r:0").is_none(), "fiat never forms lots");
    assert_eq!(outcome.lot("L:f:0").acquisition_value(), "0.00");
    assert!(outcome.find_income("f").is_none());
}

#[test]
fn negative_cost_basis_is_kept_for_audit_and_blocks() {
    let outcome = market()
        .row(
            buy("b", "Kraken", DAY)
                .inflow("1", "XRP")
                .outflow("0.50", "EUR")
                .fee("-0.60", "EUR"),
        )
        .row(
            sell("s", "Kraken", "2024-03-05T10:00:00Z")
                .outflow("1", "XRP")
                .inflow("1", "EUR"),
        )
        .run();
    assert_eq!(outcome.lot("L:b:0").acquisition_value(), "-0.10");
    let slice = outcome.slice("E:s:P:0");
    assert_eq!(slice.acquisition_value(), "-0.10");
    assert_eq!(slice.flags(), "NEGATIVE_COST_BASIS");
    assert!(!slice.included());
    assert_eq!(slice.result(), "unknown");
}
