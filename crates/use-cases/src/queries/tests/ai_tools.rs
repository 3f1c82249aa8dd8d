//! What the AI tool layer reaches through the use cases (`tools.md` §16): account-name
//! resolution (AC-41 to AC-44), the D-14 figures (AC-59), series sampling and date parsing.

use core_domain::testkit::{Ledger, buy};
use serde_json::json;
use shared_types::dto::AccountHoldingsResult;

use super::{D14_T, d14, queries, to_json};
use crate::fake::Fake;
use crate::queries::{
    AccountHoldingsRequest, CurrencyRequest, HeatmapRequest, ReadUseCases, SeriesRequest,
    parse_date,
};
use crate::sampling::downsample;

/// Kraken (holding nothing) with Kraken:spot (BTC, ETH) and Kraken:earn (ADA), Bit2Me (XRP),
/// Bitvavo and Bitunix.
fn accounts() -> Fake {
    let ledger = Ledger::new()
        .row(
            buy("k1", "Kraken:spot", "2024-01-02T10:00:00Z")
                .inflow("1", "BTC")
                .outflow("100.00", "EUR"),
        )
        .row(
            buy("k2", "Kraken:spot", "2024-01-03T10:00:00Z")
                .inflow("2", "ETH")
                .outflow("50.00", "EUR"),
        )
        .row(
            buy("k3", "Kraken:earn", "2024-01-04T10:00:00Z")
                .inflow("10", "ADA")
                .outflow("10.00", "EUR"),
        )
        .row(
            buy("b1", "Bit2Me", "2024-01-05T10:00:00Z")
                .inflow("20", "XRP")
                .outflow("20.00", "EUR"),
        )
        .row(
            buy("v1", "Bitvavo", "2024-01-05T11:00:00Z")
                .inflow("1", "SOL")
                .outflow("30.00", "EUR"),
        )
        .row(
            buy("u1", "Bitunix", "2024-01-05T12:00:00Z")
                .inflow("1", "BNB")
                .outflow("40.00", "EUR"),
        );
    Fake::new(&ledger)
}

fn resolve(q: &impl ReadUseCases, name: &str) -> AccountHoldingsResult {
    q.get_account_holdings(&AccountHoldingsRequest {
        account_name: name.to_owned(),
        currency: None,
    })
    .unwrap()
}

fn resolved_name(result: &AccountHoldingsResult) -> Option<&str> {
    match result {
        AccountHoldingsResult::Resolved { account_name, .. } => Some(account_name),
        _ => None,
    }
}

#[test]
fn ac41_exact_name_resolves_the_tree_with_one_section_per_holding_account() {
    let q = queries(accounts(), "2024-02-01T00:00:00Z");
    let AccountHoldingsResult::Resolved {
        account_name,
        sections,
        empty_account_count,
        ..
    } = resolve(&q, "kraken")
    else {
        panic!("kraken resolves exactly")
    };
    assert_eq!(account_name, "Kraken");
    let names: Vec<&str> = sections.iter().map(|s| s.account_name.as_str()).collect();
    assert_eq!(names, ["Kraken:earn", "Kraken:spot"]);
    let held = |i: usize| -> Vec<String> {
        let s = &sections[i];
        let mut symbols: Vec<String> = s.ranked.iter().map(|h| h.symbol.clone()).collect();
        symbols.extend(s.unvalued.iter().map(|h| h.symbol.clone()));
        symbols
    };
    assert_eq!(held(0), ["ADA"]);
    assert_eq!(held(1), ["BTC", "ETH"]);
    assert_eq!(empty_account_count, 1);
}

#[test]
fn ac42_to_ac44_prefixes_ambiguity_and_unknown_names() {
    let q = queries(accounts(), "2024-02-01T00:00:00Z");
    assert_eq!(resolved_name(&resolve(&q, "BIT2ME")), Some("Bit2Me"));
    assert_eq!(resolved_name(&resolve(&q, "bit2")), Some("Bit2Me"));
    assert_eq!(resolved_name(&resolve(&q, "kraken:s")), Some("Kraken:spot"));
    assert_eq!(
        to_json(&resolve(&q, "bit")),
        json!({"kind": "ambiguous", "candidates": ["Bit2Me", "Bitunix", "Bitvavo"]})
    );
    assert_eq!(
        to_json(&resolve(&q, "kraken:")),
        json!({"kind": "ambiguous", "candidates": ["Kraken:earn", "Kraken:spot"]})
    );
    let not_found =
        json!({"kind": "not_found", "available": ["Bit2Me", "Bitunix", "Bitvavo", "Kraken"]});
    for name in ["coinbase", "ownwallet-BTC", "1", "2"] {
        assert_eq!(to_json(&resolve(&q, name)), not_found, "{name}");
    }
}

#[test]
fn ac59_d14_figures_of_kpis_risk_and_heatmap() {
    let q = queries(d14(), D14_T);
    let k = q.get_kpis(&CurrencyRequest::default()).unwrap();
    assert_eq!(
        (
            k.total_equity.as_str(),
            k.total_roi_pct.as_deref(),
            k.change24h.as_deref()
        ),
        ("44050.00", Some("12.63"), Some("3050.00"))
    );
    let r = q.get_risk_metrics().unwrap();
    assert_eq!(
        (r.alpha.as_deref(), r.beta.as_deref()),
        (Some("3.5000"), Some("0.7541"))
    );
    let heat = q
        .get_volatility_heatmap(&HeatmapRequest {
            year: Some(2024),
            max_points: None,
        })
        .unwrap();
    let dates: Vec<&str> = heat.cells.iter().map(|c| c.date.as_str()).collect();
    assert_eq!(
        dates,
        [
            "2024-01-01",
            "2024-01-02",
            "2024-01-03",
            "2024-01-04",
            "2024-01-05",
            "2024-01-06"
        ]
    );
    assert_eq!(heat.cells[2].volatility.as_deref(), Some("0.6755"));
    assert_eq!(heat.cells[5].volatility.as_deref(), Some("0.7045"));
    assert_eq!(heat.omitted_count, 0);
    // The full window, as the tool layer asks for it before sampling adaptively.
    let full = q.get_drawdown_curve(&SeriesRequest::default()).unwrap();
    assert_eq!(full.omitted_count, 0);
}

#[test]
fn downsample_is_reachable_through_use_cases() {
    let series: Vec<usize> = (0..10).collect();
    let d = downsample(&series, 4).unwrap();
    assert_eq!(d.points, [0, 3, 6, 9]);
    assert_eq!(d.omitted_count, 6);
    let series: Vec<usize> = (0..365).collect();
    let d = downsample(&series, 120).unwrap();
    assert_eq!((d.points.len(), d.points[0], d.points[119]), (120, 0, 364));
    assert_eq!(d.omitted_count, 245);
    let series: Vec<usize> = (0..50).collect();
    assert_eq!(downsample(&series, 120).unwrap().points, series);
}

#[test]
fn dates_parse_strictly() {
    assert_eq!(parse_date("2024-02-29").unwrap().to_string(), "2024-02-29");
    for bad in [
        "2024-02-30",
        "2023-02-29",
        "2024-13-01",
        "2024-1-1",
        "+2024-01-01",
        " 2024-01-01",
        "2024-01-01T00:00:00Z",
        "yesterday",
    ] {
        assert!(parse_date(bad).is_none(), "{bad}");
    }
}

/// `irpf.md` example I-6: an incomplete 2023 and a complete 2024.
fn i6() -> Fake {
    Fake::new(&core_domain::testkit::examples::i6())
}

#[test]
fn ac48_i6_comparison_is_second_minus_first_and_incomparable() {
    let q = queries(i6(), "2025-01-10T00:00:00Z");
    let c = to_json(
        &q.compare_tax_years(&crate::queries::CompareTaxYearsRequest {
            year_a: 2023,
            year_b: 2024,
        })
        .unwrap(),
    );
    let delta = |key: &str| c["deltas"][key].clone();
    for (key, value) in [
        ("capitalGains", "270.00"),
        ("capitalLosses", "-80.00"),
        ("savingsBaseYields", "-50.00"),
        ("generalBaseAirdrops", "-24.00"),
        ("netPatrimonialResult", "350.00"),
        ("estimatedIrpf", "31.35"),
    ] {
        assert_eq!(
            delta(key),
            json!({"kind": "delta_incomparable", "value": value}),
            "{key}"
        );
    }
    for (_, d) in c["deltas"].as_object().unwrap() {
        assert_eq!(d["kind"], json!("delta_incomparable"));
    }
    assert_eq!(
        c["yearA"]["completeness"],
        json!({"kind": "incomplete", "reasons": ["excluded_flagged_events", "excluded_unresolved_income"]})
    );
    assert_eq!(c["yearB"]["completeness"], json!({"kind": "complete"}));
    // Swapped years flip every sign.
    let swapped = to_json(
        &q.compare_tax_years(&crate::queries::CompareTaxYearsRequest {
            year_a: 2024,
            year_b: 2023,
        })
        .unwrap(),
    );
    assert_eq!(swapped["deltas"]["capitalGains"]["value"], json!("-270.00"));
    assert_eq!(swapped["deltas"]["capitalLosses"]["value"], json!("80.00"));
    assert_eq!(swapped["deltas"]["estimatedIrpf"]["value"], json!("-31.35"));
}
