//! Bitunix transaction export (`test_data/bitunix`).

use importers::ImportOptions;

use crate::{check_findings, check_txs, data, file, import};

#[test]
fn the_export_gives_its_transactions() {
    let r = import(&data("bitunix/bitunix-2025.csv"), &ImportOptions::default());
    check_txs(
        &r,
        &[
            "2 Bitunix 2025-12-13T12:07:06Z TRANSFER_IN | 4.5 ADA |  |  |  | ",
            "3 Bitunix 2025-12-13T12:18:14Z TRANSFER_IN | 543.344684 ADA |  |  |  | ",
            "4 Bitunix 2025-12-13T22:03:31Z TRANSFER_OUT |  | 546.844684 ADA | 1 ADA |  | ",
        ],
    );
    assert!(r.findings.is_empty());
    // The repeated Trx. ID is not an identity: both deposits are kept.
    assert_ne!(r.transactions[0].identity, r.transactions[1].identity);
    assert!(
        r.transactions[0]
            .identity_key
            .contains("\u{1f}content\u{1f}bitunix\u{1f}")
    );
}

#[test]
fn futures_and_unknown_labels_are_named() {
    let bytes = file(
        "Date (UTC),Label,Outgoing Asset,Outgoing Amount,Incoming Asset,Incoming Amount,Fee Asset,Fee Amount,Trx. ID,Comment",
        &[
            "2025-12-14 10:00:00,Futures Profit,,0,USDT,12.5,,0,T0011,",
            "2025-12-14 10:00:01,Trade,USDT,10,ADA,20,,0,T0012,",
            "2025-12-14 10:00:02,Deposit,USDT,1,ADA,20,,0,T0013,",
        ],
    );
    check_findings(
        &import(&bytes, &ImportOptions::default()),
        "u.csv",
        &[
            "u.csv:2:2: error[unsupported-type] column \"Label\": bitunix type \"Futures Profit\" is not supported: futures results are not supported; record it with the generic format",
            "u.csv:3:2: error[unknown-type] column \"Label\": unknown bitunix type \"Trade\"",
            "u.csv:4:4: error[side-not-allowed] column \"Outgoing Amount\": TRANSFER_IN has no out side",
        ],
    );
}
