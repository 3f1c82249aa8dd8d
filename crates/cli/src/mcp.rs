//! `cartera mcp`: the MCP stdio server (`mcp.md` §2). Validates the flags, opens the ledger
//! read-only, builds one tool host and hands stdin, stdout and stderr to `mcp::serve`. Nothing
//! but protocol messages reaches stdout; the startup line and the diagnostics go to stderr.

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use ai_tools::{CacheConfig, CurrencyCode, Locale, Profile, ToolHost};
use anyhow::Result;
use clap::Args;

use crate::session::{CliClock, fail};
use crate::{Outcome, UsageError};

#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    /// The tool profile: `metered` (all 25 tools, hosted models) or `local` (the 14 core tools,
    /// budgets from --context-window).
    #[arg(long, value_name = "metered|local", default_value = "metered")]
    profile: String,
    /// The local model's context window in tokens (1000 to 10000000); required with `local`.
    #[arg(long, value_name = "N")]
    context_window: Option<String>,
    /// The answer language named in the instructions (es, en, es-ES, …).
    #[arg(long, value_name = "TAG", default_value = "es")]
    locale: String,
    /// EUR or USD (default: the ledger's display_currency setting, else EUR).
    #[arg(long, value_name = "CODE")]
    base_currency: Option<String>,
}

/// A clap usage error of `cartera mcp` as the one line `mcp.md` §2 asks for (the first line of
/// clap's message); `None` for other commands, and for help and version output.
pub(crate) fn one_line_usage_error(error: &clap::Error) -> Option<String> {
    if !error.use_stderr() || !invoked_as_mcp(std::env::args_os().skip(1)) {
        return None;
    }
    let text = error.render().to_string();
    text.lines().next().map(|first| format!("cartera: {first}"))
}

/// Whether the command line names the `mcp` subcommand (global options skipped).
fn invoked_as_mcp(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    let mut args = args;
    while let Some(arg) = args.next() {
        if arg == "--ledger" {
            args.next();
        } else if !arg.to_string_lossy().starts_with('-') {
            return arg == "mcp";
        }
    }
    false
}

fn usage<T>(reason: String) -> Result<T> {
    Err(UsageError {
        code: "usage",
        reason,
    }
    .into())
}

/// The profile the flags name (`mcp.md` §2).
fn profile(args: &McpArgs) -> Result<Profile> {
    match (args.profile.as_str(), args.context_window.as_deref()) {
        ("metered", None) => Ok(Profile::Metered),
        ("metered", Some(_)) => {
            usage("--context-window applies only to --profile local".to_owned())
        }
        ("local", None) => usage(
            "--profile local needs --context-window N, the model's context window in tokens \
             (1000 to 10000000)"
                .to_owned(),
        ),
        ("local", Some(text)) => {
            let parsed = text.parse::<u32>().ok().map(Profile::local);
            match parsed {
                Some(Ok(profile)) => Ok(profile),
                _ => usage(format!(
                    "--context-window {text:?} is not an integer from 1000 to 10000000"
                )),
            }
        }
        (other, _) => usage(format!(
            "--profile {other:?} is not a profile: use metered or local"
        )),
    }
}

pub(crate) fn run(explicit: Option<&Path>, args: &McpArgs) -> Result<Outcome> {
    // Flags first: a usage error never touches the ledger.
    let profile = profile(args)?;
    let Ok(locale) = Locale::parse(&args.locale) else {
        return usage(format!(
            "--locale {:?} is not a language tag such as es, en or es-ES",
            args.locale
        ));
    };
    let explicit_currency = match args.base_currency.as_deref() {
        None => None,
        Some(code) => match CurrencyCode::parse(code) {
            Ok(currency) => Some(currency),
            Err(_) => return usage(format!("--base-currency {code:?} is not EUR or USD")),
        },
    };
    let clock = CliClock::from_env()?;

    let ledger = crate::session::open_for_tools(explicit, clock)?;
    let base_currency = explicit_currency.unwrap_or(ledger.display_currency);
    let path = ledger.path;
    let host = ToolHost::new(
        ledger.queries,
        profile,
        CacheConfig::default(),
        Arc::new(clock),
    );
    let version = env!("CARGO_PKG_VERSION");
    let server = ::mcp::Server::new(
        host,
        ::mcp::ServerConfig {
            name: "cartera",
            version: version.to_owned(),
            tenant: ledger.tenant,
            locale,
            base_currency,
        },
    );
    let label = match profile {
        Profile::Local { context_window } => format!("local (context window {context_window})"),
        Profile::Mixed => "mixed".to_owned(),
        Profile::Metered => "metered".to_owned(),
    };
    let stderr = io::stderr();
    let mut log = stderr.lock();
    let _ = writeln!(
        log,
        "cartera mcp {version}: profile {label}, ledger {} (read-only); serving MCP on stdin and stdout",
        path.display()
    );
    let stdin = io::stdin();
    let stdout = io::stdout();
    match ::mcp::serve(&server, stdin.lock(), stdout.lock(), log) {
        Ok(()) => Ok(Outcome::Success),
        Err(::mcp::ServeError::Write(error)) => Err(crate::output::OutputError(error).into()),
        Err(error) => fail(error.to_string()),
    }
}
