//! Risk metrics over the EUR return series (`domain.md` §11.4), annualised with 365 days.

use rust_decimal::{Decimal, MathematicalOps};

use crate::asset::Asset;
use crate::error::{DomainError, DomainResult};
use crate::market::{Market, PriceLookup};
use crate::num;
use crate::time::Date;

use super::ANNUALISATION_DAYS;
use super::series::{DailySeries, DayPoint};

/// The benchmark asset of beta and alpha.
pub const BENCHMARK: &str = "BTC";

/// Length of the rolling volatility window, in days.
pub const ROLLING_WINDOW_DAYS: i64 = 30;

/// Risk metrics; every figure is a `RATIO`, a `None` is reported as null (never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiskMetrics {
    /// `min DD(d)` over `d ≤ T` (0 when no return is defined).
    pub max_drawdown_pct: Decimal,
    /// `sqrt(365 × s²)`; null when fewer than 2 returns.
    pub annualized_volatility: Option<Decimal>,
    /// `mean × 365 ÷ volatility`; null when the volatility is null or zero.
    pub sharpe_ratio: Option<Decimal>,
    /// `cov_pop(r, b) ÷ var_pop(b)` against BTC; null when fewer than 2 pairs or `var_pop(b) = 0`.
    pub beta: Option<Decimal>,
    /// `(mean(r) − beta × mean(b)) × 365`; null with beta.
    pub alpha: Option<Decimal>,
}

fn annual() -> Decimal {
    Decimal::from(ANNUALISATION_DAYS)
}

fn sum(mut values: impl Iterator<Item = Decimal>) -> DomainResult<Decimal> {
    values.try_fold(Decimal::ZERO, |acc, v| num::add(acc, v, "risk sum"))
}

fn mean(values: &[Decimal]) -> DomainResult<Option<Decimal>> {
    if values.is_empty() {
        return Ok(None);
    }
    num::div(
        sum(values.iter().copied())?,
        Decimal::from(values.len()),
        "mean",
    )
    .map(Some)
}

fn sqrt(value: Decimal) -> DomainResult<Decimal> {
    value
        .sqrt()
        .ok_or_else(|| DomainError::overflow("square root"))
}

/// `sqrt(365 × s²)` with the sample variance `s² = Σ (r − mean)² ÷ (n − 1)`; `None` when
/// `n < 2`.
pub fn annualized_volatility(returns: &[Decimal]) -> DomainResult<Option<Decimal>> {
    statistic(volatility(returns))
}

/// A statistic too large to compute (returns between a dust value and an absurd one, D-146)
/// is not given, as one over too few returns; every other figure is still computed.
fn statistic<T>(result: DomainResult<Option<T>>) -> DomainResult<Option<T>> {
    match result {
        Err(DomainError::ArithmeticOverflow { .. }) => Ok(None),
        other => other,
    }
}

fn volatility(returns: &[Decimal]) -> DomainResult<Option<Decimal>> {
    let Some(m) = mean(returns)? else {
        return Ok(None);
    };
    if returns.len() < 2 {
        return Ok(None);
    }
    let mut squares = Decimal::ZERO;
    for r in returns {
        let deviation = num::sub(*r, m, "variance")?;
        squares = num::add(
            squares,
            num::mul(deviation, deviation, "variance")?,
            "variance",
        )?;
    }
    let variance = num::div(squares, Decimal::from(returns.len() - 1), "variance")?;
    sqrt(num::mul(annual(), variance, "volatility")?).map(Some)
}

/// BTC's EUR close dated exactly `date` (no carry-back; a non-EUR quote converted with the rate
/// of `date`).
fn exact_close(market: &Market, asset: Asset, date: Date) -> DomainResult<Option<Decimal>> {
    Ok(match market.price(asset, date)? {
        PriceLookup::Found {
            close_eur, price, ..
        } if price.date == date => Some(close_eur),
        _ => None,
    })
}

/// The benchmark return `b(d) = P(d) ÷ P(d − 1) − 1`, when both closes exist and `P(d−1) > 0`.
pub fn benchmark_return(market: &Market, date: Date) -> DomainResult<Option<Decimal>> {
    let Ok(btc) = Asset::new(BENCHMARK) else {
        return Ok(None);
    };
    let Some(previous_date) = date.pred_opt() else {
        return Ok(None);
    };
    let (Some(p), Some(q)) = (
        exact_close(market, btc, date)?,
        exact_close(market, btc, previous_date)?,
    ) else {
        return Ok(None);
    };
    if q <= Decimal::ZERO {
        return Ok(None);
    }
    num::sub(num::div(p, q, "benchmark")?, Decimal::ONE, "benchmark").map(Some)
}

fn beta_alpha(pairs: &[(Decimal, Decimal)]) -> DomainResult<(Option<Decimal>, Option<Decimal>)> {
    if pairs.len() < 2 {
        return Ok((None, None));
    }
    let count = Decimal::from(pairs.len());
    let mean_r = num::div(sum(pairs.iter().map(|p| p.0))?, count, "beta")?;
    let mean_b = num::div(sum(pairs.iter().map(|p| p.1))?, count, "beta")?;
    let mut cov = Decimal::ZERO;
    let mut var = Decimal::ZERO;
    for (r, b) in pairs {
        let dr = num::sub(*r, mean_r, "beta")?;
        let db = num::sub(*b, mean_b, "beta")?;
        cov = num::add(cov, num::mul(dr, db, "beta")?, "beta")?;
        var = num::add(var, num::mul(db, db, "beta")?, "beta")?;
    }
    // The population divisor cancels in cov ÷ var.
    if var.is_zero() {
        return Ok((None, None));
    }
    let beta = num::div(cov, var, "beta")?;
    let excess = num::sub(mean_r, num::mul(beta, mean_b, "alpha")?, "alpha")?;
    Ok((Some(beta), Some(num::mul(excess, annual(), "alpha")?)))
}

fn defined_returns(points: &[DayPoint]) -> Vec<Decimal> {
    points.iter().filter_map(|p| p.ret).collect()
}

/// Risk metrics over the returns dated `≤ T`.
pub fn risk_metrics(series: &DailySeries, market: &Market) -> DomainResult<RiskMetrics> {
    let points = series.up_to_as_of();
    let returns = defined_returns(points);
    let max_drawdown_pct = if returns.is_empty() {
        Decimal::ZERO
    } else {
        points
            .iter()
            .map(|p| p.drawdown)
            .min()
            .unwrap_or(Decimal::ZERO)
    };
    let annualized_volatility = annualized_volatility(&returns)?;
    let sharpe_ratio = statistic(match (annualized_volatility, statistic(mean(&returns))?) {
        (Some(vol), Some(m)) if !vol.is_zero() => {
            num::mul(m, annual(), "sharpe").and_then(|x| num::div(x, vol, "sharpe").map(Some))
        }
        _ => Ok(None),
    })?;
    let mut pairs = Vec::new();
    for point in points {
        if let Some(r) = point.ret
            && let Some(b) = benchmark_return(market, point.date)?
        {
            pairs.push((r, b));
        }
    }
    let (beta, alpha) = match beta_alpha(&pairs) {
        Err(DomainError::ArithmeticOverflow { .. }) => (None, None),
        other => other?,
    };
    Ok(RiskMetrics {
        max_drawdown_pct,
        annualized_volatility,
        sharpe_ratio,
        beta,
        alpha,
    })
}

/// `rolling_volatility_30(d)`: the sample volatility of the defined returns dated
/// `d − 29 … d`; `None` with fewer than 2.
pub fn rolling_volatility_30(series: &DailySeries, date: Date) -> DomainResult<Option<Decimal>> {
    let start = date
        .checked_sub_days(chrono::Days::new((ROLLING_WINDOW_DAYS - 1).unsigned_abs()))
        .unwrap_or(Date::MIN);
    let from = series.days.partition_point(|p| p.date < start);
    let to = series.days.partition_point(|p| p.date <= date);
    let window = series.days.get(from..to).unwrap_or(&[]);
    annualized_volatility(&defined_returns(window))
}
