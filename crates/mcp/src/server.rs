//! The dispatcher (`mcp.md` §5) and the serving loop (`mcp.md` §3).

use std::io::{self, BufRead, Write};

use ai_tools::{CurrencyCode, Locale, RequestContext, TenantId, ToolHost};
use serde_json::{Map, Value};

use crate::catalog;
use crate::jsonrpc::{self, Incoming, Line, code};

/// The protocol versions the server speaks, newest first; any other requested version is
/// answered with the first (`mcp.md` §5.1).
pub const PROTOCOL_VERSIONS: [&str; 3] = [LATEST_PROTOCOL_VERSION, "2025-06-18", "2025-03-26"];

/// The newest protocol version, answered to any version the server does not know.
const LATEST_PROTOCOL_VERSION: &str = "2025-11-25";

/// What the server says about itself and the context every tool call runs in (`mcp.md` §1).
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// `serverInfo.name`: `"cartera"`.
    pub name: &'static str,
    /// `serverInfo.version`: the cli crate version (tests inject `"0.0.0-test"`).
    pub version: String,
    /// The ledger owner: `"ledger:"` + lower-hex SHA-256 of the canonical ledger path.
    pub tenant: TenantId,
    /// The answer language passed to the tools and named by the instructions.
    pub locale: Locale,
    /// The base currency passed to the tools and named by the instructions.
    pub base_currency: CurrencyCode,
}

/// One tool host with its request context and the pre-rendered `initialize` and `tools/list`
/// texts. Serving never mutates it.
pub struct Server {
    host: ToolHost,
    ctx: RequestContext,
    /// `initialize` result after `"protocolVersion":"…"`: capabilities, serverInfo, instructions.
    initialize_tail: String,
    /// The exact `tools/list` result text of the host.
    tools_list: String,
    /// The `resources/list`, `resources/templates/list` and `prompts/list` result texts.
    resources_list: String,
    resource_templates_list: String,
    prompts_list: String,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("ctx", &self.ctx)
            .finish_non_exhaustive()
    }
}

/// Why serving stopped before the end of input (`mcp.md` §1).
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing or flushing the output failed.
    Write(io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Read(error) => write!(f, "cannot read the input: {error}"),
            Self::Write(error) => write!(f, "cannot write the output: {error}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read(error) | Self::Write(error) => Some(error),
        }
    }
}

/// The answer to one line: a response to write (without its `\n`), or nothing, with a short
/// log note (no argument values, no figures).
struct Reply {
    line: Option<String>,
    note: Option<String>,
}

impl Server {
    /// Renders the instructions and the catalogue once; every response reuses them.
    pub fn new(host: ToolHost, config: ServerConfig) -> Server {
        let instructions = host.instructions(&config.locale, &config.base_currency);
        let server_info = format!(
            "{{\"name\":{},\"version\":{}}}",
            json_string(config.name),
            json_string(&config.version)
        );
        let initialize_tail = format!(
            ",\"capabilities\":{{\"tools\":{{\"listChanged\":false}},\"resources\":{{\"subscribe\":false,\"listChanged\":false}},\"prompts\":{{\"listChanged\":false}}}},\"serverInfo\":{server_info},\"instructions\":{}}}",
            json_string(&instructions)
        );
        let tools_list = host.tools_list_json().to_owned();
        let ctx = RequestContext {
            tenant: config.tenant,
            locale: config.locale,
            base_currency: config.base_currency,
        };
        Server {
            host,
            ctx,
            initialize_tail,
            tools_list,
            resources_list: catalog::resources_list(),
            resource_templates_list: catalog::resource_templates_list(),
            prompts_list: catalog::prompts_list(),
        }
    }

    /// The response to one input line (without `\n` and trailing `\r`), or `None` when the
    /// line gets none: blank lines, notifications and client responses. The in-process form of
    /// [`serve`], with the same 1 MiB cap.
    pub fn handle_line(&self, line: &[u8]) -> Option<String> {
        self.reply(line).line
    }

    fn reply(&self, line: &[u8]) -> Reply {
        if line.len() > jsonrpc::MAX_LINE_BYTES {
            return too_long();
        }
        if jsonrpc::is_blank(line) {
            return Reply {
                line: None,
                note: None,
            };
        }
        match jsonrpc::classify(line) {
            Incoming::Invalid { id, code, message } => Reply {
                line: Some(respond(&id, Err((code, message.to_owned())))),
                note: Some(format!("invalid message: {code} {message}")),
            },
            Incoming::ClientResponse => Reply {
                line: None,
                note: Some("ignored a response from the client".to_owned()),
            },
            Incoming::Notification { method } => Reply {
                line: None,
                note: (!method.starts_with("notifications/"))
                    .then(|| format!("ignored notification {}", loggable(&method))),
            },
            Incoming::Request { id, method, params } => self.dispatch(&id, &method, params),
        }
    }

    fn dispatch(&self, id: &Value, method: &str, params: Option<Value>) -> Reply {
        let answer = match method {
            "ping" => Ok("{}".to_owned()),
            "initialize" => self.initialize(params),
            "tools/list" => self.tools_list(params),
            "tools/call" => return self.tools_call(id, params),
            "resources/list" => listing(params, &self.resources_list),
            "resources/templates/list" => listing(params, &self.resource_templates_list),
            "prompts/list" => listing(params, &self.prompts_list),
            "resources/read" => jsonrpc::params_object(params)
                .ok_or_else(params_not_object)
                .and_then(|params| catalog::read_resource(&self.host, &self.ctx, &params)),
            "prompts/get" => jsonrpc::params_object(params)
                .ok_or_else(params_not_object)
                .and_then(|params| catalog::get_prompt(&params)),
            _ => Err((
                code::METHOD_NOT_FOUND,
                format!("Method not found: {method}"),
            )),
        };
        let note = match &answer {
            Ok(_) => None,
            Err((code, _)) => Some(format!("{} answered {code}", loggable(method))),
        };
        Reply {
            line: Some(respond(id, answer)),
            note,
        }
    }

    fn initialize(&self, params: Option<Value>) -> Answer {
        let params = jsonrpc::params_object(params).ok_or_else(params_not_object)?;
        let Some(Value::String(requested)) = params.get("protocolVersion") else {
            return Err(invalid_params("protocolVersion must be a string"));
        };
        let version = PROTOCOL_VERSIONS
            .iter()
            .find(|known| **known == requested.as_str())
            .unwrap_or(&LATEST_PROTOCOL_VERSION);
        Ok(format!(
            "{{\"protocolVersion\":\"{version}\"{}",
            self.initialize_tail
        ))
    }

    fn tools_list(&self, params: Option<Value>) -> Answer {
        let params = jsonrpc::params_object(params).ok_or_else(params_not_object)?;
        match params.get("cursor") {
            None | Some(Value::Null) => Ok(self.tools_list.clone()),
            Some(_) => Err(invalid_params("unknown cursor")),
        }
    }

    fn tools_call(&self, id: &Value, params: Option<Value>) -> Reply {
        let (tool, arguments) = match call_params(params) {
            Ok(call) => call,
            Err(error) => {
                return Reply {
                    note: Some(format!("tools/call answered {}", error.0)),
                    line: Some(respond(id, Err(error))),
                };
            }
        };
        let result = self.host.call(&self.ctx, None, &tool, &arguments);
        let (answer, outcome) = tool_answer(&tool, &result);
        // Successful calls are not logged: a client that reads stderr slowly must not be able
        // to stall the server with a log line per call.
        // No duration: the server reads no clock (the AI layers get time only through ports).
        let note = (outcome != "ok").then(|| format!("tools/call {} {outcome}", loggable(&tool)));
        Reply {
            line: Some(respond(id, answer)),
            note,
        }
    }
}

/// A static listing: like `tools/list`, never paginated (`mcp.md` §5.4).
fn listing(params: Option<Value>, text: &str) -> Answer {
    let params = jsonrpc::params_object(params).ok_or_else(params_not_object)?;
    match params.get("cursor") {
        None | Some(Value::Null) => Ok(text.to_owned()),
        Some(_) => Err(invalid_params("unknown cursor")),
    }
}

/// The answer to a line longer than [`jsonrpc::MAX_LINE_BYTES`] (`mcp.md` §3).
fn too_long() -> Reply {
    Reply {
        line: Some(respond(
            &Value::Null,
            Err((
                code::INVALID_REQUEST,
                "Invalid request: line longer than 1 MiB".to_owned(),
            )),
        )),
        note: Some("discarded a line longer than 1 MiB".to_owned()),
    }
}

/// A result text (compact JSON) or a JSON-RPC error code and message.
type Answer = Result<String, (i64, String)>;

fn respond(id: &Value, answer: Answer) -> String {
    let line = match answer {
        Ok(result) => jsonrpc::result_line(id, &result),
        Err((code, message)) => jsonrpc::error_line(id, code, &message),
    };
    line.unwrap_or_else(|| jsonrpc::INTERNAL_ERROR_LINE.to_owned())
}

fn invalid_params(detail: &str) -> (i64, String) {
    (code::INVALID_PARAMS, format!("Invalid params: {detail}"))
}

fn params_not_object() -> (i64, String) {
    invalid_params("params must be an object")
}

/// The tool name and arguments of a `tools/call` (`mcp.md` §5.5); absent or null arguments
/// are `{}`.
fn call_params(params: Option<Value>) -> Result<(String, Value), (i64, String)> {
    let mut params = jsonrpc::params_object(params).ok_or_else(params_not_object)?;
    let Some(Value::String(name)) = params.remove("name") else {
        return Err(invalid_params("name must be a string"));
    };
    let arguments = match params.remove("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(mut object)) => {
            // `_meta` anywhere in params is protocol metadata, not a tool argument.
            object.remove("_meta");
            object
        }
        Some(_) => return Err(invalid_params("arguments must be an object")),
    };
    let arguments = Value::Object(arguments);
    Ok((name, arguments))
}

/// Maps a host result to the `tools/call` answer and a log word (`mcp.md` §5.5).
fn tool_answer(tool: &str, result: &Value) -> (Answer, String) {
    let kind = result.get("kind").and_then(Value::as_str);
    match kind {
        Some("ok" | "truncated") => {
            let Ok(text) = serde_json::to_string(result) else {
                return (internal_error(), "unserialisable".to_owned());
            };
            let answer = format!(
                "{{\"content\":[{{\"type\":\"text\",\"text\":{}}}],\"structuredContent\":{text},\"isError\":false}}",
                json_string(&text)
            );
            (Ok(answer), kind.unwrap_or_default().to_owned())
        }
        Some("error") => {
            let field = |key: &str| result.get(key).and_then(Value::as_str).unwrap_or_default();
            let error_code = field("code");
            let named = match field("tool") {
                "" => tool,
                named => named,
            };
            let text = match error_code {
                "INVALID_TOOL_INPUT" => {
                    let path = match field("path") {
                        "" => "(root)",
                        path => path,
                    };
                    format!(
                        "INVALID_TOOL_INPUT at {path} ({}): {} Correct the arguments and call {named} again.",
                        field("reason"),
                        field("message")
                    )
                }
                "USE_CASE_FAILED" => format!(
                    "USE_CASE_FAILED: {} This is not an input problem; calling {named} again with the same arguments will fail the same way until the ledger is fixed, so tell the user.",
                    field("message")
                ),
                "UNKNOWN_TOOL" => {
                    return (
                        Err((code::INVALID_PARAMS, format!("Unknown tool: {tool}"))),
                        "UNKNOWN_TOOL".to_owned(),
                    );
                }
                _ => return (internal_error(), "unexpected error value".to_owned()),
            };
            let answer = format!(
                "{{\"content\":[{{\"type\":\"text\",\"text\":{}}}],\"isError\":true}}",
                json_string(&text)
            );
            (Ok(answer), error_code.to_owned())
        }
        _ => (internal_error(), "unexpected result".to_owned()),
    }
}

fn internal_error() -> Answer {
    Err((code::INTERNAL_ERROR, "Internal error".to_owned()))
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A client-chosen name as it may appear in a log line: at most 64 characters, control
/// characters replaced.
fn loggable(name: &str) -> String {
    name.chars()
        .take(64)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// Serves `input` until its end (`mcp.md` §3): one response line per request, written in one
/// piece and flushed at once; diagnostics go to `log`, whose failures are ignored. Returns
/// `Ok(())` at end of input and `Err` only when reading the input or writing the output fails.
pub fn serve<R: BufRead, W: Write, E: Write>(
    server: &Server,
    mut input: R,
    mut output: W,
    mut log: E,
) -> Result<(), ServeError> {
    let mut line = Vec::new();
    let mut out = Vec::new();
    let mut number: u64 = 0;
    loop {
        let read = jsonrpc::read_line(&mut input, &mut line, jsonrpc::MAX_LINE_BYTES)
            .map_err(ServeError::Read)?;
        number = number.saturating_add(1);
        let reply = match read {
            Line::Eof => return Ok(()),
            Line::TooLong => too_long(),
            Line::Text => server.reply(&line),
        };
        if let Some(note) = reply.note {
            // A broken log must not stop the protocol.
            let _ = writeln!(log, "cartera mcp: line {number}: {note}");
        }
        if let Some(response) = reply.line {
            out.clear();
            out.extend_from_slice(response.as_bytes());
            out.push(b'\n');
            output.write_all(&out).map_err(ServeError::Write)?;
            output.flush().map_err(ServeError::Write)?;
        }
    }
}

#[cfg(test)]
mod tests;
