//! Test layout: one integration binary per crate, unit tests in sibling `tests.rs` files, and no
//! test that is skipped or that passes by panicking.

use std::path::Path;

use crate::workspace::{
    assert_clean, code_part, dir_name, packages, read, relative, root, rust_files,
};

/// Attributes that hide a test's real status. Spelled in two halves so this file does not
/// match itself.
const FORBIDDEN_TEST_ATTRIBUTES: &[(&str, &str)] = &[
    (
        concat!("#[", "ignore"),
        "assert the current behaviour with a FIXME comment instead of skipping the test",
    ),
    (
        concat!("#[", "should_panic"),
        "assert on the Err value; nothing in cartera panics on purpose",
    ),
];

/// The integration test binaries cargo would build from a `tests/` folder: top-level `.rs`
/// files and sub-folders with a `main.rs`.
pub(crate) fn integration_binaries(tests_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(tests_dir) else {
        return Vec::new();
    };
    let mut binaries: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension().is_some_and(|extension| extension == "rs") && path.is_file()
                || path.join("main.rs").is_file()
        })
        .map(|path| relative(&path))
        .collect();
    binaries.sort();
    binaries
}

/// Files allowed to keep an inline `mod tests {` for now. A ratchet: the list only shrinks, and
/// a row whose file no longer needs it fails the check, so it gets deleted.
const INLINE_TEST_MODULE_EXCEPTIONS: &[&str] = &[];

/// Forbidden test attributes in one file.
pub(crate) fn test_attribute_problems(file: &str, text: &str) -> Vec<String> {
    let mut violations = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = code_part(line);
        for (attribute, instead) in FORBIDDEN_TEST_ATTRIBUTES {
            if code.contains(attribute) {
                violations.push(format!("{file}:{}: `{attribute}]`: {instead}", index + 1));
            }
        }
    }
    violations
}

/// Inline `mod tests {` blocks in one library source file.
pub(crate) fn inline_test_modules(file: &str, text: &str) -> Vec<String> {
    let mut violations = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = code_part(line);
        let inline = code.match_indices("mod tests").any(|(start, found)| {
            let after = code[start + found.len()..].trim_start();
            let before = code[..start].chars().next_back();
            after.starts_with('{') && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if inline {
            violations.push(format!(
                "{file}:{}: inline `mod tests {{`: write `#[cfg(test)] mod tests;` with a sibling \
                 tests.rs, so test edits do not rebuild the library",
                index + 1
            ));
        }
    }
    violations
}

#[test]
fn each_crate_has_at_most_one_integration_test_binary() {
    let mut violations = Vec::new();
    for package in packages() {
        let binaries = integration_binaries(&package.dir.join("tests"));
        if binaries.len() > 1 {
            violations.push(format!(
                "{}: {} integration binaries [{}]; use one tests/it/main.rs with modules",
                package.name,
                binaries.len(),
                binaries.join(", ")
            ));
        }
        let targets = package
            .targets
            .iter()
            .filter(|target| target.kinds.iter().any(|kind| kind == "test"))
            .count();
        if targets > 1 {
            violations.push(format!(
                "{}/Cargo.toml: {targets} [[test]] targets; one integration binary per crate",
                relative(&package.dir)
            ));
        }
    }
    assert_clean(
        "one integration test binary per crate (link time on two cores)",
        &violations,
    );
}

#[test]
fn tests_are_neither_skipped_nor_passing_by_panic() {
    let mut violations = Vec::new();
    for folder in ["crates", "xtask"] {
        for file in rust_files(&root().join(folder)) {
            violations.extend(test_attribute_problems(&relative(&file), &read(&file)));
        }
    }
    assert_clean(
        "no skipped tests and no tests that pass by panicking",
        &violations,
    );
}

#[test]
fn unit_tests_live_in_sibling_files() {
    let mut violations = Vec::new();
    let mut exceptions_used = Vec::new();
    for package in packages() {
        for file in rust_files(&package.dir.join("src")) {
            let name = relative(&file);
            let found = inline_test_modules(&name, &read(&file));
            if INLINE_TEST_MODULE_EXCEPTIONS.contains(&name.as_str()) {
                if !found.is_empty() {
                    exceptions_used.push(name);
                }
            } else {
                violations.extend(found);
            }
        }
    }
    for exception in INLINE_TEST_MODULE_EXCEPTIONS {
        if !exceptions_used.iter().any(|used| used == exception) {
            violations.push(format!(
                "{exception}: listed in INLINE_TEST_MODULE_EXCEPTIONS but has no inline test \
                 module any more; delete the row"
            ));
        }
    }
    assert_clean(
        "unit tests: `#[cfg(test)] mod tests;` plus a sibling tests.rs",
        &violations,
    );
}

mod checker {
    //! The layout checks must catch what they claim to catch.

    use super::{inline_test_modules, integration_binaries, test_attribute_problems};
    use crate::workspace::{dir_name, root};

    fn locations(violations: &[String]) -> Vec<String> {
        violations
            .iter()
            .map(|violation| violation.split(": ").next().unwrap_or_default().to_owned())
            .collect()
    }

    #[test]
    fn skipping_and_panicking_attributes_are_found() {
        let text = format!(
            "#[test]\n{}]\nfn a() {{}}\n{} = \"x\")]\n// {}] in a comment is fine\n",
            concat!("#[", "ignore"),
            concat!("#[", "should_panic(expected"),
            concat!("#[", "ignore"),
        );
        assert_eq!(
            locations(&test_attribute_problems("f.rs", &text)),
            ["f.rs:2", "f.rs:4"]
        );
    }

    #[test]
    fn inline_test_modules_are_found() {
        let text =
            "#[cfg(test)]\nmod tests;\nmod tests {\n#[cfg(test)] mod tests{}\nmod tests_util;\n";
        assert_eq!(
            locations(&inline_test_modules("f.rs", text)),
            ["f.rs:3", "f.rs:4"]
        );
    }

    #[test]
    fn xtask_itself_has_exactly_one_integration_binary() {
        let binaries = integration_binaries(&root().join("xtask/tests"));
        assert_eq!(binaries, ["xtask/tests/it"]);
        assert_eq!(dir_name(&root().join("xtask/tests/it")), "it");
    }
}

#[test]
fn crates_folder_holds_only_crates() {
    // A stray folder would escape every table-driven check above.
    let violations: Vec<String> = crate::workspace::crate_dirs()
        .iter()
        .filter(|dir| {
            !packages()
                .iter()
                .any(|package| package.name == dir_name(dir))
        })
        .map(|dir| format!("{}: not a workspace package", relative(dir)))
        .collect();
    assert_clean("every crates/* folder is a workspace member", &violations);
}
