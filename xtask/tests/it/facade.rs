//! The library facade (`crates/cartera`): its public API crosses only `shared-types` DTOs, its own
//! types, its error enum, `std` and `serde_json` values; the list of its public items is a
//! snapshot; its examples run under `cargo test`; the README shows the `embed` example verbatim.
//!
//! The public API is read from the source, not from rustdoc JSON (unstable): every `pub` item
//! of the crate's files (the `unreachable_pub` lint keeps `pub` meaning "reachable"), the public
//! fields of its structs, the variants of its enums, the methods of its traits and the headers
//! of the trait impls of its public types, each as one normalised line.

use std::collections::BTreeSet;

use crate::workspace::{assert_clean, code_part, read, relative, root, rust_files};

/// The facade's folder, relative to the workspace root.
const FACADE: &str = "crates/cartera";

/// Crates and types that must never appear in the facade's public API.
const FORBIDDEN: &[&str] = &[
    "rust_decimal",
    "Decimal",
    "rusqlite",
    "Connection",
    "core_domain",
    "use_cases",
    "ledger_sqlite",
    "importers",
    "ai_tools",
    "mcp",
    "providers",
    "advisor",
];

/// Type names of `std` (and `serde_json::Value`, the tools' JSON) a signature may use besides
/// the facade's own types and its `shared-types` re-exports.
const STD_TYPES: &[&str] = &[
    "Self",
    "String",
    "Vec",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Box",
    "Arc",
    "Path",
    "PathBuf",
    "RangeInclusive",
    "BufRead",
    "Read",
    "Write",
    "Send",
    "Sync",
    "Into",
    "AsRef",
    "From",
    "Default",
    "Debug",
    "Formatter",
    "Clone",
    "Copy",
    "PartialEq",
    "Eq",
    "Value",
];

/// One public item: where it is declared and its normalised text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Item {
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) text: String,
}

/// A `{ … }` the scan is inside of.
#[derive(Clone, Debug)]
enum Frame {
    /// `pub struct NAME {`: `pub` fields are public.
    Struct(String),
    /// `pub enum NAME {`: every variant is public.
    Enum(String),
    /// `pub trait NAME {`: every method is public.
    Trait(String),
    /// `impl NAME {`: `pub` methods are public.
    Inherent(String),
    /// Any other block (function bodies, trait impls, private items).
    Other,
}

/// The line without string and character literals (their braces do not count).
fn without_literals(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            while let Some(inner) = chars.next() {
                match inner {
                    '\\' => {
                        chars.next();
                    }
                    '"' => break,
                    _ => {}
                }
            }
            out.push_str("\"\"");
        } else if c == '\'' && chars.clone().nth(1) == Some('\'') {
            // A one-character literal such as '{'.
            chars.next();
            chars.next();
            out.push_str("' '");
        } else {
            out.push(c);
        }
    }
    out
}

fn collapse(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed
        .replace("( ", "(")
        .replace(" )", ")")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(",)", ")")
        .replace(", }", " }")
        .replace(",>", ">")
}

/// The name after `keyword ` in `text` (`pub struct Ledger {` → `Ledger`).
fn name_after<'a>(text: &'a str, keyword: &str) -> Option<&'a str> {
    let rest = text.split(keyword).nth(1)?;
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end]).filter(|name| !name.is_empty())
}

/// The public items of one file of the facade.
pub(crate) fn public_items(file: &str, text: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    // A declaration spanning lines: its first line number and the text so far.
    let mut pending: Option<(usize, String, Option<String>)> = None;
    for (index, raw) in text.lines().enumerate() {
        let code = without_literals(code_part(raw));
        let trimmed = code.trim();
        if trimmed.starts_with("#[") || trimmed.starts_with("#![") {
            continue;
        }
        if let Some((line, mut so_far, owner)) = pending.take() {
            so_far.push(' ');
            so_far.push_str(trimmed);
            if let Some(done) = finished(&so_far) {
                items.push(item(file, line, owner.as_deref(), &done));
            } else {
                pending = Some((line, so_far, owner));
            }
        } else {
            let owner = match frames.last() {
                None => Some(None),
                Some(Frame::Struct(name) | Frame::Inherent(name))
                    if trimmed.starts_with("pub ") =>
                {
                    Some(Some(name.clone()))
                }
                Some(Frame::Enum(name)) if frames_depth_is_item(trimmed) => {
                    Some(Some(name.clone()))
                }
                Some(Frame::Trait(name)) if trimmed.starts_with("fn ") => Some(Some(name.clone())),
                _ => None,
            };
            // `mod` lines too: a `pub use` may re-export only from the facade's own modules.
            let public_top = frames.is_empty()
                && (trimmed.starts_with("pub ")
                    || trimmed.starts_with("mod ")
                    || is_public_trait_impl(trimmed));
            if let Some(owner) = owner.filter(|_| public_top || !frames.is_empty()) {
                if let Some(done) = finished(trimmed) {
                    items.push(item(file, index + 1, owner.as_deref(), &done));
                } else {
                    pending = Some((index + 1, trimmed.to_owned(), owner));
                }
            }
        }
        for c in code.chars() {
            match c {
                '{' => frames.push(frame_opened_by(trimmed, frames.last())),
                '}' => {
                    frames.pop();
                }
                _ => {}
            }
        }
    }
    items
}

/// Whether an enum body line starts a variant (not a field of a struct variant: those are
/// read with their variant).
fn frames_depth_is_item(trimmed: &str) -> bool {
    trimmed
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase())
}

/// `impl Trait for Type` at the top level: public when `Type` is (checked later).
fn is_public_trait_impl(trimmed: &str) -> bool {
    trimmed.starts_with("impl") && trimmed.contains(" for ")
}

/// The declaration text once it is complete: cut at its body, its `;` or its `,`.
fn finished(text: &str) -> Option<String> {
    if let Some(open) = text.find('{') {
        let head = &text[..open];
        // `pub use a::{b, c};` and struct variants are read whole.
        if head.trim_start().starts_with("pub use")
            || head
                .trim_start()
                .starts_with(|c: char| c.is_ascii_uppercase())
        {
            let depth = text.matches('{').count() - text.matches('}').count();
            return (depth == 0).then(|| collapse(text.trim_end_matches([';', ','])));
        }
        return Some(collapse(head));
    }
    let trimmed = text.trim_end();
    let open = text.matches('(').count() > text.matches(')').count();
    if !open && (trimmed.ends_with(';') || trimmed.ends_with(',')) {
        return Some(collapse(trimmed.trim_end_matches([';', ','])));
    }
    None
}

fn item(file: &str, line: usize, owner: Option<&str>, text: &str) -> Item {
    let text = match owner {
        Some(owner) => format!("{owner}: {text}"),
        None => text.to_owned(),
    };
    Item {
        file: file.to_owned(),
        line,
        text,
    }
}

fn frame_opened_by(trimmed: &str, parent: Option<&Frame>) -> Frame {
    if parent.is_some() {
        return Frame::Other;
    }
    let name = |keyword| name_after(trimmed, keyword).map(str::to_owned);
    if trimmed.starts_with("pub struct ") {
        name("struct ").map_or(Frame::Other, Frame::Struct)
    } else if trimmed.starts_with("pub enum ") {
        name("enum ").map_or(Frame::Other, Frame::Enum)
    } else if trimmed.starts_with("pub trait ") {
        name("trait ").map_or(Frame::Other, Frame::Trait)
    } else if trimmed.starts_with("impl") && !trimmed.contains(" for ") {
        let header = trimmed.trim_end_matches('{').trim();
        let last = header.rsplit([' ', '>']).next().unwrap_or_default();
        Frame::Inherent(last.to_owned())
    } else {
        Frame::Other
    }
}

/// The public items of the facade, in file then line order.
pub(crate) fn facade_items() -> Vec<Item> {
    let source = root().join(FACADE).join("src");
    let mut items = Vec::new();
    for path in rust_files(&source) {
        items.extend(public_items(&relative(&path), &read(&path)));
    }
    items
}

/// Identifiers in `text`: `(word, followed by ::)`.
fn identifiers(text: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        let tail = &rest[start..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        out.push((&tail[..end], tail[end..].starts_with("::")));
        rest = &tail[end..];
    }
    out
}

/// The names the facade declares: its public types and the variants of its enums.
fn own_names(items: &[Item]) -> BTreeSet<&str> {
    let mut own = BTreeSet::new();
    for item in items {
        for keyword in ["struct ", "enum ", "trait ", "type "] {
            if item.text.starts_with(&format!("pub {keyword}")) {
                own.extend(name_after(&item.text, keyword));
            }
        }
        // `Owner: Variant …`: the variants of the facade's enums.
        if let Some((_, member)) = item.text.split_once(": ")
            && member.starts_with(|c: char| c.is_ascii_uppercase())
        {
            own.extend(identifiers(member).first().map(|(word, _)| *word));
        }
    }
    own
}

/// Whether an item is public API: everything read except the trait impls of private types.
fn is_public(item: &Item, own: &BTreeSet<&str>) -> bool {
    !item.text.starts_with("impl")
        || name_after(&item.text, " for ").is_some_and(|name| own.contains(name))
}

/// The violations of the boundary in `items`.
pub(crate) fn boundary_violations(items: &[Item]) -> Vec<String> {
    let own = own_names(items);
    let mut modules: BTreeSet<&str> = BTreeSet::new();
    let mut reexported: BTreeSet<&str> = BTreeSet::new();
    for item in items {
        if item.text.starts_with("pub use shared_types::") {
            reexported.extend(
                identifiers(&item.text)
                    .into_iter()
                    .filter(|(_, path)| !path)
                    .map(|(word, _)| word),
            );
        }
    }
    for item in items.iter().filter(|item| item.file.ends_with("lib.rs")) {
        if let Some(rest) = item.text.strip_prefix("mod ") {
            modules.insert(rest.trim_end_matches(';'));
        }
    }
    let mut violations = Vec::new();
    let mut report = |item: &Item, why: String| {
        violations.push(format!(
            "{}:{}: `{}`: {why}",
            item.file, item.line, item.text
        ));
    };
    for item in items.iter().filter(|item| is_public(item, &own)) {
        if let Some(path) = item.text.strip_prefix("pub use ") {
            let first = path.split("::").next().unwrap_or_default();
            if first != "shared_types" && first != "crate" && !modules.contains(first) {
                report(
                    item,
                    format!("re-exports from `{first}`: only shared_types and the facade's own"),
                );
            }
            // The re-exported items are checked where they are declared.
            continue;
        }
        for (word, path) in identifiers(&item.text) {
            if FORBIDDEN.contains(&word) {
                report(item, format!("names `{word}`"));
            } else if !path
                && word.len() > 1
                && word.starts_with(|c: char| c.is_ascii_uppercase())
                && !own.contains(word)
                && !reexported.contains(word)
                && !STD_TYPES.contains(&word)
            {
                report(
                    item,
                    format!(
                        "`{word}` is neither the facade's own type, a shared-types re-export nor \
                         an allowed std type"
                    ),
                );
            }
        }
    }
    violations
}

#[test]
fn the_facade_exposes_only_dtos_its_own_types_and_its_error() {
    let items = facade_items();
    assert!(
        items
            .iter()
            .any(|item| item.text.starts_with("pub struct Ledger")),
        "no public items read from {FACADE}/src: is the scan broken?"
    );
    assert_clean(
        "the public API of the cartera facade names only shared-types DTOs, its own types, its \
         error enum, std and serde_json::Value (no rust_decimal, rusqlite or internal crate types)",
        &boundary_violations(&items),
    );
}

#[test]
fn the_facade_public_api_is_reviewed() {
    let items = facade_items();
    let own = own_names(&items);
    let list: Vec<String> = items
        .iter()
        .filter(|item| is_public(item, &own) && !item.text.starts_with("mod "))
        .map(|item| {
            let file = item.file.rsplit('/').next().unwrap_or_default().to_owned();
            format!("{file}: {}", item.text)
        })
        .collect();
    insta::assert_snapshot!("cartera_public_api", list.join("\n"));
}

#[test]
fn the_facade_examples_run_under_cargo_test() {
    let manifest = read(&root().join(FACADE).join("Cargo.toml"));
    let mut violations = Vec::new();
    let sections: Vec<&str> = manifest.split("[[example]]").skip(1).collect();
    for path in rust_files(&root().join(FACADE).join("examples")) {
        let name = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        let section = sections.iter().find(|section| {
            section
                .lines()
                .any(|line| line.trim() == format!("name = \"{name}\""))
        });
        let runs = section.is_some_and(|section| {
            let section = section.split("\n[").next().unwrap_or_default();
            section.lines().any(|line| line.trim() == "test = true")
                && section.lines().any(|line| line.trim() == "harness = false")
        });
        if !runs {
            violations.push(format!(
                "{FACADE}/Cargo.toml: example `{name}` needs an [[example]] entry with `test = \
                 true` and `harness = false`, so `cargo test --workspace` (CI) runs it"
            ));
        }
    }
    assert_clean(
        "the facade's examples run in CI through cargo test",
        &violations,
    );
}

/// The first ```rust block of the README's "Use it as a library" section.
pub(crate) fn library_block(readme: &str) -> Option<String> {
    let mut lines = readme
        .lines()
        .skip_while(|line| line.trim() != "## Use it as a library")
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .skip_while(|line| line.trim() != "```rust")
        .skip(1);
    let mut block = String::new();
    for line in lines.by_ref() {
        if line.starts_with("```") {
            return Some(block);
        }
        block.push_str(line);
        block.push('\n');
    }
    None
}

#[test]
fn the_readme_shows_the_embed_example_verbatim() {
    let readme = read(&root().join("README.md"));
    let example = read(&root().join(FACADE).join("examples/embed.rs"));
    let violations = match library_block(&readme) {
        None => {
            vec!["README.md: no ```rust block in a `## Use it as a library` section".to_owned()]
        }
        Some(block) if block != example => vec![format!(
            "README.md: the `Use it as a library` block differs from {FACADE}/examples/embed.rs; \
             copy the example into it"
        )],
        Some(_) => Vec::new(),
    };
    assert_clean(
        "the README's library example is the embed example",
        &violations,
    );
}

mod checker {
    //! The facade checks must catch what they claim to catch.

    use super::{Item, boundary_violations, library_block, public_items};

    fn texts(items: &[Item]) -> Vec<&str> {
        items.iter().map(|item| item.text.as_str()).collect()
    }

    const SOURCE: &str = r#"
//! Doc.
mod ledger;
pub use ledger::Ledger;
pub use shared_types::dto::{TaxReport, TxPage};
use use_cases::ports::Clock;

/// A thing.
#[derive(Debug)]
pub struct Thing {
    /// Public.
    pub name: String,
    hidden: u8,
}

pub enum Error {
    /// Missing.
    Missing { path: PathBuf },
    Other,
}

pub trait Source: Send {
    fn bytes(&self) -> Vec<u8>;
}

impl Thing {
    /// Builds one.
    pub fn new(
        name: &str,
        clock: &dyn Clock,
    ) -> Result<Self, Error> {
        let text = format!("{name} {{");
        Ok(Self { name: text, hidden: 0 })
    }

    fn private(&self) {}
}

impl From<use_cases::PortError> for Error {
    fn from(error: use_cases::PortError) -> Self { Error::Other }
}

impl use_cases::ports::Clock for Hidden {}
"#;

    #[test]
    fn public_items_are_read_with_their_owner() {
        let items = public_items("lib.rs", SOURCE);
        assert_eq!(
            texts(&items),
            [
                "mod ledger",
                "pub use ledger::Ledger",
                "pub use shared_types::dto::{TaxReport, TxPage}",
                "pub struct Thing",
                "Thing: pub name: String",
                "pub enum Error",
                "Error: Missing { path: PathBuf }",
                "Error: Other",
                "pub trait Source: Send",
                "Source: fn bytes(&self) -> Vec<u8>",
                "Thing: pub fn new(name: &str, clock: &dyn Clock) -> Result<Self, Error>",
                "impl From<use_cases::PortError> for Error",
                "impl use_cases::ports::Clock for Hidden",
            ]
        );
    }

    #[test]
    fn an_internal_type_in_a_signature_or_an_impl_is_reported() {
        let violations = boundary_violations(&public_items("lib.rs", SOURCE));
        let shown: Vec<&str> = violations
            .iter()
            .map(|v| v.split(": `").nth(1).unwrap_or_default())
            .collect();
        assert_eq!(violations.len(), 3, "{violations:#?}");
        assert!(shown[0].starts_with("Thing: pub fn new"), "{violations:#?}");
        assert!(
            violations[0].ends_with("an allowed std type"),
            "{violations:#?}"
        );
        assert!(
            violations[1].contains("names `use_cases`"),
            "{violations:#?}"
        );
        assert!(
            violations[2].contains("`PortError` is neither"),
            "{violations:#?}"
        );
    }

    #[test]
    fn a_foreign_reexport_and_a_decimal_are_reported() {
        let source = "mod x;\npub use rust_decimal::Decimal;\npub fn total() -> Decimal {\n}\n";
        let violations = boundary_violations(&public_items("lib.rs", source));
        assert_eq!(violations.len(), 2, "{violations:#?}");
        assert!(violations[0].contains("re-exports from `rust_decimal`"));
        assert!(violations[1].contains("`pub fn total() -> Decimal`: names `Decimal`"));
    }

    #[test]
    fn the_library_block_is_read() {
        let readme =
            "## Use it as a library\n\n```toml\nx\n```\n\n```rust\nfn main() {}\n```\n## Next\n";
        assert_eq!(library_block(readme).as_deref(), Some("fn main() {}\n"));
        assert_eq!(
            library_block("## Other\n```rust\nfn main() {}\n```\n"),
            None
        );
    }
}
