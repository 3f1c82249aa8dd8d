//! Year balances (`irpf.md` §4), computed for every year in one pass over the engine output.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::classification::{Base, Holding, fiscal_year, holding, transmission_base};
use crate::engine::{DisposalLeg, EngineOutput, IncomeBucket};
use crate::error::DomainResult;
use crate::num;

/// The balances of one fiscal year, in EUR cents, before any compensation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct YearBalances {
    /// `T_sav`: savings-base transmission results plus known derivative results.
    pub t_sav: Decimal,
    /// `T_gen`: 2013–2014 short-term transmission results.
    pub t_gen: Decimal,
    /// `R`: resolved STAKING and REWARD receipts.
    pub r: Decimal,
    /// `A`: resolved AIRDROP and PROMOTION receipts.
    pub a: Decimal,
    /// `M`: resolved MINING receipts.
    pub m: Decimal,
    /// Σ positive results (slices and derivatives, both bases).
    pub capital_gains: Decimal,
    /// Σ |negative results|.
    pub capital_losses: Decimal,
}

impl YearBalances {
    /// `G = T_gen + A`.
    pub fn g(&self) -> DomainResult<Decimal> {
        num::add(self.t_gen, self.a, "general gains balance")
    }
}

/// Classification of one slice, aligned with [`EngineOutput::slices`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceClass {
    /// Fiscal year of the disposal.
    pub year: i32,
    /// Holding period; `None` when uncovered (no lot).
    pub holding: Option<Holding>,
    /// Base of an included transmission slice; `None` when excluded or leg M.
    pub base: Option<Base>,
    /// Whether the slice is a transmission (leg P or F).
    pub transmission: bool,
}

/// Classifies every slice (one pass).
pub fn classify_slices(output: &EngineOutput) -> Vec<SliceClass> {
    output
        .slices
        .iter()
        .map(|slice| {
            let operation = output.operations.get(slice.operation as usize);
            let disposed_on = operation.map(|o| o.fiscal_date);
            let transmission = operation.is_some_and(|o| o.leg != DisposalLeg::Migration);
            let year = disposed_on.map_or(i32::MIN, fiscal_year);
            // The engine copies the lot's (inherited) acquisition date onto the slice.
            let held = slice
                .acquired_on
                .filter(|_| slice.lot_id.is_some())
                .zip(disposed_on)
                .map(|(acquired_on, on)| holding(acquired_on, on));
            let base = (transmission && slice.included && slice.result().is_some())
                .then(|| transmission_base(year, held));
            SliceClass {
                year,
                holding: held,
                base,
                transmission,
            }
        })
        .collect()
}

fn entry(map: &mut BTreeMap<i32, YearBalances>, year: i32) -> &mut YearBalances {
    map.entry(year).or_default()
}

fn add_result(balances: &mut YearBalances, result: Decimal) -> DomainResult<()> {
    if result >= Decimal::ZERO {
        balances.capital_gains = num::add(balances.capital_gains, result, "capital gains")?;
    } else {
        balances.capital_losses = num::sub(balances.capital_losses, result, "capital losses")?;
    }
    Ok(())
}

/// The balances of every year that has an item, in one pass over slices, income receipts and
/// derivative results.
pub fn year_balances(
    output: &EngineOutput,
    classes: &[SliceClass],
) -> DomainResult<BTreeMap<i32, YearBalances>> {
    let mut map = BTreeMap::new();
    for (slice, class) in output.slices.iter().zip(classes) {
        let (Some(base), Some(result)) = (class.base, slice.result()) else {
            continue;
        };
        let year = entry(&mut map, class.year);
        match base {
            Base::Savings => year.t_sav = num::add(year.t_sav, result, "T_sav")?,
            Base::General => year.t_gen = num::add(year.t_gen, result, "T_gen")?,
        }
        add_result(year, result)?;
    }
    for derivative in &output.derivatives {
        let Some(net) = derivative.net else { continue };
        let year = entry(&mut map, fiscal_year(derivative.fiscal_date));
        year.t_sav = num::add(year.t_sav, net, "T_sav")?;
        add_result(year, net)?;
    }
    for receipt in &output.income {
        let Some(value) = receipt.value.amount() else {
            continue;
        };
        let year = entry(&mut map, fiscal_year(receipt.fiscal_date));
        match receipt.bucket {
            IncomeBucket::Rcm => year.r = num::add(year.r, value, "R")?,
            IncomeBucket::GeneralGp => year.a = num::add(year.a, value, "A")?,
            IncomeBucket::Activity => year.m = num::add(year.m, value, "M")?,
        }
    }
    Ok(map)
}
