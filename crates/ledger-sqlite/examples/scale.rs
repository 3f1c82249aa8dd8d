//! Times the store at benchmark sizes: `cargo run --release -p ledger-sqlite --example scale
//! -- 100000 1000000`. Prints the import batch throughput and the cold-open ledger load.
#![allow(
    clippy::disallowed_methods,
    reason = "tests, benches and examples read their knobs from the environment"
)]
#![allow(clippy::print_stdout)] // A measuring tool prints its figures.
#![allow(clippy::cast_precision_loss)] // Timings and rates, not amounts: f64 is right here.

use std::time::Instant;

use ledger_sqlite::SqliteLedger;
use use_cases::ports::{LedgerRead, LedgerWrite};

#[path = "../benches/synthetic.rs"]
mod synthetic;

/// CPU seconds (user + system) this process has used: on a shared machine wall time mostly
/// measures the neighbours. Linux only; 0 elsewhere.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of proc(5) (utime, stime), counted after the command name; 100 Hz.
    (ticks(11) + ticks(12)) / 100.0
}

/// Wall and CPU seconds of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let value = f();
    (value, wall.elapsed().as_secs_f64(), cpu_seconds() - cpu)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![100_000, 1_000_000]
    } else {
        sizes
    };
    for n in sizes {
        let batch = synthetic::batch(n, 7);
        let dir = std::env::temp_dir().join(format!("cartera-scale-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("ledger.sqlite");

        let (outcome, insert_wall, insert_cpu) = timed(|| {
            let mut ledger = SqliteLedger::open(&path).unwrap();
            ledger.write_import_batch(&batch).unwrap()
        });
        assert_eq!(outcome.added_spot, n as u64);
        if std::env::var_os("SCALE_IMPORT_ONLY").is_some() {
            println!("{n} rows: import {insert_wall:.3} s wall / {insert_cpu:.2} s cpu");
            let _ = std::fs::remove_dir_all(&dir);
            continue;
        }
        let (again, reimport_wall, reimport_cpu) = timed(|| {
            SqliteLedger::open(&path)
                .unwrap()
                .write_import_batch(&batch)
                .unwrap()
        });
        assert_eq!(again.duplicates.len(), n);
        let mut loads = Vec::new();
        for _ in 0..5 {
            let (rows, wall, cpu) = timed(|| {
                let ledger = SqliteLedger::open(&path).unwrap();
                ledger.snapshot().unwrap().spot_rows.len()
            });
            assert_eq!(rows, n);
            loads.push((wall, cpu));
        }
        loads.sort_by(|a, b| a.0.total_cmp(&b.0));
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        println!(
            "{n} rows: import {insert_wall:.3} s wall / {insert_cpu:.2} s cpu \
             ({:.0} rows/s wall, {:.0} rows/s cpu); re-import (all duplicates) \
             {reimport_wall:.3} s wall / {reimport_cpu:.2} s cpu; open+snapshot median \
             {:.3} s wall / {:.2} s cpu (min {:.3} s wall); file {} MB",
            n as f64 / insert_wall,
            n as f64 / insert_cpu.max(0.01),
            loads[2].0,
            loads[2].1,
            loads[0].0,
            size / 1_000_000
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
