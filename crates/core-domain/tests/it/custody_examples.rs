//! Custody parts of the worked examples (`domain.md` §17 D-5, D-12), asserted verbatim.

use core_domain::custody::{CustodyOutput, allocate, holdings_at};
use core_domain::num;
use core_domain::testkit::{Ledger, Outcome, buy, sell, transfer_in, transfer_out};
use core_domain::{Date, FiscalTimezone};

pub(crate) fn custody(outcome: &Outcome) -> CustodyOutput {
    allocate(&outcome.input, &outcome.output, &outcome.accounts, &[]).unwrap()
}

/// Movements as `"<id> <basis> <from> -> <to> <qty> @<instant>"`.
pub(crate) fn movements(outcome: &Outcome, custody: &CustodyOutput) -> Vec<String> {
    custody
        .movements
        .iter()
        .map(|m| {
            format!(
                "{} {} {} -> {} {} @{}",
                m.movement_id(&outcome.input.rows),
                m.basis.as_str(),
                m.from.name(&outcome.accounts),
                m.to.name(&outcome.accounts),
                num::quantity(m.quantity),
                m.instant
            )
        })
        .collect()
}

/// Non-empty pieces as `"<asset> <account> <lot> <qty>"` (synthetic ones marked `*`).
pub(crate) fn pieces(outcome: &Outcome, rows: &[core_domain::custody::LocationRow]) -> Vec<String> {
    rows.iter()
        .map(|r| {
            format!(
                "{} {}{} {} {}",
                r.asset,
                r.account_name,
                if r.synthetic { "*" } else { "" },
                outcome.input.lot_public_id(r.lot_id),
                num::quantity(r.quantity)
            )
        })
        .collect()
}

/// Balances as `"<asset> <account> ledger=<l> custody=<c> gap=<g>"`.
pub(crate) fn balances(rows: &[core_domain::custody::CustodyBalance]) -> Vec<String> {
    rows.iter()
        .map(|b| {
            format!(
                "{} {} ledger={} custody={} gap={}",
                b.asset,
                b.account_name,
                num::quantity(b.ledger_balance),
                num::quantity(b.custody_quantity),
                num::quantity(b.gap)
            )
        })
        .collect()
}

pub(crate) fn d5() -> Outcome {
    Ledger::new()
        .row(
            buy("d5r1", "Kraken", "2023-01-10T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("20000", "EUR"),
        )
        .row(
            buy("d5r2", "Bitvavo", "2023-02-10T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("30000", "EUR"),
        )
        .row(
            transfer_out("d5r3", "Bitvavo", "2023-03-10T10:00:00Z")
                .outflow("0.5", "BTC")
                .fee("0.0001", "BTC"),
        )
        .row(transfer_in("d5r4", "Kraken", "2023-03-10T10:40:00Z").inflow("0.5", "BTC"))
        .row(
            sell("d5r5", "Kraken", "2023-04-10T10:00:00Z")
                .inflow("48000", "EUR")
                .outflow("1.2", "BTC"),
        )
        .price("2023-03-10", "BTC", "35000", "EUR")
        .run()
}

#[test]
fn d5_custody_auto_pairs_relocates_and_takes_per_account() {
    let outcome = d5();
    let c = custody(&outcome);
    assert_eq!(
        movements(&outcome, &c),
        ["M:d5r3 AUTO_PAIRED Bitvavo -> Kraken 0.5 @2023-03-10T10:40:00Z"]
    );
    let relocations: Vec<String> = c
        .relocations
        .iter()
        .map(|r| {
            format!(
                "{} {} {} -> {} {} @{}",
                outcome.input.lot_public_id(r.lot_id),
                c.movements[r.movement as usize].movement_id(&outcome.input.rows),
                r.from.name(&outcome.accounts),
                r.to.name(&outcome.accounts),
                num::quantity(r.quantity),
                r.instant
            )
        })
        .collect();
    assert_eq!(
        relocations,
        ["L:d5r2:0 M:d5r3 Bitvavo -> Kraken 0.5 @2023-03-10T10:40:00Z"]
    );
    assert_eq!(
        pieces(&outcome, &c.locations),
        ["BTC Bitvavo L:d5r2:0 0.4999", "BTC Kraken L:d5r2:0 0.3"]
    );
    assert_eq!(
        balances(&c.balances),
        [
            "BTC Bitvavo ledger=0.4999 custody=0.4999 gap=0",
            "BTC Kraken ledger=0.3 custody=0.3 gap=0",
        ]
    );
    let counts: Vec<(String, u32)> = outcome
        .output
        .lots
        .iter()
        .zip(&c.relocation_counts)
        .map(|(lot, n)| (outcome.input.lot_public_id(lot.lot_id), *n))
        .collect();
    assert_eq!(
        counts,
        [("L:d5r1:0".to_owned(), 0), ("L:d5r2:0".to_owned(), 1)]
    );
    // Total custody 0.7999 = fiscal remaining; no flag.
    let custody_total: rust_decimal::Decimal = c.locations.iter().map(|l| l.quantity).sum();
    let fiscal_total: rust_decimal::Decimal = outcome
        .output
        .lots
        .iter()
        .map(|l| l.remaining_quantity)
        .sum();
    assert_eq!(num::quantity(custody_total), "0.7999");
    assert_eq!(custody_total, fiscal_total);
    let rows = core_domain::quality::integrity_rows(
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &c,
    )
    .unwrap();
    assert!(rows.is_empty(), "{rows:?}");
}

#[test]
fn d5_holdings_at_the_end_of_the_transfer_day_and_before_it() {
    let outcome = d5();
    let tz = FiscalTimezone::EuropeMadrid;
    let on = |y, m, d| Date::from_ymd_opt(y, m, d).unwrap();
    let at = holdings_at(
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &[],
        on(2023, 3, 10),
        tz,
    )
    .unwrap();
    assert_eq!(
        pieces(&outcome, &at.locations),
        [
            "BTC Bitvavo L:d5r2:0 0.4999",
            "BTC Kraken L:d5r1:0 1",
            "BTC Kraken L:d5r2:0 0.5",
        ]
    );
    let lots: Vec<String> = at
        .lots
        .iter()
        .map(|l| {
            format!(
                "{} {}",
                outcome.input.lot_public_id(l.lot_id),
                num::quantity(l.quantity)
            )
        })
        .collect();
    assert_eq!(lots, ["L:d5r1:0 0.9999", "L:d5r2:0 1"]);
    let before = holdings_at(
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &[],
        on(2023, 3, 9),
        tz,
    )
    .unwrap();
    assert_eq!(
        balances(&before.balances),
        [
            "BTC Bitvavo ledger=1 custody=1 gap=0",
            "BTC Kraken ledger=1 custody=1 gap=0",
        ]
    );
    // After the sale the cut-off view equals the full replay.
    let end = holdings_at(
        &outcome.input,
        &outcome.output,
        &outcome.accounts,
        &[],
        on(2023, 12, 31),
        tz,
    )
    .unwrap();
    let full = custody(&outcome);
    assert_eq!(end.balances, full.balances);
    assert_eq!(end.locations, full.locations);
}

pub(crate) fn d12() -> Outcome {
    Ledger::new()
        .row(
            buy("d12r1", "Kraken", "2024-01-01T10:00:00Z")
                .inflow("2", "BTC")
                .outflow("60000", "EUR"),
        )
        .row(transfer_out("d12r2", "Kraken", "2024-02-01T10:00:00Z").outflow("1", "BTC"))
        .row(transfer_in("d12r3", "Bitvavo", "2024-03-01T10:00:00Z").inflow("0.3", "BTC"))
        .row(transfer_in("d12r4", "Bitvavo", "2024-03-02T10:00:00Z").inflow("0.5", "ETH"))
        .row(
            buy("d12r5", "Binance", "2024-04-02T10:00:00Z")
                .inflow("100", "ADA")
                .stated_value("30", "USDT"),
        )
        .row(
            buy("d12r6", "Kraken", "2024-04-03T10:00:00Z")
                .inflow("1", "XRP")
                .outflow("0.50", "EUR")
                .fee("-0.60", "EUR"),
        )
        .row(
            buy("d12r7", "Kraken", "2023-12-30T12:00:00Z")
                .inflow("0.01", "BTC")
                .stated_value("420.00", "USD"),
        )
        .row(
            core_domain::testkit::unknown(
                "d12r8",
                "Kraken",
                "2024-04-05T10:00:00Z",
                "dust_conversion",
            )
            .inflow("0.1", "BNB")
            .outflow("3", "ADA"),
        )
        .price("2024-04-02", "ADA", "0.28", "EUR")
        .rate("2024-01-02", "USD", "1.0956")
        .run()
}

#[test]
fn d12_custody_final_state() {
    let outcome = d12();
    let c = custody(&outcome);
    assert_eq!(
        movements(&outcome, &c),
        [
            "M:d12r2 UNPAIRED Kraken -> ownwallet-BTC 1 @2024-02-01T10:00:00Z",
            "M:d12r3 UNPAIRED ownwallet-BTC -> Bitvavo 0.3 @2024-03-01T10:00:00Z",
            "M:d12r4 UNPAIRED ownwallet-ETH -> Bitvavo 0.5 @2024-03-02T10:00:00Z",
        ]
    );
    let relocations: Vec<String> = c
        .relocations
        .iter()
        .map(|r| {
            format!(
                "{} {} -> {} {}",
                outcome.input.lot_public_id(r.lot_id),
                r.from.name(&outcome.accounts),
                r.to.name(&outcome.accounts),
                num::quantity(r.quantity)
            )
        })
        .collect();
    assert_eq!(
        relocations,
        [
            "L:d12r7:0 Kraken -> ownwallet-BTC 0.01",
            "L:d12r1:0 Kraken -> ownwallet-BTC 0.99",
            "L:d12r7:0 ownwallet-BTC -> Bitvavo 0.01",
            "L:d12r1:0 ownwallet-BTC -> Bitvavo 0.29",
        ]
    );
    assert_eq!(
        pieces(&outcome, &c.locations),
        [
            "ADA Binance L:d12r5:0 100",
            "BTC Bitvavo L:d12r7:0 0.01",
            "BTC Bitvavo L:d12r1:0 0.29",
            "BTC Kraken L:d12r1:0 1.01",
            "BTC ownwallet-BTC* L:d12r1:0 0.7",
            "XRP Kraken L:d12r6:0 1",
        ]
    );
    assert_eq!(
        balances(&c.balances),
        [
            "ADA Binance ledger=100 custody=100 gap=0",
            "BTC Bitvavo ledger=0.3 custody=0.3 gap=0",
            "BTC Kraken ledger=1.01 custody=1.01 gap=0",
            "BTC ownwallet-BTC ledger=0.7 custody=0.7 gap=0",
            "ETH Bitvavo ledger=0.5 custody=0 gap=0.5",
            "ETH ownwallet-ETH ledger=-0.5 custody=0 gap=-0.5",
            "XRP Kraken ledger=1 custody=1 gap=0",
        ]
    );
    assert!(c.fee_tolerance.is_empty(), "no crypto fee anywhere");
}
