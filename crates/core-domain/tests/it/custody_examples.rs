//! Custody parts of the worked examples (`domain.md` §17 D-5, D-12), asserted verbatim.

use core_domain::custody::{CustodyOutput, allocate, holdings_at};
use core_domain::num;
use core_domain::testkit::{Ledger, Outcome, buy, transfer_in, transfer_out};
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
    core_domain::testkit::examples::d5()
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

// ---- §16 item 7: transfers are fiscally neutral ----------------------------------------------

mod neutrality {
    use core_domain::custody::allocate;
    use core_domain::num;
    use core_domain::overrides::CustodyLink;
    use core_domain::testkit::{
        Ledger, Outcome, RowSpec, buy, sell, staking, swap, transfer_in, transfer_out,
    };
    use proptest::prelude::*;

    const ACCOUNTS: &[&str] = &["Kraken", "Bitvavo", "Binance"];
    const ASSETS: &[&str] = &["BTC", "ETH"];
    const QUANTITIES: &[&str] = &["0.1", "0.25", "0.5", "1", "2"];

    /// A fiscal row: `(kind, account, asset, quantity, day, hour)`.
    type Fiscal = (u8, usize, usize, usize, u32, u32);
    /// A transfer leg: `(out?, account, asset, quantity, day, hour, group)`.
    type Leg = (bool, usize, usize, usize, u32, u32, Option<u8>);

    fn at(day: u32, hour: u32) -> String {
        format!("2024-03-{:02}T{hour:02}:00:00Z", day + 1)
    }

    fn fiscal_spec(i: usize, f: &Fiscal, account_shift: usize) -> RowSpec {
        let &(kind, account, a, q, day, hour) = f;
        let key = format!("f{i}");
        let account = ACCOUNTS[(account + account_shift) % ACCOUNTS.len()];
        let (asset, other, qty) = (ASSETS[a], ASSETS[1 - a], QUANTITIES[q]);
        let when = at(day, hour);
        let spec = match kind {
            0 | 1 => buy(&key, account, &when)
                .inflow(qty, asset)
                .outflow("1000", "EUR"),
            2 => sell(&key, account, &when)
                .inflow("900", "EUR")
                .outflow(qty, asset),
            3 => swap(&key, account, &when)
                .inflow(QUANTITIES[(q + 2) % QUANTITIES.len()], other)
                .outflow(qty, asset),
            _ => staking(&key, account, &when).inflow(qty, asset),
        };
        // Fiscal rows keep their seq whatever transfers are added around them.
        spec.seq(i as u64 * 10 + 10)
    }

    fn leg_spec(index: usize, leg: &Leg) -> RowSpec {
        let &(out, account, a, q, day, hour, group) = leg;
        let i = index;
        let key = format!("t{i}");
        let (account, asset, qty, when) =
            (ACCOUNTS[account], ASSETS[a], QUANTITIES[q], at(day, hour));
        let spec = if out {
            transfer_out(&key, account, &when).outflow(qty, asset)
        } else {
            transfer_in(&key, account, &when).inflow(qty, asset)
        };
        let spec = spec.seq(i as u64 * 10 + 5);
        match group {
            Some(id) => spec.group(&format!("g{id}")),
            None => spec,
        }
    }

    fn ledger(fiscal: &[Fiscal], legs: &[Leg], account_shift: usize) -> Outcome {
        let mut ledger = Ledger::new();
        for day in 0..6 {
            let on = format!("2024-03-{:02}", day + 1);
            ledger = ledger.price(&on, "BTC", &format!("{}", 60000 + day * 500), "EUR");
            if day % 2 == 0 {
                ledger = ledger.price(&on, "ETH", "3000", "EUR");
            }
        }
        for (i, f) in fiscal.iter().enumerate() {
            ledger.push(fiscal_spec(i, f, account_shift));
        }
        for (i, l) in legs.iter().enumerate() {
            ledger.push(leg_spec(i, l));
        }
        ledger.run()
    }

    /// Every fiscal record, account-free and by public id.
    fn fingerprint(outcome: &Outcome) -> Vec<String> {
        let input = &outcome.input;
        let output = &outcome.output;
        let money = |v: Option<rust_decimal::Decimal>| v.map_or("?".to_owned(), num::fiat);
        let mut lines: Vec<String> = output
            .lots
            .iter()
            .map(|l| {
                format!(
                    "lot {} {} {} {} {} {} {:?} {:?}",
                    input.lot_public_id(l.lot_id),
                    l.asset,
                    num::quantity(l.original_quantity),
                    num::quantity(l.remaining_quantity),
                    money(l.acquisition_value),
                    money(l.remaining_cost),
                    l.flags,
                    l.provenance
                )
            })
            .collect();
        lines.extend(output.slices.iter().map(|s| {
            format!(
                "slice {} {} {} {} {} {} {} {} {:?}",
                input.slice_public_id(output, s),
                s.lot_id
                    .map_or("-".to_owned(), |id| input.lot_public_id(id)),
                num::quantity(s.quantity),
                money(s.gross_value()),
                money(s.fee_expense()),
                money(s.acquisition_value()),
                money(s.result()),
                s.included,
                s.flags
            )
        }));
        lines.extend(output.income.iter().map(|r| {
            format!(
                "income {} {} {:?}",
                input.row_key(r.row).unwrap(),
                money(r.value.amount()),
                r.flags
            )
        }));
        lines
    }

    fn fiscal_row() -> impl Strategy<Value = Fiscal> {
        (
            0u8..5,
            0..ACCOUNTS.len(),
            0..ASSETS.len(),
            0..QUANTITIES.len(),
            0u32..6,
            0u32..24,
        )
    }

    fn transfer_leg() -> impl Strategy<Value = Leg> {
        (
            any::<bool>(),
            0..ACCOUNTS.len(),
            0..ASSETS.len(),
            0..QUANTITIES.len(),
            0u32..6,
            0u32..24,
            proptest::option::weighted(0.3, 0u8..3),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn transfers_accounts_groups_and_links_change_no_fiscal_figure(
            fiscal in proptest::collection::vec(fiscal_row(), 1..14),
            legs in proptest::collection::vec(transfer_leg(), 0..10),
            shift in 1usize..3,
        ) {
            let base = fingerprint(&ledger(&fiscal, &[], 0));
            let with_transfers = ledger(&fiscal, &legs, 0);
            prop_assert_eq!(&base, &fingerprint(&with_transfers));
            let moved = ledger(&fiscal, &legs, shift);
            prop_assert_eq!(&base, &fingerprint(&moved));
            // Custody runs on every variant; a link between the first out and in legs of one
            // asset changes custody only.
            for outcome in [&with_transfers, &moved] {
                let plain = allocate(&outcome.input, &outcome.output, &outcome.accounts, &[]);
                prop_assert!(plain.is_ok());
                let out = legs.iter().position(|l| l.0);
                let inn = out.and_then(|o| legs.iter().position(|l| !l.0 && l.2 == legs[o].2));
                if let (Some(o), Some(i)) = (out, inn) {
                    let links = [CustodyLink::Link {
                        out_row_key: format!("t{o}"),
                        in_row_key: format!("t{i}"),
                    }];
                    let linked = allocate(&outcome.input, &outcome.output, &outcome.accounts, &links);
                    prop_assert!(linked.is_ok(), "{linked:?}");
                }
            }
        }
    }
}
