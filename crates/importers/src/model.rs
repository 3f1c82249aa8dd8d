//! Output types of the importers: plain data the CLI maps to store records.

use std::collections::BTreeMap;
use std::fmt;

use core_domain::ledger::{AssetAmount, Fee, StatedAmount};
use core_domain::{Asset, Instant};
use rust_decimal::Decimal;
use shared_types::{FuturesKind, SpotTxType};

/// Severity of a finding (`imports.md` §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Blocks the row or the file.
    Error,
    /// Blocks nothing.
    Warning,
}

impl Level {
    /// `error` or `warning`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
        }
    }
}

/// One error or warning, positioned on a line and a cell of the source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Error or warning.
    pub level: Level,
    /// Code of the closed list of `imports.md` §4.2/§4.3.
    pub code: &'static str,
    /// 1-based physical line on which the record starts.
    pub line: u64,
    /// 1-based cell position.
    pub column: usize,
    /// Header text of the cell as written (`-` when the file has no readable record).
    pub header: String,
    /// The reason, following the template of §4.
    pub message: String,
    /// Whether the finding concerns the whole file (the file is rejected whatever the mode).
    pub file_level: bool,
}

impl Finding {
    /// Shortens the quoted cells of the message and the header to short excerpts with control
    /// characters escaped: a cell can be megabytes long or hold NUL bytes (D-83).
    pub(crate) fn tidy(&mut self) {
        if self.message.len() > shared_types::text::EXCERPT_CHARS
            || self.message.chars().any(char::is_control)
        {
            self.message = shared_types::text::quote_excerpts(&self.message);
        }
        if self.header.len() > shared_types::text::EXCERPT_CHARS
            || self.header.chars().any(char::is_control)
        {
            self.header = shared_types::text::excerpt(&self.header);
        }
    }

    /// The diagnostic line `<file>:<line>:<column>: <level>[<code>] column "<header>": <reason>`.
    pub fn render(&self, file: &str) -> String {
        format!(
            "{file}:{}:{}: {}[{}] column \"{}\": {}",
            self.line,
            self.column,
            self.level.as_str(),
            self.code,
            self.header,
            self.message
        )
    }
}

/// Why a row produced nothing (`imports.md` §1.13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// Not yet booked at the source.
    Pending,
    /// Cancelled or failed at the source.
    NotFinal,
    /// Same-asset conversion or a sub-wallet move that changes no account.
    InternalMovement,
    /// Kraken futures position bookkeeping.
    PositionLeg,
    /// Kraken futures conversions and transfers.
    CollateralMovement,
    /// Kraken `KFEE` fee credits.
    FeeCredit,
    /// A row of an account history whose operation another file of the same export states
    /// (KuCoin's account history beside its fills, deposit and withdrawal records, D-151).
    InOtherFile,
}

impl SkipReason {
    /// The report spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::NotFinal => "not-final",
            Self::InternalMovement => "internal-movement",
            Self::PositionLeg => "position-leg",
            Self::CollateralMovement => "collateral-movement",
            Self::FeeCredit => "fee-credit",
            Self::InOtherFile => "in-other-file",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A spot profile or the futures profile (`imports.md` §1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Profile {
    /// Kraken "Ledgers" export.
    KrakenLedgers,
    /// Kraken futures account log.
    KrakenFutures,
    /// Bitvavo transaction history.
    Bitvavo,
    /// Binance transaction history statement.
    BinanceStatement,
    /// Coinbase transaction history.
    Coinbase,
    /// The generic cartera CSV.
    Generic,
    /// Crypto.com App transaction history.
    CryptocomApp,
    /// Revolut crypto account statement.
    RevolutCrypto,
    /// Bit2Me movements workbook.
    Bit2me,
    /// Bitunix transaction export.
    Bitunix,
    /// KuCoin fills, deposits and withdrawals.
    Kucoin,
    /// OKX trading and funding account histories.
    Okx,
    /// Bybit spot trade history.
    Bybit,
}

impl Profile {
    /// Every profile, in alphabetical order of their ids.
    pub const ALL: [Self; 13] = [
        Self::BinanceStatement,
        Self::Bit2me,
        Self::Bitunix,
        Self::Bybit,
        Self::Bitvavo,
        Self::Coinbase,
        Self::CryptocomApp,
        Self::Generic,
        Self::KrakenFutures,
        Self::KrakenLedgers,
        Self::Kucoin,
        Self::Okx,
        Self::RevolutCrypto,
    ];

    /// The profile id used by `--format`.
    pub const fn id(self) -> &'static str {
        match self {
            Self::KrakenLedgers => "kraken-ledgers",
            Self::KrakenFutures => "kraken-futures",
            Self::Bitvavo => "bitvavo",
            Self::BinanceStatement => "binance-statement",
            Self::Coinbase => "coinbase",
            Self::Generic => "generic",
            Self::CryptocomApp => "cryptocom-app",
            Self::RevolutCrypto => "revolut-crypto",
            Self::Bit2me => "bit2me",
            Self::Bitunix => "bitunix",
            Self::Kucoin => "kucoin",
            Self::Okx => "okx",
            Self::Bybit => "bybit",
        }
    }

    /// Parses a `--format` id.
    pub fn parse(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The default `--account` of the profile (`None` for generic).
    pub const fn default_account(self) -> Option<&'static str> {
        match self {
            Self::KrakenLedgers | Self::KrakenFutures => Some("Kraken"),
            Self::Bitvavo => Some("Bitvavo"),
            Self::BinanceStatement => Some("Binance"),
            Self::Coinbase => Some("Coinbase"),
            Self::CryptocomApp => Some("Crypto.com"),
            Self::RevolutCrypto => Some("Revolut"),
            Self::Bit2me => Some("Bit2Me"),
            Self::Bitunix => Some("Bitunix"),
            Self::Kucoin => Some("KuCoin"),
            Self::Okx => Some("OKX"),
            Self::Bybit => Some("Bybit"),
            Self::Generic => None,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A time zone given with `--timezone`, or read from a Bitvavo row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    /// UTC.
    Utc,
    /// A fixed offset east of UTC, in seconds.
    Fixed(i32),
    /// An IANA zone of the bundled database.
    Iana(chrono_tz::Tz),
}

impl Zone {
    /// Parses `UTC`, `+HH:MM` / `-HH:MM` or an IANA name; `None` when unknown.
    pub fn parse(text: &str) -> Option<Self> {
        crate::values::parse_zone(text)
    }

    /// The zone as the user would write it.
    pub fn name(self) -> String {
        match self {
            Self::Utc => "UTC".to_owned(),
            Self::Fixed(secs) => {
                let sign = if secs < 0 { '-' } else { '+' };
                let abs = secs.unsigned_abs();
                format!("{sign}{:02}:{:02}", abs / 3600, abs % 3600 / 60)
            }
            Self::Iana(tz) => tz.name().to_owned(),
        }
    }
}

/// The version of the bundled IANA time-zone database (printed by `cartera --version`).
pub const TZDB_VERSION: &str = chrono_tz::IANA_TZDB_VERSION;

/// Options of `cartera import` that concern parsing (`imports.md` §1.1).
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// `--format`: skip detection.
    pub format: Option<Profile>,
    /// `--account`: the file's account (not with generic).
    pub account: Option<String>,
    /// `--timezone`.
    pub timezone: Option<Zone>,
    /// `--assume-fiat-quote` (coinbase only).
    pub assume_fiat_quote: bool,
    /// The user's label map (`--map` and the setting `import.label_map`): a label it names
    /// is booked as its type, whatever cartera would read otherwise.
    pub label_map: Vec<shared_types::LabelMapping>,
    /// The Binance accounts the user maps (`binance:account:NAME=WALLET|FUTURES`): an account
    /// cartera does not know is read as the entry says.
    pub account_map: Vec<shared_types::AccountMapping>,
}

impl ImportOptions {
    /// Adds map entries after those already here: the first entry naming a label or an
    /// account wins, so `--map` entries added first override the stored setting.
    pub fn add_map_entries(&mut self, entries: impl IntoIterator<Item = shared_types::MapEntry>) {
        for entry in entries {
            match entry {
                shared_types::MapEntry::Label(m) => self.label_map.push(m),
                shared_types::MapEntry::Account(m) => self.account_map.push(m),
            }
        }
    }
}

/// Profile and layout of a read file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatInfo {
    /// The profile.
    pub profile: Profile,
    /// The layout (`L12`, `current`, `utc`, `v4`, …); empty for generic.
    pub layout: &'static str,
    /// Whether detection chose it (`false` with `--format`).
    pub detected: bool,
}

impl fmt::Display for FormatInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.profile.id())?;
        if !self.layout.is_empty() {
            write!(f, ", layout {}", self.layout)?;
        }
        f.write_str(if self.detected {
            " (detected)"
        } else {
            " (forced)"
        })
    }
}

/// A normalised transaction (`imports.md` §1.5), ready to become a spot row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transaction {
    /// Account name as the file states it (`Kraken:spot`; a child account names its parent
    /// before the colon).
    pub account: String,
    /// Instant of the operation.
    pub timestamp: Instant,
    /// One of the 16 types.
    pub tx_type: SpotTxType,
    /// What the account received.
    pub inflow: Option<AssetAmount>,
    /// What the account gave, fee excluded.
    pub outflow: Option<AssetAmount>,
    /// The fee; `Some` with quantity 0 is an explicit zero.
    pub fee: Option<Fee>,
    /// Value of the principal stated by the source.
    pub fiat_value: Option<StatedAmount>,
    /// Link between transactions of one movement or operation.
    pub group_id: Option<String>,
    /// Lowercase hex SHA-256 of `identity_key`: the row key.
    pub identity: String,
    /// The identity key (`v1␟…`).
    pub identity_key: String,
    /// The content key of the transaction (kept by the store for `source-changed` and the
    /// Coinbase v2/v3 rule, §1.14).
    pub content_key: String,
    /// The source's ids joined with `+` (display only).
    pub source_ref: String,
    /// Original labels, sub-wallet, address, free text.
    pub note: String,
    /// Source lines of the operation, ascending; the first orders it.
    pub lines: Vec<u64>,
    /// 1-based column of the declared id (`txid`, `refid`, `Transaction ID`, `ID`, `id`) that
    /// store-level findings (`source-changed`, `duplicate-in-other-account`) point at, with
    /// the first line; `None` for content keys. Its header text is in
    /// [`ImportResult::header_cells`].
    pub key_column: Option<usize>,
}

impl Transaction {
    /// Whether a stored transaction with this one's content key is also a duplicate of it:
    /// a Coinbase `v4` row, whose declared key (and roles) start `v1␟coinbase␟id␟`, so an
    /// older `v2`/`v3` report of the same period does not count it twice (`imports.md` §1.14).
    /// A streamed reader's caller learns the layout only at the end; the key tells it now.
    #[must_use]
    pub fn matches_by_content_key(&self) -> bool {
        self.identity_key
            .starts_with("v1\u{1f}coinbase\u{1f}id\u{1f}")
    }
}

/// A futures record of the Kraken futures log (`imports.md` §2.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuturesRecord {
    /// `<account>:futures`.
    pub account: String,
    /// Instant of the entry.
    pub timestamp: Instant,
    /// Trade, funding, settlement or liquidation.
    pub kind: FuturesKind,
    /// Contract, lower case.
    pub contract: String,
    /// Settlement asset (aliased).
    pub settlement_asset: Asset,
    /// Realized PnL, signed.
    pub realized_pnl: Option<Decimal>,
    /// Funding, signed.
    pub funding_amount: Option<Decimal>,
    /// Fee asset (the settlement asset) when a fee is stated.
    pub fee_asset: Option<Asset>,
    /// Fee plus liquidation fee.
    pub fee_amount: Option<Decimal>,
    /// Execution price.
    pub trade_price: Option<Decimal>,
    /// Row key.
    pub identity: String,
    /// Identity key.
    pub identity_key: String,
    /// The entry's uid.
    pub source_ref: String,
    /// Margin account and label.
    pub note: String,
    /// Source line.
    pub line: u64,
    /// 1-based column of `uid`.
    pub key_column: Option<usize>,
}

/// Everything stages 1–6 produce for one file.
#[derive(Clone, Debug, Default)]
pub struct ImportResult {
    /// Profile and layout, when a header was accepted.
    pub format: Option<FormatInfo>,
    /// Line of the header record.
    pub header_line: Option<u64>,
    /// Header cells as written (trimmed), for positioning store-level findings.
    pub header_cells: Vec<String>,
    /// Rows read after the header (blank records excluded).
    pub rows_read: u64,
    /// Rows that are part of a returned transaction or futures record.
    pub rows_in_records: u64,
    /// Normalised transactions of the valid operations, in insertion order.
    pub transactions: Vec<Transaction>,
    /// Futures records, in insertion order.
    pub futures: Vec<FuturesRecord>,
    /// Skipped rows by reason.
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Rows that are invalid (every leg of an invalid group included).
    pub invalid_rows: u64,
    /// Every error and warning, sorted by line then column.
    pub findings: Vec<Finding>,
}

/// Whether `findings` hold a file-level error: nothing of the file may be written.
pub(crate) fn any_file_error(findings: &[Finding]) -> bool {
    findings
        .iter()
        .any(|f| f.file_level && f.level == Level::Error)
}

/// Whether `findings` hold any error, of the file or of a row.
pub(crate) fn any_error(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.level == Level::Error)
}

impl ImportResult {
    /// Whether a file-level error occurred (nothing of the file may be written).
    pub fn file_rejected(&self) -> bool {
        crate::model::any_file_error(&self.findings)
    }

    /// Whether any error (file or row) occurred.
    pub fn has_errors(&self) -> bool {
        crate::model::any_error(&self.findings)
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.level == Level::Error)
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.level == Level::Warning)
    }

    /// Total skipped rows.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }
}
