//! The facade adds nothing measurable: the IRPF report of one year through [`cartera::Ledger`]
//! against the same use case called directly (`LedgerQueries` over `SqliteLedger`), on the same
//! ledger file, interleaved A/B so that the load of a shared machine falls on both sides alike.
//!
//! ```sh
//! cargo run --release -p cli -- bench run --sizes 100k --only report   # builds the 100k ledger
//! cargo bench -p cartera --bench facade_overhead -- target/bench/data/100k-s1/ledger.sqlite 2025 21
//! ```
//!
//! Each sample opens the ledger read-only and asks for the report twice: `cold` (the derived
//! state is computed: the ledger load, FIFO and the IRPF pass) and `warm` (the kept answer).
#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]

use std::time::{Duration, Instant};

use ledger_sqlite::SqliteLedger;
use use_cases::ports::{ClockInstant, FixedClock};
use use_cases::queries::{LedgerQueries, ReadUseCases, TaxReportRequest};

const NOW: &str = "2026-06-30T12:00:00Z";
/// Pairs of samples unless the third argument says otherwise.
const SAMPLES: usize = 9;

fn direct(path: &str, year: i32) -> (Duration, Duration, String) {
    let now = ClockInstant::parse(NOW).expect("instant");
    let started = Instant::now();
    let store = SqliteLedger::open_reader(path).expect("open the ledger");
    let queries = LedgerQueries::new(store, FixedClock(now));
    let request = TaxReportRequest {
        year,
        with_year_end_holdings: false,
    };
    let report = queries.get_spanish_tax_report(&request).expect("report");
    let cold = started.elapsed();
    let started = Instant::now();
    let again = queries.get_spanish_tax_report(&request).expect("report");
    let warm = started.elapsed();
    assert_eq!(report, again);
    (cold, warm, report.summary.capital_gains)
}

fn facade(path: &str, year: i32) -> (Duration, Duration, String) {
    let clock = cartera::FixedClock::parse(NOW).expect("instant");
    let started = Instant::now();
    let ledger = cartera::Ledger::open_read_only(path, clock).expect("open the ledger");
    let report = ledger.tax_report(year).expect("report");
    let cold = started.elapsed();
    let started = Instant::now();
    let again = ledger.tax_report(year).expect("report");
    let warm = started.elapsed();
    assert_eq!(report, again);
    (cold, warm, report.summary.capital_gains)
}

fn median(samples: &mut [Duration]) -> f64 {
    samples.sort();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
}

fn main() {
    // `cargo bench` passes `--bench`; the other arguments are the ledger, the year and the pairs.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    let Some(path) = args.first() else {
        println!("usage: facade_overhead LEDGER [YEAR [PAIRS]]; no ledger given, nothing measured");
        return;
    };
    let year = args
        .get(1)
        .map_or(2025, |text| text.parse().expect("a year"));
    let samples = args
        .get(2)
        .map_or(SAMPLES, |text| text.parse().expect("a count"));
    // One of each first: the OS file cache is warm for both sides.
    let (_, _, expected) = direct(path, year);
    assert_eq!(facade(path, year).2, expected, "the two paths disagree");
    let (mut direct_cold, mut direct_warm) = (Vec::new(), Vec::new());
    let (mut facade_cold, mut facade_warm) = (Vec::new(), Vec::new());
    for sample in 0..samples {
        // A B, then B A: neither side always runs first.
        let order: [bool; 2] = if sample % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        };
        for through_facade in order {
            let (cold, warm, gains) = if through_facade {
                facade(path, year)
            } else {
                direct(path, year)
            };
            assert_eq!(gains, expected);
            let (colds, warms) = if through_facade {
                (&mut facade_cold, &mut facade_warm)
            } else {
                (&mut direct_cold, &mut direct_warm)
            };
            colds.push(cold);
            warms.push(warm);
        }
    }
    // Each pair ran back to back: the ratio of a pair cancels the load both sides saw.
    let mut ratios: Vec<f64> = facade_cold
        .iter()
        .zip(&direct_cold)
        .map(|(facade, direct)| facade.as_secs_f64() / direct.as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    println!("IRPF {year} report of {path}, median of {samples} interleaved samples (ms):");
    println!(
        "  cold (open + derived state + report): direct {:.1}, facade {:.1}",
        median(&mut direct_cold),
        median(&mut facade_cold)
    );
    println!(
        "  warm (kept answer):                   direct {:.3}, facade {:.3}",
        median(&mut direct_warm),
        median(&mut facade_warm)
    );
    let spread = |samples: &[Duration]| {
        let ms = |d: &Duration| d.as_secs_f64() * 1000.0;
        format!(
            "{:.1}–{:.1}",
            samples.iter().map(ms).fold(f64::INFINITY, f64::min),
            samples.iter().map(ms).fold(0.0, f64::max)
        )
    };
    println!(
        "  cold range: direct {}, facade {}",
        spread(&direct_cold),
        spread(&facade_cold)
    );
    println!(
        "  cold facade / direct, per pair: median {:.3} (range {:.3}–{:.3})",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1]
    );
}
