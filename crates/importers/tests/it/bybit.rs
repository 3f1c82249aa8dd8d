//! Bybit spot trade history (`test_data/bybit`).

use importers::ImportOptions;

use crate::{check_findings, check_txs, data, file, import};

#[test]
fn the_statement_with_its_preamble_gives_its_trades() {
    let r = import(
        &data("bybit/bybit-spot-statement.csv"),
        &ImportOptions::default(),
    );
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("bybit, layout spot (detected)")
    );
    check_txs(
        &r,
        &[
            "3 Bybit 2024-12-09T19:48:23Z SWAP | 0.046118 BTC | 4478.0578 USDT | 0.000046118 BTC |  | ",
            "4 Bybit 2024-12-26T09:48:53Z SWAP | 0.19759 LTC | 20.6461791 USDT | 0.000355662 LTC |  | ",
            "5 Bybit 2024-12-27T10:00:00Z SELL | 459 EUR | 0.005 BTC | 0.459 EUR |  | ",
        ],
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!(
        r.transactions[0].identity_key,
        "v1\u{1f}bybit\u{1f}trade\u{1f}2290000000522832993"
    );
}

#[test]
fn the_order_history_with_clock_first_times_is_read() {
    let r = import(
        &data("bybit/bybit-spot-orderhistory.csv"),
        &ImportOptions::default(),
    );
    check_txs(
        &r,
        &[
            "3 Bybit 2024-11-15T09:10:00Z SWAP | 10 ICP | 80.203 USDT | 0.01 ICP |  | ",
            "2 Bybit 2024-11-16T14:35:00Z SWAP | 49.973424 USDT | 5.36 ICP | 0.049973424 USDT |  | ",
        ],
    );
}

#[test]
fn unknown_pairs_and_directions_are_named() {
    let bytes = file(
        "Spot Pairs,Order Type,Direction,Filled Value,Filled Price,Filled Quantity,Fees,Transaction ID,Order No.,Timestamp (UTC)",
        &[
            "ABCXYZ,LIMIT,BUY,1,1,1,0,t1,o1,2024-11-16 14:35:00",
            "BTCUSDT,LIMIT,HOLD,1,1,1,0,t2,o2,2024-11-16 14:35:00",
            "BTCUSDT,LIMIT,BUY,1,1,1,0,t2,o2,2024-11-16 14:35:00",
            "BTCUSDT,LIMIT,BUY,1,1,1,0,t2,o2,2024-11-16 14:35:01",
        ],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "b.csv",
        &[
            "b.csv:2:1: error[bad-asset-symbol] column \"Spot Pairs\": \"ABCXYZ\" is not a valid asset symbol",
            "b.csv:3:3: error[unknown-type] column \"Direction\": unknown bybit type \"HOLD\"",
            "b.csv:5:8: error[duplicate-id] column \"Transaction ID\": id \"t2\" already appears on line 4",
        ],
    );
}
