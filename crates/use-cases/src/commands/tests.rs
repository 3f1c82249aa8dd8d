//! Corrections over the fake store: each rejected input names the rule it breaks.

use core_domain::overrides::{Counterparty, CustodyLink};
use core_domain::testkit::{Ledger, buy, edit, instant, sell, transfer_in, transfer_out};
use shared_types::CustodyKind;
use shared_types::SpotTxType;

use super::*;
use crate::fake::Fake;
use crate::ports::FixedClock;
use crate::queries::{LedgerQueries, ReadUseCases, TxSearchRequest};

fn ledger() -> Ledger {
    Ledger::new()
        .row(
            buy("r1", "Kraken", "2023-01-01T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("20000", "EUR"),
        )
        .row(transfer_out("r2", "Kraken", "2023-02-01T10:00:00Z").outflow("0.5", "BTC"))
        .row(transfer_in("r3", "Ledger", "2023-02-01T10:30:00Z").inflow("0.5", "BTC"))
        .row(
            sell("r4", "Kraken", "2023-03-01T10:00:00Z")
                .inflow("100", "EUR")
                .outflow("0.001", "BTC"),
        )
}

fn check_setting(key: &str, value: &str, expected: Result<&str, &str>) {
    let mut fake = Fake::new(&ledger());
    let key = SettingKey::parse(key).unwrap();
    let got = set_setting(&mut fake, key, value).map_err(|e| e.to_string());
    assert_eq!(
        got.as_deref().map_err(String::as_str),
        expected,
        "{key} = {value}"
    );
}

#[test]
fn settings_are_validated_and_canonical() {
    check_setting(
        "fiscal_timezone",
        "\"Atlantic/Canary\"",
        Ok("\"Atlantic/Canary\""),
    );
    check_setting(
        "fiscal_timezone",
        "Atlantic/Canary",
        Err(
            "invalid setting fiscal_timezone: value is not JSON (expected value at line 1 column 1); strings need quotes",
        ),
    );
    check_setting(
        "display_currency",
        "\"GBP\"",
        Err("invalid setting display_currency: \"GBP\" is not EUR or USD"),
    );
    check_setting("irpf.start_year", "2021", Ok("2021"));
    check_setting(
        "irpf.start_year",
        "1990",
        Err("invalid setting irpf.start_year: start_year must be a year from 2009 to 9999"),
    );
    check_setting(
        "irpf.declared_carry_forwards",
        r#"[{"origin_year":2020,"kind":"SAVINGS_GP","amount":1200.5}]"#,
        Ok(r#"[{"amount":"1200.50","kind":"SAVINGS_GP","origin_year":2020}]"#),
    );
    check_setting(
        "irpf.declared_carry_forwards",
        r#"[{"origin_year":2020,"kind":"LOSS","amount":"1"}]"#,
        Err(
            "invalid setting irpf.declared_carry_forwards: kind \"LOSS\" is not SAVINGS_GP, SAVINGS_RCM or GENERAL_GP",
        ),
    );
    check_setting(
        "irpf.general_absorption",
        r#"{"2015":"10"}"#,
        Err(
            "invalid setting irpf.general_absorption: key \"2015\" is not 2013 or 2014 (only those years' negative general-base balances could be absorbed by other income)",
        ),
    );
    check_setting("irpf.art_33_5_warnings", "true", Ok("true"));
    check_setting(
        "irpf.non_currency_virtual_assets",
        r#"["nft", "ape"]"#,
        Ok(r#"["APE","NFT"]"#),
    );
    check_setting(
        "modelo_721.last_filed",
        r#"{"year":2023,"total":"60000"}"#,
        Ok(r#"{"total":"60000.00","year":2023}"#),
    );
    assert_eq!(SettingKey::parse("irpf.start"), None);
}

#[test]
fn declared_items_must_precede_start_year() {
    let mut fake = Fake::new(&ledger());
    set_setting(&mut fake, SettingKey::IrpfStartYear, "2021").unwrap();
    let err = set_setting(
        &mut fake,
        SettingKey::IrpfDeclaredCarryForwards,
        r#"[{"origin_year":2021,"kind":"SAVINGS_GP","amount":"5"}]"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid setting irpf.declared_carry_forwards: origin_year 2021 is not before irpf.start_year 2021 (a declared item comes from a return filed before the ledger)"
    );
    assert!(unset_setting(&mut fake, SettingKey::IrpfStartYear).unwrap());
    assert!(!unset_setting(&mut fake, SettingKey::IrpfStartYear).unwrap());
}

#[test]
fn account_custody_is_validated() {
    let mut fake = Fake::new(&ledger());
    set_account_custody(&mut fake, "kraken", "foreign_provider", Some("ie")).unwrap();
    let kraken = fake
        .snapshot
        .accounts
        .iter()
        .find(|a| a.name == "Kraken")
        .unwrap();
    assert_eq!(kraken.custody_kind, CustodyKind::ForeignProvider);
    assert_eq!(kraken.country.as_deref(), Some("IE"));
    let err = set_account_custody(&mut fake, "Kraken", "BANK", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid kind: \"BANK\" is not one of FOREIGN_PROVIDER, SPANISH_PROVIDER, SELF_CUSTODY, UNCLASSIFIED"
    );
    let err = set_account_custody(&mut fake, "Kraken", "SELF_CUSTODY", Some("Spain")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid country: \"Spain\" is not an ISO 3166-1 alpha-2 code"
    );
    let err = set_account_custody(&mut fake, "Bitstamp", "SELF_CUSTODY", None).unwrap_err();
    assert_eq!(err.to_string(), "account \"Bitstamp\" not found");
}

#[test]
fn overrides_are_validated_against_the_stored_row_and_bump_the_version() {
    let mut fake = Fake::new(&ledger());
    let err = record_override(&mut fake, &edit("zz").excluded().build(), None).unwrap_err();
    assert_eq!(err.to_string(), "row zz not found");
    let err = record_override(
        &mut fake,
        &edit("r4").tx_type(SpotTxType::Spend).build(),
        None,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "override of r4 is invalid: SPEND: in must be absent"
    );
    assert!(matches!(err, UseCaseError::Domain(_)), "{err}");
    record_override(
        &mut fake,
        &edit("r4").value("150", "EUR").build(),
        Some("the bank statement says 150"),
    )
    .unwrap();
    let q = LedgerQueries::new(fake, FixedClock(instant("2024-01-01T00:00:00Z")));
    let page = q
        .search_spot_transactions(&TxSearchRequest::default())
        .unwrap();
    let r4 = page.rows.iter().find(|r| r.row_key == "r4").unwrap();
    assert!(r4.edited);
    assert_eq!(r4.total_fiat.as_deref(), Some("150.00"));
    assert_eq!(r4.fiat_currency.as_deref(), Some("EUR"));
    let mut fake = q.into_store();
    restore_override(&mut fake, "r4").unwrap();
    assert_eq!(
        restore_override(&mut fake, "r4").unwrap_err().to_string(),
        "override of row r4 not found"
    );
}

#[test]
fn links_follow_domain_6_3() {
    let mut fake = Fake::new(&ledger());
    let err = link(&mut fake, "r3", &LinkTarget::InRow("r2".into())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "override of r3 is invalid: the first row must be a TRANSFER_OUT"
    );
    let made = link(&mut fake, "r2", &LinkTarget::InRow("r3".into())).unwrap();
    assert_eq!(
        made,
        CustodyLink::Link {
            out_row_key: "r2".into(),
            in_row_key: "r3".into()
        }
    );
    let err = link(&mut fake, "r2", &LinkTarget::Account("Ledger".into())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "override of r2 is invalid: the leg is already linked; unlink it first"
    );
    assert_eq!(unlink(&mut fake, "r3").unwrap(), 1);
    assert_eq!(
        unlink(&mut fake, "r3").unwrap_err().to_string(),
        "custody link of row r3 not found"
    );
    let err = link(
        &mut fake,
        "r2",
        &LinkTarget::Account("ownwallet-ETH".into()),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "override of r2 is invalid: ownwallet-ETH is not the own wallet of the leg's asset"
    );
    let made = link(
        &mut fake,
        "r2",
        &LinkTarget::Account("ownwallet-BTC".into()),
    )
    .unwrap();
    assert_eq!(
        made,
        CustodyLink::Counterparty {
            row_key: "r2".into(),
            counterparty: Counterparty::OwnWallet
        }
    );
    let err = link(&mut fake, "r4", &LinkTarget::Account("Ledger".into())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "override of r4 is invalid: only a TRANSFER_OUT or TRANSFER_IN leg names a counterparty"
    );
}

#[test]
fn the_display_language_setting_is_es_or_en() {
    check_setting("display_language", "\"es\"", Ok("\"es\""));
    check_setting("display_language", "\"EN\"", Ok("\"en\""));
    check_setting(
        "display_language",
        "\"fr\"",
        Err("invalid setting display_language: must be \"es\" or \"en\""),
    );
}

#[test]
fn the_label_map_setting_is_validated_and_canonical() {
    check_setting(
        "import.label_map",
        r#"["binance:card cashback=reward", "kraken-ledgers:earn bonus=STAKING"]"#,
        Ok(r#"["binance:card cashback=REWARD","kraken:earn bonus=STAKING"]"#),
    );
    check_setting("import.label_map", "[]", Ok("[]"));
    check_setting(
        "import.label_map",
        r#"["binance:Card=SWAP"]"#,
        Err(
            "invalid setting import.label_map: \"SWAP\" is not one of DEPOSIT, WITHDRAWAL, TRANSFER_IN, TRANSFER_OUT, STAKING, REWARD, AIRDROP, PROMOTION, MINING, FORK, SPEND, FEE",
        ),
    );
    check_setting(
        "import.label_map",
        r#"["binance:Card=REWARD", "binance:card=AIRDROP"]"#,
        Err(
            "invalid setting import.label_map: \"binance:card=AIRDROP\" maps a label mapped before",
        ),
    );
    // Account entries (D-155) sit beside label entries.
    check_setting(
        "import.label_map",
        r#"["binance:Account:Trading Bots=wallet", "binance:Card=REWARD"]"#,
        Ok(r#"["binance:account:Trading Bots=WALLET","binance:Card=REWARD"]"#),
    );
    check_setting(
        "import.label_map",
        r#"["binance:account:Bots=WALLET", "binance:account:BOTS=FUTURES"]"#,
        Err(
            "invalid setting import.label_map: \"binance:account:BOTS=FUTURES\" maps a Binance account mapped before",
        ),
    );
    check_setting(
        "import.label_map",
        r#"{"binance:Card": "REWARD"}"#,
        Err(
            "invalid setting import.label_map: must be a list of \"PROFILE:LABEL=TYPE\" strings such as \"binance:Card Cashback=REWARD\"",
        ),
    );
}
