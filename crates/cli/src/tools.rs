//! `cartera tools list` and `cartera tools call` (`cli.md`): the AI tool catalogue of a profile,
//! and one tool call through the same entry point the MCP server uses.

use crate::output::{out, outln};
use std::path::Path;
use std::sync::Arc;

use ai_tools::{CacheConfig, Locale, Profile, RequestContext, ToolHost};
use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use use_cases::ports::Clock;

use crate::session::CliClock;
use crate::table::{Align, Table};
use crate::{Outcome, UsageError};

/// `cartera tools …`.
#[derive(Debug, Subcommand)]
pub(crate) enum ToolsCommand {
    /// The tool catalogue of a profile: names, tiers and budgets (`--json`: the exact
    /// `tools/list` payload).
    #[command(after_help = "Example:\n  cartera tools list\n  \
                            cartera tools list --profile local --context-window 8192\n  \
                            cartera --json tools list")]
    List(ListArgs),
    /// Call one AI tool on the ledger and print its result JSON.
    #[command(after_help = "Example:\n  cartera tools call portfolio_summary\n  \
                            cartera tools call holding_detail '{\"symbol\":\"btc\"}'\n  \
                            cartera tools call explain_metric '{\"metric\":\"hhi\"}'")]
    Call(CallArgs),
}

/// The profiles selectable on the command line (`mixed` is a library profile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProfileArg {
    /// Paid, hosted model: all 25 tools.
    Metered,
    /// Local model with a known context window: the 14 core tools.
    Local,
}

/// `cartera tools list` options.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Execution profile.
    #[arg(long, value_enum, default_value = "metered")]
    profile: ProfileArg,
    /// Context window of the local model in tokens (required with `--profile local`).
    #[arg(long, value_name = "N")]
    context_window: Option<u32>,
}

/// `cartera tools call` arguments.
#[derive(Debug, Args)]
pub(crate) struct CallArgs {
    /// Tool name, e.g. `portfolio_summary`.
    name: String,
    /// Arguments as one JSON object (default `{}`).
    args_json: Option<String>,
}

/// The profile the flags name; a wrong combination is a usage error (exit 2).
fn profile(profile: ProfileArg, context_window: Option<u32>) -> Result<Profile> {
    let usage = |reason: String| -> anyhow::Error {
        UsageError {
            code: "bad-profile",
            reason,
        }
        .into()
    };
    match (profile, context_window) {
        (ProfileArg::Metered, None) => Ok(Profile::Metered),
        (ProfileArg::Metered, Some(_)) => Err(usage(
            "--context-window applies to --profile local only".to_owned(),
        )),
        (ProfileArg::Local, None) => Err(usage(
            "--profile local needs --context-window N (tokens, 1000 to 10000000)".to_owned(),
        )),
        (ProfileArg::Local, Some(window)) => {
            Profile::local(window).map_err(|error| usage(error.to_string()))
        }
    }
}

pub(crate) fn run(ledger: Option<&Path>, json: bool, command: &ToolsCommand) -> Result<Outcome> {
    match command {
        ToolsCommand::List(args) => run_list(json, args),
        ToolsCommand::Call(args) => run_call(ledger, args),
    }
}

fn run_list(json: bool, args: &ListArgs) -> Result<Outcome> {
    let profile = profile(args.profile, args.context_window)?;
    if json {
        outln!("{}", ai_tools::schemas::tools_list_json(profile));
        return Ok(Outcome::Success);
    }
    let run_budget = profile.new_run_budget().limit().map_or_else(
        || "unbounded".to_owned(),
        |limit| format!("{limit} characters"),
    );
    let settings = profile.settings();
    outln!(
        "profile {}: {} tools; run budget {run_budget}; top holdings {}, lots page {}, rows page {}",
        profile.label(),
        profile.exposed().len(),
        settings.top_n_holdings,
        settings.lots_page_size,
        settings.rows_page_size
    );
    outln!();
    let mut table = Table::new(&[
        ("tool", Align::Left),
        ("tier", Align::Left),
        ("budget (chars)", Align::Right),
        ("title", Align::Left),
    ]);
    for tool in profile.exposed() {
        table.row([
            tool.as_str().to_owned(),
            tool.tier().as_str().to_owned(),
            profile.tool_budget(*tool).to_string(),
            ai_tools::schemas::title(*tool).to_owned(),
        ]);
    }
    out!("{}", table.render());
    Ok(Outcome::Success)
}

fn run_call(ledger: Option<&Path>, args: &CallArgs) -> Result<Outcome> {
    let arguments: serde_json::Value = match &args.args_json {
        None => serde_json::Value::Object(serde_json::Map::new()),
        Some(text) => serde_json::from_str(text).map_err(|error| UsageError {
            code: "bad-arguments",
            reason: format!(
                "ARGS_JSON is not JSON ({error}): write it as '{{\"symbol\":\"BTC\"}}'"
            ),
        })?,
    };
    let clock = CliClock::from_env()?;
    let ledger = crate::session::open_for_tools(ledger, clock)?;
    let context = RequestContext {
        tenant: ledger.tenant,
        locale: Locale::parse("es")?,
        base_currency: ledger.display_currency,
    };
    let host = ToolHost::new(
        ledger.queries,
        Profile::Metered,
        CacheConfig::default(),
        Arc::new(clock) as Arc<dyn Clock>,
    );
    let result = host.call(&context, None, &args.name, &arguments);
    outln!("{result}");
    if result["kind"] == "error" {
        return Ok(Outcome::Failure);
    }
    Ok(Outcome::Success)
}
