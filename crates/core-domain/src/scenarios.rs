//! What-if scenarios over the holdings snapshot (`domain.md` §13).
//!
//! Every function is pure over [`ScenarioHolding`]s in the display currency (symbol order, as
//! the snapshot lists them): no time input, no ledger change. Values are cents (market values)
//! and every split of a total keeps the allocation rule of §1.3, so listed values sum to their
//! total; the caller formats results with the output classes the spec names for each field.

use rust_decimal::Decimal;

use crate::asset::Asset;
use crate::num;
use crate::ranking::rank_by_value;

/// A holding's cost basis as the scenarios see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScenarioCostBasis {
    /// Known in the display currency.
    Known(Decimal),
    /// Some lot's acquisition date has no rate for the display currency.
    Unconvertible,
    /// Some open lot has an unknown cost.
    Unknown,
}

/// One holding of the snapshot; `current_value` is present iff the holding is valued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioHolding {
    /// The asset.
    pub symbol: Asset,
    /// Quantity held.
    pub quantity: Decimal,
    /// Cost basis.
    pub cost_basis: ScenarioCostBasis,
    /// Current value when valued.
    pub current_value: Option<Decimal>,
}

/// Errors of scenario inputs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScenarioError {
    /// A price below zero.
    #[error("price must not be negative: {price}")]
    NegativePrice {
        /// The offending price.
        price: Decimal,
    },
    /// A shock percentage outside `[-100, 1000]`.
    #[error("shock percentage out of range [-100, 1000]: {pct}")]
    PctOutOfRange {
        /// The offending percentage.
        pct: Decimal,
    },
    /// A per-asset shock with no entry or more than 25.
    #[error("per-asset shock needs 1 to 25 entries, got {count}")]
    EntryCount {
        /// How many were given.
        count: usize,
    },
    /// A domain failure (overflow).
    #[error(transparent)]
    Domain(#[from] crate::error::DomainError),
}

type Result<T> = std::result::Result<T, ScenarioError>;

fn valued_total(holdings: &[ScenarioHolding]) -> Result<Decimal> {
    holdings
        .iter()
        .filter_map(|h| h.current_value)
        .try_fold(Decimal::ZERO, |acc, v| num::add(acc, v, "valued total"))
        .map_err(Into::into)
}

fn find(holdings: &[ScenarioHolding], symbol: Asset) -> Option<&ScenarioHolding> {
    holdings.iter().find(|h| h.symbol == symbol)
}

/// Outcome of [`position_value_at`] (`domain.md` §13.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionValue {
    /// No holding with the symbol.
    NotHeld,
    /// The holding is unvalued; only the position value is meaningful.
    Unvalued {
        /// `quantity × price` (`FIAT`).
        position_value: Decimal,
    },
    /// The portfolio would be worth nothing at that price.
    EmptyPortfolio,
    /// Computed.
    Computed {
        /// `quantity × price` (`FIAT`).
        position_value: Decimal,
        /// `position_value − current_value` (`FIAT`).
        delta_vs_current: Decimal,
        /// `position_value ÷ (valued_total − current_value + position_value) × 100` (`PERCENT`).
        implied_allocation_pct: Decimal,
    },
}

/// The value of one position at a hypothetical price, and its implied allocation.
pub fn position_value_at(
    holdings: &[ScenarioHolding],
    symbol: Asset,
    price: Decimal,
) -> Result<PositionValue> {
    if price.is_sign_negative() && !price.is_zero() {
        return Err(ScenarioError::NegativePrice { price });
    }
    let Some(holding) = find(holdings, symbol) else {
        return Ok(PositionValue::NotHeld);
    };
    // A market value, in cents (`domain.md` §7.2): the delta printed beside it is then exact.
    // A single figure that cannot be partial: an overflow fails it, naming the asset (D-146).
    let pv = num::to_cents(num::mul(
        holding.quantity,
        price,
        &format_args!("position value of {symbol}"),
    )?);
    let Some(current) = holding.current_value else {
        return Ok(PositionValue::Unvalued { position_value: pv });
    };
    let total = valued_total(holdings)?;
    let den = num::add(
        num::sub(total, current, "position value")?,
        pv,
        "position value",
    )?;
    if den.is_zero() {
        return Ok(PositionValue::EmptyPortfolio);
    }
    let share = num::div(pv, den, "implied allocation")?;
    Ok(PositionValue::Computed {
        position_value: pv,
        delta_vs_current: num::sub(pv, current, "position delta")?,
        implied_allocation_pct: num::mul(share, Decimal::ONE_HUNDRED, "implied allocation")?,
    })
}

/// Outcome of [`breakeven_price`] (`domain.md` §13.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Breakeven {
    /// No holding with the symbol.
    NotHeld,
    /// The cost basis has no rate in the display currency.
    UnconvertibleCostBasis,
    /// Some open lot has an unknown cost.
    UnknownCostBasis,
    /// Nothing held.
    ZeroQuantity,
    /// `cost ÷ quantity` (`UNIT_PRICE`).
    Computed {
        /// The average unit cost.
        avg_unit_cost: Decimal,
    },
}

/// The unit price at which selling everything returns the cost basis (before fees and tax).
pub fn breakeven_price(holdings: &[ScenarioHolding], symbol: Asset) -> Result<Breakeven> {
    let Some(holding) = find(holdings, symbol) else {
        return Ok(Breakeven::NotHeld);
    };
    let cost = match holding.cost_basis {
        ScenarioCostBasis::Unconvertible => return Ok(Breakeven::UnconvertibleCostBasis),
        ScenarioCostBasis::Unknown => return Ok(Breakeven::UnknownCostBasis),
        ScenarioCostBasis::Known(cost) => cost,
    };
    if holding.quantity.is_zero() {
        return Ok(Breakeven::ZeroQuantity);
    }
    Ok(Breakeven::Computed {
        avg_unit_cost: num::div(
            cost,
            holding.quantity,
            &format_args!("breakeven price of {symbol}"),
        )?,
    })
}

/// A portfolio shock (`domain.md` §13.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shock {
    /// The same percentage on every valued holding.
    Uniform {
        /// Percentage in `[-100, 1000]`.
        pct: Decimal,
    },
    /// Per-asset percentages (1–25 entries; a repeated symbol: the last entry wins); an
    /// unlisted asset gets 0.
    PerAsset(Vec<(Asset, Decimal)>),
}

/// One shocked asset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShockedAsset {
    /// The asset.
    pub symbol: Asset,
    /// Current value (`FIAT`).
    pub before: Decimal,
    /// `before × (100 + pct) ÷ 100` (`FIAT`).
    pub after: Decimal,
}

/// Outcome of [`apply_shock`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShockResult {
    /// No valued holding.
    EmptyPortfolio,
    /// Computed.
    Computed {
        /// Valued holdings ranked by `before` descending (stable over symbol order).
        assets: Vec<ShockedAsset>,
        /// Σ before.
        total_before: Decimal,
        /// Σ after.
        total_after: Decimal,
        /// `total_after − total_before`.
        delta: Decimal,
        /// Held but unvalued symbols, in holdings order (never shocked as zero).
        unvalued_symbols: Vec<Asset>,
        /// Listed symbols no holding has, in input order, first occurrence.
        not_held: Vec<Asset>,
    },
}

/// Lowest shock percentage.
pub const MIN_SHOCK_PCT: Decimal = Decimal::from_parts(100, 0, 0, true, 0);
/// Highest shock percentage.
pub const MAX_SHOCK_PCT: Decimal = Decimal::ONE_THOUSAND;
/// Most entries of a per-asset shock.
pub const MAX_SHOCK_ENTRIES: usize = 25;

fn check_pct(pct: Decimal) -> Result<()> {
    if pct < MIN_SHOCK_PCT || pct > MAX_SHOCK_PCT {
        return Err(ScenarioError::PctOutOfRange { pct });
    }
    Ok(())
}

/// Applies a shock to the valued holdings.
pub fn apply_shock(holdings: &[ScenarioHolding], shock: &Shock) -> Result<ShockResult> {
    match shock {
        Shock::Uniform { pct } => check_pct(*pct)?,
        Shock::PerAsset(entries) => {
            if entries.is_empty() || entries.len() > MAX_SHOCK_ENTRIES {
                return Err(ScenarioError::EntryCount {
                    count: entries.len(),
                });
            }
            for (_, pct) in entries {
                check_pct(*pct)?;
            }
        }
    }
    let pct_of = |symbol: Asset| -> Decimal {
        match shock {
            Shock::Uniform { pct } => *pct,
            Shock::PerAsset(entries) => entries
                .iter()
                .rev()
                .find(|(s, _)| *s == symbol)
                .map_or(Decimal::ZERO, |(_, pct)| *pct),
        }
    };
    let ranking = rank_by_value(holdings.iter(), |h| h.current_value, usize::MAX);
    if ranking.ranked.is_empty() {
        return Ok(ShockResult::EmptyPortfolio);
    }
    // Values are cents (a market value, `domain.md` §7.2) and so is every shocked figure. A
    // uniform shock moves the whole portfolio: its total is rounded once and split over the
    // assets by the allocation rule of §1.3, so the listed values always sum to the total. A
    // per-asset shock shocks each value on its own; its total is their sum.
    let befores: Vec<Decimal> = ranking
        .ranked
        .iter()
        .map(|h| num::to_cents(h.current_value.unwrap_or_default()))
        .collect();
    let mut total_before = Decimal::ZERO;
    for before in &befores {
        total_before = num::add(total_before, *before, "shock total")?;
    }
    let shocked = |value: Decimal, pct: Decimal| -> Result<Decimal> {
        let factor = num::add(Decimal::ONE_HUNDRED, pct, "shock")?;
        Ok(num::to_cents(num::div(
            num::mul(value, factor, "shock")?,
            Decimal::ONE_HUNDRED,
            "shock",
        )?))
    };
    let afters = match shock {
        Shock::Uniform { pct } => {
            num::allocate_cents(shocked(total_before, *pct)?, &befores, "shock")?
        }
        Shock::PerAsset(_) => ranking
            .ranked
            .iter()
            .zip(&befores)
            .map(|(h, before)| shocked(*before, pct_of(h.symbol)))
            .collect::<Result<Vec<_>>>()?,
    };
    let mut total_after = Decimal::ZERO;
    let mut assets = Vec::with_capacity(befores.len());
    for ((holding, before), after) in ranking.ranked.iter().zip(befores).zip(afters) {
        total_after = num::add(total_after, after, "shock total")?;
        assets.push(ShockedAsset {
            symbol: holding.symbol,
            before,
            after,
        });
    }
    let mut not_held: Vec<Asset> = Vec::new();
    if let Shock::PerAsset(entries) = shock {
        for (symbol, _) in entries {
            if find(holdings, *symbol).is_none() && !not_held.contains(symbol) {
                not_held.push(*symbol);
            }
        }
    }
    Ok(ShockResult::Computed {
        assets,
        total_before,
        total_after,
        delta: num::sub(total_after, total_before, "shock delta")?,
        unvalued_symbols: ranking.unvalued.iter().map(|h| h.symbol).collect(),
        not_held,
    })
}

/// Concentration figures of one set of holdings (weights are fractions 0–1, `RATIO`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcentrationBlock {
    /// Total or HHI is zero.
    Empty,
    /// Computed.
    Computed {
        /// Weight of the largest holding.
        top1_weight: Decimal,
        /// Weight of the three largest (fewer if fewer).
        top3_weight: Decimal,
        /// Herfindahl–Hirschman index Σ wᵢ².
        hhi: Decimal,
        /// `1 ÷ hhi`.
        effective_holdings: Decimal,
    },
}

/// Outcome of [`concentration`] (`domain.md` §13.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Concentration {
    /// Every valued holding.
    pub all: ConcentrationBlock,
    /// Valued holdings without the stablecoins of `domain.md` §2 (weights renormalised).
    pub excluding_stablecoins: ConcentrationBlock,
    /// Stablecoin total ÷ total; `None` when the total is zero.
    pub stablecoin_weight: Option<Decimal>,
    /// Holdings without a value.
    pub unvalued_count: usize,
}

fn block(values: &[Decimal]) -> Result<ConcentrationBlock> {
    let total = values
        .iter()
        .try_fold(Decimal::ZERO, |acc, v| num::add(acc, *v, "concentration"))?;
    if total.is_zero() {
        return Ok(ConcentrationBlock::Empty);
    }
    let mut weights = Vec::with_capacity(values.len());
    let mut hhi = Decimal::ZERO;
    for value in values {
        let w = num::div(*value, total, "concentration weight")?;
        hhi = num::add(hhi, num::mul(w, w, "hhi")?, "hhi")?;
        weights.push(w);
    }
    if hhi.is_zero() {
        return Ok(ConcentrationBlock::Empty);
    }
    let top3_weight = weights
        .iter()
        .take(3)
        .try_fold(Decimal::ZERO, |acc, w| num::add(acc, *w, "top3"))?;
    Ok(ConcentrationBlock::Computed {
        top1_weight: weights.first().copied().unwrap_or_default(),
        top3_weight,
        hhi,
        effective_holdings: num::div(Decimal::ONE, hhi, "effective holdings")?,
    })
}

/// Concentration of the valued holdings, with and without stablecoins.
pub fn concentration(holdings: &[ScenarioHolding]) -> Result<Concentration> {
    let ranking = rank_by_value(holdings.iter(), |h| h.current_value, usize::MAX);
    let all: Vec<Decimal> = ranking
        .ranked
        .iter()
        .filter_map(|h| h.current_value)
        .collect();
    let non_stable: Vec<Decimal> = ranking
        .ranked
        .iter()
        .filter(|h| !h.symbol.is_stablecoin())
        .filter_map(|h| h.current_value)
        .collect();
    let total = all
        .iter()
        .try_fold(Decimal::ZERO, |acc, v| num::add(acc, *v, "concentration"))?;
    let stable_total = ranking
        .ranked
        .iter()
        .filter(|h| h.symbol.is_stablecoin())
        .filter_map(|h| h.current_value)
        .try_fold(Decimal::ZERO, |acc, v| num::add(acc, v, "stablecoin total"))?;
    let stablecoin_weight = if total.is_zero() {
        None
    } else {
        Some(num::div(stable_total, total, "stablecoin weight")?)
    };
    Ok(Concentration {
        all: block(&all)?,
        excluding_stablecoins: block(&non_stable)?,
        stablecoin_weight,
        unvalued_count: ranking.unvalued.len(),
    })
}

#[cfg(test)]
mod tests;
