//! The audit of issue 22: further generations and quirks of the Binance, Coinbase, Kraken,
//! Bitvavo and Crypto.com App exports, rebuilt from public parsers and samples (the source
//! of each shape is cited beside its file in `importers/test_data/real/README.md`), imported
//! through the binary with every stored row pinned and a second import adding nothing.

use crate::real_exports::{import_exact, reject};
use crate::support::{example, run, stderr, stdout, stored_rows};

#[test]
fn coinbase_2022_report_with_its_disclaimer_and_an_earn_receive() {
    let (_, report) = import_exact(
        "real/coinbase/coinbase-2022-v3-preamble.csv",
        &[],
        &[
            "1 Coinbase 2022-01-03T10:00:00Z DEPOSIT in=500 EUR out= fee=0 EUR value= group=",
            "2 Coinbase 2022-01-03T10:05:12Z BUY in=0.00612 BTC out=245.72 EUR fee=3.99 EUR value= group=",
            "3 Coinbase 2022-01-05T16:20:00Z PROMOTION in=6.1234567 XLM out= fee=0 EUR value=1.59 EUR group=",
            "4 Coinbase 2022-02-01T09:00:00Z BUY in=0.05 ETH out=120 EUR fee=0.72 EUR value= group=",
            "5 Coinbase 2022-02-10T12:00:00Z SWAP in=21.53 ALGO out=0.01 ETH fee=0.37 EUR value=25 EUR group=",
            "6 Coinbase 2022-03-10T12:00:00Z SELL in=35 EUR out=0.001 BTC fee=0.52 EUR value= group=",
            "7 Coinbase 2022-03-11T12:00:00Z TRANSFER_OUT in= out=0.002 BTC fee=0 EUR value= group=",
            "8 Coinbase 2022-04-01T12:00:00Z WITHDRAWAL in= out=34.48 EUR fee=0 EUR value= group=",
        ],
    );
    assert!(report.contains("layout v3 (detected)"), "{report}");
}

#[test]
fn coinbase_2025_report_with_price_improvement_and_incentive_payouts() {
    let (_, report) = import_exact(
        "real/coinbase/coinbase-2025-v4-labels.csv",
        &[],
        &[
            "1 Coinbase 2025-03-01T10:00:00Z DEPOSIT in=1000 EUR out= fee=0 EUR value= group=",
            "2 Coinbase 2025-03-01T10:05:00Z BUY in=0.01 BTC out=800 EUR fee=11.99 EUR value= group=",
            "3 Coinbase 2025-03-01T10:05:01Z PROMOTION in=0.0000012 BTC out= fee=0 EUR value=0.1 EUR group=",
            "4 Coinbase 2025-03-15T00:00:00Z PROMOTION in=5 USDC out= fee=0 EUR value=4.6 EUR group=",
            "5 Coinbase 2025-04-01T00:00:00Z REWARD in=0.12 USDC out= fee=0 EUR value=0.11 EUR group=",
            "6 Coinbase 2025-05-01T12:00:00Z WITHDRAWAL in= out=100 EUR fee=0 EUR value= group=",
            "7 Coinbase 2025-05-02T12:00:00Z SELL in=170 EUR out=0.002 BTC fee=2.54 EUR value= group=",
        ],
    );
    assert!(report.contains("layout v4 (detected)"), "{report}");
}

#[test]
fn kraken_2024_ledgers_with_earn_migration_and_allocations() {
    let (_, report) = import_exact(
        "real/kraken-ledgers/kraken-ledgers-2024-earn.csv",
        &[],
        &[
            "1 Kraken:spot 2023-10-02T08:00:00Z DEPOSIT in=1000 EUR out= fee=0 EUR value= group=",
            "2 Kraken:spot 2023-10-02T08:05:00Z BUY in=100 DOT out=400 EUR fee=0.64 EUR value= group=",
            "3 Kraken:spot 2023-10-10T01:00:00Z STAKING in=0.25 DOT out= fee=0 DOT value= group=",
            "4 Kraken:spot 2023-11-24T10:02:14Z TRANSFER_OUT in= out=100.25 DOT fee=0 DOT value= group=MAAAAAA-AAAAAA-AAAAAA",
            "5 Kraken:earn 2023-11-24T10:02:14Z TRANSFER_IN in=100.25 DOT out= fee=0 DOT value= group=MAAAAAA-AAAAAA-AAAAAA",
            "6 Kraken:earn 2023-12-01T02:00:00Z STAKING in=0.3 DOT out= fee=0 DOT value= group=",
            "7 Kraken:spot 2024-01-05T10:00:00Z BUY in=217.5 USDC out=200 EUR fee=0.32 EUR value= group=",
            "8 Kraken:spot 2024-01-06T00:00:00Z TRANSFER_OUT in= out=217.5 USDC fee=0 USDC value= group=AAAAAAA-AAAAAA-AAAAAA",
            "9 Kraken:earn 2024-01-06T00:00:00Z TRANSFER_IN in=217.5 USDC out= fee=0 USDC value= group=AAAAAAA-AAAAAA-AAAAAA",
            "10 Kraken:earn 2024-01-13T00:00:00Z STAKING in=0.41 USDC out= fee=0 USDC value= group=",
            "11 Kraken:earn 2024-02-01T12:00:00Z TRANSFER_OUT in= out=100 USDC fee=0 USDC value= group=DAAAAAA-AAAAAA-AAAAAA",
            "12 Kraken:spot 2024-02-01T12:00:00Z TRANSFER_IN in=100 USDC out= fee=0 USDC value= group=DAAAAAA-AAAAAA-AAAAAA",
            "13 Kraken:earn 2024-02-05T00:00:00Z STAKING in=0.00012 ETH out= fee=0 ETH value= group=",
        ],
    );
    assert!(report.contains("layout L11 (detected)"), "{report}");
}

#[test]
fn kraken_2022_ledgers_with_opt_in_rewards_and_a_trailing_comma() {
    let (_, report) = import_exact(
        "real/kraken-ledgers/kraken-ledgers-2022-opt-in.csv",
        &[],
        &[
            "1 Kraken:spot 2022-03-02T08:00:00Z DEPOSIT in=500 EUR out= fee=0 EUR value= group=",
            "2 Kraken:spot 2022-03-02T08:05:00Z BUY in=0.0075 BTC out=300 EUR fee=0.48 EUR value= group=",
            "3 Kraken:spot 2022-03-10T01:00:00Z STAKING in=0.000002 BTC out= fee=0 BTC value= group=",
            "4 Kraken:spot 2022-03-17T01:00:00Z STAKING in=0.0000021 BTC out= fee=0 BTC value= group=",
            "5 Kraken:spot 2022-04-01T10:00:00Z BUY in=95 ADA out=100 EUR fee=0.16 EUR value= group=",
            "6 Kraken:spot 2022-04-08T01:00:00Z STAKING in=0.1 ADA out= fee=0 ADA value= group=",
            "7 Kraken:spot 2022-06-01T12:00:00Z TRANSFER_OUT in= out=0.002485 BTC fee=0.000015 BTC value= group=",
        ],
    );
    assert!(report.contains("layout L11 (detected)"), "{report}");
}

#[test]
fn bitvavo_legacy_layout() {
    let (_, report) = import_exact(
        "real/bitvavo/bitvavo-legacy-2023.csv",
        &[],
        &[
            "1 Bitvavo 2023-05-15T02:00:43Z PROMOTION in=0.03 EUR out= fee= value= group=",
            "2 Bitvavo 2023-09-01T19:39:25Z TRANSFER_IN in=87.339658 XLM out= fee= value= group=",
            "3 Bitvavo 2023-09-07T19:39:25Z TRANSFER_OUT in= out=87.339658 XLM fee=0 XLM value= group=",
            "4 Bitvavo 2023-12-12T09:00:00Z DEPOSIT in=25 EUR out= fee=0 EUR value= group=",
            "5 Bitvavo 2023-12-13T13:39:02.473Z BUY in=34.75825253 STORJ out=24.9376558601738 EUR fee=0.0623441398262 EUR value= group=",
            "6 Bitvavo 2023-12-20T08:00:00Z SELL in=8 EUR out=10 STORJ fee=0.02 EUR value= group=",
            "7 Bitvavo 2023-12-21T08:00:00Z STAKING in=0.01 STORJ out= fee= value= group=",
            "8 Bitvavo 2023-12-22T08:00:00Z STAKING in=0.02 STORJ out= fee= value= group=",
        ],
    );
    assert!(report.contains("layout legacy (detected)"), "{report}");
}

#[test]
fn binance_2021_statement_quoted_with_a_bom_and_no_user_id() {
    let (_, report) = import_exact(
        "real/binance-statement/binance-statement-2021-quoted-bom.csv",
        &[],
        &[
            "1 Binance:spot 2021-03-01T10:00:00Z DEPOSIT in=100 EUR out= fee= value= group=",
            "2 Binance:spot 2021-03-01T10:05:00Z BUY in=0.002 BTC out=90 EUR fee=0.000002 BTC value= group=",
            "3 Binance:savings 2021-03-02T00:00:00Z TRANSFER_IN in=0.001 BTC out= fee= value= group=2021-03-02T00:00:00Z Savings purchase BTC",
            "4 Binance:spot 2021-03-02T00:00:00Z TRANSFER_OUT in= out=0.001 BTC fee= value= group=2021-03-02T00:00:00Z Savings purchase BTC",
            "5 Binance:savings 2021-03-03T00:00:00Z REWARD in=0.00000012 BTC out= fee= value= group=",
            "6 Binance:spot 2021-03-04T00:00:00Z STAKING in=0.01 DOT out= fee= value= group=",
            "7 Binance:spot 2021-03-05T12:00:00Z BUY in=18.5 ADA out=20 EUR fee= value= group=",
        ],
    );
    assert!(report.contains("layout utc (detected)"), "{report}");
}

#[test]
fn binance_local_statement_with_two_digit_years_at_the_offset_its_name_states() {
    let file = "real/binance-statement/Binance-Transaction-History-202403010400(UTC+1)_ab12.csv";
    let (_, report) = import_exact(
        file,
        &["--timezone", "+01:00"],
        &[
            "1 Binance:spot 2023-03-23T10:02:11Z DEPOSIT in=300 EUR out= fee= value= group=",
            "2 Binance:spot 2023-03-23T10:05:33Z BUY in=42.5 DOT out=250 EUR fee=0.00003605 BNB value= group=",
            "3 Binance:spot 2023-07-01T01:00:00Z REWARD in=0.11 DOT out= fee= value= group=",
            "4 Binance:spot 2023-07-02T01:00:00Z REWARD in=0.0042 USDT out= fee= value= group=",
            "5 Binance:spot 2023-07-03T01:00:00Z REWARD in=0.00000054 BNB out= fee= value= group=",
            "6 Binance:spot 2023-07-04T01:00:00Z REWARD in=0.01 USDT out= fee= value= group=",
            "7 Binance:spot 2023-12-31T22:59:59Z SELL in=13.1 EUR out=2 DOT fee= value= group=",
        ],
    );
    assert!(report.contains("layout local (detected)"), "{report}");
}

#[test]
fn cryptocom_app_reward_kinds_of_later_exports() {
    let _ = import_exact(
        "real/cryptocom-app/cryptocom-2023-rewards.csv",
        &[],
        &[
            "1 Crypto.com 2023-06-01T12:00:00Z BUY in=900 CRO out=50 EUR fee= value= group=",
            "2 Crypto.com 2023-06-05T09:30:00Z PROMOTION in=1.5 CRO out= fee= value=0.08 EUR group=",
            "3 Crypto.com 2023-06-12T10:00:00Z PROMOTION in=10 CRO out= fee= value=0.55 EUR group=",
            "4 Crypto.com 2023-06-20T08:00:00Z PROMOTION in=4.2 CRO out= fee= value=0.23 EUR group=",
        ],
    );
}

#[test]
fn kraken_dust_sweep_of_several_coins_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let path = example("real/kraken-ledgers/kraken-ledgers-2024-dustsweeping.csv");
    let path = path.to_str().unwrap();
    let output = run(&ledger, &["import", path]);
    assert_eq!(output.status.code(), Some(1));
    let errors = stderr(&output);
    let message = "error[ambiguous-group] column \"refid\": refid TSDEF6I-HNFS4-PZQ2KE converts small balances of ALGO, DOGE into one credit, and the ledger does not state what each coin fetched; record one SELL or SWAP per coin with the generic format (their received amounts adding up to the credit)\n";
    for line in [4, 5, 6] {
        assert!(
            errors.contains(&format!("{path}:{line}:2: {message}")),
            "{errors}"
        );
    }
    // The one-coin sweep is a sale whose 3 % fee is charged on the credit.
    let output = run(&ledger, &["import", path, "--skip-invalid"]);
    assert!(
        stdout(&output).contains("  result        imported with invalid rows\n"),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        stored_rows(&ledger),
        [
            "1 Kraken:spot 2024-11-28T04:39:06Z SELL in=0.15 EUR out=1.23 TRX fee=0.0045 EUR value= group=",
            "2 Kraken:spot 2024-12-01T04:39:06Z TRANSFER_IN in=10 USDC out= fee=0 USDC value= group=",
        ]
    );
}

#[test]
fn a_binance_local_statement_without_timezone_names_the_offset_its_file_name_states() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let path =
        example("real/binance-statement/Binance-Transaction-History-202403010400(UTC+1)_ab12.csv");
    let path = path.to_str().unwrap();
    let output = run(&ledger, &["import", path]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        format!(
            "{path}:1:2: error[timezone-required] column \"Time\": these timestamps carry no time zone; pass --timezone (the file name says the times are in UTC+1: --timezone +01:00; a fixed offset, unlike Europe/Madrid, which moves to +02:00 in summer)\n{path}: rejected: nothing was written\n"
        )
    );
    // The last sale of 2023 at 23:59:59 UTC+1 stays in 2023.
    let output = run(&ledger, &["import", path, "--timezone", "+01:00"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let sales = stdout(&run(
        &ledger,
        &[
            "tx",
            "--type",
            "SELL",
            "--from",
            "2023-12-31",
            "--to",
            "2023-12-31",
        ],
    ));
    assert!(
        sales.contains(" 2023-12-31T22:59:59Z   SELL   Binance:spot   13.1 EUR   2 DOT"),
        "{sales}"
    );
}

#[test]
fn coinbase_2026_converts_written_as_two_rows_are_one_swap() {
    let (dir, report) = import_exact(
        "real/coinbase/coinbase-2026-convert-pairs.csv",
        &[],
        &[
            "1 Coinbase 2026-01-20T09:55:00Z DEPOSIT in=100 EUR out= fee=0 EUR value= group=",
            "2 Coinbase 2026-01-20T10:00:00Z BUY in=80 USDC out=76 EUR fee=1.2 EUR value= group=",
            "3 Coinbase 2026-01-24T22:14:05Z SWAP in=0.00084397 BTC out=77.589329 USDC fee=2.18 EUR value=75.4 EUR group=",
            "4 Coinbase 2026-03-10T09:00:00Z SWAP in=0.0231 ETH out=0.0006 BTC fee=0.51 EUR value=50.49 EUR group=",
            "5 Coinbase 2026-05-04T12:08:48Z SELL in=14.4 EUR out=0.0002 BTC fee=0.0265 EUR value= group=",
        ],
    );
    assert!(report.contains("  rows read     7\n"), "{report}");
    // Every disposal is covered by its acquisitions: no leg is booked twice or lost.
    let integrity = stdout(&run(&dir.path().join("ledger.sqlite"), &["integrity"]));
    assert!(
        integrity.starts_with("Data quality: 0 finding(s), 0 pending review\n"),
        "{integrity}"
    );
}

#[test]
fn a_lone_convert_row_without_notes_says_to_export_all_assets() {
    let (errors, code, path) = reject(
        "usdc.csv",
        "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n\
         6975442d0a1b2c3d4e5f6a7b,2026-01-24 22:14:05 UTC,Convert,USDC,-77.589329,EUR,€1.00,-€77.58,-€77.58,€0.00,\n",
    );
    assert_eq!(code, Some(1));
    assert!(
        errors.starts_with(&format!(
            "{path}:2:3: error[incomplete-group] column \"Transaction Type\": operation Convert 2026-01-24 22:14:05 UTC has no in leg: the report holds only the USDC side of this convert; download the report for all assets (not one asset) and import that file\n"
        )),
        "{}",
        errors
    );
}

#[test]
fn a_binance_liquidity_pool_deposit_is_refused_by_name() {
    let (errors, code, path) = reject(
        "pool.csv",
        "UTC_Time,Account,Operation,Coin,Change,Remark\n\
         2021-06-01 10:00:00,Spot,Liquid Swap Add,USDT,-100,\n",
    );
    assert_eq!(code, Some(1));
    assert!(
        errors.starts_with(&format!(
            "{path}:2:3: error[unsupported-type] column \"Operation\": binance-statement type \"Liquid Swap Add\" is not supported: deposits into and withdrawals from a liquidity pool are not supported: the statement does not state the pool share received or given; record it with the generic format; to book it, map it to a type: cartera import --map 'binance:Liquid Swap Add=TYPE'"
        )),
        "{}",
        errors
    );
}

#[test]
fn a_csv_re_saved_by_a_spanish_spreadsheet_says_to_import_the_original() {
    let (errors, code, path) = reject(
        "bit2me.csv",
        "Tipo de operación;Cantidad de destino;Moneda de destino;Cantidad de origen;Moneda de origen;Comisión de la operación;Moneda de la comisión;Exchange;Grupo;Descripción;Fecha\n\
         Trade;0,001;BTC;99;EUR;1;EUR;;trading;wallet 2a2b3c;01/01/2025 11:40\n",
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        errors,
        format!(
            "{path}:1:1: error[header-not-found] column \"-\": no supported header in the first 10 records; line 1 is a header of the bit2me format separated by semicolons, as a spreadsheet in a Spanish locale saves a CSV (with decimal commas too): import the .xlsx workbook Bit2Me gave you, not a copy saved by the spreadsheet\n{path}: rejected: nothing was written\n"
        )
    );
}

#[test]
fn a_coinbase_report_of_before_2020_is_named_with_the_one_to_download() {
    // The header of the report before 2020, as yabc's Coinbase reader documents it.
    let (errors, code, path) = reject(
        "coinbase-2019.csv",
        "Transactions\nUser,Ana Ejemplo,5f3c2a1b7d9e4c6f8a2b1e0d\n\
         Timestamp,Transaction Type,Asset,Quantity Transacted,EUR Spot Price at Transaction,EUR Amount Transacted (Inclusive of Coinbase Fees),Address,Notes\n\
         10/06/2018,Buy,BTC,0.01,5247.26,53.97,,\"Bought 0.0100 BTC for €53.97 EUR.\"\n",
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        errors,
        format!(
            "{path}:1:1: error[header-not-found] column \"Transactions\": this is a Coinbase transaction report of before 2020; download the current one instead (Coinbase, Reports, Transaction history, all assets and all time), which covers the same years\n{path}: rejected: nothing was written\n"
        )
    );
}
