//! How the binary treats the ledger file (issue 25): read commands open it read-only and never
//! create or migrate anything; what is not a ledger is refused and left byte for byte; a
//! failed first write leaves no ledger; an interrupted import and read-only storage can still
//! be read by every read command; schema versions and `--json` errors in plain words.

use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::reliability::{Case, Sink, assert_no_panic, every_command, label, run_case};
use crate::support::{DemoLedger, cartera, example, stderr, stdout};

/// The uid the commands run as when the tests run as root, for whom permissions are binding.
const NOBODY: u32 = 65_534;

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Runs the command as an unprivileged user when the test runs as root: chmod does not stop
/// root, so a read-only folder is only read-only for the command that way.
fn unprivileged(command: &mut Command) {
    if is_root() {
        command.uid(NOBODY).gid(NOBODY);
    }
}

/// The read commands of the harness (those that open the ledger).
fn read_cases(scratch: &Path) -> Vec<Case> {
    every_command(scratch)
        .into_iter()
        .filter(|c| c.read && !is_ledgerless(c))
        .collect()
}

/// Commands that never open `--ledger`.
fn is_ledgerless(case: &Case) -> bool {
    let args: Vec<&str> = case
        .args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--json")
        .collect();
    matches!(
        args.as_slice(),
        ["--version" | "--help" | "demo", ..]
            | ["tax", "--help"]
            | ["tools", "list", ..]
            | ["bench", "gen", ..]
    )
}

/// A folder anyone can enter (temporary folders are private to their owner).
fn open_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Another program's SQLite database, a 0-byte file and random bytes: every read command
/// refuses each as "not a cartera ledger" (exit 1), and each file is left byte for byte, with
/// no journal beside it.
#[test]
fn read_commands_refuse_what_is_not_a_ledger_and_leave_it_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.db");
    {
        let conn = rusqlite::Connection::open(&other).unwrap();
        conn.execute_batch("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine');")
            .unwrap();
    }
    let empty = dir.path().join("empty.sqlite");
    std::fs::write(&empty, b"").unwrap();
    let random = dir.path().join("random.bin");
    let bytes: Vec<u8> = (0..8192_u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&random, &bytes).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let cases = read_cases(scratch.path());
    for (file, what) in [
        (&other, "an SQLite database of another program"),
        (&empty, "an empty file"),
        (&random, "not an SQLite database"),
    ] {
        let before = std::fs::read(file).unwrap();
        let names = files_in(dir.path());
        for case in &cases {
            let output = run_case(file, case, Sink::Captured, |_| {});
            assert_no_panic(case, &output, "not a ledger");
            assert_eq!(output.status.code(), Some(1), "`{}` on {what}", label(case));
            let expected = format!(
                "{} is not a cartera ledger ({what}); it was left untouched",
                file.display()
            );
            assert!(
                stderr(&output).contains(&expected),
                "`{}`: {}",
                label(case),
                stderr(&output)
            );
            assert_eq!(
                std::fs::read(file).unwrap(),
                before,
                "`{}` changed {what}",
                label(case)
            );
            assert_eq!(
                files_in(dir.path()),
                names,
                "`{}` left files beside {what}",
                label(case)
            );
        }
    }
}

/// A missing ledger: every read command says "no ledger at PATH" and how to make one, and
/// creates nothing.
#[test]
fn read_commands_on_a_missing_ledger_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("absent.sqlite");
    let scratch = tempfile::tempdir().unwrap();
    for case in read_cases(scratch.path()) {
        let output = run_case(&ledger, &case, Sink::Captured, |_| {});
        assert_eq!(output.status.code(), Some(1), "`{}`", label(&case));
        assert!(
            stderr(&output).contains(&format!(
                "no ledger at {}: import your exports first",
                ledger.display()
            )),
            "`{}`: {}",
            label(&case),
            stderr(&output)
        );
        assert!(
            files_in(dir.path()).is_empty(),
            "`{}` created a file",
            label(&case)
        );
    }
}

/// A failed import, a refused `settings set` and a dry run on a new path leave no ledger, so
/// the next command says `no ledger` rather than `holds no transactions`.
#[test]
fn a_failed_first_write_leaves_no_ledger_behind() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("new.sqlite");
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "timestamp,type\nnot a date,BUY\n").unwrap();
    let generic = example("generic/wallets-2024.csv");
    for args in [
        vec!["import".to_owned(), bad.display().to_string()],
        vec![
            "import".to_owned(),
            dir.path().join("absent.csv").display().to_string(),
        ],
        vec![
            "import".to_owned(),
            "--dry-run".to_owned(),
            generic.display().to_string(),
        ],
        ["settings", "set", "fiscal_timezone", "Mars/Olympus"]
            .map(str::to_owned)
            .to_vec(),
    ] {
        let output = cartera()
            .arg("--ledger")
            .arg(&ledger)
            .args(&args)
            .output()
            .unwrap();
        assert_no_panic(
            &crate::reliability::case(false, &[]),
            &output,
            "first write",
        );
        assert_eq!(files_in(dir.path()), ["bad.csv"], "{args:?} left a ledger");
        let tx = cartera()
            .arg("--ledger")
            .arg(&ledger)
            .arg("tx")
            .output()
            .unwrap();
        assert!(stderr(&tx).contains("no ledger at"), "{}", stderr(&tx));
    }
    // A write that succeeds keeps the ledger.
    let output = cartera()
        .arg("--ledger")
        .arg(&ledger)
        .args(["settings", "set", "fiscal_timezone", "Atlantic/Canary"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(ledger.is_file());
}

/// The demo ledger copied into `dir`.
fn copy_demo(demo: &DemoLedger, dir: &Path) -> PathBuf {
    let to = dir.join("ledger.sqlite");
    std::fs::copy(&demo.path, &to).unwrap();
    to
}

/// Every read command's stdout on the writable demo ledger: the reference the other states
/// of the same ledger must print.
fn reference(demo: &DemoLedger, cases: &[Case]) -> Vec<Vec<u8>> {
    std::fs::set_permissions(demo.dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    cases
        .iter()
        .map(|case| {
            let output = run_case(&demo.path, case, Sink::Captured, |_| {});
            assert!(
                output.status.success(),
                "`{}`: {}",
                label(case),
                stderr(&output)
            );
            output.stdout
        })
        .collect()
}

/// Whether a command's stdout is the same on every run of the same ledger (timings and the
/// benchmark's generated numbers are not).
fn deterministic(case: &Case) -> bool {
    !case.args.iter().any(|a| a == "bench")
}

fn assert_reads_like_reference(
    ledger: &Path,
    cases: &[Case],
    reference: &[Vec<u8>],
    what: &str,
    as_nobody: bool,
) {
    // `tax --csv` writes into the scratch folder: a fresh one for whoever runs now.
    for case in cases {
        if let Some(at) = case.args.iter().position(|a| a == "--csv") {
            let _ = std::fs::remove_dir_all(&case.args[at + 1]);
        }
    }
    for (case, expected) in cases.iter().zip(reference) {
        let output = run_case(ledger, case, Sink::Captured, |c| {
            if as_nobody {
                unprivileged(c);
            }
        });
        assert_no_panic(case, &output, what);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{what}: `{}`: {}",
            label(case),
            stderr(&output)
        );
        if deterministic(case) {
            assert_eq!(
                stdout(&output),
                String::from_utf8_lossy(expected),
                "{what}: `{}` reads another state",
                label(case)
            );
        }
    }
}

/// Leaves beside `ledger` what a writer killed mid-transaction in rollback-journal mode
/// leaves: the file with some of the transaction's pages written into it and a hot journal.
/// (Built by copying the two files while a transaction that has spilled pages is open.)
fn hot_journal_copy(source: &Path, into: &Path) -> PathBuf {
    let work = tempfile::tempdir().unwrap();
    let ledger = work.path().join("ledger.sqlite");
    std::fs::copy(source, &ledger).unwrap();
    let conn = rusqlite::Connection::open(&ledger).unwrap();
    let _: String = conn
        .query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))
        .unwrap();
    conn.execute_batch("PRAGMA cache_size = 2; BEGIN IMMEDIATE;")
        .unwrap();
    // Rewrite every row key and pad the notes: pages spill into the file before the commit.
    conn.execute_batch(
        "UPDATE spot_rows SET note = hex(zeroblob(900)); UPDATE meta SET value = value + 1;",
    )
    .unwrap();
    let journal = work.path().join("ledger.sqlite-journal");
    assert!(journal.is_file(), "the transaction has a journal");
    let target = into.join("ledger.sqlite");
    std::fs::copy(&ledger, &target).unwrap();
    std::fs::copy(&journal, into.join("ledger.sqlite-journal")).unwrap();
    conn.execute_batch("ROLLBACK").unwrap();
    target
}

/// Leaves beside `ledger` what a writer killed in WAL mode leaves: a committed transaction
/// still in the `-wal` (not checkpointed), its `-shm`, and an open transaction's frames.
fn killed_wal_copy(source: &Path, into: &Path) -> PathBuf {
    let work = tempfile::tempdir().unwrap();
    let ledger = work.path().join("ledger.sqlite");
    std::fs::copy(source, &ledger).unwrap();
    let conn = rusqlite::Connection::open(&ledger).unwrap();
    conn.execute_batch(
        "PRAGMA wal_autocheckpoint = 0; \
         INSERT INTO settings (key, value) VALUES ('display_currency', '\"USD\"'); \
         UPDATE meta SET value = value + 1 WHERE key = 'ledger_version'; \
         PRAGMA cache_size = 2; BEGIN IMMEDIATE; UPDATE spot_rows SET note = hex(zeroblob(900));",
    )
    .unwrap();
    let target = into.join("ledger.sqlite");
    for suffix in ["", "-wal", "-shm"] {
        std::fs::copy(
            work.path().join(format!("ledger.sqlite{suffix}")),
            into.join(format!("ledger.sqlite{suffix}")),
        )
        .unwrap();
    }
    conn.execute_batch("ROLLBACK").unwrap();
    target
}

/// After an interrupted import, every read command (`mcp` and `tools call` too) reads the
/// last committed state: a hot rollback journal (a bulk import of an earlier version) and a
/// WAL with committed and uncommitted frames, in a writable folder and in a read-only one.
#[test]
fn an_interrupted_import_leaves_a_ledger_every_read_command_reads() {
    let demo = DemoLedger::build();
    let scratch = open_folder();
    let cases = read_cases(scratch.path());
    let reference = reference(&demo, &cases);

    // A hot journal: the file as it was before the killed transaction.
    let dir = open_folder();
    let ledger = hot_journal_copy(&demo.path, dir.path());
    assert_reads_like_reference(&ledger, &cases, &reference, "hot journal", false);

    let dir = open_folder();
    let ledger = hot_journal_copy(&demo.path, dir.path());
    let bytes = std::fs::read(&ledger).unwrap();
    read_only(dir.path());
    assert_reads_like_reference(
        &ledger,
        &cases,
        &reference,
        "hot journal, read-only folder",
        true,
    );
    assert_eq!(
        std::fs::read(&ledger).unwrap(),
        bytes,
        "the read-only ledger changed"
    );
    writable(dir.path());

    // A killed WAL writer: the committed setting is read, the open transaction is not.
    for read_only_folder in [false, true] {
        let dir = open_folder();
        let ledger = killed_wal_copy(&demo.path, dir.path());
        if read_only_folder {
            read_only(dir.path());
        }
        let get = crate::reliability::case(true, &["settings", "get", "display_currency"]);
        let output = run_case(&ledger, &get, Sink::Captured, |c| {
            if read_only_folder {
                unprivileged(c);
            }
        });
        assert_eq!(stdout(&output), "\"USD\"\n", "{}", stderr(&output));
        for case in &cases {
            let output = run_case(&ledger, case, Sink::Captured, |c| {
                if read_only_folder {
                    unprivileged(c);
                }
            });
            assert_no_panic(case, &output, "killed WAL writer");
            assert_eq!(
                output.status.code(),
                Some(0),
                "killed WAL writer (read-only folder {read_only_folder}): `{}`: {}",
                label(case),
                stderr(&output)
            );
        }
        writable(dir.path());
    }
}

fn read_only(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
}

fn writable(dir: &Path) {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
}

/// A ledger in a read-only folder, itself read-only: every read command (`mcp` included)
/// prints what it prints on the writable ledger, and writes nothing. When the tests run as
/// root the commands run as uid 65534, for whom the permissions hold; a write command
/// failing with "read-only" shows they do.
#[test]
fn read_only_storage_is_read_by_every_read_command() {
    let demo = DemoLedger::build();
    let scratch = open_folder();
    let cases = read_cases(scratch.path());
    let reference = reference(&demo, &cases);
    let dir = open_folder();
    let ledger = copy_demo(&demo, dir.path());
    let bytes = std::fs::read(&ledger).unwrap();
    read_only(dir.path());
    assert_reads_like_reference(&ledger, &cases, &reference, "read-only storage", true);
    assert_eq!(std::fs::read(&ledger).unwrap(), bytes);
    assert_eq!(files_in(dir.path()), ["ledger.sqlite"]);
    let write = crate::reliability::case(
        false,
        &["settings", "set", "fiscal_timezone", "Atlantic/Canary"],
    );
    let output = run_case(&ledger, &write, Sink::Captured, unprivileged);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("read-only"), "{}", stderr(&output));
    writable(dir.path());
}

/// The guard rail: every command with the ledger read-only (folder and file). None panics;
/// the read commands succeed; each write fails with one error line, exit 1.
#[test]
fn every_command_with_a_read_only_ledger_ends_cleanly() {
    let demo = DemoLedger::build();
    let dir = open_folder();
    let ledger = copy_demo(&demo, dir.path());
    read_only(dir.path());
    let scratch = open_folder();
    for case in every_command(scratch.path()) {
        let output = run_case(&ledger, &case, Sink::Captured, unprivileged);
        assert_no_panic(&case, &output, "read-only ledger");
        let expected = i32::from(!case.read);
        assert_eq!(
            output.status.code(),
            Some(expected),
            "read-only ledger: `{}`: {}",
            label(&case),
            stderr(&output)
        );
        if !case.read {
            let err = stderr(&output);
            assert!(
                err.lines()
                    .last()
                    .is_some_and(|l| l.starts_with("cartera: error") || l.contains("rejected")),
                "`{}`: {err}",
                label(&case)
            );
        }
    }
    writable(dir.path());
}

/// A ledger of a newer or an older format names the versions in plain words, never SQL.
#[test]
fn schema_versions_are_named_in_plain_words() {
    let demo = DemoLedger::build();
    let supported = ledger_sqlite::SCHEMA_VERSION;
    let set_version = |ledger: &Path, version: i64| {
        let conn = rusqlite::Connection::open(ledger).unwrap();
        conn.pragma_update(None, "user_version", version).unwrap();
    };
    let dir = tempfile::tempdir().unwrap();
    let ledger = copy_demo(&demo, dir.path());
    set_version(&ledger, supported + 7);
    for args in [
        &["tx"][..],
        &["tools", "call", "portfolio_summary"],
        &["settings", "set", "fiscal_timezone", "Atlantic/Canary"],
    ] {
        let output = crate::support::run(&ledger, args);
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            stderr(&output),
            format!(
                "cartera: error: the ledger {} was written by a newer cartera (ledger format \
                 version {}; this cartera reads versions up to {supported}): update cartera to \
                 read it\n",
                ledger.display(),
                supported + 7
            ),
            "{args:?}"
        );
    }
    // An older version: reads refuse to migrate; a write upgrades it, and when the file does
    // not hold what its version says the upgrade fails without SQL and leaves it as it was.
    set_version(&ledger, 1);
    let output = crate::support::run(&ledger, &["tx"]);
    assert_eq!(
        stderr(&output),
        format!(
            "cartera: error: the ledger {} was written by an older cartera (ledger format \
             version 1; this cartera reads version {supported}): it is upgraded the next time \
             cartera writes to it (an import, `settings set`, `accounts set`)\n",
            ledger.display()
        )
    );
    let output = crate::support::run(
        &ledger,
        &["settings", "set", "fiscal_timezone", "Atlantic/Canary"],
    );
    assert_eq!(
        stderr(&output),
        format!(
            "cartera: error: the ledger {} was left at ledger format version 1: upgrading it to \
             version {supported} failed, the file does not hold what its version says\n",
            ledger.display()
        )
    );
    let conn = rusqlite::Connection::open(&ledger).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1);
}

/// `--account "   "` is a usage error (exit 2), and nothing is created.
#[test]
fn a_blank_account_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = example("generic/wallets-2024.csv");
    let output = crate::support::run(
        &ledger,
        &["import", "--account", "   ", file.to_str().unwrap()],
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "cartera: error[bad-account-name]: --account \"   \" is blank: name the account, e.g. \
         --account Kraken\n"
    );
    assert!(!ledger.exists());
}

/// With `--json`, an error is one JSON document on stdout with its code, message and exit
/// status (the human line stays on stderr); the exit status is unchanged.
#[test]
fn json_errors_are_one_document_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("absent.sqlite");
    let file = example("generic/wallets-2024.csv");
    let cases: [(&[&str], &str, i64); 4] = [
        (&["--json", "tax", "2024"], "no-ledger", 1),
        (
            &["--json", "import", "--account", " ", file.to_str().unwrap()],
            "bad-account-name",
            2,
        ),
        (&["--json", "tx", "--bogus"], "usage", 2),
        (
            &["tools", "call", "portfolio_summary", "{", "--json"],
            "bad-arguments",
            2,
        ),
    ];
    for (args, code, status) in cases {
        let output = crate::support::run(&ledger, args);
        assert_eq!(
            output.status.code(),
            Some(i32::try_from(status).unwrap()),
            "{args:?}"
        );
        let document: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", stdout(&output)));
        assert_eq!(document["error"]["code"], code, "{args:?}: {document}");
        assert_eq!(document["error"]["exitStatus"], status, "{args:?}");
        let message = document["error"]["message"].as_str().unwrap();
        assert!(
            !message.is_empty() && stderr(&output).contains(message.lines().next().unwrap()),
            "{args:?}: {message} vs {}",
            stderr(&output)
        );
        assert_eq!(document.as_object().unwrap().len(), 1);
    }
    let output = crate::support::run(&ledger, &["--json", "tax", "2024"]);
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        document["error"]["message"],
        format!(
            "no ledger at {}: import your exports first (`cartera import FILE…`), or build the \
             sample ledger with `cartera demo --keep DIR` and pass `--ledger DIR/ledger.sqlite`",
            ledger.display()
        )
    );
}
