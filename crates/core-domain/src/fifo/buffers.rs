//! The engine's output vectors, allocated and first written ahead of a run.

use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::asset::Asset;
use crate::engine::{
    DisposalLeg, EngineInput, FlagSet, Lot, LotId, Operation, QueueKey, Slice, SliceParts,
};
use crate::ledger::{AccountId, TxType};
use crate::time::{Date, Instant};

/// The engine's largest outputs (lots, disposal legs and slices), allocated before a run.
///
/// A fresh process pays a page fault for every page it writes first, and the matching loop
/// writes these vectors front to back. [`EngineBuffers::prefaulted`] writes each through the
/// length the input suggests, so a caller that builds it on an otherwise idle core (while it
/// reads prices, say) takes those faults off the matching thread. The run's result does not
/// depend on the buffers.
#[derive(Debug, Default)]
pub struct EngineBuffers {
    pub(super) lots: Vec<Lot>,
    pub(super) operations: Vec<Operation>,
    pub(super) slices: Vec<Slice>,
}

impl EngineBuffers {
    /// Room for a ledger of `rows` rows, nothing written (what [`super::run`] uses).
    pub fn for_rows(rows: usize) -> Self {
        Self {
            lots: Vec::with_capacity(rows),
            operations: Vec::with_capacity(rows),
            // About 1.2 slices per row in realistic ledgers; one growth step at most.
            slices: Vec::with_capacity(rows.saturating_add(rows / 2)),
        }
    }

    /// Buffers for `input`, each written once through the length its rows suggest: a lot per
    /// crypto acquisition, a leg per crypto disposal and crypto fee, a slice and a quarter per
    /// leg. A guess above the real count only writes pages the run leaves unused.
    pub fn prefaulted(input: &EngineInput) -> Self {
        let mut buffers = Self::for_rows(input.rows.len());
        let (lots, legs) = expected_counts(input);
        let Ok(asset) = Asset::new("EUR") else {
            return buffers;
        };
        prefault(&mut buffers.lots, lots, placeholder_lot(asset));
        prefault(&mut buffers.operations, legs, placeholder_operation(asset));
        prefault(
            &mut buffers.slices,
            legs.saturating_add(legs / 4),
            placeholder_slice(asset),
        );
        buffers
    }
}

/// Writes `n` copies of `template` (at most the capacity, so nothing reallocates) and clears
/// them again: the pages stay mapped, the length is back to zero.
fn prefault<T: Clone>(vector: &mut Vec<T>, n: usize, template: T) {
    let n = n.min(vector.capacity());
    vector.resize(n, template);
    vector.clear();
}

/// Crypto acquisitions, and crypto disposals plus crypto fees, of `input`'s rows. Transfers
/// move lots without opening or disposing of any (their fees are disposals).
pub(super) fn expected_counts(input: &EngineInput) -> (usize, usize) {
    let mut lots = 0usize;
    let mut legs = 0usize;
    for effective in &input.rows {
        let row = &effective.row;
        let TxType::Spot(tx_type) = row.tx_type else {
            continue;
        };
        let crypto = |asset: Asset| !asset.is_fiat();
        legs += usize::from(row.fee.is_some_and(|f| crypto(f.asset)));
        if matches!(tx_type, SpotTxType::TransferIn | SpotTxType::TransferOut) {
            continue;
        }
        lots += usize::from(row.inflow.is_some_and(|a| crypto(a.asset)));
        legs += usize::from(row.outflow.is_some_and(|a| crypto(a.asset)));
    }
    (lots, legs)
}

fn placeholder_lot(asset: Asset) -> Lot {
    Lot {
        lot_id: LotId { row: 0, k: 0 },
        asset,
        account_id: AccountId(0),
        origin_type: SpotTxType::Buy,
        carried_from: None,
        acquired_at: Instant::from_unix_nanos(0),
        acquired_on: Date::MIN,
        queue_key: QueueKey {
            acquired_at: Instant::from_unix_nanos(0),
            seq: 0,
            k: 0,
            tiebreak: 0,
        },
        original_quantity: Decimal::ZERO,
        remaining_quantity: Decimal::ZERO,
        acquisition_value: None,
        remaining_cost: None,
        provenance: None,
        fx: None,
        price: None,
        flags: FlagSet::EMPTY,
    }
}

fn placeholder_operation(asset: Asset) -> Operation {
    Operation {
        row: 0,
        seq: 0,
        leg: DisposalLeg::Principal,
        tx_type: SpotTxType::Sell,
        asset,
        quantity: Decimal::ZERO,
        disposed_at: Instant::from_unix_nanos(0),
        fiscal_date: Date::MIN,
        account_id: AccountId(0),
        gross_value: None,
        fee_expense: None,
        clave: None,
        flags: FlagSet::EMPTY,
        valuation: None,
        swap: None,
        slices: 0..0,
    }
}

fn placeholder_slice(asset: Asset) -> Slice {
    Slice::from(SliceParts {
        operation: 0,
        leg: DisposalLeg::Principal,
        n: 0,
        lot_id: None,
        asset,
        quantity: Decimal::ZERO,
        gross_value: None,
        fee_expense: None,
        acquisition_value: None,
        acquired_at: None,
        acquired_on: None,
        lot_account_id: None,
        acquisition_provenance: None,
        result: None,
        included: false,
        flags: FlagSet::EMPTY,
    })
}
