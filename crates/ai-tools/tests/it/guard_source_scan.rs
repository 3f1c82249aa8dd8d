//! Source scan (`tools.md` §15) over `crates/ai-tools/src/**/*.rs` with comments and string
//! literals blanked: no decimals, floats, ordering, IO, environment, process, domain or storage
//! crates, no money arithmetic, no write-side port, and the lint attributes in `lib.rs`.
//! Forbidden words are assembled from pieces so this file does not trip the workspace scan.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.reverse();
    for path in paths {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Blanks comments, string literals (plain and raw) and char literals, keeping line breaks.
pub(crate) fn blank(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let keep = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('#') || next == Some('"'))
            && !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            let mut hashes = 0;
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            i = j + 1;
            loop {
                if i >= chars.len() {
                    break;
                }
                if chars[i] == '"' && (0..hashes).all(|h| chars.get(i + 1 + h) == Some(&'#')) {
                    out.push('"');
                    i += 1 + hashes;
                    break;
                }
                out.push(keep(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if let Some(ch) = chars.get(i) {
                    out.push(keep(*ch));
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && next == Some('\\') && chars.get(i + 3) == Some(&'\'') {
            out.push_str("'  '");
            i += 4;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

const MONEY: [&str; 15] = [
    "value", "amount", "price", "cost", "pnl", "equity", "total", "fiat", "fee", "gain", "loss",
    "balance", "quantity", "qty", "tax",
];
const COUNTS: [&str; 11] = [
    "count", "page", "len", "index", "chars", "size", "budget", "offset", "limit", "year", "days",
];

fn has_arithmetic(line: &str) -> bool {
    let cleaned = line
        .replace("->", "  ")
        .replace("=>", "  ")
        .replace("::", "  ");
    let bytes = cleaned.as_bytes();
    let operator = bytes.iter().enumerate().any(|(i, b)| {
        let prev = i
            .checked_sub(1)
            .and_then(|p| bytes.get(p))
            .copied()
            .unwrap_or(b' ');
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        match b {
            b'+' | b'%' => true,
            // `*` and `/` as binary operators (spaced), not a dereference, glob or path.
            b'*' | b'/' => prev == b' ' && next == b' ',
            // `-` between operands, not a unary minus or a range bound.
            b'-' => prev == b' ' && (next == b' ' || next == b'='),
            _ => false,
        }
    });
    operator || line.contains("checked_") || line.contains("saturating_")
}

fn money_arithmetic(line: &str) -> bool {
    has_arithmetic(line)
        && words(line)
            .map(str::to_ascii_lowercase)
            .any(|w| MONEY.iter().any(|m| w.contains(m)) && !COUNTS.iter().any(|c| w.contains(c)))
}

fn banned_words() -> Vec<String> {
    [
        ["rust", "_decimal"].concat(),
        ["Dec", "imal"].concat(),
        ["f", "32"].concat(),
        ["f", "64"].concat(),
        ["so", "rt"].concat(),
        ["so", "rt_by"].concat(),
        ["so", "rt_unstable"].concat(),
        ["Binary", "Heap"].concat(),
        ["max", "_by"].concat(),
        ["min", "_by"].concat(),
        ["core", "_domain"].concat(),
        ["ledger", "_sqlite"].concat(),
        // Write-side ports and the other read ports of use-cases.
        ["Ledger", "Write"].concat(),
        ["Ledger", "Read"].concat(),
        ["Rate", "Store"].concat(),
        ["Price", "Store"].concat(),
        ["Settings", "Store"].concat(),
        ["Read", "Store"].concat(),
    ]
    .to_vec()
}

fn banned_paths() -> Vec<String> {
    ["fs", "net", "env", "process"]
        .iter()
        .map(|m| format!("std::{m}"))
        .chain([["use_cases::", "commands"].concat()])
        .collect()
}

pub(crate) fn violations(file: &str, source: &str) -> Vec<String> {
    let blanked = blank(source);
    let banned = banned_words();
    let paths = banned_paths();
    let mut found = Vec::new();
    for (number, line) in blanked.lines().enumerate() {
        for word in words(line) {
            if banned.iter().any(|b| b == word) {
                found.push(format!("{file}:{}: `{word}`", number + 1));
            }
        }
        for path in &paths {
            if line.contains(path.as_str()) {
                found.push(format!("{file}:{}: `{path}`", number + 1));
            }
        }
        if money_arithmetic(line) {
            found.push(format!(
                "{file}:{}: arithmetic on a money identifier",
                number + 1
            ));
        }
    }
    found
}

#[test]
fn sources_are_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    assert!(files.len() >= 10, "{files:?}");
    let mut found = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap_or_default();
        found.extend(violations(&file.display().to_string(), &source));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn lint_attributes_are_present() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .unwrap_or_default();
    assert!(lib.contains("#![forbid(unsafe_code)]"));
    for lint in [
        "unwrap_used",
        "expect_used",
        "panic",
        "indexing_slicing",
        "arithmetic_side_effects",
        "float_arithmetic",
    ] {
        assert!(lib.contains(&format!("clippy::{lint}")), "{lint}");
    }
    assert!(lib.contains("#![deny("));
}

#[test]
fn the_scanner_finds_what_it_must() {
    let float = ["f", "64"].concat();
    assert_eq!(violations("x", &format!("let a: {float} = 1;")).len(), 1);
    assert!(
        violations(
            "x",
            &format!("// {float} in a comment\nlet s = \"{float}\";")
        )
        .is_empty()
    );
    assert_eq!(violations("x", "let t = total_value + fee;").len(), 1);
    assert!(violations("x", "let p = page_count + 1;").is_empty());
    let checked = ["checked", "_add"].concat();
    assert_eq!(
        violations("x", &format!("let c = cost.{checked}(x);")).len(),
        1
    );
    assert!(violations("x", "fn f() -> Value { x }").is_empty());
    assert!(violations("x", &format!("let r = r#\"{float} \"quoted\" \"#;")).is_empty());
}
