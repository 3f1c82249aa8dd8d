use super::*;

#[test]
fn spanish_numbers_group_thousands_with_dots_and_use_a_decimal_comma() {
    assert_eq!(es_number("14046.32"), "14.046,32");
    assert_eq!(es_number("-1234567.5"), "-1.234.567,5");
    assert_eq!(es_number("999.00"), "999,00");
    assert_eq!(es_number("0.00000001"), "0,00000001");
    assert_eq!(es_number("100000"), "100.000");
    assert_eq!(es_number("-"), "-");
    assert_eq!(es_number("n/a"), "n/a");
}

#[test]
fn languages_parse_and_unknown_ones_are_usage_errors() {
    assert_eq!(Lang::parse("ES").unwrap(), Lang::Es);
    assert_eq!(Lang::parse("en").unwrap(), Lang::En);
    let error = Lang::parse("fr").unwrap_err();
    assert_eq!(error.code, "unknown-language");
    assert!(error.reason.contains("--lang es"), "{}", error.reason);
}

#[test]
fn wrap_keeps_words_whole_within_the_width() {
    assert_eq!(wrap("a bb ccc dddd", 6), vec!["a bb", "ccc", "dddd"]);
    assert_eq!(wrap("", 10), vec![String::new()]);
}
