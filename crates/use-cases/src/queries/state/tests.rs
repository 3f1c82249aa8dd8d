//! The load's row scan.

use super::*;
use core_domain::testkit::examples;

/// A scan's findings in order: fiat, stated currencies, first date, price lookups, crypto
/// assets requested, overview.
type Findings = (
    Vec<Asset>,
    Vec<Asset>,
    Option<Date>,
    Vec<(Asset, Date)>,
    Vec<Asset>,
    Option<Overview>,
);

fn findings(scan: RowScan) -> Findings {
    let sorted = |set: LegSet<Asset>| {
        let mut list: Vec<Asset> = set.into_iter().collect();
        list.sort_unstable();
        list
    };
    let mut requests = scan.requests;
    requests.sort_unstable();
    requests.dedup();
    let mut crypto: Vec<Asset> = scan.last_days.into_keys().collect();
    crypto.sort_unstable();
    (
        sorted(scan.fiat),
        sorted(scan.stated),
        scan.first,
        requests,
        crypto,
        scan.overview.map(OverviewScan::finish),
    )
}

#[test]
fn a_scan_in_two_halves_finds_what_one_pass_finds() {
    let tz = FiscalTimezone::default();
    for ledger in [
        examples::i2(),
        examples::i5(),
        examples::d14(),
        examples::i6(),
    ] {
        let input = core_domain::effective::engine_input_owned(
            ledger.spot_rows().to_vec(),
            ledger.futures_rows().to_vec(),
            ledger.overrides(),
        );
        let one = findings(RowScan::of(&input, tz, true, usize::MAX));
        assert_eq!(findings(RowScan::of(&input, tz, true, 1)), one);
    }
    let i5 = examples::i5();
    let input = core_domain::effective::engine_input_owned(
        i5.spot_rows().to_vec(),
        i5.futures_rows().to_vec(),
        i5.overrides(),
    );
    let (fiat, _, first, requests, crypto, overview) = findings(RowScan::of(&input, tz, true, 1));
    let asset = |s: &str| Asset::new(s).unwrap();
    assert_eq!(fiat, [asset("EUR")]);
    assert_eq!(first, Date::from_ymd_opt(2021, 4, 1));
    assert_eq!(crypto, [asset("BTC"), asset("ETH"), asset("SOL")]);
    // ETH on the dates of e1 to e4, BTC on those of e4 and e5 (e6 shares e5's), SOL on
    // those of e7 and e8; each row's fiscal and UTC dates are the same day.
    assert_eq!(requests.len(), 8);
    assert_eq!(
        overview.map(|o| o.years.into_iter().collect::<Vec<_>>()),
        Some(vec![2021, 2022, 2023])
    );
}
