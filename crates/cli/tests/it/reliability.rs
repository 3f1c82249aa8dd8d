//! The process and storage guard rails (issue 25): every command with its stdout closed or on
//! a full device, and with the ledger read-only, never panics; read commands never write;
//! errors under `--json` are one JSON document.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::support::{DemoLedger, cartera, example, stderr};

/// The Coinbase send of 0.5 ETH on 2024-02-20 and the hardware wallet's receipt of it.
const ETH_SEND: &str = "2063fc27cdbd8619e0b5fe3b68c1067d24f1bcc765c11b2fd525736c4fce7746";
const ETH_RECEIPT: &str = "c5bac90b3c600e61c005318209dd84ecf665e99932c7f385fcbb8839351c98cc";
/// A Kraken sale of BTC.
const BTC_SALE: &str = "b8d4aed97b056d0dc09c2079f87b2140adbab06e74e892a17690b5aa2f04089f";

/// The MCP session fed to `cartera mcp`: initialize, then one tool call.
const MCP_SESSION: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"portfolio_summary","arguments":{}}}"#,
    "\n",
);

/// One command line of the harness (after `--ledger L`), and whether it reads only.
pub(crate) struct Case {
    pub(crate) args: Vec<String>,
    /// Reads the ledger only (or touches no ledger).
    pub(crate) read: bool,
    /// Text fed to stdin.
    pub(crate) stdin: Option<&'static str>,
}

pub(crate) fn case(read: bool, args: &[&str]) -> Case {
    Case {
        args: args.iter().map(|&a| a.to_owned()).collect(),
        read,
        stdin: None,
    }
}

#[allow(clippy::too_many_lines, reason = "one list of every command")]
/// Every command of the binary, each in a form that succeeds on the demo ledger; a write is
/// followed by its undo, so the sequence can run again with the same results. `bench run` is
/// left out: it is the benchmark harness (a generated 10k ledger and child processes per
/// figure); its table goes through the same output path as `bench gen`.
pub(crate) fn every_command(scratch: &Path) -> Vec<Case> {
    let file = |relative: &str| example(relative).display().to_string();
    let generic = file("generic/wallets-2024.csv");
    let rates = file("ecb/ecb-sample.csv");
    let prices = file("prices/daily-sample.csv");
    let out = scratch.join("bench-gen").display().to_string();
    let csv = scratch.join("csv").display().to_string();
    let mut cases = vec![
        case(true, &["--version"]),
        case(true, &["--help"]),
        case(true, &["tax", "--help"]),
        case(true, &["demo"]),
        case(true, &["portfolio"]),
        case(true, &["portfolio", "--currency", "USD"]),
        case(true, &["portfolio", "--account", "Kraken"]),
        case(true, &["tax", "2024"]),
        case(true, &["tax", "2024", "--csv", &csv]),
        case(true, &["tax", "compare", "2023", "2024"]),
        case(true, &["integrity"]),
        case(true, &["integrity", "--flag", "MISSING_PRICE"]),
        case(true, &["lots", "BTC"]),
        case(true, &["tx"]),
        case(true, &["tx", "--keys", "--type", "SELL"]),
        case(true, &["holdings-at", "2024-12-31"]),
        case(true, &["settings"]),
        case(true, &["settings", "list"]),
        case(true, &["settings", "get", "fiscal_timezone"]),
        case(true, &["accounts"]),
        case(true, &["accounts", "list"]),
        case(true, &["tools", "list"]),
        case(
            true,
            &[
                "tools",
                "list",
                "--profile",
                "local",
                "--context-window",
                "32768",
            ],
        ),
        case(true, &["tools", "call", "portfolio_summary"]),
        case(true, &["prices", "list", "--asset", "BTC"]),
        case(true, &["rates", "list", "--currency", "USD"]),
        case(
            true,
            &["tools", "call", "explain_metric", r#"{"metric":"hhi"}"#],
        ),
        Case {
            stdin: Some(MCP_SESSION),
            ..case(true, &["mcp"])
        },
        case(
            true,
            &[
                "bench",
                "gen",
                "--transactions",
                "1000",
                "--seed",
                "1",
                "--out",
                &out,
            ],
        ),
        case(true, &["bench", "engine", "--runs", "1"]),
        case(true, &["bench", "phases", "--year", "2024"]),
        case(
            true,
            &[
                "bench",
                "tools",
                "--cold",
                "1",
                "--warm",
                "1",
                "--only",
                "explain_metric",
            ],
        ),
        case(false, &["import", &generic]),
        case(false, &["import", "--dry-run", &generic]),
        case(false, &["rates", "import", &rates]),
        case(false, &["prices", "import", &prices]),
        case(
            false,
            &["settings", "set", "fiscal_timezone", "Atlantic/Canary"],
        ),
        case(false, &["settings", "unset", "fiscal_timezone"]),
        case(
            false,
            &[
                "accounts",
                "set",
                "Kraken",
                "--kind",
                "FOREIGN_PROVIDER",
                "--country",
                "US",
            ],
        ),
        case(
            false,
            &["edit", BTC_SALE, "--price", "60000", "--currency", "EUR"],
        ),
        case(false, &["edit", BTC_SALE, "--restore"]),
        case(false, &["link", ETH_SEND, ETH_RECEIPT]),
        case(false, &["unlink", ETH_SEND]),
    ];
    // Every command again with `--json` (help and version are the same text).
    let json: Vec<Case> = cases
        .iter()
        .filter(|c| !c.args[0].starts_with("--"))
        .map(|c| Case {
            args: std::iter::once("--json".to_owned())
                .chain(c.args.iter().cloned())
                .collect(),
            read: c.read,
            stdin: c.stdin,
        })
        .collect();
    cases.extend(json);
    cases
}

/// Where a run's stdout goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Sink {
    /// Captured (the baseline).
    Captured,
    /// A pipe whose reader has gone (`cartera tx | head -1` after `head` exits).
    ClosedPipe,
    /// `/dev/full`: every write fails with ENOSPC.
    FullDevice,
}

fn command(ledger: &Path, case: &Case) -> Command {
    let mut command = cartera();
    command
        .env("CARTERA_NOW", "2025-01-15T12:00:00Z")
        .arg("--ledger")
        .arg(ledger)
        .args(&case.args)
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    command
}

/// Runs one case with stdout on `sink`; stdout is empty unless captured.
pub(crate) fn run_case(
    ledger: &Path,
    case: &Case,
    sink: Sink,
    adjust: impl FnOnce(&mut Command),
) -> Output {
    let mut command = command(ledger, case);
    adjust(&mut command);
    match sink {
        Sink::Captured => command.stdout(Stdio::piped()),
        Sink::ClosedPipe => {
            // A socket pair whose other end is closed: each write fails with EPIPE, as a
            // pipe's does once its reader has gone.
            let (writer, reader) = std::os::unix::net::UnixStream::pair().expect("a socket pair");
            drop(reader);
            command.stdout(std::os::fd::OwnedFd::from(writer))
        }
        Sink::FullDevice => command.stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full opens"),
        ),
    };
    command.stderr(Stdio::piped());
    let mut child = command.spawn().expect("cartera runs");
    if let Some(text) = case.stdin {
        // The server may stop reading once its output fails: a closed stdin is fine.
        let mut input = child.stdin.take().expect("stdin is piped");
        let _ = input.write_all(text.as_bytes());
    }
    // `command` still holds the parent's copy of the pipe's writer: drop it before waiting.
    drop(command);
    child.wait_with_output().expect("cartera ends")
}

pub(crate) fn label(case: &Case) -> String {
    case.args.join(" ")
}

/// No run may panic (exit 101 or a panic message).
pub(crate) fn assert_no_panic(case: &Case, output: &Output, what: &str) {
    let err = stderr(output);
    assert_ne!(
        output.status.code(),
        Some(101),
        "{what}: `{}` panicked: {err}",
        label(case)
    );
    assert!(
        !err.contains("panicked"),
        "{what}: `{}` panicked: {err}",
        label(case)
    );
    assert!(
        output.status.code().is_some(),
        "{what}: `{}` died of a signal: {err}",
        label(case)
    );
}

fn full_device_available() -> bool {
    if Path::new("/dev/full").exists() {
        return true;
    }
    eprintln!("skipped: /dev/full is absent on this machine");
    false
}

/// The whole command list, with stdout captured, closed and full (one pass each, so each
/// write meets its undo): the baseline succeeds; a closed pipe ends each command quietly with
/// exit 0; a full device is one line on stderr and exit 1. None panics.
#[test]
fn every_command_survives_a_closed_or_full_stdout() {
    let demo = DemoLedger::build();
    let scratch = tempfile::tempdir().unwrap();
    let cases = every_command(scratch.path());
    for case in &cases {
        let baseline = run_case(&demo.path, case, Sink::Captured, |_| {});
        assert_no_panic(case, &baseline, "baseline");
        assert_eq!(
            baseline.status.code(),
            Some(0),
            "`{}` fails on the demo ledger: {}",
            label(case),
            stderr(&baseline)
        );
        assert!(
            !baseline.stdout.is_empty(),
            "`{}` prints nothing, so the sinks test nothing",
            label(case)
        );
    }
    for case in &cases {
        let closed = run_case(&demo.path, case, Sink::ClosedPipe, |_| {});
        assert_no_panic(case, &closed, "closed pipe");
        assert_eq!(
            closed.status.code(),
            Some(0),
            "closed pipe: `{}`: {}",
            label(case),
            stderr(&closed)
        );
        assert!(
            !stderr(&closed).contains("cannot write"),
            "closed pipe: `{}` is not quiet: {}",
            label(case),
            stderr(&closed)
        );
    }
    if !full_device_available() {
        return;
    }
    for case in &cases {
        let output = run_case(&demo.path, case, Sink::FullDevice, |_| {});
        assert_no_panic(case, &output, "full device");
        assert_eq!(
            output.status.code(),
            Some(1),
            "full device: `{}`: {}",
            label(case),
            stderr(&output)
        );
        assert_eq!(
            stderr(&output).lines().last(),
            Some(FULL_DEVICE_LINE),
            "full device: `{}`",
            label(case)
        );
    }
}

/// The one line a full stdout gives.
const FULL_DEVICE_LINE: &str =
    "cartera: error: cannot write the output: No space left on device (os error 28)";

/// An import whose report cannot be printed still says on stderr that it committed.
#[test]
fn an_import_that_committed_says_so_when_its_report_cannot_be_printed() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = example("generic/wallets-2024.csv");
    let import = case(false, &["import", &file.display().to_string()]);
    let closed = run_case(&ledger, &import, Sink::ClosedPipe, |_| {});
    assert_eq!(closed.status.code(), Some(0), "{}", stderr(&closed));
    let name = file.display();
    assert!(
        stderr(&closed).contains(&format!(
            "cartera: {name}: committed to the ledger (12 transactions added, 0 duplicates); \
             its report could not be printed"
        )),
        "{}",
        stderr(&closed)
    );
    if full_device_available() {
        let again = run_case(&ledger, &import, Sink::FullDevice, |_| {});
        assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
        let err = stderr(&again);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(
            lines[lines.len() - 2..],
            [
                format!(
                    "cartera: {name}: committed to the ledger (0 transactions added, 12 \
                     duplicates); its report could not be printed"
                )
                .as_str(),
                FULL_DEVICE_LINE,
            ],
        );
    }
    let count = crate::support::run(&ledger, &["--json", "tx"]);
    let page: serde_json::Value = serde_json::from_slice(&count.stdout).unwrap();
    assert_eq!(page["totalCount"], 12, "{page}");
}
