//! `cartera tools list` and `cartera tools call`: the catalogue listings (snapshots; `--json`
//! is exactly the `tools/list` text), one call of `explain_metric` and an unknown tool on the
//! demo ledger, and the usage errors of the profile flags.

use crate::support::{DemoLedger, cartera, stderr, stdout};

fn list(args: &[&str]) -> std::process::Output {
    cartera().args(args).output().expect("cartera runs")
}

#[test]
fn list_prints_the_catalogue_of_each_profile() {
    for (name, args) in [
        ("tools_list_metered", &["tools", "list"][..]),
        (
            "tools_list_local",
            &[
                "tools",
                "list",
                "--profile",
                "local",
                "--context-window",
                "8192",
            ][..],
        ),
    ] {
        let human = list(args);
        assert!(human.status.success(), "{}", stderr(&human));
        insta::assert_snapshot!(format!("{name}_human"), stdout(&human));
        let mut json_args = vec!["--json"];
        json_args.extend_from_slice(args);
        let json = list(&json_args);
        assert!(json.status.success(), "{}", stderr(&json));
        let text = stdout(&json);
        let parsed: serde_json::Value = serde_json::from_str(&text).expect("one JSON document");
        let tools = parsed["tools"].as_array().map_or(0, Vec::len);
        assert_eq!(tools, if name.ends_with("metered") { 25 } else { 14 });
        insta::assert_snapshot!(format!("{name}_json"), text);
    }
}

#[test]
fn list_json_is_the_ai_tools_golden() {
    let output = list(&["--json", "tools", "list"]);
    let golden = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../ai-tools/tests/golden/tools_list_metered.json"),
    )
    .expect("golden");
    assert_eq!(stdout(&output), format!("{golden}\n"));
}

#[test]
fn profile_flags_are_checked() {
    for args in [
        &["tools", "list", "--profile", "local"][..],
        &["tools", "list", "--context-window", "8192"][..],
        &[
            "tools",
            "list",
            "--profile",
            "local",
            "--context-window",
            "999",
        ][..],
        &["tools", "list", "--profile", "mixed"][..],
    ] {
        let output = list(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stdout(&output).is_empty());
    }
}

#[test]
fn call_answers_through_the_entry_point() {
    let demo = DemoLedger::build();
    let explained = demo.run(&["tools", "call", "explain_metric", r#"{"metric":"hhi"}"#]);
    assert!(explained.status.success(), "{}", stderr(&explained));
    assert_eq!(
        stdout(&explained),
        "{\"kind\":\"ok\",\"payload\":{\"metric\":\"hhi\",\"locale\":\"es\",\"definition\":\"Índice de \
         Herfindahl-Hirschman: la suma de los pesos al cuadrado de las posiciones valoradas, desde \
         casi cero en una cartera repartida hasta uno con un solo activo. Uno dividido entre él da \
         el número efectivo de posiciones.\",\"producedBy\":\"concentration_risk\",\
         \"producerExposed\":true}}\n"
    );

    let unknown = demo.run(&["tools", "call", "fees_paid"]);
    assert_eq!(unknown.status.code(), Some(1));
    let result: serde_json::Value = serde_json::from_str(&stdout(&unknown)).expect("JSON");
    assert_eq!(result["kind"], "error");
    assert_eq!(result["code"], "UNKNOWN_TOOL");
    assert_eq!(result["tool"], "fees_paid");

    let invalid = demo.run(&["tools", "call", "tx_search", r#"{"page":0}"#]);
    assert_eq!(invalid.status.code(), Some(1));
    let result: serde_json::Value = serde_json::from_str(&stdout(&invalid)).expect("JSON");
    assert_eq!(result["code"], "INVALID_TOOL_INPUT");
    assert_eq!(result["path"], "/page");

    let broken = demo.run(&["tools", "call", "kpis", "{not json"]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(stdout(&broken).is_empty());
}
