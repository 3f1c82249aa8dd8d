//! KuCoin export bundle (`test_data/kucoin`).

use importers::{ImportOptions, SkipReason, Zone};

use crate::{check_findings, check_txs, data, file, import};

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

#[test]
fn other_files_of_the_bundle_match_no_layout() {
    let bytes = file(
        "UID,Account Type,Currency,Side,Amount,Fee,Time(UTC),Remark,Type",
        &["1,mainAccount,BTC,Deposit,0.1,0,2024-07-25 10:00:00,,Deposit"],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "a.csv",
        &[
            "a.csv:1:1: error[header-mismatch] column \"UID\": the header does not match format kucoin: no layout of kucoin matches",
        ],
    );
}
