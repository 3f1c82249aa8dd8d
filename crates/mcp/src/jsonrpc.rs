//! JSON-RPC 2.0 framing and classification (`mcp.md` §3, §4): line reading with a length cap,
//! the classification of one line into a request, a notification or an immediate error reply,
//! and the rendering of responses with their fixed key order.

use std::io::{self, BufRead};

use serde_json::{Map, Value};

/// The longest line the server parses, in bytes (`mcp.md` §3); longer lines are discarded.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// JSON-RPC error codes used by the server (`mcp.md` §4).
pub mod code {
    /// Not UTF-8 or not JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// Well-formed JSON that is not a valid request.
    pub const INVALID_REQUEST: i64 = -32600;
    /// A request method the server does not implement.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Bad `params`, or an unknown tool.
    pub const INVALID_PARAMS: i64 = -32602;
    /// A response that could not be serialised.
    pub const INTERNAL_ERROR: i64 = -32603;
}

/// One physical line read from the input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The input is exhausted.
    Eof,
    /// A line (without its `\n` and a trailing `\r`) in the caller's buffer.
    Text,
    /// A line longer than [`MAX_LINE_BYTES`]; its bytes were discarded.
    TooLong,
}

/// Reads the next line into `buf` (cleared first), keeping at most `limit` bytes of it: a longer
/// line is consumed up to its `\n` without being stored. A last line without `\n` counts as a
/// line. A trailing `\r` is removed.
pub(crate) fn read_line<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Line> {
    buf.clear();
    let mut seen_any = false;
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            if !seen_any {
                return Ok(Line::Eof);
            }
            break;
        }
        seen_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk_end = newline.unwrap_or(available.len());
        let chunk = available.get(..chunk_end).unwrap_or_default();
        if !too_long {
            // One extra byte leaves room for a `\r` that is stripped below.
            if buf.len().saturating_add(chunk.len()) > limit.saturating_add(1) {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let consumed = newline.map_or(chunk_end, |at| at.saturating_add(1));
        input.consume(consumed);
        if newline.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(Line::TooLong);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if buf.len() > limit {
        buf.clear();
        return Ok(Line::TooLong);
    }
    Ok(Line::Text)
}

/// Whether a line is empty or only whitespace (ignored, `mcp.md` §3).
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// What one non-blank line is (`mcp.md` §4).
#[derive(Debug, PartialEq)]
pub(crate) enum Incoming {
    /// A request to dispatch: the id (a string or an integer), the method and the params.
    Request {
        id: Value,
        method: String,
        params: Option<Value>,
    },
    /// A notification (no id): accepted silently.
    Notification { method: String },
    /// A response sent by the client: ignored and logged.
    ClientResponse,
    /// An invalid message answered at once, with its code and message.
    Invalid {
        id: Value,
        code: i64,
        message: &'static str,
    },
}

/// Classifies one non-blank line in the order of `mcp.md` §4.
pub(crate) fn classify(line: &[u8]) -> Incoming {
    let invalid =
        |id: Value, code: i64, message: &'static str| Incoming::Invalid { id, code, message };
    let Ok(text) = std::str::from_utf8(line) else {
        return invalid(Value::Null, code::PARSE_ERROR, "Parse error");
    };
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return invalid(Value::Null, code::PARSE_ERROR, "Parse error");
    };
    let mut object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return invalid(
                Value::Null,
                code::INVALID_REQUEST,
                "Invalid request: batches are not supported",
            );
        }
        _ => {
            return invalid(
                Value::Null,
                code::INVALID_REQUEST,
                "Invalid request: a message must be an object",
            );
        }
    };
    let id = object.remove("id");
    if let Some(id) = &id {
        if !is_valid_id(id) {
            return invalid(
                Value::Null,
                code::INVALID_REQUEST,
                "Invalid request: id must be a string or an integer",
            );
        }
    }
    if !object.contains_key("method")
        && (object.contains_key("result") || object.contains_key("error"))
    {
        return Incoming::ClientResponse;
    }
    let reply_id = id.clone().unwrap_or(Value::Null);
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(
            reply_id,
            code::INVALID_REQUEST,
            "Invalid request: jsonrpc must be \"2.0\"",
        );
    }
    let Some(Value::String(method)) = object.remove("method") else {
        return invalid(
            reply_id,
            code::INVALID_REQUEST,
            "Invalid request: method must be a string",
        );
    };
    match id {
        None => Incoming::Notification { method },
        Some(id) => Incoming::Request {
            id,
            method,
            params: object.remove("params"),
        },
    }
}

/// A JSON-RPC id the server accepts: a string or an integer (`mcp.md` §4 step 4).
fn is_valid_id(id: &Value) -> bool {
    match id {
        Value::String(_) => true,
        Value::Number(number) => number.is_i64() || number.is_u64(),
        _ => false,
    }
}

/// `{"jsonrpc":"2.0","id":<id>,"result":<raw result>}`: `result` is already compact JSON.
pub(crate) fn result_line(id: &Value, raw_result: &str) -> Option<String> {
    let id = serde_json::to_string(id).ok()?;
    let mut line =
        String::with_capacity(raw_result.len().saturating_add(id.len()).saturating_add(40));
    line.push_str("{\"jsonrpc\":\"2.0\",\"id\":");
    line.push_str(&id);
    line.push_str(",\"result\":");
    line.push_str(raw_result);
    line.push('}');
    Some(line)
}

/// `{"jsonrpc":"2.0","id":<id>,"error":{"code":<code>,"message":<message>}}`.
pub(crate) fn error_line(id: &Value, code: i64, message: &str) -> Option<String> {
    let id = serde_json::to_string(id).ok()?;
    let message = serde_json::to_string(message).ok()?;
    Some(format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":{code},\"message\":{message}}}}}"
    ))
}

/// The fallback when a response cannot be serialised (never expected): `-32603` with a null id.
pub(crate) const INTERNAL_ERROR_LINE: &str =
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32603,\"message\":\"Internal error\"}}";

/// `params` as an object: absent is an empty object; anything but an object is `None`.
pub(crate) fn params_object(params: Option<Value>) -> Option<Map<String, Value>> {
    match params {
        None => Some(Map::new()),
        Some(Value::Object(object)) => Some(object),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests;
