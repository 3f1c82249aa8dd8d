//! Invariants over generated generic files: every row is accounted for, identities are unique
//! and stable, and the file order does not change them.

use importers::ImportOptions;
use proptest::prelude::*;

const HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";

fn row() -> impl Strategy<Value = String> {
    (
        0u32..3,
        0u32..5,
        0u32..4,
        1u32..5000,
        prop::bool::ANY,
        0u32..6,
    )
        .prop_map(|(kind, day, acct, amount, fee, dup)| {
            let ts = format!("2024-0{}-1{}T10:00:0{}Z", 1 + day % 9, day, dup % 3);
            let account = ["Ledger", "ledger", "Bit2Me", "Nexo"][acct as usize];
            let fee = if fee { "EUR,0" } else { "," };
            match kind {
                0 => format!("{ts},DEPOSIT,{account},EUR,{amount},,,{fee},,,,,"),
                1 => format!("{ts},BUY,{account},BTC,0.{amount:04},EUR,{amount},{fee},,,,,"),
                _ => format!("{ts},SWAP,{account},ETH,{amount},ETH,{amount},,,,,,,same asset"),
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn rows_are_accounted_and_identities_are_stable(rows in prop::collection::vec(row(), 0..40)) {
        let text = format!("{HEADER}\n{}\n", rows.join("\n"));
        let r = importers::import_bytes(text.as_bytes(), &ImportOptions::default());
        prop_assert!(!r.has_errors(), "{:?}", r.findings);
        prop_assert_eq!(r.rows_read, r.rows_in_records + r.skipped_total() + r.invalid_rows);
        let ids: std::collections::BTreeSet<&str> = r.transactions.iter().map(|t| t.identity.as_str()).collect();
        prop_assert_eq!(ids.len(), r.transactions.len());
        // Reversing the file keeps the same set of identities (ordinals follow time, then line).
        let mut reversed = rows.clone();
        reversed.reverse();
        let text = format!("{HEADER}\n{}\n", reversed.join("\n"));
        let again = importers::import_bytes(text.as_bytes(), &ImportOptions::default());
        let ids_again: std::collections::BTreeSet<&str> = again.transactions.iter().map(|t| t.identity.as_str()).collect();
        prop_assert_eq!(ids, ids_again);
        // Insertion order is ascending (timestamp, first line).
        prop_assert!(r.transactions.windows(2).all(|w| (w[0].timestamp, w[0].lines[0]) <= (w[1].timestamp, w[1].lines[0])));
    }
}

fn noise() -> impl Strategy<Value = String> {
    let cell = prop::sample::select(vec![
        "",
        "2025-01-05T10:00:00Z",
        "2025-01-05 10:00:00",
        "25-03-01 04:00:00",
        "10:00:0é",
        "20é4-01-01",
        "BUY",
        "trade",
        "Deposit",
        "EUR",
        "BTC",
        "XXBT",
        "-5",
        "1e-8",
        "\"1,5\"",
        "€3,100.00",
        "N/A",
        "0",
        "Spot",
        "Completed",
        "Europe/Madrid",
        "ñ",
        "\"a\nb\"",
        "spot / main",
        "Bought 1 BTC for 5 EUR",
    ]);
    let header = prop::sample::select(vec![
        HEADER,
        "txid,refid,time,type,subtype,aclass,asset,amount,fee,balance",
        "User_ID,UTC_Time,Account,Operation,Coin,Change,Remark",
        "Timezone,Date,Time,Type,Currency,Amount,Quote Currency,Quote Price,Received / Paid Currency,Received / Paid Amount,Fee currency,Fee amount,Status,Transaction ID,Address",
        "Date,USD,GBP,",
        "date,symbol,close,currency",
        "timestamp,price",
    ]);
    (
        header,
        prop::collection::vec(prop::collection::vec(cell, 0..16), 0..6),
    )
        .prop_map(|(h, rows)| {
            let body: Vec<String> = rows.iter().map(|r| r.join(",")).collect();
            format!("{h}\n{}", body.join("\n"))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn bad_input_never_panics(text in noise()) {
        let _ = importers::import_bytes(text.as_bytes(), &ImportOptions::default());
        let _ = importers::rates::parse_ecb(text.as_bytes());
        let o = importers::prices::PriceOptions { symbol: Some("BTC".to_owned()), currency: Some("EUR".to_owned()), format: None };
        let _ = importers::prices::parse("XBTEUR_1440.csv", text.as_bytes(), &o);
    }
}
