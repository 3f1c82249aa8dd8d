//! A compact builder of test ledgers, for the worked examples of `domain.md` and `irpf.md`.
//!
//! Enabled by the `testkit` feature (other crates turn it on in their dev-dependencies). It is
//! test support: it panics with a clear message on malformed test input instead of returning
//! errors, so examples read like the spec's tables.
//!
//! ```
//! use core_domain::testkit::{Ledger, buy, sell};
//!
//! let outcome = Ledger::new()
//!     .row(buy("d1r1", "Kraken", "2023-02-01T10:00:00Z")
//!         .inflow("1.5", "BTC").outflow("30000", "EUR").fee("15", "EUR"))
//!     .row(sell("d1r2", "Kraken", "2023-06-15T12:00:00Z")
//!         .inflow("25000", "EUR").outflow("1.0", "BTC").fee("20", "EUR"))
//!     .run();
//! assert_eq!(outcome.lot("L:d1r1:0").acquisition_value(), "30015.00");
//! assert_eq!(outcome.slice("E:d1r2:P:0").result(), "4970.00");
//! ```
//!
//! - Rows: one constructor per type ([`buy`], [`sell`], [`swap`], …, [`unknown`]) taking
//!   `(row_key, account name, instant)`, then `.inflow(q, asset)`, `.outflow(q, asset)`,
//!   `.fee(q, asset)`, `.stated_value(amount, currency)`, `.stated_price(..)`,
//!   `.stated_fee_value(..)`, `.group(id)` and `.seq(n)`. Without `.seq`, a row's `seq` is its
//!   position among the rows added (1, 2, …).
//! - Accounts are created by name on first use; `Kraken:earn` also creates its parent `Kraken`.
//! - Market data: [`Ledger::price`] `(date, asset, close, currency)` and [`Ledger::rate`]
//!   `(date, currency, rate)`; [`Ledger::ecb_rates_csv`] loads an ECB history file's text.
//! - Overrides: [`Ledger::edit`] with [`edit`]`(row_key).value(..).instant(..)…`.
//! - Futures: [`Ledger::future`] with [`future`]`(row_key, account, kind, contract, instant)`.
//! - [`Ledger::run`] returns an [`Outcome`] whose views format every figure by its output class
//!   (`"30015.00"`, `"0.5"`, `"unknown"` for an unknown value): [`Outcome::lot`] and
//!   [`Outcome::slice`] by public id, [`Outcome::operation`], [`Outcome::income`],
//!   [`Outcome::derivative`] by row key, [`Outcome::lot_ids`] and [`Outcome::slice_ids`] in
//!   output order, and [`Outcome::dump`], every record as text (two runs are byte-identical iff
//!   their dumps are equal).
//! - [`Ledger::input`], [`Ledger::market`], [`Ledger::accounts`], [`Ledger::spot_rows`] and
//!   [`Ledger::overrides`] hand the same data to other engines (custody, IRPF, analytics).
//! - [`synthetic::synthetic`] generates the deterministic large ledger of the benchmarks.

pub mod examples;
pub mod synthetic;

use rust_decimal::Decimal;
use shared_types::{CustodyKind, FuturesKind, QualityFlag, SpotTxType};

use crate::asset::Asset;
use crate::effective;
use crate::engine::{
    DerivativeResult, EngineInput, EngineOutput, FlagSet, IncomeReceipt, Lot, LotId, LotStatus,
    Operation, Provenance, Slice, Valued,
};
use crate::fifo::{self, EngineSettings};
use crate::ledger::{
    Account, AccountId, AssetAmount, Fee, FuturesRow, RowKey, SpotRow, StatedAmount, TxType,
};
use crate::market::{Market, PriceRow, RateRow};
use crate::num::{self, OutputClass};
use crate::overrides::{FeeEdit, RowOverride, ValueEdit};
use crate::time::{Date, FiscalTimezone, Instant};

/// Runs `work` on a rayon pool of its own with `threads` threads, as a library caller bounds
/// the engine's threads (the engine's parallel steps use the pool they are called from).
/// Tests run the same work on pools of different sizes and compare the results.
pub fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a test pool starts")
        .install(work)
}

/// Parses a test decimal (signed allowed).
pub fn dec(text: &str) -> Decimal {
    num::parse_decimal("testkit", text, true)
        .unwrap_or_else(|error| panic!("testkit: bad decimal {text:?}: {error}"))
}

/// Parses a test asset symbol.
pub fn asset(symbol: &str) -> Asset {
    Asset::new(symbol).unwrap_or_else(|error| panic!("testkit: bad asset {symbol:?}: {error}"))
}

/// Parses a test instant (`YYYY-MM-DDTHH:MM:SS[.f]Z`).
pub fn instant(text: &str) -> Instant {
    Instant::parse(text).unwrap_or_else(|error| panic!("testkit: bad instant {text:?}: {error}"))
}

/// Parses a test date (`YYYY-MM-DD`).
pub fn date(text: &str) -> Date {
    Date::parse_from_str(text, "%Y-%m-%d")
        .unwrap_or_else(|error| panic!("testkit: bad date {text:?}: {error}"))
}

/// Formats an optional EUR amount as `FIAT`, or `"unknown"`.
pub fn money(value: Option<Decimal>) -> String {
    value.map_or_else(|| "unknown".to_owned(), num::fiat)
}

/// Formats flags as `"MISSING_PRICE,CURRENCY_MISMATCH"` (canonical order; empty for none).
pub fn flags(set: FlagSet) -> String {
    set.iter()
        .map(QualityFlag::as_str)
        .collect::<Vec<_>>()
        .join(",")
}

/// A spot row under construction.
#[derive(Clone, Debug)]
pub struct RowSpec {
    row_key: String,
    account: String,
    tx_type: TxType,
    instant: Instant,
    seq: Option<u64>,
    inflow: Option<AssetAmount>,
    outflow: Option<AssetAmount>,
    fee: Option<Fee>,
    stated_value: Option<StatedAmount>,
    stated_price: Option<StatedAmount>,
    stated_fee_value: Option<StatedAmount>,
    group: Option<String>,
}

fn amount(quantity: &str, symbol: &str) -> AssetAmount {
    AssetAmount {
        asset: asset(symbol),
        quantity: dec(quantity),
    }
}

fn stated(value: &str, currency: &str) -> StatedAmount {
    StatedAmount {
        amount: dec(value),
        currency: asset(currency),
    }
}

impl RowSpec {
    /// A row of any type.
    pub fn new(row_key: &str, account: &str, tx_type: TxType, at: &str) -> Self {
        Self {
            row_key: row_key.to_owned(),
            account: account.to_owned(),
            tx_type,
            instant: instant(at),
            seq: None,
            inflow: None,
            outflow: None,
            fee: None,
            stated_value: None,
            stated_price: None,
            stated_fee_value: None,
            group: None,
        }
    }

    /// What the account received.
    pub fn inflow(mut self, quantity: &str, symbol: &str) -> Self {
        self.inflow = Some(amount(quantity, symbol));
        self
    }

    /// What the account gave.
    pub fn outflow(mut self, quantity: &str, symbol: &str) -> Self {
        self.outflow = Some(amount(quantity, symbol));
        self
    }

    /// The fee (`"0"` is a stated zero fee; negative for a fiat rebate).
    pub fn fee(mut self, quantity: &str, symbol: &str) -> Self {
        self.fee = Some(Fee {
            asset: asset(symbol),
            quantity: dec(quantity),
        });
        self
    }

    /// The source's fiat value of the operation.
    pub fn stated_value(mut self, value: &str, currency: &str) -> Self {
        self.stated_value = Some(stated(value, currency));
        self
    }

    /// The source's unit price of the principal asset.
    pub fn stated_price(mut self, value: &str, currency: &str) -> Self {
        self.stated_price = Some(stated(value, currency));
        self
    }

    /// The source's fiat value of a crypto fee.
    pub fn stated_fee_value(mut self, value: &str, currency: &str) -> Self {
        self.stated_fee_value = Some(stated(value, currency));
        self
    }

    /// The transfer group id.
    pub fn group(mut self, id: &str) -> Self {
        self.group = Some(id.to_owned());
        self
    }

    /// An explicit ledger `seq`.
    pub fn seq(mut self, seq: u64) -> Self {
        self.seq = Some(seq);
        self
    }
}

macro_rules! row_constructors {
    ($($name:ident => $variant:ident),+ $(,)?) => {
        $(
            #[doc = concat!("A `", stringify!($variant), "` row `(row_key, account, instant)`.")]
            pub fn $name(row_key: &str, account: &str, at: &str) -> RowSpec {
                RowSpec::new(row_key, account, TxType::Spot(SpotTxType::$variant), at)
            }
        )+
    };
}

row_constructors! {
    buy => Buy,
    sell => Sell,
    swap => Swap,
    deposit => Deposit,
    withdrawal => Withdrawal,
    staking => Staking,
    airdrop => Airdrop,
    reward => Reward,
    mining => Mining,
    spend => Spend,
    fee_row => Fee,
    transfer_in => TransferIn,
    transfer_out => TransferOut,
    migration => MigrationSwap,
    promotion => Promotion,
    fork => Fork,
}

/// An `Unknown { source_label }` row.
pub fn unknown(row_key: &str, account: &str, at: &str, label: &str) -> RowSpec {
    RowSpec::new(
        row_key,
        account,
        TxType::Unknown {
            source_label: label.to_owned(),
        },
        at,
    )
}

/// An override under construction.
#[derive(Clone, Debug)]
pub struct EditSpec(RowOverride);

/// Starts an override of `row_key`.
pub fn edit(row_key: &str) -> EditSpec {
    EditSpec(RowOverride {
        row_key: row_key.to_owned(),
        ..RowOverride::default()
    })
}

impl EditSpec {
    /// `tx_type = SET(type)`.
    pub fn tx_type(mut self, tx_type: SpotTxType) -> Self {
        self.0.tx_type = Some(tx_type);
        self
    }

    /// `instant = SET(instant)`.
    pub fn instant(mut self, at: &str) -> Self {
        self.0.instant = Some(instant(at));
        self
    }

    /// `in.quantity = SET(q)`.
    pub fn in_quantity(mut self, quantity: &str) -> Self {
        self.0.in_quantity = Some(dec(quantity));
        self
    }

    /// `out.quantity = SET(q)`.
    pub fn out_quantity(mut self, quantity: &str) -> Self {
        self.0.out_quantity = Some(dec(quantity));
        self
    }

    /// `fee = NONE`.
    pub fn no_fee(mut self) -> Self {
        self.0.fee = FeeEdit::None;
        self
    }

    /// `fee = CHARGED { asset, quantity }`.
    pub fn fee(mut self, quantity: &str, symbol: &str) -> Self {
        self.0.fee = FeeEdit::Charged {
            asset: asset(symbol),
            quantity: dec(quantity),
        };
        self
    }

    /// `edited_value = SET(amount, currency)`.
    pub fn value(mut self, value: &str, currency: &str) -> Self {
        self.0.edited_value = ValueEdit::Set {
            amount: dec(value),
            currency: asset(currency),
        };
        self
    }

    /// `edited_value = CLEAR`.
    pub fn clear_value(mut self) -> Self {
        self.0.edited_value = ValueEdit::Clear;
        self
    }

    /// `edited_price = SET(price, currency)`.
    pub fn price(mut self, value: &str, currency: &str) -> Self {
        self.0.edited_price = ValueEdit::Set {
            amount: dec(value),
            currency: asset(currency),
        };
        self
    }

    /// `edited_price = CLEAR`.
    pub fn clear_price(mut self) -> Self {
        self.0.edited_price = ValueEdit::Clear;
        self
    }

    /// `edited_fee_value = SET(amount, currency)`.
    pub fn fee_value(mut self, value: &str, currency: &str) -> Self {
        self.0.edited_fee_value = ValueEdit::Set {
            amount: dec(value),
            currency: asset(currency),
        };
        self
    }

    /// `excluded = true`.
    pub fn excluded(mut self) -> Self {
        self.0.excluded = true;
        self
    }

    /// The override.
    pub fn build(self) -> RowOverride {
        self.0
    }
}

/// A futures row under construction.
#[derive(Clone, Debug)]
pub struct FutureSpec {
    row_key: String,
    account: String,
    kind: FuturesKind,
    contract: String,
    instant: Instant,
    seq: Option<u64>,
    settlement: Asset,
    pnl: Decimal,
    funding: Decimal,
    fee_asset: Option<Asset>,
    fee: Decimal,
}

/// Starts a futures row `(row_key, account, kind, contract, instant)`, settled in USD until
/// [`FutureSpec::settle`] says otherwise.
pub fn future(
    row_key: &str,
    account: &str,
    kind: FuturesKind,
    contract: &str,
    at: &str,
) -> FutureSpec {
    FutureSpec {
        row_key: row_key.to_owned(),
        account: account.to_owned(),
        kind,
        contract: contract.to_owned(),
        instant: instant(at),
        seq: None,
        settlement: asset("USD"),
        pnl: Decimal::ZERO,
        funding: Decimal::ZERO,
        fee_asset: None,
        fee: Decimal::ZERO,
    }
}

impl FutureSpec {
    /// The settlement asset.
    pub fn settle(mut self, symbol: &str) -> Self {
        self.settlement = asset(symbol);
        self
    }

    /// Realized PnL (signed).
    pub fn pnl(mut self, value: &str) -> Self {
        self.pnl = dec(value);
        self
    }

    /// Funding (signed).
    pub fn funding(mut self, value: &str) -> Self {
        self.funding = dec(value);
        self
    }

    /// The fee (signed; negative = rebate).
    pub fn fee(mut self, value: &str, symbol: &str) -> Self {
        self.fee = dec(value);
        self.fee_asset = Some(asset(symbol));
        self
    }

    /// An explicit ledger `seq`.
    pub fn seq(mut self, seq: u64) -> Self {
        self.seq = Some(seq);
        self
    }
}

/// A test ledger: accounts, rows, overrides, market data and settings.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    accounts: Vec<Account>,
    rows: Vec<SpotRow>,
    futures: Vec<FuturesRow>,
    overrides: Vec<RowOverride>,
    prices: Vec<PriceRow>,
    rates: Vec<RateRow>,
    settings: EngineSettings,
}

impl Ledger {
    /// An empty ledger (`Europe/Madrid`).
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of the account named `name`, created (with its `venue` parent for
    /// `venue:segment`) on first use.
    pub fn account_id(&mut self, name: &str) -> AccountId {
        if let Some(account) = self.accounts.iter().find(|a| a.name == name) {
            return account.id;
        }
        let parent_id = name
            .split_once(':')
            .map(|(venue, _)| venue.to_owned())
            .map(|venue| self.account_id(&venue));
        let id = AccountId(self.accounts.len() as u32 + 1);
        self.accounts.push(Account {
            id,
            name: name.to_owned(),
            parent_id,
            custody_kind: CustodyKind::default(),
            country: None,
        });
        id
    }

    /// Adds a spot row.
    pub fn row(mut self, spec: RowSpec) -> Self {
        self.push(spec);
        self
    }

    /// Adds several spot rows.
    pub fn rows(mut self, specs: impl IntoIterator<Item = RowSpec>) -> Self {
        for spec in specs {
            self.push(spec);
        }
        self
    }

    /// Adds a spot row in place.
    pub fn push(&mut self, spec: RowSpec) -> &mut Self {
        let account_id = self.account_id(&spec.account);
        let seq = spec
            .seq
            .unwrap_or((self.rows.len() + self.futures.len()) as u64 + 1);
        self.rows.push(SpotRow {
            row_key: RowKey::new(&spec.row_key),
            seq,
            account_id,
            tx_type: spec.tx_type,
            instant: spec.instant,
            inflow: spec.inflow,
            outflow: spec.outflow,
            fee: spec.fee,
            values: crate::ledger::RowValues::stated(crate::ledger::StatedValues {
                value: spec.stated_value,
                price: spec.stated_price,
                fee_value: spec.stated_fee_value,
            }),
            transfer_group_id: spec.group,
        });
        self
    }

    /// Adds a futures row.
    pub fn future(mut self, spec: FutureSpec) -> Self {
        let account_id = self.account_id(&spec.account);
        let seq = spec
            .seq
            .unwrap_or((self.rows.len() + self.futures.len()) as u64 + 1);
        self.futures.push(FuturesRow {
            row_key: RowKey::new(&spec.row_key),
            seq,
            account_id,
            kind: spec.kind,
            contract: spec.contract,
            instant: spec.instant,
            settlement_asset: spec.settlement,
            realized_pnl: spec.pnl,
            funding: spec.funding,
            fee_asset: spec.fee_asset,
            fee: spec.fee,
        });
        self
    }

    /// Adds an override (validated at write time like the store would; panics if invalid).
    pub fn edit(mut self, spec: EditSpec) -> Self {
        let edit = spec.build();
        if let Some(row) = self.rows.iter().find(|r| r.row_key == *edit.row_key) {
            effective::validate_override(row, &edit)
                .unwrap_or_else(|error| panic!("testkit: {error}"));
        }
        self.overrides.retain(|o| o.row_key != edit.row_key);
        self.overrides.push(edit);
        self
    }

    /// Adds an override without validating it (data written before a rule existed).
    pub fn edit_unchecked(mut self, spec: EditSpec) -> Self {
        let edit = spec.build();
        self.overrides.retain(|o| o.row_key != edit.row_key);
        self.overrides.push(edit);
        self
    }

    /// Removes the override of `row_key` ("restore").
    pub fn restore(mut self, row_key: &str) -> Self {
        self.overrides.retain(|o| o.row_key != row_key);
        self
    }

    /// Adds a daily close `(date, asset, close, currency)`.
    pub fn price(mut self, on: &str, symbol: &str, close: &str, currency: &str) -> Self {
        self.prices.push(PriceRow {
            asset: asset(symbol),
            date: date(on),
            close: dec(close),
            currency: asset(currency),
        });
        self
    }

    /// Adds an ECB rate `(date, currency, units per EUR)`.
    pub fn rate(mut self, on: &str, currency: &str, rate: &str) -> Self {
        self.rates.push(RateRow {
            currency: asset(currency),
            date: date(on),
            rate: dec(rate),
        });
        self
    }

    /// Loads every rate of an ECB `eurofxref-hist.csv` text (`N/A` cells skipped).
    pub fn ecb_rates_csv(mut self, text: &str) -> Self {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            let Some(day) = cells
                .first()
                .and_then(|d| Date::parse_from_str(d, "%Y-%m-%d").ok())
            else {
                continue;
            };
            for (column, cell) in header.iter().zip(cells.iter()).skip(1) {
                let (Ok(currency), Ok(rate)) = (
                    Asset::new(column.trim()),
                    Decimal::from_str_exact(cell.trim()),
                ) else {
                    continue;
                };
                self.rates.push(RateRow {
                    currency,
                    date: day,
                    rate,
                });
            }
        }
        self
    }

    /// Sets the fiscal time zone.
    pub fn timezone(mut self, timezone: FiscalTimezone) -> Self {
        self.settings.fiscal_timezone = timezone;
        self
    }

    /// Lists an asset in `irpf.non_currency_virtual_assets`.
    pub fn non_currency_asset(mut self, symbol: &str) -> Self {
        self.settings
            .non_currency_virtual_assets
            .push(asset(symbol));
        self
    }

    /// The accounts.
    pub fn accounts(&self) -> &[Account] {
        &self.accounts
    }

    /// The imported spot rows.
    pub fn spot_rows(&self) -> &[SpotRow] {
        &self.rows
    }

    /// The imported futures rows.
    pub fn futures_rows(&self) -> &[FuturesRow] {
        &self.futures
    }

    /// The overrides.
    pub fn overrides(&self) -> &[RowOverride] {
        &self.overrides
    }

    /// The engine settings.
    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// The engine's input (overrides applied, excluded rows dropped).
    pub fn input(&self) -> EngineInput {
        effective::engine_input(&self.rows, &self.futures, &self.overrides)
    }

    /// The market tables.
    pub fn market(&self) -> Market {
        Market::new(self.rates.iter().copied(), self.prices.iter().copied())
            .unwrap_or_else(|error| panic!("testkit: {error}"))
    }

    /// Runs the engine.
    pub fn run(&self) -> Outcome {
        let input = self.input();
        let output = fifo::run(&input, &self.market(), &self.settings)
            .unwrap_or_else(|error| panic!("testkit: engine failed: {error}"));
        Outcome {
            accounts: self.accounts.clone(),
            input,
            output,
        }
    }
}

/// The engine's result with lookups by public id and formatted views.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The accounts of the ledger.
    pub accounts: Vec<Account>,
    /// The engine's input.
    pub input: EngineInput,
    /// The engine's output.
    pub output: EngineOutput,
}

impl Outcome {
    fn row_index(&self, row_key: &str) -> Option<u32> {
        self.input
            .rows
            .iter()
            .position(|r| r.row.row_key == row_key)
            .map(|i| i as u32)
    }

    fn account_name(&self, id: AccountId) -> String {
        self.accounts
            .iter()
            .find(|a| a.id == id)
            .map_or_else(|| format!("#{}", id.0), |a| a.name.clone())
    }

    /// The lot `L:<row_key>:<k>`, if it exists.
    pub fn find_lot(&self, public_id: &str) -> Option<LotView<'_>> {
        let rest = public_id.strip_prefix("L:")?;
        let (row_key, k) = rest.rsplit_once(':')?;
        let lot_id = LotId {
            row: self.row_index(row_key)?,
            k: k.parse().ok()?,
        };
        let lot = self.output.lot(lot_id)?;
        Some(LotView { outcome: self, lot })
    }

    /// The lot `L:<row_key>:<k>`; panics when absent.
    pub fn lot(&self, public_id: &str) -> LotView<'_> {
        self.find_lot(public_id)
            .unwrap_or_else(|| panic!("testkit: no lot {public_id}; lots: {:?}", self.lot_ids()))
    }

    /// Every lot id, in output order `(asset, queue_key)`.
    pub fn lot_ids(&self) -> Vec<String> {
        self.output
            .lots
            .iter()
            .map(|lot| self.input.lot_public_id(lot.lot_id))
            .collect()
    }

    /// The slice `E:<row_key>:<leg>:<n>`, if it exists.
    pub fn find_slice(&self, public_id: &str) -> Option<SliceView<'_>> {
        self.output
            .slices
            .iter()
            .find(|slice| self.input.slice_public_id(&self.output, slice) == public_id)
            .map(|slice| SliceView {
                outcome: self,
                slice,
            })
    }

    /// The slice `E:<row_key>:<leg>:<n>`; panics when absent.
    pub fn slice(&self, public_id: &str) -> SliceView<'_> {
        self.find_slice(public_id).unwrap_or_else(|| {
            panic!(
                "testkit: no slice {public_id}; slices: {:?}",
                self.slice_ids()
            )
        })
    }

    /// Every slice id, in output order.
    pub fn slice_ids(&self) -> Vec<String> {
        self.output
            .slices
            .iter()
            .map(|slice| self.input.slice_public_id(&self.output, slice))
            .collect()
    }

    /// The operation of `row_key` and leg (`"P"`, `"F"` or `"M"`); panics when absent.
    pub fn operation(&self, row_key: &str, leg: &str) -> &Operation {
        self.output
            .operations
            .iter()
            .find(|op| {
                self.input.row_key(op.row).is_some_and(|key| key == row_key)
                    && op.leg.as_str() == leg
            })
            .unwrap_or_else(|| panic!("testkit: no operation {row_key}:{leg}"))
    }

    /// The income receipt of `row_key`, if any.
    pub fn find_income(&self, row_key: &str) -> Option<&IncomeReceipt> {
        self.output.income.iter().find(|receipt| {
            self.input
                .row_key(receipt.row)
                .is_some_and(|key| key == row_key)
        })
    }

    /// The income receipt of `row_key`; panics when absent.
    pub fn income(&self, row_key: &str) -> &IncomeReceipt {
        self.find_income(row_key)
            .unwrap_or_else(|| panic!("testkit: no income receipt for {row_key}"))
    }

    /// The derivative result of futures row `row_key`; panics when absent.
    pub fn derivative(&self, row_key: &str) -> &DerivativeResult {
        self.output
            .derivatives
            .iter()
            .find(|result| {
                self.input
                    .futures
                    .get(result.row as usize)
                    .is_some_and(|row| row.row_key == row_key)
            })
            .unwrap_or_else(|| panic!("testkit: no derivative result for {row_key}"))
    }
}

/// One line of [`Outcome::dump`]: the asset it concerns and its formatted text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpLine {
    /// The asset the record concerns (the disposed, acquired or settlement asset).
    pub asset: Asset,
    /// The record, every figure formatted by its output class.
    pub text: String,
}

impl Outcome {
    /// Every lot, operation, slice, income receipt and derivative result as formatted text, in
    /// output order, identified by public ids (never by input positions): two runs are
    /// byte-identical iff their dumps are equal.
    pub fn dump(&self) -> Vec<DumpLine> {
        let mut lines = Vec::new();
        for lot in &self.output.lots {
            let view = LotView { outcome: self, lot };
            lines.push(DumpLine {
                asset: lot.asset,
                text: format!(
                    "lot {} {} {} acct={} on={} at={} orig={} rem={} cost={} remcost={} {} prov={} from={:?} flags=[{}]",
                    self.input.lot_public_id(lot.lot_id),
                    lot.asset,
                    lot.origin_type,
                    self.account_name(lot.account_id),
                    lot.acquired_on,
                    lot.acquired_at,
                    view.original(),
                    view.remaining(),
                    view.acquisition_value(),
                    view.remaining_cost(),
                    view.status(),
                    view.provenance(),
                    view.carried_from(),
                    view.flags(),
                ),
            });
        }
        for operation in &self.output.operations {
            lines.push(DumpLine {
                asset: operation.asset,
                text: format!(
                    "op {}:{} {} {} qty={} at={} on={} acct={} gross={} fee={} clave={} flags=[{}]",
                    key_text(self.input.row_key(operation.row)),
                    operation.leg.as_str(),
                    operation.tx_type,
                    operation.asset,
                    num::quantity(operation.quantity),
                    operation.disposed_at,
                    operation.fiscal_date,
                    self.account_name(operation.account_id),
                    money(operation.gross_value),
                    money(operation.fee_expense),
                    operation.clave.map_or("-", |c| c.as_str()),
                    flags(operation.flags),
                ),
            });
            for slice in self.output.slices_of(operation) {
                let view = SliceView {
                    outcome: self,
                    slice,
                };
                lines.push(DumpLine {
                    asset: slice.asset,
                    text: format!(
                        "slice {} lot={} qty={} gross={} fee={} net={} acq={} result={} included={} flags=[{}]",
                        self.input.slice_public_id(&self.output, slice),
                        view.lot(),
                        view.quantity(),
                        view.gross(),
                        view.fee_expense(),
                        view.net(),
                        view.acquisition_value(),
                        view.result(),
                        view.included(),
                        view.flags(),
                    ),
                });
            }
        }
        for receipt in &self.output.income {
            lines.push(DumpLine {
                asset: receipt.asset,
                text: format!(
                    "income {} {} {} {} qty={} value={} flags=[{}]",
                    key_text(self.input.row_key(receipt.row)),
                    receipt.tx_type,
                    receipt.bucket.as_str(),
                    receipt.fiscal_date,
                    num::quantity(receipt.quantity),
                    money(receipt.value.amount()),
                    flags(receipt.flags),
                ),
            });
        }
        for result in &self.output.derivatives {
            let key = self
                .input
                .futures
                .get(result.row as usize)
                .map_or_else(|| "?".to_owned(), |row| row.row_key.to_string());
            lines.push(DumpLine {
                asset: result.settlement_asset,
                text: format!(
                    "derivative {key} {} {} net={} flags=[{}]",
                    result.kind,
                    result.fiscal_date,
                    money(result.net),
                    flags(result.flags),
                ),
            });
        }
        lines
    }
}

/// A lot with formatted accessors.
#[derive(Clone, Copy, Debug)]
pub struct LotView<'a> {
    outcome: &'a Outcome,
    /// The lot.
    pub lot: &'a Lot,
}

impl LotView<'_> {
    /// The asset symbol.
    pub fn asset(&self) -> String {
        self.lot.asset.to_string()
    }

    /// The acquiring account's name.
    pub fn account(&self) -> String {
        self.outcome.account_name(self.lot.account_id)
    }

    /// `original_quantity` (`QUANTITY`).
    pub fn original(&self) -> String {
        num::quantity(self.lot.original_quantity)
    }

    /// `remaining_quantity` (`QUANTITY`).
    pub fn remaining(&self) -> String {
        num::quantity(self.lot.remaining_quantity)
    }

    /// `acquisition_value` (`FIAT`) or `"unknown"`.
    pub fn acquisition_value(&self) -> String {
        money(self.lot.acquisition_value)
    }

    /// `remaining_cost` (`FIAT`) or `"unknown"`.
    pub fn remaining_cost(&self) -> String {
        money(self.lot.remaining_cost)
    }

    /// `unit_cost` (`UNIT_PRICE`) or `"unknown"`.
    pub fn unit_cost(&self) -> String {
        self.lot.unit_cost().map_or_else(
            || "unknown".to_owned(),
            |unit| num::format(unit, OutputClass::UnitPrice),
        )
    }

    /// `OPEN`, `PARTIAL` or `CLOSED`.
    pub fn status(&self) -> &'static str {
        match self.lot.status() {
            LotStatus::Open => "OPEN",
            LotStatus::Partial => "PARTIAL",
            LotStatus::Closed => "CLOSED",
        }
    }

    /// Provenance spelling or `"unknown"`.
    pub fn provenance(&self) -> &'static str {
        self.lot.provenance.map_or("unknown", Provenance::as_str)
    }

    /// Flags, comma-separated in canonical order.
    pub fn flags(&self) -> String {
        flags(self.lot.flags)
    }

    /// `acquired_on` as `YYYY-MM-DD`.
    pub fn acquired_on(&self) -> String {
        self.lot.acquired_on.to_string()
    }

    /// `acquired_at` in the stored instant form.
    pub fn acquired_at(&self) -> String {
        self.lot.acquired_at.to_string()
    }

    /// The lot this one was carried from, as a public id.
    pub fn carried_from(&self) -> Option<String> {
        self.lot
            .carried_from
            .map(|id| self.outcome.input.lot_public_id(id))
    }

    /// The fx rate and its date, as `"1.0646@2023-03-06"`.
    pub fn fx(&self) -> Option<String> {
        self.lot.fx.map(|fx| {
            format!(
                "{}@{}",
                num::format(fx.rate, OutputClass::Rate),
                fx.rate_date
            )
        })
    }
}

/// A slice with formatted accessors.
#[derive(Clone, Copy, Debug)]
pub struct SliceView<'a> {
    outcome: &'a Outcome,
    /// The slice.
    pub slice: &'a Slice,
}

impl SliceView<'_> {
    fn operation(&self) -> Option<&Operation> {
        self.outcome.output.operation_of(self.slice)
    }

    /// The consumed lot's public id, or `"uncovered"`.
    pub fn lot(&self) -> String {
        self.slice.lot_id.map_or_else(
            || "uncovered".to_owned(),
            |id| self.outcome.input.lot_public_id(id),
        )
    }

    /// Quantity (`QUANTITY`).
    pub fn quantity(&self) -> String {
        num::quantity(self.slice.quantity)
    }

    /// Gross value (`FIAT`) or `"unknown"`.
    pub fn gross(&self) -> String {
        money(self.slice.gross_value())
    }

    /// Fee expense (`FIAT`) or `"unknown"`.
    pub fn fee_expense(&self) -> String {
        money(self.slice.fee_expense())
    }

    /// Net transmission value (`FIAT`) or `"unknown"`.
    pub fn net(&self) -> String {
        money(self.slice.net_transmission_value())
    }

    /// Acquisition value (`FIAT`) or `"unknown"`.
    pub fn acquisition_value(&self) -> String {
        money(self.slice.acquisition_value())
    }

    /// Result (`FIAT`) or `"unknown"`.
    pub fn result(&self) -> String {
        money(self.slice.result())
    }

    /// Whether the slice is included in taxable figures.
    pub fn included(&self) -> bool {
        self.slice.included
    }

    /// The clave letter, or `"-"` for migration legs.
    pub fn clave(&self) -> &'static str {
        self.operation()
            .and_then(|op| op.clave)
            .map_or("-", |clave| clave.as_str())
    }

    /// The leg letter.
    pub fn leg(&self) -> &'static str {
        self.slice.leg.as_str()
    }

    /// Flags, comma-separated in canonical order.
    pub fn flags(&self) -> String {
        flags(self.slice.flags)
    }

    /// The transmission provenance (the operation's valuation), or `"unknown"`.
    pub fn transmission_provenance(&self) -> &'static str {
        match self.operation().and_then(|op| op.valuation) {
            Some(Valued::Known { provenance, .. }) => provenance.as_str(),
            _ => "unknown",
        }
    }
}

/// A row key's text, empty for a row that does not exist.
fn key_text(key: Option<&RowKey>) -> String {
    key.map(ToString::to_string).unwrap_or_default()
}
