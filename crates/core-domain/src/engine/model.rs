//! Types shared by the FIFO engine, custody, quality, IRPF and analytics.

use rust_decimal::Decimal;
use shared_types::{FuturesKind, QualityFlag, SpotTxType};

use crate::asset::{Asset, CurrencyCode};
use crate::ledger::{AccountId, FuturesRow, RowKey, SpotRow, StatedAmount};
use crate::time::{Date, Instant};

/// A spot row with every override applied (`domain.md` §6.1, §8.1 step 1).
///
/// `row.tx_type` is `TxType::Unknown` when the effective form violates §4.2 (the reason is in
/// `source_label`). Excluded rows are not represented: they never reach the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EffectiveRow {
    /// The effective row (edited type, instant, quantities, fee; cleared statements removed),
    /// with the authoritative values a user set in its boxed values ([`EffectiveRow::edits`]).
    pub row: SpotRow,
}

/// The `SET(...)` value edits of an override (`domain.md` §6.1), all MANUAL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EditedValues {
    /// `edited_value = SET(...)`: authoritative fiat value of the operation.
    pub value: Option<StatedAmount>,
    /// `edited_price = SET(...)`: authoritative unit price of the principal asset.
    pub price: Option<StatedAmount>,
    /// `edited_fee_value = SET(...)`: authoritative fiat value of a crypto fee.
    pub fee_value: Option<StatedAmount>,
}

impl EffectiveRow {
    /// A row without value edits (any the row carries are dropped).
    pub fn new(mut row: SpotRow) -> Self {
        if row
            .values
            .as_ref()
            .is_some_and(|v| v.edited != EditedValues::default())
        {
            row.set_edited_values(EditedValues::default());
        }
        Self { row }
    }

    /// A row with these value edits (none stored when every one is unset).
    pub fn with_edits(mut row: SpotRow, edits: EditedValues) -> Self {
        row.set_edited_values(edits);
        Self { row }
    }

    /// The value edits, when any is set.
    pub fn edits(&self) -> Option<&EditedValues> {
        let values = self.row.values.as_deref()?;
        (values.edited != EditedValues::default()).then_some(&values.edited)
    }

    /// `edited_value = SET(...)`: authoritative fiat value of the operation (MANUAL).
    pub fn edited_value(&self) -> Option<StatedAmount> {
        self.edits().and_then(|edits| edits.value)
    }

    /// `edited_price = SET(...)`: authoritative unit price of the principal asset (MANUAL).
    pub fn edited_price(&self) -> Option<StatedAmount> {
        self.edits().and_then(|edits| edits.price)
    }

    /// `edited_fee_value = SET(...)`: authoritative fiat value of a crypto fee (MANUAL).
    pub fn edited_fee_value(&self) -> Option<StatedAmount> {
        self.edits().and_then(|edits| edits.fee_value)
    }
}

/// A small ordered set of quality flags (canonical order), stored as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlagSet(u16);

impl FlagSet {
    /// The empty set.
    pub const EMPTY: FlagSet = FlagSet(0);

    /// A set with one flag.
    pub const fn of(flag: QualityFlag) -> Self {
        Self(1 << flag.index())
    }

    /// Adds a flag.
    pub fn insert(&mut self, flag: QualityFlag) {
        self.0 |= 1 << flag.index();
    }

    /// Removes a flag.
    pub fn remove(&mut self, flag: QualityFlag) {
        self.0 &= !(1 << flag.index());
    }

    /// The union of two sets.
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// Whether the set holds `flag`.
    pub const fn contains(self, flag: QualityFlag) -> bool {
        self.0 & (1 << flag.index()) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether any flag of the set is blocking (`domain.md` §8.3 step 5).
    pub fn is_blocking(self) -> bool {
        self.iter().any(QualityFlag::is_blocking)
    }

    /// The flags in canonical order.
    pub fn iter(self) -> impl Iterator<Item = QualityFlag> {
        QualityFlag::ALL
            .iter()
            .copied()
            .filter(move |flag| self.contains(*flag))
    }
}

/// Where a value came from (`domain.md` §7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Provenance {
    /// A fiat amount in the import itself, or the fixed zero of a FORK.
    Stated,
    /// A user edit.
    Manual,
    /// The price store, quoted in EUR.
    Market,
    /// The price store, quoted in another fiat currency and converted with an ECB rate.
    MarketConverted,
}

impl Provenance {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Stated => "STATED",
            Self::Manual => "MANUAL",
            Self::Market => "MARKET",
            Self::MarketConverted => "MARKET_CONVERTED",
        }
    }
}

/// The ECB conversion applied to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FxDetail {
    /// Units of the currency per 1 EUR.
    pub rate: Decimal,
    /// The date the rate was published for.
    pub rate_date: Date,
}

/// The price row a market value used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PriceDetail {
    /// The close.
    pub price: Decimal,
    /// Its fiat currency (three bytes: the detail is copied into every market-valued record).
    pub currency: CurrencyCode,
    /// The price row's date.
    pub date: Date,
}

/// A value determined by `domain.md` §7.3: EUR cents with provenance, or unknown with the
/// blocking flag that explains why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valued {
    /// A known EUR cent amount.
    Known {
        /// EUR, rounded half-up to cents once.
        amount: Decimal,
        /// Where it came from.
        provenance: Provenance,
        /// The ECB conversion, when one was applied.
        fx: Option<FxDetail>,
        /// The price row, for market values.
        price: Option<PriceDetail>,
    },
    /// No value: `MISSING_PRICE` or `MISSING_FX_RATE`.
    Unknown {
        /// The blocking flag.
        flag: QualityFlag,
    },
}

impl Valued {
    /// The EUR amount, if known.
    pub fn amount(&self) -> Option<Decimal> {
        match self {
            Self::Known { amount, .. } => Some(*amount),
            Self::Unknown { .. } => None,
        }
    }
}

/// A lot's public identity `L:<row_key>:<k>`: the acquiring row (index into the engine's rows)
/// and `k` (0 for the row's own lot, 1, 2, … for lots a migration carries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LotId {
    /// Index of the acquiring (or migrating) row in [`EngineInput::rows`].
    pub row: u32,
    /// 0 for the row's own lot; 1.. for carried lots in consumption order.
    pub k: u32,
}

/// FIFO queue position `(acquired_at, origin seq, k, lot_id)` (`domain.md` §8.2); carried lots
/// inherit the first three from the lot they replace.
///
/// The final `lot_id` tie-break (by the public id `L:<row_key>:<k>`, which depends neither on
/// the input list's order nor on `seq` values) is stored as `tiebreak`: the lot's rank among
/// the lots of its asset that share the first three fields (0 when none does). Only carried
/// lots can share them, so the engine compares public ids only on that rare path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueueKey {
    /// Acquisition instant.
    pub acquired_at: Instant,
    /// The origin row's `seq`.
    pub seq: u64,
    /// The origin lot's `k`.
    pub k: u32,
    /// Rank by public lot id among lots with equal `(acquired_at, seq, k)`.
    pub tiebreak: u32,
}

/// Lot status by exact comparison of remaining and original quantity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LotStatus {
    /// Remaining = original.
    Open,
    /// 0 < remaining < original.
    Partial,
    /// Remaining = 0.
    Closed,
}

/// A FIFO lot (`domain.md` §8.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lot {
    /// Identity.
    pub lot_id: LotId,
    /// The asset.
    pub asset: Asset,
    /// The account that acquired it (never changed by transfers; the migration's for carried lots).
    pub account_id: AccountId,
    /// The type of the acquiring row (MIGRATION_SWAP for carried lots).
    pub origin_type: SpotTxType,
    /// For a carried lot, the lot it replaces.
    pub carried_from: Option<LotId>,
    /// Acquisition instant (inherited by carried lots).
    pub acquired_at: Instant,
    /// Fiscal date of the acquisition (inherited by carried lots).
    pub acquired_on: Date,
    /// Queue position.
    pub queue_key: QueueKey,
    /// Quantity acquired.
    pub original_quantity: Decimal,
    /// Quantity not yet consumed.
    pub remaining_quantity: Decimal,
    /// EUR cents including acquisition fees; `None` when unknown. A `NEGATIVE_COST_BASIS` lot
    /// keeps its computed (negative) value here for the audit trail, and every figure treats
    /// its cost as unknown (see [`Lot::known_cost`]).
    pub acquisition_value: Option<Decimal>,
    /// EUR cents still unconsumed (`None` when the acquisition value is unknown).
    pub remaining_cost: Option<Decimal>,
    /// Provenance of the principal value (inherited by carried lots).
    pub provenance: Option<Provenance>,
    /// The ECB conversion of the principal value.
    pub fx: Option<FxDetail>,
    /// The price row of a market principal value.
    pub price: Option<PriceDetail>,
    /// Quality flags (ordered set).
    pub flags: FlagSet,
}

impl Lot {
    /// Status by exact comparison.
    pub fn status(&self) -> LotStatus {
        if self.remaining_quantity.is_zero() {
            LotStatus::Closed
        } else if self.remaining_quantity == self.original_quantity {
            LotStatus::Open
        } else {
            LotStatus::Partial
        }
    }

    /// `acquisition_value ÷ original_quantity` (display only, class `UNIT_PRICE`; never used in
    /// arithmetic); `None` when the value is unknown or the quantity is zero.
    pub fn unit_cost(&self) -> Option<Decimal> {
        let value = self.acquisition_value?;
        if self.original_quantity.is_zero() {
            return None;
        }
        value.checked_div(self.original_quantity)
    }

    /// The acquisition value when usable by figures (known and not blocked).
    pub fn known_cost(&self) -> Option<Decimal> {
        if self.flags.is_blocking() {
            None
        } else {
            self.acquisition_value
        }
    }

    /// The remaining cost when usable by figures (known and not blocked).
    pub fn known_remaining_cost(&self) -> Option<Decimal> {
        if self.flags.is_blocking() {
            None
        } else {
            self.remaining_cost
        }
    }
}

/// The leg of a disposal: principal, fee or migration out-leg.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DisposalLeg {
    /// Principal disposal (`P`).
    Principal,
    /// Fee disposal (`F`).
    Fee,
    /// Migration out-leg (`M`).
    Migration,
}

impl DisposalLeg {
    /// `P`, `F` or `M`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Principal => "P",
            Self::Fee => "F",
            Self::Migration => "M",
        }
    }
}

/// Modelo 100 clave (box 1803) of a transmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Clave {
    /// Legal tender (SELL).
    F,
    /// Another virtual currency (SWAP).
    N,
    /// Another, non-currency virtual asset (SWAP into a listed asset).
    O,
    /// Goods or services (SPEND, FEE row, fee disposals).
    B,
}

impl Clave {
    /// The letter.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::F => "F",
            Self::N => "N",
            Self::O => "O",
            Self::B => "B",
        }
    }
}

/// Which swap leg set the transmission value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapWinner {
    /// The given leg (also on equality).
    Given,
    /// The received leg.
    Received,
}

/// The two independently valued legs of a swap (`domain.md` §8.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapDetail {
    /// Value of what was given.
    pub given: Valued,
    /// Value of what was received.
    pub received: Valued,
    /// The winning leg, when at least one is known.
    pub winner: Option<SwapWinner>,
}

/// One disposal leg (`domain.md` §8.9 "Operations").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// Index of the row in [`EngineInput::rows`].
    pub row: u32,
    /// The row's ledger `seq`.
    pub seq: u64,
    /// P, F or M.
    pub leg: DisposalLeg,
    /// The row type; FEE for a fee leg.
    pub tx_type: SpotTxType,
    /// The disposed asset.
    pub asset: Asset,
    /// The disposed quantity.
    pub quantity: Decimal,
    /// When.
    pub disposed_at: Instant,
    /// Fiscal date.
    pub fiscal_date: Date,
    /// The account the disposal is booked on.
    pub account_id: AccountId,
    /// Gross transmission value (EUR cents) or unknown; `None` for migration legs.
    pub gross_value: Option<Decimal>,
    /// Fee expense (EUR cents) or unknown; zero for fee and migration legs.
    pub fee_expense: Option<Decimal>,
    /// Clave; `None` for migration legs.
    pub clave: Option<Clave>,
    /// Flags of the disposal leg itself (not those inherited from lots).
    pub flags: FlagSet,
    /// The valuation of the gross value (for a swap, the winning leg's).
    pub valuation: Option<Valued>,
    /// Swap detail, for the principal leg of a SWAP (boxed: most operations are not swaps, and
    /// the detail would double every operation's size).
    pub swap: Option<Box<SwapDetail>>,
    /// Range of this operation's slices in [`EngineOutput::slices`].
    pub slices: std::ops::Range<u32>,
}

/// A lot event (`domain.md` §8.9 "Slices").
///
/// Stored compactly (a slice is the most numerous engine record): the optional amounts are
/// plain decimals with presence bits, the net transmission value is derived from gross and
/// fee, and the lot's instant and account are inline with presence bits. Build one from
/// [`SliceParts`]; read the optional amounts through the methods of the same names. `Debug`
/// prints the fields of [`SliceParts`] plus `net_transmission_value`, in declaration order.
#[derive(Clone, PartialEq, Eq)]
pub struct Slice {
    /// Index of the operation in [`EngineOutput::operations`].
    pub operation: u32,
    /// The disposal leg (copied from the operation for convenience).
    pub leg: DisposalLeg,
    /// 0-based index within the leg (`n` of `E:<row_key>:<leg>:<n>`), uncovered slice last.
    pub n: u32,
    /// The consumed lot; `None` for the uncovered slice.
    pub lot_id: Option<LotId>,
    /// The asset.
    pub asset: Asset,
    /// Quantity disposed in this slice.
    pub quantity: Decimal,
    /// Gross value, fee expense, acquisition value and result; zero when absent (see `present`).
    amounts: [Decimal; 4],
    /// The consumed lot's acquisition instant; meaningful when `present` says so.
    acquired_at: Instant,
    /// The consumed lot's acquisition fiscal date (inherited by carried lots).
    pub acquired_on: Option<Date>,
    /// The account that acquired the consumed lot; meaningful when `present` says so.
    lot_account_id: AccountId,
    /// The consumed lot's provenance.
    pub acquisition_provenance: Option<Provenance>,
    /// Whether the slice counts in taxable figures (no blocking flag; never for leg M).
    pub included: bool,
    /// Presence bits of the optional fields (`PRESENT_*`).
    present: u8,
    /// Union of the leg's flags and the consumed lot's flags.
    pub flags: FlagSet,
}

const PRESENT_GROSS: u8 = 1;
const PRESENT_FEE: u8 = 1 << 1;
const PRESENT_ACQUISITION: u8 = 1 << 2;
const PRESENT_RESULT: u8 = 1 << 3;
const PRESENT_ACQUIRED_AT: u8 = 1 << 4;
const PRESENT_LOT_ACCOUNT: u8 = 1 << 5;

/// The fields of a [`Slice`], as built by the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceParts {
    /// Index of the operation in [`EngineOutput::operations`].
    pub operation: u32,
    /// The disposal leg.
    pub leg: DisposalLeg,
    /// 0-based index within the leg, uncovered slice last.
    pub n: u32,
    /// The consumed lot; `None` for the uncovered slice.
    pub lot_id: Option<LotId>,
    /// The asset.
    pub asset: Asset,
    /// Quantity disposed in this slice.
    pub quantity: Decimal,
    /// Gross value allocated (EUR cents) or unknown; `None` for migration legs.
    pub gross_value: Option<Decimal>,
    /// Fee expense allocated (EUR cents) or unknown.
    pub fee_expense: Option<Decimal>,
    /// Consumed cost (EUR cents) or unknown.
    pub acquisition_value: Option<Decimal>,
    /// The consumed lot's acquisition instant.
    pub acquired_at: Option<Instant>,
    /// The consumed lot's acquisition fiscal date.
    pub acquired_on: Option<Date>,
    /// The account that acquired the consumed lot.
    pub lot_account_id: Option<AccountId>,
    /// The consumed lot's provenance.
    pub acquisition_provenance: Option<Provenance>,
    /// `gross − fee − acquisition`, when every side is known and the slice is included.
    pub result: Option<Decimal>,
    /// Whether the slice counts in taxable figures.
    pub included: bool,
    /// Union of the leg's flags and the consumed lot's flags.
    pub flags: FlagSet,
}

impl From<SliceParts> for Slice {
    fn from(parts: SliceParts) -> Self {
        let mut present = 0;
        let mut take = |value: Option<Decimal>, bit: u8| {
            value.map_or(Decimal::ZERO, |value| {
                present |= bit;
                value
            })
        };
        let amounts = [
            take(parts.gross_value, PRESENT_GROSS),
            take(parts.fee_expense, PRESENT_FEE),
            take(parts.acquisition_value, PRESENT_ACQUISITION),
            take(parts.result, PRESENT_RESULT),
        ];
        if parts.acquired_at.is_some() {
            present |= PRESENT_ACQUIRED_AT;
        }
        if parts.lot_account_id.is_some() {
            present |= PRESENT_LOT_ACCOUNT;
        }
        Self {
            operation: parts.operation,
            leg: parts.leg,
            n: parts.n,
            lot_id: parts.lot_id,
            asset: parts.asset,
            quantity: parts.quantity,
            amounts,
            acquired_at: parts.acquired_at.unwrap_or(Instant::from_unix_nanos(0)),
            acquired_on: parts.acquired_on,
            lot_account_id: parts.lot_account_id.unwrap_or(AccountId(0)),
            acquisition_provenance: parts.acquisition_provenance,
            included: parts.included,
            present,
            flags: parts.flags,
        }
    }
}

impl Slice {
    fn amount(&self, index: usize, bit: u8) -> Option<Decimal> {
        if self.present & bit == 0 {
            None
        } else {
            self.amounts.get(index).copied()
        }
    }

    /// Gross value allocated (EUR cents) or unknown; `None` for migration legs.
    pub fn gross_value(&self) -> Option<Decimal> {
        self.amount(0, PRESENT_GROSS)
    }

    /// Fee expense allocated (EUR cents) or unknown.
    pub fn fee_expense(&self) -> Option<Decimal> {
        self.amount(1, PRESENT_FEE)
    }

    /// `gross − fee_expense` (EUR cents) or unknown; `None` for migration legs. The engine
    /// computed it (checked) when it built the slice, so it is always representable.
    pub fn net_transmission_value(&self) -> Option<Decimal> {
        self.gross_value()?.checked_sub(self.fee_expense()?)
    }

    /// Consumed cost (EUR cents) or unknown. A slice of a `NEGATIVE_COST_BASIS` lot keeps the
    /// computed (negative) share for the audit trail; it is never included.
    pub fn acquisition_value(&self) -> Option<Decimal> {
        self.amount(2, PRESENT_ACQUISITION)
    }

    /// `gross − fee − acquisition`, when every side is known and the slice is included.
    pub fn result(&self) -> Option<Decimal> {
        self.amount(3, PRESENT_RESULT)
    }

    /// The consumed lot's acquisition instant (inherited by carried lots).
    pub fn acquired_at(&self) -> Option<Instant> {
        (self.present & PRESENT_ACQUIRED_AT != 0).then_some(self.acquired_at)
    }

    /// The account that acquired the consumed lot.
    pub fn lot_account_id(&self) -> Option<AccountId> {
        (self.present & PRESENT_LOT_ACCOUNT != 0).then_some(self.lot_account_id)
    }
}

#[allow(
    clippy::missing_fields_in_debug,
    reason = "prints the uncompacted record's fields (amounts, presence bits decoded), so dumps do not change"
)]
impl std::fmt::Debug for Slice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slice")
            .field("operation", &self.operation)
            .field("leg", &self.leg)
            .field("n", &self.n)
            .field("lot_id", &self.lot_id)
            .field("asset", &self.asset)
            .field("quantity", &self.quantity)
            .field("gross_value", &self.gross_value())
            .field("fee_expense", &self.fee_expense())
            .field("net_transmission_value", &self.net_transmission_value())
            .field("acquisition_value", &self.acquisition_value())
            .field("acquired_at", &self.acquired_at())
            .field("acquired_on", &self.acquired_on)
            .field("lot_account_id", &self.lot_account_id())
            .field("acquisition_provenance", &self.acquisition_provenance)
            .field("result", &self.result())
            .field("included", &self.included)
            .field("flags", &self.flags)
            .finish()
    }
}

/// Tax bucket of an income receipt (`domain.md` §8.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IncomeBucket {
    /// STAKING, REWARD: capital income (savings base).
    Rcm,
    /// AIRDROP, PROMOTION: gain not from a transmission (general base).
    GeneralGp,
    /// MINING: economic activity (reported only).
    Activity,
}

impl IncomeBucket {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Rcm => "RCM",
            Self::GeneralGp => "GENERAL_GP",
            Self::Activity => "ACTIVITY",
        }
    }
}

/// An income receipt (`domain.md` §8.6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncomeReceipt {
    /// Index of the row in [`EngineInput::rows`].
    pub row: u32,
    /// STAKING, REWARD, AIRDROP, PROMOTION or MINING.
    pub tx_type: SpotTxType,
    /// Fiscal date of receipt.
    pub fiscal_date: Date,
    /// The received asset (crypto or fiat).
    pub asset: Asset,
    /// The received quantity.
    pub quantity: Decimal,
    /// The value on receipt, or unknown (unresolved).
    pub value: Valued,
    /// Flags of the receipt.
    pub flags: FlagSet,
    /// The bucket.
    pub bucket: IncomeBucket,
}

/// One futures row's result in EUR (`domain.md` §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivativeResult {
    /// Index of the row in [`EngineInput::futures`].
    pub row: u32,
    /// The row's kind.
    pub kind: FuturesKind,
    /// Fiscal date.
    pub fiscal_date: Date,
    /// `round_half_up(pnl_eur + funding_eur − fee_eur, 2)`, or unknown.
    pub net: Option<Decimal>,
    /// `MISSING_FX_RATE` or `MISSING_PRICE` when unknown.
    pub flags: FlagSet,
    /// The settlement asset (the contract's native unit).
    pub settlement_asset: Asset,
}

/// What the engine reads: effective rows and futures rows (each list in any order; the engine
/// sorts by ledger order itself).
#[derive(Clone, Debug, Default)]
pub struct EngineInput {
    /// Effective spot rows (excluded rows already dropped).
    pub rows: Vec<EffectiveRow>,
    /// Futures rows (excluded rows already dropped).
    pub futures: Vec<FuturesRow>,
}

/// What the FIFO engine produces (`domain.md` §8.9).
#[derive(Clone, Debug, Default)]
pub struct EngineOutput {
    /// Row indices in ledger order `(instant, seq)`.
    pub ledger_order: Vec<u32>,
    /// Lots, ordered by `(asset, queue_key)`.
    pub lots: Vec<Lot>,
    /// Disposal legs, ordered by `(disposed_at, seq, leg P < F < M)` like their slices.
    pub operations: Vec<Operation>,
    /// Slices, ordered by `(disposed_at, seq, leg, n)`.
    pub slices: Vec<Slice>,
    /// Income receipts, in ledger order.
    pub income: Vec<IncomeReceipt>,
    /// Derivative results, in ledger order.
    pub derivatives: Vec<DerivativeResult>,
    /// `(lot_id, index into lots)`, sorted by lot id, for [`EngineOutput::lot`].
    pub lot_index: Vec<(LotId, u32)>,
}

impl EngineOutput {
    /// The lot with this id.
    pub fn lot(&self, lot_id: LotId) -> Option<&Lot> {
        let position = self
            .lot_index
            .binary_search_by(|(id, _)| id.cmp(&lot_id))
            .ok()?;
        let (_, index) = self.lot_index.get(position)?;
        self.lots.get(*index as usize)
    }

    /// The operation a slice belongs to.
    pub fn operation_of(&self, slice: &Slice) -> Option<&Operation> {
        self.operations.get(slice.operation as usize)
    }

    /// The slices of an operation.
    pub fn slices_of(&self, operation: &Operation) -> &[Slice] {
        self.slices
            .get(operation.slices.start as usize..operation.slices.end as usize)
            .unwrap_or(&[])
    }
}

impl EngineInput {
    /// The public lot id `L:<row_key>:<k>` (`domain.md` §1.4).
    pub fn lot_public_id(&self, lot_id: LotId) -> String {
        match self.rows.get(lot_id.row as usize) {
            Some(row) => format!("L:{}:{}", row.row.row_key, lot_id.k),
            None => format!("L:?:{}", lot_id.k),
        }
    }

    /// The public slice id `E:<row_key>:<leg>:<n>` (`domain.md` §1.4).
    pub fn slice_public_id(&self, output: &EngineOutput, slice: &Slice) -> String {
        let row = output
            .operation_of(slice)
            .and_then(|operation| self.rows.get(operation.row as usize));
        match row {
            Some(row) => format!("E:{}:{}:{}", row.row.row_key, slice.leg.as_str(), slice.n),
            None => format!("E:?:{}:{}", slice.leg.as_str(), slice.n),
        }
    }

    /// The row key of a spot row index (`None` past the rows).
    pub fn row_key(&self, row: u32) -> Option<&RowKey> {
        self.rows.get(row as usize).map(|row| &row.row.row_key)
    }
}
