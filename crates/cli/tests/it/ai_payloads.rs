//! Every AI tool's payload on the demo ledger through `cartera tools call NAME ARGS` (the same
//! entry point the MCP server uses): each answer is `ok` (or, for a payload over its budget,
//! `truncated`) and is pinned by a snapshot.

use crate::support::{DemoLedger, stderr, stdout};

/// One valid call per tool, in catalogue order.
pub(crate) const CALLS: [(&str, &str); 25] = [
    ("portfolio_summary", "{}"),
    ("fiscal_integrity", "{}"),
    (
        "fiscal_integrity_rows",
        r#"{"qualityFlag":"MISSING_PRICE"}"#,
    ),
    ("token_history", r#"{"symbol":"btc"}"#),
    ("token_lots", r#"{"symbol":"ETH","page":0}"#),
    ("asset_allocation", "{}"),
    ("risk_metrics", "{}"),
    ("kpis", "{}"),
    ("drawdown_curve", r#"{"days":365}"#),
    ("performance_history", r#"{"days":10}"#),
    ("volatility_heatmap", r#"{"year":2024}"#),
    ("spanish_tax_report", r#"{"year":2024}"#),
    ("live_prices", r#"{"symbols":["btc","ETH","NOPE"]}"#),
    ("holding_detail", r#"{"symbol":"BTC"}"#),
    ("account_holdings", r#"{"accountName":"kraken"}"#),
    ("tax_year_comparison", r#"{"yearA":2023,"yearB":2024}"#),
    ("data_gaps", "{}"),
    ("explain_metric", r#"{"metric":"hhi"}"#),
    (
        "scenario_position_value",
        r#"{"symbol":"BTC","hypotheticalPrice":"70000"}"#,
    ),
    ("breakeven_price", r#"{"symbol":"BTC"}"#),
    ("derivatives_pnl", "{}"),
    ("custody_locations", "{}"),
    (
        "scenario_portfolio_shock",
        r#"{"shock":{"kind":"uniform","pct":"-50"}}"#,
    ),
    ("concentration_risk", "{}"),
    ("tx_search", r#"{"symbol":"BTC","page":1}"#),
];

#[test]
fn every_tool_answers_on_the_demo_ledger() {
    let demo = DemoLedger::build();
    for (name, args) in CALLS {
        let output = demo.run(&["tools", "call", name, args]);
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        let text = stdout(&output);
        let result: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}: {text}"));
        let kind = result["kind"].as_str().unwrap_or_default();
        assert!(kind == "ok" || kind == "truncated", "{name}: {text}");
        insta::assert_json_snapshot!(format!("tool_{name}"), result);
    }
}
