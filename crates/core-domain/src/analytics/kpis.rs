//! KPIs at the as-of date in the display currency (`domain.md` §11.5).

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use shared_types::{FuturesKind, QualityFlag, SpotTxType};

use crate::asset::Asset;
use crate::engine::{DisposalLeg, Lot};
use crate::error::DomainResult;
use crate::num;
use crate::time::Date;

use super::risk::{RiskMetrics, risk_metrics};
use super::series::{AssetValue, DailySeries};
use super::{AnalyticsContext, DisplayCurrency};

/// Trade statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TradeStats {
    /// Trades counted.
    pub total_trades: usize,
    /// Result > 0.
    pub winning_trades: usize,
    /// Result < 0.
    pub losing_trades: usize,
    /// `winning × 100 ÷ total` (`PERCENT`); null when no trade.
    pub win_rate_percent: Option<Decimal>,
    /// `mean(positive) ÷ |mean(negative)|` (`RATIO`); null unless both exist.
    pub average_r: Option<Decimal>,
}

/// Best or worst asset by ROI over its tracked lots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssetPerformance {
    /// The asset.
    pub asset: Asset,
    /// `(value − cost) ÷ cost × 100` (`PERCENT`).
    pub roi_pct: Decimal,
    /// `V_a(T) × rate(c, T) ÷ total_equity × 100` (`PERCENT`); null when the equity is 0 or null.
    pub allocation_pct: Option<Decimal>,
}

/// The KPIs of `domain.md` §11.5 (money in the display currency, exact until output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kpis {
    /// The display currency.
    pub currency: DisplayCurrency,
    /// `V_c(T)`; null when the display rate is missing.
    pub total_equity: Option<Decimal>,
    /// Σ tracked lots' converted remaining cost.
    pub total_cost_basis: Decimal,
    /// Σ tracked lots' value at `T` − the cost basis.
    pub total_unrealized_pnl: Decimal,
    /// Lots with remaining quantity > 0 and unknown cost.
    pub excluded_flagged_lots: usize,
    /// Σ included slice results + Σ known derivative results dated ≤ `T`, each converted at
    /// its own date.
    pub total_realized_pnl: Decimal,
    /// Realized + unrealized.
    pub total_roi_fiat: Decimal,
    /// ROI ÷ cost basis × 100; null when the cost basis is 0.
    pub total_roi_percent: Option<Decimal>,
    /// `V_c(T) − V_c(T − 1)`; null if either is null.
    pub delta_24h: Option<Decimal>,
    /// `max V_c(d)` over non-null points `d ≤ T`.
    pub all_time_high: Option<Decimal>,
    /// Risk metrics (§11.4).
    pub risk: RiskMetrics,
    /// Trade statistics.
    pub trades: TradeStats,
    /// Highest ROI (ties by symbol); needs two assets with tracked cost > 0.
    pub best_asset: Option<AssetPerformance>,
    /// Lowest ROI (ties by symbol).
    pub worst_asset: Option<AssetPerformance>,
    /// Some asset has `q > 0` and no price at `T`.
    pub prices_incomplete: bool,
    /// Some display or fiscal conversion had no rate.
    pub rates_incomplete: bool,
}

/// Realized P&L in the display currency and whether a conversion was missing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Realized {
    /// Σ included slice results + Σ known derivative results dated ≤ `T`, converted.
    pub amount: Decimal,
    /// Some result could not be converted (it is left out, never converted at 1).
    pub rates_incomplete: bool,
}

/// `total_realized_pnl` of §11.5 (shared by the holdings totals of §12.1).
pub fn realized_pnl(ctx: &AnalyticsContext<'_>) -> DomainResult<Realized> {
    let as_of = ctx.as_of_date();
    let mut realized = Realized::default();
    let add = |eur: Decimal, date: Date, realized: &mut Realized| -> DomainResult<()> {
        match ctx.currency.convert(ctx.market, eur, date)? {
            Some(v) => realized.amount = num::add(realized.amount, v, "realized")?,
            None => realized.rates_incomplete = true,
        }
        Ok(())
    };
    for slice in &ctx.output.slices {
        let Some(op) = ctx.output.operations.get(slice.operation as usize) else {
            continue;
        };
        if op.fiscal_date > as_of {
            continue;
        }
        // A fiscal value that failed for want of an ECB rate leaves the figure incomplete.
        if slice.flags.contains(QualityFlag::MissingFxRate) {
            realized.rates_incomplete = true;
        }
        if let (true, Some(result)) = (slice.included, slice.result()) {
            add(result, op.fiscal_date, &mut realized)?;
        }
    }
    for derivative in &ctx.output.derivatives {
        if derivative.fiscal_date > as_of {
            continue;
        }
        if derivative.flags.contains(QualityFlag::MissingFxRate) {
            realized.rates_incomplete = true;
        }
        if let Some(net) = derivative.net {
            add(net, derivative.fiscal_date, &mut realized)?;
        }
    }
    Ok(realized)
}

fn trade_stats(
    ctx: &AnalyticsContext<'_>,
    rates_incomplete: &mut bool,
) -> DomainResult<TradeStats> {
    let as_of = ctx.as_of_date();
    let mut results: Vec<Decimal> = Vec::new();
    let mut push = |eur: Decimal, date: Date, rates_incomplete: &mut bool| -> DomainResult<()> {
        match ctx.currency.convert(ctx.market, eur, date)? {
            Some(v) => results.push(v),
            None => *rates_incomplete = true,
        }
        Ok(())
    };
    for op in &ctx.output.operations {
        let trade_type = matches!(
            op.tx_type,
            SpotTxType::Sell | SpotTxType::Spend | SpotTxType::Swap
        );
        if op.leg != DisposalLeg::Principal || !trade_type || op.fiscal_date > as_of {
            continue;
        }
        let mut any = false;
        let mut total = Decimal::ZERO;
        for slice in ctx.output.slices_of(op) {
            if let (true, Some(result)) = (slice.included, slice.result()) {
                any = true;
                total = num::add(total, result, "trade result")?;
            }
        }
        if any {
            push(total, op.fiscal_date, rates_incomplete)?;
        }
    }
    for derivative in &ctx.output.derivatives {
        let trade_kind = matches!(
            derivative.kind,
            FuturesKind::Trade | FuturesKind::Settlement | FuturesKind::Liquidation
        );
        if let (true, Some(net)) = (trade_kind, derivative.net)
            && derivative.fiscal_date <= as_of
        {
            push(net, derivative.fiscal_date, rates_incomplete)?;
        }
    }
    let positives: Vec<Decimal> = results
        .iter()
        .copied()
        .filter(|r| *r > Decimal::ZERO)
        .collect();
    let negatives: Vec<Decimal> = results
        .iter()
        .copied()
        .filter(|r| *r < Decimal::ZERO)
        .collect();
    let total = results.len();
    let win_rate_percent = if total == 0 {
        None
    } else {
        Some(num::div(
            num::mul(
                Decimal::from(positives.len()),
                Decimal::ONE_HUNDRED,
                "win rate",
            )?,
            Decimal::from(total),
            "win rate",
        )?)
    };
    let average_r = if positives.is_empty() || negatives.is_empty() {
        None
    } else {
        let mean = |values: &[Decimal]| -> DomainResult<Decimal> {
            let sum = values
                .iter()
                .try_fold(Decimal::ZERO, |acc, v| num::add(acc, *v, "average r"))?;
            num::div(sum, Decimal::from(values.len()), "average r")
        };
        Some(num::div(
            mean(&positives)?,
            mean(&negatives)?.abs(),
            "average r",
        )?)
    };
    Ok(TradeStats {
        total_trades: total,
        winning_trades: positives.len(),
        losing_trades: negatives.len(),
        win_rate_percent,
        average_r,
    })
}

/// Σ over an asset's tracked lots: (value at `T`, converted cost).
#[derive(Clone, Copy, Debug, Default)]
struct Tracked {
    value: Decimal,
    cost: Decimal,
    lots: usize,
}

/// The converted remaining cost of a lot: `remaining_cost × rate(c, acquired_on)`; `Ok(None)`
/// when the lot's cost is unknown or the rate is missing (`bool` says which).
pub(crate) fn converted_remaining_cost(
    ctx: &AnalyticsContext<'_>,
    lot: &Lot,
) -> DomainResult<Result<Decimal, CostGap>> {
    let Some(cost) = lot.known_remaining_cost() else {
        return Ok(Err(CostGap::Unknown));
    };
    Ok(
        match ctx.currency.convert(ctx.market, cost, lot.acquired_on)? {
            Some(v) => Ok(v),
            None => Err(CostGap::NoRate),
        },
    )
}

/// Why a lot's cost is not usable in the display currency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CostGap {
    /// The lot's cost is unknown (or blocked).
    Unknown,
    /// No rate at its acquisition date.
    NoRate,
}

/// `(total_equity, delta_24h, all_time_high)` in the display currency.
fn equity_figures(
    ctx: &AnalyticsContext<'_>,
    series: &DailySeries,
    rates_incomplete: &mut bool,
) -> DomainResult<(Option<Decimal>, Option<Decimal>, Option<Decimal>)> {
    let as_of = ctx.as_of_date();
    let (currency, market) = (ctx.currency, ctx.market);
    let value_c = |date: Date| -> DomainResult<Option<Decimal>> {
        match series.point(date) {
            Some(point) => currency.convert(market, point.value_eur, date),
            // Before the first acquisition nothing is held: zero in any currency.
            None if series.first_date().is_none_or(|first| date < first) => Ok(Some(Decimal::ZERO)),
            None => Ok(None),
        }
    };
    let total_equity = value_c(as_of)?;
    let before = match as_of.pred_opt() {
        Some(day) => value_c(day)?,
        None => None,
    };
    let delta_24h = match (total_equity, before) {
        (Some(now), Some(before)) => Some(num::sub(now, before, "delta 24h")?),
        _ => None,
    };
    let mut all_time_high: Option<Decimal> = None;
    for point in series.up_to_as_of() {
        if let Some(v) = currency.convert(market, point.value_eur, point.date)? {
            all_time_high = Some(all_time_high.map_or(v, |h| h.max(v)));
        } else {
            *rates_incomplete = true;
        }
    }
    Ok((total_equity, delta_24h, all_time_high))
}

/// Tracked lots per asset (value at `T` and converted cost), and the count of open lots with
/// an unknown cost.
fn tracked_lots(
    ctx: &AnalyticsContext<'_>,
    close_at: &BTreeMap<Asset, Decimal>,
    display_rate_t: Option<Decimal>,
    rates_incomplete: &mut bool,
) -> DomainResult<(BTreeMap<Asset, Tracked>, usize)> {
    let mut per_asset: BTreeMap<Asset, Tracked> = BTreeMap::new();
    let mut excluded_flagged_lots = 0usize;
    for lot in &ctx.output.lots {
        if lot.remaining_quantity <= Decimal::ZERO {
            continue;
        }
        let cost = match converted_remaining_cost(ctx, lot)? {
            Ok(cost) => cost,
            Err(CostGap::Unknown) => {
                excluded_flagged_lots += 1;
                if lot.flags.contains(QualityFlag::MissingFxRate) {
                    *rates_incomplete = true;
                }
                continue;
            }
            Err(CostGap::NoRate) => {
                *rates_incomplete = true;
                continue;
            }
        };
        let (Some(close), Some(rate)) = (close_at.get(&lot.asset), display_rate_t) else {
            continue;
        };
        // An absurd display rate is no usable rate, as in `DisplayCurrency::convert` (D-146).
        let Some(value) = close
            .checked_mul(rate)
            .and_then(|price_c| lot.remaining_quantity.checked_mul(price_c))
            .and_then(num::within_limit)
        else {
            *rates_incomplete = true;
            continue;
        };
        let entry = per_asset.entry(lot.asset).or_default();
        entry.value = num::add(entry.value, value, "tracked value")?;
        entry.cost = num::add(entry.cost, cost, "tracked cost")?;
        entry.lots += 1;
    }
    Ok((per_asset, excluded_flagged_lots))
}

/// Best and worst asset by ROI (ties by symbol ascending); both `None` with fewer than two
/// assets of tracked cost > 0.
fn best_and_worst(
    per_asset: &BTreeMap<Asset, Tracked>,
    value_at: &BTreeMap<Asset, Decimal>,
    display_rate_t: Option<Decimal>,
    total_equity: Option<Decimal>,
) -> DomainResult<(Option<AssetPerformance>, Option<AssetPerformance>)> {
    let mut performances: Vec<AssetPerformance> = Vec::new();
    for (asset, tracked) in per_asset {
        if tracked.lots == 0 || tracked.cost <= Decimal::ZERO {
            continue;
        }
        let roi = num::div(
            num::sub(tracked.value, tracked.cost, "asset roi")?,
            tracked.cost,
            "asset roi",
        )?;
        let allocation_pct = match (value_at.get(asset), display_rate_t, total_equity) {
            (Some(v), Some(rate), Some(equity)) if !equity.is_zero() => Some(num::mul(
                num::div(num::mul(*v, rate, "allocation")?, equity, "allocation")?,
                Decimal::ONE_HUNDRED,
                "allocation",
            )?),
            _ => None,
        };
        performances.push(AssetPerformance {
            asset: *asset,
            roi_pct: num::mul(roi, Decimal::ONE_HUNDRED, "asset roi")?,
            allocation_pct,
        });
    }
    if performances.len() < 2 {
        return Ok((None, None));
    }
    // Performances are in symbol order; strict comparisons keep the first symbol on ties.
    let mut best = performances.first().copied();
    let mut worst = best;
    for p in &performances {
        if best.is_some_and(|b| p.roi_pct > b.roi_pct) {
            best = Some(*p);
        }
        if worst.is_some_and(|w| p.roi_pct < w.roi_pct) {
            worst = Some(*p);
        }
    }
    Ok((best, worst))
}

/// The KPIs of §11.5 from a series built with the same context.
pub fn kpis(ctx: &AnalyticsContext<'_>, series: &DailySeries) -> DomainResult<Kpis> {
    let as_of = ctx.as_of_date();
    let mut rates_incomplete = false;
    let mut prices_incomplete = false;
    let display_rate_t = ctx.currency.rate(ctx.market, as_of);
    if display_rate_t.is_none() {
        rates_incomplete = true;
    }
    let (total_equity, delta_24h, all_time_high) =
        equity_figures(ctx, series, &mut rates_incomplete)?;

    // EUR closes and values at T per held asset, from the series.
    let mut close_at: BTreeMap<Asset, Decimal> = BTreeMap::new();
    let mut value_at: BTreeMap<Asset, Decimal> = BTreeMap::new();
    for held in &series.at_as_of {
        match held.value {
            AssetValue::Known { value, close } => {
                close_at.insert(held.asset, close);
                value_at.insert(held.asset, value);
            }
            AssetValue::Unvalued(reason) => {
                prices_incomplete = true;
                if reason == super::UnvaluedReason::NoRate {
                    rates_incomplete = true;
                }
            }
        }
    }
    let (per_asset, excluded_flagged_lots) =
        tracked_lots(ctx, &close_at, display_rate_t, &mut rates_incomplete)?;
    let mut total_cost_basis = Decimal::ZERO;
    let mut tracked_value = Decimal::ZERO;
    for tracked in per_asset.values() {
        total_cost_basis = num::add(total_cost_basis, tracked.cost, "cost basis")?;
        tracked_value = num::add(tracked_value, tracked.value, "tracked value")?;
    }
    let total_unrealized_pnl = num::sub(tracked_value, total_cost_basis, "unrealized")?;
    let realized = realized_pnl(ctx)?;
    rates_incomplete |= realized.rates_incomplete;
    let total_roi_fiat = num::add(realized.amount, total_unrealized_pnl, "roi")?;
    let total_roi_percent = if total_cost_basis.is_zero() {
        None
    } else {
        Some(num::mul(
            num::div(total_roi_fiat, total_cost_basis, "roi percent")?,
            Decimal::ONE_HUNDRED,
            "roi percent",
        )?)
    };
    let (best_asset, worst_asset) =
        best_and_worst(&per_asset, &value_at, display_rate_t, total_equity)?;
    let trades = trade_stats(ctx, &mut rates_incomplete)?;
    Ok(Kpis {
        currency: ctx.currency,
        total_equity,
        total_cost_basis,
        total_unrealized_pnl,
        excluded_flagged_lots,
        total_realized_pnl: realized.amount,
        total_roi_fiat,
        total_roi_percent,
        delta_24h,
        all_time_high,
        risk: risk_metrics(series, ctx.market)?,
        trades,
        best_asset,
        worst_asset,
        prices_incomplete,
        rates_incomplete,
    })
}
