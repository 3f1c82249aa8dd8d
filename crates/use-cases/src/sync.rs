//! What `cartera sync` must fetch: the engine's price requests as (asset, first day) spans.
//!
//! The engine looks up a close for every crypto asset a row moves (in, out, fee; futures
//! settlement and fee assets) on the row's date, and the daily series value every held asset on
//! every day up to the as-of date. The sync therefore asks, per crypto asset, for every UTC day
//! from its first effective row to the as-of date (overrides applied, excluded rows dropped).

use std::collections::BTreeMap;

use core_domain::{Asset, Date};

use crate::UseCaseResult;
use crate::ports::LedgerRead;

/// Per crypto asset the ledger moves, the UTC day of its first effective row; sorted by asset.
pub fn price_needs<S: LedgerRead + ?Sized>(store: &S) -> UseCaseResult<Vec<(Asset, Date)>> {
    let rows = store.spot_rows()?;
    let futures = store.futures_rows()?;
    let overrides = store.overrides()?;
    let input = core_domain::effective::engine_input_owned(rows, futures, &overrides);
    let mut first: BTreeMap<Asset, Date> = BTreeMap::new();
    let mut note = |asset: Asset, date: Date| {
        if !asset.is_fiat() {
            first
                .entry(asset)
                .and_modify(|d| *d = (*d).min(date))
                .or_insert(date);
        }
    };
    for effective in &input.rows {
        let row = &effective.row;
        let date = row.instant.utc_date();
        for amount in [row.inflow.as_ref(), row.outflow.as_ref()]
            .into_iter()
            .flatten()
        {
            note(amount.asset, date);
        }
        if let Some(fee) = &row.fee {
            note(fee.asset, date);
        }
    }
    for row in &input.futures {
        let date = row.instant.utc_date();
        note(row.settlement_asset, date);
        if let Some(fee) = row.fee_asset {
            note(fee, date);
        }
    }
    Ok(first.into_iter().collect())
}

#[cfg(test)]
mod tests;
