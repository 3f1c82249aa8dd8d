use importers::{ImportOptions, SkipReason};

use crate::{check_findings, check_txs, data, file, import, keys};

const HEADER: &str = "Timezone,Date,Time,Type,Currency,Amount,Quote Currency,Quote Price,Received / Paid Currency,Received / Paid Amount,Fee currency,Fee amount,Status,Transaction ID,Address";

fn b(rows: &[&str]) -> importers::ImportResult {
    import(&file(HEADER, rows), &ImportOptions::default())
}

#[test]
fn example_bitvavo_2025() {
    let r = import(&data("bitvavo/bitvavo-2025.csv"), &ImportOptions::default());
    check_txs(
        &r,
        &[
            "11 Bitvavo 2025-03-14T17:15:02Z DEPOSIT | 1000 EUR |  | 0 EUR |  | ",
            "10 Bitvavo 2025-03-14T17:20:41.118Z BUY | 0.00523 BTC | 413.8 EUR | 1.3 EUR |  | ",
            "9 Bitvavo 2025-03-14T17:22:05Z BUY | 0.3 ETH | 537.12 EUR | 1.34 EUR |  | ",
            "8 Bitvavo 2025-03-14T17:25:00Z PROMOTION | 1.3 EUR |  |  |  | ",
            "7 Bitvavo 2025-05-30T08:10:36Z PROMOTION | 10 EUR |  |  |  | ",
            "5 Bitvavo 2025-06-20T09:03:40Z TRANSFER_OUT |  | 0.00195 BTC | 0.00005 BTC |  | ",
            "4 Bitvavo 2025-07-01T02:00:12Z STAKING | 0.00041 ETH |  |  |  | ",
            "3 Bitvavo 2025-07-14T16:22:05.412Z SELL | 677.6 EUR | 0.25 ETH | 1.52 EUR |  | ",
            "2 Bitvavo 2025-07-20T10:40:00Z WITHDRAWAL |  | 600 EUR | 0 EUR |  | ",
        ],
    );
    assert_eq!(r.rows_read, 10);
    assert_eq!(r.skipped.get(&SkipReason::Pending), Some(&1));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    // AC-19.
    assert_eq!(
        keys(&r)[1],
        "v1|bitvavo|id|a2b3c4d5-1e2f-4a5b-8c9d-0e1f2a3b4c5d|buy"
    );
    assert_eq!(
        r.transactions[1].identity,
        "2723d0356f00605134256a6a3710504be4d0c56f6439a807582f7eb13ead98d3"
    );
}

#[test]
fn ac20_total_mismatch() {
    let r = b(&[
        "Europe/Madrid,2025-03-14,18:22:05,buy,ETH,0.3,EUR,1790.4,EUR,-540.00,EUR,1.34,Completed,0f6a2d8c-4b1e-4d9f-a3c7-8e2b5d1f7c61,",
    ]);
    check_txs(
        &r,
        &["2 Bitvavo 2025-03-14T17:22:05Z BUY | 0.3 ETH | 538.66 EUR | 1.34 EUR |  | "],
    );
    check_findings(
        &r,
        "bitvavo.csv",
        &[
            "bitvavo.csv:2:10: warning[total-mismatch] column \"Received / Paid Amount\": price × amount ± fee gives 538.46, the file states -540.00",
        ],
    );
}

#[test]
fn ac21_daylight_saving() {
    let r = b(&[
        "Europe/Madrid,2025-10-26,02:30:00,staking,ETH,0.0001,,,,,,,Completed,11111111-2222-4333-8444-555555555555,",
        "Europe/Madrid,2025-03-30,02:30:00,staking,ETH,0.0001,,,,,,,Completed,66666666-7777-4888-9999-aaaaaaaaaaaa,",
    ]);
    check_findings(
        &r,
        "bitvavo-dst.csv",
        &[
            "bitvavo-dst.csv:2:3: warning[ambiguous-local-time] column \"Time\": 2025-10-26 02:30:00 occurs twice in Europe/Madrid; the earlier instant 2025-10-26T00:30:00Z was used",
            "bitvavo-dst.csv:3:3: error[nonexistent-local-time] column \"Time\": 2025-03-30 02:30:00 does not exist in Europe/Madrid (daylight-saving change)",
        ],
    );
    check_txs(
        &r,
        &["2 Bitvavo 2025-10-26T00:30:00Z STAKING | 0.0001 ETH |  |  |  | "],
    );
}

#[test]
fn ac22_statuses() {
    let row = |status: &str| {
        format!(
            "Europe/Madrid,2025-04-01,10:00:00,staking,ETH,0.1,,,,,,,{status},0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d,"
        )
    };
    let r = b(&[&row("On hold")]);
    check_findings(
        &r,
        "bitvavo.csv",
        &["bitvavo.csv:2:13: error[unknown-status] column \"Status\": unknown status \"On hold\""],
    );
    let r = b(&[&row("Pending")]);
    assert_eq!(r.skipped.get(&SkipReason::Pending), Some(&1));
    let r = b(&[&row("Canceled")]);
    assert_eq!(r.skipped.get(&SkipReason::NotFinal), Some(&1));
}

#[test]
fn ac23_loan() {
    let r = b(&[
        "Europe/Madrid,2025-04-01,10:00:00,loan,USDC,500,,,,,,,Completed,0a0b0c0d-1e1f-4a2b-8c3d-4e5f6a7b8c9d,",
    ]);
    check_findings(
        &r,
        "bitvavo.csv",
        &[
            "bitvavo.csv:2:4: error[unsupported-type] column \"Type\": bitvavo type \"loan\" is not supported: loans are not supported; record it with the generic format; to book it, map it to a type: cartera import --map 'bitvavo:loan=TYPE' (or add it to the setting import.label_map), TYPE one of STAKING, REWARD, AIRDROP, PROMOTION, SPEND, FEE, TRANSFER_IN, TRANSFER_OUT, DEPOSIT, WITHDRAWAL, MINING, FORK",
        ],
    );
}

#[test]
fn ac24_fee_exceeds_amount() {
    let r = b(&[
        "Europe/Madrid,2025-06-20,11:03:40,withdrawal,BTC,-0.00004,,,,,BTC,0.00005,Completed,e41f8d2a-6c3b-4f7e-a915-3b8c2d6e0f18,bc1qexampleaddress0000000000000000000000",
    ]);
    check_findings(
        &r,
        "bitvavo.csv",
        &[
            "bitvavo.csv:2:12: error[fee-exceeds-amount] column \"Fee amount\": the fee 0.00005 is larger than the amount 0.00004 that includes it",
        ],
    );
}

#[test]
fn ac25_edited_row_keeps_its_declared_key() {
    let text = String::from_utf8(data("bitvavo/bitvavo-2025.csv")).unwrap();
    let edited = text.replace(
        ",buy,ETH,0.3,EUR,1790.4,EUR,-538.46,",
        ",buy,ETH,0.31,EUR,1790.4,EUR,-556.36,",
    );
    let a = import(text.as_bytes(), &ImportOptions::default());
    let e = import(edited.as_bytes(), &ImportOptions::default());
    assert_eq!(a.transactions[2].identity, e.transactions[2].identity);
    assert_ne!(a.transactions[2].content_key, e.transactions[2].content_key);
}

#[test]
fn declared_key_cell_for_store_findings() {
    let r = import(&data("bitvavo/bitvavo-2025.csv"), &ImportOptions::default());
    let t = &r.transactions[2];
    assert_eq!((t.lines[0], t.key_column), (9, Some(14)));
    assert_eq!(r.header_cells[13], "Transaction ID");
}
