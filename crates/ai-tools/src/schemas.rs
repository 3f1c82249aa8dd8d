//! The served tool definitions (`tools.md` §9, §13): hand-written compact JSON Schema texts,
//! descriptions, titles and annotations, and the byte-stable `tools/list` text.

use shared_types::ToolName;

/// The output schema shared by all 25 tools (`tools.md` §13.1).
pub const OUTPUT_SCHEMA: &str = r#"{"type":"object","properties":{"kind":{"enum":["ok","truncated"]},"payload":{"type":"object"},"maxChars":{"type":"integer","minimum":0},"actualChars":{"type":"integer","minimum":1}},"required":["kind"],"additionalProperties":false}"#;

/// The input schema of a tool with no arguments (`EMPTY`).
pub const EMPTY_SCHEMA: &str = r#"{"type":"object","properties":{},"additionalProperties":false}"#;

/// The input schema text of `tool`, exactly as served (`tools.md` §9).
#[allow(clippy::match_same_arms)] // One arm per tool, as the spec lists them.
pub const fn input_schema(tool: ToolName) -> &'static str {
    match tool {
        ToolName::PortfolioSummary => EMPTY_SCHEMA,
        ToolName::FiscalIntegrity => EMPTY_SCHEMA,
        ToolName::FiscalIntegrityRows => {
            r#"{"type":"object","properties":{"qualityFlag":{"type":"string","enum":["MISSING_PRICE","MISSING_FX_RATE","CURRENCY_MISMATCH","NEGATIVE_COST_BASIS","MISSING_ACQUISITION","CUSTODY_RESIDUAL","UNTRACKED_INFLOW","CUSTODY_IMBALANCE","UNKNOWN_TX_TYPE","AMOUNT_OUT_OF_RANGE"]},"page":{"type":"integer","minimum":0,"maximum":1000000,"default":0}},"required":["qualityFlag"],"additionalProperties":false}"#
        }
        ToolName::TokenHistory => {
            r#"{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"}},"required":["symbol"],"additionalProperties":false}"#
        }
        ToolName::TokenLots => {
            r#"{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"},"page":{"type":"integer","minimum":0,"maximum":1000000,"default":0}},"required":["symbol"],"additionalProperties":false}"#
        }
        ToolName::AssetAllocation => EMPTY_SCHEMA,
        ToolName::RiskMetrics => EMPTY_SCHEMA,
        ToolName::Kpis => EMPTY_SCHEMA,
        ToolName::DrawdownCurve => {
            r#"{"type":"object","properties":{"days":{"type":"integer","minimum":1,"maximum":3650,"default":30}},"additionalProperties":false}"#
        }
        ToolName::PerformanceHistory => {
            r#"{"type":"object","properties":{"days":{"type":"integer","minimum":1,"maximum":3650,"default":30}},"additionalProperties":false}"#
        }
        ToolName::VolatilityHeatmap => {
            r#"{"type":"object","properties":{"year":{"type":"integer","minimum":2009,"maximum":9999}},"additionalProperties":false}"#
        }
        ToolName::SpanishTaxReport => {
            r#"{"type":"object","properties":{"year":{"type":"integer","minimum":2009,"maximum":9999},"method":{"type":"string","enum":["FIFO"],"default":"FIFO"}},"required":["year"],"additionalProperties":false}"#
        }
        ToolName::LivePrices => {
            r#"{"type":"object","properties":{"symbols":{"type":"array","items":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"},"minItems":1,"maxItems":25,"uniqueItems":true}},"required":["symbols"],"additionalProperties":false}"#
        }
        ToolName::HoldingDetail => {
            r#"{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"}},"required":["symbol"],"additionalProperties":false}"#
        }
        ToolName::AccountHoldings => {
            r#"{"type":"object","properties":{"accountName":{"type":"string","minLength":1,"maxLength":64}},"required":["accountName"],"additionalProperties":false}"#
        }
        ToolName::TaxYearComparison => {
            r#"{"type":"object","properties":{"yearA":{"type":"integer","minimum":2009,"maximum":9999},"yearB":{"type":"integer","minimum":2009,"maximum":9999},"method":{"type":"string","enum":["FIFO"],"default":"FIFO"}},"required":["yearA","yearB"],"additionalProperties":false}"#
        }
        ToolName::DataGaps => EMPTY_SCHEMA,
        ToolName::ExplainMetric => {
            r#"{"type":"object","properties":{"metric":{"type":"string","enum":["equity","cost_basis","realized_pnl","unrealized_pnl","max_drawdown","annualised_volatility","sharpe","alpha","beta","hhi","top_n_weight","breakeven_price","rates_incomplete","prices_incomplete","unvalued","irpf_savings_base","net_patrimonial_result"]}},"required":["metric"],"additionalProperties":false}"#
        }
        ToolName::ScenarioPositionValue => {
            r#"{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"},"hypotheticalPrice":{"type":["string","number"],"pattern":"^(0|[1-9][0-9]{0,14})(\\.[0-9]{1,12})?$"}},"required":["symbol","hypotheticalPrice"],"additionalProperties":false}"#
        }
        ToolName::BreakevenPrice => {
            r#"{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"}},"required":["symbol"],"additionalProperties":false}"#
        }
        ToolName::DerivativesPnl => EMPTY_SCHEMA,
        ToolName::CustodyLocations => {
            r#"{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"}},"additionalProperties":false}"#
        }
        ToolName::ScenarioPortfolioShock => {
            r#"{"type":"object","properties":{"shock":{"type":"object","anyOf":[{"type":"object","properties":{"kind":{"const":"uniform"},"pct":{"type":["string","number"],"pattern":"^-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,4})?$"}},"required":["kind","pct"],"additionalProperties":false},{"type":"object","properties":{"kind":{"const":"per_asset"},"shocks":{"type":"array","items":{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"},"pct":{"type":["string","number"],"pattern":"^-?(0|[1-9][0-9]{0,3})(\\.[0-9]{1,4})?$"}},"required":["symbol","pct"],"additionalProperties":false},"minItems":1,"maxItems":25}},"required":["kind","shocks"],"additionalProperties":false}]}},"required":["shock"],"additionalProperties":false}"#
        }
        ToolName::ConcentrationRisk => EMPTY_SCHEMA,
        ToolName::TxSearch => {
            r#"{"type":"object","properties":{"symbol":{"type":"string","pattern":"^[A-Za-z0-9.]{1,20}$"},"from":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},"to":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},"types":{"type":"array","items":{"type":"string","enum":["BUY","SELL","SWAP","DEPOSIT","WITHDRAWAL","STAKING","AIRDROP","REWARD","MINING","SPEND","FEE","TRANSFER_IN","TRANSFER_OUT","MIGRATION_SWAP","PROMOTION","FORK"]},"minItems":1,"uniqueItems":true},"page":{"type":"integer","minimum":1,"maximum":1000000,"default":1}},"additionalProperties":false}"#
        }
    }
}

/// The description of `tool`, exactly as served (`tools.md` §9).
pub const fn description(tool: ToolName) -> &'static str {
    match tool {
        ToolName::PortfolioSummary => {
            "Use to see what the user holds across all accounts: totals, the largest holdings by value at the latest stored price, and holdings that cannot be valued. Call holding_detail for a symbol outside the list."
        }
        ToolName::FiscalIntegrity => {
            "Use to check data quality before trusting tax figures: defect groups per quality flag with severity, count and items pending review, plus whether a recalculation is pending. Counts only, never rows."
        }
        ToolName::FiscalIntegrityRows => {
            "Use only when the user asks which transactions carry one quality flag: a page of affected rows with asset, account, date and whether the user can resolve it. Call fiscal_integrity first. Pages start at zero."
        }
        ToolName::TokenHistory => {
            "Use to inspect one asset's tax lots across all accounts, newest first: date, account, original and remaining quantity, EUR cost, status and counts of disposals and custody moves. First page only."
        }
        ToolName::TokenLots => {
            "Use only when token_history reported omitted lots: pages through one asset's full lot list, newest first, with the same fields. Pages start at zero."
        }
        ToolName::AssetAllocation => {
            "Use to see how value is split across assets at the last daily close: quantity, value and percentage share per valued asset, largest first. Assets lacking a price or rate are listed apart and excluded from every share."
        }
        ToolName::RiskMetrics => {
            "Use for portfolio risk: maximum drawdown, annualised volatility, Sharpe ratio, and alpha and beta against bitcoin, from the daily valuation series. No currency; a null figure could not be computed from the history."
        }
        ToolName::Kpis => {
            "Use for headline indicators at the last daily close: equity, cost basis, realized and unrealized result, return, all-time high, drawdown, volatility, Sharpe and trade statistics. Can differ from portfolio_summary."
        }
        ToolName::DrawdownCurve => {
            "Use to show how far the portfolio's return stood below its previous peak on each day of a recent window, as a fraction of that peak. Long windows are evenly sampled; omittedCount says how many days were skipped."
        }
        ToolName::PerformanceHistory => {
            "Use to show portfolio value per day over a recent window, in the declared currency, with each day's drawdown. A null value had no exchange rate; never read it as zero. Long windows are evenly sampled."
        }
        ToolName::VolatilityHeatmap => {
            "Use to show the portfolio's rolling annualised volatility day by day across one calendar year, to spot calm and turbulent periods. No currency. Defaults to the current year."
        }
        ToolName::SpanishTaxReport => {
            "Use for one year's Spanish IRPF figures in EUR across all accounts: transmission gains and losses, capital income, compensation, savings base, estimated savings tax, general-base items, completeness counters and latest disposals."
        }
        ToolName::LivePrices => {
            "Use to get the latest stored price of one or more symbols without a portfolio read. Reads the local price store only, never the network; unknown symbols come back as not tracked. If truncated, ask for fewer symbols."
        }
        ToolName::HoldingDetail => {
            "Use to look up one holding by symbol, even outside the top holdings: quantity, cost basis and, when priced, value and unrealized result. Says unvalued or not held instead of a figure when so."
        }
        ToolName::AccountHoldings => {
            "Use to see what one account holds, by name (case-insensitive; a unique prefix works). A parent account gives one section per sub-account, never summed. If the name is ambiguous or unknown, ask the user."
        }
        ToolName::TaxYearComparison => {
            "Use to compare two years' IRPF figures in EUR. Differences come computed as second year minus first; never subtract yourself. If either year is incomplete every difference is marked incomparable: say so."
        }
        ToolName::DataGaps => {
            "Use to find what is missing: holdings without a price or without an exchange rate, by symbol and quantity, plus data-quality defect groups and which tools to call next."
        }
        ToolName::ExplainMetric => {
            "Use to define a metric the user asks about, in the user's language, and to learn which tool reports it. Static text without figures."
        }
        ToolName::ScenarioPositionValue => {
            "Use when the user names a hypothetical unit price, in the base currency, for one held asset: value at that price, change against the current value and implied share. Quantity comes from the ledger."
        }
        ToolName::BreakevenPrice => {
            "Use to get one holding's average unit cost: cost basis over quantity, the price at which selling everything breaks even before fees and tax. Uses the holdings cost basis, which can differ from kpis."
        }
        ToolName::DerivativesPnl => {
            "Use for futures and perpetual contracts: realized result, funding, fees and net result per contract, largest absolute realized result first, capped. Each row declares its own currency."
        }
        ToolName::CustodyLocations => {
            "Use to answer where assets are held now: quantity and lot count per account and asset, from custody tracking. Location has no tax effect. Own-wallet placeholder rows are counted, not listed."
        }
        ToolName::ScenarioPortfolioShock => {
            "Use for what-if moves: the whole portfolio moved by one percentage, or listed assets moved while the rest stay put. Gives before and after values per asset and computed totals; unvalued assets are listed apart."
        }
        ToolName::ConcentrationRisk => {
            "Use to judge how concentrated the valued portfolio is: largest and top-three weights, Herfindahl index and effective number of holdings, with and without stablecoins, plus the stablecoin share."
        }
        ToolName::TxSearch => {
            "Use to find individual spot transactions across accounts by symbol, inclusive date range or type, newest first, a page at a time; pages start at one. If a result is truncated, retry with a narrower filter."
        }
    }
}

/// The title of `tool` (`tools.md` §13.2).
pub const fn title(tool: ToolName) -> &'static str {
    match tool {
        ToolName::PortfolioSummary => "Portfolio summary",
        ToolName::FiscalIntegrity => "Fiscal integrity",
        ToolName::FiscalIntegrityRows => "Fiscal integrity rows",
        ToolName::TokenHistory => "Token history",
        ToolName::TokenLots => "Token lots",
        ToolName::AssetAllocation => "Asset allocation",
        ToolName::RiskMetrics => "Risk metrics",
        ToolName::Kpis => "Key indicators",
        ToolName::DrawdownCurve => "Drawdown curve",
        ToolName::PerformanceHistory => "Performance history",
        ToolName::VolatilityHeatmap => "Volatility heatmap",
        ToolName::SpanishTaxReport => "Spanish tax report",
        ToolName::LivePrices => "Latest prices",
        ToolName::HoldingDetail => "Holding detail",
        ToolName::AccountHoldings => "Account holdings",
        ToolName::TaxYearComparison => "Tax year comparison",
        ToolName::DataGaps => "Data gaps",
        ToolName::ExplainMetric => "Explain metric",
        ToolName::ScenarioPositionValue => "Position value scenario",
        ToolName::BreakevenPrice => "Breakeven price",
        ToolName::DerivativesPnl => "Derivatives PnL",
        ToolName::CustodyLocations => "Custody locations",
        ToolName::ScenarioPortfolioShock => "Portfolio shock scenario",
        ToolName::ConcentrationRisk => "Concentration risk",
        ToolName::TxSearch => "Transaction search",
    }
}

/// The annotations object of `tool` (`tools.md` §13.2).
fn annotations(tool: ToolName) -> String {
    format!(
        r#"{{"title":{},"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}"#,
        json_string(title(tool))
    )
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// One tool definition: `name`, `description`, `inputSchema`, `outputSchema`, `annotations`.
pub fn definition(tool: ToolName) -> String {
    format!(
        r#"{{"name":{},"description":{},"inputSchema":{},"outputSchema":{},"annotations":{}}}"#,
        json_string(tool.as_str()),
        json_string(description(tool)),
        input_schema(tool),
        OUTPUT_SCHEMA,
        annotations(tool)
    )
}

/// The compact `{"tools":[…]}` text of a profile's exposed tools, in canonical order.
pub fn tools_list_json(profile: crate::Profile) -> String {
    let definitions = profile
        .exposed()
        .iter()
        .map(|tool| definition(*tool))
        .collect::<Vec<_>>()
        .join(",");
    format!(r#"{{"tools":[{definitions}]}}"#)
}
