//! Port traits: what use cases need from storage and from the clock.
//!
//! Read ports ([`LedgerRead`], [`RateStore`], [`PriceStore`], [`SettingsStore`], [`Clock`])
//! have no write method; every write lives on [`LedgerWrite`], which only the CLI's write
//! commands receive. Lists come back in a defined order (stated on each method) so that the
//! same store always yields byte-identical reports.
//!
//! Rates and prices come back as `core_domain::market` rows (re-exported here), sorted by key:
//! the store stays a fast, dumb row source and the use cases build `RateTable` / `PriceTable`
//! (`RateTable::new(rows)`, `PriceTable::new(rows)`) from the rows they asked for: a ledger's
//! reports need only the currencies and assets it holds, not every stored close.

pub use core_domain::market::{PriceRow, PriceTable, PriceTableBuilder, RateRow};
use core_domain::overrides::{CustodyLink, RowOverride};
use core_domain::{
    Account, AccountId, Asset, AssetAmount, Date, Fee, FuturesRow, Instant, SpotRow, StatedAmount,
    TxType,
};
use rust_decimal::Decimal;
use shared_types::{CustodyKind, FuturesKind};

use crate::error::{PortError, PortResult};

// ---------------------------------------------------------------------------------------------
// Read side
// ---------------------------------------------------------------------------------------------

/// Everything the engine reads from the ledger, taken in one read transaction so the parts
/// agree with each other and with `version`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerSnapshot {
    /// The ledger version the snapshot was read at.
    pub version: u64,
    /// Every stored account, by id.
    pub accounts: Vec<Account>,
    /// Spot rows in ledger order `(instant, seq)`.
    pub spot_rows: Vec<SpotRow>,
    /// Futures rows in ledger order `(instant, seq)`.
    pub futures_rows: Vec<FuturesRow>,
    /// Row overrides, by row key (byte order).
    pub overrides: Vec<RowOverride>,
    /// Custody links, by the row key they are stored under (the out leg of a link, the leg of a
    /// counterparty), byte order.
    pub custody_links: Vec<CustodyLink>,
}

/// Display-only facts about a stored row that the engine never reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowDetail {
    /// The row key.
    pub row_key: String,
    /// Ledger sequence.
    pub seq: u64,
    /// The import log entry that stored the row.
    pub import_id: i64,
    /// The file name of that import, as given.
    pub file_name: String,
    /// The physical source lines of the operation (first line first).
    pub source_lines: Vec<u64>,
    /// The source's ids joined with `+`.
    pub source_ref: Option<String>,
    /// Original labels, sub-wallet, free text.
    pub note: Option<String>,
    /// The content identity key, when the importer computed one.
    pub content_key: Option<String>,
    /// Futures only: the execution price of a trade record.
    pub trade_price: Option<Decimal>,
    /// Futures only: whether `realized_pnl` was stated by the source (absent reads as 0).
    pub realized_pnl_stated: bool,
    /// Futures only: whether `funding` was stated by the source (absent reads as 0).
    pub funding_stated: bool,
    /// The name of the account the row is booked on, as stored.
    pub account: String,
}

/// One entry of the import log (`imports.md` §1.15), as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportLogEntry {
    /// Identity of the entry (increasing).
    pub id: i64,
    /// What was imported and the counts the importer measured.
    pub log: NewImportLog,
    /// Spot and futures records inserted, or rates/prices added.
    pub added: u64,
    /// Records (or values) already stored.
    pub duplicates: u64,
    /// Rates or prices replaced (`--replace`); 0 for ledger imports.
    pub replaced: u64,
}

/// Reads the ledger: accounts, rows, overrides, links and the ledger version.
pub trait LedgerRead {
    /// The ledger version: increases with every write that changes what reports read.
    fn ledger_version(&self) -> PortResult<u64>;
    /// Every stored account, by id (ids are assigned in creation order).
    fn accounts(&self) -> PortResult<Vec<Account>>;
    /// Spot rows in ledger order `(instant, seq)`.
    fn spot_rows(&self) -> PortResult<Vec<SpotRow>>;
    /// Futures rows in ledger order `(instant, seq)`.
    fn futures_rows(&self) -> PortResult<Vec<FuturesRow>>;
    /// Row overrides, by row key.
    fn overrides(&self) -> PortResult<Vec<RowOverride>>;
    /// Notes attached to overrides (`cartera edit --note`), by row key.
    fn override_notes(&self) -> PortResult<Vec<(String, String)>>;
    /// Custody links, by the row key they are stored under.
    fn custody_links(&self) -> PortResult<Vec<CustodyLink>>;
    /// All of the above in one consistent read.
    fn snapshot(&self) -> PortResult<LedgerSnapshot>;
    /// Display-only facts of one spot or futures row, `None` when the key is unknown.
    fn row_detail(&self, row_key: &str) -> PortResult<Option<RowDetail>>;
    /// The import log, oldest first.
    fn import_log(&self) -> PortResult<Vec<ImportLogEntry>>;
    /// Opens a read scope: every read of this store (ledger, prices, rates, settings) until the
    /// matching [`LedgerRead::end_read`] sees one committed state, and a transactional store
    /// takes its read lock once instead of once per statement. Scopes nest; a store without
    /// transactions does nothing.
    fn begin_read(&self) -> PortResult<()> {
        Ok(())
    }
    /// Closes the scope of the matching [`LedgerRead::begin_read`].
    fn end_read(&self) -> PortResult<()> {
        Ok(())
    }
}

/// Reads ECB reference rates. Every list is sorted by `(currency, date)`.
pub trait RateStore {
    /// Every stored rate.
    fn all_rates(&self) -> PortResult<Vec<RateRow>>;
    /// The rates of the given currencies (an empty slice gives an empty list).
    fn rates_for(&self, currencies: &[Asset]) -> PortResult<Vec<RateRow>>;
    /// `rate(currency, date)` of `domain.md` §7.1: the rate of `date`, else the latest earlier.
    fn rate_on_or_before(&self, currency: Asset, date: Date) -> PortResult<Option<RateRow>>;
    /// Number of stored rates.
    fn rate_count(&self) -> PortResult<u64>;
}

/// A stored price with its provenance (`imports.md` §3.1): the format of the file that last
/// wrote it (`daily`, `series`, `kraken-ohlcvt`; a `--replace` takes the new file's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredQuote {
    /// The price.
    pub row: PriceRow,
    /// The import log format of its file.
    pub format: String,
}

/// Reads daily prices. Lists are sorted by `(asset, date, currency)`, except
/// [`PriceStore::latest_prices`] (by `(asset, currency)`).
pub trait PriceStore {
    /// The prices of the given assets with `from ≤ date ≤ to` (an empty slice gives an empty
    /// list).
    fn prices_for(&self, assets: &[Asset], from: Date, to: Date) -> PortResult<Vec<PriceRow>>;
    /// [`PriceStore::prices_for`] pushed straight into `table`: a store that keeps closes in a
    /// compact form decodes them without a list of rows in between (a full market is about a
    /// million closes at 100k rows).
    fn price_table_for(
        &self,
        assets: &[Asset],
        from: Date,
        to: Date,
        table: &mut PriceTableBuilder,
    ) -> PortResult<()> {
        for row in self.prices_for(assets, from, to)? {
            table.push(row);
        }
        Ok(())
    }
    /// The union of the lookup windows `[date − 7 days, date]` of `domain.md` §7.2 for each
    /// `(asset, date)` request: every candidate any of the lookups can use, each row once.
    fn price_candidates(&self, requests: &[(Asset, Date)]) -> PortResult<Vec<PriceRow>>;
    /// [`PriceStore::price_candidates`] as a price table: a store that keeps closes in a
    /// compact form decodes them straight into it, without a list of rows in between.
    fn price_candidates_table(&self, requests: &[(Asset, Date)]) -> PortResult<PriceTable> {
        PriceTable::new(self.price_candidates(requests)?).map_err(|error| PortError::Corrupt {
            what: "price".to_owned(),
            reason: error.to_string(),
        })
    }
    /// Per `(asset, currency)`, the row with the latest date, sorted by `(asset, currency)`.
    fn latest_prices(&self) -> PortResult<Vec<PriceRow>> {
        Ok(self.latest_quotes()?.into_iter().map(|q| q.row).collect())
    }
    /// [`PriceStore::latest_prices`] with the format each row was imported from.
    fn latest_quotes(&self) -> PortResult<Vec<StoredQuote>>;
    /// Number of stored prices.
    fn price_count(&self) -> PortResult<u64>;
}

/// The settings of `domain.md` §0.1 and `irpf.md` §1, in this canonical order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SettingKey {
    /// `fiscal_timezone`.
    FiscalTimezone,
    /// `display_currency`.
    DisplayCurrency,
    /// `display_language`: the language of the human output (`es` or `en`).
    DisplayLanguage,
    /// `irpf.start_year`.
    IrpfStartYear,
    /// `irpf.declared_carry_forwards`.
    IrpfDeclaredCarryForwards,
    /// `irpf.general_absorption`.
    IrpfGeneralAbsorption,
    /// `irpf.art_33_5_warnings`.
    IrpfArt335Warnings,
    /// `irpf.non_currency_virtual_assets`.
    IrpfNonCurrencyVirtualAssets,
    /// `modelo_721.last_filed`.
    Modelo721LastFiled,
    /// `llm.endpoint`: the model server of `cartera ask` and `cartera chat`.
    LlmEndpoint,
    /// `llm.model`: the model name of `cartera ask` and `cartera chat`.
    LlmModel,
    /// `prices.provider_markets`: the user's market per asset and price provider (`cartera sync`).
    PricesProviderMarkets,
    /// `import.label_map`: export labels booked as a chosen type (`binance:Card Cashback=REWARD`).
    ImportLabelMap,
}

impl SettingKey {
    /// Every key, in canonical order.
    pub const ALL: &'static [SettingKey] = &[
        Self::FiscalTimezone,
        Self::DisplayCurrency,
        Self::DisplayLanguage,
        Self::IrpfStartYear,
        Self::IrpfDeclaredCarryForwards,
        Self::IrpfGeneralAbsorption,
        Self::IrpfArt335Warnings,
        Self::IrpfNonCurrencyVirtualAssets,
        Self::Modelo721LastFiled,
        Self::LlmEndpoint,
        Self::LlmModel,
        Self::PricesProviderMarkets,
        Self::ImportLabelMap,
    ];

    /// The key as users write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::FiscalTimezone => "fiscal_timezone",
            Self::DisplayCurrency => "display_currency",
            Self::DisplayLanguage => "display_language",
            Self::IrpfStartYear => "irpf.start_year",
            Self::IrpfDeclaredCarryForwards => "irpf.declared_carry_forwards",
            Self::IrpfGeneralAbsorption => "irpf.general_absorption",
            Self::IrpfArt335Warnings => "irpf.art_33_5_warnings",
            Self::IrpfNonCurrencyVirtualAssets => "irpf.non_currency_virtual_assets",
            Self::Modelo721LastFiled => "modelo_721.last_filed",
            Self::LlmEndpoint => "llm.endpoint",
            Self::LlmModel => "llm.model",
            Self::PricesProviderMarkets => "prices.provider_markets",
            Self::ImportLabelMap => "import.label_map",
        }
    }

    /// Parses the exact key.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|key| key.as_str() == text)
    }
}

impl std::fmt::Display for SettingKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads settings. Values are stored as canonical JSON text (`"Europe/Madrid"`, `2023`,
/// `true`, `[{"origin_year":2021,…}]`): the settings use case validates a value before it is
/// written and decodes it into its domain type when read. An unset key is `None` (its default
/// applies).
pub trait SettingsStore {
    /// The stored value of `key`.
    fn setting(&self, key: SettingKey) -> PortResult<Option<String>>;
    /// Every stored setting, in canonical key order.
    fn settings(&self) -> PortResult<Vec<(SettingKey, String)>>;
}

/// The only source of "now" a use case may read.
/// `Send + Sync` so a shared clock can serve a multi-threaded host (`tools.md` §3).
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Instant;
}

/// The instant type [`Clock`] answers, for layers that must not name `core-domain`.
pub use core_domain::Instant as ClockInstant;

/// The year of the fiscal date of `instant` in the default fiscal time zone (`Europe/Madrid`,
/// `domain.md` §1.5), for defaults such as `volatility_heatmap.year` (`tools.md` §6.8).
pub fn fiscal_year_of(instant: Instant) -> i32 {
    use chrono::Datelike;
    core_domain::FiscalTimezone::default()
        .fiscal_date(instant)
        .year()
}

/// A clock that always answers the same instant (tests, reproducible runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedClock(pub Instant);

impl Clock for FixedClock {
    fn now(&self) -> Instant {
        self.0
    }
}

// ---------------------------------------------------------------------------------------------
// Write side
// ---------------------------------------------------------------------------------------------

/// Whether a batch write commits or only reports what it would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WriteMode {
    /// Write and commit.
    #[default]
    Commit,
    /// Run every check against the store (duplicates, conflicts), then roll back (`--dry-run`).
    DryRun,
}

/// The import log entry a batch writes (`imports.md` §1.15). `added`, `duplicates` and
/// `replaced` are counted by the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewImportLog {
    /// When the import ran (the caller reads it from its [`Clock`]).
    pub imported_at: Instant,
    /// The file name as given on the command line.
    pub file_name: String,
    /// Lowercase hex SHA-256 of the file bytes.
    pub file_sha256: String,
    /// Profile id (`kraken-ledgers`, `generic`, …) or price/rate format (`ecb`, `daily`, …).
    pub format: String,
    /// Layout (`L12`, `v4`, …), when the profile has layouts.
    pub layout: Option<String>,
    /// The options used, as the user wrote them (`--account`, `Kraken`, …).
    pub options: Vec<String>,
    /// Rows read (CSV records after the header, blank ones excluded).
    pub rows_read: u64,
    /// Skipped rows by reason (`pending`, `internal-movement`, …).
    pub skipped: Vec<(String, u64)>,
    /// Invalid rows (non-zero only with `--skip-invalid`).
    pub invalid: u64,
    /// Warnings reported.
    pub warnings: u64,
}

impl Default for NewImportLog {
    fn default() -> Self {
        Self {
            imported_at: Instant::from_unix_nanos(0),
            file_name: String::new(),
            file_sha256: String::new(),
            format: String::new(),
            layout: None,
            options: Vec::new(),
            rows_read: 0,
            skipped: Vec::new(),
            invalid: 0,
            warnings: 0,
        }
    }
}

/// A normalised spot transaction ready to be stored (`imports.md` §1.5 → `domain.md` §4.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSpotRecord {
    /// The account name; created (with its `<venue>` parent) on first use, matched
    /// case-insensitively, first spelling kept.
    pub account: String,
    /// The identity (`imports.md` §1.14), unique in the ledger.
    pub row_key: String,
    /// The content identity key, kept for `source-changed` and cross-layout matching.
    pub content_key: Option<String>,
    /// Also a duplicate when a stored row has this record's `content_key` (Coinbase `v4`
    /// against `v2`/`v3`).
    pub dedupe_by_content_key: bool,
    /// The type; `Unknown` only for data written before a rule existed.
    pub tx_type: TxType,
    /// The instant.
    pub instant: Instant,
    /// What the account received.
    pub inflow: Option<AssetAmount>,
    /// What the account gave, fee excluded.
    pub outflow: Option<AssetAmount>,
    /// The fee: absent is not zero.
    pub fee: Option<Fee>,
    /// The source's fiat value of the operation.
    pub stated_value: Option<StatedAmount>,
    /// The source's unit price of the principal.
    pub stated_price: Option<StatedAmount>,
    /// The source's fiat value of a crypto fee.
    pub stated_fee_value: Option<StatedAmount>,
    /// Link between the legs of one movement.
    pub transfer_group_id: Option<String>,
    /// The source's ids joined with `+`.
    pub source_ref: Option<String>,
    /// Original labels and free text (display only).
    pub note: Option<String>,
    /// Physical source lines of the operation; the first orders the insertion.
    pub source_lines: Vec<u64>,
}

/// A futures record ready to be stored (`imports.md` §2.5 → `domain.md` §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFuturesRecord {
    /// The account name (`Kraken:futures`), created like a spot record's.
    pub account: String,
    /// The identity, unique in the ledger (shared key space with spot rows).
    pub row_key: String,
    /// The content identity key, when computed.
    pub content_key: Option<String>,
    /// Trade, funding, settlement or liquidation.
    pub kind: FuturesKind,
    /// Contract symbol as written.
    pub contract: String,
    /// The instant.
    pub instant: Instant,
    /// The settlement asset.
    pub settlement_asset: Asset,
    /// Signed realized PnL; absent reads back as 0.
    pub realized_pnl: Option<Decimal>,
    /// Signed funding; absent reads back as 0.
    pub funding: Option<Decimal>,
    /// Fee plus liquidation fee (signed; negative = rebate); absent when both cells are empty.
    pub fee: Option<Fee>,
    /// Execution price of a trade.
    pub trade_price: Option<Decimal>,
    /// The source's ids.
    pub source_ref: Option<String>,
    /// Margin account and labels (display only).
    pub note: Option<String>,
    /// Physical source lines; the first orders the insertion.
    pub source_lines: Vec<u64>,
}

/// One file's records, written atomically (`imports.md` §1.2 stage 7, §1.15).
///
/// The store sorts the records by `(instant, first source line)` (spot and futures together,
/// stable for ties) before it assigns `seq`, so callers may pass them in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportBatch {
    /// The log entry.
    pub log: NewImportLog,
    /// Spot records.
    pub spot: Vec<NewSpotRecord>,
    /// Futures records.
    pub futures: Vec<NewFuturesRecord>,
    /// Commit or dry run.
    pub mode: WriteMode,
}

/// Which list of an [`ImportBatch`] a record came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RecordRef {
    /// Index into `ImportBatch::spot`.
    Spot(usize),
    /// Index into `ImportBatch::futures`.
    Futures(usize),
}

/// How a duplicate was recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuplicateMatch {
    /// The identity (`row_key`) is stored.
    Identity,
    /// A stored row has the record's content key (`dedupe_by_content_key`).
    ContentKey,
}

/// A record that was not inserted because its identity is already stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The record of the batch.
    pub record: RecordRef,
    /// The stored row it duplicates.
    pub stored_row_key: String,
    /// The stored row's account differs (case-insensitively) from the record's: warning
    /// `duplicate-in-other-account` for declared keys.
    pub other_account: bool,
    /// Both have a content key and they differ: warning `source-changed`.
    pub content_changed: bool,
    /// How the stored row was found.
    pub matched_by: DuplicateMatch,
    /// An earlier record of the same batch, not a stored row, has this identity.
    pub within_batch: bool,
}

/// What an import batch did (or would do, in a dry run).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOutcome {
    /// Whether the batch was committed (false for a dry run).
    pub committed: bool,
    /// The import log entry written (`None` for a dry run).
    pub import_id: Option<i64>,
    /// Spot rows inserted.
    pub added_spot: u64,
    /// Futures rows inserted.
    pub added_futures: u64,
    /// Records not inserted because their identity was already stored, in insertion order
    /// (instant, first source line).
    pub duplicates: Vec<Duplicate>,
    /// Accounts created, in creation order (names as stored).
    pub created_accounts: Vec<String>,
    /// `seq` of the first and last inserted row.
    pub seq_range: Option<(u64, u64)>,
    /// The ledger version after the write.
    pub ledger_version: u64,
}

/// What to do with a value whose key is stored with a different value (`imports.md` §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ConflictPolicy {
    /// Any conflict rolls the whole batch back (default: the file is rejected).
    #[default]
    Reject,
    /// Conflicting values are left out, the others written (`--skip-invalid`).
    Skip,
    /// The new value replaces the stored one (`--replace`).
    Replace,
}

/// A value whose key is stored with a different value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarketConflict {
    /// Index of the row in the batch.
    pub index: usize,
    /// The stored value.
    pub stored: Decimal,
    /// The batch's value.
    pub new: Decimal,
}

/// A file of ECB rates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RateBatch {
    /// The log entry (`format` = `ecb`).
    pub log: NewImportLog,
    /// The rates; the caller has merged equal in-file duplicates.
    pub rows: Vec<RateRow>,
    /// Conflict handling.
    pub on_conflict: ConflictPolicy,
    /// Commit or dry run.
    pub mode: WriteMode,
}

/// A file of daily prices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PriceBatch {
    /// The log entry (`format` = `daily`, `series` or `kraken-ohlcvt`).
    pub log: NewImportLog,
    /// The prices; the caller has merged equal in-file duplicates.
    pub rows: Vec<PriceRow>,
    /// Conflict handling.
    pub on_conflict: ConflictPolicy,
    /// Commit or dry run.
    pub mode: WriteMode,
}

/// What a rate or price batch did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MarketOutcome {
    /// Whether the batch was committed (false for a dry run or a rejected batch).
    pub committed: bool,
    /// The import log entry written.
    pub import_id: Option<i64>,
    /// New keys stored.
    pub added: u64,
    /// Values equal (as decimals) to the stored ones.
    pub duplicates: u64,
    /// Stored values replaced (`ConflictPolicy::Replace`).
    pub replaced: u64,
    /// Conflicts found (not written unless replaced).
    pub conflicts: Vec<MarketConflict>,
    /// The ledger version after the write.
    pub ledger_version: u64,
}

/// Every write. Each method is one store transaction: all or nothing. A write that changes
/// what reports read bumps the ledger version.
pub trait LedgerWrite {
    /// Stores one import file: accounts are created, records whose identity is stored are
    /// counted as duplicates, the others get increasing `seq` in `(instant, first line)` order,
    /// the log entry is written (even when everything was a duplicate).
    fn write_import_batch(&mut self, batch: &ImportBatch) -> PortResult<ImportOutcome>;
    /// Stores ECB rates with the conflict policy of the batch.
    fn write_rates(&mut self, batch: &RateBatch) -> PortResult<MarketOutcome>;
    /// Stores daily prices with the conflict policy of the batch.
    fn write_prices(&mut self, batch: &PriceBatch) -> PortResult<MarketOutcome>;
    /// Sets a setting (the value is canonical JSON text, validated by the caller).
    fn set_setting(&mut self, key: SettingKey, value: &str) -> PortResult<()>;
    /// Removes a setting; `false` when it was not set.
    fn unset_setting(&mut self, key: SettingKey) -> PortResult<bool>;
    /// Returns the account with this name (case-insensitive), creating it (and its `<venue>`
    /// parent) when absent.
    fn ensure_account(&mut self, name: &str) -> PortResult<AccountId>;
    /// Sets an account's custody kind and country (`domain.md` §3).
    fn set_account_custody(
        &mut self,
        account: AccountId,
        kind: CustodyKind,
        country: Option<&str>,
    ) -> PortResult<()>;
    /// Records (or replaces) the override of a row, with an optional note. The row need not
    /// exist (such an override is kept and ignored, `domain.md` §6.1).
    fn set_override(&mut self, edit: &RowOverride, note: Option<&str>) -> PortResult<()>;
    /// Removes a row's override; `false` when there was none.
    fn restore_override(&mut self, row_key: &str) -> PortResult<bool>;
    /// Records a custody link; a leg already linked is `PortError::Conflict`, a counterparty
    /// account that does not exist is `PortError::NotFound`.
    fn link(&mut self, link: &CustodyLink) -> PortResult<()>;
    /// Removes every custody link that names `row_key`; returns how many.
    fn unlink(&mut self, row_key: &str) -> PortResult<u64>;
}
