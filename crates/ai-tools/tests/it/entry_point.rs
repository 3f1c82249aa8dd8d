//! The single entry point (`tools.md` §5, §15): every tool and an unknown name, with junk and
//! valid arguments, against projections that succeed, fail and panic, always answer a
//! well-formed object and never unwind. Plus the proptest of issue 6 over arbitrary JSON.

use ai_tools::Profile;
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use shared_types::ToolName;

use crate::support::{Mode, Rig, ctx, local};

/// One valid argument object per tool.
pub(crate) fn valid_args(tool: ToolName) -> Value {
    match tool {
        ToolName::FiscalIntegrityRows => json!({"qualityFlag":"MISSING_PRICE","page":1}),
        ToolName::TokenHistory | ToolName::HoldingDetail | ToolName::BreakevenPrice => {
            json!({"symbol":"btc"})
        }
        ToolName::TokenLots => json!({"symbol":"BTC","page":0}),
        ToolName::DrawdownCurve | ToolName::PerformanceHistory => json!({"days":90}),
        ToolName::VolatilityHeatmap => json!({"year":2024}),
        ToolName::SpanishTaxReport => json!({"year":2024,"method":"FIFO"}),
        ToolName::LivePrices => json!({"symbols":["BTC","eth"]}),
        ToolName::AccountHoldings => json!({"accountName":"Kraken"}),
        ToolName::TaxYearComparison => json!({"yearA":2023,"yearB":2024}),
        ToolName::ExplainMetric => json!({"metric":"sharpe"}),
        ToolName::ScenarioPositionValue => json!({"symbol":"BTC","hypotheticalPrice":"70000"}),
        ToolName::CustodyLocations => json!({"symbol":"btc"}),
        ToolName::ScenarioPortfolioShock => json!({"shock":{"kind":"uniform","pct":"-30"}}),
        ToolName::TxSearch => json!({"symbol":"eth","types":["BUY"],"page":2}),
        _ => json!({}),
    }
}

fn deep_junk(depth: usize) -> Value {
    let mut value = json!("leaf");
    for i in 0..depth {
        value = if i % 2 == 0 {
            json!([value, null, 1.5])
        } else {
            json!({"k": value, "accountId": 1})
        };
    }
    value
}

fn assert_well_formed(result: &Value) {
    let kind = result["kind"].as_str().unwrap_or_default();
    assert!(["ok", "truncated", "error"].contains(&kind), "{result}");
    match kind {
        "ok" => assert!(result["payload"].is_object()),
        "truncated" => {
            assert!(result["actualChars"].as_u64() > result["maxChars"].as_u64());
            assert!(result.get("payload").is_none());
        }
        _ => {
            let message = result["message"].as_str().unwrap_or_default();
            assert!(
                message.ends_with('.') && !message.contains('\n'),
                "{result}"
            );
            assert!(result["code"].is_string() && result["tool"].is_string());
        }
    }
}

#[test]
fn every_tool_with_junk_and_valid_arguments_against_every_fake() {
    let modes = [
        Mode::Payload(Map::new()),
        Mode::Series(400),
        Mode::Fail("GetPortfolioSummary", "store unavailable".to_owned()),
        Mode::Panic,
    ];
    let names: Vec<&str> = ToolName::ALL
        .iter()
        .map(|t| t.as_str())
        .chain(["fees_paid", ""])
        .collect();
    for profile in [Profile::Metered, local(1000)] {
        for mode in &modes {
            let rig = Rig::new(profile, 16, json!({}));
            rig.fixture.set(mode.clone());
            for name in &names {
                let valid = ToolName::parse(name).map_or(json!({}), valid_args);
                for args in [
                    json!({}),
                    Value::Null,
                    json!([]),
                    json!("x"),
                    deep_junk(40),
                    valid,
                ] {
                    let result = rig.host.call(&ctx(), None, name, &args);
                    assert_well_formed(&result);
                }
            }
        }
    }
}

#[test]
fn valid_arguments_reach_the_projection() {
    let rig = Rig::metered(json!({"a":1}));
    for tool in ToolName::ALL {
        let result = rig.call(tool.as_str(), valid_args(*tool));
        assert_eq!(result["kind"], "ok", "{tool}: {result}");
    }
    // explain_metric never reaches the projection.
    assert_eq!(rig.fixture.calls(), 24);
}

#[test]
fn real_projection_over_failing_and_panicking_use_cases() {
    use std::sync::Arc;
    use std::sync::atomic::Ordering;
    for panics in [false, true] {
        let use_cases = Arc::new(crate::support::FakeUseCases::default());
        use_cases.panics.store(panics, Ordering::SeqCst);
        let host = crate::support::plain_host(Profile::Metered, use_cases);
        for tool in ToolName::ALL {
            let result = host.call(&ctx(), None, tool.as_str(), &valid_args(*tool));
            assert_well_formed(&result);
            let expected = if *tool == ToolName::ExplainMetric {
                "ok"
            } else {
                "error"
            };
            assert_eq!(result["kind"], expected, "{tool}: {result}");
        }
    }
}

#[test]
fn host_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<ai_tools::ToolHost>();
}

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1_000_000i64..1_000_000, 1u32..6).prop_map(|(n, scale)| {
            serde_json::from_str(&format!("{n}e-{scale}")).unwrap_or(Value::Null)
        }),
        "[a-zA-Z0-9 ._:/-]{0,30}".prop_map(Value::from),
        (1usize..5000).prop_map(|n| Value::from("x".repeat(n))),
        prop::sample::select(vec![
            "symbol",
            "page",
            "BTC",
            "btc",
            "2024-02-29",
            "FIFO",
            "uniform",
            "per_asset",
            "-100",
            "1000",
            "MISSING_PRICE",
            "BUY",
            "hhi",
            "Kraken",
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 48, 6, |inner| {
        let keys = prop::sample::select(vec![
            "symbol",
            "symbols",
            "page",
            "days",
            "year",
            "yearA",
            "yearB",
            "method",
            "metric",
            "qualityFlag",
            "accountName",
            "hypotheticalPrice",
            "shock",
            "kind",
            "pct",
            "shocks",
            "from",
            "to",
            "types",
            "accountId",
            "currency",
            "zzz",
        ]);
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((keys, inner), 0..6).prop_map(|entries| Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_json_always_gives_a_well_formed_outcome(
        tool in prop::sample::select(ToolName::ALL.to_vec()),
        args in arbitrary_json(),
    ) {
        let rig = Rig::metered(json!({"a":1}));
        let result = rig.call(tool.as_str(), args.clone());
        assert_well_formed(&result);
        if result["kind"] == "error" {
            prop_assert_eq!(rig.fixture.calls(), 0);
        }
        // A valid call is idempotent: the same arguments give the same outcome.
        prop_assert_eq!(rig.call(tool.as_str(), args), result);
    }
}
