//! `cartera tax 2022..2024`: several IRPF years from one computation, each year's report in
//! turn and the carry-forward chain between them; `--json` prints the list of the yearly
//! documents.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;
use shared_types::dto::TaxReport;
use use_cases::queries::{ReadUseCases, TaxReportRequest};

use crate::Outcome;
use crate::i18n::{num, t};
use crate::reports::{Session, answer, print_json, render_tax_with, tax_report, write_csv};
use crate::table::{Align, Table};

/// The most years one command prints.
const MAX_YEARS: i32 = 50;

/// `YEAR` or `FIRST..LAST` (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct YearSpan {
    /// First year.
    pub(crate) first: i32,
    /// Last year (equal to `first` for one year).
    pub(crate) last: i32,
}

/// Parses `2024` or `2022..2024`.
pub(crate) fn parse_span(text: &str) -> Result<YearSpan, String> {
    let year = |part: &str| -> Result<i32, String> {
        part.trim()
            .parse::<i32>()
            .ok()
            .filter(|y| (1000..=9999).contains(y))
            .ok_or_else(|| {
                format!("\"{text}\" is not a year or a range of years: write 2024 or 2022..2024")
            })
    };
    let span = if let Some((a, b)) = text.split_once("..") {
        YearSpan {
            first: year(a)?,
            last: year(b)?,
        }
    } else {
        let y = year(text)?;
        YearSpan { first: y, last: y }
    };
    if span.first > span.last {
        return Err(format!(
            "the range {text} runs backwards: write the earlier year first ({}..{})",
            span.last, span.first
        ));
    }
    if span.last - span.first >= MAX_YEARS {
        return Err(format!(
            "the range {text} covers more than {MAX_YEARS} years"
        ));
    }
    Ok(span)
}

/// Runs `cartera tax FIRST..LAST`.
pub(crate) fn run(
    ledger: Option<&Path>,
    json: bool,
    span: YearSpan,
    csv: Option<&Path>,
    excel_es: bool,
) -> Result<Outcome> {
    let session = Session::open(ledger)?;
    session.require_year(span.first)?;
    session.require_year(span.last)?;
    let years: Vec<i32> = (span.first..=span.last).collect();
    // One IRPF computation for every year asked (the carry-forward chain runs once).
    answer(session.queries.prepare_tax_years(&years))?;
    let mut reports = Vec::with_capacity(years.len());
    for year in &years {
        reports.push(tax_report(&session, *year)?);
    }
    if let Some(dir) = csv {
        for year in &years {
            let files = answer(session.queries.get_tax_report_csv(&TaxReportRequest {
                year: *year,
                with_year_end_holdings: false,
            }))?;
            write_csv(dir, &files, excel_es)?;
        }
    }
    if json {
        let documents: Vec<&TaxReport> = reports.iter().map(|r| &**r).collect();
        print_json(&documents)?;
    } else {
        let mut out = String::new();
        for report in &reports {
            out.push_str(&render_tax_with(report, false, &|key| {
                session.queries.row_source(key)
            }));
            if !report.audit_trail.is_empty() {
                let _ = writeln!(
                    out,
                    "{}",
                    if crate::i18n::es() {
                        format!(
                            "\n{} transmisiones (tramos FIFO): una por línea con `cartera tax {}`, \
                             `--csv` o `--html`.",
                            report.audit_trail.len(),
                            report.year
                        )
                    } else {
                        format!(
                            "\n{} disposals (FIFO slices): one per line with `cartera tax {}`, \
                             `--csv` or `--html`.",
                            report.audit_trail.len(),
                            report.year
                        )
                    }
                );
            }
            out.push_str(&"=".repeat(crate::guide::WIDTH));
            out.push_str("\n\n");
        }
        let refs: Vec<&TaxReport> = reports.iter().map(|r| &**r).collect();
        out.push_str(&render_chain(&refs));
        crate::output::out!("{out}");
    }
    session.queries.leave_state_to_exit();
    Ok(Outcome::Success)
}

/// The carry-forward chain: per year what was generated, used and expired, and what remains
/// at its end, then the items still pending after the last year.
pub(crate) fn render_chain(reports: &[&TaxReport]) -> String {
    let (Some(first), Some(last)) = (reports.first(), reports.last()) else {
        return String::new();
    };
    let mut out = format!(
        "{} {}–{} (EUR)\n",
        t("Carry-forward chain", "Cadena de compensaciones"),
        first.year,
        last.year
    );
    let mut table = Table::new(&[
        (t("year", "año"), Align::Right),
        (t("generated", "generado"), Align::Right),
        (t("used", "aplicado"), Align::Right),
        (t("expired", "caducado"), Align::Right),
        (
            t("remaining at year end", "pendiente al cierre"),
            Align::Right,
        ),
        (t("savings base", "base del ahorro"), Align::Right),
    ]);
    for r in reports {
        let s = &r.summary;
        table.row([
            r.year.to_string(),
            num(&s.carry_forward_generated),
            num(&s.carry_forward_used),
            num(&s.carry_forward_expired),
            num(&s.carry_forward_remaining),
            num(&s.savings_base_after_compensation),
        ]);
    }
    out.push_str(&table.render());
    let remaining = &last.carry_forward.remaining;
    if !remaining.is_empty() {
        let _ = writeln!(
            out,
            "\n{} {}",
            t("Pending after", "Pendiente tras"),
            last.year
        );
        let mut items = Table::new(&[
            (t("origin year", "año de origen"), Align::Right),
            (t("kind", "tipo"), Align::Left),
            (t("remaining EUR", "pendiente EUR"), Align::Right),
            (t("last usable year", "último año"), Align::Right),
        ]);
        for item in remaining {
            items.row([
                item.origin_year.to_string(),
                item.kind.clone(),
                num(&item.remaining),
                item.last_usable_year.to_string(),
            ]);
        }
        out.push_str(&items.render());
    }
    out
}

#[cfg(test)]
mod tests;
