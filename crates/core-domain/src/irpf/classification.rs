//! Classification of the engine's records (`irpf.md` §2 and §3): fiscal years, holding periods
//! and the base a slice's result belongs to.

use shared_types::SpotTxType;

use crate::engine::{EngineOutput, Lot, LotId};
use crate::time::{Date, add_years};
use chrono::Datelike;

/// Holding period of a slice (`irpf.md` §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Holding {
    /// Held one year or less.
    Short,
    /// Held more than one year.
    Long,
}

impl Holding {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Short => "SHORT",
            Self::Long => "LONG",
        }
    }
}

/// The taxable base a result is integrated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Base {
    /// *Base imponible del ahorro* (listed first).
    Savings,
    /// *Base imponible general*.
    General,
}

impl Base {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Savings => "SAVINGS",
            Self::General => "GENERAL",
        }
    }
}

/// The fiscal year of a fiscal date.
pub fn fiscal_year(date: Date) -> i32 {
    date.year()
}

/// `SHORT` iff `disposed_on ≤ acquired_on + 1 year` (date to date).
pub fn holding(acquired_on: Date, disposed_on: Date) -> Holding {
    if disposed_on <= add_years(acquired_on, 1) {
        Holding::Short
    } else {
        Holding::Long
    }
}

/// The base of a transmission result: general for short holdings in 2013 and 2014, savings
/// otherwise (LIRPF art. 46.b as worded by Ley 16/2012).
pub fn transmission_base(year: i32, holding: Option<Holding>) -> Base {
    if matches!(year, 2013 | 2014) && holding == Some(Holding::Short) {
        Base::General
    } else {
        Base::Savings
    }
}

/// The ids of the lots whose root acquisition is a FORK (following `carried_from` through
/// migrations), sorted; one pass over the lots (`FORK_ZERO_COST`, `irpf.md` §7.5).
pub fn fork_lots(output: &EngineOutput) -> Vec<LotId> {
    let mut ids: Vec<LotId> = output
        .lots
        .iter()
        .filter(|lot| root_origin(output, lot) == SpotTxType::Fork)
        .map(|lot| lot.lot_id)
        .collect();
    ids.sort_unstable();
    ids
}

fn root_origin(output: &EngineOutput, lot: &Lot) -> SpotTxType {
    let mut current = lot;
    // Bounded walk: bad data must not loop.
    for _ in 0..64 {
        match current.carried_from.and_then(|id| output.lot(id)) {
            Some(parent) => current = parent,
            None => break,
        }
    }
    current.origin_type
}

#[cfg(test)]
mod tests;
