//! OKX trading and funding account histories (`test_data/okx`).

use importers::ImportOptions;

use crate::{check_findings, check_txs, data, file, import};

#[test]
fn the_trading_history_merges_each_order_and_reads_the_preamble_zone() {
    let r = import(&data("okx/okx-trading.csv"), &ImportOptions::default());
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("okx, layout trading (detected)")
    );
    check_txs(
        &r,
        &[
            "8 OKX:trading 2025-11-29T02:00:00Z TRANSFER_IN | 1500 USDT |  |  |  | ",
            "4,5 OKX:trading 2025-11-29T03:00:00Z SWAP | 0.5 ETH | 1500 USDT | 0.0005 ETH |  | ",
            "3 OKX:trading 2025-11-29T03:30:00Z TRANSFER_OUT |  | 0.4995 ETH |  |  | ",
            "6,7 OKX:trading 2025-11-29T04:00:00Z SELL | 900 EUR | 0.01 BTC | 0.9 EUR |  | ",
        ],
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    assert_eq!((r.rows_read, r.rows_in_records), (6, 6));
    assert_eq!(
        r.transactions[1].identity_key,
        "v1\u{1f}okx\u{1f}order\u{1f}901"
    );
}

#[test]
fn the_funding_history_is_read_with_its_marks() {
    let r = import(&data("okx/okx-funding.csv"), &ImportOptions::default());
    check_txs(
        &r,
        &[
            "3 OKX:funding 2025-10-30T06:00:00Z TRANSFER_IN | 1500 USDT |  |  |  | ",
            "4 OKX:funding 2025-10-30T06:05:00Z TRANSFER_OUT |  | 1500 USDT |  |  | ",
            "5 OKX:funding 2025-10-31T08:55:15Z TRANSFER_OUT |  | 0.01147863 BTC |  |  | ",
        ],
    );
    assert!(r.findings.is_empty(), "{:?}", r.findings);
}

#[test]
fn derivatives_split_orders_and_missing_zone_are_named() {
    let header = "id,Order id,Time,Trade Type,Symbol,Action,Amount,Trading Unit,Filled Price,PnL,Fee,Fee Unit,Position Change,Position Balance,Balance Change,Balance,Balance Unit";
    let bytes = file(
        header,
        &[
            "1,7,2025-11-29 11:00:00,Swap,BTC-USDT-SWAP,Buy,1,cont,90000,0,-0.1,USDT,1,1,-0.1,10,USDT",
        ],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "o.csv",
        &[
            "o.csv:2:3: error[timezone-required] column \"Time\": these timestamps carry no time zone; pass --timezone",
            "o.csv:2:4: error[unsupported-type] column \"Trade Type\": okx type \"Swap\" is not supported: margin, derivatives and other non-spot trades are not supported; record it with the generic format",
        ],
    );
    let bytes = file(
        &format!("UID:1,Account Type:Main,Time Zone:UTC+0\n{header}"),
        &[
            "2,9,2025-11-29 11:00:00,Spot,ETH-USDT,Buy,0.5,ETH,3000,0,-0.0005,ETH,0,0,0.4995,0.4995,ETH",
            "3,10,2025-11-29 11:00:01,Spot,ETH-USDT,Buy,0.5,ETH,3000,0,0,ETH,0,0,0.5,1,ETH",
            "4,10,2025-11-29 11:00:01,Spot,ETH-USDT,Sell,1500,ETH,3000,0,0,USDT,0,0,-1500,0,USDT",
            "1,9,2025-11-29 11:00:00,Spot,ETH-USDT,Sell,1500,ETH,3000,0,0,USDT,0,0,-1500,0,USDT",
        ],
    );
    let r = import(&bytes, &ImportOptions::default());
    let codes: Vec<(u64, &str)> = r.errors().map(|f| (f.line, f.code)).collect();
    assert_eq!(
        codes,
        [(3, "incomplete-group"), (6, "ambiguous-group")],
        "{:?}",
        r.findings
    );
    assert_eq!(r.transactions.len(), 1);
}

fn madrid() -> ImportOptions {
    ImportOptions {
        timezone: importers::Zone::parse("Europe/Madrid"),
        ..ImportOptions::default()
    }
}

#[test]
fn older_generations_are_read() {
    for (fixture, layout, expected) in [
        (
            "okx/okx-trading-v1.csv",
            "trading-v1",
            &[
                "2,3 OKX:trading 2021-11-02T09:00:00Z SWAP | 0.01 BTC | 610 USDT | 0.00001 BTC |  | ",
                "4,5 OKX:trading 2021-11-04T11:30:00Z SWAP | 900 USDT | 0.2 ETH | 0.9 USDT |  | ",
            ][..],
        ),
        (
            "okx/okx-funding-fee.csv",
            "funding",
            &[
                "3 OKX:funding 2022-03-01T07:00:00Z TRANSFER_IN | 0.5 ETH |  |  |  | ",
                "4,5 OKX:funding 2022-03-02T08:00:00Z SWAP | 250 USDT | 0.1 ETH |  |  | ",
                "6 OKX:funding 2022-03-03T09:00:00Z TRANSFER_OUT |  | 0.2 ETH |  |  | <group>",
                "6 OKX:earn 2022-03-03T09:00:00Z TRANSFER_IN | 0.2 ETH |  |  |  | <group>",
                "7 OKX:funding 2022-04-03T08:00:00Z STAKING | 0.001 ETH |  |  |  | ",
                "8 OKX:earn 2022-04-04T08:00:00Z TRANSFER_OUT |  | 0.2 ETH |  |  | <group>",
                "8 OKX:funding 2022-04-04T08:00:00Z TRANSFER_IN | 0.2 ETH |  |  |  | <group>",
                "9 OKX:funding 2022-04-05T09:00:00Z PROMOTION | 0.12 USDT |  |  |  | ",
                "10 OKX:funding 2022-04-06T10:00:00Z TRANSFER_OUT |  | 100 USDT |  |  | <group>",
                "10 OKX:earn 2022-04-06T10:00:00Z TRANSFER_IN | 100 USDT |  |  |  | <group>",
                "11 OKX:earn 2022-04-07T10:00:00Z TRANSFER_OUT |  | 100 USDT |  |  | <group>",
                "11 OKX:funding 2022-04-07T10:00:00Z TRANSFER_IN | 100 USDT |  |  |  | <group>",
                "12 OKX:funding 2022-04-08T11:00:00Z TRANSFER_OUT |  | 0.3 ETH | 0.0004 ETH |  | ",
            ][..],
        ),
        (
            "okx/okx-funding-blank-column.csv",
            "funding",
            &[
                "2 OKX:funding 2022-05-01T06:00:00Z TRANSFER_IN | 1000 USDT |  |  |  | ",
                "3 OKX:funding 2022-05-02T06:00:00Z TRANSFER_OUT |  | 1000 USDT |  |  | ",
            ][..],
        ),
        (
            "okx/okx-fills.csv",
            "fills",
            &[
                "2 OKX:trading 2020-03-01T09:00:00Z SWAP | 0.02 BTC | 172 USDT | 0.00003 BTC |  | ",
                "3 OKX:trading 2020-03-02T10:00:00Z SWAP | 115 USDT | 0.5 ETH | 0.092 USDT |  | ",
            ][..],
        ),
        (
            "okx/okx-bills.csv",
            "bills",
            &[
                "2,3 OKX:trading 2019-05-10T06:03:22Z SWAP | 0.05 BTC | 300 USDT | 0.00005 BTC |  | ",
                "4,5 OKX:trading 2019-05-11T01:15:00Z SWAP | 160 USDT | 0.02 BTC | 0.16 USDT |  | ",
            ][..],
        ),
    ] {
        let r = import(&data(fixture), &madrid());
        assert_eq!(
            r.format.as_ref().map(ToString::to_string),
            Some(format!("okx, layout {layout} (detected)")),
            "{fixture}"
        );
        assert!(r.findings.is_empty(), "{fixture}: {:?}", r.findings);
        // A move's two sides share their group (an identity): written `<group>`.
        let got: Vec<String> = r
            .transactions
            .iter()
            .map(|t| {
                let row = crate::fmt_tx(t);
                match row.rsplit_once(" | ") {
                    Some((head, g)) if g.len() == 64 => format!("{head} | <group>"),
                    _ => row,
                }
            })
            .collect();
        assert_eq!(got, expected, "{fixture}");
        // `--format okx` finds the same layout among the profile's definitions.
        let forced = import(
            &data(fixture),
            &ImportOptions {
                format: Some(importers::Profile::Okx),
                ..madrid()
            },
        );
        assert_eq!(
            forced.format.as_ref().map(ToString::to_string),
            Some(format!("okx, layout {layout} (forced)")),
            "{fixture}"
        );
        assert_eq!(forced.transactions.len(), r.transactions.len(), "{fixture}");
    }
}

#[test]
fn older_generations_name_what_they_cannot_read() {
    let funding = file(
        "id,Time,Type,Amount,Before Balance,After Balance,Fee,Symbol",
        &[
            "1,2022-03-02 09:00:00,Convert,-0.1,0.5,0.4,0,ETH",
            "2,2022-03-02 09:00:01,Convert,250,0,250,0,USDT",
            "3,2022-03-03 09:00:00,Distribution,5,0,5,0,OKB",
            "4,2022-03-04 09:00:00,Stake,0.2,0.4,0.2,0,ETH",
        ],
    );
    check_findings(
        &import(&funding, &madrid()),
        "o.csv",
        &[
            "o.csv:2:3: error[incomplete-group] column \"Type\": this Convert row has no other side at the same time: download the funding history for all currencies and import that file",
            "o.csv:3:3: error[incomplete-group] column \"Type\": this Convert row has no other side at the same time: download the funding history for all currencies and import that file",
            "o.csv:4:3: error[unknown-type] column \"Type\": unknown okx type \"Distribution\"",
            "o.csv:5:4: error[sign-mismatch] column \"Amount\": \"Stake\" rows must have a negative amount",
        ],
    );
    let bills = file(
        "time,type,size,balance,fee,currency",
        &[
            "2019-05-10 14:03:22 CST,buy,0.05,0.05,-0.00005,BTC",
            "2019-05-10 14:03:23 CST,sell,-300,700,0,USDT",
            "2019-05-11 09:15:00,deposit,1,1,0,BTC",
        ],
    );
    check_findings(
        &import(&bills, &ImportOptions::default()),
        "o.csv",
        &[
            "o.csv:2:2: error[incomplete-group] column \"type\": this buy row has no sell row at 2019-05-10 14:03:22 CST beside it: a trade is a buy row and a sell row; download the bills for all currencies and import that file",
            "o.csv:3:2: error[incomplete-group] column \"type\": this sell row has no buy row at 2019-05-10 14:03:23 CST beside it: a trade is a buy row and a sell row; download the bills for all currencies and import that file",
            "o.csv:4:1: error[timezone-required] column \"time\": these timestamps carry no time zone; pass --timezone",
            "o.csv:4:2: error[unknown-type] column \"type\": unknown okx type \"deposit\"",
        ],
    );
    let fills = file(
        "Order ID,Trade ID,Trade Time,Pairs,Amount,Price,Total,taker/maker,Fee,unit",
        &[
            "1,2,2020-03-01 10:00:00,btcusdt,0.02,8600,172 USDT,taker,-0.00003 btc,btc",
            "1,3,2020-03-01 10:00:00,btc_usdt,0,8600,172 USDT,taker,-0.00003 btc,btc",
        ],
    );
    check_findings(
        &import(&fills, &madrid()),
        "o.csv",
        &[
            "o.csv:2:4: error[bad-asset-symbol] column \"Pairs\": \"btcusdt\" is not a pair such as BTC_USDT",
            "o.csv:3:5: error[not-positive] column \"Amount\": \"0\" must not be zero",
        ],
    );
}

#[test]
fn an_invalid_side_invalidates_its_pair() {
    let funding = file(
        "id,Time,Type,Amount,Before Balance,After Balance,Fee,Symbol",
        &[
            "1,2022-03-02 09:00:00,Convert,-0.1,0.5,0.4,0,ETH",
            "2,2022-03-02 09:00:00,Convert,x,0,250,0,USDT",
        ],
    );
    let bills = file(
        "time,type,size,balance,fee,currency",
        &[
            "2019-05-10 14:03:22 CST,buy,0.05,0.05,-0.00005,BTC",
            "2019-05-10 14:03:22 CST,sell,0,700,0,USDT",
        ],
    );
    for (bytes, code, message) in [
        (
            funding,
            "o.csv:3:4: error[bad-decimal] column \"Amount\": \"x\" is not a plain decimal number",
            "o.csv:2:1: error[group-member-invalid] column \"id\": part of operation convert 1, whose line 3 is invalid",
        ),
        (
            bills,
            "o.csv:3:3: error[not-positive] column \"size\": \"0\" must not be zero",
            "o.csv:2:2: error[group-member-invalid] column \"type\": part of operation trade at 2019-05-10 14:03:22 CST, whose line 3 is invalid",
        ),
    ] {
        let r = import(&bytes, &madrid());
        check_findings(&r, "o.csv", &[message, code]);
        assert_eq!(r.rows_read, r.invalid_rows);
    }
}
