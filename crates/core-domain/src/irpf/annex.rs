//! The per-operation annex (`irpf.md` §8.3) and the two CSV files of `cartera tax YEAR --csv`,
//! rendered as strings (the CLI writes them; core-domain does no IO).

use rust_decimal::Decimal;

use super::classification::{Base, Holding};
use super::modelo100::Modelo100;
use super::report::{AuditRow, IrpfYearReport};
use crate::engine::{Clave, FlagSet, Provenance};
use crate::num::{self, OutputClass};

/// One annex line: a slice of legs P and F of the year, grouped by operation in slice order.
/// Every column but `operation_id` is the slice's audit row, referenced by index (not copied).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnnexLine {
    /// Index of the slice's row in the report's audit trail.
    pub audit_index: u32,
}

impl AnnexLine {
    /// `<row_key>:<leg>` of the line's slice.
    pub fn operation_id(row: &AuditRow) -> String {
        format!("{}:{}", row.row_key, row.leg.as_str())
    }
}

/// The annex of a year from its audit trail (which is already in slice order, so the slices of
/// one operation are adjacent).
pub fn annex_lines(audit: &[AuditRow]) -> Vec<AnnexLine> {
    (0..audit.len())
        .map(|i| AnnexLine {
            audit_index: i as u32,
        })
        .collect()
}

/// Columns of `modelo100_<YEAR>.csv`.
pub const MODELO100_COLUMNS: [&str; 9] = [
    "base",
    "box_1802",
    "box_1803",
    "box_1804",
    "box_1806",
    "box_1807",
    "box_1809",
    "slice_count",
    "operation_count",
];

/// Columns of `annex_<YEAR>.csv`.
pub const ANNEX_COLUMNS: [&str; 31] = [
    "operation_id",
    "slice_id",
    "asset",
    "clave",
    "base",
    "included",
    "quality_flags",
    "disposed_at",
    "disposed_on",
    "acquired_on",
    "holding",
    "quantity",
    "gross_transmission_value",
    "fee_expense",
    "transmission_value",
    "acquisition_value",
    "result",
    "transmission_provenance",
    "price",
    "price_currency",
    "price_date",
    "fx_rate",
    "fx_rate_date",
    "swap_given_value",
    "swap_received_value",
    "swap_winner",
    "acquisition_provenance",
    "lot_id",
    "acquisition_row_key",
    "disposal_account",
    "lot_account",
];

/// The file name of the Modelo 100 CSV of `year`.
pub fn modelo100_file_name(year: i32) -> String {
    format!("modelo100_{year}.csv")
}

/// The file name of the annex CSV of `year`.
pub fn annex_file_name(year: i32) -> String {
    format!("annex_{year}.csv")
}

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

fn fiat(value: Option<Decimal>) -> String {
    value.map(num::fiat).unwrap_or_default()
}

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// Flags in canonical order joined by `;` (empty when none).
pub fn flags_cell(flags: FlagSet) -> String {
    flags
        .iter()
        .map(shared_types::QualityFlag::as_str)
        .collect::<Vec<_>>()
        .join(";")
}

/// `modelo100_<YEAR>.csv`: the rows of §8.1 then one `TOTAL` line.
pub fn render_modelo100_csv(modelo: &Modelo100) -> String {
    let mut out = String::new();
    line(&mut out, &MODELO100_COLUMNS.map(str::to_owned));
    for row in &modelo.rows {
        line(
            &mut out,
            &[
                row.base.as_str().to_owned(),
                row.asset.to_string(),
                row.clave.as_str().to_owned(),
                num::fiat(row.transmission_value),
                num::fiat(row.acquisition_value),
                fiat(row.loss),
                fiat(row.gain),
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
            num::fiat(t.total_transmission_value),
            num::fiat(t.total_acquisition_value),
            num::fiat(t.total_losses),
            num::fiat(t.total_gains),
            t.slice_count.to_string(),
            t.operation_count.to_string(),
        ],
    );
    out
}

/// `annex_<YEAR>.csv`: one line per annex line (`audit` is the report's audit trail).
pub fn render_annex_csv(audit: &[AuditRow], lines: &[AnnexLine]) -> String {
    let mut out = String::new();
    line(&mut out, &ANNEX_COLUMNS.map(str::to_owned));
    for s in lines
        .iter()
        .filter_map(|l| audit.get(l.audit_index as usize))
    {
        let swap = s.swap.as_ref();
        line(
            &mut out,
            &[
                AnnexLine::operation_id(s),
                s.slice_id(),
                s.asset.to_string(),
                opt(s.clave.map(Clave::as_str)),
                opt(s.base.map(Base::as_str)),
                s.included.to_string(),
                flags_cell(s.quality_flags),
                s.disposed_at.to_string(),
                s.disposed_on.to_string(),
                opt(s.acquired_on),
                opt(s.holding.map(Holding::as_str)),
                num::quantity(s.quantity),
                fiat(s.gross_transmission_value),
                fiat(s.fee_expense),
                fiat(s.transmission_value),
                fiat(s.acquisition_value),
                fiat(s.result),
                opt(s.transmission_provenance.map(Provenance::as_str)),
                opt(s.price.map(|p| num::format(p, OutputClass::UnitPrice))),
                opt(s.price_currency),
                opt(s.price_date),
                opt(s.fx_rate.map(|r| num::format(r, OutputClass::Rate))),
                opt(s.fx_rate_date),
                fiat(swap.and_then(|w| w.given_value)),
                fiat(swap.and_then(|w| w.received_value)),
                opt(swap.and_then(|w| w.winner).map(winner)),
                opt(s.acquisition_provenance.map(Provenance::as_str)),
                s.lot_id().unwrap_or_default(),
                opt(s.acquisition_row_key.as_ref()),
                s.disposal_account.to_string(),
                opt(s.lot_account.as_ref()),
            ],
        );
    }
    out
}

/// Wire spelling of a swap winner.
pub fn winner(w: crate::engine::SwapWinner) -> &'static str {
    match w {
        crate::engine::SwapWinner::Given => "GIVEN",
        crate::engine::SwapWinner::Received => "RECEIVED",
    }
}

/// Both CSV files of a year report as `(file name, contents)`.
pub fn render_csv_files(report: &IrpfYearReport) -> [(String, String); 2] {
    [
        (
            modelo100_file_name(report.year),
            render_modelo100_csv(&report.modelo100),
        ),
        (
            annex_file_name(report.year),
            render_annex_csv(&report.audit_trail, &report.annex),
        ),
    ]
}

#[cfg(test)]
mod tests;
