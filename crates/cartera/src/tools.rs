//! The AI tools of a ledger ([`Tools`]) and the MCP server over them ([`McpServer`]).

use std::io::{BufRead, Write};
use std::sync::Arc;

use ai_tools::{CacheConfig, CurrencyCode, Locale, Profile, RequestContext, TenantId, ToolHost};
use serde_json::Value;
use shared_types::ToolName;
use use_cases::ports::{SettingKey, SettingsStore};

use crate::error::{Error, Result, Typed as _};
use crate::ledger::Ledger;

/// Which tools a model sees, and how large their answers may be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToolProfile {
    /// All 25 tools, budgets for hosted models.
    #[default]
    Metered,
    /// The 14 core tools, every answer sized to a local model's context window (in tokens,
    /// 1,000 to 10,000,000).
    Local {
        /// The model's context window in tokens.
        context_window: u32,
    },
}

/// Who asks, and how the tools answer: the profile, the tenant (part of every cache key), the
/// answer language and the base currency.
///
/// ```
/// use cartera::{ToolConfig, ToolProfile};
///
/// let config = ToolConfig::new("tenant-42").locale("en").base_currency("USD");
/// assert_eq!(config.profile, ToolProfile::Metered);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolConfig {
    /// The tool profile.
    pub profile: ToolProfile,
    /// The ledger owner: 1 to 128 printable characters. A service names its tenant here.
    pub tenant: String,
    /// The answer language named in the instructions (`es`, `en`, `es-ES`, …).
    pub locale: String,
    /// `EUR` or `USD`; `None`: the ledger's `display_currency` setting, else EUR.
    pub base_currency: Option<String>,
}

impl ToolConfig {
    /// The metered profile for `tenant`, answering in Spanish in the ledger's display currency.
    pub fn new(tenant: impl Into<String>) -> Self {
        Self {
            profile: ToolProfile::Metered,
            tenant: tenant.into(),
            locale: "es".to_owned(),
            base_currency: None,
        }
    }

    /// The same configuration with another profile.
    pub fn profile(mut self, profile: ToolProfile) -> Self {
        self.profile = profile;
        self
    }

    /// The same configuration with another answer language.
    pub fn locale(mut self, locale: impl Into<String>) -> Self {
        self.locale = locale.into();
        self
    }

    /// The same configuration with a fixed base currency.
    pub fn base_currency(mut self, currency: impl Into<String>) -> Self {
        self.base_currency = Some(currency.into());
        self
    }
}

/// The read-only AI tools of one ledger: call one by name with JSON arguments.
///
/// `Send + Sync`: one `Tools` serves every request thread of its tenant. Its result cache (60 s,
/// keyed by tenant, tool, arguments and ledger version) belongs to this value alone, so two
/// tenants never see each other's answers.
///
/// ```
/// use cartera::{FixedClock, Ledger, ToolConfig};
/// use serde_json::json;
///
/// let ledger = Ledger::in_memory(FixedClock::parse("2024-12-31T12:00:00Z")?)?;
/// let tools = ledger.tools(&ToolConfig::new("doc-test"))?;
/// let answer = tools.call("explain_metric", &json!({ "metric": "sharpe" }))?;
/// assert_eq!(answer["kind"], "ok");
/// assert!(matches!(
///     tools.call("no_such_tool", &json!({})),
///     Err(cartera::Error::UnknownTool { .. })
/// ));
/// # Ok::<(), cartera::Error>(())
/// ```
pub struct Tools {
    host: ToolHost,
    ctx: RequestContext,
}

impl std::fmt::Debug for Tools {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tools")
            .field("tenant", &self.ctx.tenant.as_str())
            .field("profile", &self.host.profile())
            .finish_non_exhaustive()
    }
}

impl Tools {
    /// Calls the tool `name` with `arguments` (a JSON object) and returns its result:
    /// `{"kind":"ok","payload":{…}}`, `{"kind":"truncated",…}` when the answer exceeds the
    /// profile's budget, or `{"kind":"error",…}` when the arguments break a rule or the data
    /// cannot answer (the model reads those). A name the profile does not expose is
    /// [`Error::UnknownTool`].
    pub fn call(&self, name: &str, arguments: &Value) -> Result<Value> {
        let profile = self.host.profile();
        if !ToolName::parse(name).is_some_and(|tool| profile.exposes(tool)) {
            return Err(Error::UnknownTool {
                name: name.to_owned(),
                exposed: profile
                    .exposed()
                    .iter()
                    .map(|tool| tool.as_str().to_owned())
                    .collect(),
            });
        }
        Ok(self.host.call(&self.ctx, None, name, arguments))
    }

    /// The `{"tools":[…]}` definitions (names, descriptions, JSON Schemas) of the exposed tools,
    /// as a model's tool list takes them.
    pub fn definitions_json(&self) -> &str {
        self.host.tools_list_json()
    }

    /// The instructions a model needs with these tools (quote figures verbatim, …), in the
    /// configured language.
    pub fn instructions(&self) -> String {
        self.host
            .instructions(&self.ctx.locale, &self.ctx.base_currency)
    }
}

/// An MCP server (JSON-RPC 2.0, one message per line) over the tools of one ledger.
///
/// ```
/// use cartera::{FixedClock, Ledger, ToolConfig};
///
/// let ledger = Ledger::in_memory(FixedClock::parse("2024-12-31T12:00:00Z")?)?;
/// let server = ledger.mcp_server(&ToolConfig::new("doc-test"))?;
/// let input = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
/// let mut output = Vec::new();
/// server.serve(&input[..], &mut output, std::io::sink())?;
/// assert_eq!(output, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
/// # Ok::<(), cartera::Error>(())
/// ```
pub struct McpServer {
    server: mcp::Server,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer").finish_non_exhaustive()
    }
}

impl McpServer {
    /// Serves `input` until its end: one response line per request on `output`, written in one
    /// piece and flushed; one diagnostic line per protocol error or failed tool call on `log`
    /// (never arguments or figures). Stdin and stdout in a process, or a socket's halves.
    pub fn serve(&self, input: impl BufRead, output: impl Write, log: impl Write) -> Result<()> {
        mcp::serve(&self.server, input, output, log).map_err(|error| match error {
            mcp::ServeError::Read(error) => Error::Io {
                what: "MCP input".to_owned(),
                reason: error.to_string(),
            },
            mcp::ServeError::Write(error) => Error::Io {
                what: "MCP output".to_owned(),
                reason: error.to_string(),
            },
            other => Error::Io {
                what: "MCP".to_owned(),
                reason: other.to_string(),
            },
        })
    }

    /// The answer to one message (a line without its newline); `None` for a notification.
    pub fn handle_line(&self, line: &[u8]) -> Option<String> {
        self.server.handle_line(line)
    }
}

impl Ledger {
    /// The AI tools of this ledger under `config`. They read the ledger through the same
    /// derived-state cache as the ledger's own questions, and never write.
    pub fn tools(&self, config: &ToolConfig) -> Result<Tools> {
        let (host, ctx) = self.host(config)?;
        Ok(Tools { host, ctx })
    }

    /// An MCP server over this ledger's tools under `config`.
    pub fn mcp_server(&self, config: &ToolConfig) -> Result<McpServer> {
        let (host, ctx) = self.host(config)?;
        let server = mcp::Server::new(
            host,
            mcp::ServerConfig {
                name: "cartera",
                version: env!("CARGO_PKG_VERSION").to_owned(),
                tenant: ctx.tenant,
                locale: ctx.locale,
                base_currency: ctx.base_currency,
            },
        );
        Ok(McpServer { server })
    }

    fn host(&self, config: &ToolConfig) -> Result<(ToolHost, RequestContext)> {
        let profile = match config.profile {
            ToolProfile::Metered => Profile::Metered,
            ToolProfile::Local { context_window } => Profile::local(context_window)
                .map_err(|error| Error::option("context window", error.to_string()))?,
        };
        let tenant = TenantId::new(config.tenant.clone())
            .map_err(|error| Error::option("tenant", error.to_string()))?;
        let locale = Locale::parse(&config.locale)
            .map_err(|error| Error::option("locale", error.to_string()))?;
        let base_currency = match config.base_currency.as_deref() {
            Some(code) => CurrencyCode::parse(code)
                .map_err(|error| Error::option("base currency", error.to_string()))?,
            None => self.display_currency()?,
        };
        let host = ToolHost::new(
            Arc::clone(&self.queries) as _,
            profile,
            CacheConfig::default(),
            Arc::new(self.clock.clone()),
        );
        let ctx = RequestContext {
            tenant,
            locale,
            base_currency,
        };
        Ok((host, ctx))
    }

    /// The `display_currency` setting as the tools' base currency; EUR when unset.
    fn display_currency(&self) -> Result<CurrencyCode> {
        let stored = self.store().setting(SettingKey::DisplayCurrency).typed()?;
        Ok(stored
            .and_then(|text| serde_json::from_str::<String>(&text).ok())
            .and_then(|code| CurrencyCode::parse(&code).ok())
            .unwrap_or(CurrencyCode::EUR))
    }
}
