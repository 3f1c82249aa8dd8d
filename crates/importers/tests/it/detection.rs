use importers::{ImportOptions, Profile};

use crate::{check_findings, data, import};

fn forced(p: Profile) -> ImportOptions {
    ImportOptions {
        format: Some(p),
        ..ImportOptions::default()
    }
}

#[test]
fn ac03_bank_file() {
    let r = import(
        b"Fecha,Concepto,Importe\n2025-01-02,Transferencia,100.00\n",
        &ImportOptions::default(),
    );
    check_findings(
        &r,
        "bank.csv",
        &[
            "bank.csv:1:1: error[header-not-found] column \"Fecha\": no supported header in the first 10 records; name the format with --format or use the generic format",
        ],
    );
    assert!(r.file_rejected());
}

#[test]
fn ac04_kraken_trades_refused() {
    let r = import(
        b"txid,ordertxid,pair,time,type,ordertype,price,cost,fee,vol,margin,misc,ledgers\n",
        &ImportOptions::default(),
    );
    check_findings(
        &r,
        "trades.csv",
        &[
            "trades.csv:1:1: error[header-not-found] column \"txid\": this is a Kraken \"Trades\" export; export \"Ledgers\" instead, which also has deposits, withdrawals and staking",
        ],
    );
    let r = import(
        b"Date,USD,JPY,\n2025-01-02,1.03,160,\n",
        &ImportOptions::default(),
    );
    assert_eq!(
        r.findings[0].message,
        "this is an ECB rate file; use cartera rates import"
    );
    let r = import(b"timestamp,price\n", &ImportOptions::default());
    assert_eq!(
        r.findings[0].message,
        "this is a price file; use cartera prices import"
    );
}

const MIXED: &str = "Timezone,Date,Time,Type,Currency,Amount,Quote Currency,Quote Price,Received / Paid Currency,Received / Paid Amount,Fee currency,Fee amount,Status,Transaction ID,Address,ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes\n";

#[test]
fn ac05_ambiguous_then_forced() {
    let r = import(MIXED.as_bytes(), &ImportOptions::default());
    check_findings(
        &r,
        "mixed.csv",
        &[
            "mixed.csv:1:1: error[ambiguous-profile] column \"Timezone\": the header matches several formats (bitvavo, coinbase); choose one with --format",
        ],
    );
    let r = import(MIXED.as_bytes(), &forced(Profile::Coinbase));
    assert_eq!(
        r.format.clone().unwrap().to_string(),
        "coinbase, layout v4 (forced)"
    );
    assert!(!r.has_errors());
    assert_eq!(
        r.warnings().filter(|w| w.code == "ignored-column").count(),
        15
    );
}

#[test]
fn ac06_wrong_format_forced() {
    let r = import(
        &data("kraken-ledgers/kraken-2025.csv"),
        &forced(Profile::Bitvavo),
    );
    check_findings(
        &r,
        "kraken-2025.csv",
        &[
            "kraken-2025.csv:1:1: error[header-mismatch] column \"txid\": the header does not match format bitvavo: missing Timezone, Date, Currency, Fee currency, Fee amount, Status, Transaction ID",
        ],
    );
    let r = import(
        &data("bitvavo/bitvavo-2025.csv"),
        &forced(Profile::KrakenLedgers),
    );
    assert_eq!(r.findings[0].code, "header-mismatch");
}

#[test]
fn ac07_spreadsheets_and_encodings() {
    let r = import(b"PK\x03\x04rest-of-an-xlsx", &ImportOptions::default());
    check_findings(
        &r,
        "export.csv",
        &[
            "export.csv:1:1: error[spreadsheet-not-accepted] column \"-\": this is a spreadsheet, not a CSV file; export or save it as CSV",
        ],
    );
    let r = import(&[0xD0, 0xCF, 0x11, 0xE0, 0, 0], &ImportOptions::default());
    assert_eq!(r.findings[0].code, "spreadsheet-not-accepted");
    let r = import(b"timestamp,type\n\xE9t\xE9\n", &ImportOptions::default());
    check_findings(
        &r,
        "latin1.csv",
        &[
            "latin1.csv:1:1: error[not-utf8] column \"-\": the file is not UTF-8 text (first invalid byte at offset 15)",
        ],
    );
    let r = import(b"", &ImportOptions::default());
    check_findings(
        &r,
        "empty.csv",
        &[
            "empty.csv:1:1: error[header-not-found] column \"-\": no supported header in the first 10 records; name the format with --format or use the generic format",
        ],
    );
}

#[test]
fn bom_header_only_and_duplicate_headers() {
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(b"timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note\r\n");
    let r = import(&bytes, &ImportOptions::default());
    assert!(r.findings.is_empty());
    assert_eq!(r.rows_read, 0);
    assert_eq!(r.header_line, Some(1));
    let r = import(
        b"User_ID,UTC_Time,Account,Operation,Coin,Change,Remark,coin\n",
        &ImportOptions::default(),
    );
    assert_eq!(
        r.findings[0].render("d.csv"),
        "d.csv:1:8: error[duplicate-header] column \"coin\": column \"coin\" appears twice"
    );
}

#[test]
fn field_count_and_options() {
    let r = import(b"User_ID,UTC_Time,Account,Operation,Coin,Change,Remark\n1,2025-03-01 09:00:00,Spot,Deposit,EUR\n", &ImportOptions::default());
    check_findings(
        &r,
        "b.csv",
        &["b.csv:2:1: error[field-count] column \"User_ID\": expected 7 cells, found 5"],
    );
    let o = ImportOptions {
        timezone: importers::Zone::parse("UTC"),
        ..ImportOptions::default()
    };
    let r = import(&data("bitvavo/bitvavo-2025.csv"), &o);
    check_findings(
        &r,
        "b.csv",
        &[
            "b.csv:1:1: error[option-not-applicable] column \"Timezone\": --timezone does not apply to bitvavo",
        ],
    );
    let o = ImportOptions {
        format: Some(Profile::Generic),
        account: Some("X".to_owned()),
        ..ImportOptions::default()
    };
    assert_eq!(
        importers::usage_error(&o),
        Some((
            "option-not-applicable",
            "--account does not apply to generic".to_owned()
        ))
    );
}
