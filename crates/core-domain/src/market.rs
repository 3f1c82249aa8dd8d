//! The rate and price stores as the engine reads them (`domain.md` §7.1, §7.2).
//!
//! Both tables are built once from iterators of rows and answer lookups by binary search over
//! sorted `Vec`s, so a million lookups cost a few tens of milliseconds.

use rust_decimal::Decimal;
use shared_types::QualityFlag;

use crate::asset::{Asset, CurrencyCode};
use crate::engine::{FxDetail, PriceDetail};
use crate::error::{DomainError, DomainResult};
use crate::num;
use crate::time::Date;
use chrono::Datelike;

/// One ECB reference rate: `rate` units of `currency` per 1 EUR, published for `date`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateRow {
    /// The foreign currency.
    pub currency: Asset,
    /// The publication date.
    pub date: Date,
    /// Units of the currency per 1 EUR, as published (the decimal keeps the text's scale).
    pub rate: Decimal,
}

/// ECB rates per currency, each currency's rows sorted by date.
#[derive(Clone, Debug, Default)]
pub struct RateTable {
    /// Sorted by currency; each series sorted by date.
    series: Vec<(Asset, Vec<(Date, Decimal)>)>,
}

impl RateTable {
    /// Builds the table. Rates must be strictly positive; a repeated `(currency, date)` keeps
    /// the last row given.
    pub fn new(rows: impl IntoIterator<Item = RateRow>) -> DomainResult<Self> {
        let mut all: Vec<(Asset, Date, Decimal, usize)> = Vec::new();
        for (position, row) in rows.into_iter().enumerate() {
            if row.rate <= Decimal::ZERO {
                return Err(DomainError::InvalidAmount {
                    field: format!("rate {} {}", row.currency, row.date),
                    text: row.rate.to_string(),
                });
            }
            all.push((row.currency, row.date, row.rate, position));
        }
        all.sort_unstable_by_key(|a| (a.0, a.1, a.3));
        let mut series: Vec<(Asset, Vec<(Date, Decimal)>)> = Vec::new();
        for (currency, date, rate, _) in all {
            match series.last_mut() {
                Some((last, rows)) if *last == currency => match rows.last_mut() {
                    Some(previous) if previous.0 == date => previous.1 = rate,
                    _ => rows.push((date, rate)),
                },
                _ => series.push((currency, vec![(date, rate)])),
            }
        }
        Ok(Self { series })
    }

    /// `rate(currency, date)`: the rate published for `date`, else the latest one published
    /// before it (no age limit). EUR has no rate: use [`RateTable::to_eur`].
    pub fn rate(&self, currency: Asset, date: Date) -> Option<FxDetail> {
        let index = self
            .series
            .binary_search_by(|(c, _)| c.cmp(&currency))
            .ok()?;
        let rows = &self.series.get(index)?.1;
        let after = rows.partition_point(|(d, _)| *d <= date);
        let (rate_date, rate) = *rows.get(after.checked_sub(1)?)?;
        Some(FxDetail { rate, rate_date })
    }

    /// Converts `amount` of fiat `currency` to EUR exactly (no rounding): EUR as is, another
    /// currency divided by its rate on `date`. `Ok(None)` when the rate is missing.
    pub fn to_eur(
        &self,
        amount: Decimal,
        currency: Asset,
        date: Date,
    ) -> DomainResult<Option<(Decimal, Option<FxDetail>)>> {
        if currency.is_eur() {
            return Ok(Some((amount, None)));
        }
        let Some(fx) = self.rate(currency, date) else {
            return Ok(None);
        };
        let eur = num::div(amount, fx.rate, "fx conversion")?;
        Ok(Some((eur, Some(fx))))
    }

    /// Whether the table holds no rate.
    pub fn is_empty(&self) -> bool {
        self.series.is_empty()
    }
}

/// One daily close: `close` units of fiat `currency` per unit of `asset` on `date`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriceRow {
    /// The priced (crypto) asset.
    pub asset: Asset,
    /// The close's date.
    pub date: Date,
    /// The close (≥ 0).
    pub close: Decimal,
    /// Its fiat currency.
    pub currency: Asset,
}

/// Candidate order within one date: EUR, USD, then other fiat codes alphabetically. The rank
/// is the code's position in [`CURRENCY_ORDER`], so a stored close takes one byte for its
/// currency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct CurrencyRank(u8);

/// Every fiat code in candidate order (EUR, USD, then alphabetical).
static CURRENCY_ORDER: std::sync::LazyLock<Vec<Asset>> = std::sync::LazyLock::new(|| {
    let mut others: Vec<Asset> = shared_types::FIAT_CODES
        .iter()
        .filter(|code| !matches!(**code, "EUR" | "USD"))
        .filter_map(|code| Asset::new(code).ok())
        .collect();
    others.sort();
    ["EUR", "USD"]
        .iter()
        .filter_map(|code| Asset::new(code).ok())
        .chain(others)
        .collect()
});

impl CurrencyRank {
    fn of(currency: Asset) -> Option<Self> {
        let position = CURRENCY_ORDER.iter().position(|c| *c == currency)?;
        u8::try_from(position).ok().map(Self)
    }

    fn currency(self) -> Option<Asset> {
        CURRENCY_ORDER.get(usize::from(self.0)).copied()
    }
}

/// One stored close of an asset: date, currency rank, close.
type PricePoint = (Date, CurrencyRank, Decimal);

/// The outcome of a price lookup (`domain.md` §7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceLookup {
    /// A candidate converted: the exact EUR close and the rows used.
    Found {
        /// `close` in EUR, exact (`close ÷ rate` for a non-EUR quote).
        close_eur: Decimal,
        /// The price row used.
        price: PriceDetail,
        /// The ECB conversion, for a non-EUR quote.
        fx: Option<FxDetail>,
    },
    /// Candidates exist but none converts (`MISSING_FX_RATE`).
    MissingFxRate,
    /// No candidate in the 7-day window (`MISSING_PRICE`).
    MissingPrice,
    /// A close whose conversion to EUR is too large to compute (an absurdly small rate,
    /// `AMOUNT_OUT_OF_RANGE`, D-146).
    OutOfRange,
}

impl PriceLookup {
    /// The blocking flag of a failed lookup.
    pub fn flag(&self) -> Option<QualityFlag> {
        match self {
            Self::Found { .. } => None,
            Self::MissingFxRate => Some(QualityFlag::MissingFxRate),
            Self::MissingPrice => Some(QualityFlag::MissingPrice),
            Self::OutOfRange => Some(QualityFlag::AmountOutOfRange),
        }
    }
}

/// A price lookup before conversion: the row used and the rate that converts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RawLookup {
    /// A candidate with a rate (none for EUR).
    Found {
        /// The price row used.
        price: PriceDetail,
        /// The ECB rate of a non-EUR quote.
        fx: Option<FxDetail>,
    },
    /// Candidates exist but none converts.
    MissingFxRate,
    /// No candidate in the window.
    MissingPrice,
}

/// Daily prices per asset, each asset's rows sorted by `(date, currency rank)`.
#[derive(Clone, Debug, Default)]
pub struct PriceTable {
    /// Sorted; parallel to `series` (a compact array keeps the asset search in cache).
    assets: Vec<Asset>,
    series: Vec<Series>,
}

/// The longest series span given a dense day index.
const MAX_INDEXED_DAYS: usize = 100_000;

/// One asset's closes with a dense day index: `ends[i]` is the number of points dated on or
/// before `first_day + i`, so finding the last point dated ≤ d is one array read instead of a
/// cache-missing binary search (prices are daily, so the index is about as long as the series).
#[derive(Clone, Debug, Default)]
struct Series {
    points: Vec<PricePoint>,
    first_day: i32,
    ends: Vec<u32>,
}

impl Series {
    /// The series of closes given in any order: sorted, and a repeated `(date, currency)`
    /// keeps the last one given.
    fn of_points(mut points: Vec<PricePoint>) -> Self {
        // Within a date the candidates are kept in reverse rank order (`pick` reads from the
        // end). A stable sort keeps the given order of a repeated key, and the last one given
        // wins below; store reads are usually sorted already.
        let key = |p: &PricePoint| (p.0, std::cmp::Reverse(p.1));
        if !points.is_sorted_by_key(key) {
            points.sort_by_key(key);
        }
        points.dedup_by(|later, kept| {
            let repeated = later.0 == kept.0 && later.1 == kept.1;
            if repeated {
                kept.2 = later.2;
            }
            repeated
        });
        Self::new(points)
    }

    fn new(points: Vec<PricePoint>) -> Self {
        let first_day = points.first().map_or(0, |p| p.0.num_days_from_ce());
        let last_day = points.last().map_or(0, |p| p.0.num_days_from_ce());
        let span = usize::try_from(last_day.saturating_sub(first_day)).unwrap_or(0) + 1;
        // A series spanning more than ~270 years is bad data: keep no index for it (lookups
        // fall back to a binary search) rather than allocate a huge one.
        let span = if span > MAX_INDEXED_DAYS { 0 } else { span };
        let mut ends = Vec::with_capacity(span);
        let mut count = 0usize;
        for offset in 0..span {
            let day = first_day.saturating_add(i32::try_from(offset).unwrap_or(i32::MAX));
            while points
                .get(count)
                .is_some_and(|p| p.0.num_days_from_ce() <= day)
            {
                count += 1;
            }
            ends.push(u32::try_from(count).unwrap_or(u32::MAX));
        }
        Self {
            points,
            first_day,
            ends,
        }
    }

    /// The points dated on or before `d`.
    fn up_to(&self, d: Date) -> &[PricePoint] {
        if self.ends.is_empty() {
            let end = self.points.partition_point(|point| point.0 <= d);
            return self.points.get(..end).unwrap_or(&[]);
        }
        let offset = d.num_days_from_ce().saturating_sub(self.first_day);
        let end = match usize::try_from(offset) {
            Err(_) => 0,
            Ok(offset) => self
                .ends
                .get(offset)
                .map_or(self.points.len(), |end| *end as usize),
        };
        self.points.get(..end).unwrap_or(&[])
    }
}

/// The carry-back window of the price lookup, in days.
pub const PRICE_WINDOW_DAYS: u64 = 7;

impl PriceTable {
    /// Builds the table. Closes must be ≥ 0 and quoted in a fiat code; a repeated
    /// `(asset, date, currency)` keeps the last row given.
    pub fn new(rows: impl IntoIterator<Item = PriceRow>) -> DomainResult<Self> {
        let mut builder = PriceTableBuilder::new();
        for row in rows {
            builder.push(row);
        }
        builder.finish()
    }

    /// The union of two tables, sorted by asset (tables built apart, say from the two halves
    /// of a store's read). An asset in both keeps the closes of both, `other`'s winning a
    /// repeated `(date, currency)`.
    pub fn join(self, other: Self) -> Self {
        let mut pairs: Vec<(Asset, Series)> = self
            .assets
            .into_iter()
            .zip(self.series)
            .chain(other.assets.into_iter().zip(other.series))
            .collect();
        // Stable: an asset in both tables has this table's series first.
        pairs.sort_by_key(|(asset, _)| *asset);
        let mut assets: Vec<Asset> = Vec::with_capacity(pairs.len());
        let mut series: Vec<Series> = Vec::with_capacity(pairs.len());
        for (asset, next) in pairs {
            match (assets.last(), series.last_mut()) {
                (Some(last), Some(kept)) if *last == asset => {
                    let mut points = std::mem::take(&mut kept.points);
                    points.extend(next.points);
                    *kept = Series::of_points(points);
                }
                _ => {
                    assets.push(asset);
                    series.push(next);
                }
            }
        }
        Self { assets, series }
    }

    /// The fiat currencies the closes are quoted in, in candidate order (EUR, USD, then
    /// alphabetical).
    pub fn quote_currencies(&self) -> Vec<Asset> {
        let mut seen = [false; 256];
        for series in &self.series {
            for point in &series.points {
                if let Some(slot) = seen.get_mut(usize::from(point.1.0)) {
                    *slot = true;
                }
            }
        }
        (0..=u8::MAX)
            .filter(|rank| seen.get(usize::from(*rank)).copied().unwrap_or(false))
            .filter_map(|rank| CurrencyRank(rank).currency())
            .collect()
    }

    /// The latest close of each `(asset, quote currency)`, sorted by asset then currency.
    pub fn latest_closes(&self) -> Vec<(Asset, Asset, Date, Decimal)> {
        let mut out = Vec::new();
        let mut run: Vec<(CurrencyRank, Date, Decimal)> = Vec::new();
        for (asset, series) in self.assets.iter().zip(&self.series) {
            // Points are sorted by date: the last of each currency is its latest.
            run.clear();
            for &(date, rank, close) in &series.points {
                match run.iter_mut().find(|(r, _, _)| *r == rank) {
                    Some(slot) => *slot = (rank, date, close),
                    None => run.push((rank, date, close)),
                }
            }
            let mut latest: Vec<(Asset, Date, Decimal)> = run
                .iter()
                .filter_map(|&(rank, date, close)| Some((rank.currency()?, date, close)))
                .collect();
            latest.sort_unstable_by_key(|(currency, _, _)| *currency);
            out.extend(
                latest
                    .into_iter()
                    .map(|(currency, date, close)| (*asset, currency, date, close)),
            );
        }
        out
    }

    /// The EUR close of `asset` for date `d` (`domain.md` §7.2): candidates dated `d − 7 … d`,
    /// newest first, EUR then USD then other codes alphabetically within a date; the first that
    /// converts with the rate of `d` wins.
    pub fn lookup(&self, asset: Asset, d: Date, rates: &RateTable) -> DomainResult<PriceLookup> {
        Ok(convert(self.lookup_raw(asset, d, rates)))
    }

    /// [`PriceTable::lookup`] without the EUR close: the valuation multiplies the quantity by
    /// the close before dividing by the rate, so it never needs `close ÷ rate` (a full
    /// 28-digit division per lookup).
    pub(crate) fn lookup_raw(&self, asset: Asset, d: Date, rates: &RateTable) -> RawLookup {
        self.lookup_raw_in(self.series_of(asset), d, rates)
    }

    /// The position of `asset`'s series (`None`: the table has no close of it), for
    /// [`PriceTable::lookup_raw_in`]: a caller that looks one asset up on many dates searches
    /// the assets once.
    pub(crate) fn series_of(&self, asset: Asset) -> Option<u32> {
        self.assets
            .binary_search(&asset)
            .ok()
            .and_then(|index| u32::try_from(index).ok())
    }

    /// [`PriceTable::lookup_raw`] in the series at `series` ([`PriceTable::series_of`]).
    pub(crate) fn lookup_raw_in(
        &self,
        series: Option<u32>,
        d: Date,
        rates: &RateTable,
    ) -> RawLookup {
        let Some(series) = series.and_then(|index| self.series.get(index as usize)) else {
            return RawLookup::MissingPrice;
        };
        pick(series.up_to(d), PriceWindow::of(d), rates)
    }

    /// A forward cursor over the closes of `asset` (see [`PriceCursor`]).
    pub fn cursor(&self, asset: Asset) -> PriceCursor<'_> {
        let points = self
            .assets
            .binary_search(&asset)
            .ok()
            .and_then(|index| self.series.get(index))
            .map_or(&[][..], |series| series.points.as_slice());
        PriceCursor { points, end: 0 }
    }

    /// Whether the table holds no price.
    pub fn is_empty(&self) -> bool {
        self.assets.is_empty()
    }
}

/// Builds a [`PriceTable`] one close at a time, straight into each asset's series: a store
/// that decodes a million closes pushes them here instead of into a list of rows that the
/// table then copies and sorts again. Same rules and answers as [`PriceTable::new`].
#[derive(Debug, Default)]
pub struct PriceTableBuilder {
    /// Assets in the order first pushed; parallel to `points`.
    assets: Vec<Asset>,
    points: Vec<Vec<PricePoint>>,
    /// Position of each asset in `assets` (looked up only when the asset changes).
    index: std::collections::BTreeMap<Asset, usize>,
    /// The asset of the last close pushed and its position.
    current: Option<(Asset, usize)>,
    /// The currency of the last close pushed and its rank: closes come grouped, so the search
    /// over the fiat codes runs about once per series.
    last_rank: Option<(Asset, CurrencyRank)>,
    /// The first invalid close, reported by [`PriceTableBuilder::finish`].
    error: Option<DomainError>,
}

impl PriceTableBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for `additional` more closes of `asset`: a store that knows a series' length says
    /// so before pushing it, and the asset's list is not grown (and copied) close by close.
    pub fn reserve(&mut self, asset: Asset, additional: usize) {
        let position = self.position(asset);
        if let Some(points) = self.points.get_mut(position) {
            points.reserve(additional);
        }
    }

    /// The position of `asset`'s list, created on first use.
    fn position(&mut self, asset: Asset) -> usize {
        match self.current {
            Some((current, position)) if current == asset => position,
            _ => {
                let next = self.assets.len();
                let position = *self.index.entry(asset).or_insert(next);
                if position == next {
                    self.assets.push(asset);
                    self.points.push(Vec::new());
                }
                self.current = Some((asset, position));
                position
            }
        }
    }

    /// Adds one close, in any order (closes grouped by asset and sorted by date cost least).
    /// An invalid close is kept aside and reported by [`PriceTableBuilder::finish`].
    pub fn push(&mut self, row: PriceRow) {
        if self.error.is_some() {
            return;
        }
        let rank = match self.last_rank {
            Some((currency, rank)) if currency == row.currency => Some(rank),
            _ => CurrencyRank::of(row.currency),
        };
        let Some(rank) = rank.filter(|_| !row.close.is_sign_negative() || row.close.is_zero())
        else {
            self.error = Some(DomainError::InvalidAmount {
                field: format!("price {} {} {}", row.asset, row.date, row.currency),
                text: row.close.to_string(),
            });
            return;
        };
        self.last_rank = Some((row.currency, rank));
        let position = self.position(row.asset);
        if let Some(points) = self.points.get_mut(position) {
            points.push((row.date, rank, row.close));
        }
    }

    /// The table, or the first invalid close pushed.
    pub fn finish(self) -> DomainResult<PriceTable> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let mut series: Vec<(Asset, Vec<PricePoint>)> =
            self.assets.into_iter().zip(self.points).collect();
        series.sort_unstable_by_key(|(asset, _)| *asset);
        let (assets, series) = series
            .into_iter()
            .map(|(asset, points)| (asset, Series::of_points(points)))
            .unzip();
        Ok(PriceTable { assets, series })
    }
}

/// The §7.2 lookup of one asset at non-decreasing dates (a daily sweep): the asset is found
/// once and the end of the points dated `≤ d` moves forward, so a lookup is a few reads
/// instead of a search. Same answers as [`PriceTable::lookup`] at any date (an earlier date
/// than the last one searches again).
#[derive(Clone, Debug)]
pub struct PriceCursor<'a> {
    points: &'a [PricePoint],
    /// The number of points dated on or before the last date asked.
    end: usize,
}

/// The lookup window of a date (`d − 7 … d`), computed once for every asset looked up at `d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriceWindow {
    day: Date,
    earliest: Date,
}

impl PriceWindow {
    /// The window of `d`.
    pub fn of(d: Date) -> Self {
        Self {
            day: d,
            earliest: d
                .checked_sub_days(chrono::Days::new(PRICE_WINDOW_DAYS))
                .unwrap_or(Date::MIN),
        }
    }
}

impl PriceCursor<'_> {
    /// [`PriceTable::lookup`] of the cursor's asset at `d`.
    pub fn lookup(&mut self, d: Date, rates: &RateTable) -> DomainResult<PriceLookup> {
        self.lookup_in(PriceWindow::of(d), rates)
    }

    /// [`PriceCursor::lookup`] at the day of `window`.
    pub fn lookup_in(
        &mut self,
        window: PriceWindow,
        rates: &RateTable,
    ) -> DomainResult<PriceLookup> {
        let d = window.day;
        // A first lookup, or one back in time, searches; later dates step forward.
        if self.end == 0 || self.points.get(self.end - 1).is_some_and(|p| p.0 > d) {
            self.end = self.points.partition_point(|p| p.0 <= d);
        }
        while self.points.get(self.end).is_some_and(|p| p.0 <= d) {
            self.end += 1;
        }
        let up_to = self.points.get(..self.end).unwrap_or(&[]);
        Ok(convert(pick(up_to, window, rates)))
    }
}

/// The EUR close of a raw lookup; a close whose conversion overflows is out of range (D-146).
fn convert(raw: RawLookup) -> PriceLookup {
    match raw {
        RawLookup::Found { price, fx } => {
            let close_eur = match fx {
                Some(fx) => price.price.checked_div(fx.rate),
                None => Some(price.price),
            };
            match close_eur {
                Some(close_eur) => PriceLookup::Found {
                    close_eur,
                    price,
                    fx,
                },
                None => PriceLookup::OutOfRange,
            }
        }
        RawLookup::MissingFxRate => PriceLookup::MissingFxRate,
        RawLookup::MissingPrice => PriceLookup::MissingPrice,
    }
}

/// The §7.2 choice among `points` (an asset's closes dated `≤ d`, in stored order).
fn pick(points: &[PricePoint], window: PriceWindow, rates: &RateTable) -> RawLookup {
    let PriceWindow { day: d, earliest } = window;
    // Points are stored by (date ascending, rank descending): walking back from the last
    // point dated ≤ d visits dates newest first and, within a date, EUR, USD, then the
    // other codes alphabetically.
    let mut candidates = false;
    for &(date, rank, close) in points.iter().rev() {
        if date < earliest {
            break;
        }
        candidates = true;
        let Some(currency) = rank.currency() else {
            continue;
        };
        let fx = if currency.is_eur() {
            None
        } else {
            match rates.rate(currency, d) {
                Some(fx) => Some(fx),
                None => continue,
            }
        };
        // Quote currencies are fiat codes, three letters each.
        let Some(currency) = CurrencyCode::of(currency) else {
            continue;
        };
        return RawLookup::Found {
            price: PriceDetail {
                price: close,
                currency,
                date,
            },
            fx,
        };
    }
    if candidates {
        RawLookup::MissingFxRate
    } else {
        RawLookup::MissingPrice
    }
}

/// The rate and price stores together.
#[derive(Clone, Debug, Default)]
pub struct Market {
    /// ECB rates.
    pub rates: RateTable,
    /// Daily crypto prices.
    pub prices: PriceTable,
}

impl Market {
    /// Builds both tables.
    pub fn new(
        rates: impl IntoIterator<Item = RateRow>,
        prices: impl IntoIterator<Item = PriceRow>,
    ) -> DomainResult<Self> {
        Ok(Self {
            rates: RateTable::new(rates)?,
            prices: PriceTable::new(prices)?,
        })
    }

    /// `rate(currency, date)` of §7.1 (`None` for EUR, which needs no rate).
    pub fn rate(&self, currency: Asset, date: Date) -> Option<FxDetail> {
        self.rates.rate(currency, date)
    }

    /// [`Market::new`] with a price table built already.
    pub fn with_prices(
        rates: impl IntoIterator<Item = RateRow>,
        prices: PriceTable,
    ) -> DomainResult<Self> {
        Ok(Self {
            rates: RateTable::new(rates)?,
            prices,
        })
    }

    /// The price lookup of §7.2 at `date`.
    pub fn price(&self, asset: Asset, date: Date) -> DomainResult<PriceLookup> {
        self.prices.lookup(asset, date, &self.rates)
    }

    /// The latest close of `asset` dated on or before `date`, whatever its age, chosen and
    /// converted as §7.2 does within a date (EUR, USD, then other codes; the rate of `date`).
    /// The holdings views value at it (D-26, D-91): a close more than
    /// [`PRICE_WINDOW_DAYS`] days older than `date` is *stale*, and the view says so with the
    /// close's date (`price.date`). The fiscal engine never uses it: operations keep §7.2.
    ///
    /// # Errors
    ///
    /// Overflow converting the close.
    pub fn latest_price(&self, asset: Asset, date: Date) -> DomainResult<PriceLookup> {
        let Some(series) = self
            .prices
            .series_of(asset)
            .and_then(|index| self.prices.series.get(index as usize))
        else {
            return Ok(PriceLookup::MissingPrice);
        };
        let window = PriceWindow {
            day: date,
            earliest: Date::MIN,
        };
        Ok(convert(pick(series.up_to(date), window, &self.rates)))
    }

    /// The price lookup of §7.2 without the EUR close (see [`PriceTable::lookup_raw`]).
    pub(crate) fn price_raw(&self, asset: Asset, date: Date) -> RawLookup {
        self.prices.lookup_raw(asset, date, &self.rates)
    }
}

#[cfg(test)]
mod tests;
