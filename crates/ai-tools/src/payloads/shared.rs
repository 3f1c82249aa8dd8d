//! The shared payload objects of `tools.md` §8, projected from their DTOs key by key.

use serde_json::Value;
use shared_types::dto::{
    AuditRowDto, CompletenessDto, ConcentrationBlockDto, FeeDto, GapItem, IntegrityGroupDto,
    IntegrityRowDto, LotDto, Metrics, TaxSummary, TxRow, UnvaluedHolding, ValuedHolding,
};
use shared_types::{QualityFlag, SpotTxType};

use super::emit::{Fmt, Obj, R, fail};

/// The three severities.
pub(super) const SEVERITIES: &[&str] = &["high", "medium", "low"];

/// The holdings totals.
pub(super) fn metrics(uc: &'static str, m: &Metrics) -> R<Value> {
    Ok(Obj::new(uc)
        .flag("ratesIncomplete", m.rates_incomplete)
        .flag("pricesIncomplete", m.prices_incomplete)
        .fig("totalEquityFiat", Fmt::Amount, &m.total_equity_fiat)?
        .fig("totalCostBasisFiat", Fmt::Amount, &m.total_cost_basis_fiat)?
        .fig(
            "totalRealizedPnlFiat",
            Fmt::Amount,
            &m.total_realized_pnl_fiat,
        )?
        .fig(
            "totalUnrealizedPnlFiat",
            Fmt::Amount,
            &m.total_unrealized_pnl_fiat,
        )?
        .fig("totalPnlFiat", Fmt::Amount, &m.total_pnl_fiat)?
        .fig("currency", Fmt::Currency, &m.currency)?
        .value())
}

/// The asset id of `domain.md` §1.4: the symbol in ASCII lower case.
fn asset_id(uc: &'static str, id: &str, symbol: &str) -> R<()> {
    let ok = !id.is_empty()
        && id.len() == symbol.len()
        && id
            .bytes()
            .zip(symbol.bytes())
            .all(|(i, s)| i == s.to_ascii_lowercase() && !i.is_ascii_uppercase());
    if ok {
        Ok(())
    } else {
        Err(fail(uc, "returned a holding id that is not an asset id"))
    }
}

/// A valued holding.
pub(super) fn valued_holding(uc: &'static str, h: &ValuedHolding) -> R<Value> {
    asset_id(uc, &h.id, &h.symbol)?;
    Ok(Obj::new(uc)
        .text("id", &h.id)
        .fig("symbol", Fmt::Symbol, &h.symbol)?
        .fig("amount", Fmt::Quantity, &h.amount)?
        .fig("avgPriceFiat", Fmt::UnitPrice, &h.avg_price_fiat)?
        .fig("costBasisFiat", Fmt::Amount, &h.cost_basis_fiat)?
        .fig("currentValueFiat", Fmt::Amount, &h.current_value_fiat)?
        .fig("unrealizedPnlFiat", Fmt::Amount, &h.unrealized_pnl_fiat)?
        .fig("currency", Fmt::Currency, &h.currency)?
        .value())
}

/// An unvalued holding.
pub(super) fn unvalued_holding(uc: &'static str, h: &UnvaluedHolding) -> R<Value> {
    asset_id(uc, &h.id, &h.symbol)?;
    Ok(Obj::new(uc)
        .text("id", &h.id)
        .fig("symbol", Fmt::Symbol, &h.symbol)?
        .fig("amount", Fmt::Quantity, &h.amount)?
        .fig_opt("costBasisFiat", Fmt::Amount, h.cost_basis_fiat.as_deref())?
        .fig("currency", Fmt::Currency, &h.currency)?
        .lit("reason", &h.reason, UNVALUED_REASONS)?
        .value())
}

/// Why a holding is unvalued: no price, no rate, or a value too large to compute (D-146).
pub(super) const UNVALUED_REASONS: &[&str] = &["no_price", "no_rate", "out_of_range"];

/// A symbol and a quantity.
pub(super) fn gap_item(uc: &'static str, g: &GapItem) -> R<Value> {
    Ok(Obj::new(uc)
        .fig("symbol", Fmt::Symbol, &g.symbol)?
        .fig("amount", Fmt::Quantity, &g.amount)?
        .value())
}

/// A quality flag of the closed vocabulary.
pub(super) fn quality_flag(uc: &'static str, text: &str) -> R<QualityFlag> {
    QualityFlag::parse(text).ok_or_else(|| fail(uc, "returned an unknown quality flag"))
}

/// A defect group (counts only, never rows).
pub(super) fn integrity_group(uc: &'static str, g: &IntegrityGroupDto) -> R<Value> {
    quality_flag(uc, &g.quality_flag)?;
    Ok(Obj::new(uc)
        .text("qualityFlag", &g.quality_flag)
        .lit("severity", &g.severity, SEVERITIES)?
        .count("count", g.count)
        .count("pendingReview", g.pending_review)
        .value())
}

/// A defect row, without its row key.
pub(super) fn integrity_row(uc: &'static str, r: &IntegrityRowDto) -> R<Value> {
    Ok(Obj::new(uc)
        .fig_opt("occurredAt", Fmt::Instant, r.occurred_at.as_deref())?
        .text_opt("symbol", r.symbol.as_deref())
        .text_opt("account", r.account.as_deref())
        .fig_opt("quantity", Fmt::Quantity, r.quantity.as_deref())?
        .text("detailKey", &r.detail_key)
        .flag("pendingReview", r.pending_review)
        .value())
}

/// A tax lot, without its id, flags, slices and relocations (only their counts).
pub(super) fn lot(uc: &'static str, l: &LotDto) -> R<Value> {
    Ok(Obj::new(uc)
        .count("lotNumber", l.number)
        .fig("date", Fmt::Date, &l.date)?
        .text("exchange", &l.exchange)
        .fig("originalQty", Fmt::Quantity, &l.original_qty)?
        .fig("remainingQty", Fmt::Quantity, &l.remaining_qty)?
        .fig_opt("unitCost", Fmt::UnitPrice, l.unit_cost.as_deref())?
        .fig_opt("totalCost", Fmt::Amount, l.total_cost.as_deref())?
        .lit("status", &l.status, &["OPEN", "PARTIAL", "CLOSED"])?
        .count("historyCount", l.history_count)
        .count("relocationCount", l.relocation_count)
        .value())
}

/// The tax summary: sixteen Amounts in EUR (`estimatedIrpf` may be `null`).
pub(super) fn tax_summary(uc: &'static str, s: &TaxSummary) -> R<Value> {
    let mut o = Obj::new(uc);
    for (key, text) in TaxSummary::KEYS.into_iter().zip(s.values()) {
        let text = text.map(String::as_str);
        if text.is_none() && key != "estimatedIrpf" {
            return Err(fail(uc, format!("returned a null {key}")));
        }
        o.fig_opt(key, Fmt::Amount, text)?;
    }
    Ok(o.value())
}

/// The reasons of an incomplete year, in their fixed order.
const COMPLETENESS_REASONS: [&str; 3] = [
    "unconvertible_events",
    "excluded_flagged_events",
    "excluded_unresolved_income",
];

/// Completeness of a tax year.
pub(super) fn completeness(uc: &'static str, c: &CompletenessDto) -> R<Value> {
    match c {
        CompletenessDto::Complete => Ok(Obj::new(uc).text("kind", "complete").value()),
        CompletenessDto::Incomplete { reasons } => {
            // Each reason once, in the fixed order: a subsequence of the vocabulary.
            let mut rest = COMPLETENESS_REASONS.iter();
            let ordered = reasons
                .iter()
                .all(|reason| rest.any(|known| known == reason));
            if !ordered || reasons.is_empty() {
                return Err(fail(uc, "returned completeness reasons out of vocabulary"));
            }
            let reasons = reasons.iter().cloned().map(Value::String).collect();
            Ok(Obj::new(uc)
                .text("kind", "incomplete")
                .put("reasons", Value::Array(reasons))
                .value())
        }
    }
}

/// A disposal slice of the audit trail.
pub(super) fn audit_row(uc: &'static str, a: &AuditRowDto) -> R<Value> {
    let clave = a
        .clave
        .as_deref()
        .ok_or_else(|| fail(uc, "returned an audit row without clave"))?;
    let base = if a.included {
        match a.base.as_deref() {
            Some("SAVINGS") => "savings",
            Some("GENERAL") => "general",
            _ => return Err(fail(uc, "returned an included audit row without base")),
        }
    } else {
        "excluded"
    };
    Ok(Obj::new(uc)
        .fig("date", Fmt::Date, &a.disposed_on)?
        .fig_opt("acquired", Fmt::Date, a.acquired_on.as_deref())?
        .fig("symbol", Fmt::Symbol, &a.asset)?
        .lit("type", &a.operation_type, &["SELL", "SWAP", "SPEND", "FEE"])?
        .lit("clave", clave, &["F", "N", "O", "B"])?
        .fig("quantity", Fmt::Quantity, &a.quantity)?
        .fig_opt(
            "transmissionValue",
            Fmt::Amount,
            a.transmission_value.as_deref(),
        )?
        .fig_opt(
            "acquisitionValue",
            Fmt::Amount,
            a.acquisition_value.as_deref(),
        )?
        .fig_opt("gainLoss", Fmt::Amount, a.result.as_deref())?
        .text("base", base)
        .value())
}

/// A concentration block.
pub(super) fn concentration_block(uc: &'static str, b: &ConcentrationBlockDto) -> R<Value> {
    match b {
        ConcentrationBlockDto::Computed {
            top1_weight,
            top3_weight,
            hhi,
            effective_holdings,
        } => Ok(Obj::new(uc)
            .text("kind", "computed")
            .fig("top1Weight", Fmt::Ratio, top1_weight)?
            .fig("top3Weight", Fmt::Ratio, top3_weight)?
            .fig("hhi", Fmt::Ratio, hhi)?
            .fig("effectiveHoldings", Fmt::Ratio, effective_holdings)?
            .value()),
        ConcentrationBlockDto::Empty => Ok(Obj::new(uc).text("kind", "empty").value()),
    }
}

/// A recorded fee.
fn fee(uc: &'static str, f: &FeeDto) -> R<Value> {
    match f {
        FeeDto::None => Ok(Obj::new(uc).text("kind", "NONE").value()),
        FeeDto::Charged { amount, asset } => Ok(Obj::new(uc)
            .text("kind", "CHARGED")
            .fig("amount", Fmt::Quantity, amount)?
            .text("asset", asset)
            .value()),
    }
}

/// A spot transaction, without its row key.
pub(super) fn tx_row(uc: &'static str, t: &TxRow) -> R<Value> {
    if SpotTxType::parse(&t.tx_type).is_none() {
        return Err(fail(
            uc,
            "returned a transaction type outside the vocabulary",
        ));
    }
    Ok(Obj::new(uc)
        .fig("date", Fmt::Instant, &t.date)?
        .text("type", &t.tx_type)
        .text_opt("assetIn", t.asset_in.as_deref())
        .fig_opt("amountIn", Fmt::Quantity, t.amount_in.as_deref())?
        .text_opt("assetOut", t.asset_out.as_deref())
        .fig_opt("amountOut", Fmt::Quantity, t.amount_out.as_deref())?
        .fig_opt("priceFiat", Fmt::UnitPrice, t.price_fiat.as_deref())?
        .fig_opt("totalFiat", Fmt::Amount, t.total_fiat.as_deref())?
        .text_opt("fiatCurrency", t.fiat_currency.as_deref())
        .put("fee", fee(uc, &t.fee)?)
        .text("exchange", &t.exchange)
        .flag("edited", t.edited)
        .value())
}
