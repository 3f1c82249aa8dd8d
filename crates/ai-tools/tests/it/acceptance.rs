//! Acceptance cases of `tools.md` §16 for the layers of this crate: gate, profiles, exposure,
//! validation, entry point, sampling, `explain_metric`, catalogue and instructions. Payloads
//! come from the projector seam (fixtures shaped like the real payloads).

use ai_tools::testing::gate_for_test;
use ai_tools::{CurrencyCode, Locale, Profile, RunBudget, ToolOutcome};
use serde_json::{Value, json};
use shared_types::ToolName;

use crate::support::{Mode, Rig, assert_ok, assert_rejected, ctx, ctx_with, local, object};

fn gate(payload: Value, limit: u64) -> Value {
    gate_for_test(object(payload), limit, None).to_json()
}

#[test]
fn ac01_small_payload_fits() {
    assert_eq!(gate(json!({"a":1,"b":"short"}), 1000)["kind"], "ok");
}

#[test]
fn ac02_budget_is_inclusive() {
    assert_eq!(gate(json!({"x":"y"}), 9)["kind"], "ok");
    assert_eq!(
        gate(json!({"x":"y"}), 8),
        json!({"kind":"truncated","maxChars":8,"actualChars":9})
    );
}

#[test]
fn ac03_characters_are_unicode_scalar_values() {
    let payload = json!({"emoji":"🚀🚀🚀🚀🚀"});
    assert_eq!(gate(payload.clone(), 17)["kind"], "ok");
    assert_eq!(
        gate(payload, 16),
        json!({"kind":"truncated","maxChars":16,"actualChars":17})
    );
}

/// A payload shaped like `portfolio_summary` over the 40-holding fixture of AC-29.
fn forty_holdings() -> Value {
    let symbols = [
        "B2M", "GIGA", "HBAR", "XRP", "ADA", "VELO", "USDC", "USDT", "XLM", "JASMY", "AI16Z",
        "ETH", "SOL", "PLUME", "BNB", "BTC", "PUMP",
    ];
    let ranked: Vec<Value> = symbols
        .iter()
        .map(|s| (*s).to_owned())
        .chain((1..=23).map(|i| format!("SYNTH{i:02}")))
        .take(15)
        .map(|symbol| {
            json!({"id": symbol.to_lowercase(), "symbol": symbol, "amount": "1",
                "avgPriceFiat": "5500", "costBasisFiat": "5500.00", "currentValueFiat": "5500.00",
                "unrealizedPnlFiat": "0.00", "currency": "EUR"})
        })
        .collect();
    json!({"metrics": {"ratesIncomplete": false, "pricesIncomplete": false,
        "totalEquityFiat": "112750.00", "totalCostBasisFiat": "112750.00",
        "totalRealizedPnlFiat": "500.00", "totalUnrealizedPnlFiat": "0.00",
        "totalPnlFiat": "500.00", "currency": "EUR"},
        "ranked": ranked, "omittedCount": 25, "unvalued": [], "unvaluedCount": 0})
}

#[test]
fn ac04_truncated_result_carries_no_payload() {
    let rig = Rig::metered(forty_holdings()).with_budget(10);
    let result = rig.call("portfolio_summary", json!({}));
    let keys: Vec<&str> = result
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(keys, ["kind", "maxChars", "actualChars"]);
    assert_eq!(result["kind"], "truncated");
    assert_eq!(result["maxChars"], 10);
    let text = result.to_string();
    for symbol in ["B2M", "GIGA", "BTC", "SYNTH"] {
        assert!(!text.contains(symbol), "{text}");
    }
}

#[test]
fn ac05_bounded_run_budget() {
    let rig = Rig::metered(json!({"a":1})).with_budget(100);
    let mut run = RunBudget::bounded(15);
    let mut call = || rig.host.call(&ctx(), Some(&mut run), "kpis", &json!({}));
    assert_eq!(call()["kind"], "ok");
    assert_eq!(call()["kind"], "ok");
    assert_eq!(
        call(),
        json!({"kind":"truncated","maxChars":1,"actualChars":7})
    );
    assert_eq!(run.used(), 14);
}

#[test]
fn ac06_unbounded_run_never_limits() {
    let rig = Rig::metered(json!({"a": "x".repeat(9992)})).with_budget(10_000);
    let mut run = Profile::Metered.new_run_budget();
    for _ in 0..20 {
        let result = rig.host.call(&ctx(), Some(&mut run), "kpis", &json!({}));
        assert_eq!(result["kind"], "ok");
    }
    assert_eq!(run.remaining(), None);
}

fn check_local(cw: u32, tool: u32, run: u64, settings: (u32, u32, u32)) {
    let profile = local(cw);
    for name in profile.exposed() {
        assert_eq!(profile.tool_budget(*name), tool, "cw {cw}");
    }
    assert_eq!(profile.new_run_budget().remaining(), Some(run), "cw {cw}");
    let s = profile.settings();
    assert_eq!(
        (s.top_n_holdings, s.lots_page_size, s.rows_page_size),
        settings,
        "cw {cw}"
    );
}

#[test]
fn ac07_local_budgets_and_settings() {
    check_local(8192, 4915, 19660, (12, 12, 12));
    check_local(32768, 19660, 78643, (49, 49, 49));
    check_local(1001, 600, 2402, (5, 5, 5));
    check_local(131_072, 78643, 314_572, (50, 100, 100));
    assert!(Profile::local(999).is_err());
    assert!(Profile::local(10_000_001).is_err());
    assert!(Profile::local(10_000_000).is_ok());
}

#[test]
fn ac08_exposure() {
    let core: Vec<ToolName> = ToolName::ALL
        .iter()
        .copied()
        .filter(|t| t.tier() == shared_types::Tier::Core)
        .collect();
    assert_eq!(local(8192).exposed(), core.as_slice());
    assert_eq!(Profile::Metered.exposed(), ToolName::ALL);
    assert_eq!(Profile::Mixed.exposed(), ToolName::ALL);
}

#[test]
fn ac09_unknown_tools() {
    let rig = Rig::new(local(8192), 4, json!({}));
    let result = rig.call("risk_metrics", json!({}));
    assert_eq!(result["code"], "UNKNOWN_TOOL");
    assert_eq!(rig.fixture.calls(), 0);
    let metered = Rig::metered(json!({}));
    for name in ["fees_paid", "cash_flow_summary", "", "PORTFOLIO_SUMMARY"] {
        let result = metered.call(name, json!({}));
        assert_eq!(result["kind"], "error");
        assert_eq!(result["code"], "UNKNOWN_TOOL");
        assert_eq!(result["tool"], name);
    }
    let message = metered.call("fees_paid", json!({}))["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(message.starts_with(
        "unknown tool fees_paid; this profile exposes: portfolio_summary, fiscal_integrity, "
    ));
    assert!(message.ends_with("concentration_risk, tx_search."));
}

/// Calls a valid request and returns the canonical arguments the projection received.
fn canonical(tool: &str, args: Value) -> Value {
    let rig = Rig::metered(json!({"ok": true}));
    let result = rig.call(tool, args);
    assert_ok(&result);
    let (_, seen) = rig
        .fixture
        .last_args()
        .unwrap_or_else(|| panic!("no projection call"));
    Value::Object(seen)
}

fn rejected(tool: &str, args: Value, reason: &str, path: &str) -> Value {
    let rig = Rig::metered(json!({"ok": true}));
    let result = rig.call(tool, args);
    assert_rejected(&result, reason, path);
    assert_eq!(
        rig.fixture.calls(),
        0,
        "use case invoked on a rejected call"
    );
    result
}

#[test]
fn ac10_symbols_are_upper_cased() {
    assert_eq!(
        canonical("holding_detail", json!({"symbol":"btc"})),
        json!({"symbol":"BTC"})
    );
    assert_eq!(
        canonical("token_history", json!({"symbol":"eth"})),
        json!({"symbol":"ETH"})
    );
    assert_eq!(
        canonical("live_prices", json!({"symbols":["sol"]})),
        json!({"symbols":["SOL"]})
    );
}

#[test]
fn ac11_symbol_pattern() {
    rejected(
        "holding_detail",
        json!({"symbol":"BTC EUR"}),
        "pattern_mismatch",
        "/symbol",
    );
    rejected(
        "holding_detail",
        json!({"symbol":""}),
        "pattern_mismatch",
        "/symbol",
    );
    rejected(
        "holding_detail",
        json!({"symbol":" BTC"}),
        "pattern_mismatch",
        "/symbol",
    );
    rejected(
        "holding_detail",
        json!({"symbol":"A".repeat(21)}),
        "pattern_mismatch",
        "/symbol",
    );
    assert_eq!(
        canonical("holding_detail", json!({"symbol":"a".repeat(20)})),
        json!({"symbol":"A".repeat(20)})
    );
}

#[test]
fn ac12_forbidden_inputs_are_unknown_fields_with_hints() {
    let result = rejected(
        "portfolio_summary",
        json!({"accountId":"11111111-1111-4111-8111-111111111111"}),
        "unknown_field",
        "/accountId",
    );
    let message = result["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(
            "No tool takes an account id; call account_holdings with the account's name."
        ),
        "{message}"
    );
    assert!(
        message.contains("portfolio_summary takes no arguments"),
        "{message}"
    );
    let result = rejected(
        "kpis",
        json!({"currency":"USD"}),
        "unknown_field",
        "/currency",
    );
    assert!(
        result["message"]
            .as_str()
            .unwrap_or_default()
            .contains("The currency is fixed by the server and every result declares it.")
    );
}

#[test]
fn ac13_arguments_object() {
    let result = rejected("kpis", json!([]), "not_an_object", "");
    assert_eq!(result["tool"], "kpis");
    rejected("kpis", json!("x"), "not_an_object", "");
    rejected("kpis", json!(3), "not_an_object", "");
    assert_eq!(canonical("kpis", Value::Null), json!({}));
}

#[test]
fn ac14_integers() {
    assert_eq!(
        canonical("token_lots", json!({"symbol":"BTC","page":2.0})),
        json!({"symbol":"BTC","page":2})
    );
    rejected(
        "token_lots",
        json!({"symbol":"BTC","page":1.5}),
        "not_an_integer",
        "/page",
    );
    rejected(
        "token_lots",
        json!({"symbol":"BTC","page":-1}),
        "out_of_range",
        "/page",
    );
    rejected(
        "token_lots",
        json!({"symbol":"BTC","page":"1"}),
        "wrong_type",
        "/page",
    );
    rejected(
        "token_lots",
        json!({"symbol":"BTC","page":null}),
        "wrong_type",
        "/page",
    );
    let big: Value = serde_json::from_str("2e3").unwrap_or_default();
    assert_eq!(
        canonical("token_lots", json!({"symbol":"BTC","page":big})),
        json!({"symbol":"BTC","page":2000})
    );
}

#[test]
fn ac15_tx_search_pages() {
    assert_eq!(canonical("tx_search", json!({})), json!({"page":1}));
    let result = rejected("tx_search", json!({"page":0}), "out_of_range", "/page");
    assert_eq!(
        result,
        json!({"kind":"error","code":"INVALID_TOOL_INPUT","tool":"tx_search","path":"/page","reason":"out_of_range","message":"page must be an integer from 1 to 1000000; pages start at 1."})
    );
}

#[test]
fn ac16_tx_search_accepted() {
    assert_eq!(
        canonical(
            "tx_search",
            json!({"symbol":"eth","from":"2024-01-01","to":"2024-12-31","types":["BUY","SELL"],"page":2})
        ),
        json!({"symbol":"ETH","from":"2024-01-01","to":"2024-12-31","types":["BUY","SELL"],"page":2})
    );
    assert_eq!(
        canonical(
            "tx_search",
            json!({"page":3,"to":"2024-02-29","from":"2024-02-29"})
        ),
        json!({"from":"2024-02-29","to":"2024-02-29","page":3})
    );
}

#[test]
fn ac17_tx_search_rejections() {
    rejected(
        "tx_search",
        json!({"from":"2024-02-30"}),
        "invalid_date",
        "/from",
    );
    rejected(
        "tx_search",
        json!({"from":"2023-02-29"}),
        "invalid_date",
        "/from",
    );
    rejected(
        "tx_search",
        json!({"to":"2024-13-01"}),
        "invalid_date",
        "/to",
    );
    rejected(
        "tx_search",
        json!({"from":"2024-1-1"}),
        "pattern_mismatch",
        "/from",
    );
    rejected(
        "tx_search",
        json!({"from":"yesterday"}),
        "pattern_mismatch",
        "/from",
    );
    rejected(
        "tx_search",
        json!({"from":"2024-01-01T00:00:00Z"}),
        "pattern_mismatch",
        "/from",
    );
    rejected("tx_search", json!({"types":[]}), "too_few_items", "/types");
    rejected(
        "tx_search",
        json!({"types":["GIFT"]}),
        "not_in_vocabulary",
        "/types/0",
    );
    rejected(
        "tx_search",
        json!({"types":["buy"]}),
        "not_in_vocabulary",
        "/types/0",
    );
    rejected(
        "tx_search",
        json!({"types":["BUY","BUY"]}),
        "duplicate_item",
        "/types/1",
    );
    rejected(
        "tx_search",
        json!({"from":"2024-12-31","to":"2024-01-01"}),
        "invalid_range",
        "/to",
    );
    let result = rejected("tx_search", json!({"limit":50}), "unknown_field", "/limit");
    assert!(
        result["message"]
            .as_str()
            .unwrap_or_default()
            .ends_with("Page sizes are fixed; use page.")
    );
}

#[test]
fn ac18_tax_year_comparison() {
    rejected(
        "tax_year_comparison",
        json!({"yearA":2024,"yearB":2024}),
        "must_differ",
        "/yearB",
    );
    rejected(
        "tax_year_comparison",
        json!({"yearA":2008,"yearB":2024}),
        "out_of_range",
        "/yearA",
    );
    rejected(
        "tax_year_comparison",
        json!({"yearA":2023,"yearB":2024.5}),
        "not_an_integer",
        "/yearB",
    );
    rejected(
        "tax_year_comparison",
        json!({"yearB":2024}),
        "missing_field",
        "/yearA",
    );
    assert_eq!(
        canonical("tax_year_comparison", json!({"yearA":2009,"yearB":2010})),
        json!({"yearA":2009,"yearB":2010,"method":"FIFO"})
    );
    rejected(
        "tax_year_comparison",
        json!({"yearA":2009,"yearB":2010,"accountId":"x"}),
        "unknown_field",
        "/accountId",
    );
}

#[test]
fn ac19_account_name_and_method() {
    rejected(
        "account_holdings",
        json!({"accountName":"   "}),
        "too_short",
        "/accountName",
    );
    assert_eq!(
        canonical("account_holdings", json!({"accountName":"x".repeat(64)})),
        json!({"accountName":"x".repeat(64)})
    );
    rejected(
        "account_holdings",
        json!({"accountName":"x".repeat(65)}),
        "too_long",
        "/accountName",
    );
    assert_eq!(
        canonical("account_holdings", json!({"accountName":"  Kraken  "})),
        json!({"accountName":"Kraken"})
    );
    rejected(
        "spanish_tax_report",
        json!({"year":2024,"method":"LIFO"}),
        "not_in_vocabulary",
        "/method",
    );
    assert_eq!(
        canonical("spanish_tax_report", json!({"year":2024})),
        json!({"year":2024,"method":"FIFO"})
    );
}

fn price(value: Value) -> Value {
    json!({"symbol":"BTC","hypotheticalPrice": value})
}

#[test]
fn ac20_hypothetical_price() {
    for ok in ["0", "0.5", "70000", "123456789012345.123456789012"] {
        assert_eq!(
            canonical("scenario_position_value", price(json!(ok))),
            json!({"symbol":"BTC","hypotheticalPrice": ok})
        );
    }
    for bad in [
        "-1", "abc", "1e5", "", ".5", "5.", "00.5", "+5", "1,000", " 5",
    ] {
        rejected(
            "scenario_position_value",
            price(json!(bad)),
            "pattern_mismatch",
            "/hypotheticalPrice",
        );
    }
    let from_number = canonical("scenario_position_value", price(json!(70000)));
    assert_eq!(
        from_number,
        canonical("scenario_position_value", price(json!("70000")))
    );
    assert_eq!(from_number["hypotheticalPrice"], "70000");
    assert_eq!(
        canonical("scenario_position_value", price(json!(0.5)))["hypotheticalPrice"],
        "0.5"
    );
    let e5: Value = serde_json::from_str("1e5").unwrap_or_default();
    assert_eq!(
        canonical("scenario_position_value", price(e5))["hypotheticalPrice"],
        "100000.0"
    );
    rejected(
        "scenario_position_value",
        price(json!(-1)),
        "pattern_mismatch",
        "/hypotheticalPrice",
    );
    let e21: Value = serde_json::from_str("1e21").unwrap_or_default();
    rejected(
        "scenario_position_value",
        price(e21),
        "pattern_mismatch",
        "/hypotheticalPrice",
    );
    rejected(
        "scenario_position_value",
        price(json!(true)),
        "wrong_type",
        "/hypotheticalPrice",
    );
    let result = rejected(
        "scenario_position_value",
        json!({"symbol":"BTC","hypotheticalPrice":"1","quantity":"2"}),
        "unknown_field",
        "/quantity",
    );
    assert!(
        result["message"]
            .as_str()
            .unwrap_or_default()
            .ends_with("Quantities always come from the ledger.")
    );
}

fn uniform(pct: Value) -> Value {
    json!({"shock":{"kind":"uniform","pct": pct}})
}

#[test]
fn ac21_shock_percentages() {
    for ok in ["-100", "1000", "0", "-99.99", "12.5", "-100.0000"] {
        assert_eq!(
            canonical("scenario_portfolio_shock", uniform(json!(ok))),
            json!({"shock":{"kind":"uniform","pct": ok}})
        );
    }
    for (number, text) in [
        (json!(-50), "-50"),
        (json!(12.5), "12.5"),
        (json!(-100.0), "-100.0"),
    ] {
        assert_eq!(
            canonical("scenario_portfolio_shock", uniform(number))["shock"]["pct"],
            text
        );
    }
    for bad in [
        json!("-100.01"),
        json!("1000.01"),
        json!("5000"),
        json!("-101"),
        json!(5000),
    ] {
        rejected(
            "scenario_portfolio_shock",
            uniform(bad),
            "out_of_range",
            "/shock/pct",
        );
    }
    let tiny: Value = serde_json::from_str("1e-7").unwrap_or_default();
    for bad in [
        json!("abc"),
        json!("1e3"),
        json!(""),
        json!("10%"),
        json!(" 5"),
        tiny,
    ] {
        rejected(
            "scenario_portfolio_shock",
            uniform(bad),
            "pattern_mismatch",
            "/shock/pct",
        );
    }
}

#[test]
fn ac22_shock_structure() {
    rejected(
        "scenario_portfolio_shock",
        json!({"kind":"uniform","pct":"5"}),
        "unknown_field",
        "/kind",
    );
    rejected(
        "scenario_portfolio_shock",
        json!({"shock":{"kind":"uniform","pct":"5","currency":"EUR"}}),
        "unknown_field",
        "/shock/currency",
    );
    rejected(
        "scenario_portfolio_shock",
        json!({"shock":{"kind":"linear","pct":"5"}}),
        "not_in_vocabulary",
        "/shock/kind",
    );
    rejected(
        "scenario_portfolio_shock",
        json!({"shock":{"pct":"5"}}),
        "missing_field",
        "/shock/kind",
    );
    rejected(
        "scenario_portfolio_shock",
        json!({"shock":{"kind":"per_asset","shocks":[]}}),
        "too_few_items",
        "/shock/shocks",
    );
    let many: Vec<Value> = (0..26)
        .map(|i| json!({"symbol": format!("S{i}"), "pct": "1"}))
        .collect();
    rejected(
        "scenario_portfolio_shock",
        json!({"shock":{"kind":"per_asset","shocks": many}}),
        "too_many_items",
        "/shock/shocks",
    );
    rejected(
        "scenario_portfolio_shock",
        json!({"shock":{"kind":"per_asset","shocks":[{"symbol":"btc","pct":"1"},{"symbol":"BTC","pct":"2"}]}}),
        "duplicate_item",
        "/shock/shocks/1/symbol",
    );
    assert_eq!(
        canonical(
            "scenario_portfolio_shock",
            json!({"shock":{"shocks":[{"pct":10,"symbol":"btc"}],"kind":"per_asset"}})
        ),
        json!({"shock":{"kind":"per_asset","shocks":[{"symbol":"BTC","pct":"10"}]}})
    );
}

#[test]
fn ac23_vocabularies_are_case_sensitive() {
    rejected(
        "explain_metric",
        json!({"metric":"market_cap"}),
        "not_in_vocabulary",
        "/metric",
    );
    rejected(
        "explain_metric",
        json!({"metric":"hhi","locale":"es"}),
        "unknown_field",
        "/locale",
    );
    rejected(
        "fiscal_integrity_rows",
        json!({"qualityFlag":"missing_price"}),
        "not_in_vocabulary",
        "/qualityFlag",
    );
    assert_eq!(
        canonical(
            "fiscal_integrity_rows",
            json!({"qualityFlag":"MISSING_PRICE"})
        ),
        json!({"qualityFlag":"MISSING_PRICE","page":0})
    );
}

#[test]
fn ac24_days_and_year() {
    rejected("drawdown_curve", json!({"days":0}), "out_of_range", "/days");
    rejected(
        "drawdown_curve",
        json!({"days":3651}),
        "out_of_range",
        "/days",
    );
    assert_eq!(
        canonical("drawdown_curve", json!({"days":3650})),
        json!({"days":3650})
    );
    assert_eq!(
        canonical("performance_history", json!({})),
        json!({"days":30})
    );
    rejected(
        "volatility_heatmap",
        json!({"year":2008}),
        "out_of_range",
        "/year",
    );
    assert_eq!(
        canonical("volatility_heatmap", json!({})),
        json!({"year":2026})
    );
}

#[test]
fn ac25_first_unknown_key_in_byte_order() {
    rejected(
        "kpis",
        json!({"zeta":1,"alpha":2}),
        "unknown_field",
        "/alpha",
    );
    // Unknown keys come before declared fields at the same level.
    rejected(
        "token_lots",
        json!({"page":"x","zzz":1}),
        "unknown_field",
        "/zzz",
    );
    rejected("kpis", json!({"a/b~c":1}), "unknown_field", "/a~1b~0c");
}

#[test]
fn ac26_live_prices_arrays() {
    rejected(
        "live_prices",
        json!({"symbols":[]}),
        "too_few_items",
        "/symbols",
    );
    let many: Vec<String> = (0..26).map(|i| format!("S{i}")).collect();
    rejected(
        "live_prices",
        json!({"symbols": many}),
        "too_many_items",
        "/symbols",
    );
    rejected(
        "live_prices",
        json!({"symbols":["btc","BTC"]}),
        "duplicate_item",
        "/symbols/1",
    );
    rejected(
        "live_prices",
        json!({"symbols":"BTC"}),
        "wrong_type",
        "/symbols",
    );
    rejected("live_prices", json!({}), "missing_field", "/symbols");
}

#[test]
fn ac27_use_case_failure() {
    let rig = Rig::metered(json!({}));
    rig.fixture.set(Mode::Fail(
        "GetPortfolioSummary",
        "ledger is locked\nby another writer".to_owned(),
    ));
    let result = rig.call("portfolio_summary", json!({}));
    assert_eq!(
        result,
        json!({"kind":"error","code":"USE_CASE_FAILED","tool":"portfolio_summary","message":"GetPortfolioSummary failed: ledger is locked by another writer."})
    );
    let long = Rig::metered(json!({}));
    long.fixture.set(Mode::Fail("GetKpis", "y".repeat(2000)));
    let message = long.call("kpis", json!({}))["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert_eq!(message.chars().count(), 500);
    assert!(message.ends_with('.'));
    // The real projection (a stub until the payload work lands) fails the same way.
    let host = crate::support::plain_host(Profile::Metered, std::sync::Arc::default());
    let result = host.call(&ctx(), None, "kpis", &json!({}));
    assert_eq!(result["code"], "USE_CASE_FAILED");
    assert!(result.get("payload").is_none());
}

#[test]
fn ac28_panic_is_caught_and_the_host_keeps_answering() {
    let rig = Rig::metered(json!({"a":1}));
    rig.fixture.set(Mode::Panic);
    let result = rig.call("portfolio_summary", json!({}));
    assert_eq!(result["code"], "USE_CASE_FAILED");
    assert!(
        result["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("internal error in portfolio_summary")
    );
    rig.fixture.load(json!({"a":1}));
    assert_eq!(
        rig.call("portfolio_summary", json!({})),
        json!({"kind":"ok","payload":{"a":1}})
    );
    assert_eq!(
        rig.call("explain_metric", json!({"metric":"hhi"}))["kind"],
        "ok"
    );
}

#[test]
fn ac57_sampling_indices_and_adaptive_steps() {
    use use_cases::sampling::{downsample, downsample_indices};
    assert_eq!(downsample_indices(10, 4).unwrap_or_default(), [0, 3, 6, 9]);
    let year: Vec<usize> = (0..365).collect();
    let sampled = downsample(&year, 120).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(sampled.points.len(), 120);
    assert_eq!(sampled.points.first(), Some(&0));
    assert_eq!(sampled.points.last(), Some(&364));
    assert_eq!(sampled.omitted_count, 245);
    let short: Vec<usize> = (0..50).collect();
    let same = downsample(&short, 120).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(same.points, short);
    assert_eq!(same.omitted_count, 0);

    let rig = Rig::metered(json!({}));
    rig.fixture.set(Mode::Series(365));
    let result = rig.call("drawdown_curve", json!({"days":365}));
    let payload = assert_ok(&result);
    assert_eq!(payload["points"].as_array().map(Vec::len), Some(60));
    assert_eq!(payload["omittedCount"], 305);
    // Under a budget no 15-point payload fits: truncated with the 15-point size.
    let tight = Rig::metered(json!({})).with_budget(100);
    tight.fixture.set(Mode::Series(365));
    let result = tight.call("drawdown_curve", json!({"days":365}));
    assert_eq!(result["kind"], "truncated");
    let fifteen = ai_tools::testing::char_count(&object(json!({
        "points": (0..15).map(|i| json!({"date": format!("day-{:05}", i * 364 / 14), "drawdownPct": "-0.0159"})).collect::<Vec<_>>(),
        "omittedCount": 350
    })))
    .unwrap_or_default();
    assert_eq!(result["actualChars"], fifteen);
}

#[test]
fn ac60_explain_metric() {
    let rig = Rig::metered(json!({}));
    let spanish = rig.host.call(
        &ctx_with("t", "es-ES", "EUR"),
        None,
        "explain_metric",
        &json!({"metric":"hhi"}),
    );
    let payload = assert_ok(&spanish);
    assert_eq!(payload["locale"], "es");
    assert_eq!(payload["producedBy"], "concentration_risk");
    assert_eq!(payload["producerExposed"], true);
    assert!(
        payload["definition"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Índice de Herfindahl-Hirschman")
    );
    let keys: Vec<&str> = payload
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        [
            "metric",
            "locale",
            "definition",
            "producedBy",
            "producerExposed"
        ]
    );
    for tag in ["en-GB", "fr", "EN"] {
        let english = rig.host.call(
            &ctx_with("t", tag, "EUR"),
            None,
            "explain_metric",
            &json!({"metric":"hhi"}),
        );
        let payload = assert_ok(&english);
        assert_eq!(payload["locale"], "en");
        assert!(
            payload["definition"]
                .as_str()
                .unwrap_or_default()
                .starts_with("Herfindahl-Hirschman index")
        );
    }
    let local_rig = Rig::new(local(8192), 8, json!({}));
    let result = local_rig.call("explain_metric", json!({"metric":"sharpe"}));
    assert_eq!(assert_ok(&result)["producerExposed"], false);
    assert_eq!(local_rig.fixture.calls(), 0);
}

#[test]
fn ac62_tools_list_is_byte_stable() {
    let a = Rig::metered(json!({}));
    let b = Rig::metered(json!({}));
    assert_eq!(a.host.tools_list_json(), b.host.tools_list_json());
    assert_eq!(a.host.tools_list_json(), a.host.tools_list_json());
    assert!(a.host.tools_list_json().chars().count() <= 24_000);
    let l = Rig::new(local(8192), 4, json!({}));
    assert!(l.host.tools_list_json().chars().count() <= 12_000);
    assert_eq!(
        Rig::new(Profile::Mixed, 4, json!({}))
            .host
            .tools_list_json(),
        a.host.tools_list_json()
    );
}

#[test]
fn ac63_instruction_prefixes() {
    for profile in [Profile::Metered, local(8192)] {
        let rig = Rig::new(profile, 4, json!({}));
        let es = rig.host.instructions(&locale("es-ES"), &CurrencyCode::EUR);
        let en = rig.host.instructions(&locale("en"), &CurrencyCode::USD);
        let prefix = |text: &str| {
            text.split("\n\nResponse format:")
                .next()
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(prefix(&es), prefix(&en));
        for text in [&es, &en] {
            assert!(!text.chars().any(char::is_numeric), "digit in instructions");
        }
        if profile.is_local() {
            for tool in ToolName::ALL
                .iter()
                .filter(|t| t.tier() == shared_types::Tier::Extended)
            {
                assert!(
                    !crate::instructions::names_word(&es, tool.as_str()),
                    "{tool}"
                );
            }
        }
    }
}

fn locale(tag: &str) -> Locale {
    Locale::parse(tag).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn outcome_serialisation_is_the_typed_twin() {
    let rig = Rig::metered(json!({"a":1}));
    let outcome = rig.host.call_outcome(&ctx(), None, "kpis", &json!({}));
    assert!(matches!(outcome, ToolOutcome::Ok(_)));
    assert_eq!(outcome.to_json(), rig.call("kpis", json!({})));
}
