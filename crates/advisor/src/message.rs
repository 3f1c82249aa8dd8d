//! The conversation as the loop keeps it: provider-neutral messages that each backend renders
//! in its own wire shape, and that a conversation store can save as JSON.

use serde::{Deserialize, Serialize};

/// One tool call the model asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The call id the model gave (echoed with the result).
    pub id: String,
    /// The tool name as the model wrote it.
    pub name: String,
    /// The arguments as the model wrote them: JSON text, possibly not valid JSON.
    pub arguments: String,
}

/// One message of a conversation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "camelCase")]
pub enum Message {
    /// A question of the user.
    User {
        /// The question.
        text: String,
    },
    /// A reply of the model: text, tool calls, or both.
    Assistant {
        /// The text (may be empty when the model only called tools).
        text: String,
        /// The tool calls, in the order the model gave them.
        #[serde(default, rename = "toolCalls", skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call, as the model reads it.
    ToolResult {
        /// The id of the call it answers.
        #[serde(rename = "callId")]
        call_id: String,
        /// The tool name.
        name: String,
        /// The compact JSON of the tool result (`{"kind":…}`).
        content: String,
        /// Whether the result is an error value.
        #[serde(rename = "isError")]
        is_error: bool,
    },
}
