//! A fake tool box: three tools with fixed payloads, calls recorded.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use advisor::{Agent, AgentConfig, Api, Observer, ToolBox, Turn};
use ai_tools::{ErrorCode, RunBudget, ToolError, ToolOutcome};
use serde_json::{Map, Value, json};

pub(crate) struct FakeTools {
    pub(crate) calls: Mutex<Vec<(String, Value)>>,
}

impl ToolBox for FakeTools {
    #[allow(
        clippy::unnecessary_literal_bound,
        reason = "the trait returns borrowed text"
    )]
    fn definitions_json(&self) -> &str {
        r#"{"tools":[{"name":"portfolio_summary","description":"Use to see holdings.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}},{"name":"holding_detail","description":"Use for one asset.","inputSchema":{"type":"object","properties":{"symbol":{"type":"string"}},"required":["symbol"],"additionalProperties":false}},{"name":"kpis","description":"Use for indicators.","inputSchema":{"type":"object","properties":{},"additionalProperties":false}}]}"#
    }

    fn instructions(&self) -> String {
        "You are the analyst. Never compute a figure.".to_owned()
    }

    fn new_run_budget(&self) -> RunBudget {
        RunBudget::unbounded()
    }

    fn call(&self, _run: &mut RunBudget, name: &str, arguments: &Value) -> ToolOutcome {
        self.calls
            .lock()
            .unwrap()
            .push((name.to_owned(), arguments.clone()));
        let payload = match name {
            "portfolio_summary" => {
                json!({"totals":{"equity":"112750.00","costBasis":"100000.00"},"currency":"EUR"})
            }
            "holding_detail" => {
                json!({"kind":"valued","symbol":"BTC","currentValueFiat":"64250.50"})
            }
            "kpis" => json!({"totalRoiPct":"12.63"}),
            _ => {
                return ToolOutcome::Error(ToolError {
                    code: ErrorCode::UnknownTool,
                    tool: name.to_owned(),
                    path: None,
                    reason: None,
                    message: format!(
                        "unknown tool {name}; this profile exposes: portfolio_summary, holding_detail, kpis."
                    ),
                });
            }
        };
        let Value::Object(map) = payload else {
            return ToolOutcome::Ok(Map::new());
        };
        ToolOutcome::Ok(map)
    }
}

/// What an observer saw.
#[derive(Default, Debug)]
pub(crate) struct Seen {
    pub(crate) text: String,
    pub(crate) tools: Vec<String>,
    pub(crate) warnings: Vec<String>,
    pub(crate) retries: Vec<String>,
}

impl Observer for Seen {
    fn text(&mut self, delta: &str) {
        self.text.push_str(delta);
    }
    fn tool_started(&mut self, name: &str) {
        self.tools.push(name.to_owned());
    }
    fn warning(&mut self, message: &str) {
        self.warnings.push(message.to_owned());
    }
    fn retrying(&mut self, reason: &str, _delay: Duration) {
        self.retries.push(reason.to_owned());
    }
}

pub(crate) fn tools() -> Arc<FakeTools> {
    Arc::new(FakeTools {
        calls: Mutex::new(Vec::new()),
    })
}

/// An agent on `base_url` with test timings: 400 ms of silence, retries after 10 ms and 20 ms.
pub(crate) fn agent(api: Api, base_url: &str, tools: Arc<FakeTools>) -> Agent {
    let mut config = AgentConfig::new(api, base_url, "test-model");
    config.read_timeout = Duration::from_millis(400);
    config.connect_timeout = Duration::from_millis(400);
    config.retry_delays = vec![Duration::from_millis(10), Duration::from_millis(20)];
    config.api_key = Some("sk-test-secret".to_owned());
    Agent::new(config, tools)
}

pub(crate) fn ask(agent: &Agent, question: &str) -> (Result<Turn, advisor::AdvisorError>, Seen) {
    let mut seen = Seen::default();
    let cancel = AtomicBool::new(false);
    let turn = agent.ask(&[], question, &mut seen, &cancel);
    (turn, seen)
}
