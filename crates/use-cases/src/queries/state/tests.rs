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

/// The input and scan of [`RowScan::with_input`] in one piece (`usize::MAX`) or pieces of
/// `min_rows` rows.
fn scanned(ledger: &core_domain::testkit::Ledger, min_rows: usize) -> (String, Findings) {
    scanned_rows(ledger, ledger.spot_rows().to_vec(), min_rows)
}

fn scanned_rows(
    ledger: &core_domain::testkit::Ledger,
    rows: Vec<SpotRow>,
    min_rows: usize,
) -> (String, Findings) {
    let (input, scan) = RowScan::with_input(
        rows,
        ledger.futures_rows().to_vec(),
        ledger.overrides(),
        FiscalTimezone::default(),
        min_rows,
    );
    (format!("{input:?}"), findings(scan))
}

#[test]
fn a_scan_in_two_halves_finds_what_one_pass_finds() {
    for ledger in [
        examples::i2(),
        examples::i5(),
        examples::d14(),
        examples::i6(),
    ] {
        let one = scanned(&ledger, usize::MAX);
        assert_eq!(scanned(&ledger, 1), one);
        // The one-pass input is the engine input of the overrides' rules.
        let input = core_domain::effective::engine_input_owned(
            ledger.spot_rows().to_vec(),
            ledger.futures_rows().to_vec(),
            ledger.overrides(),
        );
        assert_eq!(one.0, format!("{input:?}"));
    }
    // A row of an impossible shape becomes UNKNOWN in the halves' in-place check too.
    let i5 = examples::i5();
    let mut rows = i5.spot_rows().to_vec();
    let broken = rows.len() - 1;
    rows[broken].inflow = None;
    rows[broken].outflow = None;
    let one = scanned_rows(&i5, rows.clone(), usize::MAX);
    assert!(one.0.contains("Unknown"), "the broken row is flagged");
    assert_eq!(scanned_rows(&i5, rows, 1), one);
    let (_, (fiat, _, first, requests, crypto, overview)) = scanned(&i5, 1);
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
