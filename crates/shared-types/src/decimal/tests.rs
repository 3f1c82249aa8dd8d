use super::is_decimal_string;

fn check(text: &str, allow_sign: bool, expected: bool) {
    assert_eq!(is_decimal_string(text, allow_sign), expected, "{text:?}");
}

#[test]
fn grammar_of_domain_1_1() {
    for valid in [
        "0",
        "5",
        "1.5",
        "-0",
        "-0.00",
        "-80.00",
        "4970.00",
        "0.000012345678",
    ] {
        check(valid, true, true);
    }
    for invalid in ["1e3", "+1", ".5", "5.", " 5", "1,5", "", "-", "1.2.3", "١"] {
        check(invalid, true, false);
    }
    check("-1", false, false);
    check("0.0000000000000000000000000001", false, true);
    check("0.00000000000000000000000000001", false, false);
}
