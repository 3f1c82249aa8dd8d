//! Use cases over the in-memory fake store, with the figures of the spec's worked examples.

use core_domain::testkit::{Ledger, date, instant, sell};
use serde_json::{Value, json};
use shared_types::{CustodyKind, SpotTxType};

use super::*;
use crate::error::UseCaseError;
use crate::fake::Fake;
use crate::ports::{FixedClock, SettingKey};

mod ai_tools;
mod guide;
mod provider_markets;

fn queries(fake: Fake, now: &str) -> LedgerQueries<Fake> {
    LedgerQueries::new(fake, FixedClock(instant(now)))
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

/// Asserts the listed keys of a JSON object.
fn check(actual: &Value, expected: &Value) {
    for (key, value) in expected.as_object().unwrap() {
        assert_eq!(&actual[key], value, "key {key}");
    }
}

fn d1() -> Ledger {
    core_domain::testkit::examples::d1()
}

#[test]
fn d1_summary_without_prices_is_unvalued_with_a_hint() {
    let q = queries(Fake::new(&d1()), "2023-07-01T10:00:00Z");
    let summary = q
        .get_portfolio_summary(&CurrencyRequest::default())
        .unwrap();
    let j = to_json(&summary);
    check(
        &j["metrics"],
        &json!({
            "ratesIncomplete": false,
            "pricesIncomplete": true,
            "totalEquityFiat": "0.00",
            "totalCostBasisFiat": "0.00",
            "totalRealizedPnlFiat": "4970.00",
            "currency": "EUR"
        }),
    );
    assert_eq!(j["valued"], json!([]));
    check(
        &j["unvalued"][0],
        &json!({"id": "btc", "symbol": "BTC", "amount": "0.5", "costBasisFiat": "10005.00", "reason": "no_price"}),
    );
    assert_eq!(
        j["missing"],
        json!([{"what": "no prices for BTC", "hint": "run `cartera prices import FILE --symbol BTC` with daily closes"}])
    );
}

#[test]
fn d1_summary_with_a_stale_price_values_at_the_latest_stored_quote_and_says_how_old_it_is() {
    // domain.md §12.1: the current price is the latest stored quote in the display currency
    // (tools.md §9.1 "at the latest stored price"), here 30 days before the as-of date.
    let fake = Fake::new(&d1()).price("2023-06-01", "BTC", "25000", "EUR");
    let q = queries(fake, "2023-07-01T10:00:00Z");
    let summary = q
        .get_portfolio_summary(&CurrencyRequest::default())
        .unwrap();
    let j = to_json(&summary);
    check(
        &j["valued"][0],
        &json!({"symbol": "BTC", "amount": "0.5", "currentValueFiat": "12500.00"}),
    );
    assert_eq!(summary.missing.len(), 1);
    assert_eq!(
        summary.missing[0].what,
        "BTC is valued at its latest stored price, of 2023-06-01 (30 days before 2023-07-01)"
    );
}

#[test]
fn d1_summary_valued_and_lots() {
    let fake = Fake::new(&d1()).price("2023-06-30", "BTC", "28000", "EUR");
    let q = queries(fake, "2023-07-01T10:00:00Z");
    let j = to_json(
        &q.get_portfolio_summary(&CurrencyRequest::default())
            .unwrap(),
    );
    check(
        &j["valued"][0],
        &json!({
            "id": "btc", "symbol": "BTC", "amount": "0.5", "avgPriceFiat": "20010",
            "costBasisFiat": "10005.00", "currentValueFiat": "14000.00",
            "unrealizedPnlFiat": "3995.00", "allocationPct": "100.00", "locations": ["Kraken"]
        }),
    );
    check(
        &j["metrics"],
        &json!({"totalPnlFiat": "8965.00", "totalUnrealizedPnlFiat": "3995.00"}),
    );
    let history = q
        .get_token_history(&TokenHistoryRequest {
            symbol: "btc".to_owned(),
            page: 0,
            page_size: 10,
        })
        .unwrap();
    let lot = to_json(&history.lots[0]);
    check(
        &lot,
        &json!({
            "number": 1, "lotId": "L:d1r1:0", "date": "2023-02-01", "exchange": "Kraken", "originalQty": "1.5",
            "remainingQty": "0.5", "unitCost": "20010", "totalCost": "30015.00", "status": "PARTIAL",
            "historyCount": 1, "relocationCount": 0
        }),
    );
    check(
        &lot["slices"][0],
        &json!({"sliceId": "E:d1r2:P:0", "quantity": "1", "transmissionValue": "24980.00",
                "acquisitionValue": "20010.00", "gainLoss": "4970.00", "included": true}),
    );
    assert_eq!(history.total_count, 1);
    assert_eq!(history.total_pages, 1);
}

fn d14() -> Fake {
    let ledger = core_domain::testkit::examples::d14();
    core_domain::testkit::examples::d14_closes()
        .into_iter()
        .fold(Fake::new(&ledger), |fake, (day, symbol, close)| {
            fake.price(&day, symbol, close, "EUR")
        })
}

const D14_T: &str = "2024-01-06T18:00:00Z";

#[test]
fn d14_kpis_risk_and_allocation() {
    let q = queries(d14(), D14_T);
    let k = to_json(&q.get_kpis(&CurrencyRequest::default()).unwrap());
    check(
        &k,
        &json!({
            "asOf": "2024-01-06", "currency": "EUR", "ratesIncomplete": false, "pricesIncomplete": false,
            "totalEquity": "44050.00", "totalCostBasis": "40000.00", "totalUnrealizedPnl": "4050.00",
            "totalRealizedPnl": "1000.00", "totalPnl": "5050.00", "totalRoiPct": "12.63",
            "change24h": "3050.00", "allTimeHigh": "63000.00", "maxDrawdownPct": "-0.0159",
            "annualizedVolatility": "0.7045", "sharpeRatio": "12.9163",
            "trades": {"total": 1, "winning": 1, "losing": 0, "winRatePct": "100.00", "averageR": null},
            "bestAsset": {"symbol": "BTC", "roiPct": "10.25", "allocationPct": "50.06"},
            "worstAsset": {"symbol": "ETH", "roiPct": "10.00", "allocationPct": "49.94"}
        }),
    );
    let r = to_json(&q.get_risk_metrics().unwrap());
    assert_eq!(
        r,
        json!({"maxDrawdownPct": "-0.0159", "annualizedVolatility": "0.7045",
               "sharpeRatio": "12.9163", "alpha": "3.5000", "beta": "0.7541"})
    );
    let a = to_json(&q.get_asset_allocation(&CurrencyRequest::default()).unwrap());
    let shares: Vec<(&str, &str)> = a["ranked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["symbol"].as_str().unwrap(),
                i["allocationPct"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(shares, [("BTC", "50.06"), ("ETH", "49.94")]);
    let perf = q
        .get_performance_history(&SeriesRequest {
            max_points: Some(3),
            ..SeriesRequest::default()
        })
        .unwrap();
    assert_eq!(perf.points.len(), 3);
    assert_eq!(perf.omitted_count, 3);
    assert_eq!(perf.points[0].date, "2024-01-01");
    assert_eq!(perf.points[2].date, "2024-01-06");
    let heat = q
        .get_volatility_heatmap(&HeatmapRequest::default())
        .unwrap();
    assert_eq!(heat.year, 2024);
    let cell = |d: &str| {
        heat.cells
            .iter()
            .find(|c| c.date == d)
            .map(|c| c.volatility.clone())
    };
    assert_eq!(cell("2024-01-02"), Some(None));
    assert_eq!(cell("2024-01-03"), Some(Some("0.6755".to_owned())));
    let dd = q.get_drawdown_curve(&SeriesRequest::default()).unwrap();
    assert_eq!(dd.points.len(), 6);
}

#[test]
fn d14_portfolio_summary_snapshot() {
    let q = queries(d14(), D14_T);
    let summary = q
        .get_portfolio_summary(&CurrencyRequest::default())
        .unwrap();
    check(
        &to_json(&summary.metrics),
        &json!({"totalEquityFiat": "44050.00", "totalCostBasisFiat": "40000.00",
                "totalUnrealizedPnlFiat": "4050.00", "totalRealizedPnlFiat": "1000.00",
                "totalPnlFiat": "5050.00"}),
    );
    insta::assert_json_snapshot!("d14_portfolio_summary", summary);
}

#[test]
fn derived_state_is_computed_once_per_version() {
    let q = queries(d14(), D14_T);
    q.get_kpis(&CurrencyRequest::default()).unwrap();
    q.get_portfolio_summary(&CurrencyRequest::default())
        .unwrap();
    q.get_spanish_tax_report(&TaxReportRequest {
        year: 2024,
        with_year_end_holdings: false,
    })
    .unwrap();
    q.get_fiscal_integrity().unwrap();
    assert_eq!(q.recomputations(), 1);
    assert_eq!(q.store().snapshots_taken.get(), 1);
    // The IRPF year report is computed once per year and version.
    let d = q.derived().unwrap();
    let first = super::tax::report(&d, 2024, false).unwrap();
    let again = super::tax::report(&d, 2024, false).unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    q.store().snapshot.version += 1;
    q.get_kpis(&CurrencyRequest::default()).unwrap();
    q.search_spot_transactions(&TxSearchRequest::default())
        .unwrap();
    assert_eq!(q.recomputations(), 2);
    assert_eq!(q.get_ledger_version().unwrap().version, 2);
}

#[test]
fn prepared_portfolio_and_years_answer_as_the_lazy_questions() {
    let fake = || Fake::new(&i2());
    let lazy = queries(fake(), "2026-06-30T12:00:00Z");
    let prepared = queries(fake(), "2026-06-30T12:00:00Z");
    let years = lazy.get_ledger_overview().unwrap().years;
    assert!(years.len() >= 2, "{years:?}");
    prepared.prepare_portfolio_and_tax_years(&years).unwrap();
    // The reports were built by the preparation: the memo does not compute them again.
    let d = prepared.derived().unwrap();
    for year in &years {
        d.year_report((*year, false), || panic!("year {year} built again"))
            .unwrap();
    }
    let summary = |q: &LedgerQueries<Fake>| {
        to_json(
            &q.get_portfolio_summary(&CurrencyRequest::default())
                .unwrap(),
        )
    };
    assert_eq!(summary(&prepared), summary(&lazy));
    for year in &years {
        let report = |q: &LedgerQueries<Fake>| {
            to_json(
                &q.get_spanish_tax_report(&TaxReportRequest {
                    year: *year,
                    with_year_end_holdings: false,
                })
                .unwrap(),
            )
        };
        assert_eq!(report(&prepared), report(&lazy), "year {year}");
    }
    // A comparison prepares both of its years at once.
    let compared = queries(fake(), "2026-06-30T12:00:00Z");
    let (a, b) = (years[0], years[1]);
    compared
        .compare_tax_years(&CompareTaxYearsRequest {
            year_a: a,
            year_b: b,
        })
        .unwrap();
    let d = compared.derived().unwrap();
    for year in [a, b] {
        d.year_report((year, false), || panic!("year {year} built again"))
            .unwrap();
    }
}

fn i2() -> Ledger {
    core_domain::testkit::examples::i2()
}

fn tax(q: &LedgerQueries<Fake>, year: i32) -> TaxReport {
    q.get_spanish_tax_report(&TaxReportRequest {
        year,
        with_year_end_holdings: false,
    })
    .unwrap()
}

#[test]
fn i2_summaries_through_the_dto() {
    let q = queries(Fake::new(&i2()), "2023-01-01T00:00:00Z");
    let values = |year: i32| -> Vec<Value> {
        let j = to_json(&tax(&q, year).summary);
        shared_types::dto::TaxSummary::KEYS
            .iter()
            .map(|k| j[*k].clone())
            .collect()
    };
    let strings = |list: [&str; 16]| -> Vec<Value> { list.iter().map(|s| json!(s)).collect() };
    assert_eq!(
        values(2018),
        strings([
            "0.00", "6217.80", "200.00", "0.00", "-6217.80", "28.50", "-6217.80", "0.00", "50.00",
            "0.00", "150.00", "0.00", "6167.80", "6167.80", "0.00", "0.00"
        ])
    );
    assert_eq!(
        values(2020),
        strings([
            "418.00", "0.00", "1000.00", "0.00", "418.00", "142.50", "418.00", "0.00", "0.00",
            "668.00", "750.00", "0.00", "0.00", "1249.80", "0.00", "0.00"
        ])
    );
    let r2020 = to_json(&tax(&q, 2020));
    assert_eq!(
        r2020["carryForward"]["used"],
        json!([
            {"originYear": 2018, "kind": "SAVINGS_GP", "source": "LEDGER", "nature": "SAME", "amount": "418.00"},
            {"originYear": 2018, "kind": "SAVINGS_GP", "source": "LEDGER", "nature": "CROSS", "amount": "250.00"}
        ])
    );
    assert_eq!(r2020["completeness"]["status"], json!({"kind": "complete"}));
    assert_eq!(r2020["art33_5Warnings"], Value::Null);
    let r2022 = to_json(&tax(&q, 2022));
    assert_eq!(
        r2022["carryForward"]["expired"],
        json!([{"originYear": 2018, "kind": "SAVINGS_GP", "amount": "1249.80"}])
    );
    // The summary has exactly the sixteen keys, in order.
    let keys: Vec<&str> = r2022["summary"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = shared_types::dto::TaxSummary::KEYS.to_vec();
    expected.sort_unstable();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, expected);
    let cmp = to_json(
        &q.compare_tax_years(&CompareTaxYearsRequest {
            year_a: 2018,
            year_b: 2019,
        })
        .unwrap(),
    );
    assert_eq!(
        cmp["deltas"]["capitalGains"],
        json!({"kind": "delta", "value": "4250.00"})
    );
    assert_eq!(cmp["yearA"]["completeness"], json!({"kind": "complete"}));
}

fn i5() -> Fake {
    let ledger = core_domain::testkit::examples::i5();
    Fake::new(&ledger)
        .price("2022-06-02", "ETH", "1700.00", "EUR")
        .price("2022-06-02", "BTC", "27983.72", "EUR")
        .price("2022-11-08", "BTC", "20560.98", "EUR")
}

#[test]
fn i5_2022_report_snapshot_and_derivatives() {
    let q = queries(i5(), "2024-01-01T00:00:00Z");
    let report = tax(&q, 2022);
    let j = to_json(&report);
    check(
        &j["summary"],
        &json!({"capitalGains": "698.70", "capitalLosses": "894.39", "netPatrimonialResult": "-195.69",
                "carryForwardGenerated": "195.69"}),
    );
    insta::assert_json_snapshot!("i5_2022_tax_report", report);
    let latest = q.get_tax_audit_latest(2022, 2).unwrap();
    let ids: Vec<&str> = latest.rows.iter().map(|r| r.slice_id.as_str()).collect();
    assert_eq!(ids, ["E:e5:F:0", "E:e4:P:0"]);
    assert_eq!(latest.omitted_count, 2);
    let csv = q
        .get_tax_report_csv(&TaxReportRequest {
            year: 2022,
            with_year_end_holdings: false,
        })
        .unwrap();
    let names: Vec<&str> = csv.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["modelo100_2022.csv", "annex_2022.csv"]);
    let d = to_json(&q.get_derivatives_pnl().unwrap());
    assert_eq!(
        d,
        json!({"ranked": [{"symbol": "BTCEUR-PERP", "currency": "EUR", "realizedPnl": "165.00",
               "funding": "0.00", "fees": "5.00", "netPnl": "160.00", "netEur": "160.00",
               "unresolvedCount": 0}]})
    );
    let locations = to_json(
        &q.get_lot_custody_locations(&CustodyLocationsRequest::default())
            .unwrap(),
    );
    assert_eq!(
        locations["locations"],
        json!([
            {"symbol": "BTC", "accountName": "Ledger", "quantity": "0.0398", "lotCount": 1},
            {"symbol": "ETH", "accountName": "Binance", "quantity": "0.5", "lotCount": 1}
        ])
    );
}

#[test]
fn tx_search_filters_pages_and_keys() {
    let q = queries(i5(), "2024-01-01T00:00:00Z");
    let page = q
        .search_spot_transactions(&TxSearchRequest {
            symbol: Some("eth".to_owned()),
            page_size: 2,
            ..TxSearchRequest::default()
        })
        .unwrap();
    assert_eq!(page.total_count, 4);
    assert_eq!(page.total_pages, 2);
    let keys: Vec<&str> = page.rows.iter().map(|r| r.row_key.as_str()).collect();
    assert_eq!(keys, ["e4", "e3"]);
    check(
        &to_json(&page.rows[1]),
        &json!({"date": "2022-03-01T10:00:00Z", "type": "SELL", "assetIn": "EUR", "amountIn": "1300",
                "assetOut": "ETH", "amountOut": "0.5", "priceFiat": null, "totalFiat": null,
                "fiatCurrency": null, "fee": {"kind": "CHARGED", "amount": "1.3", "asset": "EUR"},
                "exchange": "Binance", "edited": false}),
    );
    let typed = q
        .search_spot_transactions(&TxSearchRequest {
            types: vec![SpotTxType::TransferIn, SpotTxType::TransferOut],
            from: Some(date("2022-11-08")),
            to: Some(date("2022-11-08")),
            ..TxSearchRequest::default()
        })
        .unwrap();
    let keys: Vec<&str> = typed.rows.iter().map(|r| r.row_key.as_str()).collect();
    assert_eq!(keys, ["e6", "e5"]);
    assert_eq!(
        typed.rows[1].fee,
        shared_types::dto::FeeDto::Charged {
            amount: "0.0002".into(),
            asset: "BTC".into()
        }
    );
    let err = q
        .search_spot_transactions(&TxSearchRequest {
            page: 0,
            ..TxSearchRequest::default()
        })
        .unwrap_err();
    assert_eq!(err.to_string(), "invalid page: pages start at 1");
}

#[test]
fn accounts_tree_and_account_holdings() {
    let fake = i5().custody("Binance", CustodyKind::ForeignProvider, Some("MT"));
    let q = queries(fake, "2024-01-01T00:00:00Z");
    let list = to_json(&q.list_accounts().unwrap());
    let names: Vec<&str> = list["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Binance", "Kraken", "Ledger"]);
    check(
        &list["accounts"][0],
        &json!({"custodyKind": "FOREIGN_PROVIDER", "country": "MT", "spotRowCount": 5, "futuresRowCount": 0}),
    );
    assert_eq!(
        list["accounts"][1]["children"][0]["name"],
        json!("Kraken:futures")
    );
    assert_eq!(
        list["accounts"][1]["children"][0]["futuresRowCount"],
        json!(2)
    );
    let held = to_json(
        &q.get_account_holdings(&AccountHoldingsRequest {
            account_name: "led".to_owned(),
            currency: None,
        })
        .unwrap(),
    );
    check(
        &held,
        &json!({"kind": "resolved", "accountName": "Ledger", "emptyAccountCount": 0}),
    );
    // One valuation policy with the portfolio (D-91): the latest close, however old, and a
    // notice naming a stale one.
    assert_eq!(
        held["sections"][0]["ranked"][0]["symbol"],
        json!("BTC"),
        "{held}"
    );
    assert_eq!(
        held["sections"][0]["ranked"][0]["currentValueFiat"],
        json!("818.33")
    );
    assert_eq!(
        held["missing"][0]["what"],
        json!(
            "BTC is valued at its latest stored price, of 2022-11-08 (419 days before 2024-01-01)"
        )
    );
    let unknown = to_json(
        &q.get_account_holdings(&AccountHoldingsRequest {
            account_name: "Coinbase".to_owned(),
            currency: None,
        })
        .unwrap(),
    );
    assert_eq!(
        unknown,
        json!({"kind": "not_found", "available": ["Binance", "Kraken", "Ledger"]})
    );
}

#[test]
fn latest_prices_prefer_the_display_currency() {
    let fake = Fake::new(&d1())
        .price("2024-01-01", "BTC", "40000", "EUR")
        .price("2024-01-02", "BTC", "44000", "USD")
        .setting(SettingKey::DisplayCurrency, "\"USD\"");
    let q = queries(fake, "2024-01-03T00:00:00Z");
    let j = to_json(
        &q.get_latest_prices(&LatestPricesRequest {
            symbols: vec!["btc".to_owned(), "DOGE".to_owned()],
            currency: None,
        })
        .unwrap(),
    );
    assert_eq!(
        j,
        json!({"prices": [{"symbol": "BTC", "price": "44000", "currency": "USD",
               "timestamp": "2024-01-02T00:00:00Z", "provider": "daily", "stalenessSeconds": 86400}],
               "notTracked": ["DOGE"]})
    );
}

#[test]
fn latest_prices_name_the_format_of_the_chosen_quote() {
    let fake = Fake::new(&d1())
        .quote("2024-01-01", "BTC", "40000", "EUR", "daily")
        .quote("2024-01-02", "BTC", "41000", "EUR", "series")
        .quote("2024-01-02", "ETH", "2300", "EUR", "kraken-ohlcvt");
    let q = queries(fake, "2024-01-03T00:00:00Z");
    let j = to_json(
        &q.get_latest_prices(&LatestPricesRequest {
            symbols: vec!["BTC".to_owned(), "ETH".to_owned()],
            currency: None,
        })
        .unwrap(),
    );
    let providers: Vec<&str> = j["prices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["provider"].as_str().unwrap())
        .collect();
    assert_eq!(providers, ["series", "kraken-ohlcvt"]);
}

#[test]
fn usd_summary_without_rates_is_no_rate() {
    let fake = Fake::new(&d1())
        .price("2023-06-30", "BTC", "28000", "EUR")
        .setting(SettingKey::DisplayCurrency, "\"USD\"");
    let q = queries(fake, "2023-07-01T10:00:00Z");
    let s = q
        .get_portfolio_summary(&CurrencyRequest::default())
        .unwrap();
    assert_eq!(s.metrics.currency, "USD");
    assert!(s.metrics.rates_incomplete);
    assert_eq!(s.unvalued[0].reason, "no_rate");
    assert_eq!(s.missing[0].what, "no ECB rate to value BTC in USD");
    assert_eq!(
        s.missing[0].hint,
        "run `cartera rates import eurofxref-hist.csv` (the ECB history)"
    );
}

#[test]
fn usd_summary_converts_cost_at_acquisition_and_value_at_as_of() {
    let fake = Fake::new(&d1())
        .price("2023-06-30", "BTC", "28000", "EUR")
        .rate("2023-02-01", "USD", "1.08")
        .rate("2023-06-30", "USD", "1.1");
    let q = queries(fake, "2023-07-01T10:00:00Z");
    let s = q
        .get_portfolio_summary(&CurrencyRequest {
            currency: Some(DisplayCurrency::Usd),
        })
        .unwrap();
    check(
        &to_json(&s.valued[0]),
        &json!({"costBasisFiat": "10805.40", "currentValueFiat": "15400.00", "currency": "USD"}),
    );
    assert!(s.missing.is_empty());
}

#[test]
fn invalid_settings_and_requests_are_typed_errors() {
    let fake = Fake::new(&d1()).setting(SettingKey::FiscalTimezone, "\"Europe/Paris\"");
    let q = queries(fake, "2023-07-01T10:00:00Z");
    let err = q.get_fiscal_integrity().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid setting fiscal_timezone: \"Europe/Paris\" is not Europe/Madrid or Atlantic/Canary"
    );
    let q = queries(Fake::new(&d1()), "2023-07-01T10:00:00Z");
    let err = q
        .get_spanish_tax_report(&TaxReportRequest {
            year: 1999,
            with_year_end_holdings: false,
        })
        .unwrap_err();
    assert!(matches!(err, UseCaseError::InvalidRequest { .. }));
    let err = q
        .get_token_history(&TokenHistoryRequest {
            symbol: "b t c".to_owned(),
            page: 0,
            page_size: 5,
        })
        .unwrap_err();
    assert!(matches!(err, UseCaseError::InvalidRequest { ref field, .. } if field == "symbol"));
}

#[test]
fn integrity_groups_and_counters() {
    // An unmatched sale: MISSING_ACQUISITION.
    let ledger = Ledger::new().row(
        sell("x1", "Kraken", "2023-03-01T10:00:00Z")
            .inflow("100", "EUR")
            .outflow("1", "ETH"),
    );
    let q = queries(Fake::new(&ledger), "2023-07-01T10:00:00Z");
    let j = to_json(&q.get_fiscal_integrity().unwrap());
    check(
        &j["groups"][0],
        &json!({"qualityFlag": "MISSING_ACQUISITION", "severity": "high", "count": 1}),
    );
    check(
        &j["groups"][0]["rows"][0],
        &json!({"symbol": "ETH", "account": "Kraken", "quantity": "1", "rowKey": "x1"}),
    );
    assert_eq!(
        j["counters"]["uncoveredQuantity"],
        json!([{"symbol": "ETH", "amount": "1"}])
    );
    assert_eq!(j["needsRecalculation"], json!(false));
}

#[test]
fn scenarios_over_the_snapshot() {
    let q = queries(d14(), D14_T);
    let answer = q
        .get_portfolio_scenario(
            &ScenarioRequest::Breakeven {
                symbol: "BTC".into(),
            },
            None,
        )
        .unwrap();
    let ScenarioAnswer::Breakeven(b) = answer else {
        panic!("breakeven expected");
    };
    assert_eq!(
        to_json(&b),
        json!({"kind": "computed", "symbol": "BTC", "avgUnitCost": "40000", "currency": "EUR"})
    );
    let answer = q
        .get_portfolio_scenario(
            &ScenarioRequest::Shock(ShockSpec::Uniform { pct: "-10".into() }),
            None,
        )
        .unwrap();
    let ScenarioAnswer::Shock(s) = answer else {
        panic!("shock expected");
    };
    check(
        &to_json(&s),
        &json!({"kind": "computed", "totalBefore": "44050.00", "totalAfter": "39645.00", "delta": "-4405.00"}),
    );
    let answer = q
        .get_portfolio_scenario(
            &ScenarioRequest::PositionValue {
                symbol: "DOGE".into(),
                price: "1".into(),
            },
            None,
        )
        .unwrap();
    assert_eq!(
        answer,
        ScenarioAnswer::PositionValue(shared_types::dto::PositionValueDto::NotHeld {
            symbol: "DOGE".into(),
            currency: "EUR".into()
        })
    );
}

#[test]
fn settings_list_shows_defaults() {
    let fake = Fake::new(&d1()).setting(SettingKey::IrpfStartYear, "2020");
    let q = queries(fake, "2023-07-01T10:00:00Z");
    let list = q.list_settings().unwrap();
    assert_eq!(list.settings.len(), SettingKey::ALL.len());
    assert_eq!(list.settings[2].key, "display_language");
    assert_eq!(list.settings[3].key, "irpf.start_year");
    assert_eq!(list.settings[3].value.as_deref(), Some("2020"));
    assert_eq!(list.settings[0].default, "\"Europe/Madrid\"");
}

/// A `&dyn ReadUseCases` is what the tool layer holds.
#[test]
fn read_use_cases_is_object_safe_send_and_sync() {
    fn assert_send_sync<T: Send + Sync + ?Sized>() {}
    assert_send_sync::<dyn ReadUseCases>();
    assert_send_sync::<LedgerQueries<Fake>>();
    let q = queries(Fake::new(&d1()), "2023-07-01T10:00:00Z");
    let dynamic: &dyn ReadUseCases = &q;
    assert_eq!(dynamic.get_ledger_version().unwrap().version, 1);
}

fn i7() -> Fake {
    let ledger = core_domain::testkit::examples::i7();
    Fake::new(&ledger)
        .custody("Kraken", CustodyKind::ForeignProvider, Some("IE"))
        .custody("Bit2Me", CustodyKind::SpanishProvider, Some("ES"))
        .custody("Ledger", CustodyKind::SelfCustody, None)
        .price("2024-12-31", "BTC", "89031.24", "EUR")
        .price("2024-12-31", "ETH", "3200.00", "EUR")
        .price("2025-12-31", "BTC", "110000.00", "EUR")
        .price("2025-12-31", "ETH", "3500.00", "EUR")
}

#[test]
fn i7_holdings_at_year_end_with_modelo_721_and_714() {
    let q = queries(i7(), "2026-01-10T00:00:00Z");
    let h = q
        .get_holdings_at(&HoldingsAtRequest {
            date: date("2024-12-31"),
        })
        .unwrap();
    let rows: Vec<String> = h
        .custodians
        .iter()
        .flat_map(|c| {
            c.entries.iter().map(move |e| {
                format!(
                    "{} {} {} {}",
                    c.name,
                    e.symbol,
                    e.units,
                    e.value_eur.as_deref().unwrap_or("null")
                )
            })
        })
        .collect();
    assert_eq!(
        rows,
        [
            "Kraken BTC 0.6 53418.74",
            "Kraken ETH 2 6400.00",
            "Bit2Me BTC 0.2 17806.25",
            "Ledger BTC 0.1 8903.12",
        ]
    );
    let year_end = to_json(h.year_end.as_ref().unwrap());
    check(
        &year_end["modelo721"],
        &json!({"decision": "REQUIRED_FIRST_TIME", "total721": "59818.74",
                "filingWindowFrom": "2025-01-01", "filingWindowTo": "2025-03-31"}),
    );
    check(
        &year_end["modelo714"],
        &json!({"total714": "86528.11", "cryptoAloneExceeds2m": false}),
    );
    // The same figures inside the tax report, and a filed 721 changes the next decision.
    let report = q
        .get_spanish_tax_report(&TaxReportRequest {
            year: 2024,
            with_year_end_holdings: true,
        })
        .unwrap();
    assert_eq!(report.year_end_holdings, h.year_end);
    let mid_year = q
        .get_holdings_at(&HoldingsAtRequest {
            date: date("2024-03-01"),
        })
        .unwrap();
    assert!(mid_year.year_end.is_none());
    assert_eq!(mid_year.custodians[0].entries[0].value_eur, None);
    let filed = i7().setting(
        SettingKey::Modelo721LastFiled,
        r#"{"year":2024,"total":"59818.74"}"#,
    );
    let q = queries(filed, "2026-01-10T00:00:00Z");
    let h2025 = q
        .get_holdings_at(&HoldingsAtRequest {
            date: date("2025-12-31"),
        })
        .unwrap();
    let m = &h2025.year_end.unwrap().modelo721;
    assert_eq!(m.decision, "NOT_REQUIRED");
    assert_eq!(m.total721, "67500.00");
}

/// The engine reads only the price candidates of its rows' dates; its output equals a run
/// over every stored close.
#[test]
fn candidate_prices_give_the_engine_output_of_the_full_market() {
    for fake in [i5(), d14(), i7()] {
        let full = core_domain::Market::new(fake.rates.clone(), fake.prices.clone()).unwrap();
        let q = queries(fake, "2026-01-10T00:00:00Z");
        let derived = q.derived().unwrap();
        let output = core_domain::fifo::run(
            &derived.input,
            &full,
            &core_domain::EngineSettings::default(),
        )
        .unwrap();
        assert_eq!(format!("{output:?}"), format!("{:?}", derived.output));
    }
}

#[test]
fn the_ledger_overview_names_the_imported_years_and_assets_with_or_without_overrides() {
    use core_domain::overrides::{FeeEdit, RowOverride, ValueEdit};
    let expected = json!({"years": [2021, 2022, 2023], "assets": ["BTC", "ETH", "EUR", "SOL"]});
    // Without overrides the load's own scan finds it.
    let q = queries(i5(), "2024-01-01T00:00:00Z");
    assert_eq!(to_json(&q.get_ledger_overview().unwrap()), expected);
    // An override moving e8 into 2024 changes the effective row, not the imported one.
    let mut fake = i5();
    fake.snapshot.overrides.push(RowOverride {
        row_key: "e8".to_owned(),
        tx_type: None,
        instant: Some(core_domain::Instant::parse("2024-02-01T10:00:00Z").unwrap()),
        in_quantity: None,
        out_quantity: None,
        fee: FeeEdit::Unchanged,
        edited_value: ValueEdit::Unchanged,
        edited_price: ValueEdit::Unchanged,
        edited_fee_value: ValueEdit::Unchanged,
        excluded: false,
    });
    let q = queries(fake, "2024-06-01T00:00:00Z");
    assert_eq!(to_json(&q.get_ledger_overview().unwrap()), expected);
    let derived = q.derived().unwrap();
    assert!(
        derived
            .input
            .rows
            .iter()
            .any(|r| r.row.instant.utc_date().to_string() == "2024-02-01"),
        "the override applies to the effective row"
    );
}

#[test]
fn audit_rows_made_on_one_thread_are_those_made_on_four() {
    let q = queries(i5(), "2024-01-01T00:00:00Z");
    let d = q.derived().unwrap();
    let report = super::tax::year_report(&d, 2022, false).unwrap();
    assert_eq!(report.audit_trail.len(), 4);
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| to_json(&super::tax::audit_dtos(&report.audit_trail)))
    };
    let one = on(1);
    assert_eq!(on(4), one);
    assert_eq!(one, to_json(&tax(&q, 2022).audit_trail));
}

/// Issue 25 §12: which years have an IRPF report is one rule, shared by `cartera tax` and the
/// tools: from the first transaction's year to the later of the last one's and the current.
#[test]
fn a_tax_year_is_covered_from_the_first_year_to_the_current_one() {
    use crate::error::UseCaseError;
    let years: std::collections::BTreeSet<i32> = [2022, 2024].into_iter().collect();
    for year in [2022, 2023, 2024, 2025, 2026] {
        assert!(
            super::check_year_covered(&years, year, 2026).is_ok(),
            "{year}"
        );
    }
    let before = super::check_year_covered(&years, 2019, 2026).unwrap_err();
    assert!(matches!(before, UseCaseError::MissingData { .. }));
    assert_eq!(
        before.to_string(),
        "no IRPF report for 2019: the ledger's transactions start in 2022 (they cover \
         2022–2024); import the exports of 2019 with `cartera import FILE…`"
    );
    assert_eq!(
        super::check_year_covered(&years, 2027, 2026)
            .unwrap_err()
            .to_string(),
        "no IRPF report for 2027: it is after the current year 2026 (the ledger's transactions \
         cover 2022–2024)"
    );
    assert!(matches!(
        super::check_year_covered(&std::collections::BTreeSet::new(), 2024, 2026),
        Err(UseCaseError::MissingData { .. })
    ));
}
