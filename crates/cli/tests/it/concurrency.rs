//! Readers and writers at the same time (issue 25): reads during a long import read the last
//! committed state (WAL, whichever path the import takes); a second import waits for the
//! first, saying so, and then runs; a writer that may not wait long enough fails naming the
//! process that holds the ledger.

use std::io::Write as _;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::support::{cartera, stderr};

/// Rows of the long import.
const LARGE: u64 = 200_000;

const HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";

/// A generic CSV of `rows` purchases with ids `prefix-N`, in time order.
fn write_file(path: &Path, prefix: &str, rows: u64) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(file, "{HEADER}").unwrap();
    for i in 0..rows {
        writeln!(
            file,
            "2023-01-01T00:00:00Z,BUY,Bulk,BTC,0.{:06},EUR,{},,,,,{prefix}-{i},,",
            1 + i % 999_999,
            10 + i % 1000
        )
        .unwrap();
    }
    file.flush().unwrap();
}

fn total(ledger: &Path) -> Result<u64, String> {
    let output = cartera()
        .arg("--ledger")
        .arg(ledger)
        .args(["--json", "tx", "--symbol", "BTC"])
        .output()
        .unwrap();
    if !output.status.success() {
        return Err(stderr(&output));
    }
    let page: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    page["totalCount"].as_u64().ok_or_else(|| page.to_string())
}

fn import(ledger: &Path, file: &Path, wait: Option<&str>) -> Child {
    let mut command = cartera();
    if let Some(seconds) = wait {
        command.env("CARTERA_LOCK_WAIT", seconds);
    }
    command
        .arg("--ledger")
        .arg(ledger)
        .arg("import")
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A long import (a fresh file into a small ledger: the bulk path) alongside repeated reads,
/// a second import and a writer with a short wait. Every read succeeds with a committed
/// count; the second import waits and adds its rows; the impatient writer fails naming the
/// import; the final count is exact.
#[test]
fn a_long_import_alongside_reads_and_a_second_import() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let small = dir.path().join("small.csv");
    write_file(&small, "s", 3);
    let large = dir.path().join("large.csv");
    write_file(&large, "l", LARGE);
    let second = dir.path().join("second.csv");
    write_file(&second, "t", 50);
    let output = cartera()
        .arg("--ledger")
        .arg(&ledger)
        .arg("import")
        .arg(&small)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(total(&ledger), Ok(3));

    let mut first = import(&ledger, &large, None);
    let pid = first.id();
    // The first import holds the writer lock before the others start.
    let started = Instant::now();
    while !holds_flock(pid) {
        assert!(
            first.try_wait().unwrap().is_none(),
            "the import ended before the test could read alongside it; make the file larger"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the import never locked"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let second_import = import(&ledger, &second, None);
    let impatient = import(&ledger, &second, Some("0.3"))
        .wait_with_output()
        .unwrap();
    let still_running = first.try_wait().unwrap().is_none();

    let mut reads = 0;
    while first.try_wait().unwrap().is_none() {
        let count =
            total(&ledger).unwrap_or_else(|e| panic!("a read during the import failed: {e}"));
        // Before the import, after it, or after the second import too (it starts as soon as
        // the first releases the ledger, a moment before that process has exited).
        assert!(
            [3, 3 + LARGE, 3 + LARGE + 50].contains(&count),
            "a read saw {count} rows"
        );
        reads += 1;
    }
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(reads >= 1, "no read ran alongside the import");

    let second_output = second_import.wait_with_output().unwrap();
    assert!(second_output.status.success(), "{}", stderr(&second_output));
    let waited = stderr(&second_output);
    assert!(
        waited.starts_with(&format!(
            "cartera: waiting for the import in progress on {} to finish: the ledger is held \
             by process {pid} (`",
            ledger.display()
        )) && waited.contains("large.csv`); waiting up to 120 s\n"),
        "{waited}"
    );
    if still_running {
        assert_eq!(impatient.status.code(), Some(1), "{}", stderr(&impatient));
        let err = stderr(&impatient);
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.starts_with(&format!(
                "cartera: error: the ledger {} is still being written by process {pid} (`",
                ledger.display()
            )) && last.contains(" import ")
                && last.contains("large.csv`) after waiting 0 s; try again once it has finished"),
            "{err}"
        );
    }
    assert_eq!(total(&ledger), Ok(3 + LARGE + 50));
}

/// Whether process `pid` holds a `flock` (from `/proc/locks`).
fn holds_flock(pid: u32) -> bool {
    let pid = pid.to_string();
    std::fs::read_to_string("/proc/locks").is_ok_and(|locks| {
        locks.lines().any(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            fields.get(1) == Some(&"FLOCK") && fields.get(4) == Some(&pid.as_str())
        })
    })
}
