use rust_decimal::Decimal;

use rusqlite::types::ValueRef;

use super::{StoredKey, decimal_text, key_col, parse_decimal};

fn check(text: &str, expected: Option<&str>) {
    let parsed = parse_decimal(text.as_bytes()).map(|d| d.to_string());
    assert_eq!(parsed.as_deref(), expected, "{text}");
}

#[test]
fn stored_decimals_parse_exactly() {
    check("0", Some("0"));
    check("1.50", Some("1.50"));
    check("-0.000001", Some("-0.000001"));
    check("600.0000", Some("600.0000"));
    check(
        "79228162514264337593543950335",
        Some("79228162514264337593543950335"),
    );
    check(
        "0.0000000000000000000000000001",
        Some("0.0000000000000000000000000001"),
    );
    check("79228162514264337593543950336", None);
    check("0.00000000000000000000000000001", None);
    for bad in ["", "-", ".5", "5.", "1e5", "1,5", "+1", "1.2.3", " 1"] {
        check(bad, None);
    }
}

#[test]
fn written_text_keeps_scale_and_drops_the_sign_of_zero() {
    let minus_zero = Decimal::from_str_exact("-0.00").unwrap();
    assert_eq!(decimal_text(minus_zero), "0.00");
    assert_eq!(
        decimal_text(Decimal::from_str_exact("-2.50").unwrap()),
        "-2.50"
    );
}

#[test]
fn hex_digests_are_stored_as_bytes_and_read_back_as_text() {
    let digest = "ae3475ee58782dc0d75ffea1d29e13ef0909d668888189012ae3991529594dc6";
    let StoredKey::Digest(bytes) = StoredKey::new(digest) else {
        panic!("a digest is stored as bytes");
    };
    assert_eq!(key_col(ValueRef::Blob(&bytes)).unwrap(), digest);
    for other in [
        "row-1",
        "AE3475EE58782DC0D75FFEA1D29E13EF0909D668888189012AE3991529594DC6",
        "ge3475ee58782dc0d75ffea1d29e13ef0909d668888189012ae3991529594dc6",
    ] {
        assert!(matches!(StoredKey::new(other), StoredKey::Text(t) if t == other));
    }
}
