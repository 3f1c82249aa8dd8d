use super::SplitMix64;

/// The reference sequence of SplitMix64 from seed 0.
#[test]
fn seed_zero_gives_the_reference_sequence() {
    let mut random = SplitMix64::new(0);
    assert_eq!(random.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(random.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    assert_eq!(random.below(0), 0);
}
