//! Tool results and error values (`tools.md` §4, §5).

use serde_json::{Map, Value};

/// A successful payload object, keys in emission order.
pub type Payload = Map<String, Value>;

/// The typed result of one tool call; [`ToolOutcome::to_json`] is what `ToolHost::call` returns.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolOutcome {
    /// The payload fits the budget.
    Ok(Payload),
    /// The payload did not fit; it carries no part of the payload.
    Truncated {
        /// The limit the payload was checked against.
        max_chars: u64,
        /// The payload's size in characters (always above `max_chars`).
        actual_chars: u64,
    },
    /// The call failed.
    Error(ToolError),
}

impl ToolOutcome {
    /// `ok`, `truncated` or `error`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Ok(_) => "ok",
            Self::Truncated { .. } => "truncated",
            Self::Error(_) => "error",
        }
    }

    /// The JSON value of `tools.md` §4 and §5.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        match self {
            Self::Ok(payload) => {
                object.insert("kind".to_owned(), Value::from("ok"));
                object.insert("payload".to_owned(), Value::Object(payload.clone()));
            }
            Self::Truncated {
                max_chars,
                actual_chars,
            } => {
                object.insert("kind".to_owned(), Value::from("truncated"));
                object.insert("maxChars".to_owned(), Value::from(*max_chars));
                object.insert("actualChars".to_owned(), Value::from(*actual_chars));
            }
            Self::Error(error) => return error.to_json(),
        }
        Value::Object(object)
    }
}

/// The three error codes (`tools.md` §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The arguments break a rule of `tools.md` §6; no use case was invoked.
    InvalidToolInput,
    /// A use case failed, returned data the tool cannot project, or a panic was caught.
    UseCaseFailed,
    /// The name is not a tool, or the profile does not expose it.
    UnknownTool,
}

impl ErrorCode {
    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidToolInput => "INVALID_TOOL_INPUT",
            Self::UseCaseFailed => "USE_CASE_FAILED",
            Self::UnknownTool => "UNKNOWN_TOOL",
        }
    }
}

/// Why an argument was rejected (`tools.md` §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputReason {
    /// The arguments are not an object.
    NotAnObject,
    /// A key the schema does not declare.
    UnknownField,
    /// A required key is absent.
    MissingField,
    /// The value has the wrong JSON type (or is `null`).
    WrongType,
    /// A number with a fractional part where an integer is required.
    NotAnInteger,
    /// Outside the field's bounds.
    OutOfRange,
    /// Shorter than allowed.
    TooShort,
    /// Longer than allowed.
    TooLong,
    /// Too few array items.
    TooFewItems,
    /// Too many array items.
    TooManyItems,
    /// A repeated array item.
    DuplicateItem,
    /// The text does not match the field's pattern.
    PatternMismatch,
    /// Not a member of the field's closed vocabulary.
    NotInVocabulary,
    /// A well-formed date that does not exist.
    InvalidDate,
    /// Two fields that must differ are equal.
    MustDiffer,
    /// `from` after `to`.
    InvalidRange,
}

impl InputReason {
    /// The wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NotAnObject => "not_an_object",
            Self::UnknownField => "unknown_field",
            Self::MissingField => "missing_field",
            Self::WrongType => "wrong_type",
            Self::NotAnInteger => "not_an_integer",
            Self::OutOfRange => "out_of_range",
            Self::TooShort => "too_short",
            Self::TooLong => "too_long",
            Self::TooFewItems => "too_few_items",
            Self::TooManyItems => "too_many_items",
            Self::DuplicateItem => "duplicate_item",
            Self::PatternMismatch => "pattern_mismatch",
            Self::NotInVocabulary => "not_in_vocabulary",
            Self::InvalidDate => "invalid_date",
            Self::MustDiffer => "must_differ",
            Self::InvalidRange => "invalid_range",
        }
    }
}

/// An error value (`tools.md` §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    /// The error code.
    pub code: ErrorCode,
    /// The tool name as called (cut to 64 characters).
    pub tool: String,
    /// RFC 6901 pointer to the offending value (`INVALID_TOOL_INPUT` only).
    pub path: Option<String>,
    /// Why the value was rejected (`INVALID_TOOL_INPUT` only).
    pub reason: Option<InputReason>,
    /// One English line ending with a full stop.
    pub message: String,
}

impl ToolError {
    /// The JSON value: `kind`, `code`, `tool`, then `path` and `reason` when present, `message`.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("kind".to_owned(), Value::from("error"));
        object.insert("code".to_owned(), Value::from(self.code.as_str()));
        object.insert("tool".to_owned(), Value::from(self.tool.clone()));
        if let Some(path) = &self.path {
            object.insert("path".to_owned(), Value::from(path.clone()));
        }
        if let Some(reason) = self.reason {
            object.insert("reason".to_owned(), Value::from(reason.as_str()));
        }
        object.insert("message".to_owned(), Value::from(self.message.clone()));
        Value::Object(object)
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.code.as_str(), self.tool, self.message)
    }
}

impl std::error::Error for ToolError {}
