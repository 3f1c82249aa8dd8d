//! The synthetic ledger of the benchmarks: the engine on one thread equals it on several (a
//! library caller runs it on a pool of its own), and the engine's invariants hold at a few
//! thousand rows.

use core_domain::custody::allocate;
use core_domain::engine::{EngineInput, EngineOutput};
use core_domain::fifo::{self, EngineBuffers, EngineSettings};
use core_domain::irpf::{IrpfComputation, IrpfInput, IrpfSettings};
use core_domain::pipeline::{self, custody_and_year_reports};
use core_domain::testkit::Outcome;
use core_domain::testkit::on_threads;
use core_domain::testkit::synthetic::{Synthetic, synthetic};
use rust_decimal::Decimal;

/// Pool sizes the runs are compared on: one thread, the two of this machine, more than it has.
const POOLS: [usize; 3] = [1, 2, 5];

#[test]
fn engine_runs_on_one_thread_and_on_several_and_prefaulted_are_identical() {
    let ledger = synthetic(6_000, 3);
    let input = ledger.input();
    let market = ledger.market();
    let settings = EngineSettings::default();
    let dump = |threads: usize, buffers: EngineBuffers| {
        let output = on_threads(threads, || {
            fifo::run_in(&input, &market, &settings, buffers).expect("engine runs")
        });
        let outcome = Outcome {
            accounts: ledger.accounts.clone(),
            input: input.clone(),
            output,
        };
        outcome.dump()
    };
    let sequential = dump(1, EngineBuffers::default());
    for threads in POOLS {
        assert_eq!(
            sequential,
            dump(threads, EngineBuffers::for_rows(input.rows.len())),
            "{threads} threads"
        );
        // Buffers written ahead (placeholders cleared again) change nothing.
        assert_eq!(sequential, dump(threads, EngineBuffers::prefaulted(&input)));
    }
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
fn custody_and_irpf_on_one_thread_equal_them_on_several() {
    let (ledger, input, output) = engine_run(5);
    let custody = |threads: usize| {
        on_threads(threads, || {
            let custody = allocate(&input, &output, &ledger.accounts, &[]).expect("custody runs");
            format!("{custody:?}")
        })
    };
    let settings = IrpfSettings::default();
    let irpf_input = IrpfInput {
        engine_input: &input,
        output: &output,
        accounts: &ledger.accounts,
        settings: &settings,
    };
    // The preparation's passes and every year's report.
    let reports = |threads: usize| {
        on_threads(threads, || {
            let computation = IrpfComputation::new(irpf_input).expect("irpf prepares");
            let years: Vec<i32> = computation.by_year.keys().copied().collect();
            assert!(years.len() > 3, "several years: {years:?}");
            let reports: Vec<String> = years
                .iter()
                .map(|year| format!("{:?}", computation.year_report(*year).expect("report")))
                .collect();
            (format!("{:?}", computation.by_year), reports)
        })
    };
    let (one_custody, one_reports) = (custody(1), reports(1));
    for threads in POOLS {
        assert_eq!(custody(threads), one_custody, "{threads} threads");
        assert_eq!(reports(threads), one_reports, "{threads} threads");
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
    for threads in POOLS {
        let mut built = Vec::new();
        let (allocation, reports) = on_threads(threads, || {
            custody_and_year_reports(irpf_input, &[], None, &mut |report| {
                built.push(format!("{report:?}"));
            })
        });
        reports.expect("irpf reports");
        assert_eq!(
            format!("{:?}", allocation.expect("custody runs")),
            format!("{custody:?}"),
            "{threads} threads"
        );
        assert_eq!(built, alone, "{threads} threads");
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
