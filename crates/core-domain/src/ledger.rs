//! The ledger model: accounts, spot rows and futures rows (`domain.md` §3 to §5).

use rust_decimal::Decimal;
use shared_types::{CustodyKind, FuturesKind, SpotTxType};

use crate::asset::Asset;
use crate::engine::EditedValues;
use crate::time::Instant;

/// Opaque account identity, assigned by the store. Synthetic `ownwallet-<ASSET>` accounts are
/// not stored: custody names them by asset (see `crate::custody`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AccountId(pub u32);

/// An account of the forest of `domain.md` §3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Identity.
    pub id: AccountId,
    /// Trimmed name, 1–64 characters, unique case-insensitively.
    pub name: String,
    /// Parent in the account forest (sub-accounts of an exchange).
    pub parent_id: Option<AccountId>,
    /// Custody kind; meaningful on top-level accounts, inherited by sub-accounts.
    pub custody_kind: CustodyKind,
    /// ISO 3166-1 alpha-2 country code.
    pub country: Option<String>,
}

/// Prefix reserved for synthetic counterparties (`domain.md` §3).
pub const OWN_WALLET_PREFIX: &str = "ownwallet-";

/// Whether `name` is reserved for synthetic accounts (case-insensitive `ownwallet-` prefix).
pub fn is_reserved_account_name(name: &str) -> bool {
    name.len() >= OWN_WALLET_PREFIX.len()
        && name.as_bytes()[..OWN_WALLET_PREFIX.len()]
            .eq_ignore_ascii_case(OWN_WALLET_PREFIX.as_bytes())
}

/// The root and every descendant of `root`, in the order of the input list (`domain.md` §3).
pub fn account_subtree(accounts: &[Account], root: AccountId) -> Vec<AccountId> {
    let mut members = vec![root];
    // A forest has no cycles (rejected at write time); the bound keeps bad data from looping.
    for _ in 0..accounts.len() {
        let before = members.len();
        for account in accounts {
            if let Some(parent) = account.parent_id
                && members.contains(&parent)
                && !members.contains(&account.id)
            {
                members.push(account.id);
            }
        }
        if members.len() == before {
            break;
        }
    }
    accounts
        .iter()
        .map(|a| a.id)
        .filter(|id| members.contains(id))
        .collect()
}

/// The type of a spot row: one of the 16 types, or unknown (`domain.md` §4.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TxType {
    /// A known transaction type.
    Spot(SpotTxType),
    /// A row whose type is not a `SpotTxType`, or whose effective form violates §4.2.
    Unknown {
        /// The source's label, or the shape violation.
        source_label: String,
    },
}

/// An asset and a strictly positive quantity: one side of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssetAmount {
    /// The asset.
    pub asset: Asset,
    /// The quantity (> 0).
    pub quantity: Decimal,
}

/// A fee: `quantity` ≥ 0, negative only for a fiat rebate; `0` is a stated zero fee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fee {
    /// The fee asset.
    pub asset: Asset,
    /// The fee quantity.
    pub quantity: Decimal,
}

/// A fiat amount stated by the source: `currency` may be a non-fiat code (raises
/// `CURRENCY_MISMATCH` when read, `domain.md` §7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatedAmount {
    /// The amount (≥ 0).
    pub amount: Decimal,
    /// The currency code as written.
    pub currency: Asset,
}

/// The fiat amounts a source states for a row (`domain.md` §4.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatedValues {
    /// The source's fiat value of the operation.
    pub value: Option<StatedAmount>,
    /// The source's unit price of the principal asset.
    pub price: Option<StatedAmount>,
    /// The source's fiat value of a crypto fee.
    pub fee_value: Option<StatedAmount>,
}

/// The rarely present fiat amounts of a spot row, kept in one box: the source's and the
/// user's. The edits live here rather than beside the row so that an effective row is no
/// larger than an imported one, and the imported rows become effective rows in place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowValues {
    /// What the source states.
    pub stated: StatedValues,
    /// The override's `SET(...)` value edits (unset on an imported row).
    pub edited: EditedValues,
}

impl RowValues {
    /// The box of a row with these stated amounts and no edits (none when every one is unset).
    pub fn stated(stated: StatedValues) -> Option<Box<Self>> {
        Self::boxed(stated, EditedValues::default())
    }

    fn boxed(stated: StatedValues, edited: EditedValues) -> Option<Box<Self>> {
        let values = Self { stated, edited };
        (values != Self::default()).then(|| Box::new(values))
    }
}

/// A row's stable key (`imports.md` §1.14): the importers' 32-byte digest, kept inline and
/// printed as its 64 lower-case hex digits, or text for a key that is not one. It is formatted
/// only when printed (a large ledger holds a million of them); equality, order and hash are
/// those of the text.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RowKey(KeyRepr);

/// A digest is stored only as `Digest`, so the derived equality and hash agree with the text's.
#[derive(Clone, PartialEq, Eq, Hash)]
enum KeyRepr {
    Digest([u8; 32]),
    Text(Box<str>),
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl RowKey {
    /// The key of a 32-byte digest.
    pub fn digest(bytes: [u8; 32]) -> Self {
        Self(KeyRepr::Digest(bytes))
    }

    /// The key of a stored blob: a digest when it has 32 bytes, else its hex text.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        if let Ok(digest) = <[u8; 32]>::try_from(bytes) {
            return Self::digest(digest);
        }
        let mut text = String::with_capacity(bytes.len() * 2);
        for byte in bytes {
            text.push(char::from(HEX[usize::from(byte >> 4)]));
            text.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
        Self(KeyRepr::Text(text.into()))
    }

    /// The key written as `text` (64 lower-case hex digits are a digest).
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut digest = [0u8; 32];
        if bytes.len() == 64 {
            let nibble = |b: u8| match b {
                b'0'..=b'9' => Some(b - b'0'),
                b'a'..=b'f' => Some(b - b'a' + 10),
                _ => None,
            };
            let parsed = digest
                .iter_mut()
                .zip(bytes.chunks_exact(2))
                .all(|(out, pair)| {
                    match (
                        pair.first().copied().and_then(nibble),
                        pair.get(1).copied().and_then(nibble),
                    ) {
                        (Some(high), Some(low)) => {
                            *out = (high << 4) | low;
                            true
                        }
                        _ => false,
                    }
                });
            if parsed {
                return Self::digest(digest);
            }
        }
        Self(KeyRepr::Text(text.into()))
    }

    /// Calls `f` with the key's text (a digest is formatted on the stack).
    pub fn with_str<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match &self.0 {
            KeyRepr::Digest(digest) => {
                let mut buffer = [0u8; 64];
                for (pair, byte) in buffer.chunks_exact_mut(2).zip(digest) {
                    if let [high, low] = pair {
                        *high = HEX[usize::from(byte >> 4)];
                        *low = HEX[usize::from(byte & 0x0f)];
                    }
                }
                // Hex digits are ASCII, so this never fails.
                f(std::str::from_utf8(&buffer).unwrap_or(""))
            }
            KeyRepr::Text(text) => f(text),
        }
    }
}

impl Ord for RowKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (&self.0, &other.0) {
            // Hex digits sort like the nibbles they stand for.
            (KeyRepr::Digest(a), KeyRepr::Digest(b)) => a.cmp(b),
            (KeyRepr::Text(a), KeyRepr::Text(b)) => a.cmp(b),
            _ => self.with_str(|a| other.with_str(|b| a.cmp(b))),
        }
    }
}

impl PartialOrd for RowKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<str> for RowKey {
    fn eq(&self, other: &str) -> bool {
        match &self.0 {
            KeyRepr::Text(text) => **text == *other,
            KeyRepr::Digest(_) => self.with_str(|text| text == other),
        }
    }
}

impl PartialEq<&str> for RowKey {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

impl PartialEq<String> for RowKey {
    fn eq(&self, other: &String) -> bool {
        self == other.as_str()
    }
}

impl From<&str> for RowKey {
    fn from(text: &str) -> Self {
        Self::new(text)
    }
}

impl From<String> for RowKey {
    fn from(text: String) -> Self {
        Self::new(&text)
    }
}

impl std::fmt::Display for RowKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.with_str(|text| f.write_str(text))
    }
}

impl std::fmt::Debug for RowKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As the `String` it replaces, so Debug digests of the outputs stay comparable.
        self.with_str(|text| std::fmt::Debug::fmt(text, f))
    }
}

/// An imported spot row (`domain.md` §4.1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpotRow {
    /// Stable identity from the importer.
    pub row_key: RowKey,
    /// Ledger sequence.
    pub seq: u64,
    /// The account the row is booked on.
    pub account_id: AccountId,
    /// The transaction type.
    pub tx_type: TxType,
    /// When it happened (UTC).
    pub instant: Instant,
    /// What the account received (`in`).
    pub inflow: Option<AssetAmount>,
    /// What the account gave (`out`), excluding the fee.
    pub outflow: Option<AssetAmount>,
    /// The fee, absent when none is recorded.
    pub fee: Option<Fee>,
    /// The source's stated fiat amounts and, on an effective row, the user's value edits, when
    /// there are any (boxed: few rows have one, and inline they would make every row half as
    /// large again); read them through [`SpotRow::stated_value`] and its siblings.
    pub values: Option<Box<RowValues>>,
    /// The source's link between the two legs of one movement.
    pub transfer_group_id: Option<String>,
}

/// An imported futures row (`domain.md` §5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuturesRow {
    /// Stable identity from the importer.
    pub row_key: RowKey,
    /// Ledger sequence.
    pub seq: u64,
    /// The account the row is booked on.
    pub account_id: AccountId,
    /// Trade, funding, settlement or liquidation.
    pub kind: FuturesKind,
    /// The venue's contract symbol.
    pub contract: String,
    /// When it happened (UTC).
    pub instant: Instant,
    /// The asset results settle in.
    pub settlement_asset: Asset,
    /// Realized profit or loss (signed; missing = 0).
    pub realized_pnl: Decimal,
    /// Funding (signed; missing = 0).
    pub funding: Decimal,
    /// The fee asset.
    pub fee_asset: Option<Asset>,
    /// The fee (signed; negative = rebate).
    pub fee: Decimal,
}

impl SpotRow {
    /// The source's fiat value of the operation.
    pub fn stated_value(&self) -> Option<StatedAmount> {
        self.values.as_ref().and_then(|values| values.stated.value)
    }

    /// The source's unit price of the principal asset.
    pub fn stated_price(&self) -> Option<StatedAmount> {
        self.values.as_ref().and_then(|values| values.stated.price)
    }

    /// The source's fiat value of a crypto fee.
    pub fn stated_fee_value(&self) -> Option<StatedAmount> {
        self.values
            .as_ref()
            .and_then(|values| values.stated.fee_value)
    }

    /// The stated amounts (all unset when the source states none).
    pub fn stated_values(&self) -> StatedValues {
        self.values
            .as_ref()
            .map(|values| values.stated)
            .unwrap_or_default()
    }

    /// The value edits (all unset on an imported row and on a row no override sets a value of).
    pub fn edited_values(&self) -> EditedValues {
        self.values
            .as_ref()
            .map(|values| values.edited)
            .unwrap_or_default()
    }

    /// Replaces the stated amounts, keeping the edits.
    pub fn set_stated_values(&mut self, stated: StatedValues) {
        self.values = RowValues::boxed(stated, self.edited_values());
    }

    /// Replaces the value edits, keeping the stated amounts.
    pub(crate) fn set_edited_values(&mut self, edited: EditedValues) {
        self.values = RowValues::boxed(self.stated_values(), edited);
    }
}

#[cfg(test)]
mod tests;
