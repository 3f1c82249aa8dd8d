use proptest::prelude::*;

use super::permute_in_place;

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
