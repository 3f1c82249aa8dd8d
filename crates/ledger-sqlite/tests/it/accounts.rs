//! Accounts: creation from imports, case-insensitive names, parents, custody settings.

use core_domain::AccountId;
use shared_types::CustodyKind;
use use_cases::PortError;
use use_cases::ports::{LedgerRead, LedgerWrite};

use crate::support::{batch, buy, memory};

#[test]
fn accounts_match_case_insensitively_and_keep_the_first_spelling() {
    let mut ledger = memory();
    let outcome = ledger
        .write_import_batch(&batch(
            "x.csv",
            vec![
                buy("a", "Kraken:spot", "2024-01-01T00:00:00Z", 2),
                buy("b", "KRAKEN:Spot", "2024-01-02T00:00:00Z", 3),
                buy("c", "kraken", "2024-01-03T00:00:00Z", 4),
                buy("d", "  Ledger:cold ", "2024-01-04T00:00:00Z", 5),
            ],
        ))
        .unwrap();
    assert_eq!(
        outcome.created_accounts,
        ["Kraken", "Kraken:spot", "Ledger", "Ledger:cold"]
    );
    let accounts = ledger.accounts().unwrap();
    let tree: Vec<(u32, &str, Option<u32>)> = accounts
        .iter()
        .map(|a| (a.id.0, a.name.as_str(), a.parent_id.map(|p| p.0)))
        .collect();
    assert_eq!(
        tree,
        [
            (1, "Kraken", None),
            (2, "Kraken:spot", Some(1)),
            (3, "Ledger", None),
            (4, "Ledger:cold", Some(3)),
        ]
    );
    let rows = ledger.spot_rows().unwrap();
    let booked: Vec<u32> = rows.iter().map(|r| r.account_id.0).collect();
    assert_eq!(booked, [2, 2, 1, 4]);
    assert!(
        accounts
            .iter()
            .all(|a| a.custody_kind == CustodyKind::Unclassified && a.country.is_none())
    );
}

#[test]
fn bad_account_names_are_refused() {
    let mut ledger = memory();
    for bad in ["", "   ", "OwnWallet-BTC", "tab\there", &"x".repeat(65)] {
        let err = ledger.ensure_account(bad).unwrap_err();
        assert!(matches!(err, PortError::Invalid { .. }), "{bad:?}: {err:?}");
    }
    assert_eq!(
        ledger.ensure_account(&"é".repeat(64)).unwrap(),
        AccountId(1)
    );
    assert_eq!(
        ledger.ensure_account(&"É".repeat(64)).unwrap(),
        AccountId(1)
    );
}

#[test]
fn custody_kind_and_country_round_trip() {
    let mut ledger = memory();
    let id = ledger.ensure_account("Bitvavo").unwrap();
    assert_eq!(ledger.ledger_version().unwrap(), 1);
    assert_eq!(ledger.ensure_account("bitvavo").unwrap(), id);
    assert_eq!(
        ledger.ledger_version().unwrap(),
        1,
        "no new account, no bump"
    );
    ledger
        .set_account_custody(id, CustodyKind::ForeignProvider, Some("NL"))
        .unwrap();
    assert_eq!(ledger.ledger_version().unwrap(), 2);
    let account = &ledger.accounts().unwrap()[0];
    assert_eq!(account.custody_kind, CustodyKind::ForeignProvider);
    assert_eq!(account.country.as_deref(), Some("NL"));
    ledger
        .set_account_custody(id, CustodyKind::SelfCustody, None)
        .unwrap();
    let account = &ledger.accounts().unwrap()[0];
    assert_eq!(account.custody_kind, CustodyKind::SelfCustody);
    assert_eq!(account.country, None);

    assert!(matches!(
        ledger.set_account_custody(id, CustodyKind::SpanishProvider, Some("es")),
        Err(PortError::Invalid { .. })
    ));
    assert!(matches!(
        ledger.set_account_custody(AccountId(99), CustodyKind::SpanishProvider, Some("ES")),
        Err(PortError::NotFound { .. })
    ));
    assert_eq!(ledger.ledger_version().unwrap(), 3);
}
