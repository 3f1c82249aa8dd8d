//! The write-side use cases of the CLI's correction commands: settings, account custody,
//! row overrides and custody links. Each validates its input against the stored ledger and
//! names the rule a rejected value breaks; the store write is one transaction.

use core_domain::effective::{effective_row, validate_futures_override, validate_override};
use core_domain::engine::EffectiveRow;
use core_domain::ledger::{OWN_WALLET_PREFIX, TxType};
use core_domain::overrides::{Counterparty, CustodyLink, RowOverride};
use core_domain::{Account, AccountId, SpotRow};
use shared_types::{CustodyKind, SpotTxType};

use crate::error::{UseCaseError, UseCaseResult};
use crate::ports::{LedgerRead, LedgerWrite, SettingKey, SettingsStore};
use crate::queries::settings::{SettingValue, canonical_text, parse_value};

fn invalid(field: &str, reason: impl Into<String>) -> UseCaseError {
    UseCaseError::InvalidRequest {
        field: field.to_owned(),
        reason: reason.into(),
    }
}

/// Parses a setting key as users write it (the library facade's `set_setting`).
pub fn parse_setting_key(text: &str) -> UseCaseResult<SettingKey> {
    SettingKey::parse(text).ok_or_else(|| {
        let keys: Vec<&str> = SettingKey::ALL.iter().map(|k| k.as_str()).collect();
        invalid(
            "key",
            format!("{text:?} is not a setting; known keys: {}", keys.join(", ")),
        )
    })
}

fn setting_invalid(key: SettingKey, reason: String) -> UseCaseError {
    UseCaseError::InvalidSetting {
        key: key.as_str().to_owned(),
        reason,
    }
}

/// Validates `value` (JSON text) for `key`, checks it against the other stored settings
/// (`irpf.md` §1: a declared carry-forward must originate before `irpf.start_year`), stores
/// its canonical form and returns it.
pub fn set_setting<S>(store: &mut S, key: SettingKey, value: &str) -> UseCaseResult<String>
where
    S: LedgerWrite + SettingsStore + ?Sized,
{
    let canonical = canonical_text(key, value)?;
    let stored = |k: SettingKey| -> UseCaseResult<Option<SettingValue>> {
        store.setting(k)?.map(|t| parse_value(k, &t)).transpose()
    };
    match parse_value(key, &canonical)? {
        SettingValue::DeclaredCarryForwards(items) => {
            if let Some(SettingValue::StartYear(start)) = stored(SettingKey::IrpfStartYear)? {
                if let Some(bad) = items.iter().find(|d| d.origin_year >= start) {
                    return Err(setting_invalid(
                        key,
                        format!(
                            "origin_year {} is not before irpf.start_year {start} (a declared item comes from a return filed before the ledger)",
                            bad.origin_year
                        ),
                    ));
                }
            }
        }
        SettingValue::StartYear(start) => {
            if let Some(SettingValue::DeclaredCarryForwards(items)) =
                stored(SettingKey::IrpfDeclaredCarryForwards)?
            {
                if let Some(bad) = items.iter().find(|d| d.origin_year >= start) {
                    return Err(setting_invalid(
                        key,
                        format!(
                            "{start} is not after the declared carry-forward of {} (declared items must originate before start_year)",
                            bad.origin_year
                        ),
                    ));
                }
            }
        }
        _ => {}
    }
    store.set_setting(key, &canonical)?;
    Ok(canonical)
}

/// Removes a setting; `false` when it was not set.
pub fn unset_setting<S: LedgerWrite + ?Sized>(
    store: &mut S,
    key: SettingKey,
) -> UseCaseResult<bool> {
    Ok(store.unset_setting(key)?)
}

fn find_account<'a>(accounts: &'a [Account], name: &str) -> UseCaseResult<&'a Account> {
    let needle = name.trim().to_lowercase();
    accounts
        .iter()
        .find(|a| a.name.to_lowercase() == needle)
        .ok_or_else(|| UseCaseError::NotFound {
            what: format!("account {name:?}"),
        })
}

/// Sets an account's custody kind and country (`domain.md` §3, `irpf.md` §10). `kind` is a
/// `CustodyKind` name; `country` an ISO 3166-1 alpha-2 code (upper-cased).
pub fn set_account_custody<S>(
    store: &mut S,
    account_name: &str,
    kind: &str,
    country: Option<&str>,
) -> UseCaseResult<()>
where
    S: LedgerRead + LedgerWrite + ?Sized,
{
    let kind = CustodyKind::parse(&kind.trim().to_ascii_uppercase()).ok_or_else(|| {
        let names: Vec<&str> = CustodyKind::ALL.iter().map(|k| k.as_str()).collect();
        invalid(
            "kind",
            format!("{kind:?} is not one of {}", names.join(", ")),
        )
    })?;
    let country = country
        .map(|c| {
            let upper = c.trim().to_ascii_uppercase();
            if upper.len() == 2 && upper.bytes().all(|b| b.is_ascii_uppercase()) {
                Ok(upper)
            } else {
                Err(invalid(
                    "country",
                    format!("{c:?} is not an ISO 3166-1 alpha-2 code"),
                ))
            }
        })
        .transpose()?;
    if kind == CustodyKind::SpanishProvider && country.as_deref().is_some_and(|c| c != "ES") {
        return Err(invalid(
            "country",
            "a SPANISH_PROVIDER is located in Spain (country ES)",
        ));
    }
    let accounts = store.accounts()?;
    let account = find_account(&accounts, account_name)?;
    if account.name.starts_with(OWN_WALLET_PREFIX) {
        return Err(invalid(
            "account",
            "synthetic own-wallet accounts have no custody settings",
        ));
    }
    store.set_account_custody(account.id, kind, country.as_deref())?;
    Ok(())
}

/// Records (or replaces) the override of one stored row, validated against it
/// (`domain.md` §6.1). A row key the ledger does not hold is `NotFound`.
pub fn record_override<S>(
    store: &mut S,
    edit: &RowOverride,
    note: Option<&str>,
) -> UseCaseResult<()>
where
    S: LedgerRead + LedgerWrite + ?Sized,
{
    let spot = store.spot_rows()?;
    if let Some(row) = spot.iter().find(|r| r.row_key == *edit.row_key) {
        validate_override(row, edit)?;
    } else {
        let futures = store.futures_rows()?;
        let row = futures
            .iter()
            .find(|r| r.row_key == *edit.row_key)
            .ok_or_else(|| UseCaseError::NotFound {
                what: format!("row {}", edit.row_key),
            })?;
        validate_futures_override(row, edit)?;
    }
    store.set_override(edit, note)?;
    Ok(())
}

/// Removes a row's override (`cartera edit ROW --restore`); `NotFound` when it had none.
pub fn restore_override<S: LedgerWrite + ?Sized>(
    store: &mut S,
    row_key: &str,
) -> UseCaseResult<()> {
    if store.restore_override(row_key)? {
        Ok(())
    } else {
        Err(UseCaseError::NotFound {
            what: format!("override of row {row_key}"),
        })
    }
}

/// The effective form of a stored spot row (its override applied).
fn effective(
    rows: &[SpotRow],
    overrides: &[RowOverride],
    key: &str,
) -> UseCaseResult<EffectiveRow> {
    let row = rows
        .iter()
        .find(|r| r.row_key == key)
        .ok_or_else(|| UseCaseError::NotFound {
            what: format!("row {key}"),
        })?;
    let edit = overrides.iter().find(|o| o.row_key == key);
    effective_row(row, edit).ok_or_else(|| invalid_link(key, "the row is excluded by an override"))
}

fn invalid_link(row_key: &str, reason: &str) -> UseCaseError {
    UseCaseError::Domain(core_domain::DomainError::InvalidOverride {
        row_key: row_key.to_owned(),
        reason: reason.to_owned(),
    })
}

fn is_type(row: &EffectiveRow, t: SpotTxType) -> bool {
    row.row.tx_type == TxType::Spot(t)
}

fn linked_keys(links: &[CustodyLink]) -> Vec<&str> {
    links
        .iter()
        .flat_map(|l| match l {
            CustodyLink::Link {
                out_row_key,
                in_row_key,
            } => vec![out_row_key.as_str(), in_row_key.as_str()],
            CustodyLink::Counterparty { row_key, .. } => vec![row_key.as_str()],
        })
        .collect()
}

/// What a `cartera link` names as the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkTarget {
    /// The incoming leg's row key.
    InRow(String),
    /// An account name (a real account, or `ownwallet-<ASSET>` of the leg's asset).
    Account(String),
}

/// Records a custody link validated as `domain.md` §6.3: both legs exist and are not linked
/// yet, the out leg is a TRANSFER_OUT and the in leg a TRANSFER_IN of the same asset; a
/// counterparty is a real account or the own wallet of the leg's asset.
pub fn link<S>(store: &mut S, row_key: &str, target: &LinkTarget) -> UseCaseResult<CustodyLink>
where
    S: LedgerRead + LedgerWrite + ?Sized,
{
    let rows = store.spot_rows()?;
    let overrides = store.overrides()?;
    let links = store.custody_links()?;
    let linked = linked_keys(&links);
    let leg = effective(&rows, &overrides, row_key)?;
    if linked.contains(&row_key) {
        return Err(invalid_link(
            row_key,
            "the leg is already linked; unlink it first",
        ));
    }
    let leg_asset = |r: &EffectiveRow| r.row.outflow.or(r.row.inflow).map(|a| a.asset);
    let new = match target {
        LinkTarget::InRow(in_key) => {
            let other = effective(&rows, &overrides, in_key)?;
            if linked.contains(&in_key.as_str()) {
                return Err(invalid_link(
                    in_key,
                    "the leg is already linked; unlink it first",
                ));
            }
            if !is_type(&leg, SpotTxType::TransferOut) {
                return Err(invalid_link(
                    row_key,
                    "the first row must be a TRANSFER_OUT",
                ));
            }
            if !is_type(&other, SpotTxType::TransferIn) {
                return Err(invalid_link(in_key, "the second row must be a TRANSFER_IN"));
            }
            if leg_asset(&leg) != leg_asset(&other) {
                return Err(invalid_link(row_key, "the two legs move different assets"));
            }
            CustodyLink::Link {
                out_row_key: row_key.to_owned(),
                in_row_key: in_key.clone(),
            }
        }
        LinkTarget::Account(name) => {
            if !is_type(&leg, SpotTxType::TransferOut) && !is_type(&leg, SpotTxType::TransferIn) {
                return Err(invalid_link(
                    row_key,
                    "only a TRANSFER_OUT or TRANSFER_IN leg names a counterparty",
                ));
            }
            let counterparty = if name.to_lowercase().starts_with(OWN_WALLET_PREFIX) {
                let expected = leg_asset(&leg).map(core_domain::custody::own_wallet_name);
                if expected.as_deref().map(str::to_lowercase) != Some(name.to_lowercase()) {
                    return Err(invalid_link(
                        row_key,
                        &format!("{name} is not the own wallet of the leg's asset"),
                    ));
                }
                Counterparty::OwnWallet
            } else {
                let accounts = store.accounts()?;
                let account: AccountId = find_account(&accounts, name)?.id;
                if account == leg.row.account_id {
                    return Err(invalid_link(
                        row_key,
                        "the counterparty is the leg's own account",
                    ));
                }
                Counterparty::Account(account)
            };
            CustodyLink::Counterparty {
                row_key: row_key.to_owned(),
                counterparty,
            }
        }
    };
    store.link(&new)?;
    Ok(new)
}

/// Removes every custody link naming `row_key`; `NotFound` when none did.
pub fn unlink<S: LedgerWrite + ?Sized>(store: &mut S, row_key: &str) -> UseCaseResult<u64> {
    match store.unlink(row_key)? {
        0 => Err(UseCaseError::NotFound {
            what: format!("custody link of row {row_key}"),
        }),
        n => Ok(n),
    }
}

#[cfg(test)]
mod tests;
