//! What-if tools over the holdings snapshot (`tools.md` §9.19, §9.20, §9.23, §9.24).

use serde_json::{Map, Value};
use shared_types::dto::{BreakevenDto, PositionValueDto, ShockDto};
use use_cases::queries::{ScenarioAnswer, ScenarioRequest, ShockSpec};

use super::ProjectCtx;
use super::args::Args;
use super::emit::{Fmt, Obj, R, cap, fail, figures, list, uc};
use super::shared::concentration_block;

const SCENARIO: &str = "GetPortfolioScenario";

fn run(ctx: &ProjectCtx<'_>, req: &ScenarioRequest) -> R<ScenarioAnswer> {
    let currency = ctx.currency(SCENARIO)?;
    uc(
        SCENARIO,
        ctx.use_cases.get_portfolio_scenario(req, currency),
    )
}

fn wrong_answer() -> super::ProjectError {
    fail(SCENARIO, "returned the answer of another scenario")
}

/// `scenario_position_value`: one holding at a hypothetical unit price.
pub(super) fn position_value(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let req = ScenarioRequest::PositionValue {
        symbol: args.str("symbol")?.to_owned(),
        price: args.str("hypotheticalPrice")?.to_owned(),
    };
    let ScenarioAnswer::PositionValue(answer) = run(ctx, &req)? else {
        return Err(wrong_answer());
    };
    let mut o = Obj::new(SCENARIO);
    match &answer {
        PositionValueDto::Computed {
            symbol,
            position_value,
            delta_vs_current,
            implied_allocation_pct,
            currency,
        } => o
            .text("kind", "computed")
            .fig("symbol", Fmt::Symbol, symbol)?
            .fig("positionValue", Fmt::Amount, position_value)?
            .fig("deltaVsCurrent", Fmt::Amount, delta_vs_current)?
            .fig("impliedAllocationPct", Fmt::Percent, implied_allocation_pct)?
            .fig("currency", Fmt::Currency, currency)?,
        PositionValueDto::Unvalued {
            symbol,
            position_value,
            currency,
        } => o
            .text("kind", "unvalued")
            .fig("symbol", Fmt::Symbol, symbol)?
            .fig("positionValue", Fmt::Amount, position_value)?
            .fig("currency", Fmt::Currency, currency)?,
        PositionValueDto::NotHeld { symbol, currency } => o
            .text("kind", "not_held")
            .fig("symbol", Fmt::Symbol, symbol)?
            .fig("currency", Fmt::Currency, currency)?,
        PositionValueDto::EmptyPortfolio { symbol, currency } => o
            .text("kind", "empty_portfolio")
            .fig("symbol", Fmt::Symbol, symbol)?
            .fig("currency", Fmt::Currency, currency)?,
    };
    Ok(o.done())
}

/// `breakeven_price`: one holding's average unit cost.
pub(super) fn breakeven(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let req = ScenarioRequest::Breakeven {
        symbol: args.str("symbol")?.to_owned(),
    };
    let ScenarioAnswer::Breakeven(answer) = run(ctx, &req)? else {
        return Err(wrong_answer());
    };
    let mut o = Obj::new(SCENARIO);
    let (kind, symbol, currency) = match &answer {
        BreakevenDto::Computed {
            symbol,
            avg_unit_cost,
            currency,
        } => {
            o.text("kind", "computed")
                .fig("symbol", Fmt::Symbol, symbol)?
                .fig("avgUnitCost", Fmt::UnitPrice, avg_unit_cost)?
                .fig("currency", Fmt::Currency, currency)?;
            return Ok(o.done());
        }
        BreakevenDto::NotHeld { symbol, currency } => ("not_held", symbol, currency),
        BreakevenDto::UnconvertibleCostBasis { symbol, currency } => {
            ("unconvertible_cost_basis", symbol, currency)
        }
        BreakevenDto::UnknownCostBasis { symbol, currency } => {
            ("unknown_cost_basis", symbol, currency)
        }
        BreakevenDto::ZeroQuantity { symbol, currency } => ("zero_quantity", symbol, currency),
    };
    o.text("kind", kind)
        .fig("symbol", Fmt::Symbol, symbol)?
        .fig("currency", Fmt::Currency, currency)?;
    Ok(o.done())
}

fn shock_spec(args: &Args<'_>) -> R<ShockSpec> {
    let shock = args.object("shock")?;
    match shock.str("kind")? {
        "uniform" => Ok(ShockSpec::Uniform {
            pct: shock.str("pct")?.to_owned(),
        }),
        "per_asset" => {
            let shocks = shock
                .object_list("shocks")?
                .iter()
                .map(|s| Ok((s.str("symbol")?.to_owned(), s.str("pct")?.to_owned())))
                .collect::<R<Vec<(String, String)>>>()?;
            Ok(ShockSpec::PerAsset { shocks })
        }
        _ => Err(fail(SCENARIO, "internal error: unknown shock kind")),
    }
}

/// `scenario_portfolio_shock`: the valued portfolio after a percentage move.
pub(super) fn shock(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let req = ScenarioRequest::Shock(shock_spec(args)?);
    let ScenarioAnswer::Shock(answer) = run(ctx, &req)? else {
        return Err(wrong_answer());
    };
    let mut o = Obj::new(SCENARIO);
    match &answer {
        ShockDto::Computed {
            assets,
            total_before,
            total_after,
            delta,
            unvalued_symbols,
            not_held,
            currency,
        } => {
            let top = ctx.settings.top_n_holdings;
            let (shown, omitted) = cap(assets, top);
            let (unvalued, _) = cap(unvalued_symbols, top);
            let assets_value = list(shown, |a| {
                Ok(Obj::new(SCENARIO)
                    .fig("symbol", Fmt::Symbol, &a.symbol)?
                    .fig("before", Fmt::Amount, &a.before)?
                    .fig("after", Fmt::Amount, &a.after)?
                    .value())
            })?;
            o.text("kind", "computed")
                .put("assets", assets_value)
                .count("omittedCount", omitted)
                .fig("totalBefore", Fmt::Amount, total_before)?
                .fig("totalAfter", Fmt::Amount, total_after)?
                .fig("delta", Fmt::Amount, delta)?
                .put(
                    "unvaluedSymbols",
                    figures(SCENARIO, "unvaluedSymbols", Fmt::Symbol, unvalued)?,
                )
                .count_usize("unvaluedCount", unvalued_symbols.len())
                .put(
                    "notHeld",
                    figures(SCENARIO, "notHeld", Fmt::Symbol, not_held)?,
                )
                .fig("currency", Fmt::Currency, currency)?;
        }
        ShockDto::EmptyPortfolio { currency } => {
            o.text("kind", "empty_portfolio")
                .fig("currency", Fmt::Currency, currency)?;
        }
    }
    Ok(o.done())
}

/// `concentration_risk`: weights of the valued portfolio, with and without stablecoins.
pub(super) fn concentration(ctx: &ProjectCtx<'_>) -> R<Map<String, Value>> {
    let ScenarioAnswer::Concentration(c) = run(ctx, &ScenarioRequest::Concentration)? else {
        return Err(wrong_answer());
    };
    Ok(Obj::new(SCENARIO)
        .put("all", concentration_block(SCENARIO, &c.all)?)
        .put(
            "excludingStablecoins",
            concentration_block(SCENARIO, &c.excluding_stablecoins)?,
        )
        .fig_opt(
            "stablecoinWeight",
            Fmt::Ratio,
            c.stablecoin_weight.as_deref(),
        )?
        .count("unvaluedCount", c.unvalued_count)
        .fig("currency", Fmt::Currency, &c.currency)?
        .done())
}
