//! The nine isolation tests of `tools.md` §14: a fake that answers whatever fixture it holds
//! and counts its calls proves that nothing leaks across tenants, currencies, arguments, time
//! or ledger versions.

use std::sync::atomic::Ordering;

use serde_json::json;

use crate::support::{Mode, Rig, ctx_with, local};

const SECOND: i64 = 1_000_000_000;

#[test]
fn tenant() {
    let rig = Rig::metered(json!({"fixture":"FA"}));
    let a = ctx_with("tenant-a", "en", "EUR");
    let b = ctx_with("tenant-b", "en", "EUR");
    let first = rig.host.call(&a, None, "portfolio_summary", &json!({}));
    assert_eq!(first["payload"]["fixture"], "FA");
    rig.fixture.load(json!({"fixture":"FB"}));
    let second = rig.host.call(&b, None, "portfolio_summary", &json!({}));
    assert_eq!(second["payload"]["fixture"], "FB");
    let calls = rig.fixture.calls();
    let third = rig.host.call(&a, None, "portfolio_summary", &json!({}));
    assert_eq!(third["payload"]["fixture"], "FA");
    assert_eq!(rig.fixture.calls(), calls);
}

#[test]
fn base_currency() {
    let rig = Rig::metered(json!({"fixture":"EUR"}));
    let eur = rig
        .host
        .call(&ctx_with("t", "en", "EUR"), None, "kpis", &json!({}));
    assert_eq!(eur["payload"]["fixture"], "EUR");
    rig.fixture.load(json!({"fixture":"USD"}));
    let usd = rig
        .host
        .call(&ctx_with("t", "en", "USD"), None, "kpis", &json!({}));
    assert_eq!(usd["payload"]["fixture"], "USD");
}

#[test]
fn canonical_arguments() {
    let rig = Rig::metered(json!({"fixture":1}));
    assert_eq!(
        rig.call("holding_detail", json!({"symbol":"btc"}))["payload"]["fixture"],
        1
    );
    rig.fixture.load(json!({"fixture":2}));
    assert_eq!(
        rig.call("holding_detail", json!({"symbol":"BTC"}))["payload"]["fixture"],
        1
    );
    rig.fixture.load(json!({"fixture":3}));
    assert_eq!(
        rig.call("token_lots", json!({"symbol":"BTC"}))["payload"]["fixture"],
        3
    );
    rig.fixture.load(json!({"fixture":4}));
    assert_eq!(
        rig.call("token_lots", json!({"symbol":"BTC","page":0}))["payload"]["fixture"],
        3
    );
    assert_eq!(
        rig.call("token_lots", json!({"symbol":"ETH"}))["payload"]["fixture"],
        4
    );
    // The same arguments under another tool are another entry.
    assert_eq!(
        rig.call("token_history", json!({"symbol":"BTC"}))["payload"]["fixture"],
        4
    );
}

#[test]
fn ttl() {
    let rig = Rig::metered(json!({"fixture":1}));
    rig.call("kpis", json!({}));
    rig.fixture.load(json!({"fixture":2}));
    rig.clock.advance(59 * SECOND + 999_000_000);
    assert_eq!(rig.call("kpis", json!({}))["payload"]["fixture"], 1);
    rig.clock.advance(1_000_000);
    assert_eq!(rig.call("kpis", json!({}))["payload"]["fixture"], 2);
    // An entry stored "in the future" counts as expired.
    rig.fixture.load(json!({"fixture":3}));
    rig.clock.advance(-10 * SECOND);
    assert_eq!(rig.call("kpis", json!({}))["payload"]["fixture"], 3);
}

#[test]
fn ledger_version() {
    let rig = Rig::metered(json!({"fixture":1}));
    rig.call("kpis", json!({}));
    rig.fixture.load(json!({"fixture":2}));
    assert_eq!(rig.call("kpis", json!({}))["payload"]["fixture"], 1);
    rig.use_cases.version.fetch_add(1, Ordering::SeqCst);
    assert_eq!(rig.call("kpis", json!({}))["payload"]["fixture"], 2);
    // An unreadable version bypasses the cache and stores nothing.
    rig.use_cases.version_fails.store(true, Ordering::SeqCst);
    rig.fixture.load(json!({"fixture":3}));
    assert_eq!(rig.call("kpis", json!({}))["payload"]["fixture"], 3);
    rig.use_cases.version_fails.store(false, Ordering::SeqCst);
    assert_eq!(rig.call("kpis", json!({}))["payload"]["fixture"], 2);
}

#[test]
fn errors_are_never_stored() {
    let rig = Rig::metered(json!({}));
    rig.fixture.set(Mode::Fail("GetKpis", "boom".to_owned()));
    assert_eq!(rig.call("kpis", json!({}))["code"], "USE_CASE_FAILED");
    rig.fixture.load(json!({"fixture":"fine"}));
    let calls = rig.fixture.calls();
    assert_eq!(rig.call("kpis", json!({}))["kind"], "ok");
    assert_eq!(rig.fixture.calls(), calls + 1);
}

#[test]
fn live_prices_and_explain_metric_are_never_cached() {
    let rig = Rig::metered(json!({"prices":[]}));
    rig.call("live_prices", json!({"symbols":["BTC"]}));
    rig.call("live_prices", json!({"symbols":["BTC"]}));
    assert_eq!(rig.fixture.calls(), 2);
    rig.call("explain_metric", json!({"metric":"beta"}));
    assert_eq!(rig.fixture.calls(), 2);
}

#[test]
fn lru_eviction() {
    let rig = Rig::new(ai_tools::Profile::Metered, 2, json!({"fixture":1}));
    let a = json!({"symbol":"AAA"});
    let b = json!({"symbol":"BBB"});
    let c = json!({"symbol":"CCC"});
    rig.call("holding_detail", a.clone());
    rig.call("holding_detail", b.clone());
    rig.call("holding_detail", a.clone());
    assert_eq!(rig.fixture.calls(), 2);
    rig.call("holding_detail", c);
    assert_eq!(rig.fixture.calls(), 3);
    rig.call("holding_detail", a);
    assert_eq!(rig.fixture.calls(), 3, "A was touched and stays cached");
    rig.call("holding_detail", b);
    assert_eq!(rig.fixture.calls(), 4, "B was evicted");
}

#[test]
fn gate_runs_after_the_cache() {
    let rig = Rig::new(local(1000), 8, json!({"a":"x".repeat(100)}));
    let ctx = ctx_with("t", "en", "EUR");
    let mut warm = rig.host.profile().new_run_budget();
    assert_eq!(
        rig.host.call(&ctx, Some(&mut warm), "kpis", &json!({}))["kind"],
        "ok"
    );
    let mut exhausted = ai_tools::RunBudget::bounded(108);
    assert_eq!(
        rig.host
            .call(&ctx, Some(&mut exhausted), "kpis", &json!({}))["kind"],
        "ok"
    );
    assert_eq!(exhausted.remaining(), Some(0));
    let result = rig
        .host
        .call(&ctx, Some(&mut exhausted), "kpis", &json!({}));
    assert_eq!(
        result,
        json!({"kind":"truncated","maxChars":0,"actualChars":108})
    );
    assert_eq!(exhausted.used(), 108);
    let mut fresh = rig.host.profile().new_run_budget();
    assert_eq!(
        rig.host.call(&ctx, Some(&mut fresh), "kpis", &json!({}))["kind"],
        "ok"
    );
    assert_eq!(fresh.used(), 108);
    assert_eq!(rig.fixture.calls(), 1);
}
