use proptest::prelude::*;
use rust_decimal::Decimal;

use super::*;
use crate::num::{OutputClass, format};

fn d(text: &str) -> Decimal {
    crate::num::parse_decimal("test", text, true).unwrap()
}

fn a(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap()
}

fn valued(symbol: &str, quantity: &str, value: &str) -> ScenarioHolding {
    ScenarioHolding {
        symbol: a(symbol),
        quantity: d(quantity),
        cost_basis: ScenarioCostBasis::Known(Decimal::ZERO),
        current_value: Some(d(value)),
    }
}

fn unvalued(symbol: &str, quantity: &str) -> ScenarioHolding {
    ScenarioHolding {
        symbol: a(symbol),
        quantity: d(quantity),
        cost_basis: ScenarioCostBasis::Unknown,
        current_value: None,
    }
}

fn fiat(v: Decimal) -> String {
    format(v, OutputClass::Fiat)
}

fn ratio(v: Decimal) -> String {
    format(v, OutputClass::Ratio)
}

fn show_position(result: PositionValue) -> String {
    match result {
        PositionValue::NotHeld => "NOT_HELD".to_owned(),
        PositionValue::EmptyPortfolio => "EMPTY_PORTFOLIO".to_owned(),
        PositionValue::Unvalued { position_value } => format!("UNVALUED {}", fiat(position_value)),
        PositionValue::Computed {
            position_value,
            delta_vs_current,
            implied_allocation_pct,
        } => format!(
            "COMPUTED {} / {} / {}",
            fiat(position_value),
            fiat(delta_vs_current),
            format(implied_allocation_pct, OutputClass::Percent)
        ),
    }
}

/// The position value is a market value in cents, so the printed delta is the difference of
/// the printed values: 3 × 33.335 = 100.005 → 100.01, delta 0.00 against a value of 100.01 (the
/// exact −0.005 printed as −0.01 before).
#[test]
fn position_value_is_cents_and_its_delta_the_printed_difference() {
    check_position(
        &[valued("BTC", "3", "100.01")],
        "BTC",
        "33.335",
        "COMPUTED 100.01 / 0.00 / 100.00",
    );
}

fn check_position(holdings: &[ScenarioHolding], symbol: &str, price: &str, expected: &str) {
    let out = position_value_at(holdings, a(symbol), d(price)).unwrap();
    assert_eq!(show_position(out), expected, "{symbol} at {price}");
}

#[test]
fn d15_position_value_at() {
    let both = [
        valued("BTC", "2", "100000.00"),
        valued("ETH", "10", "100000.00"),
    ];
    check_position(
        &both,
        "BTC",
        "70000",
        "COMPUTED 140000.00 / 40000.00 / 58.33",
    );
    check_position(
        &both,
        "BTC",
        "75000",
        "COMPUTED 150000.00 / 50000.00 / 60.00",
    );
    check_position(&both, "BTC", "0", "COMPUTED 0.00 / -100000.00 / 0.00");
    check_position(&both, "XYZ", "1", "NOT_HELD");
    let btc_unvalued = [unvalued("BTC", "2"), valued("ETH", "10", "100000.00")];
    check_position(&btc_unvalued, "BTC", "5", "UNVALUED 10.00");
    check_position(
        &[valued("BTC", "2", "100.00")],
        "BTC",
        "0",
        "EMPTY_PORTFOLIO",
    );
    assert_eq!(
        position_value_at(&both, a("BTC"), d("-1")),
        Err(ScenarioError::NegativePrice { price: d("-1") })
    );
}

#[test]
fn d15_breakeven() {
    let mut h = valued("BTC", "2", "100000.00");
    h.cost_basis = ScenarioCostBasis::Known(d("30000.00"));
    match breakeven_price(&[h], a("BTC")).unwrap() {
        Breakeven::Computed { avg_unit_cost } => {
            assert_eq!(format(avg_unit_cost, OutputClass::UnitPrice), "15000");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(breakeven_price(&[h], a("ETH")).unwrap(), Breakeven::NotHeld);
    h.cost_basis = ScenarioCostBasis::Unconvertible;
    assert_eq!(
        breakeven_price(&[h], a("BTC")).unwrap(),
        Breakeven::UnconvertibleCostBasis
    );
    h.cost_basis = ScenarioCostBasis::Unknown;
    assert_eq!(
        breakeven_price(&[h], a("BTC")).unwrap(),
        Breakeven::UnknownCostBasis
    );
    h.cost_basis = ScenarioCostBasis::Known(d("1"));
    h.quantity = Decimal::ZERO;
    assert_eq!(
        breakeven_price(&[h], a("BTC")).unwrap(),
        Breakeven::ZeroQuantity
    );
}

fn show_shock(result: &ShockResult) -> String {
    match result {
        ShockResult::EmptyPortfolio => "EMPTY_PORTFOLIO".to_owned(),
        ShockResult::Computed {
            assets,
            total_before,
            total_after,
            delta,
            unvalued_symbols,
            not_held,
        } => {
            let list: Vec<String> = assets
                .iter()
                .map(|x| format!("{} {}->{}", x.symbol, fiat(x.before), fiat(x.after)))
                .collect();
            format!(
                "[{}] {}->{} delta {} unvalued {:?} not_held {:?}",
                list.join(", "),
                fiat(*total_before),
                fiat(*total_after),
                fiat(*delta),
                unvalued_symbols,
                not_held
            )
        }
    }
}

fn check_shock(holdings: &[ScenarioHolding], shock: &Shock, expected: &str) {
    assert_eq!(show_shock(&apply_shock(holdings, shock).unwrap()), expected);
}

fn per_asset(entries: &[(&str, &str)]) -> Shock {
    Shock::PerAsset(entries.iter().map(|(s, p)| (a(s), d(p))).collect())
}

#[test]
fn d15_shocks() {
    let h = [valued("BTC", "1", "100.00"), valued("ETH", "1", "300.00")];
    check_shock(
        &h,
        &Shock::Uniform { pct: d("-50") },
        "[ETH 300.00->150.00, BTC 100.00->50.00] 400.00->200.00 delta -200.00 unvalued [] not_held []",
    );
    check_shock(
        &h,
        &per_asset(&[("BTC", "10")]),
        "[ETH 300.00->300.00, BTC 100.00->110.00] 400.00->410.00 delta 10.00 unvalued [] not_held []",
    );
    check_shock(
        &h,
        &per_asset(&[("XYZ", "5"), ("ETH", "-10")]),
        "[ETH 300.00->270.00, BTC 100.00->100.00] 400.00->370.00 delta -30.00 unvalued [] not_held [XYZ]",
    );
    check_shock(
        &h,
        &Shock::Uniform { pct: d("-100") },
        "[ETH 300.00->0.00, BTC 100.00->0.00] 400.00->0.00 delta -400.00 unvalued [] not_held []",
    );
    check_shock(
        &h,
        &Shock::Uniform { pct: d("1000") },
        "[ETH 300.00->3300.00, BTC 100.00->1100.00] 400.00->4400.00 delta 4000.00 unvalued [] not_held []",
    );
}

/// Issue 25: a −30 % shock of the demo portfolio listed 3702.68 + 2787.41 + 819.55 = 7309.64
/// against a total of 7309.65. The total is rounded once and split by the allocation rule.
#[test]
fn shocked_values_sum_to_the_shocked_total() {
    let h = [
        valued("BTC", "0.05965", "5289.54"),
        valued("DOT", "172.4643", "1170.79"),
        valued("ETH", "1.27149504", "3982.02"),
    ];
    check_shock(
        &h,
        &Shock::Uniform { pct: d("-30") },
        "[BTC 5289.54->3702.68, ETH 3982.02->2787.42, DOT 1170.79->819.55] 10442.35->7309.65 delta -3132.70 unvalued [] not_held []",
    );
    // A per-asset shock shocks each value on its own; the total is their sum.
    check_shock(
        &h,
        &per_asset(&[("BTC", "-30"), ("ETH", "-30"), ("DOT", "-30")]),
        "[BTC 5289.54->3702.68, ETH 3982.02->2787.41, DOT 1170.79->819.55] 10442.35->7309.64 delta -3132.71 unvalued [] not_held []",
    );
}

#[test]
fn shock_edges() {
    let h = [
        valued("BTC", "1", "100.00"),
        unvalued("SOL", "3"),
        valued("ETH", "1", "300.00"),
    ];
    // Last entry wins; a held-but-unvalued symbol is never not_held; repeats listed once.
    check_shock(
        &h,
        &per_asset(&[
            ("BTC", "50"),
            ("SOL", "10"),
            ("XYZ", "1"),
            ("BTC", "-20"),
            ("XYZ", "2"),
        ]),
        "[ETH 300.00->300.00, BTC 100.00->80.00] 400.00->380.00 delta -20.00 unvalued [SOL] not_held [XYZ]",
    );
    assert_eq!(
        apply_shock(&[unvalued("SOL", "1")], &Shock::Uniform { pct: d("5") }).unwrap(),
        ShockResult::EmptyPortfolio
    );
    assert!(matches!(
        apply_shock(&h, &Shock::Uniform { pct: d("-100.01") }),
        Err(ScenarioError::PctOutOfRange { .. })
    ));
    assert!(matches!(
        apply_shock(&h, &Shock::Uniform { pct: d("1000.5") }),
        Err(ScenarioError::PctOutOfRange { .. })
    ));
    assert_eq!(
        apply_shock(&h, &Shock::PerAsset(vec![])),
        Err(ScenarioError::EntryCount { count: 0 })
    );
    let many: Vec<(Asset, Decimal)> = (0..26).map(|_| (a("BTC"), Decimal::ONE)).collect();
    assert_eq!(
        apply_shock(&h, &Shock::PerAsset(many)),
        Err(ScenarioError::EntryCount { count: 26 })
    );
}

fn show_block(b: ConcentrationBlock) -> String {
    match b {
        ConcentrationBlock::Empty => "EMPTY".to_owned(),
        ConcentrationBlock::Computed {
            top1_weight,
            top3_weight,
            hhi,
            effective_holdings,
        } => format!(
            "{} / {} / {} / {}",
            ratio(top1_weight),
            ratio(top3_weight),
            ratio(hhi),
            ratio(effective_holdings)
        ),
    }
}

fn check_concentration(
    holdings: &[ScenarioHolding],
    all: &str,
    ex: &str,
    stable: Option<&str>,
    unvalued: usize,
) {
    let c = concentration(holdings).unwrap();
    assert_eq!(show_block(c.all), all);
    assert_eq!(show_block(c.excluding_stablecoins), ex);
    assert_eq!(c.stablecoin_weight.map(ratio).as_deref(), stable);
    assert_eq!(c.unvalued_count, unvalued);
}

#[test]
fn d15_concentration() {
    check_concentration(
        &[
            valued("A", "1", "5"),
            valued("B", "1", "40"),
            valued("C", "1", "15"),
            valued("D", "1", "30"),
            valued("E", "1", "10"),
        ],
        "0.4000 / 0.8500 / 0.2850 / 3.5088",
        "0.4000 / 0.8500 / 0.2850 / 3.5088",
        Some("0.0000"),
        0,
    );
    let four: Vec<ScenarioHolding> = ["A", "B", "C", "D"]
        .iter()
        .map(|s| valued(s, "1", "25"))
        .collect();
    check_concentration(
        &four,
        "0.2500 / 0.7500 / 0.2500 / 4.0000",
        "0.2500 / 0.7500 / 0.2500 / 4.0000",
        Some("0.0000"),
        0,
    );
    check_concentration(
        &[valued("BTC", "1", "7")],
        "1.0000 / 1.0000 / 1.0000 / 1.0000",
        "1.0000 / 1.0000 / 1.0000 / 1.0000",
        Some("0.0000"),
        0,
    );
    check_concentration(
        &[valued("BTC", "1", "100"), valued("USDC", "900", "900")],
        "0.9000 / 1.0000 / 0.8200 / 1.2195",
        "1.0000 / 1.0000 / 1.0000 / 1.0000",
        Some("0.9000"),
        0,
    );
    check_concentration(
        &[
            valued("A", "1", "30"),
            unvalued("B", "1"),
            valued("C", "1", "10"),
        ],
        "0.7500 / 1.0000 / 0.6250 / 1.6000",
        "0.7500 / 1.0000 / 0.6250 / 1.6000",
        Some("0.0000"),
        1,
    );
    check_concentration(&[unvalued("A", "1")], "EMPTY", "EMPTY", None, 1);
    check_concentration(&[], "EMPTY", "EMPTY", None, 0);
    // Only stablecoins: the block without them is empty.
    check_concentration(
        &[valued("USDT", "5", "5")],
        "1.0000 / 1.0000 / 1.0000 / 1.0000",
        "EMPTY",
        Some("1.0000"),
        0,
    );
}

const SYMBOLS: [&str; 8] = ["BTC", "ETH", "SOL", "USDC", "ADA", "DOT", "XRP", "USDT"];

fn holding_strategy() -> impl Strategy<Value = Vec<ScenarioHolding>> {
    prop::collection::vec(
        (0usize..8, 0u32..10_000, prop::option::of(0u32..1_000_000)),
        0..8,
    )
    .prop_map(|raw| {
        let mut seen = std::collections::BTreeSet::new();
        let mut out: Vec<ScenarioHolding> = raw
            .into_iter()
            .filter(|(s, _, _)| seen.insert(*s))
            .map(|(s, q, v)| ScenarioHolding {
                symbol: Asset::new(SYMBOLS[s]).unwrap(),
                quantity: Decimal::from(q),
                cost_basis: ScenarioCostBasis::Known(Decimal::from(q)),
                current_value: v.map(|v| Decimal::new(i64::from(v), 2)),
            })
            .collect();
        out.sort_by_key(|h| h.symbol);
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Scenario results are a function of the holdings and the shock only (there is no time
    /// input at all): the same inputs always give the same outputs.
    #[test]
    fn scenarios_are_pure(holdings in holding_strategy(), pct in -100i64..=1000) {
        let shock = Shock::Uniform { pct: Decimal::from(pct) };
        prop_assert_eq!(apply_shock(&holdings, &shock), apply_shock(&holdings.clone(), &shock));
        prop_assert_eq!(concentration(&holdings), concentration(&holdings.clone()));
        if let Ok(ShockResult::Computed { assets, unvalued_symbols, .. }) = apply_shock(&holdings, &shock) {
            let valued = holdings.iter().filter(|h| h.current_value.is_some()).count();
            prop_assert_eq!(assets.len(), valued);
            prop_assert_eq!(unvalued_symbols.len(), holdings.len() - valued);
            prop_assert!(assets.windows(2).all(|w| w[0].before >= w[1].before));
        }
        // Every split keeps the allocation rule: the listed values sum to the totals exactly.
        let per_asset = Shock::PerAsset(holdings.iter().map(|h| (h.symbol, Decimal::from(pct))).take(25).collect());
        for shock in [shock, per_asset] {
            if let Ok(ShockResult::Computed { assets, total_before, total_after, .. }) = apply_shock(&holdings, &shock) {
                let before: Decimal = assets.iter().map(|x| x.before).sum();
                let after: Decimal = assets.iter().map(|x| x.after).sum();
                prop_assert_eq!(before, total_before);
                prop_assert_eq!(after, total_after);
                prop_assert!(assets.iter().all(|x| x.after.scale() <= 2 && x.before.scale() <= 2));
            }
        }
    }
}
