//! Unit tests of the payload projections (`tools.md` §7 to §10, acceptance cases AC-29 to
//! AC-61) against a fake `ReadUseCases` answering DTO fixtures. Every payload produced here
//! goes through the shape checker of §15 (`shape::check_payload`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)] // Tests fail by panicking and index fixtures they built.

mod fake;
mod fixtures;
mod host;
mod shape;

use serde_json::{Value, json};
use shared_types::ToolName;
use shared_types::dto::{
    AccountHoldingsResult, AccountSection, AllocationItem, AssetAllocation, BreakevenDto,
    CompletenessDto, ConcentrationBlockDto, ConcentrationDto, CustodyLocation, CustodyLocations,
    DerivativeContractPnl, DerivativesPnl, DrawdownCurve, DrawdownPoint, FeeDto, GapItem,
    LatestPrice, LatestPrices, PerformanceHistory, PerformancePoint, PositionValueDto, ShockDto,
    ShockedAssetDto, VolatilityCell, VolatilityHeatmap,
};
use use_cases::queries::ScenarioAnswer;

use super::emit::Fmt;
use super::{ProjectCtx, ProjectError, Projected, project};
use crate::profile::{Profile, Settings, metered_budget};
use fake::Fake;
use fixtures::*;

const METERED: Settings = Settings {
    top_n_holdings: 15,
    lots_page_size: 15,
    rows_page_size: 15,
};

fn top(n: u32) -> Settings {
    Settings {
        top_n_holdings: n,
        ..METERED
    }
}

/// Projects `tool` with canonical `args`; a series is rendered at 120 points. Every payload is
/// shape-checked.
fn project_in(
    fake: &Fake,
    settings: Settings,
    base: &str,
    exposed: &[ToolName],
    tool: ToolName,
    args: &Value,
) -> Result<Value, ProjectError> {
    let ctx = ProjectCtx {
        use_cases: fake,
        settings,
        base_currency: base,
        exposed,
    };
    let map = args.as_object().unwrap();
    let payload = match project(&ctx, tool, map)? {
        Projected::Plain(map) => Value::Object(map),
        Projected::Series(series) => Value::Object(series.render(120)),
    };
    shape::check_payload(tool, &payload);
    Ok(payload)
}

fn run_with(fake: &Fake, settings: Settings, tool: ToolName, args: &Value) -> Value {
    project_in(
        fake,
        settings,
        "EUR",
        Profile::Metered.exposed(),
        tool,
        args,
    )
    .unwrap()
}

fn run(fake: &Fake, tool: ToolName, args: &Value) -> Value {
    run_with(fake, METERED, tool, args)
}

fn fails(fake: &Fake, tool: ToolName, args: &Value) -> ProjectError {
    project_in(fake, METERED, "EUR", Profile::Metered.exposed(), tool, args).unwrap_err()
}

fn chars(value: &Value) -> usize {
    serde_json::to_string(value).unwrap().chars().count()
}

fn symbols(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|h| h["symbol"].as_str().unwrap())
        .collect()
}

// ---------------------------------------------------------------- figure formats (§7.2)

fn check_format(fmt: Fmt, good: &[&str], bad: &[&str]) {
    for text in good {
        assert!(fmt.accepts(text), "{fmt:?} should accept {text:?}");
    }
    for text in bad {
        assert!(!fmt.accepts(text), "{fmt:?} should reject {text:?}");
    }
}

#[test]
fn figure_formats_are_checked_by_characters() {
    check_format(
        Fmt::Amount,
        &["1925.00", "-30.00", "0.00", "112750.00"],
        &[
            "1e3", "1925", "1925.0", "-0.00", "01.00", "+1.00", " 1.00", "1,000.00", "",
        ],
    );
    check_format(
        Fmt::UnitPrice,
        &["15000", "33.333333333333", "0.5", "0"],
        &["15000.", "0.50", "1.0000000000001", "-0", "1e5", ".5"],
    );
    check_format(
        Fmt::Quantity,
        &["0.25", "2", "0", "-400", "0.000000000000000001"],
        &["2.0", "0.250", "-0", "1e-7", "00.5", ""],
    );
    check_format(
        Fmt::Percent,
        &["58.33", "-7.10", "0.00"],
        &["58.3", "58", "-0.00"],
    );
    check_format(
        Fmt::Ratio,
        &["0.2500", "-0.0159", "1.0000", "12.9163"],
        &["0.25", "-0.0000", "0.25000", "NaN"],
    );
    check_format(
        Fmt::Date,
        &["2024-01-06", "2024-02-29"],
        &[
            "2024-1-6",
            "2024-13-01",
            "2024-01-32",
            "2024-01-06T00:00:00Z",
        ],
    );
    check_format(
        Fmt::Instant,
        &[
            "2025-01-01T00:00:00Z",
            "2024-03-01T10:00:00.5Z",
            "2024-03-01T10:00:00.123456789Z",
        ],
        &[
            "2025-01-01T00:00:00",
            "2025-01-01 00:00:00Z",
            "2024-03-01T10:00:00.50Z",
            "2024-03-01T10:00:00.Z",
            "2024-03-01T10:00:00.1234567891Z",
            "2024-03-01T24:00:00Z",
        ],
    );
    check_format(
        Fmt::Symbol,
        &["BTC", "AI16Z", "ETH2.S", "SYNTH01"],
        &["btc", "BTC EUR", "", "ABCDEFGHIJKLMNOPQRSTU"],
    );
    check_format(Fmt::Currency, &["EUR", "USD"], &["eur", "EURO", "US"]);
}

// ---------------------------------------------------------------- holdings (AC-29 to AC-34)

#[test]
fn ac29_portfolio_summary_of_forty_holdings() {
    let fake = Fake {
        summary: Some(forty(false)),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::PortfolioSummary, &json!({}));
    assert_eq!(p["ranked"].as_array().unwrap().len(), 15);
    assert_eq!(p["omittedCount"], json!(25));
    assert_eq!(p["unvaluedCount"], json!(0));
    assert_eq!(p["ranked"][0]["symbol"], json!("B2M"));
    assert_eq!(p["ranked"][0]["id"], json!("b2m"));
    assert_eq!(p["ranked"][0]["currentValueFiat"], json!("5500.00"));
    assert_eq!(
        p["metrics"],
        json!({"ratesIncomplete": false, "pricesIncomplete": false,
               "totalEquityFiat": "112750.00", "totalCostBasisFiat": "112750.00",
               "totalRealizedPnlFiat": "500.00", "totalUnrealizedPnlFiat": "0.00",
               "totalPnlFiat": "500.00", "currency": "EUR"})
    );
    assert_eq!(fake.calls(), ["summary EUR"]);
    insta::assert_json_snapshot!("portfolio_summary", p);
}

#[test]
fn ac30_portfolio_summary_with_unvalued_holdings() {
    let fake = Fake {
        summary: Some(forty(true)),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::PortfolioSummary, &json!({}));
    assert_eq!(p["ranked"].as_array().unwrap().len(), 15);
    assert_eq!(p["omittedCount"], json!(19));
    assert_eq!(p["unvaluedCount"], json!(6));
    assert_eq!(
        symbols(&p["unvalued"]),
        [
            "SYNTH18", "SYNTH19", "SYNTH20", "SYNTH21", "SYNTH22", "SYNTH23"
        ]
    );
    let reasons: Vec<&Value> = p["unvalued"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| &h["reason"])
        .collect();
    assert_eq!(
        reasons,
        [
            &json!("no_price"),
            &json!("no_price"),
            &json!("no_price"),
            &json!("no_rate"),
            &json!("no_rate"),
            &json!("no_rate")
        ]
    );
    for i in 3..6 {
        assert_eq!(p["unvalued"][i]["costBasisFiat"], Value::Null);
    }
    assert_eq!(p["unvalued"][0]["costBasisFiat"], json!("825.00"));
    assert_eq!(p["metrics"]["ratesIncomplete"], json!(true));
    assert_eq!(p["metrics"]["pricesIncomplete"], json!(true));
}

#[test]
fn ac31_totals_come_from_all_valued_holdings_not_the_listed_ones() {
    let fake = Fake {
        summary: Some(abc_summary()),
        ..Fake::default()
    };
    let p = run_with(&fake, top(1), ToolName::PortfolioSummary, &json!({}));
    assert_eq!(symbols(&p["ranked"]), ["A"]);
    assert_eq!(p["omittedCount"], json!(1));
    assert_eq!(p["unvaluedCount"], json!(1));
    assert_eq!(p["metrics"]["totalEquityFiat"], json!("150.00"));
    assert_eq!(p["metrics"]["totalCostBasisFiat"], json!("100.00"));
    assert_eq!(p["metrics"]["totalUnrealizedPnlFiat"], json!("50.00"));
    assert_eq!(p["metrics"]["totalPnlFiat"], json!("62.34"));
}

#[test]
fn ac32_holding_detail_arms() {
    let fake = Fake {
        summary: Some(forty(false)),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::HoldingDetail,
        &json!({"symbol": "SYNTH10"}),
    );
    assert_eq!(p["kind"], json!("valued"));
    assert_eq!(p["holding"]["currentValueFiat"], json!("1925.00"));
    insta::assert_json_snapshot!("holding_detail_valued", p);
    let p = run(&fake, ToolName::HoldingDetail, &json!({"symbol": "XYZ"}));
    assert_eq!(p, json!({"kind": "not_held", "symbol": "XYZ"}));
    insta::assert_json_snapshot!("holding_detail_not_held", p);
    let fake = Fake {
        summary: Some(forty(true)),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::HoldingDetail,
        &json!({"symbol": "SYNTH18"}),
    );
    assert_eq!(p["kind"], json!("unvalued"));
    assert_eq!(p["holding"]["reason"], json!("no_price"));
    insta::assert_json_snapshot!("holding_detail_unvalued", p);
}

#[test]
fn ac33_asset_allocation_caps_the_ranked_items() {
    let fake = Fake {
        allocation: Some(AssetAllocation {
            as_of: Some("2024-01-06".to_owned()),
            currency: "EUR".to_owned(),
            ranked: (0..40)
                .map(|i| {
                    let whole = 1000 - i;
                    AllocationItem {
                        symbol: format!("A{i:02}"),
                        amount: "1".to_owned(),
                        value_fiat: format!("{whole}.00"),
                        allocation_pct: "2.50".to_owned(),
                        currency: "EUR".to_owned(),
                    }
                })
                .collect(),
            unvalued: vec![GapItem {
                symbol: "ZZZ".to_owned(),
                amount: "3".to_owned(),
            }],
        }),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::AssetAllocation, &json!({}));
    assert_eq!(p["ranked"].as_array().unwrap().len(), 15);
    assert_eq!(p["ranked"][0]["symbol"], json!("A00"));
    assert_eq!(p["ranked"][0]["valueFiat"], json!("1000.00"));
    assert_eq!(p["omittedCount"], json!(25));
    assert_eq!(p["unvaluedCount"], json!(1));
    let small = run_with(&fake, top(2), ToolName::AssetAllocation, &json!({}));
    insta::assert_json_snapshot!("asset_allocation", small);
}

#[test]
fn ac34_data_gaps() {
    let fake = Fake {
        summary: Some(forty(true)),
        integrity: Some(integrity(15, 0)),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::DataGaps, &json!({}));
    assert_eq!(
        symbols(&p["unvalued"]["no_price"]),
        ["SYNTH18", "SYNTH19", "SYNTH20"]
    );
    assert_eq!(
        symbols(&p["unvalued"]["no_rate"]),
        ["SYNTH21", "SYNTH22", "SYNTH23"]
    );
    assert_eq!(p["unvalued"]["noPriceCount"], json!(3));
    assert_eq!(p["unvalued"]["noRateCount"], json!(3));
    let item_keys: Vec<&String> = p["unvalued"]["no_price"][0]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(item_keys, ["symbol", "amount"]);
    assert_eq!(p["integrity"]["groups"].as_array().unwrap().len(), 10);
    assert_eq!(p["integrity"]["omittedCount"], json!(5));
    assert_eq!(p["integrity"]["totalDefects"], json!(1395));
    assert_eq!(
        p["nextTools"],
        json!(["fiscal_integrity_rows", "holding_detail"])
    );
    let local = Profile::local(8192).unwrap();
    let p = project_in(
        &fake,
        local.settings(),
        "EUR",
        local.exposed(),
        ToolName::DataGaps,
        &json!({}),
    )
    .unwrap();
    assert_eq!(p["nextTools"], json!(["holding_detail"]));
    let small = Fake {
        summary: Some(forty(true)),
        integrity: Some(integrity(2, 1)),
        ..Fake::default()
    };
    insta::assert_json_snapshot!(
        "data_gaps",
        run_with(&small, top(2), ToolName::DataGaps, &json!({}))
    );
}

// ---------------------------------------------------------------- integrity, lots, pages

#[test]
fn ac35_fiscal_integrity_caps_groups_and_never_returns_rows() {
    let fake = Fake {
        integrity: Some(integrity(15, 2)),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::FiscalIntegrity, &json!({}));
    let counts: Vec<u64> = p["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, (91..=100).rev().collect::<Vec<u64>>());
    assert_eq!(p["omittedCount"], json!(5));
    assert!(!serde_json::to_string(&p).unwrap().contains("\"rows\""));
    assert!(!serde_json::to_string(&p).unwrap().contains("rowKey"));
    let small = Fake {
        integrity: Some(integrity(2, 1)),
        ..Fake::default()
    };
    insta::assert_json_snapshot!(
        "fiscal_integrity",
        run(&small, ToolName::FiscalIntegrity, &json!({}))
    );
}

#[test]
fn ac36_fiscal_integrity_rows_pages_from_zero() {
    let fake = Fake {
        integrity: Some(integrity(2, 31)),
        ..Fake::default()
    };
    let page = |flag: &str, page: u64| {
        run(
            &fake,
            ToolName::FiscalIntegrityRows,
            &json!({"qualityFlag": flag, "page": page}),
        )
    };
    let empty = page("UNKNOWN_TX_TYPE", 0);
    assert_eq!(empty["rows"], json!([]));
    assert_eq!(empty["totalCount"], json!(0));
    assert_eq!(empty["totalPages"], json!(1));
    assert_eq!(empty["severity"], json!("medium"));
    let first = page("MISSING_PRICE", 0);
    assert_eq!(first["totalPages"], json!(3));
    assert_eq!(first["rows"].as_array().unwrap().len(), 15);
    assert_eq!(
        first["rows"][0]["detailKey"],
        json!("quality.missing_price.row0")
    );
    let last = page("MISSING_PRICE", 2);
    assert_eq!(last["rows"].as_array().unwrap().len(), 1);
    assert_eq!(
        last["rows"][0]["detailKey"],
        json!("quality.missing_price.row30")
    );
    let past = page("MISSING_PRICE", 5);
    assert_eq!(past["rows"], json!([]));
    assert_eq!(past["totalCount"], json!(31));
    assert!(
        !serde_json::to_string(&first)
            .unwrap()
            .contains("k-MISSING_PRICE")
    );
    let small = Fake {
        integrity: Some(integrity(1, 2)),
        ..Fake::default()
    };
    insta::assert_json_snapshot!(
        "fiscal_integrity_rows",
        run(
            &small,
            ToolName::FiscalIntegrityRows,
            &json!({"qualityFlag": "MISSING_PRICE", "page": 0})
        )
    );
}

#[test]
fn ac37_token_history_lists_the_first_page_newest_first() {
    let fake = lots_fake(25);
    let p = run(&fake, ToolName::TokenHistory, &json!({"symbol": "BTC"}));
    let dates: Vec<&str> = p["lots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["date"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = (10..25).rev().map(lot_date).collect();
    assert_eq!(dates, expected);
    assert_eq!(p["omittedCount"], json!(10));
    assert_eq!(p["currency"], json!("EUR"));
    assert_eq!(fake.calls(), ["lots BTC 0 15"]);
    let none = run(&fake, ToolName::TokenHistory, &json!({"symbol": "ETH"}));
    assert_eq!(none["lots"], json!([]));
    assert_eq!(none["omittedCount"], json!(0));
    insta::assert_json_snapshot!(
        "token_history",
        run(
            &lots_fake(2),
            ToolName::TokenHistory,
            &json!({"symbol": "BTC"})
        )
    );
}

#[test]
fn ac38_token_lots_pages_from_zero() {
    let fake = lots_fake(45);
    let page = |fake: &Fake, symbol: &str, page: u64| {
        run(
            fake,
            ToolName::TokenLots,
            &json!({"symbol": symbol, "page": page}),
        )
    };
    for i in 0..3 {
        let p = page(&fake, "BTC", i);
        assert_eq!(p["lots"].as_array().unwrap().len(), 15);
        assert_eq!(p["totalPages"], json!(3));
    }
    let past = page(&fake, "BTC", 3);
    assert_eq!(past["lots"], json!([]));
    assert_eq!(past["totalCount"], json!(45));
    let fake = lots_fake(46);
    let p = page(&fake, "BTC", 3);
    assert_eq!(p["totalPages"], json!(4));
    assert_eq!(p["lots"].as_array().unwrap().len(), 1);
    let unknown = page(&fake, "NOPE", 0);
    assert_eq!(unknown["lots"], json!([]));
    assert_eq!(unknown["totalPages"], json!(1));
    assert_eq!(unknown["totalCount"], json!(0));
    // Page 0 equals the token_history list.
    let history = run(&fake, ToolName::TokenHistory, &json!({"symbol": "BTC"}));
    assert_eq!(page(&fake, "BTC", 0)["lots"], history["lots"]);
    insta::assert_json_snapshot!("token_lots", page(&lots_fake(17), "BTC", 1));
}

#[test]
fn ac39_tx_search_pages_from_one() {
    let fake = Fake {
        tx: (0..60).map(tx_row_fixture).collect(),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::TxSearch, &json!({"page": 1}));
    assert_eq!(p["totalPages"], json!(4));
    assert_eq!(p["rows"].as_array().unwrap().len(), 15);
    let p = run(&fake, ToolName::TxSearch, &json!({"page": 4}));
    assert_eq!(p["rows"].as_array().unwrap().len(), 15);
    let p = run(&fake, ToolName::TxSearch, &json!({"page": 9}));
    assert_eq!(
        serde_json::to_string(&p).unwrap(),
        r#"{"rows":[],"page":9,"pageSize":15,"totalPages":4,"totalCount":60}"#
    );
    let none = Fake::default();
    let p = run(&none, ToolName::TxSearch, &json!({"page": 1}));
    assert_eq!(p["totalPages"], json!(0));
    assert_eq!(p["totalCount"], json!(0));
    // Only the fields present are forwarded, dates parsed, types in input order.
    run(
        &none,
        ToolName::TxSearch,
        &json!({"symbol": "ETH", "from": "2024-01-01", "to": "2024-12-31", "types": ["BUY", "SELL"], "page": 2}),
    );
    assert_eq!(
        none.calls()[1],
        "tx Some(\"ETH\") Some(2024-01-01) Some(2024-12-31) [Buy, Sell] 2 15"
    );
}

#[test]
fn ac40_tx_rows_fees_and_edits() {
    let mut plain = tx_row_fixture(0);
    plain.fee = FeeDto::None;
    let mut zero = tx_row_fixture(1);
    zero.fee = FeeDto::Charged {
        amount: "0".to_owned(),
        asset: "EUR".to_owned(),
    };
    let mut edited = tx_row_fixture(2);
    edited.edited = true;
    let fake = Fake {
        tx: vec![plain, zero, edited],
        ..Fake::default()
    };
    let p = run(&fake, ToolName::TxSearch, &json!({"page": 1}));
    assert_eq!(p["rows"][0]["fee"], json!({"kind": "NONE"}));
    assert_eq!(
        p["rows"][1]["fee"],
        json!({"kind": "CHARGED", "amount": "0", "asset": "EUR"})
    );
    assert_eq!(p["rows"][2]["edited"], json!(true));
    let text = serde_json::to_string(&p).unwrap();
    assert!(!text.contains("rowKey") && !text.contains("row-key-"));
    insta::assert_json_snapshot!("tx_search", p);
}

// ---------------------------------------------------------------- account holdings

#[test]
fn ac41_to_ac45_account_holdings_arms() {
    let fake = Fake {
        account: Some(kraken_tree()),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::AccountHoldings,
        &json!({"accountName": "kraken"}),
    );
    assert_eq!(p["kind"], json!("resolved"));
    assert_eq!(p["accountName"], json!("Kraken"));
    let names: Vec<&Value> = p["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["accountName"])
        .collect();
    assert_eq!(names, [&json!("Kraken:earn"), &json!("Kraken:spot")]);
    assert_eq!(symbols(&p["sections"][1]["ranked"]), ["BTC", "ETH"]);
    assert_eq!(p["emptyAccountCount"], json!(1));
    assert_eq!(p["omittedSectionCount"], json!(0));
    assert!(p.get("metrics").is_none());
    assert_eq!(fake.calls(), ["account \"kraken\" EUR"]);
    insta::assert_json_snapshot!("account_holdings_resolved", p);

    let capped = run_with(
        &fake,
        top(1),
        ToolName::AccountHoldings,
        &json!({"accountName": "kraken"}),
    );
    assert_eq!(symbols(&capped["sections"][1]["ranked"]), ["BTC"]);
    assert_eq!(capped["sections"][1]["omittedCount"], json!(1));
    // Capped lists are never shortened to fit: under a budget of 50 the gate truncates.
    assert!(chars(&capped) > 50);

    let fake = Fake {
        account: Some(AccountHoldingsResult::Ambiguous {
            candidates: vec!["Bit2Me".into(), "Bitunix".into(), "Bitvavo".into()],
        }),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::AccountHoldings,
        &json!({"accountName": "bit"}),
    );
    assert_eq!(
        p,
        json!({"kind": "ambiguous", "candidates": ["Bit2Me", "Bitunix", "Bitvavo"]})
    );
    insta::assert_json_snapshot!("account_holdings_ambiguous", p);
    let fake = Fake {
        account: Some(AccountHoldingsResult::NotFound {
            available: vec![
                "Bit2Me".into(),
                "Bitunix".into(),
                "Bitvavo".into(),
                "Kraken".into(),
            ],
        }),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::AccountHoldings,
        &json!({"accountName": "coinbase"}),
    );
    assert_eq!(
        p,
        json!({"kind": "not_found", "available": ["Bit2Me", "Bitunix", "Bitvavo", "Kraken"]})
    );
    insta::assert_json_snapshot!("account_holdings_not_found", p);
}

#[test]
fn account_holdings_caps_sections_at_ten() {
    let section = |i: usize| AccountSection {
        account_name: format!("Acc{i:02}"),
        metrics: metrics_fixture("10.00", "10.00", "0.00"),
        ranked: vec![valued_fixture("BTC", "1", "10.00", "10.00")],
        unvalued: vec![],
    };
    let fake = Fake {
        account: Some(AccountHoldingsResult::Resolved {
            account_name: "Acc".to_owned(),
            sections: (0..12).map(section).collect(),
            empty_account_count: 0,
            missing: vec![],
        }),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::AccountHoldings,
        &json!({"accountName": "acc"}),
    );
    assert_eq!(p["sections"].as_array().unwrap().len(), 10);
    assert_eq!(p["omittedSectionCount"], json!(2));
}

// ---------------------------------------------------------------- tax (AC-46 to AC-49)

#[test]
fn ac46_tax_year_comparison_passes_deltas_in_summary_order() {
    let fake = Fake {
        comparison: Some(comparison(false)),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::TaxYearComparison,
        &json!({"yearA": 2024, "yearB": 2025, "method": "FIFO"}),
    );
    let keys: Vec<&String> = p["deltas"].as_object().unwrap().keys().collect();
    assert_eq!(keys, shared_types::dto::TaxSummary::KEYS);
    assert_eq!(
        p["deltas"]["capitalGains"],
        json!({"kind": "delta", "value": "200.00"})
    );
    assert_eq!(
        p["deltas"]["netPatrimonialResult"],
        json!({"kind": "delta", "value": "200.00"})
    );
    assert_eq!(
        p["deltas"]["estimatedIrpf"],
        json!({"kind": "delta", "value": "38.00"})
    );
    assert_eq!(
        p["deltas"]["capitalLosses"],
        json!({"kind": "delta", "value": "0.00"})
    );
    assert_eq!(p["yearA"]["completeness"], json!({"kind": "complete"}));
    assert_eq!(p["yearB"]["currency"], json!("EUR"));
    assert!(!serde_json::to_string(&p).unwrap().contains("auditTrail"));
    assert_eq!(fake.calls(), ["compare 2024 2025"]);
    insta::assert_json_snapshot!("tax_year_comparison", p);
}

#[test]
fn ac47_incomplete_year_makes_every_delta_incomparable() {
    let fake = Fake {
        comparison: Some(comparison(true)),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::TaxYearComparison,
        &json!({"yearA": 2024, "yearB": 2025, "method": "FIFO"}),
    );
    assert_eq!(
        p["yearB"]["completeness"],
        json!({"kind": "incomplete", "reasons": ["excluded_flagged_events"]})
    );
    assert_eq!(p["yearB"]["excludedFlaggedEvents"], json!(2));
    for (_, delta) in p["deltas"].as_object().unwrap() {
        assert_eq!(delta["kind"], json!("delta_incomparable"));
    }
    assert_eq!(p["deltas"]["capitalGains"]["value"], json!("200.00"));
}

#[test]
fn ac49_spanish_tax_report_caps_the_audit_trail() {
    let fake = Fake {
        report: Some(report_fixture(2024, 1)),
        audit: (0..30).map(audit_fixture).collect(),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::SpanishTaxReport,
        &json!({"year": 2024, "method": "FIFO"}),
    );
    assert_eq!(p["auditTrail"].as_array().unwrap().len(), 20);
    assert_eq!(
        p["auditTrail"][0]["date"],
        json!(audit_fixture(0).disposed_on)
    );
    assert_eq!(p["omittedCount"], json!(10));
    assert_eq!(p["unconvertibleCount"], json!(1));
    assert_eq!(
        p["completeness"],
        json!({"kind": "incomplete", "reasons": ["unconvertible_events"]})
    );
    assert_eq!(fake.calls(), ["report 2024", "audit 2024 20"]);
    let keys: Vec<&String> = p["summary"].as_object().unwrap().keys().collect();
    assert_eq!(keys, shared_types::dto::TaxSummary::KEYS);
    let small = Fake {
        report: Some(report_fixture(2024, 0)),
        audit: (0..2).map(audit_fixture).collect(),
        ..Fake::default()
    };
    insta::assert_json_snapshot!(
        "spanish_tax_report",
        run(
            &small,
            ToolName::SpanishTaxReport,
            &json!({"year": 2024, "method": "FIFO"})
        )
    );
}

#[test]
fn tax_summary_projection_covers_every_dto_field_once() {
    let report = report_fixture(2024, 0);
    let dto = serde_json::to_value(&report.summary).unwrap();
    let dto_keys: Vec<&String> = dto.as_object().unwrap().keys().collect();
    let projected = super::shared::tax_summary("GetSpanishTaxReport", &report.summary).unwrap();
    let keys: Vec<&String> = projected.as_object().unwrap().keys().collect();
    assert_eq!(keys, dto_keys);
    assert_eq!(projected, dto);
}

#[test]
fn audit_rows_map_bases_and_exclusions() {
    let mut excluded = audit_fixture(0);
    excluded.included = false;
    excluded.base = None;
    excluded.transmission_value = None;
    excluded.result = None;
    let mut general = audit_fixture(1);
    general.base = Some("GENERAL".to_owned());
    let fake = Fake {
        report: Some(report_fixture(2024, 0)),
        audit: vec![excluded, general, audit_fixture(2)],
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::SpanishTaxReport,
        &json!({"year": 2024, "method": "FIFO"}),
    );
    let bases: Vec<&Value> = p["auditTrail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["base"])
        .collect();
    assert_eq!(
        bases,
        [&json!("excluded"), &json!("general"), &json!("savings")]
    );
    assert_eq!(p["auditTrail"][0]["gainLoss"], Value::Null);
}

// ---------------------------------------------------------------- scenarios (AC-50 to AC-55)

fn scenario_fake(answer: ScenarioAnswer) -> Fake {
    Fake {
        scenario: Some(answer),
        ..Fake::default()
    }
}

fn position(kind: &str, figures: &[&str]) -> PositionValueDto {
    let s = |i: usize| figures[i].to_owned();
    let (symbol, currency) = ("BTC".to_owned(), "EUR".to_owned());
    match kind {
        "computed" => PositionValueDto::Computed {
            symbol,
            position_value: s(0),
            delta_vs_current: s(1),
            implied_allocation_pct: s(2),
            currency,
        },
        "unvalued" => PositionValueDto::Unvalued {
            symbol,
            position_value: s(0),
            currency,
        },
        "not_held" => PositionValueDto::NotHeld {
            symbol: "XYZ".to_owned(),
            currency,
        },
        _ => PositionValueDto::EmptyPortfolio { symbol, currency },
    }
}

#[test]
fn ac50_scenario_position_value_arms() {
    let cases = [
        ("computed", vec!["140000.00", "40000.00", "58.33"]),
        ("computed", vec!["150000.00", "50000.00", "60.00"]),
        ("computed", vec!["0.00", "-100000.00", "0.00"]),
        ("unvalued", vec!["10.00"]),
        ("not_held", vec![]),
        ("empty_portfolio", vec![]),
    ];
    for (i, (kind, figures)) in cases.iter().enumerate() {
        let fake = scenario_fake(ScenarioAnswer::PositionValue(position(kind, figures)));
        let p = run(
            &fake,
            ToolName::ScenarioPositionValue,
            &json!({"symbol": "BTC", "hypotheticalPrice": "70000"}),
        );
        assert_eq!(p["kind"], json!(kind));
        assert_eq!(p["currency"], json!("EUR"));
        if *kind == "computed" {
            assert_eq!(p["positionValue"], json!(figures[0]));
            assert_eq!(p["deltaVsCurrent"], json!(figures[1]));
            assert_eq!(p["impliedAllocationPct"], json!(figures[2]));
        }
        if i == 0 {
            assert_eq!(
                fake.calls(),
                ["scenario PositionValue { symbol: \"BTC\", price: \"70000\" } EUR"]
            );
        }
        if i == 0 || i >= 3 {
            insta::assert_json_snapshot!(format!("scenario_position_value_{kind}"), p);
        }
    }
}

#[test]
fn ac51_breakeven_price_arms() {
    let (s, c) = (|| "BTC".to_owned(), || "EUR".to_owned());
    let cases = [
        (
            BreakevenDto::Computed {
                symbol: s(),
                avg_unit_cost: "15000".to_owned(),
                currency: c(),
            },
            "computed",
        ),
        (
            BreakevenDto::Computed {
                symbol: s(),
                avg_unit_cost: "33.333333333333".to_owned(),
                currency: c(),
            },
            "computed",
        ),
        (
            BreakevenDto::NotHeld {
                symbol: s(),
                currency: c(),
            },
            "not_held",
        ),
        (
            BreakevenDto::UnconvertibleCostBasis {
                symbol: s(),
                currency: c(),
            },
            "unconvertible_cost_basis",
        ),
        (
            BreakevenDto::UnknownCostBasis {
                symbol: s(),
                currency: c(),
            },
            "unknown_cost_basis",
        ),
        (
            BreakevenDto::ZeroQuantity {
                symbol: s(),
                currency: c(),
            },
            "zero_quantity",
        ),
    ];
    for (i, (dto, kind)) in cases.into_iter().enumerate() {
        let expected_cost = match &dto {
            BreakevenDto::Computed { avg_unit_cost, .. } => Some(avg_unit_cost.clone()),
            _ => None,
        };
        let fake = scenario_fake(ScenarioAnswer::Breakeven(dto));
        let p = run(&fake, ToolName::BreakevenPrice, &json!({"symbol": "BTC"}));
        assert_eq!(p["kind"], json!(kind));
        if let Some(cost) = expected_cost {
            assert_eq!(p["avgUnitCost"], json!(cost));
        }
        if i != 1 {
            insta::assert_json_snapshot!(format!("breakeven_price_{kind}"), p);
        }
    }
}

fn shock_dto(
    assets: &[(&str, &str, &str)],
    totals: [&str; 3],
    unvalued: &[&str],
    not_held: &[&str],
) -> ShockDto {
    let owned = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect();
    ShockDto::Computed {
        assets: assets
            .iter()
            .map(|(symbol, before, after)| ShockedAssetDto {
                symbol: (*symbol).to_owned(),
                before: (*before).to_owned(),
                after: (*after).to_owned(),
            })
            .collect(),
        total_before: totals[0].to_owned(),
        total_after: totals[1].to_owned(),
        delta: totals[2].to_owned(),
        unvalued_symbols: owned(unvalued),
        not_held: owned(not_held),
        currency: "EUR".to_owned(),
    }
}

#[test]
fn ac52_scenario_portfolio_shock() {
    let uniform = shock_dto(
        &[("ETH", "300.00", "150.00"), ("BTC", "100.00", "50.00")],
        ["400.00", "200.00", "-200.00"],
        &[],
        &[],
    );
    let fake = scenario_fake(ScenarioAnswer::Shock(uniform));
    let p = run(
        &fake,
        ToolName::ScenarioPortfolioShock,
        &json!({"shock": {"kind": "uniform", "pct": "-50"}}),
    );
    assert_eq!(symbols(&p["assets"]), ["ETH", "BTC"]);
    assert_eq!(p["assets"][0]["after"], json!("150.00"));
    assert_eq!(p["totalAfter"], json!("200.00"));
    assert_eq!(p["delta"], json!("-200.00"));
    assert_eq!(p["notHeld"], json!([]));
    assert_eq!(
        fake.calls(),
        ["scenario Shock(Uniform { pct: \"-50\" }) EUR"]
    );
    insta::assert_json_snapshot!("scenario_portfolio_shock_computed", p);

    let per_asset = shock_dto(
        &[("ETH", "300.00", "270.00"), ("BTC", "100.00", "100.00")],
        ["400.00", "370.00", "-30.00"],
        &["ADA"],
        &["XYZ"],
    );
    let fake = scenario_fake(ScenarioAnswer::Shock(per_asset));
    let p = run(
        &fake,
        ToolName::ScenarioPortfolioShock,
        &json!({"shock": {"kind": "per_asset", "shocks": [{"symbol": "XYZ", "pct": "5"}, {"symbol": "ETH", "pct": "-10"}]}}),
    );
    assert_eq!(p["notHeld"], json!(["XYZ"]));
    assert_eq!(p["unvaluedSymbols"], json!(["ADA"]));
    assert_eq!(p["unvaluedCount"], json!(1));
    assert_eq!(p["totalAfter"], json!("370.00"));
    assert_eq!(
        fake.calls(),
        ["scenario Shock(PerAsset { shocks: [(\"XYZ\", \"5\"), (\"ETH\", \"-10\")] }) EUR"]
    );

    let three = shock_dto(
        &[
            ("ETH", "300.00", "330.00"),
            ("BTC", "100.00", "110.00"),
            ("ADA", "10.00", "11.00"),
        ],
        ["410.00", "451.00", "41.00"],
        &[],
        &[],
    );
    let fake = scenario_fake(ScenarioAnswer::Shock(three));
    let p = run_with(
        &fake,
        top(2),
        ToolName::ScenarioPortfolioShock,
        &json!({"shock": {"kind": "uniform", "pct": "10"}}),
    );
    assert_eq!(p["assets"].as_array().unwrap().len(), 2);
    assert_eq!(p["omittedCount"], json!(1));
    assert_eq!(p["totalBefore"], json!("410.00"));

    let fake = scenario_fake(ScenarioAnswer::Shock(ShockDto::EmptyPortfolio {
        currency: "EUR".to_owned(),
    }));
    let p = run(
        &fake,
        ToolName::ScenarioPortfolioShock,
        &json!({"shock": {"kind": "uniform", "pct": "-100"}}),
    );
    assert_eq!(p, json!({"kind": "empty_portfolio", "currency": "EUR"}));
    insta::assert_json_snapshot!("scenario_portfolio_shock_empty_portfolio", p);
}

fn block(w: [&str; 4]) -> ConcentrationBlockDto {
    ConcentrationBlockDto::Computed {
        top1_weight: w[0].to_owned(),
        top3_weight: w[1].to_owned(),
        hhi: w[2].to_owned(),
        effective_holdings: w[3].to_owned(),
    }
}

#[test]
fn ac53_concentration_risk() {
    let fake = scenario_fake(ScenarioAnswer::Concentration(ConcentrationDto {
        all: block(["0.9000", "1.0000", "0.8200", "1.2195"]),
        excluding_stablecoins: block(["1.0000", "1.0000", "1.0000", "1.0000"]),
        stablecoin_weight: Some("0.9000".to_owned()),
        unvalued_count: 0,
        currency: "EUR".to_owned(),
    }));
    let p = run(&fake, ToolName::ConcentrationRisk, &json!({}));
    assert_eq!(
        p["all"],
        json!({"kind": "computed", "top1Weight": "0.9000", "top3Weight": "1.0000", "hhi": "0.8200", "effectiveHoldings": "1.2195"})
    );
    assert_eq!(p["stablecoinWeight"], json!("0.9000"));
    insta::assert_json_snapshot!("concentration_risk_computed", p);
    let fake = scenario_fake(ScenarioAnswer::Concentration(ConcentrationDto {
        all: ConcentrationBlockDto::Empty,
        excluding_stablecoins: ConcentrationBlockDto::Empty,
        stablecoin_weight: None,
        unvalued_count: 1,
        currency: "EUR".to_owned(),
    }));
    let p = run(&fake, ToolName::ConcentrationRisk, &json!({}));
    assert_eq!(p["all"], json!({"kind": "empty"}));
    assert_eq!(p["excludingStablecoins"], json!({"kind": "empty"}));
    assert_eq!(p["stablecoinWeight"], Value::Null);
    insta::assert_json_snapshot!("concentration_risk_empty", p);
}

fn contract(symbol: &str, currency: &str, f: [&str; 5], unresolved: u64) -> DerivativeContractPnl {
    DerivativeContractPnl {
        symbol: symbol.to_owned(),
        currency: currency.to_owned(),
        realized_pnl: f[0].to_owned(),
        funding: f[1].to_owned(),
        fees: f[2].to_owned(),
        net_pnl: f[3].to_owned(),
        net_eur: f[4].to_owned(),
        unresolved_count: unresolved,
    }
}

#[test]
fn ac54_derivatives_pnl() {
    let ranked = vec![
        contract(
            "BIGLOSS",
            "USD",
            ["-900.00", "0.00", "0.00", "-900.00", "-800.00"],
            0,
        ),
        contract(
            "MID",
            "USD",
            ["300.00", "0.00", "0.00", "300.00", "270.00"],
            0,
        ),
        contract("SMALL", "USD", ["5.00", "0.00", "0.00", "5.00", "4.50"], 0),
        contract(
            "TINY",
            "USD",
            ["-1.00", "0.00", "0.00", "-1.00", "-0.90"],
            0,
        ),
    ];
    let fake = Fake {
        derivatives: Some(DerivativesPnl { ranked }),
        ..Fake::default()
    };
    let p = run_with(&fake, top(2), ToolName::DerivativesPnl, &json!({}));
    assert_eq!(symbols(&p["ranked"]), ["BIGLOSS", "MID"]);
    assert_eq!(p["omittedCount"], json!(2));
    let fake = Fake {
        derivatives: Some(DerivativesPnl { ranked: vec![] }),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::DerivativesPnl, &json!({}));
    assert_eq!(
        serde_json::to_string(&p).unwrap(),
        r#"{"ranked":[],"omittedCount":0}"#
    );
    // D-13: native sums are Amounts in fiat, Quantities in a crypto settlement asset.
    let fake = Fake {
        derivatives: Some(DerivativesPnl {
            ranked: vec![
                contract(
                    "BTCUSD-PERP",
                    "USD",
                    ["1200.00", "-35.50", "15.00", "1149.50", "1066.43"],
                    0,
                ),
                contract(
                    "ETHUSDT-PERP",
                    "USDT",
                    ["-400", "0", "2", "-402", "-363.41"],
                    0,
                ),
            ],
        }),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::DerivativesPnl, &json!({}));
    assert_eq!(
        p["ranked"][0],
        json!({"symbol": "BTCUSD-PERP", "currency": "USD", "realizedPnl": "1200.00", "funding": "-35.50",
               "fees": "15.00", "netPnl": "1149.50", "netEur": "1066.43", "unresolvedCount": 0})
    );
    assert_eq!(p["ranked"][1]["netPnl"], json!("-402"));
    insta::assert_json_snapshot!("derivatives_pnl", p);
    // A fiat-settled sum in Quantity form is a result of the wrong shape.
    let fake = Fake {
        derivatives: Some(DerivativesPnl {
            ranked: vec![contract(
                "X",
                "USD",
                ["-400", "0", "2", "-402", "-363.41"],
                0,
            )],
        }),
        ..Fake::default()
    };
    let e = fails(&fake, ToolName::DerivativesPnl, &json!({}));
    assert_eq!(e.use_case, "GetDerivativesPnl");
}

#[test]
fn ac55_custody_locations() {
    let location = |symbol: &str, account: &str| CustodyLocation {
        symbol: symbol.to_owned(),
        account_name: account.to_owned(),
        quantity: "1.5".to_owned(),
        lot_count: 3,
    };
    let fake = Fake {
        custody: Some(CustodyLocations {
            locations: vec![location("BTC", "Kraken")],
            synthetic_row_count: 4,
        }),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::CustodyLocations, &json!({"symbol": "BTC"}));
    assert_eq!(
        p,
        json!({"locations": [{"symbol": "BTC", "accountName": "Kraken", "quantity": "1.5", "lotCount": 3}],
               "omittedCount": 0, "syntheticRowCount": 4})
    );
    assert_eq!(fake.calls(), ["custody Some(\"BTC\")"]);
    insta::assert_json_snapshot!("custody_locations", p);
    let fake = Fake {
        custody: Some(CustodyLocations {
            locations: vec![
                location("ADA", "Bit2Me"),
                location("BTC", "Kraken"),
                location("ETH", "Kraken"),
            ],
            synthetic_row_count: 0,
        }),
        ..Fake::default()
    };
    let p = run_with(&fake, top(2), ToolName::CustodyLocations, &json!({}));
    assert_eq!(symbols(&p["locations"]), ["ADA", "BTC"]);
    assert_eq!(p["omittedCount"], json!(1));
    assert_eq!(fake.calls(), ["custody None"]);
}

// ---------------------------------------------------------------- prices, series, metrics

#[test]
fn ac56_live_prices() {
    let fake = Fake {
        prices: Some(LatestPrices {
            prices: vec![LatestPrice {
                symbol: "BTC".to_owned(),
                price: "93000.5".to_owned(),
                currency: "EUR".to_owned(),
                timestamp: "2025-01-01T00:00:00Z".to_owned(),
                provider: "daily".to_owned(),
                staleness_seconds: 10,
            }],
            not_tracked: vec!["NOPE".to_owned()],
        }),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::LivePrices,
        &json!({"symbols": ["BTC", "NOPE"]}),
    );
    assert_eq!(p["prices"][0]["stalenessSeconds"], json!(10));
    assert_eq!(p["notTracked"], json!(["NOPE"]));
    assert_eq!(fake.calls(), ["prices [\"BTC\", \"NOPE\"] EUR"]);
    insta::assert_json_snapshot!("live_prices", p);
}

fn drawdown(n: usize) -> DrawdownCurve {
    DrawdownCurve {
        points: (0..n)
            .map(|i| DrawdownPoint {
                date: day(i),
                drawdown_pct: "-0.0159".to_owned(),
            })
            .collect(),
        omitted_count: 0,
    }
}

fn series_of(fake: &Fake, tool: ToolName, args: &Value) -> super::SeriesPayload {
    let ctx = ProjectCtx {
        use_cases: fake,
        settings: METERED,
        base_currency: "EUR",
        exposed: Profile::Metered.exposed(),
    };
    match project(&ctx, tool, args.as_object().unwrap()).unwrap() {
        Projected::Series(s) => s,
        Projected::Plain(_) => panic!("{tool} is a series tool"),
    }
}

#[test]
fn ac57_sampling_keeps_first_and_last_points() {
    let fake = Fake {
        drawdown: Some(drawdown(10)),
        ..Fake::default()
    };
    let s = series_of(&fake, ToolName::DrawdownCurve, &json!({"days": 10}));
    let four = Value::Object(s.render(4));
    shape::check_payload(ToolName::DrawdownCurve, &four);
    let dates: Vec<&str> = four["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["date"].as_str().unwrap())
        .collect();
    assert_eq!(dates, [day(0), day(3), day(6), day(9)]);
    assert_eq!(four["omittedCount"], json!(6));
    // The full window is asked for; sampling happens per render.
    assert_eq!(fake.calls(), ["drawdown 10 None"]);

    let fake = Fake {
        drawdown: Some(drawdown(365)),
        ..Fake::default()
    };
    let s = series_of(&fake, ToolName::DrawdownCurve, &json!({"days": 365}));
    let full = Value::Object(s.render(120));
    shape::check_payload(ToolName::DrawdownCurve, &full);
    let points = full["points"].as_array().unwrap();
    assert_eq!(points.len(), 120);
    assert_eq!(points[0]["date"], json!(day(0)));
    assert_eq!(points[119]["date"], json!(day(364)));
    assert_eq!(full["omittedCount"], json!(245));
    // Under the metered budget the 120-point payload does not fit and the 60-point one does.
    let budget = metered_budget(ToolName::DrawdownCurve) as usize;
    assert!(chars(&full) > budget);
    let sixty = Value::Object(s.render(60));
    assert!(chars(&sixty) <= budget);
    assert_eq!(sixty["points"].as_array().unwrap().len(), 60);
    assert_eq!(sixty["omittedCount"], json!(305));

    let fake = Fake {
        drawdown: Some(drawdown(50)),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::DrawdownCurve, &json!({"days": 50}));
    assert_eq!(p["points"].as_array().unwrap().len(), 50);
    assert_eq!(p["omittedCount"], json!(0));
    insta::assert_json_snapshot!(
        "drawdown_curve",
        run(
            &Fake {
                drawdown: Some(drawdown(3)),
                ..Fake::default()
            },
            ToolName::DrawdownCurve,
            &json!({"days": 3})
        )
    );
}

#[test]
fn ac58_performance_history_null_value_and_base_currency() {
    let fake = Fake {
        performance: Some(PerformanceHistory {
            currency: "USD".to_owned(),
            points: vec![
                PerformancePoint {
                    date: day(0),
                    portfolio_value: Some("1000.00".to_owned()),
                    drawdown_pct: "0.0000".to_owned(),
                    unvalued_assets: 0,
                },
                PerformancePoint {
                    date: day(1),
                    portfolio_value: None,
                    drawdown_pct: "-0.0100".to_owned(),
                    unvalued_assets: 1,
                },
            ],
            omitted_count: 0,
        }),
        ..Fake::default()
    };
    let p = project_in(
        &fake,
        METERED,
        "USD",
        Profile::Metered.exposed(),
        ToolName::PerformanceHistory,
        &json!({"days": 30}),
    )
    .unwrap();
    assert_eq!(p["currency"], json!("USD"));
    assert_eq!(p["points"][1]["portfolioValue"], Value::Null);
    assert_eq!(fake.calls(), ["performance 30 USD None"]);
    insta::assert_json_snapshot!("performance_history", p);
}

#[test]
fn ac59_volatility_heatmap_and_risk_projection_of_the_d14_figures() {
    // The D-14 figures themselves are pinned at the use-case level
    // (use-cases `ac59_d14_kpis_risk_and_heatmap`); here their projection.
    let cells = [
        ("2024-01-01", None),
        ("2024-01-02", None),
        ("2024-01-03", Some("0.6755")),
        ("2024-01-04", Some("0.5560")),
        ("2024-01-05", Some("0.7110")),
        ("2024-01-06", Some("0.7045")),
    ];
    let fake = Fake {
        heatmap: Some(VolatilityHeatmap {
            year: 2024,
            cells: cells
                .iter()
                .map(|(d, v)| VolatilityCell {
                    date: (*d).to_owned(),
                    volatility: v.map(str::to_owned),
                })
                .collect(),
            omitted_count: 0,
        }),
        risk: Some(d14_risk()),
        kpis: Some(d14_kpis()),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::VolatilityHeatmap, &json!({"year": 2024}));
    assert_eq!(p["year"], json!(2024));
    assert_eq!(
        p["cells"][2],
        json!({"date": "2024-01-03", "volatility": "0.6755"})
    );
    assert_eq!(
        p["cells"][5],
        json!({"date": "2024-01-06", "volatility": "0.7045"})
    );
    assert_eq!(fake.calls(), ["heatmap Some(2024) None"]);
    insta::assert_json_snapshot!("volatility_heatmap", p);
    let r = run(&fake, ToolName::RiskMetrics, &json!({}));
    assert_eq!(
        r,
        json!({"maxDrawdownPct": "-0.0159", "annualizedVolatility": "0.7045",
               "sharpeRatio": "12.9163", "alpha": "3.5000", "beta": "0.7541"})
    );
    insta::assert_json_snapshot!("risk_metrics", r);
    let k = run(&fake, ToolName::Kpis, &json!({}));
    assert_eq!(k["totalRoiPct"], json!("12.63"));
    assert_eq!(
        k["trades"],
        json!({"total": 1, "winning": 1, "losing": 0, "winRatePct": "100.00", "averageR": null})
    );
    assert_eq!(
        k["bestAsset"],
        json!({"symbol": "BTC", "roiPct": "10.25", "allocationPct": "50.06"})
    );
    insta::assert_json_snapshot!("kpis", k);
}

// ---------------------------------------------------------------- sizes (AC-61)

#[test]
fn ac61_full_metered_pages_of_typical_rows_fit_their_budgets() {
    let fake = Fake {
        tx: (0..15).map(typical_tx_row).collect(),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::TxSearch, &json!({"page": 1}));
    let row = chars(&p["rows"][0]);
    assert!((260..=300).contains(&row), "tx row of {row} chars");
    assert!(chars(&p) <= metered_budget(ToolName::TxSearch) as usize);

    let fake = lots_fake(15);
    let p = run(
        &fake,
        ToolName::TokenLots,
        &json!({"symbol": "BTC", "page": 0}),
    );
    let lot = chars(&p["lots"][0]);
    assert!((195..=235).contains(&lot), "lot of {lot} chars");
    assert!(chars(&p) <= metered_budget(ToolName::TokenLots) as usize);

    let fake = Fake {
        report: Some(report_fixture(2024, 0)),
        audit: (0..20).map(audit_fixture).collect(),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::SpanishTaxReport,
        &json!({"year": 2024, "method": "FIFO"}),
    );
    let audit = chars(&p["auditTrail"][0]);
    assert!((190..=220).contains(&audit), "audit row of {audit} chars");
    assert!(chars(&p) <= metered_budget(ToolName::SpanishTaxReport) as usize);
}

/// A holding with the longest figures a portfolio realistically shows: a 20-character symbol,
/// an 18-decimal quantity in the hundreds of millions, a 12-decimal unit price and amounts in
/// the billions with a sign.
fn long_valued(i: usize) -> shared_types::dto::ValuedHolding {
    let symbol = format!("LONGSYMBOL{i:010}");
    shared_types::dto::ValuedHolding {
        avg_price_fiat: "1234567.123456789012".to_owned(),
        unrealized_pnl_fiat: "-1234567890.12".to_owned(),
        ..valued_fixture(
            &symbol,
            "123456789.123456789012345678",
            "1234567890.12",
            "1234567890.12",
        )
    }
}

fn long_unvalued(i: usize) -> shared_types::dto::UnvaluedHolding {
    let symbol = format!("UNVALUEDSY{i:010}");
    shared_types::dto::UnvaluedHolding {
        id: symbol.to_ascii_lowercase(),
        symbol,
        amount: "123456789.123456789012345678".to_owned(),
        cost_basis_fiat: Some("1234567890.12".to_owned()),
        currency: "EUR".to_owned(),
        reason: "no_price".to_owned(),
        locations: vec![],
    }
}

fn long_metrics() -> shared_types::dto::Metrics {
    shared_types::dto::Metrics {
        rates_incomplete: true,
        prices_incomplete: true,
        total_equity_fiat: "-123456789012.34".to_owned(),
        total_cost_basis_fiat: "-123456789012.34".to_owned(),
        total_realized_pnl_fiat: "-123456789012.34".to_owned(),
        total_unrealized_pnl_fiat: "-123456789012.34".to_owned(),
        total_pnl_fiat: "-123456789012.34".to_owned(),
        currency: "EUR".to_owned(),
    }
}

/// Issue 25 §13: `portfolio_summary` was truncated on the 100k bench ledger (15 holdings and
/// 15 unvalued, 5,168 characters against 4,000). A full first page of the longest realistic
/// rows fits the budget of every holdings tool, so the central tool answers `ok` on any
/// portfolio; so does a full page of lots (with their FIFO number) and one full account section.
#[test]
fn full_pages_of_the_longest_realistic_rows_fit_their_budgets() {
    let summary = shared_types::dto::PortfolioSummary {
        as_of: "2026-06-30".to_owned(),
        metrics: long_metrics(),
        valued: (0..40).map(long_valued).collect(),
        unvalued: (0..40).map(long_unvalued).collect(),
        missing: vec![],
    };
    let fake = Fake {
        summary: Some(summary),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::PortfolioSummary, &json!({}));
    assert_eq!(p["ranked"].as_array().map(Vec::len), Some(15));
    assert_eq!(p["unvalued"].as_array().map(Vec::len), Some(15));
    let size = chars(&p);
    assert!(
        size <= metered_budget(ToolName::PortfolioSummary) as usize,
        "portfolio_summary of {size} chars"
    );

    let fake = Fake {
        account: Some(shared_types::dto::AccountHoldingsResult::Resolved {
            account_name: "Kraken".to_owned(),
            sections: vec![shared_types::dto::AccountSection {
                account_name: "Kraken:spot".to_owned(),
                metrics: long_metrics(),
                ranked: (0..15).map(long_valued).collect(),
                unvalued: (0..15).map(long_unvalued).collect(),
            }],
            empty_account_count: 0,
            missing: vec![],
        }),
        ..Fake::default()
    };
    let p = run(
        &fake,
        ToolName::AccountHoldings,
        &json!({"accountName": "Kraken"}),
    );
    let size = chars(&p);
    assert!(
        size <= metered_budget(ToolName::AccountHoldings) as usize,
        "account_holdings of {size} chars"
    );

    let fake = Fake {
        allocation: Some(AssetAllocation {
            as_of: Some("2026-06-30".to_owned()),
            currency: "EUR".to_owned(),
            ranked: (0..30)
                .map(|i| AllocationItem {
                    symbol: format!("LONGSYMBOL{i:010}"),
                    amount: "123456789.123456789012345678".to_owned(),
                    value_fiat: "1234567890.12".to_owned(),
                    allocation_pct: "3.33".to_owned(),
                    currency: "EUR".to_owned(),
                })
                .collect(),
            unvalued: (0..30)
                .map(|i| GapItem {
                    symbol: format!("UNVALUEDSY{i:010}"),
                    amount: "123456789.123456789012345678".to_owned(),
                })
                .collect(),
        }),
        ..Fake::default()
    };
    let p = run(&fake, ToolName::AssetAllocation, &json!({}));
    let size = chars(&p);
    assert!(
        size <= metered_budget(ToolName::AssetAllocation) as usize,
        "asset_allocation of {size} chars"
    );

    let mut fake = lots_fake(30);
    for lot in &mut fake.lots {
        lot.number = 123_456;
        lot.exchange = "Binance:spot:savings".to_owned();
        lot.original_qty = "123456789.123456789012345678".to_owned();
        lot.remaining_qty = "123456789.123456789012345678".to_owned();
        lot.unit_cost = Some("1234567.123456789012".to_owned());
        lot.total_cost = Some("1234567890.12".to_owned());
        lot.status = "PARTIAL".to_owned();
        lot.history_count = 123_456;
        lot.relocation_count = 123_456;
    }
    for (tool, args) in [
        (ToolName::TokenHistory, json!({"symbol": "BTC"})),
        (ToolName::TokenLots, json!({"symbol": "BTC", "page": 0})),
    ] {
        let p = run(&fake, tool, &args);
        assert_eq!(p["lots"].as_array().map(Vec::len), Some(15));
        let size = chars(&p);
        assert!(
            size <= metered_budget(tool) as usize,
            "{tool} of {size} chars"
        );
    }
}

// ---------------------------------------------------------------- use-case failures

#[test]
fn ac28_a_malformed_figure_or_a_failing_use_case_is_a_projection_error() {
    let mut summary = forty(false);
    summary.valued[3].current_value_fiat = "1e3".to_owned();
    let fake = Fake {
        summary: Some(summary),
        ..Fake::default()
    };
    let e = fails(&fake, ToolName::PortfolioSummary, &json!({}));
    assert_eq!(e.use_case, "GetPortfolioSummary");
    assert!(e.message.contains("currentValueFiat"));
    assert!(
        !e.message.contains("1e3"),
        "no payload fragment: {}",
        e.message
    );
    // Even a holding beyond the cap is checked: every figure passes through unchanged or fails.
    let e = fails(&Fake::default(), ToolName::Kpis, &json!({}));
    assert_eq!(e.use_case, "GetKpis");
    assert_eq!(e.message, "kpis not found");
    let e = fails(
        &Fake::default(),
        ToolName::TaxYearComparison,
        &json!({"yearA": 2024}),
    );
    assert!(e.message.contains("yearB"));
    let mut lots = lots_fake(1);
    lots.lots[0].status = "open".to_owned();
    let e = fails(&lots, ToolName::TokenHistory, &json!({"symbol": "BTC"}));
    assert_eq!(e.use_case, "GetTokenHistory");
}

#[test]
fn every_tool_but_explain_metric_is_projected() {
    for tool in ToolName::ALL {
        let all = Fake {
            scenario: scenario_for(*tool),
            ..everything()
        };
        let args = sample_args(*tool);
        let result = project_in(
            &all,
            METERED,
            "EUR",
            Profile::Metered.exposed(),
            *tool,
            &args,
        );
        if *tool == ToolName::ExplainMetric {
            assert!(result.is_err());
        } else {
            assert!(result.is_ok(), "{tool}: {result:?}");
        }
    }
}

#[test]
fn a_scenario_answer_of_another_kind_fails() {
    let fake = Fake {
        scenario: scenario_for(ToolName::ConcentrationRisk),
        ..Fake::default()
    };
    let e = fails(&fake, ToolName::BreakevenPrice, &json!({"symbol": "BTC"}));
    assert_eq!(e.use_case, "GetPortfolioScenario");
}

#[test]
fn a_tx_answer_that_is_not_the_asked_page_fails() {
    let fake = Fake {
        tx_page: Some(shared_types::dto::TxPage {
            rows: (0..16).map(tx_row_fixture).collect(),
            page: 1,
            page_size: 15,
            total_pages: 2,
            total_count: 16,
        }),
        ..Fake::default()
    };
    let e = fails(&fake, ToolName::TxSearch, &json!({"page": 1}));
    assert_eq!(e.use_case, "SearchSpotTransactions");
    assert_eq!(e.message, "returned an answer that is not a page");
    let e = fails(&fake, ToolName::TxSearch, &json!({"page": 2}));
    assert_eq!(e.use_case, "SearchSpotTransactions");
}

#[test]
fn incomplete_reasons_out_of_order_fail() {
    let mut c = comparison(false);
    c.year_a.completeness = CompletenessDto::Incomplete {
        reasons: vec![
            "excluded_flagged_events".into(),
            "unconvertible_events".into(),
        ],
    };
    let fake = Fake {
        comparison: Some(c),
        ..Fake::default()
    };
    let e = fails(
        &fake,
        ToolName::TaxYearComparison,
        &json!({"yearA": 2024, "yearB": 2025, "method": "FIFO"}),
    );
    assert_eq!(e.use_case, "CompareTaxYears");
}

// ---------------------------------------------------------------- cuts (properties)

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    #[test]
    fn pages_partition_the_list(len in 0usize..200, size in 1u32..40) {
        let items: Vec<usize> = (0..len).collect();
        let pages = super::emit::total_pages(len as u64, size, true);
        let mut joined = Vec::new();
        for page in 0..pages + 2 {
            let cut = super::emit::page_of(&items, page, size);
            proptest::prop_assert!(cut.len() <= size as usize);
            if page >= pages {
                proptest::prop_assert!(cut.is_empty());
            }
            joined.extend_from_slice(cut);
        }
        proptest::prop_assert_eq!(joined, items);
        proptest::prop_assert_eq!(pages, (len as u64).div_ceil(u64::from(size)).max(1));
        proptest::prop_assert_eq!(
            super::emit::total_pages(len as u64, size, false),
            (len as u64).div_ceil(u64::from(size))
        );
    }

    #[test]
    fn caps_keep_a_prefix_and_count_the_rest(len in 0usize..100, top in 0u32..60) {
        let items: Vec<usize> = (0..len).collect();
        let (shown, omitted) = super::emit::cap(&items, top);
        proptest::prop_assert_eq!(shown, &items[..len.min(top as usize)]);
        proptest::prop_assert_eq!(shown.len() as u64 + omitted, len as u64);
    }
}
