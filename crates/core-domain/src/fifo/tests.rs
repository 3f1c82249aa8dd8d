use proptest::prelude::*;

use rust_decimal::Decimal;

use super::{fast_cents_share, permute_in_place};
use crate::num;

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The in-place permutation equals the copying one.
    #[test]
    fn permute_in_place_matches_a_copy(keys in proptest::collection::vec(any::<u32>(), 0..200)) {
        let mut order: Vec<u32> = (0..keys.len() as u32).collect();
        order.sort_by_key(|&i| keys[i as usize]);
        let items: Vec<u32> = (0..keys.len() as u32).map(|i| i * 10).collect();
        let expected: Vec<u32> = order.iter().map(|&i| items[i as usize]).collect();
        let mut permuted = items.clone();
        permute_in_place(&mut permuted, &mut order);
        prop_assert_eq!(permuted, expected);
    }
}

/// The `Decimal` path of `cents_share`.
fn slow_share(amount: Decimal, part: Decimal, whole: Decimal) -> Decimal {
    let share = num::mul(amount, part, "test").unwrap();
    num::to_cents(num::div(share, whole, "test").unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whenever the integer share applies, it equals the `Decimal` path bit for bit (scale
    /// included), exact divisions and midpoints among the cases.
    #[test]
    fn fast_cents_share_equals_decimal(
        cents in prop_oneof![Just(0i64), -1_000_000_000_000i64..1_000_000_000_000],
        whole in 1i64..1_000_000_000_000_000_000,
        numerator in 0u32..=64,
        denominator in 1u32..=64,
        jitter in -2i64..=2,
        scale in 0u32..=18,
    ) {
        let amount = Decimal::new(cents, 2);
        let whole_quantity = Decimal::new(whole, scale);
        let raw_part = (i128::from(whole) * i128::from(numerator) / i128::from(denominator)
            + i128::from(jitter))
            .clamp(0, i128::from(whole));
        let part = Decimal::try_from_i128_with_scale(raw_part, scale).unwrap();
        if let Some(fast) = fast_cents_share(amount, part, whole_quantity) {
            let slow = slow_share(amount, part, whole_quantity);
            prop_assert_eq!(format!("{fast:?}"), format!("{slow:?}"));
        }
    }
}

#[test]
fn fast_cents_share_cases() {
    let d = |t: &str| num::parse_decimal("t", t, true).unwrap();
    for (amount, part, whole) in [
        ("10.00", "1", "2"),
        ("10.00", "0.50000000", "1.00000000"),
        ("0.05", "1", "2"),
        ("-0.05", "1", "2"),
        ("-0.01", "1", "3"),
        ("1234.56", "0.00000001", "3.00000000"),
        ("99999999.99", "123456789012345", "999999999999999"),
        ("0.00", "1", "7"),
        ("5.00", "0", "7"),
    ] {
        let (amount, part, whole) = (d(amount), d(part), d(whole));
        if let Some(fast) = fast_cents_share(amount, part, whole) {
            assert_eq!(
                format!("{fast:?}"),
                format!("{:?}", slow_share(amount, part, whole)),
                "{amount} × {part} ÷ {whole}"
            );
        }
    }
}

/// Prefaulted buffers are empty, with room for the input's lots, legs and slices; a run into
/// them leaves each output within the room written ahead on this ledger.
#[test]
fn prefaulted_buffers_are_empty_and_sized_from_the_input() {
    let ledger = crate::testkit::synthetic::synthetic(3_000, 11);
    let input = ledger.input();
    let buffers = super::EngineBuffers::prefaulted(&input);
    assert!(buffers.lots.is_empty() && buffers.operations.is_empty() && buffers.slices.is_empty());
    assert_eq!(buffers.lots.capacity(), input.rows.len());
    assert_eq!(buffers.operations.capacity(), input.rows.len());
    let (lots, legs) = super::buffers::expected_counts(&input);
    let market = ledger.market();
    let output = super::run_in(&input, &market, &super::EngineSettings::default(), buffers)
        .expect("engine runs");
    // The estimate follows the engine's rules: every lot opened by an acquisition is counted
    // (carried lots come on top), and every disposal leg is a crypto outflow or fee.
    let own_lots = output
        .lots
        .iter()
        .filter(|lot| lot.carried_from.is_none())
        .count();
    assert_eq!(own_lots, lots);
    assert!(
        output.operations.len() <= legs,
        "{} legs > {legs}",
        output.operations.len()
    );
    assert!(
        output.operations.len() * 10 >= legs * 9,
        "{} legs, {legs} expected",
        output.operations.len()
    );
}
