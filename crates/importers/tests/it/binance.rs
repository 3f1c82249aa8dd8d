use importers::{ImportOptions, SkipReason, Zone};

use crate::{check_findings, check_txs, data, file, import, keys};

const HEADER: &str = "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark";

fn b(rows: &[&str]) -> importers::ImportResult {
    import(&file(HEADER, rows), &ImportOptions::default())
}

#[test]
fn example_binance_2025() {
    let r = import(
        &data("binance-statement/binance-2025.csv"),
        &ImportOptions::default(),
    );
    check_txs(
        &r,
        &[
            "2 Binance:spot 2025-02-03T10:15:07Z DEPOSIT | 500 EUR |  |  |  | ",
            "3,4,5 Binance:spot 2025-02-03T10:20:41Z BUY | 0.00331 BTC | 300 EUR | 0.00000331 BTC |  | ",
            "6,7 Binance:spot 2025-02-10T16:02:55Z SWAP | 0.03512 ETH | 0.001 BTC |  |  | ",
            "8 Binance:spot 2025-02-11T09:00:00Z TRANSFER_OUT |  | 0.03 ETH |  |  | 2025-02-11T09:00:00Z Simple Earn Flexible Subscription ETH",
            "9 Binance:earn 2025-02-11T09:00:00Z TRANSFER_IN | 0.03 ETH |  |  |  | 2025-02-11T09:00:00Z Simple Earn Flexible Subscription ETH",
            "10 Binance:earn 2025-02-12T01:37:20Z REWARD | 0.0000041 ETH |  |  |  | ",
            "11,13 Binance:spot 2025-02-20T14:30:11Z SWAP | 0.0051 BNB | 12.5 DOGE |  |  | ",
            "12,14 Binance:spot 2025-02-20T14:30:11Z SWAP | 0.0115 BNB | 30 TRX |  |  | ",
            "15 Binance:spot 2025-02-25T08:44:03Z TRANSFER_OUT |  | 0.005 ETH |  |  | ",
        ],
    );
    assert_eq!(r.rows_read, 14);
    assert_eq!(r.rows_in_records, 14);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    // AC-26.
    assert_eq!(
        keys(&r)[0],
        "v1|binance-statement|content|binance|2025-02-03T10:15:07Z|DEPOSIT|EUR|500|||||1"
    );
    assert_eq!(
        r.transactions[0].identity,
        "f403aa77c85705cf32df875b6fc84e566c7e4d576cfdbd00f4d58462e6be2f31"
    );
    assert!(r.transactions[8].fee.is_none());
}

#[test]
fn ac27_legacy_trades() {
    let r = b(&[
        "51234,2021-03-02 08:14:55,Spot,Buy,ADA,120.00000000,\"\"",
        "51234,2021-03-02 08:14:55,Spot,Transaction Related,EUR,-130.80000000,\"\"",
        "51234,2021-03-02 08:14:55,Spot,Fee,BNB,-0.00086200,\"\"",
        "51234,2022-07-17 11:14:22,Spot,Buy,ETH,0.01500000,\"\"",
        "51234,2022-07-17 11:14:22,Spot,Buy,BUSD,-25.51500000,\"\"",
        "51234,2022-07-17 11:14:22,Spot,Fee,BNB,-0.00004120,\"\"",
    ]);
    check_txs(
        &r,
        &[
            "2,3,4 Binance:spot 2021-03-02T08:14:55Z BUY | 120 ADA | 130.8 EUR | 0.000862 BNB |  | ",
            "5,6,7 Binance:spot 2022-07-17T11:14:22Z SWAP | 0.015 ETH | 25.515 BUSD | 0.0000412 BNB |  | ",
        ],
    );
}

#[test]
fn ac28_buy_and_sell_in_one_second() {
    let r = b(&[
        "1,2022-07-17 11:14:22,Spot,Buy,ETH,0.01500000,\"\"",
        "1,2022-07-17 11:14:22,Spot,Buy,BUSD,-25.51500000,\"\"",
        "1,2022-07-17 11:14:22,Spot,Sell,BTC,-0.00100000,\"\"",
        "1,2022-07-17 11:14:22,Spot,Sell,BUSD,20.41000000,\"\"",
    ]);
    let msg = |l: u32| {
        format!(
            "binance.csv:{l}:4: error[ambiguous-group] column \"Operation\": the rows of Spot 2022-07-17 11:14:22 cannot be split into operations without guessing: buy-side and sell-side rows share the same second"
        )
    };
    let expected: Vec<String> = (2..=5).map(msg).collect();
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    check_findings(&r, "binance.csv", &expected);
    assert!(r.transactions.is_empty());
}

#[test]
fn ac29_dust_without_remarks() {
    let rows = [
        "1,2020-11-24 15:44:58,Spot,Small assets exchange BNB,ADA,-0.80000000,\"\"",
        "1,2020-11-24 15:44:58,Spot,Small assets exchange BNB,BNB,0.00004000,\"\"",
        "1,2020-11-24 15:44:58,Spot,Small assets exchange BNB,XLM,-1.20000000,\"\"",
        "1,2020-11-24 15:44:58,Spot,Small assets exchange BNB,BNB,0.00009000,\"\"",
    ];
    let r = b(&rows);
    assert_eq!(r.errors().count(), 4);
    assert!(r.errors().all(|f| {
        f.code == "ambiguous-group"
            && f.message
                .ends_with("several converted coins and BNB legs whose remarks do not name them")
    }));
    let r = b(&rows[..2]);
    check_txs(
        &r,
        &["2,3 Binance:spot 2020-11-24T15:44:58Z SWAP | 0.00004 BNB | 0.8 ADA |  |  | "],
    );
}

#[test]
fn ac30_identical_rows_get_ordinals() {
    let row = "39184726,2025-03-01 09:00:00,Spot,Deposit,USDT,50.00000000,\"\"";
    let r = b(&[row, row]);
    let ids: Vec<&str> = r.transactions.iter().map(|t| t.identity.as_str()).collect();
    assert_eq!(
        ids,
        [
            "4136ca391a3d31ba95922a7a1888bb203a4f50da6caf9e4e868cee542ce76171",
            "6dacf25eab8cb30a6c783ec9658f7eb49d6bf76256e12b56fd39f3a13b1cf87f",
        ]
    );
    // A file with only one of the two rows yields the first identity: nothing new.
    let one = b(&[row]);
    assert_eq!(one.transactions[0].identity, ids[0]);
}

#[test]
fn ac31_local_layout_needs_timezone() {
    let bytes = file(
        "User ID,Time,Account,Operation,Coin,Change,Remark",
        &["39184726,25-03-01 04:00:00,Spot,Deposit,EUR,100,"],
    );
    let r = import(&bytes, &ImportOptions::default());
    check_findings(
        &r,
        "binance-local.csv",
        &[
            "binance-local.csv:1:2: error[timezone-required] column \"Time\": these timestamps carry no time zone; pass --timezone",
        ],
    );
    assert!(r.file_rejected());
    let o = ImportOptions {
        timezone: Zone::parse("-06:00"),
        ..ImportOptions::default()
    };
    let r = import(&bytes, &o);
    check_txs(
        &r,
        &["2 Binance:spot 2025-03-01T10:00:00Z DEPOSIT | 100 EUR |  |  |  | "],
    );
}

#[test]
fn ac32_futures_account() {
    let r = b(&["1,2025-03-01 09:00:00,USD-M Futures,Realized Profit and Loss,USDT,5,\"\""]);
    assert_eq!(r.errors().next().unwrap().code, "unsupported-type");
    let r = b(&[
        "1,2025-03-01 09:00:00,USD-M Futures,Transfer Between Spot Account and UM Futures Account,USDT,5,\"\"",
    ]);
    check_txs(
        &r,
        &[
            "2 Binance:usd-m futures 2025-03-01T09:00:00Z TRANSFER_IN | 5 USDT |  |  |  | 2025-03-01T09:00:00Z Transfer Between Spot Account and UM Futures Account USDT",
        ],
    );
    let r = b(&[
        "1,2025-03-01 09:00:00,USD-M Futures,Transfer Between Spot Account and UM Futures Account,USDT,-5,\"\"",
    ]);
    assert_eq!(r.transactions[0].tx_type.as_str(), "TRANSFER_OUT");
    let r = b(&[
        "1,2025-03-01 09:00:00,USD-M Futures,Transfer Between Spot Account and UM Futures Account,EUR,5,\"\"",
    ]);
    assert!(r.transactions.is_empty());
    assert_eq!(r.skipped.get(&SkipReason::InternalMovement), Some(&1));
}

#[test]
fn possible_duplicate_reward_warns_on_both_lines() {
    let r = b(&[
        "1,2025-03-01 09:00:00,Earn,Simple Earn Flexible Interest,ETH,0.0001,\"\"",
        "1,2025-03-01 10:00:00,Spot,Simple Earn Flexible Interest,ETH,0.0001,\"\"",
    ]);
    assert_eq!(r.transactions.len(), 2);
    check_findings(
        &r,
        "b.csv",
        &[
            "b.csv:2:4: warning[possible-duplicate-reward] column \"Operation\": same reward as line 3 (Binance:spot); both were imported",
            "b.csv:3:4: warning[possible-duplicate-reward] column \"Operation\": same reward as line 2 (Binance:earn); both were imported",
        ],
    );
}
