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

fn skipped(r: &importers::ImportResult) -> Vec<(String, u64)> {
    r.skipped.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn the_funding_accounts_asset_changes_are_read() {
    let r = import(
        &data("bybit/bybit-funding-asset-changes.csv"),
        &ImportOptions::default(),
    );
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("bybit, layout funding (detected)")
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    let g = |i: usize| r.transactions[i].group_id.clone().unwrap_or_default();
    let txs: Vec<String> = r.transactions.iter().map(crate::fmt_tx).collect();
    assert_eq!(
        txs,
        [
            "3 Bybit 2025-03-01T09:00:00Z TRANSFER_IN | 1000 USDT |  |  |  | ".to_owned(),
            "5 Bybit 2025-03-02T00:41:47Z REWARD | 0.103 USDT |  |  |  | ".to_owned(),
            format!(
                "6 Bybit 2025-03-03T10:00:00Z TRANSFER_OUT |  | 50 USDT |  |  | {}",
                g(2)
            ),
            format!(
                "6 Bybit:earn 2025-03-03T10:00:00Z TRANSFER_IN | 50 USDT |  |  |  | {}",
                g(2)
            ),
            "7 Bybit 2025-03-04T00:41:47Z REWARD | 0.00000012 USDT |  |  |  | ".to_owned(),
            "8 Bybit 2025-03-05T08:00:00Z TRANSFER_IN | 0.01 BTC |  |  |  | ".to_owned(),
            "9 Bybit 2025-03-06T08:16:17Z DEPOSIT | 17.43 EUR |  |  |  | ".to_owned(),
            "10,11 Bybit 2025-03-07T12:00:00Z SWAP | 0.00021 BTC | 20 USDT |  |  | ".to_owned(),
            "12 Bybit 2025-03-08T10:00:00Z AIRDROP | 12.5 MNT |  |  |  | ".to_owned(),
            format!(
                "13 Bybit:earn 2025-03-09T10:00:00Z TRANSFER_OUT |  | 50 USDT |  |  | {}",
                g(9)
            ),
            format!(
                "13 Bybit 2025-03-09T10:00:00Z TRANSFER_IN | 50 USDT |  |  |  | {}",
                g(9)
            ),
            "14 Bybit 2025-03-10T19:04:50Z TRANSFER_OUT |  | 0.01 BTC |  |  | ".to_owned(),
        ]
    );
    assert_eq!(skipped(&r), [("internal-movement".to_owned(), 1)]);
}

#[test]
fn both_earlier_deposit_and_withdrawal_generations_are_read() {
    let r = import(
        &data("bybit/bybit-deposits-withdrawals-v2.csv"),
        &ImportOptions::default(),
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    check_txs(
        &r,
        &[
            "2 Bybit 2023-04-01T09:00:00Z TRANSFER_IN | 0.5 ETH |  |  |  | ",
            "3 Bybit 2023-04-15T09:00:00Z TRANSFER_OUT |  | 100 USDT |  |  | ",
        ],
    );
    assert_eq!(skipped(&r), [("internal-movement".to_owned(), 2)]);
    let r = import(
        &data("bybit/bybit-deposits-v1.csv"),
        &ImportOptions::default(),
    );
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("bybit, layout deposits-v1 (detected)")
    );
    check_txs(
        &r,
        &["2 Bybit 2021-05-01T10:00:00Z TRANSFER_IN | 500 USDT |  |  |  | "],
    );
    assert_eq!(skipped(&r), [("internal-movement".to_owned(), 2)]);
}

#[test]
fn card_payments_unknown_labels_and_derivatives_are_named() {
    let bytes = file(
        "Uid,Date & Time(UTC),Coin,QTY,Type,Account Balance,Description",
        &[
            "1,2025-08-11 15:02:50,BTC,-0.00042233,Bybit Card,0.0002469,Purchase",
            "1,2025-08-11 15:03:00,BTC,0.1,Mystery,0.1,Something",
            "1,2025-08-11 15:04:00,BTC,-0.1,Airdrop,0.1,Airdrop",
            "1,2025-08-11 15:05:00,BTC,-0.1,Deposit,0.1,Deposit",
        ],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "b.csv",
        &[
            "b.csv:2:7: error[unsupported-type] column \"Description\": bybit type \"Bybit Card / Purchase\" is not supported: Bybit Card payments are booked with the card's USD bookkeeping, which is not read; record it with the generic format",
            "b.csv:3:7: error[unknown-type] column \"Description\": unknown bybit type \"Mystery / Something\"",
            "b.csv:4:4: error[sign-mismatch] column \"QTY\": \"Airdrop\" rows must have a positive amount",
            "b.csv:5:4: error[sign-mismatch] column \"QTY\": \"Deposit\" rows must have a positive amount",
        ],
    );
    let bytes = file(
        "Uid,Currency,Contract,Type,Direction,Quantity,Position,Filled Price,Funding,Fee Paid,Cash Flow,Change,Wallet Balance,Action,Time(UTC)",
        &[
            "1,USDT,ETHUSDT,TRADE,BUY,0.05,0.05,2510,0,-0.04518,0,-0.04518,305.4156,OPEN,2026-09-18 09:03:24",
        ],
    );
    let r = import(&bytes, &ImportOptions::default());
    assert!(r.file_rejected());
    assert!(
        crate::rendered(&r, "u")
            .iter()
            .any(|f| f.contains("a Bybit Unified Trading Account transaction log")),
        "{:?}",
        crate::rendered(&r, "u")
    );
}
