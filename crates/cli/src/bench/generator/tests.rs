use super::*;

#[test]
fn scaled_amounts_drop_trailing_zeros() {
    let check = |value: i64, scale: u32, expected: &str| {
        let mut out = String::new();
        push_scaled(&mut out, value, scale);
        assert_eq!(out, expected);
    };
    check(150_000_000, 8, "1.5");
    check(1, 8, "0.00000001");
    check(1_200, 2, "12");
    check(-5, 2, "-0.05");
    check(0, 8, "0");
}

#[test]
fn fixed_amounts_keep_their_width() {
    let mut out = String::new();
    push_fixed(&mut out, -60_000, 4);
    assert_eq!(out, "-6.0000");
}

#[test]
fn prices_are_positive_and_deterministic() {
    for index in [0, 1, 8, 9, 10, 1999] {
        for day in [0, 1, 2000, DAYS - 1] {
            let price = price_micro(index, day);
            assert!(price > 0, "asset {index} day {day}");
            assert_eq!(price, price_micro(index, day));
        }
    }
    // USDT is pinned at 1 of its quote currency.
    assert_eq!(price_micro(8, 1234), 1_000_000);
}

#[test]
fn shape_follows_size_and_seed() {
    assert_eq!(Shape::new(10_000, 0).accounts, 3);
    assert_eq!(Shape::new(10_000, 22).accounts, 25);
    assert_eq!(Shape::new(10_000, 1).assets, 20);
    assert_eq!(Shape::new(1_000_000, 1).assets, 2000);
    assert_eq!(Shape::new(100_000, 1).assets, 200);
}

#[test]
fn kraken_codes_use_the_alias_table_backwards() {
    assert_eq!(kraken_code("BTC"), "XXBT");
    assert_eq!(kraken_code("EUR"), "ZEUR");
    assert_eq!(kraken_code("TK0042"), "TK0042");
}
