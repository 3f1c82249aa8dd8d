//! Checks against the real ECB history in the shared data folder (skipped when absent).

use std::path::PathBuf;

use core_domain::num::{self, OutputClass};
use core_domain::testkit::{self, Ledger};

/// `$CARTERA_SHARED_DATA`, else `<workspace root>/../shared/data`.
fn shared_data() -> Option<PathBuf> {
    let folder = std::env::var_os("CARTERA_SHARED_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
        PathBuf::from,
    );
    folder.is_dir().then_some(folder)
}

#[allow(clippy::print_stderr)] // The brief asks for a clear skip message.
fn ecb() -> Option<String> {
    let Some(folder) = shared_data() else {
        eprintln!("skipping: shared data folder not found (set CARTERA_SHARED_DATA)");
        return None;
    };
    std::fs::read_to_string(folder.join("ecb/eurofxref-hist.csv")).ok()
}

#[test]
fn rate_examples_of_7_1_on_the_real_history() {
    let Some(text) = ecb() else { return };
    let market = Ledger::new().ecb_rates_csv(&text).market();
    let usd = testkit::asset("USD");
    let easter = market.rate(usd, testkit::date("2023-04-09")).expect("rate");
    assert_eq!(num::format(easter.rate, OutputClass::Rate), "1.0915");
    assert_eq!(easter.rate_date.to_string(), "2023-04-06");
    let year_end = market.rate(usd, testkit::date("2023-12-31")).expect("rate");
    assert_eq!(num::format(year_end.rate, OutputClass::Rate), "1.105");
    assert_eq!(year_end.rate_date.to_string(), "2023-12-29");
}

#[test]
fn d2_with_the_real_ecb_history() {
    let Some(text) = ecb() else { return };
    let outcome = core_domain::testkit::examples::d2()
        .price("2023-03-06", "ETH", "1650.25", "USD")
        .price("2023-04-09", "ETH", "1862.10", "USD")
        .ecb_rates_csv(&text)
        .run();
    assert_eq!(outcome.lot("L:d2r1:0").acquisition_value(), "15501.13");
    assert_eq!(
        outcome.lot("L:d2r1:0").fx().as_deref(),
        Some("1.0646@2023-03-06")
    );
    assert_eq!(outcome.lot("L:d2r2:0").acquisition_value(), "6824.00");
    assert_eq!(
        outcome.lot("L:d2r2:0").fx().as_deref(),
        Some("1.0915@2023-04-06")
    );
    assert_eq!(outcome.slice("E:d2r4:P:1").result(), "2498.87");
    assert_eq!(outcome.slice("E:d2r4:P:2").result(), "188.00");
    assert_eq!(outcome.lot("L:d2r3:0").flags(), "MISSING_PRICE");
}
