//! Values too large to compute (D-146): amounts within the import bound whose product is not.
//! The asset concerned is left out of what needs it, named; every other figure is the one of
//! the same ledger without that asset.

use core_domain::analytics::{
    AnalyticsContext, DisplayCurrency, UnvaluedReason, daily_series, kpis,
};
use core_domain::holdings::holdings_snapshot;
use core_domain::irpf::report::IrpfYearReport;
use core_domain::irpf::{IrpfComputation, IrpfInput, IrpfSettings};
use core_domain::num::fiat;
use core_domain::quality::integrity_rows;
use core_domain::testkit::{Ledger, Outcome, asset, buy, instant, sell, spend, staking};
use core_domain::time::FiscalTimezone;
use shared_types::QualityFlag;

use crate::custody_examples::custody;

const HUGE: &str = "999999999999999";

/// ETH bought and half sold at a gain of 500.00, ADA staked and priced.
fn others(ledger: Ledger) -> Ledger {
    ledger
        .row(
            buy("e1", "Bank", "2024-01-03T10:00:00Z")
                .inflow("2", "ETH")
                .outflow("3000", "EUR"),
        )
        .row(
            sell("e2", "Bank", "2024-03-03T10:00:00Z")
                .inflow("2000", "EUR")
                .outflow("1", "ETH"),
        )
        .row(staking("a1", "Bank", "2024-05-01T10:00:00Z").inflow("100", "ADA"))
        .price("2024-05-01", "ADA", "0.40", "EUR")
        .price("2024-12-30", "ADA", "0.50", "EUR")
        .price("2024-12-30", "ETH", "3500", "EUR")
}

/// `others` plus BIG: a quadrillion units bought for 1,000 EUR, most of them spent on a day
/// whose close is a quadrillion EUR (the spend's value is out of range), the rest held at a
/// year-end close of a quadrillion EUR (the holding's value is out of range).
fn with_big() -> Ledger {
    others(Ledger::new())
        .row(
            buy("b1", "Bank", "2024-01-02T10:00:00Z")
                .inflow(HUGE, "BIG")
                .outflow("1000", "EUR"),
        )
        .row(spend("b2", "Bank", "2024-03-04T10:00:00Z").outflow("899999999999999", "BIG"))
        .price("2024-03-04", "BIG", HUGE, "EUR")
        .price("2024-12-30", "BIG", HUGE, "EUR")
}

fn report(outcome: &Outcome, year: i32) -> IrpfYearReport {
    IrpfComputation::new(IrpfInput {
        engine_input: &outcome.input,
        output: &outcome.output,
        accounts: &outcome.accounts,
        settings: &IrpfSettings::default(),
    })
    .unwrap()
    .year_report(year)
    .unwrap()
}

fn ctx<'a>(outcome: &'a Outcome, market: &'a core_domain::market::Market) -> AnalyticsContext<'a> {
    AnalyticsContext {
        input: &outcome.input,
        output: &outcome.output,
        market,
        timezone: FiscalTimezone::EuropeMadrid,
        as_of: instant("2024-12-31T12:00:00Z"),
        currency: DisplayCurrency::Eur,
    }
}

#[test]
fn an_out_of_range_disposal_leaves_only_its_asset_out_of_the_year() {
    let big = with_big().run();
    let plain = others(Ledger::new()).run();
    let (with, without) = (report(&big, 2024), report(&plain, 2024));
    // Every figure of the year is the one of the ledger without BIG.
    assert_eq!(with.summary.formatted(), without.summary.formatted());
    assert_eq!(with.summary.formatted()[0], "500.00");
    assert_eq!(with.summary.formatted()[2], "40.00");
    // The spend is excluded, named by its asset, row and flag; the year says so.
    assert_eq!(without.completeness.excluded_flagged_events, 0);
    assert_eq!(with.completeness.excluded_flagged_events, 1);
    assert_eq!(with.completeness.unconvertible_count, 0);
    let excluded: Vec<String> = with
        .completeness
        .excluded_operations
        .iter()
        .map(|op| {
            format!(
                "{} {} {:?}",
                op.asset,
                op.quantity,
                op.flags.iter().collect::<Vec<_>>()
            )
        })
        .collect();
    assert_eq!(excluded, ["BIG 899999999999999 [AmountOutOfRange]"]);
    let spend = big.operation("b2", "P");
    assert_eq!(spend.gross_value, None);
    // The integrity report names the row once, as a disposal of BIG.
    let rows = integrity_rows(&big.input, &big.output, &big.accounts, &custody(&big)).unwrap();
    let named: Vec<String> = rows
        .iter()
        .filter(|r| r.quality_flag == QualityFlag::AmountOutOfRange)
        .map(|r| {
            format!(
                "{} {} {} {}",
                r.asset.map(|a| a.to_string()).unwrap_or_default(),
                r.row_key.as_deref().unwrap_or(""),
                r.detail_key,
                r.severity.as_str()
            )
        })
        .collect();
    assert_eq!(named, ["BIG b2 quality.amount_out_of_range.disposal high"]);
}

#[test]
fn an_out_of_range_holding_is_unvalued_and_the_rest_is_valued_as_without_it() {
    let big = with_big().run();
    let plain = others(Ledger::new()).run();
    let (big_market, plain_market) = (with_big().market(), others(Ledger::new()).market());
    let with = holdings_snapshot(&ctx(&big, &big_market), &[], None).unwrap();
    let without = holdings_snapshot(&ctx(&plain, &plain_market), &[], None).unwrap();
    let held = |s: &core_domain::holdings::HoldingsSnapshot| -> Vec<String> {
        s.holdings
            .iter()
            .map(|h| {
                format!(
                    "{} {} {} {:?}",
                    h.asset,
                    h.quantity,
                    fiat(h.current_value.unwrap_or_default()),
                    h.unvalued_reason
                )
            })
            .collect()
    };
    assert_eq!(held(&without), ["ADA 100 50.00 None", "ETH 1 3500.00 None"]);
    assert_eq!(
        held(&with),
        [
            "ADA 100 50.00 None",
            "BIG 100000000000000 0.00 Some(OutOfRange)",
            "ETH 1 3500.00 None"
        ]
    );
    let big_holding = with
        .holdings
        .iter()
        .find(|h| h.asset == asset("BIG"))
        .unwrap();
    assert_eq!(big_holding.current_value, None);
    assert_eq!(
        big_holding.unvalued_reason,
        Some(UnvaluedReason::OutOfRange)
    );
    // The totals of the rest are those of the ledger without BIG, and say they fall short.
    let totals = |s: &core_domain::holdings::HoldingsSnapshot| {
        let t = s.totals;
        [t.equity, t.cost_basis, t.unrealized, t.realized].map(fiat)
    };
    assert_eq!(totals(&with), totals(&without));
    assert_eq!(totals(&with), ["3550.00", "1540.00", "2010.00", "500.00"]);
    assert!(with.totals.prices_incomplete && !without.totals.prices_incomplete);
    // The daily series and the KPIs compute too: BIG is unvalued, never an error.
    let context = ctx(&big, &big_market);
    let series = daily_series(&context).unwrap();
    let k = kpis(&context, &series).unwrap();
    assert!(k.prices_incomplete);
}

#[test]
fn a_lot_split_beyond_a_decimal_is_allocated_exactly() {
    // A quadrillion euros of a quadrillion units, almost all sold: the product of the
    // allocation rule is beyond a decimal, the split is still exact to the cent.
    let outcome = Ledger::new()
        .row(
            buy("b1", "Bank", "2024-01-02T10:00:00Z")
                .inflow(HUGE, "BTC")
                .outflow(HUGE, "EUR"),
        )
        .row(
            sell("b2", "Bank", "2024-03-04T10:00:00Z")
                .inflow("1", "EUR")
                .outflow("999999999999998", "BTC"),
        )
        .run();
    let slice = outcome.slice("E:b2:P:0");
    assert_eq!(slice.acquisition_value(), "999999999999998.00");
    assert_eq!(outcome.lot("L:b1:0").remaining_cost(), "1.00");
    let year = report(&outcome, 2024);
    assert_eq!(year.summary.formatted()[1], "999999999999997.00");
    assert_eq!(year.completeness.excluded_flagged_events, 0);
}

/// Amounts at the import bound, dust and ordinary amounts, mixed.
fn amount() -> impl proptest::strategy::Strategy<Value = &'static str> {
    proptest::sample::select(vec![
        HUGE,
        "999999999999999.999999",
        "100000000000000",
        "0.000000000000000001",
        "0.5",
        "12.5",
        "1",
    ])
}

/// One generated row: kind, asset, amounts, day.
type GenRow = (u8, usize, &'static str, &'static str, u32);

fn generated(rows: &[GenRow], closes: &[(usize, u32, &'static str, bool)], rate: &str) -> Ledger {
    const ASSETS: [&str; 3] = ["BIG", "ETH", "DOT"];
    let mut ledger = Ledger::new().rate("2024-01-01", "USD", rate);
    for (n, &(kind, a, q, v, day)) in rows.iter().enumerate() {
        let key = format!("r{n}");
        let at = format!("2024-{:02}-{:02}T10:00:00Z", 1 + day / 28, 1 + day % 28);
        let symbol = ASSETS[a % ASSETS.len()];
        let other = ASSETS[(a + 1) % ASSETS.len()];
        ledger = ledger.row(match kind % 6 {
            0 => buy(&key, "Bank", &at).inflow(q, symbol).outflow(v, "EUR"),
            1 => sell(&key, "Bank", &at).inflow(v, "EUR").outflow(q, symbol),
            2 => spend(&key, "Bank", &at).outflow(q, symbol),
            3 => staking(&key, "Bank", &at).inflow(q, symbol),
            4 => core_domain::testkit::swap(&key, "Bank", &at)
                .outflow(q, symbol)
                .inflow(v, other),
            _ => buy(&key, "Bank", &at)
                .inflow(q, symbol)
                .outflow(v, "EUR")
                .fee(v, other),
        });
    }
    for &(a, day, close, usd) in closes {
        let on = format!("2024-{:02}-{:02}", 1 + day / 28, 1 + day % 28);
        ledger = ledger.price(
            &on,
            ASSETS[a % ASSETS.len()],
            close,
            if usd { "USD" } else { "EUR" },
        );
    }
    ledger
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Huge amounts the import accepts never fail or panic a view: the engine, the year, the
    /// holdings (EUR and USD), the daily series, the KPIs and the integrity rows all answer,
    /// and whatever is out of range is flagged, excluded and never valued.
    #[test]
    fn huge_accepted_amounts_never_fail_a_view(
        rows in proptest::collection::vec((0u8..6, 0usize..3, amount(), amount(), 0u32..300), 1..14),
        closes in proptest::collection::vec((0usize..3, 0u32..300, amount(), proptest::bool::ANY), 0..10),
        rate in proptest::sample::select(vec!["1.1", "0.0000000000000000000001", "999999999999999"]),
    ) {
        let ledger = generated(&rows, &closes, rate);
        let market = ledger.market();
        let input = ledger.input();
        let output = core_domain::fifo::run(&input, &market, ledger.settings());
        proptest::prop_assert!(output.is_ok(), "{:?}", output.err());
        let outcome = Outcome { accounts: ledger.accounts().to_vec(), input, output: output.unwrap() };
        for op in &outcome.output.operations {
            if op.flags.contains(QualityFlag::AmountOutOfRange) {
                proptest::prop_assert!(op.gross_value.is_none());
            }
        }
        for slice in &outcome.output.slices {
            proptest::prop_assert_eq!(slice.included, !slice.flags.is_blocking() && slice.result().is_some());
        }
        let year = IrpfComputation::new(IrpfInput {
            engine_input: &outcome.input,
            output: &outcome.output,
            accounts: &outcome.accounts,
            settings: &IrpfSettings::default(),
        })
        .and_then(|c| c.year_report(2024));
        proptest::prop_assert!(year.is_ok(), "{:?}", year.err());
        for currency in [DisplayCurrency::Eur, DisplayCurrency::Usd] {
            let context = AnalyticsContext { currency, ..ctx(&outcome, &market) };
            let snapshot = holdings_snapshot(&context, &[], None);
            proptest::prop_assert!(snapshot.is_ok(), "{:?}", snapshot.err());
            for h in &snapshot.unwrap().holdings {
                if let Some(value) = h.current_value {
                    proptest::prop_assert!(value.abs() < core_domain::num::VALUE_LIMIT);
                }
            }
            let series = daily_series(&context);
            proptest::prop_assert!(series.is_ok(), "{:?}", series.err());
            let k = kpis(&context, &series.unwrap());
            proptest::prop_assert!(k.is_ok(), "{:?}", k.err());
        }
        let rows = integrity_rows(&outcome.input, &outcome.output, &outcome.accounts, &custody(&outcome));
        proptest::prop_assert!(rows.is_ok(), "{:?}", rows.err());
    }
}
