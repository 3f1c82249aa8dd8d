//! Documentation that must keep up with the code: crate-root doc paragraphs, the ARCHITECTURE.md
//! codemap, and the README's test command being the one CI runs.

use crate::crate_map::CRATE_MAP;
use crate::workspace::{assert_clean, crate_dirs, dir_name, packages, read, relative, root};

/// Target kinds whose root file must open with a `//!` paragraph.
const DOCUMENTED_TARGET_KINDS: &[&str] = &["lib", "bin", "proc-macro"];

/// Whether a crate root opens with a `//!` paragraph (a line of text, not an empty `//!`).
pub(crate) fn opens_with_doc_paragraph(text: &str) -> bool {
    text.lines()
        .find(|line| !line.trim().is_empty())
        .and_then(|line| line.trim_start().strip_prefix("//!"))
        .is_some_and(|rest| !rest.trim().is_empty())
}

/// The fenced block that follows the `## Quick start` heading of the README, line by line.
pub(crate) fn quick_start_commands(readme: &str) -> Vec<String> {
    let mut lines = readme
        .lines()
        .skip_while(|line| !line.trim().eq_ignore_ascii_case("## quick start"))
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .skip_while(|line| !line.starts_with("```"))
        .skip(1);
    let mut commands = Vec::new();
    for line in lines.by_ref() {
        if line.starts_with("```") {
            break;
        }
        if !line.trim().is_empty() {
            commands.push(line.trim().to_owned());
        }
    }
    commands
}

#[test]
fn crate_roots_open_with_a_doc_paragraph() {
    let mut violations = Vec::new();
    for package in packages() {
        for target in &package.targets {
            let documented = target
                .kinds
                .iter()
                .any(|kind| DOCUMENTED_TARGET_KINDS.contains(&kind.as_str()));
            if documented && !opens_with_doc_paragraph(&read(&target.src_path)) {
                violations.push(format!(
                    "{}:1: no opening `//!` paragraph",
                    relative(&target.src_path)
                ));
            }
        }
    }
    assert_clean(
        "every lib.rs and main.rs opens with a `//!` paragraph saying what the crate is for",
        &violations,
    );
}

#[test]
fn architecture_md_names_every_crate() {
    let architecture = read(&root().join("ARCHITECTURE.md"));
    let mut names: Vec<String> = crate_dirs().iter().map(|dir| dir_name(dir)).collect();
    names.extend(CRATE_MAP.iter().map(|(name, _)| (*name).to_owned()));
    names.sort();
    names.dedup();
    let violations: Vec<String> = names
        .iter()
        .filter(|name| !architecture.contains(&format!("`{name}`")))
        .map(|name| format!("ARCHITECTURE.md: `{name}` is never mentioned"))
        .collect();
    assert_clean(
        "ARCHITECTURE.md's codemap names every crates/* folder and every crate of the crate map \
         (in backticks)",
        &violations,
    );
}

#[test]
fn ci_runs_the_readme_test_command_verbatim() {
    let commands = quick_start_commands(&read(&root().join("README.md")));
    let ci = read(&root().join(".ci/run"));
    let mut violations = Vec::new();
    let tests: Vec<&String> = commands
        .iter()
        .filter(|command| command.starts_with("cargo test"))
        .collect();
    if commands.len() != 2 || tests.len() != 1 {
        violations.push(format!(
            "README.md: the Quick start block must hold exactly two commands, one of them \
             `cargo test …`; found {commands:?}"
        ));
    }
    for command in tests {
        if !ci.lines().any(|line| line.trim() == command.as_str()) {
            violations.push(format!(
                ".ci/run: never runs `{command}` as a line of its own"
            ));
        }
    }
    assert_clean("the README's test command is the one CI runs", &violations);
}

mod checker {
    //! The documentation checks must catch what they claim to catch.

    use super::{opens_with_doc_paragraph, quick_start_commands};

    #[test]
    fn doc_paragraph_detection() {
        let check = |text: &str, expected: bool| {
            assert_eq!(opens_with_doc_paragraph(text), expected, "{text:?}");
        };
        check("//! The engine.\n\npub mod a;\n", true);
        check("\n//! The engine.\n", true);
        check("//!\n//! The engine.\n", false);
        check("#![deny(warnings)]\n//! Late.\n", false);
        check("/// Item doc.\npub fn f() {}\n", false);
        check("", false);
    }

    #[test]
    fn quick_start_block_is_read() {
        let readme = "# x\n\n## Quick start\n\nText.\n\n```sh\ncargo run -p cli -- demo\n\ncargo test\n```\n\n\
                      ```sh\nignored\n```\n## Next\n";
        assert_eq!(
            quick_start_commands(readme),
            ["cargo run -p cli -- demo", "cargo test"]
        );
        assert!(quick_start_commands("# no section\n```\ncargo test\n```\n").is_empty());
    }
}
