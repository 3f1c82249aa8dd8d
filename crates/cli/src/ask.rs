//! `cartera ask` and `cartera chat`: a language model answers questions about the ledger
//! through the read-only AI tools (the `advisor` crate runs the loop). This module resolves the
//! model endpoint, the profile and the key, opens the ledger read-only, prints the answer as
//! it streams with a status line on stderr, keeps the conversations in their own file beside
//! the ledger, and turns Ctrl-C into a cancelled request (exit 130).

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use advisor::{AdvisorError, Agent, AgentConfig, Api, HostTools, Observer, Turn};
use ai_tools::{CacheConfig, Locale, Profile, RequestContext, ToolHost};
use anyhow::Result;
use clap::{Args, ValueEnum};
use serde_json::{Value, json};
use shared_types::ToolName;
use use_cases::ports::{Clock, fiscal_year_of};
use use_cases::queries::ReadUseCases;

use crate::conversations::{Conversation, Store, title_of};
use crate::output::{diag, out, outln};
use crate::session::{CliClock, fail};
use crate::{Outcome, UsageError};

/// The context window assumed for `--profile local` without `--context-window` (tokens).
const DEFAULT_CONTEXT_WINDOW: u32 = 8192;

/// The wire protocol flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ApiArg {
    /// OpenAI-compatible chat completions (Ollama, llama.cpp, vLLM, LM Studio, OpenAI).
    Openai,
    /// The Anthropic Messages API.
    Anthropic,
}

/// The profile flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum AskProfile {
    /// The 14 core tools, results sized to the model's context window.
    Local,
    /// All 25 tools, hosted-model budgets.
    Metered,
    /// All 25 tools, for a chain of local and hosted models.
    Mixed,
}

/// How to reach the model (shared by `ask` and `chat`).
#[derive(Debug, Args)]
pub(crate) struct ModelArgs {
    /// Base URL of the model server: OpenAI-style (`http://localhost:11434/v1` for Ollama;
    /// `/chat/completions` is added) or Anthropic (`https://api.anthropic.com`; `/v1/messages`
    /// is added). Default: $CARTERA_LLM_URL, else the `llm.endpoint` setting.
    #[arg(long, value_name = "URL")]
    endpoint: Option<String>,
    /// Model name. Default: $CARTERA_LLM_MODEL, else the `llm.model` setting.
    #[arg(long, value_name = "NAME")]
    model: Option<String>,
    /// Wire protocol (default: anthropic for anthropic.com, else openai).
    #[arg(long, value_enum)]
    api: Option<ApiArg>,
    /// Tool profile (default: local for a loopback or private-network endpoint, else metered).
    #[arg(long, value_enum)]
    profile: Option<AskProfile>,
    /// The local model's context window in tokens, for --profile local (default 8192).
    #[arg(long, value_name = "N")]
    context_window: Option<u32>,
    /// The language the model is asked to answer in (es, en, es-ES, …).
    #[arg(long, value_name = "TAG", default_value = "es")]
    locale: String,
}

/// `cartera ask` arguments.
#[derive(Debug, Args)]
pub(crate) struct AskArgs {
    /// The question, in quotes.
    question: String,
    #[command(flatten)]
    model: ModelArgs,
    /// Continue the last conversation (its earlier turns are sent with the question).
    #[arg(long = "continue")]
    resume_last: bool,
}

/// `cartera chat` arguments.
#[derive(Debug, Args)]
pub(crate) struct ChatArgs {
    #[command(flatten)]
    model: ModelArgs,
    /// Resume the conversation with this id (see /list).
    #[arg(long, value_name = "ID")]
    resume: Option<String>,
}

fn usage<T>(reason: String) -> Result<T> {
    Err(UsageError {
        code: "usage",
        reason,
    }
    .into())
}

/// An environment variable, empty read as unset.
#[allow(
    clippy::disallowed_methods,
    reason = "the binary reads its configuration from the environment"
)]
fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .filter(|value| !value.trim().is_empty())
}

/// Milliseconds from a test-only variable (`CARTERA_LLM_READ_TIMEOUT_MS`, …).
fn env_millis(name: &str) -> Option<Vec<Duration>> {
    env(name).map(|text| {
        text.split(',')
            .filter_map(|part| part.trim().parse::<u64>().ok())
            .map(Duration::from_millis)
            .collect()
    })
}

/// An open session: the agent over a read-only ledger.
struct Session {
    agent: Agent,
    ledger: PathBuf,
    description: String,
    year: i32,
}

/// A setting's stored text decoded as a JSON string.
fn string_setting(queries: &dyn ReadUseCases, key: &str) -> Option<String> {
    queries
        .list_settings()
        .ok()?
        .settings
        .into_iter()
        .find(|entry| entry.key == key)?
        .value
        .and_then(|text| serde_json::from_str::<String>(&text).ok())
        .filter(|text| !text.trim().is_empty())
}

fn open_session(ledger: Option<&Path>, args: &ModelArgs) -> Result<Session> {
    // Flags first: a usage error never touches the ledger.
    let Ok(locale) = Locale::parse(&args.locale) else {
        return usage(format!(
            "--locale {:?} is not a language tag such as es, en or es-ES",
            args.locale
        ));
    };
    if args.context_window.is_some()
        && matches!(args.profile, Some(AskProfile::Metered | AskProfile::Mixed))
    {
        return usage("--context-window applies only to --profile local".to_owned());
    }
    let clock = CliClock::from_env()?;
    let ledger = crate::session::open_for_tools(ledger, clock)?;
    let path = ledger.path;
    let queries: Arc<dyn ReadUseCases> = ledger.queries;
    let endpoint = args
        .endpoint
        .clone()
        .or_else(|| env("CARTERA_LLM_URL"))
        .or_else(|| string_setting(queries.as_ref(), "llm.endpoint"));
    let Some(endpoint) = endpoint else {
        return usage(
            "no model endpoint: pass --endpoint URL (http://localhost:11434/v1 for Ollama), set \
             CARTERA_LLM_URL, or `cartera settings set llm.endpoint '\"URL\"'`"
                .to_owned(),
        );
    };
    if !(endpoint.starts_with("http://") || endpoint.starts_with("https://")) {
        return usage(format!(
            "the endpoint {endpoint:?} is not an http:// or https:// URL"
        ));
    }
    let model = args
        .model
        .clone()
        .or_else(|| env("CARTERA_LLM_MODEL"))
        .or_else(|| string_setting(queries.as_ref(), "llm.model"));
    let Some(model) = model else {
        return usage(
            "no model name: pass --model NAME, set CARTERA_LLM_MODEL, or `cartera settings set \
             llm.model '\"NAME\"'`"
                .to_owned(),
        );
    };
    let api = match args.api {
        Some(ApiArg::Openai) => Api::OpenAi,
        Some(ApiArg::Anthropic) => Api::Anthropic,
        None => Api::from_url(&endpoint),
    };
    let profile = choose_profile(args, advisor::is_private_endpoint(&endpoint))?;
    let ctx = RequestContext {
        tenant: ledger.tenant,
        locale,
        base_currency: ledger.display_currency,
    };
    let year = fiscal_year_of(clock.now());
    let host = ToolHost::new(
        queries,
        profile,
        CacheConfig::default(),
        Arc::new(clock) as Arc<dyn Clock>,
    );
    let config = agent_config(api, &endpoint, model);
    let description = format!(
        "{} via {} ({}), profile {} with {} tools",
        config.model,
        api.request_url(&config.endpoint),
        api.label(),
        profile.label(),
        profile.exposed().len()
    );
    let agent = Agent::new(config, Arc::new(HostTools::new(host, ctx)));
    Ok(Session {
        agent,
        ledger: path,
        description,
        year,
    })
}

/// The profile the flags name, else `local` for a private endpoint and `metered` otherwise.
fn choose_profile(args: &ModelArgs, private: bool) -> Result<Profile> {
    match args.profile {
        Some(AskProfile::Mixed) => Ok(Profile::Mixed),
        Some(AskProfile::Local) => local_profile(args.context_window),
        None if private => local_profile(args.context_window),
        None if args.context_window.is_some() => usage(
            "--context-window applies only to the local profile; this endpoint gets metered by \
             default (pass --profile local to change that)"
                .to_owned(),
        ),
        Some(AskProfile::Metered) | None => Ok(Profile::Metered),
    }
}

/// The agent's settings: the key from the environment (never a flag), and the test hooks.
fn agent_config(api: Api, endpoint: &str, model: String) -> AgentConfig {
    let mut config = AgentConfig::new(api, endpoint.trim_end_matches('/'), model);
    config.api_key = env("CARTERA_LLM_API_KEY").or_else(|| match api {
        Api::OpenAi => env("OPENAI_API_KEY"),
        Api::Anthropic => env("ANTHROPIC_API_KEY"),
    });
    // Test hooks: a short read timeout and short retry delays.
    if let Some(timeout) =
        env_millis("CARTERA_LLM_READ_TIMEOUT_MS").and_then(|v| v.first().copied())
    {
        config.read_timeout = timeout;
    }
    if let Some(delays) = env_millis("CARTERA_LLM_RETRY_DELAYS_MS") {
        config.retry_delays = delays;
    }
    config
}

fn local_profile(context_window: Option<u32>) -> Result<Profile> {
    let window = context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW);
    match Profile::local(window) {
        Ok(profile) => Ok(profile),
        Err(error) => usage(format!("--context-window: {error}")),
    }
}

/// The phrase of the status line while a tool runs.
fn phrase(tool: &str) -> &'static str {
    let Some(tool) = ToolName::parse(tool) else {
        return "Working…";
    };
    match tool {
        ToolName::PortfolioSummary => "Reading your portfolio…",
        ToolName::FiscalIntegrity => "Checking the data quality…",
        ToolName::FiscalIntegrityRows => "Reading the flagged transactions…",
        ToolName::TokenHistory => "Reading the asset's history…",
        ToolName::TokenLots => "Reading the asset's lots…",
        ToolName::AssetAllocation => "Reading the allocation…",
        ToolName::RiskMetrics => "Reading the risk metrics…",
        ToolName::Kpis => "Reading the key indicators…",
        ToolName::DrawdownCurve => "Reading the drawdowns…",
        ToolName::PerformanceHistory => "Reading the performance history…",
        ToolName::VolatilityHeatmap => "Reading the volatility…",
        ToolName::SpanishTaxReport => "Reading the tax year…",
        ToolName::LivePrices => "Reading the latest prices…",
        ToolName::HoldingDetail => "Reading one holding…",
        ToolName::AccountHoldings => "Reading one account…",
        ToolName::TaxYearComparison => "Comparing two tax years…",
        ToolName::DataGaps => "Looking for data gaps…",
        ToolName::ExplainMetric => "Looking up a definition…",
        ToolName::ScenarioPositionValue => "Valuing a price scenario…",
        ToolName::BreakevenPrice => "Reading the breakeven price…",
        ToolName::DerivativesPnl => "Reading the derivatives results…",
        ToolName::CustodyLocations => "Reading where assets are held…",
        ToolName::ScenarioPortfolioShock => "Applying a price shock…",
        ToolName::ConcentrationRisk => "Reading the concentration…",
        ToolName::TxSearch => "Searching the transactions…",
    }
}

/// The terminal side of a turn: the answer on stdout as it arrives, the status line and the
/// warnings on stderr. The status line is drawn only when stderr is a terminal and is cleared
/// before any other output and when the observer is dropped, on every exit path.
#[allow(
    clippy::struct_excessive_bools,
    reason = "four independent facts about one terminal"
)]
struct Terminal {
    stream_text: bool,
    status_enabled: bool,
    status_shown: bool,
    /// Whether stdout's last character was not a newline.
    mid_line: bool,
}

impl Terminal {
    fn new(stream_text: bool) -> Terminal {
        Terminal {
            stream_text,
            status_enabled: io::stderr().is_terminal(),
            status_shown: false,
            mid_line: false,
        }
    }

    fn status(&mut self, text: &str) {
        if !self.status_enabled {
            return;
        }
        if self.mid_line {
            // A stdout that went away is reported by the next result write, not here.
            let _ = crate::output::write_str("\n");
            self.mid_line = false;
        }
        let mut stderr = io::stderr().lock();
        let _ = write!(stderr, "\r\x1b[2K{text}");
        let _ = stderr.flush();
        self.status_shown = true;
    }

    fn clear(&mut self) {
        if self.status_shown {
            let mut stderr = io::stderr().lock();
            let _ = write!(stderr, "\r\x1b[2K");
            let _ = stderr.flush();
            self.status_shown = false;
        }
    }

    /// Ends the answer's line.
    fn end_line(&mut self) {
        self.clear();
        if self.mid_line {
            // A stdout that went away is reported by the next result write, not here.
            let _ = crate::output::write_str("\n");
            self.mid_line = false;
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.clear();
    }
}

impl Observer for Terminal {
    fn text(&mut self, delta: &str) {
        if !self.stream_text {
            return;
        }
        self.clear();
        let mut stdout = io::stdout().lock();
        let _ = stdout.write_all(delta.as_bytes());
        let _ = stdout.flush();
        self.mid_line = !delta.ends_with('\n');
    }

    fn waiting(&mut self) {
        self.status("Working…");
    }

    fn tool_started(&mut self, name: &str) {
        self.status(phrase(name));
    }

    fn warning(&mut self, message: &str) {
        self.clear();
        diag!("cartera: warning: {message}");
    }

    fn retrying(&mut self, reason: &str, delay: Duration) {
        self.clear();
        diag!(
            "cartera: warning: {reason}; retrying in {} ms",
            delay.as_millis()
        );
    }
}

/// Ctrl-C sets `flag` instead of killing the process.
fn on_interrupt(flag: &Arc<AtomicBool>) -> Result<()> {
    signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(flag))?;
    Ok(())
}

/// A second Ctrl-C, once `flag` is set, ends the process at once with 130 (a tool call or a
/// save that does not return). Registered before [`on_interrupt`], so the first press only
/// sets the flag.
fn on_second_interrupt(flag: &Arc<AtomicBool>) -> Result<()> {
    signal_hook::flag::register_conditional_shutdown(
        signal_hook::consts::SIGINT,
        130,
        Arc::clone(flag),
    )?;
    Ok(())
}

/// The unverified figures line, or nothing.
fn unverified_line(turn: &Turn) -> Option<String> {
    if turn.unverified_figures.is_empty() {
        return None;
    }
    let list = turn
        .unverified_figures
        .iter()
        .map(|figure| format!("`{figure}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(format!(
        "Unverified figures (found in no tool result of this answer): {list}"
    ))
}

fn turn_json(turn: &Turn, conversation_id: &str) -> Value {
    let calls: Vec<Value> = turn
        .tool_calls
        .iter()
        .map(|call| {
            let mut object =
                json!({"name": call.name, "arguments": call.arguments, "outcome": call.outcome});
            if let (Some(code), Value::Object(map)) = (call.error_code, &mut object) {
                map.insert("code".to_owned(), Value::from(code));
            }
            object
        })
        .collect();
    json!({
        "answer": turn.answer,
        "toolCalls": calls,
        "unverifiedFigures": turn.unverified_figures,
        "conversationId": conversation_id,
    })
}

/// `cartera ask QUESTION`.
pub(crate) fn run_ask(ledger: Option<&Path>, json: bool, args: &AskArgs) -> Result<Outcome> {
    if args.question.trim().is_empty() {
        return usage("the question is empty: write it in quotes after `ask`".to_owned());
    }
    let session = open_session(ledger, &args.model)?;
    let mut store = Store::load(&session.ledger)?;
    let mut conversation = if args.resume_last {
        match store.last() {
            Some(last) => last.clone(),
            None => {
                return fail(
                    "there is no earlier conversation to continue; ask without --continue",
                );
            }
        }
    } else {
        Conversation {
            id: store.new_id(),
            title: title_of(&args.question),
            messages: Vec::new(),
        }
    };
    let cancel = Arc::new(AtomicBool::new(false));
    on_second_interrupt(&cancel)?;
    on_interrupt(&cancel)?;
    let mut terminal = Terminal::new(!json);
    let result = session.agent.ask(
        &conversation.messages,
        &args.question,
        &mut terminal,
        &cancel,
    );
    terminal.end_line();
    drop(terminal);
    match result {
        Ok(turn) => {
            conversation.messages.extend(turn.messages.iter().cloned());
            let id = conversation.id.clone();
            store.put(conversation);
            store.save()?;
            if json {
                outln!("{}", turn_json(&turn, &id));
            } else if let Some(line) = unverified_line(&turn) {
                outln!();
                outln!("{line}");
            }
            Ok(Outcome::Success)
        }
        Err(AdvisorError::Cancelled) => {
            diag!("cartera: cancelled; the conversation was left as it was");
            Ok(Outcome::Cancelled)
        }
        Err(error) => fail(error.to_string()),
    }
}

/// Questions for an empty conversation, each answerable with one tool call.
fn suggestions(year: i32) -> Vec<String> {
    vec![
        "What do I hold, and what is it worth?".to_owned(),
        "Is my data complete enough to trust the tax figures?".to_owned(),
        format!("What are my IRPF figures for {}?", year.saturating_sub(1)),
        "Which holdings are missing a price or an exchange rate?".to_owned(),
        "What does the Sharpe ratio measure?".to_owned(),
    ]
}

const CHAT_HELP: &str = "Type a question, or a number to ask a suggestion. Commands: /list, \
/resume ID, /delete ID, /new, /help, /quit. A new line while an answer streams cancels it; \
Ctrl-C cancels an answer, and quits when nothing is running.";

/// `cartera chat`.
#[allow(
    clippy::too_many_lines,
    reason = "one loop over the chat's commands, read top to bottom"
)]
pub(crate) fn run_chat(ledger: Option<&Path>, args: &ChatArgs) -> Result<Outcome> {
    let session = open_session(ledger, &args.model)?;
    let mut store = Store::load(&session.ledger)?;
    let mut conversation = match &args.resume {
        Some(id) => match store.get(id) {
            Some(found) => found.clone(),
            None => return fail(format!("no conversation {id}; `/list` in chat shows them")),
        },
        None => Conversation {
            id: store.new_id(),
            title: String::new(),
            messages: Vec::new(),
        },
    };
    // `cancel` ends the answer in flight (Ctrl-C or a new line); `interrupt` is Ctrl-C alone.
    let cancel = Arc::new(AtomicBool::new(false));
    let interrupt = Arc::new(AtomicBool::new(false));
    on_interrupt(&cancel)?;
    on_interrupt(&interrupt)?;
    let lines = read_lines(Arc::clone(&cancel));
    outln!("cartera chat: {}", session.description);
    outln!("{CHAT_HELP}");
    let suggested = suggestions(session.year);
    if conversation.messages.is_empty() {
        print_suggestions(&suggested)?;
    } else {
        outln!("Resumed {} ({}).", conversation.id, conversation.title);
    }
    loop {
        out!("> ");
        crate::output::flush()?;
        let line = loop {
            if interrupt.swap(false, Ordering::Relaxed) {
                outln!();
                return Ok(Outcome::Cancelled);
            }
            match lines.recv_timeout(Duration::from_millis(50)) {
                Ok(Some(line)) => break line,
                Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    outln!();
                    return Ok(Outcome::Success);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        };
        let line = line.trim().to_owned();
        let (command, argument) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let argument = argument.trim();
        let question = match command {
            "" => continue,
            "/quit" | "/exit" => return Ok(Outcome::Success),
            "/help" => {
                outln!("{CHAT_HELP}");
                continue;
            }
            "/list" => {
                if store.conversations.is_empty() {
                    outln!("No conversations yet.");
                }
                for stored in store.conversations.iter().rev() {
                    outln!(
                        "{}  {} ({} question{})",
                        stored.id,
                        stored.title,
                        stored.questions(),
                        if stored.questions() == 1 { "" } else { "s" }
                    );
                }
                continue;
            }
            "/new" => {
                conversation = Conversation {
                    id: store.new_id(),
                    title: String::new(),
                    messages: Vec::new(),
                };
                print_suggestions(&suggested)?;
                continue;
            }
            "/resume" => {
                match store.get(argument) {
                    Some(found) => {
                        conversation = found.clone();
                        outln!("Resumed {} ({}).", conversation.id, conversation.title);
                    }
                    None => outln!("No conversation {argument:?}; /list shows them."),
                }
                continue;
            }
            "/delete" => {
                if store.delete(argument) {
                    store.save()?;
                    outln!("Deleted {argument}.");
                    if conversation.id == argument {
                        conversation = Conversation {
                            id: store.new_id(),
                            title: String::new(),
                            messages: Vec::new(),
                        };
                    }
                } else {
                    outln!("No conversation {argument:?}; /list shows them.");
                }
                continue;
            }
            other if other.starts_with('/') => {
                outln!("Unknown command {other}. {CHAT_HELP}");
                continue;
            }
            _ => match line.parse::<usize>() {
                Ok(number) if conversation.messages.is_empty() => {
                    match number.checked_sub(1).and_then(|index| suggested.get(index)) {
                        Some(suggestion) => {
                            outln!("{suggestion}");
                            suggestion.clone()
                        }
                        None => line.clone(),
                    }
                }
                _ => line.clone(),
            },
        };
        cancel.store(false, Ordering::Relaxed);
        interrupt.store(false, Ordering::Relaxed);
        let mut terminal = Terminal::new(true);
        let result = session
            .agent
            .ask(&conversation.messages, &question, &mut terminal, &cancel);
        terminal.end_line();
        drop(terminal);
        match result {
            Ok(turn) => {
                if conversation.title.is_empty() {
                    conversation.title = title_of(&question);
                }
                conversation.messages.extend(turn.messages.iter().cloned());
                store.put(conversation.clone());
                store.save()?;
                if let Some(line) = unverified_line(&turn) {
                    outln!("{line}");
                }
            }
            Err(AdvisorError::Cancelled) => {
                if interrupt.swap(false, Ordering::Relaxed) {
                    outln!("(cancelled)");
                } else {
                    outln!("(cancelled: answering your next question instead)");
                }
            }
            Err(error) => diag!("cartera: error: {error}"),
        }
    }
}

fn print_suggestions(suggested: &[String]) -> Result<()> {
    outln!("Suggested questions:");
    for (number, suggestion) in suggested.iter().enumerate() {
        outln!("  {}. {suggestion}", number.saturating_add(1));
    }
    Ok(())
}

/// Reads stdin on a thread: every line is sent on, and sets `cancel` (a line typed while an
/// answer streams cancels it); the end of input sends `None`.
fn read_lines(cancel: Arc<AtomicBool>) -> mpsc::Receiver<Option<String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            cancel.store(true, Ordering::Relaxed);
            if tx.send(Some(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(None);
    });
    rx
}
