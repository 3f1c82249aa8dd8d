//! Issue 25 §12: one story across views. Each test reproduces a disagreement found between two
//! views of the demo ledger (a command and a tool, a total and its rows, two variants of one
//! command) and pins that they now tell the same story.

use serde_json::Value;

use crate::support::{DemoLedger, stderr, stdout};

/// `tools call NAME ARGS` on the demo ledger: the whole result document.
fn tool(demo: &DemoLedger, name: &str, args: &str) -> Value {
    let output = demo.run(&["tools", "call", name, args]);
    serde_json::from_str(&stdout(&output)).expect("tools call prints one JSON document")
}

/// Lot numbers are FIFO positions (the oldest lot is #1) in every view, whatever the listing
/// order: ETH has 15 lots, listed newest first, so the list starts at #15.
#[test]
fn lot_numbers_are_fifo_positions_in_the_cli_and_the_tools() {
    let demo = DemoLedger::build();
    let text = demo.ok(&["lots", "ETH"]);
    // ETH's lot table is wider than 100 columns: one `label: value` block per lot.
    let first = text.find(" lot:").expect("a lot block");
    assert!(
        text[first..].starts_with(" lot:           #15\n acquired:      2024-12-27\n"),
        "{text}"
    );
    assert!(
        text.contains(" lot:           #1\n acquired:      2022-02-01\n"),
        "{text}"
    );
    // The consumption history names the lots by the same numbers: the first ETH lot (bought
    // 2022-02-01) was sold on 2022-06-15.
    assert!(
        text.contains(" lot:              #1\n date:             2022-06-15\n"),
        "{text}"
    );
    let json = demo.json(&["lots", "ETH"]);
    assert_eq!(json["lots"][0]["number"], 15);
    assert_eq!(json["lots"][14]["number"], 1);
    let history = tool(&demo, "token_history", r#"{"symbol":"ETH"}"#);
    assert_eq!(history["payload"]["lots"][0]["lotNumber"], 15);
    assert_eq!(history["payload"]["lots"][0]["date"], "2024-12-27");
    assert_eq!(history["payload"]["lots"][14]["lotNumber"], 1);
    let page = tool(&demo, "token_lots", r#"{"symbol":"ETH","page":0}"#);
    assert_eq!(page["payload"]["lots"][14]["lotNumber"], 1);
    assert!(stderr(&demo.run(&["lots", "ETH"])).is_empty());
}

/// `cartera tax 2019` says the demo ledger (2022–2024) has no data for 2019; the tax tools gave
/// a `complete` all-zero report for it. Both now answer the same typed outcome: the use case's
/// missing-data error, which the tools return as `USE_CASE_FAILED` with the command's words.
#[test]
fn a_tax_year_without_data_is_the_same_outcome_in_the_cli_and_the_tools() {
    let demo = DemoLedger::build();
    let cli = demo.run(&["tax", "2019"]);
    assert_eq!(cli.status.code(), Some(1));
    let said = "no IRPF report for 2019: the ledger's transactions start in 2022 (they cover \
                2022–2024)";
    assert!(stderr(&cli).contains(said), "{}", stderr(&cli));
    for (name, args) in [
        ("spanish_tax_report", r#"{"year":2019}"#),
        ("tax_year_comparison", r#"{"yearA":2019,"yearB":2022}"#),
    ] {
        let result = tool(&demo, name, args);
        assert_eq!(result["kind"], "error", "{name}: {result}");
        assert_eq!(result["code"], "USE_CASE_FAILED", "{name}: {result}");
        let message = result["message"].as_str().unwrap_or_default();
        assert!(message.contains(said), "{name}: {message}");
    }
    // A year the ledger covers with no activity is still a report (`tools.md` §9.12).
    let result = tool(&demo, "spanish_tax_report", r#"{"year":2024}"#);
    assert_eq!(result["kind"], "ok", "{result}");
    // After the current year (the test clock's 2024) the same rule holds in both views.
    let cli = demo.run(&["tax", "2031"]);
    assert!(stderr(&cli).contains("no IRPF report for 2031: it is after the current year 2024"));
    let result = tool(&demo, "spanish_tax_report", r#"{"year":2031}"#);
    assert_eq!(result["code"], "USE_CASE_FAILED", "{result}");
}

/// `cartera …` on the demo ledger with the clock at `now`.
fn run_now(demo: &DemoLedger, now: &str, args: &[&str]) -> std::process::Output {
    crate::support::cartera()
        .env("CARTERA_NOW", now)
        .arg("--ledger")
        .arg(&demo.path)
        .args(args)
        .output()
        .expect("cartera runs")
}

fn ok_now(demo: &DemoLedger, now: &str, args: &[&str]) -> String {
    let output = run_now(demo, now, args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

/// The demo's closes end on 2024-12-31. Half a year later `portfolio` valued the holdings at
/// those closes with a warning, while `--currency USD` and `--account Kraken` showed them all
/// unvalued with equity 0.00. Every holdings view now values at the latest close and names
/// each stale one: the portfolio in EUR and USD, an account tree, holdings-at and the tools.
#[test]
fn every_holdings_view_values_at_the_latest_close_and_names_a_stale_one() {
    let demo = DemoLedger::build();
    let now = "2025-06-30T12:00:00Z";
    let stale = "BTC is valued at its latest stored price, of 2024-12-31 (181 days before \
                 2025-06-30)";
    let eur = ok_now(&demo, now, &["portfolio"]);
    assert!(eur.contains(" equity          10442.35 EUR"), "{eur}");
    assert!(eur.contains(stale), "{eur}");

    let usd = ok_now(&demo, now, &["portfolio", "--currency", "USD"]);
    assert!(!usd.contains("Unvalued holdings"), "{usd}");
    assert!(!usd.contains(" equity             0.00 USD"), "{usd}");
    assert!(usd.contains(stale), "{usd}");
    let usd_json: Value = serde_json::from_str(&ok_now(
        &demo,
        now,
        &["--json", "portfolio", "--currency", "USD"],
    ))
    .unwrap();
    assert_eq!(usd_json["valued"].as_array().map(Vec::len), Some(3));
    assert_eq!(usd_json["unvalued"].as_array().map(Vec::len), Some(0));

    let kraken = ok_now(&demo, now, &["portfolio", "--account", "Kraken"]);
    assert!(!kraken.contains("Unvalued"), "{kraken}");
    // 0.00965 BTC × 88676.35 = 855.7268 → 855.73, as the portfolio values BTC.
    assert!(kraken.contains("855.73"), "{kraken}");
    assert!(kraken.contains(stale), "{kraken}");

    let at = ok_now(&demo, now, &["holdings-at", "2025-06-30"]);
    assert!(at.contains("855.73"), "{at}");
    assert!(!at.contains("no close at that date"), "{at}");
    assert!(at.contains(stale), "{at}");

    let output = run_now(&demo, now, &["tools", "call", "portfolio_summary"]);
    let summary: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        summary["payload"]["metrics"]["totalEquityFiat"], "10442.35",
        "{summary}"
    );
    assert_eq!(summary["payload"]["unvaluedCount"], 0);
    let output = run_now(
        &demo,
        now,
        &[
            "tools",
            "call",
            "account_holdings",
            r#"{"accountName":"Kraken"}"#,
        ],
    );
    let account: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let spot = &account["payload"]["sections"][1];
    assert_eq!(spot["accountName"], "Kraken:spot", "{account}");
    assert_eq!(spot["ranked"][0]["currentValueFiat"], "855.73", "{account}");
}

/// The Modelo 714 total (10442.36) differed from the portfolio's equity (10442.35) with no
/// word: 714 sums the custodians' values, each rounded to cents (0.00965 BTC at Kraken →
/// 855.73, 0.05 at Ledger → 4433.82), the portfolio rounds the whole 0.05965 BTC once
/// (5289.54). The 714 rows sum to its total, and the view gives the portfolio's figure.
#[test]
fn the_modelo_714_total_is_its_rows_and_states_the_portfolio_figure() {
    let demo = DemoLedger::build();
    let text = demo.ok(&["holdings-at", "2024-12-31"]);
    let equity = demo.ok(&["portfolio"]);
    assert!(equity.contains(" equity          10442.35 EUR"), "{equity}");
    let m714 = text
        .split("Modelo 714 (2024)")
        .nth(1)
        .expect("the 714 block");
    let rows: Vec<&str> = m714
        .lines()
        .filter(|l| {
            ["BTC", "DOT", "ETH"]
                .iter()
                .any(|s| l.trim_start().starts_with(s))
        })
        .collect();
    assert_eq!(rows.len(), 3, "{m714}");
    let values: Vec<&str> = rows
        .iter()
        .map(|l| l.split_whitespace().last().unwrap_or_default())
        .collect();
    assert_eq!(values, ["5289.55", "1170.79", "3982.02"]);
    assert!(m714.contains("10442.36 EUR"), "{m714}");
    assert!(
        m714.contains("as `cartera portfolio` does, gives 10442.35 EUR"),
        "{m714}"
    );
    let json = demo.json(&["holdings-at", "2024-12-31"]);
    assert_eq!(json["wholeQuantityTotal714"], "10442.35");
    assert_eq!(json["yearEnd"]["modelo714"]["total714"], "10442.36");
}

/// A −30 % shock listed per-asset values summing to 7309.64 against a `totalAfter` of 7309.65.
#[test]
fn a_shock_lists_values_that_sum_to_its_total() {
    let demo = DemoLedger::build();
    let result = tool(
        &demo,
        "scenario_portfolio_shock",
        r#"{"shock":{"kind":"uniform","pct":"-30"}}"#,
    );
    let payload = &result["payload"];
    let cents = |v: &Value| -> i64 {
        v.as_str()
            .unwrap_or_default()
            .replace('.', "")
            .parse()
            .unwrap_or(i64::MIN)
    };
    let assets = payload["assets"].as_array().expect("assets");
    let after: i64 = assets.iter().map(|a| cents(&a["after"])).sum();
    let before: i64 = assets.iter().map(|a| cents(&a["before"])).sum();
    assert_eq!(payload["totalAfter"], "7309.65", "{payload}");
    assert_eq!(after, 730_965, "{payload}");
    assert_eq!(before, cents(&payload["totalBefore"]), "{payload}");
}
