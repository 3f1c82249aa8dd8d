//! Manifest shape: a virtual root, folder name = package name, workspace tables for everything.
//!
//! Manifests are read line by line: cartera's manifests are plain, and a line parser keeps
//! xtask free of a TOML dependency.

use crate::workspace::{assert_clean, crate_dirs, dir_name, packages, read, relative, root};

/// `[package]` keys every member inherits from `[workspace.package]`.
const INHERITED_PACKAGE_KEYS: &[&str] =
    &["version", "edition", "rust-version", "license", "publish"];

/// Keys that pin a dependency inline instead of inheriting it from `[workspace.dependencies]`.
const INLINE_SOURCE_KEYS: &[&str] = &["version", "path", "git", "branch", "tag", "rev", "registry"];

/// One `key = value` line of a manifest with the section it sits in.
#[derive(Debug)]
struct Entry {
    line: usize,
    section: String,
    key: String,
    value: String,
}

/// The entries of a manifest, in order. Inline tables spread over several lines are joined.
fn entries(text: &str) -> (Vec<String>, Vec<Entry>) {
    let mut sections = Vec::new();
    let mut entries = Vec::new();
    let mut section = String::new();
    let mut lines = text.lines().enumerate();
    while let Some((index, raw)) = lines.next() {
        let line = strip_toml_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('[') {
            line.trim_matches(['[', ']'])
                .trim()
                .clone_into(&mut section);
            sections.push(section.clone());
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let mut value = value.trim().to_owned();
        while value.matches('{').count() > value.matches('}').count() {
            let Some((_, more)) = lines.next() else { break };
            value.push(' ');
            value.push_str(strip_toml_comment(more).trim());
        }
        entries.push(Entry {
            line: index + 1,
            section: section.clone(),
            key: key.trim().to_owned(),
            value,
        });
    }
    (sections, entries)
}

fn strip_toml_comment(line: &str) -> &str {
    let mut in_string = false;
    for (index, character) in line.char_indices() {
        match character {
            '"' => in_string = !in_string,
            '#' if !in_string => return &line[..index],
            _ => {}
        }
    }
    line
}

/// A manifest section that declares dependencies.
enum DependencySection<'a> {
    /// `[dependencies]`, `[dev-dependencies]`, `[target.'cfg(unix)'.build-dependencies]`, …
    List,
    /// `[dependencies.name]`: one dependency as a table.
    Table(&'a str),
}

/// Whether a section declares dependencies, and how.
fn dependency_section(section: &str) -> Option<DependencySection<'_>> {
    const KINDS: &[&str] = &["dependencies", "dev-dependencies", "build-dependencies"];
    let unprefixed = section.strip_prefix("target.").map_or(section, |rest| {
        // Skip the target expression, which may itself contain dots.
        rest.rsplit_once("'.")
            .or_else(|| rest.split_once('.'))
            .map_or(rest, |(_, tail)| tail)
    });
    for kind in KINDS {
        if unprefixed == *kind {
            return Some(DependencySection::List);
        }
        if let Some(name) = unprefixed
            .strip_prefix(kind)
            .and_then(|rest| rest.strip_prefix('.'))
        {
            return Some(DependencySection::Table(name));
        }
    }
    None
}

/// Dependencies of one member manifest that do not come from `[workspace.dependencies]`.
pub(crate) fn inline_dependencies(file: &str, text: &str) -> Vec<String> {
    let (_, entries) = entries(text);
    let mut violations = Vec::new();
    let mut tables: Vec<(String, usize, bool, bool)> = Vec::new();
    let package = entries
        .iter()
        .find(|entry| entry.section == "package" && entry.key == "name")
        .map(|entry| entry.value.trim_matches('"'));
    for entry in &entries {
        match dependency_section(&entry.section) {
            None => {}
            Some(DependencySection::List) if is_self_test_dependency(entry, package) => {}
            Some(DependencySection::List) => {
                let inherits = entry.key.ends_with(".workspace") && entry.value == "true"
                    || entry.value.starts_with('{')
                        && inline_table_has(&entry.value, "workspace", Some("true"));
                let pins = entry.value.starts_with('{')
                    && INLINE_SOURCE_KEYS
                        .iter()
                        .any(|key| inline_table_has(&entry.value, key, None));
                if !inherits || pins {
                    violations.push(format!(
                        "{file}:{}: `{} = {}`: use `{}.workspace = true` and declare it in \
                         [workspace.dependencies]",
                        entry.line,
                        entry.key,
                        entry.value,
                        entry.key.trim_end_matches(".workspace")
                    ));
                }
            }
            Some(DependencySection::Table(name)) => {
                let key = format!("{}#{name}", entry.section);
                let index = tables
                    .iter()
                    .position(|(table, ..)| *table == key)
                    .unwrap_or_else(|| {
                        tables.push((key, entry.line, false, false));
                        tables.len() - 1
                    });
                if entry.key == "workspace" && entry.value == "true" {
                    tables[index].2 = true;
                }
                if INLINE_SOURCE_KEYS.contains(&entry.key.as_str()) {
                    tables[index].3 = true;
                }
            }
        }
    }
    for (table, line, inherits, pins) in tables {
        if !inherits || pins {
            violations.push(format!(
                "{file}:{line}: [{}]: use `workspace = true` and declare it in \
                 [workspace.dependencies]",
                table.split('#').next().unwrap_or_default()
            ));
        }
    }
    violations
}

/// `name = { path = ".", features = ["testkit"] }` under `[dev-dependencies]` of package `name`:
/// the cargo idiom for switching on a crate's own test-support feature in its tests. It pins
/// nothing, so it is allowed (the workspace form works too).
fn is_self_test_dependency(entry: &Entry, package: Option<&str>) -> bool {
    entry.section.ends_with("dev-dependencies")
        && Some(entry.key.as_str()) == package
        && inline_table_has(&entry.value, "path", Some("\".\""))
        && !["version", "git", "registry"]
            .iter()
            .any(|key| inline_table_has(&entry.value, key, None))
}

/// Whether the inline table `{ a = 1, b = "x" }` has key `key` (with value `value` if given).
fn inline_table_has(table: &str, key: &str, value: Option<&str>) -> bool {
    table
        .trim_matches(['{', '}'])
        .split(',')
        .filter_map(|pair| pair.split_once('='))
        .any(|(found, found_value)| {
            found.trim() == key && value.is_none_or(|value| found_value.trim() == value)
        })
}

/// Problems with the `[package]` and `[lints]` tables of one member manifest.
pub(crate) fn package_table_problems(
    file: &str,
    expected_name: Option<&str>,
    text: &str,
) -> Vec<String> {
    let (sections, entries) = entries(text);
    let mut violations = Vec::new();
    let in_section = |section: &str, key: &str| {
        entries
            .iter()
            .find(|entry| entry.section == section && entry.key == key)
    };
    if let Some(expected) = expected_name {
        let name =
            in_section("package", "name").map(|entry| entry.value.trim_matches('"').to_owned());
        if name.as_deref() != Some(expected) {
            violations.push(format!(
                "{file}: package name is {name:?}; it must be the folder name \"{expected}\""
            ));
        }
    }
    for key in INHERITED_PACKAGE_KEYS {
        let inherited = in_section("package", &format!("{key}.workspace"))
            .is_some_and(|entry| entry.value == "true");
        if !inherited {
            violations.push(format!("{file}: [package] needs `{key}.workspace = true`"));
        }
    }
    let lints = sections.iter().any(|section| section == "lints")
        && in_section("lints", "workspace").is_some_and(|entry| entry.value == "true");
    let local_lints = sections.iter().any(|section| section.starts_with("lints."));
    if !lints || local_lints {
        violations.push(format!(
            "{file}: needs `[lints] workspace = true` and no lint table of its own (crate-level \
             `#![deny(...)]` attributes go in lib.rs)"
        ));
    }
    violations
}

#[test]
fn the_root_manifest_is_virtual() {
    let manifest = root().join("Cargo.toml");
    let (sections, entries) = entries(&read(&manifest));
    let mut violations = Vec::new();
    if sections.iter().any(|section| section == "package") {
        violations.push(format!("{}: has a [package] table", relative(&manifest)));
    }
    let members = entries
        .iter()
        .find(|entry| entry.section == "workspace" && entry.key == "members");
    if !members.is_some_and(|entry| entry.value.contains("\"crates/*\"")) {
        violations.push(format!(
            "{}: workspace members must include \"crates/*\"",
            relative(&manifest)
        ));
    }
    assert_clean(
        "the root Cargo.toml is a virtual manifest over crates/*",
        &violations,
    );
}

#[test]
fn every_crate_folder_is_named_after_its_package() {
    let mut violations = Vec::new();
    for dir in crate_dirs() {
        let manifest = dir.join("Cargo.toml");
        if !manifest.is_file() {
            violations.push(format!(
                "{}: a crates/ folder without Cargo.toml",
                relative(&dir)
            ));
            continue;
        }
        let (_, entries) = entries(&read(&manifest));
        let name = entries
            .iter()
            .find(|entry| entry.section == "package" && entry.key == "name")
            .map(|entry| entry.value.trim_matches('"').to_owned());
        let expected = dir_name(&dir);
        if name.as_deref() != Some(expected.as_str()) {
            violations.push(format!(
                "{}: name = {name:?}, expected \"{expected}\"",
                relative(&manifest)
            ));
        }
    }
    assert_clean(
        "crates/<dir>/Cargo.toml must have name = \"<dir>\"",
        &violations,
    );
}

#[test]
fn members_inherit_package_fields_and_lints() {
    let mut violations = Vec::new();
    for package in packages() {
        let manifest = package.manifest_path();
        violations.extend(package_table_problems(
            &relative(&manifest),
            Some(&package.name),
            &read(&manifest),
        ));
    }
    assert_clean(
        "members inherit [workspace.package] fields and [workspace.lints]",
        &violations,
    );
}

#[test]
fn members_take_every_dependency_from_the_workspace_table() {
    let mut violations = Vec::new();
    for package in packages() {
        let manifest = package.manifest_path();
        violations.extend(inline_dependencies(&relative(&manifest), &read(&manifest)));
    }
    assert_clean(
        "dependencies (external and internal) are declared once in [workspace.dependencies] and \
         used with `.workspace = true`",
        &violations,
    );
}

mod checker {
    //! The manifest checks must catch what they claim to catch.

    use super::{inline_dependencies, package_table_problems};

    fn check_dependencies(manifest: &str, expected: &[&str]) {
        assert_eq!(inline_dependencies("Cargo.toml", manifest), expected);
    }

    #[test]
    fn workspace_dependencies_pass() {
        check_dependencies(
            "[package]\nname = \"core-domain\"\n[dependencies]\nserde.workspace = true\n\
             chrono = { workspace = true, features = [\"x\"] }\n\
             [dev-dependencies]\ncore-domain = { path = \".\", features = [\"testkit\"] }\n\
             \n[dev-dependencies.insta]\nworkspace = true\nfeatures = [\"glob\"]\n\
             [target.'cfg(unix)'.dependencies]\nlibc.workspace = true # why\n",
            &[],
        );
    }

    #[test]
    fn inline_versions_paths_and_tables_are_reported() {
        check_dependencies(
            "[package]\nversion.workspace = true\n[dependencies]\nregex = \"1\"\n\
             core-domain = { path = \"../core-domain\" }\n\
             rand = {\n  workspace = true,\n  version = \"0.9\",\n}\n\
             [build-dependencies.cc]\nversion = \"1\"\n",
            &[
                "Cargo.toml:4: `regex = \"1\"`: use `regex.workspace = true` and declare it in \
                 [workspace.dependencies]",
                "Cargo.toml:5: `core-domain = { path = \"../core-domain\" }`: use \
                 `core-domain.workspace = true` and declare it in [workspace.dependencies]",
                "Cargo.toml:6: `rand = { workspace = true, version = \"0.9\", }`: use \
                 `rand.workspace = true` and declare it in [workspace.dependencies]",
                "Cargo.toml:11: [build-dependencies.cc]: use `workspace = true` and declare it \
                 in [workspace.dependencies]",
            ],
        );
    }

    #[test]
    fn package_fields_name_and_lints_are_checked() {
        let manifest = "[package]\nname = \"core\"\nversion.workspace = true\nedition = \"2024\"\n\
                        rust-version.workspace = true\nlicense.workspace = true\n\
                        publish.workspace = true\n[lints.clippy]\npedantic = \"warn\"\n";
        assert_eq!(
            package_table_problems("Cargo.toml", Some("core-domain"), manifest),
            [
                "Cargo.toml: package name is Some(\"core\"); it must be the folder name \
                 \"core-domain\"",
                "Cargo.toml: [package] needs `edition.workspace = true`",
                "Cargo.toml: needs `[lints] workspace = true` and no lint table of its own \
                 (crate-level `#![deny(...)]` attributes go in lib.rs)",
            ]
        );
    }
}
