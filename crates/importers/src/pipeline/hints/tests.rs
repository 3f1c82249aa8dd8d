use super::*;

#[test]
fn excerpts_are_short_and_escaped() {
    assert_eq!(excerpt("Fecha"), "Fecha");
    assert_eq!(excerpt("a\tb\u{1b}"), "a\\tb\\u{1b}");
    assert_eq!(
        excerpt("You can use this transaction report to inform"),
        "You can use this transaction rep…"
    );
    assert!(sentence(
        "You can use this transaction report to inform your likely tax obligations."
    ));
    assert!(!sentence("UTC_Time"));
}
