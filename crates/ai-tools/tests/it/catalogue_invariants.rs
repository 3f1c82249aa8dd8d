//! Catalogue invariants (`tools.md` §2, §13, §15): names, tiers, budgets, definitions, schemas,
//! annotations, exposure and the `tools/list` goldens.

use ai_tools::schemas::{OUTPUT_SCHEMA, description, input_schema, title};
use ai_tools::{Profile, metered_budget};
use serde_json::{Value, json};
use shared_types::{Tier, ToolName};

use crate::support::{Rig, local};
use crate::support_golden::check_golden;

const CATALOGUE: [(&str, &str, u32); 25] = [
    ("portfolio_summary", "core", 7500),
    ("fiscal_integrity", "core", 6000),
    ("fiscal_integrity_rows", "extended", 4000),
    ("token_history", "core", 6000),
    ("token_lots", "extended", 6000),
    ("asset_allocation", "core", 4000),
    ("risk_metrics", "extended", 1500),
    ("kpis", "core", 3000),
    ("drawdown_curve", "extended", 4000),
    ("performance_history", "extended", 4000),
    ("volatility_heatmap", "extended", 4000),
    ("spanish_tax_report", "core", 6000),
    ("live_prices", "core", 2000),
    ("holding_detail", "core", 3000),
    ("account_holdings", "core", 7500),
    ("tax_year_comparison", "core", 4000),
    ("data_gaps", "core", 4000),
    ("explain_metric", "core", 2000),
    ("scenario_position_value", "core", 1500),
    ("breakeven_price", "core", 1500),
    ("derivatives_pnl", "extended", 4000),
    ("custody_locations", "extended", 4000),
    ("scenario_portfolio_shock", "extended", 4000),
    ("concentration_risk", "extended", 2000),
    ("tx_search", "extended", 5000),
];

#[test]
fn names_tiers_and_budgets_follow_the_table() {
    assert_eq!(ToolName::ALL.len(), 25);
    for (tool, (name, tier, budget)) in ToolName::ALL.iter().zip(CATALOGUE) {
        assert_eq!(tool.as_str(), name);
        assert_eq!(tool.tier().as_str(), tier);
        assert_eq!(metered_budget(*tool), budget);
        assert_eq!(Profile::Metered.tool_budget(*tool), budget);
        let bytes = name.as_bytes();
        assert!(
            (3..=64).contains(&bytes.len())
                && bytes.first().is_some_and(u8::is_ascii_lowercase)
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_'),
            "{name}"
        );
    }
    let names: std::collections::BTreeSet<&str> =
        ToolName::ALL.iter().map(|t| t.as_str()).collect();
    assert_eq!(names.len(), 25);
    assert_eq!(
        ToolName::ALL
            .iter()
            .filter(|t| t.tier() == Tier::Core)
            .count(),
        14
    );
    assert_eq!(
        ToolName::ALL
            .iter()
            .filter(|t| t.tier() == Tier::Extended)
            .count(),
        11
    );
    assert!(ToolName::parse("fees_paid").is_none());
    assert!(ToolName::parse("cash_flow_summary").is_none());
}

/// The body of `fn <name>` in `source`, up to the next function.
fn body_of<'a>(source: &'a str, signature: &str) -> &'a str {
    let start = source
        .find(signature)
        .unwrap_or_else(|| panic!("{signature} not found"));
    let rest = source.get(start..).unwrap_or("");
    let end = rest
        .get(1..)
        .and_then(|r| r.find("\n    pub ").or_else(|| r.find("\npub ")))
        .map_or(rest.len(), |e| e + 1);
    rest.get(..end).unwrap_or(rest)
}

#[test]
fn tier_and_budget_matches_have_no_wildcard_arm() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let vocab =
        std::fs::read_to_string(root.join("../shared-types/src/vocab.rs")).unwrap_or_default();
    let profile = std::fs::read_to_string(root.join("src/profile.rs")).unwrap_or_default();
    for body in [
        body_of(&vocab, "pub const fn tier("),
        body_of(&profile, "pub const fn metered_budget("),
    ] {
        assert!(body.contains("match"), "{body}");
        assert!(!body.contains("_ =>"), "wildcard arm in {body}");
        assert!(body.matches("ToolName::").count() >= 25, "{body}");
    }
}

fn is_tool_like(word: &str) -> bool {
    word.contains('_') && word.chars().all(|c| c.is_ascii_lowercase() || c == '_')
}

#[test]
fn descriptions_and_titles() {
    for tool in ToolName::ALL {
        let text = description(*tool);
        let chars = text.chars().count();
        assert!((20..=280).contains(&chars), "{tool}: {chars}");
        assert!(text.starts_with("Use "), "{tool}");
        assert!(!text.chars().any(|c| c.is_ascii_digit()), "{tool}");
        for banned in ["Args:", "Returns:", "Example", "Errors:"] {
            assert!(!text.contains(banned), "{tool}");
        }
        for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if is_tool_like(word) {
                let named = ToolName::parse(word).unwrap_or_else(|| panic!("{tool} names {word}"));
                if tool.tier() == Tier::Core {
                    assert_eq!(named.tier(), Tier::Core, "{tool} names {word}");
                }
            }
        }
        let title = title(*tool);
        assert!(title.chars().count() <= 40 && !title.chars().any(|c| c.is_ascii_digit()));
    }
}

const FORBIDDEN_PROPERTIES: [&str; 8] = [
    "accountId",
    "account_id",
    "currency",
    "targetCurrency",
    "baseCurrency",
    "quantity",
    "amount",
    "locale",
];

fn check_schema_node(node: &Value, path: &str, is_root: bool) {
    let Some(object) = node.as_object() else {
        if let Value::Array(items) = node {
            for (i, item) in items.iter().enumerate() {
                check_schema_node(item, &format!("{path}/{i}"), false);
            }
        }
        return;
    };
    if is_root {
        assert_eq!(object.get("type"), Some(&json!("object")), "{path}");
        assert!(
            object.get("properties").is_some_and(Value::is_object),
            "{path}"
        );
    }
    if let Some(properties) = object.get("properties").and_then(Value::as_object) {
        assert_eq!(
            object.get("additionalProperties"),
            Some(&json!(false)),
            "{path}"
        );
        for name in properties.keys() {
            assert!(
                !FORBIDDEN_PROPERTIES.contains(&name.as_str()),
                "{path}: {name}"
            );
        }
        if let Some(required) = object.get("required").and_then(Value::as_array) {
            for name in required {
                assert!(
                    properties.contains_key(name.as_str().unwrap_or_default()),
                    "{path}: {name}"
                );
            }
        }
    } else if object.get("type") == Some(&json!("object")) {
        let arms = object
            .get("anyOf")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("{path}: object without properties"));
        assert!(path.ends_with("/properties/shock"), "{path}");
        for arm in arms {
            assert!(
                arm.get("properties").is_some()
                    && arm.get("additionalProperties") == Some(&json!(false))
            );
        }
    }
    for (key, child) in object {
        if key != "enum" && key != "required" && key != "const" && key != "default" {
            check_schema_node(child, &format!("{path}/{key}"), false);
        }
    }
}

#[test]
fn input_schemas_follow_the_rules() {
    for tool in ToolName::ALL {
        let schema: Value =
            serde_json::from_str(input_schema(*tool)).unwrap_or_else(|e| panic!("{tool}: {e}"));
        assert_eq!(
            serde_json::to_string(&schema).unwrap_or_default(),
            input_schema(*tool),
            "{tool} is not compact"
        );
        check_schema_node(&schema, "", true);
    }
    let quality: Value =
        serde_json::from_str(input_schema(ToolName::FiscalIntegrityRows)).unwrap_or_default();
    let flags: Vec<&str> = shared_types::QualityFlag::ALL
        .iter()
        .map(|f| f.as_str())
        .collect();
    assert_eq!(quality["properties"]["qualityFlag"]["enum"], json!(flags));
    let tx: Value = serde_json::from_str(input_schema(ToolName::TxSearch)).unwrap_or_default();
    let kinds: Vec<&str> = shared_types::SpotTxType::ALL
        .iter()
        .map(|f| f.as_str())
        .collect();
    assert_eq!(tx["properties"]["types"]["items"]["enum"], json!(kinds));
    let metric: Value =
        serde_json::from_str(input_schema(ToolName::ExplainMetric)).unwrap_or_default();
    let metrics: Vec<&str> = shared_types::MetricId::ALL
        .iter()
        .map(|f| f.as_str())
        .collect();
    assert_eq!(metric["properties"]["metric"]["enum"], json!(metrics));
}

#[test]
fn definitions_output_schema_and_annotations() {
    let rig = Rig::metered(json!({}));
    let list: Value = serde_json::from_str(rig.host.tools_list_json()).unwrap_or_default();
    let tools = list["tools"].as_array().cloned().unwrap_or_default();
    assert_eq!(tools.len(), 25);
    for (definition, tool) in tools.iter().zip(ToolName::ALL) {
        let keys: Vec<&str> = definition
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            [
                "name",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations"
            ]
        );
        assert_eq!(definition["name"], tool.as_str());
        assert_eq!(
            serde_json::to_string(&definition["outputSchema"]).unwrap_or_default(),
            OUTPUT_SCHEMA
        );
        assert_eq!(
            definition["annotations"],
            json!({"title": title(*tool), "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        assert_eq!(
            serde_json::to_string(&definition["inputSchema"]).unwrap_or_default(),
            input_schema(*tool)
        );
    }
}

#[test]
fn tools_list_goldens() {
    check_golden(
        "tools_list_metered.json",
        Rig::metered(json!({})).host.tools_list_json(),
    );
    check_golden(
        "tools_list_local.json",
        Rig::new(local(8192), 1, json!({})).host.tools_list_json(),
    );
    // The local listing does not depend on the context window.
    assert_eq!(
        Rig::new(local(1000), 1, json!({})).host.tools_list_json(),
        Rig::new(local(10_000_000), 1, json!({}))
            .host
            .tools_list_json()
    );
    let local_list: Value =
        serde_json::from_str(Rig::new(local(8192), 1, json!({})).host.tools_list_json())
            .unwrap_or_default();
    let names: Vec<&str> = local_list["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|d| d["name"].as_str()).collect())
        .unwrap_or_default();
    let core: Vec<&str> = ToolName::ALL
        .iter()
        .filter(|t| t.tier() == Tier::Core)
        .map(|t| t.as_str())
        .collect();
    assert_eq!(names, core);
}
