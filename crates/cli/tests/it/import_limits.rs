//! Issue 25's import findings through the binary: a quote that swallows rows, dates out of
//! range, unbounded input, error excerpts, absurd amounts and malformed names.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use crate::support::{cartera, example, run, stderr, stdout, stored_rows};

const HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn generic(dir: &Path, rows: &[&str]) -> PathBuf {
    let mut text = format!("{HEADER}\n");
    for row in rows {
        text.push_str(row);
        text.push('\n');
    }
    write(dir, "g.csv", &text)
}

/// The `--json` report of the one file of an import.
fn json_report(output: &Output) -> serde_json::Value {
    let document: serde_json::Value =
        serde_json::from_str(&stdout(output)).unwrap_or_else(|e| panic!("{e}: {}", stdout(output)));
    document["files"][0].clone()
}

/// rows read = added + duplicates + skipped + invalid.
fn assert_rows_add_up(report: &serde_json::Value) {
    let rows = &report["rows"];
    let sum: u64 = ["added", "duplicate", "skipped", "invalid"]
        .iter()
        .map(|k| rows[k].as_u64().unwrap())
        .sum();
    assert_eq!(report["rowsRead"].as_u64(), Some(sum), "{report:#}");
}

#[test]
fn a_note_quote_closed_lines_later_is_a_finding_naming_the_lines() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = generic(
        dir.path(),
        &[
            "2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,100,,,,,,,,,\"first",
            "2024-01-02T10:00:00Z,DEPOSIT,Bank,EUR,200,,,,,,,,,second",
            "2024-01-03T10:00:00Z,DEPOSIT,Bank,EUR,300,,,,,,,,,third\"",
            "2024-01-04T10:00:00Z,DEPOSIT,Bank,EUR,400,,,,,,,,,fourth",
        ],
    );
    let name = file.to_str().unwrap();
    let output = run(&ledger, &["import", name]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!("{name}:2:14: error[quote-spans-lines] column \"note\": a quoted value spans lines 2 to 4, which were read as this one cell; is a closing quote missing on line 2?\n")),
        "{}",
        stderr(&output)
    );
    assert!(
        stdout(&output).contains("  rows read     2\n"),
        "{}",
        stdout(&output)
    );
    let output = run(&ledger, &["--json", "import", "--skip-invalid", name]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let report = json_report(&output);
    assert_eq!(report["rows"]["added"], 1);
    assert_eq!(report["rows"]["invalid"], 1);
    assert_rows_add_up(&report);
    assert_eq!(stored_rows(&ledger).len(), 1);
}

#[test]
fn counts_add_up_for_every_example() {
    for file in [
        "generic/wallets-2024.csv",
        "kraken-ledgers/kraken-2025.csv",
        "bitvavo/bitvavo-2025.csv",
        "binance-statement/binance-2025.csv",
        "coinbase/coinbase-2025.csv",
        "kraken-futures/futures-2025.csv",
    ] {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("ledger.sqlite");
        let path = example(file);
        for _ in 0..2 {
            // The second import finds every row a duplicate.
            let output = run(&ledger, &["--json", "import", path.to_str().unwrap()]);
            assert!(output.status.success(), "{file}: {}", stderr(&output));
            assert_rows_add_up(&json_report(&output));
        }
    }
}

#[test]
fn a_price_dated_3024_or_before_1677_is_an_invalid_row() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = write(
        dir.path(),
        "p.csv",
        "date,symbol,close,currency\n3024-01-13,BTC,90000,EUR\n1600-01-13,BTC,1,EUR\n2024-01-13,BTC,90000,EUR\n",
    );
    let name = file.to_str().unwrap();
    let output = run(&ledger, &["prices", "import", name]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "{name}:2:1: error[timestamp-out-of-range] column \"date\": 3024-01-13 is outside 2009-01-01 … 2100-01-01\n\
             {name}:3:1: error[timestamp-out-of-range] column \"date\": 1600-01-13 is outside 2009-01-01 … 2100-01-01\n\
             {name}: rejected: nothing was written; --skip-invalid imports the valid rows and \
             reports the invalid ones (2)\n"
        )
    );
    assert!(
        stdout(&output).contains("  invalid rows  2\n"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_instant_with_an_offset_keeps_it_in_the_range_error() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = generic(
        dir.path(),
        &["2009-01-01T00:30:00+01:00,DEPOSIT,Bank,EUR,1,,,,,,,,,"],
    );
    let output = run(&ledger, &["import", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("error[timestamp-out-of-range] column \"timestamp\": 2009-01-01T00:30:00+01:00 is outside 2009-01-01 … 2100-01-01\n"),
        "{}",
        stderr(&output)
    );
}

/// Runs `cartera` with a deadline: a command that reads without end fails the test instead
/// of hanging it.
fn run_bounded(ledger: &Path, args: &[&str]) -> Output {
    let mut child = cartera()
        .arg("--ledger")
        .arg(ledger)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("cartera {args:?} still reading after 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_device_is_read_up_to_its_cap() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    for command in [&["import"][..], &["prices", "import"], &["rates", "import"]] {
        let mut args = command.to_vec();
        args.push("/dev/zero");
        let output = run_bounded(&ledger, &args);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert!(
            stderr(&output).starts_with("/dev/zero:1:1: error[file-unreadable] column \"-\": cannot read the file: it is not a regular file and holds more than 64 MiB; save it as a file and import that\n"),
            "{}",
            stderr(&output)
        );
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let fifo = dir.path().join("pipe.csv");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let bytes = std::fs::read(example("generic/wallets-2024.csv")).unwrap();
            std::fs::write(fifo, bytes).unwrap();
        })
    };
    let output = run_bounded(&ledger, &["import", fifo.to_str().unwrap()]);
    writer.join().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("  added         12 transactions\n"));
}

#[test]
fn a_long_line_is_refused_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    // 8 MB on one line: large enough for the streamed read.
    let mut text = format!("{HEADER}\n2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,1,,,,,,,,,\n");
    text.push_str(&"7".repeat(8 << 20));
    text.push('\n');
    let file = write(dir.path(), "long.csv", &text);
    let name = file.to_str().unwrap();
    let output = run_bounded(&ledger, &["import", name]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "{name}:3:1: error[record-too-long] column \"timestamp\": the record starting on line 3 is longer than 1 MiB (a quote that is never closed?); the file was not read past it\n{name}: rejected: nothing was written\n"
        )
    );
    assert!(!ledger.exists() || stored_rows(&ledger).is_empty());
}

#[test]
fn error_text_quotes_a_short_escaped_excerpt() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let cell = format!("\0{}", "x".repeat(60_000));
    let row = format!("2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,{cell},,,,,,,,,");
    let file = generic(dir.path(), &[&row]);
    let output = run(&ledger, &["import", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(!text.contains('\0'), "a NUL reached the terminal");
    assert!(text.len() < 400, "{} bytes of stderr", text.len());
    assert!(
        text.contains(&format!(
            "error[bad-decimal] column \"in_amount\": \"\\0{}…\" is not a plain decimal number\n",
            "x".repeat(59)
        )),
        "{text}"
    );
}

#[test]
fn a_28_digit_amount_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = generic(
        dir.path(),
        &["2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,1234567890123456789012345678,,,,,,,,,"],
    );
    let name = file.to_str().unwrap();
    let output = run(&ledger, &["import", name]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(&format!("{name}:2:5: error[decimal-out-of-range] column \"in_amount\": \"1234567890123456789012345678\" has more than 15 digits before the point; larger amounts are not accepted\n")),
        "{}",
        stderr(&output)
    );
}

#[test]
fn account_names_with_empty_parts_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let kraken = example("kraken-ledgers/kraken-2025.csv");
    for name in ["Kraken:", ":x", "Kraken::spot"] {
        let output = run(
            &ledger,
            &["import", "--account", name, kraken.to_str().unwrap()],
        );
        assert_eq!(output.status.code(), Some(2), "{name}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!("error[bad-account-name]: \"{name}\" is not a valid account name: a part before or after \":\" is empty (write Parent:child)")),
            "{}",
            stderr(&output)
        );
    }
    let file = generic(
        dir.path(),
        &["2024-01-01T10:00:00Z,DEPOSIT,Kraken::spot,EUR,1,,,,,,,,,"],
    );
    let output = run(&ledger, &["import", file.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("error[bad-account-name] column \"account\": \"Kraken::spot\"")
    );
}

#[test]
fn coinbase_fees_and_long_notes() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let header = "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes";
    let note = "n".repeat(10_000);
    let text = format!(
        "{header}\n\
         a1,2025-01-13 12:20:53 UTC,Buy,BTC,0.001,EUR,€90000.00,€90.00,€95.00,-€5.00,Bought\n\
         a2,2025-01-13 12:21:53 UTC,Buy,BTC,0.001,EUR,€90000.00,€90.00,€95.00,$5.00,{note}\n"
    );
    let file = write(dir.path(), "c.csv", &text);
    let name = file.to_str().unwrap();
    let output = run(&ledger, &["import", "--skip-invalid", name]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "{name}:2:10: error[negative-not-allowed] column \"Fees and/or Spread\": \"-€5.00\" must not be negative\n\
             {name}:3:10: warning[currency-mismatch] column \"Fees and/or Spread\": the fee \"$5.00\" is written in USD, the row's currency is EUR; it was read as EUR\n\
             {name}: imported with invalid rows: 1 not imported\n"
        )
    );
    let store = ledger_sqlite::SqliteLedger::open(&ledger).unwrap();
    let rows = use_cases::ports::LedgerRead::spot_rows(&store).unwrap();
    assert_eq!(rows.len(), 1);
    let detail = use_cases::ports::LedgerRead::row_detail(&store, &rows[0].row_key.to_string())
        .unwrap()
        .unwrap();
    let stored = detail.note.unwrap_or_default();
    assert_eq!(stored.chars().count(), 500);
    assert!(stored.ends_with("nn…"), "{stored}");
}

#[test]
fn an_overflow_within_the_bound_is_told_in_words() {
    // Amounts within the import bound whose product still overflows a decimal.
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = generic(
        dir.path(),
        &[
            "2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,999999999999999,,,,,,,,,",
            "2024-01-02T10:00:00Z,BUY,Bank,BTC,999999999999999,EUR,999999999999999,,,,,,,",
        ],
    );
    let prices = write(
        dir.path(),
        "p.csv",
        "date,symbol,close,currency\n2024-12-30,BTC,999999999999999,EUR\n",
    );
    assert!(
        run(&ledger, &["import", file.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        run(&ledger, &["prices", "import", prices.to_str().unwrap()])
            .status
            .success()
    );
    let output = crate::support::run_at(&ledger, &["portfolio"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "cartera: error: the amounts are too large to compute the current value: an amount, price or rate in the ledger is far beyond any real one\n"
    );
}
