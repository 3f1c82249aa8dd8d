use super::*;

fn d(text: &str) -> Decimal {
    values::parse_decimal(text).unwrap()
}

#[test]
fn float_noise_is_read_at_the_exchange_precision() {
    assert_eq!(denoise(d("-32.156874000000003")), d("-32.156874"));
    assert_eq!(denoise(d("1234567.1234567799")), d("1234567.12345678"));
    assert_eq!(denoise(d("0.30000000000000004")), d("0.3"));
    // Short cells are never touched, even beyond eight decimals.
    assert_eq!(denoise(d("0.123456789")).to_string(), "0.123456789");
    // Long cells whose extra digits are not noise are kept exactly.
    assert_eq!(
        denoise(d("1.123456789012345678")).to_string(),
        "1.123456789012345678"
    );
    assert_eq!(denoise(d("-32.15")).to_string(), "-32.15");
}
