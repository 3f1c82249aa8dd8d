use importers::{ImportOptions, Zone};

use crate::{check_findings, check_txs, data, file, import, keys};

const HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";

fn g(rows: &[&str]) -> importers::ImportResult {
    import(&file(HEADER, rows), &ImportOptions::default())
}

#[test]
fn example_wallets_2024() {
    let r = import(&data("generic/wallets-2024.csv"), &ImportOptions::default());
    check_txs(
        &r,
        &[
            "2 Bit2Me 2024-11-02T08:00:00Z DEPOSIT | 700 EUR |  | 0 EUR |  | ",
            "3 Bit2Me 2024-11-02T09:15:00Z BUY | 0.01 BTC | 650 EUR | 2.5 EUR |  | ",
            "4 Bit2Me 2024-11-05T18:00:00Z TRANSFER_OUT |  | 0.0099 BTC | 0.0001 BTC |  | move-1",
            "5 Ledger 2024-11-05T18:42:10Z TRANSFER_IN | 0.0099 BTC |  |  |  | move-1",
            "6 Bit2Me 2024-11-20T12:00:00Z PROMOTION | 10 EUR |  |  |  | ",
            "7 Ledger 2024-12-01T09:00:00Z AIRDROP | 120 ARB |  |  | 138 EUR | ",
            "8 Ledger 2024-12-03T16:20:00Z TRANSFER_IN | 0.5012 ETH |  |  |  | ",
            "9 Ledger 2024-12-03T16:25:31Z SWAP | 1710.55 USDC | 0.5 ETH | 0 ETH | 1580.2 EUR | ",
            "10 Ledger 2024-12-03T16:25:31Z FEE |  | 0.0012 ETH |  |  | ",
            "11 Ledger 2024-12-10T20:00:00Z SPEND |  | 0.001 BTC |  | 62.3 EUR | ",
            "12 Nexo 2024-12-15T08:00:00Z REWARD | 1.25 USDC |  |  |  | ",
            "13 Bit2Me 2024-12-31T23:59:59Z WITHDRAWAL |  | 40 EUR | 0.5 EUR |  | ",
        ],
    );
    let k = keys(&r);
    assert_eq!(k[0], "v1|generic|id|bit2me|b2m-0001");
    assert_eq!(
        k[3],
        "v1|generic|content|ledger|2024-11-05T18:42:10Z|TRANSFER_IN|BTC|0.0099|||||1"
    );
    // AC-38.
    assert_eq!(
        r.transactions[1].identity,
        "e2a5f3d53416defc254ffa4f7f7cac575a4db5eff38679b106ffdfb0ad610008"
    );
    assert_eq!(
        r.transactions[3].identity,
        "de1bcffa30346ca57eeaaefe0e42f5afa3a026b3b56f68add7e82f879b92ad69"
    );
    assert_eq!(r.rows_read, 12);
    assert_eq!(r.rows_in_records, 12);
    assert!(r.findings.is_empty());
    // A second import yields the same identities (so the store adds 0, reports 12 duplicates).
    let again = import(&data("generic/wallets-2024.csv"), &ImportOptions::default());
    assert_eq!(keys(&again), k);
}

#[test]
fn ac39_fiat_expected() {
    let r = g(&["2025-01-05T10:00:00Z,BUY,Wallet,BTC,0.01,USDT,950,,,,,,,"]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:6: error[fiat-expected] column \"out_asset\": BUY requires a fiat out side; USDT is not fiat",
        ],
    );
    assert!(r.transactions.is_empty());
}

#[test]
fn ac40_fee_pairs() {
    let r = g(&["2025-01-05T10:00:00Z,DEPOSIT,Bank A,EUR,100,,,,0,,,,,"]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:8: error[fee-pair-incomplete] column \"fee_asset\": a fee needs both an asset and an amount",
        ],
    );
    let r = g(&[
        "2025-01-05T10:00:00Z,DEPOSIT,Bank A,EUR,100,,,EUR,0,,,,,",
        "2025-01-05T10:00:00Z,DEPOSIT,Bank A,EUR,100,,,,,,,,,",
    ]);
    check_txs(
        &r,
        &[
            "2 Bank A 2025-01-05T10:00:00Z DEPOSIT | 100 EUR |  | 0 EUR |  | ",
            "3 Bank A 2025-01-05T10:00:00Z DEPOSIT | 100 EUR |  |  |  | ",
        ],
    );
    assert!(keys(&r).iter().all(|k| k.ends_with("|1")));
}

#[test]
fn ac41_timezone() {
    let row = ["2025-01-05 10:00:00,DEPOSIT,Bank A,EUR,100,,,,,,,,,"];
    let r = g(&row);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:1: error[timezone-required] column \"timestamp\": these timestamps carry no time zone; pass --timezone",
        ],
    );
    let o = ImportOptions {
        timezone: Zone::parse("Europe/Madrid"),
        ..ImportOptions::default()
    };
    let r = import(&file(HEADER, &row), &o);
    check_txs(
        &r,
        &["2 Bank A 2025-01-05T09:00:00Z DEPOSIT | 100 EUR |  |  |  | "],
    );
}

#[test]
fn ac42_unknown_type() {
    let r = g(&["2025-01-05T10:00:00Z,STAKE,Wallet,ETH,0.01,,,,,,,,,"]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:2: error[unknown-type] column \"type\": unknown generic type \"STAKE\"; expected one of BUY, SELL, SWAP, DEPOSIT, WITHDRAWAL, STAKING, AIRDROP, REWARD, MINING, SPEND, FEE, TRANSFER_IN, TRANSFER_OUT, MIGRATION_SWAP, PROMOTION, FORK",
        ],
    );
}

#[test]
fn ac43_fiat_value_conflict() {
    let r = g(&["2025-01-05T10:00:00Z,BUY,Bit2Me,BTC,0.01,EUR,650,,,640,EUR,,,"]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:10: error[fiat-value-conflict] column \"fiat_value\": fiat value 640 EUR differs from the fiat side 650 EUR",
        ],
    );
}

#[test]
fn ac44_numbers() {
    let check = |cell: &str, expected: Result<&str, &str>| {
        let row = format!("2025-01-05T10:00:00Z,DEPOSIT,Bank A,EUR,{cell},,,,,,,,,");
        let r = g(&[&row]);
        match expected {
            Ok(v) => assert_eq!(r.transactions[0].inflow.unwrap().quantity.to_string(), v),
            Err(msg) => check_findings(&r, "g.csv", &[msg]),
        }
    };
    check(
        "1e-8",
        Err(
            "g.csv:2:5: error[bad-decimal] column \"in_amount\": \"1e-8\" is not a plain decimal number",
        ),
    );
    check(
        "\"1,5\"",
        Err(
            "g.csv:2:5: error[bad-decimal] column \"in_amount\": \"1,5\" is not a plain decimal number",
        ),
    );
    check(
        "0.00000000000000000000000000001",
        Err(
            "g.csv:2:5: error[decimal-out-of-range] column \"in_amount\": \"0.00000000000000000000000000001\" has more than 28 significant or 28 fractional digits",
        ),
    );
    check(
        "12345678901234567890123456789",
        Err(
            "g.csv:2:5: error[decimal-out-of-range] column \"in_amount\": \"12345678901234567890123456789\" has more than 15 digits before the point; larger amounts are not accepted",
        ),
    );
    check(
        "0.1234567890123456789012345678",
        Ok("0.1234567890123456789012345678"),
    );
}

#[test]
fn ac45_unknown_column() {
    let r = import(
        &file(&format!("{HEADER},wallet"), &[]),
        &ImportOptions::default(),
    );
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:1:15: error[unknown-column] column \"wallet\": column \"wallet\" is not part of the generic format",
        ],
    );
    assert!(r.file_rejected());
}

#[test]
fn ac46_one_bad_row_in_a_thousand() {
    let mut rows: Vec<String> = (0..1000)
        .map(|i| {
            format!(
                "2025-01-05T10:{:02}:{:02}Z,TRANSFER_OUT,Wallet,,,BTC,0.{:04},,,,,,,",
                i / 60,
                i % 60,
                i + 1
            )
        })
        .collect();
    rows[899] = "2025-01-05T10:14:59Z,TRANSFER_OUT,Wallet,,,BTC,-5,,,,,,,".to_owned();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let r = g(&refs);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:901:7: error[negative-not-allowed] column \"out_amount\": \"-5\" must not be negative",
        ],
    );
    assert_eq!(r.invalid_rows, 1);
    assert_eq!(r.transactions.len(), 999);
    rows[899] = "2025-01-05T10:14:59Z,TRANSFER_OUT,Wallet,,,BTC,5,,,,,,,".to_owned();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let r = g(&refs);
    assert!(r.findings.is_empty());
    assert_eq!(r.transactions.len(), 1000);
}

#[test]
fn identical_rows_apart_in_the_file_get_ordinals_in_time_order() {
    let a = "2024-02-01T10:00:00Z,DEPOSIT,Ledger,EUR,5,,,,,,,,,";
    let b = "2024-01-01T10:00:00Z,DEPOSIT,Ledger,EUR,5,,,,,,,,,";
    let c = "2024-03-01T10:00:00Z,DEPOSIT,Ledger,EUR,5,,,,,,,,,";
    // Lines 2..6: a, b, c, a, b; ordinals follow (timestamp, line) and restart per content.
    let r = g(&[a, b, c, a, b]);
    assert_eq!(
        keys(&r),
        [
            "v1|generic|content|ledger|2024-01-01T10:00:00Z|DEPOSIT|EUR|5|||||1",
            "v1|generic|content|ledger|2024-01-01T10:00:00Z|DEPOSIT|EUR|5|||||2",
            "v1|generic|content|ledger|2024-02-01T10:00:00Z|DEPOSIT|EUR|5|||||1",
            "v1|generic|content|ledger|2024-02-01T10:00:00Z|DEPOSIT|EUR|5|||||2",
            "v1|generic|content|ledger|2024-03-01T10:00:00Z|DEPOSIT|EUR|5|||||1",
        ]
    );
}
