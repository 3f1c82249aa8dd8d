use super::*;

#[test]
fn short_text_is_kept() {
    assert_eq!(excerpt("BTC"), "BTC");
    assert_eq!(
        quote_excerpts("\"1e5\" is not a plain decimal number"),
        "\"1e5\" is not a plain decimal number"
    );
}

#[test]
fn control_characters_are_escaped() {
    assert_eq!(excerpt("a\0b\u{1b}[31m\n"), "a\\0b\\u{1b}[31m\\n");
    assert_eq!(quote_excerpts("\"x\0\" is bad\n"), "\"x\\0\" is bad\\n");
}

#[test]
fn long_values_are_cut() {
    let cell = "9".repeat(5_000_000);
    let message = quote_excerpts(&format!("\"{cell}\" is not a plain decimal number"));
    assert_eq!(
        message,
        format!(
            "\"{}…\" is not a plain decimal number",
            "9".repeat(EXCERPT_CHARS)
        )
    );
    let long = "x".repeat(1000);
    assert_eq!(quote_excerpts(&long).chars().count(), MESSAGE_CHARS + 1);
}

#[test]
fn values_with_quotes_and_several_values() {
    assert_eq!(
        quote_excerpts("\"a\"b\" is not \"c\""),
        "\"a\"b\" is not \"c\""
    );
    assert_eq!(
        quote_excerpts("open \"never closed"),
        "open \"never closed\""
    );
}
