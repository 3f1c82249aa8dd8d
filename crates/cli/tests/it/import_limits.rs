//! Issue 25's import findings through the binary: a quote that swallows rows, dates out of
//! range, unbounded input, error excerpts, absurd amounts and malformed names.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use crate::support::{cartera, example, run, run_at, stderr, stdout, stored_rows};

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
fn an_overflow_within_the_bound_names_its_asset_and_row_and_leaves_the_rest() {
    // Amounts within the import bound whose products are not (D-146): BIG, a quadrillion units
    // at a quadrillion euros, is spent (line 5) and held; MEGA, a quadrillion units staked at a
    // quadrillion euros (line 7), has an income and a cost out of range; ETH and ADA are
    // ordinary.
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = generic(
        dir.path(),
        &[
            "2024-01-02T10:00:00Z,BUY,Bank,BIG,999999999999999,EUR,1000,,,,,,,",
            "2024-01-03T10:00:00Z,BUY,Bank,ETH,2,EUR,3000,,,,,,,",
            "2024-03-03T10:00:00Z,SELL,Bank,EUR,2000,ETH,1,,,,,,,",
            "2024-03-04T10:00:00Z,SPEND,Bank,,,BIG,899999999999999,,,,,,,",
            "2024-05-01T10:00:00Z,STAKING,Bank,ADA,100,,,,,,,,,",
            "2024-06-01T10:00:00Z,STAKING,Bank,MEGA,999999999999999,,,,,,,,,",
        ],
    );
    let name = file.to_str().unwrap();
    let prices = write(
        dir.path(),
        "p.csv",
        "date,symbol,close,currency\n\
         2024-03-04,BIG,999999999999999,EUR\n\
         2024-12-30,BIG,999999999999999,EUR\n\
         2024-05-01,ADA,0.40,EUR\n\
         2024-12-30,ADA,0.50,EUR\n\
         2024-12-30,ETH,3500,EUR\n\
         2024-06-01,MEGA,999999999999999,EUR\n\
         2024-12-30,MEGA,0.000001,EUR\n",
    );
    assert!(run(&ledger, &["import", name]).status.success());
    assert!(
        run(&ledger, &["prices", "import", prices.to_str().unwrap()])
            .status
            .success()
    );
    let key_of_line = |line: u64| {
        let store = ledger_sqlite::SqliteLedger::open(&ledger).unwrap();
        let rows = use_cases::ports::LedgerRead::spot_rows(&store).unwrap();
        rows.iter()
            .map(|r| r.row_key.to_string())
            .find(|key| {
                use_cases::ports::LedgerRead::row_detail(&store, key)
                    .unwrap()
                    .is_some_and(|d| d.source_lines == [line])
            })
            .unwrap()
    };
    let (key_of_line_5, key_of_line_7) = (key_of_line(5), key_of_line(7));
    let metrics = check_portfolio(&ledger, name, &key_of_line_7);
    let tax = check_tax(&ledger, name, &key_of_line_5);
    check_tools(&ledger, &metrics, &tax);
    // The holdings at the year's end name BIG the same way, never as a missing close.
    let at = run_at(&ledger, &["holdings-at", "2024-12-31"]);
    assert_eq!(at.status.code(), Some(0), "{}", stderr(&at));
    let at = stdout(&at);
    assert!(
        at.contains(
            "warning: BIG is not valued: 100000000000000 BIG at its close on or before 2024-12-31 \
             is too large to compute"
        ) && !at.contains("no close at that date"),
        "{at}"
    );
}

/// The portfolio: BIG and MEGA unvalued for being out of range, each named with its cause;
/// ETH and ADA valued and totalled as without them; exit 0. Returns the metrics.
fn check_portfolio(ledger: &Path, name: &str, key_of_line_7: &str) -> serde_json::Value {
    let portfolio = run_at(ledger, &["--json", "portfolio"]);
    assert_eq!(portfolio.status.code(), Some(0), "{}", stderr(&portfolio));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&portfolio)).unwrap();
    let listed = |key: &str, fields: &[&str]| -> Vec<String> {
        summary[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                fields
                    .iter()
                    .map(|f| h[*f].to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(
        listed("valued", &["symbol", "currentValueFiat", "costBasisFiat"]),
        [r#""ETH" "3500.00" "1500.00""#, r#""ADA" "50.00" "40.00""#]
    );
    assert_eq!(
        listed("unvalued", &["symbol", "costBasisFiat", "reason"]),
        [
            r#""BIG" "100.00" "out_of_range""#,
            r#""MEGA" null "out_of_range""#
        ]
    );
    let metrics = &summary["metrics"];
    assert_eq!(metrics["totalEquityFiat"], "3550.00");
    assert_eq!(metrics["totalCostBasisFiat"], "1540.00");
    assert_eq!(metrics["totalRealizedPnlFiat"], "500.00");
    assert_eq!(metrics["pricesIncomplete"], true);
    let text = run_at(ledger, &["portfolio"]);
    assert_eq!(text.status.code(), Some(0));
    let text = stdout(&text);
    assert!(
        text.contains(
            "warning: BIG is not valued: 100000000000000 BIG at its latest close (of 2024-12-30) \
             is too large to compute"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "warning: MEGA is left out of the figures that need it: the value of the income of \
             2024-06-01T10:00:00Z on Bank ({name} line 7, row {key_of_line_7}) is too large to \
             compute: an amount, price or rate of that row is far beyond any real one"
        )),
        "{text}"
    );
    metrics.clone()
}

/// The tax year: the spend of line 5 and the income of line 7 are excluded and named; ETH's
/// gain and ADA's income are those of a ledger without BIG and MEGA. Returns the JSON report.
fn check_tax(ledger: &Path, name: &str, key_of_line_5: &str) -> serde_json::Value {
    let tax = run_at(ledger, &["tax", "2024"]);
    assert_eq!(tax.status.code(), Some(0), "{}", stderr(&tax));
    let tax_text = stdout(&tax);
    assert!(
        tax_text.starts_with(
            "IRPF 2024 (EUR, FIFO): INCOMPLETE (excluded_flagged_events, excluded_unresolved_income)"
        ),
        "{tax_text}"
    );
    assert!(
        tax_text.contains(&format!(
            " BIG: the amounts of row {key_of_line_5} ({name} line 5, leg P, 899999999999999 BIG) \
             are too large to compute; correct it with `cartera edit {key_of_line_5}`"
        )),
        "{tax_text}"
    );
    let tax_json: serde_json::Value =
        serde_json::from_str(&stdout(&run_at(ledger, &["--json", "tax", "2024"]))).unwrap();
    assert_eq!(tax_json["summary"]["capitalGains"], "500.00");
    assert_eq!(tax_json["summary"]["savingsBaseYields"], "40.00");
    let completeness = &tax_json["completeness"];
    assert_eq!(completeness["excludedFlaggedEvents"], 1);
    assert_eq!(completeness["excludedUnresolvedIncome"], 1);
    assert_eq!(
        completeness["excludedOperations"][0]["rowKey"],
        key_of_line_5
    );
    tax_json
}

/// The tools tell the same story: the same holdings out of range, totals and year.
fn check_tools(ledger: &Path, metrics: &serde_json::Value, tax_json: &serde_json::Value) {
    let tool = |tool: &str, args: &str| -> serde_json::Value {
        serde_json::from_str(&stdout(&run_at(ledger, &["tools", "call", tool, args]))).unwrap()
    };
    let summary_tool = tool("portfolio_summary", "{}");
    assert_eq!(summary_tool["kind"], "ok", "{summary_tool}");
    assert_eq!(summary_tool["payload"]["metrics"], *metrics);
    assert_eq!(
        summary_tool["payload"]["unvalued"],
        serde_json::json!([
            {"id": "big", "symbol": "BIG", "amount": "100000000000000", "costBasisFiat": "100.00",
             "currency": "EUR", "reason": "out_of_range"},
            {"id": "mega", "symbol": "MEGA", "amount": "999999999999999", "costBasisFiat": null,
             "currency": "EUR", "reason": "out_of_range"}
        ])
    );
    let gaps = tool("data_gaps", "{}");
    assert_eq!(
        gaps["payload"]["unvalued"]["out_of_range"],
        serde_json::json!([
            {"symbol": "BIG", "amount": "100000000000000"},
            {"symbol": "MEGA", "amount": "999999999999999"}
        ])
    );
    assert_eq!(gaps["payload"]["unvalued"]["outOfRangeCount"], 2);
    let year = tool("spanish_tax_report", r#"{"year":2024}"#);
    assert_eq!(year["payload"]["summary"], tax_json["summary"]);
    assert_eq!(year["payload"]["excludedFlaggedEvents"], 1);
    assert_eq!(year["payload"]["excludedUnresolvedIncome"], 1);
    assert_eq!(
        year["payload"]["completeness"],
        serde_json::json!({
            "kind": "incomplete",
            "reasons": ["excluded_flagged_events", "excluded_unresolved_income"]
        })
    );
    let rows = tool(
        "fiscal_integrity_rows",
        r#"{"qualityFlag":"AMOUNT_OUT_OF_RANGE"}"#,
    );
    assert_eq!(rows["kind"], "ok", "{rows}");
    let found = rows["payload"].to_string();
    for (symbol, at) in [
        ("BIG", "2024-03-04T10:00:00Z"),
        ("MEGA", "2024-06-01T10:00:00Z"),
    ] {
        assert!(
            found.contains(&format!(r#""occurredAt":"{at}","symbol":"{symbol}""#)),
            "{found}"
        );
    }
}
