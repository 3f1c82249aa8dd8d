//! The language of the report commands (`--lang es|en`) and the es-ES number format.
//!
//! The language is chosen once per process: `--lang`, else the ledger's `display_language` setting,
//! else `LC_ALL` / `LANG` starting with `es`, else English. `--json` never reads it: JSON stays
//! locale-free. Numbers are formatted from their decimal strings (no arithmetic).

use std::sync::OnceLock;

use crate::UsageError;

/// A language of the human output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    /// English (the default): numbers as the wire writes them (`14046.32`).
    En,
    /// Spanish: es-ES numbers (`14.046,32`), ISO dates.
    Es,
}

static LANG: OnceLock<Lang> = OnceLock::new();

impl Lang {
    /// Parses `--lang` / `display_language`.
    pub(crate) fn parse(text: &str) -> Result<Self, UsageError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "es" | "es-es" => Ok(Self::Es),
            "en" | "en-gb" | "en-us" => Ok(Self::En),
            _ => Err(UsageError {
                code: "unknown-language",
                reason: format!("unknown language \"{text}\": use `--lang es` or `--lang en`"),
            }),
        }
    }

    /// From the `display_language` setting of the ledger, when the ledger exists and the
    /// setting is stored. A ledger that cannot be opened is left to the command, which says why.
    pub(crate) fn from_setting(explicit: Option<&std::path::Path>) -> Option<Self> {
        let path = crate::ledger_path::resolve(explicit).ok()?;
        if !path.is_file() {
            return None;
        }
        let (_, store) = crate::session::open_read_only(Some(&path)).ok()?;
        let text = use_cases::ports::SettingsStore::setting(
            &store,
            use_cases::ports::SettingKey::DisplayLanguage,
        )
        .ok()??;
        Self::parse(&serde_json::from_str::<String>(&text).ok()?).ok()
    }

    /// From the locale variables: Spanish when `LC_ALL` (else `LANG`) starts with `es`.
    #[allow(
        clippy::disallowed_methods,
        reason = "the binary reads the locale, as the issue's default asks"
    )]
    pub(crate) fn from_env() -> Self {
        let var = std::env::var("LC_ALL")
            .ok()
            .filter(|v| !v.is_empty())
            .or_else(|| std::env::var("LANG").ok());
        match var {
            Some(v) if v.to_ascii_lowercase().starts_with("es") => Self::Es,
            _ => Self::En,
        }
    }
}

/// Fixes the process's language (the first call wins).
pub(crate) fn set(lang: Lang) {
    let _ = LANG.set(lang);
}

/// The process's language (English until [`set`]).
pub(crate) fn lang() -> Lang {
    LANG.get().copied().unwrap_or(Lang::En)
}

/// Whether the output is Spanish.
pub(crate) fn es() -> bool {
    lang() == Lang::Es
}

/// `en` or `es` by the process's language.
pub(crate) fn t<'a>(en: &'a str, es_text: &'a str) -> &'a str {
    if es() { es_text } else { en }
}

/// A decimal string in the output's number format: es-ES groups thousands with `.` and
/// writes a decimal comma (`-14046.32` → `-14.046,32`); English leaves it as it is.
pub(crate) fn num(text: &str) -> String {
    if es() {
        es_number(text)
    } else {
        text.to_owned()
    }
}

/// `num` for an optional figure, `-` when absent.
pub(crate) fn num_opt(text: Option<&String>) -> String {
    text.map_or_else(|| "-".to_owned(), |t| num(t))
}

/// The es-ES form of a decimal string; anything that is not a plain decimal is returned as is.
pub(crate) fn es_number(text: &str) -> String {
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.is_none_or(|f| f.bytes().all(|b| b.is_ascii_digit()))
    {
        return text.to_owned();
    }
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push('.');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{grouped},{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// Wraps `text` into lines of at most `width` characters (words are never split unless a
/// single word is longer than the width).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A paragraph wrapped to the 100-column width with `indent` spaces before each line.
pub(crate) fn paragraph(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    for line in wrap(text, crate::guide::WIDTH - indent) {
        out.push_str(&pad);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
