//! What `header-not-found` tells the user (issue 22): a known header further down than the
//! first 10 records, or the layout the file came closest to with its missing and unexpected
//! columns; the header it names is a short, escaped excerpt, never a sentence of a preamble.

use std::fmt::Write as _;

use super::{DEFS, has, layout_of};
use crate::model::{Finding, Profile};

/// How many records are read to find a header below the first 10.
pub(super) const LOOK_AHEAD: usize = 60;

/// The most characters of a cell a message quotes.
const EXCERPT_CHARS: usize = 32;

/// The most column names a message lists per kind.
const MAX_NAMES: usize = 6;

/// `text` cut to [`EXCERPT_CHARS`] characters, control characters escaped.
pub(super) fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.push_str(&c.escape_default().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether a cell reads like a sentence of a preamble rather than a column name.
fn sentence(cell: &str) -> bool {
    cell.chars().count() > 40 || cell.split_whitespace().count() > 5 || cell.contains(". ")
}

fn names(list: &[&str]) -> String {
    let mut shown: Vec<String> = list
        .iter()
        .take(MAX_NAMES)
        .map(|n| format!("\"{}\"", excerpt(n)))
        .collect();
    if list.len() > MAX_NAMES {
        shown.push(format!("and {} more", list.len() - MAX_NAMES));
    }
    shown.join(", ")
}

fn layout_name(profile: Profile, layout: &str) -> String {
    if layout.is_empty() {
        format!("the {} format", profile.id())
    } else {
        format!("{} layout {layout}", profile.id())
    }
}

/// A candidate layout: columns present, columns missing, its record and its names.
struct Closest<'a> {
    present: usize,
    line: u64,
    cells: &'a [String],
    profile: Profile,
    layout: &'static str,
    missing: Vec<&'static str>,
}

/// A known header written with `;` between its cells: a CSV re-saved by a spreadsheet whose
/// list separator is `;` (a Spanish-locale Excel), which the comma reader sees as one cell
/// (D-162). Its line and what to tell the user.
fn semicolon_header(peeked: &[(u64, Vec<String>)]) -> Option<(u64, String)> {
    for (line, cells) in peeked.iter().take(10) {
        let joined = cells.join(",");
        if !joined.contains(';') {
            continue;
        }
        let split: Vec<String> = joined
            .split(';')
            .map(|c| c.trim().trim_matches('"').trim().to_owned())
            .collect();
        for d in super::all_defs() {
            if let Some(Ok(layout)) = layout_of(d, &split, true) {
                let original = if d.profile == Profile::Bit2me {
                    "the .xlsx workbook Bit2Me gave you"
                } else {
                    "the file as the exchange gave it"
                };
                return Some((
                    *line,
                    format!(
                        "no supported header in the first 10 records; line {line} is a header of {} separated by semicolons, as a spreadsheet in a Spanish locale saves a CSV (with decimal commas too): import {original}, not a copy saved by the spreadsheet",
                        layout_name(d.profile, layout)
                    ),
                ));
            }
        }
    }
    None
}

/// Rewrites the plain `header-not-found` finding `f` from the records of the file's start.
pub(super) fn header_not_found(f: &mut Finding, peeked: &[(u64, Vec<String>)]) {
    let first_cell = |cells: &[String]| {
        cells
            .iter()
            .find(|c| !c.is_empty())
            .filter(|c| !sentence(c))
            .map_or_else(|| "-".to_owned(), |c| excerpt(c))
    };
    if let Some((_, cells)) = peeked.first() {
        f.header = first_cell(cells);
    }
    // A known header below the first 10 records: a longer preamble than detection reads.
    for (line, cells) in peeked.iter().skip(10) {
        for d in DEFS {
            if let Some(Ok(layout)) = layout_of(d, cells, true) {
                f.message = format!(
                    "no supported header in the first 10 records, but a header of {} starts on line {line}; delete the lines above it and import the file again",
                    layout_name(d.profile, layout)
                );
                return;
            }
        }
    }
    if let Some((line, message)) = semicolon_header(peeked) {
        f.message = message;
        f.line = line;
        return;
    }
    // The layout the file comes closest to: most of its columns present.
    let mut best: Option<Closest<'_>> = None;
    for (line, cells) in peeked.iter().take(10) {
        for d in DEFS {
            for (layout, extra) in d.layouts {
                let wanted: Vec<&'static str> =
                    d.required.iter().chain(extra.iter()).copied().collect();
                let present = wanted.iter().filter(|w| has(cells, w)).count();
                if present < 3 || present * 2 < wanted.len() {
                    continue;
                }
                let missing: Vec<&'static str> =
                    wanted.iter().copied().filter(|w| !has(cells, w)).collect();
                let better = best.as_ref().is_none_or(|b| {
                    present > b.present || (present == b.present && missing.len() < b.missing.len())
                });
                if better {
                    best = Some(Closest {
                        present,
                        line: *line,
                        cells,
                        profile: d.profile,
                        layout,
                        missing,
                    });
                }
            }
        }
    }
    let Some(Closest {
        line,
        cells,
        profile,
        layout,
        missing,
        ..
    }) = best
    else {
        return;
    };
    let known: Vec<&str> = DEFS
        .iter()
        .filter(|d| d.profile == profile)
        .flat_map(|d| {
            d.required
                .iter()
                .chain(d.layouts.iter().flat_map(|(_, e)| e.iter()))
        })
        .copied()
        .collect();
    let unexpected: Vec<&str> = cells
        .iter()
        .map(String::as_str)
        .filter(|c| !c.is_empty() && !known.iter().any(|k| k.eq_ignore_ascii_case(c)))
        .collect();
    let mut message = format!(
        "no supported header in the first 10 records; line {line} comes closest to {}",
        layout_name(profile, layout)
    );
    if !missing.is_empty() {
        let _ = write!(message, ", which also needs {}", names(&missing));
    }
    if profile == Profile::Generic && !unexpected.is_empty() {
        let _ = write!(message, "; not part of it: {}", names(&unexpected));
    }
    message.push_str("; name the format with --format or use the generic format");
    f.message = message;
    f.line = line;
    f.header = first_cell(cells);
}

#[cfg(test)]
mod tests;
