//! The synthetic ledger of the benchmarks: the pipelined engine equals the sequential one, and
//! the engine's invariants hold at a few thousand rows.

use core_domain::custody::{allocate, allocate_with};
use core_domain::engine::{EngineInput, EngineOutput};
use core_domain::fifo::{self, EngineBuffers, EngineSettings};
use core_domain::irpf::{IrpfComputation, IrpfInput, IrpfSettings};
use core_domain::pipeline::{self, custody_and_year_reports_with};
use core_domain::testkit::Outcome;
use core_domain::testkit::synthetic::{Synthetic, synthetic};
use rust_decimal::Decimal;

#[test]
fn pipelined_sequential_and_prefaulted_runs_are_identical() {
    let ledger = synthetic(6_000, 3);
    let input = ledger.input();
    let market = ledger.market();
    let settings = EngineSettings::default();
    let dump = |pipelined: bool, buffers: EngineBuffers| {
        let output =
            fifo::run_with(&input, &market, &settings, pipelined, buffers).expect("engine runs");
        let outcome = Outcome {
            accounts: ledger.accounts.clone(),
            input: input.clone(),
            output,
        };
        outcome.dump()
    };
    let sequential = dump(false, EngineBuffers::default());
    assert_eq!(
        sequential,
        dump(true, EngineBuffers::for_rows(input.rows.len()))
    );
    // Buffers written ahead (placeholders cleared again) change nothing.
    let prefaulted = EngineBuffers::prefaulted(&input);
    assert_eq!(sequential, dump(true, prefaulted));
    assert!(
        sequential.len() > 6_000,
        "a real workload: {} records",
        sequential.len()
    );
}

/// A 6,000-row synthetic ledger of `seed`, its engine input and the engine's output.
fn engine_run(seed: u64) -> (Synthetic, EngineInput, EngineOutput) {
    let ledger = synthetic(6_000, seed);
    let input = ledger.input();
    let output =
        fifo::run(&input, &ledger.market(), &EngineSettings::default()).expect("engine runs");
    (ledger, input, output)
}

#[test]
fn two_thread_custody_and_irpf_equal_the_sequential_ones() {
    let (ledger, input, output) = engine_run(5);
    let custody = |parallel: bool| {
        let custody =
            allocate_with(&input, &output, &ledger.accounts, &[], parallel).expect("custody runs");
        format!("{custody:?}")
    };
    assert_eq!(custody(false), custody(true));
    let settings = IrpfSettings::default();
    let irpf_input = IrpfInput {
        engine_input: &input,
        output: &output,
        accounts: &ledger.accounts,
        settings: &settings,
    };
    // The preparation's passes on two threads and on one.
    let computation = IrpfComputation::new_with(irpf_input, false).expect("irpf prepares");
    let split = IrpfComputation::new_with(irpf_input, true).expect("irpf prepares");
    assert_eq!(
        format!("{:?}", computation.by_year),
        format!("{:?}", split.by_year)
    );
    let years: Vec<i32> = computation.by_year.keys().copied().collect();
    assert!(years.len() > 3, "several years: {years:?}");
    for year in years {
        let report = |computation: &IrpfComputation<'_>, parallel: bool| {
            let report = computation
                .year_report_with(year, parallel)
                .expect("irpf report");
            format!("{report:?}")
        };
        let sequential = report(&computation, false);
        assert_eq!(sequential, report(&computation, true), "year {year}");
        assert_eq!(sequential, report(&split, false), "year {year}");
    }
}

#[test]
fn custody_beside_the_year_reports_equals_each_alone() {
    let (ledger, input, output) = engine_run(7);
    let settings = IrpfSettings::default();
    let irpf_input = IrpfInput {
        engine_input: &input,
        output: &output,
        accounts: &ledger.accounts,
        settings: &settings,
    };
    // Each reader alone, as the lazy questions build them.
    let custody = allocate(&input, &output, &ledger.accounts, &[]).expect("custody runs");
    let computation = IrpfComputation::new(irpf_input).expect("irpf prepares");
    let every: Vec<i32> = computation.by_year.keys().copied().collect();
    assert!(every.len() > 3, "several years: {every:?}");
    let alone: Vec<String> = every
        .iter()
        .map(|year| format!("{:?}", computation.year_report(*year).expect("irpf report")))
        .collect();
    for parallel in [false, true] {
        let mut built = Vec::new();
        let (allocation, reports) = custody_and_year_reports_with(
            irpf_input,
            &[],
            None,
            &mut |report| built.push(format!("{report:?}")),
            parallel,
        );
        reports.expect("irpf reports");
        assert_eq!(
            format!("{:?}", allocation.expect("custody runs")),
            format!("{custody:?}"),
            "parallel {parallel}"
        );
        assert_eq!(built, alone, "parallel {parallel}");
    }
    // Years named: those, in that order, a year without records included.
    let mut built = Vec::new();
    let named = [every[1], 1999, every[0]];
    pipeline::year_reports(irpf_input, Some(&named), &mut |report| {
        built.push(report.year);
    })
    .expect("irpf reports");
    assert_eq!(built, named);
}

#[test]
fn synthetic_ledger_is_deterministic_and_conserves_quantity() {
    let first = synthetic(3_000, 11);
    let second = synthetic(3_000, 11);
    assert_eq!(first.rows, second.rows);
    assert_eq!(first.prices, second.prices);
    let output = fifo::run(&first.input(), &first.market(), &EngineSettings::default())
        .expect("engine runs");
    let acquired: Decimal = output.lots.iter().map(|l| l.original_quantity).sum();
    let remaining: Decimal = output.lots.iter().map(|l| l.remaining_quantity).sum();
    let consumed: Decimal = output
        .slices
        .iter()
        .filter(|s| s.lot_id.is_some())
        .map(|s| s.quantity)
        .sum();
    assert_eq!(acquired, remaining + consumed);
    assert!(
        output.slices.iter().any(|s| s.lot_id.is_none()),
        "some disposals are uncovered"
    );
}
