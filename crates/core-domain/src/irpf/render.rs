//! A deterministic plain-text rendering of a year report, for reviews and snapshot tests.
//! Every amount uses its output class (`domain.md` §1.3); null prints as `null`.

use std::fmt::Write as _;

use rust_decimal::Decimal;

use super::annex::{flags_cell, winner};
use super::report::{IrpfYearReport, Summary};
use super::year_end::YearEndHoldings;
use crate::num::{self, OutputClass};

fn fiat(value: Option<Decimal>) -> String {
    value.map_or_else(|| "null".to_owned(), num::fiat)
}

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "null".to_owned(), |v| v.to_string())
}

/// Renders the whole report as text.
pub fn render_text(report: &IrpfYearReport) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_report(&mut out, report);
    out
}

// One flat, linear renderer reads best as a single function with short local names.
#[allow(clippy::too_many_lines, clippy::many_single_char_names)]
fn write_report(out: &mut String, r: &IrpfYearReport) -> std::fmt::Result {
    writeln!(
        out,
        "year {} {} {} start_year {}",
        r.year, r.currency, r.method, r.start_year
    )?;
    writeln!(out, "summary")?;
    for (name, value) in Summary::FIELDS.iter().zip(r.summary.formatted()) {
        writeln!(out, "  {name} {value}")?;
    }
    let b = &r.bases;
    writeln!(out, "bases")?;
    writeln!(
        out,
        "  T_sav {} R {} p {} T_after {} R_after {} base {} G {} G_after {}",
        num::fiat(b.savings_transmission_balance),
        num::fiat(b.savings_rcm_balance),
        b.cross_percentage
            .map_or_else(|| "null".to_owned(), |p| num::format(p, OutputClass::Ratio)),
        num::fiat(b.savings_gp_after_compensation),
        num::fiat(b.savings_rcm_after_compensation),
        num::fiat(b.savings_base_after_compensation),
        num::fiat(b.general_gains_balance),
        num::fiat(b.general_gains_after_compensation),
    )?;
    for bracket in &b.brackets {
        writeln!(
            out,
            "  bracket {} .. {} rate {} taxed {} tax {}",
            num::fiat(bracket.lower),
            fiat(bracket.upper),
            num::format(bracket.rate, OutputClass::Ratio),
            num::fiat(bracket.taxed_amount),
            num::format(bracket.tax, OutputClass::Quantity),
        )?;
    }
    let cf = &r.carry_forward;
    writeln!(out, "carry_forward")?;
    for u in &cf.used {
        writeln!(
            out,
            "  used {} {} {} {} {}",
            u.origin_year,
            u.kind.as_str(),
            u.source.as_str(),
            u.nature.as_str(),
            num::fiat(u.amount)
        )?;
    }
    for g in &cf.generated {
        writeln!(
            out,
            "  generated {} {} {}",
            g.origin_year,
            g.kind.as_str(),
            num::fiat(g.amount)
        )?;
    }
    for m in &cf.remaining {
        writeln!(
            out,
            "  remaining {} {} {} {} last_usable {}",
            m.origin_year,
            m.kind.as_str(),
            m.source.as_str(),
            num::fiat(m.remaining),
            m.last_usable_year
        )?;
    }
    for e in &cf.expired {
        writeln!(
            out,
            "  expired {} {} {}",
            e.origin_year,
            e.kind.as_str(),
            num::fiat(e.amount)
        )?;
    }
    let c = &r.completeness;
    writeln!(
        out,
        "completeness {} unconvertible {} flagged {} unresolved_income {} manual {}",
        c.status.render(),
        c.unconvertible_count,
        c.excluded_flagged_events,
        c.excluded_unresolved_income,
        c.manual_value_count
    )?;
    for (asset, quantity) in &c.uncovered_quantity {
        writeln!(out, "  uncovered {asset} {}", num::quantity(*quantity))?;
    }
    for op in &c.excluded_operations {
        writeln!(
            out,
            "  excluded {}:{} {} {} [{}]",
            op.row_key,
            op.leg.as_str(),
            num::quantity(op.quantity),
            op.asset,
            flags_cell(op.flags)
        )?;
    }
    writeln!(out, "audit_trail")?;
    for a in &r.audit_trail {
        writeln!(
            out,
            "  {} {} {} {} {} clave {} on {} lot {} acquired {} {} base {} {}->{} gross {} fee {} tv {} acq {} result {} included {} [{}] tp {} ap {} price {} {} {} fx {} {}{}",
            a.slice_id(),
            a.operation_type.as_str(),
            num::quantity(a.quantity),
            a.asset,
            a.disposed_at,
            opt(a.clave.map(crate::engine::Clave::as_str)),
            a.disposed_on,
            a.lot_id().unwrap_or_else(|| "null".to_owned()),
            opt(a.acquired_on),
            opt(a.holding.map(super::Holding::as_str)),
            opt(a.base.map(super::Base::as_str)),
            opt(a.lot_account.as_ref()),
            a.disposal_account,
            fiat(a.gross_transmission_value),
            fiat(a.fee_expense),
            fiat(a.transmission_value),
            fiat(a.acquisition_value),
            fiat(a.result),
            a.included,
            flags_cell(a.quality_flags),
            opt(a
                .transmission_provenance
                .map(crate::engine::Provenance::as_str)),
            opt(a
                .acquisition_provenance
                .map(crate::engine::Provenance::as_str)),
            opt(a.price.map(|p| num::format(p, OutputClass::UnitPrice))),
            opt(a.price_currency),
            opt(a.price_date),
            opt(a.fx_rate.map(|x| num::format(x, OutputClass::Rate))),
            opt(a.fx_rate_date),
            a.swap.as_ref().map_or_else(String::new, |s| format!(
                " swap given {} received {} winner {}",
                fiat(s.given_value),
                fiat(s.received_value),
                opt(s.winner.map(winner))
            )),
        )?;
    }
    writeln!(out, "income")?;
    for i in &r.income.receipts {
        writeln!(
            out,
            "  {} {} {} {} {} {} value {} {} [{}]",
            i.row_key,
            i.tx_type.as_str(),
            i.bucket.as_str(),
            i.fiscal_date,
            num::quantity(i.quantity),
            i.asset,
            fiat(i.value),
            opt(i.provenance.map(crate::engine::Provenance::as_str)),
            flags_cell(i.flags)
        )?;
    }
    for (bucket, total) in &r.income.totals_by_bucket {
        writeln!(out, "  total {} {}", bucket.as_str(), num::fiat(*total))?;
    }
    for t in &r.income.totals_by_asset {
        writeln!(
            out,
            "  total {} {} {} {}",
            t.bucket.as_str(),
            t.asset,
            num::quantity(t.quantity),
            num::fiat(t.value)
        )?;
    }
    writeln!(out, "derivatives")?;
    for d in &r.derivatives.contracts {
        writeln!(
            out,
            "  {} {} gains {} losses {} net {} rows {}",
            d.contract,
            d.settlement_asset,
            num::fiat(d.gains),
            num::fiat(d.losses),
            num::fiat(d.net),
            d.rows
        )?;
    }
    for d in &r.derivatives.unresolved {
        writeln!(
            out,
            "  unresolved {} {} {} [{}]",
            d.row_key,
            d.contract,
            d.fiscal_date,
            flags_cell(d.flags)
        )?;
    }
    let m = &r.modelo100;
    writeln!(out, "modelo100 boxes {}", m.boxes)?;
    for row in &m.rows {
        writeln!(
            out,
            "  {} {} {} {} 1804 {} 1806 {} 1807 {} 1809 {} slices {} operations {}",
            row.base.as_str(),
            row.asset,
            row.clave.as_str(),
            row.sign.as_str(),
            num::fiat(row.transmission_value),
            num::fiat(row.acquisition_value),
            fiat(row.loss),
            fiat(row.gain),
            row.slice_count,
            row.operation_count
        )?;
    }
    let t = &m.totals;
    writeln!(
        out,
        "  TOTAL 1804 {} 1806 {} 1807 {} 1809 {}",
        num::fiat(t.total_transmission_value),
        num::fiat(t.total_acquisition_value),
        num::fiat(t.total_losses),
        num::fiat(t.total_gains)
    )?;
    for (name, block) in [
        ("capital_income", &m.capital_income),
        ("general_gains", &m.general_gains),
        ("economic_activity", &m.economic_activity),
    ] {
        write!(out, "  {name} {}", num::fiat(block.total))?;
        for (asset, quantity, value) in &block.per_asset {
            write!(
                out,
                " {asset} {} {}",
                num::quantity(*quantity),
                num::fiat(*value)
            )?;
        }
        writeln!(out)?;
    }
    writeln!(out, "annex {} lines", r.annex.len())?;
    if let Some(list) = &r.art_33_5_warnings {
        writeln!(out, "art_33_5")?;
        for e in list {
            writeln!(
                out,
                "  {} {} {} loss {} window {} .. {}",
                e.slice_id,
                e.asset,
                e.disposed_on,
                num::fiat(e.loss),
                e.window_from,
                e.window_to
            )?;
            for q in &e.reacquisitions {
                writeln!(
                    out,
                    "    {} {} {} {}",
                    q.lot_id,
                    q.acquired_on,
                    num::quantity(q.quantity),
                    q.origin_type.as_str()
                )?;
            }
        }
    }
    if let Some(holdings) = &r.year_end_holdings {
        write_year_end(out, holdings)?;
    }
    let warnings: Vec<&str> = r.warnings.iter().map(|w| w.as_str()).collect();
    writeln!(out, "warnings [{}]", warnings.join(", "))?;
    writeln!(out, "assumptions [{}]", r.assumptions.join(", "))
}

/// Renders year-end holdings as text.
pub fn render_year_end(holdings: &YearEndHoldings) -> String {
    let mut out = String::new();
    let _ = write_year_end(&mut out, holdings);
    out
}

fn write_year_end(out: &mut String, h: &YearEndHoldings) -> std::fmt::Result {
    writeln!(out, "year_end {}", h.year)?;
    for c in &h.custodians {
        writeln!(
            out,
            "  {} {} {}",
            c.name,
            opt(c.country.as_ref()),
            c.custody_kind.as_str()
        )?;
        for e in &c.entries {
            writeln!(
                out,
                "    {} {} {}{}",
                e.asset,
                num::quantity(e.units),
                fiat(e.value),
                if e.incomplete { " incomplete" } else { "" }
            )?;
        }
    }
    let m = &h.modelo_721;
    writeln!(
        out,
        "  721 {} total {} last_filed {} ({}) window {} .. {}",
        m.decision.as_str(),
        num::fiat(m.total_721),
        fiat(m.last_filed_total),
        opt(m.last_filed_year),
        m.filing_window.0,
        m.filing_window.1
    )?;
    for (custodian, asset) in &m.vanished_positions {
        writeln!(out, "    vanished {custodian} {asset}")?;
    }
    let n = &h.modelo_714;
    writeln!(
        out,
        "  714 total {} exceeds_2m {}",
        num::fiat(n.total_714),
        n.crypto_alone_exceeds_2m
    )?;
    for (asset, units, value) in &n.per_asset {
        writeln!(
            out,
            "    {asset} {} {}",
            num::quantity(*units),
            fiat(*value)
        )?;
    }
    Ok(())
}
