//! Short, safe quotes of untrusted text for messages a user reads (import findings, tool
//! errors): a cell of a file can be megabytes long and hold NUL or escape bytes, and neither
//! may reach a terminal whole.

/// Characters of a quoted value kept in a message; a longer value is cut and ends with `…`.
pub const EXCERPT_CHARS: usize = 60;

/// Characters of a whole message after [`quote_excerpts`]; a longer one is cut with `…`.
pub const MESSAGE_CHARS: usize = 400;

/// Appends `c` to `out`, a control character escaped as Rust writes it (`\0`, `\t`, `\u{1b}`).
fn push_escaped(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_debug());
    } else {
        out.push(c);
    }
}

/// At most [`EXCERPT_CHARS`] characters of `text` (then `…`), control characters escaped.
pub fn excerpt(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(EXCERPT_CHARS * 2));
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        push_escaped(&mut out, c);
    }
    out
}

/// Whether a quote at byte `at` of `message` closes a quoted value: it ends the message or
/// is followed by a space or punctuation, as every message template writes it.
fn closes(message: &str, at: usize) -> bool {
    message
        .get(at + 1..)
        .and_then(|rest| rest.chars().next())
        .is_none_or(|c| matches!(c, ' ' | ';' | ',' | '.' | ')' | ':'))
}

/// A message with every `"`-quoted value shortened to an [`excerpt`], every other control
/// character escaped, and the whole cut at [`MESSAGE_CHARS`] characters. A value that holds
/// quotes itself is taken up to the last quote that closes it.
pub fn quote_excerpts(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MESSAGE_CHARS + 8));
    let mut rest = message;
    while let Some(open) = rest.find('"') {
        for c in rest[..open].chars() {
            push_escaped(&mut out, c);
        }
        let after = &rest[open + 1..];
        let close = after
            .match_indices('"')
            .map(|(i, _)| i)
            .find(|&i| closes(after, i));
        let end = close.unwrap_or(after.len());
        out.push('"');
        out.push_str(&excerpt(&after[..end]));
        out.push('"');
        rest = after.get(end + 1..).unwrap_or("");
    }
    for c in rest.chars() {
        push_escaped(&mut out, c);
    }
    if out.chars().count() > MESSAGE_CHARS {
        out = out.chars().take(MESSAGE_CHARS).collect();
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests;
