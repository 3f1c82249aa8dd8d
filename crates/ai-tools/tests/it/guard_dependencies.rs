//! Dependency guard (`tools.md` §15): `[dependencies]` are exactly `use-cases`, `shared-types`,
//! `serde` and `serde_json`; decimals, the domain crate and storage never appear.

use std::collections::BTreeMap;

/// Dependency names per section of a Cargo manifest (a small reader for the flat layout used
/// in this workspace: `[section]` headers and `name = …` / `name.workspace = true` lines).
fn sections(manifest: &str) -> BTreeMap<String, Vec<String>> {
    let mut result: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            line.trim_matches(['[', ']']).clone_into(&mut current);
            result.entry(current.clone()).or_default();
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((key, _)) = line.split_once('=') {
            let name = key
                .trim()
                .split('.')
                .next()
                .unwrap_or_default()
                .trim_matches('"')
                .to_owned();
            result.entry(current.clone()).or_default().push(name);
        }
    }
    result
}

fn manifest() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    std::fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn dependencies_are_exactly_the_four_allowed() {
    let sections = sections(&manifest());
    let normal = sections.get("dependencies").cloned().unwrap_or_default();
    assert_eq!(normal, ["use-cases", "shared-types", "serde", "serde_json"]);
    let dev = sections
        .get("dev-dependencies")
        .cloned()
        .unwrap_or_default();
    for name in &dev {
        assert!(
            [
                "use-cases",
                "shared-types",
                "serde",
                "serde_json",
                "proptest",
                "insta"
            ]
            .contains(&name.as_str()),
            "dev-dependency {name} is not allowed"
        );
    }
    let banned = [
        ["rust", "_decimal"].concat(),
        ["core", "-domain"].concat(),
        ["ledger", "-sqlite"].concat(),
        "importers".to_owned(),
        "rusqlite".to_owned(),
    ];
    for (section, names) in &sections {
        for name in names {
            assert!(!banned.contains(name), "{name} in [{section}]");
        }
    }
}

#[test]
fn the_reader_sees_sections() {
    let parsed = sections(
        "[dependencies]\na.workspace = true\nb = \"1\"\n[dev-dependencies]\nc = { x = 1 }\n",
    );
    assert_eq!(
        parsed.get("dependencies").cloned().unwrap_or_default(),
        ["a", "b"]
    );
    assert_eq!(
        parsed.get("dev-dependencies").cloned().unwrap_or_default(),
        ["c"]
    );
}
