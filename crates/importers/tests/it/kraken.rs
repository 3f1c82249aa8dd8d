use importers::{ImportOptions, SkipReason};

use crate::{check_findings, check_txs, data, file, import, keys};

const L12: &str = r#""txid","refid","time","type","subtype","aclass","subclass","asset","wallet","amount","fee","balance""#;

fn k(rows: &[&str]) -> importers::ImportResult {
    import(&file(L12, rows), &ImportOptions::default())
}

const EXPECTED: [&str; 9] = [
    "3 Kraken:spot 2025-01-10T09:05:12Z DEPOSIT | 1000 EUR |  | 0 EUR |  | ",
    "4,5 Kraken:spot 2025-01-10T09:30:00Z BUY | 0.0062 BTC | 600 EUR | 1.56 EUR |  | ",
    "6,7 Kraken:spot 2025-02-01T12:00:03Z BUY | 16.5 DOT | 100 EUR | 1.49 EUR |  | ",
    "8 Kraken:spot 2025-02-02T08:00:00Z TRANSFER_OUT |  | 16.5 DOT | 0 DOT |  | ELQ3M7P-9WB2KX-ZN4T6R",
    "9 Kraken:earn 2025-02-02T08:00:00Z TRANSFER_IN | 16.5 DOT |  | 0 DOT |  | ELQ3M7P-9WB2KX-ZN4T6R",
    "10 Kraken:earn 2025-02-09T01:12:44Z STAKING | 0.041 DOT |  | 0.001025 DOT |  | ",
    "11,12 Kraken:spot 2025-03-05T16:45:10Z SWAP | 0.061 ETH | 0.002 BTC | 0.00015 ETH |  | ",
    "13 Kraken:spot 2025-03-20T18:00:00Z TRANSFER_OUT |  | 0.05 ETH | 0.0015 ETH |  | ",
    "15,16 Kraken:spot 2025-04-02T10:11:12Z BUY | 500 DOGE | 60 EUR | 0.16 EUR |  | ",
];

#[test]
fn example_kraken_2025() {
    let r = import(
        &data("kraken-ledgers/kraken-2025.csv"),
        &ImportOptions::default(),
    );
    check_txs(&r, &EXPECTED);
    let f = r.format.clone().unwrap();
    assert_eq!(f.to_string(), "kraken-ledgers, layout L12 (detected)");
    assert_eq!(r.header_line, Some(1));
    assert_eq!(r.rows_read, 15);
    assert_eq!(r.rows_in_records, 13);
    assert_eq!(r.skipped.get(&SkipReason::Pending), Some(&1));
    assert_eq!(r.skipped.get(&SkipReason::InternalMovement), Some(&1));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    let suffixes: Vec<String> = keys(&r)
        .iter()
        .map(|k| k.trim_start_matches("v1|kraken-ledgers|").to_owned())
        .collect();
    assert_eq!(
        suffixes,
        [
            "txid|LQ4Y2H-5NTRW-ZQ7E3D",
            "refid|TJ5N2D-7XK3P-MB6QRC",
            "refid|TK8R4S-2YH7N-CD3VBX",
            "txid|LD4SA8-FG6HJ-KL2ZXC",
            "txid|LE9QW1-ER3TY-UI5OPA",
            "txid|LF2AS3-DF4GH-JK6LZX",
            "refid|TN3B6V-8JK2L-PQ4XZA",
            "txid|LJ1HJ3-KL5ZX-CV7BNM",
            "refid|TP5C8X-4ZN7M-RB2KWD",
        ]
    );
    // AC-08.
    assert_eq!(
        r.transactions[0].identity,
        "ae3475ee58782dc0d75ffea1d29e13ef0909d668888189012ae3991529594dc6"
    );
    assert_eq!(
        r.transactions[1].identity,
        "bd4dce94315e6345824bada3e4078c9e4805f807e4fa169091196f53b961ec70"
    );
    assert_eq!(
        r.transactions[1].source_ref,
        "L7KM2A-QW3ER-TY5UIO+L2PL8K-ZX4CV-BN7MAS"
    );
    assert_eq!(
        r.transactions[5].note,
        "earn reward; wallet earn / bonded; asset DOT.S"
    );
}

#[test]
fn ac01_l10_layout() {
    let text = String::from_utf8(data("kraken-ledgers/kraken-2025.csv")).unwrap();
    let l10: Vec<String> = text
        .lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            cells.remove(8);
            cells.remove(6);
            cells.join(",")
        })
        .collect();
    let r = import(l10.join("\n").as_bytes(), &ImportOptions::default());
    assert_eq!(r.format.clone().unwrap().layout, "L10");
    assert_eq!(r.transactions.len(), 7);
    assert!(r.transactions.iter().all(|t| t.account == "Kraken"));
    assert_eq!(r.skipped.get(&SkipReason::InternalMovement), Some(&3));
    let staking = r
        .transactions
        .iter()
        .find(|t| t.tx_type.as_str() == "STAKING")
        .unwrap();
    assert!(!staking.note.contains("wallet"));
}

#[test]
fn ac09_two_fees() {
    let r = k(&[
        r#""LX1AAA-BBBBB-CCCCC1","TQ9W8E-7R6T5-Y4U3I2","2025-05-06 14:00:00","trade","tradespot","currency","fiat","ZEUR","spot / main","-250.0000","0.6500","749.3500""#,
        r#""LX1AAA-BBBBB-CCCCC2","TQ9W8E-7R6T5-Y4U3I2","2025-05-06 14:00:00","trade","tradespot","currency","crypto","ENA","spot / main","480.12345","0.96025","479.16320""#,
    ]);
    check_txs(
        &r,
        &[
            "2,3 Kraken:spot 2025-05-06T14:00:00Z BUY | 480.12345 ENA | 250 EUR | 0.65 EUR |  | TQ9W8E-7R6T5-Y4U3I2",
            "2,3 Kraken:spot 2025-05-06T14:00:00Z FEE |  | 0.96025 ENA |  |  | TQ9W8E-7R6T5-Y4U3I2",
        ],
    );
    assert_eq!(
        r.transactions[0].identity,
        "005c33dcd07ef9023a11c0e46b2c5790067d0d3ff3527d7b79a7d932bc3053f5"
    );
    assert_eq!(
        r.transactions[1].identity,
        "d2c050ffb36710a46a115bf507502aec6c0510ea5da40a4103c7b2e98bfe4c34"
    );
}

#[test]
fn ac10_asset_codes() {
    let cases = [
        ("XXBT", "BTC"),
        ("XBT.M", "BTC"),
        ("XXDG", "DOGE"),
        ("ZEUR", "EUR"),
        ("DOT28.S", "DOT"),
        ("SOL03.S", "SOL"),
        ("ETH2.S", "ETH"),
        ("ETH2", "ETH"),
        ("USDC.F", "USDC"),
        ("USD.HOLD", "USD"),
        ("ADA.B", "ADA"),
        ("XTZ", "XTZ"),
    ];
    for (code, asset) in cases {
        let row = format!(
            r#""LA","RA","2025-01-10 09:05:12","deposit","","currency","","{code}","spot / main","1","0","1""#
        );
        let r = k(&[&row]);
        let t = &r.transactions[0];
        assert_eq!(t.inflow.unwrap().asset.as_str(), asset, "{code}");
    }
    let r = k(&[
        r#""LA","RA","2025-01-10 09:05:12","deposit","","currency","","KFEE","spot / main","1","0","1""#,
    ]);
    assert!(r.transactions.is_empty());
    assert_eq!(r.skipped.get(&SkipReason::FeeCredit), Some(&1));
}

#[test]
fn ac11_margin_rejected() {
    let text = String::from_utf8(data("kraken-ledgers/kraken-2025.csv")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(5, r#""LMRG01-AAAAA-BBBBBB","TMRG01-AAAAA-BBBBBB","2025-01-11 10:00:00","margin","","currency","fiat","ZUSD","spot / main","-3.2000","0.0000","96.8000""#);
    let r = import(lines.join("\n").as_bytes(), &ImportOptions::default());
    check_findings(
        &r,
        "kraken-margin.csv",
        &[
            "kraken-margin.csv:6:4: error[unsupported-type] column \"type\": kraken-ledgers type \"margin\" is not supported: margin trading is not supported; record it with the generic format",
        ],
    );
    assert!(r.has_errors() && !r.file_rejected());
    // With --skip-invalid the 9 valid transactions are what gets written.
    assert_eq!(r.transactions.len(), 9);
    assert_eq!(r.invalid_rows, 1);
}

#[test]
fn ac12_transfer_without_subtype() {
    let r = k(&[
        r#""LBSV01-AAAAA-BBBBBB","RBSV01-AAAAA-BBBBBB","2018-11-19 11:30:42","transfer","","currency","crypto","BSV","spot / main","0.0007546220","0.0000000000","0.0007546220""#,
    ]);
    check_findings(
        &r,
        "kraken-fork.csv",
        &[
            "kraken-fork.csv:2:5: error[unsupported-type] column \"subtype\": kraken-ledgers type \"transfer\" is not supported: with an empty subtype it may be a fork or an airdrop; record it with the generic format",
        ],
    );
}

#[test]
fn ac13_fiat_to_fiat() {
    let r = k(&[
        r#""LFX1","TFX001-AAAAA-BBBBBB","2025-06-01 12:00:00","trade","tradespot","currency","fiat","ZEUR","spot / main","-100.0000","0.2600","0""#,
        r#""LFX2","TFX001-AAAAA-BBBBBB","2025-06-01 12:00:00","trade","tradespot","currency","fiat","ZUSD","spot / main","108.1200","0.0000","108.12""#,
    ]);
    check_txs(
        &r,
        &[
            "2,3 Kraken:spot 2025-06-01T12:00:00Z WITHDRAWAL |  | 100 EUR | 0.26 EUR |  | TFX001-AAAAA-BBBBBB",
            "2,3 Kraken:spot 2025-06-01T12:00:00Z DEPOSIT | 108.12 USD |  |  |  | TFX001-AAAAA-BBBBBB",
        ],
    );
    assert_eq!(
        keys(&r),
        [
            "v1|kraken-ledgers|refid|TFX001-AAAAA-BBBBBB",
            "v1|kraken-ledgers|refid|TFX001-AAAAA-BBBBBB|fx-in"
        ]
    );
}

#[test]
fn ac14_internal_and_incomplete() {
    let r = k(&[
        r#""LI1","TI1","2025-06-01 12:00:00","trade","","currency","fiat","ZEUR","spot / main","-10","0","0""#,
        r#""LI2","TI1","2025-06-01 12:00:00","trade","","currency","fiat","ZEUR","spot / main","10","0","0""#,
    ]);
    assert!(r.transactions.is_empty());
    assert_eq!(r.skipped.get(&SkipReason::InternalMovement), Some(&2));
    let r = k(&[
        r#""LI1","TI2","2025-06-01 12:00:00","trade","","currency","fiat","ZEUR","spot / main","-600","0","0""#,
    ]);
    check_findings(
        &r,
        "k.csv",
        &[
            "k.csv:2:2: error[incomplete-group] column \"refid\": operation refid TI2 has no in leg; if the export was made for one asset only, export it again for all assets",
        ],
    );
}

#[test]
fn ac15_ac16_reimport_and_overlap_keep_keys() {
    let first = import(
        &data("kraken-ledgers/kraken-2025.csv"),
        &ImportOptions::default(),
    );
    let again = import(
        &data("kraken-ledgers/kraken-2025.csv"),
        &ImportOptions::default(),
    );
    assert_eq!(keys(&first), keys(&again));
    let text = String::from_utf8(data("kraken-ledgers/kraken-2025.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut later = vec![lines[0]];
    later.extend(&lines[10..16]);
    later.push(r#""LP9QW2-ER4TY-UI6OPA","QCZ3X5V-8BN2MQ-WE4R6T","2025-04-15 08:00:00","deposit","","currency","fiat","ZEUR","spot / main","200.0000","0.0000","386.7900""#);
    let r = import(later.join("\n").as_bytes(), &ImportOptions::default());
    let old: std::collections::BTreeSet<String> = first
        .transactions
        .iter()
        .map(|t| t.identity.clone())
        .collect();
    let new: Vec<&importers::Transaction> = r
        .transactions
        .iter()
        .filter(|t| !old.contains(&t.identity))
        .collect();
    assert_eq!(r.transactions.len() - new.len(), 3);
    assert_eq!(new.len(), 1);
    assert_eq!(new[0].tx_type.as_str(), "DEPOSIT");
    assert_eq!(r.skipped.get(&SkipReason::InternalMovement), Some(&1));
}

#[test]
fn ac17_other_account_same_declared_keys() {
    let o = ImportOptions {
        account: Some("Kraken Ana".to_owned()),
        ..ImportOptions::default()
    };
    let r = import(&data("kraken-ledgers/kraken-2025.csv"), &o);
    let base = import(
        &data("kraken-ledgers/kraken-2025.csv"),
        &ImportOptions::default(),
    );
    let ids: Vec<&str> = r.transactions.iter().map(|t| t.identity.as_str()).collect();
    let base_ids: Vec<&str> = base
        .transactions
        .iter()
        .map(|t| t.identity.as_str())
        .collect();
    assert_eq!(ids, base_ids);
    assert_eq!(r.transactions[0].account, "Kraken Ana:spot");
}

#[test]
fn ac18_balance_mismatch() {
    let text = String::from_utf8(data("kraken-ledgers/kraken-2025.csv")).unwrap();
    let changed = text.replace(
        r#""-60.0000","0.1600","186.7900""#,
        r#""-60.0000","0.1600","186.8000""#,
    );
    let r = import(changed.as_bytes(), &ImportOptions::default());
    check_findings(
        &r,
        "kraken-2025.csv",
        &[
            "kraken-2025.csv:15:12: warning[balance-mismatch] column \"balance\": balance 186.8000 expected 186.79; rows may be missing from the export",
        ],
    );
    assert_eq!(r.transactions.len(), 9);
}

#[test]
fn crypto_move_to_futures_is_a_transfer_pair() {
    let r = k(&[
        r#""LSF1","RSF1","2025-03-21 07:30:00","transfer","spottofutures","currency","crypto","XXBT","spot / main","-0.0100000000","0.0000000000","0.0""#,
    ]);
    check_txs(
        &r,
        &[
            "2 Kraken:spot 2025-03-21T07:30:00Z TRANSFER_OUT |  | 0.01 BTC | 0 BTC |  | RSF1",
            "2 Kraken:futures 2025-03-21T07:30:00Z TRANSFER_IN | 0.01 BTC |  |  |  | RSF1",
        ],
    );
    assert_eq!(
        keys(&r),
        [
            "v1|kraken-ledgers|txid|LSF1",
            "v1|kraken-ledgers|txid|LSF1|move-in"
        ]
    );
    assert_eq!(r.rows_in_records, 1);
}

#[test]
fn earn_without_subtype() {
    // Two legs summing to zero: a sub-wallet move.
    let r = k(&[
        r#""LE1","RE1","2025-04-01 00:00:00","earn","","currency","crypto","DOT","spot / main","-5","0","0""#,
        r#""LE2","RE1","2025-04-01 00:00:00","earn","","currency","crypto","DOT.S","earn / bonded","5","0","5""#,
    ]);
    check_txs(
        &r,
        &[
            "2 Kraken:spot 2025-04-01T00:00:00Z TRANSFER_OUT |  | 5 DOT | 0 DOT |  | RE1",
            "3 Kraken:earn 2025-04-01T00:00:00Z TRANSFER_IN | 5 DOT |  | 0 DOT |  | RE1",
        ],
    );
    // A lone credit in an earn wallet: staking, with a warning.
    let r = k(&[
        r#""LE3","RE3","2025-04-02 00:00:00","earn","","currency","crypto","DOT.S","earn / bonded","0.01","0","5.01""#,
    ]);
    check_txs(
        &r,
        &["2 Kraken:earn 2025-04-02T00:00:00Z STAKING | 0.01 DOT |  | 0 DOT |  | "],
    );
    check_findings(
        &r,
        "k.csv",
        &[
            "k.csv:2:9: warning[classified-by-wallet] column \"wallet\": earn row without subtype in wallet \"earn / bonded\" read as STAKING",
        ],
    );
}

#[test]
fn group_with_an_invalid_leg() {
    let r = k(&[
        r#""LG1","TG1","2025-06-01 12:00:00","trade","","currency","fiat","ZEUR","spot / main","-10,5","0","0""#,
        r#""LG2","TG1","2025-06-01 12:00:00","trade","","currency","crypto","XXBT","spot / main","0.001","0","0""#,
    ]);
    check_findings(
        &r,
        "k.csv",
        &[
            "k.csv:2:10: error[bad-decimal] column \"amount\": \"-10,5\" is not a plain decimal number",
            "k.csv:3:2: error[group-member-invalid] column \"refid\": part of operation refid TG1, whose line 2 is invalid",
        ],
    );
    assert_eq!(r.invalid_rows, 2);
    assert!(r.transactions.is_empty());
}

#[test]
fn tz_database_version_is_pinned() {
    assert_eq!(
        importers::TZDB_VERSION.len(),
        5,
        "{}",
        importers::TZDB_VERSION
    );
}
