//! KuCoin export bundle (`test_data/kucoin`).

use importers::{ImportOptions, SkipReason, Zone};

use crate::{check_findings, check_txs, data, file, import, keys, rendered};

#[test]
fn fills_with_a_zoned_time_column_give_their_trades() {
    let r = import(&data("kucoin/kucoin-fills.csv"), &ImportOptions::default());
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("kucoin, layout fills (detected)")
    );
    check_txs(
        &r,
        &[
            "2 KuCoin 2024-07-25T08:00:00Z SWAP | 0.01 BTC | 600 USDT | 0.6 USDT |  | ",
            "3 KuCoin 2024-07-26T16:30:15Z SELL | 1500 EUR | 0.5 ETH | 1.5 EUR |  | ",
            "4 KuCoin 2024-07-27T07:00:00Z SWAP | 5 KCS | 50 USDT | 0.005 KCS |  | ",
        ],
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.transactions[0].identity_key,
        "v1\u{1f}kucoin\u{1f}order\u{1f}66a1b2c3d4e5f60718293a4b"
    );
}

#[test]
fn deposits_and_withdrawals_are_read() {
    let r = import(
        &data("kucoin/kucoin-deposits.csv"),
        &ImportOptions::default(),
    );
    check_txs(
        &r,
        &["2 KuCoin 2024-07-20T12:00:00Z TRANSFER_IN | 1000 USDT |  | 0 USDT |  | "],
    );
    assert_eq!(r.skipped.get(&SkipReason::Pending), Some(&1));
    let r = import(
        &data("kucoin/kucoin-withdrawals.csv"),
        &ImportOptions::default(),
    );
    check_txs(
        &r,
        &["2 KuCoin 2024-08-01T10:00:00Z TRANSFER_OUT |  | 0.005 BTC | 0.0005 BTC |  | "],
    );
}

#[test]
fn a_time_column_without_zone_needs_one_and_bad_cells_are_named() {
    let header = "UID,Account Type,Order ID,Symbol,Side,Order Type,Avg. Filled Price,Filled Amount,Filled Volume,Filled Volume (USDT),Filled Time,Fee,Tax,Maker/Taker,Fee Currency";
    let bytes = file(
        header,
        &[
            "1,Trading Account,a1,BTC-EUR,BUY,LIMIT,50000,0.01,500,540,2024-07-25 10:00:00,0.5,0,TAKER,EUR",
        ],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "k.csv",
        &[
            "k.csv:2:11: error[timezone-required] column \"Filled Time\": these timestamps carry no time zone; pass --timezone",
        ],
    );
    let options = ImportOptions {
        timezone: Zone::parse("Asia/Singapore"),
        ..ImportOptions::default()
    };
    check_txs(
        &import(&bytes, &options),
        &["2 KuCoin 2024-07-25T02:00:00Z BUY | 0.01 BTC | 500 EUR | 0.5 EUR |  | "],
    );
    let bytes = file(
        header,
        &[
            "1,Trading Account,a1,BTCEUR,HOLD,LIMIT,50000,0.01,500,540,2024-07-25 10:00:00,0.5,0,TAKER,EUR",
            "1,Trading Account,a2,BTC-EUR,BUY,LIMIT,50000,0,0,0,2024-07-25 10:00:00,0,0,TAKER,EUR",
        ],
    );
    let r = import(&bytes, &options);
    check_findings(
        &r,
        "k.csv",
        &[
            "k.csv:2:4: error[bad-asset-symbol] column \"Symbol\": \"BTCEUR\" is not a valid asset symbol",
            "k.csv:2:5: error[unknown-type] column \"Side\": unknown kucoin type \"HOLD\"",
        ],
    );
    assert_eq!(r.skipped.get(&SkipReason::NotFinal), Some(&1));
}

fn singapore() -> ImportOptions {
    ImportOptions {
        timezone: Zone::parse("Asia/Singapore"),
        ..ImportOptions::default()
    }
}

fn skipped(r: &importers::ImportResult) -> Vec<(String, u64)> {
    r.skipped.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn funding_account_history_reads_what_only_it_states() {
    let r = import(
        &data("kucoin/kucoin-account-history-funding.csv"),
        &ImportOptions::default(),
    );
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("kucoin, layout account-history (detected)")
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    check_txs(
        &r,
        &[
            "9 KuCoin 2025-01-10T08:00:00Z DEPOSIT | 1000 EUR |  | 1 EUR |  | ",
            "4 KuCoin 2025-01-14T05:00:00Z REWARD | 0.5 USDT |  |  |  | ",
            "3 KuCoin 2025-01-14T06:00:00Z PROMOTION | 2 USDT |  |  |  | ",
            "2 KuCoin 2025-01-14T07:00:00Z PROMOTION | 10 USDT |  |  |  | ",
        ],
    );
    assert_eq!(
        skipped(&r),
        [
            ("internal-movement".to_owned(), 2),
            ("in-other-file".to_owned(), 2)
        ]
    );
}

#[test]
fn trading_account_history_merges_conversions_and_moves_earn() {
    let r = import(
        &data("kucoin/kucoin-account-history-trading.csv"),
        &ImportOptions::default(),
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    let txs: Vec<String> = r.transactions.iter().map(crate::fmt_tx).collect();
    let group = r.transactions[4].group_id.clone().unwrap_or_default();
    let back = r.transactions[6].group_id.clone().unwrap_or_default();
    assert_eq!(
        txs,
        [
            "5 KuCoin 2025-01-11T10:00:01Z PROMOTION | 0.04 USDT |  |  |  | ".to_owned(),
            "6,7 KuCoin 2025-01-12T09:15:02Z SWAP | 518.04 USDT | 0.42830996 BNB | 0.52 USDT |  | "
                .to_owned(),
            "8,9 KuCoin 2025-01-13T03:00:00Z SWAP | 0.12 KCS | 15.5 DOGE |  |  | ".to_owned(),
            "10,11 KuCoin 2025-01-14T09:55:40Z BUY | 110 USDT | 100 EUR |  |  | ".to_owned(),
            format!("12 KuCoin 2025-01-15T10:00:00Z TRANSFER_OUT |  | 50 USDT |  |  | {group}"),
            format!("12 KuCoin:earn 2025-01-15T10:00:00Z TRANSFER_IN | 50 USDT |  |  |  | {group}"),
            format!("13 KuCoin:earn 2025-02-15T10:00:00Z TRANSFER_OUT |  | 50 USDT |  |  | {back}"),
            format!("13 KuCoin 2025-02-15T10:00:00Z TRANSFER_IN | 50 USDT |  |  |  | {back}"),
            "14 KuCoin 2025-02-15T10:00:00Z REWARD | 0.2 USDT |  |  |  | ".to_owned(),
        ]
    );
    assert_eq!(group.len(), 64);
    assert_eq!(
        skipped(&r),
        [
            ("internal-movement".to_owned(), 1),
            ("in-other-file".to_owned(), 4)
        ]
    );
}

#[test]
fn a_conversion_with_one_side_in_the_file_is_an_incomplete_group() {
    let header = "UID,Account Type,Currency,Side,Amount,Fee,Time(UTC),Remark,Type";
    let bytes = file(
        header,
        &[
            "1,mainAccount,USDT,Withdrawal,20,0,2025-01-12 09:15:02,,Convert Market",
            "1,mainAccount,BTC,Deposit,0.0002,0,2025-01-12 09:15:05,,Convert Market",
            "1,mainAccount,USDT,Deposit,5,0,2025-01-12 09:16:00,,Lucky Draw",
            "1,mainAccount,USDT,Withdrawal,5,0,2025-01-12 09:17:00,,Referral Bonus",
            "1,mainAccount,USDT,Sideways,5,0,2025-01-12 09:18:00,,Transfer",
            "1,mainAccount,USDT,Withdrawal,5,6,2025-01-12 09:19:00,,Convert Market",
        ],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "a.csv",
        &[
            "a.csv:2:9: error[incomplete-group] column \"Type\": operation Convert Market at 2025-01-12T09:15:02Z has no in leg; if the export was made for one asset only, export it again for all assets",
            "a.csv:3:9: error[incomplete-group] column \"Type\": operation Convert Market at 2025-01-12T09:15:05Z has no out leg; if the export was made for one asset only, export it again for all assets",
            "a.csv:4:9: error[unknown-type] column \"Type\": unknown kucoin type \"Lucky Draw\"",
            "a.csv:5:4: error[sign-mismatch] column \"Side\": \"Referral Bonus\" rows must have the side Deposit",
            "a.csv:6:4: error[unknown-type] column \"Side\": unknown kucoin type \"Sideways\"",
            "a.csv:7:6: error[fee-exceeds-amount] column \"Fee\": the fee 6 is larger than the amount that contains it",
        ],
    );
}

#[test]
fn the_untyped_account_history_and_futures_are_refused_by_name() {
    let bytes = file(
        "UID,Account Type,Currency,Side,Amount,Fee,Time(UTC),Remark",
        &["1,mainAccount,BTC,Deposit,0.1,0,2024-07-25 10:00:00,Deposit"],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "a.csv",
        &[
            "a.csv:1:1: error[header-mismatch] column \"UID\": this is a KuCoin account history without the Type column (an earlier generation), which is not read; download the account history again (Orders, Export Data, Account History): today's file has the Type column cartera reads",
        ],
    );
    let bytes = file(
        "UID,Account Type,Symbol,Close Type,Realized PNL,Total Realized PNL,Total Funding Fees,Total Trading Fees,Position Opening Time(UTC),Position Closing Time(UTC)",
        &["1,mainAccount,XBTUSDTM,Close,1,1,0,0,2024-07-25 10:00:00,2024-07-25 11:00:00"],
    );
    let r = import(&bytes, &ImportOptions::default());
    assert!(r.file_rejected());
    assert!(
        rendered(&r, "f")
            .iter()
            .any(|f| f.contains("KuCoin futures history")),
        "{:?}",
        rendered(&r, "f")
    );
}

#[test]
fn the_fills_of_one_order_are_one_trade() {
    let r = import(
        &data("kucoin/kucoin-fills-split.csv"),
        &ImportOptions::default(),
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    check_txs(
        &r,
        &[
            "4 KuCoin 2025-01-11T11:00:00Z SELL | 190 EUR | 200 USDT | 0.19 EUR |  | ",
            "2,3 KuCoin 2025-01-11T12:00:00Z SWAP | 500 ADA | 200 USDT | 0.2 USDT |  | ",
        ],
    );
    assert_eq!(keys(&r)[1], "v1|kucoin|order|67a0c1d2e3f4a5b6c7d8e9f0");
    // A fill of an order further up the file, after another order.
    let header = "UID,Account Type,Order ID,Symbol,Side,Order Type,Avg. Filled Price,Filled Amount,Filled Volume,Filled Volume (USDT),Filled Time(UTC),Fee,Tax,Maker/Taker,Fee Currency";
    let bytes = file(
        header,
        &[
            "1,mainAccount,o1,ADA-USDT,BUY,LIMIT,0.4,300,120,120,2025-01-11 12:00:00,0.12,,TAKER,USDT",
            "1,mainAccount,o2,ADA-USDT,BUY,LIMIT,0.4,300,120,120,2025-01-11 12:00:00,0.12,,TAKER,USDT",
            "1,mainAccount,o1,ADA-USDT,BUY,LIMIT,0.4,300,120,120,2025-01-11 12:00:00,0.12,,TAKER,USDT",
        ],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "f.csv",
        &[
            "f.csv:4:3: error[duplicate-id] column \"Order ID\": id \"o1\" already appears on line 2 (the fills of one order are one trade when they are next to each other)",
        ],
    );
}

#[test]
fn older_trade_exports_are_read_with_the_zone_given() {
    let r = import(&data("kucoin/kucoin-trades-v4.csv"), &singapore());
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("kucoin, layout trades-v4 (detected)")
    );
    check_txs(
        &r,
        &[
            "2 KuCoin 2019-03-14T07:40:17Z SWAP | 10 KCS | 0.00215 BTC | 0.00000215 BTC |  | ",
            "3 KuCoin 2019-03-15T01:02:38Z SWAP | 0.0351 BTC | 1 ETH | 0.0000351 BTC |  | ",
        ],
    );
    let r = import(&data("kucoin/kucoin-trades-v3.csv"), &singapore());
    check_txs(
        &r,
        &[
            "3,4 KuCoin 2020-06-08T06:32:41Z SWAP | 0.015 BTC | 145.5025 USDT | 0.1455025 USDT |  | ",
            "2 KuCoin 2020-06-09T00:00:00Z SWAP | 245 USDT | 1 ETH | 0.245 USDT |  | ",
        ],
    );
    check_txs(
        &import(&data("kucoin/kucoin-trades-v2.csv"), &singapore()),
        &["2 KuCoin 2018-02-03T03:20:00Z SWAP | 10 NEO | 0.052 BTC | 0.000052 BTC |  | "],
    );
    check_txs(
        &import(&data("kucoin/kucoin-trades-v1.csv"), &singapore()),
        &["2 KuCoin 2017-11-20T10:00:00Z SWAP | 0.11 ETH | 100 KCS |  |  | "],
    );
    let r = import(&data("kucoin/kucoin-orders-v1.csv"), &singapore());
    check_txs(
        &r,
        &["3 KuCoin 2021-04-01T02:00:00Z BUY | 0.01 BTC | 500 EUR | 0.5 EUR |  | "],
    );
    assert_eq!(r.skipped.get(&SkipReason::NotFinal), Some(&1));
    // Without a zone the older exports are not placed.
    let r = import(
        &data("kucoin/kucoin-trades-v1.csv"),
        &ImportOptions::default(),
    );
    check_findings(
        &r,
        "t.csv",
        &[
            "t.csv:2:7: error[timezone-required] column \"created_at\": these timestamps carry no time zone; pass --timezone",
        ],
    );
}

#[test]
fn an_empty_export_with_kucoins_sentence_imports_nothing() {
    let r = import(
        &data("kucoin/kucoin-deposits-empty.csv"),
        &ImportOptions::default(),
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert!(!r.file_rejected());
    assert_eq!(r.rows_read, 0);
    assert!(r.transactions.is_empty());
}

#[test]
fn older_and_reordered_deposit_and_withdrawal_records_are_read() {
    let r = import(&data("kucoin/kucoin-deposits-old.csv"), &singapore());
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("kucoin, layout deposits-old (detected)")
    );
    check_txs(
        &r,
        &[
            "3 KuCoin 2021-02-01T01:30:00Z TRANSFER_IN | 0.8 ETH |  | 0 ETH |  | ",
            "2 KuCoin 2021-02-03T02:00:00Z TRANSFER_IN | 250 USDT |  | 0 USDT |  | ",
        ],
    );
    check_txs(
        &import(&data("kucoin/kucoin-withdrawals-old.csv"), &singapore()),
        &["2 KuCoin 2021-03-01T04:00:00Z TRANSFER_OUT |  | 0.5 ETH |  |  | "],
    );
    check_txs(
        &import(&data("kucoin/kucoin-movements-old.csv"), &singapore()),
        &[
            "2 KuCoin 2018-01-10T00:00:00Z TRANSFER_IN | 0.25 BTC |  |  |  | ",
            "3 KuCoin 2018-02-10T00:00:00Z TRANSFER_OUT |  | 0.1 BTC |  |  | ",
        ],
    );
    // The bundle's reordered deposit record; a row whose remark says Withdrawal is one.
    check_txs(
        &import(
            &data("kucoin/kucoin-deposits-bundle-reordered.csv"),
            &ImportOptions::default(),
        ),
        &[
            "2 KuCoin 2023-12-04T04:21:52Z TRANSFER_IN | 1497 USDT |  | 0 USDT |  | ",
            "3 KuCoin 2023-12-05T06:00:00Z TRANSFER_OUT |  | 300 USDT | 1 USDT |  | ",
        ],
    );
}

#[test]
fn files_that_restate_the_account_history_are_refused_by_name() {
    // From BittyTax and a public statement importer's list of the bundle's files.
    for (header, what) in [
        (
            "UID,Account Type,Order ID,Time(UTC),Staked Coin,Product Type,Product Name,Earnings Coin,Earnings Type,Remarks,Amount,Amount（USDT）,Fee",
            "this is KuCoin's Earn profit history, which is not read; the account history states every Earn payout",
        ),
        (
            "UID,Account Type,Payment Account,Sell,Buy,Price,Tax,Time of Update(UTC),Status",
            "this is KuCoin's convert orders, which is not read; the account history states every conversion",
        ),
        (
            "Order ID,Currency (Fiat),Fiat Amount,Fee,Deposit Method,Status,Time(UTC+02:00)",
            "this is KuCoin's fiat deposit record; the KuCoin account history states every fiat deposit",
        ),
    ] {
        let r = import(&file(header, &[]), &ImportOptions::default());
        assert!(r.file_rejected(), "{header}");
        assert!(
            rendered(&r, "f").iter().any(|f| f.contains(what)),
            "{:?}",
            rendered(&r, "f")
        );
    }
}
