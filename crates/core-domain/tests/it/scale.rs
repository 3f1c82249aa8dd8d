//! The synthetic ledger of the benchmarks: the pipelined engine equals the sequential one, and
//! the engine's invariants hold at a few thousand rows.

use core_domain::fifo::{self, EngineSettings};
use core_domain::testkit::Outcome;
use core_domain::testkit::synthetic::synthetic;
use rust_decimal::Decimal;

#[test]
fn pipelined_and_sequential_runs_are_identical() {
    let ledger = synthetic(6_000, 3);
    let input = ledger.input();
    let market = ledger.market();
    let settings = EngineSettings::default();
    let dump = |pipelined: bool| {
        let output = fifo::run_with(&input, &market, &settings, pipelined).expect("engine runs");
        let outcome = Outcome {
            accounts: ledger.accounts.clone(),
            input: input.clone(),
            output,
        };
        outcome.dump()
    };
    let sequential = dump(false);
    assert_eq!(sequential, dump(true));
    assert!(
        sequential.len() > 6_000,
        "a real workload: {} records",
        sequential.len()
    );
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
