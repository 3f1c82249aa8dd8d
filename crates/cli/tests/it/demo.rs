//! `cartera demo`: the bundled files, imported through the import commands' code paths, then
//! the portfolio and the IRPF report of every year.

use std::time::{Duration, Instant};

use crate::support::{cartera, stderr, stdout};

#[test]
fn demo_runs_offline_in_seconds_and_prints_every_year() {
    let started = Instant::now();
    let output = cartera()
        .env_remove("CARTERA_NOW")
        .arg("demo")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(started.elapsed() < Duration::from_secs(20));
    let text = stdout(&output);
    for heading in [
        "Portfolio on 2024-12-31 (EUR)",
        "IRPF 2022 (EUR, FIFO): COMPLETE",
        "IRPF 2023 (EUR, FIFO): COMPLETE",
        "IRPF 2024 (EUR, FIFO): COMPLETE",
    ] {
        assert!(text.contains(heading), "{heading:?} missing");
    }
    // The import summary goes to stderr: seven files, no finding.
    let log = stderr(&output);
    assert_eq!(
        log.lines()
            .filter(|l| l.starts_with("demo: imported "))
            .count(),
        7,
        "{log}"
    );
    insta::assert_snapshot!("demo_stdout", text);
}

#[test]
fn demo_keep_leaves_a_ledger_and_a_second_run_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let first = cartera()
        .arg("demo")
        .arg("--keep")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    let ledger = dir.path().join("ledger.sqlite");
    assert!(ledger.is_file());
    let (version, spot, futures) = crate::support::counts(&ledger);
    assert_eq!((spot, futures), (73, 0));
    let second = cartera()
        .arg("demo")
        .arg("--keep")
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(second.status.success(), "{}", stderr(&second));
    assert!(
        stderr(&second)
            .contains("demo: imported kraken-ledgers.csv (0 transactions, 46 already stored)")
    );
    assert_eq!(crate::support::counts(&ledger), (version, 73, 0));
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn demo_json_is_the_portfolio_and_the_reports() {
    let output = cartera().arg("--json").arg("demo").output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let years: Vec<i64> = document["taxReports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["year"].as_i64().unwrap())
        .collect();
    assert_eq!(years, [2022, 2023, 2024]);
    assert_eq!(
        document["portfolio"]["metrics"]["totalEquityFiat"],
        "10442.35"
    );
}
