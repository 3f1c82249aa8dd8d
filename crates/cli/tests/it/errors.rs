//! Clear messages and exit codes when data is missing or a name is unknown (`cli.md`).

use crate::support::{DemoLedger, cartera, run_at, stderr, stdout};

fn check(output: &std::process::Output, code: i32, message: &str) {
    assert_eq!(output.status.code(), Some(code), "{}", stderr(output));
    assert!(stdout(output).is_empty(), "{}", stdout(output));
    assert!(
        stderr(output).contains(message),
        "{message:?} not in {}",
        stderr(output)
    );
}

#[test]
fn unknown_year_and_unknown_symbol_exit_1() {
    let demo = DemoLedger::build();
    check(
        &demo.run(&["tax", "2019"]),
        1,
        "no IRPF report for 2019: the ledger's transactions start in 2022",
    );
    check(
        &demo.run(&["tax", "compare", "2024", "2031"]),
        1,
        "no IRPF report for 2031: it is after the current year 2024",
    );
    // A year after the last transaction, up to the current one, has a report (a carried-forward
    // loss can still be used or expire there).
    let later = crate::support::cartera()
        .env("CARTERA_NOW", "2025-06-01T12:00:00Z")
        .arg("--ledger")
        .arg(&demo.path)
        .args(["--json", "tax", "2025"])
        .output()
        .unwrap();
    assert!(later.status.success(), "{}", stderr(&later));
    let report: serde_json::Value = serde_json::from_slice(&later.stdout).unwrap();
    assert_eq!(report["summary"]["capitalGains"], "0.00");
    check(&demo.run(&["lots", "FOO"]), 1, "unknown symbol FOO");
    check(&demo.run(&["lots", "FOO"]), 1, "ARB, BTC, DOT, ETH");
    check(
        &demo.run(&["tx", "--symbol", "foo"]),
        1,
        "unknown symbol FOO",
    );
    check(&demo.run(&["lots", "EUR"]), 1, "EUR is a fiat currency");
    check(
        &demo.run(&["lots", "BTC", "--page", "9"]),
        1,
        "past the last page",
    );
    check(
        &demo.run(&["portfolio", "--account", "Nowhere"]),
        1,
        "no account is named",
    );
}

#[test]
fn bad_arguments_exit_2() {
    let demo = DemoLedger::build();
    check(
        &demo.run(&["tax", "compare", "2024", "2024"]),
        2,
        "compare two different years",
    );
    check(
        &demo.run(&["tx", "--type", "LOAN"]),
        2,
        "is not a transaction type",
    );
    check(
        &demo.run(&["tx", "--from", "2024-13-01"]),
        2,
        "is not a date",
    );
    check(
        &demo.run(&["tx", "--from", "2024-02-01", "--to", "2024-01-01"]),
        2,
        "is after --to",
    );
    check(
        &demo.run(&["integrity", "--flag", "NOPE"]),
        2,
        "is not a quality flag",
    );
    check(
        &demo.run(&["portfolio", "--currency", "GBP"]),
        2,
        "invalid value",
    );
    check(&demo.run(&["tax"]), 2, "YEAR");
}

#[test]
fn empty_and_missing_ledgers_say_what_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.sqlite");
    for args in [
        &["portfolio"][..],
        &["tax", "2024"],
        &["integrity"],
        &["tx"],
    ] {
        let output = run_at(&missing, args);
        check(&output, 1, "no ledger at");
        check(&output, 1, "cartera import FILE");
        assert!(
            !missing.exists(),
            "a read command must not create the ledger"
        );
    }
    // A ledger with a setting and no transaction.
    let empty = dir.path().join("empty.sqlite");
    let set = run_at(&empty, &["settings", "set", "display_currency", "USD"]);
    assert!(set.status.success(), "{}", stderr(&set));
    for args in [
        &["portfolio"][..],
        &["tax", "2024"],
        &["tax", "compare", "2023", "2024"],
        &["integrity"],
        &["lots", "BTC"],
        &["tx"],
        &["holdings-at", "2024-12-31"],
    ] {
        check(&run_at(&empty, args), 1, "holds no transactions");
    }
}

#[test]
fn every_command_help_has_an_example() {
    for command in [
        &[][..],
        &["demo"],
        &["import"],
        &["rates", "import"],
        &["prices", "import"],
        &["portfolio"],
        &["tax"],
        &["tax", "compare"],
        &["integrity"],
        &["lots"],
        &["tx"],
        &["holdings-at"],
        &["settings"],
        &["settings", "set"],
        &["settings", "get"],
        &["settings", "list"],
        &["settings", "unset"],
        &["accounts"],
        &["accounts", "list"],
        &["accounts", "set"],
        &["edit"],
        &["link"],
        &["unlink"],
    ] {
        let output = cartera().args(command).arg("--help").output().unwrap();
        assert!(output.status.success(), "{command:?}");
        assert!(
            stdout(&output).contains("Example:\n  cartera "),
            "{command:?} --help has no example:\n{}",
            stdout(&output)
        );
    }
}

#[test]
fn stale_prices_are_named_with_the_command_that_adds_them() {
    // A year after the demo's last close the holdings are valued at their latest stored price
    // (domain.md §12.1, tools.md §9.1), and the output says how old each quote is and what to
    // run; nothing is counted as zero.
    let demo = DemoLedger::build();
    let output = cartera()
        .env("CARTERA_NOW", "2026-01-10T12:00:00Z")
        .arg("--ledger")
        .arg(&demo.path)
        .arg("portfolio")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains(" equity          10442.35 EUR\n"), "{text}");
    assert!(
        text.contains(
            "warning: BTC is valued at its latest stored price, of 2024-12-31 (375 days before \
             2026-01-10): run `cartera prices import FILE --symbol BTC` with newer closes"
        ),
        "{text}"
    );
}
