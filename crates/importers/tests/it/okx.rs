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
