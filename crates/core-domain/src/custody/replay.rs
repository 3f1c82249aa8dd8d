//! The custody replay (`domain.md` §9.2 to §9.4, §12.3).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use rust_decimal::Decimal;

use super::movements::{ledger_order, resolve_movements};
use super::{
    CustodyBalance, CustodyOutput, HoldingsAt, Location, LocationRow, LotRemaining, Movement,
    Relocation,
};
use crate::asset::Asset;
use crate::engine::{DisposalLeg, EngineInput, EngineOutput, LotId};
use crate::error::DomainResult;
use crate::fast_hash::{FastMap, FastSet};
use crate::ledger::{Account, AccountId};
use crate::num;
use crate::overrides::CustodyLink;
use crate::time::{Date, FiscalTimezone, Instant};

const NONE: u32 = u32::MAX;

/// Runs custody over the whole ledger: movements, relocations, final pieces and balances.
///
/// `output` is the FIFO engine's output for `input`; `accounts` names the locations; `links`
/// are the custody overrides of `domain.md` §6.3 (an invalid one is `InvalidOverride`).
pub fn allocate(
    input: &EngineInput,
    output: &EngineOutput,
    accounts: &[Account],
    links: &[CustodyLink],
) -> DomainResult<CustodyOutput> {
    // Movements are resolved from the rows alone, beside the indexing of the engine's
    // output (`rayon::join`). Errors keep the sequential order.
    let (movements, (index, mut state, tolerance)) = rayon::join(
        || resolve_movements(&input.rows, &output.ledger_order, accounts, links),
        || {
            let index = Index::new(input, output);
            let state = State::new(&index, true);
            let tolerance = fee_tolerance(input);
            (index, state, tolerance)
        },
    );
    let movements = movements?;
    state.run(&index, &movements, None)?;
    name_relocated_lots(&mut state.relocations, &output.lots);
    let names = Names::new(accounts);
    let (balances, locations) = state.finish(&index, &names)?;
    Ok(CustodyOutput {
        relocations: state.relocations,
        relocation_counts: state.relocation_counts,
        movements,
        locations,
        balances,
        fee_tolerance: tolerance?,
    })
}

/// Sets each relocation's lot id. Read in one pass after the replay: inside the replay each
/// read was a cache miss on a large lot record that stalled the walk.
fn name_relocated_lots(relocations: &mut [Relocation], lots: &[crate::engine::Lot]) {
    for relocation in relocations {
        if let Some(lot) = lots.get(relocation.lot as usize) {
            relocation.lot_id = lot.lot_id;
        }
    }
}

/// Custody and fiscal holdings at the end of the fiscal day `cutoff` (`domain.md` §12.3): the
/// replay stops after every row whose fiscal date is ≤ `cutoff`, i.e. whose instant is before
/// the end of that civil day in `timezone`. Movements are resolved over the whole ledger, so a
/// pair whose later leg falls after the cut-off has not moved yet.
pub fn holdings_at(
    input: &EngineInput,
    output: &EngineOutput,
    accounts: &[Account],
    links: &[CustodyLink],
    cutoff: Date,
    timezone: FiscalTimezone,
) -> DomainResult<HoldingsAt> {
    let end = timezone.end_of_day(cutoff);
    let index = Index::new(input, output);
    let movements = resolve_movements(&input.rows, &index.order, accounts, links)?;
    let mut state = State::new(&index, false);
    state.run(&index, &movements, Some(end))?;
    let names = Names::new(accounts);
    let (balances, locations) = state.finish(&index, &names)?;
    let lots = remaining_at(&index, end)?;
    Ok(HoldingsAt {
        cutoff,
        end,
        balances,
        locations,
        lots,
    })
}

/// `fee_tolerance(a)` for every crypto asset: Σ fee quantities recorded in `a` on all rows.
fn fee_tolerance(input: &EngineInput) -> DomainResult<Vec<(Asset, Decimal)>> {
    // Hashed while summing (rows are many, assets few), sorted by symbol once at the end.
    let mut sums: FastMap<Asset, Decimal> = FastMap::default();
    for row in &input.rows {
        if let Some(fee) = row.row.fee
            && num::is_positive(fee.quantity)
        {
            let sum = sums.entry(fee.asset).or_insert(Decimal::ZERO);
            *sum = num::add(*sum, fee.quantity, &row.row.row_key)?;
        }
    }
    let mut sums: Vec<(Asset, Decimal)> = sums
        .into_iter()
        .filter(|(asset, _)| asset.is_crypto())
        .collect();
    sums.sort_unstable_by_key(|(asset, _)| *asset);
    Ok(sums)
}

/// Compressed per-row lists (`start[r]..start[r + 1]` indexes `items`).
struct PerRow {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl PerRow {
    /// Groups `(row, item)` pairs by row, keeping their order within a row.
    fn new(rows: usize, pairs: &[(u32, u32)]) -> Self {
        let mut start = vec![0u32; rows + 1];
        for &(r, _) in pairs {
            if let Some(c) = start.get_mut(r as usize + 1) {
                *c += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut items = vec![0u32; pairs.len()];
        for &(r, item) in pairs {
            if let Some(pos) = fill.get_mut(r as usize)
                && let Some(slot) = items.get_mut(*pos as usize)
            {
                *slot = item;
                *pos += 1;
            }
        }
        Self { start, items }
    }

    fn of(&self, r: u32) -> &[u32] {
        let from = self.start.get(r as usize).copied().unwrap_or(0) as usize;
        let to = self.start.get(r as usize + 1).copied().unwrap_or(0) as usize;
        self.items.get(from..to).unwrap_or(&[])
    }
}

/// Whether the lots of each asset appear in `queue_key` order (the engine lists them by
/// `(asset, queue_key)`); checked cheaply, without ordering assets by symbol.
fn queue_ordered(lots: &[crate::engine::Lot]) -> bool {
    let mut finished: FastSet<Asset> = FastSet::default();
    for pair in lots.windows(2) {
        let [a, b] = pair else { continue };
        if a.asset == b.asset {
            if a.queue_key > b.queue_key {
                return false;
            }
        } else if !finished.insert(a.asset) || finished.contains(&b.asset) {
            return false;
        }
    }
    true
}

/// Index structures over the engine's output, built once per replay.
struct Index<'a> {
    input: &'a EngineInput,
    output: &'a EngineOutput,
    order: std::borrow::Cow<'a, [u32]>,
    /// Rank of each lot in `(asset, queue_key)` order; pieces sort by it.
    rank_of_lot: Vec<u32>,
    lot_of_rank: Vec<u32>,
    /// Per row, the lot with `k = 0` (`NONE` if the row acquired none).
    own_lot: Vec<u32>,
    /// Per row, the carried lots (`k ≥ 1`) in `k` order.
    carried: PerRow,
    /// Per row, its operations in processing order.
    operations: PerRow,
}

impl<'a> Index<'a> {
    fn new(input: &'a EngineInput, output: &'a EngineOutput) -> Self {
        let rows = input.rows.len();
        let order = if output.ledger_order.len() == rows {
            std::borrow::Cow::Borrowed(output.ledger_order.as_slice())
        } else {
            std::borrow::Cow::Owned(ledger_order(&input.rows))
        };
        let lots = &output.lots;
        let sorted = queue_ordered(lots);
        let mut lot_of_rank: Vec<u32> = (0..lots.len() as u32).collect();
        if !sorted {
            lot_of_rank
                .sort_by_key(|&l| lots.get(l as usize).map(|lot| (lot.asset, lot.queue_key)));
        }
        let mut rank_of_lot = vec![0u32; lots.len()];
        for (rank, &lot) in lot_of_rank.iter().enumerate() {
            if let Some(slot) = rank_of_lot.get_mut(lot as usize) {
                *slot = rank as u32;
            }
        }
        let mut own_lot = vec![NONE; rows];
        let mut carried_pairs = Vec::new();
        for (i, lot) in lots.iter().enumerate() {
            if lot.lot_id.k == 0 {
                if let Some(slot) = own_lot.get_mut(lot.lot_id.row as usize) {
                    *slot = i as u32;
                }
            } else {
                carried_pairs.push((lot.lot_id.row, lot.lot_id.k, i as u32));
            }
        }
        carried_pairs.sort_unstable();
        let carried_pairs: Vec<(u32, u32)> =
            carried_pairs.into_iter().map(|(r, _, i)| (r, i)).collect();
        let operation_pairs: Vec<(u32, u32)> = output
            .operations
            .iter()
            .enumerate()
            .map(|(i, op)| (op.row, i as u32))
            .collect();
        Self {
            input,
            output,
            order,
            rank_of_lot,
            lot_of_rank,
            own_lot,
            carried: PerRow::new(rows, &carried_pairs),
            operations: PerRow::new(rows, &operation_pairs),
        }
    }

    fn instant(&self, r: u32) -> Option<Instant> {
        self.input.rows.get(r as usize).map(|row| row.row.instant)
    }

    fn lot_index(&self, id: LotId) -> Option<u32> {
        if id.k == 0 {
            self.own_lot
                .get(id.row as usize)
                .copied()
                .filter(|&l| l != NONE)
        } else {
            self.carried.of(id.row).iter().copied().find(|&l| {
                self.output
                    .lots
                    .get(l as usize)
                    .is_some_and(|lot| lot.lot_id == id)
            })
        }
    }
}

#[derive(Clone, Copy)]
struct Piece {
    rank: u32,
    quantity: Decimal,
}

struct Slot {
    location: Location,
    asset: Asset,
    pieces: VecDeque<Piece>,
    ledger: Decimal,
    custody: Decimal,
    shortfall: Decimal,
}

/// Accounts with an id below this get a column from a plain array (ids are small row ids).
const DENSE_ACCOUNT_IDS: u32 = 1 << 20;

/// Slot ids by dense `(asset, location)` numbers: per asset a row of columns, column 0 the
/// asset's own wallet and `1 + c` the account with dense number `c`. Assets and accounts are
/// numbered on first sight; a lookup is one small hash of the asset (none with a known asset
/// number) and two array reads, instead of hashing `(Location, Asset)` into a large table.
#[derive(Default)]
struct SlotTable {
    assets: FastMap<Asset, u32>,
    /// The asset of each dense number (the placements and disposals carry the number only).
    symbols: Vec<Asset>,
    rows: Vec<Vec<u32>>,
    account_cols: Vec<u32>,
    other_accounts: FastMap<AccountId, u32>,
    next_col: u32,
    /// The own wallet of another asset (never in valid data).
    foreign: FastMap<(Location, Asset), u32>,
}

impl SlotTable {
    fn asset(&mut self, asset: Asset) -> u32 {
        let next = self.rows.len() as u32;
        let id = *self.assets.entry(asset).or_insert(next);
        if id == next {
            self.rows.push(Vec::new());
            self.symbols.push(asset);
        }
        id
    }

    /// The asset numbered `id` by [`SlotTable::asset`].
    fn symbol(&self, id: u32) -> Option<Asset> {
        self.symbols.get(id as usize).copied()
    }

    /// [`SlotTable::asset`], skipping the lookup when `asset` is the `previous` one (records
    /// of one asset come in runs); `previous` becomes this one.
    fn asset_after(&mut self, previous: &mut Option<(Asset, u32)>, asset: Asset) -> u32 {
        match *previous {
            Some((last, id)) if last == asset => id,
            _ => {
                let id = self.asset(asset);
                *previous = Some((asset, id));
                id
            }
        }
    }

    fn account_col(&mut self, account: AccountId) -> u32 {
        let next = self.next_col;
        let col = if account.0 < DENSE_ACCOUNT_IDS {
            let at = account.0 as usize;
            if self.account_cols.len() <= at {
                self.account_cols.resize(at + 1, NONE);
            }
            match self.account_cols.get_mut(at) {
                Some(col) if *col == NONE => {
                    *col = next;
                    next
                }
                Some(col) => *col,
                None => next,
            }
        } else {
            *self.other_accounts.entry(account).or_insert(next)
        };
        if col == next {
            self.next_col += 1;
        }
        col + 1
    }
}

/// A lot's placement: its piece rank, account, asset (by its dense number: 28 bytes a record
/// where the 21-byte symbol made 52, and the replay reads one per lot) and quantity.
struct Placement {
    rank: u32,
    account: AccountId,
    asset_id: u32,
    quantity: Decimal,
}

struct State {
    slots: Vec<Slot>,
    table: SlotTable,
    placements: Vec<Placement>,
    buffer: Vec<Piece>,
    /// What disposing each operation needs, by operation index.
    disposals: Vec<Disposal>,
    record: bool,
    relocations: Vec<Relocation>,
    relocation_counts: Vec<u32>,
}

/// A disposal leg's account, asset (by its dense number, as in [`Placement`]) and quantity.
struct Disposal {
    leg: DisposalLeg,
    account: AccountId,
    asset_id: u32,
    quantity: Decimal,
}

const CONTEXT: &str = "custody replay";

impl State {
    fn new(index: &Index<'_>, record: bool) -> Self {
        // What placing a lot needs, read once in lot order: the replay places lots in ledger
        // order, which is random in the (large) lot records.
        let mut table = SlotTable::default();
        let mut previous: Option<(Asset, u32)> = None;
        let placements = index
            .output
            .lots
            .iter()
            .zip(&index.rank_of_lot)
            .map(|(lot, &rank)| {
                let asset_id = table.asset_after(&mut previous, lot.asset);
                Placement {
                    rank,
                    account: lot.account_id,
                    asset_id,
                    quantity: lot.original_quantity,
                }
            })
            .collect();
        // The same for the disposal legs, read in one pass in their (ledger) order: the walk
        // then reads these small records instead of the large operations.
        let disposals = index
            .output
            .operations
            .iter()
            .map(|op| {
                let asset_id = table.asset_after(&mut previous, op.asset);
                Disposal {
                    leg: op.leg,
                    account: op.account_id,
                    asset_id,
                    quantity: op.quantity,
                }
            })
            .collect();
        Self {
            slots: Vec::new(),
            table,
            placements,
            buffer: Vec::new(),
            disposals,
            record,
            relocations: Vec::new(),
            relocation_counts: if record {
                vec![0; index.output.lots.len()]
            } else {
                Vec::new()
            },
        }
    }

    fn slot(&mut self, location: Location, asset: Asset) -> usize {
        let asset_id = self.table.asset(asset);
        self.slot_at(location, asset, asset_id)
    }

    /// The slot of `(account, asset)` where `asset_id` is the asset's dense number (from
    /// [`SlotTable::asset`], so it always names one).
    fn account_slot(&mut self, account: AccountId, asset_id: u32) -> Option<usize> {
        let asset = self.table.symbol(asset_id)?;
        Some(self.slot_at(Location::Account(account), asset, asset_id))
    }

    /// The slot of `(location, asset)` where `asset_id` is the asset's dense number.
    fn slot_at(&mut self, location: Location, asset: Asset, asset_id: u32) -> usize {
        let next = self.slots.len() as u32;
        let col = match location {
            Location::OwnWallet(owner) if owner == asset => 0,
            Location::OwnWallet(_) => {
                let id = *self.table.foreign.entry((location, asset)).or_insert(next);
                return self.open(id, location, asset);
            }
            Location::Account(account) => self.table.account_col(account),
        } as usize;
        let id = match self.table.rows.get_mut(asset_id as usize) {
            Some(row) => {
                if row.len() <= col {
                    row.resize(col + 1, NONE);
                }
                match row.get_mut(col) {
                    Some(id) if *id == NONE => {
                        *id = next;
                        next
                    }
                    Some(id) => *id,
                    None => next,
                }
            }
            None => next,
        };
        self.open(id, location, asset)
    }

    /// Slot `id`, created when it is the next one.
    fn open(&mut self, id: u32, location: Location, asset: Asset) -> usize {
        let next = self.slots.len() as u32;
        if id == next {
            self.slots.push(Slot {
                location,
                asset,
                pieces: VecDeque::new(),
                ledger: Decimal::ZERO,
                custody: Decimal::ZERO,
                shortfall: Decimal::ZERO,
            });
        }
        id as usize
    }

    /// Replays the ledger in order and phases, stopping before the first instant ≥ `stop`.
    fn run(
        &mut self,
        index: &Index<'_>,
        movements: &[Movement],
        stop: Option<Instant>,
    ) -> DomainResult<()> {
        let movement_pairs: Vec<(u32, u32)> = movements
            .iter()
            .enumerate()
            .map(|(i, m)| (m.position_row, i as u32))
            .collect();
        let movements_at = PerRow::new(index.input.rows.len(), &movement_pairs);
        let order = &index.order;
        // The instants in ledger order, gathered in one pass: read inside the walk, each was a
        // cache miss on a large row record.
        let instants: Vec<Option<Instant>> = order.iter().map(|&r| index.instant(r)).collect();
        let mut g = 0;
        while order.get(g).is_some() {
            let Some(t) = instants.get(g).copied().flatten() else {
                break;
            };
            if stop.is_some_and(|s| t >= s) {
                break;
            }
            let mut h = g + 1;
            while instants.get(h).is_some_and(|&i| i == Some(t)) {
                h += 1;
            }
            let group = order.get(g..h).unwrap_or(&[]);
            // Phase A: acquisitions open their pieces.
            for &r in group {
                if let Some(&lot) = index.own_lot.get(r as usize)
                    && lot != NONE
                {
                    self.place(lot)?;
                }
            }
            // Phase B: per row, principal (and carried lots), movements, then the fee.
            for &r in group {
                for &op in index.operations.of(r) {
                    if self.dispose(op, false)? == Some(DisposalLeg::Migration) {
                        for &lot in index.carried.of(r) {
                            self.place(lot)?;
                        }
                    }
                }
                for &m in movements_at.of(r) {
                    if let Some(movement) = movements.get(m as usize) {
                        self.relocate(index, m, movement)?;
                    }
                }
                for &op in index.operations.of(r) {
                    self.dispose(op, true)?;
                }
            }
            g = h;
        }
        Ok(())
    }

    /// An acquisition (or carried lot) places its whole quantity at its account.
    fn place(&mut self, lot: u32) -> DomainResult<()> {
        let Some(&Placement {
            rank,
            account,
            asset_id,
            quantity,
        }) = self.placements.get(lot as usize)
        else {
            return Ok(());
        };
        let Some(slot) = self
            .account_slot(account, asset_id)
            .and_then(|s| self.slots.get_mut(s))
        else {
            return Ok(());
        };
        slot.ledger = num::add(slot.ledger, quantity, CONTEXT)?;
        insert(slot, Piece { rank, quantity })
    }

    /// Disposal leg `op`, when it is a fee leg exactly if `fees`, takes the oldest pieces of the
    /// account it is booked at; returns its leg when it was disposed.
    fn dispose(&mut self, op: u32, fees: bool) -> DomainResult<Option<DisposalLeg>> {
        let Some(&Disposal {
            leg,
            account,
            asset_id,
            quantity,
        }) = self.disposals.get(op as usize)
        else {
            return Ok(None);
        };
        if (leg == DisposalLeg::Fee) != fees {
            return Ok(None);
        }
        let Some(s) = self.account_slot(account, asset_id) else {
            return Ok(None);
        };
        self.take(s, quantity, false)?;
        Ok(Some(leg))
    }

    /// Takes `quantity` oldest first from slot `s`; kept pieces land in `self.buffer`.
    fn take(&mut self, s: usize, quantity: Decimal, keep: bool) -> DomainResult<()> {
        self.buffer.clear();
        let Some(slot) = self.slots.get_mut(s) else {
            return Ok(());
        };
        slot.ledger = num::sub(slot.ledger, quantity, CONTEXT)?;
        let mut rest = quantity;
        while num::is_positive(rest) {
            let Some(front) = slot.pieces.front_mut() else {
                break;
            };
            if front.quantity <= rest {
                rest = num::sub(rest, front.quantity, CONTEXT)?;
                let piece = *front;
                slot.pieces.pop_front();
                if keep {
                    self.buffer.push(piece);
                }
            } else {
                front.quantity = num::sub(front.quantity, rest, CONTEXT)?;
                if keep {
                    self.buffer.push(Piece {
                        rank: front.rank,
                        quantity: rest,
                    });
                }
                rest = Decimal::ZERO;
            }
        }
        let taken = num::sub(quantity, rest, CONTEXT)?;
        slot.custody = num::sub(slot.custody, taken, CONTEXT)?;
        if num::is_positive(rest) {
            slot.shortfall = num::add(slot.shortfall, rest, CONTEXT)?;
        }
        Ok(())
    }

    /// A movement takes the source's oldest pieces and appends them at the destination.
    fn relocate(&mut self, index: &Index<'_>, m: u32, movement: &Movement) -> DomainResult<()> {
        let from = self.slot(movement.from, movement.asset);
        let to = self.slot(movement.to, movement.asset);
        self.take(from, movement.quantity, true)?;
        let pieces = std::mem::take(&mut self.buffer);
        if let Some(slot) = self.slots.get_mut(to) {
            slot.ledger = num::add(slot.ledger, movement.quantity, CONTEXT)?;
            for piece in &pieces {
                insert(slot, *piece)?;
            }
        }
        if self.record {
            let lots = index.output.lots.len();
            for piece in &pieces {
                let Some(&lot) = index.lot_of_rank.get(piece.rank as usize) else {
                    continue;
                };
                if lot as usize >= lots {
                    continue;
                }
                if let Some(count) = self.relocation_counts.get_mut(lot as usize) {
                    *count += 1;
                }
                self.relocations.push(Relocation {
                    lot,
                    // Filled by `name_relocated_lots` after the replay.
                    lot_id: LotId { row: 0, k: 0 },
                    movement: m,
                    quantity: piece.quantity,
                    from: movement.from,
                    to: movement.to,
                    instant: movement.instant,
                });
            }
        }
        self.buffer = pieces;
        Ok(())
    }

    /// Balances and non-empty pieces, in output order.
    fn finish(
        &self,
        index: &Index<'_>,
        names: &Names,
    ) -> DomainResult<(Vec<CustodyBalance>, Vec<LocationRow>)> {
        let mut sorted: Vec<(Asset, Arc<str>, Location, usize)> = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| (s.asset, names.name(s.location), s.location, i))
            .collect();
        sorted.sort_by(|a, b| (a.0, a.1.as_bytes(), a.2).cmp(&(b.0, b.1.as_bytes(), b.2)));
        let mut balances = Vec::with_capacity(sorted.len());
        let mut locations = Vec::new();
        for (asset, name, location, i) in sorted {
            let Some(slot) = self.slots.get(i) else {
                continue;
            };
            balances.push(CustodyBalance {
                location,
                account_name: Arc::clone(&name),
                synthetic: location.is_synthetic(),
                asset,
                ledger_balance: slot.ledger,
                custody_quantity: slot.custody,
                gap: num::sub(slot.ledger, slot.custody, CONTEXT)?,
                shortfall: slot.shortfall,
            });
            for piece in &slot.pieces {
                if !num::is_positive(piece.quantity) {
                    continue;
                }
                let Some(&lot) = index.lot_of_rank.get(piece.rank as usize) else {
                    continue;
                };
                let Some(l) = index.output.lots.get(lot as usize) else {
                    continue;
                };
                locations.push(LocationRow {
                    lot,
                    lot_id: l.lot_id,
                    asset,
                    location,
                    account_name: Arc::clone(&name),
                    synthetic: location.is_synthetic(),
                    quantity: piece.quantity,
                });
            }
        }
        Ok((balances, locations))
    }
}

/// Inserts a piece at its queue position, merging with a piece of the same lot.
fn insert(slot: &mut Slot, piece: Piece) -> DomainResult<()> {
    slot.custody = num::add(slot.custody, piece.quantity, CONTEXT)?;
    match slot.pieces.back_mut() {
        None => slot.pieces.push_back(piece),
        Some(back) if back.rank < piece.rank => slot.pieces.push_back(piece),
        Some(back) if back.rank == piece.rank => {
            back.quantity = num::add(back.quantity, piece.quantity, CONTEXT)?;
        }
        Some(_) => {
            // An older lot arrives (a carried lot, or a relocation of older coins).
            let at = slot.pieces.partition_point(|p| p.rank < piece.rank);
            match slot.pieces.get_mut(at) {
                Some(existing) if existing.rank == piece.rank => {
                    existing.quantity = num::add(existing.quantity, piece.quantity, CONTEXT)?;
                }
                _ => slot.pieces.insert(at, piece),
            }
        }
    }
    Ok(())
}

/// Location names, shared between rows.
struct Names {
    accounts: HashMap<AccountId, Arc<str>>, // tidy:hash-ok: name lookup by id; never iterated
}

impl Names {
    fn new(accounts: &[Account]) -> Self {
        Self {
            accounts: accounts
                .iter()
                .map(|a| (a.id, Arc::from(a.name.as_str())))
                .collect(),
        }
    }

    fn name(&self, location: Location) -> Arc<str> {
        match location {
            Location::Account(id) => self
                .accounts
                .get(&id)
                .map_or_else(|| Arc::from(format!("#{}", id.0)), Arc::clone),
            Location::OwnWallet(asset) => Arc::from(super::own_wallet_name(asset)),
        }
    }
}

/// Remaining fiscal quantity of every lot existing before `end`, after the disposals before
/// `end` (a lot exists from its acquiring row's instant; a carried lot from the migration's).
fn remaining_at(index: &Index<'_>, end: Instant) -> DomainResult<Vec<LotRemaining>> {
    let lots = &index.output.lots;
    let mut remaining: Vec<Option<Decimal>> = lots
        .iter()
        .map(|l| {
            index
                .instant(l.lot_id.row)
                .filter(|t| *t < end)
                .map(|_| l.original_quantity)
        })
        .collect();
    for slice in &index.output.slices {
        let Some(id) = slice.lot_id else { continue };
        let before = index
            .output
            .operations
            .get(slice.operation as usize)
            .is_some_and(|op| op.disposed_at < end);
        if !before {
            continue;
        }
        if let Some(l) = index.lot_index(id)
            && let Some(Some(q)) = remaining.get_mut(l as usize)
        {
            *q = num::sub(*q, slice.quantity, "holdings_at")?;
        }
    }
    let mut out = Vec::new();
    for &lot in &index.lot_of_rank {
        let (Some(l), Some(Some(q))) = (lots.get(lot as usize), remaining.get(lot as usize)) else {
            continue;
        };
        if num::is_positive(*q) {
            out.push(LotRemaining {
                lot,
                lot_id: l.lot_id,
                asset: l.asset,
                quantity: *q,
            });
        }
    }
    Ok(out)
}
