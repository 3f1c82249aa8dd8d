//! What the loop needs from the tool layer: the definitions, the instructions, a run budget and
//! the single entry point. [`HostTools`] is the production implementation over one
//! [`ToolHost`]; tests substitute their own.

use ai_tools::{CurrencyCode, Locale, RequestContext, RunBudget, ToolHost, ToolOutcome};
use serde_json::Value;

/// The tool side of the loop.
pub trait ToolBox: Send + Sync {
    /// The compact `{"tools":[{"name","description","inputSchema",…}]}` text of the exposed
    /// tools, in canonical order.
    fn definitions_json(&self) -> &str;
    /// The agent instructions (`tools.md` §11) for this profile, locale and currency.
    fn instructions(&self) -> String;
    /// A fresh run budget for one turn (`tools.md` §3.1).
    fn new_run_budget(&self) -> RunBudget;
    /// One tool call through the single entry point; never panics.
    fn call(&self, run: &mut RunBudget, name: &str, arguments: &Value) -> ToolOutcome;
}

/// A [`ToolHost`] with the request context every call of a turn runs in.
#[derive(Debug)]
pub struct HostTools {
    host: ToolHost,
    ctx: RequestContext,
}

impl HostTools {
    /// The host and its context.
    pub fn new(host: ToolHost, ctx: RequestContext) -> HostTools {
        HostTools { host, ctx }
    }

    /// The locale of the context.
    pub fn locale(&self) -> &Locale {
        &self.ctx.locale
    }

    /// The base currency of the context.
    pub fn base_currency(&self) -> &CurrencyCode {
        &self.ctx.base_currency
    }
}

impl ToolBox for HostTools {
    fn definitions_json(&self) -> &str {
        self.host.tools_list_json()
    }

    fn instructions(&self) -> String {
        self.host
            .instructions(&self.ctx.locale, &self.ctx.base_currency)
    }

    fn new_run_budget(&self) -> RunBudget {
        self.host.profile().new_run_budget()
    }

    fn call(&self, run: &mut RunBudget, name: &str, arguments: &Value) -> ToolOutcome {
        self.host
            .call_outcome(&self.ctx, Some(run), name, arguments)
    }
}
