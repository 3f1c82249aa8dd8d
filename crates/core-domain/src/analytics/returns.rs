//! External flows `F_a(d)` (`domain.md` §11.3) and the return arithmetic.
//!
//! Flows reuse the engine's valuations, never re-deriving them: SELL and SPEND take the
//! principal operation's gross value, SWAP the two legs of its `SwapDetail`, BUY its
//! consideration before fees (the lot's value when the row has no fee, else
//! [`crate::valuation::value_row`]), MIGRATION_SWAP the §7.2 market value of its out-leg, else
//! of its in-leg. A disposal that was partly uncovered flows only its covered share: the
//! uncovered coins were never part of `q_a`, and counting them would show a sale as a gain.

use chrono::Datelike as _;
use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::asset::Asset;
use crate::engine::{DisposalLeg, LotId, Operation, Valued};
use crate::error::DomainResult;
use crate::ledger::{AssetAmount, TxType};
use crate::num;
use crate::time::Date;
use crate::valuation::{Prices, market_value, value_row_with};

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

/// One flow keyed by asset, before indexing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawFlow {
    /// Fiscal date.
    pub date: Date,
    /// The crypto asset.
    pub asset: Asset,
    /// Signed EUR amount, or unknown.
    pub amount: Option<Decimal>,
}

/// BUY fiscal date and consideration before fees. Without a fee the lot's acquisition value is
/// exactly the consideration (§8.4 adds only fees), so the engine's lot is read; with a fee the
/// row is valued again by [`crate::valuation::value_row`].
fn buy_consideration(
    ctx: &AnalyticsContext<'_>,
    prices: &mut Prices<'_>,
    row_index: u32,
    row: &crate::engine::EffectiveRow,
) -> DomainResult<(Date, Option<Decimal>)> {
    let fee_free = row.row.fee.is_none_or(|fee| fee.quantity.is_zero());
    if fee_free
        && let Some(lot) = ctx.output.lot(LotId {
            row: row_index,
            k: 0,
        })
    {
        return Ok((lot.acquired_on, lot.acquisition_value));
    }
    let date = ctx.timezone.fiscal_date(row.row.instant);
    let values = value_row_with(row, date, prices)?;
    Ok((date, values.principal.and_then(|v| v.amount())))
}

/// The part of a disposal flow that left tracked holdings: `amount × covered ÷ quantity`,
/// where `covered` is the quantity taken from lots (the uncovered slice never was in `q_a`).
fn covered_part(
    ctx: &AnalyticsContext<'_>,
    op: &Operation,
    amount: Option<Decimal>,
) -> DomainResult<Option<Decimal>> {
    let Some(amount) = amount else {
        return Ok(None);
    };
    let mut covered = Decimal::ZERO;
    for slice in ctx.output.slices_of(op) {
        if slice.lot_id.is_some() {
            covered = num::add(covered, slice.quantity, "covered quantity")?;
        }
    }
    if covered == op.quantity || op.quantity.is_zero() {
        return Ok(Some(amount));
    }
    num::share(amount, covered, op.quantity, "covered flow").map(Some)
}

/// Every flow of the ledger, unsorted and keyed by asset (crypto assets only).
pub fn raw_flows(ctx: &AnalyticsContext<'_>) -> DomainResult<Vec<RawFlow>> {
    let mut raw: Vec<RawFlow> = Vec::new();
    let mut push = |date: Date, asset: Asset, amount: Option<Decimal>| {
        if asset.is_crypto() {
            raw.push(RawFlow {
                date,
                asset,
                amount,
            });
        }
    };
    // BUY from the rows (in ledger order: one price memo answers a day's repeated assets).
    let mut prices = Prices::new(ctx.market);
    for (index, row) in ctx.input.rows.iter().enumerate() {
        if row.row.tx_type != TxType::Spot(SpotTxType::Buy) {
            continue;
        }
        if let Some(inflow) = row.row.inflow {
            let (date, amount) = buy_consideration(ctx, &mut prices, index as u32, row)?;
            push(date, inflow.asset, amount);
        }
    }
    // SELL, SPEND, SWAP and MIGRATION_SWAP from their disposal legs.
    for op in &ctx.output.operations {
        let received = ctx
            .input
            .rows
            .get(op.row as usize)
            .and_then(|r| r.row.inflow);
        match (op.leg, op.tx_type) {
            (DisposalLeg::Principal, SpotTxType::Sell | SpotTxType::Spend) => {
                let gross = covered_part(ctx, op, op.gross_value)?;
                push(op.fiscal_date, op.asset, gross.map(|g| -g));
            }
            (DisposalLeg::Principal, SpotTxType::Swap) => {
                let (given, received_value) = match &op.swap {
                    Some(detail) => (detail.given.amount(), detail.received.amount()),
                    None => (op.valuation.as_ref().and_then(Valued::amount), None),
                };
                let given = covered_part(ctx, op, given)?;
                push(op.fiscal_date, op.asset, given.map(|g| -g));
                if let Some(inflow) = received {
                    push(op.fiscal_date, inflow.asset, received_value);
                }
            }
            (DisposalLeg::Migration, _) => {
                let Some(inflow) = received else {
                    continue;
                };
                let outflow = AssetAmount {
                    asset: op.asset,
                    quantity: op.quantity,
                };
                let m = match market_value(outflow, op.fiscal_date, ctx.market)?.amount() {
                    Some(m) => Some(m),
                    None => market_value(inflow, op.fiscal_date, ctx.market)?.amount(),
                };
                // Every carried lot (the uncovered part's included) enters `q` of the new
                // asset; only the covered part of the old asset leaves it.
                let out = covered_part(ctx, op, m)?;
                push(op.fiscal_date, op.asset, out.map(|m| -m));
                push(op.fiscal_date, inflow.asset, m);
            }
            _ => {}
        }
    }
    Ok(raw)
}

/// Indexes raw flows by `index_of` (assets outside it are skipped), sorted by `(date, asset)`
/// and aggregated per pair (unknown if any contribution is unknown).
pub fn index_flows(
    raw: &[RawFlow],
    index_of: &dyn Fn(Asset) -> Option<u32>,
) -> DomainResult<Vec<Flow>> {
    let indexed: Vec<Flow> = raw
        .iter()
        .filter_map(|f| {
            index_of(f.asset).map(|asset| Flow {
                date: f.date,
                asset,
                amount: f.amount,
            })
        })
        .collect();
    // Ordered by `(date, asset)` and, among equal keys, by position: the stable order, so
    // each merged amount adds its flows in list order. Sorting one word and a position per
    // flow beats a stable sort of the flows themselves.
    let mut order: Vec<(u64, u32)> = indexed
        .iter()
        .enumerate()
        .map(|(position, flow)| (flow_key(flow), position as u32))
        .collect();
    order.sort_unstable();
    let mut merged: Vec<Flow> = Vec::with_capacity(indexed.len());
    for &(_, position) in &order {
        let Some(&flow) = indexed.get(position as usize) else {
            continue;
        };
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

/// A word ordered as `(date, asset)`: the date's day number (offset to be non-negative) above
/// the asset index.
fn flow_key(flow: &Flow) -> u64 {
    let day = i64::from(flow.date.num_days_from_ce()) - i64::from(i32::MIN);
    (u64::try_from(day).unwrap_or(0) << 32) | u64::from(flow.asset)
}

/// The flows of the ledger, aggregated per `(date, asset)` and sorted by it. `index_of` maps an
/// asset to its index in the series (assets outside it are skipped).
pub fn flows(
    ctx: &AnalyticsContext<'_>,
    index_of: &dyn Fn(Asset) -> Option<u32>,
) -> DomainResult<Vec<Flow>> {
    index_flows(&raw_flows(ctx)?, index_of)
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
            // Assets not held on either day and without a flow add nothing (the common case
            // for a long tail of sold-out assets).
            if v.is_zero() && p.is_zero() && f.is_zero() {
                continue;
            }
            let change = num::sub(num::sub(v, p, "return")?, f, "return")?;
            numerator = num::add(numerator, change, "return")?;
            denominator = num::add(denominator, p, "return")?;
        }
    }
    if denominator > Decimal::ZERO {
        // A return too large to compute (a dust value the day before an absurd one, D-146) is
        // undefined that day, as one without a denominator.
        Ok(numerator.checked_div(denominator))
    } else {
        Ok(None)
    }
}
