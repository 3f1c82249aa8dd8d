//! One parallelism model (D-170): the figures do not depend on the number of threads. The
//! harness's generated ledger, large enough that every parallel step splits its work (the
//! row scan's pieces, the split read of the ledger file, the engine's valuation batches, the
//! multi-year reports), gives byte-identical answers with `RAYON_NUM_THREADS=1`, the default
//! pool and a pool with more threads than this machine has cores.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::ai_payloads::CALLS;
use crate::support::{cartera, stderr};

/// The answers' "now": the generated period ends in 2025.
const NOW: &str = "2025-12-31T12:00:00Z";

/// `cartera` on `ledger` with `threads` (`None`: the default pool).
fn command(ledger: &Path, threads: Option<&str>) -> Command {
    let mut command = cartera();
    command
        .env("CARTERA_NOW", NOW)
        .env_remove("RAYON_NUM_THREADS");
    if let Some(threads) = threads {
        command.env("RAYON_NUM_THREADS", threads);
    }
    command.arg("--ledger").arg(ledger);
    command
}

fn succeeded(what: &str, output: Output) -> Vec<u8> {
    assert!(output.status.success(), "{what}: {}", stderr(&output));
    output.stdout
}

/// One MCP session: initialize, then every tool once.
fn mcp_session() -> String {
    let mut lines = vec![
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
    ];
    for (id, (name, arguments)) in CALLS.iter().enumerate() {
        lines.push(format!(
            r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#,
            id + 1
        ));
    }
    lines.join("\n") + "\n"
}

/// Every answer compared: the reports of every year, the portfolio, every tool.
fn answers(ledger: &Path, threads: Option<&str>) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for args in [
        &["--json", "tax", "2014..2025"][..],
        &["--json", "portfolio"],
        &["tax", "2025"],
    ] {
        let output = command(ledger, threads).args(args).output().unwrap();
        out.push((args.join(" "), succeeded(&args.join(" "), output)));
    }
    let mut child = command(ledger, threads)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(mcp_session().as_bytes()).unwrap();
    drop(stdin);
    out.push((
        "mcp".to_owned(),
        succeeded("mcp", child.wait_with_output().unwrap()),
    ));
    out
}

#[test]
fn one_thread_and_many_give_byte_identical_reports_portfolio_and_tools() {
    let dir = tempfile::tempdir().unwrap();
    let output = cartera()
        .args([
            "bench",
            "gen",
            "--transactions",
            "24000",
            "--seed",
            "1",
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    succeeded("bench gen", output);
    let ledger = dir.path().join("ledger.sqlite");
    for (args, file) in [
        (["rates", "import"], "eurofxref-hist.csv"),
        (["prices", "import"], "prices.csv"),
    ] {
        let output = command(&ledger, None)
            .args(args)
            .arg(dir.path().join(file))
            .output()
            .unwrap();
        succeeded(file, output);
    }
    let output = command(&ledger, None)
        .arg("import")
        .arg(dir.path().join("transactions.csv"))
        .output()
        .unwrap();
    succeeded("import", output);

    let one = answers(&ledger, Some("1"));
    // A real workload: twelve years of reports with their audit trails, every tool answered.
    let (_, reports) = &one[0];
    let reports: serde_json::Value = serde_json::from_slice(reports).unwrap();
    let audit_rows: usize = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|report| report["auditTrail"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(audit_rows > 5_000, "{audit_rows} audit rows");
    let (_, mcp) = &one[3];
    let mcp = String::from_utf8_lossy(mcp);
    assert_eq!(mcp.lines().count(), CALLS.len() + 1, "{mcp}");
    assert!(!mcp.contains(r#""isError":true"#), "{mcp}");

    for threads in [None, Some("3")] {
        let other = answers(&ledger, threads);
        for ((what, expected), (_, got)) in one.iter().zip(&other) {
            assert!(
                expected == got,
                "{what} with {threads:?} threads differs from one thread:\n{}\n---\n{}",
                String::from_utf8_lossy(expected),
                String::from_utf8_lossy(got)
            );
        }
    }
}
