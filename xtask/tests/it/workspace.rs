//! What the tidy checks read: the workspace root, `cargo metadata`, manifests and source files.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

/// The workspace root (the parent of `xtask/`).
pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
}

/// A path relative to the workspace root, with `/` separators, for failure messages.
pub(crate) fn relative(path: &Path) -> String {
    let relative = path.strip_prefix(root()).unwrap_or(path);
    relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Reads a file of the repository; a missing file is a test failure naming it.
pub(crate) fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", relative(path)))
}

/// Dependency kinds as `cargo metadata` spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DepKind {
    Normal,
    Build,
    Dev,
}

impl DepKind {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Normal => "dependency",
            Self::Build => "build-dependency",
            Self::Dev => "dev-dependency",
        }
    }
}

/// One declared dependency of a workspace package.
#[derive(Clone, Debug)]
pub(crate) struct Dependency {
    /// The package name (a rename does not hide it).
    pub(crate) name: String,
    pub(crate) kind: DepKind,
}

/// A build target of a workspace package.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub(crate) kinds: Vec<String>,
    pub(crate) src_path: PathBuf,
}

/// A workspace package as `cargo metadata --no-deps` describes it.
#[derive(Clone, Debug)]
pub(crate) struct Package {
    pub(crate) name: String,
    /// The folder holding its `Cargo.toml`.
    pub(crate) dir: PathBuf,
    pub(crate) dependencies: Vec<Dependency>,
    pub(crate) targets: Vec<Target>,
}

impl Package {
    pub(crate) fn manifest_path(&self) -> PathBuf {
        self.dir.join("Cargo.toml")
    }
}

/// The workspace packages, sorted by name; `cargo metadata` runs once per test binary.
pub(crate) fn packages() -> &'static [Package] {
    static PACKAGES: OnceLock<Vec<Package>> = OnceLock::new();
    PACKAGES.get_or_init(load_packages)
}

fn load_packages() -> Vec<Package> {
    // Cargo sets CARGO at compile time to the cargo that builds this test, so the metadata comes
    // from the same toolchain; reading it through `env!` also keeps the clock-and-environment
    // bans of clippy.toml intact.
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .unwrap_or_else(|error| panic!("cannot run `{cargo} metadata`: {error}"));
    assert!(
        output.status.success(),
        "`cargo metadata` failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value =
        serde_json::from_slice(&output.stdout).expect("`cargo metadata` prints JSON");
    let mut packages: Vec<Package> = metadata["packages"]
        .as_array()
        .expect("metadata has a packages array")
        .iter()
        .map(parse_package)
        .collect();
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    packages
}

fn parse_package(package: &Value) -> Package {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let manifest = PathBuf::from(text(&package["manifest_path"]));
    let dependencies = package["dependencies"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|dependency| Dependency {
            name: text(&dependency["name"]),
            kind: match dependency["kind"].as_str() {
                Some("dev") => DepKind::Dev,
                Some("build") => DepKind::Build,
                _ => DepKind::Normal,
            },
        })
        .collect();
    let targets = package["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|target| Target {
            kinds: target["kind"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect(),
            src_path: PathBuf::from(text(&target["src_path"])),
        })
        .collect();
    Package {
        name: text(&package["name"]),
        dir: manifest.parent().map(Path::to_path_buf).unwrap_or_default(),
        dependencies,
        targets,
    }
}

/// Whether `name` is a workspace package.
pub(crate) fn is_member(name: &str) -> bool {
    packages().iter().any(|package| package.name == name)
}

/// The folders under `crates/`, sorted.
pub(crate) fn crate_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .expect("the workspace has a crates/ folder")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The folder name of a path, as text.
pub(crate) fn dir_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Every `.rs` file below `dir` (none when it does not exist), sorted; `target/` is skipped.
pub(crate) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect_rust_files(dir, &mut files);
    files.sort();
    files
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            if dir_name(&path) != "target" {
                collect_rust_files(&path, files);
            }
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

/// Fails the test with every violation, one `file:line: …` per line, under a headline that says
/// which rule was broken and how to fix it.
pub(crate) fn assert_clean(rule: &str, violations: &[String]) {
    assert!(
        violations.is_empty(),
        "{rule}\n{} violation(s):\n  {}\n",
        violations.len(),
        violations.join("\n  ")
    );
}

/// The code of one source line: `//` comments removed (outside string literals), so doc
/// comments may name what the code must not use.
pub(crate) fn code_part(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut in_string = false;
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'\\' if in_string => index += 1,
            // Character literals such as '"' or '\'' do not open a string.
            b'\'' if !in_string && bytes.get(index + 2) == Some(&b'\'') => index += 2,
            b'\''
                if !in_string
                    && bytes.get(index + 1) == Some(&b'\\')
                    && bytes.get(index + 3) == Some(&b'\'') =>
            {
                index += 3;
            }
            b'"' => in_string = !in_string,
            b'/' if !in_string && bytes.get(index + 1) == Some(&b'/') => return &line[..index],
            _ => {}
        }
        index += 1;
    }
    line
}

/// Whether `word` occurs in `text` as a whole identifier (not inside a longer one).
pub(crate) fn contains_word(text: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(start, _)| {
        let before = text[..start].chars().next_back();
        let after = text[start + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}
