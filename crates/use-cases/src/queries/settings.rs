//! Settings: JSON text values in the store, parsed and validated here (`domain.md` §0.1,
//! `irpf.md` §1). A value that breaks its rule is [`UseCaseError::InvalidSetting`] naming the
//! rule, both when it is set and when a stored value is read.

use std::collections::{BTreeMap, BTreeSet};

use core_domain::analytics::DisplayCurrency;
use core_domain::irpf::{CarryKind, DeclaredCarryForward, IrpfSettings, Modelo721Filed};
use core_domain::num;
use core_domain::{Asset, FiscalTimezone};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::error::{UseCaseError, UseCaseResult};
use crate::ports::{SettingKey, SettingsStore};

/// Every setting a use case reads, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `fiscal_timezone`.
    pub fiscal_timezone: FiscalTimezone,
    /// `display_currency`.
    pub display_currency: DisplayCurrency,
    /// The `irpf.*` and `modelo_721.*` settings (its `fiscal_timezone` is the one above).
    pub irpf: IrpfSettings,
}

fn invalid(key: SettingKey, reason: impl Into<String>) -> UseCaseError {
    UseCaseError::InvalidSetting {
        key: key.as_str().to_owned(),
        reason: reason.into(),
    }
}

/// A decimal given as a JSON string or number.
fn decimal(key: SettingKey, field: &str, value: &Value) -> UseCaseResult<Decimal> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return Err(invalid(key, format!("{field} must be a decimal string"))),
    };
    num::parse_decimal(field, &text, false).map_err(|_| {
        invalid(
            key,
            format!("{field} {text:?} is not a non-negative decimal"),
        )
    })
}

fn year(key: SettingKey, field: &str, value: &Value) -> UseCaseResult<i32> {
    value
        .as_i64()
        .and_then(|y| i32::try_from(y).ok())
        .filter(|y| (2009..=9999).contains(y))
        .ok_or_else(|| invalid(key, format!("{field} must be a year from 2009 to 9999")))
}

fn symbol(key: SettingKey, value: &Value) -> UseCaseResult<Asset> {
    let text = value
        .as_str()
        .ok_or_else(|| invalid(key, "every item must be a symbol string"))?;
    Asset::new(&text.to_ascii_uppercase())
        .map_err(|_| invalid(key, format!("{text:?} is not a symbol (A-Z, 0-9 and dot)")))
}

/// One decoded value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingValue {
    /// `fiscal_timezone`.
    FiscalTimezone(FiscalTimezone),
    /// `display_currency`.
    DisplayCurrency(DisplayCurrency),
    /// `irpf.start_year`.
    StartYear(i32),
    /// `irpf.declared_carry_forwards`.
    DeclaredCarryForwards(Vec<DeclaredCarryForward>),
    /// `irpf.general_absorption`.
    GeneralAbsorption(Vec<(i32, Decimal)>),
    /// `irpf.art_33_5_warnings`.
    Art335Warnings(bool),
    /// `irpf.non_currency_virtual_assets`.
    NonCurrencyVirtualAssets(BTreeSet<Asset>),
    /// `modelo_721.last_filed` (`null` clears it).
    Modelo721LastFiled(Option<Modelo721Filed>),
    /// `llm.endpoint` or `llm.model`: text the advisor reads; no use case does.
    Text(String),
    /// `prices.provider_markets`: (asset, provider) → market; an empty market turns the
    /// provider off for the asset.
    ProviderMarkets(BTreeMap<(Asset, String), String>),
    /// `import.label_map`: `PROFILE:LABEL=TYPE` (and `binance:account:NAME=WALLET|FUTURES`)
    /// entries, in the order given.
    LabelMap(Vec<shared_types::MapEntry>),
}

/// The price providers of `cartera sync` a `prices.provider_markets` entry may name (the cli
/// checks that this list is the `providers` crate's).
pub const PRICE_PROVIDERS: &[&str] = &[
    "kraken",
    "coinbase",
    "bitvavo",
    "binance",
    "bitstamp",
    "binance-usdt",
    "coingecko",
];

/// `{"ASSET": {"provider": "market", …}, …}`.
fn provider_markets(key: SettingKey, value: &Value) -> UseCaseResult<SettingValue> {
    let shape = "must be an object {\"ASSET\": {\"provider\": \"market\"}}";
    let assets = value.as_object().ok_or_else(|| invalid(key, shape))?;
    let mut out = BTreeMap::new();
    for (symbol_text, markets) in assets {
        let asset = symbol(key, &Value::String(symbol_text.clone()))?;
        let markets = markets.as_object().ok_or_else(|| invalid(key, shape))?;
        for (provider, market) in markets {
            let provider = provider.trim().to_ascii_lowercase();
            if !PRICE_PROVIDERS.contains(&provider.as_str()) {
                return Err(invalid(
                    key,
                    format!(
                        "{provider:?} is not a price provider ({})",
                        PRICE_PROVIDERS.join(", ")
                    ),
                ));
            }
            let market = market.as_str().ok_or_else(|| {
                invalid(
                    key,
                    format!("the {provider} market of {asset} must be a string"),
                )
            })?;
            if market.len() > 64 || market.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(invalid(
                    key,
                    format!("{market:?} is not a market name (no spaces, at most 64 characters)"),
                ));
            }
            out.insert((asset, provider), market.to_owned());
        }
    }
    Ok(SettingValue::ProviderMarkets(out))
}

/// Parses and validates the JSON text of `key` (the rules of `irpf.md` §1 that do not need the
/// ledger; the `start_year`-relative ones run with the report).
#[allow(clippy::too_many_lines)] // One match arm or step per case, read top to bottom.
pub fn parse_value(key: SettingKey, text: &str) -> UseCaseResult<SettingValue> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| invalid(key, format!("value is not JSON ({e}); strings need quotes")))?;
    Ok(match key {
        SettingKey::FiscalTimezone => {
            let s = value
                .as_str()
                .ok_or_else(|| invalid(key, "must be \"Europe/Madrid\" or \"Atlantic/Canary\""))?;
            SettingValue::FiscalTimezone(FiscalTimezone::parse(s).map_err(|_| {
                invalid(
                    key,
                    format!("{s:?} is not Europe/Madrid or Atlantic/Canary"),
                )
            })?)
        }
        SettingKey::DisplayCurrency => {
            let s = value
                .as_str()
                .ok_or_else(|| invalid(key, "must be \"EUR\" or \"USD\""))?;
            SettingValue::DisplayCurrency(
                DisplayCurrency::parse(s)
                    .ok_or_else(|| invalid(key, format!("{s:?} is not EUR or USD")))?,
            )
        }
        SettingKey::IrpfStartYear => SettingValue::StartYear(year(key, "start_year", &value)?),
        SettingKey::IrpfDeclaredCarryForwards => {
            let items = value.as_array().ok_or_else(|| {
                invalid(key, "must be a list of {origin_year, kind, amount} objects")
            })?;
            let mut out = Vec::with_capacity(items.len());
            for item in items {
                let object = item.as_object().ok_or_else(|| {
                    invalid(
                        key,
                        "every item must be an {origin_year, kind, amount} object",
                    )
                })?;
                if let Some(extra) = object
                    .keys()
                    .find(|k| !matches!(k.as_str(), "origin_year" | "kind" | "amount"))
                {
                    return Err(invalid(key, format!("unknown field {extra:?}")));
                }
                let origin_year = year(
                    key,
                    "origin_year",
                    object.get("origin_year").unwrap_or(&Value::Null),
                )?;
                let kind_text = object.get("kind").and_then(Value::as_str).unwrap_or("");
                let kind = CarryKind::parse(kind_text).ok_or_else(|| {
                    invalid(
                        key,
                        format!("kind {kind_text:?} is not SAVINGS_GP, SAVINGS_RCM or GENERAL_GP"),
                    )
                })?;
                let amount = decimal(key, "amount", object.get("amount").unwrap_or(&Value::Null))?;
                if amount.is_zero() {
                    return Err(invalid(key, "amount must be greater than 0"));
                }
                out.push(DeclaredCarryForward {
                    origin_year,
                    kind,
                    amount,
                });
            }
            SettingValue::DeclaredCarryForwards(out)
        }
        SettingKey::IrpfGeneralAbsorption => {
            let object = value.as_object().ok_or_else(|| {
                invalid(
                    key,
                    "must be an object {\"2013\": amount, \"2014\": amount}",
                )
            })?;
            let mut out = Vec::with_capacity(object.len());
            for (y, amount) in object {
                let y: i32 = match y.as_str() {
                    "2013" => 2013,
                    "2014" => 2014,
                    other => {
                        return Err(invalid(
                            key,
                            format!(
                                "key {other:?} is not 2013 or 2014 (only those years' negative \
                                 general-base balances could be absorbed by other income)"
                            ),
                        ));
                    }
                };
                out.push((y, decimal(key, "amount", amount)?));
            }
            out.sort_by_key(|(y, _)| *y);
            SettingValue::GeneralAbsorption(out)
        }
        SettingKey::IrpfArt335Warnings => SettingValue::Art335Warnings(
            value
                .as_bool()
                .ok_or_else(|| invalid(key, "must be true or false"))?,
        ),
        SettingKey::IrpfNonCurrencyVirtualAssets => {
            let items = value
                .as_array()
                .ok_or_else(|| invalid(key, "must be a list of symbols"))?;
            let set = items
                .iter()
                .map(|v| symbol(key, v))
                .collect::<UseCaseResult<BTreeSet<Asset>>>()?;
            SettingValue::NonCurrencyVirtualAssets(set)
        }
        SettingKey::LlmEndpoint => {
            let url = value.as_str().ok_or_else(|| {
                invalid(
                    key,
                    "must be a URL string such as \"http://localhost:11434/v1\"",
                )
            })?;
            if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() > 2000 {
                return Err(invalid(
                    key,
                    format!("{url:?} is not an http:// or https:// URL"),
                ));
            }
            SettingValue::Text(url.to_owned())
        }
        SettingKey::DisplayLanguage => {
            let lang = value
                .as_str()
                .map(str::to_ascii_lowercase)
                .filter(|lang| matches!(lang.as_str(), "es" | "en"))
                .ok_or_else(|| invalid(key, "must be \"es\" or \"en\""))?;
            SettingValue::Text(lang)
        }
        SettingKey::LlmModel => {
            let name = value
                .as_str()
                .filter(|name| !name.trim().is_empty() && name.len() <= 200)
                .ok_or_else(|| invalid(key, "must be a model name string such as \"qwen3:8b\""))?;
            SettingValue::Text(name.to_owned())
        }
        SettingKey::PricesProviderMarkets => provider_markets(key, &value)?,
        SettingKey::ImportLabelMap => {
            let items = value.as_array().ok_or_else(|| {
                invalid(
                    key,
                    "must be a list of \"PROFILE:LABEL=TYPE\" strings such as \"binance:Card Cashback=REWARD\"",
                )
            })?;
            let mut entries: Vec<shared_types::MapEntry> = Vec::new();
            for item in items {
                let text = item.as_str().ok_or_else(|| {
                    invalid(key, "every item must be a \"PROFILE:LABEL=TYPE\" string")
                })?;
                let entry = shared_types::MapEntry::parse(text).map_err(|e| invalid(key, e))?;
                if entries.iter().any(|e| e.same_key(&entry)) {
                    return Err(invalid(
                        key,
                        format!(
                            "{text:?} maps a {} mapped before",
                            if matches!(entry, shared_types::MapEntry::Account(_)) {
                                "Binance account"
                            } else {
                                "label"
                            }
                        ),
                    ));
                }
                entries.push(entry);
            }
            SettingValue::LabelMap(entries)
        }
        SettingKey::Modelo721LastFiled => {
            if value.is_null() {
                SettingValue::Modelo721LastFiled(None)
            } else {
                let object = value
                    .as_object()
                    .ok_or_else(|| invalid(key, "must be an object {year, total} or null"))?;
                if let Some(extra) = object
                    .keys()
                    .find(|k| !matches!(k.as_str(), "year" | "total"))
                {
                    return Err(invalid(key, format!("unknown field {extra:?}")));
                }
                SettingValue::Modelo721LastFiled(Some(Modelo721Filed {
                    year: year(key, "year", object.get("year").unwrap_or(&Value::Null))?,
                    total: decimal(key, "total", object.get("total").unwrap_or(&Value::Null))?,
                }))
            }
        }
    })
}

/// The canonical JSON text of a valid value (what `settings set` stores).
pub fn canonical_text(key: SettingKey, text: &str) -> UseCaseResult<String> {
    let value = parse_value(key, text)?;
    let json = match value {
        SettingValue::FiscalTimezone(tz) => Value::String(tz.as_str().to_owned()),
        SettingValue::DisplayCurrency(c) => Value::String(c.code().to_owned()),
        SettingValue::StartYear(y) => Value::from(y),
        SettingValue::DeclaredCarryForwards(items) => Value::Array(
            items
                .iter()
                .map(|d| {
                    // Keys in byte order: the canonical text is the same with and without
                    // serde_json's `preserve_order`.
                    serde_json::json!({
                        "amount": num::fiat(d.amount),
                        "kind": d.kind.as_str(),
                        "origin_year": d.origin_year,
                    })
                })
                .collect(),
        ),
        SettingValue::GeneralAbsorption(items) => Value::Object(
            items
                .iter()
                .map(|(y, a)| (y.to_string(), Value::String(num::fiat(*a))))
                .collect(),
        ),
        SettingValue::Art335Warnings(b) => Value::Bool(b),
        SettingValue::NonCurrencyVirtualAssets(set) => Value::Array(
            set.iter()
                .map(|a| Value::String(a.as_str().to_owned()))
                .collect(),
        ),
        SettingValue::LabelMap(entries) => {
            Value::Array(entries.iter().map(|e| Value::String(e.to_text())).collect())
        }
        SettingValue::Modelo721LastFiled(None) => Value::Null,
        SettingValue::Modelo721LastFiled(Some(f)) => {
            serde_json::json!({"total": num::fiat(f.total), "year": f.year})
        }
        SettingValue::Text(text) => Value::String(text),
        SettingValue::ProviderMarkets(markets) => {
            let mut object = serde_json::Map::new();
            for ((asset, provider), market) in markets {
                let entry = object
                    .entry(asset.as_str().to_owned())
                    .or_insert_with(|| Value::Object(serde_json::Map::new()));
                if let Value::Object(by_provider) = entry {
                    by_provider.insert(provider, Value::String(market));
                }
            }
            Value::Object(object)
        }
    };
    Ok(json.to_string())
}

/// The default of a key, as shown by `settings list`.
pub fn default_text(key: SettingKey) -> &'static str {
    match key {
        SettingKey::FiscalTimezone => "\"Europe/Madrid\"",
        SettingKey::DisplayCurrency => "\"EUR\"",
        SettingKey::DisplayLanguage => "LC_ALL/LANG, else \"en\"",
        SettingKey::IrpfStartYear => "year of the earliest row",
        SettingKey::IrpfDeclaredCarryForwards
        | SettingKey::IrpfNonCurrencyVirtualAssets
        | SettingKey::ImportLabelMap => "[]",
        SettingKey::IrpfGeneralAbsorption | SettingKey::PricesProviderMarkets => "{}",
        SettingKey::IrpfArt335Warnings => "false",
        SettingKey::Modelo721LastFiled => "null",
        SettingKey::LlmEndpoint | SettingKey::LlmModel => "unset",
    }
}

/// The stored `prices.provider_markets`, decoded (empty when unset).
pub fn provider_markets_of(
    store: &dyn SettingsStore,
) -> UseCaseResult<BTreeMap<(Asset, String), String>> {
    match store.setting(SettingKey::PricesProviderMarkets)? {
        None => Ok(BTreeMap::new()),
        Some(text) => match parse_value(SettingKey::PricesProviderMarkets, &text)? {
            SettingValue::ProviderMarkets(markets) => Ok(markets),
            _ => Ok(BTreeMap::new()),
        },
    }
}

/// Reads and decodes every stored setting.
pub fn load(store: &dyn SettingsStore) -> UseCaseResult<Settings> {
    let mut settings = Settings::default();
    for (key, text) in store.settings()? {
        match parse_value(key, &text)? {
            SettingValue::FiscalTimezone(tz) => settings.fiscal_timezone = tz,
            SettingValue::DisplayCurrency(c) => settings.display_currency = c,
            SettingValue::StartYear(y) => settings.irpf.start_year = Some(y),
            SettingValue::DeclaredCarryForwards(d) => settings.irpf.declared_carry_forwards = d,
            SettingValue::GeneralAbsorption(g) => settings.irpf.general_absorption = g,
            SettingValue::Art335Warnings(b) => settings.irpf.art_33_5_warnings = b,
            SettingValue::NonCurrencyVirtualAssets(s) => {
                settings.irpf.non_currency_virtual_assets = s;
            }
            SettingValue::Modelo721LastFiled(f) => settings.irpf.modelo_721_last_filed = f,
            // Read by the advisor (`cartera ask`), by `cartera sync` (`provider_markets_of`), by
            // the import (`label_map`) and by the binary (`display_language`), not by any figure.
            SettingValue::Text(_)
            | SettingValue::ProviderMarkets(_)
            | SettingValue::LabelMap(_) => {}
        }
    }
    settings.irpf.fiscal_timezone = settings.fiscal_timezone;
    Ok(settings)
}

/// The stored `import.label_map` entries (none when unset).
pub fn label_map(store: &dyn SettingsStore) -> UseCaseResult<Vec<shared_types::MapEntry>> {
    match store.setting(SettingKey::ImportLabelMap)? {
        None => Ok(Vec::new()),
        Some(text) => match parse_value(SettingKey::ImportLabelMap, &text)? {
            SettingValue::LabelMap(entries) => Ok(entries),
            _ => Ok(Vec::new()),
        },
    }
}
