//! Issue 25's import findings at stages 1–6: a quote that swallows rows, dates out of the
//! supported range, records and cells over their limits, and short, escaped error quotes.

use importers::prices::{self, PriceOptions};
use importers::{ImportOptions, ImportResult, rates};

use crate::{check_findings, file, import, rendered};

const HEADER: &str = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note";

fn g(rows: &[&str]) -> ImportResult {
    import(&file(HEADER, rows), &ImportOptions::default())
}

/// rows read = records + skipped + invalid (every record is counted exactly once).
fn assert_counts(r: &ImportResult) {
    assert_eq!(
        r.rows_read,
        r.rows_in_records + r.skipped_total() + r.invalid_rows,
        "{:#?}",
        rendered(r, "f")
    );
}

#[test]
fn a_note_whose_quote_closes_lines_later_is_a_finding_naming_the_lines() {
    // The note of line 2 opens a quote closed only on line 4: lines 3 and 4 were read into it.
    let r = g(&[
        "2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,100,,,,,,,,,\"first",
        "2024-01-02T10:00:00Z,DEPOSIT,Bank,EUR,200,,,,,,,,,second",
        "2024-01-03T10:00:00Z,DEPOSIT,Bank,EUR,300,,,,,,,,,third\"",
        "2024-01-04T10:00:00Z,DEPOSIT,Bank,EUR,400,,,,,,,,,fourth",
    ]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:14: error[quote-spans-lines] column \"note\": a quoted value spans lines 2 to 4, which were read as this one cell; is a closing quote missing on line 2?",
        ],
    );
    assert_eq!(r.rows_read, 2);
    assert_eq!(r.invalid_rows, 1);
    assert_eq!(r.transactions.len(), 1);
    assert_eq!(r.transactions[0].lines, [5]);
    assert_counts(&r);
}

#[test]
fn a_quote_spanning_lines_in_a_middle_column_names_its_own_lines() {
    let r = g(&[
        "2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,100,,,,,,,,,",
        "2024-01-02T10:00:00Z,DEPOSIT,\"Ba\nnk\",EUR,200,,,,,,,,,",
    ]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:3:3: error[quote-spans-lines] column \"account\": a quoted value spans lines 3 to 4, which were read as this one cell; is a closing quote missing on line 3?",
        ],
    );
    assert_counts(&r);
}

#[test]
fn coinbase_notes_may_still_span_lines() {
    let v4 = "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes";
    let r = import(
        &file(
            v4,
            &[
                "68e9c1a4f2b7d3e5a1c9f0b9,2025-08-14 09:12:44 UTC,Send,ETH,-0.04,EUR,€1.00,€1.00,€1.00,€0.00,\"two\nlines\"",
            ],
        ),
        &ImportOptions::default(),
    );
    assert!(!r.has_errors(), "{:?}", rendered(&r, "c"));
    assert_counts(&r);
}

#[test]
fn a_record_over_the_limit_rejects_the_file_at_its_line() {
    // A quote opened on line 3 and never closed: the rest of the file is one record.
    let mut text = file(
        HEADER,
        &["2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,100,,,,,,,,,ok"],
    );
    text.extend_from_slice(b"2024-01-02T10:00:00Z,DEPOSIT,Bank,EUR,200,,,,,,,,,\"open\n");
    for _ in 0..30_000 {
        text.extend_from_slice(b"2024-01-02T10:00:00Z,DEPOSIT,Bank,EUR,200,,,,,,,,,x\n");
    }
    let r = import(&text, &ImportOptions::default());
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:3:1: error[record-too-long] column \"timestamp\": the record starting on line 3 is longer than 1 MiB (a quote that is never closed?); the file was not read past it",
        ],
    );
    assert!(r.file_rejected());
    assert!(r.transactions.is_empty());
}

#[test]
fn a_long_line_is_read_in_bounded_memory_through_the_stream() {
    // 8 MB on one line, read block by block: the reader stops after about 1 MiB.
    let mut text = file(HEADER, &[]);
    text.extend(std::iter::repeat_n(b'7', 8 << 20));
    text.push(b'\n');
    let mut source = std::io::Cursor::new(text);
    let (streamed, _) = importers::import_read_streaming(
        &mut source,
        8 << 20,
        &ImportOptions::default(),
        false,
        &mut |_| true,
    );
    let importers::Streamed::Done(r) = streamed else {
        panic!("not read: {streamed:?}");
    };
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].code, "record-too-long");
    assert_eq!(r.findings[0].line, 2);
    // The stream stopped near the limit instead of reading 8 MB.
    assert!(
        source.position() < 3 << 20,
        "read {} bytes",
        source.position()
    );
}

#[test]
fn a_cell_over_the_limit_is_a_row_error_on_that_cell() {
    let note = "n".repeat(70_000);
    let row = format!("2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,100,,,,,,,,,{note}");
    let r = g(&[&row, "2024-01-02T10:00:00Z,DEPOSIT,Bank,EUR,1,,,,,,,,,"]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:14: error[cell-too-long] column \"note\": this cell holds 70000 bytes; a cell may hold at most 64 KiB",
        ],
    );
    assert_eq!(r.transactions.len(), 1);
    assert_counts(&r);
}

#[test]
fn error_quotes_are_short_and_escaped() {
    let amount = format!("1x{}", "9".repeat(50_000));
    let row = format!("2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,{amount},,,,,,,,,");
    let r = g(&[
        &row,
        "2024-01-01T10:00:00Z,DEPOSIT,Ba\0nk\u{1b}[2J,EUR,1,,,,,,,,,",
    ]);
    check_findings(
        &r,
        "g.csv",
        &[
            &format!(
                "g.csv:2:5: error[bad-decimal] column \"in_amount\": \"1x{}…\" is not a plain decimal number",
                "9".repeat(58)
            ),
            "g.csv:3:3: error[bad-account-name] column \"account\": \"Ba\\0nk\\u{1b}[2J\" is not a valid account name: it contains control characters",
        ],
    );
}

#[test]
fn transaction_range_errors_show_the_offset_as_written() {
    let r = g(&[
        "2009-01-01T00:30:00+01:00,DEPOSIT,Bank,EUR,1,,,,,,,,,",
        "3024-01-13T00:00:00Z,DEPOSIT,Bank,EUR,1,,,,,,,,,",
        "1600-01-13T00:00:00Z,DEPOSIT,Bank,EUR,1,,,,,,,,,",
    ]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:2:1: error[timestamp-out-of-range] column \"timestamp\": 2009-01-01T00:30:00+01:00 is outside 2009-01-01 … 2100-01-01",
            "g.csv:3:1: error[timestamp-out-of-range] column \"timestamp\": 3024-01-13T00:00:00Z is outside 2009-01-01 … 2100-01-01",
            "g.csv:4:1: error[timestamp-out-of-range] column \"timestamp\": 1600-01-13T00:00:00Z is outside 2009-01-01 … 2100-01-01",
        ],
    );
    let madrid = import(
        &file(HEADER, &["2009-01-01T00:30:00,DEPOSIT,Bank,EUR,1,,,,,,,,,"]),
        &ImportOptions {
            timezone: importers::Zone::parse("Europe/Madrid"),
            ..ImportOptions::default()
        },
    );
    assert_eq!(
        madrid.findings[0].message,
        "2009-01-01T00:30:00 Europe/Madrid is outside 2009-01-01 … 2100-01-01"
    );
}

fn price_findings(
    name: &str,
    text: &str,
    options: &PriceOptions,
) -> (prices::PricesResult, Vec<String>) {
    let r = prices::parse(name, text.as_bytes(), options);
    let f = r.findings.iter().map(|f| f.render(name)).collect();
    (r, f)
}

#[test]
fn daily_prices_out_of_range_are_invalid_rows() {
    let (r, f) = price_findings(
        "p.csv",
        "date,symbol,close,currency\n3024-01-13,BTC,1,EUR\n1600-01-13,BTC,1,EUR\n2008-12-31,BTC,1,EUR\n2024-01-13,BTC,1,EUR\n",
        &PriceOptions::default(),
    );
    assert_eq!(
        f,
        [
            "p.csv:2:1: error[timestamp-out-of-range] column \"date\": 3024-01-13 is outside 2009-01-01 … 2100-01-01",
            "p.csv:3:1: error[timestamp-out-of-range] column \"date\": 1600-01-13 is outside 2009-01-01 … 2100-01-01",
            "p.csv:4:1: error[timestamp-out-of-range] column \"date\": 2008-12-31 is outside 2009-01-01 … 2100-01-01",
        ]
    );
    assert_eq!((r.rows_read, r.invalid_rows, r.prices.len()), (4, 3, 1));
}

#[test]
fn series_and_candles_out_of_range_are_invalid_rows() {
    let options = PriceOptions {
        symbol: Some("BTC".to_owned()),
        currency: Some("EUR".to_owned()),
        format: None,
    };
    let (r, f) = price_findings(
        "s.csv",
        "timestamp,price\n3024-01-13T00:00:00+02:00,5\n2024-01-13,5\n",
        &options,
    );
    assert_eq!(
        f,
        [
            "s.csv:2:1: error[timestamp-out-of-range] column \"timestamp\": 3024-01-13T00:00:00+02:00 is outside 2009-01-01 … 2100-01-01"
        ]
    );
    assert_eq!((r.rows_read, r.invalid_rows, r.prices.len()), (2, 1, 1));
    let (r, f) = price_findings(
        "XBTEUR_1440.csv",
        "33229785600,1,1,1,1,1,1\n1672531200,1,1,1,1,1,1\n",
        &PriceOptions::default(),
    );
    assert_eq!(
        f,
        [
            "XBTEUR_1440.csv:1:1: error[timestamp-out-of-range] column \"time\": 33229785600 is outside 2009-01-01 … 2100-01-01"
        ]
    );
    assert_eq!((r.rows_read, r.invalid_rows, r.prices.len()), (2, 1, 1));
}

#[test]
fn rates_start_with_the_euro() {
    let r = rates::parse_ecb(b"Date,USD,\n1999-01-04,1.1789,\n1998-12-31,1.1,\n3024-01-13,1.1,\n");
    let f: Vec<String> = r.findings.iter().map(|f| f.render("e.csv")).collect();
    assert_eq!(
        f,
        [
            "e.csv:3:1: error[timestamp-out-of-range] column \"Date\": 1998-12-31 is outside 1999-01-01 … 2100-01-01",
            "e.csv:4:1: error[timestamp-out-of-range] column \"Date\": 3024-01-13 is outside 1999-01-01 … 2100-01-01",
        ]
    );
    assert_eq!((r.rows_read, r.invalid_rows, r.rates.len()), (3, 2, 1));
}

#[test]
fn price_and_rate_cells_never_span_lines() {
    let (r, f) = price_findings(
        "p.csv",
        "date,symbol,close,currency\n2024-01-13,BTC,\"1\n2024-01-14\",EUR\n",
        &PriceOptions::default(),
    );
    assert_eq!(
        f,
        [
            "p.csv:2:3: error[quote-spans-lines] column \"close\": a quoted value spans lines 2 to 3, which were read as this one cell; is a closing quote missing on line 2?"
        ]
    );
    assert_eq!(r.invalid_rows, 1);
    let r = rates::parse_ecb(b"Date,USD,\n2024-01-13,\"1\n2\",\n");
    assert_eq!(r.findings[0].code, "quote-spans-lines");
}

#[test]
fn amounts_past_fifteen_integer_digits_are_refused_at_their_line() {
    let r = g(&[
        "2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,999999999999999.999,,,,,,,,,",
        "2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,1000000000000000,,,,,,,,,",
        "2024-01-01T10:00:00Z,BUY,Bank,BTC,1,EUR,5,EUR,0,0001234567890123456789012345,EUR,,,",
    ]);
    check_findings(
        &r,
        "g.csv",
        &[
            "g.csv:3:5: error[decimal-out-of-range] column \"in_amount\": \"1000000000000000\" has more than 15 digits before the point; larger amounts are not accepted",
            "g.csv:4:10: error[decimal-out-of-range] column \"fiat_value\": \"0001234567890123456789012345\" has more than 15 digits before the point; larger amounts are not accepted",
        ],
    );
    assert_eq!(r.transactions.len(), 1);
    let (r, f) = price_findings(
        "p.csv",
        "date,symbol,close,currency\n2024-01-13,BTC,1234567890123456,EUR\n",
        &PriceOptions::default(),
    );
    assert_eq!(
        f,
        [
            "p.csv:2:3: error[decimal-out-of-range] column \"close\": \"1234567890123456\" has more than 15 digits before the point; larger amounts are not accepted"
        ]
    );
    assert_eq!(r.invalid_rows, 1);
    let r = rates::parse_ecb(b"Date,USD,\n2024-01-13,1234567890123456,\n");
    assert_eq!(r.findings[0].code, "decimal-out-of-range");
}

#[test]
fn account_names_with_empty_parts_are_refused() {
    let r = g(&[
        "2024-01-01T10:00:00Z,DEPOSIT,Kraken:,EUR,1,,,,,,,,,",
        "2024-01-01T10:00:00Z,DEPOSIT,:x,EUR,1,,,,,,,,,",
        "2024-01-01T10:00:00Z,DEPOSIT,Kraken::spot,EUR,1,,,,,,,,,",
        "2024-01-01T10:00:00Z,DEPOSIT,Kraken: ,EUR,1,,,,,,,,,",
        "2024-01-01T10:00:00Z,DEPOSIT,Kraken:spot,EUR,1,,,,,,,,,",
    ]);
    let reason =
        "is not a valid account name: a part before or after \":\" is empty (write Parent:child)";
    check_findings(
        &r,
        "g.csv",
        &[
            &format!("g.csv:2:3: error[bad-account-name] column \"account\": \"Kraken:\" {reason}"),
            &format!("g.csv:3:3: error[bad-account-name] column \"account\": \":x\" {reason}"),
            &format!(
                "g.csv:4:3: error[bad-account-name] column \"account\": \"Kraken::spot\" {reason}"
            ),
            &format!("g.csv:5:3: error[bad-account-name] column \"account\": \"Kraken:\" {reason}"),
        ],
    );
    assert_eq!(r.transactions.len(), 1);
    assert!(importers::validate_account_name("Kraken::spot").is_err());
    assert!(importers::validate_account_name("Kraken:spot").is_ok());
}

const COINBASE_V4: &str = "ID,Timestamp,Transaction Type,Asset,Quantity Transacted,Price Currency,Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes";

#[test]
fn coinbase_refuses_a_negative_fee_and_warns_on_a_fee_in_another_currency() {
    let r = import(
        &file(
            COINBASE_V4,
            &[
                "a1,2025-01-13 12:20:53 UTC,Buy,BTC,0.001,EUR,€90000.00,€90.00,€95.00,-€5.00,Bought",
                "a2,2025-01-13 12:21:53 UTC,Buy,BTC,0.001,EUR,€90000.00,€90.00,€95.00,$5.00,Bought",
                "a3,2025-01-13 12:22:53 UTC,Buy,BTC,0.001,EUR,€90000.00,€90.00,€95.00,€5.00,Bought",
            ],
        ),
        &ImportOptions::default(),
    );
    check_findings(
        &r,
        "c.csv",
        &[
            "c.csv:2:10: error[negative-not-allowed] column \"Fees and/or Spread\": \"-€5.00\" must not be negative",
            "c.csv:3:10: warning[currency-mismatch] column \"Fees and/or Spread\": the fee \"$5.00\" is written in USD, the row's currency is EUR; it was read as EUR",
        ],
    );
    assert_eq!(r.transactions.len(), 2);
    assert_counts(&r);
}

#[test]
fn exchange_notes_are_cut_at_five_hundred_characters_and_generic_ones_refused() {
    let long = "n".repeat(10_000);
    let row = format!(
        "a1,2025-01-13 12:20:53 UTC,Buy,BTC,0.001,EUR,€90000.00,€90.00,€95.00,€5.00,{long}"
    );
    let r = import(&file(COINBASE_V4, &[&row]), &ImportOptions::default());
    assert!(!r.has_errors(), "{:?}", rendered(&r, "c"));
    let note = &r.transactions[0].note;
    assert_eq!(note.chars().count(), 500);
    assert!(note.ends_with("nn…"), "{note}");
    let row = format!(
        "2024-01-01T10:00:00Z,DEPOSIT,Bank,EUR,1,,,,,,,,,{}",
        "é".repeat(501)
    );
    let r = g(&[&row]);
    assert_eq!(r.findings[0].code, "value-too-long");
    assert!(r.transactions.is_empty());
}

#[test]
fn a_long_record_in_a_price_or_rate_file_is_named_with_its_column() {
    let text = format!(
        "date,symbol,close,currency\n2024-01-13,BTC,1,EUR\n{}\n",
        "7".repeat(2 << 20)
    );
    let (r, f) = price_findings("p.csv", &text, &PriceOptions::default());
    assert_eq!(
        f,
        [
            "p.csv:3:1: error[record-too-long] column \"date\": the record starting on line 3 is longer than 1 MiB (a quote that is never closed?); the file was not read past it"
        ]
    );
    assert!(r.file_rejected());
    let text = format!("Date,USD,\n2024-01-13,\"1{}\n", "7".repeat(2 << 20));
    let r = rates::parse_ecb(text.as_bytes());
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].code, "record-too-long");
    assert_eq!(r.findings[0].header, "Date");
    assert!(r.file_rejected());
}

#[test]
fn a_lone_carriage_return_ends_a_line_as_it_ends_a_record() {
    // The CSV reader ends a record at a lone CR: the next record is on the next line, so two
    // invalid records never share a line and each is counted.
    let text = format!(
        "{HEADER}\n2024-01-01T10:00:00Z,DEPOSIT\r,Bank,EUR,1,,,,,,,,,\n2024-01-02T10:00:00Z,DEPOSIT,Bank,EUR,1,,,,,,,,,\r\n2024-01-03T10:00:00Z,DEPOSIT,Bank,EUR,1,,,,,,,,,\n"
    );
    let r = import(text.as_bytes(), &ImportOptions::default());
    let lines: Vec<u64> = r.findings.iter().map(|f| f.line).collect();
    assert_eq!(lines, [2, 3]);
    assert_eq!((r.rows_read, r.invalid_rows), (4, 2));
    assert_eq!(r.transactions[0].lines, [4]);
    assert_eq!(r.transactions[1].lines, [5]);
    assert_counts(&r);
}
