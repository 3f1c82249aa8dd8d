//! Holdings (`domain.md` §12.1, §12.2, §12.4): the snapshot per asset in the display currency,
//! the holdings of one account subtree (custody attribution) and the custody locations summary.
//!
//! The snapshot values each asset at a live price when the caller supplies one in the display
//! currency, else at the last daily close; a holding is valued only when both its value and its
//! cost basis are known, and an unvalued holding is never worth zero.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use shared_types::QualityFlag;

use crate::analytics::kpis::{CostGap, converted_remaining_cost, realized_pnl};
use crate::analytics::{AnalyticsContext, DisplayCurrency, UnvaluedReason};
use crate::asset::Asset;
use crate::custody::LocationRow;
use crate::error::DomainResult;
use crate::ledger::{Account, AccountId, account_subtree};
use crate::market::PriceLookup;
use crate::num;
use crate::ranking::compare_account_names;
use crate::scenarios::{ScenarioCostBasis, ScenarioHolding};

/// A custody piece as the holdings read it (a location row of `domain.md` §9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceRef<'a> {
    /// Index of the lot in `EngineOutput::lots`.
    pub lot: u32,
    /// The asset.
    pub asset: Asset,
    /// The real account, `None` for a synthetic own wallet.
    pub account_id: Option<AccountId>,
    /// The location's name.
    pub account_name: &'a str,
    /// Whether the location is `ownwallet-<ASSET>`.
    pub synthetic: bool,
    /// Quantity (> 0).
    pub quantity: Decimal,
}

impl<'a> From<&'a LocationRow> for PieceRef<'a> {
    fn from(row: &'a LocationRow) -> Self {
        Self {
            lot: row.lot,
            asset: row.asset,
            account_id: row.location.account_id(),
            account_name: &row.account_name,
            synthetic: row.synthetic,
            quantity: row.quantity,
        }
    }
}

/// The pieces of custody location rows (`CustodyOutput::locations`, `HoldingsAt::locations`).
pub fn pieces(rows: &[LocationRow]) -> Vec<PieceRef<'_>> {
    rows.iter().map(PieceRef::from).collect()
}

/// A live quote supplied by the caller (`tools.md` §9.13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LivePrice {
    /// The asset.
    pub asset: Asset,
    /// Unit price.
    pub price: Decimal,
    /// Quote currency; only quotes in the display currency are used.
    pub currency: Asset,
}

/// How a known cost basis was converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostConversion {
    /// EUR display: no conversion.
    Native,
    /// Each lot converted at its acquisition date's rate.
    PerLotAtAcquisitionDate,
}

/// A holding's cost basis in the display currency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostBasis {
    /// Known.
    Known {
        /// The amount (exact until output).
        amount: Decimal,
        /// How it was converted.
        conversion: CostConversion,
    },
    /// Some lot's acquisition date has no rate for the display currency.
    Unconvertible,
    /// Some open lot (or piece) has an unknown cost.
    Unknown,
}

impl CostBasis {
    /// The known amount.
    pub fn amount(&self) -> Option<Decimal> {
        match self {
            Self::Known { amount, .. } => Some(*amount),
            _ => None,
        }
    }

    fn to_scenario(self) -> ScenarioCostBasis {
        match self {
            Self::Known { amount, .. } => ScenarioCostBasis::Known(amount),
            Self::Unconvertible => ScenarioCostBasis::Unconvertible,
            Self::Unknown => ScenarioCostBasis::Unknown,
        }
    }
}

/// One holding (of the snapshot or of an account).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holding {
    /// The asset.
    pub asset: Asset,
    /// Quantity (`QUANTITY`).
    pub quantity: Decimal,
    /// Cost basis.
    pub cost_basis: CostBasis,
    /// Unit price in the display currency (`UNIT_PRICE`), when known.
    pub current_price: Option<Decimal>,
    /// `quantity × current_price` (`FIAT`), when known.
    pub current_value: Option<Decimal>,
    /// `None` iff valued.
    pub unvalued_reason: Option<UnvaluedReason>,
    /// `current_value − cost` for a valued holding.
    pub unrealized_pnl: Option<Decimal>,
    /// `cost ÷ quantity` (`UNIT_PRICE`) for a valued holding.
    pub avg_unit_cost: Option<Decimal>,
    /// Non-synthetic accounts holding custody pieces of the asset, byte order (snapshot only).
    pub locations: Vec<String>,
    /// Custody quantity on `ownwallet-<a>` (snapshot only).
    pub untracked_quantity: Decimal,
}

impl Holding {
    /// Valued predicate: value known and cost basis known.
    pub fn is_valued(&self) -> bool {
        self.unvalued_reason.is_none()
    }

    /// The scenario view of the holding (`domain.md` §13).
    pub fn to_scenario(&self) -> ScenarioHolding {
        ScenarioHolding {
            symbol: self.asset,
            quantity: self.quantity,
            cost_basis: self.cost_basis.to_scenario(),
            current_value: if self.is_valued() {
                self.current_value
            } else {
                None
            },
        }
    }
}

/// Totals of the snapshot, over valued holdings only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HoldingsTotals {
    /// Σ current values.
    pub equity: Decimal,
    /// Σ cost bases.
    pub cost_basis: Decimal,
    /// `equity − cost_basis`.
    pub unrealized: Decimal,
    /// Realized as in §11.5.
    pub realized: Decimal,
    /// `realized + unrealized`.
    pub total_pnl: Decimal,
    /// A needed conversion had no rate (including any holding unvalued for NO_RATE).
    pub rates_incomplete: bool,
    /// A held asset has no price (including any holding unvalued for NO_PRICE).
    pub prices_incomplete: bool,
}

/// The holdings snapshot of §12.1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldingsSnapshot {
    /// The display currency.
    pub currency: DisplayCurrency,
    /// One entry per crypto asset with remaining quantity > 0, in symbol order.
    pub holdings: Vec<Holding>,
    /// Totals over valued holdings.
    pub totals: HoldingsTotals,
}

impl HoldingsSnapshot {
    /// The scenario inputs (`domain.md` §13), in symbol order.
    pub fn scenario_holdings(&self) -> Vec<ScenarioHolding> {
        self.holdings.iter().map(Holding::to_scenario).collect()
    }
}

/// Accumulates a cost basis over lots or pieces.
#[derive(Clone, Copy, Debug, Default)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "four independent causes of an unknown or unconverted cost, each reported"
)]
struct CostAcc {
    amount: Decimal,
    unknown: bool,
    unconvertible: bool,
    fx_flagged: bool,
    /// A lot's cost is unknown because a value was out of range (D-146).
    out_of_range: bool,
}

impl CostAcc {
    fn finish(self, currency: DisplayCurrency) -> CostBasis {
        if self.unknown {
            CostBasis::Unknown
        } else if self.unconvertible {
            CostBasis::Unconvertible
        } else {
            CostBasis::Known {
                // A holding's figures are cents, so a total is the sum of its printed rows.
                amount: num::to_cents(self.amount),
                conversion: match currency {
                    DisplayCurrency::Eur => CostConversion::Native,
                    DisplayCurrency::Usd => CostConversion::PerLotAtAcquisitionDate,
                },
            }
        }
    }
}

/// The price of `asset` in the display currency: a live quote in that currency, else
/// `close_EUR(a, T) × rate(c, T)` with the latest close on or before `T`, however old
/// ([`crate::Market::latest_price`]: the one staleness policy of every holdings view, whose
/// callers name a stale close). `Err(reason)` when neither is available.
fn current_price(
    ctx: &AnalyticsContext<'_>,
    asset: Asset,
    live_prices: Option<&[LivePrice]>,
) -> DomainResult<Result<Decimal, UnvaluedReason>> {
    let code = ctx.currency.code();
    if let Some(live) = live_prices
        .unwrap_or(&[])
        .iter()
        .rev()
        .find(|p| p.asset == asset && p.currency.as_str() == code)
    {
        return Ok(Ok(live.price));
    }
    let as_of = ctx.as_of_date();
    Ok(match ctx.market.latest_price(asset, as_of)? {
        PriceLookup::Found { close_eur, .. } => match ctx.currency.rate(ctx.market, as_of) {
            Some(rate) => close_eur
                .checked_mul(rate)
                .ok_or(UnvaluedReason::OutOfRange),
            None => Err(UnvaluedReason::NoRate),
        },
        PriceLookup::MissingFxRate => Err(UnvaluedReason::NoRate),
        PriceLookup::MissingPrice => Err(UnvaluedReason::NoPrice),
        PriceLookup::OutOfRange => Err(UnvaluedReason::OutOfRange),
    })
}

/// Completes a holding from its quantity, cost and price.
fn finish_holding(
    asset: Asset,
    quantity: Decimal,
    cost: CostAcc,
    price: Result<Decimal, UnvaluedReason>,
    currency: DisplayCurrency,
) -> DomainResult<Holding> {
    let cost_basis = cost.finish(currency);
    let current_price = price.ok();
    // A market value is rounded to cents (`domain.md` §7.2) before any total sums it; an
    // absurd quantity at an absurd price is out of range, never an error (D-146).
    let current_value = current_price.and_then(|p| num::cents_product(quantity, p));
    // The average unit cost of a dust quantity can overflow too: out of range as well.
    let avg_unit_cost = match cost_basis.amount() {
        Some(amount) if !quantity.is_zero() => amount.checked_div(quantity),
        _ => None,
    };
    let out_of_range = cost.out_of_range
        || price == Err(UnvaluedReason::OutOfRange)
        || (current_price.is_some() && current_value.is_none())
        || (cost_basis.amount().is_some() && !quantity.is_zero() && avg_unit_cost.is_none());
    let rate_cause = cost.unconvertible || cost.fx_flagged || price == Err(UnvaluedReason::NoRate);
    let (unvalued_reason, unrealized_pnl, avg_unit_cost) =
        match (current_value, cost_basis.amount(), out_of_range) {
            (Some(value), Some(amount), false) => (
                None,
                Some(num::sub(value, amount, "unrealized")?),
                avg_unit_cost,
            ),
            _ => (
                Some(if rate_cause {
                    UnvaluedReason::NoRate
                } else if out_of_range {
                    UnvaluedReason::OutOfRange
                } else {
                    UnvaluedReason::NoPrice
                }),
                None,
                None,
            ),
        };
    Ok(Holding {
        asset,
        quantity,
        cost_basis,
        current_price,
        current_value,
        unvalued_reason,
        unrealized_pnl,
        avg_unit_cost,
        locations: Vec::new(),
        untracked_quantity: Decimal::ZERO,
    })
}

/// `holdings_snapshot(as_of, c, live_prices?)` of §12.1. `pieces` are the custody location rows
/// at the end of the replay (for `locations` and `untracked_quantity`).
pub fn holdings_snapshot(
    ctx: &AnalyticsContext<'_>,
    pieces: &[PieceRef<'_>],
    live_prices: Option<&[LivePrice]>,
) -> DomainResult<HoldingsSnapshot> {
    let mut per_asset: BTreeMap<Asset, (Decimal, CostAcc)> = BTreeMap::new();
    for lot in &ctx.output.lots {
        if lot.remaining_quantity <= Decimal::ZERO || lot.asset.is_fiat() {
            continue;
        }
        let entry = per_asset.entry(lot.asset).or_default();
        entry.0 = num::add(entry.0, lot.remaining_quantity, "holding quantity")?;
        if lot.flags.contains(QualityFlag::MissingFxRate) {
            entry.1.fx_flagged = true;
        }
        if lot.flags.contains(QualityFlag::AmountOutOfRange) {
            entry.1.out_of_range = true;
        }
        match converted_remaining_cost(ctx, lot)? {
            Ok(cost) => entry.1.amount = num::add(entry.1.amount, cost, "holding cost")?,
            Err(CostGap::Unknown) => entry.1.unknown = true,
            Err(CostGap::NoRate) => entry.1.unconvertible = true,
        }
    }
    let realized = realized_pnl(ctx)?;
    let mut totals = HoldingsTotals {
        rates_incomplete: realized.rates_incomplete,
        realized: realized.amount,
        ..HoldingsTotals::default()
    };
    // Pieces grouped by asset once (a 1M-row ledger has as many pieces as open lots).
    let mut pieces_of: BTreeMap<Asset, Vec<&PieceRef<'_>>> = BTreeMap::new();
    for piece in pieces {
        pieces_of.entry(piece.asset).or_default().push(piece);
    }
    let mut holdings = Vec::with_capacity(per_asset.len());
    for (asset, (quantity, cost)) in per_asset {
        let price = current_price(ctx, asset, live_prices)?;
        // §11.5: a held asset without a stored price at T, whatever the live quote says.
        match ctx.market.price(asset, ctx.as_of_date())? {
            PriceLookup::Found { .. } => {}
            PriceLookup::MissingPrice | PriceLookup::OutOfRange => {
                totals.prices_incomplete = true;
            }
            PriceLookup::MissingFxRate => {
                totals.prices_incomplete = true;
                totals.rates_incomplete = true;
            }
        }
        if cost.unconvertible {
            totals.rates_incomplete = true;
        }
        let mut holding = finish_holding(asset, quantity, cost, price, ctx.currency)?;
        let mut locations: Vec<String> = Vec::new();
        for piece in pieces_of.get(&asset).map_or(&[][..], Vec::as_slice) {
            if piece.synthetic {
                holding.untracked_quantity =
                    num::add(holding.untracked_quantity, piece.quantity, "untracked")?;
            } else if !locations.iter().any(|l| l == piece.account_name) {
                locations.push(piece.account_name.to_owned());
            }
        }
        locations.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        holding.locations = locations;
        match (
            holding.unvalued_reason,
            holding.current_value,
            holding.cost_basis.amount(),
        ) {
            (None, Some(value), Some(cost)) => {
                totals.equity = num::add(totals.equity, value, "equity")?;
                totals.cost_basis = num::add(totals.cost_basis, cost, "cost basis")?;
            }
            (Some(UnvaluedReason::NoRate), ..) => totals.rates_incomplete = true,
            _ => totals.prices_incomplete = true,
        }
        holdings.push(holding);
    }
    totals.unrealized = num::sub(totals.equity, totals.cost_basis, "unrealized")?;
    totals.total_pnl = num::add(totals.realized, totals.unrealized, "total pnl")?;
    Ok(HoldingsSnapshot {
        currency: ctx.currency,
        holdings,
        totals,
    })
}

/// The holdings of one account of a subtree (§12.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountHoldings {
    /// The account.
    pub account_id: AccountId,
    /// Its name.
    pub account_name: String,
    /// Its holdings in symbol order (custody quantity, custody-attributed cost).
    pub holdings: Vec<Holding>,
}

/// Holdings of `root` and its subtree, per account (never summed across accounts): the root
/// first, then its descendants in canonical account order; accounts without pieces are listed
/// with no holdings.
pub fn account_holdings(
    ctx: &AnalyticsContext<'_>,
    accounts: &[Account],
    root: AccountId,
    pieces: &[PieceRef<'_>],
    live_prices: Option<&[LivePrice]>,
) -> DomainResult<Vec<AccountHoldings>> {
    let mut members: Vec<&Account> = account_subtree(accounts, root)
        .into_iter()
        .filter_map(|id| accounts.iter().find(|a| a.id == id))
        .collect();
    members.sort_by(|a, b| {
        (a.id != root)
            .cmp(&(b.id != root))
            .then_with(|| compare_account_names(&a.name, &b.name))
    });
    let mut pieces_of: BTreeMap<AccountId, Vec<&PieceRef<'_>>> = BTreeMap::new();
    for piece in pieces.iter().filter(|p| !p.synthetic) {
        if let Some(id) = piece.account_id {
            pieces_of.entry(id).or_default().push(piece);
        }
    }
    let mut out = Vec::with_capacity(members.len());
    for account in members {
        let mut per_asset: BTreeMap<Asset, (Decimal, CostAcc)> = BTreeMap::new();
        for piece in pieces_of.get(&account.id).map_or(&[][..], Vec::as_slice) {
            let entry = per_asset.entry(piece.asset).or_default();
            entry.0 = num::add(entry.0, piece.quantity, "account quantity")?;
            let Some(lot) = ctx.output.lots.get(piece.lot as usize) else {
                entry.1.unknown = true;
                continue;
            };
            if lot.flags.contains(QualityFlag::MissingFxRate) {
                entry.1.fx_flagged = true;
            }
            if lot.flags.contains(QualityFlag::AmountOutOfRange) {
                entry.1.out_of_range = true;
            }
            // Custody attribution: piece × acquisition value ÷ original quantity.
            let share = match lot.known_cost() {
                Some(cost) if !lot.original_quantity.is_zero() => Some(num::share(
                    cost,
                    piece.quantity,
                    lot.original_quantity,
                    "piece cost",
                )?),
                _ => None,
            };
            match share {
                None => entry.1.unknown = true,
                Some(eur) => match ctx.currency.convert(ctx.market, eur, lot.acquired_on)? {
                    Some(v) => entry.1.amount = num::add(entry.1.amount, v, "piece cost")?,
                    None => entry.1.unconvertible = true,
                },
            }
        }
        let mut holdings = Vec::with_capacity(per_asset.len());
        for (asset, (quantity, cost)) in per_asset {
            let price = current_price(ctx, asset, live_prices)?;
            holdings.push(finish_holding(asset, quantity, cost, price, ctx.currency)?);
        }
        out.push(AccountHoldings {
            account_id: account.id,
            account_name: account.name.clone(),
            holdings,
        });
    }
    Ok(out)
}

/// One `(asset, account)` group of the custody locations summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustodyLocationGroup {
    /// The asset.
    pub asset: Asset,
    /// The account's name.
    pub account_name: String,
    /// Σ piece quantities.
    pub quantity: Decimal,
    /// Number of pieces.
    pub lot_count: usize,
}

/// The custody locations summary of §12.4.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustodyLocationsSummary {
    /// Groups sorted by symbol, then account name (byte order).
    pub groups: Vec<CustodyLocationGroup>,
    /// Pieces on synthetic accounts (counted, not listed).
    pub synthetic_row_count: usize,
}

/// `(asset, account name bytes, account)`: byte order of names, real accounts kept apart.
type GroupKey = (Asset, Vec<u8>, Option<AccountId>);

/// `summarize_custody_locations(rows, symbol?)`.
pub fn summarize_custody_locations(
    rows: &[PieceRef<'_>],
    symbol: Option<Asset>,
) -> DomainResult<CustodyLocationsSummary> {
    let mut summary = CustodyLocationsSummary::default();
    let mut groups: BTreeMap<GroupKey, (Decimal, usize)> = BTreeMap::new();
    for row in rows.iter().filter(|r| symbol.is_none_or(|s| r.asset == s)) {
        if row.synthetic {
            summary.synthetic_row_count += 1;
            continue;
        }
        let entry = groups
            .entry((
                row.asset,
                row.account_name.as_bytes().to_vec(),
                row.account_id,
            ))
            .or_default();
        entry.0 = num::add(entry.0, row.quantity, "custody group")?;
        entry.1 += 1;
    }
    summary.groups = groups
        .into_iter()
        .filter(|(_, (quantity, _))| !quantity.is_zero())
        .map(
            |((asset, name, _), (quantity, lot_count))| CustodyLocationGroup {
                asset,
                account_name: String::from_utf8_lossy(&name).into_owned(),
                quantity,
                lot_count,
            },
        )
        .collect();
    Ok(summary)
}

#[cfg(test)]
mod tests;
