//! The single entry point (`tools.md` §3, §4, §5, §14): validation, the result cache,
//! projection, series sampling and the budget gate, all behind `catch_unwind`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value};
use shared_types::{MetricId, ToolName};
use use_cases::ports::{Clock, fiscal_year_of};
use use_cases::queries::ReadUseCases;

use crate::cache::{CacheKey, Lru};
use crate::context::{CurrencyCode, Locale, RequestContext};
use crate::outcome::{ErrorCode, ToolError, ToolOutcome};
use crate::payloads::{self, ProjectCtx, Projected, SeriesPayload};
use crate::profile::{Profile, RunBudget};
use crate::testing::{FakeProjected, Projector, SeriesRender};
use crate::{instructions, metrics, schemas, validate};

/// The sampling steps of the series tools (`tools.md` §4).
const SAMPLING_STEPS: [usize; 4] = [120, 60, 30, 15];

/// Longest tool name echoed in an error value.
const ECHOED_NAME_CHARS: usize = 64;

/// Result cache settings (`tools.md` §14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheConfig {
    /// Maximum number of entries (at least 1; 0 is read as 1).
    pub capacity: usize,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig { capacity: 256 }
    }
}

/// A projected payload as cached: before sampling and gating.
pub(crate) enum Built {
    /// A finished payload object.
    Plain(Map<String, Value>),
    /// A full series, rendered per sampling step.
    Series(Box<dyn SeriesRender>),
}

impl SeriesRender for SeriesPayload {
    fn render(&self, max_points: usize) -> Map<String, Value> {
        SeriesPayload::render(self, max_points)
    }
}

/// The tool layer of one ledger: 25 read-only tools over [`ReadUseCases`].
pub struct ToolHost {
    use_cases: Arc<dyn ReadUseCases>,
    profile: Profile,
    clock: Arc<dyn Clock>,
    cache: Mutex<Lru>,
    tools_list: String,
    projector: Option<Arc<Projector>>,
    budget_override: Option<u32>,
}

impl std::fmt::Debug for ToolHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolHost")
            .field("profile", &self.profile)
            .finish_non_exhaustive()
    }
}

impl ToolHost {
    /// A host over `use_cases` under `profile`, with a result cache and a clock.
    pub fn new(
        use_cases: Arc<dyn ReadUseCases>,
        profile: Profile,
        cache: CacheConfig,
        clock: Arc<dyn Clock>,
    ) -> ToolHost {
        ToolHost {
            use_cases,
            profile,
            clock,
            cache: Mutex::new(Lru::new(cache.capacity)),
            tools_list: schemas::tools_list_json(profile),
            projector: None,
            budget_override: None,
        }
    }

    /// Replaces the payload projection (tests of the gate, the cache and the entry point).
    #[doc(hidden)]
    #[must_use]
    pub fn with_projector(mut self, projector: Arc<Projector>) -> ToolHost {
        self.projector = Some(projector);
        self
    }

    /// Replaces every per-tool budget (tests of the gate).
    #[doc(hidden)]
    #[must_use]
    pub fn with_tool_budget(mut self, budget: u32) -> ToolHost {
        self.budget_override = Some(budget);
        self
    }

    /// The profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Calls `tool` and returns `{"kind":"ok"|"truncated"|"error",…}`; never panics.
    pub fn call(
        &self,
        ctx: &RequestContext,
        run: Option<&mut RunBudget>,
        tool: &str,
        arguments: &Value,
    ) -> Value {
        self.call_outcome(ctx, run, tool, arguments).to_json()
    }

    /// The typed twin of [`ToolHost::call`].
    pub fn call_outcome(
        &self,
        ctx: &RequestContext,
        run: Option<&mut RunBudget>,
        tool: &str,
        arguments: &Value,
    ) -> ToolOutcome {
        let Some(name) = ToolName::parse(tool).filter(|name| self.profile.exposes(*name)) else {
            return ToolOutcome::Error(self.unknown_tool(tool));
        };
        let dispatched = catch_unwind(AssertUnwindSafe(|| {
            self.dispatch(ctx, run, name, arguments)
        }));
        dispatched.unwrap_or_else(|_| {
            ToolOutcome::Error(use_case_failed_text(
                name,
                &format!("internal error in {}.", name.as_str()),
            ))
        })
    }

    /// The compact `{"tools":[…]}` text of the exposed definitions (`tools.md` §13.2).
    pub fn tools_list_json(&self) -> &str {
        &self.tools_list
    }

    /// The agent instructions for a locale and base currency (`tools.md` §11).
    pub fn instructions(&self, locale: &Locale, base_currency: &CurrencyCode) -> String {
        instructions::build(self.profile, locale, base_currency)
    }

    fn unknown_tool(&self, tool: &str) -> ToolError {
        let exposed = self
            .profile
            .exposed()
            .iter()
            .map(|tool| tool.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        ToolError {
            code: ErrorCode::UnknownTool,
            tool: cut_chars(tool, ECHOED_NAME_CHARS),
            path: None,
            reason: None,
            message: format!(
                "unknown tool {}; this profile exposes: {exposed}.",
                cut_chars(tool, 40)
            ),
        }
    }

    fn dispatch(
        &self,
        ctx: &RequestContext,
        run: Option<&mut RunBudget>,
        tool: ToolName,
        arguments: &Value,
    ) -> ToolOutcome {
        let current_year = fiscal_year_of(self.clock.now());
        let args = match validate::validate(tool, arguments, current_year) {
            Ok(args) => args,
            Err(error) => {
                return ToolOutcome::Error(ToolError {
                    code: ErrorCode::InvalidToolInput,
                    tool: tool.as_str().to_owned(),
                    path: Some(error.path),
                    reason: Some(error.reason),
                    message: error.message,
                });
            }
        };
        if tool == ToolName::ExplainMetric {
            let built = Built::Plain(self.explain_metric(ctx, &args));
            return self.gate(tool, &built, run);
        }
        let cacheable = tool != ToolName::LivePrices;
        let version = if cacheable {
            self.use_cases.get_ledger_version().ok().map(|v| v.version)
        } else {
            None
        };
        let key = version.map(|_| self.cache_key(ctx, tool, &args));
        if let (Some(version), Some(key)) = (version, key.as_ref()) {
            let now = self.clock.now().unix_nanos();
            let hit = self.lock_cache().get(key, version, now);
            if let Some(built) = hit {
                return self.gate(tool, &built, run);
            }
        }
        let built = match self.project(ctx, tool, &args) {
            Ok(built) => Arc::new(built),
            Err(error) => return ToolOutcome::Error(error),
        };
        if let (Some(version), Some(key)) = (version, key) {
            let now = self.clock.now().unix_nanos();
            self.lock_cache()
                .insert(key, Arc::clone(&built), version, now);
        }
        self.gate(tool, &built, run)
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, Lru> {
        self.cache.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn cache_key(
        &self,
        ctx: &RequestContext,
        tool: ToolName,
        args: &Map<String, Value>,
    ) -> CacheKey {
        CacheKey {
            tenant: ctx.tenant.as_str().to_owned(),
            exposure: self.profile.exposure_label(),
            settings: self.profile.settings(),
            base_currency: ctx.base_currency.as_str(),
            language: ctx.locale.language().to_owned(),
            tool,
            canonical_args: serde_json::to_string(args).unwrap_or_default(),
        }
    }

    fn project(
        &self,
        ctx: &RequestContext,
        tool: ToolName,
        args: &Map<String, Value>,
    ) -> Result<Built, ToolError> {
        if let Some(projector) = &self.projector {
            return match projector(self.use_cases.as_ref(), tool, args) {
                Ok(FakeProjected::Plain(map)) => Ok(Built::Plain(map)),
                Ok(FakeProjected::Series(series)) => Ok(Built::Series(series)),
                Err(error) => Err(use_case_failed(tool, error.use_case, &error.message)),
            };
        }
        let project_ctx = ProjectCtx {
            use_cases: self.use_cases.as_ref(),
            settings: self.profile.settings(),
            base_currency: ctx.base_currency.as_str(),
        };
        match payloads::project(&project_ctx, tool, args) {
            Ok(Projected::Plain(map)) => Ok(Built::Plain(map)),
            Ok(Projected::Series(series)) => Ok(Built::Series(Box::new(series))),
            Err(error) => Err(use_case_failed(tool, error.use_case, &error.message)),
        }
    }

    fn explain_metric(
        &self,
        ctx: &RequestContext,
        args: &Map<String, Value>,
    ) -> Map<String, Value> {
        let metric = args
            .get("metric")
            .and_then(Value::as_str)
            .and_then(MetricId::parse)
            .unwrap_or(MetricId::Equity);
        let (english, spanish, produced_by) = metrics::entry(metric);
        let spanish_wanted = ctx.locale.is_spanish();
        let mut payload = Map::new();
        payload.insert("metric".to_owned(), Value::from(metric.as_str()));
        payload.insert(
            "locale".to_owned(),
            Value::from(if spanish_wanted { "es" } else { "en" }),
        );
        payload.insert(
            "definition".to_owned(),
            Value::from(if spanish_wanted { spanish } else { english }),
        );
        payload.insert("producedBy".to_owned(), Value::from(produced_by.as_str()));
        payload.insert(
            "producerExposed".to_owned(),
            Value::from(self.profile.exposes(produced_by)),
        );
        payload
    }

    /// The budget gate (`tools.md` §4), with adaptive sampling for series payloads.
    fn gate(&self, tool: ToolName, built: &Built, run: Option<&mut RunBudget>) -> ToolOutcome {
        let budget = u64::from(
            self.budget_override
                .unwrap_or_else(|| self.profile.tool_budget(tool)),
        );
        let limit = run
            .as_ref()
            .and_then(|run| run.remaining())
            .map_or(budget, |remaining| budget.min(remaining));
        match built {
            Built::Plain(payload) => gate_payload(tool, payload.clone(), limit, run),
            Built::Series(series) => {
                let mut last = None;
                for step in SAMPLING_STEPS {
                    let payload = series.render(step);
                    let chars = match char_count(&payload) {
                        Ok(chars) => chars,
                        Err(error) => {
                            return ToolOutcome::Error(use_case_failed_text(tool, &error));
                        }
                    };
                    if chars <= limit {
                        return accept(payload, chars, run);
                    }
                    last = Some(chars);
                }
                ToolOutcome::Truncated {
                    max_chars: limit,
                    actual_chars: last.unwrap_or(0),
                }
            }
        }
    }
}

fn accept(payload: Map<String, Value>, chars: u64, run: Option<&mut RunBudget>) -> ToolOutcome {
    if let Some(run) = run {
        run.add_ok_chars(chars);
    }
    ToolOutcome::Ok(payload)
}

fn gate_payload(
    tool: ToolName,
    payload: Map<String, Value>,
    limit: u64,
    run: Option<&mut RunBudget>,
) -> ToolOutcome {
    match char_count(&payload) {
        Ok(chars) if chars <= limit => accept(payload, chars, run),
        Ok(chars) => ToolOutcome::Truncated {
            max_chars: limit,
            actual_chars: chars,
        },
        Err(error) => ToolOutcome::Error(use_case_failed_text(tool, &error)),
    }
}

/// Unicode scalar values of the compact serialisation of `payload` (`tools.md` §4).
pub fn char_count(payload: &Map<String, Value>) -> Result<u64, String> {
    let text = serde_json::to_string(payload)
        .map_err(|error| format!("payload does not serialise: {error}."))?;
    Ok(u64::try_from(text.chars().count()).unwrap_or(u64::MAX))
}

/// Gates a payload against `limit` (and a run budget) exactly as the host does.
#[doc(hidden)]
pub fn gate_for_test(
    payload: Map<String, Value>,
    limit: u64,
    run: Option<&mut RunBudget>,
) -> ToolOutcome {
    let limit = run
        .as_ref()
        .and_then(|run| run.remaining())
        .map_or(limit, |remaining| limit.min(remaining));
    gate_payload(ToolName::PortfolioSummary, payload, limit, run)
}

fn cut_chars(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// `USE_CASE_FAILED` naming the use case, its error text on one line (`tools.md` §5).
fn use_case_failed(tool: ToolName, use_case: &str, message: &str) -> ToolError {
    use_case_failed_text(tool, &format!("{use_case} failed: {message}"))
}

fn use_case_failed_text(tool: ToolName, text: &str) -> ToolError {
    let one_line: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    let trimmed = one_line.trim_end().trim_end_matches('.');
    let mut message = cut_chars(trimmed, 499);
    message.push('.');
    ToolError {
        code: ErrorCode::UseCaseFailed,
        tool: tool.as_str().to_owned(),
        path: None,
        reason: None,
        message,
    }
}
