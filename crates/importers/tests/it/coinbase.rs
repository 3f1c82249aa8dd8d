use importers::ImportOptions;

use crate::{check_findings, check_txs, data, file, import, keys};

const V4: &str = "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes";

#[test]
fn example_coinbase_2025() {
    let r = import(
        &data("coinbase/coinbase-2025.csv"),
        &ImportOptions::default(),
    );
    check_txs(
        &r,
        &[
            "15 Coinbase 2025-05-20T18:55:00Z DEPOSIT | 750 EUR |  | 0 EUR |  | ",
            "14 Coinbase 2025-05-20T18:58:30Z BUY | 260 USDC | 234 EUR | 0 EUR |  | ",
            "13 Coinbase 2025-05-20T19:00:02Z BUY | 0.00281 BTC | 239.69 EUR | 3.59 EUR |  | ",
            "12 Coinbase 2025-05-20T19:01:45Z SWAP | 0.1 ETH | 249.5 USDC | 0.4 USDC | 224.55 EUR | ",
            "11 Coinbase 2025-06-12T08:30:10Z BUY | 2 SOL | 250 EUR | 0.75 EUR |  | ",
            "10 Coinbase 2025-06-30T15:00:00Z SELL | 280 EUR | 2 SOL | 0.84 EUR |  | ",
            "9 Coinbase 2025-07-15T11:22:33Z SWAP | 0.0631 ETH | 0.002 BTC | 1.5 EUR | 202.5 EUR | ",
            "8 Coinbase 2025-07-20T10:00:00Z TRANSFER_OUT |  | 0.06 ETH | 0 EUR |  | b316ea49c8179b342397ffa67bcc63a20144cf4ffd22a2cfa7a9ff99ed283b75",
            "8 Coinbase:staking 2025-07-20T10:00:00Z TRANSFER_IN | 0.06 ETH |  |  |  | b316ea49c8179b342397ffa67bcc63a20144cf4ffd22a2cfa7a9ff99ed283b75",
            "7 Coinbase 2025-07-31T00:05:19Z STAKING | 0.00031 ETH |  | 0 EUR | 1 EUR | ",
            "6 Coinbase 2025-08-02T17:40:03Z PROMOTION | 12.5 GRT |  | 0 EUR | 1 EUR | ",
            "5 Coinbase 2025-08-14T09:12:44Z TRANSFER_OUT |  | 0.04 ETH | 0 EUR |  | ",
        ],
    );
}

#[test]
fn example_coinbase_keys_and_groups() {
    let r = import(
        &data("coinbase/coinbase-2025.csv"),
        &ImportOptions::default(),
    );
    // AC-02.
    assert_eq!(r.format.clone().unwrap().layout, "v4");
    assert_eq!(r.header_line, Some(4));
    assert_eq!(r.transactions[0].lines, [15]);
    assert_eq!(r.rows_read, 11);
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    // AC-33.
    assert_eq!(
        r.transactions[2].identity,
        "ead880a5ee8a93769411006856ebc70b849f4d6f4dc5010777b21eb7660b876c"
    );
    let k = keys(&r);
    assert_eq!(k[8], "v1|coinbase|id|68c4a2f9e1d7b3c5a8f6e0d2|move-in");
    let out = &r.transactions[7];
    assert_eq!(out.group_id.as_deref(), Some(out.identity.as_str()));
    assert_eq!(
        r.transactions[8].group_id.as_deref(),
        Some(out.identity.as_str())
    );
}

#[test]
fn ac34_quote_unknown() {
    let row = r#"682cf0a1b2c3d4e5f6a7b8c9,2025-01-13 12:20:53 UTC,Advanced Trade Buy,ETH,0.05,EUR,"€3,100.00",€155.00,€155.62,€0.62,Bought ETH"#;
    let r = import(&file(V4, &[row]), &ImportOptions::default());
    check_findings(
        &r,
        "coinbase-terse.csv",
        &[
            "coinbase-terse.csv:2:11: error[quote-unknown] column \"Notes\": Notes do not name the quote asset of this advanced trade; pass --assume-fiat-quote if it was traded against EUR",
        ],
    );
    let o = ImportOptions {
        assume_fiat_quote: true,
        ..ImportOptions::default()
    };
    let r = import(&file(V4, &[row]), &o);
    check_txs(
        &r,
        &["2 Coinbase 2025-01-13T12:20:53Z BUY | 0.05 ETH | 155 EUR | 0.62 EUR |  | "],
    );
}

#[test]
fn ac35_ac36_unknown_type_after_multiline_notes() {
    let text = format!(
        "{V4}\n\n\n{}\n{}\n",
        "68e9c1a4f2b7d3e5a1c9f0b9,2025-08-14 09:12:44 UTC,Send,ETH,-0.04,EUR,€1.00,€1.00,€1.00,€0.00,\"two\nlines\"",
        "68e9c1a4f2b7d3e5a1c9f0c0,2025-08-14 09:12:44 UTC,Crypto Gift,ETH,-0.04,EUR,€1.00,€1.00,€1.00,€0.00,"
    );
    let r = import(text.as_bytes(), &ImportOptions::default());
    check_findings(
        &r,
        "coinbase.csv",
        &[
            "coinbase.csv:6:3: error[unknown-type] column \"Transaction Type\": unknown coinbase type \"Crypto Gift\"; to book it, map it to a type: cartera import --map 'coinbase:Crypto Gift=TYPE' (or add it to the setting import.label_map), TYPE one of STAKING, REWARD, AIRDROP, PROMOTION, SPEND, FEE, TRANSFER_IN, TRANSFER_OUT, DEPOSIT, WITHDRAWAL, MINING, FORK",
        ],
    );
    assert_eq!(r.transactions[0].lines, [4]);
}

#[test]
fn ac37_v3_content_key_matches_v4() {
    let v3 = "Transaction report for Ana Example\nTimestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n2025-05-20T19:00:02Z,Buy,BTC,0.00281,EUR,85300.00,239.69,243.28,3.59,Bought 0.00281 BTC for €243.28 EUR\n";
    let r = import(v3.as_bytes(), &ImportOptions::default());
    assert_eq!(r.format.clone().unwrap().layout, "v3");
    check_txs(
        &r,
        &["3 Coinbase 2025-05-20T19:00:02Z BUY | 0.00281 BTC | 239.69 EUR | 3.59 EUR |  | "],
    );
    let v4 = import(
        &data("coinbase/coinbase-2025.csv"),
        &ImportOptions::default(),
    );
    let matching: Vec<&importers::Transaction> = v4
        .transactions
        .iter()
        .filter(|t| t.content_key == r.transactions[0].content_key)
        .collect();
    assert_eq!(matching.len(), 1);
    assert_eq!(matching[0].lines, [13]);
    assert_eq!(
        r.transactions[0].identity_key,
        r.transactions[0].content_key
    );
}
