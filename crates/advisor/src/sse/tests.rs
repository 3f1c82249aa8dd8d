use super::*;

#[test]
fn data_lines_dispatch_on_a_blank_line() {
    let mut decoder = Decoder::default();
    assert_eq!(decoder.line("event: message_start\n"), None);
    assert_eq!(decoder.line("data: {\"a\":1}\r\n"), None);
    assert_eq!(
        decoder.line("\r\n"),
        Some(Event {
            name: "message_start".to_owned(),
            data: "{\"a\":1}".to_owned()
        })
    );
    assert_eq!(decoder.line(": keep-alive\n"), None);
    assert_eq!(decoder.line("\n"), None);
    assert_eq!(decoder.line("data:x"), None);
    assert_eq!(decoder.line("data: y"), None);
    assert_eq!(
        decoder.finish(),
        Some(Event {
            name: String::new(),
            data: "x\ny".to_owned()
        })
    );
}

#[test]
fn sniffs_event_streams() {
    assert!(looks_like_sse("data: {}"));
    assert!(looks_like_sse(": ping"));
    assert!(!looks_like_sse("{\"choices\":[]}"));
    assert!(!looks_like_sse("<html>"));
}
