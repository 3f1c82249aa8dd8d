use proptest::prelude::*;
use rust_decimal::Decimal;
use shared_types::CustodyKind;

use super::*;
use crate::ledger::AccountId;

fn d(text: &str) -> Decimal {
    crate::num::parse_decimal("test", text, true).unwrap()
}

fn check_rank(
    items: &[(&str, Option<&str>)],
    top_n: usize,
    ranked: &[&str],
    omitted: usize,
    unvalued: &[&str],
) {
    let out = rank_by_value(items.iter().copied(), |(_, v)| v.map(d), top_n);
    let names: Vec<&str> = out.ranked.iter().map(|(n, _)| *n).collect();
    let un: Vec<&str> = out.unvalued.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ranked);
    assert_eq!(out.omitted_count, omitted);
    assert_eq!(un, unvalued);
}

#[test]
fn d15_rank_by_value() {
    check_rank(
        &[
            ("a", Some("100")),
            ("b", None),
            ("c", Some("300")),
            ("d", Some("100")),
        ],
        2,
        &["c", "a"],
        1,
        &["b"],
    );
    // Equal values keep input order all the way down.
    check_rank(
        &[
            ("a", Some("100")),
            ("b", None),
            ("c", Some("300")),
            ("d", Some("100")),
        ],
        10,
        &["c", "a", "d"],
        0,
        &["b"],
    );
}

#[test]
fn d15_rank_by_absolute_value() {
    let items = [
        ("SMALL", "5"),
        ("BIGLOSS", "-900"),
        ("MID", "300"),
        ("TINY", "-1"),
    ];
    let out = rank_by_absolute_value(items, |(_, v)| d(v), 2);
    let names: Vec<&str> = out.ranked.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["BIGLOSS", "MID"]);
    assert_eq!(out.omitted_count, 2);
}

#[test]
fn date_then_key_ordering_is_stable() {
    let mut keyed = [
        ("k2", "2024-01-02"),
        ("k9", "2024-03-01"),
        ("k1", "2024-01-02"),
    ];
    order_by_date_descending_then_key(&mut keyed, |x| x.1, |x| x.0);
    assert_eq!(keyed.map(|x| x.0), ["k9", "k1", "k2"]);
}

#[test]
fn pages() {
    let items: Vec<u32> = (0..7).collect();
    let p = page(&items, 0, 3);
    assert_eq!((p.items, p.total_count), (&[0, 1, 2][..], 7));
    assert_eq!(page(&items, 2, 3).items, &[6]);
    assert!(page(&items, 3, 3).items.is_empty());
    assert!(page(&items, usize::MAX, usize::MAX).items.is_empty());
    assert!(page(&items, 0, 0).items.is_empty());
}

fn check_downsample(n: usize, max: usize, expected: &[usize], omitted: usize) {
    let series: Vec<usize> = (0..n).collect();
    let out = downsample(&series, max).unwrap();
    assert_eq!(out.indices, expected);
    assert_eq!(out.points, expected);
    assert_eq!(out.omitted_count, omitted);
}

#[test]
fn d15_downsampling() {
    check_downsample(10, 4, &[0, 3, 6, 9], 6);
    check_downsample(10, 5, &[0, 2, 4, 6, 9], 5);
    let mut expected: Vec<usize> = (0..119).map(|i| i * 364 / 119).collect();
    expected.push(364);
    assert_eq!(&expected[..4], &[0, 3, 6, 9]);
    assert_eq!(&expected[117..], &[357, 360, 364]);
    check_downsample(365, 120, &expected, 245);
    let all: Vec<usize> = (0..50).collect();
    check_downsample(50, 120, &all, 0);
    assert!(downsample(&all, 1).is_err());
}

#[test]
fn downsample_never_inspects_values() {
    let series = vec![None, Some(1), None, None, Some(2)];
    let out = downsample(&series, 3).unwrap();
    assert_eq!(out.points, [None, None, Some(2)]);
}

fn account(id: u32, name: &str, parent: Option<u32>) -> Account {
    Account {
        id: AccountId(id),
        name: name.to_owned(),
        parent_id: parent.map(AccountId),
        custody_kind: CustodyKind::Unclassified,
        country: None,
    }
}

#[test]
fn account_resolution() {
    let accounts = vec![
        account(1, "Kraken", None),
        account(2, "Kraken:spot", Some(1)),
        account(3, "Kraken:earn", Some(1)),
        account(4, "binance", None),
        account(5, "ownwallet-BTC", None),
        account(6, "Bitvavo", None),
    ];
    let resolved = |input: &str| match resolve_account_by_name(&accounts, input) {
        AccountResolution::Resolved(a) => Some(a.id.0),
        _ => None,
    };
    assert_eq!(resolved("  kraken "), Some(1));
    assert_eq!(resolved("kraken:s"), Some(2));
    assert_eq!(resolved("BIN"), Some(4));
    assert_eq!(resolved("ownwallet-btc"), None);
    assert_eq!(
        resolve_account_by_name(&accounts, "kraken:"),
        AccountResolution::Ambiguous {
            candidates: vec!["Kraken:earn", "Kraken:spot"]
        }
    );
    assert_eq!(
        resolve_account_by_name(&accounts, "b"),
        AccountResolution::Ambiguous {
            candidates: vec!["binance", "Bitvavo"]
        }
    );
    assert_eq!(
        resolve_account_by_name(&accounts, "coinbase"),
        AccountResolution::NotFound {
            available: vec!["binance", "Bitvavo", "Kraken"]
        }
    );
    assert!(matches!(
        resolve_account_by_name(&accounts, "  "),
        AccountResolution::NotFound { .. }
    ));
}

#[test]
fn account_resolution_caps() {
    let accounts: Vec<Account> = (0..30)
        .map(|i| account(i, &format!("acc{i:02}"), None))
        .collect();
    match resolve_account_by_name(&accounts, "acc") {
        AccountResolution::Ambiguous { candidates } => {
            assert_eq!(candidates.len(), 10);
            assert_eq!(candidates[0], "acc00");
        }
        other => panic!("{other:?}"),
    }
    match resolve_account_by_name(&accounts, "zzz") {
        AccountResolution::NotFound { available } => assert_eq!(available.len(), 20),
        other => panic!("{other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn downsample_properties(n in 0usize..2000, max in 2usize..300) {
        let idx = downsample_indices(n, max).unwrap();
        prop_assert_eq!(idx.len(), n.min(max));
        prop_assert!(idx.windows(2).all(|w| w[0] < w[1]));
        if n > 0 {
            prop_assert_eq!(idx[0], 0);
            prop_assert_eq!(*idx.last().unwrap(), n - 1);
        }
    }

    #[test]
    fn rank_by_value_counts(values in prop::collection::vec(prop::option::of(-1000i64..1000), 0..60), top in 0usize..80) {
        let items: Vec<(usize, Option<Decimal>)> =
            values.iter().enumerate().map(|(i, v)| (i, v.map(Decimal::from))).collect();
        let valued = items.iter().filter(|x| x.1.is_some()).count();
        let out = rank_by_value(items.clone(), |x| x.1, top);
        prop_assert_eq!(out.ranked.len() + out.omitted_count, valued);
        prop_assert_eq!(out.unvalued.len(), items.len() - valued);
        prop_assert!(out.ranked.windows(2).all(|w| w[0].1 >= w[1].1));
    }

    #[test]
    fn ranking_is_invariant_under_permutation_of_distinct_values(
        values in prop::collection::btree_set(-1000i64..1000, 0..40),
        seed in any::<u64>(),
        top in 0usize..50,
    ) {
        let items: Vec<Decimal> = values.iter().copied().map(Decimal::from).collect();
        let shuffled = shuffled(&items, seed);
        let a = rank_by_value(items, |v| Some(*v), top);
        let b = rank_by_value(shuffled, |v| Some(*v), top);
        prop_assert_eq!(a, b);
    }

    /// With ties, a permutation can only reorder equal values: the ranked value sequence, the
    /// omitted count and the unvalued count are invariant.
    #[test]
    fn ranked_values_are_invariant_under_permutation(
        values in prop::collection::vec(prop::option::of(0i64..20), 0..40),
        seed in any::<u64>(),
        top in 0usize..50,
    ) {
        let items: Vec<Option<Decimal>> = values.iter().map(|v| v.map(Decimal::from)).collect();
        let shuffled = shuffled(&items, seed);
        let a = rank_by_value(items, |v| *v, top);
        let b = rank_by_value(shuffled, |v| *v, top);
        prop_assert_eq!(a.ranked, b.ranked);
        prop_assert_eq!(a.omitted_count, b.omitted_count);
        prop_assert_eq!(a.unvalued.len(), b.unvalued.len());
    }
}

/// `items` in a deterministic order drawn from `seed` (Fisher–Yates over the workspace's one
/// generator).
fn shuffled<T: Clone>(items: &[T], seed: u64) -> Vec<T> {
    let mut random = crate::rng::SplitMix64::new(seed);
    let mut out = items.to_vec();
    for i in (1..out.len()).rev() {
        let j = usize::try_from(random.below(i as u64 + 1)).unwrap_or(0);
        out.swap(i, j);
    }
    out
}
