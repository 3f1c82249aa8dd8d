//! The two CSV files of `cartera tax YEAR --csv DIR` (`irpf.md` §8.1, §8.3), written from the
//! report DTO with the column lists of `core_domain::irpf::annex`: RFC 4180, UTF-8, comma
//! separator, `.` decimal point, empty cell for null, header row, `\n` line ends.

use core_domain::irpf::annex::{
    ANNEX_COLUMNS, MODELO100_COLUMNS, annex_file_name, modelo100_file_name,
};
use shared_types::dto::TaxReport;

/// One RFC 4180 field: quoted when it holds a comma, a quote or a line break.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn line(out: &mut String, cells: &[String]) {
    let joined: Vec<String> = cells.iter().map(|c| field(c)).collect();
    out.push_str(&joined.join(","));
    out.push('\n');
}

fn cell(value: Option<&String>) -> String {
    value.cloned().unwrap_or_default()
}

/// `(file name, contents)` of `modelo100_<YEAR>.csv` and `annex_<YEAR>.csv`.
pub(crate) fn render(report: &TaxReport) -> [(String, String); 2] {
    [
        (modelo100_file_name(report.year), modelo100(report)),
        (annex_file_name(report.year), annex(report)),
    ]
}

fn modelo100(report: &TaxReport) -> String {
    let mut out = String::new();
    line(&mut out, &MODELO100_COLUMNS.map(str::to_owned));
    let modelo = &report.modelo100;
    for row in &modelo.rows {
        line(
            &mut out,
            &[
                row.base.clone(),
                row.asset.clone(),
                row.clave.clone(),
                row.transmission_value.clone(),
                row.acquisition_value.clone(),
                cell(row.loss.as_ref()),
                cell(row.gain.as_ref()),
                row.slice_count.to_string(),
                row.operation_count.to_string(),
            ],
        );
    }
    let t = &modelo.totals;
    line(
        &mut out,
        &[
            "TOTAL".to_owned(),
            String::new(),
            String::new(),
            t.total_transmission_value.clone(),
            t.total_acquisition_value.clone(),
            t.total_losses.clone(),
            t.total_gains.clone(),
            t.slice_count.to_string(),
            t.operation_count.to_string(),
        ],
    );
    out
}

fn annex(report: &TaxReport) -> String {
    let mut out = String::new();
    line(&mut out, &ANNEX_COLUMNS.map(str::to_owned));
    for s in &report.audit_trail {
        let swap = s.swap.as_ref();
        line(
            &mut out,
            &[
                format!("{}:{}", s.row_key, s.leg),
                s.slice_id.clone(),
                s.asset.clone(),
                cell(s.clave.as_ref()),
                cell(s.base.as_ref()),
                s.included.to_string(),
                s.quality_flags.join(";"),
                s.disposed_at.clone(),
                s.disposed_on.clone(),
                cell(s.acquired_on.as_ref()),
                cell(s.holding.as_ref()),
                s.quantity.clone(),
                cell(s.gross_transmission_value.as_ref()),
                cell(s.fee_expense.as_ref()),
                cell(s.transmission_value.as_ref()),
                cell(s.acquisition_value.as_ref()),
                cell(s.result.as_ref()),
                cell(s.transmission_provenance.as_ref()),
                cell(s.price.as_ref()),
                cell(s.price_currency.as_ref()),
                cell(s.price_date.as_ref()),
                cell(s.fx_rate.as_ref()),
                cell(s.fx_rate_date.as_ref()),
                cell(swap.and_then(|w| w.given_value.as_ref())),
                cell(swap.and_then(|w| w.received_value.as_ref())),
                cell(swap.and_then(|w| w.winner.as_ref())),
                cell(s.acquisition_provenance.as_ref()),
                cell(s.lot_id.as_ref()),
                cell(s.acquisition_row_key.as_ref()),
                s.disposal_account.clone(),
                cell(s.lot_account.as_ref()),
            ],
        );
    }
    out
}
