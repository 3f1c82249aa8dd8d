use proptest::prelude::*;
use rust_decimal::Decimal;

use super::{CompletenessStatus, DeltaKind, TaxYearSide, compare_tax_summaries};
use crate::error::DomainError;
use crate::irpf::Summary;
use crate::num::fiat;

fn side(year: i32, gains: &str, tax: Option<&str>, flagged: u64) -> TaxYearSide {
    TaxYearSide {
        year,
        summary: Summary {
            capital_gains: gains.parse().unwrap(),
            estimated_irpf: tax.map(|t| t.parse().unwrap()),
            ..Summary::default()
        },
        unconvertible_count: 0,
        excluded_flagged_events: flagged,
        excluded_unresolved_income: 0,
    }
}

#[test]
fn complete_years_give_deltas_and_null_values_are_incomparable() {
    let a = side(2025, "100.00", Some("19.00"), 0);
    let b = side(2027, "250.00", None, 0);
    let c = compare_tax_summaries(&a, &b).unwrap();
    assert_eq!((c.year_a, c.year_b), (2025, 2027));
    assert_eq!(c.deltas.len(), 16);
    assert_eq!(c.deltas[0].field, "capital_gains");
    assert_eq!(fiat(c.deltas[0].value.unwrap()), "150.00");
    assert_eq!(c.deltas[0].kind, DeltaKind::Delta);
    assert_eq!(c.deltas[5].field, "estimated_irpf");
    assert_eq!(c.deltas[5].value, None);
    assert_eq!(c.deltas[5].kind.as_str(), "DELTA_INCOMPARABLE");
    assert_eq!(fiat(c.deltas[1].value.unwrap()), "0.00");
}

#[test]
fn an_incomplete_side_makes_every_delta_incomparable() {
    let a = side(2023, "0", Some("0"), 1);
    let b = side(2024, "270.00", Some("38.48"), 0);
    let c = compare_tax_summaries(&a, &b).unwrap();
    assert!(
        c.deltas
            .iter()
            .all(|d| d.kind == DeltaKind::DeltaIncomparable)
    );
    assert_eq!(
        c.completeness_a.render(),
        "INCOMPLETE [excluded_flagged_events]"
    );
    assert_eq!(c.completeness_b, CompletenessStatus::Complete);
}

#[test]
fn equal_years_are_an_error() {
    let a = side(2023, "0", None, 0);
    assert!(matches!(
        compare_tax_summaries(&a, &a),
        Err(DomainError::InvalidSetting { .. })
    ));
}

#[test]
fn reasons_keep_their_fixed_order() {
    assert_eq!(
        CompletenessStatus::from_counts(2, 0, 1).render(),
        "INCOMPLETE [unconvertible_events, excluded_unresolved_income]"
    );
    assert_eq!(
        CompletenessStatus::from_counts(0, 0, 0).render(),
        "COMPLETE"
    );
}

fn summary_strategy() -> impl Strategy<Value = (Summary, u64)> {
    (
        proptest::collection::vec(-1_000_000i64..1_000_000, 16),
        any::<bool>(),
        0u64..2,
    )
        .prop_map(|(v, null_tax, flagged)| {
            let m = |i: usize| Decimal::new(v[i], 2);
            (
                Summary {
                    capital_gains: m(0),
                    capital_losses: m(1),
                    savings_base_yields: m(2),
                    general_base_airdrops: m(3),
                    net_patrimonial_result: m(4),
                    estimated_irpf: (!null_tax).then(|| m(5)),
                    savings_transmission_balance: m(6),
                    general_short_term_balance: m(7),
                    current_year_cross_compensation: m(8),
                    carry_forward_used: m(9),
                    savings_base_after_compensation: m(10),
                    general_gains_after_compensation: m(11),
                    carry_forward_generated: m(12),
                    carry_forward_remaining: m(13),
                    carry_forward_expired: m(14),
                    economic_activity_income: m(15),
                },
                flagged,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// `compare(a, b) = −compare(b, a)` field by field; the kind depends only on completeness
    /// (and on null values).
    #[test]
    fn comparison_is_antisymmetric((sa, fa) in summary_strategy(), (sb, fb) in summary_strategy()) {
        let a = TaxYearSide { year: 2023, summary: sa, unconvertible_count: 0,
            excluded_flagged_events: fa, excluded_unresolved_income: 0 };
        let b = TaxYearSide { year: 2024, summary: sb, unconvertible_count: 0,
            excluded_flagged_events: fb, excluded_unresolved_income: 0 };
        let ab = compare_tax_summaries(&a, &b).unwrap();
        let ba = compare_tax_summaries(&b, &a).unwrap();
        for (x, y) in ab.deltas.iter().zip(&ba.deltas) {
            prop_assert_eq!(x.value.map(|v| fiat(-v)), y.value.map(fiat));
            prop_assert_eq!(x.kind, y.kind);
            let complete = fa == 0 && fb == 0;
            prop_assert_eq!(x.kind == DeltaKind::Delta, complete && x.value.is_some());
        }
    }
}
