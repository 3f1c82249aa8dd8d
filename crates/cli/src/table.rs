//! Aligned human tables (`cli.md`): numbers right-aligned, every money column named with its
//! currency, no trailing spaces, no terminal-width dependence (the same ledger prints the same
//! bytes whatever the terminal). A table wider than [`WIDTH`] columns prints each row as a
//! stacked block of `label: value` lines instead, so that it fits a 100-column terminal and no
//! figure is ever split.

use comfy_table::{CellAlignment, Table as Inner};

/// No borders; a dashed line under the header; columns separated by spaces.
const PRESET: &str = "     --            ";

/// The widest a rendered table line may be; wider tables are stacked.
pub(crate) const WIDTH: usize = 100;

/// How a column is aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Align {
    /// Text: left.
    Left,
    /// Numbers: right.
    Right,
}

/// A table under construction.
pub(crate) struct Table {
    inner: Inner,
    aligns: Vec<Align>,
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these `(header, alignment)` columns.
    pub(crate) fn new(columns: &[(&str, Align)]) -> Self {
        let mut inner = Inner::new();
        inner.load_preset(PRESET);
        inner.set_header(columns.iter().map(|(name, _)| *name).collect::<Vec<_>>());
        for (index, (_, align)) in columns.iter().enumerate() {
            if let Some(column) = inner.column_mut(index) {
                column.set_cell_alignment(match align {
                    Align::Left => CellAlignment::Left,
                    Align::Right => CellAlignment::Right,
                });
            }
        }
        Self {
            inner,
            aligns: columns.iter().map(|(_, align)| *align).collect(),
            headers: columns.iter().map(|(name, _)| (*name).to_owned()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds one row (cells in column order).
    pub(crate) fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        // Figures (right-aligned decimals) in the output's number format.
        let cells: Vec<String> = cells
            .into_iter()
            .map(Into::into)
            .enumerate()
            .map(|(i, cell)| match self.aligns.get(i) {
                Some(Align::Right) if cell.contains('.') => crate::i18n::num(&cell),
                _ => cell,
            })
            .collect();
        self.inner.add_row(cells.clone());
        self.rows.push(cells);
    }

    /// Whether no row was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.inner.row_count() == 0
    }

    /// The rendered table, one `\n` after each line, no trailing spaces; stacked when wider
    /// than [`WIDTH`].
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        for line in self.inner.to_string().lines() {
            let line = line.trim_end();
            if line.chars().count() > WIDTH {
                return self.stacked();
            }
            out.push_str(line);
            out.push('\n');
        }
        out
    }

    /// One block per row: ` label: value` lines, labels padded to one width, empty cells left
    /// out, a blank line between blocks.
    fn stacked(&self) -> String {
        let width = self
            .headers
            .iter()
            .map(|h| h.chars().count() + 1)
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        for (index, row) in self.rows.iter().enumerate() {
            if index > 0 {
                out.push('\n');
            }
            for (header, cell) in self.headers.iter().zip(row) {
                if cell.is_empty() {
                    continue;
                }
                let label = format!("{header}:");
                out.push_str(format!(" {label:<width$} {cell}").trim_end());
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;

/// `key  value` lines with the keys padded to one width (summaries).
pub(crate) fn pairs(rows: &[(&str, String)]) -> String {
    // Figures in the output's number format.
    let rows: Vec<(&str, String)> = rows
        .iter()
        .map(|(k, v)| {
            let v = if v.contains('.') {
                crate::i18n::num(v)
            } else {
                v.clone()
            };
            (*k, v)
        })
        .collect();
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let value_width = rows
        .iter()
        .map(|(_, v)| v.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (key, value) in &rows {
        let line = format!(" {key:<width$}  {value:>value_width$}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// An optional figure: `-` when absent (unknown is never shown as zero).
pub(crate) fn opt(value: Option<&String>) -> String {
    value.cloned().unwrap_or_else(|| "-".to_owned())
}

/// A unit price for a table: two decimals (half-up) from 1 up, as fiat is shown; below 1 the
/// figure as computed, so that the price of a cheap token does not read as 0.00. `--json`
/// keeps every digit.
pub(crate) fn unit_price(text: &str) -> String {
    match text.parse::<rust_decimal::Decimal>() {
        Ok(value) if value.abs() >= rust_decimal::Decimal::ONE => {
            core_domain::num::fiat(core_domain::num::round_half_up(value, 2))
        }
        _ => text.to_owned(),
    }
}
