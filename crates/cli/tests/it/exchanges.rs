//! The further exchanges' exports (issue 22) imported end to end through the binary: the
//! stored transactions of each fixture, and a second import that adds nothing.

use std::path::Path;

use crate::support::{counts, example, run, stderr, stdout, stored_rows};

/// The stored rows with every 64-hex group id (an identity) written `<identity>`.
fn rows(ledger: &Path) -> Vec<String> {
    stored_rows(ledger)
        .into_iter()
        .map(|row| match row.split_once("group=") {
            Some((head, group))
                if group.len() == 64 && group.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                format!("{head}group=<identity>")
            }
            _ => row,
        })
        .collect()
}

/// Imports `file` (with `extra` options) into a fresh ledger, checks the report's format line
/// and the stored rows, then imports it again and checks nothing was added.
fn import_twice(file: &str, extra: &[&str], format: &str, expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let path = example(file);
    let mut args = vec!["import", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = run(&ledger, &args);
    assert!(output.status.success(), "{file}: {}", stderr(&output));
    let report = stdout(&output);
    assert!(
        report.contains(&format!("  format        {format}\n")),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "  added         {} transactions\n",
            expected.len()
        )),
        "{report}"
    );
    assert_eq!(rows(&ledger), expected, "{file}");
    let before = counts(&ledger);
    let again = run(&ledger, &args);
    assert!(again.status.success(), "{file}: {}", stderr(&again));
    let report = stdout(&again);
    assert!(
        report.contains(&format!(
            "  added         0 transactions\n  duplicates    {}\n",
            expected.len()
        )),
        "{report}"
    );
    assert_eq!(counts(&ledger), before);
}

#[test]
fn cryptocom_app_export_imports_its_transactions_once() {
    import_twice(
        "cryptocom-app/cryptocom-2025.csv",
        &[],
        "cryptocom-app, layout v2 (detected)",
        &[
            "1 Crypto.com 2025-01-05T16:20:41Z TRANSFER_IN in=0.05 ETH out= fee= value= group=",
            "2 Crypto.com 2025-01-15T09:30:00Z BUY in=0.005 BTC out=450 EUR fee= value= group=",
            "3 Crypto.com 2025-01-20T10:00:00Z BUY in=0.0331 ETH out=100 EUR fee= value= group=",
            "4 Crypto.com 2025-02-01T08:15:00Z SWAP in=0.0312 ETH out=0.001 BTC fee= value=90 EUR group=",
            "5 Crypto.com 2025-02-10T11:30:00Z SWAP in=9.1 CRO out=1.2 ADA fee= value= group=",
            "6 Crypto.com 2025-02-15T12:00:00Z TRANSFER_OUT in= out=0.001 BTC fee= value= group=<identity>",
            "7 Crypto.com:earn 2025-02-15T12:00:00Z TRANSFER_IN in=0.001 BTC out= fee= value= group=<identity>",
            "8 Crypto.com 2025-03-01T00:05:00Z REWARD in=0.0000125 BTC out= fee= value=1.05 EUR group=",
            "9 Crypto.com 2025-03-10T09:00:00Z PROMOTION in=12.5 CRO out= fee= value=1.1 EUR group=",
            "10 Crypto.com 2025-03-20T18:00:00Z TRANSFER_OUT in= out=0.002 BTC fee= value= group=",
        ],
    );
}

#[test]
fn revolut_crypto_statement_imports_its_transactions_once() {
    import_twice(
        "revolut-crypto/revolut-crypto.csv",
        &["--timezone", "Europe/Madrid"],
        "revolut-crypto (detected)",
        &[
            "1 Revolut 2024-06-12T14:16:32Z BUY in=0.01713112 BTC out=100 EUR fee=1.49 EUR value= group=",
            "2 Revolut 2025-02-02T10:03:12Z BUY in=0.12 ETH out=300 EUR fee=4.48 EUR value= group=",
            "3 Revolut 2025-02-02T10:05:00Z TRANSFER_OUT in= out=0.1 ETH fee=0 EUR value= group=<identity>",
            "4 Revolut:staking 2025-02-02T10:05:00Z TRANSFER_IN in=0.1 ETH out= fee= value= group=<identity>",
            "5 Revolut 2025-03-14T23:23:31Z STAKING in=0.00002061 ETH out= fee= value= group=",
            "6 Revolut 2025-04-01T07:00:00Z PROMOTION in=1.5 DOT out= fee=0 EUR value=6.15 EUR group=",
            "7 Revolut 2025-05-04T09:12:00Z SELL in=450 EUR out=0.005 BTC fee=0.41 EUR value= group=",
            "8 Revolut 2025-05-20T17:28:14Z SPEND in= out=0.0005 BTC fee=0 EUR value=46 EUR group=",
            "9 Revolut 2025-06-01T06:00:00Z TRANSFER_OUT in= out=0.002 BTC fee=0 EUR value= group=",
            "10 Revolut 2025-06-02T07:19:04Z DEPOSIT in=8 EUR out= fee=0 EUR value= group=",
        ],
    );
}

#[test]
fn revolut_crypto_statement_before_2023_imports_its_transactions_once() {
    import_twice(
        "revolut-crypto/revolut-crypto-2022.csv",
        &["--timezone", "Europe/Madrid"],
        "revolut-crypto, layout v1 (detected)",
        &[
            "1 Revolut 2021-06-04T05:27:08Z BUY in=0.310358 MATIC out=0.4 EUR fee=0.02 EUR value= group=",
            "2 Revolut 2021-07-29T06:55:24Z SELL in=0.13 EUR out=0.15826907 MATIC fee=0.01 EUR value= group=",
            "3 Revolut 2021-07-29T06:55:24Z BUY in=0.0065 DOT out=0.11 EUR fee=0.01 EUR value= group=",
            "4 Revolut 2022-06-25T11:29:03Z BUY in=1000 ZRX out=293.9067439 EUR fee=4.41 EUR value= group=",
            "5 Revolut 2022-06-26T08:00:00Z TRANSFER_OUT in= out=100 ZRX fee= value= group=",
            "6 Revolut:savings 2022-06-26T08:00:00Z TRANSFER_IN in=100 ZRX out= fee= value= group=",
            "7 Revolut 2022-06-27T08:32:23Z SELL in=259.27184 EUR out=800 ZRX fee=3.888 EUR value= group=",
            "8 Revolut 2022-07-05T16:20:00Z SPEND in= out=25 ZRX fee=0.12 EUR value=8 EUR group=",
            "9 Revolut 2022-07-10T10:00:00Z PROMOTION in=0.00012 BTC out= fee= value=2.4 EUR group=",
            "10 Revolut 2022-07-12T14:45:10Z PROMOTION in=0.9 ALGO out= fee= value=0.31 EUR group=",
        ],
    );
}

#[test]
fn bit2me_workbook_imports_its_transactions_once() {
    import_twice(
        "bit2me/bit2me-2025.xlsx",
        &["--timezone", "Europe/Madrid"],
        "bit2me (detected)",
        &[
            "1 Bit2Me 2025-01-01T10:32:00Z STAKING in=0.2229808 B2M out= fee=0 EUR value= group=",
            "2 Bit2Me 2025-01-13T15:24:00Z DEPOSIT in=100 EUR out= fee=0 EUR value= group=",
            "3 Bit2Me 2025-01-19T21:49:00Z BUY in=1933.38784147 JASMY out=50 EUR fee=9.57098884 JASMY value= group=",
            "4 Bit2Me 2025-01-30T13:52:00Z TRANSFER_OUT in= out=1.536429 HBAR fee=0.7 HBAR value= group=",
            "5 Bit2Me 2025-01-30T14:37:00Z BUY in=0.00149693 BNB out=0.9905 EUR fee=0.0095 EUR value= group=",
            "6 Bit2Me 2025-01-30T15:42:00Z TRANSFER_IN in=57.05766322 USDC out= fee=0 EUR value= group=",
            "7 Bit2Me 2025-03-21T08:43:00Z SWAP in=0.0084939 USDC out=0.0084939 USDT fee=0 USDT value= group=",
            "8 Bit2Me 2025-04-20T07:01:00Z AIRDROP in=1778.08180605 B2M out= fee=0 EUR value= group=",
        ],
    );
}

#[test]
fn bit2me_workbook_without_time_zone_is_rejected_whole() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let path = example("bit2me/bit2me-2025.xlsx");
    let output = run(&ledger, &["import", path.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains(
            "bit2me-2025.xlsx:1:11: error[timezone-required] column \"Fecha\": these timestamps carry no time zone; pass --timezone"
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bitunix_export_imports_its_transactions_once() {
    import_twice(
        "bitunix/bitunix-2025.csv",
        &[],
        "bitunix (detected)",
        &[
            "1 Bitunix 2025-12-13T12:07:06Z TRANSFER_IN in=4.5 ADA out= fee= value= group=",
            "2 Bitunix 2025-12-13T12:18:14Z TRANSFER_IN in=543.344684 ADA out= fee= value= group=",
            "3 Bitunix 2025-12-13T22:03:31Z TRANSFER_OUT in= out=546.844684 ADA fee=1 ADA value= group=",
        ],
    );
}

#[test]
fn kucoin_files_import_their_transactions_once() {
    import_twice(
        "kucoin/kucoin-fills.csv",
        &[],
        "kucoin, layout fills (detected)",
        &[
            "1 KuCoin 2024-07-25T08:00:00Z SWAP in=0.01 BTC out=600 USDT fee=0.6 USDT value= group=",
            "2 KuCoin 2024-07-26T16:30:15Z SELL in=1500 EUR out=0.5 ETH fee=1.5 EUR value= group=",
            "3 KuCoin 2024-07-27T07:00:00Z SWAP in=5 KCS out=50 USDT fee=0.005 KCS value= group=",
        ],
    );
    import_twice(
        "kucoin/kucoin-withdrawals.csv",
        &[],
        "kucoin, layout withdrawals (detected)",
        &[
            "1 KuCoin 2024-08-01T10:00:00Z TRANSFER_OUT in= out=0.005 BTC fee=0.0005 BTC value= group=",
        ],
    );
    import_twice(
        "kucoin/kucoin-deposits-bundle-reordered.csv",
        &[],
        "kucoin, layout deposits (detected)",
        &[
            "1 KuCoin 2023-12-04T04:21:52Z TRANSFER_IN in=1497 USDT out= fee=0 USDT value= group=",
            "2 KuCoin 2023-12-05T06:00:00Z TRANSFER_OUT in= out=300 USDT fee=1 USDT value= group=",
        ],
    );
}

#[test]
fn kucoin_account_histories_import_what_only_they_state_once() {
    import_twice(
        "kucoin/kucoin-account-history-funding.csv",
        &[],
        "kucoin, layout account-history (detected)",
        &[
            "1 KuCoin 2025-01-10T08:00:00Z DEPOSIT in=1000 EUR out= fee=1 EUR value= group=",
            "2 KuCoin 2025-01-14T05:00:00Z REWARD in=0.5 USDT out= fee= value= group=",
            "3 KuCoin 2025-01-14T06:00:00Z PROMOTION in=2 USDT out= fee= value= group=",
            "4 KuCoin 2025-01-14T07:00:00Z PROMOTION in=10 USDT out= fee= value= group=",
        ],
    );
    import_twice(
        "kucoin/kucoin-account-history-trading.csv",
        &[],
        "kucoin, layout account-history (detected)",
        &[
            "1 KuCoin 2025-01-11T10:00:01Z PROMOTION in=0.04 USDT out= fee= value= group=",
            "2 KuCoin 2025-01-12T09:15:02Z SWAP in=518.04 USDT out=0.42830996 BNB fee=0.52 USDT value= group=",
            "3 KuCoin 2025-01-13T03:00:00Z SWAP in=0.12 KCS out=15.5 DOGE fee= value= group=",
            "4 KuCoin 2025-01-14T09:55:40Z BUY in=110 USDT out=100 EUR fee= value= group=",
            "5 KuCoin 2025-01-15T10:00:00Z TRANSFER_OUT in= out=50 USDT fee= value= group=<identity>",
            "6 KuCoin:earn 2025-01-15T10:00:00Z TRANSFER_IN in=50 USDT out= fee= value= group=<identity>",
            "7 KuCoin:earn 2025-02-15T10:00:00Z TRANSFER_OUT in= out=50 USDT fee= value= group=<identity>",
            "8 KuCoin 2025-02-15T10:00:00Z TRANSFER_IN in=50 USDT out= fee= value= group=<identity>",
            "9 KuCoin 2025-02-15T10:00:00Z REWARD in=0.2 USDT out= fee= value= group=",
        ],
    );
}

#[test]
fn kucoin_fills_per_fill_or_per_order_and_older_trades_import_once() {
    import_twice(
        "kucoin/kucoin-fills-split.csv",
        &[],
        "kucoin, layout fills (detected)",
        &[
            "1 KuCoin 2025-01-11T11:00:00Z SELL in=190 EUR out=200 USDT fee=0.19 EUR value= group=",
            "2 KuCoin 2025-01-11T12:00:00Z SWAP in=500 ADA out=200 USDT fee=0.2 USDT value= group=",
        ],
    );
    import_twice(
        "kucoin/kucoin-filled-orders.csv",
        &[],
        "kucoin, layout fills (detected)",
        &[
            "1 KuCoin 2025-01-11T11:00:00Z SELL in=190 EUR out=200 USDT fee=0.19 EUR value= group=",
            "2 KuCoin 2025-01-11T12:00:00Z SWAP in=500 ADA out=200 USDT fee=0.2 USDT value= group=",
        ],
    );
    for (file, layout, expected) in [
        (
            "kucoin/kucoin-trades-v4.csv",
            "trades-v4",
            &[
                "1 KuCoin 2019-03-14T07:40:17Z SWAP in=10 KCS out=0.00215 BTC fee=0.00000215 BTC value= group=",
                "2 KuCoin 2019-03-15T01:02:38Z SWAP in=0.0351 BTC out=1 ETH fee=0.0000351 BTC value= group=",
            ][..],
        ),
        (
            "kucoin/kucoin-trades-v3.csv",
            "trades-v3",
            &[
                "1 KuCoin 2020-06-08T06:32:41Z SWAP in=0.015 BTC out=145.5025 USDT fee=0.1455025 USDT value= group=",
                "2 KuCoin 2020-06-09T00:00:00Z SWAP in=245 USDT out=1 ETH fee=0.245 USDT value= group=",
            ],
        ),
        (
            "kucoin/kucoin-trades-v2.csv",
            "trades-v2",
            &[
                "1 KuCoin 2018-02-03T03:20:00Z SWAP in=10 NEO out=0.052 BTC fee=0.000052 BTC value= group=",
            ],
        ),
        (
            "kucoin/kucoin-trades-v1.csv",
            "trades-v1",
            &["1 KuCoin 2017-11-20T10:00:00Z SWAP in=0.11 ETH out=100 KCS fee= value= group="],
        ),
        (
            "kucoin/kucoin-orders-v1.csv",
            "orders-v1",
            &[
                "1 KuCoin 2021-04-01T02:00:00Z BUY in=0.01 BTC out=500 EUR fee=0.5 EUR value= group=",
            ],
        ),
        (
            "kucoin/kucoin-deposits-old.csv",
            "deposits-old",
            &[
                "1 KuCoin 2021-02-01T01:30:00Z TRANSFER_IN in=0.8 ETH out= fee=0 ETH value= group=",
                "2 KuCoin 2021-02-03T02:00:00Z TRANSFER_IN in=250 USDT out= fee=0 USDT value= group=",
            ],
        ),
        (
            "kucoin/kucoin-withdrawals-old.csv",
            "withdrawals-old",
            &["1 KuCoin 2021-03-01T04:00:00Z TRANSFER_OUT in= out=0.5 ETH fee= value= group="],
        ),
        (
            "kucoin/kucoin-movements-old.csv",
            "movements-old",
            &[
                "1 KuCoin 2018-01-10T00:00:00Z TRANSFER_IN in=0.25 BTC out= fee= value= group=",
                "2 KuCoin 2018-02-10T00:00:00Z TRANSFER_OUT in= out=0.1 BTC fee= value= group=",
            ],
        ),
    ] {
        import_twice(
            file,
            &["--timezone", "Asia/Singapore"],
            &format!("kucoin, layout {layout} (detected)"),
            expected,
        );
    }
}

#[test]
fn a_kucoin_bundle_imported_whole_counts_each_operation_once() {
    // The account histories state every balance change, the fills, deposit and withdrawal
    // records state some of them again: the histories' rows of those are counted, not booked.
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let mut total = 0;
    for (file, added, skipped) in [
        ("kucoin/kucoin-filled-orders.csv", 2, "1 (not-final 1)"),
        ("kucoin/kucoin-fills-split.csv", 0, "0"),
        ("kucoin/kucoin-deposits.csv", 1, "1 (pending 1)"),
        ("kucoin/kucoin-withdrawals.csv", 1, "0"),
        (
            "kucoin/kucoin-account-history-funding.csv",
            4,
            "4 (internal-movement 2, in-other-file 2)",
        ),
        (
            "kucoin/kucoin-account-history-trading.csv",
            9,
            "5 (internal-movement 1, in-other-file 4)",
        ),
        ("kucoin/kucoin-deposits-empty.csv", 0, "0"),
    ] {
        let path = example(file);
        let output = run(&ledger, &["import", path.to_str().unwrap()]);
        assert!(output.status.success(), "{file}: {}", stderr(&output));
        let report = stdout(&output);
        assert!(
            report.contains(&format!("  added         {added} transactions\n")),
            "{file}: {report}"
        );
        assert!(
            report.contains(&format!("  skipped       {skipped}\n")),
            "{file}: {report}"
        );
        total += added;
    }
    assert_eq!(stored_rows(&ledger).len(), total);
}

#[test]
fn bybit_funding_asset_changes_and_deposit_generations_import_once() {
    import_twice(
        "bybit/bybit-funding-asset-changes.csv",
        &[],
        "bybit, layout funding (detected)",
        &[
            "1 Bybit 2025-03-01T09:00:00Z TRANSFER_IN in=1000 USDT out= fee= value= group=",
            "2 Bybit 2025-03-02T00:41:47Z REWARD in=0.103 USDT out= fee= value= group=",
            "3 Bybit 2025-03-03T10:00:00Z TRANSFER_OUT in= out=50 USDT fee= value= group=<identity>",
            "4 Bybit:earn 2025-03-03T10:00:00Z TRANSFER_IN in=50 USDT out= fee= value= group=<identity>",
            "5 Bybit 2025-03-04T00:41:47Z REWARD in=0.00000012 USDT out= fee= value= group=",
            "6 Bybit 2025-03-05T08:00:00Z TRANSFER_IN in=0.01 BTC out= fee= value= group=",
            "7 Bybit 2025-03-06T08:16:17Z DEPOSIT in=17.43 EUR out= fee= value= group=",
            "8 Bybit 2025-03-07T12:00:00Z SWAP in=0.00021 BTC out=20 USDT fee= value= group=",
            "9 Bybit 2025-03-08T10:00:00Z AIRDROP in=12.5 MNT out= fee= value= group=",
            "10 Bybit:earn 2025-03-09T10:00:00Z TRANSFER_OUT in= out=50 USDT fee= value= group=<identity>",
            "11 Bybit 2025-03-09T10:00:00Z TRANSFER_IN in=50 USDT out= fee= value= group=<identity>",
            "12 Bybit 2025-03-10T19:04:50Z TRANSFER_OUT in= out=0.01 BTC fee= value= group=",
        ],
    );
    import_twice(
        "bybit/bybit-deposits-withdrawals-v2.csv",
        &[],
        "bybit, layout funding (detected)",
        &[
            "1 Bybit 2023-04-01T09:00:00Z TRANSFER_IN in=0.5 ETH out= fee= value= group=",
            "2 Bybit 2023-04-15T09:00:00Z TRANSFER_OUT in= out=100 USDT fee= value= group=",
        ],
    );
    import_twice(
        "bybit/bybit-deposits-v1.csv",
        &[],
        "bybit, layout deposits-v1 (detected)",
        &["1 Bybit 2021-05-01T10:00:00Z TRANSFER_IN in=500 USDT out= fee= value= group="],
    );
}

#[test]
fn okx_histories_import_their_transactions_once() {
    import_twice(
        "okx/okx-trading.csv",
        &[],
        "okx, layout trading (detected)",
        &[
            "1 OKX:trading 2025-11-29T02:00:00Z TRANSFER_IN in=1500 USDT out= fee= value= group=",
            "2 OKX:trading 2025-11-29T03:00:00Z SWAP in=0.5 ETH out=1500 USDT fee=0.0005 ETH value= group=",
            "3 OKX:trading 2025-11-29T03:30:00Z TRANSFER_OUT in= out=0.4995 ETH fee= value= group=",
            "4 OKX:trading 2025-11-29T04:00:00Z SELL in=900 EUR out=0.01 BTC fee=0.9 EUR value= group=",
        ],
    );
    import_twice(
        "okx/okx-funding.csv",
        &[],
        "okx, layout funding (detected)",
        &[
            "1 OKX:funding 2025-10-30T06:00:00Z TRANSFER_IN in=1500 USDT out= fee= value= group=",
            "2 OKX:funding 2025-10-30T06:05:00Z TRANSFER_OUT in= out=1500 USDT fee= value= group=",
            "3 OKX:funding 2025-10-31T08:55:15Z TRANSFER_OUT in= out=0.01147863 BTC fee= value= group=",
        ],
    );
}

#[test]
fn bybit_spot_statement_imports_its_transactions_once() {
    import_twice(
        "bybit/bybit-spot-statement.csv",
        &[],
        "bybit, layout spot (detected)",
        &[
            "1 Bybit 2024-12-09T19:48:23Z SWAP in=0.046118 BTC out=4478.0578 USDT fee=0.000046118 BTC value= group=",
            "2 Bybit 2024-12-26T09:48:53Z SWAP in=0.19759 LTC out=20.6461791 USDT fee=0.000355662 LTC value= group=",
            "3 Bybit 2024-12-27T10:00:00Z SELL in=459 EUR out=0.005 BTC fee=0.459 EUR value= group=",
        ],
    );
}

#[test]
fn a_large_newest_first_cryptocom_export_streams_into_the_ledger_once() {
    // Above the streamed path's size threshold and newest first, with one-row moves (two
    // transactions each) and a dust conversion emitted at the end: the streamed read falls
    // back to any order and stores exactly what the whole-file read gives.
    use std::fmt::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let path = dir.path().join("cryptocom-large.csv");
    let mut text = String::from(
        "Timestamp (UTC),Transaction Description,Currency,Amount,To Currency,To Amount,Native Currency,Native Amount,Native Amount (in USD),Transaction Kind,Transaction Hash\n",
    );
    let rows = 40_000u32;
    for i in 0..rows {
        let secs = 1_740_000_000 - i64::from(i) * 60;
        let ts = chrono::DateTime::from_timestamp(secs, 0)
            .unwrap()
            .format("%Y-%m-%d %H:%M:%S");
        let q = i % 999 + 1;
        let _ = match i % 4 {
            0 => writeln!(
                text,
                "{ts},Buy BTC,EUR,-{},BTC,0.000{q:03},EUR,-{},-1,viban_purchase,",
                q + 10,
                q + 10
            ),
            1 => writeln!(
                text,
                "{ts},Crypto Earn,BTC,0.0000{q:03},,,EUR,0.{q:03},0.1,crypto_earn_interest_paid,"
            ),
            2 => writeln!(
                text,
                "{ts},Crypto Earn Deposit,BTC,-0.0000{q:03},,,EUR,-1,-1,crypto_earn_program_created,"
            ),
            _ => writeln!(
                text,
                "{ts},Withdraw BTC,BTC,-0.0000{q:03},,,EUR,-1,-1,crypto_withdrawal,0x{i:064x}"
            ),
        };
    }
    text.push_str(
        "2024-01-01 00:00:00,Convert,ADA,-1.2,,,EUR,-0.85,-0.92,dust_conversion_debited,\n",
    );
    text.push_str(
        "2024-01-01 00:00:00,Convert,CRO,9.1,,,EUR,0.84,0.91,dust_conversion_credited,\n",
    );
    assert!(text.len() > 3 << 20, "{} bytes", text.len());
    std::fs::write(&path, &text).unwrap();
    let expected = rows + rows / 4 + 1;
    let args = ["import", path.to_str().unwrap()];
    let output = run(&ledger, &args);
    assert!(output.status.success(), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(
        report.contains(&format!("  added         {expected} transactions\n")),
        "{report}"
    );
    let stored = stored_rows(&ledger);
    assert_eq!(stored.len(), expected as usize);
    assert!(
        stored[0].starts_with("1 Crypto.com 2024-01-01T00:00:00Z SWAP in=9.1 CRO out=1.2 ADA"),
        "{}",
        stored[0]
    );
    let again = run(&ledger, &args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains(&format!(
            "  added         0 transactions\n  duplicates    {expected}\n"
        )),
        "{}",
        stdout(&again)
    );
}

#[test]
fn okx_older_histories_import_their_transactions_once() {
    let tz = ["--timezone", "Europe/Madrid"];
    import_twice(
        "okx/okx-trading-v1.csv",
        &tz,
        "okx, layout trading-v1 (detected)",
        &[
            "1 OKX:trading 2021-11-02T09:00:00Z SWAP in=0.01 BTC out=610 USDT fee=0.00001 BTC value= group=",
            "2 OKX:trading 2021-11-04T11:30:00Z SWAP in=900 USDT out=0.2 ETH fee=0.9 USDT value= group=",
        ],
    );
    import_twice(
        "okx/okx-funding-fee.csv",
        &tz,
        "okx, layout funding (detected)",
        &[
            "1 OKX:funding 2022-03-01T07:00:00Z TRANSFER_IN in=0.5 ETH out= fee= value= group=",
            "2 OKX:funding 2022-03-02T08:00:00Z SWAP in=250 USDT out=0.1 ETH fee= value= group=",
            "3 OKX:funding 2022-03-03T09:00:00Z TRANSFER_OUT in= out=0.2 ETH fee= value= group=<identity>",
            "4 OKX:earn 2022-03-03T09:00:00Z TRANSFER_IN in=0.2 ETH out= fee= value= group=<identity>",
            "5 OKX:funding 2022-04-03T08:00:00Z STAKING in=0.001 ETH out= fee= value= group=",
            "6 OKX:earn 2022-04-04T08:00:00Z TRANSFER_OUT in= out=0.2 ETH fee= value= group=<identity>",
            "7 OKX:funding 2022-04-04T08:00:00Z TRANSFER_IN in=0.2 ETH out= fee= value= group=<identity>",
            "8 OKX:funding 2022-04-05T09:00:00Z PROMOTION in=0.12 USDT out= fee= value= group=",
            "9 OKX:funding 2022-04-06T10:00:00Z TRANSFER_OUT in= out=100 USDT fee= value= group=<identity>",
            "10 OKX:earn 2022-04-06T10:00:00Z TRANSFER_IN in=100 USDT out= fee= value= group=<identity>",
            "11 OKX:earn 2022-04-07T10:00:00Z TRANSFER_OUT in= out=100 USDT fee= value= group=<identity>",
            "12 OKX:funding 2022-04-07T10:00:00Z TRANSFER_IN in=100 USDT out= fee= value= group=<identity>",
            "13 OKX:funding 2022-04-08T11:00:00Z TRANSFER_OUT in= out=0.3 ETH fee=0.0004 ETH value= group=",
        ],
    );
    import_twice(
        "okx/okx-funding-blank-column.csv",
        &tz,
        "okx, layout funding (detected)",
        &[
            "1 OKX:funding 2022-05-01T06:00:00Z TRANSFER_IN in=1000 USDT out= fee= value= group=",
            "2 OKX:funding 2022-05-02T06:00:00Z TRANSFER_OUT in= out=1000 USDT fee= value= group=",
        ],
    );
    import_twice(
        "okx/okx-fills.csv",
        &tz,
        "okx, layout fills (detected)",
        &[
            "1 OKX:trading 2020-03-01T09:00:00Z SWAP in=0.02 BTC out=172 USDT fee=0.00003 BTC value= group=",
            "2 OKX:trading 2020-03-02T10:00:00Z SWAP in=115 USDT out=0.5 ETH fee=0.092 USDT value= group=",
        ],
    );
    import_twice(
        "okx/okx-bills.csv",
        &tz,
        "okx, layout bills (detected)",
        &[
            "1 OKX:trading 2019-05-10T06:03:22Z SWAP in=0.05 BTC out=300 USDT fee=0.00005 BTC value= group=",
            "2 OKX:trading 2019-05-11T01:15:00Z SWAP in=160 USDT out=0.02 BTC fee=0.16 USDT value= group=",
        ],
    );
}
