//! Bit2Me movements export (`test_data/bit2me`), read from the `.xlsx` workbook Bit2Me
//! downloads. The committed workbook is the one `workbook()` below builds (a test checks it;
//! `CARTERA_WRITE_FIXTURES=1` rewrites it).

use std::fmt::Write as _;
use std::io::Write as _;

use importers::{ImportOptions, Zone};

use crate::{check_findings, check_txs, data, file, import};

/// A cell of a generated sheet.
enum Cell {
    Text(&'static str),
    /// A numeric cell, written as this text in the sheet XML.
    Num(&'static str),
    /// A date cell: an Excel serial day number with a date number format.
    Date(&'static str),
}

use Cell::{Date, Num, Text};

const HEADER: [&str; 11] = [
    "Tipo de operación",
    "Cantidad de destino",
    "Moneda de destino",
    "Cantidad de origen",
    "Moneda de origen",
    "Comisión de la operación",
    "Moneda de la comisión",
    "Exchange",
    "Grupo",
    "Descripción",
    "Fecha",
];

fn rows() -> Vec<Vec<Cell>> {
    let mut rows: Vec<Vec<Cell>> = vec![HEADER.iter().map(|h| Text(h)).collect()];
    rows.extend([
        vec![Text("Staking"), Num("0.2229808"), Text("B2M"), Text(""), Text(""), Num("0"), Text("EUR"), Text("Bit2Me"), Text("earn"), Text("earn 1a6f3c2e-0b4d-4e8f-9a71-2c5d8e0f1b34"), Text("2025-01-01 11:32")],
        // 2025-01-13 16:24 as a date cell (serial day 45670 plus 16 h 24 min).
        vec![Text("Deposit"), Num("100"), Text("EUR"), Num("100"), Text("EUR"), Num("0"), Text("EUR"), Text("Bit2Me"), Text("bank-transfer"), Text("wallet 5e2b7a90-3c1d-4f6a-8b2e-9d0c1e7f4a62"), Date("45670.683333333334")],
        vec![Text("Trade"), Num("1923.81685263"), Text("JASMY"), Num("50"), Text("EUR"), Num("9.57098884"), Text("JASMY"), Text("Bit2Me"), Text("trading"), Text("trading 7c4e1f08-6a2b-4d3c-9e5f-0b1a2c3d4e5f"), Text("2025-01-19 22:49")],
        vec![Text("Withdrawal"), Num("1.536429"), Text("HBAR"), Num("2.236429"), Text("HBAR"), Num("0.15742981799999997"), Text("EUR"), Text("Bit2Me"), Text("blockchain"), Text("wallet 0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f6a tx_hash:0.0.734891-1738248739-028188115"), Text("2025-01-30 14:52")],
        vec![Text("Trade"), Num("0.00149693"), Text("BNB"), Num("1"), Text("EUR"), Num("0.0095"), Text("EUR"), Text("Bit2Me"), Text("pocket"), Text("wallet 3b2a1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d"), Text("2025-01-30 15:37")],
        vec![Text("Deposit"), Num("57.05766322"), Text("USDC"), Num("57.05766322"), Text("USDC"), Num("0"), Text("EUR"), Text("Bit2Me"), Text("blockchain"), Text("wallet 6f5e4d3c-2b1a-4098-8f7e-6d5c4b3a2918 tx_hash:0x166381dd5f9a35212d402599c39bc9e9103f2c01485b2277601602b309a8d2c4"), Text("2025-01-30 16:42")],
        vec![Text("Swap"), Num("0.0084939"), Text("USDC"), Num("0.0084939"), Text("USDT"), Num("0"), Text("EUR"), Text("Bit2Me"), Text("pocket"), Text("wallet 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d"), Text("2025-03-21 09:43")],
        vec![Text("Airdrop"), Num("1778.08180605"), Text("B2M"), Text(""), Text(""), Num("0"), Text("EUR"), Text("Bit2Me"), Text("pocket"), Text("wallet 2c1b0a9f-8e7d-4c6b-a5f4-e3d2c1b0a9f8"), Text("2025-04-20 09:01")],
    ]);
    rows
}

fn column(i: usize) -> char {
    char::from(b'A' + u8::try_from(i).unwrap())
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The sheet XML: inline strings, numbers as written, dates with style 1 (`yyyy-mm-dd hh:mm`).
fn sheet(rows: &[Vec<Cell>]) -> String {
    let mut xml = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#,
    );
    for (r, row) in rows.iter().enumerate() {
        let _ = write!(xml, r#"<row r="{}">"#, r + 1);
        for (c, cell) in row.iter().enumerate() {
            let at = format!("{}{}", column(c), r + 1);
            match cell {
                Text("") => {}
                Text(t) => {
                    let _ = write!(
                        xml,
                        r#"<c r="{at}" t="inlineStr"><is><t>{}</t></is></c>"#,
                        escape(t)
                    );
                }
                Num(n) => {
                    let _ = write!(xml, r#"<c r="{at}"><v>{n}</v></c>"#);
                }
                Date(n) => {
                    let _ = write!(xml, r#"<c r="{at}" s="1"><v>{n}</v></c>"#);
                }
            }
        }
        xml.push_str("</row>");
    }
    xml.push_str("</sheetData></worksheet>");
    xml
}

/// A minimal `.xlsx` workbook of one sheet, byte for byte reproducible.
fn workbook(rows: &[Vec<Cell>]) -> Vec<u8> {
    let parts: [(&str, String); 6] = [
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>"#.to_owned()),
        ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.to_owned()),
        ("xl/workbook.xml", r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Movimientos" sheetId="1" r:id="rId1"/></sheets></workbook>"#.to_owned()),
        ("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#.to_owned()),
        ("xl/styles.xml", r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>"#.to_owned()),
        ("xl/worksheets/sheet1.xml", sheet(rows)),
    ];
    let mut out = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut out);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default());
    for (name, body) in parts {
        zip.start_file(name, options).unwrap();
        zip.write_all(body.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    out.into_inner()
}

fn madrid() -> ImportOptions {
    ImportOptions {
        timezone: Zone::parse("Europe/Madrid"),
        ..ImportOptions::default()
    }
}

#[test]
#[allow(
    clippy::disallowed_methods,
    reason = "the fixture is rewritten on request"
)]
fn the_committed_workbook_is_the_generated_one() {
    let built = workbook(&rows());
    let path = format!(
        "{}/test_data/bit2me/bit2me-2025.xlsx",
        env!("CARGO_MANIFEST_DIR")
    );
    if std::env::var_os("CARTERA_WRITE_FIXTURES").is_some() {
        std::fs::write(&path, &built).unwrap();
    }
    assert_eq!(data("bit2me/bit2me-2025.xlsx"), built);
}

#[test]
fn the_workbook_gives_its_transactions() {
    let r = import(&data("bit2me/bit2me-2025.xlsx"), &madrid());
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("bit2me (detected)")
    );
    check_txs(
        &r,
        &[
            "2 Bit2Me 2025-01-01T10:32:00Z STAKING | 0.2229808 B2M |  | 0 EUR |  | ",
            "3 Bit2Me 2025-01-13T15:24:00Z DEPOSIT | 100 EUR |  | 0 EUR |  | ",
            "4 Bit2Me 2025-01-19T21:49:00Z BUY | 1933.38784147 JASMY | 50 EUR | 9.57098884 JASMY |  | ",
            "5 Bit2Me 2025-01-30T13:52:00Z TRANSFER_OUT |  | 1.536429 HBAR | 0.7 HBAR |  | ",
            "6 Bit2Me 2025-01-30T14:37:00Z BUY | 0.00149693 BNB | 0.9905 EUR | 0.0095 EUR |  | ",
            "7 Bit2Me 2025-01-30T15:42:00Z TRANSFER_IN | 57.05766322 USDC |  | 0 EUR |  | ",
            "8 Bit2Me 2025-03-21T08:43:00Z SWAP | 0.0084939 USDC | 0.0084939 USDT | 0 USDT |  | ",
            "9 Bit2Me 2025-04-20T07:01:00Z AIRDROP | 1778.08180605 B2M |  | 0 EUR |  | ",
        ],
    );
    assert!(r.findings.is_empty());
    // Declared keys on the operation's description.
    assert_eq!(
        r.transactions[0].identity_key,
        "v1\u{1f}bit2me\u{1f}id\u{1f}earn 1a6f3c2e-0b4d-4e8f-9a71-2c5d8e0f1b34"
    );
}

#[test]
fn numeric_cells_are_their_shortest_decimal_text() {
    // 0.1 + 0.2 is 0.30000000000000004 as a double: the cell holds that double, and its
    // shortest text reads back exactly; a cell of 0.3 stays 0.3.
    let mut rows = vec![HEADER.iter().map(|h| Text(h)).collect::<Vec<_>>()];
    rows.push(vec![
        Text("Deposit"),
        Num("0.30000000000000004"),
        Text("BTC"),
        Num("0.3"),
        Text("BTC"),
        Num("0"),
        Text("EUR"),
        Text("Bit2Me"),
        Text("blockchain"),
        Text("wallet a"),
        Text("2025-01-01 10:00"),
    ]);
    rows.push(vec![
        Text("Deposit"),
        Num("1E-7"),
        Text("BTC"),
        Num("1E-7"),
        Text("BTC"),
        Num("0"),
        Text("EUR"),
        Text("Bit2Me"),
        Text("blockchain"),
        Text("wallet b"),
        Text("2025-01-01 10:01"),
    ]);
    let r = import(&workbook(&rows), &madrid());
    check_txs(
        &r,
        &[
            "2 Bit2Me 2025-01-01T09:00:00Z TRANSFER_IN | 0.30000000000000004 BTC |  | 0 EUR |  | ",
            "3 Bit2Me 2025-01-01T09:01:00Z TRANSFER_IN | 0.0000001 BTC |  | 0 EUR |  | ",
        ],
    );
}

#[test]
fn the_same_sheet_saved_as_csv_reads_alike_and_needs_a_time_zone() {
    let bytes = file(
        &HEADER.join(","),
        &[
            "Withdrawal,9.3,HBAR,10,HBAR,0.12647324199999999,EUR,Bit2Me,blockchain,wallet 2e4e,2025-03-25 08:13",
        ],
    );
    let r = import(&bytes, &madrid());
    check_txs(
        &r,
        &["2 Bit2Me 2025-03-25T07:13:00Z TRANSFER_OUT |  | 9.3 HBAR | 0.7 HBAR |  | "],
    );
    let r = import(&bytes, &ImportOptions::default());
    check_findings(
        &r,
        "b.csv",
        &[
            "b.csv:1:11: error[timezone-required] column \"Fecha\": these timestamps carry no time zone; pass --timezone",
        ],
    );
}

#[test]
fn unknown_labels_and_workbooks_of_other_exports_are_refused() {
    let mut rows = vec![HEADER.iter().map(|h| Text(h)).collect::<Vec<_>>()];
    rows.push(vec![
        Text("Loan"),
        Num("1"),
        Text("BTC"),
        Text(""),
        Text(""),
        Num("0"),
        Text("EUR"),
        Text("Bit2Me"),
        Text("loan"),
        Text("loan x"),
        Text("2025-01-01 10:00"),
    ]);
    let r = import(&workbook(&rows), &madrid());
    check_findings(
        &r,
        "b.xlsx",
        &[
            "b.xlsx:2:1: error[unknown-type] column \"Tipo de operación\": unknown bit2me type \"Loan\"",
        ],
    );
    // A workbook of another export keeps the refusal.
    let other = workbook(&[
        vec![Text("timestamp"), Text("type")],
        vec![Text("x"), Text("y")],
    ]);
    check_findings(
        &import(&other, &ImportOptions::default()),
        "o.xlsx",
        &[
            "o.xlsx:1:1: error[spreadsheet-not-accepted] column \"-\": this is a spreadsheet, not a CSV file; export or save it as CSV",
        ],
    );
    let generic = workbook(&[
        "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note"
            .split(',')
            .map(|h| Text(Box::leak(h.to_owned().into_boxed_str())))
            .collect(),
    ]);
    assert_eq!(
        import(&generic, &ImportOptions::default()).findings[0].code,
        "spreadsheet-not-accepted"
    );
}
