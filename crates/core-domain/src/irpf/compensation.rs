//! Integration and compensation (`irpf.md` §5): the year's own balances, carry-forward items of
//! earlier years and the multi-year state from `start_year`.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::balances::YearBalances;
use super::settings::{CarryKind, ValidatedSettings};
use crate::error::DomainResult;
use crate::num;

/// Where a carry-forward item comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CarrySource {
    /// A negative balance the product computed.
    Ledger,
    /// A setting (`irpf.declared_carry_forwards`).
    Declared,
}

impl CarrySource {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ledger => "LEDGER",
            Self::Declared => "DECLARED",
        }
    }
}

/// Whether a use offsets a balance of the item's own nature or crosses groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nature {
    /// Same nature.
    Same,
    /// Cross-compensation (`T` against `R` or the reverse).
    Cross,
}

impl Nature {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Same => "SAME",
            Self::Cross => "CROSS",
        }
    }
}

/// A negative balance pending compensation (`irpf.md` §5.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarryItem {
    /// The year it arose.
    pub origin_year: i32,
    /// Its kind (a 2013–2014 `GENERAL_GP` keeps its kind; see [`CarryItem::effective_kind`]).
    pub kind: CarryKind,
    /// Whether it may be used across `T` and `R`.
    pub cross_eligible: bool,
    /// What is left (EUR cents, > 0 while alive).
    pub remaining: Decimal,
    /// Where it came from.
    pub source: CarrySource,
}

impl CarryItem {
    /// A new item; cross eligibility follows §5.2.
    pub fn new(origin_year: i32, kind: CarryKind, amount: Decimal, source: CarrySource) -> Self {
        Self {
            origin_year,
            kind,
            cross_eligible: origin_year >= 2015 && kind != CarryKind::GeneralGp,
            remaining: amount,
            source,
        }
    }

    /// The kind the item is used as in `year`: 2013–2014 general items count as savings
    /// transmission items from 2015.
    pub fn effective_kind(&self, year: i32) -> CarryKind {
        if self.kind == CarryKind::GeneralGp
            && matches!(self.origin_year, 2013 | 2014)
            && year >= 2015
        {
            CarryKind::SavingsGp
        } else {
            self.kind
        }
    }

    /// Last year the item can be used.
    pub fn last_usable_year(&self) -> i32 {
        self.origin_year.saturating_add(4)
    }

    fn usable_in(&self, year: i32) -> bool {
        self.origin_year < year && year <= self.last_usable_year() && self.remaining > Decimal::ZERO
    }
}

/// One use of an earlier item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarryUse {
    /// Origin year of the item.
    pub origin_year: i32,
    /// Kind of the item.
    pub kind: CarryKind,
    /// Its source.
    pub source: CarrySource,
    /// Same or cross.
    pub nature: Nature,
    /// Amount used.
    pub amount: Decimal,
}

/// An amount of an item (generated or expired).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarryAmount {
    /// Origin year.
    pub origin_year: i32,
    /// Kind.
    pub kind: CarryKind,
    /// Amount.
    pub amount: Decimal,
}

/// An item still usable after the year.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CarryRemaining {
    /// Origin year.
    pub origin_year: i32,
    /// Kind.
    pub kind: CarryKind,
    /// Source.
    pub source: CarrySource,
    /// What is left.
    pub remaining: Decimal,
    /// Last usable year.
    pub last_usable_year: i32,
}

/// The result of one year's integration and compensation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YearCompensation {
    /// The year.
    pub year: i32,
    /// The balances before compensation.
    pub balances: YearBalances,
    /// Cross percentage `p`, `None` before 2015.
    pub cross_percentage: Option<Decimal>,
    /// `c` of Phase 1.
    pub current_year_cross_compensation: Decimal,
    /// `T_sav` after compensation (≥ 0).
    pub savings_gp_after: Decimal,
    /// `R` after compensation (≥ 0).
    pub savings_rcm_after: Decimal,
    /// `T_sav + R` after compensation.
    pub savings_base_after: Decimal,
    /// `G` after compensation.
    pub general_gains_after: Decimal,
    /// Phase 2 uses in order.
    pub used: Vec<CarryUse>,
    /// New items.
    pub generated: Vec<CarryAmount>,
    /// Items still usable after the year, by origin year then kind.
    pub remaining: Vec<CarryRemaining>,
    /// Items expiring at the end of the year.
    pub expired: Vec<CarryAmount>,
    /// Whether `G < 0` in 2013–2014 with no absorption set.
    pub general_absorption_unknown: bool,
}

impl YearCompensation {
    /// Σ of the uses.
    pub fn used_total(&self) -> DomainResult<Decimal> {
        sum(self.used.iter().map(|u| u.amount))
    }

    /// Σ generated.
    pub fn generated_total(&self) -> DomainResult<Decimal> {
        sum(self.generated.iter().map(|g| g.amount))
    }

    /// Σ remaining.
    pub fn remaining_total(&self) -> DomainResult<Decimal> {
        sum(self.remaining.iter().map(|r| r.remaining))
    }

    /// Σ expired.
    pub fn expired_total(&self) -> DomainResult<Decimal> {
        sum(self.expired.iter().map(|e| e.amount))
    }
}

fn sum(mut values: impl Iterator<Item = Decimal>) -> DomainResult<Decimal> {
    values.try_fold(Decimal::ZERO, |acc, v| {
        num::add(acc, v, "carry-forward total")
    })
}

/// Cross-compensation percentage of `year` (`irpf.md` §5.1).
pub fn cross_percentage(year: i32) -> Option<Decimal> {
    match year {
        i32::MIN..=2014 => None,
        2015 => Some(Decimal::new(10, 2)),
        2016 => Some(Decimal::new(15, 2)),
        2017 => Some(Decimal::new(20, 2)),
        _ => Some(Decimal::new(25, 2)),
    }
}

fn min(a: Decimal, b: Decimal) -> Decimal {
    if a <= b { a } else { b }
}

fn positive(value: Decimal) -> Decimal {
    if value > Decimal::ZERO {
        value
    } else {
        Decimal::ZERO
    }
}

/// The three balances being compensated.
#[derive(Clone, Copy, Debug)]
struct Working {
    t_sav: Decimal,
    rcm: Decimal,
    general: Decimal,
}

/// Phase 1: the year's own `T_sav` and `R` (returns `(c₁, c₂)`).
fn phase_one(
    work: &mut Working,
    pct: Option<Decimal>,
    room_r: Decimal,
    room_t: Decimal,
) -> DomainResult<(Decimal, Decimal)> {
    let ctx = "compensation phase 1";
    let mut c1 = Decimal::ZERO;
    let mut c2 = Decimal::ZERO;
    if pct.is_some() {
        if work.t_sav < Decimal::ZERO && work.rcm > Decimal::ZERO {
            c1 = min(-work.t_sav, room_r);
            work.t_sav = num::add(work.t_sav, c1, ctx)?;
            work.rcm = num::sub(work.rcm, c1, ctx)?;
        } else if work.rcm < Decimal::ZERO && work.t_sav > Decimal::ZERO {
            c2 = min(-work.rcm, room_t);
            work.rcm = num::add(work.rcm, c2, ctx)?;
            work.t_sav = num::sub(work.t_sav, c2, ctx)?;
        }
    }
    Ok((c1, c2))
}

/// New items from what is still negative; returns them and whether the 2013–2014 general
/// absorption was unknown.
fn new_items(
    year: i32,
    work: &mut Working,
    absorption: Option<Decimal>,
) -> DomainResult<(Vec<CarryItem>, bool)> {
    let mut items = Vec::new();
    if work.t_sav < Decimal::ZERO {
        items.push(CarryItem::new(
            year,
            CarryKind::SavingsGp,
            -work.t_sav,
            CarrySource::Ledger,
        ));
        work.t_sav = Decimal::ZERO;
    }
    if work.rcm < Decimal::ZERO {
        items.push(CarryItem::new(
            year,
            CarryKind::SavingsRcm,
            -work.rcm,
            CarrySource::Ledger,
        ));
        work.rcm = Decimal::ZERO;
    }
    let mut absorption_unknown = false;
    if work.general < Decimal::ZERO {
        absorption_unknown = matches!(year, 2013 | 2014) && absorption.is_none();
        let amount = num::sub(
            -work.general,
            absorption.unwrap_or(Decimal::ZERO),
            "general carry-forward",
        )?;
        if amount > Decimal::ZERO {
            items.push(CarryItem::new(
                year,
                CarryKind::GeneralGp,
                amount,
                CarrySource::Ledger,
            ));
        }
        work.general = Decimal::ZERO;
    }
    Ok((items, absorption_unknown))
}

fn record_use(
    item: &mut CarryItem,
    balance: &mut Decimal,
    amount: Decimal,
    nature: Nature,
    used: &mut Vec<CarryUse>,
) -> DomainResult<()> {
    let ctx = "compensation phase 2";
    *balance = num::sub(*balance, amount, ctx)?;
    item.remaining = num::sub(item.remaining, amount, ctx)?;
    used.push(CarryUse {
        origin_year: item.origin_year,
        kind: item.kind,
        source: item.source,
        nature,
        amount,
    });
    Ok(())
}

/// Phase 2: earlier items, oldest first, same nature then cross within the shared rooms.
fn phase_two(
    year: i32,
    work: &mut Working,
    items: &mut [CarryItem],
    cross_rooms: Option<(Decimal, Decimal)>,
) -> DomainResult<Vec<CarryUse>> {
    let mut order: Vec<usize> = (0..items.len())
        .filter(|&i| items.get(i).is_some_and(|item| item.usable_in(year)))
        .collect();
    order.sort_by_key(|&i| {
        items
            .get(i)
            .map(|item| (item.origin_year, item.effective_kind(year), item.kind))
    });
    let mut used = Vec::new();
    for &i in &order {
        let Some(item) = items.get_mut(i) else {
            continue;
        };
        let balance = match item.effective_kind(year) {
            CarryKind::SavingsGp => &mut work.t_sav,
            CarryKind::SavingsRcm => &mut work.rcm,
            CarryKind::GeneralGp => &mut work.general,
        };
        let amount = min(item.remaining, *balance);
        if amount > Decimal::ZERO {
            record_use(item, balance, amount, Nature::Same, &mut used)?;
        }
    }
    let Some((mut room_r, mut room_t)) = cross_rooms else {
        return Ok(used);
    };
    for &i in &order {
        let Some(item) = items.get_mut(i) else {
            continue;
        };
        if !item.cross_eligible || item.remaining <= Decimal::ZERO {
            continue;
        }
        let (balance, room) = match item.kind {
            CarryKind::SavingsGp => (&mut work.rcm, &mut room_r),
            CarryKind::SavingsRcm => (&mut work.t_sav, &mut room_t),
            CarryKind::GeneralGp => continue,
        };
        let amount = min(min(item.remaining, *balance), *room);
        if amount > Decimal::ZERO {
            *room = num::sub(*room, amount, "cross room")?;
            record_use(item, balance, amount, Nature::Cross, &mut used)?;
        }
    }
    Ok(used)
}

/// End of year: drops used-up items, reports and drops those of origin `year − 4`, lists the
/// rest (new items included) as remaining.
fn close_year(year: i32, items: &mut Vec<CarryItem>) -> (Vec<CarryRemaining>, Vec<CarryAmount>) {
    let expiring = year.saturating_sub(4);
    let mut expired = Vec::new();
    let mut remaining = Vec::new();
    items.retain(|item| {
        if item.remaining <= Decimal::ZERO {
            return false;
        }
        if item.origin_year <= expiring {
            if item.origin_year == expiring {
                expired.push(CarryAmount {
                    origin_year: item.origin_year,
                    kind: item.kind,
                    amount: item.remaining,
                });
            }
            return false;
        }
        remaining.push(CarryRemaining {
            origin_year: item.origin_year,
            kind: item.kind,
            source: item.source,
            remaining: item.remaining,
            last_usable_year: item.last_usable_year(),
        });
        true
    });
    remaining.sort_by_key(|r| (r.origin_year, r.kind));
    expired.sort_by_key(|e| (e.origin_year, e.kind));
    (remaining, expired)
}

fn room(pct: Option<Decimal>, base: Decimal) -> DomainResult<Decimal> {
    match pct {
        Some(pct) => num::mul(pct, positive(base), "cross room").map(num::to_cents),
        None => Ok(Decimal::ZERO),
    }
}

/// Integrates and compensates `year` (`irpf.md` §5.3), updating `items` in place: uses reduce
/// them, new items are appended, and items that cannot be used after `year` are dropped.
pub fn compensate_year(
    year: i32,
    balances: YearBalances,
    items: &mut Vec<CarryItem>,
    absorption: Option<Decimal>,
) -> DomainResult<YearCompensation> {
    let pct = cross_percentage(year);
    let mut work = Working {
        t_sav: balances.t_sav,
        rcm: balances.r,
        general: balances.g()?,
    };
    // Rooms use the balances before any compensation (`R⁺`, `T⁺`).
    let rcm_room = room(pct, balances.r)?;
    let transmission_room = room(pct, balances.t_sav)?;
    let (c1, c2) = phase_one(&mut work, pct, rcm_room, transmission_room)?;
    let (created, general_absorption_unknown) = new_items(year, &mut work, absorption)?;
    let generated = created
        .iter()
        .map(|item| CarryAmount {
            origin_year: item.origin_year,
            kind: item.kind,
            amount: item.remaining,
        })
        .collect();
    let cross_rooms = match pct {
        Some(_) => Some((
            num::sub(rcm_room, c1, "cross room")?,
            num::sub(transmission_room, c2, "cross room")?,
        )),
        None => None,
    };
    let used = phase_two(year, &mut work, items, cross_rooms)?;
    items.extend(created);
    let (remaining, expired) = close_year(year, items);
    Ok(YearCompensation {
        year,
        balances,
        cross_percentage: pct,
        current_year_cross_compensation: num::add(c1, c2, "cross compensation")?,
        savings_gp_after: work.t_sav,
        savings_rcm_after: work.rcm,
        savings_base_after: num::add(work.t_sav, work.rcm, "savings base")?,
        general_gains_after: work.general,
        used,
        generated,
        remaining,
        expired,
        general_absorption_unknown,
    })
}

/// Runs every year from `settings.start_year` to `last_year` in one pass (declared items enter
/// on 1 January of `start_year`; years without items carry the state through) and returns each
/// year's compensation. Years before `start_year` are computed alone, with no items.
pub fn run_years(
    balances: &BTreeMap<i32, YearBalances>,
    settings: &ValidatedSettings,
    first_year: i32,
    last_year: i32,
) -> DomainResult<BTreeMap<i32, YearCompensation>> {
    let mut out = BTreeMap::new();
    let start = settings.start_year;
    let mut items: Vec<CarryItem> = settings
        .declared
        .iter()
        .map(|d| CarryItem::new(d.origin_year, d.kind, d.amount, CarrySource::Declared))
        .collect();
    for year in first_year.min(start)..=last_year {
        let year_balances = balances.get(&year).copied().unwrap_or_default();
        if year < start {
            if year >= first_year {
                let mut none = Vec::new();
                let result =
                    compensate_year(year, year_balances, &mut none, settings.absorption(year))?;
                out.insert(year, result);
            }
            continue;
        }
        let result = compensate_year(year, year_balances, &mut items, settings.absorption(year))?;
        if year >= first_year {
            out.insert(year, result);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
