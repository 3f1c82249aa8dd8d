//! External flows `F_a(d)` (`domain.md` §11.3) and the return arithmetic.
//!
//! Flows reuse the engine's valuations, never re-deriving them: SELL and SPEND take the
//! principal operation's gross value, SWAP the two legs of its `SwapDetail`, BUY the
//! consideration of [`crate::valuation::value_row`] (before fees), MIGRATION_SWAP the §7.2
//! market value of its out-leg, else of its in-leg.

use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::asset::Asset;
use crate::engine::{DisposalLeg, Valued};
use crate::error::DomainResult;
use crate::ledger::TxType;
use crate::num;
use crate::time::Date;
use crate::valuation::{market_value, value_row};

use super::AnalyticsContext;

/// One flow: `amount` (EUR, signed; `None` when a contributing value is unknown) into the asset
/// at index `asset` of the series' asset list, on fiscal date `date`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Fiscal date.
    pub date: Date,
    /// Asset index.
    pub asset: u32,
    /// Signed EUR amount, or unknown.
    pub amount: Option<Decimal>,
}

/// Every crypto asset the flows touch (for the series' asset list).
pub fn flow_assets(ctx: &AnalyticsContext<'_>) -> Vec<Asset> {
    let mut assets = Vec::new();
    for row in &ctx.input.rows {
        let TxType::Spot(tx_type) = row.row.tx_type else {
            continue;
        };
        match tx_type {
            SpotTxType::Buy => assets.extend(row.row.inflow.map(|a| a.asset)),
            SpotTxType::Sell | SpotTxType::Spend => {
                assets.extend(row.row.outflow.map(|a| a.asset));
            }
            SpotTxType::Swap | SpotTxType::MigrationSwap => {
                assets.extend(row.row.inflow.map(|a| a.asset));
                assets.extend(row.row.outflow.map(|a| a.asset));
            }
            _ => {}
        }
    }
    assets.retain(Asset::is_crypto);
    assets
}

/// The flows of the ledger, aggregated per `(date, asset)` and sorted by it. `index_of` maps an
/// asset to its index in the series (assets outside it are skipped).
pub fn flows(
    ctx: &AnalyticsContext<'_>,
    index_of: &dyn Fn(Asset) -> Option<u32>,
) -> DomainResult<Vec<Flow>> {
    let mut raw: Vec<Flow> = Vec::new();
    let mut push = |date: Date, asset: Asset, amount: Option<Decimal>| {
        if let Some(index) = index_of(asset) {
            raw.push(Flow {
                date,
                asset: index,
                amount,
            });
        }
    };
    // BUY and MIGRATION_SWAP from the rows.
    for row in &ctx.input.rows {
        let TxType::Spot(tx_type) = row.row.tx_type else {
            continue;
        };
        match tx_type {
            SpotTxType::Buy => {
                if let Some(inflow) = row.row.inflow {
                    let date = ctx.timezone.fiscal_date(row.row.instant);
                    let values = value_row(row, date, ctx.market)?;
                    let amount = values.principal.and_then(|v| v.amount());
                    push(date, inflow.asset, amount);
                }
            }
            SpotTxType::MigrationSwap => {
                if let (Some(inflow), Some(outflow)) = (row.row.inflow, row.row.outflow) {
                    let date = ctx.timezone.fiscal_date(row.row.instant);
                    let m = match market_value(outflow, date, ctx.market)?.amount() {
                        Some(m) => Some(m),
                        None => market_value(inflow, date, ctx.market)?.amount(),
                    };
                    push(date, outflow.asset, m.map(|m| -m));
                    push(date, inflow.asset, m);
                }
            }
            _ => {}
        }
    }
    // SELL, SPEND and SWAP from the principal operations.
    for op in &ctx.output.operations {
        if op.leg != DisposalLeg::Principal {
            continue;
        }
        match op.tx_type {
            SpotTxType::Sell | SpotTxType::Spend => {
                push(op.fiscal_date, op.asset, op.gross_value.map(|g| -g));
            }
            SpotTxType::Swap => {
                let received_asset = ctx
                    .input
                    .rows
                    .get(op.row as usize)
                    .and_then(|r| r.row.inflow)
                    .map(|a| a.asset);
                let (given, received) = match &op.swap {
                    Some(detail) => (detail.given.amount(), detail.received.amount()),
                    None => (op.valuation.as_ref().and_then(Valued::amount), None),
                };
                push(op.fiscal_date, op.asset, given.map(|g| -g));
                if let Some(asset) = received_asset {
                    push(op.fiscal_date, asset, received);
                }
            }
            _ => {}
        }
    }
    raw.sort_by_key(|f| (f.date, f.asset));
    let mut merged: Vec<Flow> = Vec::with_capacity(raw.len());
    for flow in raw {
        match merged.last_mut() {
            Some(last) if last.date == flow.date && last.asset == flow.asset => {
                last.amount = match (last.amount, flow.amount) {
                    (Some(a), Some(b)) => Some(num::add(a, b, "flow")?),
                    _ => None,
                };
            }
            _ => merged.push(flow),
        }
    }
    Ok(merged)
}

/// `r(d) = Σ (V_a(d) − V_a(d−1) − F_a(d)) ÷ Σ V_a(d−1)` over the assets whose three terms are
/// known; `None` unless the denominator is > 0. `terms` yields `(V_a(d), V_a(d−1), F_a(d))`.
pub fn daily_return(
    terms: impl Iterator<Item = (Option<Decimal>, Option<Decimal>, Option<Decimal>)>,
) -> DomainResult<Option<Decimal>> {
    let mut numerator = Decimal::ZERO;
    let mut denominator = Decimal::ZERO;
    for (value, previous, flow) in terms {
        if let (Some(v), Some(p), Some(f)) = (value, previous, flow) {
            let change = num::sub(num::sub(v, p, "return")?, f, "return")?;
            numerator = num::add(numerator, change, "return")?;
            denominator = num::add(denominator, p, "return")?;
        }
    }
    if denominator > Decimal::ZERO {
        num::div(numerator, denominator, "return").map(Some)
    } else {
        Ok(None)
    }
}
