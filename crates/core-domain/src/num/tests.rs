use rust_decimal::Decimal;

use super::*;

fn d(text: &str) -> Decimal {
    parse_decimal("test", text, true).unwrap()
}

fn check(value: &str, class: OutputClass, expected: &str) {
    assert_eq!(format(d(value), class), expected, "{value} as {class:?}");
}

#[test]
fn output_classes_of_domain_1_3() {
    check("4970", OutputClass::Fiat, "4970.00");
    check("-80", OutputClass::Fiat, "-80.00");
    check("2.345", OutputClass::Fiat, "2.35");
    check("-2.345", OutputClass::Fiat, "-2.35");
    check("-0.001", OutputClass::Fiat, "0.00");
    check("15000.000000000000", OutputClass::UnitPrice, "15000");
    check("0.0000123456784", OutputClass::UnitPrice, "0.000012345678");
    check("0.0000123456785", OutputClass::UnitPrice, "0.000012345679");
    check("0.49990", OutputClass::Quantity, "0.4999");
    check("1500", OutputClass::Quantity, "1500");
    check("100.00", OutputClass::Quantity, "100");
    check("58.3333", OutputClass::Percent, "58.33");
    check("0.285", OutputClass::Ratio, "0.2850");
    check("-0.015873", OutputClass::Ratio, "-0.0159");
    check("1.06460", OutputClass::Rate, "1.0646");
    check("-0.00", OutputClass::Quantity, "0");
}

#[test]
fn parsing_follows_the_wire_grammar() {
    assert_eq!(d("-0.00").to_string(), "0.00");
    assert!(!d("-0").is_sign_negative());
    for bad in ["1e3", "+1", ".5", "5.", " 5", "1,5", "", "1_000"] {
        assert!(parse_decimal("f", bad, true).is_err(), "{bad}");
    }
    assert!(parse_decimal("f", "-1", false).is_err());
    // Longer than rust_decimal can hold: refused, never silently rounded.
    assert!(parse_decimal("f", "79228162514264337593543950336", false).is_err());
    assert!(parse_decimal("f", "0.00000000000000000000000000001", false).is_err());
}

#[test]
fn checked_arithmetic_reports_overflow_as_a_value() {
    let big = Money::new(Decimal::MAX);
    assert_eq!(
        big.checked_add(Money::new(Decimal::ONE)),
        Err(DomainError::ArithmeticOverflow {
            context: "money".to_owned()
        })
    );
    assert!(matches!(
        div(Decimal::ONE, Decimal::ZERO, "x"),
        Err(DomainError::DivisionByZero { .. })
    ));
}

#[test]
fn cents_round_half_up_once() {
    assert_eq!(Money::cents(d("3280.177")).to_fiat_string(), "3280.18");
    assert_eq!(Money::cents(d("33.335")).to_fiat_string(), "33.34");
    assert!(is_cents(d("33.3400")));
    assert!(!is_cents(d("33.335")));
    assert_eq!(Money::new(d("0")).negated().to_fiat_string(), "0.00");
}
