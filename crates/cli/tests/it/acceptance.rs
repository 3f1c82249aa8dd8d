//! The store-level acceptance cases of `imports.md` §5 (stage 7: duplicates against the
//! ledger, atomicity, the import log, store-level warnings), run through the binary.

use std::path::{Path, PathBuf};

use ledger_sqlite::SqliteLedger;
use use_cases::ports::{LedgerRead, PriceStore, RateStore};

use crate::support::{counts, example, run, shared_data, stderr, stdout};

fn ledger_in(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("ledger.sqlite")
}

fn import_log_len(ledger: &Path) -> usize {
    SqliteLedger::open(ledger)
        .unwrap()
        .import_log()
        .unwrap()
        .len()
}

/// Writes `lines` (with `\n` endings) into `dir/name`.
fn file(dir: &tempfile::TempDir, name: &str, lines: &[&str]) -> PathBuf {
    let path = dir.path().join(name);
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    path
}

fn example_lines(relative: &str) -> Vec<String> {
    std::fs::read_to_string(example(relative))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn ac_03_an_unknown_header_is_rejected_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let bank = file(
        &dir,
        "bank.csv",
        &["Fecha,Concepto,Importe", "2025-01-02,Transferencia,100.00"],
    );
    let output = run(&ledger_in(&dir), &["import", bank.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let name = bank.to_str().unwrap();
    assert_eq!(
        stderr(&output),
        format!(
            "{name}:1:1: error[header-not-found] column \"Fecha\": no supported header in the first 10 records; name the format with --format or use the generic format\n{name}: rejected: nothing was written\n"
        )
    );
}

#[test]
fn ac_08_and_ac_15_kraken_example_report_then_a_second_import_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let path = example("kraken-ledgers/kraken-2025.csv");
    let name = path.to_str().unwrap();
    let output = run(&ledger, &["import", name]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        format!(
            "{name}\n  format        kraken-ledgers, layout L12 (detected)\n  rows read     15\n  added         9 transactions\n  duplicates    0\n  skipped       2 (pending 1, internal-movement 1)\n  warnings      0\n  invalid rows  0\n  result        imported\n"
        )
    );
    let store = SqliteLedger::open(&ledger).unwrap();
    let accounts = store.accounts().unwrap();
    let names: Vec<(&str, Option<&str>)> = accounts
        .iter()
        .map(|a| {
            let parent = a
                .parent_id
                .and_then(|p| accounts.iter().find(|x| x.id == p));
            (a.name.as_str(), parent.map(|p| p.name.as_str()))
        })
        .collect();
    assert!(
        names.contains(&("Kraken:spot", Some("Kraken"))),
        "{names:?}"
    );
    assert!(
        names.contains(&("Kraken:earn", Some("Kraken"))),
        "{names:?}"
    );
    let rows = store.spot_rows().unwrap();
    let first = &rows[0];
    assert_eq!(
        first.row_key,
        "ae3475ee58782dc0d75ffea1d29e13ef0909d668888189012ae3991529594dc6"
    );
    let fee = first.fee.expect("an explicit zero fee is stored");
    assert_eq!(
        (core_domain::num::quantity(fee.quantity), fee.asset.as_str()),
        ("0".to_owned(), "EUR")
    );
    let second = &rows[1];
    assert_eq!(
        second.row_key,
        "bd4dce94315e6345824bada3e4078c9e4805f807e4fa169091196f53b961ec70"
    );
    let detail = store
        .row_detail(&second.row_key.to_string())
        .unwrap()
        .unwrap();
    assert_eq!(
        detail.source_ref.as_deref(),
        Some("L7KM2A-QW3ER-TY5UIO+L2PL8K-ZX4CV-BN7MAS")
    );
    drop(store);

    // AC-15: added 0, duplicates 9, skipped 2, a log entry, the version unchanged.
    let before = counts(&ledger);
    let again = run(&ledger, &["import", name]);
    assert!(again.status.success());
    assert!(stdout(&again).contains("  added         0 transactions\n  duplicates    9\n  skipped       2 (pending 1, internal-movement 1)\n"), "{}", stdout(&again));
    assert_eq!(import_log_len(&ledger), 2);
    assert_eq!(counts(&ledger), before);
}

#[test]
fn ac_11_a_margin_row_rejects_the_file_unless_skip_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let mut lines = example_lines("kraken-ledgers/kraken-2025.csv");
    lines.insert(5, r#""LMRG01-AAAAA-BBBBBB","TMRG01-AAAAA-BBBBBB","2025-01-11 10:00:00","margin","","currency","fiat","ZUSD","spot / main","-3.2000","0.0000","96.8000""#.to_owned());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let path = file(&dir, "kraken-margin.csv", &refs);
    let name = path.to_str().unwrap();
    let before = counts(&ledger);
    let output = run(&ledger, &["import", name]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "{name}:6:4: error[unsupported-type] column \"type\": kraken-ledgers type \"margin\" is not supported: margin trading is not supported; record it with the generic format\n{name}: rejected: nothing was written; --skip-invalid imports the valid rows and reports the invalid ones (1)\n"
        )
    );
    assert_eq!(counts(&ledger), before);
    assert_eq!(import_log_len(&ledger), 0);

    let output = run(&ledger, &["import", name, "--skip-invalid"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).ends_with(&format!(
            "{name}: imported with invalid rows: 1 not imported\n"
        )),
        "{}",
        stderr(&output)
    );
    assert_eq!(counts(&ledger).1, 9);
}

#[test]
fn ac_16_a_later_overlapping_kraken_export_adds_one_deposit() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let example_path = example("kraken-ledgers/kraken-2025.csv");
    assert!(
        run(&ledger, &["import", example_path.to_str().unwrap()])
            .status
            .success()
    );
    let lines = example_lines("kraken-ledgers/kraken-2025.csv");
    let mut later: Vec<&str> = vec![lines[0].as_str()];
    later.extend(lines[10..16].iter().map(String::as_str));
    later.push(r#""LP9QW2-ER4TY-UI6OPA","QCZ3X5V-8BN2MQ-WE4R6T","2025-04-15 08:00:00","deposit","","currency","fiat","ZEUR","spot / main","200.0000","0.0000","386.7900""#);
    let path = file(&dir, "kraken-later.csv", &later);
    let output = run(&ledger, &["import", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("  added         1 transactions\n  duplicates    3\n  skipped       1 (internal-movement 1)\n"), "{}", stdout(&output));
    let rows = crate::support::stored_rows(&ledger);
    assert!(
        rows.last()
            .unwrap()
            .contains("2025-04-15T08:00:00Z DEPOSIT in=200 EUR"),
        "{rows:?}"
    );
}

#[test]
fn ac_17_the_same_ids_under_another_account_warn_and_add_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let path = example("kraken-ledgers/kraken-2025.csv");
    let name = path.to_str().unwrap();
    assert!(run(&ledger, &["import", name]).status.success());
    let output = run(&ledger, &["import", name, "--account", "Kraken Ana"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("  added         0 transactions\n  duplicates    9\n"),
        "{}",
        stdout(&output)
    );
    let diagnostics = stderr(&output);
    let warnings: Vec<&str> = diagnostics
        .lines()
        .filter(|l| l.contains("warning[duplicate-in-other-account]"))
        .collect();
    assert_eq!(warnings.len(), 9, "{diagnostics}");
    let spot = warnings
        .iter()
        .filter(|l| l.ends_with("already imported into account \"Kraken:spot\"; not added again"))
        .count();
    let earn = warnings
        .iter()
        .filter(|l| l.ends_with("already imported into account \"Kraken:earn\"; not added again"))
        .count();
    assert_eq!((spot, earn), (7, 2), "{diagnostics}");
}

#[test]
fn ac_25_an_edited_bitvavo_row_is_a_duplicate_with_source_changed() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let original = example("bitvavo/bitvavo-2025.csv");
    assert!(
        run(&ledger, &["import", original.to_str().unwrap()])
            .status
            .success()
    );
    let mut lines = example_lines("bitvavo/bitvavo-2025.csv");
    lines[8] = lines[8]
        .replace(",buy,ETH,0.3,", ",buy,ETH,0.31,")
        .replace(",-538.46,", ",-556.36,");
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let path = file(&dir, "bitvavo-2025.csv", &refs);
    let name = path.to_str().unwrap();
    let output = run(&ledger, &["import", name]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("  added         0 transactions\n"),
        "{}",
        stdout(&output)
    );
    assert!(
        stderr(&output).contains(&format!("{name}:9:14: warning[source-changed] column \"Transaction ID\": id 0f6a2d8c-4b1e-4d9f-a3c7-8e2b5d1f7c60 was imported before with other figures; the stored transaction is kept")),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_edited_generic_row_with_an_id_names_its_id_in_source_changed() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let original = example("generic/wallets-2024.csv");
    assert!(
        run(&ledger, &["import", original.to_str().unwrap()])
            .status
            .success()
    );
    // The generic id key is `v1␟generic␟id␟<account>␟<id>`: the warning must quote the id, not
    // the account.
    let mut lines = example_lines("generic/wallets-2024.csv");
    lines[2] = lines[2].replace(",BTC,0.01,EUR,650,", ",BTC,0.01,EUR,651,");
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let path = file(&dir, "wallets-2024.csv", &refs);
    let name = path.to_str().unwrap();
    let output = run(&ledger, &["import", name]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!("{name}:3:12: warning[source-changed] column \"id\": id b2m-0002 was imported before with other figures; the stored transaction is kept")),
        "{}",
        stderr(&output)
    );
}

#[test]
fn ac_30_two_identical_binance_rows_are_two_transactions() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let header = "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark";
    let row = r#"39184726,2025-03-01 09:00:00,Spot,Deposit,USDT,50.00000000,"""#;
    let both = file(&dir, "both.csv", &[header, row, row]);
    let output = run(&ledger, &["import", both.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let store = SqliteLedger::open(&ledger).unwrap();
    let keys: Vec<String> = store
        .spot_rows()
        .unwrap()
        .into_iter()
        .map(|r| r.row_key.to_string())
        .collect();
    assert_eq!(
        keys,
        [
            "4136ca391a3d31ba95922a7a1888bb203a4f50da6caf9e4e868cee542ce76171",
            "6dacf25eab8cb30a6c783ec9658f7eb49d6bf76256e12b56fd39f3a13b1cf87f"
        ]
    );
    drop(store);
    let again = run(&ledger, &["import", both.to_str().unwrap()]);
    assert!(
        stdout(&again).contains("  added         0 transactions\n  duplicates    2\n"),
        "{}",
        stdout(&again)
    );
    let one = file(&dir, "one.csv", &[header, row]);
    let single = run(&ledger, &["import", one.to_str().unwrap()]);
    assert!(
        stdout(&single).contains("  added         0 transactions\n"),
        "{}",
        stdout(&single)
    );
}

#[test]
fn ac_38_generic_identities_and_fees() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let path = example("generic/wallets-2024.csv");
    assert!(
        run(&ledger, &["import", path.to_str().unwrap()])
            .status
            .success()
    );
    let store = SqliteLedger::open(&ledger).unwrap();
    let rows = store.spot_rows().unwrap();
    assert_eq!(
        rows[1].row_key,
        "e2a5f3d53416defc254ffa4f7f7cac575a4db5eff38679b106ffdfb0ad610008"
    );
    assert_eq!(
        rows[3].row_key,
        "de1bcffa30346ca57eeaaefe0e42f5afa3a026b3b56f68add7e82f879b92ad69"
    );
    assert!(rows[3].fee.is_none());
    let fee = rows[7].fee.unwrap();
    assert_eq!(
        (core_domain::num::quantity(fee.quantity), fee.asset.as_str()),
        ("0".to_owned(), "ETH")
    );
}

#[test]
fn ac_46_one_bad_line_in_a_thousand_rows() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let header = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";
    let mut lines: Vec<String> = vec![header.to_owned()];
    for i in 0..1000 {
        let out = if i == 899 {
            "-5".to_owned()
        } else {
            format!("{}", 10 + i)
        };
        lines.push(format!(
            "2025-01-01T10:{:02}:{:02}Z,BUY,Wallet,BTC,0.001,EUR,{out},,,,,g-{i},,",
            i / 60 % 60,
            i % 60
        ));
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let path = file(&dir, "g.csv", &refs);
    let name = path.to_str().unwrap();
    let before = counts(&ledger);
    let output = run(&ledger, &["import", name]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "{name}:901:7: error[negative-not-allowed] column \"out_amount\": \"-5\" must not be negative\n{name}: rejected: nothing was written; --skip-invalid imports the valid rows and reports the invalid ones (1)\n"
        )
    );
    assert_eq!(counts(&ledger), before);
    assert_eq!(import_log_len(&ledger), 0);

    lines[900] = lines[900].replace(",-5,", ",5,");
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let fixed = file(&dir, "g.csv", &refs);
    let dry = run(&ledger, &["import", fixed.to_str().unwrap(), "--dry-run"]);
    assert!(dry.status.success(), "{}", stderr(&dry));
    assert!(stdout(&dry).contains("  added         1000 transactions\n"));
    assert!(stdout(&dry).contains("  result        dry run: nothing written\n"));
    assert_eq!(counts(&ledger), before);
}

#[test]
fn ac_47_futures_go_to_the_derivatives_store_only() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let path = example("kraken-futures/futures-2025.csv");
    let output = run(&ledger, &["import", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains(
            "  skipped       3 (position-leg 2, collateral-movement 1)\n  warnings      0\n"
        ),
        "{}",
        stdout(&output)
    );
    let store = SqliteLedger::open(&ledger).unwrap();
    assert!(store.spot_rows().unwrap().is_empty());
    let futures = store.futures_rows().unwrap();
    assert_eq!(futures.len(), 3);
    assert_eq!(
        futures[2].row_key,
        "c39ca7c1d9fbbe704fe5981346709ea5eae52f6991e7a2cdcd03ff28c2b48a8d"
    );
}

#[test]
fn ac_48_rate_conflicts_and_replace() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let sample = example("ecb/ecb-sample.csv");
    let output = run(&ledger, &["rates", "import", sample.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("  added         13 rates\n"),
        "{}",
        stdout(&output)
    );
    let again = run(&ledger, &["rates", "import", sample.to_str().unwrap()]);
    assert!(stdout(&again).contains("  added         0 rates\n"));

    let lines = example_lines("ecb/ecb-sample.csv");
    let mut changed: Vec<String> = lines.clone();
    changed[2] = changed[2].replace(",1.0198,", ",1.0199,");
    let refs: Vec<&str> = changed.iter().map(String::as_str).collect();
    let b = file(&dir, "ecb-sample-b.csv", &refs);
    let name = b.to_str().unwrap();
    let conflict = run(&ledger, &["rates", "import", name]);
    assert_eq!(conflict.status.code(), Some(1));
    assert!(
        stderr(&conflict).starts_with(&format!("{name}:3:3: error[rate-conflict] column \"USD\": the ledger holds 1.0198 for USD 2025-01-13; the file says 1.0199; use --replace to overwrite\n")),
        "{}",
        stderr(&conflict)
    );
    let replaced = run(&ledger, &["rates", "import", name, "--replace"]);
    assert!(replaced.status.success(), "{}", stderr(&replaced));
    assert!(
        stdout(&replaced).contains("  duplicates    12\n  replaced      1\n"),
        "{}",
        stdout(&replaced)
    );
    let store = SqliteLedger::open(&ledger).unwrap();
    let usd = store
        .rate_on_or_before(
            core_domain::Asset::new("USD").unwrap(),
            "2025-01-13".parse().unwrap(),
        )
        .unwrap()
        .unwrap();
    assert_eq!(usd.rate.to_string(), "1.0199");
}

#[test]
fn ac_52_the_btc_series_imports_with_symbol_and_currency() {
    let Some(data) = shared_data() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let series = data.join("prices/btc-eur-daily.csv");
    let name = series.to_str().unwrap();
    let missing = run(&ledger, &["prices", "import", name]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).starts_with(&format!(
            "{name}:1:1: error[option-missing] column \"timestamp\": series files need --symbol\n"
        )),
        "{}",
        stderr(&missing)
    );
    let usage = run(&ledger, &["prices", "import", name, "--format", "series"]);
    assert_eq!(usage.status.code(), Some(2));
    assert_eq!(
        stderr(&usage),
        "cartera: error[option-missing]: series files need --symbol\n"
    );
    let output = run(
        &ledger,
        &[
            "prices",
            "import",
            "--symbol",
            "BTC",
            "--currency",
            "EUR",
            name,
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("  added         5198 prices\n"),
        "{}",
        stdout(&output)
    );
    let store = SqliteLedger::open(&ledger).unwrap();
    assert_eq!(store.price_count().unwrap(), 5198);
}

#[test]
fn ac_37_a_v4_row_already_imported_from_a_v3_file_is_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let v3 = file(
        &dir,
        "coinbase-v3.csv",
        &[
            "Transaction report for Ana Example",
            "Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes",
            "2025-05-20T19:00:02Z,Buy,BTC,0.00281,EUR,85300.00,239.69,243.28,3.59,Bought 0.00281 BTC for €243.28 EUR",
        ],
    );
    let output = run(&ledger, &["import", v3.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        crate::support::stored_rows(&ledger),
        [
            "1 Coinbase 2025-05-20T19:00:02Z BUY in=0.00281 BTC out=239.69 EUR fee=3.59 EUR value= group="
        ]
    );
    let v4 = example("coinbase/coinbase-2025.csv");
    let output = run(&ledger, &["--json", "import", v4.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"][0]["added"], 11);
    assert_eq!(report["files"][0]["duplicates"], 1);
    assert_eq!(report["files"][0]["rows"]["duplicate"], 1);
}

#[test]
fn ac_50_the_daily_ecb_file_after_the_history_adds_nothing() {
    let Some(data) = shared_data() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ledger = ledger_in(&dir);
    let history = data.join("ecb/eurofxref-hist.csv");
    assert!(
        run(&ledger, &["rates", "import", history.to_str().unwrap()])
            .status
            .success()
    );
    let daily = file(
        &dir,
        "eurofxref.csv",
        &["Date, USD, GBP, ", "30 October 2026, 1.1172, 0.8338, "],
    );
    let output = run(&ledger, &["rates", "import", daily.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("  added         0 rates\n  duplicates    2\n"),
        "{}",
        stdout(&output)
    );
}
