//! MCP resources and prompts (MCP 2025-11-25, "Resources" and "Prompts"): read-only views of
//! the ledger served through the same tool host as `tools/call`, and three prompt templates
//! that tell the model which tools to call.
//!
//! Resources: `cartera://ledger/overview` (the `portfolio_summary` result),
//! `cartera://ledger/integrity` (`fiscal_integrity`), `cartera://metrics/glossary` (every
//! `explain_metric` definition) and the template `cartera://tax/{year}` (`spanish_tax_report`
//! of that year). Each reads as one `application/json` text: the tool result exactly as
//! `tools/call` carries it, so a resource never holds a figure a tool would not return.
//! Prompts: `yearly-filing` (argument `year`), `data-gap-review`, `portfolio-review`; their
//! texts name only core tools, so they work under every profile.
//!
//! The three listings are static text, rendered once per server and byte-identical on every
//! call, each within [`LISTING_CEILING_CHARS`].

use ai_tools::{RequestContext, ToolHost};
use serde_json::{Map, Value, json};
use shared_types::MetricId;

use crate::jsonrpc::code;

/// The most characters a `resources/list`, `resources/templates/list` or `prompts/list`
/// result may have (the catalogue ceilings of `tools/list`, in miniature).
pub const LISTING_CEILING_CHARS: usize = 3000;

/// MCP's "resource not found" code.
pub const RESOURCE_NOT_FOUND: i64 = -32002;

const OVERVIEW_URI: &str = "cartera://ledger/overview";
const INTEGRITY_URI: &str = "cartera://ledger/integrity";
const GLOSSARY_URI: &str = "cartera://metrics/glossary";
const TAX_URI_PREFIX: &str = "cartera://tax/";
const JSON_MIME: &str = "application/json";

/// The `resources/list` result.
pub(crate) fn resources_list() -> String {
    json!({"resources":[
        {"uri":OVERVIEW_URI,"name":"ledger-overview","title":"Ledger overview",
         "description":"What the ledger holds: the largest positions, the totals and the holdings without a price or rate, as the portfolio_summary tool returns them.",
         "mimeType":JSON_MIME},
        {"uri":INTEGRITY_URI,"name":"integrity-summary","title":"Integrity summary",
         "description":"Data-quality findings grouped by flag, and what needs attention before the tax figures can be trusted, as the fiscal_integrity tool returns them.",
         "mimeType":JSON_MIME},
        {"uri":GLOSSARY_URI,"name":"metric-glossary","title":"Metric glossary",
         "description":"The definition of every metric the tools report, in the server's language, as explain_metric returns them.",
         "mimeType":JSON_MIME}
    ]})
    .to_string()
}

/// The `resources/templates/list` result.
pub(crate) fn resource_templates_list() -> String {
    json!({"resourceTemplates":[
        {"uriTemplate":"cartera://tax/{year}","name":"tax-summary","title":"Tax summary of a year",
         "description":"One year's Spanish IRPF figures for the crypto assets (year from 2009), as the spanish_tax_report tool returns them.",
         "mimeType":JSON_MIME}
    ]})
    .to_string()
}

/// The `prompts/list` result.
pub(crate) fn prompts_list() -> String {
    json!({"prompts":[
        {"name":"yearly-filing","title":"Yearly filing walk-through",
         "description":"Walks through one year's IRPF figures for the crypto assets, after checking the data quality.",
         "arguments":[{"name":"year","description":"The tax year, such as 2024.","required":true}]},
        {"name":"data-gap-review","title":"Data-gap review",
         "description":"Lists missing prices, missing exchange rates and data defects, and what to import or correct."},
        {"name":"portfolio-review","title":"Portfolio review",
         "description":"Reviews holdings, allocation and headline indicators with every figure quoted from a tool."}
    ]})
    .to_string()
}

type Answer = Result<String, (i64, String)>;

fn invalid_params(detail: &str) -> (i64, String) {
    (code::INVALID_PARAMS, format!("Invalid params: {detail}"))
}

/// A client-chosen text as it may appear in a message: at most 200 characters, no control
/// characters.
fn echoed(text: &str) -> String {
    text.chars()
        .take(200)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// The `resources/read` result for `params`.
pub(crate) fn read_resource(
    host: &ToolHost,
    ctx: &RequestContext,
    params: &Map<String, Value>,
) -> Answer {
    let Some(Value::String(uri)) = params.get("uri") else {
        return Err(invalid_params("uri must be a string"));
    };
    let text = match uri.as_str() {
        OVERVIEW_URI => tool_text(host, ctx, "portfolio_summary", &json!({}))?,
        INTEGRITY_URI => tool_text(host, ctx, "fiscal_integrity", &json!({}))?,
        GLOSSARY_URI => glossary(host, ctx)?,
        other => match other.strip_prefix(TAX_URI_PREFIX) {
            Some(year)
                if !year.is_empty()
                    && year.len() <= 4
                    && year.bytes().all(|b| b.is_ascii_digit()) =>
            {
                let year: u32 = year.parse().unwrap_or(0);
                tool_text(host, ctx, "spanish_tax_report", &json!({"year":year}))?
            }
            _ => {
                return Err((
                    RESOURCE_NOT_FOUND,
                    format!("Resource not found: {}", echoed(other)),
                ));
            }
        },
    };
    Ok(json!({"contents":[{"uri":uri,"mimeType":JSON_MIME,"text":text}]}).to_string())
}

/// A tool result as compact JSON text; an input error is `-32602`, a failed read `-32603`.
fn tool_text(
    host: &ToolHost,
    ctx: &RequestContext,
    tool: &str,
    arguments: &Value,
) -> Result<String, (i64, String)> {
    let result = host.call(ctx, None, tool, arguments);
    if let Some("ok" | "truncated") = result.get("kind").and_then(Value::as_str) {
        return Ok(result.to_string());
    }
    let message = result
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or("the tool failed.");
    if result.get("code").and_then(Value::as_str) == Some("INVALID_TOOL_INPUT") {
        Err(invalid_params(message))
    } else {
        Err((code::INTERNAL_ERROR, format!("Internal error: {message}")))
    }
}

/// Every `explain_metric` definition, in `MetricId` order.
fn glossary(host: &ToolHost, ctx: &RequestContext) -> Result<String, (i64, String)> {
    let mut metrics = Vec::with_capacity(MetricId::ALL.len());
    for metric in MetricId::ALL {
        let result = host.call(
            ctx,
            None,
            "explain_metric",
            &json!({"metric":metric.as_str()}),
        );
        match result.get("payload") {
            Some(payload) => metrics.push(payload.clone()),
            None => {
                return Err((
                    code::INTERNAL_ERROR,
                    "Internal error: a metric definition could not be read".to_owned(),
                ));
            }
        }
    }
    Ok(json!({"metrics":metrics}).to_string())
}

/// The `prompts/get` result for `params`.
pub(crate) fn get_prompt(params: &Map<String, Value>) -> Answer {
    let Some(Value::String(name)) = params.get("name") else {
        return Err(invalid_params("name must be a string"));
    };
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(arguments)) => arguments.clone(),
        Some(_) => return Err(invalid_params("arguments must be an object")),
    };
    let (description, text) = match name.as_str() {
        "yearly-filing" => {
            let year = match arguments.get("year") {
                Some(Value::String(year)) => year.trim().to_owned(),
                Some(Value::Number(year)) => year.to_string(),
                None => return Err(invalid_params("missing argument year")),
                Some(_) => return Err(invalid_params("year must be a string such as \"2024\"")),
            };
            let valid = year.len() == 4
                && year.bytes().all(|b| b.is_ascii_digit())
                && year.as_str() >= "2009";
            if !valid {
                return Err(invalid_params(&format!(
                    "year {:?} is not a tax year from 2009 such as \"2024\"",
                    echoed(&year)
                )));
            }
            (
                format!("IRPF {year} walk-through for the crypto assets"),
                format!(
                    "Walk me through filing my {year} Spanish income tax return (IRPF) for my crypto assets.\n\n\
                     1. Call fiscal_integrity first. If any defect excludes events from the tax figures, or the data is incomplete, say so plainly before anything else.\n\
                     2. Call spanish_tax_report with year {year}. Quote every figure it returns verbatim, with the currency named by its result: the gains and losses from transmissions, the capital income such as staking, the airdrops and the estimated tax.\n\
                     3. Tell me which of those figures go where in the return, in the order the report gives them, and which parts the report marks as incomplete.\n\n\
                     Never compute, convert or estimate a figure yourself; if I ask for a comparison with another year, call tax_year_comparison."
                ),
            )
        }
        "data-gap-review" => (
            "Review of missing prices, rates and data defects".to_owned(),
            "Review the gaps in my ledger data.\n\n\
             1. Call data_gaps: list the holdings without a price and those without an exchange rate, with their quantities as returned.\n\
             2. Call fiscal_integrity: list each data-quality flag with its count, in the order the result gives them.\n\
             3. For each gap, say what I should import or correct (a price file, ECB rates, a missing transaction or a link between transfers).\n\n\
             Never estimate a missing price or rate, and never count an unvalued holding as worth zero."
                .to_owned(),
        ),
        "portfolio-review" => (
            "Review of holdings, allocation and headline indicators".to_owned(),
            "Review my portfolio.\n\n\
             1. Call portfolio_summary: the total value, the cost basis, the unrealised and realised results and the largest positions.\n\
             2. Call asset_allocation: how the value is split across assets.\n\
             3. Call kpis: the headline indicators at the last daily close.\n\n\
             Quote each figure verbatim with the currency of its result. Say plainly when a holding is unvalued or prices or rates are incomplete. Do not give investment advice and do not compute new figures."
                .to_owned(),
        ),
        other => {
            return Err(invalid_params(&format!("unknown prompt {}", echoed(other))));
        }
    };
    Ok(json!({"description":description,"messages":[{"role":"user","content":{"type":"text","text":text}}]}).to_string())
}

#[cfg(test)]
mod tests;
