use std::collections::BTreeMap;

use proptest::prelude::*;
use rust_decimal::Decimal;

use super::{CarryItem, CarrySource, YearCompensation, compensate_year, run_years};
use crate::irpf::balances::YearBalances;
use crate::irpf::settings::{CarryKind, DeclaredCarryForward, IrpfSettings, validate};
use crate::num::fiat;

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn bal(t_sav: &str, t_gen: &str, r: &str, a: &str) -> YearBalances {
    YearBalances {
        t_sav: d(t_sav),
        t_gen: d(t_gen),
        r: d(r),
        a: d(a),
        ..YearBalances::default()
    }
}

fn run(
    balances: &[(i32, YearBalances)],
    settings: &IrpfSettings,
    start: i32,
    first: i32,
    last: i32,
) -> BTreeMap<i32, YearCompensation> {
    let map: BTreeMap<i32, YearBalances> = balances.iter().copied().collect();
    let valid = validate(settings, start).unwrap();
    run_years(&map, &valid, first, last).unwrap()
}

fn uses(c: &YearCompensation) -> Vec<String> {
    c.used
        .iter()
        .map(|u| {
            format!(
                "{} {} {} {} {}",
                u.origin_year,
                u.kind.as_str(),
                u.source.as_str(),
                u.nature.as_str(),
                fiat(u.amount)
            )
        })
        .collect()
}

/// `(base, G after, used, generated, remaining, expired)` as strings.
fn figures(c: &YearCompensation) -> [String; 6] {
    [
        fiat(c.savings_base_after),
        fiat(c.general_gains_after),
        fiat(c.used_total().unwrap()),
        fiat(c.generated_total().unwrap()),
        fiat(c.remaining_total().unwrap()),
        fiat(c.expired_total().unwrap()),
    ]
}

#[test]
fn i1_from_balances() {
    let all = run(
        &[
            (2013, bal("0", "-57.50", "0", "0")),
            (2014, bal("140.00", "196.00", "0", "0")),
        ],
        &IrpfSettings::default(),
        2013,
        2013,
        2014,
    );
    assert_eq!(
        figures(&all[&2013]),
        ["0.00", "0.00", "0.00", "57.50", "57.50", "0.00"]
    );
    assert!(all[&2013].general_absorption_unknown);
    assert_eq!(
        figures(&all[&2014]),
        ["140.00", "138.50", "57.50", "0.00", "0.00", "0.00"]
    );
    assert_eq!(uses(&all[&2014]), ["2013 GENERAL_GP LEDGER SAME 57.50"]);
}

#[test]
fn general_items_of_2013_and_2014_become_savings_items_from_2015_without_cross() {
    let all = run(
        &[
            (2013, bal("0", "-100.00", "0", "0")),
            (2015, bal("30.00", "0", "1000.00", "0")),
            (2016, bal("0", "0", "1000.00", "5.00")),
        ],
        &IrpfSettings::default(),
        2013,
        2013,
        2017,
    );
    assert_eq!(uses(&all[&2015]), ["2013 GENERAL_GP LEDGER SAME 30.00"]);
    assert_eq!(fiat(all[&2015].savings_base_after), "1000.00");
    // 2016: T_sav 0, and the item is not cross-eligible; G of 2016 is not its nature anymore.
    assert!(all[&2016].used.is_empty());
    assert_eq!(fiat(all[&2016].general_gains_after), "5.00");
    assert_eq!(
        figures(&all[&2017]),
        ["0.00", "0.00", "0.00", "0.00", "0.00", "70.00"]
    );
}

#[test]
fn negative_rcm_is_cross_compensated_against_transmissions() {
    let mut items = Vec::new();
    let c = compensate_year(2018, bal("200.00", "0", "-100.00", "0"), &mut items, None).unwrap();
    assert_eq!(fiat(c.current_year_cross_compensation), "50.00");
    assert_eq!(fiat(c.savings_base_after), "150.00");
    assert_eq!(c.generated[0].kind, CarryKind::SavingsRcm);
    assert_eq!(fiat(c.generated[0].amount), "50.00");
    // 2019: the RCM item takes cross room 25 % × 1000.00 against T_sav.
    let c = compensate_year(2019, bal("1000.00", "0", "0", "0"), &mut items, None).unwrap();
    assert_eq!(uses(&c), ["2018 SAVINGS_RCM LEDGER CROSS 50.00"]);
    assert_eq!(fiat(c.savings_base_after), "950.00");
}

#[test]
fn phase_one_and_older_items_share_one_cross_room() {
    let mut items = vec![CarryItem::new(
        2019,
        CarryKind::SavingsGp,
        d("500.00"),
        CarrySource::Declared,
    )];
    let c = compensate_year(2021, bal("-100.00", "0", "200.00", "0"), &mut items, None).unwrap();
    assert_eq!(fiat(c.current_year_cross_compensation), "50.00");
    assert!(c.used.is_empty(), "room 50.00 used up by phase 1");
    assert_eq!(fiat(c.savings_base_after), "150.00");
    assert_eq!(fiat(c.generated_total().unwrap()), "50.00");
    assert_eq!(fiat(c.remaining_total().unwrap()), "550.00");
}

#[test]
fn oldest_first_and_kind_order_within_a_year() {
    let mut items = vec![
        CarryItem::new(
            2019,
            CarryKind::GeneralGp,
            d("10.00"),
            CarrySource::Declared,
        ),
        CarryItem::new(
            2019,
            CarryKind::SavingsRcm,
            d("10.00"),
            CarrySource::Declared,
        ),
        CarryItem::new(
            2019,
            CarryKind::SavingsGp,
            d("100.00"),
            CarrySource::Declared,
        ),
        CarryItem::new(
            2018,
            CarryKind::SavingsGp,
            d("100.00"),
            CarrySource::Declared,
        ),
    ];
    let c = compensate_year(2020, bal("150.00", "0", "40.00", "3.00"), &mut items, None).unwrap();
    assert_eq!(
        uses(&c),
        [
            "2018 SAVINGS_GP DECLARED SAME 100.00",
            "2019 SAVINGS_GP DECLARED SAME 50.00",
            "2019 SAVINGS_RCM DECLARED SAME 10.00",
            "2019 GENERAL_GP DECLARED SAME 3.00",
            "2019 SAVINGS_GP DECLARED CROSS 10.00",
        ]
    );
    // Cross room is 25 % of R⁺ = 40.00 before any compensation: 10.00; R = 40 − 10 − 10.
    assert_eq!(fiat(c.savings_base_after), "20.00");
}

#[test]
fn years_without_rows_carry_the_state_and_items_expire_after_four_years() {
    let all = run(
        &[(2018, bal("-100.00", "0", "0", "0"))],
        &IrpfSettings::default(),
        2018,
        2018,
        2023,
    );
    for year in 2019..=2021 {
        assert_eq!(fiat(all[&year].remaining_total().unwrap()), "100.00");
    }
    assert_eq!(fiat(all[&2022].expired_total().unwrap()), "100.00");
    assert_eq!(fiat(all[&2022].remaining_total().unwrap()), "0.00");
    assert_eq!(fiat(all[&2023].expired_total().unwrap()), "0.00");
}

#[test]
fn years_before_start_are_computed_alone() {
    let settings = IrpfSettings {
        declared_carry_forwards: vec![DeclaredCarryForward {
            origin_year: 2019,
            kind: CarryKind::SavingsGp,
            amount: d("40.00"),
        }],
        ..IrpfSettings::default()
    };
    let all = run(
        &[
            (2019, bal("-500.00", "0", "0", "0")),
            (2020, bal("100.00", "0", "0", "0")),
        ],
        &settings,
        2020,
        2019,
        2020,
    );
    // 2019 is before start: its own item is generated but not carried into 2020.
    assert_eq!(fiat(all[&2019].generated_total().unwrap()), "500.00");
    assert_eq!(uses(&all[&2020]), ["2019 SAVINGS_GP DECLARED SAME 40.00"]);
    assert_eq!(fiat(all[&2020].savings_base_after), "60.00");
}

fn balance_strategy() -> impl Strategy<Value = YearBalances> {
    (-50_000i64..50_000, -2_000i64..20_000, 0i64..5_000).prop_map(|(t, r, a)| YearBalances {
        t_sav: Decimal::new(t, 2),
        r: Decimal::new(r, 2),
        a: Decimal::new(a, 2),
        ..YearBalances::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Items are never used after their fourth year nor beyond their amount, cross uses never
    /// exceed the year's percentage, and the base stays within its bounds.
    #[test]
    fn carry_forward_invariants(years in proptest::collection::vec(balance_strategy(), 1..9)) {
        let map: BTreeMap<i32, YearBalances> = (2015..).zip(years.iter().copied()).collect();
        let last = map.keys().last().copied().unwrap_or(2015);
        let valid = validate(&IrpfSettings::default(), 2015).unwrap();
        let all = run_years(&map, &valid, 2015, last).unwrap();
        let mut generated: BTreeMap<(i32, CarryKind), Decimal> = BTreeMap::new();
        let mut consumed: BTreeMap<(i32, CarryKind), Decimal> = BTreeMap::new();
        for (year, c) in &all {
            for g in &c.generated {
                generated.insert((g.origin_year, g.kind), g.amount);
            }
            let pct = super::cross_percentage(*year).unwrap();
            let b = c.balances;
            let r_plus = b.r.max(Decimal::ZERO);
            let t_plus = b.t_sav.max(Decimal::ZERO);
            let mut cross_from_r = Decimal::ZERO;
            let mut cross_from_t = Decimal::ZERO;
            if b.t_sav < Decimal::ZERO {
                cross_from_r += c.current_year_cross_compensation;
            } else {
                cross_from_t += c.current_year_cross_compensation;
            }
            for u in &c.used {
                prop_assert!(u.origin_year < *year && *year <= u.origin_year + 4);
                *consumed.entry((u.origin_year, u.kind)).or_default() += u.amount;
                if u.nature == super::Nature::Cross {
                    match u.kind {
                        CarryKind::SavingsGp => cross_from_r += u.amount,
                        _ => cross_from_t += u.amount,
                    }
                }
            }
            prop_assert!(cross_from_r <= crate::num::to_cents(pct * r_plus));
            prop_assert!(cross_from_t <= crate::num::to_cents(pct * t_plus));
            prop_assert!(c.savings_base_after >= Decimal::ZERO);
            prop_assert!(c.savings_base_after <= t_plus + r_plus);
        }
        for (key, used) in &consumed {
            prop_assert!(*used <= generated[key]);
        }
    }
}
