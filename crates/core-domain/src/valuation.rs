//! Valuation of operations in EUR (`domain.md` §7.3, §7.4).
//!
//! Every value the engine needs is determined here, before and independently of matching: the
//! consideration of a principal, the two legs of a swap, a fee, a fiat income. Each value is
//! rounded half-up to cents once, after any multiplication and conversion.

use rust_decimal::Decimal;
use shared_types::{QualityFlag, SpotTxType};

use crate::asset::Asset;
use crate::engine::{EffectiveRow, FlagSet, Provenance, Valued};
use crate::error::{DomainError, DomainResult};
use crate::fast_hash::FastMap;
use crate::ledger::{AssetAmount, StatedAmount, TxType};
use crate::market::{Market, RawLookup};
use crate::num;
use crate::time::Date;

/// A value with the flags its determination raised: `CURRENCY_MISMATCH` when a non-fiat
/// statement was skipped, and the blocking flag of an unknown value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// The value.
    pub valued: Valued,
    /// Flags raised while determining it.
    pub flags: FlagSet,
}

impl Value {
    fn new(valued: Valued, mut flags: FlagSet) -> Self {
        if let Valued::Unknown { flag } = valued {
            flags.insert(flag);
        }
        Self { valued, flags }
    }

    /// The known EUR amount.
    pub fn amount(&self) -> Option<Decimal> {
        self.valued.amount()
    }

    /// A known stated zero (the value of a FORK).
    pub fn stated_zero() -> Self {
        Self::new(
            Valued::Known {
                amount: Decimal::ZERO,
                provenance: Provenance::Stated,
                fx: None,
                price: None,
            },
            FlagSet::EMPTY,
        )
    }
}

/// The values a row needs (`domain.md` §7.3); `None` where the row type needs none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowValues {
    /// Consideration of the principal (BUY, SELL, SPEND, FEE with a crypto `out`, income types,
    /// FORK's fixed zero).
    pub principal: Option<Value>,
    /// SWAP given leg.
    pub given: Option<Value>,
    /// SWAP received leg.
    pub received: Option<Value>,
    /// The fee's EUR value (signed for a fiat rebate), when the fee has an effect: every
    /// non-zero crypto fee, and a non-zero fiat fee on BUY, SELL, SPEND and SWAP.
    pub fee: Option<Value>,
}

/// Values every value `row` needs at its fiscal date `date`.
pub fn value_row(row: &EffectiveRow, date: Date, market: &Market) -> DomainResult<RowValues> {
    value_row_with(row, date, &mut Prices::new(market))
}

/// A market with a memo of the last price lookup of each asset. Rows are valued in ledger
/// order, so an asset is looked up many times on one date (the majors of a busy day); the
/// memo answers those without touching the (large, cache-cold) price series again. A lookup
/// is a function of `(asset, date)` and the market, so the memo never changes a value.
pub(crate) struct Prices<'m> {
    market: &'m Market,
    /// Per asset: its series in the price table, and the last date looked up with its answer
    /// (rows come in time order, so an asset's next row is usually on the same day).
    memo: FastMap<Asset, (Option<u32>, Date, RawLookup)>,
}

impl<'m> Prices<'m> {
    /// An empty memo over `market`.
    pub(crate) fn new(market: &'m Market) -> Self {
        Self {
            market,
            memo: FastMap::default(),
        }
    }

    fn price(&mut self, asset: Asset, date: Date) -> RawLookup {
        let market = self.market;
        let lookup = |series| market.prices.lookup_raw_in(series, date, &market.rates);
        if let Some((series, memo_date, memo_lookup)) = self.memo.get_mut(&asset) {
            if *memo_date != date {
                *memo_lookup = lookup(*series);
                *memo_date = date;
            }
            return *memo_lookup;
        }
        let series = market.prices.series_of(asset);
        let answer = lookup(series);
        self.memo.insert(asset, (series, date, answer));
        answer
    }
}

/// [`value_row`] with a price memo kept across rows.
pub(crate) fn value_row_with(
    row: &EffectiveRow,
    date: Date,
    market: &mut Prices<'_>,
) -> DomainResult<RowValues> {
    let TxType::Spot(tx_type) = row.row.tx_type else {
        return Ok(RowValues::default());
    };
    let spot = &row.row;
    let mut values = RowValues::default();
    match tx_type {
        SpotTxType::Buy => {
            if let Some(inflow) = spot.inflow {
                let fiat_leg = spot.outflow.filter(|o| o.asset.is_fiat());
                values.principal = Some(consideration(row, inflow, fiat_leg, date, market)?);
            }
        }
        SpotTxType::Sell => {
            if let Some(outflow) = spot.outflow {
                let fiat_leg = spot.inflow.filter(|i| i.asset.is_fiat());
                values.principal = Some(consideration(row, outflow, fiat_leg, date, market)?);
            }
        }
        SpotTxType::Spend => {
            if let Some(outflow) = spot.outflow {
                values.principal = Some(consideration(row, outflow, None, date, market)?);
            }
        }
        SpotTxType::Fee => {
            if let Some(outflow) = spot.outflow.filter(|o| o.asset.is_crypto()) {
                values.principal = Some(consideration(row, outflow, None, date, market)?);
            }
        }
        SpotTxType::Staking
        | SpotTxType::Airdrop
        | SpotTxType::Mining
        | SpotTxType::Reward
        | SpotTxType::Promotion => {
            if let Some(inflow) = spot.inflow {
                values.principal = Some(if inflow.asset.is_fiat() {
                    fiat_income(row, inflow, date, market)?
                } else {
                    consideration(row, inflow, None, date, market)?
                });
            }
        }
        SpotTxType::Fork => values.principal = Some(Value::stated_zero()),
        SpotTxType::Swap => {
            if let (Some(inflow), Some(outflow)) = (spot.inflow, spot.outflow) {
                values.given = Some(swap_given(row, outflow, date, market)?);
                values.received = Some(swap_received(row, inflow, date, market)?);
            }
        }
        SpotTxType::Deposit
        | SpotTxType::Withdrawal
        | SpotTxType::TransferIn
        | SpotTxType::TransferOut
        | SpotTxType::MigrationSwap => {}
    }
    values.fee = fee_value(row, tx_type, date, market)?;
    Ok(values)
}

/// Consideration of the principal: edited value → edited price × quantity → fiat leg → stated
/// value → stated price × quantity → market value.
fn consideration(
    row: &EffectiveRow,
    principal: AssetAmount,
    fiat_leg: Option<AssetAmount>,
    date: Date,
    market: &mut Prices<'_>,
) -> DomainResult<Value> {
    let quantity = principal.quantity;
    let sources = [
        row.edited_value().map(|s| (s, None, Provenance::Manual)),
        row.edited_price()
            .map(|s| (s, Some(quantity), Provenance::Manual)),
        fiat_leg.map(|leg| {
            (
                StatedAmount {
                    amount: leg.quantity,
                    currency: leg.asset,
                },
                None,
                Provenance::Stated,
            )
        }),
        row.row
            .stated_value()
            .map(|s| (s, None, Provenance::Stated)),
        row.row
            .stated_price()
            .map(|s| (s, Some(quantity), Provenance::Stated)),
    ];
    first_statement_or_market(sources, principal, date, market)
}

/// SWAP given leg: edited value → edited price × `out` → stated value → stated price × `out` →
/// market value of `out`.
fn swap_given(
    row: &EffectiveRow,
    outflow: AssetAmount,
    date: Date,
    market: &mut Prices<'_>,
) -> DomainResult<Value> {
    let quantity = outflow.quantity;
    let sources = [
        row.edited_value().map(|s| (s, None, Provenance::Manual)),
        row.edited_price()
            .map(|s| (s, Some(quantity), Provenance::Manual)),
        row.row
            .stated_value()
            .map(|s| (s, None, Provenance::Stated)),
        row.row
            .stated_price()
            .map(|s| (s, Some(quantity), Provenance::Stated)),
    ];
    first_statement_or_market(sources, outflow, date, market)
}

/// SWAP received leg: edited value → stated value → market value of `in`.
fn swap_received(
    row: &EffectiveRow,
    inflow: AssetAmount,
    date: Date,
    market: &mut Prices<'_>,
) -> DomainResult<Value> {
    let sources = [
        row.edited_value().map(|s| (s, None, Provenance::Manual)),
        row.row
            .stated_value()
            .map(|s| (s, None, Provenance::Stated)),
    ];
    first_statement_or_market(sources, inflow, date, market)
}

/// REWARD or PROMOTION with a fiat `in`: edited value → its amount (converted if not EUR).
fn fiat_income(
    row: &EffectiveRow,
    inflow: AssetAmount,
    date: Date,
    market: &mut Prices<'_>,
) -> DomainResult<Value> {
    let mut flags = FlagSet::EMPTY;
    if let Some(edited) = row.edited_value()
        && let Some(valued) =
            statement_value(edited, None, Provenance::Manual, date, market, &mut flags)?
    {
        return Ok(Value::new(valued, flags));
    }
    let amount = StatedAmount {
        amount: inflow.quantity,
        currency: inflow.asset,
    };
    let valued = statement_value(amount, None, Provenance::Stated, date, market, &mut flags)?
        .unwrap_or(Valued::Unknown {
            flag: QualityFlag::MissingFxRate,
        });
    Ok(Value::new(valued, flags))
}

/// The fee's value, when the fee has an effect on this row type (`domain.md` §8.4).
fn fee_value(
    row: &EffectiveRow,
    tx_type: SpotTxType,
    date: Date,
    market: &mut Prices<'_>,
) -> DomainResult<Option<Value>> {
    let Some(fee) = row.row.fee else {
        return Ok(None);
    };
    if fee.quantity.is_zero() {
        return Ok(None);
    }
    let mut flags = FlagSet::EMPTY;
    if fee.asset.is_fiat() {
        let fiat_fee_counts = matches!(
            tx_type,
            SpotTxType::Buy | SpotTxType::Sell | SpotTxType::Spend | SpotTxType::Swap
        );
        if !fiat_fee_counts {
            return Ok(None);
        }
        let amount = StatedAmount {
            amount: fee.quantity,
            currency: fee.asset,
        };
        let valued = statement_value(amount, None, Provenance::Stated, date, market, &mut flags)?
            .unwrap_or(Valued::Unknown {
                flag: QualityFlag::MissingFxRate,
            });
        return Ok(Some(Value::new(valued, flags)));
    }
    let sources = [
        row.edited_fee_value()
            .map(|s| (s, None, Provenance::Manual)),
        row.row
            .stated_fee_value()
            .map(|s| (s, None, Provenance::Stated)),
    ];
    let fee_amount = AssetAmount {
        asset: fee.asset,
        quantity: fee.quantity,
    };
    first_statement_or_market(sources, fee_amount, date, market).map(Some)
}

/// The value precedence of a leg: the first of `sources` that values (a fiat amount, or a unit
/// price × its multiplier, with the provenance it carries), else the market value of `fallback`.
fn first_statement_or_market<const N: usize>(
    sources: [Option<(StatedAmount, Option<Decimal>, Provenance)>; N],
    fallback: AssetAmount,
    date: Date,
    market: &mut Prices<'_>,
) -> DomainResult<Value> {
    let mut flags = FlagSet::EMPTY;
    for (statement, multiplier, provenance) in sources.into_iter().flatten() {
        if let Some(valued) =
            statement_value(statement, multiplier, provenance, date, market, &mut flags)?
        {
            return Ok(Value::new(valued, flags));
        }
    }
    Ok(Value::new(memo_value(fallback, date, market)?, flags))
}

/// A fiat statement (amount, or unit price × `multiplier`) in EUR. A non-fiat currency is not a
/// statement: it is skipped (`Ok(None)`) and raises `CURRENCY_MISMATCH`. A missing rate makes
/// the value unknown and stops the search (a statement is never replaced by a market price).
fn statement_value(
    statement: StatedAmount,
    multiplier: Option<Decimal>,
    provenance: Provenance,
    date: Date,
    market: &mut Prices<'_>,
    flags: &mut FlagSet,
) -> DomainResult<Option<Valued>> {
    if !statement.currency.is_fiat() {
        flags.insert(QualityFlag::CurrencyMismatch);
        return Ok(None);
    }
    let amount = match multiplier {
        Some(quantity) => match statement.amount.checked_mul(quantity) {
            Some(amount) => amount,
            None => return Ok(Some(OUT_OF_RANGE)),
        },
        None => statement.amount,
    };
    Ok(Some(
        match market.market.rates.to_eur(amount, statement.currency, date) {
            Ok(Some((eur, fx))) => match num::within_limit(num::to_cents(eur)) {
                Some(amount) => Valued::Known {
                    amount,
                    provenance,
                    fx,
                    price: None,
                },
                None => OUT_OF_RANGE,
            },
            Ok(None) => Valued::Unknown {
                flag: QualityFlag::MissingFxRate,
            },
            Err(DomainError::ArithmeticOverflow { .. }) => OUT_OF_RANGE,
            Err(error) => return Err(error),
        },
    ))
}

/// A value too large to compute (D-146): unknown, like a missing price, and named as such.
const OUT_OF_RANGE: Valued = Valued::Unknown {
    flag: QualityFlag::AmountOutOfRange,
};

/// `round_half_up(quantity × close [÷ rate], 2)` from the price lookup of §7.2.
pub fn market_value(amount: AssetAmount, date: Date, market: &Market) -> DomainResult<Valued> {
    priced(amount, market.price_raw(amount.asset, date))
}

/// [`market_value`] through the price memo.
fn memo_value(amount: AssetAmount, date: Date, market: &mut Prices<'_>) -> DomainResult<Valued> {
    priced(amount, market.price(amount.asset, date))
}

/// The market value of `amount` from its price lookup.
fn priced(amount: AssetAmount, lookup: RawLookup) -> DomainResult<Valued> {
    Ok(match lookup {
        RawLookup::Found { price, fx } => {
            // Absurd quantities at absurd prices overflow or pass the bound: out of range.
            let Some(native) = amount.quantity.checked_mul(price.price) else {
                return Ok(OUT_OF_RANGE);
            };
            let eur = match fx {
                Some(fx) => match native.checked_div(fx.rate) {
                    Some(eur) => eur,
                    None => return Ok(OUT_OF_RANGE),
                },
                None => native,
            };
            let Some(eur) = num::within_limit(num::to_cents(eur)) else {
                return Ok(OUT_OF_RANGE);
            };
            Valued::Known {
                amount: eur,
                provenance: if fx.is_some() {
                    Provenance::MarketConverted
                } else {
                    Provenance::Market
                },
                fx,
                price: Some(price),
            }
        }
        RawLookup::MissingFxRate => Valued::Unknown {
            flag: QualityFlag::MissingFxRate,
        },
        RawLookup::MissingPrice => Valued::Unknown {
            flag: QualityFlag::MissingPrice,
        },
    })
}

/// The EUR value of `quantity` units of any asset (fiat through §7.1, crypto through §7.2),
/// exact (not rounded): used by the derivative results of §5. `Err(flag)` when it fails.
pub fn to_eur_exact(
    quantity: Decimal,
    asset: Asset,
    date: Date,
    market: &Market,
) -> DomainResult<Result<Decimal, QualityFlag>> {
    let out_of_range = Err(QualityFlag::AmountOutOfRange);
    if asset.is_fiat() {
        return Ok(match market.rates.to_eur(quantity, asset, date) {
            Ok(Some((eur, _))) => num::within_limit(eur).ok_or(QualityFlag::AmountOutOfRange),
            Ok(None) => Err(QualityFlag::MissingFxRate),
            Err(DomainError::ArithmeticOverflow { .. }) => out_of_range,
            Err(error) => return Err(error),
        });
    }
    Ok(match market.price_raw(asset, date) {
        RawLookup::Found { price, fx } => {
            let Some(native) = quantity.checked_mul(price.price) else {
                return Ok(out_of_range);
            };
            let eur = match fx {
                Some(fx) => native.checked_div(fx.rate),
                None => Some(native),
            };
            eur.and_then(num::within_limit)
                .ok_or(QualityFlag::AmountOutOfRange)
        }
        RawLookup::MissingFxRate => Err(QualityFlag::MissingFxRate),
        RawLookup::MissingPrice => Err(QualityFlag::MissingPrice),
    })
}

#[cfg(test)]
mod tests;
