//! Valuation series and analytics (`domain.md` §11): daily holdings and values, flows, returns,
//! the return index, drawdowns, risk metrics, KPIs and the series endpoints.
//!
//! Everything is computed in one forward sweep over fiscal dates ([`series::daily_series`]):
//! quantity deltas (lots opening, covered slices closing) and flows are pre-sorted by date, so a
//! day costs one price lookup per held asset, never a recomputation from scratch. Values are
//! EUR and exact until output; the display currency is applied per point at its own date
//! (§11.2). Returns, drawdowns and risk statistics always run on the EUR index.

pub mod endpoints;
pub mod kpis;
pub mod returns;
pub mod risk;
pub mod series;

use rust_decimal::Decimal;

use crate::asset::Asset;
use crate::engine::{EngineInput, EngineOutput};
use crate::error::DomainResult;
use crate::market::Market;
use crate::num;
use crate::time::{Date, FiscalTimezone, Instant};

pub use endpoints::{
    AllocationItem, DrawdownPoint, PerformancePoint, VolatilityPoint, asset_allocation,
    drawdown_curve, performance_history, volatility_heatmap,
};
pub use kpis::{AssetPerformance, Kpis, TradeStats, kpis, realized_pnl};
pub use risk::{RiskMetrics, risk_metrics, rolling_volatility_30};
pub use series::{AssetAtAsOf, AssetValue, DailySeries, DayPoint, daily_series, held_at_as_of};

/// Annualisation factor of the risk metrics (`domain.md` §11.4).
pub const ANNUALISATION_DAYS: u32 = 365;

/// The display currency of `domain.md` §0.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum DisplayCurrency {
    /// Identity: no rate is ever read.
    #[default]
    Eur,
    /// EUR × the ECB USD rate on or before the figure's date.
    Usd,
}

impl DisplayCurrency {
    /// The ISO code.
    pub const fn code(self) -> &'static str {
        match self {
            Self::Eur => "EUR",
            Self::Usd => "USD",
        }
    }

    /// The currency as an asset symbol (both codes are valid symbols).
    pub fn asset(self) -> Option<Asset> {
        Asset::new(self.code()).ok()
    }

    /// Parses `EUR` or `USD`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "EUR" => Some(Self::Eur),
            "USD" => Some(Self::Usd),
            _ => None,
        }
    }

    /// Units of this currency per 1 EUR on `date`: exactly 1 for EUR without reading a rate;
    /// the ECB rate on or before `date` for USD; `None` when missing (never replaced by 1).
    pub fn rate(self, market: &Market, date: Date) -> Option<Decimal> {
        match self {
            Self::Eur => Some(Decimal::ONE),
            Self::Usd => self
                .asset()
                .and_then(|usd| market.rate(usd, date))
                .map(|fx| fx.rate),
        }
    }

    /// Converts an EUR figure dated `date` (§11.2); `None` when the rate is missing, or when
    /// it is so absurd that the converted figure is out of range (D-146): no usable rate.
    pub fn convert(
        self,
        market: &Market,
        eur: Decimal,
        date: Date,
    ) -> DomainResult<Option<Decimal>> {
        match self {
            Self::Eur => Ok(Some(eur)),
            Self::Usd => Ok(self
                .rate(market, date)
                .and_then(|rate| eur.checked_mul(rate))
                .and_then(num::within_limit)),
        }
    }
}

/// Why a held asset has no value (`domain.md` §11.6, §12.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnvaluedReason {
    /// No price in the 7-day window (or an unknown cost without a rate cause).
    NoPrice,
    /// A missing ECB rate is among the causes.
    NoRate,
    /// A value is too large to compute (`AMOUNT_OUT_OF_RANGE`, D-146): an absurd quantity,
    /// price or rate, or a lot whose cost is out of range.
    OutOfRange,
}

impl UnvaluedReason {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NoPrice => "NO_PRICE",
            Self::NoRate => "NO_RATE",
            Self::OutOfRange => "OUT_OF_RANGE",
        }
    }
}

/// Everything analytics reads: the engine's input and output, the market, the settings and the
/// as-of instant. Lot-based figures use the engine's final lot state, so `input` should be the
/// ledger as of `as_of`.
#[derive(Clone, Copy, Debug)]
pub struct AnalyticsContext<'a> {
    /// Effective rows.
    pub input: &'a EngineInput,
    /// FIFO output.
    pub output: &'a EngineOutput,
    /// Rates and prices.
    pub market: &'a Market,
    /// Fiscal time zone (dates of every series).
    pub timezone: FiscalTimezone,
    /// The as-of instant; `T` is its fiscal date.
    pub as_of: Instant,
    /// Display currency of money outputs.
    pub currency: DisplayCurrency,
}

impl AnalyticsContext<'_> {
    /// `T`, the fiscal date of the as-of instant.
    pub fn as_of_date(&self) -> Date {
        self.timezone.fiscal_date(self.as_of)
    }

    /// Fiscal date of a spot row index.
    pub fn row_date(&self, row: u32) -> Option<Date> {
        self.input
            .rows
            .get(row as usize)
            .map(|r| self.timezone.fiscal_date(r.row.instant))
    }
}

#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod tests;
