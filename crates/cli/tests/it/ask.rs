//! `cartera ask` and `cartera chat` driven against a scripted model server on 127.0.0.1 (the
//! OpenAI and Anthropic streaming shapes of `crates/advisor/tests/it/scripted.rs`), over a
//! copy of the MCP fixture ledger. No test touches the network.

#[path = "../../../advisor/tests/it/scripted.rs"]
mod scripted;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use self::scripted::{
    Scripted, ScriptedServer, anthropic_stream, dead_endpoint, openai_answer, openai_text,
    openai_tool_calls,
};
use crate::mcp_support::{NOW, fixture_ledger};
use crate::support::cartera;

/// A private copy of the fixture ledger (each test has its own conversations file).
fn ledger_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ledger.sqlite");
    std::fs::copy(fixture_ledger(), &path).unwrap();
    (dir, path)
}

/// `cartera --ledger L <args>` with the test clock, short retries and no key in the
/// environment beyond the one the test sets.
fn ask_command(ledger: &Path, args: &[&str]) -> Command {
    let mut command = cartera();
    command
        .env("CARTERA_NOW", NOW)
        .env("CARTERA_LLM_RETRY_DELAYS_MS", "10,10")
        .env("CARTERA_LLM_READ_TIMEOUT_MS", "3000")
        .env("CARTERA_LLM_API_KEY", "sk-test-do-not-print")
        .env_remove("CARTERA_LLM_URL")
        .env_remove("CARTERA_LLM_MODEL")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .arg("--ledger")
        .arg(ledger)
        .args(args);
    command
}

fn run(ledger: &Path, args: &[&str]) -> Output {
    ask_command(ledger, args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The tool names a request offered (OpenAI shape).
fn offered(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap().to_owned())
        .collect()
}

/// `currentValueFiat` of BTC in the fixture, read through `cartera tools call`.
fn btc_value(ledger: &Path) -> String {
    let output = cartera()
        .env("CARTERA_NOW", NOW)
        .arg("--ledger")
        .arg(ledger)
        .args(["tools", "call", "holding_detail", r#"{"symbol":"BTC"}"#])
        .output()
        .unwrap();
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    result["payload"]["holding"]["currentValueFiat"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn ask_runs_a_real_tool_quotes_its_figure_and_lists_an_invented_one() {
    let (_dir, ledger) = ledger_copy();
    let before = std::fs::read(&ledger).unwrap();
    let value = btc_value(&ledger);
    let answer = format!("Your BTC is worth `{value}` EUR; with fees about 123456.78 EUR.");
    let server = ScriptedServer::start(vec![
        Scripted::sse(openai_tool_calls(&[(
            "holding_detail",
            r#"{"symbol":"btc"}"#,
        )])),
        openai_answer(&[&answer[..10], &answer[10..]]),
    ]);
    let output = run(
        &ledger,
        &[
            "--json",
            "ask",
            "How much is my bitcoin worth?",
            "--endpoint",
            &server.base_url,
            "--model",
            "qwen3:8b",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["answer"], answer.as_str());
    assert_eq!(document["toolCalls"][0]["name"], "holding_detail");
    assert_eq!(document["toolCalls"][0]["arguments"]["symbol"], "btc");
    assert_eq!(document["toolCalls"][0]["outcome"], "ok");
    assert_eq!(
        document["unverifiedFigures"],
        serde_json::json!(["123456.78"])
    );
    assert_eq!(document["conversationId"], "c1");
    let keys: Vec<&String> = document.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["answer", "toolCalls", "unverifiedFigures", "conversationId"]
    );
    // The model read the tool's figure in the result fed back to it.
    let bodies = server.bodies();
    let fed_back = bodies[1]["messages"][3]["content"].as_str().unwrap();
    assert!(fed_back.contains(&value), "{fed_back}");
    // A loopback endpoint gets the local profile: exactly the 14 core tools.
    assert_eq!(
        offered(&bodies[0]),
        [
            "portfolio_summary",
            "fiscal_integrity",
            "token_history",
            "asset_allocation",
            "kpis",
            "spanish_tax_report",
            "live_prices",
            "holding_detail",
            "account_holdings",
            "tax_year_comparison",
            "data_gaps",
            "explain_metric",
            "scenario_position_value",
            "breakeven_price"
        ]
    );
    let instructions = bodies[0]["messages"][0]["content"].as_str().unwrap();
    assert!(instructions.contains("larger profile"));
    // The key is sent in its header and printed nowhere.
    assert!(server.headers.lock().unwrap()[0].contains("Bearer sk-test-do-not-print"));
    assert!(!text(&output.stdout).contains("sk-test"));
    assert!(!text(&output.stderr).contains("sk-test"));
    // The ledger is untouched; the conversation lives beside it.
    assert_eq!(std::fs::read(&ledger).unwrap(), before);
    assert!(
        ledger
            .with_file_name("ledger.sqlite.conversations.json")
            .is_file()
    );
}

#[test]
fn the_answer_streams_to_stdout_and_the_audit_follows_it() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![openai_answer(&["You hold ", "12345.6789 BTC."])]);
    let output = run(
        &ledger,
        &[
            "ask",
            "How much BTC?",
            "--endpoint",
            &server.base_url,
            "--model",
            "m",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "You hold 12345.6789 BTC.\n\nUnverified figures (found in no tool result of this answer): `12345.6789`\n"
    );
    // stderr is not a terminal here: no status line escapes.
    assert!(!text(&output.stderr).contains('\x1b'));
}

#[test]
fn a_tool_the_profile_does_not_expose_is_a_typed_error_fed_back() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![
        Scripted::sse(openai_tool_calls(&[
            ("risk_metrics", "{}"),
            ("kpis", "{\"x\":"),
        ])),
        openai_answer(&["I cannot see risk metrics in this profile."]),
    ]);
    let output = run(
        &ledger,
        &[
            "--json",
            "ask",
            "Risk?",
            "--endpoint",
            &server.base_url,
            "--model",
            "m",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["toolCalls"][0]["outcome"], "error");
    assert_eq!(document["toolCalls"][0]["code"], "UNKNOWN_TOOL");
    assert_eq!(document["toolCalls"][1]["code"], "INVALID_TOOL_INPUT");
    assert_eq!(document["toolCalls"][1]["arguments"], "{\"x\":");
    let fed_back = server.bodies()[1]["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        fed_back.contains("unknown tool risk_metrics; this profile exposes: portfolio_summary"),
        "{fed_back}"
    );
}

#[test]
fn metered_and_hosted_endpoints_get_all_25_tools() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![openai_answer(&["Hello."])]);
    let output = run(
        &ledger,
        &[
            "ask",
            "Hi",
            "--endpoint",
            &server.base_url,
            "--model",
            "m",
            "--profile",
            "metered",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let names = offered(&server.bodies()[0]);
    assert_eq!(names.len(), 25);
    assert_eq!(names[2], "fiscal_integrity_rows");
    assert_eq!(names[24], "tx_search");
}

#[test]
fn anthropic_endpoints_are_spoken_to_in_their_own_shape() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![
        anthropic_stream(&["Checking."], &[("explain_metric", r#"{"metric":"hhi"}"#)]),
        anthropic_stream(&["HHI is a concentration index."], &[]),
    ]);
    let output = run(
        &ledger,
        &[
            "--json",
            "ask",
            "What is HHI?",
            "--endpoint",
            &server.base_url,
            "--model",
            "claude-test",
            "--api",
            "anthropic",
            "--locale",
            "en",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["answer"], "HHI is a concentration index.");
    let head = server.headers.lock().unwrap()[0].to_ascii_lowercase();
    assert!(
        head.starts_with("post /v1/v1/messages") || head.starts_with("post /v1/messages"),
        "{head}"
    );
    assert!(head.contains("x-api-key: sk-test-do-not-print"));
    let result = &server.bodies()[1]["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert!(result["content"].as_str().unwrap().contains("Herfindahl"));
}

#[test]
fn a_500_is_retried_and_a_400_is_not() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![
        Scripted::body(
            500,
            "application/json",
            r#"{"error":{"message":"loading model"}}"#,
        ),
        openai_answer(&["Ready."]),
    ]);
    let output = run(
        &ledger,
        &["ask", "?", "--endpoint", &server.base_url, "--model", "m"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(server.bodies().len(), 2);
    assert!(text(&output.stderr).contains("HTTP 500: loading model; retrying in 10 ms"));

    let server = ScriptedServer::start(vec![
        Scripted::body(
            404,
            "application/json",
            r#"{"error":{"message":"model \"nope\" not found, try pulling it first"}}"#,
        ),
        openai_answer(&["never"]),
    ]);
    let output = run(
        &ledger,
        &[
            "ask",
            "?",
            "--endpoint",
            &server.base_url,
            "--model",
            "nope",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stderr),
        "cartera: error: the model server refused the request with HTTP 404: model \"nope\" not found, try pulling it first\n"
    );
    assert_eq!(server.bodies().len(), 1);
    assert!(output.stdout.is_empty());
}

#[test]
fn continue_carries_the_earlier_turns() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![
        openai_answer(&["First answer."]),
        openai_answer(&["Second answer."]),
    ]);
    let first = run(
        &ledger,
        &[
            "ask",
            "First question",
            "--endpoint",
            &server.base_url,
            "--model",
            "m",
        ],
    );
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let second = run(
        &ledger,
        &[
            "--json",
            "ask",
            "Second question",
            "--continue",
            "--endpoint",
            &server.base_url,
            "--model",
            "m",
        ],
    );
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    let messages = server.bodies()[1]["messages"].clone();
    assert_eq!(messages[1]["content"], "First question");
    assert_eq!(messages[2]["content"], "First answer.");
    assert_eq!(messages[3]["content"], "Second question");
    let document: Value = serde_json::from_slice(&second.stdout).unwrap();
    assert_eq!(document["conversationId"], "c1");
}

#[test]
fn ctrl_c_cancels_with_130_and_stores_nothing() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![
        Scripted::sse(vec![openai_text("Thinking")]).then_stall(Duration::from_secs(20)),
    ]);
    let child = ask_command(
        &ledger,
        &["ask", "?", "--endpoint", &server.base_url, "--model", "m"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let started = Instant::now();
    while server.bodies().is_empty() && started.elapsed() < Duration::from_secs(10) {
        thread::sleep(Duration::from_millis(20));
    }
    thread::sleep(Duration::from_millis(200));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", text(&output.stderr));
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(text(&output.stderr).contains("cancelled"));
    assert!(
        !ledger
            .with_file_name("ledger.sqlite.conversations.json")
            .exists()
    );
}

#[test]
fn bad_setups_get_clear_messages() {
    let (_dir, ledger) = ledger_copy();
    let output = run(&ledger, &["ask", "?"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no model endpoint: pass --endpoint URL"));

    let dead = dead_endpoint();
    let output = run(&ledger, &["ask", "?", "--endpoint", &dead, "--model", "m"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "cartera: error: cannot reach the model server at {dead}/chat/completions"
        )),
        "{stderr}"
    );
    assert_eq!(stderr.matches("retrying").count(), 2);

    let server = ScriptedServer::start(vec![Scripted::body(
        200,
        "text/html",
        "<html>It works!</html>",
    )]);
    let output = run(
        &ledger,
        &["ask", "?", "--endpoint", &server.base_url, "--model", "m"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr)
            .contains("does not answer like the OpenAI-compatible chat completions API")
    );

    let output = run(
        &ledger,
        &["ask", "?", "--endpoint", "ftp://x", "--model", "m"],
    );
    assert_eq!(output.status.code(), Some(2));
    let output = run(
        &ledger,
        &[
            "ask",
            "?",
            "--endpoint",
            "http://127.0.0.1:1/v1",
            "--model",
            "m",
            "--profile",
            "metered",
            "--context-window",
            "8192",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn settings_and_environment_give_the_defaults() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![
        openai_answer(&["From settings."]),
        openai_answer(&["From env."]),
    ]);
    let set = |key: &str, value: &str| {
        let output = cartera()
            .arg("--ledger")
            .arg(&ledger)
            .args(["settings", "set", key, value])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output.stderr));
    };
    set("llm.endpoint", &format!("\"{}\"", server.base_url));
    set("llm.model", "\"from-settings\"");
    let output = run(&ledger, &["ask", "?"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(server.bodies()[0]["model"], "from-settings");
    let output = ask_command(&ledger, &["ask", "?"])
        .env("CARTERA_LLM_MODEL", "from-env")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(server.bodies()[1]["model"], "from-env");
}

#[test]
fn chat_suggests_answers_cancels_on_a_new_question_and_manages_conversations() {
    let (_dir, ledger) = ledger_copy();
    let server = ScriptedServer::start(vec![
        Scripted::sse(vec![openai_text("Slow")]).then_stall(Duration::from_secs(20)),
        openai_answer(&["Second answer."]),
    ]);
    let mut child = ask_command(
        &ledger,
        &["chat", "--endpoint", &server.base_url, "--model", "m"],
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"1\n").unwrap();
    let started = Instant::now();
    while server.bodies().is_empty() && started.elapsed() < Duration::from_secs(10) {
        thread::sleep(Duration::from_millis(20));
    }
    stdin.write_all(b"Second question\n").unwrap();
    while server.bodies().len() < 2 && started.elapsed() < Duration::from_secs(10) {
        thread::sleep(Duration::from_millis(20));
    }
    thread::sleep(Duration::from_millis(300));
    stdin
        .write_all(b"/list\n/resume c1\n/resume c9\n/delete c1\n/list\n/quit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        text(&output.stderr)
    );
    assert!(
        stdout.contains("Suggested questions:\n  1. What do I hold, and what is it worth?"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(cancelled: answering your next question instead)"),
        "{stdout}"
    );
    assert!(stdout.contains("Second answer."));
    assert!(
        stdout.contains("c1  Second question (1 question)"),
        "{stdout}"
    );
    let bodies = server.bodies();
    assert_eq!(
        bodies[0]["messages"][1]["content"],
        "What do I hold, and what is it worth?"
    );
    // The cancelled turn left nothing behind: the second request carries only its question.
    let second = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(second.len(), 2);
    assert_eq!(second[1]["content"], "Second question");
}
