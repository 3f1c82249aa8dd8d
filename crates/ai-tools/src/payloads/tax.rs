//! IRPF tools (`tools.md` §9.12, §9.16), always in EUR.

use serde_json::{Map, Value};
use shared_types::dto::{
    GuideBoxDto, GuideCryptoRowDto, RentaGuideDto, SummaryDeltas, TaxYearSideDto,
};
use use_cases::queries::{CompareTaxYearsRequest, TaxReportRequest};

use super::ProjectCtx;
use super::args::Args;
use super::emit::{Fmt, Obj, R, cap, fail, list, uc};
use super::shared::{audit_row, completeness, tax_summary};

const REPORT: &str = "GetSpanishTaxReport";
const COMPARE: &str = "CompareTaxYears";

/// Fixed cap of the audit trail (not a profile setting).
const AUDIT_CAP: usize = 20;

/// Fixed cap of the guide's crypto elements in the payload.
const GUIDE_ROWS_CAP: u32 = 5;

fn guide_row(r: &GuideCryptoRowDto) -> R<Value> {
    let mut o = Obj::new(REPORT);
    o.text("coin", &r.coin)
        .lit("clave", &r.clave, &["F", "N", "O", "B"])?
        .fig("box1804", Fmt::Amount, &r.box1804)?
        .fig("box1806", Fmt::Amount, &r.box1806)?
        .fig_opt("box1807", Fmt::Amount, r.box1807.as_deref())?
        .fig_opt("box1809", Fmt::Amount, r.box1809.as_deref())?;
    Ok(o.value())
}

fn guide_box(b: &GuideBoxDto) -> R<Value> {
    let mut o = Obj::new(REPORT);
    o.text("box", &b.number)
        .fig("amount", Fmt::Amount, &b.amount)?
        .put("originYear", b.origin_year.map_or(Value::Null, Value::from));
    Ok(o.value())
}

/// The Renta Web guide, compact: box numbers and amounts (no labels), the first crypto
/// elements, and the codes of the points to check.
fn renta_guide(g: &RentaGuideDto) -> R<Value> {
    let (rows, omitted) = cap(&g.crypto_rows, GUIDE_ROWS_CAP);
    let notes: Vec<Value> = g
        .notes
        .iter()
        .map(|n| Value::from(n.code.as_str()))
        .collect();
    let mut o = Obj::new(REPORT);
    o.flag("covered", g.covered)
        .put("cryptoRows", list(rows, guide_row)?)
        .count("omittedCryptoRows", omitted)
        .put("boxes", list(&g.boxes, guide_box)?)
        .put("notes", Value::Array(notes));
    Ok(o.value())
}

fn method<'a>(uc_name: &'static str, args: &Args<'a>) -> R<&'a str> {
    let method = args.str("method")?;
    if method == "FIFO" {
        Ok(method)
    } else {
        Err(fail(uc_name, "internal error: method is not FIFO"))
    }
}

/// `spanish_tax_report`: one IRPF year with the latest twenty disposal slices.
pub(super) fn spanish_tax_report(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let year = args.year("year")?;
    let method = method(REPORT, args)?;
    let report = uc(
        REPORT,
        ctx.use_cases
            .get_spanish_tax_report_shared(&TaxReportRequest {
                year,
                with_year_end_holdings: false,
            }),
    )?;
    let audit = uc(REPORT, ctx.use_cases.get_tax_audit_latest(year, AUDIT_CAP))?;
    if report.year != year || audit.year != year || audit.rows.len() > AUDIT_CAP {
        return Err(fail(REPORT, "returned a report of another year or shape"));
    }
    if report.currency != "EUR" {
        return Err(fail(REPORT, "returned a report not in EUR"));
    }
    let c = &report.completeness;
    let warnings = report.art_33_5_warnings.as_ref().map_or(0, Vec::len);
    Ok(Obj::new(REPORT)
        .year("year", year)?
        .text("method", method)
        .text("currency", "EUR")
        .put("summary", tax_summary(REPORT, &report.summary)?)
        .count("unconvertibleCount", c.unconvertible_count)
        .count("excludedFlaggedEvents", c.excluded_flagged_events)
        .count("excludedUnresolvedIncome", c.excluded_unresolved_income)
        .count_usize("twoMonthRuleWarningCount", warnings)
        .put("completeness", completeness(REPORT, &c.status)?)
        .put("rentaGuide", renta_guide(&report.renta_guide)?)
        .put("auditTrail", list(&audit.rows, |a| audit_row(REPORT, a))?)
        .count("omittedCount", audit.omitted_count)
        .done())
}

fn year_side(side: &TaxYearSideDto) -> R<Value> {
    if side.currency != "EUR" {
        return Err(fail(COMPARE, "returned a year not in EUR"));
    }
    Ok(Obj::new(COMPARE)
        .year("year", side.year)?
        .text("currency", "EUR")
        .put("summary", tax_summary(COMPARE, &side.summary)?)
        .count("unconvertibleCount", side.unconvertible_count)
        .count("excludedFlaggedEvents", side.excluded_flagged_events)
        .count("excludedUnresolvedIncome", side.excluded_unresolved_income)
        .put("completeness", completeness(COMPARE, &side.completeness)?)
        .value())
}

fn deltas(d: &SummaryDeltas) -> R<Value> {
    let mut o = Obj::new(COMPARE);
    let keys = shared_types::dto::TaxSummary::KEYS;
    for (key, delta) in keys.iter().zip(d.values()) {
        let mut entry = Obj::new(COMPARE);
        entry.lit("kind", &delta.kind, &["delta", "delta_incomparable"])?;
        if delta.value.is_none() && delta.kind == "delta" {
            return Err(fail(
                COMPARE,
                format!("returned a comparable null delta for {key}"),
            ));
        }
        entry.fig_opt("value", Fmt::Amount, delta.value.as_deref())?;
        o.put(key, entry.value());
    }
    Ok(o.value())
}

/// `tax_year_comparison`: two years side by side, deltas second minus first.
pub(super) fn tax_year_comparison(ctx: &ProjectCtx<'_>, args: &Args<'_>) -> R<Map<String, Value>> {
    let year_a = args.year("yearA")?;
    let year_b = args.year("yearB")?;
    let method = method(COMPARE, args)?;
    let c = uc(
        COMPARE,
        ctx.use_cases
            .compare_tax_years(&CompareTaxYearsRequest { year_a, year_b }),
    )?;
    if c.year_a.year != year_a || c.year_b.year != year_b {
        return Err(fail(COMPARE, "returned other years than asked"));
    }
    Ok(Obj::new(COMPARE)
        .text("method", method)
        .put("yearA", year_side(&c.year_a)?)
        .put("yearB", year_side(&c.year_b)?)
        .put("deltas", deltas(&c.deltas)?)
        .done())
}
