//! Test support: a quantity-only global FIFO standing in for the engine (values do not matter to
//! custody). It follows `domain.md` §8.1 phases and §8.8 carried lots.
// A compact reference loop reads best in one piece.
#![allow(clippy::too_many_lines, clippy::many_single_char_names)]

use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::engine::{
    DisposalLeg, EngineInput, EngineOutput, FlagSet, Lot, LotId, Operation, QueueKey, Slice,
};
use crate::ledger::TxType;
use crate::time::FiscalTimezone;

/// `L:<row_key>:<k>`.
pub(super) fn lot_key(input: &EngineInput, lot: LotId) -> String {
    let key = input
        .rows
        .get(lot.row as usize)
        .map_or("?", |r| r.row.row_key.as_str());
    format!("L:{key}:{}", lot.k)
}

fn is_acquisition(tx: SpotTxType) -> bool {
    matches!(
        tx,
        SpotTxType::Buy
            | SpotTxType::Swap
            | SpotTxType::Staking
            | SpotTxType::Airdrop
            | SpotTxType::Reward
            | SpotTxType::Mining
            | SpotTxType::Promotion
            | SpotTxType::Fork
    )
}

fn principal_disposal(tx: SpotTxType) -> Option<DisposalLeg> {
    match tx {
        SpotTxType::Sell | SpotTxType::Spend | SpotTxType::Fee | SpotTxType::Swap => {
            Some(DisposalLeg::Principal)
        }
        SpotTxType::MigrationSwap => Some(DisposalLeg::Migration),
        _ => None,
    }
}

pub(super) fn engine(input: &EngineInput) -> EngineOutput {
    let rows = &input.rows;
    let tz = FiscalTimezone::EuropeMadrid;
    let order = super::super::movements::ledger_order(rows);
    let mut lots: Vec<Lot> = Vec::new();
    let mut operations: Vec<Operation> = Vec::new();
    let mut slices: Vec<Slice> = Vec::new();
    let new_lot = |row: u32, k: u32, qk: QueueKey, asset, account, q: Decimal| Lot {
        lot_id: LotId { row, k },
        asset,
        account_id: account,
        origin_type: SpotTxType::Buy,
        carried_from: None,
        acquired_at: qk.acquired_at,
        acquired_on: tz.fiscal_date(qk.acquired_at),
        queue_key: qk,
        original_quantity: q,
        remaining_quantity: q,
        acquisition_value: None,
        remaining_cost: None,
        provenance: None,
        fx: None,
        price: None,
        flags: FlagSet::EMPTY,
    };
    let mut g = 0;
    while g < order.len() {
        let t = rows[order[g] as usize].row.instant;
        let mut h = g;
        while h < order.len() && rows[order[h] as usize].row.instant == t {
            h += 1;
        }
        for &r in &order[g..h] {
            let row = &rows[r as usize].row;
            if let TxType::Spot(tx) = row.tx_type
                && is_acquisition(tx)
                && let Some(inflow) = row.inflow.filter(|a| a.asset.is_crypto())
            {
                let qk = QueueKey {
                    acquired_at: row.instant,
                    seq: row.seq,
                    k: 0,
                    lot_id: LotId { row: r, k: 0 },
                };
                lots.push(new_lot(
                    r,
                    0,
                    qk,
                    inflow.asset,
                    row.account_id,
                    inflow.quantity,
                ));
            }
        }
        for &r in &order[g..h] {
            let row = &rows[r as usize].row;
            let TxType::Spot(tx) = row.tx_type else {
                continue;
            };
            let mut legs = Vec::new();
            if let Some(leg) = principal_disposal(tx)
                && let Some(out) = row.outflow.filter(|a| a.asset.is_crypto())
            {
                legs.push((leg, out.asset, out.quantity));
            }
            if let Some(fee) = row
                .fee
                .filter(|f| f.asset.is_crypto() && f.quantity > Decimal::ZERO)
            {
                legs.push((DisposalLeg::Fee, fee.asset, fee.quantity));
            }
            for (leg, asset, quantity) in legs {
                let op_index = operations.len() as u32;
                let first = slices.len() as u32;
                let mut rest = quantity;
                let mut consumed = Vec::new();
                let mut queue: Vec<usize> = (0..lots.len())
                    .filter(|&i| {
                        lots[i].asset == asset && lots[i].remaining_quantity > Decimal::ZERO
                    })
                    .collect();
                queue.sort_by_key(|&i| lots[i].queue_key);
                for i in queue {
                    if rest.is_zero() {
                        break;
                    }
                    let q = lots[i].remaining_quantity.min(rest);
                    lots[i].remaining_quantity -= q;
                    rest -= q;
                    consumed.push((Some(i), q));
                }
                if rest > Decimal::ZERO {
                    consumed.push((None, rest));
                }
                for (n, (lot, q)) in consumed.iter().enumerate() {
                    slices.push(Slice {
                        operation: op_index,
                        n: n as u32,
                        lot_id: lot.map(|i| lots[i].lot_id),
                        asset,
                        quantity: *q,
                        gross_value: None,
                        fee_expense: None,
                        acquisition_value: None,
                        result: None,
                        included: false,
                        flags: FlagSet::EMPTY,
                    });
                }
                operations.push(Operation {
                    row: r,
                    leg,
                    tx_type: tx,
                    asset,
                    quantity,
                    disposed_at: row.instant,
                    fiscal_date: tz.fiscal_date(row.instant),
                    account_id: row.account_id,
                    gross_value: None,
                    fee_expense: None,
                    clave: None,
                    flags: FlagSet::EMPTY,
                    valuation: None,
                    swap: None,
                    slices: first..slices.len() as u32,
                });
                if leg == DisposalLeg::Migration
                    && let Some(inflow) = row.inflow
                {
                    let mut left = inflow.quantity;
                    for (k, (lot, q)) in consumed.iter().enumerate() {
                        let last = k + 1 == consumed.len();
                        let share = if last {
                            left
                        } else {
                            crate::num::round_half_up(*q * inflow.quantity / quantity, 18)
                        };
                        left -= share;
                        let k = k as u32 + 1;
                        let qk = match lot {
                            Some(i) => QueueKey {
                                lot_id: LotId { row: r, k },
                                ..lots[*i].queue_key
                            },
                            None => QueueKey {
                                acquired_at: row.instant,
                                seq: row.seq,
                                k,
                                lot_id: LotId { row: r, k },
                            },
                        };
                        let mut carried = new_lot(r, k, qk, inflow.asset, row.account_id, share);
                        carried.origin_type = SpotTxType::MigrationSwap;
                        lots.push(carried);
                    }
                }
            }
        }
        g = h;
    }
    lots.sort_by_key(|l| (l.asset, l.queue_key));
    EngineOutput {
        ledger_order: order,
        lots,
        operations,
        slices,
        income: Vec::new(),
        derivatives: Vec::new(),
    }
}
