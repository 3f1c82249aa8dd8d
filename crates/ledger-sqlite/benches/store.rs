//! Criterion benchmarks of the store's two hot paths at 100k rows: the atomic import batch and
//! the ledger-order load. The 1M figures come from `cargo run --release --example scale`.
#![allow(
    clippy::disallowed_methods,
    reason = "tests, benches and examples read their knobs from the environment"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use ledger_sqlite::SqliteLedger;
use use_cases::ports::{LedgerRead, LedgerWrite};

#[path = "synthetic.rs"]
mod synthetic;

const ROWS: usize = 100_000;

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cartera-bench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ledger.sqlite")
}

fn insert(c: &mut Criterion) {
    let batch = synthetic::batch(ROWS, 7);
    let mut group = c.benchmark_group("store");
    group.sample_size(10);
    group.bench_function("import_batch_100k", |b| {
        b.iter_batched(
            || {
                let path = temp_path("insert");
                SqliteLedger::open(&path).unwrap()
            },
            |mut ledger| ledger.write_import_batch(&batch).unwrap(),
            criterion::BatchSize::PerIteration,
        );
    });
    let path = temp_path("load");
    SqliteLedger::open(&path)
        .unwrap()
        .write_import_batch(&batch)
        .unwrap();
    group.bench_function("open_and_snapshot_100k", |b| {
        b.iter(|| {
            let ledger = SqliteLedger::open(&path).unwrap();
            ledger.snapshot().unwrap().spot_rows.len()
        });
    });
    group.finish();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

criterion_group!(benches, insert);
criterion_main!(benches);
