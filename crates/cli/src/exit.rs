//! How a command's result becomes the process exit: the error line on stderr, with `--json`
//! also one JSON error document on stdout, and the exit status (0 success, 1 failure of the
//! operation, 2 usage). A closed stdout ends the process quietly with status 0.

use std::process::ExitCode;

use crate::output::{OutputError, diag, output_error};
use crate::session::Failure;
use crate::{Outcome, UsageError};

/// The exit status of a usage error.
const USAGE: u8 = 2;
/// The exit status of a failed operation.
const FAILURE: u8 = 1;

/// The exit of a command that ran (or failed before it could run).
pub(crate) fn finish(result: anyhow::Result<Outcome>, json: bool) -> ExitCode {
    let result = result.and_then(|outcome| {
        // The last partial line fails here rather than silently at exit.
        crate::output::flush()?;
        Ok(outcome)
    });
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::from(FAILURE),
        // Ctrl-C: not an error, and nothing was left half done.
        Ok(Outcome::Cancelled) => ExitCode::from(130),
        Err(error) => {
            if let Some(output) = output_error(&error) {
                return output_failure(output);
            }
            if let Some(usage) = error.downcast_ref::<UsageError>() {
                return fail(json, USAGE, usage.code, &usage.reason, "error[{code}]");
            }
            if let Some(failure) = error.downcast_ref::<Failure>() {
                return fail(json, FAILURE, failure.code, &failure.message, "error");
            }
            fail(json, FAILURE, "failed", &format!("{error:#}"), "error")
        }
    }
}

/// stdout could not be written: quiet for a closed pipe, else one line and exit 1.
pub(crate) fn output_failure(error: &OutputError) -> ExitCode {
    if error.is_closed_pipe() {
        return ExitCode::SUCCESS;
    }
    diag!("cartera: error: {error}");
    ExitCode::from(FAILURE)
}

/// A usage error clap found (bad flag, missing argument): its text on stderr, and with
/// `--json` the error document on stdout. Help and version text go to stdout, exit 0.
pub(crate) fn clap_error(error: &clap::Error, json: bool) -> ExitCode {
    if !error.use_stderr() {
        // `--help` and `--version` of a subcommand: text on stdout.
        let text = error.render().to_string();
        if let Err(failure) = crate::output::write_str(&text).and_then(|()| crate::output::flush())
        {
            return output_failure(&failure);
        }
        return ExitCode::SUCCESS;
    }
    if let Some(line) = crate::mcp::one_line_usage_error(error) {
        diag!("{line}");
        if json {
            json_document("usage", line.trim_start_matches("cartera: "), USAGE);
        }
        return ExitCode::from(USAGE);
    }
    let status = u8::try_from(error.exit_code()).unwrap_or(USAGE);
    let text = error.render().to_string();
    diag!("{}", text.trim_end());
    if json {
        let first = text.lines().next().unwrap_or("usage error");
        json_document("usage", first.trim_start_matches("error: "), status);
    }
    ExitCode::from(status)
}

/// Whether the raw command line asks for `--json` (before clap has parsed it).
pub(crate) fn wants_json(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    args.skip(1)
        .take_while(|arg| arg != "--")
        .any(|arg| arg == "--json")
}

fn fail(json: bool, status: u8, code: &str, message: &str, label: &str) -> ExitCode {
    diag!("cartera: {}: {message}", label.replace("{code}", code));
    if json {
        json_document(code, message, status);
    }
    ExitCode::from(status)
}

/// `{"error": {"code", "message", "exitStatus"}}` on stdout; a stdout that fails is ignored
/// (the human line is already on stderr).
fn json_document(code: &str, message: &str, status: u8) {
    let document = serde_json::json!({
        "error": { "code": code, "message": message, "exitStatus": status }
    });
    let _ = crate::output::write_fmt(format_args!("{document}\n"));
    let _ = crate::output::flush();
}
