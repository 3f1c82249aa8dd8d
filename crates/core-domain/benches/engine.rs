//! Criterion benchmarks of the FIFO engine over synthetic ledgers (`performance.md`).
//!
//! `cargo bench -p core-domain --bench engine` measures the engine over 100k rows. Set
//! `CARTERA_BENCH_1M=1` to also measure one 1M-row ledger (the ≤ 1 s target: FIFO, and every
//! IRPF year report); the 1M group takes a few runs only, since generating its market data
//! dominates the wall time.
#![allow(
    clippy::disallowed_methods,
    reason = "tests and benches read their knobs from the environment"
)]

use std::hint::black_box;
use std::time::Duration;

use core_domain::fifo::{self, EngineSettings};
use core_domain::testkit::synthetic::synthetic;
use criterion::{Criterion, criterion_group};

fn engine_100k(c: &mut Criterion) {
    let ledger = synthetic(100_000, 7);
    let input = ledger.input();
    let market = ledger.market();
    let settings = EngineSettings::default();
    let mut group = c.benchmark_group("engine");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("fifo_100k", |b| {
        b.iter(|| {
            fifo::run(black_box(&input), black_box(&market), &settings).expect("engine runs")
        });
    });
    // The same on a one-thread pool of its own.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    group.bench_function("fifo_100k_one_thread", |b| {
        b.iter(|| {
            one.install(|| {
                fifo::run(black_box(&input), black_box(&market), &settings).expect("engine runs")
            })
        });
    });
    group.finish();
}

fn engine_1m(c: &mut Criterion) {
    let ledger = synthetic(1_000_000, 7);
    let input = ledger.input();
    let market = ledger.market();
    drop(ledger);
    let settings = EngineSettings::default();
    let mut group = c.benchmark_group("engine");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("fifo_1m", |b| {
        b.iter(|| {
            fifo::run(black_box(&input), black_box(&market), &settings).expect("engine runs")
        });
    });
    group.finish();
}

/// Every IRPF year report (carry-forward state, summary, Modelo 100, annex, audit trail) over the
/// engine output of the same 100k-row ledger.
fn irpf_all_years_100k(c: &mut Criterion) {
    irpf_all_years(c, 100_000, "irpf_all_years_100k");
}

/// The same over the 1M-row ledger.
fn irpf_all_years_1m(c: &mut Criterion) {
    irpf_all_years(c, 1_000_000, "irpf_all_years_1m");
}

fn irpf_all_years(c: &mut Criterion, rows: usize, name: &str) {
    use core_domain::irpf::{IrpfComputation, IrpfInput, IrpfSettings};
    let ledger = synthetic(rows, 7);
    let input = ledger.input();
    let market = ledger.market();
    let output = fifo::run(&input, &market, &EngineSettings::default()).expect("engine runs");
    let settings = IrpfSettings::default();
    let irpf_input = IrpfInput {
        engine_input: &input,
        output: &output,
        accounts: &ledger.accounts,
        settings: &settings,
    };
    let years = IrpfComputation::new(irpf_input)
        .expect("irpf prepares")
        .by_year
        .keys()
        .copied()
        .collect::<Vec<_>>();
    let mut group = c.benchmark_group("irpf");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function(name, |b| {
        b.iter(|| {
            let comp = IrpfComputation::new(black_box(irpf_input)).expect("irpf prepares");
            for year in &years {
                black_box(comp.year_report(*year).expect("irpf report"));
            }
        });
    });
    group.finish();
}

criterion_group!(small, engine_100k);
criterion_group!(irpf, irpf_all_years_100k);
criterion_group!(large, engine_1m, irpf_all_years_1m);

fn main() {
    small();
    irpf();
    if std::env::var_os("CARTERA_BENCH_1M").is_some() {
        large();
    }
    Criterion::default().configure_from_args().final_summary();
}
