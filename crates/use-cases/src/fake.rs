//! An in-memory store implementing every port, built from a `core_domain::testkit` ledger, for
//! the unit tests (the crate map forbids a dependency on `ledger-sqlite`, even in dev).

use std::collections::BTreeMap;

use core_domain::overrides::{CustodyLink, RowOverride};
use core_domain::testkit::{Ledger, asset, date, dec};
use core_domain::{Account, AccountId, Asset, Date};
use shared_types::CustodyKind;

use crate::error::{PortError, PortResult};
use crate::ports::{
    ImportBatch, ImportLogEntry, ImportOutcome, LedgerRead, LedgerSnapshot, LedgerWrite,
    MarketOutcome, PriceBatch, PriceRow, PriceStore, RateBatch, RateRow, RateStore, RowDetail,
    SettingKey, SettingsStore, StoredQuote,
};

/// The fake store.
#[derive(Clone, Debug, Default)]
pub(crate) struct Fake {
    pub(crate) snapshot: LedgerSnapshot,
    pub(crate) prices: Vec<PriceRow>,
    /// The import format of each price, by `(asset, date, currency)`.
    pub(crate) price_formats: BTreeMap<(Asset, Date, Asset), String>,
    pub(crate) rates: Vec<RateRow>,
    pub(crate) settings: BTreeMap<SettingKey, String>,
    pub(crate) snapshots_taken: std::cell::Cell<u64>,
}

impl Fake {
    /// The ledger's accounts, rows and overrides (market data is added with [`Fake::price`]).
    pub(crate) fn new(ledger: &Ledger) -> Self {
        Self {
            snapshot: LedgerSnapshot {
                version: 1,
                accounts: ledger.accounts().to_vec(),
                spot_rows: ledger.spot_rows().to_vec(),
                futures_rows: ledger.futures_rows().to_vec(),
                overrides: ledger.overrides().to_vec(),
                custody_links: Vec::new(),
            },
            ..Self::default()
        }
    }

    /// A price imported from a `daily` file.
    pub(crate) fn price(self, on: &str, symbol: &str, close: &str, currency: &str) -> Self {
        self.quote(on, symbol, close, currency, "daily")
    }

    /// A price imported from a file of the given format.
    pub(crate) fn quote(
        mut self,
        on: &str,
        symbol: &str,
        close: &str,
        currency: &str,
        format: &str,
    ) -> Self {
        let row = PriceRow {
            asset: asset(symbol),
            date: date(on),
            close: dec(close),
            currency: asset(currency),
        };
        self.price_formats
            .insert((row.asset, row.date, row.currency), format.to_owned());
        self.prices.push(row);
        self
    }

    pub(crate) fn rate(mut self, on: &str, currency: &str, rate: &str) -> Self {
        self.rates.push(RateRow {
            currency: asset(currency),
            date: date(on),
            rate: dec(rate),
        });
        self
    }

    pub(crate) fn setting(mut self, key: SettingKey, json: &str) -> Self {
        self.settings.insert(key, json.to_owned());
        self
    }

    pub(crate) fn custody(mut self, name: &str, kind: CustodyKind, country: Option<&str>) -> Self {
        for a in &mut self.snapshot.accounts {
            if a.name == name {
                a.custody_kind = kind;
                a.country = country.map(str::to_owned);
            }
        }
        self
    }

    fn bump(&mut self) {
        self.snapshot.version += 1;
    }
}

// A `Cell` makes the fake `!Sync`, which is what `LedgerQueries` must cope with (it wraps the
// store in a mutex); it is still `Send`.
impl LedgerRead for Fake {
    fn ledger_version(&self) -> PortResult<u64> {
        Ok(self.snapshot.version)
    }
    fn accounts(&self) -> PortResult<Vec<Account>> {
        Ok(self.snapshot.accounts.clone())
    }
    fn spot_rows(&self) -> PortResult<Vec<core_domain::SpotRow>> {
        Ok(self.snapshot.spot_rows.clone())
    }
    fn futures_rows(&self) -> PortResult<Vec<core_domain::FuturesRow>> {
        Ok(self.snapshot.futures_rows.clone())
    }
    fn overrides(&self) -> PortResult<Vec<RowOverride>> {
        Ok(self.snapshot.overrides.clone())
    }
    fn override_notes(&self) -> PortResult<Vec<(String, String)>> {
        Ok(Vec::new())
    }
    fn custody_links(&self) -> PortResult<Vec<CustodyLink>> {
        Ok(self.snapshot.custody_links.clone())
    }
    fn snapshot(&self) -> PortResult<LedgerSnapshot> {
        self.snapshots_taken.set(self.snapshots_taken.get() + 1);
        Ok(self.snapshot.clone())
    }
    fn row_detail(&self, _row_key: &str) -> PortResult<Option<RowDetail>> {
        Ok(None)
    }
    fn import_log(&self) -> PortResult<Vec<ImportLogEntry>> {
        Ok(Vec::new())
    }
}

impl RateStore for Fake {
    fn all_rates(&self) -> PortResult<Vec<RateRow>> {
        Ok(self.rates.clone())
    }
    fn rates_for(&self, currencies: &[Asset]) -> PortResult<Vec<RateRow>> {
        Ok(self
            .rates
            .iter()
            .filter(|r| currencies.contains(&r.currency))
            .copied()
            .collect())
    }
    fn rate_on_or_before(&self, currency: Asset, day: Date) -> PortResult<Option<RateRow>> {
        Ok(self
            .rates
            .iter()
            .filter(|r| r.currency == currency && r.date <= day)
            .max_by_key(|r| r.date)
            .copied())
    }
    fn rate_count(&self) -> PortResult<u64> {
        Ok(self.rates.len() as u64)
    }
}

impl PriceStore for Fake {
    fn prices_for(&self, assets: &[Asset], from: Date, to: Date) -> PortResult<Vec<PriceRow>> {
        let wanted: std::collections::BTreeSet<Asset> = assets.iter().copied().collect();
        let mut rows: Vec<PriceRow> = self
            .prices
            .iter()
            .filter(|p| wanted.contains(&p.asset) && p.date >= from && p.date <= to)
            .copied()
            .collect();
        rows.sort_by_key(|p| (p.asset, p.date, p.currency));
        Ok(rows)
    }
    fn price_candidates(&self, requests: &[(Asset, Date)]) -> PortResult<Vec<PriceRow>> {
        let key = |p: &PriceRow| (p.asset, p.date, p.currency);
        let owned;
        let sorted: &[PriceRow] = if self.prices.is_sorted_by_key(key) {
            &self.prices
        } else {
            let mut copy = self.prices.clone();
            copy.sort_by_key(key);
            owned = copy;
            &owned
        };
        let mut picked = vec![false; sorted.len()];
        for (asset, day) in requests {
            let from = *day - chrono::TimeDelta::days(7);
            let start = sorted.partition_point(|p| (p.asset, p.date) < (*asset, from));
            for (i, p) in sorted.iter().enumerate().skip(start) {
                if p.asset != *asset || p.date > *day {
                    break;
                }
                if let Some(flag) = picked.get_mut(i) {
                    *flag = true;
                }
            }
        }
        Ok(sorted
            .iter()
            .zip(picked)
            .filter_map(|(p, keep)| keep.then_some(*p))
            .collect())
    }
    fn latest_quotes(&self) -> PortResult<Vec<StoredQuote>> {
        let mut latest: BTreeMap<(Asset, Asset), PriceRow> = BTreeMap::new();
        for p in &self.prices {
            let e = latest.entry((p.asset, p.currency)).or_insert(*p);
            if p.date > e.date {
                *e = *p;
            }
        }
        latest
            .into_values()
            .map(|row| {
                let format = self
                    .price_formats
                    .get(&(row.asset, row.date, row.currency))
                    .cloned()
                    .ok_or_else(|| PortError::Corrupt {
                        what: format!("price {} {} {}", row.asset, row.date, row.currency),
                        reason: "no import format".to_owned(),
                    })?;
                Ok(StoredQuote { row, format })
            })
            .collect()
    }
    fn price_count(&self) -> PortResult<u64> {
        Ok(self.prices.len() as u64)
    }
}

impl SettingsStore for Fake {
    fn setting(&self, key: SettingKey) -> PortResult<Option<String>> {
        Ok(self.settings.get(&key).cloned())
    }
    fn settings(&self) -> PortResult<Vec<(SettingKey, String)>> {
        Ok(self.settings.iter().map(|(k, v)| (*k, v.clone())).collect())
    }
}

impl LedgerWrite for Fake {
    fn write_import_batch(&mut self, _batch: &ImportBatch) -> PortResult<ImportOutcome> {
        Err(PortError::ReadOnly)
    }
    fn write_rates(&mut self, _batch: &RateBatch) -> PortResult<MarketOutcome> {
        Err(PortError::ReadOnly)
    }
    fn write_prices(&mut self, _batch: &PriceBatch) -> PortResult<MarketOutcome> {
        Err(PortError::ReadOnly)
    }
    fn set_setting(&mut self, key: SettingKey, value: &str) -> PortResult<()> {
        self.settings.insert(key, value.to_owned());
        self.bump();
        Ok(())
    }
    fn unset_setting(&mut self, key: SettingKey) -> PortResult<bool> {
        let had = self.settings.remove(&key).is_some();
        self.bump();
        Ok(had)
    }
    fn ensure_account(&mut self, name: &str) -> PortResult<AccountId> {
        if let Some(a) = self
            .snapshot
            .accounts
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(name))
        {
            return Ok(a.id);
        }
        let id = AccountId(self.snapshot.accounts.len() as u32 + 1);
        self.snapshot.accounts.push(Account {
            id,
            name: name.to_owned(),
            parent_id: None,
            custody_kind: CustodyKind::default(),
            country: None,
        });
        self.bump();
        Ok(id)
    }
    fn set_account_custody(
        &mut self,
        account: AccountId,
        kind: CustodyKind,
        country: Option<&str>,
    ) -> PortResult<()> {
        let a = self
            .snapshot
            .accounts
            .iter_mut()
            .find(|a| a.id == account)
            .ok_or_else(|| PortError::NotFound {
                what: format!("account {}", account.0),
            })?;
        a.custody_kind = kind;
        a.country = country.map(str::to_owned);
        self.bump();
        Ok(())
    }
    fn set_override(&mut self, edit: &RowOverride, _note: Option<&str>) -> PortResult<()> {
        self.snapshot
            .overrides
            .retain(|o| o.row_key != edit.row_key);
        self.snapshot.overrides.push(edit.clone());
        self.snapshot
            .overrides
            .sort_by(|a, b| a.row_key.cmp(&b.row_key));
        self.bump();
        Ok(())
    }
    fn restore_override(&mut self, row_key: &str) -> PortResult<bool> {
        let before = self.snapshot.overrides.len();
        self.snapshot.overrides.retain(|o| o.row_key != row_key);
        self.bump();
        Ok(self.snapshot.overrides.len() != before)
    }
    fn link(&mut self, link: &CustodyLink) -> PortResult<()> {
        self.snapshot.custody_links.push(link.clone());
        self.bump();
        Ok(())
    }
    fn unlink(&mut self, row_key: &str) -> PortResult<u64> {
        let before = self.snapshot.custody_links.len();
        self.snapshot.custody_links.retain(|l| match l {
            CustodyLink::Link {
                out_row_key,
                in_row_key,
            } => out_row_key != row_key && in_row_key != row_key,
            CustodyLink::Counterparty { row_key: k, .. } => k != row_key,
        });
        self.bump();
        Ok((before - self.snapshot.custody_links.len()) as u64)
    }
}
