use serde_json::{Number, json};

use super::{Integral, integral, plain_decimal};

fn check_integral(text: &str, expected: Option<i64>) {
    let value: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let number = value
        .as_number()
        .cloned()
        .unwrap_or_else(|| Number::from(0));
    let got = match integral(&number) {
        Integral::Exact(n) => Some(n),
        Integral::Huge => Some(i64::MAX),
        Integral::Fractional => None,
    };
    assert_eq!(got, expected, "{text}");
}

#[test]
fn integral_values_are_read_from_the_number_text() {
    check_integral("2", Some(2));
    check_integral("2.0", Some(2));
    check_integral("2e3", Some(2000));
    check_integral("-1", Some(-1));
    check_integral("1.5", None);
    check_integral("2024.5", None);
    check_integral("1e-7", None);
    check_integral("0.0", Some(0));
    check_integral("18446744073709551615", Some(i64::MAX));
    check_integral("1e300", Some(i64::MAX));
}

#[test]
fn plain_decimals_follow_the_price_pattern() {
    for ok in ["0", "0.5", "70000", "123456789012345", "1.123456789012"] {
        assert!(plain_decimal(ok, 15, 12), "{ok}");
    }
    for bad in [
        "",
        ".5",
        "5.",
        "00.5",
        "-1",
        "1e5",
        "1234567890123456",
        "1.1234567890123",
        " 5",
    ] {
        assert!(!plain_decimal(bad, 15, 12), "{bad}");
    }
    let _ = json!(null);
}
