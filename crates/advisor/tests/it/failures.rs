//! Retries, refusals, stalls, cancellation and servers that are not model servers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use advisor::{AdvisorError, Api};

use crate::fake::{Seen, agent, ask, tools};
use crate::scripted::{Scripted, ScriptedServer, dead_endpoint, openai_answer, openai_text};

#[test]
fn a_500_is_retried_then_succeeds() {
    let server = ScriptedServer::start(vec![
        Scripted::body(500, "application/json", r#"{"error":{"message":"busy"}}"#),
        Scripted::body(503, "text/plain", "still busy"),
        openai_answer(&["Fine."]),
    ]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let (turn, seen) = ask(&agent, "?");
    assert_eq!(turn.unwrap().answer, "Fine.");
    assert_eq!(server.bodies().len(), 3);
    assert_eq!(seen.retries.len(), 2);
    assert!(
        seen.retries[0].contains("HTTP 500: busy"),
        "{:?}",
        seen.retries
    );
}

#[test]
fn three_500s_fail_with_the_last_message() {
    let server = ScriptedServer::start(vec![
        Scripted::body(500, "text/plain", "a"),
        Scripted::body(500, "text/plain", "b"),
        Scripted::body(502, "text/plain", "bad gateway"),
        openai_answer(&["never asked"]),
    ]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let error = ask(&agent, "?").0.unwrap_err();
    assert!(matches!(
        error,
        AdvisorError::ServerFailed { status: 502, .. }
    ));
    assert_eq!(server.bodies().len(), 3);
}

#[test]
fn a_400_is_shown_at_once_with_the_servers_message() {
    let server = ScriptedServer::start(vec![
        Scripted::body(
            404,
            "application/json",
            r#"{"error":{"message":"model \"llama9\" not found, try pulling it first","type":"api_error"}}"#,
        ),
        openai_answer(&["never asked"]),
    ]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let error = ask(&agent, "?").0.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the model server refused the request with HTTP 404: model \"llama9\" not found, try pulling it first"
    );
    assert_eq!(server.bodies().len(), 1);
}

#[test]
fn a_stalled_stream_ends_at_the_read_timeout() {
    let server = ScriptedServer::start(vec![
        Scripted::sse(vec![openai_text("Thinking")]).then_stall(Duration::from_secs(5)),
    ]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let started = Instant::now();
    let (turn, seen) = ask(&agent, "?");
    let error = turn.unwrap_err();
    assert!(matches!(error, AdvisorError::Stalled { .. }), "{error}");
    assert!(
        error
            .to_string()
            .starts_with("the model server sent nothing for 1 s")
    );
    assert_eq!(seen.text, "Thinking");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[test]
fn cancellation_ends_the_request_in_flight() {
    let server = ScriptedServer::start(vec![
        Scripted::sse(vec![openai_text("Thin")]).then_stall(Duration::from_secs(5)),
    ]);
    let mut config = advisor::AgentConfig::new(Api::OpenAi, &server.base_url, "m");
    config.read_timeout = Duration::from_secs(10);
    let agent = advisor::Agent::new(config, tools());
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    thread::spawn(move || {
        thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let mut seen = Seen::default();
    let error = agent.ask(&[], "?", &mut seen, &cancel).unwrap_err();
    assert!(matches!(error, AdvisorError::Cancelled));
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn an_unreachable_endpoint_is_retried_then_named() {
    let url = dead_endpoint();
    let agent = agent(Api::OpenAi, &url, tools());
    let (turn, seen) = ask(&agent, "?");
    let error = turn.unwrap_err();
    assert!(matches!(error, AdvisorError::Unreachable { .. }), "{error}");
    assert!(error.to_string().starts_with(&format!(
        "cannot reach the model server at {url}/chat/completions"
    )));
    assert_eq!(seen.retries.len(), 2);
}

#[test]
fn servers_that_are_not_model_servers_are_named() {
    let server = ScriptedServer::start(vec![
        Scripted::body(
            200,
            "text/html",
            "<html><body>Welcome to nginx!</body></html>",
        ),
        Scripted::body(200, "application/json", r#"{"models":[{"name":"llama3"}]}"#),
        Scripted::body(
            200,
            "text/event-stream",
            "data: {\"nope\":1}\n\ndata: [DONE]\n\n",
        ),
    ]);
    let agent = agent(Api::OpenAi, &server.base_url, tools());
    let html = ask(&agent, "?").0.unwrap_err().to_string();
    assert!(
        html.contains("does not answer like the OpenAI-compatible chat completions API: the answer is not JSON: \"<html>"),
        "{html}"
    );
    let other = ask(&agent, "?").0.unwrap_err().to_string();
    assert!(
        other.ends_with("the reply has no choices[0].message"),
        "{other}"
    );
    let (turn, seen) = ask(&agent, "?");
    assert!(
        turn.unwrap_err()
            .to_string()
            .ends_with("no event of the answer stream could be read")
    );
    assert_eq!(seen.warnings.len(), 1);
}

#[test]
fn the_round_cap_stops_a_model_that_never_answers() {
    let replies: Vec<Scripted> = (0..4)
        .map(|_| Scripted::sse(crate::scripted::openai_tool_calls(&[("kpis", "{}")])))
        .collect();
    let server = ScriptedServer::start(replies);
    let mut config = advisor::AgentConfig::new(Api::OpenAi, &server.base_url, "m");
    config.max_tool_rounds = 3;
    let agent = advisor::Agent::new(config, tools());
    let error = ask(&agent, "?").0.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the model called tools for 3 rounds without answering; ask a narrower question"
    );
}
