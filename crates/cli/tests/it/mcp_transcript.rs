//! Transcript tests of the MCP server (`mcp.md` §7.1): each
//! `crates/mcp/tests/transcripts/<name>.in.jsonl` is fed verbatim into `mcp::serve` and the
//! output is compared byte for byte with `<name>.out.jsonl` (rewritten with `CARTERA_BLESS=1`).
//! They live in the cli test binary because the host runs the real use cases over a fixture
//! ledger, and only `cli` may depend on `ledger-sqlite` (the crate map).

use std::path::PathBuf;

use ai_tools::Profile;
use mcp::Server;
use serde_json::Value;

use crate::mcp_support::{
    assert_pairs_up, failing_server, fixture_server, mcp_tests_dir, serve_bytes,
};

fn transcript(name: &str, extension: &str) -> PathBuf {
    mcp_tests_dir()
        .join("transcripts")
        .join(format!("{name}.{extension}"))
}

/// Serves `<name>.in.jsonl` (plus `extra` input) and compares with `<name>.out.jsonl`.
fn check(name: &str, server: &Server, extra: &[u8]) -> Vec<Value> {
    let mut input = std::fs::read(transcript(name, "in.jsonl")).unwrap();
    input.extend_from_slice(extra);
    let (output, log) = serve_bytes(server, &input);
    assert_pairs_up(&input, &output);
    // The in-process form answers line by line exactly as the loop does.
    let per_line: Vec<u8> = input
        .split(|&b| b == b'\n')
        .filter_map(|line| server.handle_line(line.strip_suffix(b"\r").unwrap_or(line)))
        .flat_map(|line| format!("{line}\n").into_bytes())
        .collect();
    assert_eq!(
        String::from_utf8_lossy(&per_line),
        String::from_utf8_lossy(&output)
    );
    assert!(
        log.lines()
            .all(|line| line.starts_with("cartera mcp: line ")),
        "log lines: {log}"
    );
    let golden = transcript(name, "out.jsonl");
    #[allow(clippy::disallowed_methods, reason = "the bless switch of the goldens")]
    if std::env::var_os("CARTERA_BLESS").is_some() {
        std::fs::write(&golden, &output).unwrap();
    }
    let expected = std::fs::read_to_string(&golden)
        .unwrap_or_else(|_| panic!("missing {}; run with CARTERA_BLESS=1", golden.display()));
    let actual = String::from_utf8(output).unwrap();
    for (n, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "{name}: response {n} differs from the golden");
    }
    assert_eq!(actual, expected, "{name}: output differs from the golden");
    actual
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn result(response: &Value) -> &Value {
    response
        .get("result")
        .unwrap_or_else(|| panic!("not a result: {response}"))
}

fn error(response: &Value) -> (i64, &str) {
    let error = response
        .get("error")
        .unwrap_or_else(|| panic!("not an error: {response}"));
    let keys: Vec<&str> = error
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["code", "message"]);
    (
        error["code"].as_i64().unwrap(),
        error["message"].as_str().unwrap(),
    )
}

/// A tool result of `tools/call`: `(isError, text, structuredContent)`.
fn tool_result(response: &Value) -> (bool, &str, Option<&Value>) {
    let result = result(response);
    let keys: Vec<&str> = result
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let is_error = result["isError"].as_bool().unwrap();
    if is_error {
        assert_eq!(keys, ["content", "isError"]);
    } else {
        assert_eq!(keys, ["content", "structuredContent", "isError"]);
    }
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 1);
    assert_eq!(content[0]["type"], "text");
    let text = content[0]["text"].as_str().unwrap();
    let structured = result.get("structuredContent");
    if let Some(structured) = structured {
        let parsed: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            &parsed, structured,
            "the text copy parses to structuredContent"
        );
        assert_eq!(serde_json::to_string(structured).unwrap(), text);
        let kind = structured["kind"].as_str().unwrap();
        assert!(kind == "ok" || kind == "truncated", "kind {kind}");
    }
    (is_error, text, structured)
}

#[test]
fn handshake() {
    let responses = check("handshake", &failing_server(Profile::Metered), b"");
    let versions: Vec<&str> = responses
        .iter()
        .filter_map(|r| r.get("result")?.get("protocolVersion")?.as_str())
        .collect();
    assert_eq!(
        versions,
        [
            "2025-11-25",
            "2025-06-18",
            "2025-03-26",
            "2025-11-25",
            "2025-11-25"
        ]
    );
    let init = result(&responses[2]);
    let keys: Vec<&str> = init
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "protocolVersion",
            "capabilities",
            "serverInfo",
            "instructions"
        ]
    );
    assert_eq!(
        init["capabilities"],
        serde_json::json!({"tools":{"listChanged":false},"resources":{"subscribe":false,"listChanged":false},"prompts":{"listChanged":false}})
    );
    assert_eq!(
        init["serverInfo"],
        serde_json::json!({"name":"cartera","version":"0.0.0-test"})
    );
    let instructions = init["instructions"].as_str().unwrap();
    assert_eq!(
        instructions,
        host(Profile::Metered).instructions(
            &ai_tools::Locale::parse("en").unwrap(),
            &ai_tools::CurrencyCode::EUR
        ),
        "byte-identical to the ai-tools instructions"
    );
    assert!(instructions.contains("tax_year_comparison"));
    assert!(instructions.ends_with("locale en. The base currency is EUR; when a result declares another currency, say so instead of presenting its figures as EUR."));
    assert!(!instructions.chars().any(|c| c.is_ascii_digit()));
    assert_eq!(result(&responses[0]), &serde_json::json!({}));
    assert_eq!(
        error(&responses[1]),
        (-32601, "Method not found: server/discover")
    );
    let invalid = "Invalid params: protocolVersion must be a string";
    assert_eq!(error(&responses[8]), (-32602, invalid));
    assert_eq!(error(&responses[9]), (-32602, invalid));
    assert_eq!(error(&responses[10]), (-32602, invalid));
    assert_eq!(
        error(&responses[11]),
        (-32602, "Invalid params: params must be an object")
    );
    // Resources and prompts are served (from a static listing, even over a failing ledger).
    assert_eq!(
        result(&responses[12])["resources"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        error(&responses[13]),
        (-32002, "Resource not found: file:///etc/passwd")
    );
    assert_eq!(
        result(&responses[14])["prompts"].as_array().unwrap().len(),
        3
    );
    assert_eq!(
        error(&responses[15]),
        (-32602, "Invalid params: unknown prompt x")
    );
    for (n, method) in ["logging/setLevel", "completion/complete"]
        .iter()
        .enumerate()
    {
        assert_eq!(
            error(&responses[16 + n]),
            (-32601, format!("Method not found: {method}").as_str())
        );
    }
    assert_eq!(result(&responses[18]), &serde_json::json!({}));
}

#[test]
fn resources_and_prompts() {
    let server = fixture_server(Profile::Metered);
    let responses = check("resources_prompts", &server, b"");
    let text = std::fs::read_to_string(transcript("resources_prompts", "out.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Listings are byte-stable across calls and within their ceiling.
    let listing = |line: &str| line.split_once(",\"result\":").unwrap().1.to_owned();
    assert_eq!(listing(lines[1]), listing(lines[2]));
    assert_eq!(listing(lines[13]), listing(lines[21]));
    for n in [1, 3, 13] {
        assert!(listing(lines[n]).chars().count() <= mcp::LISTING_CEILING_CHARS + 1);
    }
    let templates = &result(&responses[3])["resourceTemplates"][0];
    assert_eq!(templates["uriTemplate"], "cartera://tax/{year}");
    // Each resource reads as the tool result `tools/call` would carry.
    let now = core_domain::Instant::parse(crate::mcp_support::NOW).unwrap();
    let store = ledger_sqlite::ReadOnlyLedger::open(crate::mcp_support::fixture_ledger()).unwrap();
    let host = ai_tools::ToolHost::new(
        std::sync::Arc::new(use_cases::queries::LedgerQueries::new(
            store,
            use_cases::ports::FixedClock(now),
        )),
        Profile::Metered,
        ai_tools::CacheConfig::default(),
        std::sync::Arc::new(use_cases::ports::FixedClock(now)),
    );
    let ctx = ai_tools::RequestContext {
        tenant: ai_tools::TenantId::new("test").unwrap(),
        locale: ai_tools::Locale::parse("en").unwrap(),
        base_currency: ai_tools::CurrencyCode::EUR,
    };
    for (n, tool, arguments) in [
        (4, "portfolio_summary", serde_json::json!({})),
        (5, "fiscal_integrity", serde_json::json!({})),
        (7, "spanish_tax_report", serde_json::json!({"year":2024})),
    ] {
        let content = &result(&responses[n])["contents"][0];
        assert_eq!(content["mimeType"], "application/json");
        let read: Value = serde_json::from_str(content["text"].as_str().unwrap()).unwrap();
        assert_eq!(read["kind"], "ok", "{tool}");
        assert_eq!(read, host.call(&ctx, None, tool, &arguments), "{tool}");
    }
    let glossary: Value = serde_json::from_str(
        result(&responses[6])["contents"][0]["text"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(glossary["metrics"].as_array().unwrap().len(), 17);
    assert_eq!(glossary["metrics"][9]["metric"], "hhi");
    assert_eq!(error(&responses[8]).0, -32602);
    assert!(
        error(&responses[8])
            .1
            .starts_with("Invalid params: year must be")
    );
    assert_eq!(
        error(&responses[9]),
        (-32002, "Resource not found: cartera://tax/twenty")
    );
    assert_eq!(error(&responses[10]).0, -32002);
    assert_eq!(
        error(&responses[11]),
        (-32602, "Invalid params: uri must be a string")
    );
    assert_eq!(
        error(&responses[12]),
        (-32602, "Invalid params: unknown cursor")
    );
    let filing = result(&responses[14]);
    assert!(
        filing["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("Call spanish_tax_report with year 2024")
    );
    assert_eq!(
        error(&responses[15]),
        (-32602, "Invalid params: missing argument year")
    );
    assert_eq!(error(&responses[16]).0, -32602);
    assert_eq!(result(&responses[17])["messages"][0]["role"], "user");
    assert_eq!(result(&responses[18])["messages"][0]["role"], "user");
    assert_eq!(
        error(&responses[19]),
        (-32602, "Invalid params: unknown prompt fees_review")
    );
    assert_eq!(
        error(&responses[20]),
        (-32602, "Invalid params: params must be an object")
    );
}

#[test]
fn tools_list_metered() {
    let server = failing_server(Profile::Metered);
    let responses = check("tools_list_metered", &server, b"");
    let text = std::fs::read_to_string(transcript("tools_list_metered", "out.jsonl")).unwrap();
    let tools = result(&responses[0])["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let canonical: Vec<&str> = shared_types::ToolName::ALL
        .iter()
        .map(|t| t.as_str())
        .collect();
    assert_eq!(names, canonical);
    assert_eq!(names.len(), 25);
    // The two listings are byte-identical.
    let lines: Vec<&str> = text.lines().collect();
    let strip = |line: &str, id: &str| {
        line.strip_prefix(&format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":"))
            .unwrap()
            .to_owned()
    };
    assert_eq!(strip(lines[0], "1"), strip(lines[1], "\"second\""));
    assert_eq!(
        format!("{}}}", ai_tools_list(Profile::Metered)),
        strip(lines[0], "1")
    );
    assert_eq!(
        error(&responses[2]),
        (-32602, "Invalid params: unknown cursor")
    );
    assert_eq!(
        error(&responses[3]),
        (-32602, "Invalid params: unknown cursor")
    );
    assert_eq!(
        error(&responses[4]),
        (-32602, "Invalid params: params must be an object")
    );
}

/// A host of `profile` over the fixture ledger.
fn host(profile: Profile) -> ai_tools::ToolHost {
    use std::sync::Arc;
    ai_tools::ToolHost::new(
        Arc::new(use_cases_stub()),
        profile,
        ai_tools::CacheConfig::default(),
        Arc::new(use_cases::ports::FixedClock(
            core_domain::Instant::from_unix_nanos(0),
        )),
    )
}

/// The host's catalogue text for a profile.
fn ai_tools_list(profile: Profile) -> String {
    host(profile).tools_list_json().to_owned()
}

fn use_cases_stub() -> impl use_cases::queries::ReadUseCases {
    let store = ledger_sqlite::ReadOnlyLedger::open(crate::mcp_support::fixture_ledger()).unwrap();
    use_cases::queries::LedgerQueries::new(
        store,
        use_cases::ports::FixedClock(core_domain::Instant::from_unix_nanos(0)),
    )
}

#[test]
fn tools_list_local() {
    let profile = Profile::local(8192).unwrap();
    let responses = check("tools_list_local", &fixture_server(profile), b"");
    let tools = result(&responses[1])["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "portfolio_summary",
            "fiscal_integrity",
            "token_history",
            "asset_allocation",
            "kpis",
            "spanish_tax_report",
            "live_prices",
            "holding_detail",
            "account_holdings",
            "tax_year_comparison",
            "data_gaps",
            "explain_metric",
            "scenario_position_value",
            "breakeven_price",
        ]
    );
    let instructions = result(&responses[0])["instructions"].as_str().unwrap();
    assert!(instructions.contains("larger profile"));
    assert_eq!(error(&responses[2]), (-32602, "Unknown tool: risk_metrics"));
    assert_eq!(error(&responses[3]), (-32602, "Unknown tool: tx_search"));
    let (is_error, _, structured) = tool_result(&responses[4]);
    assert!(!is_error);
    assert_eq!(structured.unwrap()["kind"], "ok");
}

#[test]
fn calls() {
    let responses = check("calls", &fixture_server(Profile::Metered), b"");
    // Tool failures are tool results, never JSON-RPC errors (until the payloads land, a
    // projection may still answer USE_CASE_FAILED).
    for (n, response) in responses.iter().enumerate().take(9) {
        let (is_error, text, _) = tool_result(response);
        assert!(
            !is_error || text.starts_with("USE_CASE_FAILED: "),
            "call {n}: {text}"
        );
    }
    let (_, text, structured) = tool_result(&responses[7]);
    assert_eq!(structured.unwrap()["payload"]["metric"], "hhi", "{text}");
    let invalid = |n: usize, path: &str, reason: &str, tool: &str| {
        let (is_error, text, structured) = tool_result(&responses[n]);
        assert!(is_error);
        assert!(structured.is_none());
        assert!(
            text.starts_with(&format!("INVALID_TOOL_INPUT at {path} ({reason}): ")),
            "call {n}: {text}"
        );
        assert!(text.ends_with(&format!(". Correct the arguments and call {tool} again.")));
    };
    invalid(9, "/accountId", "unknown_field", "portfolio_summary");
    invalid(10, "/page", "out_of_range", "tx_search");
    invalid(11, "/yearB", "must_differ", "tax_year_comparison");
    invalid(12, "/symbol", "pattern_mismatch", "holding_detail");
    invalid(
        13,
        "/hypotheticalPrice",
        "pattern_mismatch",
        "scenario_position_value",
    );
    assert_eq!(error(&responses[14]), (-32602, "Unknown tool: fees_paid"));
    assert_eq!(
        error(&responses[15]),
        (-32602, "Invalid params: name must be a string")
    );
    assert_eq!(
        error(&responses[16]),
        (-32602, "Invalid params: arguments must be an object")
    );
    assert_eq!(
        error(&responses[17]),
        (-32602, "Invalid params: params must be an object")
    );
    // `arguments: null` is `{}`: never an input error.
    let (is_error, text, _) = tool_result(&responses[18]);
    assert!(!is_error || text.starts_with("USE_CASE_FAILED: "), "{text}");
    let (is_error, text, _) = tool_result(&responses[19]);
    assert!(!is_error || text.starts_with("USE_CASE_FAILED: "), "{text}");
    invalid(20, "/shock/pct", "out_of_range", "scenario_portfolio_shock");
    assert_eq!(
        error(&responses[21]),
        (-32602, "Invalid params: name must be a string")
    );
    assert_eq!(
        error(&responses[22]),
        (-32602, "Invalid params: name must be a string")
    );
}

#[test]
fn truncated() {
    let profile = Profile::local(1000).unwrap();
    let responses = check("truncated", &fixture_server(profile), b"");
    for response in &responses {
        let (is_error, text, structured) = tool_result(response);
        if is_error {
            // Until the portfolio payload lands the projection fails; it must still be a result.
            assert!(text.starts_with("USE_CASE_FAILED: "), "{text}");
            continue;
        }
        let structured = structured.unwrap();
        assert_eq!(structured["kind"], "truncated", "{text}");
        assert_eq!(structured["maxChars"], 600);
        assert!(structured["actualChars"].as_u64().unwrap() > 600);
    }
}

#[test]
fn framing() {
    // A line over 1 MiB, then a good request: the session goes on.
    let mut extra = vec![b'{'; mcp::jsonrpc::MAX_LINE_BYTES + 1];
    extra.push(b'\n');
    extra.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}\n");
    let responses = check("framing", &failing_server(Profile::Metered), &extra);
    let errors: Vec<(i64, String)> = responses
        .iter()
        .filter_map(|r| r.get("error").map(|_| error(r)))
        .map(|(code, message)| (code, message.to_owned()))
        .collect();
    let count = |code: i64| errors.iter().filter(|(c, _)| *c == code).count();
    assert_eq!(count(-32700), 2);
    assert!(errors.contains(&(-32600, "Invalid request: line longer than 1 MiB".to_owned())));
    assert!(errors.contains(&(
        -32600,
        "Invalid request: batches are not supported".to_owned()
    )));
    assert_eq!(result(responses.last().unwrap()), &serde_json::json!({}));
    assert_eq!(responses.last().unwrap()["id"], "after");
}

#[test]
fn use_case_failure() {
    let responses = check("use_case_failure", &failing_server(Profile::Metered), b"");
    for response in &responses[..2] {
        let (is_error, text, structured) = tool_result(response);
        assert!(is_error);
        assert!(structured.is_none());
        assert!(text.starts_with("USE_CASE_FAILED: "), "{text}");
        assert!(text.ends_with(" again with the same arguments will fail the same way until the ledger is fixed, so tell the user."));
    }
    let (is_error, _, _) = tool_result(&responses[2]);
    assert!(!is_error, "explain_metric reads no use case");
    assert_eq!(result(&responses[3]), &serde_json::json!({}));
}
