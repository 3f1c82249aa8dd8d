//! Tools over the daily valuation series (`tools.md` §9.6, §9.7, §9.8).

use serde_json::{Map, Value};
use shared_types::dto::AssetKpi;
use use_cases::queries::CurrencyRequest;

use super::ProjectCtx;
use super::emit::{Fmt, Obj, R, cap, list, uc};
use super::shared::gap_item;

const ALLOCATION: &str = "GetAssetAllocation";
const RISK: &str = "GetRiskMetrics";
const KPIS: &str = "GetKpis";

/// `asset_allocation`: value split at the last daily close, largest first.
pub(super) fn asset_allocation(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let currency = ctx.currency(ALLOCATION)?;
    let a = uc(
        ALLOCATION,
        ctx.use_cases
            .get_asset_allocation(&CurrencyRequest { currency }),
    )?;
    let top = ctx.settings.top_n_holdings;
    let (ranked, omitted) = cap(&a.ranked, top);
    let (unvalued, _) = cap(&a.unvalued, top);
    let ranked = list(ranked, |i| {
        Ok(Obj::new(ALLOCATION)
            .fig("symbol", Fmt::Symbol, &i.symbol)?
            .fig("amount", Fmt::Quantity, &i.amount)?
            .fig("valueFiat", Fmt::Amount, &i.value_fiat)?
            .fig("allocationPct", Fmt::Percent, &i.allocation_pct)?
            .fig("currency", Fmt::Currency, &i.currency)?
            .value())
    })?;
    Ok(Obj::new(ALLOCATION)
        .fig_opt("asOf", Fmt::Date, a.as_of.as_deref())?
        .put("ranked", ranked)
        .count("omittedCount", omitted)
        .put("unvalued", list(unvalued, |g| gap_item(ALLOCATION, g))?)
        .count_usize("unvaluedCount", a.unvalued.len())
        .done())
}

/// `risk_metrics`: ratios from the EUR series; no currency.
pub(super) fn risk_metrics(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let r = uc(RISK, ctx.use_cases.get_risk_metrics())?;
    Ok(Obj::new(RISK)
        .fig("maxDrawdownPct", Fmt::Ratio, &r.max_drawdown_pct)?
        .fig_opt(
            "annualizedVolatility",
            Fmt::Ratio,
            r.annualized_volatility.as_deref(),
        )?
        .fig_opt("sharpeRatio", Fmt::Ratio, r.sharpe_ratio.as_deref())?
        .fig_opt("alpha", Fmt::Ratio, r.alpha.as_deref())?
        .fig_opt("beta", Fmt::Ratio, r.beta.as_deref())?
        .done())
}

fn asset_kpi(a: Option<&AssetKpi>) -> R<Value> {
    match a {
        None => Ok(Value::Null),
        Some(a) => Ok(Obj::new(KPIS)
            .fig("symbol", Fmt::Symbol, &a.symbol)?
            .fig("roiPct", Fmt::Percent, &a.roi_pct)?
            .fig("allocationPct", Fmt::Percent, &a.allocation_pct)?
            .value()),
    }
}

/// `kpis`: headline indicators at the last daily close.
pub(super) fn kpis(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let currency = ctx.currency(KPIS)?;
    let k = uc(KPIS, ctx.use_cases.get_kpis(&CurrencyRequest { currency }))?;
    let t = &k.trades;
    let trades = Obj::new(KPIS)
        .count("total", t.total)
        .count("winning", t.winning)
        .count("losing", t.losing)
        .fig_opt("winRatePct", Fmt::Percent, t.win_rate_pct.as_deref())?
        .fig_opt("averageR", Fmt::Ratio, t.average_r.as_deref())?
        .value();
    Ok(Obj::new(KPIS)
        .fig_opt("asOf", Fmt::Date, k.as_of.as_deref())?
        .fig("currency", Fmt::Currency, &k.currency)?
        .flag("ratesIncomplete", k.rates_incomplete)
        .flag("pricesIncomplete", k.prices_incomplete)
        .fig("totalEquity", Fmt::Amount, &k.total_equity)?
        .fig("totalCostBasis", Fmt::Amount, &k.total_cost_basis)?
        .fig("totalUnrealizedPnl", Fmt::Amount, &k.total_unrealized_pnl)?
        .fig("totalRealizedPnl", Fmt::Amount, &k.total_realized_pnl)?
        .fig("totalPnl", Fmt::Amount, &k.total_pnl)?
        .fig_opt("totalRoiPct", Fmt::Percent, k.total_roi_pct.as_deref())?
        .fig_opt("change24h", Fmt::Amount, k.change24h.as_deref())?
        .fig_opt("allTimeHigh", Fmt::Amount, k.all_time_high.as_deref())?
        .fig("maxDrawdownPct", Fmt::Ratio, &k.max_drawdown_pct)?
        .fig_opt(
            "annualizedVolatility",
            Fmt::Ratio,
            k.annualized_volatility.as_deref(),
        )?
        .fig_opt("sharpeRatio", Fmt::Ratio, k.sharpe_ratio.as_deref())?
        .count("excludedFlaggedLots", k.excluded_flagged_lots)
        .put("trades", trades)
        .put("bestAsset", asset_kpi(k.best_asset.as_ref())?)
        .put("worstAsset", asset_kpi(k.worst_asset.as_ref())?)
        .done())
}
