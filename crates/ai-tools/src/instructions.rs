//! The agent instructions (`tools.md` §11): a prefix fixed per exposure and a suffix naming the
//! request's locale and base currency.

use shared_types::ToolName;

use crate::context::{CurrencyCode, Locale};
use crate::profile::Profile;

const HYPO_METERED: &str = "For a hypothetical price or percentage move, call scenario_position_value or scenario_portfolio_shock.";
const HYPO_LOCAL: &str = "For a hypothetical price, call scenario_position_value.";
const LOCAL_TAIL: &str =
    "Some detail tools exist only in a larger profile; if the user needs one, say so plainly.";

/// The prefix: identical for every locale and currency of one exposure.
pub(crate) fn prefix(profile: Profile) -> String {
    let hypo = if profile.is_local() {
        HYPO_LOCAL
    } else {
        HYPO_METERED
    };
    let tools = profile
        .exposed()
        .iter()
        .map(|tool| format!("- {}: {}", tool.as_str(), guide(*tool)))
        .collect::<Vec<_>>()
        .join("\n");
    let mut text = PREFIX_TEMPLATE
        .replace("{HYPO}", hypo)
        .replace("{TOOLS}", &tools);
    if profile.is_local() {
        text.push('\n');
        text.push_str(LOCAL_TAIL);
    }
    text
}

/// The suffix naming the locale and the base currency.
pub(crate) fn suffix(locale: &Locale, base_currency: &CurrencyCode) -> String {
    SUFFIX_TEMPLATE
        .replace("{L}", locale.as_str())
        .replace("{C}", base_currency.as_str())
}

/// The full text: `prefix + "\n\n" + suffix`.
pub(crate) fn build(profile: Profile, locale: &Locale, base_currency: &CurrencyCode) -> String {
    format!("{}\n\n{}", prefix(profile), suffix(locale, base_currency))
}

/// The prefix text with its `{HYPO}` and `{TOOLS}` slots.
const PREFIX_TEMPLATE: &str = "You are the portfolio and tax analyst for the user's own crypto ledger. You work only through the tools listed below; they read the ledger and never change it.\n\nData rules:\n- Never compute, convert, sum, subtract or estimate a figure yourself. Every figure you give must appear verbatim in a tool result obtained in the current turn.\n- Quote each figure exactly as returned, inside inline code, without rounding or reformatting.\n- {HYPO} For a comparison across years, call tax_year_comparison.\n- When a result reports an outcome that was not computed, such as not held, ambiguous, not found, unconvertible or unknown cost basis, zero quantity or empty portfolio, state it to the user as it is.\n- Each monetary figure is in the currency named by the currency field of its own result, which is not always the base currency. Write that currency next to the figure, and never convert or relabel it. Percentages and ratios have no currency.\n- If a result is truncated, or reports incomplete rates, incomplete prices, excluded events or an incomplete year, say so plainly before answering, and never present a partial total as final. A truncated result carries no data; where the tool offers pages or filters, ask for another page or a narrower filter.\n- Figures from earlier turns may be stale; call the tool again before repeating one.\n\nScope rules:\n- Every tool covers all of the user's accounts together, because Spanish tax is computed per asset across accounts. To look at a single account, call account_holdings with the account's name.\n- Never ask the user for an account id or any other internal identifier.\n\nTools:\n{TOOLS}";
/// The suffix text with its `{L}` and `{C}` slots.
const SUFFIX_TEMPLATE: &str = "Response format: concise Markdown. Answer in the language of the locale {L}. The base currency is {C}; when a result declares another currency, say so instead of presenting its figures as {C}.";
/// The guide line of `tool` (`tools.md` §11).
const fn guide(tool: ToolName) -> &'static str {
    match tool {
        ToolName::PortfolioSummary => {
            "what the user holds, the largest positions and the overall value."
        }
        ToolName::FiscalIntegrity => {
            "data quality and what needs the user's attention before trusting tax figures."
        }
        ToolName::FiscalIntegrityRows => {
            "the transactions behind one quality flag, only when the user asks for them."
        }
        ToolName::TokenHistory => "one asset's lots, their costs and their history.",
        ToolName::TokenLots => "further lots of one asset after the first page.",
        ToolName::AssetAllocation => "how value is split across assets.",
        ToolName::RiskMetrics => "drawdown, volatility, Sharpe ratio, alpha and beta.",
        ToolName::Kpis => "headline indicators at the last daily close.",
        ToolName::DrawdownCurve => "falls from previous peaks over time.",
        ToolName::PerformanceHistory => "portfolio value over time.",
        ToolName::VolatilityHeatmap => "calm and turbulent periods within one year.",
        ToolName::SpanishTaxReport => "one year's IRPF figures.",
        ToolName::LivePrices => {
            "a latest stored price without a full summary; if the result is truncated, ask for fewer symbols."
        }
        ToolName::HoldingDetail => {
            "one asset by symbol, including assets outside the largest positions."
        }
        ToolName::AccountHoldings => {
            "one account by name; if the name is ambiguous or unknown, ask the user which account they mean."
        }
        ToolName::TaxYearComparison => {
            "the difference between two tax years; if it is marked incomparable, say so."
        }
        ToolName::DataGaps => "missing prices, missing exchange rates and data defects.",
        ToolName::ExplainMetric => "the meaning of a metric.",
        ToolName::ScenarioPositionValue => "one holding at a unit price the user names.",
        ToolName::BreakevenPrice => "one holding's average unit cost.",
        ToolName::DerivativesPnl => "results of futures and perpetual contracts.",
        ToolName::CustodyLocations => "where assets are held, which has no tax effect.",
        ToolName::ScenarioPortfolioShock => {
            "the whole portfolio, or chosen assets, after a percentage move."
        }
        ToolName::ConcentrationRisk => "how concentrated the portfolio is.",
        ToolName::TxSearch => {
            "individual transactions by symbol, date or type; if the result is truncated, retry with a narrower filter."
        }
    }
}
