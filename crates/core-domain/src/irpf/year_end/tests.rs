use rust_decimal::Decimal;
use shared_types::CustodyKind;

use super::{HoldingAccount, YearEndBalance, YearEndSnapshot, year_end_holdings};
use crate::asset::Asset;
use crate::irpf::render::render_year_end;
use crate::irpf::settings::Modelo721Filed;
use crate::ledger::{Account, AccountId};
use crate::time::Date;

fn account(id: u32, name: &str, parent: Option<u32>, kind: CustodyKind) -> Account {
    Account {
        id: AccountId(id),
        name: name.to_owned(),
        parent_id: parent.map(AccountId),
        custody_kind: kind,
        country: None,
    }
}

fn btc() -> Asset {
    Asset::new("BTC").unwrap()
}

fn eth() -> Asset {
    Asset::new("ETH").unwrap()
}

fn balance(account: HoldingAccount, asset: Asset, qty: &str, gap: &str) -> YearEndBalance {
    YearEndBalance {
        account,
        asset,
        ledger_balance: qty.parse().unwrap(),
        gap: gap.parse().unwrap(),
    }
}

fn at(id: u32) -> HoldingAccount {
    HoldingAccount::Account(AccountId(id))
}

fn accounts() -> Vec<Account> {
    vec![
        account(1, "Kraken", None, CustodyKind::ForeignProvider),
        account(2, "Kraken:earn", Some(1), CustodyKind::Unclassified),
        account(3, "Mystery", None, CustodyKind::Unclassified),
        account(4, "Trezor", None, CustodyKind::SelfCustody),
    ]
}

/// BTC at 50000.00 every year; ETH has no price.
fn close(asset: Asset, _: Date) -> Option<Decimal> {
    (asset == btc()).then(|| Decimal::new(50_000, 0))
}

fn snapshot(year: i32, balances: Vec<YearEndBalance>) -> YearEndSnapshot {
    YearEndSnapshot { year, balances }
}

#[test]
fn custodians_sum_their_subtree_and_synthetic_balances_form_the_untracked_location() {
    let snapshots = [snapshot(
        2023,
        vec![
            balance(at(1), btc(), "0.5", "0"),
            balance(at(2), btc(), "0.6", "0"),
            balance(at(4), btc(), "-0.1", "0"),
            balance(HoldingAccount::OwnWallet, btc(), "0.2", "0"),
            balance(at(3), btc(), "0.01", "0.01"),
        ],
    )];
    let h = year_end_holdings(2023, &accounts(), &snapshots, &close, None).unwrap();
    insta::assert_snapshot!(render_year_end(&h), @r"
    year_end 2023
      Kraken null FOREIGN_PROVIDER
        BTC 1.1 55000.00
      Mystery null UNCLASSIFIED
        BTC 0.01 500.00 incomplete
      Trezor null SELF_CUSTODY
        BTC 0 0.00 incomplete
      UNTRACKED_LOCATION null UNCLASSIFIED
        BTC 0.2 10000.00
      721 REQUIRED_FIRST_TIME total 55000.00 last_filed null (null) window 2024-01-01 .. 2024-03-31
      714 total 65500.00 exceeds_2m false
        BTC 1.31 65500.00
    ");
}

#[test]
fn unclassified_or_unvalued_holdings_can_leave_the_decision_undetermined() {
    // 45000.00 in scope, 10000.00 unclassified: could exceed 50000.00.
    let snapshots = [snapshot(
        2023,
        vec![
            balance(at(1), btc(), "0.9", "0"),
            balance(at(3), btc(), "0.2", "0"),
        ],
    )];
    let h = year_end_holdings(2023, &accounts(), &snapshots, &close, None).unwrap();
    assert_eq!(h.modelo_721.decision.as_str(), "UNDETERMINED");
    // An unvalued in-scope entry (ETH, no price) with a total below the threshold.
    let snapshots = [snapshot(
        2023,
        vec![
            balance(at(1), btc(), "0.1", "0"),
            balance(at(1), eth(), "1", "0"),
        ],
    )];
    let h = year_end_holdings(2023, &accounts(), &snapshots, &close, None).unwrap();
    assert_eq!(h.modelo_721.decision.as_str(), "UNDETERMINED");
    assert_eq!(h.modelo_714.unvalued, vec![eth()]);
    // Already required: unvalued extras cannot change it.
    let snapshots = [snapshot(
        2023,
        vec![
            balance(at(1), btc(), "2", "0"),
            balance(at(1), eth(), "1", "0"),
        ],
    )];
    let h = year_end_holdings(2023, &accounts(), &snapshots, &close, None).unwrap();
    assert_eq!(h.modelo_721.decision.as_str(), "REQUIRED_FIRST_TIME");
    // An undetermined year stops the walk: later years stay undetermined.
    let snapshots = [
        snapshot(
            2023,
            vec![
                balance(at(1), btc(), "0.9", "0"),
                balance(at(3), btc(), "0.2", "0"),
            ],
        ),
        snapshot(2024, vec![balance(at(1), btc(), "0.1", "0")]),
    ];
    let h = year_end_holdings(2024, &accounts(), &snapshots, &close, None).unwrap();
    assert_eq!(h.modelo_721.decision.as_str(), "UNDETERMINED");
    // … until the last filing is given.
    let filed = Modelo721Filed {
        year: 2023,
        total: Decimal::new(45_000, 0),
    };
    let h = year_end_holdings(2024, &accounts(), &snapshots, &close, Some(&filed)).unwrap();
    assert_eq!(h.modelo_721.decision.as_str(), "NOT_REQUIRED");
    assert_eq!(h.modelo_721.last_filed_year, Some(2023));
}

#[test]
fn positions_of_the_last_filing_that_no_longer_exist_are_listed() {
    let snapshots = [
        snapshot(2023, vec![balance(at(1), btc(), "1.2", "0")]),
        snapshot(2024, vec![balance(at(4), btc(), "1.2", "0")]),
    ];
    let h = year_end_holdings(2024, &accounts(), &snapshots, &close, None).unwrap();
    assert_eq!(h.modelo_721.decision.as_str(), "NOT_REQUIRED");
    assert_eq!(h.modelo_721.last_filed_year, Some(2023));
    assert_eq!(
        h.modelo_721.vanished_positions,
        vec![("Kraken".to_owned(), btc())]
    );
}

#[test]
fn the_714_threshold_is_strictly_above_two_million() {
    let snapshots = [snapshot(2023, vec![balance(at(4), btc(), "40", "0")])];
    let h = year_end_holdings(2023, &accounts(), &snapshots, &close, None).unwrap();
    assert!(!h.modelo_714.crypto_alone_exceeds_2m);
    let snapshots = [snapshot(
        2023,
        vec![balance(at(4), btc(), "40.0000001", "0")],
    )];
    let h = year_end_holdings(2023, &accounts(), &snapshots, &close, None).unwrap();
    assert!(h.modelo_714.crypto_alone_exceeds_2m);
}
