//! Exports shaped exactly like real downloads of the supported exchanges (issue 22: exponent
//! notation, Binance labels and Earn receipts, Bitvavo's current layout and float noise,
//! Coinbase report generations, Kraken ledgers before `subtype`), imported through the binary.
//! Each fixture lives under `importers/test_data/real/` with the public source of its shape
//! in the README beside it.

use crate::support::{counts, example, run, stderr, stdout, stored_rows};

/// Imports `file` (with `extra` options) into a fresh ledger, asserts the stored rows, then
/// imports it again and asserts that nothing is added. Returns the ledger's folder and the
/// first import's report.
pub(crate) fn import_exact(
    file: &str,
    extra: &[&str],
    expected: &[&str],
) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let path = example(file);
    let mut args = vec!["import", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = run(&ledger, &args);
    assert!(
        output.status.success(),
        "{file} ({:?}): {}\n{}",
        output.status,
        stdout(&output),
        stderr(&output)
    );
    assert_eq!(stored_rows(&ledger), expected, "{}", stdout(&output));
    let before = counts(&ledger);
    let again = run(&ledger, &args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains("  added         0 transactions\n"),
        "{}",
        stdout(&again)
    );
    assert_eq!(counts(&ledger), before);
    (dir, stdout(&output))
}

#[test]
fn binance_statement_with_exponents_earn_receipts_and_card_labels() {
    let _ = import_exact(
        "real/binance-statement/binance-statement-2024.csv",
        &[],
        &[
            "1 Binance:spot 2024-01-08T10:02:11Z DEPOSIT in=200 EUR out= fee= value= group=",
            "2 Binance:spot 2024-01-08T10:05:33Z BUY in=0.00361 BTC out=150 EUR fee=0.00003605 BNB value= group=",
            "3 Binance:spot 2024-01-08T10:07:02Z BUY in=54.12 USDT out=50 EUR fee= value= group=",
            "4 Binance:spot 2024-01-08T10:09:45Z TRANSFER_OUT in= out=54.12 USDT fee= value= group=2024-01-08T10:09:45Z Simple Earn Flexible Subscription USDT",
            "5 Binance:earn 2024-01-08T10:09:45Z TRANSFER_IN in=54.12 USDT out= fee= value= group=2024-01-08T10:09:45Z Simple Earn Flexible Subscription USDT",
            "6 Binance:earn 2024-01-09T00:52:10Z REWARD in=0.00000054 USDT out= fee= value= group=",
            "7 Binance:earn 2024-01-10T00:52:10Z REWARD in=0.00148211 USDT out= fee= value= group=",
            "8 Binance:earn 2024-01-12T16:30:00Z TRANSFER_OUT in= out=54.12 USDT fee= value= group=2024-01-12T16:30:00Z Simple Earn Flexible Redemption USDT",
            "9 Binance:spot 2024-01-12T16:30:00Z TRANSFER_IN in=54.12 USDT out= fee= value= group=2024-01-12T16:30:00Z Simple Earn Flexible Redemption USDT",
            "10 Binance:spot 2024-01-15T08:14:27Z PROMOTION in=0.00000038 BNB out= fee= value= group=",
            "11 Binance:spot 2024-01-20T12:00:03Z PROMOTION in=2 USDT out= fee= value= group=",
            "12 Binance:card 2024-01-22T19:41:09Z SPEND in= out=25.3 USDT fee= value= group=",
            "13 Binance:card 2024-01-22T19:41:10Z PROMOTION in=0.00021 BNB out= fee= value= group=",
            "14 Binance:earn 2024-01-25T07:00:00Z STAKING in=0.0123 DOT out= fee= value= group=",
            "15 Binance:spot 2024-01-28T09:00:00Z SWAP in=0.00023 BTC out=10 USDT fee= value= group=",
            "16 Binance:spot 2024-01-30T11:11:11Z REWARD in=1.4 PORTAL out= fee= value= group=",
            "17 Binance:spot 2024-01-31T13:37:00Z AIRDROP in=5 ARB out= fee= value= group=",
            "18 Binance:spot 2024-02-01T10:00:00Z SWAP in=0.00872 ETH out=20 USDT fee= value= group=",
            "19 Binance:spot 2024-02-02T15:20:44Z SELL in=11.2 EUR out=0.005 ETH fee=0.0112 EUR value= group=",
        ],
    );
}

#[test]
fn bitvavo_current_layout_with_distributed_staking_and_float_noise() {
    let (dir, _) = import_exact(
        "real/bitvavo/bitvavo-current-2023.csv",
        &[],
        &[
            "1 Bitvavo 2022-11-07T17:27:00Z STAKING in=0.0000009 BTC out= fee= value= group=",
            "2 Bitvavo 2022-11-14T09:48:35Z STAKING in=0.120549 ADA out= fee= value= group=",
            "3 Bitvavo 2022-11-14T09:48:36Z STAKING in=0.00001819 ETH out= fee= value= group=",
            "4 Bitvavo 2023-01-09T16:16:19Z DEPOSIT in=30 EUR out= fee=0 EUR value= group=",
            "5 Bitvavo 2023-01-09T16:16:29.831Z BUY in=32.156874 USDT out=29.9251869444 EUR fee=0.0748130556 EUR value= group=",
            "6 Bitvavo 2023-01-09T16:19:11Z TRANSFER_OUT in= out=26.756874 USDT fee=5.4 USDT value= group=",
            "7 Bitvavo 2023-11-30T10:33:24Z DEPOSIT in=20 EUR out= fee=0 EUR value= group=",
            "8 Bitvavo 2023-11-30T10:36:46.62Z BUY in=0.01071395 ETH out=19.96 EUR fee=0.04 EUR value= group=",
            "9 Bitvavo 2023-11-30T10:37:41Z TRANSFER_OUT in= out=0.00921395 ETH fee=0.0015 ETH value= group=",
        ],
    );
    // The float noise of the withdrawals leaves no custody imbalance of 10^-15: the coins
    // bought are exactly the coins withdrawn plus the fee.
    let integrity = run(&dir.path().join("ledger.sqlite"), &["integrity"]);
    let text = stdout(&integrity);
    assert!(!text.contains("CUSTODY_IMBALANCE"), "{text}");
    let residual = run(
        &dir.path().join("ledger.sqlite"),
        &["integrity", "--flag", "CUSTODY_RESIDUAL"],
    );
    let text = stdout(&residual);
    assert!(
        text.contains(" USDT    ownwallet-USDT    26.756874 "),
        "{text}"
    );
    assert!(
        text.contains(" ETH     ownwallet-ETH    0.00921395 "),
        "{text}"
    );
}

#[test]
fn kraken_ledgers_before_the_subtype_column() {
    let (_, report) = import_exact(
        "real/kraken-ledgers/kraken-ledgers-2020-no-subtype.csv",
        &[],
        &[
            "1 Kraken 2020-09-14T07:12:05Z DEPOSIT in=500 EUR out= fee=0 EUR value= group=",
            "2 Kraken 2020-09-14T07:30:41Z BUY in=62.5 DOT out=300 EUR fee=0.78 EUR value= group=",
            "3 Kraken 2020-09-22T01:00:34Z STAKING in=0.1821 DOT out= fee=0 DOT value= group=",
            "4 Kraken 2020-10-02T16:45:09Z BUY in=0.0061 BTC out=60 EUR fee=0.156 EUR value= group=",
            "5 Kraken 2020-11-03T12:00:00Z TRANSFER_OUT in= out=0.005 BTC fee=0.0005 BTC value= group=",
        ],
    );
    // The move into staking (DOT −60, DOT.S +60 under one refid) changes no account.
    assert!(
        report.contains("  format        kraken-ledgers, layout L09 (detected)\n"),
        "{report}"
    );
    assert!(
        report.contains("  skipped       2 (internal-movement 2)\n"),
        "{report}"
    );
}

#[test]
fn kraken_staking_transfers_are_internal_movements() {
    let (dir, report) = import_exact(
        "real/kraken-ledgers/kraken-ledgers-2022-staking.csv",
        &[],
        &[
            "1 Kraken 2022-01-03T09:15:20Z DEPOSIT in=800 EUR out= fee=0 EUR value= group=",
            "2 Kraken 2022-01-03T09:20:02Z BUY in=19.8 DOT out=500 EUR fee=1.3 EUR value= group=",
            "3 Kraken 2022-01-10T01:02:27Z STAKING in=0.0563 DOT out= fee=0 DOT value= group=",
            "4 Kraken 2022-03-02T08:30:00Z SELL in=165 EUR out=10 DOT fee=0.43 EUR value= group=",
        ],
    );
    // Each side of the two staking moves has its own refid: four internal movements.
    assert!(
        report.contains("  skipped       4 (internal-movement 4)\n"),
        "{report}"
    );
    let integrity = run(&dir.path().join("ledger.sqlite"), &["integrity"]);
    let text = stdout(&integrity);
    assert!(!text.contains("CUSTODY_IMBALANCE"), "{text}");
}

#[test]
fn coinbase_2021_report_with_currency_named_columns_and_locale_notes() {
    let (_, report) = import_exact(
        "real/coinbase/coinbase-2021-eur-columns.csv",
        &[],
        &[
            "1 Coinbase 2021-03-01T18:02:44Z TRANSFER_IN in=0.25 ETH out= fee= value= group=",
            "2 Coinbase 2021-03-02T10:15:30Z BUY in=0.01006655 BTC out=98.51 EUR fee=1.49 EUR value= group=",
            "3 Coinbase 2021-04-02T09:30:00Z PROMOTION in=2.5 XLM out= fee=0 EUR value=0.85 EUR group=",
            "4 Coinbase 2021-04-20T17:42:05Z SELL in=67.68 EUR out=0.0015 BTC fee=1 EUR value= group=",
            "5 Coinbase 2021-05-12T08:00:11Z SWAP in=318.3483088 XLM out=0.002225 BTC fee=2 EUR value=105.02 EUR group=",
        ],
    );
    assert!(
        report.contains("  format        coinbase, layout v1 (detected)\n"),
        "{report}"
    );
}

#[test]
fn coinbase_without_id_eth2_is_eth_and_asset_migration_carries_the_lots() {
    let (dir, report) = import_exact(
        "real/coinbase/coinbase-2024-no-id.csv",
        &[],
        &[
            "1 Coinbase 2023-05-20T10:58:00Z DEPOSIT in=1000 EUR out= fee=0 EUR value= group=",
            "2 Coinbase 2023-05-20T11:00:41Z BUY in=0.17305191 ETH out=294.19 EUR fee=4.44 EUR value= group=",
            "3 Coinbase 2023-05-20T11:05:02Z BUY in=800 MATIC out=680 EUR fee=10 EUR value= group=",
            "4 Coinbase 2024-05-03T04:10:55Z STAKING in=0.000371 ETH out= fee=0 EUR value=1.06 EUR group=",
            "5 Coinbase 2024-09-10T02:00:00Z MIGRATION_SWAP in=800 POL out=800 MATIC fee= value= group=",
        ],
    );
    // Convert ETH → ETH2, Retail Eth2 Deprecation and the Send ETH2 / Receive ETH pair of the
    // switch change nothing.
    assert!(
        report.contains("  skipped       4 (internal-movement 4)\n"),
        "{report}"
    );
    let ledger = dir.path().join("ledger.sqlite");
    // No transmission: ETH → ETH2 is no swap, so no Modelo 100 row and no gain.
    let tax = stdout(&run(&ledger, &["tax", "2023"]));
    assert!(
        tax.contains(" capital gains                           0.00\n"),
        "{tax}"
    );
    assert!(
        tax.contains(
            "Modelo 100: virtual currency transmissions (EUR)\n No transmission in the year.\n"
        ),
        "{tax}"
    );
    let tax = stdout(&run(&ledger, &["tax", "2024"]));
    assert!(tax.contains(" No transmission in the year.\n"), "{tax}");
    // One ETH holding (no ETH2), and POL carries the cost of the MATIC it replaced.
    let portfolio = stdout(&run(&ledger, &["portfolio"]));
    assert!(!portfolio.contains("ETH2"), "{portfolio}");
    assert!(!portfolio.contains("MATIC"), "{portfolio}");
    assert!(
        portfolio.contains(" ETH     0.17342291           299.69 "),
        "{portfolio}"
    );
    assert!(
        portfolio.contains(" POL            800           690.00 "),
        "{portfolio}"
    );
}

#[test]
fn an_unknown_label_says_how_to_map_it_and_the_map_books_it() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = dir.path().join("statement.csv");
    std::fs::write(
        &file,
        "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n\
         73521904,2024-03-01 09:00:00,Funding,P2P Trading,USDT,150,\n\
         73521904,2024-03-02 10:00:00,Spot,Mystery Bonus Drop,BNB,0.01,\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    rejected_naming(
        &ledger,
        path,
        &[
            format!(
                "{path}:2:4: error[unsupported-type] column \"Operation\": binance-statement type \"P2P Trading\" is not supported: the other side of a P2P trade was paid outside Binance and the statement does not state it; record it with the generic format; to book it, map it to a type: cartera import --map 'binance:P2P Trading=TYPE' (or add it to the setting import.label_map), TYPE one of "
            ),
            format!(
                "{path}:3:4: error[unknown-type] column \"Operation\": unknown binance-statement type \"Mystery Bonus Drop\"; to book it, map it to a type: cartera import --map 'binance:Mystery Bonus Drop=TYPE'"
            ),
        ],
    );
    // A bad entry is a usage error before any file is read.
    bad_map(
        &ledger,
        path,
        "binance:P2P Trading=SWAP",
        "error[bad-label-map]: --map \"SWAP\" is not one of DEPOSIT",
    );
    // The setting maps one label, the option the other.
    let set = run(
        &ledger,
        &[
            "settings",
            "set",
            "import.label_map",
            r#"["binance:Mystery Bonus Drop=PROMOTION"]"#,
        ],
    );
    assert!(set.status.success(), "{}", stderr(&set));
    let listed = stdout(&run(&ledger, &["settings"]));
    assert!(
        listed.contains("import.label_map")
            && listed.contains(r#"["binance:Mystery Bonus Drop=PROMOTION"]"#),
        "{listed}"
    );
    let output = run(
        &ledger,
        &["import", path, "--map", "binance:P2P Trading=TRANSFER_IN"],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stored_rows(&ledger),
        [
            "1 Binance:funding 2024-03-01T09:00:00Z TRANSFER_IN in=150 USDT out= fee= value= group=",
            "2 Binance:spot 2024-03-02T10:00:00Z PROMOTION in=0.01 BNB out= fee= value= group=",
        ]
    );
}

#[test]
fn an_unknown_binance_account_says_how_to_map_it_and_the_map_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = dir.path().join("statement.csv");
    // `Trading Bots` and `Portfolio Margin` are accounts cartera does not know.
    std::fs::write(
        &file,
        "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n\
         73521904,2024-04-01 09:00:00,Spot,Deposit,USDT,500,\n\
         73521904,2024-04-01 10:00:00,Spot,transfer_out,USDT,-200,\n\
         73521904,2024-04-01 10:00:00,Trading Bots,transfer_in,USDT,200,\n\
         73521904,2024-04-02 11:00:00,Trading Bots,Commission Rebate,USDT,0.5,\n\
         73521904,2024-04-03 12:00:00,Portfolio Margin,Realized Profit and Loss,USDT,3,\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    rejected_naming(
        &ledger,
        path,
        &[
            format!(
                "{path}:4:3: error[unknown-account] column \"Account\": unknown Binance account \"Trading Bots\"; cartera reads Spot, Earn, Funding, Pool, Savings and Card (and the transfers of the futures and margin accounts); to read it, map it: cartera import --map 'binance:account:Trading Bots=WALLET' (all its operations, on an account of its own) or =FUTURES (only its transfers), or add the entry to the setting import.label_map\n"
            ),
            format!(
                "{path}:6:3: error[unknown-account] column \"Account\": unknown Binance account \"Portfolio Margin\""
            ),
        ],
    );
    // A bad account entry is a usage error.
    bad_map(
        &ledger,
        path,
        "binance:account:Trading Bots=SPOT",
        "error[bad-label-map]: --map \"SPOT\" is not WALLET (read every operation, on an account of its own) or FUTURES (read only its transfers)",
    );
    // The setting maps one account, the option the other; `settings` lists the entry.
    let set = run(
        &ledger,
        &[
            "settings",
            "set",
            "import.label_map",
            r#"["binance:account:trading bots=wallet"]"#,
        ],
    );
    assert!(set.status.success(), "{}", stderr(&set));
    let listed = stdout(&run(&ledger, &["settings"]));
    assert!(
        listed.contains(r#"["binance:account:trading bots=WALLET"]"#),
        "{listed}"
    );
    // Mapped to FUTURES, the margin account's profit is still not read: only transfers are.
    let futures = run(
        &ledger,
        &[
            "import",
            path,
            "--map",
            "binance:account:Portfolio Margin=FUTURES",
        ],
    );
    assert_eq!(futures.status.code(), Some(1));
    assert!(
        stderr(&futures).contains(&format!(
            "{path}:6:4: error[unsupported-type] column \"Operation\": binance-statement type \"Realized Profit and Loss\" is not supported: futures and margin are not supported"
        )),
        "{}",
        stderr(&futures)
    );
    let mapped = || {
        let args = [
            "--skip-invalid",
            "--map",
            "binance:account:Portfolio Margin=FUTURES",
        ];
        run(&ledger, &[&["import", path][..], &args[..]].concat())
    };
    let output = mapped();
    assert!(
        stderr(&output).contains("imported with invalid rows: 1 not imported"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        stored_rows(&ledger),
        [
            "1 Binance:spot 2024-04-01T09:00:00Z TRANSFER_IN in=500 USDT out= fee= value= group=",
            "2 Binance:spot 2024-04-01T10:00:00Z TRANSFER_OUT in= out=200 USDT fee= value= group=2024-04-01T10:00:00Z transfer_out USDT",
            "3 Binance:trading bots 2024-04-01T10:00:00Z TRANSFER_IN in=200 USDT out= fee= value= group=2024-04-01T10:00:00Z transfer_in USDT",
            "4 Binance:trading bots 2024-04-02T11:00:00Z PROMOTION in=0.5 USDT out= fee= value= group=",
        ]
    );
    // A second import adds nothing.
    let again = mapped();
    assert_eq!(again.status.code(), output.status.code());
    assert_eq!(stored_rows(&ledger).len(), 4);
}

/// Imports `path`, which is rejected (exit 1), and checks that its messages hold each of `parts`.
fn rejected_naming(ledger: &std::path::Path, path: &str, parts: &[String]) {
    let output = run(ledger, &["import", path]);
    assert_eq!(output.status.code(), Some(1));
    let errors = stderr(&output);
    for part in parts {
        assert!(errors.contains(part.as_str()), "{errors}");
    }
}

/// Imports `path` with `--map entry`, a usage error (exit 2) whose message holds `expected`.
fn bad_map(ledger: &std::path::Path, path: &str, entry: &str, expected: &str) {
    let bad = run(ledger, &["import", path, "--map", entry]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains(expected), "{}", stderr(&bad));
}

/// Imports `text` written to a file named `name`; returns (stderr, exit code, file path).
pub(crate) fn reject(name: &str, text: &str) -> (String, Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap().to_owned();
    let output = run(&ledger, &["import", &path]);
    (stderr(&output), output.status.code(), path)
}

#[test]
fn header_not_found_leads_somewhere() {
    // A known export cartera does not read says which one and what to download instead.
    let (errors, code, path) = reject(
        "orders.csv",
        "Date(UTC),OrderNo,Pair,Type,Side,Order Price,Order Amount,Time,Executed,Average Price,Trading total,Status\n\
         2024-01-08 10:05:33,1234567,BTCEUR,LIMIT,BUY,41500,0.00361,2024-01-08 10:05:33,0.00361BTC,41500,149.815EUR,FILLED\n",
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        errors,
        format!(
            "{path}:1:1: error[header-not-found] column \"Date(UTC)\": this is a Binance order history; export the \"Transaction History\" statement instead (Wallet, Transaction History, Export)\n{path}: rejected: nothing was written\n"
        )
    );
    // A header below a long preamble: where it starts.
    let mut text = "note\n".repeat(12);
    text.push_str("Timezone,Date,Time,Type,Currency,Amount,Quote Currency,Quote Price,Received / Paid Currency,Received / Paid Amount,Fee currency,Fee amount,Status,Transaction ID,Address\n");
    let (errors, _, path) = reject("bitvavo.csv", &text);
    assert_eq!(
        errors,
        format!(
            "{path}:1:1: error[header-not-found] column \"note\": no supported header in the first 10 records, but a header of bitvavo layout current starts on line 13; delete the lines above it and import the file again\n{path}: rejected: nothing was written\n"
        )
    );
    // A column renamed by a spreadsheet: the closest layout and what it lacks; the
    // disclaimer sentence above it is never quoted as a column.
    let (errors, _, path) = reject(
        "statement.csv",
        "\"You can use this transaction report to inform your likely tax obligations. For final tax obligations, please consult your tax advisor.\"\n\
         User_ID,UTC_Time,Account,Operation,Coin,Amount,Remark\n\
         73521904,2024-01-08 10:02:11,Spot,Deposit,EUR,200,\n",
    );
    assert_eq!(
        errors,
        format!(
            "{path}:2:1: error[header-not-found] column \"User_ID\": no supported header in the first 10 records; line 2 comes closest to binance-statement layout utc, which also needs \"Change\"; name the format with --format or use the generic format\n{path}: rejected: nothing was written\n"
        )
    );
    let (errors, _, path) = reject(
        "disclaimer.csv",
        "\"You can use this transaction report to inform your likely tax obligations. For final tax obligations, please consult your tax advisor.\"\nsomething,else\n",
    );
    assert!(
        errors.starts_with(&format!("{path}:1:1: error[header-not-found] column \"-\": no supported header in the first 10 records; name the format")),
        "{errors}"
    );
}

#[test]
fn a_lone_asset_migration_leg_says_to_export_all_assets() {
    let (errors, code, path) = reject(
        "pol.csv",
        "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n\
         66e0a1b2c3d4e5f6a7b8c9d0,2024-09-10 02:00:00 UTC,Asset Migration,POL,800,EUR,€0.37,€296.00,€296.00,€0.00,\n",
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        errors,
        format!(
            "{path}:2:3: error[incomplete-group] column \"Transaction Type\": operation Asset Migration 2024-09-10 02:00:00 UTC has no out leg: the report holds only the POL side of this token migration; download the report for all assets (not one asset) and import that file\n{path}: rejected: nothing was written; --skip-invalid imports the valid rows and reports the invalid ones (1)\n"
        )
    );
}

#[test]
fn an_unknown_binance_account_says_what_is_read_and_how_to_go_on() {
    let (errors, code, path) = reject(
        "options.csv",
        "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n\
         73521904,2024-03-01 09:00:00,Options,Premium Received,USDT,5,\n",
    );
    assert_eq!(code, Some(1));
    assert!(
        errors.starts_with(&format!(
            "{path}:2:3: error[unknown-account] column \"Account\": unknown Binance account \"Options\"; cartera reads Spot, Earn, Funding, Pool, Savings and Card (and the transfers of the futures and margin accounts); to read it, map it: cartera import --map 'binance:account:Options=WALLET' (all its operations, on an account of its own) or =FUTURES (only its transfers), or add the entry to the setting import.label_map\n"
        )),
        "{errors}"
    );
}
