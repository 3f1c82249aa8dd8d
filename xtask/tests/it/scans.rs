//! Source scans: what some crates must never write, line by line, with `//` comments ignored.
//!
//! The scans are a backstop for the type system and clippy, not a replacement: they catch
//! re-exports and fully qualified paths that a review would miss. Each rule is a row of
//! `SCAN_RULES`; a rule for a crate that does not exist yet simply finds no files.

use crate::workspace::{assert_clean, code_part, contains_word, read, relative, root, rust_files};

/// How a forbidden token is matched in a line of code.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Needle {
    /// Anywhere in the line.
    Text(&'static str),
    /// As a whole identifier (`f64` but not `f64_bits`, `Decimal` but not `DecimalString`).
    Word(&'static str),
    /// A `checked_*` or `saturating_*` call on a line that names a money identifier
    /// (`tools.md` §15: `value`, `amount`, `price`, … unless it is also a count, page, length …).
    MoneyArithmetic,
}

/// Identifier fragments that make an identifier a money figure (`tools.md` §15).
const MONEY_WORDS: &[&str] = &[
    "value", "amount", "price", "cost", "pnl", "equity", "total", "fiat", "fee", "gain", "loss",
    "balance", "quantity", "qty", "tax",
];

/// Identifier fragments that make it a count instead (`tools.md` §15).
const COUNT_WORDS: &[&str] = &[
    "count", "page", "len", "index", "chars", "size", "budget", "offset", "limit", "year", "days",
];

fn money_arithmetic(code: &str) -> bool {
    let arithmetic = code.contains("checked_") || code.contains("saturating_");
    arithmetic
        && code
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_ascii_lowercase)
            .any(|identifier| {
                MONEY_WORDS.iter().any(|word| identifier.contains(word))
                    && !COUNT_WORDS.iter().any(|word| identifier.contains(word))
            })
}

impl Needle {
    fn found_in(self, code: &str) -> bool {
        match self {
            Self::Text(text) => code.contains(text),
            Self::Word(word) => contains_word(code, word),
            Self::MoneyArithmetic => money_arithmetic(code),
        }
    }

    fn shown(self) -> &'static str {
        match self {
            Self::Text(text) | Self::Word(text) => text,
            Self::MoneyArithmetic => "checked/saturating arithmetic on a money identifier",
        }
    }
}

/// A family of forbidden tokens in some folders of some crates.
pub(crate) struct ScanRule {
    pub(crate) name: &'static str,
    pub(crate) crates: &'static [&'static str],
    /// Folders inside each crate; `""` is the whole crate.
    pub(crate) folders: &'static [&'static str],
    pub(crate) needles: &'static [Needle],
    pub(crate) why: &'static str,
    /// A comment marker that exempts its line (and exempts `use` lines altogether), for the one
    /// rule where deliberate, reviewed uses exist; `None` elsewhere.
    pub(crate) allow_marker: Option<&'static str>,
}

use Needle::{MoneyArithmetic, Text, Word};

const IO_CLOCK_ENV: &[Needle] = &[
    Text("std::fs"),
    Text("std::net"),
    Text("std::env"),
    Text("std::process"),
    Word("SystemTime"),
    Text("Instant::now"),
    Text("Utc::now"),
    Text("Local::now"),
    Word("println"),
    Word("eprintln"),
];

/// Marks a hash collection in core-domain whose iteration order cannot reach an output (a
/// lookup-only index, or entries sorted before use): `// tidy:hash-ok: <why>` on each line that
/// declares or builds one. `use` lines need no marker.
const HASH_OK_MARKER: &str = "tidy:hash-ok";

pub(crate) const SCAN_RULES: &[ScanRule] = &[
    ScanRule {
        name: "no IO, clock or environment",
        crates: &["core-domain", "use-cases"],
        folders: &["src"],
        needles: IO_CLOCK_ENV,
        why: "time, prices, rates and settings come in as arguments or through ports",
        allow_marker: None,
    },
    ScanRule {
        name: "no serde derives",
        crates: &["core-domain"],
        folders: &["src"],
        needles: &[Word("Serialize"), Word("Deserialize"), Word("serde")],
        why: "core-domain types never cross the wire; DTOs live in shared-types",
        allow_marker: None,
    },
    ScanRule {
        name: "every rounding names its strategy",
        crates: &["core-domain"],
        folders: &["src"],
        needles: &[Text("round_dp("), Text(".round()")],
        why: "use num::round_half_up or round_dp_with_strategy(.., MidpointAwayFromZero)",
        allow_marker: None,
    },
    ScanRule {
        name: "no floating point",
        crates: &["core-domain"],
        folders: &["src"],
        needles: &[Word("f32"), Word("f64")],
        why: "amounts, prices, rates, returns and statistics are rust_decimal",
        allow_marker: None,
    },
    ScanRule {
        name: "no hash collections",
        crates: &["core-domain"],
        folders: &["src"],
        needles: &[
            Word("HashMap"),
            Word("HashSet"),
            Word("hash_map"),
            Word("hash_set"),
        ],
        why: "iteration order must never reach an output: use BTreeMap/BTreeSet or dense Vec \
              indices, or mark the line `// tidy:hash-ok: <why the order cannot leak>`",
        allow_marker: Some(HASH_OK_MARKER),
    },
    ScanRule {
        name: "no decimals, money arithmetic, floats or ordering in ai-tools",
        crates: &["ai-tools"],
        folders: &[""],
        needles: &[
            Word("rust_decimal"),
            Word("Decimal"),
            Text("dec!("),
            MoneyArithmetic,
            Word("f32"),
            Word("f64"),
            Word("sort"),
            Word("sort_by"),
            Word("sort_by_key"),
            Word("sort_by_cached_key"),
            Word("sort_unstable"),
            Word("sort_unstable_by"),
            Word("sort_unstable_by_key"),
            Word("BinaryHeap"),
            Word("max_by"),
            Word("min_by"),
            Word("core_domain"),
            Word("ledger_sqlite"),
        ],
        why: "every figure, ordering and cap an AI tool returns is computed by core-domain and \
              reached through use-cases",
        allow_marker: None,
    },
    ScanRule {
        name: "no decimals, money arithmetic or floats in the advisor",
        crates: &["advisor"],
        folders: &[""],
        needles: &[
            Word("rust_decimal"),
            Word("Decimal"),
            Text("dec!("),
            MoneyArithmetic,
            Word("f32"),
            Word("f64"),
            Word("core_domain"),
            Word("ledger_sqlite"),
        ],
        why: "the advisor quotes figures from tool results and checks them as text; it never \
              computes one",
        allow_marker: None,
    },
    ScanRule {
        name: "no IO, clock or environment in the AI and MCP layers",
        crates: &["ai-tools", "mcp"],
        folders: &["src"],
        needles: IO_CLOCK_ENV,
        why: "tools and the server reach data only through use-cases ports and the IO handed to \
              them",
        allow_marker: None,
    },
];

/// Offending `file:line` of one rule in one file's text.
pub(crate) fn scan(rule: &ScanRule, file: &str, text: &str) -> Vec<String> {
    let mut violations = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let exempt = |marker: &str| line.contains(marker) || line.trim_start().starts_with("use ");
        if rule.allow_marker.is_some_and(exempt) {
            continue;
        }
        let code = code_part(line);
        for needle in rule.needles {
            if needle.found_in(code) {
                violations.push(format!(
                    "{file}:{}: `{}` ({}: {})",
                    index + 1,
                    needle.shown(),
                    rule.name,
                    rule.why
                ));
            }
        }
    }
    violations
}

/// The money newtypes of core-domain that must offer checked methods only.
const MONEY_TYPES: &[&str] = &["Money", "Quantity", "Price", "Rate", "Ratio"];

/// Operator traits whose implementations would hide a panicking rust_decimal operator.
const OPERATOR_TRAITS: &[&str] = &[
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Rem",
    "Neg",
    "AddAssign",
    "SubAssign",
    "MulAssign",
    "DivAssign",
    "RemAssign",
    "Sum",
    "Product",
];

/// `impl Add for Money`-style lines (any path, generics or reference on either side).
pub(crate) fn operator_impls(file: &str, text: &str) -> Vec<String> {
    let mut violations = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = code_part(line).trim();
        let Some(rest) = code.strip_prefix("impl").map(skip_impl_generics) else {
            continue;
        };
        let Some((trait_part, type_part)) = rest.split_once(" for ") else {
            continue;
        };
        let trait_name = last_identifier(trait_part.split('<').next().unwrap_or_default());
        let type_name = first_identifier(
            type_part
                .trim_start_matches(['&', ' '])
                .trim_start_matches("mut "),
        );
        if OPERATOR_TRAITS.contains(&trait_name) && MONEY_TYPES.contains(&type_name) {
            violations.push(format!(
                "{file}:{}: `impl {trait_name} for {type_name}`: money types offer checked \
                 methods returning Result, never operators",
                index + 1
            ));
        }
    }
    violations
}

/// `<'a, T: Into<U>> Add for X` → `Add for X`.
fn skip_impl_generics(rest: &str) -> &str {
    if !rest.starts_with('<') {
        return rest;
    }
    let mut depth = 0usize;
    for (index, character) in rest.char_indices() {
        match character {
            '<' => depth += 1,
            '>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return &rest[index + 1..];
                }
            }
            _ => {}
        }
    }
    rest
}

fn last_identifier(path: &str) -> &str {
    path.trim()
        .rsplit("::")
        .next()
        .unwrap_or_default()
        .trim_start_matches(|c: char| !c.is_ascii_alphanumeric())
}

fn first_identifier(text: &str) -> &str {
    let last_segment_start = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .map_or(text, |end| &text[..end]);
    last_segment_start.rsplit("::").next().unwrap_or_default()
}

/// Lint levels that fail CI (`-D warnings` turns `warn` into an error).
const FAILING_LEVELS: &[&str] = &["warn", "deny", "forbid"];
/// Lint levels that also fail a plain `cargo build`.
const HARD_LEVELS: &[&str] = &["deny", "forbid"];

/// Crate-root lint attributes some crates must carry: crate, lint, accepted levels, why.
const REQUIRED_ROOT_LINTS: &[(&str, &str, &[&str], &str)] = &[
    (
        "core-domain",
        "clippy::float_arithmetic",
        HARD_LEVELS,
        "no float arithmetic in the engine",
    ),
    (
        "use-cases",
        "clippy::float_arithmetic",
        HARD_LEVELS,
        "no float arithmetic in the use cases",
    ),
    (
        "shared-types",
        "missing_docs",
        FAILING_LEVELS,
        "the wire contracts are documented item by item",
    ),
    (
        "cartera",
        "missing_docs",
        FAILING_LEVELS,
        "the library facade's rustdoc is its manual: every public item is documented",
    ),
    // ai-tools panic safety (tools.md §5).
    (
        "ai-tools",
        "clippy::unwrap_used",
        HARD_LEVELS,
        "a tool call never panics",
    ),
    (
        "ai-tools",
        "clippy::expect_used",
        HARD_LEVELS,
        "a tool call never panics",
    ),
    (
        "ai-tools",
        "clippy::panic",
        HARD_LEVELS,
        "a tool call never panics",
    ),
    (
        "ai-tools",
        "clippy::indexing_slicing",
        HARD_LEVELS,
        "a tool call never panics",
    ),
    (
        "ai-tools",
        "clippy::arithmetic_side_effects",
        HARD_LEVELS,
        "a tool call never panics",
    ),
    (
        "ai-tools",
        "clippy::float_arithmetic",
        HARD_LEVELS,
        "ai-tools does no float arithmetic",
    ),
    (
        "ai-tools",
        "unsafe_code",
        &["forbid"],
        "tools.md §5 asks for it at the crate root",
    ),
];

/// Whether a crate root sets `lint` at one of `levels` (`#![deny(a, b)]` lists count).
pub(crate) fn sets_lint(text: &str, lint: &str, levels: &[&str]) -> bool {
    let mut attributes = Vec::new();
    let mut current = String::new();
    for line in text.lines().map(|line| code_part(line).trim()) {
        if current.is_empty() && !line.starts_with("#![") {
            continue;
        }
        current.push_str(line);
        if current.ends_with(")]") {
            attributes.push(std::mem::take(&mut current));
        }
    }
    attributes.iter().any(|attribute| {
        levels.iter().any(|level| {
            attribute
                .strip_prefix(&format!("#![{level}("))
                .is_some_and(|list| {
                    list.trim_end_matches(")]")
                        .split(',')
                        .any(|item| item.trim() == lint)
                })
        })
    })
}

fn crate_files(krate: &str, folder: &str) -> Vec<std::path::PathBuf> {
    let dir = root().join("crates").join(krate);
    rust_files(&if folder.is_empty() {
        dir
    } else {
        dir.join(folder)
    })
}

#[test]
fn forbidden_tokens_stay_out_of_their_crates() {
    for rule in SCAN_RULES {
        let mut violations = Vec::new();
        for krate in rule.crates {
            for folder in rule.folders {
                for file in crate_files(krate, folder) {
                    violations.extend(scan(rule, &relative(&file), &read(&file)));
                }
            }
        }
        assert_clean(
            &format!("{} in [{}]", rule.name, rule.crates.join(", ")),
            &violations,
        );
    }
}

#[test]
fn money_types_implement_no_operators() {
    let mut violations = Vec::new();
    for file in crate_files("core-domain", "src") {
        violations.extend(operator_impls(&relative(&file), &read(&file)));
    }
    assert_clean(
        "core-domain money types implement no arithmetic operator",
        &violations,
    );
}

#[test]
fn crate_roots_carry_their_required_lints() {
    let mut violations = Vec::new();
    for (krate, lint, levels, why) in REQUIRED_ROOT_LINTS {
        let lib = root().join("crates").join(krate).join("src/lib.rs");
        if lib.is_file() && !sets_lint(&read(&lib), lint, levels) {
            violations.push(format!(
                "{}: lacks `#![{}({lint})]` ({why})",
                relative(&lib),
                levels.first().copied().unwrap_or("deny")
            ));
        }
    }
    assert_clean(
        "crate-level lint attributes of the style guide",
        &violations,
    );
}

mod checker {
    //! The scans must catch what they claim to catch, and no more.

    use super::{HARD_LEVELS, SCAN_RULES, operator_impls, scan, sets_lint};

    fn rule(name: &str) -> &'static super::ScanRule {
        SCAN_RULES
            .iter()
            .find(|rule| rule.name.starts_with(name))
            .expect("a rule with that name")
    }

    /// The line numbers a rule reports in `text`.
    fn check(rule_name: &str, text: &str, expected_lines: &[usize]) {
        let lines: Vec<usize> = scan(rule(rule_name), "f.rs", text)
            .iter()
            .map(|violation| {
                violation
                    .split(':')
                    .nth(1)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0)
            })
            .collect();
        assert_eq!(lines, expected_lines, "{text}");
    }

    #[test]
    fn io_clock_and_env_are_found_outside_comments() {
        check(
            "no IO",
            "use std::fs::File;\n// std::fs is fine in a comment\nlet t = std::time::SystemTime::now();\n\
             let s = \"// not a comment\"; let v = std::env::var(\"X\");\nlet n = chrono::Utc::now();\n",
            &[1, 3, 4, 5],
        );
    }

    #[test]
    fn character_literals_do_not_hide_comments() {
        check(
            "no IO",
            "if c == '\"' { x } // std::fs in a comment\nlet q = '\\''; // std::env too\nlet p = '/'; std::process::exit(1);\n",
            &[3],
        );
    }

    #[test]
    fn bare_rounding_is_found_and_named_strategies_pass() {
        check(
            "every rounding",
            "x.round_dp(2)\nx.round_dp_with_strategy(2, HALF_UP)\nx.round()\nround_half_up(x, 2)\n",
            &[1, 3],
        );
    }

    #[test]
    fn floats_and_hash_collections_are_whole_words() {
        check(
            "no floating",
            "let x: f64 = 1.0;\nlet f64_bits = 3;\nfn g(_: f32) {}\n",
            &[1, 3],
        );
        check(
            "no hash",
            "use std::collections::HashMap;\nstruct HashMapLike;\nBTreeMap::new()\n\
             index: HashMap<Asset, u32>, // tidy:hash-ok: lookup-only, never iterated\n\
             let seen: HashSet<u32> = HashSet::new();\n",
            &[5],
        );
    }

    #[test]
    fn ai_tools_money_tokens_are_found() {
        check(
            "no decimals",
            "use rust_decimal::Decimal;\nstruct DecimalString;\nlet a = dec!(1);\nrows.sort_by(|a, b| a.cmp(b));\n\
             page_count.checked_add(1)\nrows.sort();\nlet t = fee_total.checked_add(x);\n\
             let sorted_names = names;\nlet n = total_chars.saturating_sub(budget);\n",
            &[1, 1, 3, 4, 6, 7],
        );
    }

    #[test]
    fn operator_impls_on_money_types_are_found() {
        let text = "impl Add for Money {}\nimpl std::ops::Sub<Money> for Money {}\n\
                    impl<'a> AddAssign<&'a Quantity> for Quantity {}\nimpl core::iter::Sum for crate::num::Price {}\n\
                    impl Display for Money {}\nimpl Add for Instant {}\n// impl Mul for Money\n";
        let lines: Vec<String> = operator_impls("f.rs", text)
            .iter()
            .map(|violation| violation.split(": ").next().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(lines, ["f.rs:1", "f.rs:2", "f.rs:3", "f.rs:4"]);
    }

    #[test]
    fn root_lints_are_found_in_lists_and_multi_line_attributes() {
        let text = "//! Doc.\n#![deny(\n    clippy::unwrap_used,\n    clippy::float_arithmetic\n)]\n\
                    #![warn(missing_docs)]\n// #![deny(clippy::panic)]\n";
        assert!(sets_lint(text, "clippy::float_arithmetic", HARD_LEVELS));
        assert!(sets_lint(text, "clippy::unwrap_used", HARD_LEVELS));
        assert!(!sets_lint(text, "missing_docs", HARD_LEVELS));
        assert!(sets_lint(text, "missing_docs", &["warn"]));
        assert!(!sets_lint(text, "clippy::panic", HARD_LEVELS));
    }
}

/// The crates that may open network connections. Nothing else does: `demo`, the reports, the
/// tools and the MCP server stay offline. `providers` serves the explicit sync commands;
/// `advisor` talks to the model server the user named for `cartera ask` and `chat`.
const NETWORK_CRATES: &[&str] = &["providers", "advisor"];
/// Files outside those crates that may name the HTTP client: the cli's sync commands.
const NETWORK_FILES: &[&str] = &["crates/cli/src/sync.rs"];

#[test]
fn only_the_sync_adapter_opens_connections() {
    let needles = [Word("ureq"), Text("TcpStream::connect"), Text("UdpSocket")];
    let mut violations = Vec::new();
    let crates_dir = root().join("crates");
    let Ok(entries) = std::fs::read_dir(&crates_dir) else {
        panic!("cannot list {}", crates_dir.display());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if NETWORK_CRATES.contains(&name.as_str()) {
            continue;
        }
        for file in crate_files(&name, "src") {
            let shown = relative(&file);
            if NETWORK_FILES.contains(&shown.as_str()) {
                continue;
            }
            for (index, line) in read(&file).lines().enumerate() {
                let code = code_part(line);
                for needle in needles {
                    if needle.found_in(code) {
                        violations.push(format!(
                            "{shown}:{}: `{}` (only `providers` and the cli's sync module open connections)",
                            index + 1,
                            needle.shown()
                        ));
                    }
                }
            }
        }
        let manifest = read(&entry.path().join("Cargo.toml"));
        if manifest.lines().any(|l| l.trim_start().starts_with("ureq")) {
            violations.push(format!("crates/{name}/Cargo.toml: depends on ureq"));
        }
    }
    assert_clean("network access outside the sync adapter", &violations);
}
