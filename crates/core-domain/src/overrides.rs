//! User overrides of imported rows and custody links (`domain.md` §6).

use rust_decimal::Decimal;
use shared_types::SpotTxType;

use crate::asset::Asset;
use crate::ledger::AccountId;
use crate::time::Instant;

/// A three-state edit of an optional imported value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ValueEdit {
    /// Keep the imported value.
    #[default]
    Unchanged,
    /// Replace it with an authoritative fiat amount in a fiat currency.
    Set {
        /// The amount (≥ 0).
        amount: Decimal,
        /// A fiat currency code.
        currency: Asset,
    },
    /// Remove the imported value.
    Clear,
}

/// The fee edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FeeEdit {
    /// Keep the imported fee.
    #[default]
    Unchanged,
    /// Remove the fee.
    None,
    /// Charge this fee (a stated `0` is allowed).
    Charged {
        /// The fee asset.
        asset: Asset,
        /// The fee quantity.
        quantity: Decimal,
    },
}

/// The edits of one spot row, keyed by its row key (`domain.md` §6.1).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RowOverride {
    /// The row the override attaches to.
    pub row_key: String,
    /// `SET(type)`.
    pub tx_type: Option<SpotTxType>,
    /// `SET(instant)`; the row keeps its `seq`.
    pub instant: Option<Instant>,
    /// `SET(q > 0)` of the `in` quantity.
    pub in_quantity: Option<Decimal>,
    /// `SET(q > 0)` of the `out` quantity.
    pub out_quantity: Option<Decimal>,
    /// The fee edit.
    pub fee: FeeEdit,
    /// Authoritative fiat value of the operation.
    pub edited_value: ValueEdit,
    /// Authoritative unit price of the principal asset.
    pub edited_price: ValueEdit,
    /// Authoritative fiat value of a crypto fee (`Clear` is not allowed).
    pub edited_fee_value: ValueEdit,
    /// The row stays in the ledger but every computation ignores it.
    pub excluded: bool,
}

impl RowOverride {
    /// Whether the override sets no field of the row (`excluded` aside).
    pub fn sets_no_field(&self) -> bool {
        self.tx_type.is_none()
            && self.instant.is_none()
            && self.in_quantity.is_none()
            && self.out_quantity.is_none()
            && self.fee == FeeEdit::Unchanged
            && self.edited_value == ValueEdit::Unchanged
            && self.edited_price == ValueEdit::Unchanged
            && self.edited_fee_value == ValueEdit::Unchanged
    }
}

/// A custody override (`domain.md` §6.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CustodyLink {
    /// The two legs are one movement.
    Link {
        /// The TRANSFER_OUT row.
        out_row_key: String,
        /// The TRANSFER_IN row.
        in_row_key: String,
    },
    /// The leg's other side is this account, which has no row for it.
    Counterparty {
        /// The transfer leg.
        row_key: String,
        /// A real account, or the synthetic own wallet of the leg's asset.
        counterparty: Counterparty,
    },
}

/// The other side named by a counterparty override.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counterparty {
    /// A real account.
    Account(AccountId),
    /// The synthetic `ownwallet-<ASSET>` account of the leg's asset.
    OwnWallet,
}
