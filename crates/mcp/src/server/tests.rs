use serde_json::{Value, json};

use super::{call_params, loggable, tool_answer};

/// The `tools/call` answer for a host result, as text (`Ok`) or `code message` (`Err`).
fn check(result: &Value, expected: Result<&str, &str>, log_word: &str) {
    let (answer, word) = tool_answer("asked_tool", result);
    let answer = answer.map_err(|(code, message)| format!("{code} {message}"));
    assert_eq!(
        answer.as_deref(),
        expected.map_err(ToOwned::to_owned).as_deref()
    );
    assert_eq!(word, log_word);
}

#[test]
fn ok_and_truncated_results_carry_the_same_json_twice() {
    check(
        &json!({"kind":"ok","payload":{"a":"1.50","emoji":"🚀 \"q\""}}),
        Ok(
            r#"{"content":[{"type":"text","text":"{\"kind\":\"ok\",\"payload\":{\"a\":\"1.50\",\"emoji\":\"🚀 \\\"q\\\"\"}}"}],"structuredContent":{"kind":"ok","payload":{"a":"1.50","emoji":"🚀 \"q\""}},"isError":false}"#,
        ),
        "ok",
    );
    let expected = truncated_line();
    check(
        &json!({"kind":"truncated","maxChars":600,"actualChars":601}),
        Ok(&expected),
        "truncated",
    );
}

/// The expected truncated line: the text copy is whatever order serde_json serialises.
fn truncated_line() -> String {
    let value = json!({"kind":"truncated","maxChars":600,"actualChars":601});
    let text = serde_json::to_string(&value).unwrap();
    format!(
        r#"{{"content":[{{"type":"text","text":{}}}],"structuredContent":{text},"isError":false}}"#,
        serde_json::to_string(&text).unwrap()
    )
}

#[test]
fn error_values_become_error_results_or_unknown_tool() {
    check(
        &json!({"kind":"error","code":"INVALID_TOOL_INPUT","tool":"tx_search","path":"/page","reason":"out_of_range","message":"page must be an integer from 1 to 1000000; pages start at 1."}),
        Ok(
            r#"{"content":[{"type":"text","text":"INVALID_TOOL_INPUT at /page (out_of_range): page must be an integer from 1 to 1000000; pages start at 1. Correct the arguments and call tx_search again."}],"isError":true}"#,
        ),
        "INVALID_TOOL_INPUT",
    );
    check(
        &json!({"kind":"error","code":"INVALID_TOOL_INPUT","tool":"kpis","path":"","reason":"not_an_object","message":"arguments must be an object."}),
        Ok(
            r#"{"content":[{"type":"text","text":"INVALID_TOOL_INPUT at (root) (not_an_object): arguments must be an object. Correct the arguments and call kpis again."}],"isError":true}"#,
        ),
        "INVALID_TOOL_INPUT",
    );
    check(
        &json!({"kind":"error","code":"USE_CASE_FAILED","tool":"kpis","message":"GetKpis failed: disk."}),
        Ok(
            r#"{"content":[{"type":"text","text":"USE_CASE_FAILED: GetKpis failed: disk. This is not an input problem; calling kpis again with the same arguments will fail the same way until the ledger is fixed, so tell the user."}],"isError":true}"#,
        ),
        "USE_CASE_FAILED",
    );
    check(
        &json!({"kind":"error","code":"UNKNOWN_TOOL","tool":"fees_paid","message":"unknown tool fees_paid."}),
        Err("-32602 Unknown tool: asked_tool"),
        "UNKNOWN_TOOL",
    );
    check(
        &json!({"kind":"error","code":"NEW"}),
        Err("-32603 Internal error"),
        "unexpected error value",
    );
    check(
        &json!({"kind":"odd"}),
        Err("-32603 Internal error"),
        "unexpected result",
    );
    check(
        &json!([1]),
        Err("-32603 Internal error"),
        "unexpected result",
    );
}

#[test]
fn call_params_follow_the_table_of_the_spec() {
    let call = |params: Option<Value>| {
        call_params(params).map_err(|(code, message)| format!("{code} {message}"))
    };
    assert_eq!(
        call(Some(json!({"name":"kpis"}))),
        Ok(("kpis".to_owned(), json!({})))
    );
    assert_eq!(
        call(Some(json!({"name":"kpis","arguments":null,"_meta":{}}))),
        Ok(("kpis".to_owned(), json!({})))
    );
    assert_eq!(
        call(Some(json!({"name":"x","arguments":{"a":1}}))),
        Ok(("x".to_owned(), json!({"a":1})))
    );
    let not_object = Err("-32602 Invalid params: params must be an object".to_owned());
    assert_eq!(call(Some(json!("kpis"))), not_object);
    assert_eq!(call(Some(json!(null))), not_object);
    let no_name = Err("-32602 Invalid params: name must be a string".to_owned());
    assert_eq!(call(None), no_name);
    assert_eq!(call(Some(json!({"name":5}))), no_name);
    assert_eq!(
        call(Some(json!({"name":"kpis","arguments":[]}))),
        Err("-32602 Invalid params: arguments must be an object".to_owned())
    );
}

#[test]
fn log_names_are_cut_and_free_of_control_characters() {
    assert_eq!(loggable("a\nb"), "a?b");
    assert_eq!(loggable(&"x".repeat(100)).len(), 64);
}
