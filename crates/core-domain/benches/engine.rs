//! Criterion benchmarks of the FIFO engine over synthetic ledgers (`performance.md`).
//!
//! `cargo bench -p core-domain --bench engine` measures the engine over 100k rows. Set
//! `CARTERA_BENCH_1M=1` to also measure one 1M-row ledger (the ≤ 1 s target); the 1M group
//! takes a few runs only, since generating its market data dominates the wall time.

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

criterion_group!(small, engine_100k);
criterion_group!(large, engine_1m);

fn main() {
    small();
    if std::env::var_os("CARTERA_BENCH_1M").is_some() {
        large();
    }
    Criterion::default().configure_from_args().final_summary();
}
