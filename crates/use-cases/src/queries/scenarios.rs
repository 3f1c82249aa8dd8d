//! `GetPortfolioScenario`: the four scenarios of `domain.md` §13 over the holdings snapshot.

use core_domain::Instant;
use core_domain::analytics::DisplayCurrency;
use core_domain::num;
use core_domain::scenarios::{
    self, Breakeven, ConcentrationBlock, PositionValue, ScenarioError, Shock, ShockResult,
};
use rust_decimal::Decimal;
use shared_types::dto::{
    BreakevenDto, ConcentrationBlockDto, ConcentrationDto, PositionValueDto, ShockDto,
    ShockedAssetDto,
};

use super::convert::{count, fiat, pct, ratio, unit};
use super::lots::parse_symbol;
use super::state::Derived;
use super::{ScenarioAnswer, ScenarioRequest, ShockSpec};
use crate::error::{UseCaseError, UseCaseResult};

fn scenario_error(field: &str, error: ScenarioError) -> UseCaseError {
    match error {
        ScenarioError::Domain(e) => UseCaseError::Domain(e),
        other => UseCaseError::InvalidRequest {
            field: field.to_owned(),
            reason: other.to_string(),
        },
    }
}

fn decimal(field: &str, text: &str, allow_sign: bool) -> UseCaseResult<Decimal> {
    num::parse_decimal(field, text.trim(), allow_sign).map_err(|_| UseCaseError::InvalidRequest {
        field: field.to_owned(),
        reason: format!("{text:?} is not a decimal number"),
    })
}

fn block(b: ConcentrationBlock) -> ConcentrationBlockDto {
    match b {
        ConcentrationBlock::Empty => ConcentrationBlockDto::Empty,
        ConcentrationBlock::Computed {
            top1_weight,
            top3_weight,
            hhi,
            effective_holdings,
        } => ConcentrationBlockDto::Computed {
            top1_weight: ratio(top1_weight),
            top3_weight: ratio(top3_weight),
            hhi: ratio(hhi),
            effective_holdings: ratio(effective_holdings),
        },
    }
}

/// Runs one scenario.
#[allow(clippy::too_many_lines)] // One match arm or step per case, read top to bottom.
pub(crate) fn scenario(
    derived: &Derived,
    as_of: Instant,
    currency: DisplayCurrency,
    req: &ScenarioRequest,
) -> UseCaseResult<ScenarioAnswer> {
    let snapshot = derived.holdings_snapshot(as_of, currency)?;
    let list = snapshot.scenario_holdings();
    let code = currency.code().to_owned();
    Ok(match req {
        ScenarioRequest::PositionValue { symbol, price } => {
            let asset = parse_symbol("symbol", symbol)?;
            let price = decimal("hypotheticalPrice", price, false)?;
            let symbol = asset.to_string();
            let answer = scenarios::position_value_at(&list, asset, price)
                .map_err(|e| scenario_error("hypotheticalPrice", e))?;
            ScenarioAnswer::PositionValue(match answer {
                PositionValue::NotHeld => PositionValueDto::NotHeld {
                    symbol,
                    currency: code,
                },
                PositionValue::EmptyPortfolio => PositionValueDto::EmptyPortfolio {
                    symbol,
                    currency: code,
                },
                PositionValue::Unvalued { position_value } => PositionValueDto::Unvalued {
                    symbol,
                    position_value: fiat(position_value),
                    currency: code,
                },
                PositionValue::Computed {
                    position_value,
                    delta_vs_current,
                    implied_allocation_pct,
                } => PositionValueDto::Computed {
                    symbol,
                    position_value: fiat(position_value),
                    delta_vs_current: fiat(delta_vs_current),
                    implied_allocation_pct: pct(implied_allocation_pct),
                    currency: code,
                },
            })
        }
        ScenarioRequest::Breakeven { symbol } => {
            let asset = parse_symbol("symbol", symbol)?;
            let symbol = asset.to_string();
            let answer = scenarios::breakeven_price(&list, asset)
                .map_err(|e| scenario_error("symbol", e))?;
            let currency = code;
            ScenarioAnswer::Breakeven(match answer {
                Breakeven::NotHeld => BreakevenDto::NotHeld { symbol, currency },
                Breakeven::UnconvertibleCostBasis => {
                    BreakevenDto::UnconvertibleCostBasis { symbol, currency }
                }
                Breakeven::UnknownCostBasis => BreakevenDto::UnknownCostBasis { symbol, currency },
                Breakeven::ZeroQuantity => BreakevenDto::ZeroQuantity { symbol, currency },
                Breakeven::Computed { avg_unit_cost } => BreakevenDto::Computed {
                    symbol,
                    avg_unit_cost: unit(avg_unit_cost),
                    currency,
                },
            })
        }
        ScenarioRequest::Shock(spec) => {
            let shock = match spec {
                ShockSpec::Uniform { pct } => Shock::Uniform {
                    pct: decimal("pct", pct, true)?,
                },
                ShockSpec::PerAsset { shocks } => Shock::PerAsset(
                    shocks
                        .iter()
                        .map(|(s, p)| Ok((parse_symbol("symbol", s)?, decimal("pct", p, true)?)))
                        .collect::<UseCaseResult<Vec<_>>>()?,
                ),
            };
            let answer =
                scenarios::apply_shock(&list, &shock).map_err(|e| scenario_error("shock", e))?;
            ScenarioAnswer::Shock(match answer {
                ShockResult::EmptyPortfolio => ShockDto::EmptyPortfolio { currency: code },
                ShockResult::Computed {
                    assets,
                    total_before,
                    total_after,
                    delta,
                    unvalued_symbols,
                    not_held,
                } => ShockDto::Computed {
                    assets: assets
                        .iter()
                        .map(|a| ShockedAssetDto {
                            symbol: a.symbol.to_string(),
                            before: fiat(a.before),
                            after: fiat(a.after),
                        })
                        .collect(),
                    total_before: fiat(total_before),
                    total_after: fiat(total_after),
                    delta: fiat(delta),
                    unvalued_symbols: unvalued_symbols.iter().map(ToString::to_string).collect(),
                    not_held: not_held.iter().map(ToString::to_string).collect(),
                    currency: code,
                },
            })
        }
        ScenarioRequest::Concentration => {
            let c = scenarios::concentration(&list).map_err(|e| scenario_error("request", e))?;
            ScenarioAnswer::Concentration(ConcentrationDto {
                all: block(c.all),
                excluding_stablecoins: block(c.excluding_stablecoins),
                stablecoin_weight: c.stablecoin_weight.map(ratio),
                unvalued_count: count(c.unvalued_count),
                currency: code,
            })
        }
    })
}
