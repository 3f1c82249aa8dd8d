//! `GetPortfolioSummary`, the holdings of an account tree and the holdings at a date.

use core_domain::analytics::{DisplayCurrency, UnvaluedReason};
use core_domain::custody;
use core_domain::holdings::{self, Holding};
use core_domain::irpf::year_end::{YearEndSnapshot, custodians_at, year_end_holdings};
use core_domain::num;
use core_domain::ranking::{AccountResolution, rank_by_value, resolve_account_by_name};
use core_domain::{Date, Instant};
use rust_decimal::Decimal;
use shared_types::dto::{
    AccountHoldingsResult, AccountSection, HoldingsAtDto, Metrics, MissingDataNotice,
    PortfolioSummary, UnvaluedHolding, ValuedHolding,
};

use super::convert::{date, fiat, fiat_opt, pct, qty, unit};
use super::state::Derived;
use super::tax::{close_eur, custodian_dto, year_end_dto};
use crate::error::UseCaseResult;

fn reason(r: UnvaluedReason) -> &'static str {
    match r {
        UnvaluedReason::NoPrice => "no_price",
        UnvaluedReason::NoRate => "no_rate",
        UnvaluedReason::OutOfRange => "out_of_range",
    }
}

/// Value ÷ total × 100 (`PERCENT`), `0.00` for a zero total.
pub(crate) fn share_pct(value: Decimal, total: Decimal) -> UseCaseResult<String> {
    if total.is_zero() {
        return Ok(pct(Decimal::ZERO));
    }
    let share = num::div(
        num::mul(value, Decimal::ONE_HUNDRED, "allocation")?,
        total,
        "allocation",
    )?;
    Ok(pct(share))
}

/// Valued holdings ranked by value descending (stable over symbol order), unvalued in symbol
/// order.
fn split(
    list: &[Holding],
    currency: DisplayCurrency,
    equity: Decimal,
) -> UseCaseResult<(Vec<ValuedHolding>, Vec<UnvaluedHolding>)> {
    let ranked = rank_by_value(
        list.iter(),
        |h| if h.is_valued() { h.current_value } else { None },
        usize::MAX,
    );
    let code = currency.code().to_owned();
    let mut valued = Vec::with_capacity(ranked.ranked.len());
    for h in ranked.ranked {
        let value = h.current_value.unwrap_or_default();
        valued.push(ValuedHolding {
            id: h.asset.id(),
            symbol: h.asset.to_string(),
            amount: qty(h.quantity),
            avg_price_fiat: unit(h.avg_unit_cost.unwrap_or_default()),
            cost_basis_fiat: fiat(h.cost_basis.amount().unwrap_or_default()),
            current_value_fiat: fiat(value),
            unrealized_pnl_fiat: fiat(h.unrealized_pnl.unwrap_or_default()),
            current_price_fiat: unit(h.current_price.unwrap_or_default()),
            allocation_pct: share_pct(value, equity)?,
            currency: code.clone(),
            locations: h.locations.clone(),
            untracked_quantity: qty(h.untracked_quantity),
        });
    }
    let unvalued = ranked
        .unvalued
        .into_iter()
        .map(|h| UnvaluedHolding {
            id: h.asset.id(),
            symbol: h.asset.to_string(),
            amount: qty(h.quantity),
            cost_basis_fiat: fiat_opt(h.cost_basis.amount()),
            currency: code.clone(),
            reason: reason(h.unvalued_reason.unwrap_or(UnvaluedReason::NoPrice)).to_owned(),
            locations: h.locations.clone(),
        })
        .collect();
    Ok((valued, unvalued))
}

/// `GetPortfolioSummary` (`domain.md` §12.1).
pub(crate) fn portfolio_summary(
    derived: &Derived,
    as_of: Instant,
    currency: DisplayCurrency,
    source: RowSource<'_>,
) -> UseCaseResult<PortfolioSummary> {
    let ctx = derived.context(as_of, currency);
    let snapshot = derived.holdings_snapshot(as_of, currency)?;
    let t = &snapshot.totals;
    let (valued, unvalued) = split(&snapshot.holdings, currency, t.equity)?;
    Ok(PortfolioSummary {
        as_of: date(ctx.as_of_date()),
        metrics: Metrics {
            rates_incomplete: t.rates_incomplete,
            prices_incomplete: t.prices_incomplete,
            total_equity_fiat: fiat(t.equity),
            total_cost_basis_fiat: fiat(t.cost_basis),
            total_realized_pnl_fiat: fiat(t.realized),
            total_unrealized_pnl_fiat: fiat(t.unrealized),
            total_pnl_fiat: fiat(t.total_pnl),
            currency: currency.code().to_owned(),
        },
        valued,
        unvalued,
        missing: missing_notices(
            derived,
            &snapshot.holdings,
            currency,
            ctx.as_of_date(),
            source,
        ),
    })
}

/// Closes older than this many days before the valuation date are stale (the window of
/// `domain.md` §7.2): every holdings view values at them and names them (D-91).
#[allow(clippy::cast_possible_wrap, reason = "seven")]
const STALE_DAYS: i64 = core_domain::market::PRICE_WINDOW_DAYS as i64;

/// One notice per unvalued holding (the asset's last stored close, or the display currency's
/// last stored rate) and per holding valued at a stale stored quote, each with the command
/// that imports more.
pub(crate) fn missing_notices(
    derived: &Derived,
    list: &[Holding],
    currency: DisplayCurrency,
    as_of: core_domain::Date,
    source: RowSource<'_>,
) -> Vec<MissingDataNotice> {
    let mut notices = Vec::new();
    for h in list {
        match h.unvalued_reason {
            None => {
                if let Some(quoted) = derived.valued_at_date(h.asset, currency, as_of) {
                    let age = as_of.signed_duration_since(quoted).num_days();
                    if age > STALE_DAYS {
                        notices.push(MissingDataNotice {
                            what: format!(
                                "{} is valued at its latest stored price, of {} ({age} days \
                                 before {})",
                                h.asset,
                                date(quoted),
                                date(as_of)
                            ),
                            hint: format!(
                                "run `cartera prices import FILE --symbol {}` with newer closes",
                                h.asset
                            ),
                        });
                    }
                }
            }
            Some(UnvaluedReason::NoPrice) => {
                let what = match derived.last_price(h.asset) {
                    Some(latest) => format!("no prices for {} after {}", h.asset, date(latest)),
                    None => format!("no prices for {}", h.asset),
                };
                notices.push(MissingDataNotice {
                    what,
                    hint: format!(
                        "run `cartera prices import FILE --symbol {}` with daily closes",
                        h.asset
                    ),
                });
            }
            Some(UnvaluedReason::OutOfRange) => {
                notices.push(out_of_range_notice(derived, h, source));
            }
            Some(UnvaluedReason::NoRate) => {
                let code = currency.code();
                let what = match currency
                    .asset()
                    .filter(|_| currency != DisplayCurrency::Eur)
                    .and_then(|c| derived.last_rate.get(&c))
                {
                    Some(latest) => format!(
                        "no ECB rate to value {} in {code} after {}",
                        h.asset,
                        date(*latest)
                    ),
                    None => format!("no ECB rate to value {} in {code}", h.asset),
                };
                notices.push(MissingDataNotice {
                    what,
                    hint: "run `cartera rates import eurofxref-hist.csv` (the ECB history)"
                        .to_owned(),
                });
            }
        }
    }
    notices
}

/// Where a row came from, in words (`kraken.csv line 12`), when the store knows it: the
/// service's lookup of a row key (D-146).
pub(crate) type RowSource<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Why `h` is out of range (D-146), naming the row: with an unknown cost, the first
/// `AMOUNT_OUT_OF_RANGE` finding of the asset (a value of one of its rows that could not be
/// computed); else the holding's own valuation (its quantity at its latest close).
fn out_of_range_notice(derived: &Derived, h: &Holding, source: RowSource<'_>) -> MissingDataNotice {
    let finding = if h.cost_basis.amount().is_none() {
        derived.integrity_rows().ok().and_then(|rows| {
            rows.iter().find(|r| {
                r.quality_flag == shared_types::QualityFlag::AmountOutOfRange
                    && r.asset == Some(h.asset)
            })
        })
    } else {
        None
    };
    match finding {
        Some(row) => out_of_range_row_notice(h.asset, row, source),
        None => value_out_of_range_notice(
            h.asset,
            h.quantity,
            &format!(
                "at its latest close{}",
                derived
                    .last_price(h.asset)
                    .map(|d| format!(" (of {})", date(d)))
                    .unwrap_or_default()
            ),
        ),
    }
}

/// `quantity` of `asset` valued `at` a close is too large to compute (D-146).
fn value_out_of_range_notice(
    asset: core_domain::Asset,
    quantity: Decimal,
    at: &str,
) -> MissingDataNotice {
    MissingDataNotice {
        what: format!(
            "{asset} is not valued: {} {asset} {at} is too large to compute",
            qty(quantity)
        ),
        hint: format!(
            "the quantity or the close is far beyond any real one: check the rows of {asset} \
             (`cartera tx --symbol {asset} --keys`) and its prices"
        ),
    }
}

/// The notice of one `AMOUNT_OUT_OF_RANGE` finding: the asset, the row (its kind, instant,
/// account and key) and how to fix it.
pub(crate) fn out_of_range_row_notice(
    asset: core_domain::Asset,
    row: &core_domain::quality::IntegrityRow,
    source: RowSource<'_>,
) -> MissingDataNotice {
    let key = row.row_key.as_deref().unwrap_or("?");
    let what = format!(
        "{asset} is left out of the figures that need it: the value of the {} of {}{} \
         ({}row {key}) is too large to compute",
        subject_words(row.subject),
        row.occurred_at
            .map(super::convert::instant)
            .unwrap_or_default(),
        row.account_name
            .as_deref()
            .map(|name| format!(" on {name}"))
            .unwrap_or_default(),
        source(key).map(|at| format!("{at}, ")).unwrap_or_default(),
    );
    MissingDataNotice {
        what,
        hint: format!(
            "an amount, price or rate of that row is far beyond any real one: correct it with \
             `cartera edit {key}`, or leave it out with `cartera edit {key} --exclude`"
        ),
    }
}

fn subject_words(subject: core_domain::quality::Subject) -> &'static str {
    use core_domain::quality::Subject;
    match subject {
        Subject::Acquisition => "acquisition",
        Subject::Disposal => "disposal",
        Subject::Fee => "fee",
        Subject::Income => "income",
        Subject::Derivative => "futures result",
        Subject::Custody | Subject::Row => "row",
    }
}

/// Totals of one account section (valued holdings only; realized is ledger-wide, left 0).
fn section_metrics(
    list: &[Holding],
    currency: DisplayCurrency,
) -> UseCaseResult<(Metrics, Decimal)> {
    let mut equity = Decimal::ZERO;
    let mut cost = Decimal::ZERO;
    let mut rates_incomplete = false;
    let mut prices_incomplete = false;
    for h in list {
        match h.unvalued_reason {
            None => {
                equity = num::add(
                    equity,
                    h.current_value.unwrap_or_default(),
                    "section equity",
                )?;
                cost = num::add(
                    cost,
                    h.cost_basis.amount().unwrap_or_default(),
                    "section cost",
                )?;
            }
            Some(UnvaluedReason::NoRate) => rates_incomplete = true,
            // As the snapshot's totals: what falls short is counted with the missing prices.
            Some(UnvaluedReason::NoPrice | UnvaluedReason::OutOfRange) => prices_incomplete = true,
        }
    }
    let unrealized = num::sub(equity, cost, "section unrealized")?;
    Ok((
        Metrics {
            rates_incomplete,
            prices_incomplete,
            total_equity_fiat: fiat(equity),
            total_cost_basis_fiat: fiat(cost),
            total_realized_pnl_fiat: fiat(Decimal::ZERO),
            total_unrealized_pnl_fiat: fiat(unrealized),
            total_pnl_fiat: fiat(unrealized),
            currency: currency.code().to_owned(),
        },
        equity,
    ))
}

/// The holdings of the account tree `name` resolves to (`domain.md` §12.2, §14.4).
pub(crate) fn account_holdings(
    derived: &Derived,
    as_of: Instant,
    currency: DisplayCurrency,
    name: &str,
    source: RowSource<'_>,
) -> UseCaseResult<AccountHoldingsResult> {
    let root = match resolve_account_by_name(&derived.accounts, name) {
        AccountResolution::Resolved(account) => account.id,
        AccountResolution::Ambiguous { candidates } => {
            return Ok(AccountHoldingsResult::Ambiguous {
                candidates: candidates.iter().map(|s| (*s).to_owned()).collect(),
            });
        }
        AccountResolution::NotFound { available } => {
            return Ok(AccountHoldingsResult::NotFound {
                available: available.iter().map(|s| (*s).to_owned()).collect(),
            });
        }
    };
    let custody = derived.custody()?;
    let pieces = holdings::pieces(&custody.locations);
    let ctx = derived.context(as_of, currency);
    // The same prices as the portfolio (the latest stored quotes, D-26), so an account's
    // holdings are valued exactly as the whole portfolio's are.
    let live = derived.live_prices(ctx.as_of_date(), currency);
    let tree = holdings::account_holdings(&ctx, &derived.accounts, root, &pieces, live.as_deref())?;
    let mut held: Vec<Holding> = Vec::new();
    let mut sections = Vec::new();
    let mut empty = 0u64;
    for account in &tree {
        if account.holdings.is_empty() {
            empty += 1;
            continue;
        }
        for h in &account.holdings {
            if !held.iter().any(|x| x.asset == h.asset) {
                held.push(h.clone());
            }
        }
        let (metrics, equity) = section_metrics(&account.holdings, currency)?;
        let (mut ranked, unvalued) = split(&account.holdings, currency, equity)?;
        for h in &mut ranked {
            h.locations.clear();
        }
        sections.push(AccountSection {
            account_name: account.account_name.clone(),
            metrics,
            ranked,
            unvalued,
        });
    }
    held.sort_by_key(|h| h.asset);
    Ok(AccountHoldingsResult::Resolved {
        account_name: derived.account_name(root),
        sections,
        empty_account_count: empty,
        missing: missing_notices(derived, &held, currency, ctx.as_of_date(), source),
    })
}

/// Holdings per custodian at the end of `day`, with the Modelo 721 / 714 figures when `day`
/// is a 31 December (`irpf.md` §10).
pub(crate) fn holdings_at(derived: &Derived, day: Date) -> UseCaseResult<HoldingsAtDto> {
    use chrono::Datelike;
    let tz = derived.settings.fiscal_timezone;
    let at = custody::holdings_at(
        &derived.input,
        &derived.output,
        &derived.accounts,
        &derived.links,
        day,
        tz,
    )?;
    // `custodians_at` values a snapshot at its year's 31 December; for another day the
    // closes are looked up at `day` itself.
    let snapshot = YearEndSnapshot::from_holdings(day.year(), &at);
    let close = |asset, _| close_eur(derived, asset, day);
    let custodians = custodians_at(&derived.accounts, &snapshot, &close)?;
    let mut whole_quantity_total714 = None;
    let year_end = if day.month() == 12 && day.day() == 31 {
        let snapshots = YearEndSnapshot::walk(
            day.year(),
            &derived.input,
            &derived.output,
            &derived.accounts,
            &derived.links,
            tz,
        )?;
        let close = |asset, d| close_eur(derived, asset, d);
        let h = year_end_holdings(
            day.year(),
            &derived.accounts,
            &snapshots,
            &close,
            derived.settings.irpf.modelo_721_last_filed.as_ref(),
        )?;
        // Each custodian's value is rounded to cents (irpf.md §10, as Modelo 721 declares
        // them), and an asset's 714 value is the sum of its custodians', so the total is the
        // sum of its rows. The portfolio rounds each asset's whole quantity once: when the two
        // differ by the rounding, the view gives both (D-90).
        let mut whole = Decimal::ZERO;
        for (asset, units, value) in &h.modelo_714.per_asset {
            if value.is_some()
                && let Some(close) = close_eur(derived, *asset, day)
            {
                let v = num::to_cents(num::mul(*units, close, "Modelo 714 value")?);
                whole = num::add(whole, v, "Modelo 714 total")?;
            }
        }
        if whole != h.modelo_714.total_714 {
            whole_quantity_total714 = Some(fiat(whole));
        }
        Some(year_end_dto(&h))
    } else {
        None
    };
    let mut missing = Vec::new();
    let mut seen: Vec<core_domain::Asset> = custodians
        .iter()
        .flat_map(|c| c.entries.iter().map(|e| e.asset))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    for asset in seen {
        let lookup = derived.valuation_market().latest_price(asset, day);
        // A close that exists but values an entry beyond the bound (D-146): named, never a
        // missing close.
        if let Some(units) = custodians
            .iter()
            .flat_map(|c| &c.entries)
            .find(|e| e.asset == asset && e.value.is_none() && !e.units.is_zero())
            .map(|e| e.units)
            .filter(|_| {
                matches!(
                    lookup,
                    Ok(core_domain::market::PriceLookup::Found { .. }
                        | core_domain::market::PriceLookup::OutOfRange)
                )
            })
        {
            missing.push(value_out_of_range_notice(
                asset,
                units,
                &format!("at its close on or before {}", date(day)),
            ));
        }
        if let Ok(core_domain::market::PriceLookup::Found { price, .. }) = lookup {
            let age = day.signed_duration_since(price.date).num_days();
            if age > STALE_DAYS {
                missing.push(MissingDataNotice {
                    what: format!(
                        "{asset} is valued at its latest stored price, of {} ({age} days before \
                         {})",
                        date(price.date),
                        date(day)
                    ),
                    hint: format!(
                        "run `cartera prices import FILE --symbol {asset}` with closes of that \
                         date"
                    ),
                });
            }
        }
    }
    Ok(HoldingsAtDto {
        date: date(day),
        custodians: custodians.iter().map(custodian_dto).collect(),
        year_end,
        missing,
        whole_quantity_total714,
    })
}
