//! The correction commands: `settings`, `accounts`, `edit`, `link` and `unlink`. Each validates
//! its input with the rule it would break named in the message, then writes through
//! `LedgerWrite` in one store transaction. The imported rows themselves are never changed
//! (`domain.md` §6).

use crate::output::{out, outln};
use std::path::Path;

use anyhow::Result;
use clap::{Args, Subcommand};
use core_domain::Asset;
use core_domain::Instant;
use core_domain::overrides::{FeeEdit, RowOverride, ValueEdit};
use ledger_sqlite::SqliteLedger;
use rust_decimal::Decimal;
use use_cases::commands::{self, LinkTarget};
use use_cases::ports::{LedgerRead, SettingKey};
use use_cases::queries::ReadUseCases as _;
use use_cases::{PortError, UseCaseError};

use crate::i18n::t;
use crate::session::fail;
use crate::table::{Align, Table};
use crate::{Outcome, UsageError};

fn usage<T>(code: &'static str, reason: impl Into<String>) -> Result<T> {
    Err(UsageError {
        code,
        reason: reason.into(),
    }
    .into())
}

fn store_error(error: PortError) -> anyhow::Error {
    crate::session::Failure::new(match error {
        PortError::Invalid { what, reason } => format!("invalid {what}: {reason}"),
        PortError::Conflict { reason } => reason,
        PortError::NotFound { what } => format!("{what} not found"),
        other => format!("the ledger could not be written: {other}"),
    })
    .into()
}

// ---------------------------------------------------------------------------------------------
// settings
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Args)]
pub(crate) struct SettingsArgs {
    #[command(subcommand)]
    action: Option<SettingsAction>,
}

#[derive(Debug, Subcommand)]
enum SettingsAction {
    /// Every setting with its value and default (the default action).
    #[command(after_help = "Example:\n  cartera settings list\n  cartera --json settings")]
    List,
    /// One setting's value (JSON).
    #[command(after_help = "Example:\n  cartera settings get irpf.start_year")]
    Get {
        /// fiscal_timezone, display_currency, irpf.start_year, …
        #[arg(value_name = "KEY")]
        key: String,
    },
    /// Validate and store a value (JSON; a bare word is taken as a string).
    #[command(
        after_help = "Example:\n  cartera settings set fiscal_timezone Atlantic/Canary\n  \
                            cartera settings set irpf.declared_carry_forwards \
                            '[{\"origin_year\":2021,\"kind\":\"SAVINGS_GP\",\"amount\":\"350.00\"}]'"
    )]
    Set {
        /// The setting.
        #[arg(value_name = "KEY")]
        key: String,
        /// The value.
        #[arg(value_name = "VALUE", allow_hyphen_values = true)]
        value: String,
    },
    /// Remove a stored value (its default applies again).
    #[command(after_help = "Example:\n  cartera settings unset fiscal_timezone")]
    Unset {
        /// The setting.
        #[arg(value_name = "KEY")]
        key: String,
    },
}

fn setting_key(text: &str) -> Result<SettingKey> {
    SettingKey::parse(text).map_or_else(
        || {
            usage(
                "unknown-setting",
                format!(
                    "\"{text}\" is not a setting; settings: {}",
                    SettingKey::ALL
                        .iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        },
        Ok,
    )
}

/// The JSON text of a value as typed: JSON when it parses, else a JSON string (so that
/// `settings set fiscal_timezone Atlantic/Canary` needs no quotes).
fn as_json(text: &str) -> String {
    if serde_json::from_str::<serde_json::Value>(text).is_ok() {
        text.to_owned()
    } else {
        serde_json::Value::String(text.to_owned()).to_string()
    }
}

fn settings_list(ledger: Option<&Path>) -> Result<shared_types::dto::SettingsList> {
    let session = crate::reports::Session::open(ledger)?;
    session
        .queries
        .list_settings()
        .or_else(|e| fail(e.to_string()))
}

/// A default of `settings list` in the output's language (the JSON defaults stay as typed).
fn default_shown(default: &str) -> String {
    match default {
        "year of the earliest row" => t(default, "año de la fila más antigua"),
        "unset" => t(default, "sin definir"),
        "LC_ALL/LANG, else \"en\"" => t(default, "LC_ALL/LANG, si no \"en\""),
        other => other,
    }
    .to_owned()
}

pub(crate) fn run_settings(
    ledger: Option<&Path>,
    json: bool,
    args: &SettingsArgs,
) -> Result<Outcome> {
    match args.action.as_ref().unwrap_or(&SettingsAction::List) {
        SettingsAction::List => {
            let list = settings_list(ledger)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&list)?);
                return Ok(Outcome::Success);
            }
            let mut table = Table::new(&[
                (t("setting", "ajuste"), Align::Left),
                (t("value", "valor"), Align::Left),
                (t("default", "por defecto"), Align::Left),
            ]);
            // Values and JSON defaults are the text `settings set` takes: they stay as typed.
            for entry in &list.settings {
                table.row([
                    entry.key.clone(),
                    entry
                        .value
                        .clone()
                        .unwrap_or_else(|| t("(unset)", "(sin definir)").to_owned()),
                    default_shown(&entry.default),
                ]);
            }
            out!("{}", table.render());
        }
        SettingsAction::Get { key } => {
            let key = setting_key(key)?;
            let list = settings_list(ledger)?;
            let entry = list.settings.iter().find(|e| e.key == key.as_str());
            let value = entry.and_then(|e| e.value.clone());
            if json {
                let document = serde_json::json!({
                    "key": key.as_str(),
                    "value": value.as_deref().and_then(|v| serde_json::from_str::<serde_json::Value>(v).ok()),
                    "default": entry.map(|e| e.default.clone()),
                });
                outln!("{}", serde_json::to_string_pretty(&document)?);
            } else if let Some(value) = value {
                outln!("{value}");
            } else {
                outln!(
                    "(unset; default: {})",
                    entry.map_or("-", |e| e.default.as_str())
                );
            }
        }
        SettingsAction::Set { key, value } => {
            let key = setting_key(key)?;
            let mut store = crate::ledger_path::open_for_write(ledger)?;
            let canonical = match commands::set_setting(&mut *store, key, &as_json(value)) {
                Ok(text) => text,
                Err(error) => {
                    return fail(format!(
                        "{error}; `cartera settings` lists every setting with its value"
                    ));
                }
            };
            if json {
                outln!(
                    "{}",
                    serde_json::json!({ "action": "set", "key": key.as_str(), "value": serde_json::from_str::<serde_json::Value>(&canonical).ok() })
                );
            } else {
                outln!("{} = {canonical}", key.as_str());
            }
        }
        SettingsAction::Unset { key } => {
            let key = setting_key(key)?;
            let mut store = crate::ledger_path::open_existing_for_write(ledger)?;
            let removed =
                commands::unset_setting(&mut *store, key).or_else(|e| fail(e.to_string()))?;
            if json {
                outln!(
                    "{}",
                    serde_json::json!({ "action": "unset", "key": key.as_str(), "wasSet": removed })
                );
            } else if removed {
                outln!("{} unset: its default applies", key.as_str());
            } else {
                outln!("{} was not set", key.as_str());
            }
        }
    }
    Ok(Outcome::Success)
}

// ---------------------------------------------------------------------------------------------
// accounts
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Args)]
pub(crate) struct AccountsArgs {
    #[command(subcommand)]
    action: Option<AccountsAction>,
}

#[derive(Debug, Subcommand)]
enum AccountsAction {
    /// The account tree with custody kind, country and row counts (the default action).
    #[command(after_help = "Example:\n  cartera accounts list\n  cartera --json accounts")]
    List,
    /// Set a top-level account's custody kind and country (used by Modelo 721).
    #[command(
        after_help = "Example:\n  cartera accounts set Kraken --kind FOREIGN_PROVIDER --country US\n  \
                            cartera accounts set Ledger --kind SELF_CUSTODY"
    )]
    Set {
        /// The account name (case-insensitive).
        #[arg(value_name = "NAME")]
        name: String,
        /// FOREIGN_PROVIDER, SPANISH_PROVIDER, SELF_CUSTODY or UNCLASSIFIED.
        #[arg(long, value_name = "KIND")]
        kind: String,
        /// ISO 3166-1 alpha-2 country code (ES, US, MT, …).
        #[arg(long, value_name = "CC")]
        country: Option<String>,
    },
}

pub(crate) fn run_accounts(
    ledger: Option<&Path>,
    json: bool,
    args: &AccountsArgs,
) -> Result<Outcome> {
    match args.action.as_ref().unwrap_or(&AccountsAction::List) {
        AccountsAction::List => {
            let session = crate::reports::Session::open(ledger)?;
            let list = session
                .queries
                .list_accounts()
                .or_else(|e| fail(e.to_string()))?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&list)?);
                return Ok(Outcome::Success);
            }
            if list.accounts.is_empty() {
                return fail(t(
                    "the ledger has no accounts yet: import exports with `cartera import FILE…`",
                    "el libro aún no tiene cuentas: importa exportaciones con `cartera import \
                     FILE…`",
                ));
            }
            let mut table = Table::new(&[
                (t("account", "cuenta"), Align::Left),
                (t("custody", "custodia"), Align::Left),
                (t("country", "país"), Align::Left),
                (t("spot rows", "filas de contado"), Align::Right),
                (t("futures rows", "filas de futuros"), Align::Right),
            ]);
            let mut stack: Vec<(usize, &shared_types::dto::AccountNode)> =
                list.accounts.iter().rev().map(|a| (0, a)).collect();
            while let Some((depth, node)) = stack.pop() {
                table.row([
                    format!("{}{}", "  ".repeat(depth), node.name),
                    node.custody_kind.clone(),
                    node.country.clone().unwrap_or_else(|| "-".to_owned()),
                    node.spot_row_count.to_string(),
                    node.futures_row_count.to_string(),
                ]);
                stack.extend(node.children.iter().rev().map(|c| (depth + 1, c)));
            }
            out!("{}", table.render());
        }
        AccountsAction::Set {
            name,
            kind,
            country,
        } => accounts_set(ledger, json, name, kind, country.as_deref())?,
    }
    Ok(Outcome::Success)
}

fn accounts_set(
    ledger: Option<&Path>,
    json: bool,
    name: &str,
    kind: &str,
    country: Option<&str>,
) -> Result<()> {
    let mut store = crate::ledger_path::open_existing_for_write(ledger)?;
    let accounts = store.accounts().map_err(store_error)?;
    let Some(account) = accounts.iter().find(|a| {
        !core_domain::ledger::is_reserved_account_name(&a.name)
            && a.name.eq_ignore_ascii_case(name.trim())
    }) else {
        let names: Vec<&str> = accounts
            .iter()
            .filter(|a| {
                !core_domain::ledger::is_reserved_account_name(&a.name) && a.parent_id.is_none()
            })
            .map(|a| a.name.as_str())
            .collect();
        return fail(format!(
            "no account is named \"{name}\"; accounts: {}",
            names.join(", ")
        ));
    };
    if let Some(parent) = account
        .parent_id
        .and_then(|p| accounts.iter().find(|a| a.id == p))
    {
        return fail(format!(
            "{} is a sub-account of {}: custody kind and country are set on the top-level \
                     account and inherited; run `cartera accounts set {} …`",
            account.name, parent.name, parent.name
        ));
    }
    commands::set_account_custody(&mut *store, &account.name, kind, country)
        .or_else(|error| fail(format!("accounts set refused: {error}")))?;
    let kind = kind.trim().to_ascii_uppercase();
    let country = country.map(|c| c.trim().to_ascii_uppercase());
    if json {
        outln!(
            "{}",
            serde_json::json!({ "action": "set", "account": account.name, "custodyKind": kind, "country": country })
        );
    } else {
        outln!(
            "{}: custody {kind}, country {}",
            account.name,
            country.as_deref().unwrap_or("-")
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// edit
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, Args)]
pub(crate) struct EditArgs {
    /// The row key (see `cartera tx --keys`).
    #[arg(value_name = "ROW")]
    row: String,
    /// Set the transaction type (BUY, SELL, SWAP, …); resolves an unknown row.
    #[arg(long = "type", value_name = "T")]
    tx_type: Option<String>,
    /// Set the quantity received (> 0).
    #[arg(long, value_name = "Q")]
    in_amount: Option<String>,
    /// Set the quantity given (> 0).
    #[arg(long, value_name = "Q")]
    out_amount: Option<String>,
    /// Authoritative fiat value of the operation (needs --currency).
    #[arg(long, value_name = "V", conflicts_with = "price")]
    value: Option<String>,
    /// Authoritative unit price of the principal asset (needs --currency).
    #[arg(long, value_name = "P")]
    price: Option<String>,
    /// Fiat currency of --value or --price (EUR, USD, …).
    #[arg(long, value_name = "C")]
    currency: Option<String>,
    /// Set the fee: quantity and asset.
    #[arg(long, num_args = 2, value_names = ["Q", "ASSET"], conflicts_with = "no_fee")]
    fee: Option<Vec<String>>,
    /// Remove the fee.
    #[arg(long)]
    no_fee: bool,
    /// Set the instant (YYYY-MM-DDTHH:MM:SSZ, UTC); the row keeps its sequence.
    #[arg(long, value_name = "T")]
    timestamp: Option<String>,
    /// Keep the row in the ledger but leave it out of every computation (a duplicate).
    #[arg(long)]
    exclude: bool,
    /// A note kept with the edit.
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    /// Remove the row's edits: the imported row applies again.
    #[arg(long, conflicts_with_all = ["tx_type", "in_amount", "out_amount", "value", "price", "currency", "fee", "no_fee", "timestamp", "exclude", "note"])]
    restore: bool,
}

fn decimal(flag: &str, text: &str) -> Result<Decimal> {
    core_domain::num::parse_decimal(flag, text, false).or_else(|_| {
        usage(
            "bad-number",
            format!("{flag} \"{text}\" is not a plain non-negative decimal (1234.56)"),
        )
    })
}

fn fiat_currency(text: &str) -> Result<Asset> {
    let upper = text.to_ascii_uppercase();
    if !shared_types::is_fiat_code(&upper) {
        return usage(
            "not-fiat",
            format!(
                "--currency \"{text}\" is not a fiat code: an edited value or price is in fiat (EUR, USD, …)"
            ),
        );
    }
    Asset::new(&upper).or_else(|_| usage("not-fiat", format!("\"{text}\" is not a currency code")))
}

/// The override the flags describe, merged over the row's current override (edits accumulate).
fn edit_from_args(args: &EditArgs, current: Option<RowOverride>) -> Result<RowOverride> {
    let mut edit = current.unwrap_or_else(|| RowOverride {
        row_key: args.row.clone(),
        ..RowOverride::default()
    });
    if let Some(t) = &args.tx_type {
        edit.tx_type = Some(crate::reports::parse_tx_type(t)?);
    }
    if let Some(q) = &args.in_amount {
        edit.in_quantity = Some(decimal("--in-amount", q)?);
    }
    if let Some(q) = &args.out_amount {
        edit.out_quantity = Some(decimal("--out-amount", q)?);
    }
    if (args.value.is_some() || args.price.is_some()) != args.currency.is_some() {
        return usage(
            "currency-required",
            "--value and --price go with --currency (and --currency with one of them)",
        );
    }
    if let Some(currency) = &args.currency {
        let currency = fiat_currency(currency)?;
        if let Some(v) = &args.value {
            edit.edited_value = ValueEdit::Set {
                amount: decimal("--value", v)?,
                currency,
            };
        }
        if let Some(p) = &args.price {
            edit.edited_price = ValueEdit::Set {
                amount: decimal("--price", p)?,
                currency,
            };
        }
    }
    if let Some(fee) = &args.fee {
        let (Some(q), Some(asset)) = (fee.first(), fee.get(1)) else {
            return usage(
                "bad-fee",
                "--fee takes a quantity and an asset: --fee 0.0001 BTC",
            );
        };
        let asset = Asset::new(&asset.to_ascii_uppercase()).or_else(|_| {
            usage(
                "bad-fee",
                format!("--fee asset \"{asset}\" is not a symbol"),
            )
        })?;
        edit.fee = FeeEdit::Charged {
            asset,
            quantity: decimal("--fee", q)?,
        };
    }
    if args.no_fee {
        edit.fee = FeeEdit::None;
    }
    if let Some(t) = &args.timestamp {
        edit.instant = Some(Instant::parse(t).or_else(|_| {
            usage(
                "bad-timestamp",
                format!(
                    "--timestamp \"{t}\" is not an instant: write it as 2024-03-12T10:30:00Z (UTC)"
                ),
            )
        })?);
    }
    if args.exclude {
        edit.excluded = true;
    }
    Ok(edit)
}

/// The full row key of `given`: the key itself, else the one stored key it starts (at least 6
/// characters, like a short commit hash).
fn resolve_row(store: &SqliteLedger, given: &str) -> Result<String> {
    let mut keys: Vec<String> = store
        .spot_rows()
        .map_err(store_error)?
        .into_iter()
        .map(|r| r.row_key.to_string())
        .collect();
    keys.extend(
        store
            .futures_rows()
            .map_err(store_error)?
            .into_iter()
            .map(|r| r.row_key.to_string()),
    );
    if keys.iter().any(|k| k == given) {
        return Ok(given.to_owned());
    }
    if given.chars().count() >= 6 {
        let matches: Vec<&String> = keys.iter().filter(|k| k.starts_with(given)).collect();
        match matches.as_slice() {
            [one] => return Ok((*one).clone()),
            [] => {}
            several => {
                return fail(format!(
                    "{} rows have keys starting with \"{given}\": give more characters",
                    several.len()
                ));
            }
        }
    }
    no_row(given)
}

fn no_row<T>(row: &str) -> Result<T> {
    fail(format!(
        "no row has the key \"{row}\": list the keys with `cartera tx --keys` (filters: --symbol, \
         --from, --to, --type)"
    ))
}

pub(crate) fn run_edit(ledger: Option<&Path>, json: bool, args: &EditArgs) -> Result<Outcome> {
    let mut store = crate::ledger_path::open_existing_for_write(ledger)?;
    let row = resolve_row(&store, &args.row)?;
    if args.restore {
        match commands::restore_override(&mut *store, &row) {
            Ok(()) => {}
            Err(UseCaseError::NotFound { .. }) => {
                return fail(format!("row {row} has no edit to restore"));
            }
            Err(error) => return fail(rule_message("edit", &error)),
        }
        report_write(json, "restored", &row)?;
        return Ok(Outcome::Success);
    }
    let args = &EditArgs {
        row,
        ..args.clone()
    };
    let nothing = args.tx_type.is_none()
        && args.in_amount.is_none()
        && args.out_amount.is_none()
        && args.value.is_none()
        && args.price.is_none()
        && args.fee.is_none()
        && !args.no_fee
        && args.timestamp.is_none()
        && !args.exclude
        && args.note.is_none();
    if nothing {
        return usage(
            "empty-edit",
            "an edit must change something: give --type, --in-amount, \
             --out-amount, --value, --price, --fee, --no-fee, --timestamp, --exclude or --note; \
             or --restore",
        );
    }
    let current = store
        .overrides()
        .map_err(store_error)?
        .into_iter()
        .find(|o| o.row_key == args.row);
    let edit = edit_from_args(args, current)?;
    let note = match &args.note {
        Some(note) => Some(note.clone()),
        None => store
            .override_notes()
            .map_err(store_error)?
            .into_iter()
            .find(|(key, _)| *key == args.row)
            .map(|(_, note)| note),
    };
    commands::record_override(&mut *store, &edit, note.as_deref())
        .or_else(|error| fail(rule_message("edit", &error)))?;
    report_write(json, "edited", &args.row)?;
    Ok(Outcome::Success)
}

/// A refused correction, with the rule it breaks.
fn rule_message(command: &str, error: &UseCaseError) -> String {
    let rule = if command == "edit" {
        "rule: an edit must change something, quantities > 0, currencies fiat, and the edited \
         row must keep the shape of its type"
    } else {
        "rule: a link joins a TRANSFER_OUT to a TRANSFER_IN of the same asset, each \
         leg once; a counterparty is another account or the leg's own wallet"
    };
    match error {
        UseCaseError::Domain(core_domain::DomainError::InvalidOverride { row_key, reason }) => {
            format!("{command} of row {row_key} refused: {reason} ({rule})")
        }
        UseCaseError::NotFound { what } => format!("{command} refused: {what} not found"),
        UseCaseError::InvalidRequest { field, reason } => {
            format!("{command} refused: {field}: {reason}")
        }
        other => format!("{command} refused: {other}"),
    }
}

fn report_write(json: bool, action: &str, row: &str) -> Result<(), crate::output::OutputError> {
    if json {
        outln!("{}", serde_json::json!({ "action": action, "rowKey": row }));
    } else {
        outln!("{action} {row}");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// link, unlink
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Args)]
pub(crate) struct LinkArgs {
    /// The outgoing transfer leg (TRANSFER_OUT or WITHDRAWAL of crypto).
    #[arg(value_name = "OUT_ROW")]
    out_row: String,
    /// The incoming leg it arrived as.
    #[arg(
        value_name = "IN_ROW",
        required_unless_present = "to",
        conflicts_with = "to"
    )]
    in_row: Option<String>,
    /// The account the coins went to, which has no row for them (or `ownwallet-<ASSET>`).
    #[arg(long, value_name = "ACCOUNT")]
    to: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct UnlinkArgs {
    /// A row key named by a link (either leg).
    #[arg(value_name = "ROW")]
    row: String,
}

pub(crate) fn run_link(ledger: Option<&Path>, json: bool, args: &LinkArgs) -> Result<Outcome> {
    let mut store = crate::ledger_path::open_existing_for_write(ledger)?;
    let out_row = resolve_row(&store, &args.out_row)?;
    let in_row = match &args.in_row {
        Some(row) => Some(resolve_row(&store, row)?),
        None => None,
    };
    let args = &LinkArgs {
        out_row,
        in_row,
        to: args.to.clone(),
    };
    let target = match (&args.in_row, &args.to) {
        (Some(in_row), _) => LinkTarget::InRow(in_row.clone()),
        (None, to) => LinkTarget::Account(to.clone().unwrap_or_default()),
    };
    commands::link(&mut *store, &args.out_row, &target)
        .or_else(|error| fail(rule_message("link", &error)))?;
    let target = args
        .in_row
        .clone()
        .or_else(|| args.to.clone())
        .unwrap_or_default();
    if json {
        outln!(
            "{}",
            serde_json::json!({ "action": "linked", "rowKey": args.out_row, "to": target })
        );
    } else {
        outln!("linked {} -> {target}", args.out_row);
    }
    Ok(Outcome::Success)
}

pub(crate) fn run_unlink(ledger: Option<&Path>, json: bool, args: &UnlinkArgs) -> Result<Outcome> {
    let mut store = crate::ledger_path::open_existing_for_write(ledger)?;
    let row = resolve_row(&store, &args.row)?;
    let removed = match commands::unlink(&mut *store, &row) {
        Ok(removed) => removed,
        Err(UseCaseError::NotFound { .. }) => {
            return fail(format!(
                "no custody link names row {row}: nothing to unlink"
            ));
        }
        Err(error) => return fail(rule_message("unlink", &error)),
    };
    let args = &UnlinkArgs { row };
    if json {
        outln!(
            "{}",
            serde_json::json!({ "action": "unlinked", "rowKey": args.row, "links": removed })
        );
    } else {
        outln!("unlinked {} ({removed} link(s) removed)", args.row);
    }
    Ok(Outcome::Success)
}
