use super::*;
use crate::agent::Observer;

#[derive(Default)]
struct Texts(String);

impl Observer for Texts {
    fn text(&mut self, delta: &str) {
        self.0.push_str(delta);
    }
}

#[test]
fn request_urls_complete_the_base() {
    assert_eq!(
        Api::OpenAi.request_url("http://localhost:11434/v1/"),
        "http://localhost:11434/v1/chat/completions"
    );
    assert_eq!(
        Api::OpenAi.request_url("http://h/v1/chat/completions"),
        "http://h/v1/chat/completions"
    );
    assert_eq!(
        Api::Anthropic.request_url("https://api.anthropic.com"),
        "https://api.anthropic.com/v1/messages"
    );
    assert_eq!(
        Api::Anthropic.request_url("https://api.anthropic.com/v1"),
        "https://api.anthropic.com/v1/messages"
    );
    assert_eq!(Api::from_url("https://api.anthropic.com"), Api::Anthropic);
    assert_eq!(Api::from_url("https://api.openai.com/v1"), Api::OpenAi);
    assert_eq!(Api::from_url("http://[::1]:8080/v1"), Api::OpenAi);
}

#[test]
fn openai_tool_call_fragments_assemble_by_index() {
    let mut reply = Reply::default();
    let mut texts = Texts::default();
    let chunks = [
        r#"{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Let"}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"content":" me see"}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"holding_detail","arguments":""}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"sym"}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"kpis","arguments":"{}"}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"bol\":\"btc\"}"}}]}}]}"#,
        r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        "[DONE]",
    ];
    for chunk in chunks {
        reply.apply_event(Api::OpenAi, chunk, &mut texts).unwrap();
    }
    assert!(reply.finished);
    assert_eq!(texts.0, "Let me see");
    assert_eq!(
        reply.tool_calls(),
        vec![
            ToolCall {
                id: "call_a".to_owned(),
                name: "holding_detail".to_owned(),
                arguments: r#"{"symbol":"btc"}"#.to_owned()
            },
            ToolCall {
                id: "call_b".to_owned(),
                name: "kpis".to_owned(),
                arguments: "{}".to_owned()
            }
        ]
    );
}

#[test]
fn anthropic_blocks_assemble_and_errors_surface() {
    let mut reply = Reply::default();
    let mut texts = Texts::default();
    let events = [
        r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"spanish_tax_report","input":{}}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"year\":"}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" 2024}"}}"#,
        r#"{"type":"content_block_stop","index":1}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"}}"#,
        r#"{"type":"message_stop"}"#,
    ];
    for event in events {
        reply
            .apply_event(Api::Anthropic, event, &mut texts)
            .unwrap();
    }
    assert_eq!(texts.0, "Checking");
    assert_eq!(reply.tool_calls()[0].arguments, r#"{"year": 2024}"#);
    assert_eq!(reply.tool_calls()[0].id, "toolu_1");
    assert!(matches!(
        reply.apply_event(
            Api::Anthropic,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            &mut texts
        ),
        Err(FrameProblem::ServerError(message)) if message == "Overloaded"
    ));
    assert!(matches!(
        reply.apply_event(Api::Anthropic, "{not json", &mut texts),
        Err(FrameProblem::Malformed(_))
    ));
}

#[test]
fn anthropic_history_groups_results_and_objects_inputs() {
    let history = vec![
        Message::User {
            text: "q".to_owned(),
        },
        Message::Assistant {
            text: String::new(),
            tool_calls: vec![
                ToolCall {
                    id: "a".to_owned(),
                    name: "kpis".to_owned(),
                    arguments: "{}".to_owned(),
                },
                ToolCall {
                    id: "b".to_owned(),
                    name: "kpis".to_owned(),
                    arguments: "not json".to_owned(),
                },
            ],
        },
        Message::ToolResult {
            call_id: "a".to_owned(),
            name: "kpis".to_owned(),
            content: "{}".to_owned(),
            is_error: false,
        },
        Message::ToolResult {
            call_id: "b".to_owned(),
            name: "kpis".to_owned(),
            content: "{}".to_owned(),
            is_error: true,
        },
    ];
    let body = Api::Anthropic.request_body("m", "sys", &[], &history);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[1]["content"][1]["input"], serde_json::json!({}));
    assert_eq!(messages[2]["content"].as_array().unwrap().len(), 2);
    assert_eq!(body["system"], "sys");
    assert_eq!(body["stream"], true);
}

#[test]
fn server_messages_are_read_from_the_usual_shapes() {
    assert_eq!(
        server_message(r#"{"error":{"message":"model \"x\" not found, try pulling it first"}}"#),
        "model \"x\" not found, try pulling it first"
    );
    assert_eq!(server_message(r#"{"error":"bad"}"#), "bad");
    assert_eq!(server_message(r#"{"detail":"nope"}"#), "nope");
    assert_eq!(server_message("<html>\n<body>"), "<html>");
    assert_eq!(server_message(""), "the server gave no message");
}
