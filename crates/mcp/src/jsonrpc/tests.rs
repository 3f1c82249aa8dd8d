use std::io::{BufReader, Cursor};

use serde_json::{Value, json};

use super::{
    Incoming, Line, MAX_LINE_BYTES, classify, code, error_line, is_blank, read_line, result_line,
};

/// Reads every line of `input` with `limit`, through a reader whose buffer is `capacity` bytes.
fn lines(input: &[u8], limit: usize, capacity: usize) -> Vec<Result<String, Line>> {
    let mut reader = BufReader::with_capacity(capacity, Cursor::new(input.to_vec()));
    let mut buf = Vec::new();
    let mut out = Vec::new();
    loop {
        match read_line(&mut reader, &mut buf, limit).unwrap() {
            Line::Eof => return out,
            Line::Text => out.push(Ok(String::from_utf8_lossy(&buf).into_owned())),
            Line::TooLong => out.push(Err(Line::TooLong)),
        }
    }
}

#[test]
fn lines_are_split_on_newline_with_a_trailing_cr_removed() {
    for capacity in [1, 2, 3, 7, 64] {
        assert_eq!(
            lines(b"a\r\nbc\n\n  \nlast", 10, capacity),
            vec![
                Ok("a".to_owned()),
                Ok("bc".to_owned()),
                Ok(String::new()),
                Ok("  ".to_owned()),
                Ok("last".to_owned()),
            ],
            "capacity {capacity}"
        );
    }
}

#[test]
fn long_lines_are_discarded_and_reading_goes_on() {
    for capacity in [1, 4, 64] {
        assert_eq!(
            lines(b"12345\n123456\n123456\r\n1234567\nok", 5, capacity),
            vec![
                Ok("12345".to_owned()),
                Err(Line::TooLong),
                Err(Line::TooLong),
                Err(Line::TooLong),
                Ok("ok".to_owned()),
            ],
            "capacity {capacity}"
        );
        assert_eq!(
            lines(b"12345\r\n", 5, capacity),
            vec![Ok("12345".to_owned())]
        );
    }
}

#[test]
fn the_line_cap_is_one_mebibyte() {
    let mut input = vec![b' '; MAX_LINE_BYTES];
    input.push(b'\n');
    input.extend(vec![b'x'; MAX_LINE_BYTES + 1]);
    input.push(b'\n');
    let read = lines(&input, MAX_LINE_BYTES, 8192);
    assert_eq!(read.len(), 2);
    assert!(read[0].is_ok());
    assert_eq!(read[1], Err(Line::TooLong));
}

#[test]
fn blank_lines_are_whitespace_only() {
    assert!(is_blank(b""));
    assert!(is_blank(b" \t \r"));
    assert!(!is_blank(b" {} "));
}

fn invalid(id: Value, code: i64, message: &'static str) -> Incoming {
    Incoming::Invalid { id, code, message }
}

/// Classifies `line` and compares with `expected`.
fn check(line: &[u8], expected: &Incoming) {
    assert_eq!(
        &classify(line),
        expected,
        "line {}",
        String::from_utf8_lossy(line)
    );
}

#[test]
fn classification_follows_the_steps_of_the_spec() {
    let parse = invalid(Value::Null, code::PARSE_ERROR, "Parse error");
    check(b"{", &parse);
    check(b"\xff\xfe{}", &parse);
    check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}}"#, &parse);
    check(br#"{"s":"\ud800"}"#, &parse);
    check(
        br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        &invalid(
            Value::Null,
            code::INVALID_REQUEST,
            "Invalid request: batches are not supported",
        ),
    );
    for scalar in [&b"1"[..], b"\"x\"", b"null", b"true"] {
        check(
            scalar,
            &invalid(
                Value::Null,
                code::INVALID_REQUEST,
                "Invalid request: a message must be an object",
            ),
        );
    }
    let bad_id = invalid(
        Value::Null,
        code::INVALID_REQUEST,
        "Invalid request: id must be a string or an integer",
    );
    for id in ["null", "1.5", "1.0", "true", "[1]", "{}", "1e3"] {
        check(
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#).as_bytes(),
            &bad_id,
        );
    }
    check(
        br#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        &Incoming::ClientResponse,
    );
    check(
        br#"{"id":"a","error":{"code":1}}"#,
        &Incoming::ClientResponse,
    );
    let bad_version = |id: Value| {
        invalid(
            id,
            code::INVALID_REQUEST,
            "Invalid request: jsonrpc must be \"2.0\"",
        )
    };
    check(br#"{"id":7,"method":"ping"}"#, &bad_version(json!(7)));
    check(
        br#"{"jsonrpc":"1.0","id":"x","method":"ping"}"#,
        &bad_version(json!("x")),
    );
    check(
        br#"{"jsonrpc":2.0,"method":"ping"}"#,
        &bad_version(Value::Null),
    );
    let bad_method = |id: Value| {
        invalid(
            id,
            code::INVALID_REQUEST,
            "Invalid request: method must be a string",
        )
    };
    check(br#"{"jsonrpc":"2.0","id":-3}"#, &bad_method(json!(-3)));
    check(
        br#"{"jsonrpc":"2.0","id":"","method":5}"#,
        &bad_method(json!("")),
    );
    check(
        br#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}"#,
        &Incoming::Notification {
            method: "notifications/initialized".to_owned(),
        },
    );
    check(
        br#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping","params":[1]}"#,
        &Incoming::Request {
            id: json!(18_446_744_073_709_551_615_u64),
            method: "ping".to_owned(),
            params: Some(json!([1])),
        },
    );
    check(
        br#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"x"}"#,
        &Incoming::Request {
            id: json!(i64::MIN),
            method: "x".to_owned(),
            params: None,
        },
    );
}

#[test]
fn responses_have_the_fixed_key_order_and_echo_the_id() {
    assert_eq!(
        result_line(&json!("a\"b"), "{}").unwrap(),
        r#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#
    );
    assert_eq!(
        error_line(&json!(-1), code::METHOD_NOT_FOUND, "Method not found: a\nb").unwrap(),
        r#"{"jsonrpc":"2.0","id":-1,"error":{"code":-32601,"message":"Method not found: a\nb"}}"#
    );
    assert_eq!(
        error_line(&Value::Null, code::PARSE_ERROR, "Parse error").unwrap(),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
    );
}

/// The lines of `input` by plain splitting: the model `read_line` must agree with.
fn split_model(input: &[u8], limit: usize) -> Vec<Result<String, Line>> {
    let mut parts: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if parts.last().is_some_and(|last| last.is_empty()) {
        parts.pop();
    }
    parts
        .into_iter()
        .map(|line| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.len() > limit {
                Err(Line::TooLong)
            } else {
                Ok(String::from_utf8_lossy(line).into_owned())
            }
        })
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    #[test]
    fn read_line_agrees_with_splitting_for_any_bytes_and_buffer_size(
        input in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::prelude::Just(b'\n'),
                proptest::prelude::Just(b'\r'),
                proptest::prelude::any::<u8>(),
            ],
            0..200,
        ),
        limit in 0_usize..20,
        capacity in 1_usize..16,
    ) {
        proptest::prop_assert_eq!(lines(&input, limit, capacity), split_model(&input, limit));
    }

    #[test]
    fn classify_never_panics(line in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..100)) {
        let _ = classify(&line);
    }
}
