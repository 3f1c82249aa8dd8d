use super::*;

#[test]
fn decimals_follow_the_grammar_and_range() {
    assert_eq!(norm(parse_decimal("0.0062000000").unwrap()), "0.0062");
    assert_eq!(norm(parse_decimal("600.0000").unwrap()), "600");
    assert_eq!(norm(parse_decimal("-0.000").unwrap()), "0");
    assert_eq!(norm(parse_decimal("+5").unwrap()), "5");
    for bad in ["1e-8", "1,5", ".5", "5.", "", "-", "1 2", "0x1"] {
        assert_eq!(parse_decimal(bad), Err(NumError::Bad), "{bad}");
    }
    assert_eq!(
        parse_decimal("0.00000000000000000000000000001"),
        Err(NumError::Range)
    );
    assert_eq!(
        parse_decimal("12345678901234567890123456789"),
        Err(NumError::Range)
    );
    assert_eq!(
        parse_decimal("0.1234567890123456789012345678")
            .unwrap()
            .to_string(),
        "0.1234567890123456789012345678"
    );
}

#[test]
fn identities_are_sha256_hex() {
    assert_eq!(
        sha256_hex("v1\u{1f}kraken-ledgers\u{1f}txid\u{1f}LQ4Y2H-5NTRW-ZQ7E3D"),
        "ae3475ee58782dc0d75ffea1d29e13ef0909d668888189012ae3991529594dc6"
    );
}

#[test]
fn stamps_and_zones() {
    let s = parse_stamp("2024-11-02T10:15:00+01:00", b"T ", false, true).unwrap();
    assert_eq!(s.zone, Some(Zone::Fixed(3600)));
    assert!(
        parse_stamp("2024-11-02T10:15:60Z", b"T ", false, true)
            .map(|s| s.local)
            .is_none()
    );
    assert!(parse_time("10:00:00.1234567891").is_none());
    assert_eq!(parse_zone("-06:00"), Some(Zone::Fixed(-21600)));
    assert!(matches!(parse_zone("Europe/Madrid"), Some(Zone::Iana(_))));
    assert_eq!(parse_zone("Mars/Olympus"), None);
    assert_eq!(segment(" Spot / Main "), "spot");
}

#[test]
fn fast_instant_formatting_matches_display() {
    for text in [
        "2009-01-01T00:00:00Z",
        "2024-02-29T23:59:59.5Z",
        "2025-03-14T17:20:41.118Z",
        "2099-12-31T01:02:03.000000001Z",
        "2000-03-01T00:00:00Z",
    ] {
        let i = Instant::parse(text).unwrap();
        let mut s = String::new();
        crate::pipeline::push_instant(&mut s, i);
        assert_eq!(s, text);
        assert_eq!(i.to_string(), text);
    }
}

#[test]
fn exponent_notation_is_read_exactly_and_bounded() {
    let read = |t: &str| parse_decimal_exp(t).map(norm);
    assert_eq!(read("-3.605E-05"), Ok("-0.00003605".to_owned()));
    assert_eq!(read("3.8E-7"), Ok("0.00000038".to_owned()));
    assert_eq!(read("-5.4E-7"), Ok("-0.00000054".to_owned()));
    assert_eq!(read("1.5e3"), Ok("1500".to_owned()));
    assert_eq!(read("2E+2"), Ok("200".to_owned()));
    assert_eq!(read("0E-30"), Err(NumError::Range));
    assert_eq!(read("0.00000000E-8"), Ok("0".to_owned()));
    assert_eq!(read("12.5"), Ok("12.5".to_owned()));
    // 0.1 has no exact binary float: the digits are shifted, not converted.
    assert_eq!(read("1E-1"), Ok("0.1".to_owned()));
    assert_eq!(
        read("1E-28"),
        Ok("0.0000000000000000000000000001".to_owned())
    );
    assert_eq!(
        read("123456789.123E-25"),
        Ok("0.0000000000000000123456789123".to_owned())
    );
    for range in ["1E-29", "1E+29", "1E999", "1.5E-28"] {
        assert_eq!(parse_decimal_exp(range), Err(NumError::Range), "{range}");
    }
    for bad in [
        "1E", "1E-", "E5", "1e5.5", "1E1000", "1.E5", "1e--5", "1e5e5", " 1e5",
    ] {
        assert_eq!(parse_decimal_exp(bad), Err(NumError::Bad), "{bad}");
    }
}

#[test]
fn fast_map_hashes_spread_ids_that_differ_late_over_the_low_bits() {
    use std::hash::BuildHasher as _;
    // Zero-padded ids (Coinbase's, Kraken's, KuCoin's): the map picks a bucket from the low
    // bits, so 4096 keys over 4096 buckets must land as a random hash would (≈ 2589 distinct,
    // 1 − 1/e of them); the Fx state unmixed put the first two shapes in 32 buckets and the
    // third in 317, each lookup then scanning a long probe chain (D-159).
    let build = std::hash::BuildHasherDefault::<FxHasher>::default();
    for shape in [
        |i: usize| format!("{i:024x}"),
        |i: usize| format!("L{i:05X}-A"),
        |i: usize| format!("2290000000000000{i:03}"),
    ] {
        let buckets: std::collections::HashSet<u64> =
            (0..4096).map(|i| build.hash_one(shape(i)) & 4095).collect();
        assert!(
            (2450..=2730).contains(&buckets.len()),
            "{} buckets for ids shaped like {}",
            buckets.len(),
            shape(7)
        );
    }
}
