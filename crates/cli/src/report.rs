//! The per-file import report (`imports.md` §1.15, §4.1): findings on stderr, the summary block
//! on stdout, or one JSON document with `--json`.

use crate::Outcome;
use crate::output::{OutputError, diag, outln};
use serde::Serialize;

/// One finding, positioned on a line and cell of the source file.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FindingOut {
    pub(crate) level: &'static str,
    pub(crate) code: &'static str,
    pub(crate) line: u64,
    pub(crate) column: usize,
    pub(crate) header: String,
    pub(crate) message: String,
}

impl FindingOut {
    pub(crate) fn from_importer(finding: &importers::Finding) -> Self {
        Self {
            level: finding.level.as_str(),
            code: finding.code,
            line: finding.line,
            column: finding.column,
            header: finding.header.clone(),
            message: finding.message.clone(),
        }
    }

    fn render(&self, file: &str) -> String {
        format!(
            "{file}:{}:{}: {}[{}] column \"{}\": {}",
            self.line, self.column, self.level, self.code, self.header, self.message
        )
    }
}

/// How a file ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileResult {
    Imported,
    ImportedWithInvalidRows,
    Rejected,
    DryRun,
}

impl FileResult {
    fn summary(self) -> &'static str {
        match self {
            Self::Imported => "imported",
            Self::ImportedWithInvalidRows => "imported with invalid rows",
            Self::Rejected => "rejected",
            Self::DryRun => "dry run: nothing written",
        }
    }

    /// Whether the file makes the command exit 1.
    pub(crate) fn is_failure(self, invalid_rows: u64) -> bool {
        matches!(self, Self::Rejected | Self::ImportedWithInvalidRows) || invalid_rows > 0
    }
}

/// The four row counts of `imports.md` §1.16; they add up to the rows read.
#[derive(Clone, Copy, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RowCounts {
    pub(crate) added: u64,
    pub(crate) duplicate: u64,
    pub(crate) skipped: u64,
    pub(crate) invalid: u64,
}

/// Everything reported for one file.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FileReport {
    pub(crate) file: String,
    pub(crate) format: Option<String>,
    pub(crate) layout: Option<String>,
    pub(crate) detected: Option<bool>,
    pub(crate) rows_read: u64,
    pub(crate) added: u64,
    #[serde(skip)]
    pub(crate) added_unit: &'static str,
    pub(crate) duplicates: u64,
    pub(crate) replaced: Option<u64>,
    pub(crate) skipped: Vec<SkipCount>,
    pub(crate) warnings: u64,
    pub(crate) invalid_rows: u64,
    pub(crate) rows: Option<RowCounts>,
    pub(crate) result: &'static str,
    #[serde(skip)]
    pub(crate) outcome: Option<FileResult>,
    pub(crate) findings: Vec<FindingOut>,
}

/// Skipped rows of one reason.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SkipCount {
    pub(crate) reason: String,
    pub(crate) count: u64,
}

impl FileReport {
    pub(crate) fn new(file: &str, added_unit: &'static str) -> Self {
        Self {
            file: file.to_owned(),
            format: None,
            layout: None,
            detected: None,
            rows_read: 0,
            added: 0,
            added_unit,
            duplicates: 0,
            replaced: None,
            skipped: Vec::new(),
            warnings: 0,
            invalid_rows: 0,
            rows: None,
            result: "",
            outcome: None,
            findings: Vec::new(),
        }
    }

    /// The file could not be read: one finding, and nothing of it is written.
    pub(crate) fn reject_unreadable(&mut self, error: &std::io::Error) {
        self.findings.push(FindingOut {
            level: "error",
            code: "file-unreadable",
            line: 1,
            column: 1,
            header: "-".to_owned(),
            message: format!("cannot read the file: {error}"),
        });
        self.finish(FileResult::Rejected);
    }

    /// The ledger refused the write: one finding at `line`, and nothing of the file is written.
    pub(crate) fn reject_store_error(&mut self, line: u64, error: &dyn std::fmt::Display) {
        self.findings.push(FindingOut {
            level: "error",
            code: "store-error",
            line,
            column: 1,
            header: "-".to_owned(),
            message: format!("the ledger could not be written ({error}); nothing was imported"),
        });
        self.finish(FileResult::Rejected);
    }

    pub(crate) fn finish(&mut self, outcome: FileResult) {
        self.findings.sort_by_key(|f| (f.line, f.column));
        self.warnings = self
            .findings
            .iter()
            .filter(|f| f.level == "warning")
            .count() as u64;
        self.outcome = Some(outcome);
        self.result = outcome.summary();
    }

    /// Whether this file makes the command fail.
    pub(crate) fn failed(&self) -> bool {
        self.outcome.is_none_or(|o| o.is_failure(self.invalid_rows))
    }

    /// Findings and the outcome line on stderr (`imports.md` §4.1).
    pub(crate) fn print_diagnostics(&self) {
        for finding in &self.findings {
            diag!("{}", finding.render(&self.file));
        }
        let line = match self.outcome {
            // Row errors only: --skip-invalid would write the rest (imports.md §1.15).
            Some(FileResult::Rejected) if self.invalid_rows > 0 => format!(
                "rejected: nothing was written; --skip-invalid imports the valid rows and reports the invalid ones ({})",
                self.invalid_rows
            ),
            Some(FileResult::Rejected) => "rejected: nothing was written".to_owned(),
            Some(FileResult::ImportedWithInvalidRows) => {
                format!(
                    "imported with invalid rows: {} not imported",
                    self.invalid_rows
                )
            }
            Some(FileResult::DryRun) => "dry run: nothing written".to_owned(),
            Some(FileResult::Imported) | None => "imported".to_owned(),
        };
        if !self.findings.is_empty() {
            diag!("{}: {line}", self.file);
        }
    }

    /// The summary block on stdout.
    pub(crate) fn print_summary(&self) -> Result<(), OutputError> {
        let format = match (&self.format, &self.layout, self.detected) {
            (Some(format), layout, detected) => {
                let mut text = format.clone();
                if let Some(layout) = layout.as_deref().filter(|l| !l.is_empty()) {
                    text.push_str(", layout ");
                    text.push_str(layout);
                }
                match detected {
                    Some(true) => text.push_str(" (detected)"),
                    Some(false) => text.push_str(" (forced)"),
                    None => {}
                }
                text
            }
            (None, _, _) => "-".to_owned(),
        };
        let skipped_total: u64 = self.skipped.iter().map(|s| s.count).sum();
        let skipped = if skipped_total == 0 {
            "0".to_owned()
        } else {
            let parts: Vec<String> = self
                .skipped
                .iter()
                .map(|s| format!("{} {}", s.reason, s.count))
                .collect();
            format!("{skipped_total} ({})", parts.join(", "))
        };
        outln!("{}", self.file);
        outln!("  {:<13} {format}", "format");
        outln!("  {:<13} {}", "rows read", self.rows_read);
        outln!("  {:<13} {} {}", "added", self.added, self.added_unit);
        outln!("  {:<13} {}", "duplicates", self.duplicates);
        if let Some(replaced) = self.replaced {
            outln!("  {:<13} {replaced}", "replaced");
        }
        outln!("  {:<13} {skipped}", "skipped");
        outln!("  {:<13} {}", "warnings", self.warnings);
        outln!("  {:<13} {}", "invalid rows", self.invalid_rows);
        outln!("  {:<13} {}", "result", self.result);
        Ok(())
    }

    /// Whether this file's rows were committed to the ledger.
    fn committed(&self) -> bool {
        matches!(
            self.outcome,
            Some(FileResult::Imported | FileResult::ImportedWithInvalidRows)
        )
    }
}

/// Prints every file's report; the outcome is a failure when any file failed.
///
/// When the summary cannot be printed, each file that was committed says so on stderr, so the
/// user knows the ledger changed: a closed stdout ends the command with the import's own exit
/// status, any other write error is the command's error (exit 1).
pub(crate) fn print_all(reports: &[FileReport], json: bool) -> anyhow::Result<Outcome> {
    for report in reports {
        report.print_diagnostics();
    }
    let outcome = if reports.iter().any(FileReport::failed) {
        Outcome::Failure
    } else {
        Outcome::Success
    };
    let Err(error) = print_summaries(reports, json) else {
        return Ok(outcome);
    };
    for report in reports.iter().filter(|r| r.committed()) {
        diag!(
            "cartera: {}: committed to the ledger ({} {} added, {} duplicates); its report \
             could not be printed",
            report.file,
            report.added,
            report.added_unit,
            report.duplicates
        );
    }
    if error.is_closed_pipe() {
        return Ok(outcome);
    }
    Err(error.into())
}

fn print_summaries(reports: &[FileReport], json: bool) -> Result<(), OutputError> {
    if json {
        let document = serde_json::json!({ "files": reports });
        outln!(
            "{}",
            serde_json::to_string_pretty(&document).unwrap_or_default()
        );
    } else {
        for (index, report) in reports.iter().enumerate() {
            if index > 0 {
                outln!();
            }
            report.print_summary()?;
        }
    }
    crate::output::flush()
}
