//! Wire shapes of the DTOs: keys, tags and order.

use super::*;

fn summary() -> TaxSummary {
    let v = |s: &str| s.to_owned();
    TaxSummary {
        capital_gains: v("1.00"),
        capital_losses: v("2.00"),
        savings_base_yields: v("3.00"),
        general_base_airdrops: v("4.00"),
        net_patrimonial_result: v("5.00"),
        estimated_irpf: None,
        savings_transmission_balance: v("7.00"),
        general_short_term_balance: v("8.00"),
        current_year_cross_compensation: v("9.00"),
        carry_forward_used: v("10.00"),
        savings_base_after_compensation: v("11.00"),
        general_gains_after_compensation: v("12.00"),
        carry_forward_generated: v("13.00"),
        carry_forward_remaining: v("14.00"),
        carry_forward_expired: v("15.00"),
        economic_activity_income: v("16.00"),
    }
}

#[test]
fn tax_summary_serialises_the_sixteen_keys_in_order() {
    let text = serde_json::to_string(&summary()).unwrap();
    let positions: Vec<usize> = TaxSummary::KEYS
        .iter()
        .map(|k| text.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert_eq!(text.matches("\":").count(), 16);
    assert!(text.contains("\"estimatedIrpf\":null"));
    let back: TaxSummary = serde_json::from_str(&text).unwrap();
    assert_eq!(back, summary());
}

#[test]
fn tagged_unions_use_the_spec_literals() {
    let json = |v: &dyn Erased| v.json();
    assert_eq!(json(&CompletenessDto::Complete), r#"{"kind":"complete"}"#);
    assert_eq!(
        json(&CompletenessDto::Incomplete {
            reasons: vec!["unconvertible_events".into()]
        }),
        r#"{"kind":"incomplete","reasons":["unconvertible_events"]}"#
    );
    assert_eq!(json(&FeeDto::None), r#"{"kind":"NONE"}"#);
    assert_eq!(
        json(&FeeDto::Charged {
            amount: "0".into(),
            asset: "EUR".into()
        }),
        r#"{"kind":"CHARGED","amount":"0","asset":"EUR"}"#
    );
    assert_eq!(
        json(&AccountHoldingsResult::NotFound {
            available: vec!["Kraken".into()]
        }),
        r#"{"kind":"not_found","available":["Kraken"]}"#
    );
    assert_eq!(
        json(&BreakevenDto::UnconvertibleCostBasis {
            symbol: "BTC".into(),
            currency: "EUR".into()
        }),
        r#"{"kind":"unconvertible_cost_basis","symbol":"BTC","currency":"EUR"}"#
    );
    assert_eq!(
        json(&PositionValueDto::Unvalued {
            symbol: "BTC".into(),
            position_value: "1.00".into(),
            currency: "EUR".into()
        }),
        r#"{"kind":"unvalued","symbol":"BTC","positionValue":"1.00","currency":"EUR"}"#
    );
    assert_eq!(
        json(&ConcentrationBlockDto::Computed {
            top1_weight: "1.0000".into(),
            top3_weight: "1.0000".into(),
            hhi: "1.0000".into(),
            effective_holdings: "1.0000".into()
        }),
        r#"{"kind":"computed","top1Weight":"1.0000","top3Weight":"1.0000","hhi":"1.0000","effectiveHoldings":"1.0000"}"#
    );
}

/// Serialisation through a trait object, so one helper covers every DTO.
trait Erased {
    fn json(&self) -> String;
}

impl<T: serde::Serialize> Erased for T {
    fn json(&self) -> String {
        serde_json::to_string(self).unwrap()
    }
}
