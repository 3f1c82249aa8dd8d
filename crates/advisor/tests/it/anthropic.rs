//! The Anthropic Messages streaming shape.

use advisor::Api;
use serde_json::json;

use crate::fake::{agent, ask, tools};
use crate::scripted::{ScriptedServer, anthropic_stream};

#[test]
fn a_tool_round_then_an_answer_with_two_tools() {
    let server = ScriptedServer::start(vec![
        anthropic_stream(
            &["Let me look."],
            &[("holding_detail", r#"{"symbol":"BTC"}"#), ("kpis", "{}")],
        ),
        anthropic_stream(&["BTC `64250.50` EUR", ", ROI `12.63` %."], &[]),
    ]);
    let tools = tools();
    let agent = agent(Api::Anthropic, &server.base_url, tools.clone());
    let (turn, seen) = ask(&agent, "BTC and ROI?");
    let turn = turn.unwrap();
    assert_eq!(turn.answer, "BTC `64250.50` EUR, ROI `12.63` %.");
    assert_eq!(seen.text, "Let me look.BTC `64250.50` EUR, ROI `12.63` %.");
    assert_eq!(seen.tools, vec!["holding_detail", "kpis"]);
    assert!(turn.unverified_figures.is_empty());
    assert_eq!(tools.calls.lock().unwrap()[0].1, json!({"symbol":"BTC"}));
    let bodies = server.bodies();
    assert_eq!(
        bodies[0]["system"],
        "You are the analyst. Never compute a figure."
    );
    assert_eq!(bodies[0]["tools"][1]["name"], "holding_detail");
    assert!(bodies[0]["tools"][1]["input_schema"].is_object());
    assert!(bodies[0]["max_tokens"].as_u64().unwrap() > 0);
    let messages = bodies[1]["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[1]["content"][0]["text"], "Let me look.");
    assert_eq!(messages[1]["content"][1]["type"], "tool_use");
    assert_eq!(messages[1]["content"][1]["input"], json!({"symbol":"BTC"}));
    assert_eq!(messages[2]["content"][0]["tool_use_id"], "toolu_1");
    assert_eq!(messages[2]["content"][1]["tool_use_id"], "toolu_2");
    assert_eq!(messages[2]["content"][1]["is_error"], false);
    let headers = server.headers.lock().unwrap()[0].to_ascii_lowercase();
    assert!(headers.contains("x-api-key: sk-test-secret"));
    assert!(headers.contains("anthropic-version: 2023-06-01"));
    assert!(headers.contains("/v1/messages"));
}

#[test]
fn a_tool_error_is_fed_back_as_an_error_result() {
    let server = ScriptedServer::start(vec![
        anthropic_stream(&[], &[("fees_paid", "{}")]),
        anthropic_stream(&["That tool does not exist; here is what I can say."], &[]),
    ]);
    let agent = agent(Api::Anthropic, &server.base_url, tools());
    let turn = ask(&agent, "Fees?").0.unwrap();
    assert_eq!(turn.tool_calls[0].error_code, Some("UNKNOWN_TOOL"));
    let result = &server.bodies()[1]["messages"][2]["content"][0];
    assert_eq!(result["is_error"], true);
    assert!(result["content"].as_str().unwrap().contains("UNKNOWN_TOOL"));
}

#[test]
fn an_error_event_in_the_stream_ends_the_turn_with_its_message() {
    let mut stream = anthropic_stream(&["partial"], &[]);
    stream.pieces.insert(
        3,
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n".to_owned(),
    );
    let server = ScriptedServer::start(vec![stream]);
    let agent = agent(Api::Anthropic, &server.base_url, tools());
    let error = ask(&agent, "?").0.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the model server reported an error while answering: Overloaded"
    );
}
