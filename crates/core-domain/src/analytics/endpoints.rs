//! Series endpoints (`domain.md` §11.6): performance history, drawdown curve, volatility
//! heatmap and asset allocation. Points are ascending by date; tools may downsample them
//! (`crate::ranking::downsample`).

use chrono::Datelike;
use rust_decimal::Decimal;

use crate::asset::Asset;
use crate::error::{DomainError, DomainResult};
use crate::market::Market;
use crate::num;
use crate::time::Date;

use super::risk::rolling_volatility_30;
use super::series::{AssetAtAsOf, AssetValue, DailySeries, DayPoint};
use super::{DisplayCurrency, UnvaluedReason};

/// Default number of days of the history endpoints.
pub const DEFAULT_DAYS: u32 = 30;
/// Largest `days` accepted.
pub const MAX_DAYS: u32 = 3650;

/// One point of the performance history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerformancePoint {
    /// Fiscal date.
    pub date: Date,
    /// `V_c(d)` (`FIAT`); null when not convertible.
    pub value: Option<Decimal>,
    /// `DD(d)` from the EUR index (`RATIO`).
    pub drawdown_pct: Decimal,
    /// Assets held without a value.
    pub unvalued_assets: u32,
}

/// One point of the drawdown curve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawdownPoint {
    /// Fiscal date.
    pub date: Date,
    /// `DD(d)` (`RATIO`).
    pub drawdown_pct: Decimal,
}

/// One cell of the volatility heatmap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VolatilityPoint {
    /// Fiscal date.
    pub date: Date,
    /// `rolling_volatility_30(d)` (`RATIO`) or null.
    pub volatility: Option<Decimal>,
}

/// One asset of the allocation at `T`, in symbol order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocationItem {
    /// A valued asset.
    Valued {
        /// The asset.
        asset: Asset,
        /// `q_a(T)` (`QUANTITY`).
        quantity: Decimal,
        /// `V_a(T)` in the display currency (`FIAT`).
        value: Decimal,
        /// `value ÷ Σ valued × 100` (`PERCENT`; 0 when Σ is 0).
        allocation_pct: Decimal,
    },
    /// An asset without a value.
    Unvalued {
        /// The asset.
        asset: Asset,
        /// `q_a(T)`.
        quantity: Decimal,
        /// Why.
        reason: UnvaluedReason,
    },
}

fn check_days(days: u32) -> DomainResult<()> {
    if days == 0 || days > MAX_DAYS {
        return Err(DomainError::InvalidSetting {
            key: "days".to_owned(),
            reason: format!("must be between 1 and {MAX_DAYS}"),
        });
    }
    Ok(())
}

/// The last `days` points ending at `T` (fewer when the series starts later).
fn last_days(series: &DailySeries, days: u32) -> DomainResult<&[DayPoint]> {
    check_days(days)?;
    let points = series.up_to_as_of();
    let start = points.len().saturating_sub(days as usize);
    Ok(points.get(start..).unwrap_or(&[]))
}

/// Performance history: `{date, value, drawdown_pct, unvalued_assets}` for the last `days`
/// fiscal dates ending at `T`.
pub fn performance_history(
    series: &DailySeries,
    market: &Market,
    currency: DisplayCurrency,
    days: u32,
) -> DomainResult<Vec<PerformancePoint>> {
    last_days(series, days)?
        .iter()
        .map(|p| {
            Ok(PerformancePoint {
                date: p.date,
                value: currency.convert(market, p.value_eur, p.date)?,
                drawdown_pct: p.drawdown,
                unvalued_assets: p.unvalued_assets,
            })
        })
        .collect()
}

/// Drawdown curve over the last `days` fiscal dates ending at `T`.
pub fn drawdown_curve(series: &DailySeries, days: u32) -> DomainResult<Vec<DrawdownPoint>> {
    Ok(last_days(series, days)?
        .iter()
        .map(|p| DrawdownPoint {
            date: p.date,
            drawdown_pct: p.drawdown,
        })
        .collect())
}

/// Volatility heatmap of `year` (default: the year of `T`): every date from
/// `max(Jan 1, first_date)` to `min(Dec 31, T)`.
pub fn volatility_heatmap(
    series: &DailySeries,
    year: Option<i32>,
) -> DomainResult<Vec<VolatilityPoint>> {
    let (Some(first), Some(as_of)) = (series.first_date(), series.as_of) else {
        return Ok(Vec::new());
    };
    let year = year.unwrap_or(as_of.year());
    let (Some(jan1), Some(dec31)) = (
        Date::from_ymd_opt(year, 1, 1),
        Date::from_ymd_opt(year, 12, 31),
    ) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut date = jan1.max(first);
    let end = dec31.min(as_of);
    while date <= end {
        out.push(VolatilityPoint {
            date,
            volatility: rolling_volatility_30(series, date)?,
        });
        let Some(next) = date.succ_opt() else { break };
        date = next;
    }
    Ok(out)
}

/// Asset allocation at `as_of` (`T`) in symbol order, from the held assets at `T`
/// ([`DailySeries::at_as_of`] or [`super::series::held_at_as_of`]).
pub fn asset_allocation(
    as_of: Date,
    held_assets: &[AssetAtAsOf],
    market: &Market,
    currency: DisplayCurrency,
) -> DomainResult<Vec<AllocationItem>> {
    let mut items = Vec::with_capacity(held_assets.len());
    let mut total = Decimal::ZERO;
    for held in held_assets {
        let item = match held.value {
            AssetValue::Known { value, .. } => match currency.convert(market, value, as_of)? {
                Some(value) => {
                    total = num::add(total, value, "allocation total")?;
                    AllocationItem::Valued {
                        asset: held.asset,
                        quantity: held.quantity,
                        value,
                        allocation_pct: Decimal::ZERO,
                    }
                }
                None => AllocationItem::Unvalued {
                    asset: held.asset,
                    quantity: held.quantity,
                    reason: UnvaluedReason::NoRate,
                },
            },
            AssetValue::Unvalued(reason) => AllocationItem::Unvalued {
                asset: held.asset,
                quantity: held.quantity,
                reason,
            },
        };
        items.push(item);
    }
    if !total.is_zero() {
        for item in &mut items {
            if let AllocationItem::Valued {
                value,
                allocation_pct,
                ..
            } = item
            {
                *allocation_pct = num::mul(
                    num::div(*value, total, "allocation")?,
                    Decimal::ONE_HUNDRED,
                    "allocation",
                )?;
            }
        }
    }
    Ok(items)
}
