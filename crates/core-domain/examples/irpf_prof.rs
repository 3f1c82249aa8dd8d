#![allow(missing_docs, clippy::print_stdout)]
//! Temporary profiling helper (not committed).
use std::time::Instant;

use core_domain::fifo::{self, EngineSettings};
use core_domain::irpf::{IrpfComputation, IrpfInput, IrpfSettings};
use core_domain::testkit::synthetic::synthetic;

fn main() {
    let ledger = synthetic(100_000, 7);
    let input = ledger.input();
    let market = ledger.market();
    let t = Instant::now();
    let output = fifo::run(&input, &market, &EngineSettings::default()).unwrap();
    println!(
        "engine {:?}; slices {} ops {} income {} lots {}",
        t.elapsed(),
        output.slices.len(),
        output.operations.len(),
        output.income.len(),
        output.lots.len()
    );
    let settings = IrpfSettings::default();
    let irpf_input = IrpfInput {
        engine_input: &input,
        output: &output,
        accounts: &ledger.accounts,
        settings: &settings,
    };
    for _ in 0..15 {
        let t = Instant::now();
        let comp = IrpfComputation::new(irpf_input).unwrap();
        println!("prepare {:?}", t.elapsed());
        let years: Vec<i32> = comp.by_year.keys().copied().collect();
        for y in &years {
            let t = Instant::now();
            let r = comp.year_report(*y).unwrap();
            if *y == 2016 {
                println!("  {y} {:?} audit {}", t.elapsed(), r.audit_trail.len());
            }
        }
    }
}
