//! `ListAccounts`, `GetLatestPrices`, `GetLedgerVersion` and the settings list.

use std::collections::BTreeMap;

use core_domain::analytics::DisplayCurrency;
use core_domain::ranking::compare_account_names;
use core_domain::{Account, AccountId, Asset, Instant};
use shared_types::dto::{
    AccountList, AccountNode, LatestPrice, LatestPrices, SettingEntry, SettingsList,
};

use super::convert::{instant, unit};
use super::lots::parse_symbol;
use super::settings::default_text;
use super::state::Derived;
use crate::error::UseCaseResult;
use crate::ports::{SettingKey, SettingsStore, StoredQuote};

fn node(
    account: &Account,
    children: &BTreeMap<Option<AccountId>, Vec<&Account>>,
    spot: &BTreeMap<u32, u64>,
    derived: &Derived,
    depth: usize,
) -> AccountNode {
    let kids = if depth > 16 {
        Vec::new()
    } else {
        children
            .get(&Some(account.id))
            .map(|list| {
                list.iter()
                    .map(|a| node(a, children, spot, derived, depth + 1))
                    .collect()
            })
            .unwrap_or_default()
    };
    AccountNode {
        name: account.name.clone(),
        custody_kind: account.custody_kind.as_str().to_owned(),
        country: account.country.clone(),
        spot_row_count: spot.get(&account.id.0).copied().unwrap_or(0),
        futures_row_count: derived
            .futures_per_account
            .get(&account.id.0)
            .copied()
            .unwrap_or(0),
        children: kids,
    }
}

/// `ListAccounts`: the forest in canonical account order, synthetic accounts included.
pub(crate) fn list_accounts(derived: &Derived) -> AccountList {
    let mut sorted: Vec<&Account> = derived.accounts.iter().collect();
    sorted.sort_by(|a, b| compare_account_names(&a.name, &b.name));
    let ids: std::collections::BTreeSet<AccountId> = sorted.iter().map(|a| a.id).collect();
    let mut children: BTreeMap<Option<AccountId>, Vec<&Account>> = BTreeMap::new();
    for account in sorted {
        // An unknown parent lists the account at the top rather than losing it.
        let parent = account
            .parent_id
            .filter(|p| ids.contains(p) && *p != account.id);
        children.entry(parent).or_default().push(account);
    }
    let mut spot: BTreeMap<u32, u64> = BTreeMap::new();
    for row in derived.imported_rows() {
        *spot.entry(row.account_id.0).or_default() += 1;
    }
    let roots = children.get(&None).cloned().unwrap_or_default();
    AccountList {
        accounts: roots
            .iter()
            .map(|a| node(a, &children, &spot, derived, 0))
            .collect(),
    }
}

/// `GetLatestPrices`: per symbol, the latest quote in the preferred currency, else EUR, else
/// any (ties by currency code).
/// `latest` is [`crate::ports::PriceStore::latest_quotes`] of the current ledger version (the caller caches
/// it per version: the query scans the whole price table).
pub(crate) fn latest_prices(
    latest: &[StoredQuote],
    symbols: &[String],
    preferred: DisplayCurrency,
    now: Instant,
) -> UseCaseResult<LatestPrices> {
    let wanted = symbols
        .iter()
        .map(|s| parse_symbol("symbols", s))
        .collect::<UseCaseResult<Vec<Asset>>>()?;
    let mut by_asset: BTreeMap<Asset, Vec<&StoredQuote>> = BTreeMap::new();
    for quote in latest {
        by_asset.entry(quote.row.asset).or_default().push(quote);
    }
    let eur = DisplayCurrency::Eur.asset();
    let mut prices = Vec::new();
    let mut not_tracked = Vec::new();
    for asset in wanted {
        let rows = by_asset.get(&asset).map_or(&[][..], Vec::as_slice);
        let latest_in = |c: Option<Asset>| {
            rows.iter()
                .filter(|q| Some(q.row.currency) == c)
                .max_by_key(|q| q.row.date)
        };
        let any = rows.iter().min_by(|a, b| {
            b.row
                .date
                .cmp(&a.row.date)
                .then_with(|| a.row.currency.as_str().cmp(b.row.currency.as_str()))
        });
        let Some(StoredQuote { row, format }) = latest_in(preferred.asset())
            .or_else(|| latest_in(eur))
            .or(any)
        else {
            not_tracked.push(asset.to_string());
            continue;
        };
        let stamp = Instant::from_utc(row.date, 0, 0, 0, 0).unwrap_or(now);
        let staleness = u64::try_from(now.seconds_since(stamp).max(0)).unwrap_or(0);
        prices.push(LatestPrice {
            symbol: asset.to_string(),
            price: unit(row.close),
            currency: row.currency.to_string(),
            timestamp: instant(stamp),
            provider: format.clone(),
            staleness_seconds: staleness,
        });
    }
    Ok(LatestPrices {
        prices,
        not_tracked,
    })
}

/// Every setting with its stored value, canonical key order.
pub(crate) fn list_settings(store: &dyn SettingsStore) -> UseCaseResult<SettingsList> {
    let stored: BTreeMap<SettingKey, String> = store.settings()?.into_iter().collect();
    Ok(SettingsList {
        settings: SettingKey::ALL
            .iter()
            .map(|key| SettingEntry {
                key: key.as_str().to_owned(),
                value: stored.get(key).cloned(),
                default: default_text(*key).to_owned(),
            })
            .collect(),
    })
}
