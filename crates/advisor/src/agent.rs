//! The loop: question → model → tool calls → results → model … → answer, then the audit.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ai_tools::{ErrorCode, InputReason, ToolError, ToolOutcome};
use serde_json::Value;

use crate::audit;
use crate::backend::{Api, FrameProblem, Reply};
use crate::error::AdvisorError;
use crate::http::Transport;
use crate::message::{Message, ToolCall};
use crate::sse;
use crate::tools::ToolBox;

/// The most bytes of a whole-JSON answer (a server that does not stream).
const MAX_DOCUMENT_BYTES: usize = 8 << 20;

/// How one agent reaches its model.
#[derive(Clone)]
pub struct AgentConfig {
    /// The wire protocol.
    pub api: Api,
    /// The base URL (`http://localhost:11434/v1`, `https://api.anthropic.com`).
    pub endpoint: String,
    /// The model name.
    pub model: String,
    /// The API key, if any. Never printed: `Debug` hides it.
    pub api_key: Option<String>,
    /// Rounds of tool calls allowed in one turn before the loop gives up.
    pub max_tool_rounds: u32,
    /// How long connecting may take.
    pub connect_timeout: Duration,
    /// How long the server may stay silent (before the headers, or between two reads).
    pub read_timeout: Duration,
    /// The waits before each retry of a network error or a 5xx answer.
    pub retry_delays: Vec<Duration>,
}

impl std::fmt::Debug for AgentConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentConfig")
            .field("api", &self.api)
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<hidden>"))
            .field("max_tool_rounds", &self.max_tool_rounds)
            .field("read_timeout", &self.read_timeout)
            .field("retry_delays", &self.retry_delays)
            .finish_non_exhaustive()
    }
}

impl AgentConfig {
    /// The defaults: 8 tool rounds, 10 s to connect, 120 s of silence, retries after 1 s and
    /// 2 s, no key.
    pub fn new(api: Api, endpoint: impl Into<String>, model: impl Into<String>) -> AgentConfig {
        AgentConfig {
            api,
            endpoint: endpoint.into(),
            model: model.into(),
            api_key: None,
            max_tool_rounds: 8,
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(120),
            retry_delays: vec![Duration::from_secs(1), Duration::from_secs(2)],
        }
    }
}

/// What the caller hears while a turn runs. Every method has a silent default.
pub trait Observer {
    /// A piece of the model's text, as it arrives.
    fn text(&mut self, _delta: &str) {}
    /// A request to the model is about to be sent.
    fn waiting(&mut self) {}
    /// A tool call starts.
    fn tool_started(&mut self, _name: &str) {}
    /// A tool call ended with `ok`, `truncated` or `error`.
    fn tool_finished(&mut self, _name: &str, _kind: &str) {}
    /// Something was skipped (a malformed frame of the stream).
    fn warning(&mut self, _message: &str) {}
    /// A request failed and is retried after `delay`.
    fn retrying(&mut self, _reason: &str, _delay: Duration) {}
}

/// One tool call of a turn, as `--json` reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCallRecord {
    /// The tool name as the model wrote it.
    pub name: String,
    /// The arguments: the parsed JSON, or the text the model sent when it is not JSON.
    pub arguments: Value,
    /// `ok`, `truncated` or `error`.
    pub outcome: &'static str,
    /// The error code when the outcome is `error`.
    pub error_code: Option<&'static str>,
}

/// A finished turn.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The final answer.
    pub answer: String,
    /// Every tool call, in order.
    pub tool_calls: Vec<ToolCallRecord>,
    /// The answer's figures found in no tool result of this turn (nor in the question).
    pub unverified_figures: Vec<String>,
    /// The messages this turn adds to the conversation: the question, the model's replies and
    /// the tool results, ending with the answer.
    pub messages: Vec<Message>,
    /// Requests sent to the model.
    pub model_requests: u32,
    /// Time spent inside tool calls.
    pub tool_time: Duration,
    /// Time spent waiting for the model: from sending a request to the end of its answer.
    pub model_time: Duration,
}

/// The agent: a model endpoint and a tool box.
pub struct Agent {
    config: AgentConfig,
    tools: Arc<dyn ToolBox>,
    transport: Transport,
    url: String,
    definitions: Vec<Value>,
    instructions: String,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("config", &self.config)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

impl Agent {
    /// An agent over `tools`; the tool definitions and instructions are rendered once.
    pub fn new(config: AgentConfig, tools: Arc<dyn ToolBox>) -> Agent {
        let url = config.api.request_url(&config.endpoint);
        let transport = Transport::new(
            config.connect_timeout,
            config.read_timeout,
            config.retry_delays.clone(),
            crate::is_private_endpoint(&config.endpoint),
        );
        let definitions = serde_json::from_str::<Value>(tools.definitions_json())
            .ok()
            .and_then(|list| list.get("tools").and_then(Value::as_array).cloned())
            .unwrap_or_default();
        let instructions = tools.instructions();
        Agent {
            config,
            tools,
            transport,
            url,
            definitions,
            instructions,
        }
    }

    /// The URL requests go to.
    pub fn request_url(&self) -> &str {
        &self.url
    }

    /// Runs one turn: `question` after `history`. The history is not changed; on success the
    /// caller appends [`Turn::messages`], so a cancelled or failed turn leaves no trace.
    pub fn ask(
        &self,
        history: &[Message],
        question: &str,
        observer: &mut dyn Observer,
        cancel: &AtomicBool,
    ) -> Result<Turn, AdvisorError> {
        let mut messages = history.to_vec();
        messages.push(Message::User {
            text: question.to_owned(),
        });
        let mut run = self.tools.new_run_budget();
        let mut records = Vec::new();
        let mut results = Vec::new();
        let mut tool_time = Duration::ZERO;
        let mut model_time = Duration::ZERO;
        let mut model_requests = 0_u32;
        let mut rounds = 0_u32;
        loop {
            observer.waiting();
            model_requests = model_requests.saturating_add(1);
            let reply = self.complete(&messages, observer, cancel, &mut model_time)?;
            let calls = reply.tool_calls();
            if calls.is_empty() {
                let answer = reply.text;
                messages.push(Message::Assistant {
                    text: answer.clone(),
                    tool_calls: Vec::new(),
                });
                let unverified_figures = audit::unverified_figures(&answer, &results, question);
                return Ok(Turn {
                    answer,
                    tool_calls: records,
                    unverified_figures,
                    messages: messages.split_off(history.len()),
                    model_requests,
                    tool_time,
                    model_time,
                });
            }
            if rounds >= self.config.max_tool_rounds {
                return Err(AdvisorError::TooManyRounds { rounds });
            }
            rounds = rounds.saturating_add(1);
            messages.push(Message::Assistant {
                text: reply.text,
                tool_calls: calls.clone(),
            });
            for call in calls {
                observer.tool_started(&call.name);
                let started = Instant::now();
                let (arguments, outcome) = self.run_tool(&call, &mut run);
                tool_time = tool_time.saturating_add(started.elapsed());
                let kind = outcome.kind();
                observer.tool_finished(&call.name, kind);
                let content = outcome.to_json().to_string();
                records.push(ToolCallRecord {
                    name: call.name.clone(),
                    arguments,
                    outcome: kind,
                    error_code: match &outcome {
                        ToolOutcome::Error(error) => Some(error.code.as_str()),
                        _ => None,
                    },
                });
                messages.push(Message::ToolResult {
                    call_id: call.id,
                    name: call.name,
                    is_error: kind == "error",
                    content: content.clone(),
                });
                results.push(content);
            }
        }
    }

    /// One tool call; arguments that are not JSON are a typed input error fed back.
    fn run_tool(&self, call: &ToolCall, run: &mut ai_tools::RunBudget) -> (Value, ToolOutcome) {
        match serde_json::from_str::<Value>(&call.arguments) {
            Ok(arguments) => {
                let outcome = self.tools.call(run, &call.name, &arguments);
                (arguments, outcome)
            }
            Err(error) => {
                let excerpt: String = call.arguments.chars().take(40).collect();
                let outcome = ToolOutcome::Error(ToolError {
                    code: ErrorCode::InvalidToolInput,
                    tool: call.name.chars().take(64).collect(),
                    path: Some(String::new()),
                    reason: Some(InputReason::NotAnObject),
                    message: format!(
                        "the arguments are not JSON ({error}), got {excerpt:?}; send one JSON object."
                    ),
                });
                (Value::String(call.arguments.clone()), outcome)
            }
        }
    }

    /// One request to the model and its reply, streamed or whole.
    fn complete(
        &self,
        messages: &[Message],
        observer: &mut dyn Observer,
        cancel: &AtomicBool,
        model_time: &mut Duration,
    ) -> Result<Reply, AdvisorError> {
        let api = self.config.api;
        let body = api
            .request_body(
                &self.config.model,
                &self.instructions,
                &self.definitions,
                messages,
            )
            .to_string();
        let headers = api.headers(self.config.api_key.as_deref());
        let started = Instant::now();
        let reply = self.exchange(&body, &headers, observer, cancel);
        *model_time = model_time.saturating_add(started.elapsed());
        reply
    }

    /// Sends one request and reads its answer.
    fn exchange(
        &self,
        body: &str,
        headers: &[(&'static str, String)],
        observer: &mut dyn Observer,
        cancel: &AtomicBool,
    ) -> Result<Reply, AdvisorError> {
        let api = self.config.api;
        let stream = self
            .transport
            .post(&self.url, headers, body, cancel, observer)?;
        let mut reply = Reply::default();
        let mut decoder = sse::Decoder::default();
        let mut event_stream: Option<bool> = None;
        let mut document = String::new();
        while let Some(line) = stream.next_line(cancel)? {
            let is_sse = match event_stream {
                Some(is_sse) => is_sse,
                None if line.trim().is_empty() => continue,
                None => *event_stream.insert(sse::looks_like_sse(&line)),
            };
            if is_sse {
                if let Some(event) = decoder.line(&line) {
                    self.apply(&mut reply, &event.data, observer)?;
                    if reply.finished {
                        break;
                    }
                }
            } else {
                document.push_str(&line);
                if document.len() > MAX_DOCUMENT_BYTES {
                    return Err(self.not_compatible("the answer is larger than 8 MiB".to_owned()));
                }
            }
        }
        match event_stream {
            Some(true) => {
                if !reply.finished {
                    if let Some(event) = decoder.finish() {
                        self.apply(&mut reply, &event.data, observer)?;
                    }
                }
                if !reply.any_frame {
                    return Err(self
                        .not_compatible("no event of the answer stream could be read".to_owned()));
                }
            }
            Some(false) => {
                let value = serde_json::from_str::<Value>(&document).map_err(|_| {
                    let excerpt: String = document
                        .trim()
                        .chars()
                        .take(80)
                        .map(|c| if c.is_control() { ' ' } else { c })
                        .collect();
                    self.not_compatible(format!("the answer is not JSON: {excerpt:?}"))
                })?;
                match reply.apply_document(api, &value, observer) {
                    Ok(()) => {}
                    Err(FrameProblem::Malformed(detail)) => {
                        return Err(self.not_compatible(detail));
                    }
                    Err(FrameProblem::ServerError(message)) => {
                        return Err(AdvisorError::StreamError { message });
                    }
                }
            }
            None => return Err(self.not_compatible("the answer is empty".to_owned())),
        }
        Ok(reply)
    }

    fn apply(
        &self,
        reply: &mut Reply,
        data: &str,
        observer: &mut dyn Observer,
    ) -> Result<(), AdvisorError> {
        match reply.apply_event(self.config.api, data, observer) {
            Ok(()) => Ok(()),
            Err(FrameProblem::Malformed(detail)) => {
                observer.warning(&format!(
                    "skipped a malformed frame of the answer stream: {detail}"
                ));
                Ok(())
            }
            Err(FrameProblem::ServerError(message)) => Err(AdvisorError::StreamError { message }),
        }
    }

    fn not_compatible(&self, detail: String) -> AdvisorError {
        AdvisorError::NotCompatible {
            url: self.url.clone(),
            api: self.config.api.description(),
            detail,
        }
    }
}
