//! Movement resolution (`domain.md` §9.1): override links, override counterparties, group ids,
//! auto-pairing within 72 hours, and the synthetic own wallet for what stays unpaired.

use std::collections::HashMap;

use rust_decimal::Decimal;
use shared_types::SpotTxType;

use super::{Location, Movement, MovementBasis, MovementPart};
use crate::asset::Asset;
use crate::engine::EffectiveRow;
use crate::error::{DomainError, DomainResult};
use crate::fast_hash::FastMap;
use crate::ledger::{Account, AssetAmount, RowKey, TxType};
use crate::num;
use crate::overrides::{Counterparty, CustodyLink};

/// The auto-pairing window: 72 hours, inclusive, in nanoseconds.
const PAIRING_WINDOW_NANOS: u64 = 72 * 3600 * 1_000_000_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Out,
    In,
}

/// The transfer leg of a row: TRANSFER_OUT with its `out`, or TRANSFER_IN with its `in` (crypto
/// by the shape rules: a row violating them reaches the engine as `Unknown`). Unknown rows and
/// every other type are not legs.
fn leg(row: &EffectiveRow) -> Option<(Direction, AssetAmount)> {
    match row.row.tx_type {
        TxType::Spot(SpotTxType::TransferOut) => row.row.outflow.map(|a| (Direction::Out, a)),
        TxType::Spot(SpotTxType::TransferIn) => row.row.inflow.map(|a| (Direction::In, a)),
        _ => None,
    }
}

/// The fee quantity a row records in `asset` (0 when none or in another asset).
fn fee_in(row: &EffectiveRow, asset: Asset) -> Decimal {
    row.row
        .fee
        .filter(|f| f.asset == asset && f.quantity.is_sign_positive())
        .map_or(Decimal::ZERO, |f| f.quantity)
}

/// Ledger order `(instant, seq)` of the rows, as row indices.
pub(crate) fn ledger_order(rows: &[EffectiveRow]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..rows.len() as u32).collect();
    order.sort_by_key(|&r| {
        rows.get(r as usize)
            .map(|row| (row.row.instant, row.row.seq))
    });
    order
}

/// Resolves every transfer leg of `rows` into movements (`domain.md` §9.1), returned in replay
/// order `(instant, seq, part)`.
///
/// `order` is the ledger order of the rows (the engine's `ledger_order`); when it does not cover
/// every row it is recomputed. Invalid custody overrides are `InvalidOverride`.
pub fn resolve_movements(
    rows: &[EffectiveRow],
    order: &[u32],
    accounts: &[Account],
    links: &[CustodyLink],
) -> DomainResult<Vec<Movement>> {
    let computed;
    let order = if order.len() == rows.len() {
        order
    } else {
        computed = ledger_order(rows);
        &computed
    };
    let mut resolver = Resolver {
        rows,
        resolved: vec![false; rows.len()],
        movements: Vec::new(),
    };
    resolver.apply_overrides(accounts, links)?;
    let legs: Vec<u32> = order
        .iter()
        .copied()
        .filter(|&r| resolver.row(r).and_then(leg).is_some())
        .collect();
    resolver.pair_groups(&legs)?;
    resolver.auto_pair(&legs)?;
    for &r in &legs {
        if !resolver.is_resolved(r) {
            resolver.single(r, None, MovementBasis::Unpaired);
        }
    }
    let mut movements = resolver.movements;
    movements.sort_by_key(|m| (m.instant, m.seq, m.position_row, m.part));
    Ok(movements)
}

struct Resolver<'a> {
    rows: &'a [EffectiveRow],
    resolved: Vec<bool>,
    movements: Vec<Movement>,
}

fn invalid(row_key: &str, reason: &str) -> DomainError {
    DomainError::InvalidOverride {
        row_key: row_key.to_owned(),
        reason: reason.to_owned(),
    }
}

impl<'a> Resolver<'a> {
    fn row(&self, r: u32) -> Option<&'a EffectiveRow> {
        self.rows.get(r as usize)
    }

    fn is_resolved(&self, r: u32) -> bool {
        self.resolved.get(r as usize).copied().unwrap_or(true)
    }

    /// Marks leg `r` as resolved by a custody link; a leg already resolved is refused.
    fn claim_for_link(&mut self, r: u32) -> DomainResult<()> {
        if self.is_resolved(r) {
            let key = self.row(r).map(|row| row.row.row_key.to_string());
            return Err(invalid(
                key.as_deref().unwrap_or(""),
                "leg is already linked",
            ));
        }
        self.mark(r);
        Ok(())
    }

    fn mark(&mut self, r: u32) {
        if let Some(slot) = self.resolved.get_mut(r as usize) {
            *slot = true;
        }
    }

    /// Steps 1 and 2: links, then counterparties.
    fn apply_overrides(&mut self, accounts: &[Account], links: &[CustodyLink]) -> DomainResult<()> {
        if links.is_empty() {
            return Ok(());
        }
        let by_key: HashMap<&RowKey, u32> = self // tidy:hash-ok: row-key lookup; never iterated
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| (&r.row.row_key, i as u32))
            .collect();
        let find_leg =
            |key: &str, want: Direction, what: &str| -> DomainResult<(u32, AssetAmount)> {
                let r = *by_key
                    .get(&RowKey::new(key))
                    .ok_or_else(|| invalid(key, &format!("{what} names a missing row")))?;
                match self.rows.get(r as usize).and_then(leg) {
                    Some((dir, amount)) if dir == want => Ok((r, amount)),
                    _ => Err(invalid(
                        key,
                        &format!("{what} names a row that is not such a leg"),
                    )),
                }
            };
        let mut pairs = Vec::new();
        let mut singles = Vec::new();
        for link in links {
            if let CustodyLink::Link {
                out_row_key,
                in_row_key,
            } = link
            {
                let (o, out_amount) = find_leg(out_row_key, Direction::Out, "link out-leg")?;
                let (i, in_amount) = find_leg(in_row_key, Direction::In, "link in-leg")?;
                if out_amount.asset != in_amount.asset {
                    return Err(invalid(out_row_key, "linked legs have different assets"));
                }
                pairs.push((o, i));
            }
        }
        for link in links {
            if let CustodyLink::Counterparty {
                row_key,
                counterparty,
            } = link
            {
                let r = *by_key
                    .get(&RowKey::new(row_key))
                    .ok_or_else(|| invalid(row_key, "counterparty names a missing row"))?;
                let row = self
                    .rows
                    .get(r as usize)
                    .ok_or_else(|| invalid(row_key, "counterparty names a missing row"))?;
                let (_, amount) = leg(row).ok_or_else(|| {
                    invalid(
                        row_key,
                        "counterparty names a row that is not a transfer leg",
                    )
                })?;
                let other = match counterparty {
                    Counterparty::OwnWallet => Location::OwnWallet(amount.asset),
                    Counterparty::Account(id) => {
                        if !accounts.iter().any(|a| a.id == *id) {
                            return Err(invalid(row_key, "counterparty account does not exist"));
                        }
                        if *id == row.row.account_id {
                            return Err(invalid(row_key, "counterparty is the leg's own account"));
                        }
                        Location::Account(*id)
                    }
                };
                singles.push((r, other));
            }
        }
        for (o, i) in pairs {
            for r in [o, i] {
                self.claim_for_link(r)?;
            }
            self.pair(o, i, MovementBasis::Link)?;
        }
        for (r, other) in singles {
            self.claim_for_link(r)?;
            self.single(r, Some(other), MovementBasis::Counterparty);
        }
        Ok(())
    }

    /// Step 3: a group id pairs when its unresolved legs are exactly one out and one in of the
    /// same asset on different accounts.
    fn pair_groups(&mut self, legs: &[u32]) -> DomainResult<()> {
        #[derive(Default)]
        struct Group {
            outs: u32,
            ins: u32,
            out_row: u32,
            in_row: u32,
        }
        let mut groups: FastMap<&str, Group> = FastMap::default(); // tidy:hash-ok: the pairs are sorted before use
        for &r in legs {
            if self.is_resolved(r) {
                continue;
            }
            let Some(row) = self.row(r) else { continue };
            let Some(id) = row
                .row
                .transfer_group_id
                .as_deref()
                .filter(|g| !g.is_empty())
            else {
                continue;
            };
            let Some((dir, _)) = leg(row) else { continue };
            let group = groups.entry(id).or_default();
            match dir {
                Direction::Out => {
                    group.outs += 1;
                    group.out_row = r;
                }
                Direction::In => {
                    group.ins += 1;
                    group.in_row = r;
                }
            }
        }
        let mut pairs: Vec<(u32, u32)> = groups
            .into_values()
            .filter(|g| g.outs == 1 && g.ins == 1)
            .map(|g| (g.out_row, g.in_row))
            .collect();
        pairs.sort_unstable();
        for (o, i) in pairs {
            let (Some(out_row), Some(in_row)) = (self.row(o), self.row(i)) else {
                continue;
            };
            let (Some((_, out_amount)), Some((_, in_amount))) = (leg(out_row), leg(in_row)) else {
                continue;
            };
            if out_amount.asset == in_amount.asset
                && out_row.row.account_id != in_row.row.account_id
            {
                self.mark(o);
                self.mark(i);
                self.pair(o, i, MovementBasis::GroupId)?;
            }
        }
        Ok(())
    }

    /// Step 4: out-legs in ledger order pick the unresolved in-leg minimising
    /// `(|Δt|, o − i, instant_in, seq_in)` among same-asset, other-account legs with `i ≤ o`,
    /// `o − i ≤ tolerance` and `|Δt| ≤ 72 h`; each in-leg pairs once.
    fn auto_pair(&mut self, legs: &[u32]) -> DomainResult<()> {
        // Per asset, the unresolved in-legs in ledger order (hence sorted by instant).
        let mut candidates: FastMap<Asset, Candidates> = FastMap::default();
        for &r in legs {
            if self.is_resolved(r) {
                continue;
            }
            if let Some(row) = self.row(r)
                && let Some((Direction::In, amount)) = leg(row)
            {
                let list = candidates.entry(amount.asset).or_default();
                list.rows.push(r);
                list.instants.push(row.row.instant);
            }
        }
        for list in candidates.values_mut() {
            list.init();
        }
        for &o in legs {
            if self.is_resolved(o) {
                continue;
            }
            let Some(out_row) = self.row(o) else { continue };
            let Some((Direction::Out, out_amount)) = leg(out_row) else {
                continue;
            };
            let Some(list) = candidates.get_mut(&out_amount.asset) else {
                continue;
            };
            if let Some(i) = list.best(self.rows, out_row, out_amount)? {
                self.mark(o);
                self.mark(i);
                self.pair(o, i, MovementBasis::AutoPaired)?;
            }
        }
        Ok(())
    }

    /// A paired movement at the later leg's position: `min(o, i)` from the out account to the in
    /// account, and the difference to (`o > i`) or from (`i > o`) the own wallet. Both records
    /// name both legs of the pair.
    fn pair(&mut self, o: u32, i: u32, basis: MovementBasis) -> DomainResult<()> {
        let (Some(out_row), Some(in_row)) = (self.row(o), self.row(i)) else {
            return Ok(());
        };
        let (Some((_, out_amount)), Some((_, in_amount))) = (leg(out_row), leg(in_row)) else {
            return Ok(());
        };
        let later =
            if (in_row.row.instant, in_row.row.seq) >= (out_row.row.instant, out_row.row.seq) {
                (i, in_row)
            } else {
                (o, out_row)
            };
        let asset = out_amount.asset;
        let from = Location::Account(out_row.row.account_id);
        let to = Location::Account(in_row.row.account_id);
        let base = Movement {
            asset,
            quantity: out_amount.quantity.min(in_amount.quantity),
            from,
            to,
            instant: later.1.row.instant,
            seq: later.1.row.seq,
            position_row: later.0,
            basis,
            part: MovementPart::Main,
            out_row: Some(o),
            in_row: Some(i),
        };
        self.movements.push(base);
        let context = &out_row.row.row_key;
        if out_amount.quantity > in_amount.quantity {
            self.movements.push(Movement {
                quantity: num::sub(out_amount.quantity, in_amount.quantity, context)?,
                to: Location::OwnWallet(asset),
                part: MovementPart::Difference,
                ..base
            });
        } else if in_amount.quantity > out_amount.quantity {
            self.movements.push(Movement {
                quantity: num::sub(in_amount.quantity, out_amount.quantity, context)?,
                from: Location::OwnWallet(asset),
                part: MovementPart::Difference,
                ..base
            });
        }
        Ok(())
    }

    /// A single leg moving between its account and `other` (the own wallet when `None`).
    fn single(&mut self, r: u32, other: Option<Location>, basis: MovementBasis) {
        let Some(row) = self.row(r) else { return };
        let Some((dir, amount)) = leg(row) else {
            return;
        };
        let own = Location::Account(row.row.account_id);
        let other = other.unwrap_or(Location::OwnWallet(amount.asset));
        let (from, to, out_row, in_row) = match dir {
            Direction::Out => (own, other, Some(r), None),
            Direction::In => (other, own, None, Some(r)),
        };
        self.movements.push(Movement {
            asset: amount.asset,
            quantity: amount.quantity,
            from,
            to,
            instant: row.row.instant,
            seq: row.row.seq,
            position_row: r,
            basis,
            part: MovementPart::Main,
            out_row,
            in_row,
        });
    }
}

/// The unresolved in-legs of one asset in ledger order, with skip lists over paired entries so
/// each search only walks live candidates outward from the out-leg's instant.
#[derive(Default)]
struct Candidates {
    rows: Vec<u32>,
    /// The instants of `rows`, kept compact for the binary search and the outward walk.
    instants: Vec<crate::time::Instant>,
    /// `right[j]` leads to the first live index ≥ j (`len` = none).
    right: Vec<u32>,
    /// `left[j + 1]` leads to the last live index ≤ j, shifted by one (`0` = none).
    left: Vec<u32>,
}

/// Sort key of a candidate: `(|Δt|, o − i, instant_in, seq_in)`.
type CandidateKey = (u64, Decimal, crate::time::Instant, u64);

impl Candidates {
    fn init(&mut self) {
        let n = self.rows.len() as u32;
        self.right = (0..=n).collect();
        self.left = (0..=n).collect();
    }

    fn find_right(&mut self, j: u32) -> u32 {
        find_root(&mut self.right, j)
    }

    /// The last live index ≤ `s − 1`, shifted by one (`0` = none).
    fn find_left(&mut self, s: u32) -> u32 {
        find_root(&mut self.left, s)
    }

    fn remove(&mut self, j: u32) {
        if let Some(slot) = self.right.get_mut(j as usize) {
            *slot = j + 1;
        }
        if let Some(slot) = self.left.get_mut(j as usize + 1) {
            *slot = j;
        }
    }

    /// Finds, removes and returns the best in-leg for an out-leg.
    fn best(
        &mut self,
        rows: &[EffectiveRow],
        out_row: &EffectiveRow,
        out_amount: AssetAmount,
    ) -> DomainResult<Option<u32>> {
        let t = out_row.row.instant;
        let instant_of = |j: u32, list: &[crate::time::Instant]| list.get(j as usize).copied();
        let pos = self.instants.partition_point(|i| *i < t) as u32;
        let n = self.rows.len() as u32;
        let mut right = self.find_right(pos);
        // `left` holds (index + 1) of the next live candidate to the left, 0 for none.
        let mut left = self.find_left(pos);
        let out_fee = fee_in(out_row, out_amount.asset);
        let mut best: Option<(CandidateKey, u32)> = None;
        loop {
            let right_dt = (right < n)
                .then(|| instant_of(right, &self.instants))
                .flatten()
                .map(|i| i.abs_diff_nanos(t));
            let left_dt = (left > 0)
                .then(|| instant_of(left - 1, &self.instants))
                .flatten()
                .map(|i| i.abs_diff_nanos(t));
            let (take_right, dt) = match (right_dt, left_dt) {
                (Some(r), Some(l)) if r <= l => (true, r),
                (_, Some(l)) => (false, l),
                (Some(r), None) => (true, r),
                (None, None) => break,
            };
            if dt > PAIRING_WINDOW_NANOS || best.as_ref().is_some_and(|(k, _)| dt > k.0) {
                break;
            }
            let j = if take_right { right } else { left - 1 };
            if let Some(in_row) = self
                .rows
                .get(j as usize)
                .and_then(|&r| rows.get(r as usize))
                && let Some((_, in_amount)) = leg(in_row)
                && in_row.row.account_id != out_row.row.account_id
                && in_amount.quantity <= out_amount.quantity
            {
                let diff = num::sub(
                    out_amount.quantity,
                    in_amount.quantity,
                    &out_row.row.row_key,
                )?;
                let tolerance = num::add(
                    out_fee,
                    fee_in(in_row, in_amount.asset),
                    &out_row.row.row_key,
                )?;
                if diff <= tolerance {
                    let key = (dt, diff, in_row.row.instant, in_row.row.seq);
                    if best.as_ref().is_none_or(|(k, _)| key < *k) {
                        best = Some((key, j));
                    }
                }
            }
            if take_right {
                right = self.find_right(right + 1);
            } else {
                left = self.find_left(left - 1);
            }
        }
        Ok(match best {
            Some((_, j)) => {
                self.remove(j);
                self.rows.get(j as usize).copied()
            }
            None => None,
        })
    }
}

/// Root of `j` in a skip list whose live entries point to themselves, with path compression.
fn find_root(parent: &mut [u32], j: u32) -> u32 {
    let mut root = j;
    while let Some(&next) = parent.get(root as usize) {
        if next == root {
            break;
        }
        root = next;
    }
    let mut current = j;
    while current != root {
        let Some(slot) = parent.get_mut(current as usize) else {
            break;
        };
        let next = *slot;
        *slot = root;
        current = next;
    }
    root
}
