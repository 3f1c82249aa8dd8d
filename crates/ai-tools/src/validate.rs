//! Input rules (`tools.md` §6).

use serde_json::{Map, Value};
use shared_types::ToolName;

use crate::outcome::InputReason;

/// A rejected argument.
pub(crate) struct InputError {
    pub path: String,
    pub reason: InputReason,
    pub message: String,
}

/// Validates and normalises the arguments of `tool` into its canonical arguments.
pub(crate) fn validate(
    tool: ToolName,
    arguments: &Value,
    current_year: i32,
) -> Result<Map<String, Value>, InputError> {
    let _ = (tool, current_year);
    match arguments {
        Value::Null => Ok(Map::new()),
        Value::Object(map) => Ok(map.clone()),
        _ => Err(InputError {
            path: String::new(),
            reason: InputReason::NotAnObject,
            message: "arguments must be a JSON object.".to_owned(),
        }),
    }
}
