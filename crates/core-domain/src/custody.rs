//! Custody allocation (`domain.md` §9): where the coins are and whose acquisition they came from.
//!
//! Custody never changes a fiscal figure. It resolves every transfer leg into exactly one
//! movement (§9.1), then replays the ledger in the engine's order and phases, keeping per
//! `(location, asset)` a queue of pieces `(lot, quantity)` sorted by the lot's queue key (§9.2).
//! Acquisitions place pieces, disposals booked at an account take its oldest pieces, movements
//! relocate pieces between locations. Balances (§9.3) and the output lists (§9.4) come out of
//! the same replay, which can also stop at the end of a fiscal day (`holdings_at`, §12.3).
//!
//! Hot loops work on indices: rows and lots are `u32` positions in the engine's vectors and a
//! piece orders by the lot's rank in `(asset, queue_key)` order, so no string is touched while
//! replaying.

mod movements;
mod replay;

#[cfg(test)]
pub(crate) mod tests;

use std::sync::Arc;

use rust_decimal::Decimal;

use crate::asset::Asset;
use crate::engine::LotId;
use crate::ledger::{Account, AccountId, OWN_WALLET_PREFIX};
use crate::time::{Date, Instant};

pub use movements::resolve_movements;
pub use replay::{allocate, holdings_at};

/// Where custody pieces sit: a real account, or the synthetic `ownwallet-<ASSET>` of an asset
/// (`domain.md` §3). The own wallet of asset `a` only ever holds `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Location {
    /// A real (stored) account.
    Account(AccountId),
    /// The synthetic counterparty of an asset.
    OwnWallet(Asset),
}

impl Location {
    /// Whether this is a synthetic `ownwallet-<ASSET>` account.
    pub const fn is_synthetic(self) -> bool {
        matches!(self, Self::OwnWallet(_))
    }

    /// The real account, if any.
    pub const fn account_id(self) -> Option<AccountId> {
        match self {
            Self::Account(id) => Some(id),
            Self::OwnWallet(_) => None,
        }
    }

    /// The location's display name: the account's name, or `ownwallet-<ASSET>`. An account
    /// missing from `accounts` (bad data) is named `#<id>` rather than failing.
    pub fn name(self, accounts: &[Account]) -> String {
        match self {
            Self::Account(id) => accounts
                .iter()
                .find(|a| a.id == id)
                .map_or_else(|| format!("#{}", id.0), |a| a.name.clone()),
            Self::OwnWallet(asset) => own_wallet_name(asset),
        }
    }
}

/// `ownwallet-<ASSET>`.
pub fn own_wallet_name(asset: Asset) -> String {
    format!("{OWN_WALLET_PREFIX}{asset}")
}

/// How a movement was resolved (`domain.md` §9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MovementBasis {
    /// A `link` custody override.
    Link,
    /// A `counterparty` custody override.
    Counterparty,
    /// A shared `transfer_group_id`.
    GroupId,
    /// Automatic pairing.
    AutoPaired,
    /// No other side found: the synthetic own wallet.
    Unpaired,
}

impl MovementBasis {
    /// Wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Link => "LINK",
            Self::Counterparty => "COUNTERPARTY",
            Self::GroupId => "GROUP_ID",
            Self::AutoPaired => "AUTO_PAIRED",
            Self::Unpaired => "UNPAIRED",
        }
    }
}

/// Which part of a resolved leg (or pair) a movement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MovementPart {
    /// The movement itself.
    Main,
    /// The quantity difference of a pair with unequal legs, to or from the own wallet.
    Difference,
}

/// One movement (`domain.md` §9.4). Rows are indices into `EngineInput::rows`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movement {
    /// The asset moved.
    pub asset: Asset,
    /// The quantity moved (> 0).
    pub quantity: Decimal,
    /// Where the coins leave.
    pub from: Location,
    /// Where the coins arrive.
    pub to: Location,
    /// When it happens: the instant of the later leg.
    pub instant: Instant,
    /// The `seq` of the later leg (with `instant`, the movement's ledger position).
    pub seq: u64,
    /// The row at whose ledger position the movement is replayed.
    pub position_row: u32,
    /// How it was resolved.
    pub basis: MovementBasis,
    /// Main movement or the difference of an unequal pair.
    pub part: MovementPart,
    /// The TRANSFER_OUT leg, if any (a pair's difference names both legs of the pair).
    pub out_row: Option<u32>,
    /// The TRANSFER_IN leg, if any.
    pub in_row: Option<u32>,
}

impl Movement {
    /// The public id: `M:<row_key>` (the out-leg's key, else the in-leg's), with `:D` appended
    /// for the difference of an unequal pair.
    pub fn movement_id(&self, rows: &[crate::engine::EffectiveRow]) -> String {
        let row = self.out_row.or(self.in_row).unwrap_or(self.position_row);
        let key: &dyn std::fmt::Display = match rows.get(row as usize) {
            Some(r) => &r.row.row_key,
            None => &"",
        };
        match self.part {
            MovementPart::Main => format!("M:{key}"),
            MovementPart::Difference => format!("M:{key}:D"),
        }
    }
}

/// One piece moved by a movement (`domain.md` §9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relocation {
    /// Index of the lot in `EngineOutput::lots`.
    pub lot: u32,
    /// The lot's identity.
    pub lot_id: LotId,
    /// Index of the movement in [`CustodyOutput::movements`].
    pub movement: u32,
    /// Quantity of the piece moved.
    pub quantity: Decimal,
    /// Source.
    pub from: Location,
    /// Destination.
    pub to: Location,
    /// The movement's instant.
    pub instant: Instant,
}

/// A non-empty piece at the end of the replay or at a cut-off (`domain.md` §9.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocationRow {
    /// Index of the lot in `EngineOutput::lots`.
    pub lot: u32,
    /// The lot's identity.
    pub lot_id: LotId,
    /// The asset.
    pub asset: Asset,
    /// Where the piece is.
    pub location: Location,
    /// The location's name.
    pub account_name: Arc<str>,
    /// Whether the location is a synthetic own wallet.
    pub synthetic: bool,
    /// The piece's quantity (> 0).
    pub quantity: Decimal,
}

/// Balances of one `(location, asset)` (`domain.md` §9.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustodyBalance {
    /// The location.
    pub location: Location,
    /// The location's name.
    pub account_name: Arc<str>,
    /// Whether the location is a synthetic own wallet.
    pub synthetic: bool,
    /// The asset.
    pub asset: Asset,
    /// Acquisitions − disposals + movements in − movements out.
    pub ledger_balance: Decimal,
    /// Σ pieces.
    pub custody_quantity: Decimal,
    /// `ledger_balance − custody_quantity`.
    pub gap: Decimal,
    /// Σ of what takes at this location asked for and did not find.
    pub shortfall: Decimal,
}

/// Everything custody produces over the whole ledger (`domain.md` §9.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustodyOutput {
    /// Movements in replay order `(instant, seq, part)`.
    pub movements: Vec<Movement>,
    /// Relocations in replay order (pieces of one movement oldest first).
    pub relocations: Vec<Relocation>,
    /// Relocation count per lot, indexed like `EngineOutput::lots`.
    pub relocation_counts: Vec<u32>,
    /// Non-empty pieces, ordered by asset, location name (bytes), location, queue position.
    pub locations: Vec<LocationRow>,
    /// Balances per touched `(location, asset)`, ordered by asset, location name, location.
    pub balances: Vec<CustodyBalance>,
    /// `fee_tolerance(a)` for every crypto asset with a recorded fee, by asset.
    pub fee_tolerance: Vec<(Asset, Decimal)>,
}

impl CustodyOutput {
    /// `fee_tolerance(asset)`: Σ fee quantities in `asset` on all effective rows (0 if none).
    pub fn fee_tolerance(&self, asset: Asset) -> Decimal {
        self.fee_tolerance
            .binary_search_by(|(a, _)| a.cmp(&asset))
            .ok()
            .and_then(|i| self.fee_tolerance.get(i))
            .map_or(Decimal::ZERO, |(_, q)| *q)
    }

    /// The balance of one `(location, asset)`, if custody touched it.
    pub fn balance(&self, location: Location, asset: Asset) -> Option<&CustodyBalance> {
        self.balances
            .iter()
            .find(|b| b.location == location && b.asset == asset)
    }
}

/// A lot's remaining fiscal quantity at a cut-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LotRemaining {
    /// Index of the lot in `EngineOutput::lots`.
    pub lot: u32,
    /// The lot's identity.
    pub lot_id: LotId,
    /// The asset.
    pub asset: Asset,
    /// Remaining quantity after every disposal before the cut-off (> 0).
    pub quantity: Decimal,
}

/// Custody and fiscal holdings at the end of a fiscal day (`domain.md` §12.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldingsAt {
    /// The fiscal date the replay stopped after.
    pub cutoff: Date,
    /// The first instant after the cut-off day: every row strictly before it was replayed.
    pub end: Instant,
    /// Balances per touched `(location, asset)`, ordered as in [`CustodyOutput::balances`].
    pub balances: Vec<CustodyBalance>,
    /// Non-empty pieces at the cut-off, ordered as in [`CustodyOutput::locations`].
    pub locations: Vec<LocationRow>,
    /// Lots existing at the cut-off with remaining quantity > 0, in `(asset, queue_key)` order.
    pub lots: Vec<LotRemaining>,
}

impl HoldingsAt {
    /// Σ remaining quantity of the lots of `asset` at the cut-off.
    pub fn remaining_quantity(&self, asset: Asset) -> crate::error::DomainResult<Decimal> {
        self.lots
            .iter()
            .filter(|l| l.asset == asset)
            .try_fold(Decimal::ZERO, |acc, l| {
                crate::num::add(acc, l.quantity, "holdings_at remaining quantity")
            })
    }
}
