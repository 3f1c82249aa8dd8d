//! The real projections behind the `ToolHost` (validation, projection, sampling and gate end
//! to end) over the fake use cases.

use std::sync::Arc;

use serde_json::{Value, json};
use use_cases::ports::{Clock, ClockInstant};
use use_cases::queries::ReadUseCases;

use super::fake::Fake;
use super::fixtures::{forty, lots_fake, tx_row_fixture};
use super::{drawdown, shape};
use crate::{CacheConfig, CurrencyCode, Locale, Profile, RequestContext, TenantId, ToolHost};
use shared_types::ToolName;

struct FixedClock;

impl Clock for FixedClock {
    fn now(&self) -> ClockInstant {
        // 2026-03-10T00:00:00Z.
        ClockInstant::from_unix_nanos(1_773_100_800_000_000_000)
    }
}

fn host(fake: Fake, profile: Profile) -> (ToolHost, Arc<Fake>) {
    let fake = Arc::new(fake);
    let host = ToolHost::new(
        Arc::clone(&fake) as Arc<dyn ReadUseCases>,
        profile,
        CacheConfig::default(),
        Arc::new(FixedClock),
    );
    (host, fake)
}

fn ctx(currency: &str) -> RequestContext {
    RequestContext {
        tenant: TenantId::new("tenant").unwrap(),
        locale: Locale::parse("en").unwrap(),
        base_currency: CurrencyCode::parse(currency).unwrap(),
    }
}

fn call(host: &ToolHost, tool: &str, args: &Value) -> Value {
    let result = host.call(&ctx("EUR"), None, tool, args);
    if result["kind"] == json!("ok") {
        shape::check_payload(ToolName::parse(tool).unwrap(), &result["payload"]);
    }
    result
}

#[test]
fn ac57_drawdown_over_a_year_is_sampled_to_sixty_points_under_its_budget() {
    let (host, fake) = host(
        Fake {
            drawdown: Some(drawdown(365)),
            ..Fake::default()
        },
        Profile::Metered,
    );
    let r = call(&host, "drawdown_curve", &json!({"days": 365}));
    assert_eq!(r["kind"], json!("ok"));
    assert_eq!(r["payload"]["points"].as_array().unwrap().len(), 60);
    assert_eq!(r["payload"]["omittedCount"], json!(305));
    assert_eq!(fake.calls(), ["drawdown 365 None"]);
}

#[test]
fn ac39_past_the_last_page_through_the_host() {
    let (host, _) = host(
        Fake {
            tx: (0..60).map(tx_row_fixture).collect(),
            ..Fake::default()
        },
        Profile::Metered,
    );
    let r = call(&host, "tx_search", &json!({"page": 9}));
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"kind":"ok","payload":{"rows":[],"page":9,"pageSize":15,"totalPages":4,"totalCount":60}}"#
    );
}

#[test]
fn ac10_ac32_symbols_reach_the_use_case_upper_cased() {
    let (host, fake) = host(
        Fake {
            summary: Some(forty(false)),
            ..lots_fake(1)
        },
        Profile::Metered,
    );
    let r = call(&host, "holding_detail", &json!({"symbol": "xyz"}));
    assert_eq!(
        r,
        json!({"kind": "ok", "payload": {"kind": "not_held", "symbol": "XYZ"}})
    );
    let r = call(&host, "token_history", &json!({"symbol": "btc"}));
    assert_eq!(r["payload"]["symbol"], json!("BTC"));
    assert_eq!(fake.calls(), ["summary EUR", "lots BTC 0 15"]);
}

#[test]
fn ac28_a_malformed_figure_is_use_case_failed() {
    let mut summary = forty(false);
    summary.valued[0].current_value_fiat = "1e3".to_owned();
    let (host, _) = host(
        Fake {
            summary: Some(summary),
            ..Fake::default()
        },
        Profile::Metered,
    );
    let r = call(&host, "portfolio_summary", &json!({}));
    assert_eq!(r["kind"], json!("error"));
    assert_eq!(r["code"], json!("USE_CASE_FAILED"));
    assert!(r.get("payload").is_none());
    assert!(!serde_json::to_string(&r).unwrap().contains("1e3"));
}

#[test]
fn ac34_data_gaps_next_tools_follow_the_exposure() {
    let fake = || Fake {
        summary: Some(forty(true)),
        integrity: Some(super::fixtures::integrity(2, 0)),
        ..Fake::default()
    };
    let (metered, _) = host(fake(), Profile::Metered);
    let r = call(&metered, "data_gaps", &json!({}));
    assert_eq!(
        r["payload"]["nextTools"],
        json!(["fiscal_integrity_rows", "holding_detail"])
    );
    let (local, _) = host(fake(), Profile::local(8192).unwrap());
    let r = call(&local, "data_gaps", &json!({}));
    assert_eq!(r["payload"]["nextTools"], json!(["holding_detail"]));
}

#[test]
fn ac58_performance_history_in_usd() {
    let (host, fake) = host(
        Fake {
            performance: Some(shared_types::dto::PerformanceHistory {
                currency: "USD".to_owned(),
                points: vec![],
                omitted_count: 0,
            }),
            ..Fake::default()
        },
        Profile::Metered,
    );
    let r = host.call(&ctx("USD"), None, "performance_history", &json!({}));
    assert_eq!(r["kind"], json!("ok"));
    assert_eq!(r["payload"]["currency"], json!("USD"));
    assert_eq!(fake.calls(), ["performance 30 USD None"]);
}

#[test]
fn ac24_heatmap_defaults_to_the_clock_year() {
    let (host, fake) = host(
        Fake {
            heatmap: Some(shared_types::dto::VolatilityHeatmap {
                year: 2026,
                cells: vec![],
                omitted_count: 0,
            }),
            ..Fake::default()
        },
        Profile::Metered,
    );
    let r = call(&host, "volatility_heatmap", &json!({}));
    assert_eq!(r["payload"]["year"], json!(2026));
    assert_eq!(fake.calls(), ["heatmap Some(2026) None"]);
}
