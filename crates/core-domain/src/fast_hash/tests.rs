use super::FastHasher;

#[test]
fn fast_map_hashes_spread_ids_that_differ_late_over_the_low_bits() {
    use std::hash::BuildHasher as _;
    // Zero-padded ids (Coinbase's, Kraken's, KuCoin's): the map picks a bucket from the low
    // bits, so 4096 keys over 4096 buckets must land as a random hash would (≈ 2589 distinct,
    // 1 − 1/e of them); the Fx state unmixed put the first two shapes in 32 buckets and the
    // third in 317, each lookup then scanning a long probe chain (D-159).
    let build = std::hash::BuildHasherDefault::<FastHasher>::default();
    for shape in [
        |i: usize| format!("{i:024x}"),
        |i: usize| format!("L{i:05X}-A"),
        |i: usize| format!("2290000000000000{i:03}"),
    ] {
        let buckets: std::collections::BTreeSet<u64> =
            (0..4096).map(|i| build.hash_one(shape(i)) & 4095).collect();
        assert!(
            (2450..=2730).contains(&buckets.len()),
            "{} buckets for ids shaped like {}",
            buckets.len(),
            shape(7)
        );
    }
}
