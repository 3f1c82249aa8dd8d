//! One parallelism model (D-170): CPU work is split with rayon (`join`, `par_iter`, scopes on
//! the caller's pool), never with hand-made threads. A thread of its own is kept only where a
//! stage blocks on IO or on another stage, which a rayon thread must never do; each such place
//! is listed below with its reason, and a listed place that no longer starts a thread is
//! reported too, so the list stays the truth.

use crate::workspace::{assert_clean, code_part, crate_dirs, read, relative, rust_files};

/// What starts a thread by hand: the std spawners, and a grouped import that could bring them
/// in under a short name.
const SPAWNERS: &[&str] = &[
    "thread::spawn",
    "thread::scope",
    "thread::Builder",
    "std::thread::{",
];

/// The files allowed to start threads, and why a rayon job would be wrong there.
pub(crate) const THREAD_PLACES: &[(&str, &str)] = &[
    (
        "crates/cli/src/ask.rs",
        "stdin is read on a thread of its own: the read blocks until the user types, while the \
         chat loop streams an answer that a typed line cancels",
    ),
    (
        "crates/cli/src/import/stream.rs",
        "a streamed import is a pipeline whose stages block on each other through a bounded \
         channel (the parser reading the source, the writer filling SQLite, the chunk freeing); \
         on a one-thread rayon pool a stage waiting for another would never be resumed",
    ),
    (
        "crates/advisor/src/http.rs",
        "each model request blocks on the network on a detached thread while the caller polls \
         its cancel flag and deadline",
    ),
    (
        "crates/providers/src/testing.rs",
        "test support: the local HTTP server tests start on 127.0.0.1 accepts and serves \
         connections for the life of the test process",
    ),
];

/// `file:line` of every thread started by hand in `text`.
pub(crate) fn spawns(file: &str, text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter_map(|(index, line)| {
            let code = code_part(line);
            SPAWNERS
                .iter()
                .find(|needle| code.contains(*needle))
                .map(|needle| format!("{file}:{}: `{needle}`", index + 1))
        })
        .collect()
}

#[test]
fn threads_are_started_by_hand_only_where_a_stage_blocks() {
    let mut violations = Vec::new();
    let mut used = Vec::new();
    for krate in crate_dirs() {
        for file in rust_files(&krate.join("src")) {
            let name = relative(&file);
            let found = spawns(&name, &read(&file));
            if found.is_empty() {
                continue;
            }
            if THREAD_PLACES.iter().any(|(place, _)| *place == name) {
                used.push(name);
            } else {
                violations.extend(found);
            }
        }
    }
    assert_clean(
        "split CPU work with rayon (`rayon::join`, `par_iter`, `in_place_scope`), not with \
         std threads; a thread that blocks on IO or on another stage goes in THREAD_PLACES \
         with its reason",
        &violations,
    );
    let stale: Vec<String> = THREAD_PLACES
        .iter()
        .filter(|(place, _)| !used.iter().any(|name| name == place))
        .map(|(place, _)| format!("{place}: listed, but starts no thread"))
        .collect();
    assert_clean(
        "remove the place from THREAD_PLACES: the list names only places that start threads",
        &stale,
    );
}

#[test]
fn every_spawner_is_found_and_comments_are_not() {
    let text = "fn a() {\n    std::thread::scope(|s| {});\n    // thread::spawn in a comment\n    \
                let t = thread::Builder::new();\n}\nuse std::thread::{self, spawn};\n";
    assert_eq!(
        spawns("f.rs", text),
        [
            "f.rs:2: `thread::scope`",
            "f.rs:4: `thread::Builder`",
            "f.rs:6: `std::thread::{`",
        ]
    );
    assert!(spawns("f.rs", "std::thread::sleep(POLL);\n").is_empty());
}
