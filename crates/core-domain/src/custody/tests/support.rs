//! Test support: the real FIFO engine run without prices (values do not matter to custody).

use crate::engine::{EngineInput, EngineOutput, LotId};
use crate::fifo::{EngineSettings, run};
use crate::market::Market;

/// The engine output for `input`, with an empty price and rate store.
pub(crate) fn engine(input: &EngineInput) -> EngineOutput {
    run(input, &Market::default(), &EngineSettings::default()).unwrap()
}

/// `L:<row_key>:<k>`.
pub(crate) fn lot_key(input: &EngineInput, lot: LotId) -> String {
    input.lot_public_id(lot)
}
