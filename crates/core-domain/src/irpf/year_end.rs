//! Year-end holdings for Modelo 721 and Modelo 714 (`irpf.md` §10).
//!
//! The input is the ledger balance and custody gap per `(account, asset)` at the end of
//! 31 December (`holdings_at(Y-12-31)`, `domain.md` §12.3), one snapshot per year, plus an EUR
//! close lookup (`domain.md` §7.2). The use-case layer builds the snapshots from the custody
//! replay; this module only aggregates and decides.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use shared_types::CustodyKind;

use super::settings::Modelo721Filed;
use crate::asset::Asset;
use crate::custody::{HoldingsAt, Location, holdings_at};
use crate::engine::{EngineInput, EngineOutput};
use crate::error::DomainResult;
use crate::ledger::{Account, AccountId};
use crate::num;
use crate::overrides::CustodyLink;
use crate::time::Date;
use crate::time::FiscalTimezone;

/// Where a year-end balance sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HoldingAccount {
    /// A stored account.
    Account(AccountId),
    /// The synthetic `ownwallet-<ASSET>` of the balance's asset.
    OwnWallet,
}

/// The balance of one `(account, asset)` at the cut-off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YearEndBalance {
    /// The account.
    pub account: HoldingAccount,
    /// The asset (crypto).
    pub asset: Asset,
    /// `ledger_balance` at the cut-off.
    pub ledger_balance: Decimal,
    /// `gap = ledger_balance − custody_quantity` at the cut-off.
    pub gap: Decimal,
}

/// The balances of one 31 December.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YearEndSnapshot {
    /// The fiscal year whose 31 December this is.
    pub year: i32,
    /// Balances per `(account, asset)`.
    pub balances: Vec<YearEndBalance>,
}

impl YearEndSnapshot {
    /// The snapshot of `year` from the custody replay stopped at its 31 December
    /// (`custody::holdings_at`).
    pub fn from_holdings(year: i32, holdings: &HoldingsAt) -> Self {
        let balances = holdings
            .balances
            .iter()
            .map(|b| YearEndBalance {
                account: match b.location {
                    Location::Account(id) => HoldingAccount::Account(id),
                    Location::OwnWallet(_) => HoldingAccount::OwnWallet,
                },
                asset: b.asset,
                ledger_balance: b.ledger_balance,
                gap: b.gap,
            })
            .collect();
        Self { year, balances }
    }

    /// Runs `holdings_at(year-12-31)` and builds the snapshot.
    pub fn at_year_end(
        year: i32,
        input: &EngineInput,
        output: &EngineOutput,
        accounts: &[Account],
        links: &[CustodyLink],
        timezone: FiscalTimezone,
    ) -> DomainResult<Self> {
        let cutoff = Date::from_ymd_opt(year, 12, 31).unwrap_or(Date::MAX);
        let holdings = holdings_at(input, output, accounts, links, cutoff, timezone)?;
        Ok(Self::from_holdings(year, &holdings))
    }

    /// The snapshots of every 31 December from 2023 to `year` (what the Modelo 721 walk reads),
    /// plus `year` itself when earlier.
    pub fn walk(
        year: i32,
        input: &EngineInput,
        output: &EngineOutput,
        accounts: &[Account],
        links: &[CustodyLink],
        timezone: FiscalTimezone,
    ) -> DomainResult<Vec<Self>> {
        (year.min(2023)..=year)
            .filter(|y| *y == year || *y >= 2023)
            .map(|y| Self::at_year_end(y, input, output, accounts, links, timezone))
            .collect()
    }
}

/// Name of the pseudo-custodian that gathers synthetic balances.
pub const UNTRACKED_LOCATION: &str = "UNTRACKED_LOCATION";

/// One asset held by a custodian.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldingEntry {
    /// Asset.
    pub asset: Asset,
    /// `max(Σ ledger balance over the subtree, 0)`.
    pub units: Decimal,
    /// `round_half_up(units × close, 2)` or unvalued.
    pub value: Option<Decimal>,
    /// A custody gap or a negative balance in the subtree.
    pub incomplete: bool,
}

/// A custodian (root of an account tree, or `UNTRACKED_LOCATION`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustodianHoldings {
    /// Root account name, or `UNTRACKED_LOCATION`.
    pub name: String,
    /// Country of the root account.
    pub country: Option<String>,
    /// Custody kind of the root (`UNCLASSIFIED` for the untracked location).
    pub custody_kind: CustodyKind,
    /// Entries in symbol order.
    pub entries: Vec<HoldingEntry>,
}

/// The Modelo 721 decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision721 {
    /// Years before 2023.
    NotApplicable,
    /// No earlier filing and `total_721 > 50000.00`.
    RequiredFirstTime,
    /// `total_721 − last_filed_total > 20000.00`.
    RequiredIncrease,
    /// Otherwise.
    NotRequired,
    /// Unvalued or unclassified holdings could change the decision.
    Undetermined,
}

impl Decision721 {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NotApplicable => "NOT_APPLICABLE",
            Self::RequiredFirstTime => "REQUIRED_FIRST_TIME",
            Self::RequiredIncrease => "REQUIRED_INCREASE",
            Self::NotRequired => "NOT_REQUIRED",
            Self::Undetermined => "UNDETERMINED",
        }
    }

    const fn is_required(self) -> bool {
        matches!(self, Self::RequiredFirstTime | Self::RequiredIncrease)
    }
}

/// Modelo 721 (virtual currencies held abroad).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modelo721 {
    /// The decision.
    pub decision: Decision721,
    /// Σ in-scope values.
    pub total_721: Decimal,
    /// Total of the earlier filing used by the decision.
    pub last_filed_total: Option<Decimal>,
    /// Year of that filing.
    pub last_filed_year: Option<i32>,
    /// 1 January … 31 March of `Y + 1`.
    pub filing_window: (Date, Date),
    /// In-scope custodians (`FOREIGN_PROVIDER`).
    pub custodians: Vec<CustodianHoldings>,
    /// `(custodian, asset)` declared in the last filing (known from the walk) and no longer held.
    pub vanished_positions: Vec<(String, Asset)>,
}

/// Modelo 714 (wealth tax): every holding, whatever the custody.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modelo714 {
    /// `(asset, units, value)`; the value is Σ of the custodians' rounded values, unknown when
    /// some custodian's entry is unvalued.
    pub per_asset: Vec<(Asset, Decimal, Option<Decimal>)>,
    /// Σ known values.
    pub total_714: Decimal,
    /// Assets with an unvalued entry.
    pub unvalued: Vec<Asset>,
    /// `total_714 > 2000000.00`.
    pub crypto_alone_exceeds_2m: bool,
}

/// Year-end holdings of a year.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YearEndHoldings {
    /// The year.
    pub year: i32,
    /// Every custodian with an entry (input account order, `UNTRACKED_LOCATION` last).
    pub custodians: Vec<CustodianHoldings>,
    /// Modelo 721.
    pub modelo_721: Modelo721,
    /// Modelo 714.
    pub modelo_714: Modelo714,
}

fn root_of(accounts: &[Account], id: AccountId) -> AccountId {
    let mut current = id;
    for _ in 0..=accounts.len() {
        match accounts
            .iter()
            .find(|a| a.id == current)
            .and_then(|a| a.parent_id)
        {
            Some(parent) => current = parent,
            None => break,
        }
    }
    current
}

#[derive(Default)]
struct Accum {
    balance: Decimal,
    incomplete: bool,
}

/// Custodians of one snapshot.
pub fn custodians_at(
    accounts: &[Account],
    snapshot: &YearEndSnapshot,
    close_eur: &dyn Fn(Asset, Date) -> Option<Decimal>,
) -> DomainResult<Vec<CustodianHoldings>> {
    let date = Date::from_ymd_opt(snapshot.year, 12, 31).unwrap_or(Date::MAX);
    // Key: custodian position (input order of roots; untracked last).
    let mut per: BTreeMap<(usize, Asset), Accum> = BTreeMap::new();
    let untracked = accounts.len();
    for balance in &snapshot.balances {
        let position = match balance.account {
            HoldingAccount::OwnWallet => untracked,
            HoldingAccount::Account(id) => {
                let root = root_of(accounts, id);
                accounts
                    .iter()
                    .position(|a| a.id == root)
                    .unwrap_or(untracked)
            }
        };
        let entry = per.entry((position, balance.asset)).or_default();
        entry.balance = num::add(entry.balance, balance.ledger_balance, "year-end balance")?;
        if !balance.gap.is_zero() || balance.ledger_balance < Decimal::ZERO {
            entry.incomplete = true;
        }
    }
    let mut out: Vec<CustodianHoldings> = Vec::new();
    let mut current: Option<usize> = None;
    for ((position, asset), accum) in per {
        let units = if accum.balance > Decimal::ZERO {
            accum.balance
        } else {
            Decimal::ZERO
        };
        if units.is_zero() && !accum.incomplete {
            continue;
        }
        let value = if units.is_zero() {
            Some(Decimal::ZERO)
        } else {
            // Out of range (D-146) leaves the entry unvalued, as a missing close does.
            close_eur(asset, date).and_then(|close| num::cents_product(units, close))
        };
        if current != Some(position) {
            current = Some(position);
            let custodian = match accounts.get(position) {
                Some(account) => CustodianHoldings {
                    name: account.name.clone(),
                    country: account.country.clone(),
                    custody_kind: account.custody_kind,
                    entries: Vec::new(),
                },
                None => CustodianHoldings {
                    name: UNTRACKED_LOCATION.to_owned(),
                    country: None,
                    custody_kind: CustodyKind::Unclassified,
                    entries: Vec::new(),
                },
            };
            out.push(custodian);
        }
        if let Some(custodian) = out.last_mut() {
            custodian.entries.push(HoldingEntry {
                asset,
                units,
                value,
                incomplete: accum.incomplete,
            });
        }
    }
    Ok(out)
}

struct Totals721 {
    known: Decimal,
    in_scope_unvalued: bool,
    unclassified: Decimal,
    unclassified_unvalued: bool,
}

fn totals_721(custodians: &[CustodianHoldings]) -> DomainResult<Totals721> {
    let mut t = Totals721 {
        known: Decimal::ZERO,
        in_scope_unvalued: false,
        unclassified: Decimal::ZERO,
        unclassified_unvalued: false,
    };
    for custodian in custodians {
        for entry in &custodian.entries {
            match (custodian.custody_kind, entry.value) {
                (CustodyKind::ForeignProvider, Some(v)) => {
                    t.known = num::add(t.known, v, "total 721")?;
                }
                (CustodyKind::ForeignProvider, None) => t.in_scope_unvalued = true,
                (CustodyKind::Unclassified, Some(v)) => {
                    t.unclassified = num::add(t.unclassified, v, "total 721")?;
                }
                (CustodyKind::Unclassified, None) => t.unclassified_unvalued = true,
                _ => {}
            }
        }
    }
    Ok(t)
}

fn decide(total: Option<Decimal>, last: Option<Decimal>) -> DomainResult<Decision721> {
    // `None` total = unbounded (an unvalued holding could be worth anything).
    let Some(total) = total else {
        return Ok(if last.is_some() {
            Decision721::RequiredIncrease
        } else {
            Decision721::RequiredFirstTime
        });
    };
    Ok(match last {
        None if total > Decimal::new(50_000, 0) => Decision721::RequiredFirstTime,
        Some(last) if num::sub(total, last, "modelo 721")? > Decimal::new(20_000, 0) => {
            Decision721::RequiredIncrease
        }
        _ => Decision721::NotRequired,
    })
}

fn decide_year(t: &Totals721, last: Option<Decimal>) -> DomainResult<Decision721> {
    let low = decide(Some(t.known), last)?;
    let high_total = if t.in_scope_unvalued || t.unclassified_unvalued {
        None
    } else {
        Some(num::add(t.known, t.unclassified, "modelo 721")?)
    };
    let high = decide(high_total, last)?;
    Ok(if low == high {
        low
    } else {
        Decision721::Undetermined
    })
}

fn in_scope(custodians: &[CustodianHoldings]) -> Vec<CustodianHoldings> {
    custodians
        .iter()
        .filter(|c| c.custody_kind == CustodyKind::ForeignProvider)
        .cloned()
        .collect()
}

/// In-scope positions of the last filing no longer held.
fn vanished(previous: &[CustodianHoldings], scope: &[CustodianHoldings]) -> Vec<(String, Asset)> {
    let mut out = Vec::new();
    for custodian in previous {
        for entry in custodian.entries.iter().filter(|e| e.units > Decimal::ZERO) {
            let still = scope.iter().any(|c| {
                c.name == custodian.name
                    && c.entries
                        .iter()
                        .any(|e| e.asset == entry.asset && e.units > Decimal::ZERO)
            });
            if !still {
                out.push((custodian.name.clone(), entry.asset));
            }
        }
    }
    out
}

fn modelo_714(custodians: &[CustodianHoldings]) -> DomainResult<Modelo714> {
    let mut per_asset: BTreeMap<Asset, (Decimal, Option<Decimal>)> = BTreeMap::new();
    let mut total_714 = Decimal::ZERO;
    for custodian in custodians {
        for entry in &custodian.entries {
            let slot = per_asset
                .entry(entry.asset)
                .or_insert((Decimal::ZERO, Some(Decimal::ZERO)));
            slot.0 = num::add(slot.0, entry.units, "modelo 714")?;
            slot.1 = match (slot.1, entry.value) {
                (Some(a), Some(v)) => Some(num::add(a, v, "modelo 714")?),
                _ => None,
            };
            if let Some(v) = entry.value {
                total_714 = num::add(total_714, v, "modelo 714")?;
            }
        }
    }
    let unvalued = per_asset
        .iter()
        .filter(|(_, (_, v))| v.is_none())
        .map(|(a, _)| *a)
        .collect();
    Ok(Modelo714 {
        per_asset: per_asset
            .into_iter()
            .map(|(asset, (units, value))| (asset, units, value))
            .collect(),
        total_714,
        unvalued,
        crypto_alone_exceeds_2m: total_714 > Decimal::new(2_000_000, 0),
    })
}

/// Year-end holdings of `year` from the snapshots of every 31 December from 2023 (or from the
/// year after `last_filed`) to `year`; a missing snapshot means no holdings that year.
pub fn year_end_holdings(
    year: i32,
    accounts: &[Account],
    snapshots: &[YearEndSnapshot],
    close_eur: &dyn Fn(Asset, Date) -> Option<Decimal>,
    last_filed: Option<&Modelo721Filed>,
) -> DomainResult<YearEndHoldings> {
    let empty = |y: i32| YearEndSnapshot {
        year: y,
        balances: Vec::new(),
    };
    let snapshot_of = |y: i32| {
        snapshots
            .iter()
            .find(|s| s.year == y)
            .cloned()
            .unwrap_or_else(|| empty(y))
    };
    let custodians = custodians_at(accounts, &snapshot_of(year), close_eur)?;
    let this_totals = totals_721(&custodians)?;

    let mut last_total: Option<Decimal> = None;
    let mut last_year: Option<i32> = None;
    let mut last_positions: Option<Vec<CustodianHoldings>> = None;
    let decision = if year < 2023 {
        Decision721::NotApplicable
    } else {
        let mut from = 2023;
        if let Some(filed) = last_filed
            && filed.year < year
        {
            last_total = Some(filed.total);
            last_year = Some(filed.year);
            from = filed.year.saturating_add(1).max(2023);
        }
        let mut decision = Decision721::NotRequired;
        for y in from..=year {
            let (totals, held) = if y == year {
                (None, None)
            } else {
                let held = custodians_at(accounts, &snapshot_of(y), close_eur)?;
                (Some(totals_721(&held)?), Some(held))
            };
            let d = decide_year(totals.as_ref().unwrap_or(&this_totals), last_total)?;
            if d == Decision721::Undetermined {
                decision = Decision721::Undetermined;
                break;
            }
            if y == year {
                decision = d;
            } else if d.is_required() {
                last_total = totals.map(|t| t.known);
                last_year = Some(y);
                last_positions = held.map(|h| in_scope(&h));
            }
        }
        decision
    };

    let scope = in_scope(&custodians);
    let vanished_positions = last_positions
        .as_deref()
        .map(|previous| vanished(previous, &scope))
        .unwrap_or_default();
    let next = year.saturating_add(1);
    let filing_window = (
        Date::from_ymd_opt(next, 1, 1).unwrap_or(Date::MAX),
        Date::from_ymd_opt(next, 3, 31).unwrap_or(Date::MAX),
    );
    let applicable = decision != Decision721::NotApplicable;
    let modelo_721 = Modelo721 {
        decision,
        total_721: this_totals.known,
        last_filed_total: last_total.filter(|_| applicable),
        last_filed_year: last_year.filter(|_| applicable),
        filing_window,
        custodians: scope,
        vanished_positions,
    };
    let modelo_714 = modelo_714(&custodians)?;
    Ok(YearEndHoldings {
        year,
        custodians,
        modelo_721,
        modelo_714,
    })
}

#[cfg(test)]
mod tests;
