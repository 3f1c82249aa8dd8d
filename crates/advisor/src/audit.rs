//! The figure audit: every number in a final answer is looked up, as text, among the numbers
//! of this turn's tool results (and the user's question, whose numbers the user supplied).
//! What is not found is "unverified": the model computed, converted, rounded or invented it.
//!
//! Matching is string normalisation only, never arithmetic: thousands separators (`.`, `,`,
//! spaces, apostrophes) are dropped and a decimal comma becomes a point (`1.234,50`,
//! `1,234.50` and `1234.5` all read `1234.5`); trailing zeros of a fraction and leading zeros
//! are dropped. A lone separator followed by exactly three digits (`1,234` or `1.234`) is
//! ambiguous and matches either reading. Digits glued to letters (`ETH2`, `AI16Z`, `3rd`) and
//! integers below ten (list markers, counts in prose) are not figures.

use std::collections::BTreeSet;

use serde_json::Value;

/// One number found in a text: its text as written and its normalised readings.
#[derive(Debug)]
struct Figure {
    written: String,
    readings: Vec<String>,
}

/// Whether `c` glues a number to a word.
fn is_word_char(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_minus(c: char) -> bool {
    c == '-' || c == '\u{2212}'
}

/// Separators a human number may carry between digits.
fn is_separator(c: char) -> bool {
    matches!(
        c,
        '.' | ',' | '\'' | ' ' | '\u{a0}' | '\u{202f}' | '\u{2019}'
    )
}

/// Scans `text` for numbers. `human` accepts every separator; otherwise (JSON text) only a
/// decimal point joins digits.
fn figures(text: &str, human: bool) -> Vec<Figure> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0_usize;
    while i < chars.len() {
        let c = chars.get(i).copied().unwrap_or(' ');
        let prev = i.checked_sub(1).and_then(|p| chars.get(p)).copied();
        let starts_negative = is_minus(c)
            && chars
                .get(i.saturating_add(1))
                .is_some_and(char::is_ascii_digit)
            && !prev.is_some_and(|p| p.is_alphanumeric() || p == '_');
        if !(c.is_ascii_digit() || starts_negative) {
            i = i.saturating_add(1);
            continue;
        }
        let start = i;
        let negative = starts_negative;
        if negative {
            i = i.saturating_add(1);
        }
        let mut body = String::new();
        while let Some(&c) = chars.get(i) {
            let next_is_digit = chars
                .get(i.saturating_add(1))
                .is_some_and(char::is_ascii_digit);
            let joins = next_is_digit && (if human { is_separator(c) } else { c == '.' });
            if !(c.is_ascii_digit() || joins) {
                break;
            }
            body.push(c);
            i = i.saturating_add(1);
        }
        let glued_before = !negative && prev.is_some_and(is_word_char);
        let glued_after = chars.get(i).copied().is_some_and(is_word_char);
        if glued_before || glued_after {
            continue;
        }
        let written: String = chars.get(start..i).unwrap_or_default().iter().collect();
        let sign = if negative { "-" } else { "" };
        let readings = readings(&body, human)
            .into_iter()
            .map(|reading| format!("{sign}{reading}"))
            .collect();
        out.push(Figure { written, readings });
    }
    out
}

/// The normalised readings of the digits-and-separators `body`.
fn readings(body: &str, human: bool) -> Vec<String> {
    if !human {
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        return vec![canonical(int, frac)];
    }
    let digits_only = |text: &str| {
        text.chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
    };
    let dots = body.matches('.').count();
    let commas = body.matches(',').count();
    let decimal_at = match (dots, commas) {
        (0, 0) => None,
        (_, 0) | (0, _) => {
            let (mark, count) = if dots > 0 { ('.', dots) } else { (',', commas) };
            if count > 1 {
                None
            } else {
                let at = body.rfind(mark).unwrap_or(0);
                let after = body.get(at.saturating_add(1)..).unwrap_or_default();
                if after.len() == 3 && after.chars().all(|c| c.is_ascii_digit()) {
                    // `1,234` or `1.234`: a thousands group or three decimals.
                    let int = digits_only(body.get(..at).unwrap_or_default());
                    return vec![canonical(&digits_only(body), ""), canonical(&int, after)];
                }
                Some(at)
            }
        }
        _ => {
            let last_dot = body.rfind('.').unwrap_or(0);
            let last_comma = body.rfind(',').unwrap_or(0);
            Some(last_dot.max(last_comma))
        }
    };
    match decimal_at {
        None => vec![canonical(&digits_only(body), "")],
        Some(at) => vec![canonical(
            &digits_only(body.get(..at).unwrap_or_default()),
            &digits_only(body.get(at.saturating_add(1)..).unwrap_or_default()),
        )],
    }
}

/// `int.frac` without leading zeros of `int` or trailing zeros of `frac`.
fn canonical(int: &str, frac: &str) -> String {
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        int.to_owned()
    } else {
        format!("{int}.{frac}")
    }
}

/// Whether a figure is a small integer (below ten): a list marker or a count in prose.
fn is_small_integer(figure: &Figure) -> bool {
    figure
        .readings
        .iter()
        .all(|reading| reading.trim_start_matches('-').len() == 1)
}

/// Adds every number of a JSON value (strings scanned, numbers as written) to `known`.
fn collect_json(value: &Value, known: &mut BTreeSet<String>) {
    match value {
        Value::String(text) => collect_text(text, false, known),
        Value::Number(number) => collect_text(&number.to_string(), false, known),
        Value::Array(items) => items.iter().for_each(|item| collect_json(item, known)),
        Value::Object(object) => object.values().for_each(|item| collect_json(item, known)),
        Value::Bool(_) | Value::Null => {}
    }
}

fn collect_text(text: &str, human: bool, known: &mut BTreeSet<String>) {
    for figure in figures(text, human) {
        for reading in figure.readings {
            // A source figure also vouches for its absolute value ("a loss of 30.00").
            if let Some(absolute) = reading.strip_prefix('-') {
                known.insert(absolute.to_owned());
            }
            known.insert(reading);
        }
    }
}

/// The figures of `answer` that appear in none of the tool results (JSON texts) nor in the
/// question, as written in the answer, without repeats, in order of appearance.
pub fn unverified_figures(answer: &str, tool_results: &[String], question: &str) -> Vec<String> {
    let mut known = BTreeSet::new();
    for result in tool_results {
        match serde_json::from_str::<Value>(result) {
            Ok(value) => collect_json(&value, &mut known),
            Err(_) => collect_text(result, false, &mut known),
        }
    }
    collect_text(question, true, &mut known);
    let mut seen = BTreeSet::new();
    figures(answer, true)
        .into_iter()
        .filter(|figure| !is_small_integer(figure))
        .filter(|figure| {
            !figure
                .readings
                .iter()
                .any(|reading| known.contains(reading))
        })
        .filter(|figure| seen.insert(figure.written.clone()))
        .map(|figure| figure.written)
        .collect()
}

#[cfg(test)]
mod tests;
