//! IRPF settings and their validation (`irpf.md` §1).

use std::collections::BTreeSet;

use rust_decimal::Decimal;

use crate::asset::Asset;
use crate::error::{DomainError, DomainResult};
use crate::time::FiscalTimezone;

/// Kind of a carry-forward item (`irpf.md` §5.2); the derived order is the order of use within
/// one origin year.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CarryKind {
    /// Negative balance of the transmission group (savings base).
    SavingsGp,
    /// Negative balance of capital income (savings base).
    SavingsRcm,
    /// Negative general-base gains balance.
    GeneralGp,
}

impl CarryKind {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::SavingsGp => "SAVINGS_GP",
            Self::SavingsRcm => "SAVINGS_RCM",
            Self::GeneralGp => "GENERAL_GP",
        }
    }

    /// Parses the wire spelling.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "SAVINGS_GP" => Some(Self::SavingsGp),
            "SAVINGS_RCM" => Some(Self::SavingsRcm),
            "GENERAL_GP" => Some(Self::GeneralGp),
            _ => None,
        }
    }
}

/// A negative balance still pending on 1 January of `start_year`, from a return filed before
/// the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredCarryForward {
    /// The year the negative balance arose.
    pub origin_year: i32,
    /// Its kind.
    pub kind: CarryKind,
    /// The amount still pending (> 0, EUR cents).
    pub amount: Decimal,
}

/// The last Modelo 721 the taxpayer filed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modelo721Filed {
    /// The fiscal year it declared.
    pub year: i32,
    /// Its total (EUR).
    pub total: Decimal,
}

/// The settings the IRPF computation reads (`irpf.md` §1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IrpfSettings {
    /// Fiscal time zone (used for the default `start_year`).
    pub fiscal_timezone: FiscalTimezone,
    /// First year whose carry-forward state is built; `None` = year of the earliest row.
    pub start_year: Option<i32>,
    /// Negative balances pending on 1 January of `start_year`.
    pub declared_carry_forwards: Vec<DeclaredCarryForward>,
    /// `(year, amount)` absorbed by other general income in 2013 or 2014 (§5.5).
    pub general_absorption: Vec<(i32, Decimal)>,
    /// Produce the art. 33.5 re-acquisition list (§9).
    pub art_33_5_warnings: bool,
    /// Received assets that make a swap clave `O` (read by the engine).
    pub non_currency_virtual_assets: BTreeSet<Asset>,
    /// The last Modelo 721 filed (§10).
    pub modelo_721_last_filed: Option<Modelo721Filed>,
}

/// Settings after validation against a resolved `start_year`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidatedSettings {
    /// The resolved start year.
    pub start_year: i32,
    /// Declared items still alive on 1 January of `start_year`, in input order.
    pub declared: Vec<DeclaredCarryForward>,
    /// Whether a declared item had expired and was ignored.
    pub declared_expired: bool,
    /// Absorption of 2013.
    pub absorption_2013: Option<Decimal>,
    /// Absorption of 2014.
    pub absorption_2014: Option<Decimal>,
}

impl ValidatedSettings {
    /// The general absorption set for `year`, if any.
    pub fn absorption(&self, year: i32) -> Option<Decimal> {
        match year {
            2013 => self.absorption_2013,
            2014 => self.absorption_2014,
            _ => None,
        }
    }
}

fn invalid(key: &str, reason: String) -> DomainError {
    DomainError::InvalidSetting {
        key: key.to_owned(),
        reason,
    }
}

/// Validates the settings against `start_year` (`irpf.md` §1, "Validation").
pub fn validate(settings: &IrpfSettings, start_year: i32) -> DomainResult<ValidatedSettings> {
    let mut declared = Vec::new();
    let mut declared_expired = false;
    for item in &settings.declared_carry_forwards {
        if item.amount <= Decimal::ZERO {
            return Err(invalid(
                "irpf.declared_carry_forwards",
                format!("amount of the {} item must be positive", item.origin_year),
            ));
        }
        if item.amount.normalize().scale() > 2 {
            return Err(invalid(
                "irpf.declared_carry_forwards",
                format!("amount of the {} item must be in cents", item.origin_year),
            ));
        }
        if item.origin_year >= start_year {
            return Err(invalid(
                "irpf.declared_carry_forwards",
                format!(
                    "origin year {} is not before start year {start_year}",
                    item.origin_year
                ),
            ));
        }
        if item.origin_year < start_year.saturating_sub(4) {
            declared_expired = true;
            continue;
        }
        declared.push(item.clone());
    }
    let mut absorption_2013 = None;
    let mut absorption_2014 = None;
    for (year, amount) in &settings.general_absorption {
        if *amount < Decimal::ZERO || amount.normalize().scale() > 2 {
            return Err(invalid(
                "irpf.general_absorption",
                format!("amount for {year} must be a non-negative cent amount"),
            ));
        }
        let slot = match year {
            2013 => &mut absorption_2013,
            2014 => &mut absorption_2014,
            _ => {
                return Err(invalid(
                    "irpf.general_absorption",
                    format!("key {year} is not 2013 or 2014"),
                ));
            }
        };
        if slot.is_some() {
            return Err(invalid(
                "irpf.general_absorption",
                format!("key {year} is given twice"),
            ));
        }
        *slot = Some(*amount);
    }
    if let Some(filed) = &settings.modelo_721_last_filed
        && (filed.total < Decimal::ZERO || filed.year < 2023)
    {
        return Err(invalid(
            "modelo_721.last_filed",
            format!(
                "year {} must be 2023 or later with a non-negative total",
                filed.year
            ),
        ));
    }
    Ok(ValidatedSettings {
        start_year,
        declared,
        declared_expired,
        absorption_2013,
        absorption_2014,
    })
}

#[cfg(test)]
mod tests;
