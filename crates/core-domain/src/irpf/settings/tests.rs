use rust_decimal::Decimal;

use super::{CarryKind, DeclaredCarryForward, IrpfSettings, Modelo721Filed, validate};
use crate::error::DomainError;

fn declared(origin_year: i32, amount: &str) -> DeclaredCarryForward {
    DeclaredCarryForward {
        origin_year,
        kind: CarryKind::SavingsGp,
        amount: amount.parse().unwrap(),
    }
}

fn check_invalid(settings: &IrpfSettings, start_year: i32, key: &str) {
    match validate(settings, start_year) {
        Err(DomainError::InvalidSetting { key: k, .. }) => assert_eq!(k, key),
        other => panic!("expected InvalidSetting {key}, got {other:?}"),
    }
}

#[test]
fn declared_items_expire_before_start_minus_four_and_must_precede_start() {
    let settings = IrpfSettings {
        declared_carry_forwards: vec![declared(2011, "10.00"), declared(2012, "20.00")],
        ..IrpfSettings::default()
    };
    let valid = validate(&settings, 2016).unwrap();
    assert!(valid.declared_expired);
    assert_eq!(valid.declared, vec![declared(2012, "20.00")]);
    let valid = validate(&settings, 2015).unwrap();
    assert!(!valid.declared_expired);
    assert_eq!(valid.declared.len(), 2);
    check_invalid(&settings, 2012, "irpf.declared_carry_forwards");
    let zero = IrpfSettings {
        declared_carry_forwards: vec![declared(2014, "0")],
        ..IrpfSettings::default()
    };
    check_invalid(&zero, 2016, "irpf.declared_carry_forwards");
    let fraction = IrpfSettings {
        declared_carry_forwards: vec![declared(2014, "1.005")],
        ..IrpfSettings::default()
    };
    check_invalid(&fraction, 2016, "irpf.declared_carry_forwards");
}

#[test]
fn general_absorption_accepts_only_2013_and_2014() {
    let ok = IrpfSettings {
        general_absorption: vec![(2013, Decimal::new(2000, 2)), (2014, Decimal::ZERO)],
        ..IrpfSettings::default()
    };
    let valid = validate(&ok, 2013).unwrap();
    assert_eq!(valid.absorption(2013), Some(Decimal::new(2000, 2)));
    assert_eq!(valid.absorption(2014), Some(Decimal::ZERO));
    assert_eq!(valid.absorption(2015), None);
    for bad in [
        vec![(2015, Decimal::ONE)],
        vec![(2013, Decimal::ONE), (2013, Decimal::ONE)],
        vec![(2013, Decimal::NEGATIVE_ONE)],
    ] {
        let settings = IrpfSettings {
            general_absorption: bad,
            ..IrpfSettings::default()
        };
        check_invalid(&settings, 2013, "irpf.general_absorption");
    }
}

#[test]
fn last_filed_721_must_be_2023_or_later() {
    let settings = IrpfSettings {
        modelo_721_last_filed: Some(Modelo721Filed {
            year: 2022,
            total: Decimal::ONE,
        }),
        ..IrpfSettings::default()
    };
    check_invalid(&settings, 2022, "modelo_721.last_filed");
}

#[test]
fn carry_kinds_round_trip() {
    for kind in [
        CarryKind::SavingsGp,
        CarryKind::SavingsRcm,
        CarryKind::GeneralGp,
    ] {
        assert_eq!(CarryKind::parse(kind.as_str()), Some(kind));
    }
    assert_eq!(CarryKind::parse("savings_gp"), None);
}
