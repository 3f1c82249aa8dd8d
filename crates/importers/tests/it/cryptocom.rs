//! Crypto.com App transaction history (`test_data/cryptocom-app`).

use importers::{ImportOptions, SkipReason};

use crate::{check_findings, check_txs, data, file, import};

const HEADER: &str = "Timestamp (UTC),Transaction Description,Currency,Amount,To Currency,To Amount,Native Currency,Native Amount,Native Amount (in USD),Transaction Kind,Transaction Hash";

#[test]
fn the_2025_export_gives_its_transactions() {
    let r = import(
        &data("cryptocom-app/cryptocom-2025.csv"),
        &ImportOptions::default(),
    );
    assert_eq!(
        r.format.as_ref().map(ToString::to_string).as_deref(),
        Some("cryptocom-app, layout v2 (detected)")
    );
    check_txs(
        &r,
        &[
            "11 Crypto.com 2025-01-05T16:20:41Z TRANSFER_IN | 0.05 ETH |  |  |  | ",
            "10 Crypto.com 2025-01-15T09:30:00Z BUY | 0.005 BTC | 450 EUR |  |  | ",
            "9 Crypto.com 2025-01-20T10:00:00Z BUY | 0.0331 ETH | 100 EUR |  |  | ",
            "8 Crypto.com 2025-02-01T08:15:00Z SWAP | 0.0312 ETH | 0.001 BTC |  | 90 EUR | ",
            "6,7 Crypto.com 2025-02-10T11:30:00Z SWAP | 9.1 CRO | 1.2 ADA |  |  | ",
            &format!(
                "5 Crypto.com 2025-02-15T12:00:00Z TRANSFER_OUT |  | 0.001 BTC |  |  | {}",
                r.transactions[5].identity
            ),
            &format!(
                "5 Crypto.com:earn 2025-02-15T12:00:00Z TRANSFER_IN | 0.001 BTC |  |  |  | {}",
                r.transactions[5].identity
            ),
            "4 Crypto.com 2025-03-01T00:05:00Z REWARD | 0.0000125 BTC |  |  | 1.05 EUR | ",
            "3 Crypto.com 2025-03-10T09:00:00Z PROMOTION | 12.5 CRO |  |  | 1.1 EUR | ",
            "2 Crypto.com 2025-03-20T18:00:00Z TRANSFER_OUT |  | 0.002 BTC |  |  | ",
        ],
    );
    assert_eq!(r.rows_read, 10);
    assert_eq!(r.rows_in_records, 10);
    assert!(r.findings.is_empty());
    // Content keys name the file's account, also for the earn child.
    assert!(r.transactions[6].identity_key.ends_with("\u{1f}move-in"));
    assert!(
        r.transactions[5]
            .identity_key
            .starts_with("v1\u{1f}cryptocom-app\u{1f}content\u{1f}crypto.com\u{1f}2025-02-15T12:00:00Z\u{1f}TRANSFER_OUT")
    );
}

#[test]
fn the_older_header_without_hash_is_read() {
    let r = import(
        &data("cryptocom-app/cryptocom-2021-v1.csv"),
        &ImportOptions::default(),
    );
    assert_eq!(r.format.as_ref().map(|f| f.layout), Some("v1"));
    check_txs(
        &r,
        &[
            "4 Crypto.com 2021-06-28T08:00:00Z REWARD | 3.5 CRO |  |  | 0.42 EUR | ",
            "3 Crypto.com 2021-06-29T09:12:00Z SELL | 58.2 EUR | 0.002 BTC |  |  | ",
            &format!(
                "2 Crypto.com:earn 2021-06-30T10:00:00Z TRANSFER_OUT |  | 0.01 BTC |  |  | {}",
                r.transactions[2].identity
            ),
            &format!(
                "2 Crypto.com 2021-06-30T10:00:00Z TRANSFER_IN | 0.01 BTC |  |  |  | {}",
                r.transactions[2].identity
            ),
        ],
    );
}

#[test]
fn unknown_and_unsupported_kinds_name_the_label_and_line() {
    let bytes = file(
        HEADER,
        &[
            "2025-01-01 10:00:00,Something,BTC,0.1,,,EUR,1,1,crypto_mystery_bonus,",
            "2025-01-01 10:00:01,Send,BTC,-0.1,,,EUR,-1,-1,crypto_transfer,",
            "2025-01-01 10:00:02,Withdraw,BTC,0.1,,,EUR,1,1,crypto_withdrawal,",
            "2025-01-01 10:00:03,Earn,BTC,\"1,5\",,,EUR,1,1,crypto_earn_interest_paid,",
        ],
    );
    let r = import(&bytes, &ImportOptions::default());
    check_findings(
        &r,
        "c.csv",
        &[
            "c.csv:2:10: error[unknown-type] column \"Transaction Kind\": unknown cryptocom-app type \"crypto_mystery_bonus\"",
            "c.csv:3:10: error[unsupported-type] column \"Transaction Kind\": cryptocom-app type \"crypto_transfer\" is not supported: a transfer to or from another Crypto.com user may be a gift or a move between own accounts, and the file does not say which; record it with the generic format",
            "c.csv:4:4: error[sign-mismatch] column \"Amount\": \"crypto_withdrawal\" rows must have a negative amount",
            "c.csv:5:4: error[bad-decimal] column \"Amount\": \"1,5\" is not a plain decimal number",
        ],
    );
    assert_eq!(r.invalid_rows, 4);
    assert!(r.transactions.is_empty());
}

#[test]
fn dust_of_several_coins_into_one_credit_is_ambiguous() {
    let bytes = file(
        HEADER,
        &[
            "2025-02-10 11:30:00,Convert,ADA,-1.2,,,EUR,-0.85,-0.92,dust_conversion_debited,",
            "2025-02-10 11:30:00,Convert,XLM,-3,,,EUR,-0.5,-0.6,dust_conversion_debited,",
            "2025-02-10 11:30:00,Convert,CRO,9.1,,,EUR,0.84,0.91,dust_conversion_credited,",
            "2025-02-11 11:30:00,Limit,EUR,-10,,,EUR,-10,-11,trading.limit_order.fiat_wallet.purchase_lock,",
        ],
    );
    let r = import(&bytes, &ImportOptions::default());
    assert_eq!(r.invalid_rows, 3);
    assert_eq!(
        r.errors().filter(|f| f.code == "ambiguous-group").count(),
        3
    );
    assert_eq!(r.skipped.get(&SkipReason::InternalMovement), Some(&1));
}
