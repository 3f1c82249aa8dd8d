//! [`Ledger`]: one SQLite ledger and the read questions over it.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::{Arc, MutexGuard};

use ledger_sqlite::SqliteLedger;
use shared_types::SpotTxType;
use shared_types::dto::{
    FiscalIntegrity, LedgerVersion, PortfolioSummary, SettingsList, TaxReport, TokenHistory, TxPage,
};
use use_cases::commands;
use use_cases::queries::{
    CurrencyRequest, DEFAULT_PAGE_SIZE, LedgerQueries, ReadUseCases, TaxReportRequest,
    TokenHistoryRequest, TxSearchRequest, parse_date,
};

use crate::clock::{Clock, Port};
use crate::error::{Error, Result, Typed as _};

/// The read use cases over the SQLite store, as the ledger shares them with its tools.
pub(crate) type Queries = LedgerQueries<SqliteLedger>;

/// One cartera ledger: imports, settings and the read questions, over one SQLite file (or an
/// in-memory database).
///
/// A `Ledger` is `Send + Sync` and cheap to clone (clones share the same store and the same
/// cache of derived state), so a web service opens it once and hands clones to its request
/// threads. Calls are serialized on the store; the derived state (FIFO lots, the tax
/// computation) is computed once per ledger version and shared by every later question,
/// including the ones the [`Tools`](crate::Tools) of this ledger answer.
///
/// ```
/// use cartera::{FixedClock, ImportOptions, Ledger};
///
/// let ledger = Ledger::in_memory(FixedClock::parse("2024-12-31T12:00:00Z")?)?;
/// let csv = "timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,\
///            fee_amount,fiat_value,fiat_currency,id,group_id,note\n\
///            2024-03-01T10:00:00Z,BUY,Bank,BTC,0.01,EUR,500,,,,,b1,,\n";
/// let report = ledger.import_bytes("buys.csv", csv.as_bytes(), &ImportOptions::default())?;
/// assert_eq!(report.added, 1);
/// assert_eq!(ledger.lots("BTC", 0, 10)?.total_count, 1);
/// # Ok::<(), cartera::Error>(())
/// ```
#[derive(Clone)]
pub struct Ledger {
    pub(crate) queries: Arc<Queries>,
    pub(crate) clock: Port,
    path: Option<PathBuf>,
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// A page of [`Ledger::transactions`]: filters on the effective values of the rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxQuery {
    /// Either side of the transaction is this asset (exact symbol, any case).
    pub symbol: Option<String>,
    /// First fiscal date, `YYYY-MM-DD`, inclusive.
    pub from: Option<String>,
    /// Last fiscal date, `YYYY-MM-DD`, inclusive.
    pub to: Option<String>,
    /// Transaction types (empty: every type).
    pub types: Vec<SpotTxType>,
    /// Page number, from 1.
    pub page: usize,
    /// Rows per page (at least 1).
    pub page_size: usize,
}

impl Default for TxQuery {
    fn default() -> Self {
        Self {
            symbol: None,
            from: None,
            to: None,
            types: Vec::new(),
            page: 1,
            page_size: DEFAULT_PAGE_SIZE,
        }
    }
}

impl Ledger {
    fn over(store: SqliteLedger, clock: impl Clock, path: Option<PathBuf>) -> Self {
        let clock = Port(Arc::new(clock));
        Self {
            queries: Arc::new(LedgerQueries::new(store, clock.clone())),
            clock,
            path,
        }
    }

    /// Opens the ledger at `path` for reading and writing, creating it when absent.
    /// A file that is not a cartera ledger is refused ([`Error::NotALedger`]) and left as it is.
    pub fn create(path: impl AsRef<Path>, clock: impl Clock) -> Result<Self> {
        let path = path.as_ref();
        let store = SqliteLedger::create_or_open(path).map_err(|e| Error::open(path, e))?;
        Ok(Self::over(store, clock, Some(path.to_owned())))
    }

    /// Opens an existing ledger for reading and writing; a missing file is
    /// [`Error::NoLedger`].
    pub fn open(path: impl AsRef<Path>, clock: impl Clock) -> Result<Self> {
        let path = path.as_ref();
        let store = SqliteLedger::open_existing(path).map_err(|e| Error::open(path, e))?;
        Ok(Self::over(store, clock, Some(path.to_owned())))
    }

    /// Opens an existing ledger read-only: nothing is created or migrated, it works on
    /// read-only storage and during another program's import (it reads the last committed
    /// state), and every write answers [`Error::ReadOnly`]. A missing file is
    /// [`Error::NoLedger`].
    pub fn open_read_only(path: impl AsRef<Path>, clock: impl Clock) -> Result<Self> {
        let path = path.as_ref();
        let store = SqliteLedger::open_reader(path).map_err(|e| Error::open(path, e))?;
        Ok(Self::over(store, clock, Some(path.to_owned())))
    }

    /// A new, empty ledger in memory (tests, one-off computations); gone when the last clone
    /// is dropped.
    pub fn in_memory(clock: impl Clock) -> Result<Self> {
        Ok(Self::over(
            SqliteLedger::open_in_memory().typed()?,
            clock,
            None,
        ))
    }

    /// The file of the ledger; `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The store, for a write (reads go through the use cases, which lock it themselves).
    pub(crate) fn store(&self) -> MutexGuard<'_, SqliteLedger> {
        self.queries.store()
    }

    /// Stores a setting and returns its canonical JSON text. `key` is a setting name as
    /// [`Ledger::settings`] lists it (`fiscal_timezone`, `irpf.start_year`, …); `value` is JSON
    /// text, or plain text taken as a JSON string (`Atlantic/Canary`).
    pub fn set_setting(&self, key: &str, value: &str) -> Result<String> {
        let key = commands::parse_setting_key(key).typed()?;
        let value = if serde_json::from_str::<serde_json::Value>(value).is_ok() {
            value.to_owned()
        } else {
            serde_json::Value::String(value.to_owned()).to_string()
        };
        commands::set_setting(&mut *self.store(), key, &value).typed()
    }

    /// Removes a setting (its default applies again); `false` when it was not set.
    pub fn unset_setting(&self, key: &str) -> Result<bool> {
        let key = commands::parse_setting_key(key).typed()?;
        commands::unset_setting(&mut *self.store(), key).typed()
    }

    /// Every setting with its stored value and default.
    pub fn settings(&self) -> Result<SettingsList> {
        self.queries.list_settings().typed()
    }

    /// The ledger version: it changes with every write that changes an answer.
    pub fn version(&self) -> Result<LedgerVersion> {
        self.queries.get_ledger_version().typed()
    }

    /// The portfolio at "now" (the clock's instant) in the `display_currency` setting: valued
    /// holdings, unvalued ones (never worth zero), totals.
    pub fn portfolio(&self) -> Result<PortfolioSummary> {
        self.queries
            .get_portfolio_summary(&CurrencyRequest::default())
            .typed()
    }

    /// The Spanish IRPF report of a fiscal year (FIFO per asset), with its audit trail.
    pub fn tax_report(&self, year: i32) -> Result<TaxReport> {
        self.queries
            .get_spanish_tax_report(&tax_request(year))
            .typed()
    }

    /// The IRPF reports of a range of years, oldest first, computed together.
    pub fn tax_reports(&self, years: RangeInclusive<i32>) -> Result<Vec<TaxReport>> {
        let years: Vec<i32> = years.collect();
        self.queries.prepare_tax_years(&years).typed()?;
        years
            .into_iter()
            .map(|year| self.tax_report(year))
            .collect()
    }

    /// The FIFO lots of one asset (any case), newest first, one page (pages from 0).
    pub fn lots(&self, symbol: &str, page: usize, page_size: usize) -> Result<TokenHistory> {
        self.queries
            .get_token_history(&TokenHistoryRequest {
                symbol: symbol.to_owned(),
                page,
                page_size,
            })
            .typed()
    }

    /// A page of transactions, newest first, as the corrections left them.
    pub fn transactions(&self, query: &TxQuery) -> Result<TxPage> {
        let date = |field: &str, text: &Option<String>| match text {
            None => Ok(None),
            Some(text) => parse_date(text)
                .map(Some)
                .ok_or_else(|| Error::InvalidRequest {
                    field: field.to_owned(),
                    reason: format!("{text:?} is not a date: write it as 2024-12-31"),
                }),
        };
        self.queries
            .search_spot_transactions(&TxSearchRequest {
                symbol: query.symbol.clone(),
                from: date("from", &query.from)?,
                to: date("to", &query.to)?,
                types: query.types.clone(),
                page: query.page,
                page_size: query.page_size,
            })
            .typed()
    }

    /// The data-quality findings: what the reports could not value or match, and why.
    pub fn integrity(&self) -> Result<FiscalIntegrity> {
        self.queries.get_fiscal_integrity().typed()
    }
}

/// The tax report request of `year`, as `cartera tax YEAR` asks it.
fn tax_request(year: i32) -> TaxReportRequest {
    TaxReportRequest {
        year,
        with_year_end_holdings: false,
    }
}
