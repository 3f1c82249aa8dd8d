//! The two wire protocols: request bodies, streamed answers and whole-JSON answers.
//!
//! OpenAI-compatible chat completions (`POST {base}/chat/completions`): the answer streams as
//! `chat.completion.chunk` objects in `data:` lines, text in `choices[0].delta.content`, tool
//! calls in `choices[0].delta.tool_calls[]` keyed by `index`, whose `function.arguments` arrive
//! in fragments, and the stream ends with `data: [DONE]`.
//! Anthropic Messages (`POST {base}/v1/messages`): named events `message_start`,
//! `content_block_start` (a `text` or `tool_use` block with its `id` and `name`),
//! `content_block_delta` (`text_delta` text or `input_json_delta` `partial_json` fragments),
//! `content_block_stop`, `message_delta`, `message_stop`, plus `ping` and `error`.

use serde_json::{Map, Value, json};

use crate::agent::Observer;
use crate::message::{Message, ToolCall};

/// The wire protocol of a model server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Api {
    /// OpenAI-compatible chat completions: Ollama, llama.cpp's server, vLLM, LM Studio, OpenAI.
    OpenAi,
    /// The Anthropic Messages API.
    Anthropic,
}

/// The `anthropic-version` header the requests carry.
const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The answer length asked of the Anthropic API, which requires one.
const ANTHROPIC_MAX_TOKENS: u32 = 4096;

impl Api {
    /// `openai` or `anthropic`.
    pub fn parse(text: &str) -> Option<Api> {
        match text.to_ascii_lowercase().as_str() {
            "openai" => Some(Api::OpenAi),
            "anthropic" => Some(Api::Anthropic),
            _ => None,
        }
    }

    /// The API a base URL most likely speaks: Anthropic for `anthropic.com` hosts, OpenAI
    /// otherwise.
    pub fn from_url(url: &str) -> Api {
        if host_of(url).ends_with("anthropic.com") {
            Api::Anthropic
        } else {
            Api::OpenAi
        }
    }

    /// `openai` or `anthropic`.
    pub const fn label(self) -> &'static str {
        match self {
            Api::OpenAi => "openai",
            Api::Anthropic => "anthropic",
        }
    }

    /// The API's name in messages.
    pub(crate) const fn description(self) -> &'static str {
        match self {
            Api::OpenAi => "OpenAI-compatible chat completions",
            Api::Anthropic => "Anthropic Messages",
        }
    }

    /// The URL requests go to: `{base}/chat/completions` or `{base}/v1/messages` (a base that
    /// already ends with the path, or with `/v1` for Anthropic, is completed, not doubled).
    pub fn request_url(self, base: &str) -> String {
        let base = base.trim_end_matches('/');
        match self {
            Api::OpenAi if base.ends_with("/chat/completions") => base.to_owned(),
            Api::OpenAi => format!("{base}/chat/completions"),
            Api::Anthropic if base.ends_with("/v1/messages") => base.to_owned(),
            Api::Anthropic if base.ends_with("/v1") => format!("{base}/messages"),
            Api::Anthropic => format!("{base}/v1/messages"),
        }
    }

    /// The headers of a request (the key, when there is one, in the API's header).
    pub(crate) fn headers(self, api_key: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = vec![
            ("content-type", "application/json".to_owned()),
            ("accept", "text/event-stream, application/json".to_owned()),
        ];
        match self {
            Api::OpenAi => {
                if let Some(key) = api_key {
                    headers.push(("authorization", format!("Bearer {key}")));
                }
            }
            Api::Anthropic => {
                headers.push(("anthropic-version", ANTHROPIC_VERSION.to_owned()));
                if let Some(key) = api_key {
                    headers.push(("x-api-key", key.to_owned()));
                }
            }
        }
        headers
    }

    /// The request body: the model, the instructions, the history and the tools, streaming.
    pub(crate) fn request_body(
        self,
        model: &str,
        instructions: &str,
        tools: &[Value],
        history: &[Message],
    ) -> Value {
        match self {
            Api::OpenAi => {
                let mut messages = vec![json!({"role":"system","content":instructions})];
                messages.extend(history.iter().map(openai_message));
                let tools: Vec<Value> = tools
                    .iter()
                    .map(|tool| {
                        json!({"type":"function","function":{
                            "name": tool.get("name").cloned().unwrap_or(Value::Null),
                            "description": tool.get("description").cloned().unwrap_or(Value::Null),
                            "parameters": tool.get("inputSchema").cloned().unwrap_or_else(|| json!({"type":"object"})),
                        }})
                    })
                    .collect();
                json!({"model":model,"messages":messages,"tools":tools,"stream":true})
            }
            Api::Anthropic => {
                let tools: Vec<Value> = tools
                    .iter()
                    .map(|tool| {
                        json!({
                            "name": tool.get("name").cloned().unwrap_or(Value::Null),
                            "description": tool.get("description").cloned().unwrap_or(Value::Null),
                            "input_schema": tool.get("inputSchema").cloned().unwrap_or_else(|| json!({"type":"object"})),
                        })
                    })
                    .collect();
                json!({
                    "model": model,
                    "max_tokens": ANTHROPIC_MAX_TOKENS,
                    "system": instructions,
                    "messages": anthropic_messages(history),
                    "tools": tools,
                    "stream": true,
                })
            }
        }
    }
}

fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = if host_port.starts_with('[') {
        host_port
            .split_once(']')
            .map_or(host_port, |(host, _)| host)
            .trim_start_matches('[')
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    host.to_ascii_lowercase()
}

/// The host part of a URL, lower-cased, without brackets or port.
pub(crate) fn url_host(url: &str) -> String {
    host_of(url)
}

fn openai_message(message: &Message) -> Value {
    match message {
        Message::User { text } => json!({"role":"user","content":text}),
        Message::Assistant { text, tool_calls } if tool_calls.is_empty() => {
            json!({"role":"assistant","content":text})
        }
        Message::Assistant { text, tool_calls } => {
            let calls: Vec<Value> = tool_calls
                .iter()
                .map(|call| {
                    json!({"id":call.id,"type":"function","function":{"name":call.name,"arguments":call.arguments}})
                })
                .collect();
            json!({"role":"assistant","content":text,"tool_calls":calls})
        }
        Message::ToolResult {
            call_id, content, ..
        } => json!({"role":"tool","tool_call_id":call_id,"content":content}),
    }
}

/// Anthropic wants the results of one round in one user message, and tool inputs as objects.
fn anthropic_messages(history: &[Message]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(history.len());
    let mut results: Vec<Value> = Vec::new();
    for message in history {
        if let Message::ToolResult {
            call_id,
            content,
            is_error,
            ..
        } = message
        {
            results.push(json!({"type":"tool_result","tool_use_id":call_id,"content":content,"is_error":is_error}));
            continue;
        }
        if !results.is_empty() {
            out.push(json!({"role":"user","content":std::mem::take(&mut results)}));
        }
        match message {
            Message::User { text } => out.push(json!({"role":"user","content":text})),
            Message::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if !text.is_empty() {
                    blocks.push(json!({"type":"text","text":text}));
                }
                for call in tool_calls {
                    let input = match serde_json::from_str::<Value>(&call.arguments) {
                        Ok(Value::Object(object)) => Value::Object(object),
                        _ => Value::Object(Map::new()),
                    };
                    blocks.push(
                        json!({"type":"tool_use","id":call.id,"name":call.name,"input":input}),
                    );
                }
                if blocks.is_empty() {
                    blocks.push(json!({"type":"text","text":"…"}));
                }
                out.push(json!({"role":"assistant","content":blocks}));
            }
            Message::ToolResult { .. } => {}
        }
    }
    if !results.is_empty() {
        out.push(json!({"role":"user","content":results}));
    }
    out
}

/// A tool call being assembled from fragments.
#[derive(Debug, Default)]
struct PartialCall {
    /// The OpenAI `index` or the Anthropic block index.
    index: u64,
    id: String,
    name: String,
    arguments: String,
}

/// One model reply as it is assembled.
#[derive(Debug, Default)]
pub(crate) struct Reply {
    pub(crate) text: String,
    calls: Vec<PartialCall>,
    /// Whether the end marker (`[DONE]`, `message_stop`) was seen.
    pub(crate) finished: bool,
    /// Whether any well-formed frame was seen.
    pub(crate) any_frame: bool,
}

/// Why one frame was not used.
#[derive(Debug)]
pub(crate) enum FrameProblem {
    /// Not JSON, or not the API's shape: skipped with a warning.
    Malformed(String),
    /// The server reported an error inside the stream.
    ServerError(String),
}

impl Reply {
    /// The finished tool calls, in the order the model gave them; a call without an id gets
    /// one, and empty arguments read as `{}`.
    pub(crate) fn tool_calls(&self) -> Vec<ToolCall> {
        self.calls
            .iter()
            .enumerate()
            .map(|(position, call)| ToolCall {
                id: if call.id.is_empty() {
                    format!("call_{position}")
                } else {
                    call.id.clone()
                },
                name: call.name.clone(),
                arguments: if call.arguments.trim().is_empty() {
                    "{}".to_owned()
                } else {
                    call.arguments.clone()
                },
            })
            .collect()
    }

    fn call_at(&mut self, index: u64) -> &mut PartialCall {
        let position =
            if let Some(position) = self.calls.iter().position(|call| call.index == index) {
                position
            } else {
                self.calls.push(PartialCall {
                    index,
                    ..PartialCall::default()
                });
                self.calls.len().saturating_sub(1)
            };
        // The position exists: it was found or just pushed.
        #[allow(clippy::indexing_slicing)]
        &mut self.calls[position]
    }

    fn push_text(&mut self, text: &str, observer: &mut dyn Observer) {
        if !text.is_empty() {
            self.text.push_str(text);
            observer.text(text);
        }
    }

    /// Applies one streamed event.
    pub(crate) fn apply_event(
        &mut self,
        api: Api,
        data: &str,
        observer: &mut dyn Observer,
    ) -> Result<(), FrameProblem> {
        if api == Api::OpenAi && data.trim() == "[DONE]" {
            self.finished = true;
            return Ok(());
        }
        let value: Value = serde_json::from_str(data)
            .map_err(|error| FrameProblem::Malformed(format!("not JSON ({error})")))?;
        let result = match api {
            Api::OpenAi => self.apply_openai_chunk(&value, observer),
            Api::Anthropic => self.apply_anthropic_event(&value, observer),
        };
        if result.is_ok() {
            self.any_frame = true;
        }
        result
    }

    fn apply_openai_chunk(
        &mut self,
        chunk: &Value,
        observer: &mut dyn Observer,
    ) -> Result<(), FrameProblem> {
        if let Some(error) = chunk.get("error") {
            return Err(FrameProblem::ServerError(error_text(error)));
        }
        let Some(choices) = chunk.get("choices").and_then(Value::as_array) else {
            return Err(FrameProblem::Malformed(
                "a chunk without a choices list".to_owned(),
            ));
        };
        let Some(choice) = choices.first() else {
            return Ok(());
        };
        let Some(delta) = choice.get("delta").filter(|delta| delta.is_object()) else {
            return Err(FrameProblem::Malformed(
                "a choice without a delta object".to_owned(),
            ));
        };
        if let Some(text) = delta.get("content").and_then(Value::as_str) {
            self.push_text(text, observer);
        }
        if let Some(calls) = delta.get("tool_calls").and_then(Value::as_array) {
            for (position, fragment) in calls.iter().enumerate() {
                let index = fragment
                    .get("index")
                    .and_then(Value::as_u64)
                    .unwrap_or(position as u64);
                let call = self.call_at(index);
                if let Some(id) = fragment.get("id").and_then(Value::as_str) {
                    if !id.is_empty() {
                        id.clone_into(&mut call.id);
                    }
                }
                if let Some(function) = fragment.get("function") {
                    if let Some(name) = function.get("name").and_then(Value::as_str) {
                        if call.name.is_empty() {
                            name.clone_into(&mut call.name);
                        }
                    }
                    match function.get("arguments") {
                        Some(Value::String(fragment)) => call.arguments.push_str(fragment),
                        // Some servers send the arguments as an object in one piece.
                        Some(object @ Value::Object(_)) => call.arguments = object.to_string(),
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    fn apply_anthropic_event(
        &mut self,
        event: &Value,
        observer: &mut dyn Observer,
    ) -> Result<(), FrameProblem> {
        let Some(kind) = event.get("type").and_then(Value::as_str) else {
            return Err(FrameProblem::Malformed(
                "an event without a type".to_owned(),
            ));
        };
        let index = event.get("index").and_then(Value::as_u64).unwrap_or(0);
        match kind {
            "content_block_start" => {
                let Some(block) = event.get("content_block") else {
                    return Err(FrameProblem::Malformed(
                        "content_block_start without a block".to_owned(),
                    ));
                };
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(text) = block.get("text").and_then(Value::as_str) {
                            self.push_text(text, observer);
                        }
                    }
                    Some("tool_use") => {
                        let call = self.call_at(index);
                        block
                            .get("id")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .clone_into(&mut call.id);
                        block
                            .get("name")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .clone_into(&mut call.name);
                        if let Some(input) = block.get("input").and_then(Value::as_object) {
                            if !input.is_empty() {
                                call.arguments = Value::Object(input.clone()).to_string();
                            }
                        }
                    }
                    _ => {}
                }
                Ok(())
            }
            "content_block_delta" => {
                let Some(delta) = event.get("delta") else {
                    return Err(FrameProblem::Malformed(
                        "content_block_delta without a delta".to_owned(),
                    ));
                };
                match delta.get("type").and_then(Value::as_str) {
                    Some("text_delta") => {
                        let text = delta
                            .get("text")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        self.push_text(text, observer);
                    }
                    Some("input_json_delta") => {
                        let fragment = delta
                            .get("partial_json")
                            .and_then(Value::as_str)
                            .unwrap_or_default();
                        self.call_at(index).arguments.push_str(fragment);
                    }
                    _ => {}
                }
                Ok(())
            }
            "message_stop" => {
                self.finished = true;
                Ok(())
            }
            "error" => Err(FrameProblem::ServerError(error_text(
                event.get("error").unwrap_or(&Value::Null),
            ))),
            _ => Ok(()),
        }
    }

    /// Reads a whole JSON answer (a server that does not stream).
    pub(crate) fn apply_document(
        &mut self,
        api: Api,
        document: &Value,
        observer: &mut dyn Observer,
    ) -> Result<(), FrameProblem> {
        if let Some(error) = document.get("error") {
            return Err(FrameProblem::ServerError(error_text(error)));
        }
        match api {
            Api::OpenAi => {
                let Some(message) = document
                    .get("choices")
                    .and_then(Value::as_array)
                    .and_then(|choices| choices.first())
                    .and_then(|choice| choice.get("message"))
                else {
                    return Err(FrameProblem::Malformed(
                        "the reply has no choices[0].message".to_owned(),
                    ));
                };
                if let Some(text) = message.get("content").and_then(Value::as_str) {
                    self.push_text(text, observer);
                }
                for (position, call) in message
                    .get("tool_calls")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    let function = call.get("function").unwrap_or(&Value::Null);
                    let arguments = match function.get("arguments") {
                        Some(Value::String(text)) => text.clone(),
                        Some(other @ Value::Object(_)) => other.to_string(),
                        _ => String::new(),
                    };
                    self.calls.push(PartialCall {
                        index: position as u64,
                        id: text_field(call, "id"),
                        name: text_field(function, "name"),
                        arguments,
                    });
                }
            }
            Api::Anthropic => {
                let Some(blocks) = document.get("content").and_then(Value::as_array) else {
                    return Err(FrameProblem::Malformed(
                        "the reply has no content list".to_owned(),
                    ));
                };
                for (position, block) in blocks.iter().enumerate() {
                    match block.get("type").and_then(Value::as_str) {
                        Some("text") => {
                            let text = block
                                .get("text")
                                .and_then(Value::as_str)
                                .unwrap_or_default();
                            self.push_text(text, observer);
                        }
                        Some("tool_use") => self.calls.push(PartialCall {
                            index: position as u64,
                            id: text_field(block, "id"),
                            name: text_field(block, "name"),
                            arguments: block
                                .get("input")
                                .map_or_else(String::new, Value::to_string),
                        }),
                        _ => {}
                    }
                }
            }
        }
        self.any_frame = true;
        self.finished = true;
        Ok(())
    }
}

fn text_field(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// The message of an error object: `{"message":…}`, a bare string, or its JSON.
fn error_text(error: &Value) -> String {
    match error {
        Value::String(text) => text.clone(),
        Value::Object(object) => object
            .get("message")
            .and_then(Value::as_str)
            .map_or_else(|| error.to_string(), str::to_owned),
        other => other.to_string(),
    }
}

/// The server's own message in an error body: `error.message`, `error`, `message` or `detail`
/// of a JSON body, else the body's first line; cut to 300 characters.
pub(crate) fn server_message(body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|value| {
        if let Some(error) = value.get("error") {
            return Some(error_text(error));
        }
        ["message", "detail"]
            .iter()
            .find_map(|key| value.get(*key))
            .map(|field| match field {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            })
    });
    let text =
        from_json.unwrap_or_else(|| body.trim().lines().next().unwrap_or_default().to_owned());
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(300)
        .collect();
    if one_line.trim().is_empty() {
        "the server gave no message".to_owned()
    } else {
        one_line.trim().to_owned()
    }
}

#[cfg(test)]
mod tests;
