//! Times one engine run over a synthetic ledger: `cargo run --release -p core-domain
//! --features testkit --example engine_scale -- 1000000`.
#![allow(clippy::print_stdout)] // A measurement tool: its output is the point.

use std::time::Instant;

use core_domain::fifo::{self, EngineSettings};
use core_domain::testkit::synthetic::synthetic;

fn main() {
    let rows: usize = std::env::args()
        .nth(1)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(100_000);
    let started = Instant::now();
    let ledger = synthetic(rows, 7);
    let input = ledger.input();
    let market = ledger.market();
    drop(ledger);
    println!("generated {rows} rows in {:?}", started.elapsed());
    let settings = EngineSettings::default();
    let runs: usize = std::env::args()
        .nth(2)
        .and_then(|arg| arg.parse().ok())
        .unwrap_or(3);
    for run in 0..runs {
        let started = Instant::now();
        let output = fifo::run(&input, &market, &settings).expect("engine runs");
        println!(
            "run {run}: {:?} ({} lots, {} operations, {} slices, {} income)",
            started.elapsed(),
            output.lots.len(),
            output.operations.len(),
            output.slices.len(),
            output.income.len()
        );
    }
}
