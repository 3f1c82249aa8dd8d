//! Art. 33.5 re-acquisition review list (`irpf.md` §9): a warning only, figures unchanged.

use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::IrpfComputation;
use crate::asset::Asset;
use crate::engine::DisposalLeg;
use crate::error::DomainResult;
use crate::time::{Date, add_months};

/// A lot of the same asset acquired inside the window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reacquisition {
    /// `L:<row_key>:<k>`.
    pub lot_id: String,
    /// Fiscal acquisition date.
    pub acquired_on: Date,
    /// Original quantity of the lot.
    pub quantity: Decimal,
    /// The acquiring row's type.
    pub origin_type: SpotTxType,
}

/// A loss slice with re-acquisitions around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Art335Entry {
    /// `E:<row_key>:P:<n>`.
    pub slice_id: String,
    /// Asset.
    pub asset: Asset,
    /// Disposal date.
    pub disposed_on: Date,
    /// |result|.
    pub loss: Decimal,
    /// `disposed_on − 2 months`.
    pub window_from: Date,
    /// `disposed_on + 2 months`.
    pub window_to: Date,
    /// Lots acquired in the window, in queue order.
    pub reacquisitions: Vec<Reacquisition>,
}

/// The list for `year`: included principal slices with a loss and at least one re-acquisition,
/// ordered by disposal date then slice id.
pub fn art_33_5_list(comp: &IrpfComputation<'_>, year: i32) -> DomainResult<Vec<Art335Entry>> {
    let output = comp.input.output;
    let row_key = |row: u32| comp.row_key(row);
    // Lots are ordered by (asset, queue_key): each asset's lots form one contiguous run.
    let lots = &output.lots;
    let mut entries = Vec::new();
    for (slice, _) in comp.year_slices(year) {
        if !slice.included {
            continue;
        }
        let Some(result) = slice.result() else {
            continue;
        };
        if result >= Decimal::ZERO {
            continue;
        }
        let Some(op) = output.operations.get(slice.operation as usize) else {
            continue;
        };
        if op.leg != DisposalLeg::Principal {
            continue;
        }
        let window_from = add_months(op.fiscal_date, -2);
        let window_to = add_months(op.fiscal_date, 2);
        // Within an asset, queue order is acquisition order, so the window is a sub-run.
        let start = lots.partition_point(|l| l.asset < slice.asset);
        let end = lots.partition_point(|l| l.asset <= slice.asset);
        let run = lots.get(start..end).unwrap_or_default();
        let first = run.partition_point(|l| l.acquired_on < window_from);
        let reacquisitions: Vec<Reacquisition> = run
            .get(first..)
            .unwrap_or_default()
            .iter()
            .take_while(|l| l.acquired_on <= window_to)
            .filter(|l| {
                Some(l.lot_id) != slice.lot_id
                    && l.carried_from.is_none()
                    && l.origin_type != SpotTxType::MigrationSwap
            })
            .map(|l| Reacquisition {
                lot_id: format!("L:{}:{}", row_key(l.lot_id.row), l.lot_id.k),
                acquired_on: l.acquired_on,
                quantity: l.original_quantity,
                origin_type: l.origin_type,
            })
            .collect();
        if reacquisitions.is_empty() {
            continue;
        }
        entries.push(Art335Entry {
            slice_id: format!("E:{}:P:{}", row_key(op.row), slice.n),
            asset: slice.asset,
            disposed_on: op.fiscal_date,
            loss: -result,
            window_from,
            window_to,
            reacquisitions,
        });
    }
    entries.sort_by(|a, b| {
        a.disposed_on
            .cmp(&b.disposed_on)
            .then_with(|| a.slice_id.cmp(&b.slice_id))
    });
    Ok(entries)
}
