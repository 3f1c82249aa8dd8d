//! Dependency direction and direct-dependency bans, read from `cargo metadata`.
//!
//! The table below is the crate map of the spec (`spec/README.md`, "Workspace and crate map").
//! A new crate needs one row here and one section in ARCHITECTURE.md; nothing else.

use crate::workspace::{DepKind, Package, assert_clean, is_member, packages};

/// Every workspace package and the internal crates it may depend on (normal, build and dev
/// dependencies alike).
pub(crate) const CRATE_MAP: &[(&str, &[&str])] = &[
    ("shared-types", &[]),
    ("core-domain", &["shared-types"]),
    ("use-cases", &["core-domain", "shared-types"]),
    (
        "ledger-sqlite",
        &["use-cases", "core-domain", "shared-types"],
    ),
    // use-cases for the write port's record types (`importers::records`, D-166).
    ("importers", &["use-cases", "core-domain", "shared-types"]),
    // The network adapter of `cartera sync`: bytes in, closes out; the cli stores them.
    ("providers", &[]),
    ("ai-tools", &["use-cases", "shared-types"]),
    ("mcp", &["ai-tools", "shared-types"]),
    ("advisor", &["ai-tools", "shared-types"]),
    (
        "cli",
        &[
            "shared-types",
            "core-domain",
            "use-cases",
            "ledger-sqlite",
            "importers",
            "providers",
            "ai-tools",
            "mcp",
            "advisor",
        ],
    ),
    // The library facade: a composition root like `cli`, without the network (`providers`) and
    // the agent (`advisor`), and without a terminal (D-165).
    (
        "cartera",
        &[
            "shared-types",
            "core-domain",
            "use-cases",
            "ledger-sqlite",
            "importers",
            "ai-tools",
            "mcp",
        ],
    ),
    // Repository tooling reads files and `cargo metadata`, never the product's crates.
    ("xtask", &[]),
];

/// Extra internal edges allowed for dev-dependencies only. Empty on purpose: test doubles (for
/// example in-memory port implementations) live in the crate that defines the port and are
/// exported from it, so a test never needs an edge its crate's production code could not have.
/// Adding a row here needs an entry in docs/decisions.md.
const DEV_ONLY_EDGES: &[(&str, &[&str])] = &[];

/// Adapters implement ports; they are never depended on by the layers that define the ports.
const ADAPTERS: &[&str] = &["ledger-sqlite", "importers", "providers"];
const PORT_LAYERS: &[&str] = &["core-domain", "use-cases"];

/// Composition roots wire adapters to use cases for a user: the binary and the library facade.
/// They are the top of the layering: no workspace crate depends on them, so neither can become
/// a layer the others route through (D-165).
const COMPOSITION_ROOTS: &[&str] = &["cli", "cartera"];

/// External crates that only some workspace packages may name directly (any dependency kind),
/// with the reason printed on failure.
const DIRECT_DEPENDENCY_ALLOW_LISTS: &[(&str, &[&str], &str)] = &[
    (
        "anyhow",
        &["cli"],
        "libraries return typed thiserror enums; only the binary erases errors",
    ),
    (
        "rust_decimal",
        &[
            "core-domain",
            "use-cases",
            "ledger-sqlite",
            "importers",
            "providers",
            "cli",
        ],
        "amounts cross shared-types, ai-tools and mcp as decimal strings, never as Decimal",
    ),
    (
        "serde",
        &[
            "shared-types",
            "use-cases",
            "ledger-sqlite",
            "importers",
            "providers",
            "ai-tools",
            "mcp",
            "advisor",
            "cli",
            "cartera",
        ],
        "core-domain derives no serde traits: the serialization boundary is shared-types",
    ),
];

/// Crates whose normal dependencies are a closed list, internal and external (`tools.md` §15,
/// `mcp.md` §1): the AI surface stays small and free of decimals, storage and async runtimes.
const CLOSED_DEPENDENCY_LISTS: &[(&str, &[&str])] = &[
    (
        "ai-tools",
        &["use-cases", "shared-types", "serde", "serde_json"],
    ),
    ("mcp", &["ai-tools", "shared-types", "serde", "serde_json"]),
    (
        "advisor",
        &[
            "ai-tools",
            "shared-types",
            "serde",
            "serde_json",
            "thiserror",
            "ureq",
        ],
    ),
];

fn allowed_edges(package: &str) -> Option<&'static [&'static str]> {
    CRATE_MAP
        .iter()
        .find(|(name, _)| *name == package)
        .map(|(_, allowed)| *allowed)
}

fn dev_only_edges(package: &str) -> &'static [&'static str] {
    DEV_ONLY_EDGES
        .iter()
        .find(|(name, _)| *name == package)
        .map_or(&[], |(_, allowed)| *allowed)
}

/// The internal edges of `packages` that the crate map does not allow.
pub(crate) fn forbidden_edges(packages: &[Package]) -> Vec<String> {
    let mut violations = Vec::new();
    for package in packages {
        let Some(allowed) = allowed_edges(&package.name) else {
            violations.push(format!(
                "{}: not in the crate map; add a row to CRATE_MAP in xtask/tests/it/crate_map.rs \
                 (and to the spec's crate map)",
                package.name
            ));
            continue;
        };
        for dependency in &package.dependencies {
            let internal = packages.iter().any(|other| other.name == dependency.name);
            if !internal || dependency.name == package.name {
                continue;
            }
            let dev_allowed = dependency.kind == DepKind::Dev
                && dev_only_edges(&package.name).contains(&dependency.name.as_str());
            if !allowed.contains(&dependency.name.as_str()) && !dev_allowed {
                violations.push(format!(
                    "{} -> {} ({}): not allowed; {} may depend on [{}]",
                    package.name,
                    dependency.name,
                    dependency.kind.label(),
                    package.name,
                    allowed.join(", ")
                ));
            }
        }
    }
    violations
}

/// Edges from a port-defining layer to an adapter, whatever the table says.
pub(crate) fn adapter_edges(packages: &[Package]) -> Vec<String> {
    let mut violations = Vec::new();
    for package in packages
        .iter()
        .filter(|package| PORT_LAYERS.contains(&package.name.as_str()))
    {
        for dependency in &package.dependencies {
            if ADAPTERS.contains(&dependency.name.as_str()) {
                violations.push(format!(
                    "{} -> {} ({}): adapters implement ports and are never depended on",
                    package.name,
                    dependency.name,
                    dependency.kind.label()
                ));
            }
        }
    }
    violations
}

/// Edges into a composition root, of any kind.
pub(crate) fn edges_into_composition_roots(packages: &[Package]) -> Vec<String> {
    let mut violations = Vec::new();
    for package in packages {
        for dependency in &package.dependencies {
            if COMPOSITION_ROOTS.contains(&dependency.name.as_str())
                && dependency.name != package.name
            {
                violations.push(format!(
                    "{} -> {} ({}): composition roots are the top layer; move what is shared \
                     into a library below them",
                    package.name,
                    dependency.name,
                    dependency.kind.label()
                ));
            }
        }
    }
    violations
}

/// Direct dependencies on allow-listed external crates from packages not on the list.
pub(crate) fn banned_direct_dependencies(packages: &[Package]) -> Vec<String> {
    let mut violations = Vec::new();
    for package in packages {
        for dependency in &package.dependencies {
            for (banned, allowed, why) in DIRECT_DEPENDENCY_ALLOW_LISTS {
                if dependency.name == *banned && !allowed.contains(&package.name.as_str()) {
                    violations.push(format!(
                        "{} -> {banned} ({}): only [{}] may depend on {banned} directly: {why}",
                        package.name,
                        dependency.kind.label(),
                        allowed.join(", ")
                    ));
                }
            }
        }
    }
    violations
}

/// Normal dependencies outside a crate's closed list.
pub(crate) fn unlisted_dependencies(packages: &[Package]) -> Vec<String> {
    let mut violations = Vec::new();
    for (name, listed) in CLOSED_DEPENDENCY_LISTS {
        for package in packages.iter().filter(|package| package.name == *name) {
            for dependency in &package.dependencies {
                if dependency.kind == DepKind::Normal && !listed.contains(&dependency.name.as_str())
                {
                    violations.push(format!(
                        "{name} -> {}: {name}'s dependencies are limited to [{}]",
                        dependency.name,
                        listed.join(", ")
                    ));
                }
            }
        }
    }
    violations
}

#[test]
fn ai_and_mcp_layers_keep_their_closed_dependency_lists() {
    assert_clean(
        "ai-tools and mcp depend only on the crates tools.md §15 and mcp.md §1 list",
        &unlisted_dependencies(packages()),
    );
}

#[test]
fn internal_dependencies_follow_the_crate_map() {
    assert_clean(
        "internal dependency edges must be listed in the crate map (spec README, CRATE_MAP)",
        &forbidden_edges(packages()),
    );
}

#[test]
fn port_layers_never_depend_on_adapters() {
    assert_clean(
        "core-domain and use-cases must not depend on ledger-sqlite or importers",
        &adapter_edges(packages()),
    );
}

#[test]
fn nothing_depends_on_a_composition_root() {
    assert_clean(
        "cli and cartera (the library facade) are depended on by no workspace crate",
        &edges_into_composition_roots(packages()),
    );
}

#[test]
fn restricted_external_crates_are_direct_dependencies_only_where_allowed() {
    assert_clean(
        "anyhow, rust_decimal and serde are direct dependencies only of the crates listed",
        &banned_direct_dependencies(packages()),
    );
}

#[test]
fn the_crate_map_names_only_real_or_announced_crates() {
    // Every name on the right of the table must have a row of its own, so a typo cannot
    // silently allow nothing.
    let mut violations = Vec::new();
    for (package, allowed) in CRATE_MAP {
        for name in *allowed {
            if allowed_edges(name).is_none() {
                violations.push(format!(
                    "{package} -> {name}: {name} has no row in CRATE_MAP"
                ));
            }
        }
    }
    for (package, _) in DEV_ONLY_EDGES {
        if !is_member(package) && allowed_edges(package).is_none() {
            violations.push(format!(
                "{package}: DEV_ONLY_EDGES row for an unknown crate"
            ));
        }
    }
    assert_clean("CRATE_MAP must be closed over its own names", &violations);
}

mod checker {
    //! The checks above must catch what they claim to catch.

    use super::{
        adapter_edges, banned_direct_dependencies, edges_into_composition_roots, forbidden_edges,
        unlisted_dependencies,
    };
    use crate::workspace::{DepKind, Dependency, Package};

    fn package(name: &str, dependencies: &[(&str, DepKind)]) -> Package {
        Package {
            name: name.to_owned(),
            dir: std::path::PathBuf::new(),
            dependencies: dependencies
                .iter()
                .map(|(name, kind)| Dependency {
                    name: (*name).to_owned(),
                    kind: *kind,
                })
                .collect(),
            targets: Vec::new(),
        }
    }

    fn check(violations: &[String], expected: &[&str]) {
        assert_eq!(violations, expected, "violations differ");
    }

    #[test]
    fn an_edge_outside_the_map_is_reported_with_the_allowed_list() {
        let workspace = [
            package("shared-types", &[]),
            package("core-domain", &[("shared-types", DepKind::Normal)]),
            package("use-cases", &[("core-domain", DepKind::Normal)]),
            package("ledger-sqlite", &[("use-cases", DepKind::Normal)]),
            package(
                "ai-tools",
                &[
                    ("core-domain", DepKind::Dev),
                    ("use-cases", DepKind::Normal),
                ],
            ),
            package("xtask", &[("shared-types", DepKind::Build)]),
        ];
        check(
            &forbidden_edges(&workspace),
            &[
                "ai-tools -> core-domain (dev-dependency): not allowed; ai-tools may depend on \
                 [use-cases, shared-types]",
                "xtask -> shared-types (build-dependency): not allowed; xtask may depend on []",
            ],
        );
    }

    #[test]
    fn an_unknown_crate_must_get_a_row() {
        let workspace = [package("reports", &[])];
        check(
            &forbidden_edges(&workspace),
            &["reports: not in the crate map; add a row to CRATE_MAP in \
               xtask/tests/it/crate_map.rs (and to the spec's crate map)"],
        );
    }

    #[test]
    fn a_port_layer_depending_on_an_adapter_is_reported() {
        let workspace = [package("use-cases", &[("importers", DepKind::Dev)])];
        check(
            &adapter_edges(&workspace),
            &[
                "use-cases -> importers (dev-dependency): adapters implement ports and are never \
               depended on",
            ],
        );
    }

    #[test]
    fn decimal_in_ai_tools_and_anyhow_outside_cli_are_reported() {
        let workspace = [
            package("ai-tools", &[("rust_decimal", DepKind::Normal)]),
            package(
                "cli",
                &[
                    ("anyhow", DepKind::Normal),
                    ("rust_decimal", DepKind::Normal),
                ],
            ),
            package("importers", &[("anyhow", DepKind::Dev)]),
        ];
        let violations = banned_direct_dependencies(&workspace);
        assert_eq!(violations.len(), 2, "{violations:#?}");
        assert!(violations[0].starts_with("ai-tools -> rust_decimal (dependency)"));
        assert!(violations[1].starts_with("importers -> anyhow (dev-dependency): only [cli]"));
    }

    #[test]
    fn ai_tools_outside_its_closed_list_is_reported() {
        let workspace = [package(
            "ai-tools",
            &[
                ("serde_json", DepKind::Normal),
                ("regex", DepKind::Normal),
                ("insta", DepKind::Dev),
            ],
        )];
        check(
            &unlisted_dependencies(&workspace),
            &[
                "ai-tools -> regex: ai-tools's dependencies are limited to [use-cases, shared-types, \
               serde, serde_json]",
            ],
        );
    }

    #[test]
    fn an_edge_into_the_binary_or_the_facade_is_reported() {
        let workspace = [
            package("cartera", &[("cli", DepKind::Dev)]),
            package("mcp", &[("cartera", DepKind::Normal)]),
            package("cli", &[("use-cases", DepKind::Normal)]),
        ];
        check(
            &edges_into_composition_roots(&workspace),
            &[
                "cartera -> cli (dev-dependency): composition roots are the top layer; move \
                 what is shared into a library below them",
                "mcp -> cartera (dependency): composition roots are the top layer; move what is \
                 shared into a library below them",
            ],
        );
    }
}
