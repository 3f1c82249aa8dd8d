//! The global FIFO engine (`domain.md` §8).
//!
//! Rows are processed in ledger order `(instant, seq)`, one instant at a time: phase A opens
//! every acquisition of the instant, phase B runs every disposal (principal, then fee). Each
//! asset has one queue shared by all accounts: a `Vec` of lot indices ordered by `queue_key`
//! with a head index past the exhausted lots, so consumption is amortised O(1) per slice.

use crate::fast_hash::FastMap;

use rust_decimal::Decimal;
use shared_types::{QualityFlag, SpotTxType};

use crate::asset::Asset;
use crate::derivatives;
use crate::engine::{
    Clave, DisposalLeg, EngineInput, EngineOutput, FlagSet, IncomeBucket, IncomeReceipt, Lot,
    LotId, Operation, Provenance, QueueKey, Slice, SliceParts, SwapDetail, SwapWinner, Valued,
};
use crate::error::DomainResult;
use crate::ledger::{AccountId, AssetAmount, TxType};
use crate::market::Market;
use crate::num;
use crate::time::{Date, FiscalTimezone, Instant};
use crate::valuation::{self, Prices, RowValues, Value};

/// The settings the engine reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSettings {
    /// Fiscal time zone (`domain.md` §0.1).
    pub fiscal_timezone: FiscalTimezone,
    /// `irpf.non_currency_virtual_assets`: received assets that make a swap clave `O`.
    pub non_currency_virtual_assets: Vec<Asset>,
}

/// Rows per valuation batch (batches end on an instant boundary): one batch is valued while the
/// one before it is matched, so a batch is the unit of the overlap and of its synchronisation.
/// Two batches are alive (288 bytes a row): 1,024 rows keep them under 0.6 MB, where 4,096
/// added 2.4 MB to the peak of a 10k ledger's report (D-172); a join costs microseconds
/// against about a millisecond of work per batch.
const BATCH_ROWS: usize = 1_024;

/// A valued row: index, instant, fiscal date, values. The instant travels with the values so
/// that matching groups rows without reading them again.
type ValuedRow = (u32, Instant, Date, RowValues);

/// Runs the fiscal engine over the effective ledger.
///
/// Valuation never depends on FIFO state (`domain.md` §8.1 step 2), so the next batch of whole
/// instants is valued while this one is matched (`rayon::join`; on a one-thread pool the two
/// run one after the other). The result does not depend on the threads: it is the same
/// function of the same rows, consumed in the same order, and an error is the one the
/// row-by-row walk meets first. Fails only on arithmetic overflow; bad data becomes quality
/// flags.
pub fn run(
    input: &EngineInput,
    market: &Market,
    settings: &EngineSettings,
) -> DomainResult<EngineOutput> {
    run_in(
        input,
        market,
        settings,
        EngineBuffers::for_rows(input.rows.len()),
    )
}

/// [`run`] writing its lots, legs and slices into `buffers` (see [`EngineBuffers`]).
pub fn run_in(
    input: &EngineInput,
    market: &Market,
    settings: &EngineSettings,
    buffers: EngineBuffers,
) -> DomainResult<EngineOutput> {
    let ledger_order = ledger_order(input);
    let order = ledger_order.as_slice();
    let mut engine = Engine::new(input, settings, buffers);
    let mut prices = Prices::new(market);
    let mut batch: Vec<ValuedRow> = Vec::with_capacity(BATCH_ROWS.min(order.len()) + 64);
    let mut next: Vec<ValuedRow> = Vec::with_capacity(batch.capacity());
    let mut valued = value_batch(input, &mut prices, settings, order, 0, &mut batch);
    loop {
        let (start, failure) = match valued {
            Ok(start) => (start, None),
            // The rows valued before the failure are matched first, as the row-by-row walk
            // would have: a matching error among them comes first.
            Err(failure) => (order.len(), Some(failure)),
        };
        if start >= order.len() {
            engine.match_rows(&batch)?;
            if let Some(failure) = failure {
                return Err(failure);
            }
            break;
        }
        let matched;
        (valued, matched) = rayon::join(
            || value_batch(input, &mut prices, settings, order, start, &mut next),
            || engine.match_rows(&batch),
        );
        matched?;
        std::mem::swap(&mut batch, &mut next);
    }
    let mut output = engine.finish();
    output.ledger_order = ledger_order;
    output.derivatives = derivatives::results(&input.futures, market, settings.fiscal_timezone)?;
    Ok(output)
}

/// Values the whole instant groups of `order` from `start` until about [`BATCH_ROWS`] rows into
/// `out` (cleared first); returns where the next batch starts. On an error `out` keeps the
/// groups valued before it.
fn value_batch(
    input: &EngineInput,
    prices: &mut Prices<'_>,
    settings: &EngineSettings,
    order: &[u32],
    mut start: usize,
    out: &mut Vec<ValuedRow>,
) -> DomainResult<usize> {
    out.clear();
    while start < order.len() && out.len() < BATCH_ROWS {
        let end = group_end(input, order, start);
        let before = out.len();
        if let Err(error) = value_group(
            input,
            prices,
            settings,
            order.get(start..end).unwrap_or(&[]),
            out,
        ) {
            out.truncate(before);
            return Err(error);
        }
        start = end;
    }
    Ok(start)
}

/// The end of the instant group starting at `start` in `order`.
fn group_end(input: &EngineInput, order: &[u32], start: usize) -> usize {
    let Some(&first) = order.get(start) else {
        return start;
    };
    let instant = instant_of(input, first);
    let mut end = start + 1;
    while order
        .get(end)
        .is_some_and(|&row| instant_of(input, row) == instant)
    {
        end += 1;
    }
    end
}

/// Values the known-type rows of one instant group, appending them to `out`.
fn value_group(
    input: &EngineInput,
    prices: &mut Prices<'_>,
    settings: &EngineSettings,
    rows: &[u32],
    out: &mut Vec<ValuedRow>,
) -> DomainResult<()> {
    // The rows share one instant, hence one fiscal date.
    let mut date: Option<Date> = None;
    for &row in rows {
        let Some(effective) = input.rows.get(row as usize) else {
            continue;
        };
        if !matches!(effective.row.tx_type, TxType::Spot(_)) {
            continue;
        }
        let date = *date
            .get_or_insert_with(|| settings.fiscal_timezone.fiscal_date(effective.row.instant));
        let values = valuation::value_row_with(effective, date, prices)?;
        out.push((row, effective.row.instant, date, values));
    }
    Ok(())
}

fn instant_of(input: &EngineInput, row: u32) -> Instant {
    input
        .rows
        .get(row as usize)
        .map_or(Instant::from_unix_nanos(0), |r| r.row.instant)
}

/// Row indices in ledger order `(instant, seq)`; equal pairs (never in a valid ledger) fall back
/// to the row key so the order never depends on the input list's order.
fn ledger_order(input: &EngineInput) -> Vec<u32> {
    // Sorting compact keys instead of indices compared through the rows keeps the sort in
    // cache (a million rows sort in tens of milliseconds).
    let mut keys: Vec<(Instant, u64, u32)> = input
        .rows
        .iter()
        .enumerate()
        .map(|(index, row)| (row.row.instant, row.row.seq, index as u32))
        .collect();
    keys.sort_unstable();
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while keys
            .get(end)
            .zip(keys.get(start))
            .is_some_and(|(a, b)| (a.0, a.1) == (b.0, b.1))
        {
            end += 1;
        }
        if end - start > 1
            && let Some(run) = keys.get_mut(start..end)
        {
            run.sort_by(|a, b| input.row_key(a.2).cmp(&input.row_key(b.2)));
        }
        start = end;
    }
    keys.into_iter().map(|(_, _, index)| index).collect()
}

/// One asset's FIFO queue: lot entries ordered by `queue_key`; lots before `head` are empty.
#[derive(Default)]
struct Queue {
    lots: Vec<Entry>,
    head: usize,
    /// `(acquired_at, seq, k)` of the lot at the back of `lots`: most lots arrive in order and
    /// are compared with it without touching the lot.
    back: Option<(Instant, u64, u32)>,
}

/// What a slice copies from the lot it consumes.
#[derive(Clone, Copy)]
struct LotFacts {
    lot_id: LotId,
    acquired_at: Instant,
    acquired_on: Date,
    account_id: AccountId,
    provenance: Option<Provenance>,
    flags: FlagSet,
}

impl LotFacts {
    fn of(lot: &Lot) -> Self {
        Self {
            lot_id: lot.lot_id,
            acquired_at: lot.acquired_at,
            acquired_on: lot.acquired_on,
            account_id: lot.account_id,
            provenance: lot.provenance,
            flags: lot.flags,
        }
    }
}

/// A queued lot: its index in `lots` with everything matching reads and updates. Consumption
/// walks a queue in order, so keeping this state in the queue (instead of reading the large,
/// randomly placed lot records) turns a cache miss per slice into a sequential read. The
/// remaining quantity and cost are written back to the lots when matching ends.
#[derive(Clone, Copy)]
struct Entry {
    lot: u32,
    remaining_quantity: Decimal,
    remaining_cost: Option<Decimal>,
    facts: LotFacts,
}

/// A consumed part of a disposal leg before values are allocated.
#[derive(Clone, Copy)]
struct Part {
    /// The consumed lot's index and facts; `None` for the uncovered part.
    lot: Option<(u32, LotFacts)>,
    quantity: Decimal,
    cost: Option<Decimal>,
}

/// Everything a disposal leg needs besides its quantity.
struct Leg {
    row: u32,
    kind: DisposalLeg,
    tx_type: SpotTxType,
    amount: AssetAmount,
    date: Date,
    gross: Option<Decimal>,
    fee_expense: Option<Decimal>,
    clave: Option<Clave>,
    flags: FlagSet,
    valuation: Option<Valued>,
    swap: Option<Box<SwapDetail>>,
}

struct Engine<'a> {
    input: &'a EngineInput,
    settings: &'a EngineSettings,
    lots: Vec<Lot>,
    queues: Vec<Queue>,
    asset_index: FastMap<Asset, u32>, // tidy:hash-ok: asset to queue lookup; queues are indexed, never iterated from the map
    operations: Vec<Operation>,
    slices: Vec<Slice>,
    income: Vec<IncomeReceipt>,
    parts: Vec<Part>,
    /// A migration row with a crypto fee runs its legs M then F, which slice order lists F < M.
    needs_reorder: bool,
}

impl<'a> Engine<'a> {
    fn new(input: &'a EngineInput, settings: &'a EngineSettings, buffers: EngineBuffers) -> Self {
        let EngineBuffers {
            mut lots,
            mut operations,
            mut slices,
        } = buffers;
        // Buffers are empty by contract; a caller's leftovers are not the run's.
        lots.clear();
        operations.clear();
        slices.clear();
        Self {
            input,
            settings,
            lots,
            queues: Vec::new(),
            asset_index: FastMap::default(), // tidy:hash-ok: asset to queue lookup; queues are indexed, never iterated from the map
            operations,
            slices,
            income: Vec::new(),
            parts: Vec::new(),
            needs_reorder: false,
        }
    }

    /// The row key naming `row` in an overflow error (borrowed from the input, so building it
    /// costs nothing on the hot path; `num` allocates only when an error is raised).
    fn context(&self, row: u32) -> &'a dyn std::fmt::Display {
        match self.input.row_key(row) {
            Some(key) => key,
            None => &"",
        }
    }

    fn queue_of(&mut self, asset: Asset) -> usize {
        let next = self.queues.len() as u32;
        let index = *self.asset_index.entry(asset).or_insert(next);
        if index == next {
            self.queues.push(Queue::default());
        }
        index as usize
    }

    /// Matches valued rows given in ledger order, made of whole instant groups: per instant,
    /// phase A (acquisitions) then phase B (disposals).
    fn match_rows(&mut self, rows: &[ValuedRow]) -> DomainResult<()> {
        let mut start = 0;
        while start < rows.len() {
            let instant = rows.get(start).map(|(_, instant, _, _)| *instant);
            let mut end = start + 1;
            while rows
                .get(end)
                .is_some_and(|(_, next, _, _)| Some(*next) == instant)
            {
                end += 1;
            }
            let group = rows.get(start..end).unwrap_or(&[]);
            for (row, _, date, values) in group {
                self.acquire(*row, *date, values)?;
            }
            for (row, _, date, values) in group {
                self.dispose_row(*row, *date, values)?;
            }
            start = end;
        }
        Ok(())
    }

    /// Phase A: the acquisition legs of one row.
    fn acquire(&mut self, row: u32, date: Date, values: &RowValues) -> DomainResult<()> {
        let Some(effective) = self.input.rows.get(row as usize) else {
            return Ok(());
        };
        let spot = &effective.row;
        let TxType::Spot(tx_type) = spot.tx_type else {
            return Ok(());
        };
        let Some(inflow) = spot.inflow else {
            return Ok(());
        };
        match tx_type {
            SpotTxType::Buy => {
                let Some(principal) = values.principal else {
                    return Ok(());
                };
                let mut flags = principal.flags;
                let mut amount = principal.amount();
                if let Some(fee) = values.fee {
                    flags = flags.union(blocking(fee.flags));
                    amount = match (amount, fee.amount()) {
                        (Some(value), Some(fee)) => Some(num::add(value, fee, self.context(row))?),
                        _ => None,
                    };
                }
                if amount.is_some_and(|a| a.is_sign_negative() && !a.is_zero()) {
                    flags.insert(QualityFlag::NegativeCostBasis);
                }
                self.open_lot(row, tx_type, inflow, date, amount, principal.valued, flags);
            }
            SpotTxType::Swap => {
                let (Some(given), Some(received)) = (values.given, values.received) else {
                    return Ok(());
                };
                let (value, _, flags) = swap_value(given, received);
                self.open_lot(row, tx_type, inflow, date, value.amount(), value, flags);
            }
            SpotTxType::Staking
            | SpotTxType::Reward
            | SpotTxType::Airdrop
            | SpotTxType::Promotion
            | SpotTxType::Mining => {
                let Some(principal) = values.principal else {
                    return Ok(());
                };
                if inflow.asset.is_crypto() {
                    self.open_lot(
                        row,
                        tx_type,
                        inflow,
                        date,
                        principal.amount(),
                        principal.valued,
                        principal.flags,
                    );
                }
                let bucket = match tx_type {
                    SpotTxType::Staking | SpotTxType::Reward => IncomeBucket::Rcm,
                    SpotTxType::Mining => IncomeBucket::Activity,
                    _ => IncomeBucket::GeneralGp,
                };
                self.income.push(IncomeReceipt {
                    row,
                    tx_type,
                    fiscal_date: date,
                    asset: inflow.asset,
                    quantity: inflow.quantity,
                    value: principal.valued,
                    flags: principal.flags,
                    bucket,
                });
            }
            SpotTxType::Fork => {
                let zero = Value::stated_zero();
                self.open_lot(
                    row,
                    tx_type,
                    inflow,
                    date,
                    zero.amount(),
                    zero.valued,
                    FlagSet::EMPTY,
                );
            }
            _ => {}
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)] // One call site per acquisition kind; a struct adds noise.
    fn open_lot(
        &mut self,
        row: u32,
        tx_type: SpotTxType,
        inflow: AssetAmount,
        date: Date,
        amount: Option<Decimal>,
        valued: Valued,
        flags: FlagSet,
    ) {
        let Some(effective) = self.input.rows.get(row as usize) else {
            return;
        };
        let spot = &effective.row;
        let lot_id = LotId { row, k: 0 };
        let (provenance, fx, price) = match valued {
            Valued::Known {
                provenance,
                fx,
                price,
                ..
            } => (Some(provenance), fx, price),
            Valued::Unknown { .. } => (None, None, None),
        };
        let lot = Lot {
            lot_id,
            asset: inflow.asset,
            account_id: spot.account_id,
            origin_type: tx_type,
            carried_from: None,
            acquired_at: spot.instant,
            acquired_on: date,
            queue_key: QueueKey {
                acquired_at: spot.instant,
                seq: spot.seq,
                k: 0,
                tiebreak: 0,
            },
            original_quantity: inflow.quantity,
            remaining_quantity: inflow.quantity,
            acquisition_value: amount,
            remaining_cost: amount,
            provenance,
            fx,
            price,
            flags,
        };
        self.push_lot(lot);
    }

    /// Adds a lot to its queue at its `queue_key` position (the end, except for carried lots
    /// that inherit an older position).
    fn push_lot(&mut self, lot: Lot) {
        let queue = self.queue_of(lot.asset);
        let index = self.lots.len() as u32;
        let key = (
            lot.queue_key.acquired_at,
            lot.queue_key.seq,
            lot.queue_key.k,
        );
        let entry = Entry {
            lot: index,
            remaining_quantity: lot.remaining_quantity,
            remaining_cost: lot.remaining_cost,
            facts: LotFacts::of(&lot),
        };
        self.lots.push(lot);
        if let Some(queue) = self.queues.get_mut(queue)
            && queue.back.is_none_or(|back| back < key)
        {
            queue.lots.push(entry);
            queue.back = Some(key);
            return;
        }
        let (lots, input) = (&self.lots, self.input);
        let Some(queue) = self.queues.get_mut(queue) else {
            return;
        };
        let Some(new) = lots.get(index as usize) else {
            return;
        };
        let in_order = queue
            .lots
            .last()
            .and_then(|last| lots.get(last.lot as usize))
            .is_none_or(|last| queue_cmp(input, last, new).is_lt());
        if in_order {
            queue.lots.push(entry);
            queue.back = Some(key);
        } else {
            // The whole vector stays sorted (exhausted lots included) so that it is also the
            // output order; a position before the head moves the head back onto the new lot
            // (the lots it passes over are exhausted and are skipped again).
            let position = queue.lots.partition_point(|other| {
                lots.get(other.lot as usize)
                    .is_some_and(|other| queue_cmp(input, other, new).is_lt())
            });
            queue.lots.insert(position, entry);
            queue.head = queue.head.min(position);
        }
    }

    /// Phase B: the disposal legs of one row, principal (or migration) then fee.
    #[allow(clippy::too_many_lines)] // One arm per disposal type, read as the table of §8.4.
    fn dispose_row(&mut self, row: u32, date: Date, values: &RowValues) -> DomainResult<()> {
        let Some(effective) = self.input.rows.get(row as usize) else {
            return Ok(());
        };
        let spot = &effective.row;
        let TxType::Spot(tx_type) = spot.tx_type else {
            return Ok(());
        };
        let fee_value = values.fee;
        match tx_type {
            SpotTxType::Sell | SpotTxType::Spend | SpotTxType::Fee => {
                if let (Some(outflow), Some(principal)) = (spot.outflow, values.principal)
                    && outflow.asset.is_crypto()
                {
                    // A FEE row's own fee is a further fee disposal, not an expense of it.
                    let expense = match (tx_type, fee_value) {
                        (SpotTxType::Fee, _) | (_, None) => Value::stated_zero(),
                        (_, Some(fee)) => fee,
                    };
                    let fee_expense = expense.amount();
                    let clave = if tx_type == SpotTxType::Sell {
                        Clave::F
                    } else {
                        Clave::B
                    };
                    self.dispose(Leg {
                        row,
                        kind: DisposalLeg::Principal,
                        tx_type,
                        amount: outflow,
                        date,
                        gross: principal.amount(),
                        fee_expense,
                        clave: Some(clave),
                        flags: principal.flags.union(blocking(expense.flags)),
                        valuation: Some(principal.valued),
                        swap: None,
                    })?;
                }
            }
            SpotTxType::Swap => {
                if let (Some(outflow), Some(inflow), Some(given), Some(received)) =
                    (spot.outflow, spot.inflow, values.given, values.received)
                {
                    let (value, winner, mut flags) = swap_value(given, received);
                    let expense = fee_value.unwrap_or_else(Value::stated_zero);
                    flags = flags.union(blocking(expense.flags));
                    let clave = if self
                        .settings
                        .non_currency_virtual_assets
                        .contains(&inflow.asset)
                    {
                        Clave::O
                    } else {
                        Clave::N
                    };
                    self.dispose(Leg {
                        row,
                        kind: DisposalLeg::Principal,
                        tx_type,
                        amount: outflow,
                        date,
                        gross: value.amount(),
                        fee_expense: expense.amount(),
                        clave: Some(clave),
                        flags,
                        valuation: Some(value),
                        swap: Some(Box::new(SwapDetail {
                            given: given.valued,
                            received: received.valued,
                            winner,
                        })),
                    })?;
                }
            }
            SpotTxType::MigrationSwap => {
                if let (Some(outflow), Some(inflow)) = (spot.outflow, spot.inflow) {
                    self.migrate(row, date, outflow, inflow)?;
                    if fee_value.is_some() {
                        self.needs_reorder = true;
                    }
                }
            }
            _ => {}
        }
        if let (Some(fee), Some(value)) = (spot.fee, fee_value)
            && fee.asset.is_crypto()
            && num::is_positive(fee.quantity)
        {
            self.dispose(Leg {
                row,
                kind: DisposalLeg::Fee,
                tx_type: SpotTxType::Fee,
                amount: AssetAmount {
                    asset: fee.asset,
                    quantity: fee.quantity,
                },
                date,
                gross: value.amount(),
                fee_expense: Some(Decimal::ZERO),
                clave: Some(Clave::B),
                flags: value.flags,
                valuation: Some(value.valued),
                swap: None,
            })?;
        }
        Ok(())
    }

    /// Consumes the queue of the leg's asset (`domain.md` §8.3) into `self.parts`.
    fn consume(&mut self, row: u32, asset: Asset, quantity: Decimal) -> DomainResult<()> {
        self.parts.clear();
        let queue_index = self.queue_of(asset);
        let mut left = quantity;
        let context = self.context(row);
        let Some(queue) = self.queues.get_mut(queue_index) else {
            return Ok(());
        };
        while num::is_positive(left) {
            let Some(lot) = queue.lots.get_mut(queue.head) else {
                break;
            };
            if !num::is_positive(lot.remaining_quantity) {
                queue.head += 1;
                continue;
            }
            let (taken, cost) = if lot.remaining_quantity <= left {
                let cost = lot.remaining_cost;
                (lot.remaining_quantity, cost)
            } else {
                let cost = match lot.remaining_cost {
                    Some(remaining) => Some(cents_share(
                        remaining,
                        left,
                        lot.remaining_quantity,
                        context,
                    )?),
                    None => None,
                };
                (left, cost)
            };
            lot.remaining_quantity = num::sub(lot.remaining_quantity, taken, context)?;
            if let (Some(remaining), Some(cost)) = (lot.remaining_cost, cost) {
                lot.remaining_cost = Some(num::sub(remaining, cost, context)?);
            }
            if lot.remaining_quantity.is_zero() {
                queue.head += 1;
            }
            left = num::sub(left, taken, context)?;
            self.parts.push(Part {
                lot: Some((lot.lot, lot.facts)),
                quantity: taken,
                cost,
            });
        }
        if num::is_positive(left) {
            self.parts.push(Part {
                lot: None,
                quantity: left,
                cost: None,
            });
        }
        Ok(())
    }

    /// A principal or fee disposal leg: consumption, allocation, slices.
    fn dispose(&mut self, leg: Leg) -> DomainResult<()> {
        self.consume(leg.row, leg.amount.asset, leg.amount.quantity)?;
        let context = self.context(leg.row);
        let mut flags = leg.flags;
        if self.parts.last().is_some_and(|part| part.lot.is_none()) {
            flags.insert(QualityFlag::MissingAcquisition);
        }
        let operation_index = self.operations.len() as u32;
        let first_slice = self.slices.len() as u32;
        let mut gross_left = leg.gross;
        let mut fee_left = leg.fee_expense;
        let mut quantity_left = leg.amount.quantity;
        let count = self.parts.len();
        for (n, part) in self.parts.iter().enumerate() {
            let last = n + 1 == count;
            let gross = allocate(&mut gross_left, part.quantity, quantity_left, last, context)?;
            let fee = allocate(&mut fee_left, part.quantity, quantity_left, last, context)?;
            quantity_left = num::sub(quantity_left, part.quantity, context)?;
            let lot = part.lot.map(|(_, facts)| facts);
            let mut slice_flags = flags;
            if part.lot.is_none() {
                slice_flags.insert(QualityFlag::MissingAcquisition);
            } else {
                slice_flags.remove(QualityFlag::MissingAcquisition);
            }
            if let Some(lot) = lot {
                slice_flags = slice_flags.union(lot.flags);
            }
            let net = match (gross, fee) {
                (Some(gross), Some(fee)) => Some(num::sub(gross, fee, context)?),
                _ => None,
            };
            let included = !slice_flags.is_blocking();
            let result = match (included, net, part.cost) {
                (true, Some(net), Some(cost)) => Some(num::sub(net, cost, context)?),
                _ => None,
            };
            self.slices.push(Slice::from(SliceParts {
                operation: operation_index,
                leg: leg.kind,
                n: n as u32,
                lot_id: lot.map(|lot| lot.lot_id),
                asset: leg.amount.asset,
                quantity: part.quantity,
                gross_value: gross,
                fee_expense: fee,
                acquisition_value: part.cost,
                acquired_at: lot.map(|lot| lot.acquired_at),
                acquired_on: lot.map(|lot| lot.acquired_on),
                lot_account_id: lot.map(|lot| lot.account_id),
                acquisition_provenance: lot.and_then(|lot| lot.provenance),
                result,
                included: included && result.is_some(),
                flags: slice_flags,
            }));
        }
        let spot = self.input.rows.get(leg.row as usize).map(|r| &r.row);
        self.operations.push(Operation {
            row: leg.row,
            seq: spot.map_or(0, |s| s.seq),
            leg: leg.kind,
            tx_type: leg.tx_type,
            asset: leg.amount.asset,
            quantity: leg.amount.quantity,
            disposed_at: spot.map_or(Instant::from_unix_nanos(0), |s| s.instant),
            fiscal_date: leg.date,
            account_id: spot.map_or(AccountId(0), |s| s.account_id),
            gross_value: leg.gross,
            fee_expense: leg.fee_expense,
            clave: leg.clave,
            flags,
            valuation: leg.valuation,
            swap: leg.swap,
            slices: first_slice..self.slices.len() as u32,
        });
        Ok(())
    }

    /// A MIGRATION_SWAP: leg M consumes the old asset without value, then one carried lot of the
    /// new asset per slice (`domain.md` §8.8).
    #[allow(clippy::too_many_lines)] // The carried-lot rules of §8.8 read best in one place.
    fn migrate(
        &mut self,
        row: u32,
        date: Date,
        outflow: AssetAmount,
        inflow: AssetAmount,
    ) -> DomainResult<()> {
        self.consume(row, outflow.asset, outflow.quantity)?;
        let context = self.context(row);
        let Some(spot) = self.input.rows.get(row as usize).map(|r| &r.row) else {
            return Ok(());
        };
        let operation_index = self.operations.len() as u32;
        let first_slice = self.slices.len() as u32;
        let mut op_flags = FlagSet::EMPTY;
        let parts = std::mem::take(&mut self.parts);
        let count = parts.len();
        let mut carried_left = inflow.quantity;
        let mut carried = Vec::with_capacity(count);
        for (n, part) in parts.iter().enumerate() {
            let last = n + 1 == count;
            let lot = part
                .lot
                .and_then(|(index, _)| self.lots.get(index as usize));
            let mut slice_flags = FlagSet::EMPTY;
            if let Some(lot) = lot {
                slice_flags = slice_flags.union(lot.flags);
            } else {
                slice_flags.insert(QualityFlag::MissingAcquisition);
                op_flags.insert(QualityFlag::MissingAcquisition);
            }
            let quantity = if last {
                carried_left
            } else {
                let share = num::share(inflow.quantity, part.quantity, outflow.quantity, context)?;
                let share = num::round_half_up(share, 18);
                share.min(carried_left)
            };
            carried_left = num::sub(carried_left, quantity, context)?;
            let k = n as u32 + 1;
            let lot_id = LotId { row, k };
            let carried_lot = match lot {
                Some(source) => Lot {
                    lot_id,
                    asset: inflow.asset,
                    account_id: spot.account_id,
                    origin_type: SpotTxType::MigrationSwap,
                    carried_from: Some(source.lot_id),
                    acquired_at: source.acquired_at,
                    acquired_on: source.acquired_on,
                    queue_key: QueueKey {
                        acquired_at: source.queue_key.acquired_at,
                        seq: source.queue_key.seq,
                        k: source.queue_key.k,
                        tiebreak: 0,
                    },
                    original_quantity: quantity,
                    remaining_quantity: quantity,
                    acquisition_value: part.cost,
                    remaining_cost: part.cost,
                    provenance: source.provenance,
                    fx: source.fx,
                    price: source.price,
                    flags: source.flags,
                },
                None => Lot {
                    lot_id,
                    asset: inflow.asset,
                    account_id: spot.account_id,
                    origin_type: SpotTxType::MigrationSwap,
                    carried_from: None,
                    acquired_at: spot.instant,
                    acquired_on: date,
                    queue_key: QueueKey {
                        acquired_at: spot.instant,
                        seq: spot.seq,
                        k,
                        tiebreak: 0,
                    },
                    original_quantity: quantity,
                    remaining_quantity: quantity,
                    acquisition_value: None,
                    remaining_cost: None,
                    provenance: None,
                    fx: None,
                    price: None,
                    flags: FlagSet::of(QualityFlag::MissingAcquisition),
                },
            };
            self.slices.push(Slice::from(SliceParts {
                operation: operation_index,
                leg: DisposalLeg::Migration,
                n: n as u32,
                lot_id: lot.map(|lot| lot.lot_id),
                asset: outflow.asset,
                quantity: part.quantity,
                gross_value: None,
                fee_expense: None,
                acquisition_value: part.cost,
                acquired_at: lot.map(|lot| lot.acquired_at),
                acquired_on: lot.map(|lot| lot.acquired_on),
                lot_account_id: lot.map(|lot| lot.account_id),
                acquisition_provenance: lot.and_then(|lot| lot.provenance),
                result: None,
                included: false,
                flags: slice_flags,
            }));
            carried.push(carried_lot);
        }
        self.parts = parts;
        self.operations.push(Operation {
            row,
            seq: spot.seq,
            leg: DisposalLeg::Migration,
            tx_type: SpotTxType::MigrationSwap,
            asset: outflow.asset,
            quantity: outflow.quantity,
            disposed_at: spot.instant,
            fiscal_date: date,
            account_id: spot.account_id,
            gross_value: None,
            fee_expense: None,
            clave: None,
            flags: op_flags,
            valuation: None,
            swap: None,
            slices: first_slice..self.slices.len() as u32,
        });
        for lot in carried {
            self.push_lot(lot);
        }
        Ok(())
    }

    fn finish(mut self) -> EngineOutput {
        if self.needs_reorder {
            self.reorder_operations();
        }
        // Each queue already holds its lots in queue order (exhausted ones included), so the
        // output order `(asset, queue_key)` is the queues' concatenation by asset.
        let mut assets: Vec<(Asset, u32)> = self
            .asset_index
            .iter()
            .map(|(asset, index)| (*asset, *index))
            .collect();
        assets.sort_unstable();
        let mut order: Vec<u32> = Vec::with_capacity(self.lots.len());
        for (_, queue) in &assets {
            if let Some(queue) = self.queues.get(*queue as usize) {
                order.extend(queue.lots.iter().map(|entry| entry.lot));
            }
        }
        let mut lots = self.lots;
        let queues = &self.queues;
        let entries = || {
            assets
                .iter()
                .filter_map(|(_, queue)| queues.get(*queue as usize))
                .flat_map(|queue| queue.lots.iter())
        };
        let lot_index = if order.len() == lots.len() {
            // The entries hold each lot's id in the output order, so the id index is built
            // from them while the lots themselves are moved.
            let index_of_entries = || {
                let mut index: Vec<(LotId, u32)> = entries()
                    .enumerate()
                    .map(|(position, entry)| (entry.facts.lot_id, position as u32))
                    .collect();
                index.sort_unstable_by_key(|(id, _)| *id);
                index
            };
            let ((), index) = rayon::join(
                || {
                    permute_in_place(&mut lots, &mut order);
                    // In queue order now: the entries' state and the tiebreaks in one pass.
                    write_back(&mut lots, entries());
                },
                index_of_entries,
            );
            index
        } else {
            for entry in entries() {
                if let Some(lot) = lots.get_mut(entry.lot as usize) {
                    lot.remaining_quantity = entry.remaining_quantity;
                    lot.remaining_cost = entry.remaining_cost;
                }
            }
            assign_tiebreaks(&mut lots);
            let mut index: Vec<(LotId, u32)> = lots
                .iter()
                .enumerate()
                .map(|(position, lot)| (lot.lot_id, position as u32))
                .collect();
            index.sort_unstable_by_key(|(id, _)| *id);
            index
        };
        EngineOutput {
            ledger_order: Vec::new(),
            lots,
            operations: self.operations,
            slices: self.slices,
            income: self.income,
            derivatives: Vec::new(),
            lot_index,
        }
    }

    /// Orders operations (and their slices) by `(disposed_at, seq, leg)`.
    fn reorder_operations(&mut self) {
        let mut order: Vec<u32> = (0..self.operations.len() as u32).collect();
        let operations = &self.operations;
        order.sort_by_key(|&index| {
            operations
                .get(index as usize)
                .map(|op| (op.disposed_at, op.seq, op.leg))
        });
        let mut new_operations = Vec::with_capacity(self.operations.len());
        let mut new_slices = Vec::with_capacity(self.slices.len());
        for (new_index, &old_index) in order.iter().enumerate() {
            let Some(operation) = self.operations.get(old_index as usize) else {
                continue;
            };
            let mut operation = operation.clone();
            let first = new_slices.len() as u32;
            for slice in self
                .slices
                .get(operation.slices.start as usize..operation.slices.end as usize)
                .unwrap_or(&[])
            {
                let mut slice = slice.clone();
                slice.operation = new_index as u32;
                new_slices.push(slice);
            }
            operation.slices = first..new_slices.len() as u32;
            new_operations.push(operation);
        }
        self.operations = new_operations;
        self.slices = new_slices;
    }
}

/// Reorders `items` so that position `i` holds the item that was at `order[i]`, by following
/// the permutation's cycles (no second copy of a large vector). Each cycle lifts its first item
/// out and moves every other item once into the hole: one copy per item where swaps made three
/// (a lot is 224 bytes, and this was most of the FIFO's finish). `order` must be a permutation
/// of `0..items.len()`; it is consumed (overwritten with a marker).
fn permute_in_place<T: Clone>(items: &mut [T], order: &mut [u32]) {
    const DONE: u32 = u32::MAX;
    if order.len() != items.len() {
        return;
    }
    for start in 0..order.len() {
        let Some(first) = order.get(start).copied() else {
            break;
        };
        if first == DONE || first as usize == start {
            continue;
        }
        let Some(held) = items.get(start).cloned() else {
            break;
        };
        let mut hole = start;
        while let Some(slot) = order.get_mut(hole) {
            let source = std::mem::replace(slot, DONE) as usize;
            if source == start || source >= items.len() {
                break;
            }
            // `source != hole`: a cycle visits each position once.
            if let Some(item) = items.get(source).cloned()
                && let Some(target) = items.get_mut(hole)
            {
                *target = item;
            }
            hole = source;
        }
        if let Some(target) = items.get_mut(hole) {
            *target = held;
        }
    }
}

/// Queue order of two lots of one asset: `(acquired_at, seq, k)`, then the public lot id.
fn queue_cmp(input: &EngineInput, a: &Lot, b: &Lot) -> std::cmp::Ordering {
    let (ka, kb) = (a.queue_key, b.queue_key);
    (ka.acquired_at, ka.seq, ka.k)
        .cmp(&(kb.acquired_at, kb.seq, kb.k))
        .then_with(|| {
            if a.lot_id == b.lot_id {
                std::cmp::Ordering::Equal
            } else {
                input
                    .lot_public_id(a.lot_id)
                    .cmp(&input.lot_public_id(b.lot_id))
            }
        })
}

/// Numbers lots that share `(asset, acquired_at, seq, k)` in their (sorted) order, so the
/// derived order of `QueueKey` equals the queue order.
fn assign_tiebreaks(lots: &mut [Lot]) {
    let mut ranks = Tiebreaks::default();
    for lot in lots {
        ranks.assign(lot);
    }
}

/// The entries' remaining quantity and cost written to `lots`, which hold the same lots in
/// the same (output) order, and the tiebreaks assigned in the same pass.
fn write_back<'e>(lots: &mut [Lot], entries: impl Iterator<Item = &'e Entry>) {
    let mut ranks = Tiebreaks::default();
    for (lot, entry) in lots.iter_mut().zip(entries) {
        lot.remaining_quantity = entry.remaining_quantity;
        lot.remaining_cost = entry.remaining_cost;
        ranks.assign(lot);
    }
}

/// The tiebreak of lots in output order: the rank among consecutive lots of equal asset and
/// queue key.
#[derive(Default)]
struct Tiebreaks {
    rank: u32,
    previous: Option<(Asset, Instant, u64, u32)>,
}

impl Tiebreaks {
    fn assign(&mut self, lot: &mut Lot) {
        let key = lot.queue_key;
        let triple = (lot.asset, key.acquired_at, key.seq, key.k);
        self.rank = if self.previous == Some(triple) {
            self.rank + 1
        } else {
            0
        };
        lot.queue_key.tiebreak = self.rank;
        self.previous = Some(triple);
    }
}

/// The blocking part of a flag set (what an unknown fee passes on to the value it feeds).
fn blocking(flags: FlagSet) -> FlagSet {
    let mut result = FlagSet::EMPTY;
    for flag in flags.iter().filter(|flag| flag.is_blocking()) {
        result.insert(flag);
    }
    result
}

/// `TV = max(V_given, V_received)` (`domain.md` §8.5): the value, the winner and the flags of
/// the disposal and the new lot.
fn swap_value(given: Value, received: Value) -> (Valued, Option<SwapWinner>, FlagSet) {
    let advisory = {
        let mut flags = FlagSet::EMPTY;
        for flag in given.flags.union(received.flags).iter() {
            if !flag.is_blocking() {
                flags.insert(flag);
            }
        }
        flags
    };
    match (given.amount(), received.amount()) {
        (Some(g), Some(r)) if r > g => (received.valued, Some(SwapWinner::Received), advisory),
        (Some(_), _) => (given.valued, Some(SwapWinner::Given), advisory),
        (None, Some(_)) => (received.valued, Some(SwapWinner::Received), advisory),
        (None, None) => {
            let flags = advisory
                .union(blocking(given.flags))
                .union(blocking(received.flags));
            let flag = match given.valued {
                Valued::Unknown { flag } => flag,
                Valued::Known { .. } => QualityFlag::MissingPrice,
            };
            (Valued::Unknown { flag }, None, flags)
        }
    }
}

/// The allocation rule of `domain.md` §1.3: the part of the amount still to allocate for
/// `quantity` out of `quantity_left`, the last part taking the exact remainder.
fn allocate(
    amount_left: &mut Option<Decimal>,
    quantity: Decimal,
    quantity_left: Decimal,
    last: bool,
    context: &dyn std::fmt::Display,
) -> DomainResult<Option<Decimal>> {
    let Some(left) = *amount_left else {
        return Ok(None);
    };
    let part = if last || quantity >= quantity_left {
        left
    } else {
        cents_share(left, quantity, quantity_left, context)?
    };
    *amount_left = Some(num::sub(left, part, context)?);
    Ok(Some(part))
}

/// `round_half_up(amount × part ÷ whole, 2)` with checked `Decimal` arithmetic, through
/// [`fast_cents_share`] when it applies.
fn cents_share(
    amount: Decimal,
    part: Decimal,
    whole: Decimal,
    context: &dyn std::fmt::Display,
) -> DomainResult<Decimal> {
    if let Some(share) = fast_cents_share(amount, part, whole) {
        return Ok(share);
    }
    // The remaining-amount rule makes the parts sum exactly even when the share takes the
    // quotient first (a product beyond a decimal, D-146).
    Ok(num::to_cents(num::share(amount, part, whole, context)?))
}

/// The common case of [`cents_share`] in integers: a cent amount (scale 2) times a quantity
/// share `part ÷ whole` of one scale, `0 ≤ part < whole`. The `Decimal` path multiplies
/// exactly (the bounds keep the product within 96 bits), divides to 28-29 significant digits
/// and rounds to cents; here the exact quotient is rounded instead. The two agree unless the
/// exact quotient lies within the division's last digits of a cent midpoint, so that case (and
/// anything outside the bounds) returns `None` and takes the `Decimal` path.
fn fast_cents_share(amount: Decimal, part: Decimal, whole: Decimal) -> Option<Decimal> {
    const MAX_CENTS: u128 = 1_000_000_000_000;
    const MAX_QUANTITY: u128 = 1_000_000_000_000_000_000;
    const MANTISSA_LIMIT: u128 = 1 << 96;
    if amount.scale() != 2
        || part.scale() != whole.scale()
        || part.scale() > 26
        || part.is_sign_negative()
        || whole.is_sign_negative()
    {
        return None;
    }
    let cents = amount.mantissa().unsigned_abs();
    let part = part.mantissa().unsigned_abs();
    let whole = whole.mantissa().unsigned_abs();
    if cents >= MAX_CENTS || whole >= MAX_QUANTITY || whole == 0 || part >= whole {
        return None;
    }
    let product = cents.checked_mul(part)?;
    // A zero dividend comes back from `Decimal` division as a plain `0` (scale 0).
    if product == 0 || product >= MANTISSA_LIMIT {
        return None;
    }
    let quotient = product / whole;
    let twice = (product % whole).checked_mul(2)?;
    // Distance from the midpoint, in units of 1 / (2 × whole) cent: far enough (≥ 1e-14 of a
    // cent) that the rounded 28-digit quotient cannot fall on the other side.
    if twice.abs_diff(whole).checked_mul(100_000_000_000_000)? < whole {
        return None;
    }
    let quotient = if twice > whole {
        quotient.checked_add(1)?
    } else {
        quotient
    };
    let quotient = i128::try_from(quotient).ok()?;
    let signed = if amount.is_sign_negative() {
        quotient.checked_neg()?
    } else {
        quotient
    };
    Decimal::try_from_i128_with_scale(signed, 2).ok()
}

mod buffers;

pub use buffers::EngineBuffers;

#[cfg(test)]
mod tests;
