//! The analytics worked examples of `domain.md` §17 (D-14, D-15 but the comparison), through
//! the real engine: ledger → FIFO → series, risk, KPIs, holdings, scenarios, ranking.

use core_domain::FiscalTimezone;
use core_domain::analytics::{
    AllocationItem, AnalyticsContext, DisplayCurrency, asset_allocation, daily_series, kpis,
    performance_history, risk_metrics, rolling_volatility_30,
};
use core_domain::holdings::holdings_snapshot;
use core_domain::market::Market;
use core_domain::num::{OutputClass, format};
use core_domain::ranking::{downsample, rank_by_absolute_value, rank_by_value};
use core_domain::scenarios::{
    ConcentrationBlock, PositionValue, ScenarioCostBasis, ScenarioHolding, Shock, apply_shock,
    breakeven_price, concentration, position_value_at,
};
use core_domain::testkit::{
    Ledger, Outcome, asset, buy, date, dec, instant, migration, on_threads, sell, swap,
};
use rust_decimal::Decimal;

fn fiat(v: Option<Decimal>) -> String {
    v.map_or_else(|| "null".to_owned(), |v| format(v, OutputClass::Fiat))
}

fn ratio(v: Option<Decimal>) -> String {
    v.map_or_else(|| "null".to_owned(), |v| format(v, OutputClass::Ratio))
}

fn pct(v: Option<Decimal>) -> String {
    v.map_or_else(|| "null".to_owned(), |v| format(v, OutputClass::Percent))
}

fn ctx<'a>(outcome: &'a Outcome, market: &'a Market, as_of: &str) -> AnalyticsContext<'a> {
    AnalyticsContext {
        input: &outcome.input,
        output: &outcome.output,
        market,
        timezone: FiscalTimezone::EuropeMadrid,
        as_of: instant(as_of),
        currency: DisplayCurrency::Eur,
    }
}

fn d14_ledger() -> Ledger {
    let examples = core_domain::testkit::examples::d14_closes();
    examples.into_iter().fold(
        core_domain::testkit::examples::d14(),
        |ledger, (day, symbol, close)| ledger.price(&day, symbol, close, "EUR"),
    )
}

const T: &str = "2024-01-06T18:00:00Z";

#[test]
fn d14_valuation_series() {
    let ledger = d14_ledger();
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, T);
    let series = daily_series(&ctx).unwrap();
    let table: Vec<String> = series
        .days
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {} {}",
                p.date,
                fiat(Some(p.value_eur)),
                p.ret
                    .map_or("-".to_owned(), |r| format(r, OutputClass::Ratio)),
                format(p.index, OutputClass::Ratio),
                format(p.drawdown, OutputClass::Ratio),
            )
        })
        .collect();
    assert_eq!(
        table,
        [
            "2024-01-01 40000.00 - 1.0000 0.0000",
            "2024-01-02 42000.00 0.0500 1.0500 0.0000",
            "2024-01-03 62000.00 0.0000 1.0500 0.0000",
            "2024-01-04 63000.00 0.0161 1.0669 0.0000",
            "2024-01-05 41000.00 -0.0159 1.0500 -0.0159",
            "2024-01-06 44050.00 0.0744 1.1281 0.0000",
        ]
    );
    assert_eq!(series.days[3].ret, Some(dec("1000") / dec("62000")));
    assert_eq!(series.days[4].ret, Some(dec("-1000") / dec("63000")));
    assert_eq!(series.days[5].ret, Some(dec("3050") / dec("41000")));
}

/// An uncovered sale of an asset never held (`AAA`, which sorts before the held assets) adds
/// a zero flow and no quantity: the series is D-14's, on the one-thread and the two-thread
/// paths (the quantity deltas are indexed by the lots' assets, then by all the assets).
#[test]
fn d14_series_with_a_flow_only_asset() {
    let plain = d14_ledger();
    let outcome = plain.run();
    let market = plain.market();
    let expected = daily_series(&ctx(&outcome, &market, T)).unwrap();
    let ledger = d14_ledger().row(
        core_domain::testkit::sell("aaa1", "Kraken", "2024-01-03T10:00:00Z")
            .inflow("100", "EUR")
            .outflow("5", "AAA"),
    );
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, T);
    assert!(
        outcome
            .output
            .slices
            .iter()
            .any(|s| s.asset.as_str() == "AAA")
    );
    for threads in [1, 2, 5] {
        let series = on_threads(threads, || daily_series(&ctx).unwrap());
        assert_eq!(series.days, expected.days);
        assert_eq!(series.at_as_of, expected.at_as_of);
    }
}

#[test]
fn d14_risk_metrics() {
    let ledger = d14_ledger();
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, T);
    let series = daily_series(&ctx).unwrap();
    let m = risk_metrics(&series, &market).unwrap();
    assert_eq!(ratio(Some(m.max_drawdown_pct)), "-0.0159");
    assert_eq!(ratio(m.annualized_volatility), "0.7045");
    assert_eq!(ratio(m.sharpe_ratio), "12.9163");
    assert_eq!(ratio(m.beta), "0.7541");
    assert_eq!(ratio(m.alpha), "3.5000");
    let rolling = |d: &str| ratio(rolling_volatility_30(&series, date(d)).unwrap());
    assert_eq!(rolling("2024-01-02"), "null");
    assert_eq!(rolling("2024-01-03"), "0.6755");
    assert_eq!(rolling("2024-01-06"), "0.7045");
}

#[test]
fn d14_kpis() {
    let ledger = d14_ledger();
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, T);
    let series = daily_series(&ctx).unwrap();
    let k = kpis(&ctx, &series).unwrap();
    assert_eq!(fiat(k.total_equity), "44050.00");
    assert_eq!(fiat(Some(k.total_cost_basis)), "40000.00");
    assert_eq!(fiat(Some(k.total_unrealized_pnl)), "4050.00");
    assert_eq!(fiat(Some(k.total_realized_pnl)), "1000.00");
    assert_eq!(fiat(Some(k.total_roi_fiat)), "5050.00");
    assert_eq!(pct(k.total_roi_percent), "12.63");
    assert_eq!(fiat(k.all_time_high), "63000.00");
    assert_eq!(fiat(k.delta_24h), "3050.00");
    assert_eq!(k.trades.total_trades, 1);
    assert_eq!(k.trades.winning_trades, 1);
    assert_eq!(k.trades.losing_trades, 0);
    assert_eq!(pct(k.trades.win_rate_percent), "100.00");
    assert_eq!(ratio(k.trades.average_r), "null");
    let best = k.best_asset.unwrap();
    let worst = k.worst_asset.unwrap();
    assert_eq!(
        [
            best.asset.to_string(),
            pct(Some(best.roi_pct)),
            pct(best.allocation_pct)
        ],
        ["BTC", "10.25", "50.06"]
    );
    assert_eq!(
        [
            worst.asset.to_string(),
            pct(Some(worst.roi_pct)),
            pct(worst.allocation_pct)
        ],
        ["ETH", "10.00", "49.94"]
    );
    assert_eq!(ratio(Some(k.risk.max_drawdown_pct)), "-0.0159");
    assert_eq!(ratio(k.risk.annualized_volatility), "0.7045");
    assert_eq!(ratio(k.risk.sharpe_ratio), "12.9163");
    assert!(!k.prices_incomplete && !k.rates_incomplete);

    // The snapshot agrees at the last close (no live price supplied).
    let snapshot = holdings_snapshot(&ctx, &[], None).unwrap();
    let t = snapshot.totals;
    assert_eq!(
        [
            t.equity,
            t.cost_basis,
            t.unrealized,
            t.realized,
            t.total_pnl
        ]
        .map(|v| fiat(Some(v))),
        ["44050.00", "40000.00", "4050.00", "1000.00", "5050.00"]
    );
    let allocation = asset_allocation(
        ctx.as_of_date(),
        &series.at_as_of,
        &market,
        DisplayCurrency::Eur,
    )
    .unwrap();
    let shares: Vec<String> = allocation
        .iter()
        .map(|item| match item {
            AllocationItem::Valued {
                asset,
                allocation_pct,
                ..
            } => format!("{asset} {}", pct(Some(*allocation_pct))),
            AllocationItem::Unvalued { asset, .. } => format!("{asset} unvalued"),
        })
        .collect();
    assert_eq!(shares, ["BTC 50.06", "ETH 49.94"]);
    let history = performance_history(&series, &market, DisplayCurrency::Eur, 30).unwrap();
    assert_eq!(history.len(), 6);
}

#[test]
fn swap_and_migration_flows_are_not_performance() {
    // A swap at a fair value and a migration leave the index flat when prices do not move.
    let mut ledger = Ledger::new()
        .row(
            buy("f1", "Binance", "2024-02-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("50000", "EUR"),
        )
        .row(
            swap("f2", "Binance", "2024-02-02T10:00:00Z")
                .inflow("10", "ETH")
                .outflow("0.5", "BTC"),
        )
        .row(
            migration("f3", "Binance", "2024-02-03T10:00:00Z")
                .inflow("10", "ETH2")
                .outflow("10", "ETH"),
        );
    for day in ["2024-02-01", "2024-02-02", "2024-02-03", "2024-02-04"] {
        ledger = ledger
            .price(day, "BTC", "50000", "EUR")
            .price(day, "ETH", "2500", "EUR")
            .price(day, "ETH2", "2500", "EUR");
    }
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, "2024-02-04T12:00:00Z");
    let series = daily_series(&ctx).unwrap();
    let shown: Vec<String> = series
        .days
        .iter()
        .map(|p| {
            format!(
                "{} {} {}",
                fiat(Some(p.value_eur)),
                ratio(p.ret),
                format(p.index, OutputClass::Ratio)
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            "50000.00 null 1.0000",
            "50000.00 0.0000 1.0000",
            "50000.00 0.0000 1.0000",
            "50000.00 0.0000 1.0000"
        ]
    );
    let snapshot = holdings_snapshot(&ctx, &[], None).unwrap();
    let held: Vec<String> = snapshot
        .holdings
        .iter()
        .map(|h| format!("{} {}", h.asset, fiat(h.current_value)))
        .collect();
    assert_eq!(held, ["BTC 25000.00", "ETH2 25000.00"]);
}

#[test]
fn d15_scenarios_from_a_snapshot() {
    // BTC 2 at 50000 (100000.00) and ETH 10 at 10000 (100000.00), both valued.
    let ledger = Ledger::new()
        .row(
            buy("s1", "Kraken", "2024-05-01T10:00:00Z")
                .inflow("2", "BTC")
                .outflow("30000", "EUR"),
        )
        .row(
            buy("s2", "Kraken", "2024-05-01T11:00:00Z")
                .inflow("10", "ETH")
                .outflow("50000", "EUR"),
        )
        .price("2024-05-02", "BTC", "50000", "EUR")
        .price("2024-05-02", "ETH", "10000", "EUR");
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, "2024-05-02T12:00:00Z");
    let holdings = holdings_snapshot(&ctx, &[], None)
        .unwrap()
        .scenario_holdings();
    let show = |p: PositionValue| match p {
        PositionValue::Computed {
            position_value,
            delta_vs_current,
            implied_allocation_pct,
        } => format!(
            "COMPUTED {} / {} / {}",
            fiat(Some(position_value)),
            fiat(Some(delta_vs_current)),
            pct(Some(implied_allocation_pct))
        ),
        other => format!("{other:?}"),
    };
    let at = |symbol: &str, price: &str| {
        show(position_value_at(&holdings, asset(symbol), dec(price)).unwrap())
    };
    assert_eq!(at("BTC", "70000"), "COMPUTED 140000.00 / 40000.00 / 58.33");
    assert_eq!(at("BTC", "75000"), "COMPUTED 150000.00 / 50000.00 / 60.00");
    assert_eq!(at("BTC", "0"), "COMPUTED 0.00 / -100000.00 / 0.00");
    assert_eq!(at("XYZ", "1"), "NotHeld");
    match breakeven_price(&holdings, asset("BTC")).unwrap() {
        core_domain::scenarios::Breakeven::Computed { avg_unit_cost } => {
            assert_eq!(format(avg_unit_cost, OutputClass::UnitPrice), "15000");
        }
        other => panic!("{other:?}"),
    }
}

fn valued(symbol: &str, value: &str) -> ScenarioHolding {
    ScenarioHolding {
        symbol: asset(symbol),
        quantity: Decimal::ONE,
        cost_basis: ScenarioCostBasis::Known(Decimal::ZERO),
        current_value: Some(dec(value)),
    }
}

#[test]
fn d15_shock_concentration_ranking_downsampling() {
    let h = [valued("BTC", "100.00"), valued("ETH", "300.00")];
    let total_after = |shock: Shock| match apply_shock(&h, &shock).unwrap() {
        core_domain::scenarios::ShockResult::Computed {
            total_after, delta, ..
        } => format!("{} {}", fiat(Some(total_after)), fiat(Some(delta))),
        core_domain::scenarios::ShockResult::EmptyPortfolio => "EMPTY".to_owned(),
    };
    assert_eq!(
        total_after(Shock::Uniform { pct: dec("-50") }),
        "200.00 -200.00"
    );
    assert_eq!(
        total_after(Shock::PerAsset(vec![(asset("BTC"), dec("10"))])),
        "410.00 10.00"
    );
    assert_eq!(
        total_after(Shock::PerAsset(vec![
            (asset("XYZ"), dec("5")),
            (asset("ETH"), dec("-10"))
        ])),
        "370.00 -30.00"
    );
    assert_eq!(
        total_after(Shock::Uniform { pct: dec("-100") }),
        "0.00 -400.00"
    );
    assert_eq!(
        total_after(Shock::Uniform { pct: dec("1000") }),
        "4400.00 4000.00"
    );

    let c = concentration(&[
        valued("A", "40"),
        valued("B", "30"),
        valued("C", "15"),
        valued("D", "10"),
        valued("E", "5"),
    ])
    .unwrap();
    match c.all {
        ConcentrationBlock::Computed {
            top1_weight,
            top3_weight,
            hhi,
            effective_holdings,
        } => assert_eq!(
            [top1_weight, top3_weight, hhi, effective_holdings].map(|v| ratio(Some(v))),
            ["0.4000", "0.8500", "0.2850", "3.5088"]
        ),
        ConcentrationBlock::Empty => panic!("empty"),
    }

    let items = [
        ("a", Some("100")),
        ("b", None),
        ("c", Some("300")),
        ("d", Some("100")),
    ];
    let ranked = rank_by_value(items, |(_, v)| v.map(dec), 2);
    assert_eq!(
        ranked.ranked.iter().map(|x| x.0).collect::<Vec<_>>(),
        ["c", "a"]
    );
    assert_eq!(ranked.omitted_count, 1);
    assert_eq!(
        ranked.unvalued.iter().map(|x| x.0).collect::<Vec<_>>(),
        ["b"]
    );
    let abs = rank_by_absolute_value(
        [
            ("SMALL", "5"),
            ("BIGLOSS", "-900"),
            ("MID", "300"),
            ("TINY", "-1"),
        ],
        |(_, v)| dec(v),
        2,
    );
    assert_eq!(
        abs.ranked.iter().map(|x| x.0).collect::<Vec<_>>(),
        ["BIGLOSS", "MID"]
    );
    assert_eq!(abs.omitted_count, 2);

    let series: Vec<u32> = (0..365).collect();
    let sampled = downsample(&series, 120).unwrap();
    assert_eq!(sampled.points.len(), 120);
    assert_eq!(&sampled.indices[..4], &[0, 3, 6, 9]);
    assert_eq!(&sampled.indices[117..], &[357, 360, 364]);
    assert_eq!(sampled.omitted_count, 245);
    assert_eq!(downsample(&series[..10], 4).unwrap().indices, [0, 3, 6, 9]);
    assert_eq!(
        downsample(&series[..10], 5).unwrap().indices,
        [0, 2, 4, 6, 9]
    );
    let short = downsample(&series[..50], 120).unwrap();
    assert_eq!((short.points.len(), short.omitted_count), (50, 0));
}

#[test]
fn d5_holdings_with_custody() {
    use core_domain::custody::allocate;
    use core_domain::holdings::{account_holdings, pieces, summarize_custody_locations};

    let ledger = core_domain::testkit::examples::d5()
        .price("2023-03-10", "BTC", "35000", "EUR")
        .price("2023-04-10", "BTC", "40000", "EUR");
    let outcome = ledger.run();
    let market = ledger.market();
    let custody = allocate(&outcome.input, &outcome.output, &outcome.accounts, &[]).unwrap();
    let rows = pieces(&custody.locations);
    let ctx = ctx(&outcome, &market, "2023-04-10T18:00:00Z");
    let snapshot = holdings_snapshot(&ctx, &rows, None).unwrap();
    let btc = &snapshot.holdings[0];
    assert_eq!(format(btc.quantity, OutputClass::Quantity), "0.7999");
    assert_eq!(btc.locations, ["Bitvavo", "Kraken"]);
    assert_eq!(format(btc.untracked_quantity, OutputClass::Quantity), "0");
    // Remaining fiscal cost 23997.00 at 40000: value 31996.00.
    assert_eq!(fiat(btc.cost_basis.amount()), "23997.00");
    assert_eq!(fiat(btc.current_value), "31996.00");
    assert_eq!(
        format(btc.avg_unit_cost.unwrap(), OutputClass::UnitPrice),
        "30000"
    );
    // Realized: fee slice 1.50 + 19998.00 + 2001.00.
    assert_eq!(fiat(Some(snapshot.totals.realized)), "22000.50");

    let kraken = outcome
        .accounts
        .iter()
        .find(|a| a.name == "Kraken")
        .unwrap()
        .id;
    let per_account = account_holdings(&ctx, &outcome.accounts, kraken, &rows, None).unwrap();
    assert_eq!(per_account.len(), 1);
    let h = &per_account[0].holdings[0];
    // 0.3 of L:d5r2:0 (30000.00 for 1 BTC): custody attribution 9000.00.
    assert_eq!(
        [fiat(h.cost_basis.amount()), fiat(h.current_value)],
        ["9000.00", "12000.00"]
    );
    let summary = summarize_custody_locations(&rows, None).unwrap();
    let groups: Vec<String> = summary
        .groups
        .iter()
        .map(|g| {
            format!(
                "{} {} {} {}",
                g.asset,
                g.account_name,
                format(g.quantity, OutputClass::Quantity),
                g.lot_count
            )
        })
        .collect();
    assert_eq!(groups, ["BTC Bitvavo 0.4999 1", "BTC Kraken 0.3 1"]);
    assert_eq!(summary.synthetic_row_count, 0);
}

/// The shared data folder (`CARTERA_SHARED_DATA`, else `<workspace root>/../shared/data`).
fn shared_data() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("CARTERA_SHARED_DATA").map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        std::path::PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

#[test]
#[expect(
    clippy::print_stdout,
    reason = "a test that needs the shared data says clearly when it skips"
)]
fn real_btc_prices_single_asset_risk() {
    let Some(dir) = shared_data() else {
        println!("skip: shared data folder not found (set CARTERA_SHARED_DATA)");
        return;
    };
    let prices = std::fs::read_to_string(dir.join("prices/btc-eur-daily.csv")).unwrap();
    let ecb = std::fs::read_to_string(dir.join("ecb/eurofxref-hist.csv")).unwrap();
    let mut ledger = Ledger::new()
        .row(
            buy("b1", "Kraken", "2020-01-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("6500", "EUR"),
        )
        .ecb_rates_csv(&ecb);
    for line in prices.lines().skip(1) {
        let Some((stamp, close)) = line.split_once(',') else {
            continue;
        };
        let day = &stamp[..10];
        if ("2019-12-20"..="2024-12-31").contains(&day) {
            ledger = ledger.price(day, "BTC", close.trim(), "EUR");
        }
    }
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, "2024-12-31T12:00:00Z");
    let series = daily_series(&ctx).unwrap();
    assert_eq!(series.days.len(), 1827);
    // One asset, no flow after the purchase: r(d) is BTC's own return, hence beta 1, alpha 0.
    // The file has no close from 2023-12-15 to 2023-12-31: beyond the 7-day window the
    // holding is unvalued (never zero) and no return is defined.
    let unvalued: Vec<String> = series
        .days
        .iter()
        .filter(|p| p.unvalued_assets > 0)
        .map(|p| p.date.to_string())
        .collect();
    assert_eq!(unvalued.len(), 10);
    assert_eq!(unvalued.first().map(String::as_str), Some("2023-12-22"));
    assert_eq!(unvalued.last().map(String::as_str), Some("2023-12-31"));
    for point in &series.days {
        assert!(point.drawdown <= Decimal::ZERO);
        if point.unvalued_assets > 0 {
            assert_eq!(point.ret, None);
            assert_eq!(point.value_eur, Decimal::ZERO);
        }
        let benchmark =
            core_domain::analytics::risk::benchmark_return(&market, point.date).unwrap();
        if let (Some(r), Some(b)) = (point.ret, benchmark) {
            assert_eq!(
                core_domain::num::round_half_up(r, 20),
                core_domain::num::round_half_up(b, 20),
                "{}",
                point.date
            );
        }
    }
    let m = risk_metrics(&series, &market).unwrap();
    assert_eq!(ratio(m.beta), "1.0000");
    assert_eq!(ratio(m.alpha), "0.0000");
    assert!(m.max_drawdown_pct < dec("-0.5"));
    // USD display with the real ECB history: every point converts (carry-back over weekends).
    let mut usd = ctx;
    usd.currency = DisplayCurrency::Usd;
    let history = performance_history(&series, &market, DisplayCurrency::Usd, 3650).unwrap();
    assert_eq!(history.len(), 1827);
    assert!(history.iter().all(|p| p.value.is_some()));
    assert_eq!(history.iter().filter(|p| p.unvalued_assets > 0).count(), 10);
    let k = kpis(&usd, &series).unwrap();
    assert!(!k.rates_incomplete);
    // Cost 6500 EUR at the 2019-12-31 rate (1.1234, the last before 2020-01-01).
    assert_eq!(fiat(Some(k.total_cost_basis)), "7302.10");
}

mod properties {
    use super::{ctx, fiat};
    use core_domain::analytics::{
        AllocationItem, DisplayCurrency, asset_allocation, daily_series, held_at_as_of,
    };
    use core_domain::holdings::holdings_snapshot;
    use core_domain::testkit::{Ledger, buy, sell};
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    const ASSETS: [&str; 3] = ["ADA", "BTC", "ETH"];

    /// `(day, asset, buy?, quantity)` rows over 20 days, and per `(asset, day)` whether a
    /// close exists.
    type RowSpecs = Vec<(u8, usize, bool, u8)>;

    fn ledger_strategy() -> impl Strategy<Value = (RowSpecs, Vec<bool>)> {
        (
            prop::collection::vec(
                (0u8..20, 0usize..3, prop::bool::weighted(0.7), 1u8..5),
                1..25,
            ),
            prop::collection::vec(prop::bool::weighted(0.6), 60),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// §16 items 11 and 12 on engine output: a held asset without a price is counted in
        /// `unvalued_assets` and never valued at zero or one; `DD ≤ 0`; the snapshot's equity
        /// sums valued holdings only.
        #[test]
        fn unvalued_assets_are_counted((rows, priced) in ledger_strategy()) {
            let mut ledger = Ledger::new();
            for (i, (day, asset, is_buy, q)) in rows.iter().enumerate() {
                let at = format!("2024-01-{:02}T10:{:02}:00Z", day + 1, i % 60);
                let key = format!("p{i}");
                let spec = if *is_buy {
                    buy(&key, "Kraken", &at).inflow(&q.to_string(), ASSETS[*asset]).outflow("100", "EUR")
                } else {
                    sell(&key, "Kraken", &at).inflow("100", "EUR").outflow(&q.to_string(), ASSETS[*asset])
                };
                ledger.push(spec);
            }
            for (a, symbol) in ASSETS.iter().enumerate() {
                for day in 0..20usize {
                    if priced[a * 20 + day] {
                        let close = format!("{}", 10 * (a + 1) + day);
                        ledger = ledger.price(&format!("2024-01-{:02}", day + 1), symbol, &close, "EUR");
                    }
                }
            }
            let outcome = ledger.run();
            let market = ledger.market();
            let ctx = ctx(&outcome, &market, "2024-01-20T20:00:00Z");
            let series = daily_series(&ctx).unwrap();
            for point in &series.days {
                prop_assert!(point.drawdown <= Decimal::ZERO);
            }
            let Some(at_t) = series.days.last() else {
                // Only uncovered sales: no lot, no series.
                prop_assert!(outcome.output.lots.is_empty());
                return Ok(());
            };
            prop_assert_eq!(held_at_as_of(&ctx).unwrap(), series.at_as_of.clone());
            let allocation = asset_allocation(ctx.as_of_date(), &series.at_as_of, &market, DisplayCurrency::Eur).unwrap();
            let unvalued = allocation.iter().filter(|i| matches!(i, AllocationItem::Unvalued { .. })).count();
            prop_assert_eq!(at_t.unvalued_assets as usize, unvalued);
            let mut sum = Decimal::ZERO;
            for item in &allocation {
                if let AllocationItem::Valued { value, .. } = item {
                    prop_assert!(*value > Decimal::ZERO);
                    sum += *value;
                }
            }
            prop_assert_eq!(sum, at_t.value_eur);
            let snapshot = holdings_snapshot(&ctx, &[], None).unwrap();
            let mut equity = Decimal::ZERO;
            for h in &snapshot.holdings {
                if h.is_valued() {
                    equity += h.current_value.unwrap();
                } else {
                    prop_assert!(h.unrealized_pnl.is_none() && h.avg_unit_cost.is_none());
                }
            }
            prop_assert_eq!(fiat(Some(equity)), fiat(Some(snapshot.totals.equity)));
            prop_assert_eq!(
                snapshot.totals.prices_incomplete,
                snapshot.holdings.iter().any(|h| !h.is_valued())
                    || unvalued > 0
            );
        }
    }
}

#[test]
fn d12_flagged_lot_in_kpis_and_snapshot() {
    // D-12's d12r7: a stated USD value with no rate on or before its date blocks the lot.
    let ledger = Ledger::new()
        .row(
            buy("d12r7", "Kraken", "2023-12-30T12:00:00Z")
                .inflow("0.01", "BTC")
                .stated_value("420.00", "USD"),
        )
        .row(
            buy("d12r1", "Kraken", "2024-01-01T10:00:00Z")
                .inflow("2", "BTC")
                .outflow("60000", "EUR"),
        )
        .rate("2024-01-02", "USD", "1.0956")
        .price("2024-01-05", "BTC", "40000", "EUR");
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, "2024-01-05T12:00:00Z");
    let series = daily_series(&ctx).unwrap();
    let k = kpis(&ctx, &series).unwrap();
    // KPIs value every quantity at the last close; the blocked lot is left out of the cost.
    assert_eq!(fiat(k.total_equity), "80400.00");
    assert_eq!(fiat(Some(k.total_cost_basis)), "60000.00");
    assert_eq!(fiat(Some(k.total_unrealized_pnl)), "20000.00");
    assert_eq!(k.excluded_flagged_lots, 1);
    assert!(k.rates_incomplete);
    // The snapshot does not value a holding with an unknown lot cost (reason NO_RATE).
    let snapshot = holdings_snapshot(&ctx, &[], None).unwrap();
    let btc = &snapshot.holdings[0];
    assert_eq!(
        btc.unvalued_reason,
        Some(core_domain::analytics::UnvaluedReason::NoRate)
    );
    assert_eq!(btc.cost_basis, core_domain::holdings::CostBasis::Unknown);
    assert_eq!(fiat(btc.current_value), "80400.00");
    assert_eq!(fiat(Some(snapshot.totals.equity)), "0.00");
    assert!(snapshot.totals.rates_incomplete);
    assert!(!snapshot.totals.prices_incomplete);
}

#[test]
fn uncovered_disposal_flows_only_the_covered_part() {
    // D-6's first sale: 2 ETH sold with 1.5 held. Only 1.5 left the tracked holdings, so only
    // that share of the gross value is a flow; at constant prices the return stays 0.
    let mut ledger = Ledger::new()
        .row(
            buy("d6r1", "Kraken", "2024-01-30T10:00:00Z")
                .inflow("1.5", "ETH")
                .outflow("3000", "EUR"),
        )
        .row(
            sell("d6r2", "Kraken", "2024-02-01T10:00:00Z")
                .inflow("5000", "EUR")
                .outflow("2", "ETH"),
        );
    for day in ["2024-01-30", "2024-01-31", "2024-02-01"] {
        ledger = ledger.price(day, "ETH", "2500", "EUR");
    }
    let outcome = ledger.run();
    let market = ledger.market();
    let ctx = ctx(&outcome, &market, "2024-02-01T12:00:00Z");
    let series = daily_series(&ctx).unwrap();
    let shown: Vec<String> = series
        .days
        .iter()
        .map(|p| format!("{} {} {}", p.date, fiat(Some(p.value_eur)), ratio(p.ret)))
        .collect();
    assert_eq!(
        shown,
        [
            "2024-01-30 3750.00 null",
            "2024-01-31 3750.00 0.0000",
            "2024-02-01 0.00 0.0000"
        ]
    );
}
