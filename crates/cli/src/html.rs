//! `cartera tax YEAR --html FILE`: the year's report as one self-contained HTML file (inline
//! CSS, inline SVG charts drawn here from plain SVG primitives, nothing loaded from the
//! network), laid out for A4 printing with a page break before each section.

use std::fmt::Write as _;

use rust_decimal::Decimal;
use shared_types::dto::{ModeloWorksheetsDto, PerformancePoint, TaxReport};

use crate::i18n::{num, num_opt, t};

/// Chart size in SVG user units.
const W: i64 = 680;
const H: i64 = 220;
const PAD: i64 = 40;

/// Escapes text for HTML.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn dec(text: &str) -> Option<Decimal> {
    text.parse().ok()
}

/// `value` scaled from `[lo, hi]` onto `[0, span]` pixels, rounded to a whole pixel.
fn scale(value: Decimal, lo: Decimal, hi: Decimal, span: i64) -> i64 {
    let range = hi.checked_sub(lo).unwrap_or(Decimal::ONE);
    if range.is_zero() {
        return 0;
    }
    value
        .checked_sub(lo)
        .and_then(|v| v.checked_mul(Decimal::from(span)))
        .and_then(|v| v.checked_div(range))
        .map(|v| v.round())
        .and_then(|v| i64::try_from(v).ok())
        .unwrap_or(0)
        .clamp(0, span)
}

fn svg_open(title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" \
         height=\"{H}\" role=\"img\" aria-label=\"{t}\"><rect x=\"0\" y=\"0\" width=\"{W}\" \
         height=\"{H}\" fill=\"#fff\" stroke=\"#ccc\"/>",
        t = esc(title)
    )
}

/// A line chart of dated values (gaps where a value is unknown).
pub(crate) fn line_chart(title: &str, points: &[(String, Option<Decimal>)]) -> String {
    let mut svg = svg_open(title);
    let values: Vec<Decimal> = points.iter().filter_map(|(_, v)| *v).collect();
    let (Some(lo), Some(hi)) = (values.iter().min(), values.iter().max()) else {
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\">{}</text></svg>",
            PAD,
            H / 2,
            esc(t("No data for this chart.", "Sin datos para este gráfico."))
        );
        return svg;
    };
    let n = i64::try_from(points.len().saturating_sub(1).max(1)).unwrap_or(1);
    let inner_w = W - 2 * PAD;
    let inner_h = H - 2 * PAD;
    let mut segment = String::new();
    let flush = |segment: &mut String, svg: &mut String| {
        if !segment.is_empty() {
            let _ = write!(
                svg,
                "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\" points=\"{}\"/>",
                segment.trim_end()
            );
            segment.clear();
        }
    };
    for (i, (_, value)) in points.iter().enumerate() {
        let x = PAD + i64::try_from(i).unwrap_or(0) * inner_w / n;
        match value {
            Some(v) => {
                let y = H - PAD - scale(*v, *lo, *hi, inner_h);
                let _ = write!(segment, "{x},{y} ");
            }
            None => flush(&mut segment, &mut svg),
        }
    }
    flush(&mut segment, &mut svg);
    let (first, last) = (
        points.first().map_or("", |p| p.0.as_str()),
        points.last().map_or("", |p| p.0.as_str()),
    );
    let _ = write!(
        svg,
        "<text x=\"{PAD}\" y=\"{}\" font-size=\"11\">{}</text>\
         <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>\
         <text x=\"4\" y=\"{}\" font-size=\"11\">{}</text>\
         <text x=\"4\" y=\"{}\" font-size=\"11\">{}</text></svg>",
        H - 10,
        esc(first),
        W - PAD,
        H - 10,
        esc(last),
        PAD - 6,
        esc(&num(&hi.to_string())),
        H - PAD + 14,
        esc(&num(&lo.to_string())),
    );
    svg
}

/// Horizontal bars around a zero line (positive right, negative left).
pub(crate) fn bar_chart(title: &str, items: &[(String, Decimal)]) -> String {
    let rows = i64::try_from(items.len().max(1)).unwrap_or(1);
    let height = (rows * 22 + 20).max(60);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {height}\" width=\"{W}\" \
         height=\"{height}\" role=\"img\" aria-label=\"{}\"><rect x=\"0\" y=\"0\" width=\"{W}\" \
         height=\"{height}\" fill=\"#fff\" stroke=\"#ccc\"/>",
        esc(title)
    );
    if items.is_empty() {
        let _ = write!(
            svg,
            "<text x=\"{PAD}\" y=\"34\" font-size=\"14\">{}</text></svg>",
            esc(t("No data for this chart.", "Sin datos para este gráfico."))
        );
        return svg;
    }
    let max = items
        .iter()
        .map(|(_, v)| v.abs())
        .max()
        .unwrap_or(Decimal::ONE)
        .max(Decimal::ONE);
    let label_w = 140;
    let value_w = 110;
    let half = (W - label_w - value_w) / 2;
    let zero = label_w + half;
    let _ = write!(
        svg,
        "<line x1=\"{zero}\" y1=\"6\" x2=\"{zero}\" y2=\"{}\" stroke=\"#888\"/>",
        height - 6
    );
    for (i, (label, value)) in items.iter().enumerate() {
        let y = 10 + i64::try_from(i).unwrap_or(0) * 22;
        let len = scale(value.abs(), Decimal::ZERO, max, half);
        let (x, color) = if value.is_sign_negative() {
            (zero - len, "#b03a2e")
        } else {
            (zero, "#2e7d32")
        };
        let _ = write!(
            svg,
            "<text x=\"4\" y=\"{}\" font-size=\"12\">{}</text>\
             <rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"16\" fill=\"{color}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
            y + 13,
            esc(label),
            len.max(1),
            W - 4,
            y + 13,
            esc(&num(&value.to_string()))
        );
    }
    svg.push_str("</svg>");
    svg
}

const CSS: &str = "@page{size:A4;margin:14mm}body{font-family:sans-serif;font-size:11px;\
color:#111;max-width:190mm;margin:auto}h1{font-size:20px}h2{font-size:15px;border-bottom:1px \
solid #999;padding-bottom:2px}section{page-break-before:always;break-before:page}\
section.first{page-break-before:auto;break-before:auto}table{border-collapse:collapse;\
margin:6px 0;width:100%}td,th{border:1px solid #ccc;padding:2px 4px;text-align:left}\
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}pre{white-space:pre-wrap;\
font-size:10px}svg{display:block;margin:8px 0;max-width:100%;height:auto}";

fn table(out: &mut String, headers: &[(&str, bool)], rows: &[Vec<String>]) {
    out.push_str("<table><thead><tr>");
    for (h, numeric) in headers {
        let class = if *numeric { " class=\"n\"" } else { "" };
        let _ = write!(out, "<th{class}>{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for (cell, (_, numeric)) in row.iter().zip(headers) {
            let class = if *numeric { " class=\"n\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", esc(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

/// Everything the HTML report shows.
pub(crate) struct HtmlInput<'a> {
    /// The year report.
    pub(crate) report: &'a TaxReport,
    /// The 721 and 714 worksheets.
    pub(crate) worksheets: &'a ModeloWorksheetsDto,
    /// The portfolio's daily value over the year.
    pub(crate) series: &'a [PerformancePoint],
}

/// The whole HTML document.
#[allow(
    clippy::too_many_lines,
    reason = "one section after another, in the printed order"
)]
pub(crate) fn render(input: &HtmlInput<'_>) -> String {
    let r = input.report;
    let lang = if crate::i18n::es() { "es" } else { "en" };
    let title = format!(
        "{} {} — cartera",
        t("IRPF report", "Informe del IRPF"),
        r.year
    );
    let mut out = format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{CSS}</style></head><body>",
        esc(&title)
    );
    // Summary and charts.
    let _ = write!(
        out,
        "<section class=\"first\"><h1>{}</h1><h2>{}</h2>",
        esc(&title),
        esc(t("Summary (EUR)", "Resumen (EUR)"))
    );
    let rows: Vec<Vec<String>> = crate::reports::summary_fields(&r.summary)
        .into_iter()
        .map(|(label, value)| vec![label.to_owned(), num_opt(value)])
        .collect();
    table(
        &mut out,
        &[(t("field", "campo"), false), ("EUR", true)],
        &rows,
    );
    let value_points: Vec<(String, Option<Decimal>)> = input
        .series
        .iter()
        .map(|p| (p.date.clone(), p.portfolio_value.as_deref().and_then(dec)))
        .collect();
    let drawdown: Vec<(String, Option<Decimal>)> = input
        .series
        .iter()
        .map(|p| (p.date.clone(), dec(&p.drawdown_pct)))
        .collect();
    let _ = write!(
        out,
        "<h2>{}</h2>{}<h2>{}</h2>{}</section>",
        esc(t(
            "Portfolio value over the year (EUR)",
            "Valor de la cartera durante el año (EUR)"
        )),
        line_chart("value", &value_points),
        esc(t("Drawdown (%)", "Caída desde el máximo (%)")),
        line_chart("drawdown", &drawdown),
    );
    // Allocation and gains per asset.
    let allocation: Vec<(String, Decimal)> = input
        .worksheets
        .modelo714
        .rows
        .iter()
        .filter_map(|row| Some((row.description.clone(), dec(row.value.as_deref()?)?)))
        .collect();
    let mut per_asset: Vec<(String, Decimal)> = Vec::new();
    for row in &r.modelo100.rows {
        let gain = row.gain.as_deref().and_then(dec).unwrap_or_default();
        let loss = row.loss.as_deref().and_then(dec).unwrap_or_default();
        let net = gain.checked_sub(loss).unwrap_or_default();
        match per_asset.iter_mut().find(|(a, _)| *a == row.asset) {
            Some((_, total)) => *total = total.checked_add(net).unwrap_or(*total),
            None => per_asset.push((row.asset.clone(), net)),
        }
    }
    let _ = write!(
        out,
        "<section><h2>{}</h2>{}<h2>{}</h2>{}</section>",
        esc(t(
            "Allocation on 31 December (EUR)",
            "Distribución a 31 de diciembre (EUR)"
        )),
        bar_chart("allocation", &allocation),
        esc(t(
            "Gains and losses per asset (EUR)",
            "Ganancias y pérdidas por activo (EUR)"
        )),
        bar_chart("gains", &per_asset),
    );
    // The Renta Web guide.
    let _ = write!(
        out,
        "<section><h2>{}</h2><pre>{}</pre></section>",
        esc(t("Renta Web guide", "Guía para Renta Web")),
        esc(&crate::guide::render_guide(&r.renta_guide))
    );
    // Modelo 100 rows.
    let _ = write!(
        out,
        "<section><h2>{}</h2>",
        esc(t("Modelo 100 rows (EUR)", "Filas del Modelo 100 (EUR)"))
    );
    let rows: Vec<Vec<String>> = r
        .modelo100
        .rows
        .iter()
        .map(|m| {
            vec![
                m.base.clone(),
                m.asset.clone(),
                m.clave.clone(),
                num(&m.transmission_value),
                num(&m.acquisition_value),
                num_opt(m.loss.as_ref()),
                num_opt(m.gain.as_ref()),
            ]
        })
        .collect();
    table(
        &mut out,
        &[
            ("base", false),
            ("1802", false),
            ("1803", false),
            ("1804", true),
            ("1806", true),
            ("1807", true),
            ("1809", true),
        ],
        &rows,
    );
    out.push_str("</section>");
    // Carry-forward by origin year.
    let _ = write!(
        out,
        "<section><h2>{}</h2>",
        esc(t(
            "Carry-forward by origin year (EUR)",
            "Pérdidas pendientes por año de origen (EUR)"
        ))
    );
    let mut rows: Vec<Vec<String>> = Vec::new();
    for u in &r.carry_forward.used {
        rows.push(vec![
            u.origin_year.to_string(),
            u.kind.clone(),
            t("used", "aplicado").to_owned(),
            num(&u.amount),
        ]);
    }
    for g in &r.carry_forward.generated {
        rows.push(vec![
            g.origin_year.to_string(),
            g.kind.clone(),
            t("generated", "generado").to_owned(),
            num(&g.amount),
        ]);
    }
    for x in &r.carry_forward.remaining {
        rows.push(vec![
            x.origin_year.to_string(),
            x.kind.clone(),
            t("remaining", "pendiente").to_owned(),
            num(&x.remaining),
        ]);
    }
    for e in &r.carry_forward.expired {
        rows.push(vec![
            e.origin_year.to_string(),
            e.kind.clone(),
            t("expired", "caducado").to_owned(),
            num(&e.amount),
        ]);
    }
    table(
        &mut out,
        &[
            (t("origin year", "año de origen"), false),
            (t("kind", "tipo"), false),
            (t("movement", "movimiento"), false),
            ("EUR", true),
        ],
        &rows,
    );
    out.push_str("</section>");
    // 721 and 714.
    let _ = write!(
        out,
        "<section><h2>{}</h2><pre>{}</pre></section>",
        esc(t(
            "Modelo 721 and Modelo 714 worksheets",
            "Hojas de trabajo de los Modelos 721 y 714"
        )),
        esc(&crate::worksheets::render(input.worksheets))
    );
    // Annex of every operation.
    let _ = write!(
        out,
        "<section><h2>{}</h2>",
        esc(t(
            "Annex: every disposal (FIFO slices)",
            "Anexo: todas las transmisiones (tramos FIFO)"
        ))
    );
    let rows: Vec<Vec<String>> = r
        .audit_trail
        .iter()
        .map(|s| {
            vec![
                s.disposed_on.clone(),
                s.slice_id.clone(),
                s.asset.clone(),
                num(&s.quantity),
                s.acquired_on.clone().unwrap_or_default(),
                num_opt(s.transmission_value.as_ref()),
                num_opt(s.acquisition_value.as_ref()),
                num_opt(s.result.as_ref()),
                s.quality_flags.join(" "),
            ]
        })
        .collect();
    table(
        &mut out,
        &[
            (t("date", "fecha"), false),
            (t("slice", "tramo"), false),
            (t("asset", "activo"), false),
            (t("quantity", "cantidad"), true),
            (t("acquired", "adquirido"), false),
            (t("transmission", "transmisión"), true),
            (t("acquisition", "adquisición"), true),
            (t("result", "resultado"), true),
            (t("flags", "avisos"), false),
        ],
        &rows,
    );
    out.push_str("</section>");
    // Data quality and warnings.
    let _ = write!(
        out,
        "<section><h2>{}</h2><ul>",
        esc(t(
            "Data quality, warnings and assumptions",
            "Calidad de datos, avisos y supuestos"
        ))
    );
    let c = &r.completeness;
    let _ = write!(
        out,
        "<li>{}: {} · {}: {} · {}: {}</li>",
        esc(t(
            "unconvertible (no ECB rate)",
            "sin conversión (sin tipo del BCE)"
        )),
        c.unconvertible_count,
        esc(t("flagged events excluded", "operaciones excluidas")),
        c.excluded_flagged_events,
        esc(t("income without a value", "rentas sin valor")),
        c.excluded_unresolved_income
    );
    for w in &r.warnings {
        let _ = write!(out, "<li>{}</li>", esc(&crate::guide::warning_text(w)));
    }
    for a in &r.assumptions {
        let _ = write!(out, "<li>{}</li>", esc(&crate::guide::assumption_text(a)));
    }
    out.push_str("</ul></section></body></html>\n");
    out
}
