//! Overrides, custody links and settings.

use core_domain::overrides::{Counterparty, CustodyLink, FeeEdit, RowOverride, ValueEdit};
use shared_types::SpotTxType;
use use_cases::PortError;
use use_cases::ports::{LedgerRead, LedgerWrite, SettingKey, SettingsStore};

use crate::support::{asset, dec, instant, memory};

fn full_override() -> RowOverride {
    RowOverride {
        row_key: "row-1".to_owned(),
        tx_type: Some(SpotTxType::Airdrop),
        instant: Some(instant("2024-05-05T05:05:05.5Z")),
        in_quantity: Some(dec("1.2300")),
        out_quantity: Some(dec("0.5")),
        fee: FeeEdit::Charged {
            asset: asset("EUR"),
            quantity: dec("0"),
        },
        edited_value: ValueEdit::Set {
            amount: dec("100.10"),
            currency: asset("USD"),
        },
        edited_price: ValueEdit::Clear,
        edited_fee_value: ValueEdit::Set {
            amount: dec("0.01"),
            currency: asset("EUR"),
        },
        excluded: true,
    }
}

#[test]
fn overrides_round_trip_and_restore() {
    let mut ledger = memory();
    let full = full_override();
    let minimal = RowOverride {
        row_key: "row-0".to_owned(),
        fee: FeeEdit::None,
        ..RowOverride::default()
    };
    ledger
        .set_override(&full, Some("bank statement says 100.10"))
        .unwrap();
    ledger.set_override(&minimal, None).unwrap();
    assert_eq!(ledger.ledger_version().unwrap(), 2);
    let stored = ledger.overrides().unwrap();
    assert_eq!(stored, vec![minimal.clone(), full.clone()]);
    assert_eq!(
        stored[1].in_quantity.map(|q| q.to_string()).as_deref(),
        Some("1.2300")
    );
    assert_eq!(
        ledger.override_notes().unwrap(),
        vec![("row-1".to_owned(), "bank statement says 100.10".to_owned())]
    );

    // Setting again replaces the whole override.
    let replaced = RowOverride {
        row_key: "row-1".to_owned(),
        excluded: true,
        ..RowOverride::default()
    };
    ledger.set_override(&replaced, None).unwrap();
    assert_eq!(ledger.overrides().unwrap(), vec![minimal, replaced]);
    assert!(ledger.override_notes().unwrap().is_empty());

    assert!(ledger.restore_override("row-1").unwrap());
    assert!(!ledger.restore_override("row-1").unwrap());
    assert_eq!(ledger.overrides().unwrap().len(), 1);
    assert_eq!(
        ledger.ledger_version().unwrap(),
        4,
        "a no-op restore does not bump"
    );
    assert!(matches!(
        ledger.set_override(&RowOverride::default(), None),
        Err(PortError::Invalid { .. })
    ));
}

#[test]
fn custody_links_round_trip_and_refuse_a_linked_leg() {
    let mut ledger = memory();
    let account = ledger.ensure_account("Ledger").unwrap();
    let link = CustodyLink::Link {
        out_row_key: "out-1".to_owned(),
        in_row_key: "in-1".to_owned(),
    };
    let to_account = CustodyLink::Counterparty {
        row_key: "out-2".to_owned(),
        counterparty: Counterparty::Account(account),
    };
    let to_own_wallet = CustodyLink::Counterparty {
        row_key: "out-3".to_owned(),
        counterparty: Counterparty::OwnWallet,
    };
    for l in [&link, &to_account, &to_own_wallet] {
        ledger.link(l).unwrap();
    }
    assert_eq!(
        ledger.custody_links().unwrap(),
        vec![link.clone(), to_account, to_own_wallet]
    );
    assert_eq!(ledger.ledger_version().unwrap(), 4);

    for conflict in [
        CustodyLink::Link {
            out_row_key: "in-1".to_owned(),
            in_row_key: "in-9".to_owned(),
        },
        CustodyLink::Counterparty {
            row_key: "out-1".to_owned(),
            counterparty: Counterparty::OwnWallet,
        },
    ] {
        assert!(matches!(
            ledger.link(&conflict),
            Err(PortError::Conflict { .. })
        ));
    }
    assert!(matches!(
        ledger.link(&CustodyLink::Counterparty {
            row_key: "out-9".to_owned(),
            counterparty: Counterparty::Account(core_domain::AccountId(42)),
        }),
        Err(PortError::NotFound { .. })
    ));
    assert!(matches!(
        ledger.link(&CustodyLink::Link {
            out_row_key: "x".to_owned(),
            in_row_key: "x".to_owned(),
        }),
        Err(PortError::Invalid { .. })
    ));
    assert_eq!(ledger.ledger_version().unwrap(), 4);

    // Unlinking by either leg removes the link.
    assert_eq!(ledger.unlink("in-1").unwrap(), 1);
    assert_eq!(ledger.unlink("in-1").unwrap(), 0);
    assert_eq!(ledger.custody_links().unwrap().len(), 2);
    assert_eq!(ledger.ledger_version().unwrap(), 5);
    ledger.link(&link).unwrap();
}

#[test]
fn settings_round_trip_in_canonical_order() {
    let mut ledger = memory();
    assert_eq!(ledger.setting(SettingKey::FiscalTimezone).unwrap(), None);
    ledger
        .set_setting(
            SettingKey::IrpfDeclaredCarryForwards,
            r#"[{"origin_year":2021,"kind":"SAVINGS_GP","amount":"120.50"}]"#,
        )
        .unwrap();
    ledger
        .set_setting(SettingKey::FiscalTimezone, "\"Atlantic/Canary\"")
        .unwrap();
    ledger
        .set_setting(SettingKey::IrpfStartYear, "2019")
        .unwrap();
    assert_eq!(ledger.ledger_version().unwrap(), 3);
    ledger
        .set_setting(SettingKey::IrpfStartYear, "2019")
        .unwrap();
    assert_eq!(ledger.ledger_version().unwrap(), 3, "same value, no bump");
    ledger
        .set_setting(SettingKey::IrpfStartYear, "2020")
        .unwrap();
    let keys: Vec<(&str, String)> = ledger
        .settings()
        .unwrap()
        .into_iter()
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    assert_eq!(
        keys,
        [
            ("fiscal_timezone", "\"Atlantic/Canary\"".to_owned()),
            ("irpf.start_year", "2020".to_owned()),
            (
                "irpf.declared_carry_forwards",
                r#"[{"origin_year":2021,"kind":"SAVINGS_GP","amount":"120.50"}]"#.to_owned()
            ),
        ]
    );
    assert!(ledger.unset_setting(SettingKey::IrpfStartYear).unwrap());
    assert!(!ledger.unset_setting(SettingKey::IrpfStartYear).unwrap());
    assert_eq!(ledger.setting(SettingKey::IrpfStartYear).unwrap(), None);
    assert_eq!(ledger.ledger_version().unwrap(), 5);
    for key in SettingKey::ALL {
        assert_eq!(SettingKey::parse(key.as_str()), Some(*key));
    }
    assert_eq!(SettingKey::parse("FISCAL_TIMEZONE"), None);
}
