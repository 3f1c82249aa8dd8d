//! Analytics over the daily valuation series (`domain.md` §11): allocation, KPIs, risk,
//! drawdown, performance and the volatility heatmap.

use chrono::Datelike;
use core_domain::Instant;
use core_domain::analytics::endpoints::{self, AllocationItem};
use core_domain::analytics::{self, DisplayCurrency, kpis, risk_metrics};
use core_domain::ranking::{downsample, rank_by_value};
use shared_types::dto::{
    AllocationItem as AllocationDto, AssetAllocation, AssetKpi, DrawdownCurve, DrawdownPoint,
    GapItem, KpisDto, PerformanceHistory, PerformancePoint, RiskMetricsDto, TradeStatsDto,
    VolatilityCell, VolatilityHeatmap,
};

use super::convert::{count, date, fiat, fiat_opt, pct, qty, ratio};
use super::state::Derived;
use super::tax::check_year;
use crate::error::{UseCaseError, UseCaseResult};

/// Samples `points` to at most `max_points` (none: all), with the omitted count.
fn sample<T: Clone>(points: Vec<T>, max_points: Option<usize>) -> UseCaseResult<(Vec<T>, u64)> {
    match max_points {
        None => Ok((points, 0)),
        Some(max) => {
            if max < 2 {
                return Err(UseCaseError::InvalidRequest {
                    field: "maxPoints".to_owned(),
                    reason: "must be at least 2".to_owned(),
                });
            }
            let d = downsample(&points, max)?;
            Ok((d.points, count(d.omitted_count)))
        }
    }
}

fn check_days(days: u32) -> UseCaseResult<()> {
    if days == 0 || days > endpoints::MAX_DAYS {
        return Err(UseCaseError::InvalidRequest {
            field: "days".to_owned(),
            reason: format!("must be between 1 and {}", endpoints::MAX_DAYS),
        });
    }
    Ok(())
}

/// `GetAssetAllocation`.
pub(crate) fn asset_allocation(
    derived: &Derived,
    as_of: Instant,
    currency: DisplayCurrency,
) -> UseCaseResult<AssetAllocation> {
    // Only the held assets at `T`: the daily series is not needed (nor built).
    let ctx = derived.context(as_of, currency);
    let day = ctx.as_of_date();
    let held = analytics::held_at_as_of(&ctx)?;
    let items = endpoints::asset_allocation(day, &held, derived.valuation_market(), currency)?;
    let ranked = rank_by_value(
        items,
        |item| match item {
            AllocationItem::Valued { value, .. } => Some(*value),
            AllocationItem::Unvalued { .. } => None,
        },
        usize::MAX,
    );
    let code = currency.code();
    let valued = ranked
        .ranked
        .iter()
        .filter_map(|item| match item {
            AllocationItem::Valued {
                asset,
                quantity,
                value,
                allocation_pct,
            } => Some(AllocationDto {
                symbol: asset.to_string(),
                amount: qty(*quantity),
                value_fiat: fiat(*value),
                allocation_pct: pct(*allocation_pct),
                currency: code.to_owned(),
            }),
            AllocationItem::Unvalued { .. } => None,
        })
        .collect();
    let mut unvalued: Vec<GapItem> = ranked
        .unvalued
        .iter()
        .filter_map(|item| match item {
            AllocationItem::Unvalued {
                asset, quantity, ..
            } => Some(GapItem {
                symbol: asset.to_string(),
                amount: qty(*quantity),
            }),
            AllocationItem::Valued { .. } => None,
        })
        .collect();
    unvalued.sort_by(|a, b| a.symbol.cmp(&b.symbol));
    Ok(AssetAllocation {
        as_of: Some(date(day)),
        currency: code.to_owned(),
        ranked: valued,
        unvalued,
    })
}

/// `GetKpis`.
pub(crate) fn kpis_dto(
    derived: &Derived,
    as_of: Instant,
    currency: DisplayCurrency,
) -> UseCaseResult<KpisDto> {
    let series = derived.series(as_of, currency)?;
    let k = kpis(&derived.context(as_of, currency), &series)?;
    let asset = |a: &analytics::AssetPerformance| AssetKpi {
        symbol: a.asset.to_string(),
        roi_pct: pct(a.roi_pct),
        allocation_pct: pct(a.allocation_pct.unwrap_or_default()),
    };
    Ok(KpisDto {
        as_of: series.as_of.map(date),
        currency: currency.code().to_owned(),
        rates_incomplete: k.rates_incomplete,
        prices_incomplete: k.prices_incomplete,
        total_equity: fiat(k.total_equity.unwrap_or_default()),
        total_cost_basis: fiat(k.total_cost_basis),
        total_unrealized_pnl: fiat(k.total_unrealized_pnl),
        total_realized_pnl: fiat(k.total_realized_pnl),
        total_pnl: fiat(k.total_roi_fiat),
        total_roi_pct: k.total_roi_percent.map(pct),
        change24h: fiat_opt(k.delta_24h),
        all_time_high: fiat_opt(k.all_time_high),
        max_drawdown_pct: ratio(k.risk.max_drawdown_pct),
        annualized_volatility: k.risk.annualized_volatility.map(ratio),
        sharpe_ratio: k.risk.sharpe_ratio.map(ratio),
        excluded_flagged_lots: count(k.excluded_flagged_lots),
        trades: TradeStatsDto {
            total: count(k.trades.total_trades),
            winning: count(k.trades.winning_trades),
            losing: count(k.trades.losing_trades),
            win_rate_pct: k.trades.win_rate_percent.map(pct),
            average_r: k.trades.average_r.map(ratio),
        },
        best_asset: k.best_asset.as_ref().map(asset),
        worst_asset: k.worst_asset.as_ref().map(asset),
    })
}

/// `GetRiskMetrics` (EUR series).
pub(crate) fn risk(derived: &Derived, as_of: Instant) -> UseCaseResult<RiskMetricsDto> {
    let series = derived.series(as_of, DisplayCurrency::Eur)?;
    let r = risk_metrics(&series, derived.valuation_market())?;
    Ok(RiskMetricsDto {
        max_drawdown_pct: ratio(r.max_drawdown_pct),
        annualized_volatility: r.annualized_volatility.map(ratio),
        sharpe_ratio: r.sharpe_ratio.map(ratio),
        alpha: r.alpha.map(ratio),
        beta: r.beta.map(ratio),
    })
}

/// `GetDrawdownCurve`.
pub(crate) fn drawdown(
    derived: &Derived,
    as_of: Instant,
    days: u32,
    max_points: Option<usize>,
) -> UseCaseResult<DrawdownCurve> {
    check_days(days)?;
    let series = derived.series(as_of, DisplayCurrency::Eur)?;
    let points = endpoints::drawdown_curve(&series, days)?;
    let (points, omitted) = sample(points, max_points)?;
    Ok(DrawdownCurve {
        points: points
            .iter()
            .map(|p| DrawdownPoint {
                date: date(p.date),
                drawdown_pct: ratio(p.drawdown_pct),
            })
            .collect(),
        omitted_count: omitted,
    })
}

/// `GetPerformanceHistory`.
pub(crate) fn performance(
    derived: &Derived,
    as_of: Instant,
    currency: DisplayCurrency,
    days: u32,
    max_points: Option<usize>,
) -> UseCaseResult<PerformanceHistory> {
    check_days(days)?;
    let series = derived.series(as_of, currency)?;
    let points =
        endpoints::performance_history(&series, derived.valuation_market(), currency, days)?;
    let (points, omitted) = sample(points, max_points)?;
    Ok(PerformanceHistory {
        currency: currency.code().to_owned(),
        points: points
            .iter()
            .map(|p| PerformancePoint {
                date: date(p.date),
                portfolio_value: fiat_opt(p.value),
                drawdown_pct: ratio(p.drawdown_pct),
                unvalued_assets: u64::from(p.unvalued_assets),
            })
            .collect(),
        omitted_count: omitted,
    })
}

/// `GetVolatilityHeatmap`.
pub(crate) fn heatmap(
    derived: &Derived,
    as_of: Instant,
    year: Option<i32>,
    max_points: Option<usize>,
) -> UseCaseResult<VolatilityHeatmap> {
    if let Some(year) = year {
        check_year("year", year)?;
    }
    let series = derived.series(as_of, DisplayCurrency::Eur)?;
    let year = year.unwrap_or_else(|| {
        series
            .as_of
            .unwrap_or_else(|| derived.settings.fiscal_timezone.fiscal_date(as_of))
            .year()
    });
    let cells = endpoints::volatility_heatmap(&series, Some(year))?;
    let (cells, omitted) = sample(cells, max_points)?;
    Ok(VolatilityHeatmap {
        year,
        cells: cells
            .iter()
            .map(|c| VolatilityCell {
                date: date(c.date),
                volatility: c.volatility.map(ratio),
            })
            .collect(),
        omitted_count: omitted,
    })
}
