//! Revolut crypto account statement (`test_data/revolut-crypto`).

use importers::{ImportOptions, Zone};

use crate::{check_findings, check_txs, data, file, import};

fn zone(name: &str) -> ImportOptions {
    ImportOptions {
        timezone: Zone::parse(name),
        ..ImportOptions::default()
    }
}

#[test]
fn the_statement_gives_its_transactions() {
    let r = import(
        &data("revolut-crypto/revolut-crypto.csv"),
        &zone("Europe/Madrid"),
    );
    let move_group = r
        .transactions
        .get(2)
        .map(|t| t.identity.clone())
        .unwrap_or_default();
    check_txs(
        &r,
        &[
            "2 Revolut 2024-06-12T14:16:32Z BUY | 0.01713112 BTC | 100 EUR | 1.49 EUR |  | ",
            "3 Revolut 2025-02-02T10:03:12Z BUY | 0.12 ETH | 300 EUR | 4.48 EUR |  | ",
            &format!(
                "4 Revolut 2025-02-02T10:05:00Z TRANSFER_OUT |  | 0.1 ETH | 0 EUR |  | {move_group}"
            ),
            &format!(
                "4 Revolut:staking 2025-02-02T10:05:00Z TRANSFER_IN | 0.1 ETH |  |  |  | {move_group}"
            ),
            "5 Revolut 2025-03-14T23:23:31Z STAKING | 0.00002061 ETH |  |  |  | ",
            "6 Revolut 2025-04-01T07:00:00Z PROMOTION | 1.5 DOT |  | 0 EUR | 6.15 EUR | ",
            "7 Revolut 2025-05-04T09:12:00Z SELL | 450 EUR | 0.005 BTC | 0.41 EUR |  | ",
            "8 Revolut 2025-05-20T17:28:14Z SPEND |  | 0.0005 BTC | 0 EUR | 46 EUR | ",
            "9 Revolut 2025-06-01T06:00:00Z TRANSFER_OUT |  | 0.002 BTC | 0 EUR |  | ",
            "10 Revolut 2025-06-02T07:19:04Z DEPOSIT | 8 EUR |  | 0 EUR |  | ",
        ],
    );
    assert!(r.findings.is_empty());
    assert_eq!((r.rows_read, r.rows_in_records), (9, 9));
}

#[test]
fn day_first_dates_and_trailing_codes_are_read() {
    let r = import(
        &data("revolut-crypto/revolut-crypto-daymonth.csv"),
        &zone("Europe/Prague"),
    );
    check_txs(
        &r,
        &[
            "2 Revolut 2021-04-13T07:54:54Z BUY | 1998.8843 XRP | 71000 CZK | 764.99 CZK |  | ",
            "3 Revolut 2021-11-09T02:50:00Z TRANSFER_OUT |  | 0.00056077 BTC | 0 SEK |  | ",
        ],
    );
}

#[test]
fn local_dates_need_a_time_zone_and_bad_cells_are_named() {
    let bytes = file(
        "Symbol,Type,Quantity,Price,Value,Fees,Date",
        &[
            "BTC,Buy,0.1,€5000.00,€500.00,€0.00,\"Jan 5, 2021, 1:00:00 PM\"",
            "BTC,Buy,0.1,5000.00,500.00,0.00,2021-01-05T13:00:00Z",
            "BTC,Airdrop,0.001,\"€5,000.00\",€5.00,€0.00,2021-01-05T13:00:00Z",
            "BTC,Other,0.001,\"€5,000.00\",€5.00,€0.00,2021-01-05T13:00:00Z",
            "BTC,Buy,\"0,5\",€5000.00,€500.00,€0.00,2021-01-05T13:00:00Z",
            "BTC,Buy,0.5,€5000.00,€500.00,€0.00,\"Feb 30, 2021, 1:00:00 PM\"",
        ],
    );
    let r = import(&bytes, &ImportOptions::default());
    check_findings(
        &r,
        "r.csv",
        &[
            "r.csv:2:7: error[timezone-required] column \"Date\": these timestamps carry no time zone; pass --timezone",
            "r.csv:3:5: error[fiat-value-incomplete] column \"Value\": a fiat value needs both an amount and a currency",
            "r.csv:4:2: error[unknown-type] column \"Type\": unknown revolut-crypto type \"Airdrop\"",
            "r.csv:5:2: error[unsupported-type] column \"Type\": revolut-crypto type \"Other\" is not supported: the statement states neither the direction nor the nature of these rows; record it with the generic format",
            "r.csv:6:3: error[bad-decimal] column \"Quantity\": \"0,5\" is not a plain decimal number",
            "r.csv:7:7: error[bad-timestamp] column \"Date\": \"Feb 30, 2021, 1:00:00 PM\" is not a timestamp of the form \"Jun 12, 2018, 4:16:32 PM\", \"13 Apr 2021, 09:54:54\" or YYYY-MM-DDTHH:MM:SSZ",
        ],
    );
}
