//! `cartera import`, `rates import` and `prices import` end to end (`imports.md` §1.15, §5).

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use use_cases::ports::RateStore;

use crate::support::{counts, example, run, shared_data, stderr, stdout, stored_rows};

const GENERIC_HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";

fn check_rows(ledger: &Path, expected: &[&str]) {
    assert_eq!(stored_rows(ledger), expected);
}

#[test]
fn generic_example_imports_the_twelve_transactions_of_imports_2_6() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = example("generic/wallets-2024.csv");
    let output = run(&ledger, &["import", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(
        report.contains("  format        generic (detected)\n"),
        "{report}"
    );
    assert!(
        report.contains("  rows read     12\n  added         12 transactions\n  duplicates    0\n"),
        "{report}"
    );
    assert!(report.contains("  result        imported\n"), "{report}");
    check_rows(
        &ledger,
        &[
            "1 Bit2Me 2024-11-02T08:00:00Z DEPOSIT in=700 EUR out= fee=0 EUR value= group=",
            "2 Bit2Me 2024-11-02T09:15:00Z BUY in=0.01 BTC out=650 EUR fee=2.5 EUR value= group=",
            "3 Bit2Me 2024-11-05T18:00:00Z TRANSFER_OUT in= out=0.0099 BTC fee=0.0001 BTC value= group=move-1",
            "4 Ledger 2024-11-05T18:42:10Z TRANSFER_IN in=0.0099 BTC out= fee= value= group=move-1",
            "5 Bit2Me 2024-11-20T12:00:00Z PROMOTION in=10 EUR out= fee= value= group=",
            "6 Ledger 2024-12-01T09:00:00Z AIRDROP in=120 ARB out= fee= value=138 EUR group=",
            "7 Ledger 2024-12-03T16:20:00Z TRANSFER_IN in=0.5012 ETH out= fee= value= group=",
            "8 Ledger 2024-12-03T16:25:31Z SWAP in=1710.55 USDC out=0.5 ETH fee=0 ETH value=1580.2 EUR group=",
            "9 Ledger 2024-12-03T16:25:31Z FEE in= out=0.0012 ETH fee= value= group=",
            "10 Ledger 2024-12-10T20:00:00Z SPEND in= out=0.001 BTC fee= value=62.3 EUR group=",
            "11 Nexo 2024-12-15T08:00:00Z REWARD in=1.25 USDC out= fee= value= group=",
            "12 Bit2Me 2024-12-31T23:59:59Z WITHDRAWAL in= out=40 EUR fee=0.5 EUR value= group=",
        ],
    );

    // Re-importing the same file adds nothing and leaves the version alone.
    let before = counts(&ledger);
    let again = run(&ledger, &["import", file.to_str().unwrap()]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stdout(&again).contains("  added         0 transactions\n  duplicates    12\n"));
    assert_eq!(counts(&ledger), before);
}

#[test]
fn every_exchange_example_imports_end_to_end() {
    // Each example of imports.md §2 through the binary; the stored rows are pinned by a
    // snapshot per file (the importers' own tests assert the spec tables field by field).
    for (file, extra) in [
        ("kraken-ledgers/kraken-2025.csv", &[][..]),
        ("bitvavo/bitvavo-2025.csv", &[][..]),
        ("binance-statement/binance-2025.csv", &[][..]),
        ("coinbase/coinbase-2025.csv", &[][..]),
        ("kraken-futures/futures-2025.csv", &[][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let ledger = dir.path().join("ledger.sqlite");
        let path = example(file);
        let mut args = vec!["import", path.to_str().unwrap()];
        args.extend_from_slice(extra);
        let output = run(&ledger, &args);
        assert!(
            output.status.success(),
            "{file}: {}\n{}",
            stdout(&output),
            stderr(&output)
        );
        let (_, spot, futures) = counts(&ledger);
        let rendered = stored_rows(&ledger).join("\n");
        let name = file.replace(['/', '.'], "_");
        insta::assert_snapshot!(name, format!("spot {spot}, futures {futures}\n{rendered}"));
        // A second import of the same file adds nothing.
        let again = run(&ledger, &args);
        assert!(
            stdout(&again).contains("  added         0 transactions\n"),
            "{file}"
        );
        assert_eq!(counts(&ledger).1, spot);
    }
}

fn generic_lines(rows: std::ops::Range<usize>) -> String {
    let mut text = String::from(GENERIC_HEADER);
    text.push('\n');
    for i in rows {
        let day = 1 + i % 28;
        let _ = writeln!(
            text,
            "2024-03-{day:02}T10:00:{:02}Z,BUY,Wallet,BTC,0.{i:04},EUR,{},EUR,1,,,w-{i},,",
            i % 60,
            100 + i
        );
    }
    text
}

#[test]
fn an_overlapping_later_export_adds_only_its_new_rows() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let first = dir.path().join("first.csv");
    let later = dir.path().join("later.csv");
    std::fs::write(&first, generic_lines(1..9)).unwrap();
    std::fs::write(&later, generic_lines(5..13)).unwrap();
    assert!(
        run(&ledger, &["import", first.to_str().unwrap()])
            .status
            .success()
    );
    let output = run(&ledger, &["import", later.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output)
            .contains("  rows read     8\n  added         4 transactions\n  duplicates    4\n"),
        "{}",
        stdout(&output)
    );
    assert_eq!(counts(&ledger).1, 12);
}

#[test]
fn one_bad_row_writes_nothing_and_every_bad_cell_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let good = dir.path().join("good.csv");
    std::fs::write(&good, generic_lines(1..3)).unwrap();
    assert!(
        run(&ledger, &["import", good.to_str().unwrap()])
            .status
            .success()
    );
    let before = counts(&ledger);

    let bad = dir.path().join("bad.csv");
    let mut text = generic_lines(10..14);
    text.push_str("2024-13-01T10:00:00Z,BUY,Wallet,BTC,1.5x,EUR,100,,,,,w-99,,\n");
    std::fs::write(&bad, text).unwrap();
    let output = run(&ledger, &["import", bad.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let diagnostics = stderr(&output);
    let name = bad.to_str().unwrap();
    assert!(
        diagnostics.contains(&format!(
            "{name}:6:1: error[bad-timestamp] column \"timestamp\""
        )),
        "{diagnostics}"
    );
    assert!(
        diagnostics.contains(&format!(
            "{name}:6:5: error[bad-decimal] column \"in_amount\""
        )),
        "{diagnostics}"
    );
    assert!(
        diagnostics.contains(&format!("{name}: rejected: nothing was written")),
        "{diagnostics}"
    );
    assert!(stdout(&output).contains("  result        rejected\n"));
    assert_eq!(counts(&ledger), before, "the ledger is untouched");

    // With --skip-invalid the four good rows are written and the exit status is still 1.
    let output = run(
        &ledger,
        &["import", bad.to_str().unwrap(), "--skip-invalid"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("imported with invalid rows: 1 not imported"));
    assert_eq!(counts(&ledger).1, before.1 + 4);
}

#[test]
fn dry_run_writes_nothing_and_usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = example("generic/wallets-2024.csv");
    let output = run(&ledger, &["import", file.to_str().unwrap(), "--dry-run"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("  added         12 transactions\n"));
    assert!(stdout(&output).contains("  result        dry run: nothing written\n"));
    assert_eq!(counts(&ledger).1, 0);

    let usage = run(
        &ledger,
        &[
            "import",
            file.to_str().unwrap(),
            "--format",
            "generic",
            "--account",
            "X",
        ],
    );
    assert_eq!(usage.status.code(), Some(2), "{}", stderr(&usage));
    assert!(
        stderr(&usage).starts_with("cartera: error[option-not-applicable]: "),
        "{}",
        stderr(&usage)
    );
    let unknown = run(&ledger, &["import"]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn json_report_counts_rows_that_add_up_to_rows_read() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = example("kraken-ledgers/kraken-2025.csv");
    let output = run(&ledger, &["--json", "import", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let file_report = &report["files"][0];
    let rows = &file_report["rows"];
    let sum: u64 = ["added", "duplicate", "skipped", "invalid"]
        .iter()
        .map(|k| rows[k].as_u64().unwrap())
        .sum();
    assert_eq!(Some(sum), file_report["rowsRead"].as_u64());
    assert_eq!(file_report["result"], "imported");
}

#[test]
fn a_killed_import_leaves_the_ledger_exactly_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let small = dir.path().join("small.csv");
    std::fs::write(&small, generic_lines(1..4)).unwrap();
    assert!(
        run(&ledger, &["import", small.to_str().unwrap()])
            .status
            .success()
    );
    let before = counts(&ledger);

    let large = dir.path().join("large.csv");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&large).unwrap());
    writeln!(file, "{GENERIC_HEADER}").unwrap();
    for i in 0..400_000u64 {
        writeln!(
            file,
            "2023-{:02}-{:02}T{:02}:{:02}:{:02}Z,BUY,Bulk,BTC,0.{:06},EUR,{},,,,,b-{i},,",
            1 + i % 12,
            1 + i % 28,
            i % 24,
            i % 60,
            (i / 60) % 60,
            1 + i % 999_999,
            10 + i % 1000
        )
        .unwrap();
    }
    file.flush().unwrap();
    drop(file);

    let mut child = crate::support::cartera()
        .arg("--ledger")
        .arg(&ledger)
        .args(["import", large.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once the write transaction has started spilling pages into the WAL, or (a bulk
    // import runs with a rollback journal) into the database file while the journal exists,
    // or after a while in any case (then it dies while parsing, which must be just as
    // harmless).
    let wal = dir.path().join("ledger.sqlite-wal");
    let journal = dir.path().join("ledger.sqlite-journal");
    let size = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |m| m.len());
    let started = Instant::now();
    let base = size(&wal);
    let base_db = size(&ledger);
    while started.elapsed() < Duration::from_secs(20) {
        if size(&wal) > base + 64 * 1024
            || (journal.exists() && size(&ledger) > base_db + 64 * 1024)
        {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let finished_early = child.try_wait().unwrap().is_some();
    child.kill().ok(); // SIGKILL on Unix.
    child.wait().unwrap();
    assert!(
        !finished_early,
        "the import finished before it could be killed; make the file larger"
    );
    assert_eq!(counts(&ledger), before, "row counts and version unchanged");
}

#[test]
fn ecb_history_imports_whole_and_twice_adds_nothing() {
    let Some(data) = shared_data() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = data.join("ecb/eurofxref-hist.csv");
    let output = run(&ledger, &["rates", "import", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(report.contains("  rows read     7126\n"), "{report}");
    assert!(report.contains("  result        imported\n"), "{report}");

    let store = ledger_sqlite::SqliteLedger::open(&ledger).unwrap();
    let day = "2024-01-02".parse().unwrap();
    for (currency, expected) in [("USD", "1.0956"), ("GBP", "0.86645")] {
        let rate = store
            .rate_on_or_before(core_domain::Asset::new(currency).unwrap(), day)
            .unwrap()
            .unwrap();
        assert_eq!(rate.date, day);
        assert_eq!(
            core_domain::num::format(rate.rate, core_domain::num::OutputClass::Rate),
            expected
        );
    }
    drop(store);

    let again = run(&ledger, &["rates", "import", file.to_str().unwrap()]);
    assert!(again.status.success());
    assert!(
        stdout(&again).contains("  added         0 rates\n"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn price_examples_import_and_conflicts_need_replace() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let daily = example("prices/daily-sample.csv");
    let output = run(&ledger, &["prices", "import", daily.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("  added         4 prices\n"),
        "{}",
        stdout(&output)
    );

    let changed = dir.path().join("changed.csv");
    std::fs::write(
        &changed,
        "date,symbol,close,currency\n2025-01-13,BTC,91000,EUR\n",
    )
    .unwrap();
    let conflict = run(&ledger, &["prices", "import", changed.to_str().unwrap()]);
    assert_eq!(conflict.status.code(), Some(1));
    assert!(
        stderr(&conflict).contains("error[price-conflict]"),
        "{}",
        stderr(&conflict)
    );
    let replaced = run(
        &ledger,
        &["prices", "import", changed.to_str().unwrap(), "--replace"],
    );
    assert!(replaced.status.success(), "{}", stderr(&replaced));
    assert!(
        stdout(&replaced).contains("  replaced      1\n"),
        "{}",
        stdout(&replaced)
    );

    let series = example("prices/series-sample.csv");
    let missing = run(
        &ledger,
        &[
            "prices",
            "import",
            series.to_str().unwrap(),
            "--format",
            "series",
        ],
    );
    assert_eq!(missing.status.code(), Some(2));
    let ok = run(
        &ledger,
        &[
            "prices",
            "import",
            series.to_str().unwrap(),
            "--format",
            "series",
            "--symbol",
            "BTC",
            "--currency",
            "EUR",
        ],
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(stdout(&ok).contains("  added         2 prices\n"));
}

#[test]
fn version_names_the_time_zone_database() {
    let output = crate::support::cartera().arg("--version").output().unwrap();
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.starts_with("cartera 0.0.0 (tzdb 20"), "{text}");
}

/// A generic file large enough for the streamed path (over 3 MiB), in time order, with
/// `bad` rows (0-based) whose amount does not parse.
fn large_generic(path: &Path, rows: u64, bad: &[u64]) {
    large_generic_rows(path, 0..rows, bad);
}

/// [`large_generic`] with the rows `rows` of the same series.
fn large_generic_rows(path: &Path, rows: std::ops::Range<u64>, bad: &[u64]) {
    let mut text = format!("{GENERIC_HEADER}\n");
    for i in rows {
        let amount = if bad.contains(&i) {
            "x".to_owned()
        } else {
            format!("0.{:06}", 1 + i % 999_999)
        };
        writeln!(
            text,
            "2023-05-{:02}T{:02}:{:02}:{:02}Z,BUY,Stream {},BTC,{amount},EUR,{},EUR,0.5,,,s-{i},,bulk row",
            1 + i / 86_400,
            i / 3600 % 24,
            i / 60 % 60,
            i % 60,
            i % 3,
            10 + i % 1000
        )
        .unwrap();
    }
    assert!(text.len() > 3 << 20, "the file must take the streamed path");
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_large_file_streams_all_or_nothing_and_reports_every_bad_row() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = dir.path().join("large.csv");
    let rows = 45_000;
    large_generic(&file, rows, &[7, 44_990]);
    let name = file.to_str().unwrap();
    // Default: rejected, nothing written, both bad rows reported.
    let output = run(&ledger, &["import", name]);
    assert_eq!(output.status.code(), Some(1));
    let errors = stderr(&output);
    assert!(
        errors.contains(&format!(
            "{name}:9:5: error[bad-decimal] column \"in_amount\": \"x\" is not a plain decimal number\n"
        )),
        "{errors}"
    );
    assert!(
        errors.contains(&format!("{name}:44992:5: error[bad-decimal]")),
        "{errors}"
    );
    assert!(stdout(&output).contains("  result        rejected\n"));
    assert_eq!(counts(&ledger), (0, 0, 0));
    // --dry-run with --skip-invalid: the report of a write, nothing written.
    let output = run(&ledger, &["import", name, "--skip-invalid", "--dry-run"]);
    let report = stdout(&output);
    assert!(
        report.contains("  added         44998 transactions\n"),
        "{report}"
    );
    assert!(
        report.contains("  result        dry run: nothing written\n"),
        "{report}"
    );
    assert_eq!(counts(&ledger), (0, 0, 0));
    // --skip-invalid: the valid rows, in file order, one import log entry.
    let output = run(&ledger, &["import", name, "--skip-invalid"]);
    assert_eq!(output.status.code(), Some(1));
    let report = stdout(&output);
    assert!(
        report.contains("  added         44998 transactions\n"),
        "{report}"
    );
    assert!(report.contains("  invalid rows  2\n"), "{report}");
    assert!(
        report.contains("  result        imported with invalid rows\n"),
        "{report}"
    );
    assert_eq!(counts(&ledger), (1, 44_998, 0));
    let stored = stored_rows(&ledger);
    assert_eq!(stored.len(), 44_998);
    assert_eq!(
        stored.first().map(String::as_str),
        Some(
            "1 Stream 0 2023-05-01T00:00:00Z BUY in=0.000001 BTC out=10 EUR fee=0.5 EUR value= group="
        )
    );
    assert_eq!(
        stored.last().map(String::as_str),
        Some(
            "44998 Stream 2 2023-05-01T12:29:59Z BUY in=0.045 BTC out=1009 EUR fee=0.5 EUR value= group="
        )
    );
    // Again: every row is a duplicate, nothing changes.
    let output = run(&ledger, &["--json", "import", name, "--skip-invalid"]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"][0]["added"], 0);
    assert_eq!(report["files"][0]["duplicates"], 44_998);
    assert_eq!(report["files"][0]["rows"]["duplicate"], 44_998);
    assert_eq!(counts(&ledger), (1, 44_998, 0));
    assert_eq!(stored_rows(&ledger), stored);
}

#[test]
fn a_large_file_out_of_order_streams_to_the_ledger_of_its_sorted_rows() {
    let dir = tempfile::tempdir().unwrap();
    let sorted = dir.path().join("sorted.csv");
    large_generic(&sorted, 45_000, &[7, 44_990]);
    // The same rows newest first: every row is out of order, so the rows are staged.
    let text = std::fs::read_to_string(&sorted).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let reversed = dir.path().join("reversed.csv");
    std::fs::write(&reversed, lines.join("\n") + "\n").unwrap();
    let (in_order, out_of_order) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    // Rejected as a whole, with both bad rows at their lines in the reversed file.
    let name = reversed.to_str().unwrap();
    let output = run(&out_of_order, &["import", name]);
    assert_eq!(output.status.code(), Some(1));
    let errors = stderr(&output);
    assert!(
        errors.contains(&format!("{name}:11:5: error[bad-decimal]")),
        "{errors}"
    );
    assert!(
        errors.contains(&format!("{name}:44994:5: error[bad-decimal]")),
        "{errors}"
    );
    assert_eq!(counts(&out_of_order), (0, 0, 0));
    for (ledger, file) in [(&in_order, &sorted), (&out_of_order, &reversed)] {
        let output = run(
            ledger,
            &["import", file.to_str().unwrap(), "--skip-invalid"],
        );
        assert!(
            stdout(&output).contains("  added         44998 transactions\n"),
            "{}",
            stdout(&output)
        );
    }
    assert_eq!(counts(&out_of_order), (1, 44_998, 0));
    assert_eq!(stored_rows(&out_of_order), stored_rows(&in_order));
    let keys = |ledger: &Path| stdout(&run(ledger, &["--json", "tx", "--keys"]));
    assert_eq!(keys(&out_of_order), keys(&in_order));
}

/// A large file into a ledger holding more rows than it: streamed with each row checked
/// against the stored keys, in time order or not, all or nothing, duplicates reported.
#[test]
fn a_large_file_streams_into_a_larger_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.csv");
    large_generic(&first, 75_000, &[]);
    // 45,000 rows, the first 20,000 of them stored already, two of the new ones bad.
    let sorted = dir.path().join("sorted.csv");
    large_generic_rows(&sorted, 55_000..100_000, &[80_000, 99_000]);
    let text = std::fs::read_to_string(&sorted).unwrap();
    assert!(
        text.len() / 64 < 75_000,
        "the ledger is larger than the file"
    );
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let reversed = dir.path().join("reversed.csv");
    std::fs::write(&reversed, lines.join("\n") + "\n").unwrap();
    let a = dir.path().join("a.sqlite");
    let output = run(&a, &["import", first.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let b = dir.path().join("b.sqlite");
    std::fs::copy(&a, &b).unwrap();
    let before = stored_rows(&a);
    for (ledger, file, line) in [(&a, &sorted, 25_002), (&b, &reversed, 20_001)] {
        let name = file.to_str().unwrap();
        // Rejected: nothing written, the bad rows reported at their lines.
        let output = run(ledger, &["import", name]);
        assert_eq!(output.status.code(), Some(1));
        let errors = stderr(&output);
        assert!(
            errors.contains(&format!("{name}:{line}:5: error[bad-decimal]")),
            "{errors}"
        );
        assert_eq!(counts(ledger), (1, 75_000, 0));
        let output = run(ledger, &["--json", "import", name, "--skip-invalid"]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["files"][0]["added"], 24_998);
        assert_eq!(report["files"][0]["duplicates"], 20_000);
        assert_eq!(report["files"][0]["rows"]["duplicate"], 20_000);
        assert_eq!(counts(ledger), (2, 99_998, 0));
    }
    let after = stored_rows(&a);
    assert_eq!(after.get(..75_000), Some(before.as_slice()));
    assert_eq!(stored_rows(&b), after);
    let keys = |ledger: &Path| stdout(&run(ledger, &["--json", "tx", "--keys"]));
    assert_eq!(keys(&b), keys(&a));
    // Again: every row is a duplicate, found through the key index the imports kept.
    let output = run(
        &b,
        &[
            "--json",
            "import",
            sorted.to_str().unwrap(),
            "--skip-invalid",
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"][0]["added"], 0);
    assert_eq!(report["files"][0]["duplicates"], 44_998);
    assert_eq!(counts(&b), (2, 99_998, 0));
}

/// A Coinbase report of `rows` rows, oldest first (`v4`, or `v3` without ids): buys, and
/// every tenth row a staking move (two transactions).
fn large_coinbase(rows: u64, v4: bool) -> Vec<String> {
    (0..rows)
        .map(|i| {
            let (hh, mm, ss) = (i / 3600, i / 60 % 60, i % 60);
            let (id, ts) = if v4 {
                (
                    format!("{:024x},", 0x68a0_0000_u64 + i),
                    format!("2023-05-01 {hh:02}:{mm:02}:{ss:02} UTC"),
                )
            } else {
                (String::new(), format!("2023-05-01T{hh:02}:{mm:02}:{ss:02}Z"))
            };
            if i % 10 == 9 {
                format!(
                    "{id}{ts},Retail Staking Transfer,ETH,0.06,EUR,\"€3,300.00\",€198.00,€198.00,€0.00,"
                )
            } else {
                format!(
                    "{id}{ts},Buy,BTC,0.001,EUR,\"€10,000.00\",€10.00,€10.50,€0.50,Bought 0.001 BTC for €10.50 EUR"
                )
            }
        })
        .collect()
}

#[test]
fn a_large_coinbase_report_streams_and_matches_older_reports_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let v4_header = "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes";
    let v3_header = "Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes";
    let write = |name: &str, header: &str, mut rows: Vec<String>, newest_first: bool| {
        if newest_first {
            rows.reverse();
        }
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!("Transactions\n{header}\n{}\n", rows.join("\n")),
        )
        .unwrap();
        path
    };
    let v3 = write("old.csv", v3_header, large_coinbase(1000, false), true);
    let rows = large_coinbase(30_000, true);
    let newest = write("newest.csv", v4_header, rows.clone(), true);
    let oldest = write("oldest.csv", v4_header, rows, false);
    assert!(
        std::fs::metadata(&newest).unwrap().len() > 3 << 20,
        "streamed path"
    );
    let (a, b) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    for (ledger, file) in [(&a, &oldest), (&b, &newest)] {
        let output = run(ledger, &["import", v3.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        // The v3 report's 1,100 transactions are found again by content key.
        let output = run(ledger, &["--json", "import", file.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["files"][0]["added"], 31_900);
        assert_eq!(report["files"][0]["duplicates"], 1100);
        assert_eq!(report["files"][0]["rows"]["duplicate"], 1000);
        assert_eq!(counts(ledger), (2, 33_000, 0));
    }
    assert_eq!(stored_rows(&b), stored_rows(&a));
    let keys = |ledger: &Path| stdout(&run(ledger, &["--json", "tx", "--keys"]));
    assert_eq!(keys(&b), keys(&a));
    // Again: every transaction is a duplicate, by content key or by id.
    let output = run(&b, &["--json", "import", oldest.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"][0]["added"], 0);
    assert_eq!(report["files"][0]["duplicates"], 33_000);
    assert_eq!(counts(&b), (2, 33_000, 0));
}

/// A Binance statement of `seconds` seconds five seconds apart, oldest first: trades with
/// fee legs, deposits, sub-wallet moves, dust, rewards written twice (on `Earn`, then on
/// `Spot`), equal deposits.
fn large_binance(seconds: u64) -> Vec<String> {
    let mut rows = Vec::new();
    for i in 0..seconds {
        let t = i * 5;
        let stamp = format!(
            "39184726,2025-03-{:02} {:02}:{:02}:{:02}",
            1 + t / 86_400,
            t / 3600 % 24,
            t / 60 % 60,
            t % 60
        );
        let legs: &[&str] = match i % 4 {
            0 => &[
                "Spot,Transaction Spend,EUR,-10.00000000,\"\"",
                "Spot,Transaction Buy,BTC,0.00020000,\"\"",
                "Spot,Transaction Fee,BNB,-0.00001000,\"\"",
            ],
            1 => &[
                "Spot,Simple Earn Flexible Subscription,BTC,-0.00010000,\"\"",
                "Spot,Deposit,EUR,100.00000000,\"\"",
                "Earn,Simple Earn Flexible Subscription,BTC,0.00010000,\"\"",
            ],
            2 => &[
                "Earn,Simple Earn Flexible Interest,BTC,0.00000{n},\"\"",
                "Spot,Small Assets Exchange BNB,DOGE,-12.50000000,DOGE to BNB",
                "Spot,Small Assets Exchange BNB,BNB,0.00500000,DOGE to BNB",
            ],
            _ => &[
                "Spot,Simple Earn Flexible Interest,BTC,0.00000{n},\"\"",
                "Spot,Deposit,BTC,0.01000000,\"\"",
                "Spot,Deposit,BTC,0.01000000,\"\"",
            ],
        };
        // A reward's amount is its pair's alone within two hours.
        let n = format!("{:03}", 100 + i / 4 % 900);
        rows.extend(
            legs.iter()
                .map(|leg| format!("{stamp},{}", leg.replace("{n}", &n))),
        );
    }
    rows
}

#[test]
fn a_large_binance_statement_streams_oldest_first_and_is_read_whole_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let header = "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark";
    let mut rows = large_binance(19_000);
    let oldest = dir.path().join("oldest.csv");
    std::fs::write(&oldest, format!("{header}\n{}\n", rows.join("\n"))).unwrap();
    rows.reverse();
    let newest = dir.path().join("newest.csv");
    std::fs::write(&newest, format!("{header}\n{}\n", rows.join("\n"))).unwrap();
    assert!(
        std::fs::metadata(&oldest).unwrap().len() > 3 << 20,
        "streamed path"
    );
    let (a, b) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    for (ledger, file) in [(&a, &oldest), (&b, &newest)] {
        let output = run(ledger, &["--json", "import", file.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        // Per four seconds: a buy, a move (two), a deposit, a reward, a dust swap, a
        // reward and two deposits.
        assert_eq!(report["files"][0]["added"], 19_000 / 4 * 9);
        // Each reward written twice warns on both lines.
        assert_eq!(report["files"][0]["warnings"], 19_000 / 4 * 2);
        assert_eq!(counts(ledger), (1, 19_000 / 4 * 9, 0));
    }
    // The same rows; within a second they follow their first lines, which differ.
    let sorted = |ledger: &Path| {
        let mut rows: Vec<String> = stored_rows(ledger)
            .iter()
            .map(|r| r.split_once(' ').unwrap().1.to_owned())
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(sorted(&b), sorted(&a));
    // Again, streamed: every transaction is a duplicate (the same identities).
    let output = run(&b, &["--json", "import", oldest.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"][0]["added"], 0);
    assert_eq!(report["files"][0]["duplicates"], 19_000 / 4 * 9);
}

/// A Kraken futures log of `rows` entries a minute apart, oldest first: trades with their
/// position legs, funding in three settlement currencies, settlements and conversions.
fn large_futures(rows: u64) -> Vec<String> {
    let contracts = [
        ("pf_xbtusd", "usd"),
        ("pf_soleur", "eur"),
        ("fi_xbtusd", "xbt"),
    ];
    (0..rows)
        .map(|i| {
            let (day, hh, mm) = (1 + i / 1440, i / 60 % 24, i % 60);
            let time = format!("2025-{:02}-{:02} {hh:02}:{mm:02}:00", 1 + day / 28, 1 + day % 28);
            let (contract, symbol) = contracts[usize::try_from(i % 3).unwrap()];
            let uid = format!("{i:08x}-9d3f-4a8e-b6c5-1f0e2d3c4b5a");
            match i % 6 {
                0 | 1 => format!(
                    "{uid},{time},flex,futures trade,{symbol},{contract},-1.5,100,,60997,,,-1,0.5,,,,,"
                ),
                2 => format!(
                    "{uid},{time},flex,futures trade,{contract},{contract},0.02,0,,60997,,,,,,,,,"
                ),
                3 => format!(
                    "{uid},{time},flex,funding rate change,{symbol},{contract},0.0031,100,,,,0.0000012,,,0.0031,,,,"
                ),
                4 => format!("{uid},{time},flex,settlement,{symbol},{contract},3,100,,,,,3,,,,,,"),
                _ => format!("{uid},{time},flex,conversion,{symbol},,10,100,,,,,,,,,0.0015,,"),
            }
        })
        .collect()
}

#[test]
fn a_large_futures_log_streams_newest_first_or_shuffled() {
    let dir = tempfile::tempdir().unwrap();
    let header = "uid,dateTime,account,type,symbol,contract,change,new balance,new average entry price,trade price,mark price,funding rate,realized pnl,fee,realized funding,collateral,conversion spread percentage,liquidation fee,position uid";
    let rows = large_futures(33_000);
    let write = |name: &str, rows: Vec<String>| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{header}\n{}\n", rows.join("\n"))).unwrap();
        path
    };
    let newest = write("newest.csv", rows.iter().rev().cloned().collect());
    assert!(
        std::fs::metadata(&newest).unwrap().len() > 3 << 20,
        "streamed path"
    );
    // A fixed permutation (33,000 and 7,919 are coprime).
    let shuffled = write(
        "shuffled.csv",
        (0..rows.len())
            .map(|i| rows[i * 7919 % rows.len()].clone())
            .collect(),
    );
    let mut bad_rows = rows.clone();
    bad_rows[99] = bad_rows[99].replace("funding rate change", "interest payment");
    bad_rows.reverse();
    let bad = write("bad.csv", bad_rows);
    let (a, b) = (dir.path().join("a.sqlite"), dir.path().join("b.sqlite"));
    // A bad row rejects the file, reported at its line; nothing is written.
    let name = bad.to_str().unwrap();
    let output = run(&a, &["import", name]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(&format!("{name}:32902:4: error[unsupported-type]")),
        "{}",
        stderr(&output)
    );
    assert_eq!(counts(&a), (0, 0, 0));
    // Records: trades, funding and settlements; position legs and conversions skipped.
    let records = 33_000 / 6 * 4;
    for (ledger, file) in [(&a, &newest), (&b, &shuffled)] {
        let output = run(ledger, &["--json", "import", file.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        let file = &report["files"][0];
        assert_eq!(file["format"], "kraken-futures");
        assert_eq!(file["added"], records);
        assert_eq!(file["rows"]["added"], records);
        assert_eq!(file["rows"]["skipped"], 33_000 / 6 * 2);
        assert_eq!(counts(ledger), (1, 0, records));
    }
    // The same rows, numbered in time order, and the same accounts.
    let futures = |ledger: &Path| {
        use use_cases::ports::LedgerRead as _;
        let store = ledger_sqlite::SqliteLedger::open(ledger).unwrap();
        let rows = store.futures_rows().unwrap();
        assert!(rows.windows(2).all(|w| w[0].seq < w[1].seq));
        (
            format!("{rows:?}"),
            format!("{:?}", store.accounts().unwrap()),
        )
    };
    assert_eq!(futures(&b), futures(&a));
    // Again: every record is a duplicate, and the ledger is unchanged.
    let output = run(&b, &["--json", "import", newest.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"][0]["added"], 0);
    assert_eq!(report["files"][0]["duplicates"], records);
    assert_eq!(report["files"][0]["rows"]["duplicate"], records);
    assert_eq!(counts(&b), (1, 0, records));
}
