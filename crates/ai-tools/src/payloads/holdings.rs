//! Holdings tools (`tools.md` §9.1, §9.14, §9.15, §9.17): the holdings snapshot, one holding,
//! one account tree and what is missing.

use serde_json::{Map, Value};
use shared_types::ToolName;
use shared_types::dto::{
    AccountHoldingsResult, AccountSection, FiscalIntegrity, Metrics, PortfolioSummary,
    UnvaluedHolding, ValuedHolding,
};
use use_cases::queries::{AccountHoldingsRequest, CurrencyRequest};

use super::ProjectCtx;
use super::args::Args;
use super::emit::{Fmt, Obj, R, cap, fail, list, uc};
use super::shared::{UNVALUED_REASONS, integrity_group, metrics, unvalued_holding, valued_holding};

const SUMMARY: &str = "GetPortfolioSummary";
const INTEGRITY: &str = "GetFiscalIntegrity";

/// Fixed cap of the defect groups (not a profile setting).
pub(super) const GROUPS_CAP: u32 = 10;
/// Fixed cap of the sections of an account tree.
const SECTIONS_CAP: u32 = 10;
/// Caps of the name lists of an unresolved account name.
const CANDIDATES_CAP: u32 = 10;
const AVAILABLE_CAP: u32 = 20;

fn summary(ctx: &ProjectCtx<'_>) -> R<PortfolioSummary> {
    let currency = ctx.currency(SUMMARY)?;
    uc(
        SUMMARY,
        ctx.use_cases
            .get_portfolio_summary(&CurrencyRequest { currency }),
    )
}

/// `portfolio_summary`.
pub(super) fn portfolio_summary(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let s = summary(ctx)?;
    let mut o = Obj::new(SUMMARY);
    holdings(ctx, &mut o, &s.metrics, &s.valued, &s.unvalued)?;
    Ok(o.done())
}

/// The metrics and the capped valued and unvalued holdings of a summary or an account section.
fn holdings(
    ctx: &ProjectCtx<'_>,
    o: &mut Obj,
    totals: &Metrics,
    valued: &[ValuedHolding],
    unvalued: &[UnvaluedHolding],
) -> R<()> {
    let top = ctx.settings.top_n_holdings;
    let (ranked, omitted) = cap(valued, top);
    let (shown, _) = cap(unvalued, top);
    o.put("metrics", metrics(SUMMARY, totals)?)
        .put("ranked", list(ranked, |h| valued_holding(SUMMARY, h))?)
        .count("omittedCount", omitted)
        .put("unvalued", list(shown, |h| unvalued_holding(SUMMARY, h))?)
        .count_usize("unvaluedCount", unvalued.len());
    Ok(())
}

/// `holding_detail`: one holding by symbol, independent of the top-N cut.
pub(super) fn holding_detail(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let symbol = args.str("symbol")?;
    let s = summary(ctx)?;
    let mut o = Obj::new(SUMMARY);
    if let Some(h) = s.valued.iter().find(|h| h.symbol == symbol) {
        o.text("kind", "valued")
            .put("holding", valued_holding(SUMMARY, h)?);
    } else if let Some(h) = s.unvalued.iter().find(|h| h.symbol == symbol) {
        o.text("kind", "unvalued")
            .put("holding", unvalued_holding(SUMMARY, h)?);
    } else {
        o.text("kind", "not_held")
            .fig("symbol", Fmt::Symbol, symbol)?;
    }
    Ok(o.done())
}

fn section(ctx: &ProjectCtx<'_>, s: &AccountSection) -> R<Value> {
    let mut o = Obj::new(SUMMARY);
    o.text("accountName", &s.account_name);
    holdings(ctx, &mut o, &s.metrics, &s.ranked, &s.unvalued)?;
    Ok(o.value())
}

fn names(items: &[String], limit: u32) -> Value {
    let (shown, _) = cap(items, limit);
    Value::Array(shown.iter().cloned().map(Value::String).collect())
}

/// `account_holdings`: the account tree chosen by name, one section per account holding
/// anything (resolution is `resolve_account_by_name`, run by the use case).
pub(super) fn account_holdings(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let account_name = args.str("accountName")?.to_owned();
    let currency = ctx.currency(SUMMARY)?;
    let result = uc(
        SUMMARY,
        ctx.use_cases.get_account_holdings(&AccountHoldingsRequest {
            account_name,
            currency,
        }),
    )?;
    let mut o = Obj::new(SUMMARY);
    match &result {
        AccountHoldingsResult::Resolved {
            account_name,
            sections,
            empty_account_count,
            ..
        } => {
            let (shown, omitted) = cap(sections, SECTIONS_CAP);
            o.text("kind", "resolved")
                .text("accountName", account_name)
                .put("sections", list(shown, |s| section(ctx, s))?)
                .count("omittedSectionCount", omitted)
                .count("emptyAccountCount", *empty_account_count);
        }
        AccountHoldingsResult::Ambiguous { candidates } => {
            o.text("kind", "ambiguous")
                .put("candidates", names(candidates, CANDIDATES_CAP));
        }
        AccountHoldingsResult::NotFound { available } => {
            o.text("kind", "not_found")
                .put("available", names(available, AVAILABLE_CAP));
        }
    }
    Ok(o.done())
}

/// The unvalued holdings of one reason as gap items (symbol order kept), capped, and their
/// number.
fn gaps(ctx: &ProjectCtx<'_>, unvalued: &[UnvaluedHolding], reason: &str) -> R<(Value, u64)> {
    let matching: Vec<&UnvaluedHolding> = unvalued.iter().filter(|h| h.reason == reason).collect();
    let (shown, _) = cap(&matching, ctx.settings.top_n_holdings);
    let items = list(shown, |h| {
        Ok(Obj::new(SUMMARY)
            .fig("symbol", Fmt::Symbol, &h.symbol)?
            .fig("amount", Fmt::Quantity, &h.amount)?
            .value())
    })?;
    Ok((items, u64::try_from(matching.len()).unwrap_or(u64::MAX)))
}

/// The defect summary block of `data_gaps` (no pending-review total).
fn integrity_block(f: &FiscalIntegrity) -> R<Value> {
    let (groups, omitted) = cap(&f.groups, GROUPS_CAP);
    Ok(Obj::new(INTEGRITY)
        .put("groups", list(groups, |g| integrity_group(INTEGRITY, g))?)
        .count("omittedCount", omitted)
        .count("totalDefects", f.total_defects)
        .flag("needsRecalculation", f.needs_recalculation)
        .value())
}

/// `data_gaps`: holdings without a price or a rate, the defect groups, and the next tools.
pub(super) fn data_gaps(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let s = summary(ctx)?;
    if s.unvalued
        .iter()
        .any(|h| !UNVALUED_REASONS.contains(&h.reason.as_str()))
    {
        return Err(fail(
            SUMMARY,
            "returned an unvalued reason outside the vocabulary",
        ));
    }
    let integrity = uc(INTEGRITY, ctx.use_cases.get_fiscal_integrity_shared())?;
    let (no_price, no_price_count) = gaps(ctx, &s.unvalued, "no_price")?;
    let (no_rate, no_rate_count) = gaps(ctx, &s.unvalued, "no_rate")?;
    let (out_of_range, out_of_range_count) = gaps(ctx, &s.unvalued, "out_of_range")?;
    let next_tools = [ToolName::FiscalIntegrityRows, ToolName::HoldingDetail]
        .into_iter()
        .filter(|tool| ctx.exposed.contains(tool))
        .map(|tool| Value::String(tool.as_str().to_owned()))
        .collect();
    let unvalued = Obj::new(SUMMARY)
        .put("no_price", no_price)
        .count("noPriceCount", no_price_count)
        .put("no_rate", no_rate)
        .count("noRateCount", no_rate_count)
        .put("out_of_range", out_of_range)
        .count("outOfRangeCount", out_of_range_count)
        .value();
    Ok(Obj::new(SUMMARY)
        .put("unvalued", unvalued)
        .put("integrity", integrity_block(&integrity)?)
        .put("nextTools", Value::Array(next_tools))
        .done())
}
