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
fn the_statement_before_2023_gives_its_transactions() {
    let r = import(
        &data("revolut-crypto/revolut-crypto-2022.csv"),
        &zone("Europe/Madrid"),
    );
    check_txs(
        &r,
        &[
            "2 Revolut 2021-06-04T05:27:08Z BUY | 0.310358 MATIC | 0.4 EUR | 0.02 EUR |  | ",
            "3 Revolut 2021-07-29T06:55:24Z SELL | 0.13 EUR | 0.15826907 MATIC | 0.01 EUR |  | ",
            "4 Revolut 2021-07-29T06:55:24Z BUY | 0.0065 DOT | 0.11 EUR | 0.01 EUR |  | ",
            "5 Revolut 2022-06-25T11:29:03Z BUY | 1000 ZRX | 293.9067439 EUR | 4.41 EUR |  | ",
            "6 Revolut 2022-06-26T08:00:00Z TRANSFER_OUT |  | 100 ZRX |  |  | ",
            "7 Revolut:savings 2022-06-26T08:00:00Z TRANSFER_IN | 100 ZRX |  |  |  | ",
            "8 Revolut 2022-06-27T08:32:23Z SELL | 259.27184 EUR | 800 ZRX | 3.888 EUR |  | ",
            "10 Revolut 2022-07-05T16:20:00Z SPEND |  | 25 ZRX | 0.12 EUR | 8 EUR | ",
            "12 Revolut 2022-07-10T10:00:00Z PROMOTION | 0.00012 BTC |  |  | 2.4 EUR | ",
            "13 Revolut 2022-07-12T14:45:10Z PROMOTION | 0.9 ALGO |  |  | 0.31 EUR | ",
        ],
    );
    // The reverted and declined payments, and the entity migration's two rows.
    assert_eq!(
        r.skipped
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>(),
        ["not-final 2", "internal-movement 2"]
    );
    assert!(r.findings.is_empty());
    assert_eq!((r.rows_read, r.rows_in_records), (14, 10));
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

#[test]
fn the_statement_before_2023_names_what_it_cannot_read() {
    let header = "Type,Product,Started Date,Completed Date,Description,Amount,Currency,Fiat amount,Fiat amount (inc. fees),Fee,Base currency,State,Balance";
    let rows = [
        "EXCHANGE,Current,2022-01-05 13:00:00,2022-01-05 13:00:00,Exchanged to BTC,0.1,BTC,500,505,5,EUR,COMPLETED,0.1",
        "TOPUP,Current,2022-01-05 13:00:00,2022-01-05 13:00:00,Top-up,0.1,BTC,500,500,0,EUR,COMPLETED,0.2",
        "CARD_REFUND,Current,2022-01-05 13:00:00,2022-01-05 13:00:00,Refund,0.1,BTC,500,500,0,EUR,COMPLETED,0.3",
        "CARD_PAYMENT,Current,2022-01-05 13:00:00,2022-01-05 13:00:00,Shop,0.1,BTC,500,500,0,EUR,COMPLETED,0.4",
        "EXCHANGE,Current,2022-01-05 13:00:00,2022-01-05 13:00:00,Exchanged to BTC,0.1,BTC,5,5,6,EUR,COMPLETED,0.5",
        "EXCHANGE,Current,2022-01-05 13:00:00,2022-01-05 13:00:00,Exchanged to BTC,0,BTC,5,5,0,EUR,COMPLETED,0.5",
        "EXCHANGE,Current,2022-01-05 25:00:00,2022-01-05 25:00:00,Exchanged to BTC,0.1,BTC,5,5,0,EUR,COMPLETED,0.6",
    ];
    let r = import(&file(header, &rows[..1]), &ImportOptions::default());
    check_findings(
        &r,
        "r.csv",
        &[
            "r.csv:2:4: error[timezone-required] column \"Completed Date\": these timestamps carry no time zone; pass --timezone",
        ],
    );
    let r = import(&file(header, &rows[1..]), &zone("Europe/Madrid"));
    check_findings(
        &r,
        "r.csv",
        &[
            "r.csv:2:1: error[unknown-type] column \"Type\": unknown revolut-crypto type \"TOPUP\"",
            "r.csv:3:1: error[unsupported-type] column \"Type\": revolut-crypto type \"CARD_REFUND\" is not supported: the statement does not say whether a refund returns the coins spent or credits new ones; record it with the generic format",
            "r.csv:4:6: error[sign-mismatch] column \"Amount\": \"CARD_PAYMENT\" rows must have a negative amount",
            "r.csv:5:10: error[fee-exceeds-amount] column \"Fee\": the fee \"6\" is not less than the fiat amount \"5\"",
            "r.csv:6:6: error[not-positive] column \"Amount\": \"0\" must not be zero",
            "r.csv:7:4: error[bad-timestamp] column \"Completed Date\": \"2022-01-05 25:00:00\" is not a timestamp of the form YYYY-MM-DD HH:MM:SS",
        ],
    );
}
