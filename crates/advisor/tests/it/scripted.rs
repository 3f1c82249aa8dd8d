//! A scripted model server on 127.0.0.1 for tests: it answers each request with the next
//! scripted reply (status, content type, body pieces, optional stall) and records every
//! request body. No network beyond the loopback interface.
//!
//! The streamed shapes follow the public wire formats: OpenAI `chat.completion.chunk` objects
//! with `choices[0].delta.content` and `choices[0].delta.tool_calls[]` (`index`, `id`,
//! `function.name`, `function.arguments` in fragments) and a final `data: [DONE]`
//! (docs.rs/openai-interface 0.11.0 `src/chat/create/response.rs`; daslang.io dasOPENAI
//! tutorial 07 "Streaming Chat"); Anthropic `message_start`, `content_block_start` (`text` or
//! `tool_use`), `content_block_delta` (`text_delta` / `input_json_delta` with `partial_json`),
//! `content_block_stop`, `message_delta`, `message_stop` (hexdocs.pm anthropic_gleam
//! `anthropic/streaming`; unpkg @anthropic-ai/sdk 0.33.1 `resources/messages/messages.d.ts`).
#![allow(dead_code, reason = "each test binary uses a part of the helpers")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// One scripted reply.
#[derive(Clone, Debug)]
pub(crate) struct Scripted {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) pieces: Vec<String>,
    /// Keep the connection open this long after the pieces (a stall).
    pub(crate) stall: Option<Duration>,
}

impl Scripted {
    /// A `text/event-stream` reply of `data:` frames (each followed by a blank line).
    pub(crate) fn sse(frames: Vec<String>) -> Scripted {
        Scripted {
            status: 200,
            content_type: "text/event-stream",
            pieces: frames,
            stall: None,
        }
    }

    /// A whole JSON (or other) body with a status.
    pub(crate) fn body(status: u16, content_type: &'static str, body: &str) -> Scripted {
        Scripted {
            status,
            content_type,
            pieces: vec![body.to_owned()],
            stall: None,
        }
    }

    /// The same reply, then silence for `stall`.
    pub(crate) fn then_stall(mut self, stall: Duration) -> Scripted {
        self.stall = Some(stall);
        self
    }
}

/// A running scripted server.
pub(crate) struct ScriptedServer {
    pub(crate) base_url: String,
    pub(crate) requests: Arc<Mutex<Vec<Value>>>,
    pub(crate) headers: Arc<Mutex<Vec<String>>>,
}

impl ScriptedServer {
    /// Serves `replies` in order, one per connection; after the last, answers 500.
    pub(crate) fn start(replies: Vec<Scripted>) -> ScriptedServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let headers = Arc::new(Mutex::new(Vec::new()));
        let (seen, seen_headers) = (Arc::clone(&requests), Arc::clone(&headers));
        thread::spawn(move || {
            let mut replies = replies.into_iter();
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let reply = replies
                    .next()
                    .unwrap_or_else(|| Scripted::body(500, "text/plain", "script exhausted"));
                let (seen, seen_headers) = (Arc::clone(&seen), Arc::clone(&seen_headers));
                // One thread per connection: a stalled reply must not block the next one.
                thread::spawn(move || serve(stream, &reply, &seen, &seen_headers));
            }
        });
        ScriptedServer {
            base_url: format!("http://127.0.0.1:{port}/v1"),
            requests,
            headers,
        }
    }

    /// The request bodies received so far.
    pub(crate) fn bodies(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

fn serve(
    stream: TcpStream,
    reply: &Scripted,
    seen: &Mutex<Vec<Value>>,
    seen_headers: &Mutex<Vec<String>>,
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut length = 0_usize;
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if line == "\r\n" {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(value) = lower.strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
        head.push_str(&line);
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    seen.lock()
        .unwrap()
        .push(serde_json::from_slice(&body).unwrap_or(Value::Null));
    seen_headers.lock().unwrap().push(head);
    let mut stream = stream;
    let status = format!(
        "HTTP/1.1 {} Scripted\r\nContent-Type: {}\r\nConnection: close\r\n\r\n",
        reply.status, reply.content_type
    );
    if stream.write_all(status.as_bytes()).is_err() {
        return;
    }
    for piece in &reply.pieces {
        if stream.write_all(piece.as_bytes()).is_err() {
            return;
        }
        let _ = stream.flush();
    }
    if let Some(stall) = reply.stall {
        thread::sleep(stall);
    }
}

/// `data: <json>\n\n`.
pub(crate) fn frame(value: &Value) -> String {
    format!("data: {value}\n\n")
}

/// `event: <name>\ndata: <json>\n\n`.
pub(crate) fn named(name: &str, value: &Value) -> String {
    format!("event: {name}\ndata: {value}\n\n")
}

/// An OpenAI chunk with a text delta.
pub(crate) fn openai_text(text: &str) -> String {
    frame(
        &json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m",
        "choices":[{"index":0,"delta":{"content":text},"finish_reason":null}]}),
    )
}

/// OpenAI chunks calling `calls` (name, arguments), the arguments split in two fragments.
pub(crate) fn openai_tool_calls(calls: &[(&str, &str)]) -> Vec<String> {
    let mut frames = Vec::new();
    for (index, (name, arguments)) in calls.iter().enumerate() {
        let split = arguments.len() / 2;
        let (first, second) = arguments.split_at(split);
        frames.push(frame(&json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m",
            "choices":[{"index":0,"delta":{"tool_calls":[{"index":index,"id":format!("call_{index}"),"type":"function",
            "function":{"name":name,"arguments":first}}]},"finish_reason":null}]})));
        frames.push(frame(&json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m",
            "choices":[{"index":0,"delta":{"tool_calls":[{"index":index,"function":{"arguments":second}}]},"finish_reason":null}]})));
    }
    frames.push(openai_finish("tool_calls"));
    frames.push("data: [DONE]\n\n".to_owned());
    frames
}

/// The final OpenAI chunk with a finish reason.
pub(crate) fn openai_finish(reason: &str) -> String {
    frame(
        &json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m",
        "choices":[{"index":0,"delta":{},"finish_reason":reason}]}),
    )
}

/// An OpenAI answer streamed in pieces of `text`.
pub(crate) fn openai_answer(pieces: &[&str]) -> Scripted {
    let mut frames: Vec<String> = pieces.iter().map(|piece| openai_text(piece)).collect();
    frames.push(openai_finish("stop"));
    frames.push("data: [DONE]\n\n".to_owned());
    Scripted::sse(frames)
}

/// An Anthropic stream: text pieces, then tool calls (name, arguments) split in fragments.
pub(crate) fn anthropic_stream(text: &[&str], calls: &[(&str, &str)]) -> Scripted {
    let mut frames = vec![named(
        "message_start",
        &json!({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}),
    )];
    let mut index = 0;
    if !text.is_empty() {
        frames.push(named(
            "content_block_start",
            &json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
        ));
        frames.push(named("ping", &json!({"type":"ping"})));
        for piece in text {
            frames.push(named(
                "content_block_delta",
                &json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":piece}}),
            ));
        }
        frames.push(named(
            "content_block_stop",
            &json!({"type":"content_block_stop","index":0}),
        ));
        index = 1;
    }
    for (name, arguments) in calls {
        frames.push(named(
            "content_block_start",
            &json!({"type":"content_block_start","index":index,"content_block":{"type":"tool_use","id":format!("toolu_{index}"),"name":name,"input":{}}}),
        ));
        let split = arguments.len() / 2;
        for fragment in [&arguments[..split], &arguments[split..]] {
            frames.push(named(
                "content_block_delta",
                &json!({"type":"content_block_delta","index":index,"delta":{"type":"input_json_delta","partial_json":fragment}}),
            ));
        }
        frames.push(named(
            "content_block_stop",
            &json!({"type":"content_block_stop","index":index}),
        ));
        index += 1;
    }
    let stop = if calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    frames.push(named(
        "message_delta",
        &json!({"type":"message_delta","delta":{"stop_reason":stop,"stop_sequence":null},"usage":{"output_tokens":5}}),
    ));
    frames.push(named("message_stop", &json!({"type":"message_stop"})));
    Scripted::sse(frames)
}

/// A base URL on which nothing listens (a port bound and released).
pub(crate) fn dead_endpoint() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}/v1")
}
