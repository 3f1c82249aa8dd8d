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

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// The fast rounding path equals rust_decimal's rounding bit for bit (scale included).
    #[test]
    fn fast_rounding_equals_rust_decimal(
        mantissa in proptest::prelude::any::<i64>(),
        high in 0i64..=1_000_000_000,
        scale in 0u32..=28,
        target in 0u32..=18,
    ) {
        for raw in [i128::from(mantissa), i128::from(mantissa) * i128::from(high)] {
            let Ok(value) = Decimal::try_from_i128_with_scale(raw, scale) else {
                continue;
            };
            let mut expected = value.round_dp_with_strategy(target, HALF_UP);
            if expected.is_zero() {
                expected.set_sign_positive(true);
            }
            let actual = round_half_up(value, target);
            proptest::prop_assert_eq!(format!("{actual:?}"), format!("{expected:?}"));
            proptest::prop_assert_eq!(actual.scale(), expected.scale());
        }
    }
}

#[test]
fn fast_rounding_midpoints_and_extremes() {
    for (value, scale) in [
        ("2.345", 2),
        ("-2.345", 2),
        ("2.344999999999999999999999999", 2),
        ("-0.005", 2),
        ("-0.004", 2),
        ("0.0000000000000000000000000005", 2),
        ("79228162514264337593543950335", 0),
        ("7922816251426433759354395033.5", 0),
        ("-7922816251426433759354395033.5", 0),
        ("0.5000000000000000000000000000", 0),
        ("1.50", 1),
    ] {
        let value = d(value);
        let mut expected = value.round_dp_with_strategy(scale, HALF_UP);
        if expected.is_zero() {
            expected.set_sign_positive(true);
        }
        let actual = round_half_up(value, scale);
        assert_eq!(
            format!("{actual:?}"),
            format!("{expected:?}"),
            "{value} to {scale}"
        );
    }
}

#[test]
fn values_keep_the_import_bound_of_fifteen_digits() {
    assert_eq!(VALUE_LIMIT.to_string(), "1000000000000000");
    assert_eq!(
        within_limit(d("999999999999999.99")),
        Some(d("999999999999999.99"))
    );
    assert_eq!(
        within_limit(d("-999999999999999.99")),
        Some(d("-999999999999999.99"))
    );
    assert_eq!(within_limit(d("1000000000000000")), None);
    assert_eq!(within_limit(d("-1000000000000000.00")), None);
    // A product a decimal cannot hold and one it holds but beyond the bound: both out of range.
    assert_eq!(
        cents_product(d("999999999999999"), d("999999999999999")),
        None
    );
    assert_eq!(cents_product(d("99999999"), d("99999999")), None);
    assert_eq!(cents_product(d("0.001"), d("12345.678")), Some(d("12.35")));
    // The mantissa test agrees with a decimal comparison at every scale.
    for text in [
        "999999999999999.9999999999999",
        "1000000000000000.0000000000000",
        "-999999999999999.999999",
        "0.0000000000000000000000000001",
        "79228162514264337593543950335",
        "7922816251426433759354.3950335",
    ] {
        let value = d(text);
        assert_eq!(
            within_limit(value).is_some(),
            value.abs() < VALUE_LIMIT,
            "{text}"
        );
    }
    // Rounding to cents happens before the bound: 999999999999999.994 rounds down within it.
    assert_eq!(
        cents_product(d("999999999999999.994"), d("1")),
        Some(d("999999999999999.99"))
    );
}
