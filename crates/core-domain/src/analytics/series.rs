//! Daily holdings, values, returns, the return index and drawdowns (`domain.md` §11.1, §11.3).

use rayon::prelude::*;
use rust_decimal::Decimal;

use crate::asset::Asset;
use crate::error::DomainResult;
use crate::fast_hash::{FastMap, FastSet};
use crate::market::{PriceCursor, PriceLookup, PriceWindow};
use crate::num;
use crate::time::Date;

use super::returns::{Flow, RawFlow, daily_return, index_flows, raw_flows};
use super::{AnalyticsContext, UnvaluedReason};

/// One fiscal date of the series (EUR, unrounded: each `V_a(d)` is an exact product, and their
/// sum keeps rust_decimal's 28 significant digits, rounding only past 96 bits of mantissa).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayPoint {
    /// The fiscal date.
    pub date: Date,
    /// `V(d)`: Σ known `V_a(d)`.
    pub value_eur: Decimal,
    /// Assets with `q > 0` and no value.
    pub unvalued_assets: u32,
    /// `r(d)`, when defined.
    pub ret: Option<Decimal>,
    /// `I(d)`.
    pub index: Decimal,
    /// `DD(d) = I(d) ÷ max I − 1` (≤ 0).
    pub drawdown: Decimal,
}

impl DayPoint {
    /// Whether every held asset has a value.
    pub fn is_complete(&self) -> bool {
        self.unvalued_assets == 0
    }
}

/// `V_a(T)` of a held asset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssetValue {
    /// Known: `q × close_EUR` (exact) and the EUR close used.
    Known {
        /// The value.
        value: Decimal,
        /// The EUR close.
        close: Decimal,
    },
    /// No value, and why.
    Unvalued(UnvaluedReason),
}

/// A held asset at the as-of date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssetAtAsOf {
    /// The asset.
    pub asset: Asset,
    /// `q_a(T)` (> 0).
    pub quantity: Decimal,
    /// `V_a(T)` in EUR.
    pub value: AssetValue,
}

/// The daily series from `first_date` to `last_date`, plus the held assets at `T`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DailySeries {
    /// `T`.
    pub as_of: Option<Date>,
    /// Every fiscal date from `first_date` to `last_date` (empty without any lot).
    pub days: Vec<DayPoint>,
    /// Assets with `q_a(T) > 0`, in symbol order.
    pub at_as_of: Vec<AssetAtAsOf>,
}

impl DailySeries {
    /// `first_date`, the fiscal date of the earliest acquisition leg.
    pub fn first_date(&self) -> Option<Date> {
        self.days.first().map(|p| p.date)
    }

    /// The point of `date`, if inside the series.
    pub fn point(&self, date: Date) -> Option<&DayPoint> {
        let first = self.first_date()?;
        let offset = usize::try_from(date.signed_duration_since(first).num_days()).ok()?;
        self.days.get(offset)
    }

    /// The points dated `≤ T`.
    pub fn up_to_as_of(&self) -> &[DayPoint] {
        let Some(as_of) = self.as_of else {
            return &[];
        };
        let end = self.days.partition_point(|p| p.date <= as_of);
        self.days.get(..end).unwrap_or(&[])
    }
}

fn lookup_value(
    ctx: &AnalyticsContext<'_>,
    cursor: &mut PriceCursor<'_>,
    quantity: Decimal,
    window: PriceWindow,
) -> DomainResult<AssetValue> {
    Ok(match cursor.lookup_in(window, &ctx.market.rates)? {
        // An absurd quantity at an absurd close is out of range that day (D-146).
        PriceLookup::Found { close_eur, .. } => {
            match quantity.checked_mul(close_eur).and_then(num::within_limit) {
                Some(value) => AssetValue::Known {
                    value,
                    close: close_eur,
                },
                None => AssetValue::Unvalued(UnvaluedReason::OutOfRange),
            }
        }
        PriceLookup::MissingFxRate => AssetValue::Unvalued(UnvaluedReason::NoRate),
        PriceLookup::MissingPrice => AssetValue::Unvalued(UnvaluedReason::NoPrice),
        PriceLookup::OutOfRange => AssetValue::Unvalued(UnvaluedReason::OutOfRange),
    })
}

/// Quantity deltas sorted by date, and `first_date`. A lot counts from the fiscal date of the
/// row that created it (the migration row for a carried lot), a covered slice from its
/// operation's fiscal date.
fn quantity_deltas(
    ctx: &AnalyticsContext<'_>,
    index_of: &dyn Fn(Asset) -> Option<u32>,
) -> (Vec<(Date, u32, Decimal)>, Option<Date>) {
    let output = ctx.output;
    let mut deltas: Vec<(Date, u32, Decimal)> =
        Vec::with_capacity(output.lots.len() + output.slices.len());
    let mut first_date: Option<Date> = None;
    for lot in &output.lots {
        // A row's own lot opens on its acquisition date; a carried lot on the migration's.
        let created = if lot.lot_id.k == 0 {
            Some(lot.acquired_on)
        } else {
            ctx.row_date(lot.lot_id.row)
        };
        let (Some(date), Some(index)) = (created, index_of(lot.asset)) else {
            continue;
        };
        first_date = Some(first_date.map_or(date, |f| f.min(date)));
        deltas.push((date, index, lot.original_quantity));
    }
    for slice in &output.slices {
        if slice.lot_id.is_none() {
            continue;
        }
        let Some(op) = output.operations.get(slice.operation as usize) else {
            continue;
        };
        if let Some(index) = index_of(slice.asset) {
            deltas.push((op.fiscal_date, index, -slice.quantity));
        }
    }
    deltas.sort_by_key(|d| d.0);
    (deltas, first_date)
}

/// The held assets at `T` (`q_a(T) > 0`, in symbol order) with `V_a(T)`: the series'
/// [`DailySeries::at_as_of`] without sweeping every date (asset allocation reads only these).
/// The quantities are summed from the same deltas in the same order as the sweep, and valued
/// by the same §7.2 lookup at `T`.
pub fn held_at_as_of(ctx: &AnalyticsContext<'_>) -> DomainResult<Vec<AssetAtAsOf>> {
    let as_of = ctx.as_of_date();
    let assets = lot_assets(ctx);
    let (deltas, first_date) = lot_quantity_deltas(ctx, &assets);
    // The sweep starts at `first_date`: before it nothing is held.
    if first_date.is_none_or(|first| as_of < first) {
        return Ok(Vec::new());
    }
    let mut quantity = vec![Decimal::ZERO; assets.len()];
    for &(_, asset, dq) in deltas.iter().take_while(|d| d.0 <= as_of) {
        if let Some(q) = quantity.get_mut(asset as usize) {
            *q = num::add(*q, dq, "daily quantity")?;
        }
    }
    let window = PriceWindow::of(as_of);
    let mut held = Vec::new();
    for (&asset, &q) in assets.iter().zip(&quantity) {
        if q > Decimal::ZERO {
            let mut cursor = ctx.market.prices.cursor(asset);
            held.push(AssetAtAsOf {
                asset,
                quantity: q,
                value: lookup_value(ctx, &mut cursor, q, window)?,
            });
        }
    }
    Ok(held)
}

/// Values every asset on `date` into `current`; returns `(V(d), unvalued_assets(d))` and, when
/// `held` is given, records the held assets (the as-of date).
fn value_day(
    ctx: &AnalyticsContext<'_>,
    (assets, cursors): (&[Asset], &mut [PriceCursor<'_>]),
    quantity: &[Decimal],
    current: &mut [Option<Decimal>],
    date: Date,
    mut held: Option<&mut Vec<AssetAtAsOf>>,
) -> DomainResult<(Decimal, u32)> {
    let mut value = Decimal::ZERO;
    let mut unvalued = 0u32;
    let window = PriceWindow::of(date);
    for (((&asset, cursor), &q), slot) in assets
        .iter()
        .zip(cursors.iter_mut())
        .zip(quantity)
        .zip(current.iter_mut())
    {
        *slot = if q > Decimal::ZERO {
            let looked = lookup_value(ctx, cursor, q, window)?;
            if let Some(held) = held.as_deref_mut() {
                held.push(AssetAtAsOf {
                    asset,
                    quantity: q,
                    value: looked,
                });
            }
            match looked {
                AssetValue::Known { value: v, .. } => {
                    value = num::add(value, v, "daily value")?;
                    Some(v)
                }
                AssetValue::Unvalued(_) => {
                    unvalued += 1;
                    None
                }
            }
        } else {
            Some(Decimal::ZERO)
        };
    }
    Ok((value, unvalued))
}

/// The flows of the day in a dense per-asset vector (zero where none), reset from the previous
/// day through `touched`.
struct DayFlows<'a> {
    list: &'a [Flow],
    at: usize,
    today: Vec<Option<Decimal>>,
    touched: Vec<u32>,
    /// Σ of the day's flows; `None` when one is unknown.
    sum: Option<Decimal>,
}

impl DayFlows<'_> {
    fn load(&mut self, date: Date) -> DomainResult<()> {
        self.sum = Some(Decimal::ZERO);
        for &asset in &self.touched {
            if let Some(f) = self.today.get_mut(asset as usize) {
                *f = Some(Decimal::ZERO);
            }
        }
        self.touched.clear();
        while let Some(flow) = self.list.get(self.at) {
            if flow.date > date {
                break;
            }
            if flow.date == date
                && let Some(f) = self.today.get_mut(flow.asset as usize)
            {
                *f = flow.amount;
                self.touched.push(flow.asset);
                self.sum = match (self.sum, flow.amount) {
                    (Some(total), Some(amount)) => Some(num::add(total, amount, "day flows")?),
                    _ => None,
                };
            }
            self.at += 1;
        }
        Ok(())
    }
}

/// `r(d)`. When every asset is in `S(d)` (both days complete, every flow known) the sums over
/// `S` are the day totals and no per-asset pass is needed.
fn day_return(
    (value, unvalued): (Decimal, u32),
    (previous_value, previous_complete): (Decimal, bool),
    day_flows: &DayFlows<'_>,
    current: &[Option<Decimal>],
    previous: &[Option<Decimal>],
) -> DomainResult<Option<Decimal>> {
    if let (0, true, Some(flow_sum)) = (unvalued, previous_complete, day_flows.sum) {
        if previous_value <= Decimal::ZERO {
            return Ok(None);
        }
        let change = num::sub(
            num::sub(value, previous_value, "return")?,
            flow_sum,
            "return",
        )?;
        // Too large to compute (D-146): undefined that day, as in `daily_return`.
        return Ok(change.checked_div(previous_value));
    }
    daily_return(
        current
            .iter()
            .zip(previous)
            .zip(&day_flows.today)
            .map(|((v, p), f)| (*v, *p, *f)),
    )
}

/// Position of each asset in the sorted asset list (a word hash: probed once per lot, slice
/// and flow).
type AssetPositions = FastMap<Asset, u32>;

/// The distinct assets of the lots, in symbol order. The engine lists lots by asset, so the
/// first lot of each run of one asset is enough; sorting and deduplicating those keeps any
/// other order correct too.
fn lot_assets(ctx: &AnalyticsContext<'_>) -> Vec<Asset> {
    let mut assets: Vec<Asset> = Vec::new();
    for lot in &ctx.output.lots {
        if assets.last() != Some(&lot.asset) {
            assets.push(lot.asset);
        }
    }
    assets.sort_unstable();
    assets.dedup();
    assets
}

/// Each asset's position in `assets`.
fn positions(assets: &[Asset]) -> AssetPositions {
    assets
        .iter()
        .enumerate()
        .map(|(i, asset)| (*asset, i as u32))
        .collect()
}

/// [`quantity_deltas`] indexed by position in `lot_assets` (sorted): every delta's asset is a
/// lot's.
fn lot_quantity_deltas(
    ctx: &AnalyticsContext<'_>,
    lot_assets: &[Asset],
) -> (Vec<(Date, u32, Decimal)>, Option<Date>) {
    let position = positions(lot_assets);
    quantity_deltas(ctx, &|asset: Asset| position.get(&asset).copied())
}

/// The series' assets (`lot_assets` and the flows'), in symbol order, and each one's position.
fn asset_index(lot_assets: &[Asset], raw: &[RawFlow]) -> (Vec<Asset>, AssetPositions) {
    let mut distinct: FastSet<Asset> = raw.iter().map(|f| f.asset).collect();
    distinct.extend(lot_assets.iter().copied());
    let mut assets: Vec<Asset> = distinct.into_iter().collect();
    assets.sort_unstable();
    let position = positions(&assets);
    (assets, position)
}

/// What the sweep reads: the assets (symbol order), the quantity deltas and the flows by
/// asset index, sorted by date, and `first_date`.
struct Prelude {
    assets: Vec<Asset>,
    deltas: Vec<(Date, u32, Decimal)>,
    flows: Vec<Flow>,
    first_date: Option<Date>,
}

/// The flows and the quantity deltas read the engine output independently, so they are built
/// side by side (`rayon::join`), the deltas indexed by the lots' assets and re-indexed once the
/// flows' assets are known.
fn prelude(ctx: &AnalyticsContext<'_>) -> DomainResult<Prelude> {
    let lot_assets = lot_assets(ctx);
    let (raw, (mut deltas, first_date)) =
        rayon::join(|| raw_flows(ctx), || lot_quantity_deltas(ctx, &lot_assets));
    let raw = raw?;
    let (assets, position) = asset_index(&lot_assets, &raw);
    let index_of = |asset: Asset| position.get(&asset).copied();
    // Lot assets keep their order among all the assets: a lot asset's index moves up by the
    // flow-only assets sorted before it.
    let renumber: Vec<u32> = lot_assets
        .iter()
        .map(|asset| index_of(*asset).unwrap_or(u32::MAX))
        .collect();
    for delta in &mut deltas {
        if let Some(&index) = renumber.get(delta.1 as usize) {
            delta.1 = index;
        }
    }
    let flows = index_flows(&raw, &index_of)?;
    Ok(Prelude {
        assets,
        deltas,
        flows,
        first_date,
    })
}

/// Builds the daily series (`domain.md` §11.1, §11.3): the dates are cut into one piece per
/// thread of the pool, swept side by side. A piece starts from the quantities and values of
/// the day before it, recomputed in the same order (a replay of the earlier quantity deltas,
/// which is why the pieces are not smaller), so any number of pieces gives the same series;
/// the index and drawdowns are chained afterwards in date order, and an error is the one the
/// single sweep would meet first.
pub fn daily_series(ctx: &AnalyticsContext<'_>) -> DomainResult<DailySeries> {
    let as_of = ctx.as_of_date();
    let Prelude {
        assets,
        deltas,
        flows: flow_list,
        first_date,
    } = prelude(ctx)?;
    let Some(first_date) = first_date else {
        return Ok(DailySeries {
            as_of: Some(as_of),
            ..DailySeries::default()
        });
    };
    let last_row_date = ctx
        .output
        .ledger_order
        .last()
        .and_then(|&row| ctx.row_date(row))
        .unwrap_or(first_date);
    let last_date = as_of.max(last_row_date).max(first_date);

    let span = usize::try_from(last_date.signed_duration_since(first_date).num_days()).unwrap_or(0);
    let capacity = span.saturating_add(1);
    let sweep = Sweep {
        ctx,
        assets: &assets,
        deltas: &deltas,
        flows: &flow_list,
        first_date,
        as_of,
    };
    let pieces = rayon::current_num_threads().clamp(1, capacity);
    let piece_days = u64::try_from(capacity.div_ceil(pieces)).unwrap_or(u64::MAX);
    let mut ranges: Vec<(Date, Date)> = Vec::with_capacity(pieces);
    let mut from = Some(first_date);
    while let Some(start) = from.filter(|start| *start <= last_date) {
        let end = start
            .checked_add_days(chrono::Days::new(piece_days.saturating_sub(1)))
            .map_or(last_date, |end| end.min(last_date));
        ranges.push((start, end));
        from = end.succ_opt();
    }
    let swept: Vec<Swept> = ranges
        .par_iter()
        .map(|(from, to)| sweep.run(*from, *to))
        .collect();

    let mut days = Vec::with_capacity(capacity);
    let mut at_as_of = Vec::new();
    let mut index = Decimal::ONE;
    let mut peak = Decimal::ONE;
    for half in swept {
        for day in half.days {
            let mut ret = day.ret;
            if let Some(r) = ret {
                match Decimal::ONE
                    .checked_add(r)
                    .and_then(|g| index.checked_mul(g))
                {
                    Some(next) => index = next,
                    // A return that would carry the index beyond a decimal (D-146) is
                    // undefined that day, as the return itself can be.
                    None => ret = None,
                }
            }
            peak = peak.max(index);
            let drawdown = num::sub(num::div(index, peak, "drawdown")?, Decimal::ONE, "drawdown")?;
            days.push(DayPoint {
                date: day.date,
                value_eur: day.value,
                unvalued_assets: day.unvalued,
                ret,
                index,
                drawdown: if drawdown.is_zero() {
                    Decimal::ZERO
                } else {
                    drawdown
                },
            });
        }
        at_as_of.extend(half.at_as_of);
        half.stopped?;
    }
    Ok(DailySeries {
        as_of: Some(as_of),
        days,
        at_as_of,
    })
}

/// What a sweep over some dates reads.
struct Sweep<'c, 'a> {
    ctx: &'c AnalyticsContext<'a>,
    assets: &'c [Asset],
    /// Quantity deltas sorted by date.
    deltas: &'c [(Date, u32, Decimal)],
    /// Flows sorted by date.
    flows: &'c [Flow],
    first_date: Date,
    as_of: Date,
}

/// One day before the index is chained.
struct DayValue {
    date: Date,
    value: Decimal,
    unvalued: u32,
    ret: Option<Decimal>,
}

/// The days a sweep valued, the held assets if `T` was among them, and the error that
/// stopped it (the days before it are kept).
struct Swept {
    days: Vec<DayValue>,
    at_as_of: Vec<AssetAtAsOf>,
    stopped: DomainResult<()>,
}

impl Default for Swept {
    fn default() -> Self {
        Self {
            days: Vec::new(),
            at_as_of: Vec::new(),
            stopped: Ok(()),
        }
    }
}

impl Sweep<'_, '_> {
    /// Values the dates `from ..= to`. After the first date, the day before `from` is valued
    /// first (not kept) for the first day's return.
    fn run(&self, from: Date, to: Date) -> Swept {
        let mut out = Swept {
            days: Vec::with_capacity(
                usize::try_from(to.signed_duration_since(from).num_days())
                    .unwrap_or(0)
                    .saturating_add(1),
            ),
            ..Swept::default()
        };
        out.stopped = self.sweep(from, to, &mut out.days, &mut out.at_as_of);
        out
    }

    fn sweep(
        &self,
        from: Date,
        to: Date,
        out: &mut Vec<DayValue>,
        at_as_of: &mut Vec<AssetAtAsOf>,
    ) -> DomainResult<()> {
        let ctx = self.ctx;
        let n = self.assets.len();
        let start = if from > self.first_date {
            from.pred_opt().unwrap_or(from)
        } else {
            from
        };
        // One price cursor per asset: the sweep asks each asset's closes at increasing dates.
        let mut cursors: Vec<PriceCursor<'_>> = self
            .assets
            .iter()
            .map(|asset| ctx.market.prices.cursor(*asset))
            .collect();
        let mut quantity = vec![Decimal::ZERO; n];
        let mut previous: Vec<Option<Decimal>> = vec![Some(Decimal::ZERO); n];
        let mut current: Vec<Option<Decimal>> = vec![Some(Decimal::ZERO); n];
        let mut day_flows = DayFlows {
            at: self.flows.partition_point(|f| f.date < start),
            list: self.flows,
            today: vec![Some(Decimal::ZERO); n],
            touched: Vec::new(),
            sum: Some(Decimal::ZERO),
        };
        let mut delta_at = 0usize;
        let mut previous_value = Decimal::ZERO;
        let mut previous_complete = true;
        let mut date = start;
        loop {
            while let Some(&(d, asset, dq)) = self.deltas.get(delta_at) {
                if d > date {
                    break;
                }
                if let Some(q) = quantity.get_mut(asset as usize) {
                    *q = num::add(*q, dq, "daily quantity")?;
                }
                delta_at += 1;
            }
            day_flows.load(date)?;
            let held = (date == self.as_of && date >= from).then_some(&mut *at_as_of);
            let (value, unvalued) = value_day(
                ctx,
                (self.assets, &mut cursors),
                &quantity,
                &mut current,
                date,
                held,
            )?;
            if date >= from {
                let ret = if date == self.first_date {
                    None
                } else {
                    day_return(
                        (value, unvalued),
                        (previous_value, previous_complete),
                        &day_flows,
                        &current,
                        &previous,
                    )?
                };
                out.push(DayValue {
                    date,
                    value,
                    unvalued,
                    ret,
                });
            }
            std::mem::swap(&mut previous, &mut current);
            previous_value = value;
            previous_complete = unvalued == 0;
            if date >= to {
                break;
            }
            let Some(next) = date.succ_opt() else { break };
            date = next;
        }
        Ok(())
    }
}
