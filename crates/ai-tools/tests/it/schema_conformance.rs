//! The served schemas are never stricter than the rules (`tools.md` §13.1): every acceptance
//! input the rules accept also validates against its tool's input schema.
//!
//! The check uses a small hand-written evaluator of the JSON Schema keywords the catalogue uses
//! (`type`, `properties`, `required`, `additionalProperties`, `enum`, `const`, `pattern`,
//! `minimum`, `maximum`, `minLength`, `maxLength`, `items`, `minItems`, `maxItems`,
//! `uniqueItems`, `anyOf`): the available validator crates pull a large dependency tree. The
//! four patterns of the catalogue are matched by hand-written matchers.

use ai_tools::schemas::input_schema;
use serde_json::{Map, Value, json};
use shared_types::ToolName;

use crate::entry_point::valid_args;
use crate::support::Rig;

fn digits(text: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit())
}

fn plain(text: &str, whole_max: usize, fraction_max: usize) -> bool {
    let (whole, fraction) = text
        .split_once('.')
        .map_or((text, None), |(w, f)| (w, Some(f)));
    let whole_ok = whole == "0" || (digits(whole, 1, whole_max) && !whole.starts_with('0'));
    whole_ok && fraction.is_none_or(|f| digits(f, 1, fraction_max))
}

fn pattern_matches(pattern: &str, text: &str) -> bool {
    match pattern {
        "^[A-Za-z0-9.]{1,20}$" => {
            (1..=20).contains(&text.len())
                && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
        }
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" => {
            let parts: Vec<&str> = text.split('-').collect();
            parts.len() == 3
                && digits(parts[0], 4, 4)
                && digits(parts[1], 2, 2)
                && digits(parts[2], 2, 2)
        }
        "^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,12})?$" => plain(text, 15, 12),
        "^-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,4})?$" => {
            plain(text.strip_prefix('-').unwrap_or(text), 4, 4)
        }
        other => panic!("no matcher for pattern {other}"),
    }
}

fn integral(number: &serde_json::Number) -> Option<i64> {
    number.as_i64().or_else(|| {
        let text = number.to_string();
        let whole = text.strip_suffix(".0")?;
        whole.parse().ok()
    })
}

fn has_type(value: &Value, name: &str) -> bool {
    match name {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.as_number().is_some_and(|n| integral(n).is_some()),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        other => panic!("unknown type {other}"),
    }
}

/// Whether `value` satisfies `schema` (the keywords listed in the module comment).
#[allow(clippy::too_many_lines)] // One block per keyword.
pub(crate) fn conforms(schema: &Map<String, Value>, value: &Value) -> Result<(), String> {
    let fail = |what: &str| Err(format!("{what}: {value}"));
    if let Some(kind) = schema.get("type") {
        let ok = match kind {
            Value::String(name) => has_type(value, name),
            Value::Array(names) => names
                .iter()
                .any(|n| has_type(value, n.as_str().unwrap_or_default())),
            _ => false,
        };
        if !ok {
            return fail("type");
        }
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            return fail("enum");
        }
    }
    if let Some(constant) = schema.get("const") {
        if constant != value {
            return fail("const");
        }
    }
    if let (Some(pattern), Some(text)) = (
        schema.get("pattern").and_then(Value::as_str),
        value.as_str(),
    ) {
        if !pattern_matches(pattern, text) {
            return fail("pattern");
        }
    }
    if let Some(number) = value.as_number().and_then(integral) {
        if schema
            .get("minimum")
            .and_then(Value::as_i64)
            .is_some_and(|m| number < m)
            || schema
                .get("maximum")
                .and_then(Value::as_i64)
                .is_some_and(|m| number > m)
        {
            return fail("bounds");
        }
    }
    if let Some(text) = value.as_str() {
        let chars = text.chars().count() as u64;
        if schema
            .get("minLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| chars < m)
            || schema
                .get("maxLength")
                .and_then(Value::as_u64)
                .is_some_and(|m| chars > m)
        {
            return fail("length");
        }
    }
    if let Some(items) = value.as_array() {
        let count = items.len() as u64;
        if schema
            .get("minItems")
            .and_then(Value::as_u64)
            .is_some_and(|m| count < m)
            || schema
                .get("maxItems")
                .and_then(Value::as_u64)
                .is_some_and(|m| count > m)
        {
            return fail("items count");
        }
        if schema.get("uniqueItems") == Some(&json!(true)) {
            for (i, item) in items.iter().enumerate() {
                if items.get(..i).is_some_and(|before| before.contains(item)) {
                    return fail("uniqueItems");
                }
            }
        }
        if let Some(item_schema) = schema.get("items").and_then(Value::as_object) {
            for item in items {
                conforms(item_schema, item)?;
            }
        }
    }
    if let Some(object) = value.as_object() {
        let properties = schema.get("properties").and_then(Value::as_object);
        if let Some(required) = schema.get("required").and_then(Value::as_array) {
            for name in required {
                if !object.contains_key(name.as_str().unwrap_or_default()) {
                    return fail("required");
                }
            }
        }
        for (key, child) in object {
            match properties
                .and_then(|p| p.get(key))
                .and_then(Value::as_object)
            {
                Some(child_schema) => conforms(child_schema, child)?,
                None if schema.get("additionalProperties") == Some(&json!(false)) => {
                    return fail("additionalProperties");
                }
                None => {}
            }
        }
    }
    if let Some(arms) = schema.get("anyOf").and_then(Value::as_array) {
        if !arms
            .iter()
            .filter_map(Value::as_object)
            .any(|arm| conforms(arm, value).is_ok())
        {
            return fail("anyOf");
        }
    }
    Ok(())
}

/// Inputs the acceptance cases accept.
fn accepted_inputs() -> Vec<(ToolName, Value)> {
    let e5: Value = serde_json::from_str("1e5").unwrap_or_default();
    let two_e3: Value = serde_json::from_str("2e3").unwrap_or_default();
    let mut inputs: Vec<(ToolName, Value)> =
        ToolName::ALL.iter().map(|t| (*t, valid_args(*t))).collect();
    inputs.extend([
        (ToolName::HoldingDetail, json!({"symbol":"btc"})),
        (ToolName::LivePrices, json!({"symbols":["sol"]})),
        (ToolName::Kpis, json!({})),
        (ToolName::TokenLots, json!({"symbol":"BTC","page":2.0})),
        (ToolName::TokenLots, json!({"symbol":"BTC","page":two_e3})),
        (ToolName::TxSearch, json!({})),
        (ToolName::TxSearch, json!({"symbol":"eth","from":"2024-01-01","to":"2024-12-31","types":["BUY","SELL"],"page":2})),
        (ToolName::TaxYearComparison, json!({"yearA":2009,"yearB":2010})),
        (ToolName::AccountHoldings, json!({"accountName":"x".repeat(64)})),
        (ToolName::AccountHoldings, json!({"accountName":"  Kraken  "})),
        (ToolName::SpanishTaxReport, json!({"year":2024})),
        (ToolName::ScenarioPositionValue, json!({"symbol":"BTC","hypotheticalPrice":"0"})),
        (ToolName::ScenarioPositionValue, json!({"symbol":"BTC","hypotheticalPrice":"0.5"})),
        (ToolName::ScenarioPositionValue, json!({"symbol":"BTC","hypotheticalPrice":70000})),
        (ToolName::ScenarioPositionValue, json!({"symbol":"BTC","hypotheticalPrice":0.5})),
        (ToolName::ScenarioPositionValue, json!({"symbol":"BTC","hypotheticalPrice":e5})),
        (ToolName::DrawdownCurve, json!({"days":3650})),
        (ToolName::VolatilityHeatmap, json!({})),
        (ToolName::ExplainMetric, json!({"metric":"hhi"})),
        (ToolName::FiscalIntegrityRows, json!({"qualityFlag":"MISSING_PRICE"})),
        (ToolName::ScenarioPortfolioShock, json!({"shock":{"kind":"per_asset","shocks":[{"symbol":"btc","pct":10},{"symbol":"ETH","pct":"-10"}]}})),
    ]);
    for pct in [
        json!("-100"),
        json!("1000"),
        json!("0"),
        json!("-99.99"),
        json!("12.5"),
        json!("-100.0000"),
        json!(-50),
        json!(12.5),
        json!(-100.0),
    ] {
        inputs.push((
            ToolName::ScenarioPortfolioShock,
            json!({"shock":{"kind":"uniform","pct":pct}}),
        ));
    }
    inputs
}

#[test]
fn accepted_inputs_validate_against_the_served_schemas() {
    let rig = Rig::metered(json!({"a":1}));
    for (tool, args) in accepted_inputs() {
        assert_eq!(
            rig.call(tool.as_str(), args.clone())["kind"],
            "ok",
            "{tool} {args}"
        );
        let schema: Map<String, Value> =
            serde_json::from_str(input_schema(tool)).unwrap_or_default();
        if let Err(error) = conforms(&schema, &args) {
            panic!("{tool} {args}: schema rejects ({error})");
        }
    }
}

#[test]
fn the_evaluator_rejects_what_the_schemas_forbid() {
    let schema = |tool: ToolName| -> Map<String, Value> {
        serde_json::from_str(input_schema(tool)).unwrap_or_default()
    };
    assert!(conforms(&schema(ToolName::Kpis), &json!({"currency":"USD"})).is_err());
    assert!(conforms(&schema(ToolName::TxSearch), &json!({"page":0})).is_err());
    assert!(conforms(&schema(ToolName::LivePrices), &json!({"symbols":["A","A"]})).is_err());
    assert!(
        conforms(
            &schema(ToolName::ScenarioPortfolioShock),
            &json!({"shock":{"kind":"linear","pct":"5"}})
        )
        .is_err()
    );
    assert!(
        conforms(
            &schema(ToolName::ScenarioPositionValue),
            &json!({"symbol":"BTC","hypotheticalPrice":"1e5"})
        )
        .is_err()
    );
}
