//! The derived state of one ledger version: effective rows, FIFO output, market tables,
//! settings, and (built on first use) custody, integrity rows and daily series.
//!
//! It is computed once per ledger version and shared by every later query of the process
//! (`LedgerQueries` keeps it in an `Arc` keyed by `LedgerRead::ledger_version`). Only the prices
//! of assets the ledger touches (plus the bitcoin benchmark) and the rates of the currencies
//! those rows and prices name are loaded.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, OnceLock};

use core_domain::analytics::{AnalyticsContext, DailySeries, DisplayCurrency, daily_series};
use core_domain::custody::{self, CustodyOutput};
use core_domain::engine::{EffectiveRow, EngineInput, EngineOutput};
use core_domain::fifo::{self, EngineBuffers, EngineSettings};
use core_domain::holdings::{self, HoldingsSnapshot};
use core_domain::irpf::{IrpfInput, IrpfYearReport};
use core_domain::overrides::{CustodyLink, RowOverride};
use core_domain::pipeline;
use core_domain::quality::{self, IntegrityRow};
use core_domain::{Account, Asset, Date, FiscalTimezone, Instant, Market, RowKey, SpotRow};
use rayon::prelude::*;
use shared_types::dto::TaxReport;

use super::settings::{self, Settings};
use crate::error::UseCaseResult;
use crate::ports::{LedgerRead, PriceStore, RateStore, SettingsStore};

/// Everything derived from one ledger version.
#[derive(Debug)]
pub struct Derived {
    /// The ledger version it was read at.
    pub version: u64,
    /// Decoded settings.
    pub settings: Settings,
    /// Accounts by id.
    pub accounts: Vec<Account>,
    /// The imported form of every spot row an override names (excluded rows included); the
    /// other imported rows are their effective rows in `input` (see [`Derived::imported_rows`]).
    pub overridden_rows: Vec<SpotRow>,
    /// Overrides by row key.
    pub overrides: Vec<RowOverride>,
    /// Custody links.
    pub links: Vec<CustodyLink>,
    /// Futures rows per account id (for the account list), before exclusions.
    pub futures_per_account: BTreeMap<u32, u64>,
    /// The engine's input (overrides applied).
    pub input: EngineInput,
    /// The engine's output.
    pub output: EngineOutput,
    /// Rates and the price candidates of the rows' valuations: what the engine reads.
    pub market: Market,
    /// Every close of the ledger's assets from its first row on, loaded on first use by the
    /// valuation and analytics questions (the tax report never needs it).
    full: OnceLock<FullMarket>,
    /// The assets whose closes the full market loads.
    crypto: Vec<Asset>,
    /// The first fiscal date of the ledger.
    first: Option<Date>,
    /// The rates loaded (shared by both markets).
    rates: Vec<crate::ports::RateRow>,
    /// The latest stored ECB rate per currency.
    pub last_rate: BTreeMap<Asset, Date>,
    /// The years and assets of the imported rows: found by the load's scan when no override
    /// applies, else on first use.
    overview: OnceLock<Overview>,
    custody: OnceLock<Result<CustodyOutput, core_domain::DomainError>>,
    integrity: OnceLock<Result<Vec<IntegrityRow>, core_domain::DomainError>>,
    series: Mutex<BTreeMap<(Date, DisplayCurrency), Arc<DailySeries>>>,
    /// Holdings snapshots by as-of fiscal date and currency (they read only the date).
    snapshots: Mutex<BTreeMap<(Date, DisplayCurrency), Arc<HoldingsSnapshot>>>,
    /// IRPF year reports by `(year, with year-end holdings)`: the multi-year state is read once
    /// per year asked, then served from here.
    reports: Mutex<BTreeMap<(i32, bool), Arc<IrpfYearReport>>>,
    /// Their DTOs.
    report_dtos: Mutex<BTreeMap<(i32, bool), Arc<TaxReport>>>,
    /// Use-case answers by question (see [`Derived::answer`]).
    answers: Mutex<BTreeMap<String, Arc<dyn std::any::Any + Send + Sync>>>,
}

/// The fiscal years that hold an imported spot or futures row, and the assets those rows
/// move (spot sides and fees, futures settlement assets).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overview {
    /// Fiscal years, in order.
    pub years: BTreeSet<i32>,
    /// Assets, in order.
    pub assets: BTreeSet<Asset>,
}

/// An [`Overview`] built row by row; consecutive rows mostly share a year, which is then not
/// looked up again.
#[derive(Default)]
struct OverviewScan {
    years: BTreeSet<i32>,
    last_year: Option<i32>,
    assets: LegSet<Asset>,
}

impl OverviewScan {
    fn year(&mut self, day: Date) {
        let year = chrono::Datelike::year(&day);
        if self.last_year != Some(year) {
            self.last_year = Some(year);
            self.years.insert(year);
        }
    }

    fn spot(&mut self, row: &SpotRow, day: Date) {
        self.year(day);
        let sides = [
            row.inflow.map(|a| a.asset),
            row.outflow.map(|a| a.asset),
            row.fee.map(|f| f.asset),
        ];
        self.assets.extend(sides.into_iter().flatten());
    }

    fn futures(&mut self, row: &core_domain::FuturesRow, day: Date) {
        self.year(day);
        self.assets.insert(row.settlement_asset);
    }

    fn finish(self) -> Overview {
        Overview {
            years: self.years,
            assets: self.assets.into_iter().collect(),
        }
    }
}

/// What the load reads off the rows before the market: the assets and currencies they name,
/// their first fiscal date, the engine's price lookups, and (without overrides) the overview.
/// Hash sets while scanning (a few thousand assets over up to millions of legs), sorted after.
struct RowScan {
    fiat: LegSet<Asset>,
    /// Currencies of stated and edited values.
    stated: LegSet<Asset>,
    first: Option<Date>,
    /// The engine looks prices up only for the crypto assets a row moves, on the row's date:
    /// its lookup windows are all the prices it can read (`domain.md` §7.2). Both the fiscal
    /// and the UTC date are requested, so the windows hold whichever date a lookup uses; the
    /// union is sorted and deduplicated after the scan.
    requests: Vec<(Asset, Date)>,
    /// The dates each crypto asset was last requested at: rows come in time order, so a leg
    /// whose asset was last requested at the same dates adds nothing (its request is listed).
    last_days: LegMap<Asset, (Date, Date)>,
    overview: Option<OverviewScan>,
}

impl RowScan {
    /// The engine's input from the imported rows and the scan of its rows (the overview too
    /// when there are no overrides). The rows are scanned in pieces of `piece_rows` side by
    /// side; without overrides each piece is also checked there
    /// ([`core_domain::effective::unedited_rows_visited`]).
    fn with_input(
        rows: Vec<SpotRow>,
        futures: Vec<core_domain::FuturesRow>,
        overrides: &[RowOverride],
        tz: FiscalTimezone,
        piece_rows: usize,
    ) -> (EngineInput, Self) {
        let with_overview = overrides.is_empty();
        let scan_rows = |rows: &[EffectiveRow]| {
            let mut scan = Self::new(with_overview);
            let mut fiscal = FiscalDays::new(tz);
            for effective in rows {
                scan.spot(effective, &mut fiscal);
            }
            scan
        };
        let (input, scan) = if overrides.is_empty() {
            let (rows, scan) = core_domain::effective::unedited_rows_visited(
                rows,
                piece_rows,
                scan_rows,
                Self::merge,
            );
            (EngineInput { rows, futures }, scan)
        } else {
            let input = core_domain::effective::engine_input_owned(rows, futures, overrides);
            let scan = input
                .rows
                .par_chunks(piece_rows.max(1))
                .map(scan_rows)
                .reduce_with(Self::merge);
            (input, scan)
        };
        let mut scan = scan.unwrap_or_else(|| Self::new(with_overview));
        let mut fiscal = FiscalDays::new(tz);
        for row in &input.futures {
            scan.futures(row, &mut fiscal);
        }
        (input, scan)
    }

    fn new(with_overview: bool) -> Self {
        Self {
            fiat: LegSet::default(),
            stated: LegSet::default(),
            first: None,
            requests: Vec::new(),
            last_days: LegMap::default(),
            overview: with_overview.then(OverviewScan::default),
        }
    }

    fn leg(&mut self, asset: Asset, days: (Date, Date)) {
        if asset.is_fiat() {
            self.fiat.insert(asset);
            return;
        }
        match self.last_days.entry(asset) {
            Entry::Occupied(seen) if *seen.get() == days => return,
            Entry::Occupied(mut seen) => {
                seen.insert(days);
            }
            Entry::Vacant(slot) => {
                slot.insert(days);
            }
        }
        self.requests.push((asset, days.0));
        if days.1 != days.0 {
            self.requests.push((asset, days.1));
        }
    }

    fn day(&mut self, instant: Instant, fiscal: &mut FiscalDays) -> (Date, Date) {
        let day = fiscal.date(instant);
        self.first = Some(self.first.map_or(day, |f| f.min(day)));
        (day, instant.utc_date())
    }

    fn spot(&mut self, effective: &EffectiveRow, fiscal: &mut FiscalDays) {
        let row = &effective.row;
        let days = self.day(row.instant, fiscal);
        if let Some(overview) = &mut self.overview {
            overview.spot(row, days.0);
        }
        for amount in [row.inflow.as_ref(), row.outflow.as_ref()]
            .into_iter()
            .flatten()
        {
            self.leg(amount.asset, days);
        }
        if let Some(fee) = &row.fee {
            self.leg(fee.asset, days);
        }
        for stated in [
            row.stated_value(),
            row.stated_price(),
            row.stated_fee_value(),
            effective.edited_value(),
            effective.edited_price(),
            effective.edited_fee_value(),
        ]
        .into_iter()
        .flatten()
        {
            self.stated.insert(stated.currency);
        }
    }

    fn futures(&mut self, row: &core_domain::FuturesRow, fiscal: &mut FiscalDays) {
        let days = self.day(row.instant, fiscal);
        if let Some(overview) = &mut self.overview {
            overview.futures(row, days.0);
        }
        self.leg(row.settlement_asset, days);
        if let Some(fee) = row.fee_asset {
            self.leg(fee, days);
        }
    }

    /// The scan of the rows of `self` followed by those of `later`. The later piece's first
    /// requests may repeat the earlier piece's last ones: the sort after the scan removes them.
    fn merge(mut self, later: Self) -> Self {
        self.fiat.extend(later.fiat);
        self.stated.extend(later.stated);
        self.first = match (self.first, later.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.requests.extend(later.requests);
        self.last_days.extend(later.last_days);
        self.overview = match (self.overview, later.overview) {
            (Some(mut a), Some(b)) => {
                a.years.extend(b.years);
                a.last_year = None;
                a.assets.extend(b.assets);
                Some(a)
            }
            (a, b) => a.or(b),
        };
        self
    }
}

/// The engine's market and what the load keeps of its inputs.
struct Priced {
    /// Crypto assets the rows name, sorted.
    crypto: Vec<Asset>,
    rates: Vec<core_domain::RateRow>,
    last_rate: BTreeMap<Asset, Date>,
    market: Market,
}

/// Every close of the ledger's assets, and the latest close date per asset.
#[derive(Debug)]
struct FullMarket {
    market: Market,
    last_price: BTreeMap<Asset, Date>,
    /// The latest stored close per (asset, quote currency): the current price of the holdings
    /// snapshot (`domain.md` §12.1; `tools.md` §9.1 values holdings at the latest stored price).
    latest_quotes: BTreeMap<(Asset, Asset), (Date, rust_decimal::Decimal)>,
}

impl FullMarket {
    /// Every close of `crypto` from a week before `first` on, with `rates` and the rates of
    /// any other quote currency the closes name.
    fn load<S>(
        store: &S,
        crypto: &[Asset],
        first: Option<Date>,
        rates: &[crate::ports::RateRow],
    ) -> UseCaseResult<Self>
    where
        S: PriceStore + RateStore + ?Sized,
    {
        // The closes go straight into the table, with no list of rows in between.
        let mut builder = core_domain::market::PriceTableBuilder::new();
        if let Some(first) = first {
            store.price_table_for(
                crypto,
                first
                    .checked_sub_days(chrono::Days::new(7))
                    .unwrap_or(first),
                Date::from_ymd_opt(9999, 12, 31).unwrap_or(first),
                &mut builder,
            )?;
        }
        let prices = builder.finish()?;
        let mut last_price: BTreeMap<Asset, Date> = BTreeMap::new();
        let mut latest_quotes: BTreeMap<(Asset, Asset), (Date, rust_decimal::Decimal)> =
            BTreeMap::new();
        for (asset, currency, date, close) in prices.latest_closes() {
            let e = last_price.entry(asset).or_insert(date);
            *e = (*e).max(date);
            latest_quotes.insert((asset, currency), (date, close));
        }
        let known: BTreeSet<Asset> = rates.iter().map(|r| r.currency).collect();
        let extra: BTreeSet<Asset> = latest_quotes
            .keys()
            .map(|(_, currency)| *currency)
            .filter(|c| !c.is_eur() && !known.contains(c))
            .collect();
        let mut rates = rates.to_vec();
        if !extra.is_empty() {
            let extra: Vec<Asset> = extra.into_iter().collect();
            rates.extend(store.rates_for(&extra)?);
        }
        let market = Market {
            rates: core_domain::market::RateTable::new(rates)?,
            prices,
        };
        Ok(Self {
            market,
            last_price,
            latest_quotes,
        })
    }
}

/// Fiscal dates of instants with the bounds of the last day seen kept: rows come in time
/// order, so nearly every lookup is two comparisons instead of the zone's rules (which compute
/// the year's daylight-saving switches on every call).
pub(crate) struct FiscalDays {
    zone: FiscalTimezone,
    /// `[start, end)` of the last day seen, and that day.
    last: Option<(Instant, Instant, Date)>,
}

impl FiscalDays {
    /// Dates in `zone`.
    pub(crate) fn new(zone: FiscalTimezone) -> Self {
        Self { zone, last: None }
    }

    /// `zone.fiscal_date(instant)`.
    pub(crate) fn date(&mut self, instant: Instant) -> Date {
        if let Some((start, end, day)) = self.last
            && start <= instant
            && instant < end
        {
            return day;
        }
        let day = self.zone.fiscal_date(instant);
        let start = self.zone.start_of_day(day);
        let end = self.zone.end_of_day(day);
        // A bound the rules cannot place keeps the memo empty rather than wrong.
        self.last = (start <= instant && instant < end).then_some((start, end, day));
        day
    }
}

/// The per-leg asset sets of [`Derived::load`]: a lookup per leg, where SipHash cost a few
/// percent of a report. The sets are sorted before anything reads them.
type LegMap<K, V> = core_domain::fast_hash::FastMap<K, V>;
type LegSet<K> = core_domain::fast_hash::FastSet<K>;

/// The BTC benchmark of the risk metrics (`domain.md` §11.4).
fn benchmark() -> Option<Asset> {
    Asset::new(core_domain::analytics::risk::BENCHMARK).ok()
}

impl Derived {
    /// Every imported spot row (excluded rows included), in no particular order: the effective
    /// rows no override names, then the imported form of the overridden ones.
    pub fn imported_rows(&self) -> impl Iterator<Item = &SpotRow> {
        let overridden: BTreeSet<&RowKey> = self
            .overridden_rows
            .iter()
            .map(|row| &row.row_key)
            .collect();
        self.input
            .rows
            .iter()
            .map(|effective| &effective.row)
            .filter(move |row| overridden.is_empty() || !overridden.contains(&row.row_key))
            .chain(&self.overridden_rows)
    }

    /// Reads the ledger through the ports and runs the engine.
    pub fn load<S>(store: &S) -> UseCaseResult<Self>
    where
        S: LedgerRead + RateStore + PriceStore + SettingsStore,
    {
        Self::load_with(store, false)
    }

    /// [`Derived::load`], with the full market ([`Derived::load_full_market`]) read and built
    /// too when `full_market`: beside the engine, so a valuation's first call waits for the
    /// longer of the two instead of their sum.
    pub fn load_with<S>(store: &S, full_market: bool) -> UseCaseResult<Self>
    where
        S: LedgerRead + RateStore + PriceStore + SettingsStore,
    {
        // One read scope for the rows, settings, prices and rates: one consistent state, and
        // the store's read lock taken once rather than per statement (a price window each).
        store.begin_read()?;
        let loaded = Self::load_in_scope(store, full_market);
        let ended = store.end_read();
        let derived = loaded?;
        ended?;
        Ok(derived)
    }

    #[allow(clippy::too_many_lines)] // One match arm or step per case, read top to bottom.
    fn load_in_scope<S>(store: &S, full_market: bool) -> UseCaseResult<Self>
    where
        S: LedgerRead + RateStore + PriceStore + SettingsStore,
    {
        let mut snapshot = store.snapshot()?;
        let settings = settings::load(store)?;
        let mut futures_per_account: BTreeMap<u32, u64> = BTreeMap::new();
        for row in &snapshot.futures_rows {
            *futures_per_account.entry(row.account_id.0).or_default() += 1;
        }
        // The engine takes the imported rows by value (no second copy of a large ledger); only
        // the rows an override changes keep their imported form aside.
        let overridden_rows: Vec<SpotRow> = if snapshot.overrides.is_empty() {
            Vec::new()
        } else {
            let keys: BTreeSet<&str> = snapshot
                .overrides
                .iter()
                .map(|edit| edit.row_key.as_str())
                .collect();
            snapshot
                .spot_rows
                .iter()
                .filter(|row| row.row_key.with_str(|key| keys.contains(key)))
                .cloned()
                .collect()
        };
        // The effective rows, and the assets and currencies the ledger names, the date span of
        // its rows and the engine's price lookups; the rows are checked and scanned in pieces
        // side by side.
        let tz = settings.fiscal_timezone;
        let (input, scan) = RowScan::with_input(
            std::mem::take(&mut snapshot.spot_rows),
            std::mem::take(&mut snapshot.futures_rows),
            &snapshot.overrides,
            tz,
            core_domain::effective::VISIT_PIECE_ROWS,
        );
        let RowScan {
            fiat,
            stated: stated_currencies,
            first,
            requests,
            last_days,
            overview,
        } = scan;
        // With more than one thread, the engine output's pages are first written by another
        // one while this one reads the prices (see `EngineBuffers`); alone, the engine faults
        // them in as it writes. The store is read on this thread only.
        let mut prefaulted = None;
        let market = rayon::in_place_scope(|scope| {
            if rayon::current_num_threads() > 1 {
                scope.spawn(|_| prefaulted = Some(EngineBuffers::prefaulted(&input)));
            }
            Self::market_of(store, fiat, stated_currencies, &last_days, requests)
        });
        let buffers = prefaulted.unwrap_or_else(|| EngineBuffers::for_rows(input.rows.len()));
        let Priced {
            crypto,
            rates,
            last_rate,
            market,
        } = market?;
        let engine_settings = EngineSettings {
            fiscal_timezone: tz,
            non_currency_virtual_assets: settings
                .irpf
                .non_currency_virtual_assets
                .iter()
                .copied()
                .collect(),
        };
        let (output, full) = if full_market {
            // The engine reads no store: it runs beside the closes' read, which stays on this
            // thread with the store.
            let mut output = None;
            let full = rayon::in_place_scope(|scope| {
                scope.spawn(|_| {
                    output = Some(fifo::run_in(&input, &market, &engine_settings, buffers));
                });
                FullMarket::load(store, &crypto, first, &rates).ok()
            });
            let Some(output) = output else {
                unreachable!("a scope returns after its spawned work");
            };
            (output, full)
        } else {
            (
                fifo::run_in(&input, &market, &engine_settings, buffers),
                None,
            )
        };
        let output = output?;
        // A failed full-market read is not the ledger's error: it is retried, and reported,
        // by the first valuation that asks for it, as without the early read.
        let full = full.map_or_else(OnceLock::new, OnceLock::from);
        Ok(Self {
            version: snapshot.version,
            settings,
            accounts: snapshot.accounts,
            overridden_rows,
            overrides: snapshot.overrides,
            links: snapshot.custody_links,
            futures_per_account,
            input,
            output,
            market,
            full,
            crypto,
            first,
            rates,
            last_rate,
            overview: overview.map_or_else(OnceLock::new, |scan| OnceLock::from(scan.finish())),
            custody: OnceLock::new(),
            integrity: OnceLock::new(),
            series: Mutex::new(BTreeMap::new()),
            snapshots: Mutex::new(BTreeMap::new()),
            reports: Mutex::new(BTreeMap::new()),
            report_dtos: Mutex::new(BTreeMap::new()),
            answers: Mutex::new(BTreeMap::new()),
        })
    }

    /// The market of the engine's price lookups: the closes in the rows' windows and the rates
    /// of every fiat currency the rows and closes name.
    fn market_of<S>(
        store: &S,
        mut fiat: LegSet<Asset>,
        stated_currencies: LegSet<Asset>,
        last_days: &LegMap<Asset, (Date, Date)>,
        mut requests: Vec<(Asset, Date)>,
    ) -> UseCaseResult<Priced>
    where
        S: RateStore + PriceStore,
    {
        let mut crypto: LegSet<Asset> = LegSet::default();
        crypto.extend(last_days.keys().copied());
        for currency in stated_currencies {
            if currency.is_fiat() {
                fiat.insert(currency);
            } else {
                crypto.insert(currency);
            }
        }
        if let Some(btc) = benchmark() {
            crypto.insert(btc);
        }
        let mut crypto: Vec<Asset> = crypto.into_iter().collect();
        crypto.sort_unstable();
        requests.sort_unstable();
        requests.dedup();
        let prices = store.price_candidates_table(&requests)?;
        fiat.extend(prices.quote_currencies());
        if let Some(usd) = DisplayCurrency::Usd.asset() {
            fiat.insert(usd);
        }
        let mut fiat: Vec<Asset> = fiat.into_iter().filter(|a| !a.is_eur()).collect();
        fiat.sort_unstable();
        let rates = store.rates_for(&fiat)?;
        let mut last_rate: BTreeMap<Asset, Date> = BTreeMap::new();
        for r in &rates {
            let e = last_rate.entry(r.currency).or_insert(r.date);
            *e = (*e).max(r.date);
        }
        let market = Market::with_prices(rates.iter().copied(), prices)?;
        Ok(Priced {
            crypto,
            rates,
            last_rate,
            market,
        })
    }

    /// Loads every close of the ledger's assets (once per ledger version). The currencies of
    /// closes outside the engine's windows may need rates not loaded yet; they are read too.
    pub fn load_full_market<S>(&self, store: &S) -> UseCaseResult<()>
    where
        S: PriceStore + RateStore + ?Sized,
    {
        if self.full.get().is_some() {
            return Ok(());
        }
        let full = FullMarket::load(store, &self.crypto, self.first, &self.rates)?;
        // A concurrent loader may have won the race; both built the same market.
        let _ = self.full.set(full);
        Ok(())
    }

    /// The market valuations and analytics read: every close when loaded
    /// ([`Derived::load_full_market`]), else the engine's candidates.
    pub fn valuation_market(&self) -> &Market {
        self.full.get().map_or(&self.market, |f| &f.market)
    }

    /// The latest stored close of `asset`, when the full market is loaded and has one.
    pub fn last_price(&self, asset: Asset) -> Option<Date> {
        self.full
            .get()
            .and_then(|f| f.last_price.get(&asset).copied())
    }

    /// The years and assets of the imported rows.
    pub fn overview(&self) -> &Overview {
        self.overview
            .get_or_init(|| self.overview_of_imported_rows())
    }

    /// [`Derived::overview`] from [`Derived::imported_rows`] and the futures rows.
    fn overview_of_imported_rows(&self) -> Overview {
        let mut scan = OverviewScan::default();
        let mut days = FiscalDays::new(self.settings.fiscal_timezone);
        for row in self.imported_rows() {
            scan.spot(row, days.date(row.instant));
        }
        for row in &self.input.futures {
            scan.futures(row, days.date(row.instant));
        }
        scan.finish()
    }

    /// What the IRPF computation reads of this state.
    pub fn irpf_input(&self) -> IrpfInput<'_> {
        IrpfInput {
            engine_input: &self.input,
            output: &self.output,
            accounts: &self.accounts,
            settings: &self.settings.irpf,
        }
    }

    /// The custody allocation over the whole ledger (built on first use).
    pub fn custody(&self) -> UseCaseResult<&CustodyOutput> {
        self.custody
            .get_or_init(|| {
                custody::allocate(&self.input, &self.output, &self.accounts, &self.links)
            })
            .as_ref()
            .map_err(|e| e.clone().into())
    }

    /// Builds the IRPF reports of `years` (without year-end holdings) from one prepared
    /// computation, and with `custody` the custody allocation beside them, for a caller about
    /// to ask for all of them (the portfolio and every year's report, or two years to
    /// compare): on a large ledger the allocation and the reports run side by side, and the
    /// computation is prepared once instead of once per year. What is already built is kept;
    /// an error is not kept here, so the question that asks for that part reports it.
    pub fn prepare(&self, years: &[i32], custody: bool) {
        let lock = || {
            self.reports
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        let missing: Vec<i32> = {
            let cache = lock();
            years
                .iter()
                .copied()
                .filter(|year| !cache.contains_key(&(*year, false)))
                .collect()
        };
        if missing.is_empty() {
            return;
        }
        let input = self.irpf_input();
        let mut built: Vec<IrpfYearReport> = Vec::with_capacity(missing.len());
        let mut keep = |report| built.push(report);
        let reports = if custody && self.custody.get().is_none() {
            let (allocation, reports) =
                pipeline::custody_and_year_reports(input, &self.links, Some(&missing), &mut keep);
            // Another thread may have built it meanwhile: either is the same allocation.
            if let Ok(allocation) = allocation {
                let _ = self.custody.set(Ok(allocation));
            }
            reports
        } else {
            pipeline::year_reports(input, Some(&missing), &mut keep)
        };
        if reports.is_ok() {
            let mut cache = lock();
            for report in built {
                cache
                    .entry((report.year, false))
                    .or_insert_with(|| Arc::new(report));
            }
        }
    }

    /// The integrity rows of the ledger (built on first use).
    pub fn integrity_rows(&self) -> UseCaseResult<&[IntegrityRow]> {
        let custody = self.custody()?;
        self.integrity
            .get_or_init(|| {
                quality::integrity_rows(&self.input, &self.output, &self.accounts, custody)
            })
            .as_ref()
            .map(Vec::as_slice)
            .map_err(|e| e.clone().into())
    }

    /// The analytics context at `as_of` in `currency`.
    pub fn context(&self, as_of: Instant, currency: DisplayCurrency) -> AnalyticsContext<'_> {
        AnalyticsContext {
            input: &self.input,
            output: &self.output,
            market: self.valuation_market(),
            timezone: self.settings.fiscal_timezone,
            as_of,
            currency,
        }
    }

    /// The daily valuation series at `as_of` in `currency`, built once per as-of fiscal date
    /// and currency (the series reads only the date of `as_of`).
    pub fn series(
        &self,
        as_of: Instant,
        currency: DisplayCurrency,
    ) -> UseCaseResult<Arc<DailySeries>> {
        let ctx = self.context(as_of, currency);
        bounded_memo(&self.series, (ctx.as_of_date(), currency), || {
            Ok(daily_series(&ctx)?)
        })
    }

    /// The holdings snapshot of `domain.md` §12.1 at `as_of` in `currency`, built once per
    /// as-of fiscal date and currency.
    pub fn holdings_snapshot(
        &self,
        as_of: Instant,
        currency: DisplayCurrency,
    ) -> UseCaseResult<Arc<HoldingsSnapshot>> {
        let ctx = self.context(as_of, currency);
        let custody = self.custody()?;
        bounded_memo(&self.snapshots, (ctx.as_of_date(), currency), || {
            let pieces = holdings::pieces(&custody.locations);
            let live = self.live_prices(ctx.as_of_date(), currency);
            Ok(holdings::holdings_snapshot(&ctx, &pieces, live.as_deref())?)
        })
    }

    /// The latest stored quote of each asset in `currency` dated on or before `as_of`: the
    /// snapshot's current price (`domain.md` §12.1). `None` before the full market is loaded;
    /// an asset without such a quote falls back to the daily close of §7.2.
    pub(crate) fn live_prices(
        &self,
        as_of: Date,
        currency: DisplayCurrency,
    ) -> Option<Vec<core_domain::holdings::LivePrice>> {
        let full = self.full.get()?;
        let code = Asset::new(currency.code()).ok()?;
        let mut live: Vec<core_domain::holdings::LivePrice> = Vec::new();
        for ((asset, quote), (date, close)) in &full.latest_quotes {
            if *quote == code && *date <= as_of {
                live.push(core_domain::holdings::LivePrice {
                    asset: *asset,
                    price: *close,
                    currency: *quote,
                });
            }
        }
        Some(live)
    }

    /// The date of the quote the snapshot uses for `asset` in `currency` at `as_of`, when it
    /// comes from the latest stored quotes.
    pub fn live_quote_date(
        &self,
        asset: Asset,
        currency: DisplayCurrency,
        as_of: Date,
    ) -> Option<Date> {
        let code = Asset::new(currency.code()).ok()?;
        let (date, _) = self.full.get()?.latest_quotes.get(&(asset, code))?;
        (*date <= as_of).then_some(*date)
    }

    /// The date of the close a holding of `asset` is valued at on `as_of` in `currency`: the
    /// latest stored quote in that currency, else the latest close of any fiat on or before
    /// `as_of` ([`core_domain::Market::latest_price`]). `None` when it is unvalued.
    pub fn valued_at_date(
        &self,
        asset: Asset,
        currency: DisplayCurrency,
        as_of: Date,
    ) -> Option<Date> {
        if let Some(date) = self.live_quote_date(asset, currency, as_of) {
            return Some(date);
        }
        match self.valuation_market().latest_price(asset, as_of) {
            Ok(core_domain::market::PriceLookup::Found { price, .. }) => Some(price.date),
            _ => None,
        }
    }

    /// The year report of `key`, computed by `compute` on first use.
    pub(crate) fn year_report(
        &self,
        key: (i32, bool),
        compute: impl FnOnce() -> UseCaseResult<IrpfYearReport>,
    ) -> UseCaseResult<Arc<IrpfYearReport>> {
        memo(&self.reports, key, compute)
    }

    /// The report DTO of `key`, computed by `compute` on first use.
    pub(crate) fn report_dto(
        &self,
        key: (i32, bool),
        compute: impl FnOnce() -> UseCaseResult<TaxReport>,
    ) -> UseCaseResult<Arc<TaxReport>> {
        memo(&self.report_dtos, key, compute)
    }

    /// The answer to the question `key` (the use case, its arguments and the as-of date it
    /// reads), computed by `compute` on first use: a question asked again at the same ledger
    /// version costs a lookup (an AI host asks the same few questions over and over). Errors
    /// are not kept. Past [`MAX_ANSWERS`] questions the memo starts over.
    pub(crate) fn answer<T: Send + Sync + 'static>(
        &self,
        key: String,
        compute: impl FnOnce() -> UseCaseResult<T>,
    ) -> UseCaseResult<Arc<T>> {
        let lock = || {
            self.answers
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(value) = lock().get(&key)
            && let Ok(value) = Arc::clone(value).downcast::<T>()
        {
            return Ok(value);
        }
        let value = Arc::new(compute()?);
        let mut answers = lock();
        if answers.len() >= MAX_ANSWERS && !answers.contains_key(&key) {
            answers.clear();
        }
        answers.insert(
            key,
            Arc::clone(&value) as Arc<dyn std::any::Any + Send + Sync>,
        );
        Ok(value)
    }

    /// The name of an account.
    pub fn account_name(&self, id: core_domain::AccountId) -> String {
        self.accounts
            .iter()
            .find(|a| a.id == id)
            .map_or_else(|| format!("#{}", id.0), |a| a.name.clone())
    }
}

/// The most use-case answers [`Derived::answer`] keeps.
const MAX_ANSWERS: usize = 256;

/// A value per key, computed once. The lock is not held while computing, so two threads may
/// compute the same value; both results are equal and the first stored wins.
fn memo<K: Ord + Copy, V>(
    cache: &Mutex<BTreeMap<K, Arc<V>>>,
    key: K,
    compute: impl FnOnce() -> UseCaseResult<V>,
) -> UseCaseResult<Arc<V>> {
    let lock = || {
        cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if let Some(value) = lock().get(&key) {
        return Ok(Arc::clone(value));
    }
    let value = Arc::new(compute()?);
    Ok(Arc::clone(lock().entry(key).or_insert(value)))
}

/// [`memo`] that forgets everything past a few entries: a long-running server asks at many
/// dates.
fn bounded_memo<K: Ord + Copy, V>(
    cache: &Mutex<BTreeMap<K, Arc<V>>>,
    key: K,
    compute: impl FnOnce() -> UseCaseResult<V>,
) -> UseCaseResult<Arc<V>> {
    {
        let mut lock = cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if lock.len() >= 8 && !lock.contains_key(&key) {
            lock.clear();
        }
    }
    memo(cache, key, compute)
}

#[cfg(test)]
mod tests;
