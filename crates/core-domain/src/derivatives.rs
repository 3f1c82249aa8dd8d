//! Per-row results of futures rows (`domain.md` §5).

use rust_decimal::Decimal;

use crate::engine::{DerivativeResult, FlagSet};
use crate::error::DomainResult;
use crate::ledger::FuturesRow;
use crate::market::Market;
use crate::num;
use crate::time::FiscalTimezone;
use crate::valuation;

/// One derivative result per futures row, in ledger order `(instant, seq)`.
///
/// `net = round_half_up(pnl_eur + funding_eur − fee_eur, 2)`, each term converted to EUR
/// exactly on the row's fiscal date (fiat through an ECB rate, crypto through its price). A zero
/// term needs no conversion; any needed conversion that fails leaves `net` unknown and flagged.
pub fn results(
    rows: &[FuturesRow],
    market: &Market,
    timezone: FiscalTimezone,
) -> DomainResult<Vec<DerivativeResult>> {
    let mut order: Vec<u32> = (0..rows.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| {
        let (Some(a), Some(b)) = (rows.get(a as usize), rows.get(b as usize)) else {
            return std::cmp::Ordering::Equal;
        };
        (a.instant, a.seq)
            .cmp(&(b.instant, b.seq))
            .then_with(|| a.row_key.cmp(&b.row_key))
    });
    let mut results = Vec::with_capacity(rows.len());
    for index in order {
        let Some(row) = rows.get(index as usize) else {
            continue;
        };
        let date = timezone.fiscal_date(row.instant);
        let context = &row.row_key;
        let mut flags = FlagSet::EMPTY;
        let mut total = Some(Decimal::ZERO);
        let fee_asset = row.fee_asset.unwrap_or(row.settlement_asset);
        for (quantity, asset, negate) in [
            (row.realized_pnl, row.settlement_asset, false),
            (row.funding, row.settlement_asset, false),
            (row.fee, fee_asset, true),
        ] {
            if quantity.is_zero() {
                continue;
            }
            match valuation::to_eur_exact(quantity, asset, date, market)? {
                Ok(eur) => {
                    if let Some(sum) = total {
                        total = Some(if negate {
                            num::sub(sum, eur, context)?
                        } else {
                            num::add(sum, eur, context)?
                        });
                    }
                }
                Err(flag) => {
                    flags.insert(flag);
                    total = None;
                }
            }
        }
        results.push(DerivativeResult {
            row: index,
            kind: row.kind,
            fiscal_date: date,
            net: total.map(num::to_cents),
            flags,
            settlement_asset: row.settlement_asset,
        });
    }
    Ok(results)
}
