//! Exports shaped exactly like real downloads of the supported exchanges (issue 22: exponent
//! notation, Binance labels and Earn receipts, Bitvavo's current layout and float noise,
//! Coinbase report generations, Kraken ledgers before `subtype`), imported through the binary.
//! Each fixture lives under `importers/test_data/real/` with the public source of its shape
//! in the README beside it.

use crate::support::{counts, example, run, stderr, stdout, stored_rows};

/// Imports `file` (with `extra` options) into a fresh ledger, asserts the stored rows, then
/// imports it again and asserts that nothing is added. Returns the ledger's folder.
fn import_exact(file: &str, extra: &[&str], expected: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.sqlite");
    let path = example(file);
    let mut args = vec!["import", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    let output = run(&ledger, &args);
    assert!(
        output.status.success(),
        "{file} ({:?}): {}\n{}",
        output.status,
        stdout(&output),
        stderr(&output)
    );
    assert_eq!(stored_rows(&ledger), expected, "{}", stdout(&output));
    let before = counts(&ledger);
    let again = run(&ledger, &args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains("  added         0 transactions\n"),
        "{}",
        stdout(&again)
    );
    assert_eq!(counts(&ledger), before);
    dir
}

#[test]
fn binance_statement_with_exponents_earn_receipts_and_card_labels() {
    import_exact(
        "real/binance-statement/binance-statement-2024.csv",
        &[],
        &[
            "1 Binance:spot 2024-01-08T10:02:11Z DEPOSIT in=200 EUR out= fee= value= group=",
            "2 Binance:spot 2024-01-08T10:05:33Z BUY in=0.00361 BTC out=150 EUR fee=0.00003605 BNB value= group=",
            "3 Binance:spot 2024-01-08T10:07:02Z BUY in=54.12 USDT out=50 EUR fee= value= group=",
            "4 Binance:spot 2024-01-08T10:09:45Z TRANSFER_OUT in= out=54.12 USDT fee= value= group=2024-01-08T10:09:45Z Simple Earn Flexible Subscription USDT",
            "5 Binance:earn 2024-01-08T10:09:45Z TRANSFER_IN in=54.12 USDT out= fee= value= group=2024-01-08T10:09:45Z Simple Earn Flexible Subscription USDT",
            "6 Binance:earn 2024-01-09T00:52:10Z REWARD in=0.00000054 USDT out= fee= value= group=",
            "7 Binance:earn 2024-01-10T00:52:10Z REWARD in=0.00148211 USDT out= fee= value= group=",
            "8 Binance:earn 2024-01-12T16:30:00Z TRANSFER_OUT in= out=54.12 USDT fee= value= group=2024-01-12T16:30:00Z Simple Earn Flexible Redemption USDT",
            "9 Binance:spot 2024-01-12T16:30:00Z TRANSFER_IN in=54.12 USDT out= fee= value= group=2024-01-12T16:30:00Z Simple Earn Flexible Redemption USDT",
            "10 Binance:spot 2024-01-15T08:14:27Z PROMOTION in=0.00000038 BNB out= fee= value= group=",
            "11 Binance:spot 2024-01-20T12:00:03Z PROMOTION in=2 USDT out= fee= value= group=",
            "12 Binance:card 2024-01-22T19:41:09Z SPEND in= out=25.3 USDT fee= value= group=",
            "13 Binance:card 2024-01-22T19:41:10Z PROMOTION in=0.00021 BNB out= fee= value= group=",
            "14 Binance:earn 2024-01-25T07:00:00Z STAKING in=0.0123 DOT out= fee= value= group=",
            "15 Binance:spot 2024-01-28T09:00:00Z SWAP in=0.00023 BTC out=10 USDT fee= value= group=",
            "16 Binance:spot 2024-01-30T11:11:11Z REWARD in=1.4 PORTAL out= fee= value= group=",
            "17 Binance:spot 2024-01-31T13:37:00Z AIRDROP in=5 ARB out= fee= value= group=",
            "18 Binance:spot 2024-02-01T10:00:00Z SWAP in=0.00872 ETH out=20 USDT fee= value= group=",
            "19 Binance:spot 2024-02-02T15:20:44Z SELL in=11.2 EUR out=0.005 ETH fee=0.0112 EUR value= group=",
        ],
    );
}
