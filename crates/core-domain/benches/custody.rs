//! Criterion benchmarks of custody and the integrity rows over synthetic ledgers
//! (`performance.md`): the engine's output is computed once, custody is measured on its own.
//!
//! `cargo bench -p core-domain --bench custody` measures 100k rows; set `CARTERA_BENCH_1M=1`
//! to also measure one 1M-row ledger.

use std::hint::black_box;
use std::time::Duration;

use core_domain::custody::allocate;
use core_domain::fifo::{self, EngineSettings};
use core_domain::quality::integrity_rows;
use core_domain::testkit::synthetic::synthetic;
use criterion::{Criterion, criterion_group};

fn measure(c: &mut Criterion, rows: usize, name: &str) {
    let ledger = synthetic(rows, 7);
    let input = ledger.input();
    let output =
        fifo::run(&input, &ledger.market(), &EngineSettings::default()).expect("engine runs");
    let accounts = ledger.accounts.clone();
    drop(ledger);
    let mut group = c.benchmark_group("custody");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function(format!("allocate_{name}"), |b| {
        b.iter(|| {
            allocate(black_box(&input), black_box(&output), &accounts, &[]).expect("custody runs")
        });
    });
    let custody = allocate(&input, &output, &accounts, &[]).expect("custody runs");
    group.bench_function(format!("integrity_rows_{name}"), |b| {
        b.iter(|| {
            integrity_rows(black_box(&input), black_box(&output), &accounts, &custody)
                .expect("quality runs")
        });
    });
    group.finish();
}

fn custody_100k(c: &mut Criterion) {
    measure(c, 100_000, "100k");
}

fn custody_1m(c: &mut Criterion) {
    measure(c, 1_000_000, "1m");
}

criterion_group!(small, custody_100k);
criterion_group!(large, custody_1m);

fn main() {
    small();
    if std::env::var_os("CARTERA_BENCH_1M").is_some() {
        large();
    }
    Criterion::default().configure_from_args().final_summary();
}
