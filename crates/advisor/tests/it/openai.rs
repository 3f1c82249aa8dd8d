//! The OpenAI-compatible streaming shape.

use std::time::Instant;

use advisor::{Api, Message};
use serde_json::json;

use crate::fake::{agent, ask, tools};
use crate::scripted::{Scripted, ScriptedServer, openai_answer, openai_tool_calls};

#[test]
fn a_tool_round_then_an_answer() {
    let server = ScriptedServer::start(vec![
        Scripted::sse(openai_tool_calls(&[(
            "holding_detail",
            r#"{"symbol":"btc"}"#,
        )])),
        openai_answer(&["Your BTC is worth `64250.50`", " EUR."]),
    ]);
    let tools = tools();
    let agent = agent(Api::OpenAi, &server.base_url, tools.clone());
    let (turn, seen) = ask(&agent, "How much is my bitcoin worth?");
    let turn = turn.unwrap();
    assert_eq!(turn.answer, "Your BTC is worth `64250.50` EUR.");
    assert_eq!(seen.text, turn.answer);
    assert_eq!(seen.tools, vec!["holding_detail"]);
    assert!(turn.unverified_figures.is_empty());
    assert_eq!(turn.tool_calls.len(), 1);
    assert_eq!(turn.tool_calls[0].arguments, json!({"symbol":"btc"}));
    assert_eq!(turn.tool_calls[0].outcome, "ok");
    assert_eq!(
        tools.calls.lock().unwrap().clone(),
        vec![("holding_detail".to_owned(), json!({"symbol":"btc"}))]
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    let first = &bodies[0];
    assert_eq!(first["model"], "test-model");
    assert_eq!(first["stream"], true);
    assert_eq!(first["messages"][0]["role"], "system");
    assert_eq!(
        first["messages"][1]["content"],
        "How much is my bitcoin worth?"
    );
    let names: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["portfolio_summary", "holding_detail", "kpis"]);
    let second = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(
        second[2]["tool_calls"][0]["function"]["arguments"],
        r#"{"symbol":"btc"}"#
    );
    assert_eq!(second[3]["role"], "tool");
    assert_eq!(second[3]["tool_call_id"], "call_0");
    assert!(second[3]["content"].as_str().unwrap().contains("64250.50"));
    // The key travels only in its header, never in a body.
    assert!(server.headers.lock().unwrap()[0].contains("Bearer sk-test-secret"));
    assert!(!bodies[0].to_string().contains("sk-test-secret"));
    // The turn's messages: question, tool call, result, answer.
    assert_eq!(turn.messages.len(), 4);
    assert!(matches!(&turn.messages[0], Message::User { text } if text.starts_with("How much")));
}

#[test]
fn two_tools_in_one_turn_and_an_invented_figure() {
    let server = ScriptedServer::start(vec![
        Scripted::sse(openai_tool_calls(&[
            ("portfolio_summary", "{}"),
            ("kpis", "{}"),
        ])),
        openai_answer(&["Equity `112750.00` EUR, ROI `12.63` %, so a gain of 12750.00 EUR."]),
    ]);
    let tools = tools();
    let agent = agent(Api::OpenAi, &server.base_url, tools.clone());
    let turn = ask(&agent, "How am I doing?").0.unwrap();
    assert_eq!(turn.tool_calls.len(), 2);
    assert_eq!(tools.calls.lock().unwrap().len(), 2);
    assert_eq!(turn.unverified_figures, vec!["12750.00"]);
    let second = &server.bodies()[1]["messages"];
    assert_eq!(second[3]["tool_call_id"], "call_0");
    assert_eq!(second[4]["tool_call_id"], "call_1");
}

#[test]
fn a_tool_error_and_arguments_that_are_not_json_are_fed_back() {
    let server = ScriptedServer::start(vec![
        Scripted::sse(openai_tool_calls(&[
            ("risk_metrics", "{}"),
            ("holding_detail", "{symbol: btc"),
        ])),
        openai_answer(&["I could not read that."]),
    ]);
    let tools = tools();
    let agent = agent(Api::OpenAi, &server.base_url, tools.clone());
    let turn = ask(&agent, "Risk?").0.unwrap();
    assert_eq!(turn.tool_calls[0].outcome, "error");
    assert_eq!(turn.tool_calls[0].error_code, Some("UNKNOWN_TOOL"));
    assert_eq!(turn.tool_calls[1].error_code, Some("INVALID_TOOL_INPUT"));
    assert_eq!(turn.tool_calls[1].arguments, json!("{symbol: btc"));
    // Only the well-formed call reached the tool box (and it was refused there).
    assert_eq!(tools.calls.lock().unwrap().len(), 1);
    let fed_back = &server.bodies()[1]["messages"];
    let unknown: serde_json::Value =
        serde_json::from_str(fed_back[3]["content"].as_str().unwrap()).unwrap();
    assert_eq!(unknown["code"], "UNKNOWN_TOOL");
    let invalid: serde_json::Value =
        serde_json::from_str(fed_back[4]["content"].as_str().unwrap()).unwrap();
    assert_eq!(invalid["code"], "INVALID_TOOL_INPUT");
    assert_eq!(invalid["reason"], "not_an_object");
    assert!(
        invalid["message"]
            .as_str()
            .unwrap()
            .starts_with("the arguments are not JSON")
    );
}

#[test]
fn malformed_frames_are_skipped_and_later_frames_read() {
    let mut frames = vec![
        crate::scripted::openai_text("Equity "),
        "data: {\"choices\":[{\"delta\":{\"content\":\"broken\"\n\n".to_owned(),
        "data: {\"unexpected\":true}\n\n".to_owned(),
    ];
    frames.push(crate::scripted::openai_text("`112750.00` EUR."));
    frames.push("data: [DONE]\n\n".to_owned());
    let server = ScriptedServer::start(vec![
        Scripted::sse(openai_tool_calls(&[("portfolio_summary", "{}")])),
        Scripted::sse(frames),
    ]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let (turn, seen) = ask(&agent, "Equity?");
    assert_eq!(turn.unwrap().answer, "Equity `112750.00` EUR.");
    assert_eq!(seen.warnings.len(), 2, "{:?}", seen.warnings);
    assert!(seen.warnings[0].starts_with("skipped a malformed frame"));
}

#[test]
fn a_server_that_does_not_stream_is_read_whole() {
    let whole = json!({"id":"chatcmpl-9","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"kpis","arguments":"{}"}}]},"finish_reason":"tool_calls"}]});
    let answer = json!({"id":"chatcmpl-9","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"ROI `12.63` %."},"finish_reason":"stop"}]});
    let server = ScriptedServer::start(vec![
        Scripted::body(200, "application/json", &whole.to_string()),
        Scripted::body(200, "application/json", &answer.to_string()),
    ]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let turn = ask(&agent, "ROI?").0.unwrap();
    assert_eq!(turn.answer, "ROI `12.63` %.");
    assert_eq!(turn.tool_calls[0].name, "kpis");
}

#[test]
fn history_is_sent_with_every_request() {
    let server = ScriptedServer::start(vec![openai_answer(&["Again."])]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let history = vec![
        Message::User {
            text: "first question".to_owned(),
        },
        Message::Assistant {
            text: "first answer".to_owned(),
            tool_calls: Vec::new(),
        },
    ];
    let mut seen = crate::fake::Seen::default();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let turn = agent.ask(&history, "second", &mut seen, &cancel).unwrap();
    let messages = server.bodies()[0]["messages"].clone();
    assert_eq!(messages[1]["content"], "first question");
    assert_eq!(messages[2]["content"], "first answer");
    assert_eq!(messages[3]["content"], "second");
    assert_eq!(turn.messages.len(), 2);
}

/// The loop's own cost per tool round against the scripted server: wall time minus the time
/// inside tool calls and the time from sending each request to the end of its answer (the
/// model's time), divided by the rounds. The figure with the loopback HTTP exchange counted
/// in is printed too.
#[test]
fn the_loop_adds_little_per_tool_round() {
    const ROUNDS: u32 = 8;
    let mut replies: Vec<Scripted> = (0..ROUNDS)
        .map(|_| Scripted::sse(openai_tool_calls(&[("portfolio_summary", "{}")])))
        .collect();
    replies.push(openai_answer(&["Equity `112750.00` EUR."]));
    let server = ScriptedServer::start(replies);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    // Warm up the connection path once.
    let warm = ScriptedServer::start(vec![openai_answer(&["ok"])]);
    let _ = ask(
        &crate::fake::agent(Api::OpenAi, &warm.base_url, tools()),
        "warm",
    );
    let started = Instant::now();
    let turn = ask(&agent, "Equity?").0.unwrap();
    let wall = started.elapsed();
    let requests = turn.model_requests;
    let loop_only = wall
        .saturating_sub(turn.tool_time)
        .saturating_sub(turn.model_time)
        / requests;
    let with_http = wall.saturating_sub(turn.tool_time) / requests;
    eprintln!(
        "per model round over {requests} requests: loop {loop_only:?}; loop and loopback HTTP exchange {with_http:?}"
    );
    assert_eq!(requests, ROUNDS + 1);
    assert!(loop_only.as_micros() < 5000, "{loop_only:?} per round");
}
